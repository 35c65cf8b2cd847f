extends SceneTree
## Hostile streams against FastVarStream (and FastVarCodec), Godot 4 side:
##
##   godot --headless --path godot_project -s res://peers/hostile.gd -- --port=47440 [--timeout=60]
##
## A small TCP server in this same process (TCPServer on 127.0.0.1:PORT) writes what a broken or
## hostile peer would: a value cut short by a closed connection, a 2 GiB length prefix, an HTTP
## request, malformed payloads between good values, random frames and random bytes. The client
## side reads with FastVarStream.poll, as a game does. Checks: a clear error, nothing allocated
## beyond what arrived (get_buffered_bytes, and the process' resident memory), is_broken() when the
## stream cannot go on, and the stream and codec usable again after reset().
## Prints one line per failure and a final "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")

const TWO_GIB_PREFIX := [0, 0, 0, 0x80]

var p: Peer
var server: TCPServer
var port := 47440
var deadline := 0
## The first error FastVarStream.poll() reported during the last push() (OK if none).
var push_poll_error := OK


func _initialize() -> void:
	p = Peer.new("hostile streams")
	port = p.arg_int("port", 47440)
	deadline = Time.get_ticks_msec() + p.arg_int("timeout", 60) * 1000
	if not ClassDB.class_exists(&"FastVarCodec"):
		p.check(false, "class FastVarCodec is not registered (is the extension built and listed?)")
		quit(p.finish())
		return
	server = TCPServer.new()
	var err := server.listen(port, "127.0.0.1")
	if not p.check(err == OK, "listening on 127.0.0.1:%d" % port, error_string(err)):
		quit(p.finish())
		return
	var done := [
		truncated_then_closed(),
		two_gib_prefix(),
		prefix_limits(),
		http_request(),
		malformed_between_good_values(),
		random_frames(FastVarCodec.DIALECT_GODOT_4),
		random_frames(FastVarCodec.DIALECT_GODOT_3),
		random_bytes(),
		byte_by_byte(),
		codec_hostile(),
	]
	server.stop()
	p.check(done.all(func(d): return d == true), "every section reached its end (a script error aborted one? see the log)",
			str(done))
	quit(p.finish())


# ------------------------------------------------------------------ helpers

## A connected pair [client, server side]: the test writes hostile bytes on the server side and
## reads them on the client side.
func tcp_pair() -> Array:
	var c := StreamPeerTCP.new()
	if c.connect_to_host("127.0.0.1", port) != OK:
		return []
	var s: StreamPeerTCP = null
	var until := mini(deadline, Time.get_ticks_msec() + 5000)
	while Time.get_ticks_msec() < until:
		c.poll()
		if s == null and server.is_connection_available():
			s = server.take_connection()
		if s != null and c.get_status() == StreamPeerTCP.STATUS_CONNECTED:
			s.set_no_delay(true)
			return [c, s]
		OS.delay_msec(1)
	return []


func new_stream(dialect := FastVarCodec.DIALECT_GODOT_4) -> FastVarStream:
	var st := FastVarStream.new()
	st.codec.dialect = dialect
	return st


## Polls c into st until until_fn.call() is true, the connection closes, or ms pass. Returns the
## first error poll() reported (OK if none).
func pump(c: StreamPeerTCP, st: FastVarStream, ms: int, until_fn := func(): return false) -> Error:
	var until := mini(deadline, Time.get_ticks_msec() + ms)
	var first := OK
	while Time.get_ticks_msec() < until:
		c.poll()
		if c.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			break  # (a closed StreamPeerTCP logs an engine error on get_available_bytes)
		var err := st.poll(c)
		if err != OK and first == OK:
			first = err
		if until_fn.call():
			break
		OS.delay_msec(1)
	return first


## Writes data on the server side without blocking (put_partial_data), polling the client side
## into st meanwhile, so that neither side waits for the other in this single thread.
func push(s: StreamPeerTCP, data: PackedByteArray, c: StreamPeerTCP, st: FastVarStream) -> bool:
	var sent := 0
	push_poll_error = OK
	var until := mini(deadline, Time.get_ticks_msec() + 5000)
	while sent < data.size() and Time.get_ticks_msec() < until:
		var r: Array = s.put_partial_data(data.slice(sent, mini(sent + 65536, data.size())))
		if r[0] != OK:
			return false
		sent += r[1]
		c.poll()
		if c.get_status() == StreamPeerTCP.STATUS_CONNECTED:
			var err := st.poll(c)
			if err != OK and push_poll_error == OK:
				push_poll_error = err
		if r[1] == 0:
			OS.delay_msec(1)
	return sent == data.size()


static func framed(v, dialect := FastVarCodec.DIALECT_GODOT_4) -> PackedByteArray:
	var codec := FastVarCodec.new()
	codec.dialect = dialect
	var body := codec.encode(v)
	var out := PackedByteArray()
	out.resize(4)
	out.encode_u32(0, body.size())
	out.append_array(body)
	return out


func usable_after_reset(st: FastVarStream, what: String) -> void:
	st.reset()
	p.check(not st.is_broken() and st.get_buffered_bytes() == 0 and st.get_error() == OK,
			"%s: reset() clears the broken state and the buffer" % what,
			"broken %s, %d bytes buffered, error %s" % [st.is_broken(), st.get_buffered_bytes(), error_string(st.get_error())])
	var v := {"after": "reset", "n": [1, 2.5, Vector3(1, 2, 3)]}
	st.feed(framed(v, st.codec.dialect))
	var got = st.get_var()
	p.check(st.get_error() == OK and Peer.same(got, v), "%s: the stream decodes again after reset()" % what,
			"got %s, error %s" % [Peer.show(got), st.get_error_message()])
	var bytes := st.codec.encode(v)
	p.check(st.codec.get_error() == OK and Peer.same(st.codec.decode(bytes), v), "%s: its codec still encodes and decodes" % what)


# ------------------------------------------------------------------ sections

## A value cut short by the peer closing the connection.
func truncated_then_closed() -> bool:
	var pr := tcp_pair()
	if not p.check(pr.size() == 2, "truncated: connecting to the in-process server"):
		return true
	var c: StreamPeerTCP = pr[0]
	var s: StreamPeerTCP = pr[1]
	var st := new_stream()
	var good := {"hp": 10, "pos": Vector3(1, 2, 3)}
	var data := framed(good)
	var cut := PackedByteArray()
	cut.resize(4)
	cut.encode_u32(0, 1000)  # announces 1000 bytes ...
	var payload := framed(PackedByteArray(range(1200).map(func(i): return i & 255))).slice(4, 504)
	cut.append_array(payload)  # ... sends 500 of them (the start of a real value)
	data.append_array(cut)
	s.put_data(data)
	s.disconnect_from_host()
	var got := []
	var until := mini(deadline, Time.get_ticks_msec() + 5000)
	while Time.get_ticks_msec() < until:
		c.poll()
		if c.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			break  # closed, and everything sent before the close has been read
		st.poll(c)
		while st.get_available_packet_count() > 0 and not st.is_broken() and got.size() < 100:
			got.append(st.get_var())
		OS.delay_msec(1)
	p.check(c.get_status() != StreamPeerTCP.STATUS_CONNECTED, "truncated: the client sees the connection closed")
	p.check(got.size() == 1 and Peer.same(got[0], good), "truncated: the complete value before the cut arrives intact",
			Peer.show(got))
	p.check(st.get_available_packet_count() == 0, "truncated: no value is reported for the cut one")
	var v = st.get_var()
	p.check(v == null and st.get_error() == ERR_BUSY, "truncated: get_var() gives null with ERR_BUSY (nothing yet)",
			"%s, %s" % [Peer.show(v), error_string(st.get_error())])
	p.check(st.get_error_message() != "", "truncated: get_var() says why", st.get_error_message())
	p.check(st.get_buffered_bytes() == 504, "truncated: the 504 bytes of the cut value are all that is buffered",
			"%d bytes buffered" % st.get_buffered_bytes())
	p.check(not st.is_broken(), "truncated: a short value does not break the stream")
	usable_after_reset(st, "truncated")
	c.disconnect_from_host()
	return true


## A length prefix of 2 GiB, followed by more and more bytes.
func two_gib_prefix() -> bool:
	var pr := tcp_pair()
	if not p.check(pr.size() == 2, "2 GiB prefix: connecting to the in-process server"):
		return true
	var c: StreamPeerTCP = pr[0]
	var s: StreamPeerTCP = pr[1]
	var st := new_stream()
	var rss0 := Peer.rss_kib()
	var junk := PackedByteArray()
	junk.resize(256 * 1024)
	junk.fill(0xAB)
	var data := PackedByteArray(TWO_GIB_PREFIX)
	data.append_array(junk)
	p.check(push(s, data, c, st), "2 GiB prefix: the peer's bytes are all sent")
	pump(c, st, 5000, func(): return st.get_available_packet_count() > 0)
	p.check(st.get_available_packet_count() == 1, "2 GiB prefix: get_available_packet_count() is 1 (an error is waiting)")
	var arrived := st.get_buffered_bytes()
	var v = st.get_var()
	var err := st.get_error()
	var msg := st.get_error_message()
	p.check(v == null and err == ERR_OUT_OF_MEMORY, "2 GiB prefix: get_var() gives null with ERR_OUT_OF_MEMORY",
			"%s, %s: %s" % [Peer.show(v), error_string(err), msg])
	p.check(msg.contains("2147483648") and msg.contains("8388608"), "2 GiB prefix: the message names the size and the limit", msg)
	print("%s: 2 GiB prefix: %s" % [p.label, msg])
	p.check(st.is_broken(), "2 GiB prefix: the stream is broken")
	p.check(arrived <= data.size() and st.get_buffered_bytes() <= data.size(),
			"2 GiB prefix: only the bytes that arrived are buffered", "%d bytes buffered" % st.get_buffered_bytes())
	# The peer keeps sending: a broken stream takes nothing more.
	var more := PackedByteArray()
	more.resize(1 << 20)
	var before := st.get_buffered_bytes()
	push(s, more, c, st)
	var perr := push_poll_error if push_poll_error != OK else pump(c, st, 300)
	p.check(perr != OK, "2 GiB prefix: poll() on the broken stream reports an error", error_string(perr))
	p.check(st.get_buffered_bytes() == before, "2 GiB prefix: a broken stream buffers nothing more",
			"%d -> %d bytes" % [before, st.get_buffered_bytes()])
	v = st.get_var()
	p.check(v == null and st.get_error() != OK and st.is_broken(), "2 GiB prefix: get_var() keeps reporting the error")
	var rss1 := Peer.rss_kib()
	p.check(rss0 > 0 and rss1 - rss0 < 64 * 1024, "2 GiB prefix: resident memory grows by less than 64 MiB",
			"%d KiB -> %d KiB" % [rss0, rss1])
	print("%s: 2 GiB prefix: %d bytes buffered at most; resident memory %d KiB -> %d KiB" % [p.label, before, rss0, rss1])
	usable_after_reset(st, "2 GiB prefix")
	c.disconnect_from_host()
	s.disconnect_from_host()
	return true


## Prefixes around the limit, fed directly.
func prefix_limits() -> bool:
	var cases := [
		# [what, prefix bytes, big_endian, max_message_size (0: default), broken?]
		["0xFFFFFFFF", [0xff, 0xff, 0xff, 0xff], false, 0, true],
		["8 MiB + 1 (one above the default limit)", [1, 0, 0x80, 0], false, 0, true],
		["8 MiB (the default limit itself)", [0, 0, 0x80, 0], false, 0, false],
		["2 GiB, big-endian stream", [0x80, 0, 0, 0], true, 0, true],
		["128 bytes, big-endian stream", [0, 0, 0, 0x80], true, 0, false],
		["1025 with max_message_size 1024", [0x01, 0x04, 0, 0], false, 1024, true],
		["1024 with max_message_size 1024", [0x00, 0x04, 0, 0], false, 1024, false],
	]
	for cs in cases:
		var st := new_stream()
		if cs[3] > 0:
			st.codec.max_message_size = cs[3]
		var head := PackedByteArray(cs[1])
		head.append_array(PackedByteArray([2, 0, 0, 0, 7, 0, 0, 0]))  # and the start of something
		if cs[2]:
			# Big-endian prefixes come from a peer that says so (feed() reads little-endian ones).
			var from := StreamPeerBuffer.new()
			from.big_endian = true
			from.data_array = head
			st.poll(from)
		else:
			st.feed(head)
		var v = st.get_var()
		var err := st.get_error()
		if cs[4]:
			p.check(v == null and err == ERR_OUT_OF_MEMORY and st.is_broken(), "prefix %s: refused, stream broken" % cs[0],
					"%s, %s, broken %s" % [Peer.show(v), error_string(err), st.is_broken()])
			p.check(st.feed(PackedByteArray([1, 2, 3])) != OK and st.get_buffered_bytes() <= head.size(),
					"prefix %s: feed() refuses more bytes" % cs[0])
		else:
			p.check(v == null and err == ERR_BUSY and not st.is_broken() and st.get_buffered_bytes() == head.size(),
					"prefix %s: accepted, waits for the rest without allocating it" % cs[0],
					"%s, %s, broken %s, %d bytes buffered" % [Peer.show(v), error_string(err), st.is_broken(), st.get_buffered_bytes()])
	return true


## Someone speaks HTTP to the port.
func http_request() -> bool:
	var pr := tcp_pair()
	if not p.check(pr.size() == 2, "http: connecting to the in-process server"):
		return true
	var c: StreamPeerTCP = pr[0]
	var s: StreamPeerTCP = pr[1]
	var st := new_stream()
	s.put_data("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: curl/8.0\r\nAccept: */*\r\n\r\n".to_utf8_buffer())
	pump(c, st, 5000, func(): return st.get_available_packet_count() > 0)
	var v = st.get_var()
	p.check(v == null and st.get_error() == ERR_OUT_OF_MEMORY and st.is_broken(),
			"http: an HTTP request (\"GET \" read as a 542 MB prefix) breaks the stream",
			"%s, %s: %s" % [Peer.show(v), error_string(st.get_error()), st.get_error_message()])
	p.check(st.get_buffered_bytes() < 256, "http: only the request's bytes are buffered", "%d" % st.get_buffered_bytes())
	usable_after_reset(st, "http")
	c.disconnect_from_host()
	s.disconnect_from_host()
	return true


## Malformed payloads between good values: each is reported and skipped, the stream goes on.
func malformed_between_good_values() -> bool:
	var pr := tcp_pair()
	if not p.check(pr.size() == 2, "malformed: connecting to the in-process server"):
		return true
	var c: StreamPeerTCP = pr[0]
	var s: StreamPeerTCP = pr[1]
	var st := new_stream()
	var good1 := [1, "one", Vector2(1, 1)]
	var good2 := {"two": PackedInt32Array([2, 2])}
	var data := framed(good1)
	var bad := [
		["type id 0x7fffffff", [8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]],
		["an empty message", [0, 0, 0, 0]],
		["an INT without its payload", [4, 0, 0, 0, 2, 0, 0, 0]],
		["a String longer than its message", [12, 0, 0, 0, 4, 0, 0, 0, 0xff, 0, 0, 0, 0x61, 0x62, 0x63, 0x64]],
		["an Array of 2^31 - 1 items in 12 bytes", [12, 0, 0, 0, 28, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0]],
		["a value followed by trailing bytes", [12, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0, 9, 9, 9, 9]],
	]
	for b in bad:
		data.append_array(PackedByteArray(b[1]))
	data.append_array(framed(good2))
	s.put_data(data)
	var results := []
	var until := mini(deadline, Time.get_ticks_msec() + 5000)
	while results.size() < bad.size() + 2 and Time.get_ticks_msec() < until:
		c.poll()
		st.poll(c)
		while st.get_available_packet_count() > 0 and not st.is_broken() and results.size() < 100:
			var v = st.get_var()
			results.append([v, st.get_error(), st.get_error_message()])
		OS.delay_msec(1)
	p.check(results.size() == bad.size() + 2, "malformed: one result per message (%d)" % (bad.size() + 2), "%d results" % results.size())
	if results.size() == bad.size() + 2:
		p.check(results[0][1] == OK and Peer.same(results[0][0], good1), "malformed: the good value before arrives intact")
		for i in bad.size():
			var r: Array = results[i + 1]
			# Bytes of the message the value leaves unread: another dialect's message, or damage
			# (the engine's get_var ignores them and returns the value it read).
			if bad[i][0] == "a value followed by trailing bytes":
				p.check(r[0] == null and r[1] == ERR_INVALID_DATA and r[2].contains("takes 8 of its record's 12 bytes"),
						"malformed: %s: an error, not the value read (StreamPeer.get_var returns 5)" % bad[i][0],
						"%s, %s: %s" % [Peer.show(r[0]), error_string(r[1]), r[2]])
			else:
				p.check(r[0] == null and r[1] != OK and r[1] != ERR_BUSY and r[2] != "",
						"malformed: %s: null with a decode error" % bad[i][0], "%s, %s: %s" % [Peer.show(r[0]), error_string(r[1]), r[2]])
		p.check(results[-1][1] == OK and Peer.same(results[-1][0], good2), "malformed: the good value after arrives intact",
				Peer.show(results[-1][0]))
	p.check(not st.is_broken() and st.get_buffered_bytes() == 0, "malformed: the stream is not broken and nothing is left over")
	c.disconnect_from_host()
	s.disconnect_from_host()
	return true


## 300 frames with random payloads (most starting with a real type id), over TCP: exactly one
## result per frame, never broken.
func random_frames(dialect: int) -> bool:
	var what := "random frames (%s)" % ("godot4" if dialect == FastVarCodec.DIALECT_GODOT_4 else "godot3")
	var pr := tcp_pair()
	if not p.check(pr.size() == 2, "%s: connecting to the in-process server" % what):
		return true
	var c: StreamPeerTCP = pr[0]
	var s: StreamPeerTCP = pr[1]
	var st := new_stream(dialect)
	var rng := RandomNumberGenerator.new()
	rng.seed = 20240611 + dialect
	var data := PackedByteArray()
	var n := 300
	for i in n:
		var len := rng.randi_range(0, 64)
		var body := PackedByteArray()
		body.resize(len)
		for k in len:
			body[k] = rng.randi_range(0, 255)
		if len >= 4 and rng.randf() < 0.8:
			body.encode_u32(0, rng.randi_range(0, 40) | (rng.randi_range(0, 1) << 16))  # a type id, maybe a flag
		var head := PackedByteArray()
		head.resize(4)
		head.encode_u32(0, len)
		data.append_array(head)
		data.append_array(body)
	s.put_data(data)
	var values := 0
	var errors := 0
	var unavailable := 0
	var until := mini(deadline, Time.get_ticks_msec() + 5000)
	while values + errors < n and Time.get_ticks_msec() < until:
		c.poll()
		st.poll(c)
		while st.get_available_packet_count() > 0 and not st.is_broken() and values + errors + unavailable < n + 10:
			st.get_var()
			match st.get_error():
				OK: values += 1
				ERR_BUSY: unavailable += 1
				_: errors += 1
		OS.delay_msec(1)
	p.check(values + errors == n and unavailable == 0, "%s: exactly one value or error per frame" % what,
			"%d values, %d errors, %d unavailable" % [values, errors, unavailable])
	p.check(not st.is_broken() and st.get_buffered_bytes() == 0, "%s: never broken, nothing left over" % what)
	print("%s: %s: %d decoded, %d refused" % [p.label, what, values, errors])
	usable_after_reset(st, what)
	c.disconnect_from_host()
	s.disconnect_from_host()
	return true


## 256 KiB of random bytes fed in random pieces: the buffer never holds more than one piece
## beyond the limit, and the stream ends up broken (a random prefix is almost surely too big).
func random_bytes() -> bool:
	var rng := RandomNumberGenerator.new()
	rng.seed = 77
	var st := new_stream()
	st.codec.max_message_size = 65536
	var most := 0
	var results := 0
	var fed := 0
	while fed < 256 * 1024:
		var piece := PackedByteArray()
		piece.resize(rng.randi_range(1, 4096))
		for k in piece.size():
			piece[k] = rng.randi() & 255
		fed += piece.size()
		st.feed(piece)
		most = maxi(most, st.get_buffered_bytes())
		var guard := 0
		while st.get_available_packet_count() > 0 and guard < 1000 and not st.is_broken():
			st.get_var()
			results += 1
			guard += 1
		if st.get_available_packet_count() > 0:
			st.get_var()  # takes the error that breaks the stream
	p.check(most <= 65536 + 4 + 4096, "random bytes: at most one piece beyond the limit is ever buffered", "%d bytes" % most)
	p.check(st.is_broken(), "random bytes: the stream ends up broken", "%d results before" % results)
	usable_after_reset(st, "random bytes")
	return true


## A value fed one byte at a time is complete only with its last byte.
func byte_by_byte() -> bool:
	var v := {"name": "ann", "inv": PackedStringArray(["a", "bb"]), "m": [Transform3D.IDENTITY, Color.RED, NodePath("/a:b")],
			"big": PackedByteArray(range(2000).map(func(i): return i & 255))}
	for dialect in [FastVarCodec.DIALECT_GODOT_4, FastVarCodec.DIALECT_GODOT_3]:
		var st := new_stream(dialect)
		var data := framed(v, dialect)
		var early := false
		for i in data.size():
			st.feed(data.slice(i, i + 1))
			if i < data.size() - 1 and st.get_available_packet_count() > 0:
				early = true
		var got = st.get_var()
		var expected = v if dialect == FastVarCodec.DIALECT_GODOT_4 else st.codec.decode(st.codec.encode(v))
		p.check(not early and st.get_error() == OK and Peer.same(got, expected),
				"byte by byte (dialect %d): %d single bytes make one value" % [dialect, data.size()],
				"early %s, %s: %s" % [early, error_string(st.get_error()), Peer.show(got)])
	return true


## FastVarCodec itself on hostile input.
func codec_hostile() -> bool:
	var codec := FastVarCodec.new()
	var spb := StreamPeerBuffer.new()
	var data := PackedByteArray(TWO_GIB_PREFIX)
	data.append_array(PackedByteArray([2, 0, 0, 0, 1, 0, 0, 0]))
	spb.data_array = data
	var rss0 := Peer.rss_kib()
	var v = codec.get_var(spb)
	p.check(v == null and codec.get_error() != OK, "codec: get_var() with a 2 GiB prefix fails",
			"%s, %s" % [Peer.show(v), error_string(codec.get_error())])
	p.check(Peer.rss_kib() - rss0 < 64 * 1024, "codec: get_var() with a 2 GiB prefix allocates nothing like it")
	var rng := RandomNumberGenerator.new()
	rng.seed = 99
	var decoded := 0
	for i in 2000:
		var b := PackedByteArray()
		b.resize(rng.randi_range(0, 48))
		for k in b.size():
			b[k] = rng.randi() & 255
		if b.size() >= 4:
			b.encode_u32(0, rng.randi_range(0, 40))
		codec.decode(b)
		if codec.get_error() == OK:
			decoded += 1
	var x := {"k": [1, 2.5, "s", Vector3i(1, 2, 3)]}
	var bytes := codec.encode(x)
	p.check(codec.get_error() == OK and bytes == var_to_bytes(x) and Peer.same(codec.decode(bytes), x),
			"codec: after 2000 random inputs (%d decoded) it still encodes and decodes exactly" % decoded)
	return true
