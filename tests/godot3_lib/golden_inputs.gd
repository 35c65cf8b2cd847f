# The inputs of the Godot 3 family's golden corpora (tests/golden/FORMAT.md): the values the engine
# encodes ("cases"), and the valid encodings it mutates and the hand-made bytes it decodes
# ("malformed"), for Godot 3.2.3 and 3.6.2 (tests/golden/gen/godot3/generate.gd) and Pandemonium
# v4.9.0 and v5.2.0 (tests/golden/gen/pandemonium/generate.gd), each of which extends this script.
# Hand-made bytes take their type ids from the engine (H()). Pandemonium's own types come in
# through the hooks at the end, which Godot 3 leaves empty.
extends "res://godot3_lib/golden_generator.gd"


# ---------------------------------------------------------------- cases

func gen_cases():
	# --- nil / bool
	add_case("nil", null)
	add_case("bool/true", true)
	add_case("bool/false", false)

	# --- int
	var imin = -9223372036854775807 - 1
	var ints = [["0", 0], ["1", 1], ["-1", -1], ["max32", 2147483647], ["max32+1", 2147483648],
		["min32", -2147483648], ["min32-1", -2147483649], ["max64", 9223372036854775807],
		["min64", imin], ["min64+1", imin + 1], ["0x12345678", 0x12345678], ["2^32", 4294967296],
		["-2^32", -4294967296], ["2^53+1", 9007199254740993], ["-2^53-1", -9007199254740993],
		["255", 255], ["-128", -128], ["65536", 65536], ["uint32max", 4294967295],
		["0xF123456789ABCDEF", -1070935975390360081], ["5", 5], ["max32-1", 2147483646],
		["min32+1", -2147483647], ["2^40", 1099511627776], ["2^62", 4611686018427387904],
		["-2^62", -4611686018427387904], ["-2^63+2^31", imin + 2147483648]]
	for p in ints:
		add_case("int/" + p[0], p[1])

	# --- float (REAL)
	var floats = [
		["0.0", 0.0], ["-0.0", dbits(0x80000000, 0)], ["0.5", 0.5], ["1.0", 1.0], ["-1.5", -1.5],
		["0.1", 0.1], ["1/3", 1.0 / 3.0], ["0.15625", 0.15625], ["1e300", 1e300], ["-1e300", -1e300],
		["pi", PI], ["1e-300", 1e-300], ["100000000.0", 100000000.0], ["16777217.0", 16777217.0],
		["flt_max", dbits(0x47EFFFFF, 0xE0000000)], ["-flt_max", dbits(0xC7EFFFFF, 0xE0000000)],
		["flt_max_next_double", dbits(0x47EFFFFF, 0xE0000001)],
		["flt_max_halfway", dbits(0x47EFFFFF, 0xF0000000)],
		["flt_min_normal", dbits(0x38100000, 0)], ["flt_min_subnormal", dbits(0x36A00000, 0)],
		["flt_subnormal_inexact", dbits(0x36A00000, 1)],
		["dbl_min_subnormal", dbits(0, 1)], ["dbl_max_subnormal", dbits(0x000FFFFF, 0xFFFFFFFF)],
		["dbl_min_normal", dbits(0x00100000, 0)], ["dbl_max", dbits(0x7FEFFFFF, 0xFFFFFFFF)],
		["inf", dbits(0x7FF00000, 0)], ["-inf", dbits(0xFFF00000, 0)],
		["nan", dbits(0x7FF80000, 0)], ["nan_neg", dbits(0xFFF80000, 0)],
		["nan_payload", dbits(0x7FF80000, 0x00000123)], ["nan_payload_high", dbits(0x7FFABCDE, 0xF0123456)],
		["nan_f32_exact_bits", dbits(0x7FF80000, 0x20000000)],
		["nan_engine", NAN], ["inf_engine", INF], ["2^-149", fbits(1)], ["f32_0.1", fbits(0x3DCCCCCD)],
		["0.33333333333333333", 0.33333333333333333], ["-2.5e-10", -2.5e-10], ["65504.0", 65504.0],
		["1e38", 1e38], ["3e38", 3e38], ["-1e-45", -1e-45], ["-16777217.0", -16777217.0],
		["nan_f32_like", dbits(0x7FC00000, 0)], ["snan_payload", dbits(0x7FF00000, 0x00000001)]]
	for p in floats:
		add_case("float/" + p[0], p[1])

	# --- String
	var abc = "abcdefghijklmnopqrstuvwxyz0123456789"
	add_case("string/empty", "")
	for n in range(1, 10):
		add_case("string/len%d" % n, abc.substr(0, n))
	var long_s = ""
	var parts = []
	for i in range(10000 / 36 + 1):
		parts.append(abc)
	long_s = PoolStringArray(parts).join("").substr(0, 10000)
	add_case("string/len10000", long_s)
	add_case("string/e_acute", u8([0xC3, 0xA9]))
	add_case("string/nihon", u8([0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC]))
	add_case("string/emoji_gclef", u8([0xF0, 0x9F, 0x98, 0x80, 0xF0, 0x9D, 0x84, 0x9E]))
	add_case("string/mixed", u8([0x61, 0xC3, 0xA9, 0xE6, 0x97, 0xA5, 0xF0, 0x9F, 0x98, 0x80, 0x7A]))
	add_case("string/leading_bom", char(0xFEFF) + "abc")
	add_case("string/only_bom", char(0xFEFF))
	add_case("string/double_bom", char(0xFEFF) + char(0xFEFF) + "x")
	add_case("string/inner_bom", u8([0x61, 0xEF, 0xBB, 0xBF, 0x62]))
	add_case("string/u+ffff", u8([0xEF, 0xBF, 0xBF]))
	add_case("string/u+10ffff", u8([0xF4, 0x8F, 0xBF, 0xBF]))
	add_case("string/u+0080", u8([0xC2, 0x80]))
	add_case("string/u+07ff_u+0800", u8([0xDF, 0xBF, 0xE0, 0xA0, 0x80]))
	add_case("string/controls", u8([0x09, 0x0A, 0x0D, 0x01, 0x7F]))
	add_case("string/quote_backslash", "\"\\/")
	# Code points that valid UTF-8 cannot carry (the engines' strings are UTF-32 and can hold them):
	# the 3.2.3 and 3.6.2 encoders differ here, and Pandemonium's decoder refuses what its encoder
	# writes. Desc = generalized UTF-8 of the code points.
	add_case("string/nonunicode/lone_surrogate", "a" + char(0xD800) + "b")
	add_case("string/nonunicode/surrogate_pair_units", char(0xD83D) + char(0xDE00))
	add_case("string/nonunicode/above_10ffff", char(0x110000))
	add_case("string/nonunicode/5byte", char(0x200000))
	add_case("string/long_multibyte", rep(u8([0xE6, 0x97, 0xA5]), 1000) + "x")

	# --- math types
	add_case("vector2/zero", Vector2())
	add_case("vector2/1_2", Vector2(1, 2))
	add_case("vector2/inexact", Vector2(0.1, -1.0 / 3.0))
	add_case("vector2/special", Vector2(dbits(0x7FF00000, 0), dbits(0x80000000, 0)))
	add_case("vector2/f32_subnormal", Vector2(fbits(1), fbits(0x80000001)))
	add_case("vector2/big", Vector2(1e30, -3e38))
	add_case("rect2/distinct", Rect2(0.1, 0.2, 0.3, 0.4))
	add_case("rect2/negative_size", Rect2(-1.5, 2.25, -3.0, 1e-3))
	add_case("vector3/zero", Vector3())
	add_case("vector3/1_2_3", Vector3(1, 2, 3))
	add_case("vector3/inexact", Vector3(0.1, 0.2, 0.7))
	add_case("vector3/huge", Vector3(1e38, -1e-38, 123456.789))
	add_case("transform2d/identity", Transform2D())
	add_case("transform2d/distinct", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))
	add_case("transform2d/rotated", Transform2D(0.5, Vector2(1.1, -2.2)))
	add_case("plane/distinct", Plane(0.1, 0.2, 0.3, 0.4))
	add_case("plane/unit", Plane(Vector3(0, 1, 0), -7.5))
	add_case("quaternion/identity", quat(0, 0, 0, 1))
	add_case("quaternion/distinct", quat(0.1, 0.2, 0.3, 0.4))
	add_case("quaternion/axis_angle", quat_axis(Vector3(1, 0, 0), 1.0))
	add_case("aabb/distinct", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add_case("aabb/inexact", AABB(Vector3(0.1, -0.2, 0.3), Vector3(1.1, 2.2, 3.3)))
	add_case("basis/identity", Basis())
	add_case("basis/distinct", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add_case("basis/rotated", Basis(Vector3(0.1, 0.2, 0.3).normalized(), 0.7))
	add_case("transform3d/identity", Transform())
	add_case("transform3d/distinct", Transform(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12)))
	add_case("transform3d/inexact", Transform(Basis(Vector3(0, 1, 0), 0.3), Vector3(0.1, 0.2, 0.3)))
	add_case("color/red", Color(1, 0, 0, 1))
	add_case("color/distinct", Color(0.1, 0.2, 0.3, 0.4))
	add_case("color/out_of_range", Color(-1.0, 2.5, 1e-3, 0.0))
	add_case("color/html", Color("#80ff4020"))
	cases_own_math()

	# --- NodePath
	var paths = [["relative", "a"], ["relative2", "a/b"], ["absolute", "/root"],
		["absolute_deep", "/root/Main/Player"], ["subnames", "a/b:c:d"], ["only_subname", ":x"],
		["only_subnames", ":x:y:z"], ["empty", ""], ["root_only", "/"], ["dot", "."], ["dotdot", "../a"],
		["prop", "Sprite:position:x"], ["issue44999", "Path2D/PathFollow2D/Sprite:position:x"],
		["len4", "abcd/efgh:ijkl"], ["len1to5", "a/bb/ccc/dddd/eeeee"],
		["unicode", u8([0xE3, 0x83, 0x8E, 0xE3, 0x83, 0xBC, 0xE3, 0x83, 0x89]) + "/" + u8([0xC3, 0xA9]) + ":" + u8([0xF0, 0x9F, 0x98, 0x80])],
		["absolute_subname", "/root:visible"]]
	for p in paths:
		add_case("node_path/" + p[0], NodePath(p[1]))

	# --- RID
	add_case("rid/empty", RID())
	var shape = SphereShape.new()
	keep.append(shape)
	add_case("rid/physics_shape", shape.get_rid())
	var img = Image.new()
	img.create(2, 2, false, Image.FORMAT_RGBA8)
	var tex = ImageTexture.new()
	tex.create_from_image(img)
	keep.append(tex)
	add_case("rid/texture", tex.get_rid())

	# --- Objects
	var node = Node.new()
	keep.append(node)
	add_case("object/id_node", node)
	var ref = Reference.new()
	keep.append(ref)
	add_case("object/id_reference", ref)
	var plain = ClassDB.instance("Object")
	keep.append(plain)
	add_case("object/id_object", plain)
	var Payload = load("res://payload.gd")
	var scripted = Payload.new()
	keep.append(scripted)
	add_case("object/id_scripted", scripted)
	add_case("object/id_in_array", [node, ref, 1])
	add_case("object/null_id", node.get_parent())
	add_case("object/null_full", node.get_parent(), true)
	add_case("object/instance_from_id_0", instance_from_id(0))
	var freed = Node.new()
	freed.free()
	add_case("object/freed_id", freed)
	add_case("object/freed_full", freed, true)
	add_case("object/freed_in_array", [freed, 1])
	add_case("object/full_reference", Reference.new(), true)
	add_case("object/full_object", plain, true)
	var res = Resource.new()
	res.resource_name = "named"
	add_case("object/full_resource", res, true)
	add_case("object/full_resource_as_id", res, false)
	var curve = Curve.new()
	curve.add_point(Vector2(0, 0.1))
	curve.add_point(Vector2(0.5, 1.0), 0.25, -0.5)
	curve.add_point(Vector2(1, 0.3))
	add_case("object/full_curve", curve, true)
	var grad = Gradient.new()
	grad.add_point(0.3, Color(0.1, 0.2, 0.3, 0.4))
	add_case("object/full_gradient", grad, true)
	add_case("object/full_in_array", [Reference.new(), 5], true)
	add_case("object/full_in_dictionary", {"obj": res, 1: null}, true)
	add_case("object/full_nested_resource_in_array", [[res]], true)
	# A full scripted object embeds the GDScript object (with its source): decoding those bytes with
	# objects allowed crashes the engines (SIGSEGV).
	cases_own_scripted(scripted)
	add_case("object/full_flag_no_objects", [1, "a"], true)

	# --- Dictionary
	add_case("dictionary/object_id_key", {node: 1, "x": ref})
	add_case("dictionary/nan_key", {dbits(0x7FF80000, 0): 1})
	add_case("dictionary/empty", {})
	add_case("dictionary/a_1", {"a": 1})
	add_case("dictionary/mixed_keys", {1: "int", "1": "string", 1.5: "float", true: "bool", null: "nil",
		Vector2(1, 2): "vec", NodePath("a/b"): "path", [1]: "array", {}: "dict", Color(1, 0, 0): "color"})
	add_case("dictionary/insertion_order", {"z": 1, "a": 2, "m": 3, 0: 4, -1: 5})
	add_case("dictionary/nested", {"a": {"b": {"c": [1, {"d": null}]}}, "e": []})
	add_case("dictionary/values_all_kinds", {"i": 1, "f": 0.1, "s": "str", "v": Vector3(1, 2, 3),
		"p": PoolByteArray([1, 2, 3]), "n": null, "b": false})

	# --- Array
	add_case("array/floats", [0.5, 0.1, dbits(0x80000000, 0), dbits(0x7FF00000, 0), dbits(0x7FF80000, 0x00000123)])
	add_case("array/ints", [0, -1, 2147483647, 2147483648, -2147483649, imin])
	add_case("array/strings", ["", "a", "ab", "abc", "abcd", u8([0xC3, 0xA9])])
	add_case("array/empty", [])
	add_case("array/1_a", [1, "a"])
	add_case("array/mixed", [null, true, 7, 0.1, "x", Vector2(1, 2), Rect2(), Vector3(), Transform2D(),
		Plane(), quat(0, 0, 0, 1), AABB(), Basis(), Transform(), Color(), NodePath("a:b"), RID(),
		{}, [], PoolByteArray([1]), PoolIntArray([2]), PoolRealArray([3]), PoolStringArray(["4"]),
		PoolVector2Array([Vector2(5, 5)]), PoolVector3Array([Vector3(6, 6, 6)]), PoolColorArray([Color(7, 7, 7, 7)])])
	cases_own_containers()
	add_case("array/nested", [[1], [2, [3, [4]]], []])
	add_case("array/of_empty", [[], {}, "", PoolByteArray()])

	# --- deep nesting (leaf int sits at depth = levels)
	for n in [100, 1023, 1024, 1025]:
		add_case("deep/array_%d" % n, nested_array(n, 1))
	for n in [100, 1024, 1025]:
		add_case("deep/dictionary_%d" % n, nested_dict(n, 1))
	add_case("deep/empty_arrays_1025", nested_array(1024, []))
	add_case("deep/empty_arrays_1026", nested_array(1025, []))

	# --- pool arrays
	for n in range(0, 10):
		var b = PoolByteArray()
		for i in range(n):
			b.append((i * 37 + 200) % 256)
		add_case("packed_byte_array/len%d" % n, b)
	add_case("packed_byte_array/len300", bytes_len(300))
	add_case("packed_int32_array/empty", PoolIntArray())
	add_case("packed_int32_array/one", PoolIntArray([7]))
	add_case("packed_int32_array/extremes", PoolIntArray([2147483647, -2147483648, 0, -1, 1]))
	add_case("packed_int32_array/wrapping", PoolIntArray([2147483648, 4294967295, -2147483649]))
	add_case("packed_int32_array/three", PoolIntArray([1, 2, 3]))
	add_case("packed_float32_array/empty", PoolRealArray())
	add_case("packed_float32_array/one", PoolRealArray([0.5]))
	add_case("packed_float32_array/inexact", PoolRealArray([0.1, -1.0 / 3.0, 1e30]))
	add_case("packed_float32_array/special", PoolRealArray([dbits(0x80000000, 0), dbits(0x7FF00000, 0),
		dbits(0xFFF00000, 0), dbits(0x7FF80000, 0), fbits(1)]))
	add_case("packed_float32_array/overflow", PoolRealArray([1e300, 1e-300]))
	add_case("packed_string_array/empty", PoolStringArray())
	add_case("packed_string_array/one_empty_item", PoolStringArray([""]))
	add_case("packed_string_array/ab_empty", PoolStringArray(["ab", ""]))
	add_case("packed_string_array/lengths", PoolStringArray(["a", "ab", "abc", "abcd", "abcde"]))
	add_case("packed_string_array/multibyte", PoolStringArray([u8([0xC3, 0xA9]), u8([0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC]),
		u8([0xF0, 0x9F, 0x98, 0x80]), "", char(0xFEFF) + "x"]))
	for n in range(0, 6):
		var a2 = PoolVector2Array()
		var a3 = PoolVector3Array()
		var ac = PoolColorArray()
		for i in range(n):
			a2.append(Vector2(i + 0.1, -i - 0.2))
			a3.append(Vector3(i * 0.3, i + 1, -i * 1e-3))
			ac.append(Color(i * 0.1, 1.0 - i * 0.1, 0.5, i))
		add_case("packed_vector2_array/len%d" % n, a2)
		add_case("packed_vector3_array/len%d" % n, a3)
		add_case("packed_color_array/len%d" % n, ac)
	for n in [2, 4]:
		var ai = PoolIntArray()
		var ar = PoolRealArray()
		for i in range(n):
			ai.append(i * 1000003 - 5)
			ar.append(i * 0.7 - 0.35)
		add_case("packed_int32_array/len%d" % n, ai)
		add_case("packed_float32_array/len%d" % n, ar)
	cases_own_pools()

	# --- random nested values from a fixed seed
	rng_state = 20240601
	for i in range(60):
		add_case("random/%02d" % i, rand_value(0))


# ---------------------------------------------------------------- malformed

func gen_malformed():
	# Valid encodings to mutate: [name, bytes, allow_objects, has_count_word]
	var fixed_id = hx(H("OBJECT", ID) + " efbeadde 34120000")   # object as id, fixed id (ids vary per run)
	var sources = [
		["nil", var2bytes(null), false, false],
		["bool", var2bytes(true), false, false],
		["int32", var2bytes(-7), false, false],
		["int64", var2bytes(1099511627776), false, false],
		["float32", var2bytes(0.5), false, false],
		["float64", var2bytes(0.1), false, false],
		["string", var2bytes("abc"), false, true],
		["string_multibyte", var2bytes(u8([0xE6, 0x97, 0xA5, 0xC3, 0xA9])), false, true],
		["vector2", var2bytes(Vector2(1.5, -2)), false, false],
		["rect2", var2bytes(Rect2(1, 2, 3, 4)), false, false],
		["vector3", var2bytes(Vector3(1, 2, 3)), false, false],
		["transform2d", var2bytes(Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))), false, false],
		["plane", var2bytes(Plane(1, 0, 0, 2)), false, false],
		["quaternion", var2bytes(quat(0, 0, 0, 1)), false, false],
		["aabb", var2bytes(AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))), false, false],
		["basis", var2bytes(Basis()), false, false],
		["transform3d", var2bytes(Transform()), false, false],
		["color", var2bytes(Color(1, 0.5, 0, 1)), false, false],
		# NodePath whose parts are all 4-byte multiples: no (garbage) padding in the input
		["node_path", var2bytes(NodePath("abcd/efgh:ijkl")), false, true],
		["node_path_abs", var2bytes(NodePath("/root")), false, true],
		["rid", var2bytes(RID()), false, false],
		["object_id", fixed_id, false, false],
		["object_full", var2bytes(Reference.new(), true), true, true],
		["dictionary", var2bytes({"a": 1, 2: [true]}), false, true],
		["array", var2bytes([1, "ab", null, Vector2(1, 2)]), false, true],
		["array_nested", var2bytes([[1], [2, [3]]]), false, true],
		["packed_byte_array", var2bytes(PoolByteArray([1, 2, 3, 4, 5])), false, true],
		["packed_int32_array", var2bytes(PoolIntArray([1, -1, 2147483647])), false, true],
		["packed_float32_array", var2bytes(PoolRealArray([0.5, -2.0])), false, true],
		["packed_string_array", var2bytes(PoolStringArray(["ab", "", u8([0xE6, 0x97, 0xA5])])), false, true],
		["packed_vector2_array", var2bytes(PoolVector2Array([Vector2(1, 2), Vector2(3, 4)])), false, true],
		["packed_vector3_array", var2bytes(PoolVector3Array([Vector3(1, 2, 3)])), false, true],
		["packed_color_array", var2bytes(PoolColorArray([Color(1, 0, 0, 1)])), false, true],
	]
	add_own_sources(sources)
	mutate_sources(sources)
	# the full object again, with objects refused
	add_mal("valid/object_full_refused", var2bytes(Reference.new(), true), false)
	add_crafted(crafted())


# Hand-made bytes: [name, bytes or hex text, allow_objects].
func crafted():
	var C = []
	var NIL = H("NIL")
	var STR = H("STRING")
	var ARR = H("ARRAY")
	var DIC = H("DICTIONARY")
	var PBA = H("POOL_BYTE_ARRAY")
	var NP = H("NODE_PATH")
	var OBJ = H("OBJECT")
	var PSA = H("POOL_STRING_ARRAY")
	# type ids and header bits
	C.append([type_max_label(), H("MAX"), false])
	C.append([type_max_label() + "_payload", H("MAX") + " 00000000", false])
	C.append(["type_255", "ff000000", false])
	C.append(["type_255_payload", "ff000000 01000000", false])
	C.append(["type_0x100_nil", "00010000", false])
	C.append(["header_ffff0002", "0200ffff 05000000", false])
	C.append(["header_ffff0002_8bytes", "0200ffff 05000000 00000000", false])
	C.append(["int_byte1_set", "02ff0000 05000000", false])
	C.append(["int_flag17", "02000200 05000000", false])
	C.append(["int64_short", "02000100 05000000", false])
	C.append(["int64_flag_on_real", "03000100 00000000 0000e03f", false])
	C.append(["real64_short", "03000100 00000000", false])
	C.append(["vector2_flag64", H("VECTOR2", ID) + " 0000803f 00000040", false])
	C.append(["vector2_flag64_16bytes", H("VECTOR2", ID) + " 00000000 0000f03f 00000000 00000040", false])
	C.append(["bool_2", "01000000 02000000", false])
	C.append(["bool_ffffffff", "01000000 ffffffff", false])
	C.append(["nil_flags", "0000ffff", false])
	C.append(["rid_payload_ignored", H("RID") + " 0d000000 00000000", false])
	C.append(["rid_flag", H("RID", ID), false])
	C.append(["empty", "", false])
	C.append(["one_byte", "00", false])
	C.append(["three_bytes", "000000", false])
	# trailing garbage
	C.append(["trailing/int", "02000000 05000000 deadbeef", false])
	C.append(["trailing/nil", "00000000 ffffffff", false])
	C.append(["trailing/string", STR + " 01000000 61000000 01", false])
	# containers
	C.append(["array_count_bit31", ARR + " 01000080 02000000 05000000", false])
	C.append(["array_count_bit31_only", ARR + " 00000080", false])
	C.append(["dictionary_count_bit31", DIC + " 01000080 02000000 01000000 02000000 02000000", false])
	C.append(["array_huge_count_short", ARR + " ffffff7f 02000000 05000000", false])
	C.append(["array_count_2_has_1", ARR + " 02000000 02000000 05000000", false])
	C.append(["array_missing_count", ARR, false])
	C.append(["dictionary_huge_count_short", DIC + " 00000010 02000000 01000000 00000000", false])
	C.append(["dictionary_key_without_value", DIC + " 01000000 02000000 01000000", false])
	C.append(["dictionary_duplicate_keys", DIC + " 02000000 " + STR + " 01000000 61000000 02000000 01000000 " + STR + " 01000000 61000000 02000000 02000000", false])
	C.append(["dictionary_int_and_real_keys", DIC + " 02000000 02000000 01000000 02000000 01000000 03000000 0000803f 02000000 02000000", false])
	C.append(["crash_2018_pba_negative", PBA + " 000000ff", false])
	C.append(["pba_count_minus1", PBA + " ffffffff", false])
	C.append(["pba_huge_count_short", PBA + " e8030000 01020304", false])
	C.append(["pba_missing_padding", PBA + " 03000000 010203", false])
	C.append(["pba_missing_padding_1", PBA + " 01000000 ff", false])
	C.append(["pba_padding_nonzero", PBA + " 01000000 ffeeddcc", false])
	C.append(["pia_huge_count", H("POOL_INT_ARRAY") + " 00000040 01000000", false])
	C.append(["pia_count_overflow", H("POOL_INT_ARRAY") + " ffffff3f 01000000", false])
	C.append(["pia_negative", H("POOL_INT_ARRAY") + " ffffffff", false])
	C.append(["pra_huge_count", H("POOL_REAL_ARRAY") + " 00000080", false])
	C.append(["pv2_count_overflow", H("POOL_VECTOR2_ARRAY") + " ffffff1f 00000000", false])
	C.append(["pv3_count_7fffffff", H("POOL_VECTOR3_ARRAY") + " ffffff7f 00000000", false])
	C.append(["pca_count_short", H("POOL_COLOR_ARRAY") + " 02000000 0000803f 0000803f 0000803f 0000803f", false])
	C.append(["psa_negative_count", PSA + " ffffffff", false])
	C.append(["psa_negative_count_trailing", PSA + " feffffff 01000000 61000000", false])
	C.append(["psa_huge_count", PSA + " ffffff7f 02000000 61000000", false])
	C.append(["psa_item_without_nul", PSA + " 01000000 02000000 61620000", false])
	C.append(["psa_item_len0", PSA + " 01000000 00000000", false])
	C.append(["psa_item_nul_inside", PSA + " 01000000 04000000 61006200", false])
	# strings
	C.append(["string_missing_padding", STR + " 03000000 616263", false])
	C.append(["string_missing_one_pad", STR + " 01000000 610000", false])
	C.append(["string_len_negative", STR + " ffffffff 61616161", false])
	C.append(["string_len_overflow", STR + " fdffff7f 61616161", false])
	C.append(["string_len_short", STR + " 08000000 61616161", false])
	C.append(["string_missing_len", STR + " 0100", false])
	C.append(["string_padding_nonzero", STR + " 01000000 61ffffff", false])
	var U8 = [["lone_continuation", "80"], ["lone_continuation_mid", "61 bf 62"], ["c0_80", "c0 80"],
		["c1_bf", "c1 bf"], ["e0_80_80_overlong", "e0 80 80"], ["e0_9f_bf_overlong", "e0 9f bf"],
		["f0_80_80_80_overlong", "f0 80 80 80"], ["surrogate_ed_a0_80", "ed a0 80"],
		["surrogate_pair_cesu", "ed a0 bd ed b8 80"], ["surrogate_low_ed_bf_bf", "ed bf bf"],
		["f4_90_above_max", "f4 90 80 80"], ["f7_bf_bf_bf", "f7 bf bf bf"], ["f8_5byte", "f8 88 80 80 80"],
		["fc_6byte", "fc 84 80 80 80 80"], ["fe", "fe"], ["ff", "ff"], ["truncated_e6_97", "e6 97"],
		["truncated_at_end_f0_9f", "61 f0 9f"], ["bad_continuation", "c3 41"], ["embedded_nul", "61 00 62"],
		["leading_nul", "00 61"], ["invalid_after_nul", "61 00 ff"], ["bom", "ef bb bf 61"],
		["bom_only", "ef bb bf"], ["double_bom", "ef bb bf ef bb bf 61"], ["inner_bom", "61 ef bb bf"],
		["u+fffe", "ef bf be"], ["latin1_e9", "63 61 66 e9"]]
	for u in U8:
		C.append(["utf8/" + u[0], strbytes(STR, hx(u[1])), false])
	C.append(["utf8/psa_surrogate", cat(hx(PSA + " 01000000"), strbytes("", hx("ed a0 80 00"))), false])
	C.append(["utf8/psa_lone_continuation", cat(hx(PSA + " 01000000"), strbytes("", hx("80 00"))), false])
	C.append(["utf8/node_path_invalid", cat(hx(NP + " 01000080 00000000 00000000"), strbytes("", hx("c0 80"))), false])
	C.append(["utf8/node_path_bom", cat(hx(NP + " 01000080 00000000 00000000"), strbytes("", hx("ef bb bf 61"))), false])
	# NodePath
	C.append(["node_path/no_bit31", NP + " 01000000 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/old_format_string", NP + " 01000000 61000000", false])
	C.append(["node_path/short_counts", NP + " 01000080 00000000", false])
	C.append(["node_path/property_flag", NP + " 01000080 00000000 02000000 01000000 61000000 01000000 62000000", false])
	C.append(["node_path/property_flag_abs_subname", NP + " 01000080 01000000 03000000 01000000 61000000 01000000 62000000 01000000 63000000", false])
	C.append(["node_path/flags_high_bits", NP + " 01000080 00000000 fcffffff 01000000 61000000", false])
	C.append(["node_path/zero_names_bit31", NP + " 00000080 00000000 00000000", false])
	C.append(["node_path/zero_names_abs", NP + " 00000080 00000000 01000000", false])
	C.append(["node_path/missing_name", NP + " 02000080 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/empty_name", NP + " 02000080 00000000 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/padding_garbage", NP + " 01000080 00000000 00000000 01000000 61ffffff", false])
	C.append(["node_path/huge_name_count", NP + " ffffffff 00000000 00000000", false])
	# Objects
	var full_ref = var2bytes(Reference.new(), true)
	C.append(["object/full_reference_refused", full_ref, false])
	C.append(["object/full_reference_allowed", full_ref, true])
	var full_curve = var2bytes(mk_curve(), true)
	C.append(["object/full_curve_refused", full_curve, false])
	C.append(["object/full_curve_allowed", full_curve, true])
	C.append(["object/full_in_array_refused", var2bytes([Reference.new()], true), false])
	C.append(["object/full_in_array_allowed", var2bytes([Reference.new()], true), true])
	C.append(["object/full_unknown_class", cat(strbytes(OBJ, "NoSuchClass".to_utf8()), hx("00000000")), true])
	C.append(["object/full_empty_class", OBJ + " 00000000", true])
	C.append(["object/full_empty_class_refused", OBJ + " 00000000", false])
	C.append(["object/full_negative_prop_count", cat(strbytes(OBJ, "Reference".to_utf8()), hx("ffffffff")), true])
	C.append(["object/full_zero_props", cat(strbytes(OBJ, "Reference".to_utf8()), hx("00000000")), true])
	C.append(["object/full_missing_prop_count", strbytes(OBJ, "Reference".to_utf8()), true])
	C.append(["object/full_unknown_property", cat(cat(strbytes(OBJ, "Reference".to_utf8()), hx("01000000")),
		cat(strbytes("", "nope".to_utf8()), hx("02000000 05000000"))), true])
	C.append(["object/full_resource_name", cat(cat(strbytes(OBJ, "Resource".to_utf8()), hx("01000000")),
		cat(strbytes("", "resource_name".to_utf8()), strbytes(STR, "hi".to_utf8()))), true])
	C.append(["object/full_prop_value_missing", cat(cat(strbytes(OBJ, "Reference".to_utf8()), hx("01000000")),
		strbytes("", "script".to_utf8())), true])
	C.append(["object/full_abstract_class", cat(strbytes(OBJ, "Texture".to_utf8()), hx("00000000")), true])
	C.append(["object/id_zero", H("OBJECT", ID) + " 00000000 00000000", false])
	C.append(["object/id_zero_allowed", H("OBJECT", ID) + " 00000000 00000000", true])
	C.append(["object/id_max", H("OBJECT", ID) + " ffffffff ffffffff", false])
	C.append(["object/id_short", H("OBJECT", ID) + " 01000000", false])
	C.append(["object/id_allowed", H("OBJECT", ID) + " 2a000000 00000000", true])
	C.append(["object/id_in_array", ARR + " 02000000 " + H("OBJECT", ID) + " 2a000000 00000000 02000000 01000000", false])
	C.append(["object/flag17_full_refused", H("OBJECT", 1 << 17) + " 00000000", false])
	# depth built by bytes (top-level value is at depth 0; the leaf NIL sits at depth = levels)
	for n in [1024, 1025]:
		var arr = PoolByteArray()
		for i in range(n):
			arr.append_array(hx(ARR + " 01000000"))
		arr.append_array(hx(NIL))
		C.append(["depth/arrays_%d_then_nil" % n, arr, false])
		var dic = PoolByteArray()
		for i in range(n):
			dic.append_array(hx(DIC + " 01000000 02000000 01000000"))
		dic.append_array(hx(NIL))
		C.append(["depth/dictionaries_%d_then_nil" % n, dic, false])
		var keys = PoolByteArray()
		for i in range(n):
			keys.append_array(hx(DIC + " 01000000"))
		keys.append_array(hx(NIL))
		for i in range(n):
			keys.append_array(hx(NIL))
		C.append(["depth/dictionary_keys_%d_then_nil" % n, keys, false])
	var arr_empty = PoolByteArray()
	for i in range(1025):
		arr_empty.append_array(hx(ARR + " 01000000"))
	arr_empty.append_array(hx(ARR + " 00000000"))
	C.append(["depth/arrays_1025_then_empty_array", arr_empty, false])

	add_own_crafted(C)
	return C


# ---------------------------------------------------------------- hooks

# Quat in Godot 3, Quaternion in Pandemonium.
func quat(_x, _y, _z, _w):
	return null


func quat_axis(_axis, _angle):
	return null


# Cases of the engine's own math types, after Godot 3's.
func cases_own_math():
	pass


# Cases of a scripted object (script: res://payload.gd), after the other objects.
func cases_own_scripted(_scripted):
	pass


# Cases of containers of the engine's own types, after Godot 3's containers.
func cases_own_containers():
	pass


# Cases of the engine's own pools, after Godot 3's.
func cases_own_pools():
	pass


# Encodings of the engine's own types to mutate, each after the Godot 3 type it extends
# (insert_after()).
func add_own_sources(_sources):
	pass


# Hand-made bytes for the engine's own types, each after the Godot 3 input it extends.
func add_own_crafted(_list):
	pass


# The name of the input whose header is TYPE_MAX, the first id the decoder rejects.
func type_max_label():
	return "type_%d" % T.MAX


# Inserts entries into a list of [name, ...] right after the entry called name.
static func insert_after(list, name, entries):
	for i in range(list.size()):
		if list[i][0] == name:
			for k in range(entries.size()):
				list.insert(i + 1 + k, entries[k])
			return
	printerr("insert_after: no entry " + name)
