extends RefCounted
## Parity with the running engine: for every value, FastVarCodec (Godot 4 dialect, single
## precision) must write the bytes of var_to_bytes / var_to_bytes_with_objects, report their exact
## size, and decode them (also at an offset, between garbage) to what bytes_to_var gives. The
## values: the golden corpus's (tests/golden/gen/godot4/golden_values.gd, which the golden
## generator records), then more of each kind (random ones, long ones, more objects).

const Ctx := preload("res://tests/lib/ctx.gd")
const Values := preload("res://tests/lib/values.gd")
const GoldenValues := preload("res://golden/gen/godot4/golden_values.gd")
## The golden corpus's scripts, at the paths it names (tests/setup_godot_project.sh links them).
const ITEM := preload("res://golden_item.gd")
const HOLDER := preload("res://golden_holder.gd")

var t: Ctx
var codec
var vals := Values.new(424242)
var cases: Array = []  # [name, value, full_objects]
var names := {}
var keep: Array = []  # objects that must outlive the checks
var counts := {"values": 0, "refused": 0, "engine_bug": 0}
## Where Godot 4.6.3's own decoder is wrong, the decode is compared with the original value
## instead (the encode is still compared with the engine).
const ENGINE_DECODE_BUGS := {
	"dictionary/typed/String_script/full": "Godot 4.6.3 rebuilds script-typed Dictionaries without their script (and with wrong types) on decode",
	"dictionary/typed/script_int/full": "the same engine bug (script-typed key)",
	"dictionary/typed/int_script/empty/full": "the same engine bug",
	"dictionary/typed/script_Resource/full": "the same engine bug (script-typed key)",
	"dictionary/typed/script_holderscript/empty/full": "the same engine bug",
	"dictionary/typed/holderscript_script/empty/full": "the same engine bug",
}


func run(ctx: Ctx) -> void:
	t = ctx
	codec = FastVarCodec.new()
	# Engine parity: admits every class, as bytes_to_var_with_objects does (trusted test data).
	codec.allowed_classes = PackedStringArray(["*"])
	# and reads a value followed by other bytes, as bytes_to_var does.
	codec.allow_trailing_bytes = true
	var o := GoldenValues.add_all(add, t.tree, ITEM, HOLDER, keep)
	more_scalars()
	more_math()
	more_packed()
	more_containers()
	more_typed()
	more_objects(o)
	more_random()
	for i in cases.size():
		parity(cases[i][0], cases[i][1], cases[i][2], i)
	refused()
	t.note("%d values compared with the engine (%d of them refused by the engine; %d decoded against the original value where the engine's decoder is wrong)" % [
			counts.values, counts.refused, counts.engine_bug])
	cleanup()
	t.done()


func add(name: String, v, full := false) -> void:
	if names.has(name):
		t.check(false, "duplicate case name " + name)
		return
	names[name] = true
	cases.append([name, v, full])


# ------------------------------------------------------------------ the checks

func parity(name: String, v, full: bool, salt: int) -> void:
	counts.values += 1
	var expected: PackedByteArray = var_to_bytes_with_objects(v) if full else var_to_bytes(v)
	codec.full_objects = full
	codec.allow_objects = full
	var got: PackedByteArray = codec.encode(v)
	t.check_bytes(got, expected, name + ": encode == var_to_bytes%s" % ("_with_objects" if full else ""))
	if expected.is_empty():
		counts.refused += 1
		t.check(codec.get_error() != OK, name + ": get_error() after a refused encode",
				"get_error() is OK although the engine refuses this value")
		t.check(codec.encoded_size(v) == -1, name + ": encoded_size of a refused value is -1",
				func(): return "got %d" % codec.encoded_size(v))
		return
	t.check(codec.get_error() == OK, name + ": get_error() after encode",
			func(): return "%s: %s" % [error_string(codec.get_error()), codec.get_error_message()])
	var size: int = codec.encoded_size(v)
	t.check(size == expected.size(), name + ": encoded_size", "got %d, expected %d" % [size, expected.size()])

	var engine = bytes_to_var_with_objects(expected) if full else bytes_to_var(expected)
	if ENGINE_DECODE_BUGS.has(name):
		counts.engine_bug += 1
		t.check(not Ctx.same(engine, v), name + ": the engine's decode still loses the type (else drop this exception)")
		Ctx.dispose(engine)
		engine = v
	var decoded = codec.decode(expected)
	t.check(codec.get_error() == OK, name + ": get_error() after decode",
			func(): return "%s: %s" % [error_string(codec.get_error()), codec.get_error_message()])
	t.check_same(decoded, engine, name + ": decode == bytes_to_var")
	t.check(codec.get_decoded_size() == expected.size(), name + ": get_decoded_size",
			"got %d, expected %d" % [codec.get_decoded_size(), expected.size()])

	# At an offset, with garbage before and after.
	var pre := Values.garbage(1 + salt % 7, salt)
	var buf := pre.duplicate()
	buf.append_array(expected)
	buf.append_array(Values.garbage(3 + salt % 5, salt + 1))
	var at = codec.decode(buf, pre.size())
	t.check_same(at, engine, name + ": decode(bytes, %d) between garbage" % pre.size())
	t.check(codec.get_decoded_size() == expected.size(), name + ": get_decoded_size at an offset",
			"got %d, expected %d" % [codec.get_decoded_size(), expected.size()])
	if not ENGINE_DECODE_BUGS.has(name):
		Ctx.dispose(engine)
	Ctx.dispose(decoded)
	Ctx.dispose(at)


## Values the engine cannot encode: the codec must refuse them too (and not crash).
func refused() -> void:
	var deep := Values.nest_array(1026)
	var deep_leaf := Values.nest_array(1025, 7)
	var deep_dict := Values.nest_dict(1026)
	var cyclic := [1]
	cyclic.append(cyclic)
	var cyclic_dict := {}
	cyclic_dict["self"] = cyclic_dict
	var pathless_script := GDScript.new()
	pathless_script.source_code = "extends RefCounted\nvar x = 1\n"
	pathless_script.reload()
	var pathless = pathless_script.new()
	var list := [
		["refused/array_depth_1026", deep, false],
		["refused/array_leaf_at_depth_1025", deep_leaf, false],
		["refused/dictionary_depth_1026", deep_dict, false],
		["refused/self_containing_array", cyclic, false],
		["refused/self_containing_array/full", cyclic, true],
		["refused/self_containing_dictionary", cyclic_dict, false],
		["refused/noninstantiable_renderingserver/full", RenderingServer, true],
		["refused/pathless_script/full", pathless, true],
		["refused/array_typed_pathless_script/full", Array([pathless], TYPE_OBJECT, &"RefCounted", pathless_script), true],
		["refused/array_holding_noninstantiable/full", [1, RenderingServer], true],
	]
	for c in list:
		var engine: PackedByteArray = var_to_bytes_with_objects(c[1]) if c[2] else var_to_bytes(c[1])
		t.check(engine.is_empty(), c[0] + ": the engine refuses it (test premise)", "engine wrote %d bytes" % engine.size())
		parity(c[0], c[1], c[2], 0)
		t.check(codec.get_error_message() != "", c[0] + ": get_error_message() is set")
	keep.append(pathless)
	cyclic.clear()
	cyclic_dict.clear()
	# The codec is still usable afterwards.
	codec.full_objects = false
	t.check_bytes(codec.encode([1, "a"]), var_to_bytes([1, "a"]), "encode works after refused values")


func cleanup() -> void:
	for o in keep:
		if o is Object and is_instance_valid(o) and not (o is RefCounted):
			o.free()
	keep.clear()


# ------------------------------------------------------------------ beyond the golden corpus

func more_scalars() -> void:
	var ints := {"max32m1": 2147483646, "max32p2": 2147483649, "min32p1": -2147483647, "min32m2": -2147483650}
	for k in ints:
		add("int/" + k, ints[k])
	for i in 40:
		add("int/random/%d" % i, vals.rand_int())
	for i in 60:
		add("float/random/%d" % i, vals.rand_float())
	var strs := {
		"leading_double_bom": char(0xFEFF) + char(0xFEFF) + "x", "long_3001_e_acute": "é".repeat(3001),
		"long_777_emoji": "😀".repeat(777),
	}
	for k in strs:
		add("string/" + k, strs[k])
	for i in 40:
		add("string/random/%d" % i, vals.rand_text(1 + i))
	add("string_name/long", StringName("n".repeat(300)))
	add("string_name/leading_bom", StringName(char(0xFEFF) + "sn"))
	for i in 10:
		add("string_name/random/%d" % i, StringName(vals.rand_text(10)))
	add("node_path/abs_only_sub", NodePath("/:x"))
	add("node_path/deep", NodePath("a/b/c/d/e/f/g/h/i/j/k/l"))
	for i in 10:
		add("node_path/random/%d" % i, vals.rand_node_path())
	add("rid/min64", rid_from_int64(-9223372036854775808))


func more_math() -> void:
	var n0 := Values.neg0()
	add("vector2/neg0", Vector2(n0, -INF))
	add("color/nan_neg0", Color(NAN, n0, 0.5, 1e-40))
	for ty in [TYPE_VECTOR2, TYPE_VECTOR2I, TYPE_RECT2, TYPE_RECT2I, TYPE_VECTOR3, TYPE_VECTOR3I, TYPE_TRANSFORM2D,
			TYPE_VECTOR4, TYPE_VECTOR4I, TYPE_PLANE, TYPE_QUATERNION, TYPE_AABB, TYPE_BASIS, TYPE_TRANSFORM3D,
			TYPE_PROJECTION, TYPE_COLOR]:
		for i in 10:
			add("%s/random/%d" % [type_string(ty), i], vals.rand_of_type(ty))


func more_packed() -> void:
	add("packed_string_array/long", PackedStringArray(["x".repeat(1001), "日".repeat(333)]))
	add("packed_string_array/leading_double_bom", PackedStringArray([char(0xFEFF) + char(0xFEFF) + "p"]))
	var big := PackedFloat64Array()
	for i in 1000:
		big.append(vals.rand_float())
	add("packed_float64_array/len1000", big)
	var big_bytes := PackedByteArray()
	big_bytes.resize(200001)
	for i in range(0, big_bytes.size(), 97):
		big_bytes[i] = i & 0xFF
	add("packed_byte_array/len200001", big_bytes)
	# From 256 KiB the engine copies the array out of the input: alone, inside an Array (the
	# payload in the middle of the input), and at the threshold's edges.
	for n in [262143, 262144, 300007]:
		var large := PackedByteArray()
		large.resize(n)
		for i in range(0, n, 89):
			large[i] = (i * 7) & 0xFF
		large[n - 1] = 0xA5
		add("packed_byte_array/len%d" % n, large)
		add("array/packed_byte_array_len%d_inside" % n, [1, large, "tail"])
	var big_vec := PackedVector3Array()
	for i in 5000:
		big_vec.append(Vector3(i, -i, i * 0.5))
	add("packed_vector3_array/len5000", big_vec)
	for ty in [TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY, TYPE_PACKED_FLOAT32_ARRAY,
			TYPE_PACKED_FLOAT64_ARRAY, TYPE_PACKED_STRING_ARRAY, TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY,
			TYPE_PACKED_COLOR_ARRAY, TYPE_PACKED_VECTOR4_ARRAY]:
		for i in 6:
			add("%s/random/%d" % [type_string(ty), i], vals.rand_of_type(ty))


func more_containers() -> void:
	add("dictionary/mixed_keys/with_rid_and_negative_float", {
		1: "int", "s": "string", &"sn": "string_name", 1.5: "float", Vector2(1, 2): "vector2", null: "nil",
		[1, "x"]: "array", true: "bool", Color(1, 0, 0): "color", NodePath("a/b"): "node_path",
		PackedByteArray([1, 2]): "packed", {"in": 1}: "dict", Vector3i(1, 2, 3): "vector3i",
		rid_from_int64(5): "rid", -0.5: [1, {2: 3}],
	})
	add("dictionary/nan_key", {NAN: 1, 0.5: 2})
	add("dictionary/neg0_key", {Values.neg0(): "n", 0.0: "p"})
	var many := {}
	for i in 300:
		many[i * 7919 - 1000] = str(i)
	add("dictionary/300_entries", many)
	var long_array := []
	for i in 500:
		long_array.append(i if i % 3 else str(i))
	add("array/500_items", long_array)


func more_typed() -> void:
	add("array/typed/float/with_nan", Array([0.5, 0.1, NAN], TYPE_FLOAT, &"", null))
	var string_int := Dictionary({"a": 1, "b": -2}, TYPE_STRING, &"", null, TYPE_INT, &"", null)
	add("dictionary/typed/String_int/id", string_int)
	add("dictionary/typed/String_int/full", string_int, true)
	add("dictionary/typed/float_Dictionary/id", Dictionary({0.5: {"x": 1}}, TYPE_FLOAT, &"", null, TYPE_DICTIONARY, &"", null))


## Objects the golden corpus has no case for; o: the corpus's objects (GoldenValues.add_objects).
func more_objects(o: Dictionary) -> void:
	var node: Node = o.node
	var holder = o.holder
	var node2 := Node2D.new()
	node2.name = "ParityNode2D"
	node2.position = Vector2(3, 4)
	keep.append(node2)
	var freed := Object.new()
	var freed_var = freed
	freed.free()
	add("array/freed_inside", [1, freed_var, 2])
	add("object/full/node2d", node2, true)
	add("object/full/image", Image.create(2, 2, false, Image.FORMAT_RGBA8), true)
	var eoid := EncodedObjectAsID.new()
	eoid.set_object_id(12345)
	keep.append(eoid)
	add("object/id/encoded_object_as_id", eoid)
	add("object/full/encoded_object_as_id", eoid, true)
	add("array/typed/Node/with_node2d/id", Array([node, node2], TYPE_OBJECT, &"Node", null))
	add("array/typed/Node/full", Array([node], TYPE_OBJECT, &"Node", null), true)
	add("array/typed/Node2D/id", Array([node2], TYPE_OBJECT, &"Node2D", null))
	var rc_holder := Array([o.rc, holder], TYPE_OBJECT, &"RefCounted", null)
	add("array/typed/RefCounted/with_script_instance/id", rc_holder)
	add("array/typed/RefCounted/with_script_instance/full", rc_holder, true)
	var by_holder := Array([holder], TYPE_OBJECT, &"RefCounted", HOLDER)
	add("array/typed/holder_script/id", by_holder)
	add("array/typed/holder_script/full", by_holder, true)


func more_random() -> void:
	for i in 300:
		add("random/mixed/%d" % i, vals.rand_value())
