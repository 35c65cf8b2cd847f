extends RefCounted
## Malformed input. For ~50 engine encodings: every truncation, seeded bit flips and every header
## bit flip. FastVarCodec must accept exactly when the engine does (decode_var_size(0, allow) > 0;
## Godot 4.6.3 returns 0, not -1, on failure), then give the engine's value and size; when it
## rejects, get_error() != OK, null and a message. The codec must stay usable after errors.
## Then the Godot 4.6.3 golden malformed corpus: the same verdicts, and the engine's Error codes.

const Ctx := preload("res://tests/lib/ctx.gd")
const Values := preload("res://tests/lib/values.gd")
const Desc := preload("res://tests/lib/desc.gd")
const ITEM := preload("res://tests/fixtures/item.gd")

const FLIPS_PER_VALUE := 10

var t: Ctx
var codec
var stats := {"inputs": 0, "accepted": 0, "rejected": 0, "golden": 0, "golden_codes": 0,
		"golden_verdict_moved": 0}
## Golden inputs whose decoded value embeds a fresh instance id (see golden()).
const NONDETERMINISTIC := ["craft/object_full_nested_id_mode/allow_objects"]
var golden_code_mismatch := {}


func run(ctx: Ctx) -> void:
	t = ctx
	codec = FastVarCodec.new()
	# Engine parity: admits every class, as bytes_to_var_with_objects does (trusted test data).
	codec.allowed_classes = PackedStringArray(["*"])
	# and reads a value followed by other bytes, as bytes_to_var does.
	codec.allow_trailing_bytes = true
	mutations()
	var mutated := [stats.inputs, stats.accepted, stats.rejected]
	# The corpus of the engine running this: its double-precision build has its own.
	golden("res://golden/godot4_6_3_double.json" if OS.has_feature("double") else "res://golden/godot4_6_3.json")
	stats.inputs = mutated[0]
	stats.accepted = mutated[1]
	stats.rejected = mutated[2]
	t.note("%d mutated inputs (%d accepted, %d rejected by the engine); %d golden inputs, %d error codes compared%s" % [
			stats.inputs, stats.accepted, stats.rejected, stats.golden, stats.golden_codes,
			"" if stats.golden_verdict_moved == 0 else ", %d golden verdicts differ in this project (scripts of the generator's project are absent)" % stats.golden_verdict_moved])
	if not golden_code_mismatch.is_empty():
		t.note("error code mismatches by (codec, engine): %s" % golden_code_mismatch)
	t.done()


## Inputs whose decoding by Godot 4.6.3 is wrong (a script-typed Dictionary key).
## Inputs whose size the engine's decode_var_size cannot give without leaking: it instantiates the
## Node the bytes describe and never frees it (nobody can: the Variant is dropped inside). For
## these the engine's recorded size from the golden corpus stands in for the live call.
const ENGINE_SIZE_LEAKS := {"golden/craft/object_full_node/allow_objects": true}
var recorded_size := -1

const ENGINE_DECODE_BUGS := {"golden/craft/dictionary_typed_key_script_value_builtin/allow_objects": true}


## One input: the codec's verdict, value and size against the live engine's.
func compare(name: String, b: PackedByteArray, allow: bool) -> void:
	stats.inputs += 1
	var engine_size := recorded_size if ENGINE_SIZE_LEAKS.has(name) else b.decode_var_size(0, allow)
	var engine_ok := engine_size > 0
	codec.allow_objects = allow
	var v = codec.decode(b)
	var err: Error = codec.get_error()
	var codec_ok := err == OK
	if not t.check(codec_ok == engine_ok, name + ": same verdict as the engine",
			func(): return "engine %s (size %d), codec %s (%s: %s, size %d); bytes %s" % [
				"accepts" if engine_ok else "rejects", engine_size, "accepts" if codec_ok else "rejects",
				error_string(err), codec.get_error_message(), codec.get_decoded_size(), Ctx.hex(b)]):
		Ctx.dispose(v)
		return
	if engine_ok:
		stats.accepted += 1
		var ev = b.decode_var(0, allow)
		if ENGINE_DECODE_BUGS.has(name):
			# Godot 4.6.3 drops a script-typed key's type here ("Script class can only be set
			# together with base class name"); the codec keeps the type the bytes describe.
			t.check(not Ctx.same(v, ev), name + ": the engine's decode still loses the type (else drop this exception)")
			t.check(v is Dictionary and v.is_typed_key() and v.get_typed_key_script() != null,
					name + ": the key type the bytes describe is kept")
			ev = v
		t.check_same(v, ev, name + ": same value as the engine")
		t.check(codec.get_decoded_size() == size_within(engine_size, b),
				name + ": the engine's size, ending with the input",
				"codec %d, engine %d" % [codec.get_decoded_size(), engine_size])
		Ctx.dispose(ev)
	else:
		stats.rejected += 1
		t.check(v == null, name + ": null on failure", func(): return Ctx.show(v))
		t.check(codec.get_error_message() != "", name + ": an error message on failure")
	Ctx.dispose(v)


## The size FastVarCodec reports where the engine reports `engine_size`: the engine counts a
## final PackedByteArray's missing padding, past the end of the input; FastVarCodec's size ends
## with the input.
func size_within(engine_size: int, b: PackedByteArray) -> int:
	return mini(engine_size, b.size())


func compare_verdict_and_size(name: String, b: PackedByteArray, allow: bool) -> void:
	var engine_size := b.decode_var_size(0, allow)
	codec.allow_objects = allow
	var v = codec.decode(b)
	t.check((codec.get_error() == OK) == (engine_size > 0), name + ": same verdict as the engine")
	t.check(engine_size <= 0 or codec.get_decoded_size() == size_within(engine_size, b),
			name + ": the engine's size, ending with the input")
	Ctx.dispose(v)


func still_usable(name: String) -> void:
	codec.allow_objects = false
	var b := var_to_bytes(["ok", 1])
	var v = codec.decode(b)
	t.check(v == ["ok", 1] and codec.get_error() == OK and codec.get_decoded_size() == b.size(),
			name + ": the codec decodes valid input after the errors")


func mutate_all(name: String, b: PackedByteArray, allow: bool) -> void:
	var rng := RandomNumberGenerator.new()
	rng.seed = hash(name)
	# the intact encoding
	compare(name + "/intact", b, allow)
	# every truncation
	for n in b.size():
		compare("%s/trunc/%d" % [name, n], b.slice(0, n), allow)
	# seeded bit flips anywhere
	for i in FLIPS_PER_VALUE:
		var m := b.duplicate()
		var at := rng.randi_range(0, b.size() - 1)
		var bit := rng.randi_range(0, 7)
		m[at] = m[at] ^ (1 << bit)
		compare("%s/flip/byte%d_bit%d" % [name, at, bit], m, allow)
	# every header bit
	for bit in 32:
		var m := b.duplicate()
		m[bit >> 3] = m[bit >> 3] ^ (1 << (bit & 7))
		compare("%s/header_bit%d" % [name, bit], m, allow)
	# a few 32-bit words replaced by extreme values (counts, lengths)
	for w in range(1, mini(b.size() >> 2, 6)):
		for x in [0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0x40000001]:
			var m := b.duplicate()
			m.encode_u32(w * 4, x)
			compare("%s/word%d=%x" % [name, w, x], m, allow)
	still_usable(name)


func mutations() -> void:
	var node := Node.new()
	var res := Resource.new()
	res.resource_name = "res"
	var item = ITEM.new()
	item.title = "Axe"
	item.tags = PackedStringArray(["a", "bc"])
	item.child = res
	var n0 := Values.neg0()
	var ids := {
		"nil": null, "bool": true, "int32": 0x12345678, "int64": -2147483649, "float32": 0.5, "float64": 0.1,
		"float_neg0": n0, "string": "héllo wörld 😀", "string_name": &"string_name", "node_path": NodePath("/root/a/b:c:d"),
		"node_path_rel": NodePath("a:b"), "vector2": Vector2(1.5, -2), "vector2i": Vector2i(3, -4),
		"rect2": Rect2(1, 2, 3, 4), "rect2i": Rect2i(-1, 2, 3, -4), "vector3": Vector3(0.1, 2, 3),
		"vector3i": Vector3i(1, 2, 3), "transform2d": Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)),
		"vector4": Vector4(1, 2, 3, 4), "vector4i": Vector4i(1, -2, 3, -4), "plane": Plane(1, 2, 3, 4),
		"quaternion": Quaternion(0.1, 0.2, 0.3, 0.9), "aabb": AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		"basis": Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"transform3d": Transform3D(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12)),
		"projection": Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)),
		"color": Color(0.1, 0.2, 0.3, 0.4), "rid": rid_from_int64(0x1234), "object_id": node, "callable": Callable(),
		"signal": Signal(node, "ready"),
		"dictionary": {"a": 1, 2: [3.5, "x"], &"k": null},
		"array": [1, "two", [3.0, Vector2(4, 5)], {"k": PackedByteArray([1, 2, 3])}],
		"array_typed_int": Array([1, 2, 3], TYPE_INT, &"", null),
		"array_typed_string": Array(["a", "bc"], TYPE_STRING, &"", null),
		"array_typed_node": Array([node], TYPE_OBJECT, &"Node", null),
		"dictionary_typed": Dictionary({"a": 1, "b": 2}, TYPE_STRING, &"", null, TYPE_INT, &"", null),
		"dictionary_typed_vector2i_array": Dictionary({Vector2i(1, 2): [1]}, TYPE_VECTOR2I, &"", null, TYPE_ARRAY, &"", null),
		"packed_byte_array": PackedByteArray([1, 2, 3, 4, 5]),
		"packed_int32_array": PackedInt32Array([1, -1, 7]),
		"packed_int64_array": PackedInt64Array([1, -(1 << 40)]),
		"packed_float32_array": PackedFloat32Array([0.5, -1]),
		"packed_float64_array": PackedFloat64Array([0.1, NAN]),
		"packed_string_array": PackedStringArray(["ab", "", "日本"]),
		"packed_vector2_array": PackedVector2Array([Vector2(1, 2), Vector2(3, 4)]),
		"packed_vector3_array": PackedVector3Array([Vector3(1, 2, 3)]),
		"packed_color_array": PackedColorArray([Color(1, 0, 0, 1)]),
		"packed_vector4_array": PackedVector4Array([Vector4(1, 2, 3, 4)]),
	}
	for k in ids:
		mutate_all(k, var_to_bytes(ids[k]), false)
	# Full objects, decoded with and without allow_objects.
	var full := {
		"full/resource": res, "full/item": item,
		"full/array_typed_resource": Array([res], TYPE_OBJECT, &"Resource", null),
	}
	for k in full:
		var b := var_to_bytes_with_objects(full[k])
		mutate_all(k + "/allow_objects", b, true)
		mutate_all(k, b, false)
	node.free()


## The golden malformed corpus made by Godot 4.6.3: the live engine's verdict (in this project) is
## the oracle for verdict, value and size; the engine's recorded Error code is compared whenever
## the live verdict is the recorded one.
func golden(path: String) -> void:
	var corpus := Desc.load_corpus(path)
	if not t.check(corpus.error == "" and corpus.malformed.size() > 1000, "golden corpus %s loads" % path, corpus.error):
		return
	for m in corpus.malformed:
		stats.golden += 1
		var b: PackedByteArray = String(m.bytes).hex_decode()
		var allow: bool = m.allow_objects
		var name := "golden/" + String(m.name)
		if allow and not name.ends_with("/allow_objects"):
			name += "/allow_objects"
		recorded_size = int(m.size) if bool(m.ok) else 0
		var live_ok := recorded_size > 0 if ENGINE_SIZE_LEAKS.has(name) else b.decode_var_size(0, allow) > 0
		if NONDETERMINISTIC.has(String(m.name)):
			# Both decoders store str(<a fresh EncodedObjectAsID>) in a String property: the text
			# holds that temporary object's instance id. Only the verdict and the size can match.
			compare_verdict_and_size(name, b, allow)
		else:
			compare(name, b, allow)
		if live_ok != bool(m.ok):
			stats.golden_verdict_moved += 1
			continue
		if not m.ok:
			codec.allow_objects = allow
			codec.decode(b)
			stats.golden_codes += 1
			var got: int = codec.get_error()
			if not t.check(got == int(m.error), name + ": the engine's Error code",
					func(): return "codec %s (%s), engine %s; bytes %s" % [error_string(got), codec.get_error_message(),
						error_string(int(m.error)), Ctx.hex(b)]):
				var key := "%s/%s" % [error_string(got), error_string(int(m.error))]
				golden_code_mismatch[key] = golden_code_mismatch.get(key, 0) + 1
	still_usable("golden")
