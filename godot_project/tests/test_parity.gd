extends RefCounted
## Parity with the running engine: for every value, FastVarCodec (Godot 4 dialect, single
## precision) must write the bytes of var_to_bytes / var_to_bytes_with_objects, report their exact
## size, and decode them (also at an offset, between garbage) to what bytes_to_var gives.

const Ctx := preload("res://tests/lib/ctx.gd")
const Values := preload("res://tests/lib/values.gd")
const ITEM := preload("res://tests/fixtures/item.gd")
const HOLDER := preload("res://tests/fixtures/holder.gd")

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
}


func run(ctx: Ctx) -> void:
	t = ctx
	codec = FastVarCodec.new()
	build_scalars()
	build_math()
	build_packed()
	build_containers()
	build_typed()
	build_objects()
	build_random()
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
	# In id mode a pathless script instance is just an id, as for any object.
	parity("object/id/pathless_script", pathless, false, 1)


func cleanup() -> void:
	for o in keep:
		if o is Object and is_instance_valid(o) and not (o is RefCounted):
			o.free()
	keep.clear()


# ------------------------------------------------------------------ catalogue

func build_scalars() -> void:
	add("nil", null)
	add("nil/full", null, true)
	add("bool/true", true)
	add("bool/false", false)
	var ints := {
		"0": 0, "1": 1, "m1": -1, "127": 127, "128": 128, "255": 255, "256": 256, "m128": -128,
		"65535": 65535, "65536": 65536, "m65536": -65536, "max32m1": 2147483646, "max32": 2147483647,
		"max32p1": 2147483648, "max32p2": 2147483649, "min32p1": -2147483647, "min32": -2147483648,
		"min32m1": -2147483649, "min32m2": -2147483650, "u32max": 4294967295, "2p32": 4294967296,
		"m2p32": -4294967296, "2p53": 9007199254740992, "2p53p1": 9007199254740993, "max64": 9223372036854775807,
		"min64": -9223372036854775808, "max64m1": 9223372036854775806, "min64p1": -9223372036854775807,
		"0x12345678": 0x12345678, "f123456789abcdef": Values.hx("f123456789abcdef"),
	}
	for k in ints:
		add("int/" + k, ints[k])
	add("int/42/full", 42, true)
	for i in 40:
		add("int/random/%d" % i, vals.rand_int())

	var floats := {
		"0": 0.0, "neg0": Values.neg0(), "0.5": 0.5, "1": 1.0, "m1": -1.0, "0.15625": 0.15625, "0.1": 0.1,
		"m0.1": -0.1, "third": 1.0 / 3.0, "pi": PI, "tau": TAU, "1e10": 1e10, "1e-10": 1e-10,
		"2p24": 16777216.0, "2p24p1": 16777217.0, "1e300": 1e300, "m1e300": -1e300, "1e38": 1e38,
		"flt_max": Values.float_from_bits(0x47efffffe0000000), "m_flt_max": Values.float_from_bits(Values.hx("c7efffffe0000000")),
		"flt_max_next_f64": Values.float_from_bits(0x47efffffe0000001), "flt_max_half_ulp": Values.float_from_bits(0x47effffff0000000),
		"dbl_max": Values.float_from_bits(0x7fefffffffffffff), "f64_min_subnormal": Values.float_from_bits(1),
		"f64_max_subnormal": Values.float_from_bits(0x000fffffffffffff), "f64_min_normal": Values.float_from_bits(0x0010000000000000),
		"f32_min_subnormal": 1.401298464324817e-45, "f32_min_subnormal_neg": -1.401298464324817e-45,
		"f32_max_subnormal": Values.float_from_bits(0x380fffffc0000000), "f32_min_normal": 1.1754943508222875e-38,
		"f32_half_min_subnormal": 1.401298464324817e-45 / 2.0, "f32_min_subnormal_x1.5": 1.401298464324817e-45 * 1.5,
		"inf": INF, "minf": -INF, "nan": NAN, "nan_neg": Values.float_from_bits(Values.hx("fff8000000000000")),
		"nan_signaling": Values.float_from_bits(0x7ff0000000000001), "nan_payload": Values.float_from_bits(0x7ff8deadbeef0000),
		"nan_f32_payload_fit": Values.float_from_bits(0x7ffabcdee0000000), "2p62": 4611686018427387904.0,
		"m2p63": -9223372036854775808.0,
	}
	for k in floats:
		add("float/" + k, floats[k])
	add("float/0.1/full", 0.1, true)
	for i in 60:
		add("float/random/%d" % i, vals.rand_float())

	var letters := "abcdefghi"
	for n in range(0, 10):
		add("string/ascii_len%d" % n, letters.substr(0, n))
	var strs := {
		"e_acute": "é", "nihon": "日本", "emoji_gclef": "😀𝄞", "a_emoji": "a😀", "mixed": "aé日😀",
		"u10ffff": char(0x10FFFF), "u7f_u80": char(0x7F) + char(0x80), "u7ff_u800": char(0x7FF) + char(0x800),
		"uffff_u10000": char(0xFFFF) + char(0x10000), "escapes": "line\nnext\t\"q\" \\ /",
		"controls": char(1) + char(2) + char(0x1F), "embedded_nul": "a" + char(0) + "b",
		"leading_bom": char(0xFEFF) + "abc", "only_bom": char(0xFEFF), "leading_double_bom": char(0xFEFF) + char(0xFEFF) + "x", "middle_bom": "a" + char(0xFEFF) + "b",
		"spaces": "   ", "long_10000_ascii": "x".repeat(10000), "long_3001_e_acute": "é".repeat(3001),
		"long_1001_nihon": "日".repeat(1001), "long_777_emoji": "😀".repeat(777),
	}
	for k in strs:
		add("string/" + k, strs[k])
	add("string/abc/full", "abc", true)
	for i in 40:
		add("string/random/%d" % i, vals.rand_text(1 + i))

	var sns := {"empty": &"", "a": &"a", "ab": &"ab", "abc": &"abc", "abcd": &"abcd", "abcde": &"abcde",
			"hello_world": &"hello_world", "nihon": &"日本", "emoji": &"😀", "long": StringName("n".repeat(300))}
	for k in sns:
		add("string_name/" + k, sns[k])
	for i in 10:
		add("string_name/random/%d" % i, StringName(vals.rand_text(10)))

	var nps := {
		"empty": "", "a": "a", "a_b": "a/b", "root": "/root", "root_a": "/root/a", "slash": "/",
		"a_b_c_d": "a/b:c:d", "prop_x": ":x", "prop_x_y": ":x:y", "a_prop": "a:b", "dotdot": "../a",
		"dot": ".", "unique": "%Unique", "unicode": "日本/é:ü", "abs_sub": "/root/n:pos:x",
		"issue44999": "Path2D/PathFollow2D/Sprite:position:x", "pad_classes": "a/bb/ccc/dddd:eeeee",
		"emoji": "😀/𝄞:é", "abs_only_sub": "/:x", "deep": "a/b/c/d/e/f/g/h/i/j/k/l",
	}
	for k in nps:
		add("node_path/" + k, NodePath(nps[k]))
	for i in 10:
		add("node_path/random/%d" % i, vals.rand_node_path())

	add("rid/empty", RID())
	add("rid/13", rid_from_int64(13))
	add("rid/0", rid_from_int64(0))
	add("rid/2p40", rid_from_int64(1 << 40))
	add("rid/u64max", rid_from_int64(-1))
	add("rid/0x123456789abcdef0", rid_from_int64(0x123456789abcdef0))
	add("rid/min64", rid_from_int64(-9223372036854775808))


func build_math() -> void:
	var n0 := Values.neg0()
	add("vector2/zero", Vector2())
	add("vector2/1_2", Vector2(1, 2))
	add("vector2/inexact", Vector2(-1.5, 0.1))
	add("vector2/inf_nan", Vector2(INF, NAN))
	add("vector2/big_subnormal", Vector2(3.4e38, -1e-40))
	add("vector2/neg0", Vector2(n0, -INF))
	add("vector2i/zero", Vector2i())
	add("vector2i/1_m1", Vector2i(1, -1))
	add("vector2i/extremes", Vector2i(2147483647, -2147483648))
	add("rect2/1_2_3_4", Rect2(1, 2, 3, 4))
	add("rect2/inexact", Rect2(-0.5, 0.25, 1e10, 0.1))
	add("rect2/negative_size", Rect2(5, 6, -7, -8))
	add("rect2i/1_2_3_4", Rect2i(1, 2, 3, 4))
	add("rect2i/extremes", Rect2i(-1, -2, 2147483647, -2147483648))
	add("vector3/1_2_3", Vector3(1, 2, 3))
	add("vector3/inexact", Vector3(0.1, 0.2, 0.3))
	add("vector3/neg0_inf", Vector3(n0, INF, -INF))
	add("vector3i/1_2_3", Vector3i(1, 2, 3))
	add("vector3i/extremes", Vector3i(-2147483648, 0, 2147483647))
	add("transform2d/identity", Transform2D.IDENTITY)
	add("transform2d/distinct", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))
	add("transform2d/rotated", Transform2D(0.3, Vector2(0.1, -7.25)))
	add("vector4/1_2_3_4", Vector4(1, 2, 3, 4))
	add("vector4/nan_inf", Vector4(NAN, -INF, INF, n0))
	add("vector4i/1_2_3_4", Vector4i(1, 2, 3, 4))
	add("vector4i/extremes", Vector4i(-2147483648, 2147483647, -1, 0))
	add("plane/1_2_3_4", Plane(1, 2, 3, 4))
	add("plane/from_points", Plane(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)))
	add("quaternion/identity", Quaternion.IDENTITY)
	add("quaternion/1_2_3_4", Quaternion(1, 2, 3, 4))
	add("quaternion/from_euler", Quaternion.from_euler(Vector3(0.1, 0.2, 0.3)))
	add("aabb/1_to_6", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add("aabb/inexact", AABB(Vector3(-0.1, 0.2, -0.3), Vector3(1e20, 1e-20, 0)))
	add("basis/identity", Basis.IDENTITY)
	add("basis/distinct", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add("basis/euler", Basis.from_euler(Vector3(0.1, 0.2, 0.3)))
	add("transform3d/distinct", Transform3D(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12)))
	add("transform3d/inexact", Transform3D(Basis.from_euler(Vector3(0.5, -0.25, 1.0)), Vector3(0.1, 0.2, 0.3)))
	add("projection/identity", Projection.IDENTITY)
	add("projection/distinct", Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)))
	add("projection/perspective", Projection.create_perspective(70.0, 16.0 / 9.0, 0.05, 4000.0))
	add("color/red", Color(1, 0, 0, 1))
	add("color/inexact", Color(0.1, 0.2, 0.3, 0.4))
	add("color/odd", Color(-1, 2, INF, 0))
	add("color/nan_neg0", Color(NAN, n0, 0.5, 1e-40))
	for ty in [TYPE_VECTOR2, TYPE_VECTOR2I, TYPE_RECT2, TYPE_RECT2I, TYPE_VECTOR3, TYPE_VECTOR3I, TYPE_TRANSFORM2D,
			TYPE_VECTOR4, TYPE_VECTOR4I, TYPE_PLANE, TYPE_QUATERNION, TYPE_AABB, TYPE_BASIS, TYPE_TRANSFORM3D,
			TYPE_PROJECTION, TYPE_COLOR]:
		for i in 10:
			add("%s/random/%d" % [type_string(ty), i], vals.rand_of_type(ty))


func build_packed() -> void:
	for n in range(0, 10):
		var pb := PackedByteArray()
		for i in n:
			pb.append((i * 37 + 1) & 0xFF)
		add("packed_byte_array/len%d" % n, pb)
	add("packed_byte_array/all_bytes", PackedByteArray(range(256)))
	add("packed_byte_array/len3/full", PackedByteArray([1, 2, 3]), true)
	var n0 := Values.neg0()
	for n in [0, 1, 2, 3, 5]:
		var a32 := PackedInt32Array()
		var a64 := PackedInt64Array()
		var f32 := PackedFloat32Array()
		var f64 := PackedFloat64Array()
		var sa := PackedStringArray()
		var v2 := PackedVector2Array()
		var v3 := PackedVector3Array()
		var v4 := PackedVector4Array()
		var col := PackedColorArray()
		for i in n:
			a32.append([0, -1, 2147483647, -2147483648, 12345][i])
			a64.append([0, -1, 9223372036854775807, -9223372036854775808, 1 << 40][i])
			f32.append([0.5, 0.1, -INF, 3.4028234663852886e38, n0][i])
			f64.append([0.1, n0, 1e300, NAN, 5e-324][i])
			sa.append(["", "a", "日本", "abcd", "😀𝄞"][i])
			v2.append(Vector2(i + 0.5, -i - 0.1))
			v3.append(Vector3(i, i + 0.1, -i))
			v4.append(Vector4(i, -i, i + 0.25, 0.1 * i))
			col.append(Color(0.1 * i, 1, 0, 0.5))
		add("packed_int32_array/len%d" % n, a32)
		add("packed_int64_array/len%d" % n, a64)
		add("packed_float32_array/len%d" % n, f32)
		add("packed_float64_array/len%d" % n, f64)
		add("packed_string_array/len%d" % n, sa)
		add("packed_vector2_array/len%d" % n, v2)
		add("packed_vector3_array/len%d" % n, v3)
		add("packed_vector4_array/len%d" % n, v4)
		add("packed_color_array/len%d" % n, col)
	add("packed_string_array/empties", PackedStringArray(["", "", ""]))
	add("packed_string_array/pad_classes", PackedStringArray(["abc", "abcd", "abcde", "ab", "é", "😀"]))
	add("packed_string_array/bom_and_nul", PackedStringArray([char(0xFEFF) + "x", "a" + char(0) + "b"]))
	add("packed_string_array/long", PackedStringArray(["x".repeat(1001), "日".repeat(333)]))
	var big := PackedFloat64Array()
	for i in 1000:
		big.append(vals.rand_float())
	add("packed_float64_array/len1000", big)
	var big_bytes := PackedByteArray()
	big_bytes.resize(200001)
	for i in range(0, big_bytes.size(), 97):
		big_bytes[i] = i & 0xFF
	add("packed_byte_array/len200001", big_bytes)
	var big_vec := PackedVector3Array()
	for i in 5000:
		big_vec.append(Vector3(i, -i, i * 0.5))
	add("packed_vector3_array/len5000", big_vec)
	for ty in [TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY, TYPE_PACKED_FLOAT32_ARRAY,
			TYPE_PACKED_FLOAT64_ARRAY, TYPE_PACKED_STRING_ARRAY, TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY,
			TYPE_PACKED_COLOR_ARRAY, TYPE_PACKED_VECTOR4_ARRAY]:
		for i in 6:
			add("%s/random/%d" % [type_string(ty), i], vals.rand_of_type(ty))


func build_containers() -> void:
	add("array/empty", [])
	add("array/1_a", [1, "a"])
	add("array/nested", [[], [[]], [1, [2, [3]]]])
	add("array/nils", [null, null, null])
	add("array/full", [1, [2]], true)
	add("array/mixed", [null, true, 2, 3.5, "s", &"sn", NodePath("n"), Vector2(1, 2), RID(), Callable(),
			Signal(), {}, [], PackedByteArray([7]), Color(0, 1, 0, 1)])
	add("array/all_types_default", [null, false, 0, 0.0, "", Vector2(), Vector2i(), Rect2(), Rect2i(), Vector3(),
			Vector3i(), Transform2D(), Vector4(), Vector4i(), Plane(), Quaternion(), AABB(), Basis(), Transform3D(),
			Projection(), Color(), &"", NodePath(), RID(), Callable(), Signal(), {}, [], PackedByteArray(),
			PackedInt32Array(), PackedInt64Array(), PackedFloat32Array(), PackedFloat64Array(), PackedStringArray(),
			PackedVector2Array(), PackedVector3Array(), PackedColorArray(), PackedVector4Array()])
	for n in [2, 100, 1024, 1025]:
		add("array/deep/%d" % n, Values.nest_array(n))
	add("array/deep_leaf_int/1024", Values.nest_array(1024, 7))
	for n in [100, 1025]:
		add("dictionary/deep/%d" % n, Values.nest_dict(n))
	add("dictionary/empty", {})
	add("dictionary/a_1", {"a": 1})
	add("dictionary/mixed_keys", {
		1: "int", "s": "string", &"sn": "string_name", 1.5: "float", Vector2(1, 2): "vector2", null: "nil",
		[1, "x"]: "array", true: "bool", Color(1, 0, 0): "color", NodePath("a/b"): "node_path",
		PackedByteArray([1, 2]): "packed", {"in": 1}: "dict", Vector3i(1, 2, 3): "vector3i",
		rid_from_int64(5): "rid", -0.5: [1, {2: 3}],
	})
	add("dictionary/nested", {"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
	add("dictionary/int_keys_order", {3: "c", 1: "a", 2: "b", -1: "m"})
	var svsn := {"k": 1}
	svsn[&"k"] = 2
	svsn["j"] = 3
	add("dictionary/string_vs_string_name", svsn)
	add("dictionary/int_vs_float_key", {1: "int", 1.0: "float"})
	add("dictionary/nan_key", {NAN: 1, 0.5: 2})
	add("dictionary/neg0_key", {Values.neg0(): "n", 0.0: "p"})
	add("dictionary/nil_value", {"x": null})
	add("dictionary/full", {"a": 1, 2: [3]}, true)
	var many := {}
	for i in 300:
		many[i * 7919 - 1000] = str(i)
	add("dictionary/300_entries", many)
	var long_array := []
	for i in 500:
		long_array.append(i if i % 3 else str(i))
	add("array/500_items", long_array)


func build_typed() -> void:
	var samples := {
		TYPE_BOOL: [true, false], TYPE_INT: [1, -2, 1 << 40], TYPE_FLOAT: [0.5, 0.1, NAN], TYPE_STRING: ["a", "", "日本"],
		TYPE_VECTOR2: [Vector2(1, 2)], TYPE_VECTOR2I: [Vector2i(1, 2)], TYPE_RECT2: [Rect2(1, 2, 3, 4)],
		TYPE_RECT2I: [Rect2i(1, 2, 3, 4)], TYPE_VECTOR3: [Vector3(1, 2, 3)], TYPE_VECTOR3I: [Vector3i(1, 2, 3)],
		TYPE_TRANSFORM2D: [Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))],
		TYPE_VECTOR4: [Vector4(1, 2, 3, 4)], TYPE_VECTOR4I: [Vector4i(1, 2, 3, 4)], TYPE_PLANE: [Plane(1, 2, 3, 4)],
		TYPE_QUATERNION: [Quaternion(1, 2, 3, 4)], TYPE_AABB: [AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))],
		TYPE_BASIS: [Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))],
		TYPE_TRANSFORM3D: [Transform3D(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12))],
		TYPE_PROJECTION: [Projection.IDENTITY], TYPE_COLOR: [Color(1, 0, 0, 1)], TYPE_STRING_NAME: [&"a", &"bc"],
		TYPE_NODE_PATH: [NodePath("a/b:c"), NodePath("")], TYPE_RID: [rid_from_int64(13)], TYPE_CALLABLE: [Callable()],
		TYPE_SIGNAL: [Signal()], TYPE_DICTIONARY: [{"a": 1}, {}], TYPE_ARRAY: [[1], []],
		TYPE_PACKED_BYTE_ARRAY: [PackedByteArray([1, 2, 3])], TYPE_PACKED_INT32_ARRAY: [PackedInt32Array([1, -1])],
		TYPE_PACKED_INT64_ARRAY: [PackedInt64Array([1])], TYPE_PACKED_FLOAT32_ARRAY: [PackedFloat32Array([0.5])],
		TYPE_PACKED_FLOAT64_ARRAY: [PackedFloat64Array([0.1])], TYPE_PACKED_STRING_ARRAY: [PackedStringArray(["a", ""])],
		TYPE_PACKED_VECTOR2_ARRAY: [PackedVector2Array([Vector2(1, 2)])],
		TYPE_PACKED_VECTOR3_ARRAY: [PackedVector3Array([Vector3(1, 2, 3)])],
		TYPE_PACKED_COLOR_ARRAY: [PackedColorArray([Color(1, 1, 1, 1)])],
		TYPE_PACKED_VECTOR4_ARRAY: [PackedVector4Array([Vector4(1, 2, 3, 4)])],
	}
	for ty in samples:
		var tn: String = type_string(ty)
		add("array/typed/%s" % tn, Array(samples[ty], ty, &"", null))
		add("array/typed/%s/empty" % tn, Array([], ty, &"", null))
	add("array/typed/int/full", Array([1, 2], TYPE_INT, &"", null), true)
	add("array/typed/int/f123456789abcdef", Array([Values.hx("f123456789abcdef")], TYPE_INT, &"", null))
	add("array/typed/array_of_typed", [Array([1], TYPE_INT, &"", null), Array(["s"], TYPE_STRING, &"", null)])
	add("array/typed/typed_array_of_arrays", Array([Array([1], TYPE_INT, &"", null), [2, "x"]], TYPE_ARRAY, &"", null))
	add("dictionary/typed_values_inside", {"ints": Array([1], TYPE_INT, &"", null), Array([2], TYPE_INT, &"", null): "typed key"})

	var tdicts := {
		"int_int": Dictionary({Values.hx("f123456789abcdef"): Values.hx("f123456789abcdef")}, TYPE_INT, &"", null, TYPE_INT, &"", null),
		"int_int/empty": Dictionary({}, TYPE_INT, &"", null, TYPE_INT, &"", null),
		"String_int": Dictionary({"a": 1, "b": -2}, TYPE_STRING, &"", null, TYPE_INT, &"", null),
		"String_Variant": Dictionary({"a": 1, "b": [2], "c": null}, TYPE_STRING, &"", null, TYPE_NIL, &"", null),
		"Variant_float": Dictionary({1: 0.5, "x": 0.1, null: 2.0}, TYPE_NIL, &"", null, TYPE_FLOAT, &"", null),
		"StringName_Vector2": Dictionary({&"p": Vector2(1, 2)}, TYPE_STRING_NAME, &"", null, TYPE_VECTOR2, &"", null),
		"Vector2i_Array": Dictionary({Vector2i(1, 2): [1]}, TYPE_VECTOR2I, &"", null, TYPE_ARRAY, &"", null),
		"Color_PackedByteArray": Dictionary({Color(1, 0, 0, 1): PackedByteArray([1])}, TYPE_COLOR, &"", null, TYPE_PACKED_BYTE_ARRAY, &"", null),
		"float_Dictionary": Dictionary({0.5: {"x": 1}}, TYPE_FLOAT, &"", null, TYPE_DICTIONARY, &"", null),
	}
	for k in tdicts:
		add("dictionary/typed/%s" % k, tdicts[k])
	add("dictionary/typed/String_int/full", tdicts["String_int"], true)


func build_objects() -> void:
	var node := Node.new()
	node.name = "ParityNode"
	var node2 := Node2D.new()
	node2.name = "ParityNode2D"
	node2.position = Vector2(3, 4)
	var obj := Object.new()
	var res := Resource.new()
	res.resource_name = "res_name"
	var rc := RefCounted.new()
	keep.append_array([node, node2, obj, res, rc])

	add("object/id/node", node)
	add("object/id/object", obj)
	add("object/id/resource", res)
	add("object/id/refcounted", rc)
	add("object/id/scenetree", t.tree)
	var null_obj: Object = null
	add("object/null", null_obj)
	add("object/null/full", null_obj, true)
	var freed := Object.new()
	var freed_var = freed
	freed.free()
	add("object/freed", freed_var)
	add("object/freed/full", freed_var, true)
	add("array/freed_inside", [1, freed_var, 2])

	var item = ITEM.new()
	item.title = "Sword é"
	item.count = 7
	item.weight = 0.1
	item.tags = PackedStringArray(["sharp", "", "日本"])
	var item2 = ITEM.new()
	item2.title = "Gem"
	item2.count = -5
	item2.child = item
	var item_default = ITEM.new()
	var plain_child := Resource.new()
	plain_child.resource_name = "child"
	var item3 = ITEM.new()
	item3.child = plain_child
	var curve := Curve.new()
	curve.add_point(Vector2(0, 0.5))
	curve.add_point(Vector2(0.25, 1), 0.5, -0.5)
	curve.add_point(Vector2(1, 0.1))
	var grad := Gradient.new()
	grad.add_point(0.5, Color(0.1, 0.2, 0.3, 1))
	var holder = HOLDER.new()
	holder.items.append(plain_child)
	holder.table["k"] = 3
	keep.append_array([item, item2, item_default, item3, curve, grad, holder])

	add("object/full/resource", Resource.new(), true)
	add("object/full/resource_named", res, true)
	add("object/full/refcounted", RefCounted.new(), true)
	add("object/full/object", obj, true)
	add("object/full/node", node, true)
	add("object/full/node2d", node2, true)
	add("object/full/item_default", item_default, true)
	add("object/full/item", item, true)
	add("object/full/item_nested", item2, true)
	add("object/full/item_plain_child", item3, true)
	add("object/full/curve", curve, true)
	add("object/full/gradient", grad, true)
	add("object/full/holder", holder, true)
	add("object/full/holder_default", HOLDER.new(), true)
	add("object/full/image", Image.create(2, 2, false, Image.FORMAT_RGBA8), true)
	add("object/id/item", item)
	var eoid := EncodedObjectAsID.new()
	eoid.set_object_id(12345)
	keep.append(eoid)
	add("object/id/encoded_object_as_id", eoid)
	add("object/full/encoded_object_as_id", eoid, true)
	add("string_name/leading_bom", StringName(char(0xFEFF) + "sn"))
	add("packed_string_array/leading_double_bom", PackedStringArray([char(0xFEFF) + char(0xFEFF) + "p"]))
	add("object/id/holder", holder)
	add("array/objects/full", [res, item, null, rc], true)
	add("array/objects/id", [res, item, null, rc, node])
	add("dictionary/objects/full", {"r": res, res: 1}, true)
	add("dictionary/objects/id", {"r": res, node: 1})

	var obj_typed := {
		"Object": Array([obj, null], TYPE_OBJECT, &"Object", null),
		"Object/empty": Array([], TYPE_OBJECT, &"Object", null),
		"Node": Array([node, node2], TYPE_OBJECT, &"Node", null),
		"Node/empty": Array([], TYPE_OBJECT, &"Node", null),
		"Node2D": Array([node2], TYPE_OBJECT, &"Node2D", null),
		"Resource": Array([res, item], TYPE_OBJECT, &"Resource", null),
		"Resource/empty": Array([], TYPE_OBJECT, &"Resource", null),
		"RefCounted": Array([rc, holder], TYPE_OBJECT, &"RefCounted", null),
		"script": Array([item, item_default], TYPE_OBJECT, &"Resource", ITEM),
		"script/empty": Array([], TYPE_OBJECT, &"Resource", ITEM),
		"script/with_null": Array([null, item], TYPE_OBJECT, &"Resource", ITEM),
		"holder_script": Array([holder], TYPE_OBJECT, &"RefCounted", HOLDER),
	}
	for k in obj_typed:
		add("array/typed/%s/id" % k, obj_typed[k])
		if not k.begins_with("Node") or k.ends_with("/empty"):
			add("array/typed/%s/full" % k, obj_typed[k], true)
	add("array/typed/Node/full", Array([node], TYPE_OBJECT, &"Node", null), true)

	var tdicts := {
		"int_Resource": Dictionary({1: res, 2: null}, TYPE_INT, &"", null, TYPE_OBJECT, &"Resource", null),
		"Node_int": Dictionary({node: 1}, TYPE_OBJECT, &"Node", null, TYPE_INT, &"", null),
		"Object_Object/empty": Dictionary({}, TYPE_OBJECT, &"Object", null, TYPE_OBJECT, &"Object", null),
		"String_script": Dictionary({"sword": item}, TYPE_STRING, &"", null, TYPE_OBJECT, &"Resource", ITEM),
		"script_int": Dictionary({item: 1}, TYPE_OBJECT, &"Resource", ITEM, TYPE_INT, &"", null),
		"script_script": Dictionary({item: item2}, TYPE_OBJECT, &"Resource", ITEM, TYPE_OBJECT, &"Resource", ITEM),
		"int_script/empty": Dictionary({}, TYPE_INT, &"", null, TYPE_OBJECT, &"Resource", ITEM),
	}
	for k in tdicts:
		add("dictionary/typed/%s/id" % k, tdicts[k])
	add("dictionary/typed/int_Resource/full", tdicts["int_Resource"], true)
	for k in ["String_script", "script_int", "script_script", "int_script/empty"]:
		add("dictionary/typed/%s/full" % k, tdicts[k], true)
	add("dictionary/typed/Object_Object/empty/full", tdicts["Object_Object/empty"], true)

	add("callable/empty", Callable())
	add("callable/method", Callable(node, "get_name"))
	add("callable/bound", Callable(node, "set_name").bind("x"))
	add("callable/lambda", func(): return 1)
	add("callable/method/full", Callable(node, "get_name"), true)
	add("signal/empty", Signal())
	add("signal/node_ready", Signal(node, "ready"))
	add("signal/resource_changed", res.changed)
	add("signal/unicode_name", Signal(obj, "日本_é"))
	add("signal/resource_changed/full", res.changed, true)


func build_random() -> void:
	for i in 300:
		add("random/%d" % i, vals.rand_value())
