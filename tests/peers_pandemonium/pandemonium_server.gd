# A real Pandemonium peer for FastVarCodec's Pandemonium dialects: a server that speaks only
# through the engine's own StreamPeer / PacketPeer put_var and get_var. Pandemonium GDScript; runs
# unchanged on v4.9.0 (DIALECT_PANDEMONIUM_3_8) and v5.2.0 (DIALECT_PANDEMONIUM_5).
#
#   pandemonium-server --path tests/peers_pandemonium -s res://pandemonium_server.gd \
#       --mode=tcp|udp --port=47400 [--timeout=60]
#
# tcp: listens on 127.0.0.1:PORT (TCP_Server), takes one connection; every value it receives it
#      decodes with get_var and sends back with put_var, until the String "__fvc_end__"; then it
#      sends its own values (values_pandemonium.gd: every Pandemonium type, nested containers,
#      values >= 1 MiB, one full object; on v5 typed arrays) and waits for the client to close.
# udp: binds PacketPeerUDP to 127.0.0.1:PORT; answers "__fvc_hello__" with "__fvc_hello__",
#      echoes every other datagram's value with put_var until "__fvc_end__", then sends its own
#      values that fit a datagram, one at a time, each acknowledged by ["__fvc_ack__", index].
# A value the engine cannot decode (its get_var fails: see docs/wire_format.md#pandemonium-decoder-bugs) is echoed as null.
#
# Every value is handled in a function call of its own: in v5.2.0, assigning a TypedArray to a
# variable (or a GDScript temporary) that holds a TypedArray of another element type keeps the
# old one (TypedArray::_ref refuses, printing an error), so a loop that reuses one variable would
# echo a stale typed array. A fresh call frame starts with empty variables.
#
# Exits by itself: after the exchange, or after --timeout seconds (exit code 3/4), with a summary
# line on stdout. Nothing but 127.0.0.1 is used.
extends SceneTree

const Values = preload("res://values_pandemonium.gd")

var port = 47400
var mode = "tcp"
var timeout_ms = 60000
var deadline = 0
var values = Values.new()


func _init():
	for a in OS.get_cmdline_args():
		if a.begins_with("--port="):
			port = int(a.substr(7, a.length() - 7))
		elif a.begins_with("--mode="):
			mode = a.substr(7, a.length() - 7)
		elif a.begins_with("--timeout="):
			timeout_ms = int(float(a.substr(10, a.length() - 10)) * 1000.0)
	deadline = OS.get_ticks_msec() + timeout_ms
	var code = 2
	if mode == "tcp":
		code = run_tcp()
	elif mode == "udp":
		code = run_udp()
	else:
		printerr("pandemonium_server.gd: unknown --mode=" + mode)
	print("pandemonium_server.gd: exit code %d" % code)
	quit(code)


func time_left():
	return OS.get_ticks_msec() < deadline


func is_mark(v, mark):
	return typeof(v) == TYPE_STRING and v == mark


func run_tcp():
	var server = TCP_Server.new()
	var err = server.listen(port, "127.0.0.1")
	if err != OK:
		printerr("pandemonium_server.gd: cannot listen on 127.0.0.1:%d (error %d)" % [port, err])
		return 2
	print("pandemonium_server.gd: Pandemonium %s listening on tcp 127.0.0.1:%d" % [Engine.get_version_info().string, port])
	var peer = null
	while time_left():
		if server.is_connection_available():
			peer = server.take_connection()
			break
		OS.delay_msec(5)
	server.stop()
	if peer == null:
		printerr("pandemonium_server.gd: no client connected before the timeout")
		return 3
	peer.set_no_delay(true)

	# Echo phase: the engine's own get_var / put_var (blocking once a value has started).
	var echoed = 0
	var got_end = false
	while time_left():
		if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			break
		if peer.get_available_bytes() < 4:
			OS.delay_msec(1)
			continue
		if not echo_one_tcp(peer):
			got_end = true
			break
		echoed += 1
	if not got_end:
		printerr("pandemonium_server.gd: the client went away or the time ran out before the end marker (%d echoed)" % echoed)
		return 4

	# Own values.
	var own = values.values()
	for e in own:
		send_one_tcp(peer, e)
		if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			printerr("pandemonium_server.gd: the client went away while own values were sent")
			return 4
	# Wait for the client to close (it reads everything first).
	while time_left() and peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
		var r = peer.get_partial_data(1)
		if r[0] != OK:
			break
		OS.delay_msec(5)
	peer.disconnect_from_host()
	print("pandemonium_server.gd: tcp: echoed %d values, sent %d own values" % [echoed, own.size()])
	return 0


## Reads one value and sends it back; false at the end marker.
func echo_one_tcp(peer):
	var v = peer.get_var(false)
	if is_mark(v, Values.END_MARK):
		return false
	peer.put_var(v, false)
	return true


func send_one_tcp(peer, e):
	peer.put_var(e[1], e[2] == "full")


func run_udp():
	var udp = PacketPeerUDP.new()
	var err = udp.listen(port, "127.0.0.1", 1 << 20)
	if err != OK:
		printerr("pandemonium_server.gd: cannot bind udp 127.0.0.1:%d (error %d)" % [port, err])
		return 2
	print("pandemonium_server.gd: Pandemonium %s listening on udp 127.0.0.1:%d" % [Engine.get_version_info().string, port])
	var echoed = 0
	var got_end = false
	while time_left():
		if udp.get_available_packet_count() <= 0:
			OS.delay_msec(1)
			continue
		var r = echo_one_udp(udp)
		if r == "end":
			got_end = true
			break
		if r == "echoed":
			echoed += 1
		elif r != "hello":
			printerr("pandemonium_server.gd: " + r)
			return 4
	if not got_end:
		printerr("pandemonium_server.gd: no end marker before the timeout (%d echoed)" % echoed)
		return 3

	var sent = 0
	var own = values.values()
	for e in own:
		if e[2] != "small":
			continue
		err = send_one_udp(udp, e)
		if err != OK:
			printerr("pandemonium_server.gd: put_var of %s failed (error %d)" % [e[0], err])
			return 4
		# Wait for the acknowledgement of this value before the next one.
		var acked = false
		var ack_deadline = OS.get_ticks_msec() + 5000
		while not acked and time_left() and OS.get_ticks_msec() < ack_deadline:
			if udp.get_available_packet_count() <= 0:
				OS.delay_msec(1)
				continue
			acked = is_ack(udp.get_var(false), sent)
		if not acked:
			printerr("pandemonium_server.gd: no acknowledgement of own value %d (%s)" % [sent, e[0]])
			return 4
		sent += 1
	udp.close()
	print("pandemonium_server.gd: udp: echoed %d values, sent %d own values" % [echoed, sent])
	return 0


## Reads one datagram's value and answers it: "hello", "end", "echoed", or what went wrong.
func echo_one_udp(udp):
	var v = udp.get_var(false)
	udp.set_dest_address(udp.get_packet_ip(), udp.get_packet_port())
	if is_mark(v, Values.HELLO):
		udp.put_var(Values.HELLO)
		return "hello"
	if is_mark(v, Values.END_MARK):
		return "end"
	var err = udp.put_var(v, false)
	if err != OK:
		return "put_var failed (error %d)" % err
	return "echoed"


func send_one_udp(udp, e):
	return udp.put_var(e[1], false)


func is_ack(a, index):
	return typeof(a) == TYPE_ARRAY and a.size() == 2 and is_mark(a[0], Values.ACK) \
			and typeof(a[1]) == TYPE_INT and a[1] == index
