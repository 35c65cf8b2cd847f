# A real Godot 3-family peer for FastVarCodec: a server that speaks only through the engine's own
# StreamPeer / PacketPeer put_var and get_var (tests/peers/godot3_server.gd on Godot 3.2.3 and
# 3.6.2, tests/peers_pandemonium/pandemonium_server.gd on Pandemonium v4.9.0 and v5.2.0).
#
# tcp: listens on 127.0.0.1:PORT (TCP_Server), takes one connection; every value it receives it
#      decodes with get_var and sends back with put_var, until the String "__fvc_end__"; then it
#      sends its own values (the values script) and waits for the client to close.
# udp: binds PacketPeerUDP to 127.0.0.1:PORT; answers "__fvc_hello__" with "__fvc_hello__",
#      echoes every other datagram's value with put_var until "__fvc_end__", then sends its own
#      values that fit a datagram, one at a time, each acknowledged by ["__fvc_ack__", index].
#
# Every value is handled in a function call of its own: in Pandemonium v5.2.0, assigning a
# TypedArray to a variable (or a GDScript temporary) that holds a TypedArray of another element
# type keeps the old one (TypedArray::_ref refuses, printing an error), so a loop that reuses one
# variable would echo a stale typed array. A fresh call frame starts with empty variables.
#
# run() returns the exit code: 0 after the exchange, 2 when it cannot listen, 3/4 when the client
# or the time (--timeout) ran out; a summary line goes to stdout. Nothing but 127.0.0.1 is used.
extends Reference

const Cli = preload("res://godot3_lib/cli.gd")

var name = ""      # the script's file name, which starts every line it prints
var engine = ""    # the engine's name and version, as said when listening
var values = null  # the values script (res://godot3_lib/peer_values.gd)
var port = 47400
var mode = "tcp"
var timeout_ms = 60000
var deadline = 0


func _init(p_name, p_engine, p_values):
	name = p_name
	engine = p_engine
	values = p_values
	var args = Cli.args()
	port = int(args.get("port", str(port)))
	mode = args.get("mode", mode)
	timeout_ms = Cli.timeout_ms(args, 60)


func run():
	deadline = OS.get_ticks_msec() + timeout_ms
	var code = 2
	if mode == "tcp":
		code = run_tcp()
	elif mode == "udp":
		code = run_udp()
	else:
		printerr("%s: unknown --mode=%s" % [name, mode])
	print("%s: exit code %d" % [name, code])
	return code


func time_left():
	return OS.get_ticks_msec() < deadline


func is_mark(v, mark):
	return typeof(v) == TYPE_STRING and v == mark


func run_tcp():
	var server = TCP_Server.new()
	var err = server.listen(port, "127.0.0.1")
	if err != OK:
		printerr("%s: cannot listen on 127.0.0.1:%d (error %d)" % [name, port, err])
		return 2
	print("%s: %s listening on tcp 127.0.0.1:%d" % [name, engine, port])
	var peer = null
	while time_left():
		if server.is_connection_available():
			peer = server.take_connection()
			break
		OS.delay_msec(5)
	server.stop()
	if peer == null:
		printerr("%s: no client connected before the timeout" % name)
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
		printerr("%s: the client went away or the time ran out before the end marker (%d echoed)" % [name, echoed])
		return 4

	# Own values.
	var own = values.values()
	for e in own:
		send_one_tcp(peer, e)
		if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			printerr("%s: the client went away while own values were sent" % name)
			return 4
	# Wait for the client to close (it reads everything first).
	while time_left() and peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
		var r = peer.get_partial_data(1)
		if r[0] != OK:
			break
		OS.delay_msec(5)
	peer.disconnect_from_host()
	print("%s: tcp: echoed %d values, sent %d own values" % [name, echoed, own.size()])
	return 0


# Reads one value and sends it back; false at the end marker.
func echo_one_tcp(peer):
	var v = peer.get_var(false)
	if is_mark(v, values.END_MARK):
		return false
	peer.put_var(v, false)  # void in these engines
	return true


func send_one_tcp(peer, e):
	peer.put_var(e[1], e[2] == "full")


func run_udp():
	var udp = PacketPeerUDP.new()
	var err = udp.listen(port, "127.0.0.1", 1 << 20)
	if err != OK:
		printerr("%s: cannot bind udp 127.0.0.1:%d (error %d)" % [name, port, err])
		return 2
	print("%s: %s listening on udp 127.0.0.1:%d" % [name, engine, port])
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
			printerr("%s: %s" % [name, r])
			return 4
	if not got_end:
		printerr("%s: no end marker before the timeout (%d echoed)" % [name, echoed])
		return 3

	var sent = 0
	var own = values.values()
	for e in own:
		if e[2] != "small":
			continue
		err = send_one_udp(udp, e)
		if err != OK:
			printerr("%s: put_var of %s failed (error %d)" % [name, e[0], err])
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
			printerr("%s: no acknowledgement of own value %d (%s)" % [name, sent, e[0]])
			return 4
		sent += 1
	udp.close()
	print("%s: udp: echoed %d values, sent %d own values" % [name, echoed, sent])
	return 0


# Reads one datagram's value and answers it: "hello", "end", "echoed", or what went wrong.
func echo_one_udp(udp):
	var v = udp.get_var(false)
	udp.set_dest_address(udp.get_packet_ip(), udp.get_packet_port())
	if is_mark(v, values.HELLO):
		udp.put_var(values.HELLO)
		return "hello"
	if is_mark(v, values.END_MARK):
		return "end"
	var err = udp.put_var(v, false)
	if err != OK:
		return "put_var failed (error %d)" % err
	return "echoed"


func send_one_udp(udp, e):
	return udp.put_var(e[1], false)


func is_ack(a, index):
	return typeof(a) == TYPE_ARRAY and a.size() == 2 and is_mark(a[0], values.ACK) \
			and typeof(a[1]) == TYPE_INT and a[1] == index
