extends SceneTree
## Godot 4 client of the Rust echo server (rust/codec/examples/echo_server.rs, started with
## --connections 2 and the same --dialect):
##
##   godot --headless --path godot_project -s res://peers/echo_client.gd -- \
##       --dialect=godot3|godot4 --port=47400 [--timeout=60] [--greet=1]
##
## Connection 1: sends, in FastVarCodec's chosen dialect, every golden value of that dialect's
## corpus (godot4_6_3.json or godot3_6_2.json, rebuilt with tests/lib/desc.gd; the same skips as
## godot3_client.gd), the large values (>= 1 MiB) and, in the Godot 3 dialect, the Godot 3 peers'
## own values; checks each echo is the same value (var_to_bytes equality). Then reads a large
## echo with FastVarCodec.get_var, as a game would with StreamPeer.get_var (the server should run
## with --trickle so that the echo arrives in pieces).
## Connection 2: what the server does with bad input: a malformed value is answered with an error
## String and the connection goes on; a 2 GiB length prefix makes it close the connection.
## Prints one line per failure and a final "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")
const Expected3 := preload("res://peers/lib/expected3.gd")
const Godot3 := preload("res://peers/lib/godot3_behaviour.gd")

var p: Peer
var dialect := FastVarCodec.DIALECT_GODOT_4


func _initialize() -> void:
	p = Peer.new("echo")
	var dialect_name := p.arg("dialect", "godot4")
	p.label = "godot4 client -> rust echo_server (%s dialect)" % dialect_name
	if not p.has_extension():
		quit(p.finish())
		return
	var golden_path := "res://golden/godot4_6_3.json"
	match dialect_name:
		"godot4":
			dialect = FastVarCodec.DIALECT_GODOT_4
		"godot3":
			dialect = FastVarCodec.DIALECT_GODOT_3
			golden_path = "res://golden/godot3_6_2.json"
		_:
			p.check(false, "unknown --dialect=" + dialect_name)
			quit(p.finish())
			return
	var g := Peer.golden_values(golden_path)
	p.check(g.error == "", "loading " + golden_path, g.error)
	print("%s: %d golden values from %s; %s" % [p.label, g.values.size(), golden_path.get_file(), Peer.skipped_text(g)])
	var values: Array = g.values
	values.append_array(Peer.large_values())
	if dialect == FastVarCodec.DIALECT_GODOT_3:
		for e in Expected3.values():
			if e[0] not in ["object_as_id", "full_object"]:
				values.append(["godot3 peer value/" + e[0], e[1]])
	# With --greet, a value only this dialect reads whole goes first: a server that detects the
	# dialect (tokio_server --dialect auto) then knows it before the values that several dialects
	# read whole as different things (an empty StringName is also a Godot 3 empty PoolIntArray),
	# which it holds until told, while this client waits for each echo.
	if p.arg("greet", "") != "":
		var greeting: Variant = Vector2i(1, 2)
		if dialect == FastVarCodec.DIALECT_GODOT_3:
			greeting = {"hp": 10, "mp": 5} # 48 bytes: no Godot 4 or Pandemonium Transform
		values.insert(0, ["greeting", greeting])
	var finished := echo_all(values) and bad_input()
	p.check(finished, "the exchange did not reach its end (a script error aborted it? see the log)")
	quit(p.finish())


func new_codec() -> FastVarCodec:
	var c := FastVarCodec.new()
	c.dialect = dialect
	return c


func echo_all(values: Array) -> bool:
	var tcp := Peer.connect_tcp(p.port, mini(p.deadline, Time.get_ticks_msec() + 20000))
	if not p.check(tcp != null, "connecting to the echo server at 127.0.0.1:%d" % p.port):
		return true
	var codec := new_codec()
	var stream := FastVarStream.new()
	stream.codec.dialect = dialect
	# The core decodes the Godot 3 dialect as Godot 3 does (a leading BOM is dropped).
	var entries := []
	for e in values:
		entries.append([e[0], e[1], Godot3.echo_of(e[1]) if dialect == FastVarCodec.DIALECT_GODOT_3 else e[1]])
	var sent := p.echo_each(tcp, codec, stream, entries)
	if sent.lost:
		return true
	var echoed: int = sent.echoed
	var adjusted: Array = sent.adjusted
	if not adjusted.is_empty():
		print("%s: expected echo adjusted for %d values (%s): the core's Godot 3 decoder models the engine here: %s" % [p.label, adjusted.size(), ", ".join(adjusted), Godot3.ECHO_NOTE])
	print("%s: %d of %d values echoed intact" % [p.label, echoed, values.size()])

	# A 2 MiB echo read with a blocking get_var called as soon as its first bytes are there (the
	# server trickles it out: run it with --trickle). First the engine's own StreamPeer.get_var,
	# which waits for the whole value; then FastVarCodec.get_var in the same situation.
	var big := PackedByteArray()
	big.resize(2 << 20)
	for k in big.size() / 8:
		big.encode_s64(k * 8, k * 0x1E3779B97F4A7C15)
	var err := OK
	var available := 0
	var got = null
	# (The engine can only read its own dialect: no control in the Godot 3 dialect.)
	var readers := ["engine", "codec"] if dialect == FastVarCodec.DIALECT_GODOT_4 else ["codec"]
	for reader in readers:
		err = codec.put_var(tcp, big)
		var until := mini(p.deadline, Time.get_ticks_msec() + 15000)
		while tcp.get_available_bytes() < 4 and Time.get_ticks_msec() < until:
			tcp.poll()
			OS.delay_msec(1)
		available = tcp.get_available_bytes()
		if reader == "engine":
			got = tcp.get_var()
			p.check(err == OK and Peer.same(big, got), "(control) the engine's StreamPeer.get_var waits for a 2 MiB value still arriving",
					"%d bytes available when called; got %s" % [available, Peer.show(got)])
		else:
			got = codec.get_var(tcp)
	p.check(err == OK and codec.get_error() == OK and Peer.same(big, got),
			"FastVarCodec.get_var reads a 2 MiB value whose bytes are still arriving (StreamPeer.get_var waits for them)",
			"%d bytes of 2097164 available when called; got %s; error %s: %s" % [available, Peer.show(got),
			error_string(codec.get_error()), codec.get_error_message()])
	tcp.disconnect_from_host()
	return true


## The echo server (the core's StreamReader) facing bad input.
func bad_input() -> bool:
	var tcp := Peer.connect_tcp(p.port, mini(p.deadline, Time.get_ticks_msec() + 20000))
	if not p.check(tcp != null, "connecting to the echo server a second time"):
		return true
	var codec := new_codec()
	var stream := FastVarStream.new()
	stream.codec.dialect = dialect
	# A frame whose payload is not a value (type id 0x7fffffff): answered with an error String.
	tcp.put_data(PackedByteArray([8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]))
	var r := Peer.next_var(tcp, stream, mini(p.deadline, Time.get_ticks_msec() + 10000))
	p.check(r.ok and r.value is String and r.value.begins_with("echo_server error:"),
			"a malformed value is answered with the server's error message", Peer.show(r.value) + " " + r.why)
	if r.ok:
		print("%s: the server said: %s" % [p.label, r.value])
	# The connection goes on.
	codec.put_var(tcp, {"still": "here"})
	r = Peer.next_var(tcp, stream, mini(p.deadline, Time.get_ticks_msec() + 10000))
	p.check(r.ok and Peer.same(r.value, {"still": "here"}), "the connection goes on after a malformed value",
			Peer.show(r.value) + " " + r.why)
	# A 2 GiB length prefix: the server closes the connection without waiting for (or allocating) it.
	tcp.put_data(PackedByteArray([0, 0, 0, 0x80, 1, 2, 3, 4]))
	var until := mini(p.deadline, Time.get_ticks_msec() + 10000)
	while Time.get_ticks_msec() < until:
		tcp.poll()
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			break
		if tcp.get_available_bytes() > 0:
			tcp.get_partial_data(tcp.get_available_bytes())
		OS.delay_msec(2)
	p.check(tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED,
			"the server closes the connection after a 2 GiB length prefix", "still connected after 10 s")
	tcp.disconnect_from_host()
	return true
