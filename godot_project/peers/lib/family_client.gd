extends RefCounted
## The exchange of a Godot 4 client with a real Godot 3-family server (tests/godot3_lib/
## peer_server.gd, which uses only the engine's own put_var/get_var), in FastVarCodec's dialect of
## that engine (peers/godot3_client.gd, peers/pandemonium_client.gd):
## 1. Sends every value and checks each echo is the value expected back (Peer.why_not_same). Over
##    UDP only the values whose encoding fits a datagram.
## 2. Sends "__fvc_end__" and checks the server's own values against the Godot 4 values they must
##    decode to (the expected script's values and check()). Over UDP it acknowledges each one.
## Reads TCP with FastVarStream (never blocks; values arrive split across reads).

const Peer := preload("res://peers/lib/peer_common.gd")

var p: Peer
var dialect: int
## The server as the messages name it: "Godot 3", "Pandemonium".
var server: String
## [[name, value, expected echo], ...]
var values: Array
## The server's own values as Godot 4 values, [[name, value, kind], ...]; check(name, expected, got)
## tells whether what came is the value named name.
var own: Array
var check_own: Callable
## How an echo that is the expected one is called in the result lines ("intact", "as expected").
var echo_word := "as expected"
## When set, said after the echoes with the names of the values whose expected echo is not the
## value sent.
var adjusted_note := ""


func _init(p_peer: Peer, p_dialect: int, p_server: String, p_values: Array, p_own: Array, p_check_own: Callable) -> void:
	p = p_peer
	dialect = p_dialect
	server = p_server
	values = p_values
	own = p_own
	check_own = p_check_own


func new_codec() -> FastVarCodec:
	var c := FastVarCodec.new()
	c.dialect = dialect
	return c


## Runs the exchange over "tcp" or "udp"; false when it did not reach its end.
func run(mode: String) -> bool:
	match mode:
		"tcp":
			return run_tcp()
		"udp":
			return run_udp()
	p.check(false, "unknown --mode=" + mode)
	return true


func say_adjusted(names: Array) -> void:
	if adjusted_note != "" and not names.is_empty():
		print("%s: expected echo adjusted for %d values (%s): %s" % [p.label, names.size(), ", ".join(names), adjusted_note])


func run_tcp() -> bool:
	var tcp := Peer.connect_tcp(p.port, mini(p.deadline, Time.get_ticks_msec() + 20000))
	if not p.check(tcp != null, "connecting to the %s server at 127.0.0.1:%d" % [server, p.port]):
		return true
	var codec := new_codec()
	var stream := FastVarStream.new()
	stream.codec.dialect = dialect
	# Both writers: FastVarCodec.put_var and FastVarStream.put_var.
	var sent := p.echo_each(tcp, codec, stream, values)
	if sent.lost:
		return true
	var echoed: int = sent.echoed
	say_adjusted(sent.adjusted)
	codec.put_var(tcp, Peer.END_MARK)
	var got_own := 0
	for e in own:
		# The full object (and only it) is decoded with objects allowed.
		stream.codec.allow_objects = e[2] == "full"
		stream.codec.allowed_classes = PackedStringArray(["*"])  # the test peers' own values, trusted
		var r := Peer.next_var(tcp, stream, mini(p.deadline, Time.get_ticks_msec() + 15000))
		var why: String = check_own.call(e[0], e[1], r.value) if r.ok else "not received: " + r.why
		if p.check(why == "", "server's own value %s" % e[0], why):
			got_own += 1
		if r.error in [ERR_TIMEOUT, ERR_CONNECTION_ERROR]:
			return true
	stream.codec.allow_objects = false
	p.check(stream.get_buffered_bytes() == 0, "nothing left over after the server's values",
			"%d bytes buffered" % stream.get_buffered_bytes())
	tcp.disconnect_from_host()
	print("%s: %d of %d values echoed %s, %d of %d server values as expected" % [p.label, echoed, values.size(), echo_word, got_own, own.size()])
	return true


func run_udp() -> bool:
	var codec := new_codec()
	var udp := PacketPeerUDP.new()
	if not p.check(udp.connect_to_host("127.0.0.1", p.port) == OK, "udp connect_to_host 127.0.0.1:%d" % p.port):
		return true
	# The server may still be starting: say hello until it answers.
	var hello_deadline := mini(p.deadline, Time.get_ticks_msec() + 20000)
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
	if not p.check(answered, "the %s server answers hello over udp 127.0.0.1:%d" % [server, p.port]):
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
		if not Peer.same(e[2], v):
			adjusted.append(name)
		var why := ""
		var r := {}
		var err := codec.put_packet_var(udp, v) if size >= 0 else codec.get_error()
		if err != OK:
			why = "put_packet_var: %s: %s" % [error_string(err), codec.get_error_message()]
		else:
			sent += 1
			r = Peer.next_packet_var(udp, codec, mini(p.deadline, Time.get_ticks_msec() + 5000))
			why = Peer.why_not_same(e[2], r.value) if r.ok else "no echo: " + r.why
		if p.check(why == "", "%s: echo datagram" % name, why):
			echoed += 1
		if r.get("error", OK) == ERR_TIMEOUT:
			return true
	say_adjusted(adjusted)
	codec.put_packet_var(udp, Peer.END_MARK)
	var small := own.filter(func(e): return e[2] == "small")
	var got_own := 0
	for i in small.size():
		var e: Array = small[i]
		var r := Peer.next_packet_var(udp, codec, mini(p.deadline, Time.get_ticks_msec() + 5000))
		if r.ok:
			codec.put_packet_var(udp, [Peer.ACK, i])
		var why: String = check_own.call(e[0], e[1], r.value) if r.ok else "not received: " + r.why
		if p.check(why == "", "server's own value %s (datagram)" % e[0], why):
			got_own += 1
		if not r.ok:
			return true
	udp.close()
	print("%s: %d of %d datagrams echoed %s (values too big for a datagram, not sent: %s), %d of %d server values as expected"
			% [p.label, echoed, sent, echo_word, ", ".join(too_big) if too_big else "none", got_own, small.size()])
	return true
