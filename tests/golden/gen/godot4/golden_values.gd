extends RefCounted
## The Godot 4 value corpus: every value the golden generator (generate.gd, next to this file)
## records in tests/golden/godot4_6_3*.json, in its order and under its names; the parity scene
## (godot_project/tests/test_parity.gd) checks FastVarCodec against the running engine on each one
## as well, and the Python package's Godot 4 client (rust/python/tests/godot4_peer/client4.gd) has
## each echoed by the package's asyncio server. Each add_* function calls add.call(name, value,
## full_objects) for its values, making them (and the objects they refer to) as it goes. Reached
## as res://golden_values.gd from the generator's project and from rust/python/tests/godot4_peer
## (a link), and as res://golden/gen/godot4/golden_values.gd from godot_project
## (godot_project/golden is a link to tests/golden).

## The int with the bits 0xf123456789abcdef.
const F123456789ABCDEF := -1070935975390360081


## Every value of the corpus, in order. tree: a live SceneTree (an object sent by id); item_script,
## holder_script: golden_item.gd and golden_holder.gd, or scripts alike; keep: the objects made
## here that must stay alive until the values are used (the caller frees the Nodes). Returns the
## objects the values refer to (add_objects), for a caller's further values.
static func add_all(add: Callable, tree: SceneTree, item_script: Script, holder_script: Script, keep: Array) -> Dictionary:
	add_scalars(add)
	add_math(add)
	add_rids(add)
	var o := add_objects(add, tree, item_script, holder_script, keep)
	add_callables_and_signals(add, o)
	add_dictionaries(add)
	add_arrays(add)
	add_packed(add)
	add_typed_arrays(add, o, item_script)
	add_typed_dictionaries(add, o, item_script, holder_script)
	add_random(add)
	return o


## Nil, bool, int, float, String, StringName and NodePath values.
static func add_scalars(add: Callable) -> void:
	var neg0 := float_from_bits(hx("8000000000000000"))  # a -0.0 literal folds to +0.0
	# ---- NIL / BOOL
	add.call("nil", null)
	add.call("nil/full", null, true)
	add.call("bool/true", true)
	add.call("bool/false", false)
	add.call("bool/true/full", true, true)
	add.call("int/42/full", 42, true)
	add.call("float/0.1/full", 0.1, true)

	# ---- INT
	var ints := {
		"0": 0, "1": 1, "m1": -1, "2": 2, "127": 127, "128": 128, "255": 255, "256": 256,
		"m128": -128, "m129": -129, "65535": 65535, "65536": 65536, "m65536": -65536,
		"max32": 2147483647, "max32p1": 2147483648, "min32": -2147483648, "min32m1": -2147483649,
		"u32max": 4294967295, "2p32": 4294967296, "m2p32": -4294967296, "2p53": 9007199254740992,
		"2p53p1": 9007199254740993, "m2p53m1": -9007199254740993, "max64": 9223372036854775807,
		"min64": -9223372036854775808, "min64p1": -9223372036854775807, "max64m1": 9223372036854775806,
		"0x12345678": 0x12345678, "f123456789abcdef": F123456789ABCDEF,
	}
	for k in ints:
		add.call("int/" + k, ints[k])

	# ---- FLOAT
	var floats := {
		"0": 0.0, "neg0": neg0, "0.5": 0.5, "1": 1.0, "m1": -1.0, "3": 3.0, "0.15625": 0.15625,
		"0.1": 0.1, "m0.1": -0.1, "third": 1.0 / 3.0, "pi": PI, "tau": TAU, "1e10": 1e10, "1e-10": 1e-10,
		"123456.789": 123456.789, "2p24": 16777216.0, "2p24p1": 16777217.0, "2p24p2": 16777218.0,
		"1e300": 1e300, "m1e300": -1e300, "1e38": 1e38,
		# FLT_MAX from its bits: the GDScript parser reads the literal 3.4028234663852886e38 one ulp high.
		"flt_max": float_from_bits(0x47efffffe0000000), "m_flt_max": float_from_bits(hx("c7efffffe0000000")),
		"flt_max_literal": 3.4028234663852886e38,
		"flt_max_next_f64": float_from_bits(0x47efffffe0000001),
		"flt_max_half_ulp": float_from_bits(0x47effffff0000000),
		"dbl_max": float_from_bits(0x7fefffffffffffff),
		"f64_min_subnormal": float_from_bits(1), "f64_max_subnormal": float_from_bits(0x000fffffffffffff),
		"f64_min_normal": float_from_bits(0x0010000000000000),
		"f32_min_subnormal": 1.401298464324817e-45, "f32_min_subnormal_neg": -1.401298464324817e-45,
		"f32_max_subnormal": float_from_bits(0x380fffffc0000000),
		"f32_min_normal": 1.1754943508222875e-38, "f32_half_min_subnormal": 1.401298464324817e-45 / 2.0,
		"f32_min_subnormal_x1.5": 1.401298464324817e-45 * 1.5,
		"inf": INF, "minf": -INF, "nan": NAN,
		"nan_neg": float_from_bits(hx("fff8000000000000")), "nan_signaling": float_from_bits(0x7ff0000000000001),
		"nan_payload": float_from_bits(0x7ff8deadbeef0000), "nan_neg_payload": float_from_bits(hx("fff0000000000123")),
		"nan_f32_payload_fit": float_from_bits(0x7ffabcdee0000000),
		"2p62": 4611686018427387904.0, "m2p63": -9223372036854775808.0,
	}
	for k in floats:
		add.call("float/" + k, floats[k])

	# ---- STRING (every padding class, multi-byte, long, odd code points)
	var letters := "abcdefghi"
	for n in range(0, 10):
		add.call("string/ascii_len%d" % n, letters.substr(0, n))
	var strs := {
		"e_acute": "é", "nihon": "日本", "emoji_gclef": "😀𝄞", "a_emoji": "a😀", "mixed": "aé日😀",
		"u10ffff": char(0x10FFFF), "u7f_u80": char(0x7F) + char(0x80), "u7ff_u800": char(0x7FF) + char(0x800),
		"uffff_u10000": char(0xFFFF) + char(0x10000), "escapes": "line\nnext\t\"q\" \\ /",
		"controls": char(1) + char(2) + char(0x1F), "embedded_nul": "a" + char(0) + "b",
		"leading_bom": char(0xFEFF) + "abc", "only_bom": char(0xFEFF), "middle_bom": "a" + char(0xFEFF) + "b",
		"lone_surrogate": "x" + char(0xD800) + "y", "above_10ffff": char(0x110000),
		"spaces": "   ", "long_10000_ascii": "x".repeat(10000), "long_3000_e_acute": "é".repeat(3000),
		"long_1001_nihon": "日".repeat(1001),
	}
	for k in strs:
		add.call("string/" + k, strs[k])
	add.call("string/abc/full", "abc", true)

	# ---- STRING_NAME
	var sns := {"empty": &"", "a": &"a", "ab": &"ab", "abc": &"abc", "abcd": &"abcd", "abcde": &"abcde",
			"hello_world": &"hello_world", "nihon": &"日本", "emoji": &"😀"}
	for k in sns:
		add.call("string_name/" + k, sns[k])

	# ---- NODE_PATH
	var nps := {
		"empty": "", "a": "a", "a_b": "a/b", "root": "/root", "root_a": "/root/a", "slash": "/",
		"a_b_c_d": "a/b:c:d", "prop_x": ":x", "prop_x_y": ":x:y", "a_prop": "a:b", "dotdot": "../a",
		"dot": ".", "unique": "%Unique", "unicode": "日本/é:ü", "abs_sub": "/root/n:pos:x",
		"issue44999": "Path2D/PathFollow2D/Sprite:position:x", "pad_classes": "a/bb/ccc/dddd:eeeee",
		"emoji": "😀/𝄞:é",
	}
	for k in nps:
		add.call("node_path/" + k, NodePath(nps[k]))


## The math types.
static func add_math(add: Callable) -> void:
	var neg0 := float_from_bits(hx("8000000000000000"))
	# ---- math types
	add.call("vector2/zero", Vector2())
	add.call("vector2/1_2", Vector2(1, 2))
	add.call("vector2/inexact", Vector2(-1.5, 0.1))
	add.call("vector2/inf_nan", Vector2(INF, NAN))
	add.call("vector2/big", Vector2(3.4e38, -1e-40))
	add.call("vector2i/zero", Vector2i())
	add.call("vector2i/1_m1", Vector2i(1, -1))
	add.call("vector2i/extremes", Vector2i(2147483647, -2147483648))
	add.call("rect2/1_2_3_4", Rect2(1, 2, 3, 4))
	add.call("rect2/inexact", Rect2(-0.5, 0.25, 1e10, 0.1))
	add.call("rect2/zero", Rect2())
	add.call("rect2/negative_size", Rect2(5, 6, -7, -8))
	add.call("rect2i/zero", Rect2i())
	add.call("rect2i/1_2_3_4", Rect2i(1, 2, 3, 4))
	add.call("rect2i/extremes", Rect2i(-1, -2, 2147483647, -2147483648))
	add.call("vector3/zero", Vector3())
	add.call("vector3/1_2_3", Vector3(1, 2, 3))
	add.call("vector3/inexact", Vector3(0.1, 0.2, 0.3))
	add.call("vector3/neg0_inf", Vector3(neg0, INF, -INF))
	add.call("vector3i/1_2_3", Vector3i(1, 2, 3))
	add.call("vector3i/extremes", Vector3i(-2147483648, 0, 2147483647))
	add.call("transform2d/identity", Transform2D.IDENTITY)
	add.call("transform2d/distinct", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))
	add.call("transform2d/rotated", Transform2D(0.3, Vector2(0.1, -7.25)))
	add.call("vector4/zero", Vector4())
	add.call("vector4/1_2_3_4", Vector4(1, 2, 3, 4))
	add.call("vector4/inexact", Vector4(0.1, -0.2, 1e-3, 7e7))
	add.call("vector4i/1_2_3_4", Vector4i(1, 2, 3, 4))
	add.call("vector4i/extremes", Vector4i(-2147483648, 2147483647, -1, 0))
	add.call("vector4i/zero", Vector4i())
	add.call("vector4/nan_inf", Vector4(NAN, -INF, INF, neg0))
	add.call("vector2i/min_max_swapped", Vector2i(-2147483648, 2147483647))
	add.call("vector3i/zero", Vector3i())
	add.call("plane/1_2_3_4", Plane(1, 2, 3, 4))
	add.call("plane/normal_up_d", Plane(Vector3(0, 1, 0), 0.1))
	add.call("plane/zero", Plane())
	add.call("plane/from_points", Plane(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)))
	add.call("quaternion/identity", Quaternion.IDENTITY)
	add.call("quaternion/1_2_3_4", Quaternion(1, 2, 3, 4))
	add.call("quaternion/from_euler", Quaternion.from_euler(Vector3(0.1, 0.2, 0.3)))
	add.call("quaternion/zero", Quaternion(0, 0, 0, 0))
	add.call("aabb/1_to_6", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add.call("aabb/inexact", AABB(Vector3(-0.1, 0.2, -0.3), Vector3(1e20, 1e-20, 0)))
	add.call("aabb/zero", AABB())
	add.call("aabb/negative_size", AABB(Vector3(1, 1, 1), Vector3(-1, -2, -3)))
	add.call("basis/identity", Basis.IDENTITY)
	add.call("basis/distinct", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add.call("basis/euler", Basis.from_euler(Vector3(0.1, 0.2, 0.3)))
	add.call("basis/scaled", Basis.from_scale(Vector3(2, -3, 0.5)))
	add.call("transform3d/identity", Transform3D.IDENTITY)
	add.call("transform3d/distinct", Transform3D(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12)))
	add.call("transform3d/translated", Transform3D(Basis.IDENTITY, Vector3(-1, 2.5, 1e6)))
	add.call("transform3d/inexact", Transform3D(Basis.from_euler(Vector3(0.5, -0.25, 1.0)), Vector3(0.1, 0.2, 0.3)))
	add.call("projection/identity", Projection.IDENTITY)
	add.call("projection/distinct", Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)))
	add.call("projection/perspective", Projection.create_perspective(70.0, 16.0 / 9.0, 0.05, 4000.0))
	add.call("projection/orthogonal", Projection.create_orthogonal(-1, 1, -2, 2, 0.1, 100))
	add.call("projection/zero", Projection.ZERO)
	add.call("color/red", Color(1, 0, 0, 1))
	add.call("color/inexact", Color(0.1, 0.2, 0.3, 0.4))
	add.call("color/odd", Color(-1, 2, INF, 0))
	add.call("color/transparent", Color(0, 0, 0, 0))


static func add_rids(add: Callable) -> void:
	# ---- RID
	add.call("rid/empty", RID())
	add.call("rid/13", rid_from_int64(13))
	add.call("rid/0", rid_from_int64(0))
	add.call("rid/2p40", rid_from_int64(1 << 40))
	add.call("rid/u64max", rid_from_int64(-1))
	add.call("rid/0x123456789abcdef0", rid_from_int64(0x123456789abcdef0))


## Objects by id and in full, and objects the engine cannot encode; returns the objects the later
## values refer to.
static func add_objects(add: Callable, tree: SceneTree, item_script: Script, holder_script: Script, keep: Array) -> Dictionary:
	# ---- OBJECT
	var node := Node.new()
	node.name = "GoldenNode"
	keep.append(node)
	var obj := Object.new()
	keep.append(obj)
	var res := Resource.new()
	res.resource_name = "res_name"
	keep.append(res)
	var rc := RefCounted.new()
	keep.append(rc)
	add.call("object/id/node", node)
	add.call("object/id/object", obj)
	add.call("object/id/resource", res)
	add.call("object/id/refcounted", rc)
	add.call("object/id/scenetree", tree)
	var null_obj: Object = null
	add.call("object/null", null_obj)
	add.call("object/null/full", null_obj, true)
	var freed := Object.new()
	var freed_var = freed
	freed.free()
	add.call("object/freed", freed_var)
	add.call("object/freed/full", freed_var, true)

	var item = item_script.new()
	item.title = "Sword é"
	item.count = 7
	item.weight = 0.1
	item.tags = PackedStringArray(["sharp", "", "日本"])
	keep.append(item)
	var item2 = item_script.new()
	item2.title = "Gem"
	item2.count = -5
	item2.child = item
	keep.append(item2)
	var item_default = item_script.new()
	keep.append(item_default)
	var plain_res_child := Resource.new()
	plain_res_child.resource_name = "child"
	var item3 = item_script.new()
	item3.child = plain_res_child
	keep.append(item3)
	var curve := Curve.new()
	curve.add_point(Vector2(0, 0.5))
	curve.add_point(Vector2(0.25, 1), 0.5, -0.5)
	curve.add_point(Vector2(1, 0.1))
	keep.append(curve)
	var grad := Gradient.new()
	grad.add_point(0.5, Color(0.1, 0.2, 0.3, 1))
	keep.append(grad)
	var holder = holder_script.new()
	holder.items.append(plain_res_child)
	holder.table["k"] = 3
	keep.append(holder)

	add.call("object/full/resource", Resource.new(), true)
	add.call("object/full/resource_named", res, true)
	add.call("object/full/refcounted", RefCounted.new(), true)
	add.call("object/full/object", obj, true)
	add.call("object/full/golden_item_default", item_default, true)
	add.call("object/full/golden_item", item, true)
	add.call("object/full/golden_item_nested", item2, true)
	add.call("object/full/golden_item_plain_child", item3, true)
	add.call("object/full/curve", curve, true)
	add.call("object/full/gradient", grad, true)
	add.call("object/full/golden_holder", holder, true)
	add.call("object/full/golden_holder_default", holder_script.new(), true)
	add.call("object/full/curve_default", Curve.new(), true)
	add.call("object/full/gradient_default", Gradient.new(), true)
	add.call("object/id/golden_holder", holder)
	add.call("object/full/node", node, true)
	add.call("object/id/golden_item", item)
	add.call("array/objects/full", [res, item, null, rc], true)
	add.call("array/objects/id", [res, item, null, rc, node])
	add.call("dictionary/objects/full", {"r": res, res: 1}, true)
	add.call("dictionary/objects/id", {"r": res, node: 1})

	# Encode failures: classes that cannot be instantiated, scripts without a path.
	add.call("object/full/noninstantiable_renderingserver", RenderingServer, true)
	add.call("object/id/renderingserver", RenderingServer)
	var gs := GDScript.new()
	gs.source_code = "extends RefCounted\nvar x = 1\n"
	gs.reload()
	var pathless = gs.new()
	keep.append(pathless)
	add.call("object/full/pathless_script", pathless, true)
	add.call("object/id/pathless_script", pathless)
	add.call("array/typed/pathless_script/full", Array([pathless], TYPE_OBJECT, &"RefCounted", gs), true)
	add.call("array/typed/pathless_script/id", Array([pathless], TYPE_OBJECT, &"RefCounted", gs))
	return {"node": node, "obj": obj, "res": res, "rc": rc, "item": item, "item2": item2,
			"item_default": item_default, "holder": holder}


static func add_callables_and_signals(add: Callable, o: Dictionary) -> void:
	var node: Node = o.node
	var obj: Object = o.obj
	var res: Resource = o.res
	# ---- CALLABLE
	add.call("callable/empty", Callable())
	add.call("callable/method", Callable(node, "get_name"))
	add.call("callable/bound", Callable(node, "set_name").bind("x"))
	add.call("callable/lambda", func(): return 1)
	add.call("callable/method/full", Callable(node, "get_name"), true)

	# ---- SIGNAL
	add.call("signal/empty", Signal())
	add.call("signal/node_ready", Signal(node, "ready"))
	add.call("signal/resource_changed", res.changed)
	add.call("signal/unicode_name", Signal(obj, "日本_é"))
	add.call("signal/resource_changed/full", res.changed, true)


static func add_dictionaries(add: Callable) -> void:
	# ---- DICTIONARY
	add.call("dictionary/empty", {})
	add.call("dictionary/a_1", {"a": 1})
	add.call("dictionary/mixed_keys", {
		1: "int", "s": "string", &"sn": "string_name", 1.5: "float", Vector2(1, 2): "vector2", null: "nil",
		[1, "x"]: "array", true: "bool", Color(1, 0, 0): "color", NodePath("a/b"): "node_path",
		PackedByteArray([1, 2]): "packed", {"in": 1}: "dict", Vector3i(1, 2, 3): "vector3i",
	})
	add.call("dictionary/nested", {"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
	add.call("dictionary/int_keys_order", {3: "c", 1: "a", 2: "b", -1: "m"})
	var svsn := {"k": 1}
	svsn[&"k"] = 2
	svsn["j"] = 3
	add.call("dictionary/string_vs_string_name", svsn)
	var snvs := {&"k": 1}
	snvs["k"] = 2
	add.call("dictionary/string_name_vs_string", snvs)
	add.call("dictionary/int_vs_float_key", {1: "int", 1.0: "float"})
	add.call("dictionary/nil_value", {"x": null})
	add.call("dictionary/full", {"a": 1, 2: [3]}, true)


static func add_arrays(add: Callable) -> void:
	# ---- ARRAY
	add.call("array/empty", [])
	add.call("array/1_a", [1, "a"])
	add.call("array/nested", [[], [[]], [1, [2, [3]]]])
	add.call("array/mixed", [null, true, 2, 3.5, "s", &"sn", NodePath("n"), Vector2(1, 2), RID(), Callable(),
			Signal(), {}, [], PackedByteArray([7]), Color(0, 1, 0, 1)])
	add.call("array/nils", [null, null, null])
	add.call("array/full", [1, [2]], true)
	add.call("array/typed_inside_untyped", [Array([1, 2], TYPE_INT, &"", null), Dictionary({"a": 1}, TYPE_STRING, &"", null, TYPE_INT, &"", null)])
	add.call("array/typed_array_of_typed_arrays", Array([Array([1], TYPE_INT, &"", null), [2, "x"]], TYPE_ARRAY, &"", null))
	add.call("dictionary/typed_values_inside", {"ints": Array([1], TYPE_INT, &"", null), Array([2], TYPE_INT, &"", null): "typed key"})
	add.call("array/all_scalar_types", [null, false, 0, 0.0, "", Vector2(), Vector2i(), Rect2(), Rect2i(), Vector3(), Vector3i(),
			Transform2D(), Vector4(), Vector4i(), Plane(), Quaternion(), AABB(), Basis(), Transform3D(), Projection(), Color(),
			&"", NodePath(), RID(), null as Variant, Callable(), Signal(), {}, [], PackedByteArray(), PackedInt32Array(),
			PackedInt64Array(), PackedFloat32Array(), PackedFloat64Array(), PackedStringArray(), PackedVector2Array(),
			PackedVector3Array(), PackedColorArray(), PackedVector4Array()])
	for n in [2, 100, 1024, 1025, 1026]:
		add.call("array/deep/%d" % n, nest_array(n))
	for n in [1023, 1024, 1025]:
		add.call("array/deep_leaf_int/%d" % n, nest_array(n, 7))
	for n in [100, 1024, 1025, 1026]:
		add.call("dictionary/deep/%d" % n, nest_dict(n))


static func add_packed(add: Callable) -> void:
	var neg0 := float_from_bits(hx("8000000000000000"))
	# ---- packed arrays
	for n in range(0, 10):
		var pb := PackedByteArray()
		for i in n:
			pb.append((i * 37 + 1) & 0xFF)
		add.call("packed_byte_array/len%d" % n, pb)
	add.call("packed_byte_array/all_bytes", PackedByteArray(range(256)))
	var sizes := [0, 1, 2, 3, 5]
	for n in sizes:
		var a32 := PackedInt32Array()
		var a64 := PackedInt64Array()
		var f32 := PackedFloat32Array()
		var f64 := PackedFloat64Array()
		var v2 := PackedVector2Array()
		var v3 := PackedVector3Array()
		var v4 := PackedVector4Array()
		var col := PackedColorArray()
		var sa := PackedStringArray()
		var sample_strings := ["", "a", "日本", "abcd", "😀𝄞", "xyz"]
		for i in n:
			a32.append([0, -1, 2147483647, -2147483648, 12345][i])
			a64.append([0, -1, 9223372036854775807, -9223372036854775808, 1 << 40][i])
			f32.append([0.5, 0.1, -INF, 3.4028234663852886e38, neg0][i])
			f64.append([0.1, neg0, 1e300, NAN, 5e-324][i])
			v2.append(Vector2(i + 0.5, -i - 0.1))
			v3.append(Vector3(i, i + 0.1, -i))
			v4.append(Vector4(i, -i, i + 0.25, 0.1 * i))
			col.append(Color(0.1 * i, 1, 0, 0.5))
			sa.append(sample_strings[i])
		add.call("packed_int32_array/len%d" % n, a32)
		add.call("packed_int64_array/len%d" % n, a64)
		add.call("packed_float32_array/len%d" % n, f32)
		add.call("packed_float64_array/len%d" % n, f64)
		add.call("packed_string_array/len%d" % n, sa)
		add.call("packed_vector2_array/len%d" % n, v2)
		add.call("packed_vector3_array/len%d" % n, v3)
		add.call("packed_color_array/len%d" % n, col)
		add.call("packed_vector4_array/len%d" % n, v4)
	add.call("packed_string_array/empties", PackedStringArray(["", "", ""]))
	add.call("packed_string_array/pad_classes", PackedStringArray(["abc", "abcd", "abcde", "ab", "é", "😀"]))
	add.call("packed_string_array/bom_and_nul", PackedStringArray([char(0xFEFF) + "x", "a" + char(0) + "b"]))
	add.call("packed_byte_array/len3/full", PackedByteArray([1, 2, 3]), true)


static func add_typed_arrays(add: Callable, o: Dictionary, item_script: Script) -> void:
	var node: Node = o.node
	var obj: Object = o.obj
	var res: Resource = o.res
	var rc: RefCounted = o.rc
	var item = o.item
	var item_default = o.item_default
	# ---- typed Array of every builtin kind
	var samples := {
		TYPE_BOOL: [true, false], TYPE_INT: [1, -2, 1 << 40], TYPE_FLOAT: [0.5, 0.1], TYPE_STRING: ["a", "", "日本"],
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
	for t in samples:
		var tn: String = type_string(t)
		add.call("array/typed/%s" % tn, Array(samples[t], t, &"", null))
		add.call("array/typed/%s/empty" % tn, Array([], t, &"", null))
	add.call("array/typed/int/full", Array([1, 2], TYPE_INT, &"", null), true)
	add.call("array/typed/String/full", Array(["a"], TYPE_STRING, &"", null), true)
	add.call("array/typed/int/f123456789abcdef", Array([F123456789ABCDEF], TYPE_INT, &"", null))
	add.call("array/typed/array_of_typed", [Array([1], TYPE_INT, &"", null), Array(["s"], TYPE_STRING, &"", null)])
	# class and script kinds, both with and without full objects
	var obj_typed := {
		"Object": Array([obj, null], TYPE_OBJECT, &"Object", null),
		"Object/empty": Array([], TYPE_OBJECT, &"Object", null),
		"Node": Array([node], TYPE_OBJECT, &"Node", null),
		"Node/empty": Array([], TYPE_OBJECT, &"Node", null),
		"Resource": Array([res, item], TYPE_OBJECT, &"Resource", null),
		"Resource/empty": Array([], TYPE_OBJECT, &"Resource", null),
		"RefCounted": Array([rc], TYPE_OBJECT, &"RefCounted", null),
		"script": Array([item, item_default], TYPE_OBJECT, &"Resource", item_script),
		"script/empty": Array([], TYPE_OBJECT, &"Resource", item_script),
		"script/with_null": Array([null, item], TYPE_OBJECT, &"Resource", item_script),
	}
	for k in obj_typed:
		add.call("array/typed/%s/id" % k, obj_typed[k])
		if k.begins_with("Node/") or not k.begins_with("Node"):
			add.call("array/typed/%s/full" % k, obj_typed[k], true)


static func add_typed_dictionaries(add: Callable, o: Dictionary, item_script: Script, holder_script: Script) -> void:
	var node: Node = o.node
	var obj: Object = o.obj
	var res: Resource = o.res
	var item = o.item
	var item2 = o.item2
	# ---- typed Dictionary
	var x64 := F123456789ABCDEF
	var tdicts := {
		"int_int": Dictionary({x64: x64}, TYPE_INT, &"", null, TYPE_INT, &"", null),
		"int_int/empty": Dictionary({}, TYPE_INT, &"", null, TYPE_INT, &"", null),
		"String_int/empty": Dictionary({}, TYPE_STRING, &"", null, TYPE_INT, &"", null),
		"String_Variant": Dictionary({"a": 1, "b": [2], "c": null}, TYPE_STRING, &"", null, TYPE_NIL, &"", null),
		"Variant_float": Dictionary({1: 0.5, "x": 0.1, null: 2.0}, TYPE_NIL, &"", null, TYPE_FLOAT, &"", null),
		"StringName_Vector2": Dictionary({&"p": Vector2(1, 2)}, TYPE_STRING_NAME, &"", null, TYPE_VECTOR2, &"", null),
		"Vector2i_Array": Dictionary({Vector2i(1, 2): [1]}, TYPE_VECTOR2I, &"", null, TYPE_ARRAY, &"", null),
		"int_Resource": Dictionary({1: res, 2: null}, TYPE_INT, &"", null, TYPE_OBJECT, &"Resource", null),
		"Node_int": Dictionary({node: 1}, TYPE_OBJECT, &"Node", null, TYPE_INT, &"", null),
		"Object_Object/empty": Dictionary({}, TYPE_OBJECT, &"Object", null, TYPE_OBJECT, &"Object", null),
		"String_script": Dictionary({"sword": item}, TYPE_STRING, &"", null, TYPE_OBJECT, &"Resource", item_script),
		"script_int": Dictionary({item: 1}, TYPE_OBJECT, &"Resource", item_script, TYPE_INT, &"", null),
		"script_script/empty": Dictionary({}, TYPE_OBJECT, &"Resource", item_script, TYPE_OBJECT, &"Resource", item_script),
		"script_script": Dictionary({item: item2}, TYPE_OBJECT, &"Resource", item_script, TYPE_OBJECT, &"Resource", item_script),
		"script_Resource": Dictionary({item: res}, TYPE_OBJECT, &"Resource", item_script, TYPE_OBJECT, &"Resource", null),
		"int_script/empty": Dictionary({}, TYPE_INT, &"", null, TYPE_OBJECT, &"Resource", item_script),
		"script_holderscript/empty": Dictionary({}, TYPE_OBJECT, &"Resource", item_script, TYPE_OBJECT, &"RefCounted", holder_script),
		"holderscript_script/empty": Dictionary({}, TYPE_OBJECT, &"RefCounted", holder_script, TYPE_OBJECT, &"Resource", item_script),
		"Color_PackedByteArray": Dictionary({Color(1, 0, 0, 1): PackedByteArray([1])}, TYPE_COLOR, &"", null, TYPE_PACKED_BYTE_ARRAY, &"", null),
	}
	for k in tdicts:
		add.call("dictionary/typed/%s/id" % k, tdicts[k])
		if k != "Node_int":
			add.call("dictionary/typed/%s/full" % k, tdicts[k], true)


static func add_random(add: Callable) -> void:
	# ---- random nested values from a fixed seed
	var rng := RandomNumberGenerator.new()
	rng.seed = 12345
	for i in 64:
		add.call("random/%02d" % i, rand_value(rng, 0))




# ------------------------------------------------------------------ helpers

## n nested Arrays in total; the innermost holds `leaf` (or nothing when leaf is null).
static func nest_array(n: int, leaf = null) -> Array:
	var a := [] if leaf == null else [leaf]
	for i in n - 1:
		a = [a]
	return a


## n nested Dictionaries in total, each the value of the key "k" of the one around it.
static func nest_dict(n: int) -> Dictionary:
	var d := {}
	for i in n - 1:
		d = {"k": d}
	return d


## Big-endian hex (as written in docs) to the int64 with those bits.
static func hx(s: String) -> int:
	var b := s.hex_decode()
	b.reverse()
	return b.decode_s64(0)


## The float with the bits of the int64 `bits`.
static func float_from_bits(bits: int) -> float:
	return PackedInt64Array([bits]).to_byte_array().decode_double(0)


static func rand_string(rng: RandomNumberGenerator) -> String:
	var alphabet := ["a", "b", "z", "0", " ", "é", "ß", "日", "本", "😀", "𝄞", "\n", "\"", "\\"]
	var s := ""
	for i in rng.randi_range(0, 9):
		s += alphabet[rng.randi_range(0, alphabet.size() - 1)]
	return s


static func rand_float(rng: RandomNumberGenerator) -> float:
	match rng.randi_range(0, 3):
		0:
			return float(rng.randi_range(-1000, 1000)) / 8.0
		1:
			return rng.randf_range(-1e6, 1e6)
		2:
			return float_from_bits((rng.randi() << 32) | rng.randi())
	return [0.0, float_from_bits(hx("8000000000000000")), INF, -INF, 0.1, 1e300][rng.randi_range(0, 5)]


## A random value of the scalar, math, packed and container kinds, nested at most 4 deep.
static func rand_value(rng: RandomNumberGenerator, depth: int):
	var kind := rng.randi_range(0, 18 if depth < 4 else 15)
	match kind:
		0:
			return null
		1:
			return rng.randi_range(0, 1) == 1
		2:
			return rng.randi_range(-1000, 1000)
		3:
			return (rng.randi() << 32) | rng.randi()
		4:
			return rand_float(rng)
		5:
			return rand_string(rng)
		6:
			return StringName(rand_string(rng))
		7:
			return Vector2(rand_float(rng), rand_float(rng))
		8:
			return Vector3i(rng.randi_range(-100, 100), rng.randi(), -rng.randi_range(0, 5))
		9:
			return Color(rng.randf(), rng.randf(), rng.randf(), rng.randf())
		10:
			var pb := PackedByteArray()
			for i in rng.randi_range(0, 9):
				pb.append(rng.randi_range(0, 255))
			return pb
		11:
			var ps := PackedStringArray()
			for i in rng.randi_range(0, 4):
				ps.append(rand_string(rng))
			return ps
		12:
			var pf := PackedFloat32Array()
			for i in rng.randi_range(0, 4):
				pf.append(rng.randf_range(-10, 10))
			return pf
		13:
			return NodePath(["a", "/b/c", "x:y", ":p", "../q:r:s", ""][rng.randi_range(0, 5)])
		14:
			return Transform2D(rand_float(rng), Vector2(rand_float(rng), rand_float(rng)))
		15:
			return Rect2i(rng.randi_range(-9, 9), rng.randi_range(-9, 9), rng.randi_range(0, 99), rng.randi_range(0, 99))
		16, 17:
			var a := []
			for i in rng.randi_range(0, 4):
				a.append(rand_value(rng, depth + 1))
			return a
		_:
			var d := {}
			for i in rng.randi_range(0, 4):
				var key = [rng.randi_range(0, 50), rand_string(rng), StringName(rand_string(rng)), Vector2i(rng.randi_range(0, 3), 0)][rng.randi_range(0, 3)]
				d[key] = rand_value(rng, depth + 1)
			return d
