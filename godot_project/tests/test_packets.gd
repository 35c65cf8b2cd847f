extends RefCounted
## FastVarCodec.decode_compressed against the engine's own PackedByteArray.compress and
## decompress: every value the engine compresses, in each mode, reads back as the value the
## engine's bytes_to_var(decompress(size, mode)) gives; a FastLZ packet of a short value reads
## past its padding (the engine's decompress hands the padding on); and a packet holding more
## than the size given, or no packet at all, is refused with the engine's Error.

const Ctx := preload("res://tests/lib/ctx.gd")
const MODES := [FileAccess.COMPRESSION_FASTLZ, FileAccess.COMPRESSION_DEFLATE,
	FileAccess.COMPRESSION_ZSTD, FileAccess.COMPRESSION_GZIP]

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	engine_packets_read_as_the_engine_reads_them()
	fastlz_padding()
	limits_and_errors()
	t.done()


func values() -> Array:
	return [
		42, 1.5, "hello, hello, hello, hello", Vector2(1, 2), Color(0.25, 0.5, 0.75, 1),
		{"name": "player", "hp": 100, "items": ["sword", "shield"]}, range(300),
		PackedFloat32Array(range(1000)), "abc".repeat(30000),
	]


func engine_packets_read_as_the_engine_reads_them() -> void:
	var codec := FastVarCodec.new()
	for mode in MODES:
		for v in values():
			var bytes := var_to_bytes(v)
			var packet := bytes.compress(mode)
			var engine_value = bytes_to_var(packet.decompress(bytes.size(), mode))
			var ours = codec.decode_compressed(packet, mode, 1 << 20)
			var what := "mode %d, %s" % [mode, type_string(typeof(v))]
			t.check(codec.get_error() == OK, what + ": decodes", codec.get_error_message())
			t.check_same(ours, engine_value, what + ": the engine's value")


## The engine's decompress gives a FastLZ packet of 8 bytes back as 16 (its padding), which a
## decode that wants the value whole refuses; decode_compressed reads the value past it.
func fastlz_padding() -> void:
	var codec := FastVarCodec.new()
	var packet := var_to_bytes(42).compress(FileAccess.COMPRESSION_FASTLZ)
	var engine_bytes := packet.decompress(64, FileAccess.COMPRESSION_FASTLZ)
	t.check(engine_bytes.size() == 16, "the engine hands the padding on", str(engine_bytes.size()))
	codec.decode(engine_bytes)
	t.check(codec.get_error() == ERR_INVALID_DATA, "decode refuses the padded bytes")
	t.check(codec.decode_compressed(packet, FileAccess.COMPRESSION_FASTLZ, 64) == 42,
		"decode_compressed reads the value")


func limits_and_errors() -> void:
	var codec := FastVarCodec.new()
	var big := PackedByteArray()
	big.resize(100000)
	var packet := var_to_bytes(big).compress(FileAccess.COMPRESSION_ZSTD)
	t.check(codec.decode_compressed(packet, FileAccess.COMPRESSION_ZSTD, 1000) == null
		and codec.get_error() == ERR_OUT_OF_MEMORY, "a packet over max_size",
		error_string(codec.get_error()))
	t.check(codec.decode_compressed(PackedByteArray([1, 2, 3, 4]), FileAccess.COMPRESSION_DEFLATE,
		1000) == null and codec.get_error() == ERR_INVALID_DATA, "not a packet",
		error_string(codec.get_error()))
	t.check(codec.decode_compressed(packet, FileAccess.COMPRESSION_BROTLI, 1000) == null
		and codec.get_error() == ERR_INVALID_PARAMETER, "Brotli, which the engine never writes",
		error_string(codec.get_error()))
	t.check(codec.decode_compressed(packet, FileAccess.COMPRESSION_ZSTD, -1) == null
		and codec.get_error() == ERR_INVALID_PARAMETER, "a negative max_size",
		error_string(codec.get_error()))
	# Objects pass the codec's gates as in decode: refused unless allowed.
	var obj_packet := var_to_bytes_with_objects(Resource.new()).compress(FileAccess.COMPRESSION_GZIP)
	t.check(codec.decode_compressed(obj_packet, FileAccess.COMPRESSION_GZIP, 1 << 16) == null
		and codec.get_error() == ERR_UNAUTHORIZED, "an object, not allowed",
		error_string(codec.get_error()))
