extends Node
## FastVarCodec demo: one game message in both dialects, the Godot 3 conversion policy, values
## arriving over a stream in pieces, a hostile stream, and double precision. Prints what it does
## and quits (exit code 1 if anything is not as described).

var _failures := 0


func _ready() -> void:
	var message := {
		"type": "move",
		"player": 7,
		"pos": Vector3(1.5, 0, -2.25),
		"speed": 4.5,
		"name": "Zoë",
		"path": [Vector2(0, 0), Vector2(3, 4)],
	}

	print("== Godot 4 dialect: the bytes of var_to_bytes")
	var codec := FastVarCodec.new()
	var ours := codec.encode(message)
	_expect(ours == var_to_bytes(message), "encode() equals var_to_bytes()")
	print("  %d bytes: %s…" % [ours.size(), ours.slice(0, 24).hex_encode()])
	_expect(var_to_str(codec.decode(ours)) == var_to_str(message), "decode() gives the message back")
	_expect(codec.encoded_size(message) == ours.size(), "encoded_size() without encoding")

	print("== Godot 3 dialect: what a Godot 3 game's bytes2var reads")
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	var g3 := codec.encode(message)
	print("  %d bytes, Dictionary type id %d (Godot 4 uses %d)" % [g3.size(), g3[0], ours[0]])
	_expect(g3[0] == 18 and ours[0] == 27, "type ids follow each engine's table")
	_expect(var_to_str(codec.decode(g3)) == var_to_str(message), "the Godot 3 bytes decode to the same Godot 4 values")

	print("== Godot 4-only values in the Godot 3 dialect")
	var refused := codec.encode({"cell": Vector2i(3, 4)})
	print("  strict: %s" % codec.get_error_message())
	_expect(refused.is_empty() and codec.get_error() == ERR_INVALID_PARAMETER, "Vector2i is refused, with its path")
	codec.allow_lossy = true
	var converted = codec.decode(codec.encode({"cell": Vector2i(3, 4)}))
	print("  allow_lossy: %s" % [converted])
	_expect(converted["cell"] == Vector2(3, 4), "allow_lossy sends the closest Godot 3 value")
	codec.allow_lossy = false

	print("== A stream whose values arrive split and coalesced")
	var sender := FastVarCodec.new()
	var wire := PackedByteArray()
	for v in [message, "hello", 42, PackedByteArray([1, 2, 3])]:
		wire.append_array(sender.encode_framed(v))  # a length, then the value: StreamPeer.put_var's bytes
	var stream := FastVarStream.new()
	var received := []
	for i in range(0, wire.size(), 5):
		stream.feed(wire.slice(i, i + 5))
		while stream.get_available_packet_count() > 0:
			received.append(stream.get_var())
	print("  fed %d bytes in 5-byte pieces, got %d values" % [wire.size(), received.size()])
	_expect(received.size() == 4 and received[1] == "hello" and received[2] == 42, "every value comes out whole, in order")

	print("== A hostile stream: a 2 GiB length prefix")
	var hostile := FastVarStream.new()
	hostile.feed(PackedByteArray([0, 0, 0, 0x80, 1, 2, 3, 4]))
	var v = hostile.get_var()
	print("  %s" % hostile.get_error_message())
	_expect(v == null and hostile.is_broken() and hostile.get_buffered_bytes() < 64, "refused without allocating; the stream is marked broken")

	print("== Double precision, as precision=double builds write it")
	var wide := FastVarCodec.new()
	wide.precision = FastVarCodec.PRECISION_DOUBLE
	var vb := wide.encode(Vector2(1, 2))
	print("  Vector2(1, 2): %s" % vb.hex_encode())
	_expect(vb.size() == 20 and vb[2] == 1 and wide.decode(vb) == Vector2(1, 2), "64-bit flag and binary64 components")

	print("demo finished: %s" % ("OK" if _failures == 0 else "%d problem(s)" % _failures))
	get_tree().quit(0 if _failures == 0 else 1)


func _expect(ok: bool, what: String) -> void:
	print("  [%s] %s" % ["ok" if ok else "FAILED", what])
	if not ok:
		_failures += 1
