extends RefCounted
## Values nested as deep as the limits allow (1025 Arrays, the innermost empty: what the engine's
## own bytes_to_var accepts), and one level more, through every way in: decode and encode in the
## Godot 4 and Godot 3 dialects, Arrays, Dictionaries as values and as keys, typed Arrays,
## FastVarStream, put_var/get_var on a stream peer, store_var/read_var on a file. The deepest must
## come through whole, one more level must fail with ERR_OUT_OF_MEMORY, and nothing may crash.
##
## The test command also runs this file in an engine whose main thread has a 512 KB stack
## (FVC_STACK_KB=512, `ulimit -s`; tests/run_all.sh, step godot). The expected bytes are built
## here level by level, never by a recursive function: at this depth the engine's own
## var_to_bytes needs about 500 KB of stack itself, so the comparison with the engine's functions
## runs only where the stack is the engine's default.

const Ctx := preload("res://tests/lib/ctx.gd")

const DEEPEST := 1025
const SHAPES := ["arrays", "dictionary_values", "dictionary_keys", "typed_arrays"]

var t: Ctx
## The stack is small (FVC_STACK_KB): the engine's own deep functions are left out.
var small_stack := OS.get_environment("FVC_STACK_KB") != ""


func run(ctx: Ctx) -> void:
	t = ctx
	for shape in SHAPES:
		deepest(shape, FastVarCodec.DIALECT_GODOT_4)
	for shape in SHAPES:
		if shape != "typed_arrays":
			deepest(shape, FastVarCodec.DIALECT_GODOT_3)
	stream_and_files()
	t.done()


## `levels` containers inside each other, built without recursion.
static func nested(shape: String, levels: int):
	var v = [] if shape != "typed_arrays" else Array([], TYPE_INT, &"", null)
	for i in levels - 1:
		match shape:
			"arrays":
				v = [v]
			"dictionary_values":
				v = {"k": v}
			"dictionary_keys":
				v = {v: 1}
			"typed_arrays":
				var outer := Array([], TYPE_ARRAY, &"", null)
				outer.append(v)
				v = outer
	return v


## The encoding of nested(shape, levels), written out level by level (docs/wire_format.md).
static func expected(shape: String, levels: int, godot3: bool) -> PackedByteArray:
	var array_id := 19 if godot3 else 28
	var dictionary_id := 18 if godot3 else 27
	var s := StreamPeerBuffer.new()
	for i in levels - 1:
		match shape:
			"arrays":
				s.put_u32(array_id)
				s.put_u32(1)
			"dictionary_values":
				s.put_u32(dictionary_id)
				s.put_u32(1)
				s.put_u32(4)  # String "k"
				s.put_u32(1)
				s.put_data(PackedByteArray([0x6B, 0, 0, 0]))
			"dictionary_keys":
				s.put_u32(dictionary_id)
				s.put_u32(1)
			"typed_arrays":
				s.put_u32(array_id | (1 << 16))  # Array[Array]
				s.put_u32(array_id)
				s.put_u32(1)
	match shape:
		"arrays", "dictionary_values", "dictionary_keys":  # the innermost: []
			s.put_u32(array_id)
			s.put_u32(0)
		"typed_arrays":
			s.put_u32(array_id | (1 << 16))  # Array[int]
			s.put_u32(2)
			s.put_u32(0)
	if shape == "dictionary_keys":
		for i in levels - 1:
			s.put_u32(2)  # the value 1
			s.put_u32(1)
	return s.data_array


func deepest(shape: String, dialect: int) -> void:
	var codec := FastVarCodec.new()
	codec.dialect = dialect
	var godot3 := dialect == FastVarCodec.DIALECT_GODOT_3
	var name := "%s %s" % ["godot3" if godot3 else "godot4", shape]
	var value = nested(shape, DEEPEST)
	var bytes := expected(shape, DEEPEST, godot3)
	t.check_bytes(codec.encode(value), bytes, name + ": the deepest encodes")
	var back = codec.decode(bytes)
	t.check(codec.get_error() == OK and codec.get_decoded_size() == bytes.size(), name + ": and decodes",
			codec.get_error_message())
	t.check_bytes(codec.encode(back), bytes, name + ": to the same value")
	if godot3 or small_stack:
		t.skip("the engine's own functions at this depth (a small stack, or the Godot 3 dialect)")
	else:
		t.check_bytes(var_to_bytes(value), bytes, name + ": which are the engine's bytes")
		t.check_bytes(var_to_bytes(back), var_to_bytes(bytes_to_var(bytes)), name + ": and the engine's value")
	# One level more, the deepest inside an Array: refused both ways.
	t.check(codec.encode([value]).is_empty() and codec.get_error() == ERR_OUT_OF_MEMORY,
			name + ": one level more does not encode", codec.get_error_message())
	var deeper := PackedByteArray()
	deeper.resize(8)
	deeper.encode_u32(0, 19 if godot3 else TYPE_ARRAY)
	deeper.encode_u32(4, 1)
	deeper.append_array(bytes)
	t.check(codec.decode(deeper) == null and codec.get_error() == ERR_OUT_OF_MEMORY,
			name + ": nor does it decode", codec.get_error_message())


func stream_and_files() -> void:
	var codec := FastVarCodec.new()
	var value = nested("arrays", DEEPEST)
	var bytes := expected("arrays", DEEPEST, false)
	# put_var, then get_var and FastVarStream, on a stream peer.
	var peer := StreamPeerBuffer.new()
	t.check(codec.put_var(peer, value) == OK, "put_var of the deepest", codec.get_error_message())
	peer.seek(0)
	t.check_bytes(codec.encode(codec.get_var(peer)), bytes, "get_var of the deepest")
	var stream := FastVarStream.new()
	t.check(stream.feed(peer.data_array) == OK, "FastVarStream takes the deepest")
	var popped = stream.get_var()
	t.check(stream.get_error() == OK, "FastVarStream pops the deepest", stream.get_error_message())
	t.check_bytes(codec.encode(popped), bytes, "FastVarStream gives the deepest whole")
	# store_var and read_var on a file.
	var path := OS.get_user_data_dir().path_join("fvc_test_deep.bin")
	var f := FileAccess.open(path, FileAccess.WRITE_READ)
	if not t.check(f != null, "a file to write", error_string(FileAccess.get_open_error())):
		return
	t.check(codec.store_var(f, value) == OK, "store_var of the deepest", codec.get_error_message())
	f.seek(0)
	t.check_bytes(codec.encode(codec.read_var(f)), bytes, "read_var of the deepest")
	f.close()
	DirAccess.remove_absolute(path)
