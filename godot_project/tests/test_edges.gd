extends RefCounted
## Nothing read in the wrong dialect, and no unbounded cost, on the GDScript surface:
##   * a record of known length (read_var's value, a FastVarStream message, a get_packet_var
##     packet, a read_godot3_save record) must be read whole: the Godot 3.6.2 save fixture read
##     in the Godot 4 dialect, and a file this engine's own FileAccess.store_var wrote read as a
##     Godot 3 save, fail with ERR_INVALID_DATA naming the dialect that reads them whole (the
##     engine's own get_var returns garbage for the first, with OK);
##   * read_godot3_save refuses a compressed file announcing 1 GiB with ERR_OUT_OF_MEMORY
##     before decompressing a block (max_payload), and reads one within max_payload.

const Ctx := preload("res://tests/lib/ctx.gd")

const FIXTURE := "res://saves/godot3_6_2/plain.bin"
const TMP_DIR := "user://fvc_test_edges"

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	DirAccess.make_dir_recursive_absolute(TMP_DIR)
	godot3_file_read_as_godot4()
	godot4_file_read_as_godot3_save()
	stream_message_of_another_dialect()
	packet_of_another_dialect()
	compressed_file_announcing_1_gib()
	DirAccess.remove_absolute(TMP_DIR.path_join("bomb.sav"))
	DirAccess.remove_absolute(TMP_DIR.path_join("godot4.sav"))
	DirAccess.remove_absolute(TMP_DIR)
	t.done()


func err_text(c) -> String:
	return "%s: %s" % [error_string(c.get_error()), c.get_error_message()]


## Reads values with read_var until one fails; returns how many were read.
func read_until_failure(codec: FastVarCodec, f: FileAccess) -> int:
	var n := 0
	while f.get_position() < f.get_length():
		codec.read_var(f)
		if codec.get_error() != OK:
			break
		n += 1
	return n


func godot3_file_read_as_godot4() -> void:
	var codec := FastVarCodec.new()
	codec.allowed_classes = PackedStringArray(["Curve"])
	codec.allow_objects = true
	var f := FileAccess.open(FIXTURE, FileAccess.READ)
	var n := read_until_failure(codec, f)
	t.check(codec.get_error() == ERR_INVALID_DATA and n < 59,
			"a Godot 3 save read as Godot 4 stops with ERR_INVALID_DATA", err_text(codec))
	t.check(codec.get_error_message().contains("reads whole as Godot 3"),
			"the message names the dialect that reads the record whole", err_text(codec))
	# The same file read in its dialect: all 59 values.
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	f.seek(0)
	t.check(read_until_failure(codec, f) == 59 and codec.get_error() == OK,
			"the same file in the Godot 3 dialect reads all 59 values", err_text(codec))


func godot4_file_read_as_godot3_save() -> void:
	# A Godot 4 file, written by this engine's own store_var: a Rect2 (id 7, 16 bytes of reals)
	# is a Vector3 in Godot 3 (id 7, 12 bytes), which leaves 4 bytes of the record unread.
	var path := TMP_DIR.path_join("godot4.sav")
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_var(1)
	f.store_var(Rect2(1, 2, 3, 4))
	f.close()
	var codec := FastVarCodec.new()
	var values := codec.read_godot3_save(path)
	t.check(codec.get_error() == ERR_INVALID_DATA and values.size() == 1,
			"a Godot 4 file read as a Godot 3 save stops at the value Godot 3 reads otherwise",
			"%s, %d values" % [err_text(codec), values.size()])
	t.check(codec.get_error_message().contains("reads whole as Godot 4"),
			"the message names Godot 4", err_text(codec))


func stream_message_of_another_dialect() -> void:
	var godot3 := FastVarCodec.new()
	godot3.dialect = FastVarCodec.DIALECT_GODOT_3
	var bytes := godot3.encode_framed(Rect2(1, 2, 3, 4)) + godot3.encode_framed(5)
	var stream := FastVarStream.new()
	stream.feed(bytes)
	var first = stream.get_var()
	t.check(first == null and stream.get_error() == ERR_INVALID_DATA
			and stream.get_error_message().contains("reads whole as Godot 3"),
			"a Godot 3 message on a Godot 4 stream is an error naming Godot 3",
			"%s: %s" % [error_string(stream.get_error()), stream.get_error_message()])
	var second = stream.get_var()
	t.check(second == 5 and stream.get_error() == OK, "the stream goes on after it",
			"%s %s" % [second, error_string(stream.get_error())])
	var codec := FastVarCodec.new()
	t.check(codec.decode_framed(bytes) == null and codec.get_error() == ERR_INVALID_DATA
			and codec.get_error_message().contains("reads whole as Godot 3"),
			"decode_framed of a Godot 3 frame in the Godot 4 dialect is an error naming Godot 3",
			err_text(codec))
	t.check(codec.decode_framed(bytes, 24) == 5 and codec.get_error() == OK,
			"the next frame decodes", err_text(codec))


func packet_of_another_dialect() -> void:
	var godot3 := FastVarCodec.new()
	godot3.dialect = FastVarCodec.DIALECT_GODOT_3
	var peer := PacketPeerStream.new()
	var pipe := StreamPeerBuffer.new()
	peer.stream_peer = pipe
	peer.put_packet(godot3.encode(Rect2(1, 2, 3, 4)))
	pipe.seek(0)
	var codec := FastVarCodec.new()
	var v = codec.get_packet_var(peer)
	t.check(v == null and codec.get_error() == ERR_INVALID_DATA
			and codec.get_error_message().contains("reads whole as Godot 3"),
			"a Godot 3 packet read as Godot 4 is an error naming Godot 3", err_text(codec))


## A compressed file of valid 4 KiB Deflate blocks of zeros announcing `payload` bytes.
func bomb(payload: int) -> PackedByteArray:
	var zeros := PackedByteArray()
	zeros.resize(4096)
	var block := zeros.compress(FileAccess.COMPRESSION_DEFLATE)
	var count := payload / 4096 + 1
	var out := StreamPeerBuffer.new()
	out.put_data("GCPF".to_ascii_buffer())
	out.put_u32(FileAccess.COMPRESSION_DEFLATE)
	out.put_u32(4096)
	out.put_u32(payload)
	var last := PackedByteArray()
	if payload % 4096 != 0:
		var rest := PackedByteArray()
		rest.resize(payload % 4096)
		last = rest.compress(FileAccess.COMPRESSION_DEFLATE)
	for i in count - 1:
		out.put_u32(block.size())
	out.put_u32(last.size())
	var body := PackedByteArray()
	for i in count - 1:
		body.append_array(block)
	out.put_data(body)
	out.put_data(last)
	out.put_data("GCPF".to_ascii_buffer())
	return out.data_array


func compressed_file_announcing_1_gib() -> void:
	var path := TMP_DIR.path_join("bomb.sav")
	var file := bomb(1 << 30)
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(file)
	f.close()
	var codec := FastVarCodec.new()
	t.check(codec.max_payload == 256 << 20, "max_payload defaults to 256 MiB", str(codec.max_payload))
	var values := codec.read_godot3_save(path)
	t.check(values.is_empty() and codec.get_error() == ERR_OUT_OF_MEMORY
			and codec.get_error_message().contains("1073741824"),
			"a %d-byte file announcing 1 GiB is refused with ERR_OUT_OF_MEMORY" % file.size(),
			err_text(codec))
	# Within the limit it is decompressed: 64 KiB of zeros, which are not values (a record of
	# length 0 does not decode).
	f = FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(bomb(64 << 10))
	f.close()
	codec.max_payload = 32 << 10
	codec.read_godot3_save(path)
	t.check(codec.get_error() == ERR_OUT_OF_MEMORY, "a lower max_payload refuses a smaller file",
			err_text(codec))
	codec.max_payload = -1
	t.check(codec.max_payload == -1, "max_payload -1 is no limit")
	codec.read_godot3_save(path)
	t.check(codec.get_error() != ERR_OUT_OF_MEMORY and codec.get_error() != OK,
			"within the limit the file is decompressed and its records read", err_text(codec))
