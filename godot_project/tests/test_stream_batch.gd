extends RefCounted
## FastVarStream's network tick: put_vars writes what one StreamPeer.put_var per value writes, in
## one buffer; get_vars hands out every complete value in order, however the bytes arrived, and
## stops at a malformed value or an oversized prefix exactly where get_var reports them. Over a
## real loopback TCP connection the other side is the engine's own put_var / get_var.

const Ctx := preload("res://tests/lib/ctx.gd")

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	put_vars_framing()
	put_vars_refuses_whole()
	get_vars_split_and_coalesced()
	get_vars_stops_at_errors()
	over_tcp()
	t.done()


func tick_values() -> Array:
	return [
		{"id": 7, "pos": Vector2(1.5, -2.0), "name": "player_one", "hp": 100, "tags": ["a", "b"]},
		42, null, "x".repeat(3000), PackedByteArray([1, 2, 3]), [1.5, &"n", Vector3i(1, 2, 3)],
		Color(0.25, 0.5, 1.0), PackedFloat32Array([1.0, 2.0]), {}, [],
	]


## `v` framed as StreamPeer.put_var writes it (little-endian prefix).
func framed(v) -> PackedByteArray:
	var b := var_to_bytes(v)
	return le32(b.size()) + b


func le32(n: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, n)
	return b


func put_vars_framing() -> void:
	var values := tick_values()
	for big_endian in [false, true]:
		var engine := StreamPeerBuffer.new()
		engine.big_endian = big_endian
		for v in values:
			engine.put_var(v)
		var ours := StreamPeerBuffer.new()
		ours.big_endian = big_endian
		var s := FastVarStream.new()
		t.check(s.put_vars(ours, values) == OK and s.get_error() == OK, "put_vars succeeds")
		t.check_bytes(ours.data_array, engine.data_array,
				"put_vars == one StreamPeer.put_var per value (%s)" % ("BE" if big_endian else "LE"))
	var empty := StreamPeerBuffer.new()
	t.check(FastVarStream.new().put_vars(empty, []) == OK and empty.data_array.is_empty(),
			"put_vars of no values writes nothing")


## A value that cannot be encoded fails the whole call before anything is written.
func put_vars_refuses_whole() -> void:
	var s := FastVarStream.new()
	s.codec.dialect = FastVarCodec.DIALECT_GODOT_3
	var peer := StreamPeerBuffer.new()
	var err := s.put_vars(peer, [1, "two", Vector2i(3, 4), 5])
	t.check(err != OK and s.get_error() == err, "put_vars refuses a value the dialect cannot carry",
			error_string(err))
	t.check(s.get_error_message().begins_with("value 2:"), "the message names the value's index",
			s.get_error_message())
	t.check(peer.data_array.is_empty(), "nothing is written when a value fails")
	t.check(s.put_vars(peer, [1, "two"]) == OK and s.get_error() == OK, "the next call succeeds")


func get_vars_split_and_coalesced() -> void:
	var values := tick_values()
	var wire := PackedByteArray()
	for v in values:
		wire += framed(v)
	for chunk in [1, 5, 64, 1000, wire.size()]:
		var s := FastVarStream.new()
		var got := []
		for i in range(0, wire.size(), chunk):
			s.feed(wire.slice(i, i + chunk))
			got.append_array(s.get_vars())
			t.check(s.get_error() == OK, "get_vars OK (%d-byte pieces)" % chunk, s.get_error_message())
		t.check(got.size() == values.size(), "get_vars yields every value (%d-byte pieces)" % chunk,
				"got %d" % got.size())
		for k in mini(got.size(), values.size()):
			t.check_same(got[k], values[k], "get_vars value %d (%d-byte pieces)" % [k, chunk])
		t.check(s.get_buffered_bytes() == 0, "nothing left buffered")
	# max_count takes that many, in order; the rest stays for the next call.
	var s := FastVarStream.new()
	s.feed(wire)
	var first := s.get_vars(3)
	t.check(first.size() == 3 and first[1] == 42, "get_vars(3) takes the first three", str(first.size()))
	t.check(s.get_vars(0).is_empty() and s.get_error() == OK, "get_vars(0) takes none")
	var rest := s.get_vars()
	t.check(rest.size() == values.size() - 3, "then the rest", str(rest.size()))
	var none := s.get_vars()
	t.check(none.is_empty() and s.get_error() == OK, "nothing complete: an empty array and OK")
	# The codec's settings apply: Godot 3 bytes through a Godot 3 codec.
	var g3 := FastVarStream.new()
	g3.codec.dialect = FastVarCodec.DIALECT_GODOT_3
	var g3wire := StreamPeerBuffer.new()
	g3.put_vars(g3wire, [Vector2(1, 2), "g3", 3])
	g3.feed(g3wire.data_array)
	t.check_same(g3.get_vars(), [Vector2(1, 2), "g3", 3], "get_vars in the Godot 3 dialect")


## Errors are get_var's: a malformed value is skipped and reported after the values before it;
## an oversized prefix breaks the stream.
func get_vars_stops_at_errors() -> void:
	var bad := le32(8) + PackedByteArray([0xff, 0, 0, 0, 0, 0, 0, 0])
	var s := FastVarStream.new()
	s.feed(framed(1) + framed("two") + bad + framed(3) + framed(4))
	var got := s.get_vars()
	t.check_same(got, [1, "two"], "get_vars returns the values before a malformed one")
	t.check(s.get_error() == ERR_INVALID_DATA and not s.is_broken(), "and reports it as get_var does",
			"%s %s" % [error_string(s.get_error()), s.get_error_message()])
	# get_var's message, at the value's offset in the stream (two values of 12 and 20 bytes,
	# then its 4-byte prefix).
	var per_value := FastVarStream.new()
	per_value.feed(bad)
	per_value.get_var()
	t.check(s.get_error_message() == per_value.get_error_message().replace("at byte 4:", "at byte 32:"),
			"with get_var's message", "%s / %s" % [s.get_error_message(), per_value.get_error_message()])
	got = s.get_vars()
	t.check_same(got, [3, 4], "the next call goes on after the malformed value")
	t.check(s.get_error() == OK, "and succeeds")
	# A malformed value first: an empty array and the error.
	s.feed(bad + framed(5))
	t.check(s.get_vars().is_empty() and s.get_error() == ERR_INVALID_DATA, "a malformed first value: [] and the error")
	t.check_same(s.get_vars(), [5], "then the value after it")
	# An oversized prefix: the values before it, then the stream is broken.
	s.feed(framed(6) + le32(0x80000000) + PackedByteArray([1, 2, 3, 4]))
	got = s.get_vars()
	t.check_same(got, [6], "get_vars returns the values before an oversized prefix")
	t.check(s.get_error() == ERR_OUT_OF_MEMORY and s.is_broken(), "which breaks the stream",
			"%s %s" % [error_string(s.get_error()), s.get_error_message()])
	t.check(s.get_vars().is_empty() and s.get_error() == ERR_OUT_OF_MEMORY, "and stays broken until reset")
	s.reset()
	s.feed(framed(7))
	t.check_same(s.get_vars(), [7], "after reset the stream works again")


## Over loopback TCP with the engine's own StreamPeerTCP.put_var / get_var on the other side, in
## both directions, a tick of values at a time.
func over_tcp() -> void:
	var server := TCPServer.new()
	if server.listen(0, "127.0.0.1") != OK:
		t.check(false, "listening on 127.0.0.1")
		return
	var client := StreamPeerTCP.new()
	client.connect_to_host("127.0.0.1", server.get_local_port())
	var deadline := Time.get_ticks_msec() + 10000
	var conn: StreamPeerTCP = null
	while conn == null and Time.get_ticks_msec() < deadline:
		client.poll()
		if server.is_connection_available():
			conn = server.take_connection()
		OS.delay_msec(1)
	while client.get_status() != StreamPeerTCP.STATUS_CONNECTED and Time.get_ticks_msec() < deadline:
		client.poll()
		OS.delay_msec(1)
	if not t.check(conn != null and client.get_status() == StreamPeerTCP.STATUS_CONNECTED, "a loopback connection"):
		return
	var values := tick_values()
	var ticks := 20
	# Ours to the engine: put_vars each tick, the engine's get_var per value.
	var s := FastVarStream.new()
	var sent_ok := true
	for tick in ticks:
		sent_ok = s.put_vars(client, values) == OK and sent_ok
	t.check(sent_ok, "put_vars over TCP")
	var received := []
	while received.size() < ticks * values.size() and Time.get_ticks_msec() < deadline:
		conn.poll()
		if conn.get_available_bytes() > 0:
			received.append(conn.get_var())
		else:
			OS.delay_msec(1)
	t.check(received.size() == ticks * values.size(), "the engine's get_var reads every value", str(received.size()))
	var same := true
	for i in received.size():
		same = same and _same(received[i], values[i % values.size()])
	t.check(same, "in order, equal")
	# The engine to ours: put_var per value, get_vars as bytes arrive (split and coalesced by TCP).
	for tick in ticks:
		for v in values:
			conn.put_var(v)
	var got := []
	while got.size() < ticks * values.size() and Time.get_ticks_msec() < deadline:
		client.poll()
		s.poll(client)
		got.append_array(s.get_vars())
		if s.get_error() != OK:
			break
		OS.delay_msec(1)
	t.check(s.get_error() == OK, "get_vars over TCP", s.get_error_message())
	t.check(got.size() == ticks * values.size(), "get_vars reads every value the engine sent", str(got.size()))
	same = true
	for i in got.size():
		same = same and _same(got[i], values[i % values.size()])
	t.check(same, "in order, equal")
	client.disconnect_from_host()
	conn.disconnect_from_host()
	server.stop()


func _same(a, b) -> bool:
	return var_to_bytes(a) == var_to_bytes(b)
