extends SceneTree
## Godot 4 client of a real Godot 3 server (tests/peers/godot3_server.gd, which uses only the
## engine's own put_var/get_var), speaking FastVarCodec's Godot 3 dialect:
##
##   godot --headless --path godot_project -s res://peers/godot3_client.gd -- \
##       --mode=tcp|udp --port=47400 [--timeout=60] [--golden=res://golden/godot3_6_2.json]
##
## 1. Sends every Godot 3-representable golden value (each case's engine-decoded value, rebuilt
##    with tests/lib/desc.gd) and, over TCP, large values (>= 1 MiB); checks each echo is the same
##    value (var_to_bytes equality). Over UDP only the values whose encoding fits a datagram.
## 2. Sends "__fvc_end__" and checks the server's own values (values3.gd) against the Godot 4
##    values they must decode to (lib/expected3.gd). Over UDP it acknowledges each one.
## Reads TCP with FastVarStream (never blocks; values arrive split across reads). Prints one line
## per failure and a final "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")
const Expected3 := preload("res://peers/lib/expected3.gd")
const Godot3 := preload("res://peers/lib/godot3_behaviour.gd")

var p: Peer
var port := 47400
var deadline := 0
var values: Array = []


func _initialize() -> void:
	p = Peer.new("godot4->godot3")
	var mode := p.arg("mode", "tcp")
	p.label = "godot4 client -> godot3 server (%s)" % mode
	port = p.arg_int("port", 47400)
	deadline = Time.get_ticks_msec() + p.arg_int("timeout", 60) * 1000
	if not ClassDB.class_exists(&"FastVarCodec"):
		p.check(false, "class FastVarCodec is not registered (is the extension built and listed?)")
		quit(p.finish())
		return
	var golden_path := p.arg("golden", "res://golden/godot3_6_2.json")
	var g := Peer.golden_values(golden_path)
	p.check(g.error == "", "loading " + golden_path, g.error)
	values = g.values
	print("%s: %d golden values from %s; %s" % [p.label, g.values.size(), golden_path.get_file(), Peer.skipped_text(g)])
	var finished := false
	match mode:
		"tcp":
			values.append_array(Peer.large_values())
			finished = run_tcp()
		"udp":
			values.append_array(Peer.datagram_values())
			finished = run_udp()
		_:
			p.check(false, "unknown --mode=" + mode)
			finished = true
	p.check(finished, "the exchange did not reach its end (a script error aborted it? see the log)")
	quit(p.finish())


func new_codec() -> FastVarCodec:
	var c := FastVarCodec.new()
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	return c


func run_tcp() -> bool:
	var tcp := Peer.connect_tcp(port, mini(deadline, Time.get_ticks_msec() + 20000))
	if not p.check(tcp != null, "connecting to the Godot 3 server at 127.0.0.1:%d" % port):
		return true
	var codec := new_codec()
	var stream := FastVarStream.new()
	stream.codec.dialect = FastVarCodec.DIALECT_GODOT_3
	var echoed := 0
	var adjusted := []
	for i in values.size():
		var name: String = values[i][0]
		var v = values[i][1]
		var expected = Godot3.echo_of(v)
		if not Peer.same(expected, v):
			adjusted.append(name)
		# Both writers: FastVarCodec.put_var and FastVarStream.put_var.
		var err := codec.put_var(tcp, v) if i % 2 == 0 else stream.put_var(tcp, v)
		var msg := codec.get_error_message() if i % 2 == 0 else stream.get_error_message()
		var why := ""
		var r := {}
		if err != OK:
			why = "put_var: %s: %s" % [error_string(err), msg]
		else:
			r = Peer.next_var(tcp, stream, mini(deadline, Time.get_ticks_msec() + 15000))
			why = Peer.why_not_same(expected, r.value) if r.ok else "no echo: " + r.why
		if p.check(why == "", "%s: echo" % name, why):
			echoed += 1
		if r.get("error", OK) in [ERR_TIMEOUT, ERR_CONNECTION_ERROR]:
			return true
	if not adjusted.is_empty():
		print("%s: expected echo adjusted for %d values (%s): %s" % [p.label, adjusted.size(), ", ".join(adjusted), Godot3.ECHO_NOTE])
	codec.put_var(tcp, Peer.END_MARK)
	var own := Expected3.values()
	var got_own := 0
	for e in own:
		# The full object (and only it) is decoded with objects allowed.
		stream.codec.allow_objects = e[2] == "full"
		var r := Peer.next_var(tcp, stream, mini(deadline, Time.get_ticks_msec() + 15000))
		var why: String = Expected3.check(e[0], e[1], r.value) if r.ok else "not received: " + r.why
		if p.check(why == "", "server's own value %s" % e[0], why):
			got_own += 1
		if r.error in [ERR_TIMEOUT, ERR_CONNECTION_ERROR]:
			return true
	stream.codec.allow_objects = false
	p.check(stream.get_buffered_bytes() == 0, "nothing left over after the server's values",
			"%d bytes buffered" % stream.get_buffered_bytes())
	tcp.disconnect_from_host()
	print("%s: %d of %d values echoed intact, %d of %d server values as expected" % [p.label, echoed, values.size(), got_own, own.size()])
	return true


func run_udp() -> bool:
	var codec := new_codec()
	var udp := PacketPeerUDP.new()
	if not p.check(udp.connect_to_host("127.0.0.1", port) == OK, "udp connect_to_host 127.0.0.1:%d" % port):
		return true
	# The server may still be starting: say hello until it answers.
	var hello_deadline := mini(deadline, Time.get_ticks_msec() + 20000)
	var answered := false
	while not answered and Time.get_ticks_msec() < hello_deadline:
		codec.put_packet_var(udp, Peer.HELLO)
		var wait_until := Time.get_ticks_msec() + 200
		while Time.get_ticks_msec() < wait_until:
			if udp.get_available_packet_count() > 0:
				var v = codec.get_packet_var(udp)
				if v is String and v == Peer.HELLO:
					answered = true
					break
			OS.delay_msec(2)
	if not p.check(answered, "the Godot 3 server answers hello over udp 127.0.0.1:%d" % port):
		return true
	var sent := 0
	var echoed := 0
	var too_big := []
	var adjusted := []
	for e in values:
		var name: String = e[0]
		var v = e[1]
		var size := codec.encoded_size(v)
		if size > Peer.MAX_DATAGRAM:
			too_big.append(name)
			continue
		var expected = Godot3.echo_of(v)
		if not Peer.same(expected, v):
			adjusted.append(name)
		var why := ""
		var r := {}
		var err := codec.put_packet_var(udp, v) if size >= 0 else codec.get_error()
		if err != OK:
			why = "put_packet_var: %s: %s" % [error_string(err), codec.get_error_message()]
		else:
			sent += 1
			r = Peer.next_packet_var(udp, codec, mini(deadline, Time.get_ticks_msec() + 5000))
			why = Peer.why_not_same(expected, r.value) if r.ok else "no echo: " + r.why
		if p.check(why == "", "%s: echo datagram" % name, why):
			echoed += 1
		if r.get("error", OK) == ERR_TIMEOUT:
			return true
	if not adjusted.is_empty():
		print("%s: expected echo adjusted for %d values (%s): %s" % [p.label, adjusted.size(), ", ".join(adjusted), Godot3.ECHO_NOTE])
	codec.put_packet_var(udp, Peer.END_MARK)
	var own := Expected3.values().filter(func(e): return e[2] == "small")
	var got_own := 0
	for i in own.size():
		var e: Array = own[i]
		var r := Peer.next_packet_var(udp, codec, mini(deadline, Time.get_ticks_msec() + 5000))
		if r.ok:
			codec.put_packet_var(udp, [Peer.ACK, i])
		var why: String = Expected3.check(e[0], e[1], r.value) if r.ok else "not received: " + r.why
		if p.check(why == "", "server's own value %s (datagram)" % e[0], why):
			got_own += 1
		if not r.ok:
			return true
	udp.close()
	print("%s: %d of %d datagrams echoed intact (values too big for a datagram, not sent: %s), %d of %d server values as expected"
			% [p.label, echoed, sent, ", ".join(too_big) if too_big else "none", got_own, own.size()])
	return true
