extends RefCounted
## Untrusted bytes inside the engine: decode limits, the object allow-list, FastVarStream fed
## split, coalesced and hostile streams, and a storm of mutated and random inputs. Every call
## must return a value or an error (no crash, no panic across the FFI), and the engine's memory
## must stay bounded.

const Ctx := preload("res://tests/lib/ctx.gd")
const Item := preload("res://tests/fixtures/item.gd")

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	limits()
	allow_list()
	stream_framing()
	hostile_streams()
	storm()
	t.done()


## `v` framed as StreamPeer.put_var writes it (little-endian prefix).
func framed(v) -> PackedByteArray:
	var b := var_to_bytes(v)
	return le32(b.size()) + b


func le32(n: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, n)
	return b


## max_elements and max_bytes refuse with ERR_OUT_OF_MEMORY; the defaults let normal data through.
func limits() -> void:
	var codec := FastVarCodec.new()
	t.check(codec.max_elements == -1 and codec.max_bytes == -1, "limit defaults: -1, no limit, as the engine",
			"%d / %d" % [codec.max_elements, codec.max_bytes])
	# What bytes_to_var decodes, decode() decodes with the defaults: 64 MiB of packed bytes.
	var huge := PackedByteArray()
	huge.resize(64 << 20)
	huge[huge.size() - 1] = 9
	var huge_bytes := var_to_bytes(huge)
	var back = codec.decode(huge_bytes)
	t.check(back is PackedByteArray and back.size() == huge.size() and back[huge.size() - 1] == 9 \
			and typeof(bytes_to_var(huge_bytes)) == TYPE_PACKED_BYTE_ARRAY,
			"a 64 MiB PackedByteArray decodes with the default limits, as with bytes_to_var", func(): return codec.get_error_message())
	var many := []
	many.resize(101)
	var bytes := var_to_bytes(many)
	codec.max_elements = 100
	t.check(codec.decode(bytes) == null and codec.get_error() == ERR_OUT_OF_MEMORY, "101 elements over max_elements 100",
			func(): return codec.get_error_message())
	codec.max_elements = 101
	t.check(codec.decode(bytes) is Array and codec.get_error() == OK, "101 elements within max_elements 101")
	var blob := PackedByteArray()
	blob.resize(5000)
	codec.max_bytes = 4999
	t.check(codec.decode(var_to_bytes(blob)) == null and codec.get_error() == ERR_OUT_OF_MEMORY, "5000 bytes over max_bytes",
			func(): return codec.get_error_message())
	t.check(codec.decode(var_to_bytes("x".repeat(5000))) == null, "a 5000-byte String over max_bytes")
	codec.max_bytes = 5000
	codec.max_elements = 5000
	t.check(codec.decode(var_to_bytes(blob)) is PackedByteArray, "5000 bytes within max_bytes")
	codec.max_elements = -2
	t.check(codec.max_elements == 5000, "a max_elements below -1 is refused (value kept)")
	codec.max_elements = -1
	t.check(codec.max_elements == -1 and codec.decode(var_to_bytes(many)) is Array, "max_elements -1: no limit again")


## allowed_classes: only listed classes (and scripts, by path or class name) are instantiated;
## a script is checked before it is loaded.
func allow_list() -> void:
	var item := Item.new()
	item.title = "sword"
	var res := Resource.new()
	var item_bytes := var_to_bytes_with_objects(item)
	var res_bytes := var_to_bytes_with_objects(res)
	var curve_bytes := var_to_bytes_with_objects(Curve.new())
	var codec := FastVarCodec.new()
	codec.allow_objects = true
	var refused = codec.decode(curve_bytes)
	t.check(refused == null and codec.get_error() == ERR_UNAUTHORIZED,
			"allow_objects with an empty allow-list admits no class", func(): return "%s %s" % [refused, codec.get_error_message()])
	codec.allowed_classes = PackedStringArray(["*"])
	t.check(codec.decode(curve_bytes) is Curve, "the entry \"*\" admits any class")
	codec.allowed_classes = PackedStringArray(["Resource"])
	t.check(codec.decode(res_bytes) is Resource and codec.get_error() == OK, "an allowed class decodes")
	var v = codec.decode(curve_bytes)
	t.check(v == null and codec.get_error() == ERR_UNAUTHORIZED, "a class not in the list is ERR_UNAUTHORIZED",
			func(): return "%s %s" % [v, codec.get_error_message()])
	v = codec.decode(item_bytes)
	t.check(v == null and codec.get_error() == ERR_UNAUTHORIZED, "an allowed class carrying a script not in the list is refused",
			func(): return "%s %s" % [v, codec.get_error_message()])
	codec.allowed_classes = PackedStringArray([Item.resource_path])
	v = codec.decode(item_bytes)
	t.check(v is Resource and v.get_script() == Item and v.title == "sword", "a script allowed by path decodes with its data",
			func(): return "%s %s" % [v, codec.get_error_message()])
	t.check(codec.decode(res_bytes) == null and codec.get_error() == ERR_UNAUTHORIZED, "a bare Resource needs its class listed")
	codec.allowed_classes = PackedStringArray()
	t.check(codec.decode(curve_bytes) == null and codec.get_error() == ERR_UNAUTHORIZED, "an emptied list admits no class again")
	codec.allow_objects = false
	t.check(codec.decode(res_bytes) == null and codec.get_error() == ERR_UNAUTHORIZED, "allow_objects off: full objects refused")


## FastVarStream: values split and coalesced in every way come out whole, in order, in both
## byte orders, identical to StreamPeerBuffer.put_var framing.
func stream_framing() -> void:
	var values := [{"a": 1, "b": [Vector3(1, 2, 3)]}, "x".repeat(3000), 7, null, PackedByteArray([1, 2, 3]), [1.5, &"n"]]
	for big_endian in [false, true]:
		var peer := StreamPeerBuffer.new()
		peer.big_endian = big_endian
		for v in values:
			peer.put_var(v)
		var wire: PackedByteArray = peer.data_array
		for chunk in [1, 3, 7, 64, wire.size()]:
			var s := FastVarStream.new()
			var got := []
			for i in range(0, wire.size(), chunk):
				# feed() reads little-endian prefixes; big-endian ones come through a peer that says so.
				var piece := wire.slice(i, i + chunk)
				if big_endian:
					var from := StreamPeerBuffer.new()
					from.big_endian = true
					from.data_array = piece
					t.check(s.poll(from) == OK, "poll accepts bytes")
				else:
					t.check(s.feed(piece) == OK, "feed accepts bytes")
				while s.get_available_packet_count() > 0:
					got.append(s.get_var())
					t.check(s.get_error() == OK, "get_var OK", func(): return s.get_error_message())
			t.check(got.size() == values.size(), "stream (%s, %d-byte pieces) yields every value" % ["BE" if big_endian else "LE", chunk],
					"got %d" % got.size())
			for k in mini(got.size(), values.size()):
				t.check_same(got[k], values[k], "stream value %d (%d-byte pieces)" % [k, chunk])
			t.check(s.get_buffered_bytes() == 0, "nothing left buffered")
			var none = s.get_var()
			t.check(none == null and s.get_error() == ERR_BUSY, "get_var with nothing complete is ERR_BUSY")
		# put_var of the stream writes what StreamPeer.put_var writes.
		var a := StreamPeerBuffer.new()
		a.big_endian = big_endian
		a.put_var(values[0])
		var b := StreamPeerBuffer.new()
		b.big_endian = big_endian
		var s2 := FastVarStream.new()
		s2.put_var(b, values[0])
		t.check_bytes(b.data_array, a.data_array, "FastVarStream.put_var == StreamPeer.put_var (%s)" % ("BE" if big_endian else "LE"))
	# poll() takes what a StreamPeer has, never waiting.
	var src := StreamPeerBuffer.new()
	src.put_var("polled")
	src.seek(0)
	var s3 := FastVarStream.new()
	t.check(s3.poll(src) == OK and s3.get_available_packet_count() > 0 and s3.get_var() == "polled", "poll() reads a StreamPeer")
	t.check(s3.poll(src) == OK and s3.get_available_packet_count() == 0, "poll() on an empty peer does nothing")


func hostile_streams() -> void:
	# A 2 GiB length prefix: refused, nothing allocated, the stream broken until reset.
	var s := FastVarStream.new()
	s.feed(le32(0x80000000) + PackedByteArray([1, 2, 3, 4]))
	t.check(s.get_available_packet_count() == 1, "an oversized prefix is reported at once")
	var v = s.get_var()
	t.check(v == null and s.get_error() == ERR_OUT_OF_MEMORY and s.is_broken(), "a 2 GiB prefix is refused and breaks the stream",
			func(): return "%s %s %s" % [v, error_string(s.get_error()), s.get_error_message()])
	t.check(s.get_buffered_bytes() < 64, "nothing is allocated for the claimed length")
	t.check(s.feed(PackedByteArray([1])) != OK, "a broken stream refuses more bytes")
	s.reset()
	s.feed(framed(5))
	t.check(not s.is_broken() and s.get_var() == 5, "after reset the stream works again")
	# A malformed value is skipped, the next one comes through.
	var bad := le32(8) + PackedByteArray([0xff, 0, 0, 0, 0, 0, 0, 0])
	s.feed(bad + framed("after"))
	v = s.get_var()
	t.check(v == null and s.get_error() == ERR_INVALID_DATA and not s.is_broken(), "a malformed value is reported, the stream stays usable")
	t.check(s.get_var() == "after", "the value after a malformed one comes through")
	# A truncated value waits for the rest and never blocks.
	var whole := var_to_bytes(PackedByteArray([9, 9, 9]))
	s.feed(le32(whole.size()) + whole.slice(0, 5))
	t.check(s.get_available_packet_count() == 0 and s.get_var() == null and s.get_error() == ERR_BUSY, "a partial value is not handed out")
	s.feed(whole.slice(5))
	t.check(s.get_var() == PackedByteArray([9, 9, 9]), "it is once the rest arrives")
	# max_message_size is honoured.
	var small := FastVarStream.new()
	small.codec.max_message_size = 16
	small.feed(le32(17) + PackedByteArray([0, 0, 0, 0]))
	t.check(small.get_var() == null and small.is_broken(), "a message over max_message_size breaks the stream")
	# FastVarCodec.max_message_size: get_var refuses a longer prefix before reading it; the
	# same length at the limit is read.
	var codec := FastVarCodec.new()
	codec.max_message_size = 16
	var payload := var_to_bytes("sixteen bytes!") # 24 bytes
	var peer := StreamPeerBuffer.new()
	peer.data_array = le32(payload.size()) + payload
	t.check(codec.get_var(peer) == null and codec.get_error() == ERR_OUT_OF_MEMORY
			and codec.get_error_message().contains("16"), "FastVarCodec.get_var refuses a message over max_message_size")
	codec.max_message_size = payload.size()
	peer.seek(0)
	t.check(codec.get_var(peer) == "sixteen bytes!" and codec.get_error() == OK, "and reads it at the limit")
	t.check(FastVarCodec.new().max_message_size == 8388608, "max_message_size is 8 MiB by default")


## Thousands of mutated and random inputs against decode and the stream reader: every call
## returns (value or error), the codec keeps working, and memory stays bounded.
func storm() -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = 20261121
	var seeds := [var_to_bytes({"k": [1, 2.5, "s", Vector3(1, 2, 3)], 2: PackedStringArray(["a", "b"])}),
		var_to_bytes(NodePath("/a/b:c")), var_to_bytes(Array([1, 2], TYPE_INT, "", null)),
		var_to_bytes_with_objects(Resource.new()), var_to_bytes(PackedVector3Array([Vector3.ONE]))]
	var codec := FastVarCodec.new()
	var stream := FastVarStream.new()
	var mem_before := OS.get_static_memory_usage()
	const ROUNDS := 3000
	# Each round makes one decode call and feeds one whole framed message, so it must also pop
	# exactly one value. A call counts when it returned cleanly (see `returned_cleanly`).
	var decodes := 0
	var pops := 0
	var bad_decode := ""
	var bad_pop := ""
	for round in ROUNDS:
		var b: PackedByteArray = seeds[round % seeds.size()].duplicate()
		match round % 4:
			0:
				for _k in rng.randi_range(1, 4):
					var i := rng.randi_range(0, b.size() - 1)
					b[i] = b[i] ^ (1 << rng.randi_range(0, 7))
			1:
				b = b.slice(0, rng.randi_range(0, b.size()))
			2:
				b.resize(rng.randi_range(4, 64))
				for i in b.size():
					b[i] = rng.randi_range(0, 255)
			3:
				# Huge counts where counts are.
				if b.size() >= 8:
					b.encode_u32(4, 0x7fffffff)
		codec.allow_objects = round % 2 == 0
		var v = codec.decode(b)
		if returned_cleanly(v, codec.get_error(), codec.get_error_message()):
			decodes += 1
		elif bad_decode.is_empty():
			bad_decode = "round %d: error %d, message '%s', %s" % [round, codec.get_error(), codec.get_error_message(), Ctx.show(v)]
		Ctx.dispose(v)
		stream.feed(le32(b.size()) + b)
		# One value per round: a whole message was fed, so exactly one is waiting.
		if stream.get_available_packet_count() == 1:
			var w = stream.get_var()
			if returned_cleanly(w, stream.get_error(), stream.get_error_message()):
				pops += 1
			elif bad_pop.is_empty():
				bad_pop = "round %d: error %d, message '%s', %s" % [round, stream.get_error(), stream.get_error_message(), Ctx.show(w)]
			Ctx.dispose(w)
		elif bad_pop.is_empty():
			bad_pop = "round %d: no value ready after a whole message was fed" % round
	t.check(decodes == ROUNDS, "every hostile decode returned a value or an error with a message",
			"%d of %d; first other: %s" % [decodes, ROUNDS, bad_decode])
	t.check(pops == ROUNDS, "every hostile message popped as a value or an error with a message",
			"%d of %d; first other: %s" % [pops, ROUNDS, bad_pop])
	t.check(not stream.is_broken() and stream.get_available_packet_count() == 0 and stream.get_buffered_bytes() == 0,
			"the stream went through every hostile message")
	t.check(codec.decode(var_to_bytes("still fine")) == "still fine", "the codec works after the storm")
	var grown := OS.get_static_memory_usage() - mem_before
	t.check(grown < 16 * 1024 * 1024, "memory stays bounded after 3000 hostile inputs", "grew by %d bytes" % grown)
	t.note("hostile storm: %d decodes and %d pops returned cleanly, static memory grew by %d bytes" % [decodes, pops, grown])


## A call returned cleanly: OK with no message (any value, null included: the bytes may hold
## a NIL), or null with an error code and a message saying what went wrong.
static func returned_cleanly(v, err: int, message: String) -> bool:
	if err == OK:
		return message.is_empty()
	return v == null and not message.is_empty()
