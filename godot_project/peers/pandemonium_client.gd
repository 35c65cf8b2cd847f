extends SceneTree
## Godot 4 client of a real Pandemonium server (tests/peers_pandemonium/pandemonium_server.gd,
## which uses only the engine's own put_var/get_var), speaking FastVarCodec's Pandemonium dialect:
##
##   godot --headless --path godot_project -s res://peers/pandemonium_client.gd -- \
##       --dialect=pandemonium38|pandemonium5 --mode=tcp|udp --port=47400 [--timeout=60]
##
## pandemonium38 is the numbering of Pandemonium v3.8.0–v4.9.0, pandemonium5 that of v5.0.0+.
## 1. Sends the Godot 4 golden values (godot4_6_3.json, rebuilt with tests/lib/desc.gd; the same
##    skips as godot3_client.gd) that the dialect carries (FastVarCodec encodes them without
##    allow_lossy), values of Pandemonium's own types, the Pandemonium peers' own values
##    (lib/expected_pandemonium.gd) and, over TCP, large values (>= 1 MiB); checks each echo is
##    what the dialect carries (lib/pandemonium_behaviour.gd: echo_of). Values that run into the
##    engine's known bugs (docs/wire_format.md#pandemonium-decoder-bugs) are left out of that list (bug_in says why), and a
##    few are sent on purpose, expecting the engine's actual wrong answer (bug_cases).
##    Over UDP only the values whose encoding fits a datagram.
## 2. Sends "__fvc_end__" and checks the server's own values (values_pandemonium.gd) against the
##    Godot 4 values they must decode to (lib/expected_pandemonium.gd). Over UDP it acknowledges
##    each one.
## Reads TCP with FastVarStream (never blocks; values arrive split across reads). Prints one line
## per failure and a final "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")
const Expected := preload("res://peers/lib/expected_pandemonium.gd")
const Pandemonium := preload("res://peers/lib/pandemonium_behaviour.gd")

var p: Peer
var port := 47400
var deadline := 0
var dialect := FastVarCodec.DIALECT_PANDEMONIUM_3_8
var era := 4
## [[name, value, expected echo], ...]
var values: Array = []


func _initialize() -> void:
	p = Peer.new("godot4->pandemonium")
	var mode := p.arg("mode", "tcp")
	var dialect_name := p.arg("dialect", "pandemonium38")
	p.label = "godot4 client -> pandemonium server (%s, %s)" % [dialect_name, mode]
	port = p.arg_int("port", 47400)
	deadline = Time.get_ticks_msec() + p.arg_int("timeout", 60) * 1000
	if not ClassDB.class_exists(&"FastVarCodec"):
		p.check(false, "class FastVarCodec is not registered (is the extension built and listed?)")
		quit(p.finish())
		return
	match dialect_name:
		"pandemonium38":
			dialect = FastVarCodec.DIALECT_PANDEMONIUM_3_8
			era = 4
		"pandemonium5":
			dialect = FastVarCodec.DIALECT_PANDEMONIUM_5
			era = 5
		_:
			p.check(false, "unknown --dialect=" + dialect_name)
			quit(p.finish())
			return
	collect_values()
	var finished := false
	match mode:
		"tcp":
			for e in Peer.large_values():
				values.append([e[0], e[1], Pandemonium.echo_of(e[1], dialect)])
			finished = run_tcp()
		"udp":
			for e in Peer.datagram_values():
				values.append([e[0], e[1], Pandemonium.echo_of(e[1], dialect)])
			finished = run_udp()
		_:
			p.check(false, "unknown --mode=" + mode)
			finished = true
	p.check(finished, "the exchange did not reach its end (a script error aborted it? see the log)")
	quit(p.finish())


func new_codec() -> FastVarCodec:
	var c := FastVarCodec.new()
	c.dialect = dialect
	return c


## Fills `values`: what the dialect carries of the golden corpus, Pandemonium's own types, the
## Pandemonium peers' values, and the known-bug cases; prints what was left out and why.
func collect_values() -> void:
	var golden_path := "res://golden/godot4_6_3.json"
	var g := Peer.golden_values(golden_path)
	p.check(g.error == "", "loading " + golden_path, g.error)
	var candidates: Array = g.values.duplicate()
	candidates.append_array(Pandemonium.extra_values(dialect))
	for e in Expected.values(era):
		if e[0] not in ["object_as_id", "full_object", "typed_array_objects_as_ids"] and e[2] != "large":
			candidates.append(["pandemonium peer value/" + e[0], e[1]])
	var codec := new_codec()
	var refused := []
	var buggy := {}
	var adjusted := []
	for e in candidates:
		var v = e[1]
		if codec.encoded_size(v) < 0:
			refused.append(e[0])
			continue
		var why := Pandemonium.bug_in(v, dialect)
		if why != "":
			buggy[why] = buggy.get(why, []) + [e[0]]
			continue
		var expected = Pandemonium.echo_of(v, dialect)
		if not Peer.same(expected, v):
			adjusted.append(e[0])
		values.append([e[0], v, expected])
	print("%s: %d values to echo (%d golden values from %s; %s)" % [p.label, values.size(), g.values.size(), golden_path.get_file(), Peer.skipped_text(g)])
	print("%s: not sent, no exact form in this dialect (FastVarCodec refuses them without allow_lossy): %s" % [p.label, names(refused)])
	for why in buggy:
		print("%s: not sent as plain echoes, they would run into a known engine bug, %s: %s" % [p.label, why, names(buggy[why])])
	if not adjusted.is_empty():
		print("%s: expected echo adjusted for %s: %s" % [p.label, names(adjusted), Pandemonium.ECHO_NOTE])
	var bugs := Pandemonium.bug_cases(dialect)
	for c in bugs:
		values.append(c)
	print("%s: %d values sent on purpose to check the engine's known bugs as it actually behaves" % [p.label, bugs.size()])


## "N values (a, b, c, ... and M more)".
static func names(list: Array) -> String:
	var shown := ", ".join(list.slice(0, 12))
	if list.size() > 12:
		shown += ", ... and %d more" % (list.size() - 12)
	return "%d values (%s)" % [list.size(), shown]


func run_tcp() -> bool:
	var tcp := Peer.connect_tcp(port, mini(deadline, Time.get_ticks_msec() + 20000))
	if not p.check(tcp != null, "connecting to the Pandemonium server at 127.0.0.1:%d" % port):
		return true
	var codec := new_codec()
	var stream := FastVarStream.new()
	stream.codec.dialect = dialect
	var echoed := 0
	for i in values.size():
		var name: String = values[i][0]
		var v = values[i][1]
		var expected = values[i][2]
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
	codec.put_var(tcp, Peer.END_MARK)
	var own := Expected.values(era)
	var got_own := 0
	for e in own:
		# The full object (and only it) is decoded with objects allowed.
		stream.codec.allow_objects = e[2] == "full"
		var r := Peer.next_var(tcp, stream, mini(deadline, Time.get_ticks_msec() + 15000))
		var why: String = Expected.check(e[0], e[1], r.value) if r.ok else "not received: " + r.why
		if p.check(why == "", "server's own value %s" % e[0], why):
			got_own += 1
		if r.error in [ERR_TIMEOUT, ERR_CONNECTION_ERROR]:
			return true
	stream.codec.allow_objects = false
	p.check(stream.get_buffered_bytes() == 0, "nothing left over after the server's values",
			"%d bytes buffered" % stream.get_buffered_bytes())
	tcp.disconnect_from_host()
	print("%s: %d of %d values echoed as expected, %d of %d server values as expected" % [p.label, echoed, values.size(), got_own, own.size()])
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
	if not p.check(answered, "the Pandemonium server answers hello over udp 127.0.0.1:%d" % port):
		return true
	var sent := 0
	var echoed := 0
	var too_big := []
	for e in values:
		var name: String = e[0]
		var v = e[1]
		var size := codec.encoded_size(v)
		if size > Peer.MAX_DATAGRAM:
			too_big.append(name)
			continue
		var why := ""
		var r := {}
		var err := codec.put_packet_var(udp, v) if size >= 0 else codec.get_error()
		if err != OK:
			why = "put_packet_var: %s: %s" % [error_string(err), codec.get_error_message()]
		else:
			sent += 1
			r = Peer.next_packet_var(udp, codec, mini(deadline, Time.get_ticks_msec() + 5000))
			why = Peer.why_not_same(e[2], r.value) if r.ok else "no echo: " + r.why
		if p.check(why == "", "%s: echo datagram" % name, why):
			echoed += 1
		if r.get("error", OK) == ERR_TIMEOUT:
			return true
	codec.put_packet_var(udp, Peer.END_MARK)
	var own := Expected.values(era).filter(func(e): return e[2] == "small")
	var got_own := 0
	for i in own.size():
		var e: Array = own[i]
		var r := Peer.next_packet_var(udp, codec, mini(deadline, Time.get_ticks_msec() + 5000))
		if r.ok:
			codec.put_packet_var(udp, [Peer.ACK, i])
		var why: String = Expected.check(e[0], e[1], r.value) if r.ok else "not received: " + r.why
		if p.check(why == "", "server's own value %s (datagram)" % e[0], why):
			got_own += 1
		if not r.ok:
			return true
	udp.close()
	print("%s: %d of %d datagrams echoed as expected (values too big for a datagram, not sent: %s), %d of %d server values as expected"
			% [p.label, echoed, sent, ", ".join(too_big) if too_big else "none", got_own, own.size()])
	return true
