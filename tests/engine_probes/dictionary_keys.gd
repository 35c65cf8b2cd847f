extends SceneTree
## Which Dictionary keys Godot merges when bytes_to_var decodes a Dictionary: each probe crafts
## the bytes of a Dictionary holding two keys and counts the entries the engine keeps. Every
## probe states what the engine-free builder does (rust/codec/src/value/keys.rs, whose tests hold
## the same table); the script exits non-zero if the engine disagrees. Run through run.sh.

const Z := "00000000"
const N0 := "00000080"
const ONE := "0000803f"
const NANA := "0000c07f"
const NANB := "0100c07f"
const NANN := "0000c0ff"
const Z64 := "0000000000000000"
const N064 := "0000000000000080"
const NAN64A := "000000000000f87f"
const NAN64B := "010000000000f87f"
const ID5 := "0500000000000000"

var failures := 0
var checked := 0


static func u32(x: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, x)
	return b


static func cat(parts: Array) -> PackedByteArray:
	var out := PackedByteArray()
	for p in parts:
		if p is PackedByteArray:
			out.append_array(p)
		elif p is String:
			out.append_array(p.hex_decode())
		elif p is int:
			out.append_array(u32(p))
	return out


static func hdr(t: int, flags := 0) -> PackedByteArray:
	return u32(t | (flags << 16))


## A real_t-typed value of `n` binary32 components, all 1.0 but component `i`, which is `c`.
static func realv(t: int, n: int, i: int, c: String) -> PackedByteArray:
	var parts: Array = [hdr(t)]
	for j in n:
		parts.append(c if j == i else ONE)
	return cat(parts)


static func f64(bits: String) -> PackedByteArray:
	return cat([hdr(3, 1), bits])


static func arr(items: Array) -> PackedByteArray:
	var parts: Array = [hdr(28), items.size()]
	parts.append_array(items)
	return cat(parts)


static func dict(pairs: Array) -> PackedByteArray:
	var parts: Array = [hdr(27), pairs.size() / 2]
	parts.append_array(pairs)
	return cat(parts)


static func obj_id(hex: String) -> PackedByteArray:
	return cat([hdr(24, 1), hex])


static func signal_bytes(id_hex: String) -> PackedByteArray:
	return cat([hdr(26), var_to_bytes("s").slice(4), id_hex])


func probe(name: String, k1: PackedByteArray, k2: PackedByteArray, merged: bool, full := false) -> void:
	var b := dict([k1, var_to_bytes(1), k2, var_to_bytes(2)])
	var d = bytes_to_var_with_objects(b) if full else bytes_to_var(b)
	checked += 1
	if typeof(d) != TYPE_DICTIONARY:
		print("FAIL %-44s the engine did not decode it" % name)
		failures += 1
		return
	var got: bool = d.size() == 1
	if got != merged:
		failures += 1
	print("%s %-44s %s" % ["ok  " if got == merged else "FAIL", name, "merged" if got else "two keys"])


func _init() -> void:
	print("engine ", Engine.get_version_info().string)
	# Top level.
	probe("Float 0.0, -0.0", f64(Z64), f64(N064), true)
	probe("Float NaN, NaN", f64(NAN64A), f64(NAN64A), true)
	probe("Float NaN payloads", f64(NAN64A), f64(NAN64B), true)
	probe("Float 1.5 as f32, as f64", cat([hdr(3), "0000c03f"]), cat([hdr(3, 1), "000000000000f83f"]), true)
	# A single-precision engine narrows a binary64 component as it decodes it: denormals become 0.0.
	probe("Vector2 denormal as f64, 0.0 as f32", cat([hdr(5, 1), "0000000061000000", "0000000062000000"]), cat([hdr(5), Z, Z]), true)
	probe("Int 1, Float 1.0", var_to_bytes(1), var_to_bytes(1.0), false)
	probe("Bool true, Int 1", var_to_bytes(true), var_to_bytes(1), false)
	probe("String, StringName", var_to_bytes("a"), var_to_bytes(&"a"), true)
	probe("StringName, String", var_to_bytes(&"a"), var_to_bytes("a"), true)
	probe("String, NodePath", var_to_bytes("a"), var_to_bytes(NodePath("a")), false)
	probe("Nil, Nil", var_to_bytes(null), var_to_bytes(null), true)
	probe("Vector2i twice", var_to_bytes(Vector2i(1, 2)), var_to_bytes(Vector2i(1, 2)), true)
	probe("Vector2, Vector2i", var_to_bytes(Vector2(1, 2)), var_to_bytes(Vector2i(1, 2)), false)
	var reals := {"Vector2": [5, 2], "Rect2": [7, 4], "Vector3": [9, 3], "Transform2D": [11, 6],
		"Vector4": [12, 4], "Plane": [14, 4], "Quaternion": [15, 4], "AABB": [16, 6],
		"Basis": [17, 9], "Transform3D": [18, 12], "Projection": [19, 16], "Color": [20, 4]}
	for tn in reals:
		var t: int = reals[tn][0]
		var n: int = reals[tn][1]
		for i in [0, n - 1]:
			var at := "%s[%d] " % [tn, i]
			probe(at + "0.0, -0.0", realv(t, n, i, Z), realv(t, n, i, N0), true)
			probe(at + "NaN, NaN", realv(t, n, i, NANA), realv(t, n, i, NANA), true)
			probe(at + "NaN payloads", realv(t, n, i, NANA), realv(t, n, i, NANB), true)
			probe(at + "NaN, -NaN", realv(t, n, i, NANA), realv(t, n, i, NANN), true)
			probe(at + "0.0, 1.0", realv(t, n, i, Z), realv(t, n, i, ONE), false)
			probe("[" + at + "NaN] twice", arr([realv(t, n, i, NANA)]), arr([realv(t, n, i, NANA)]), true)
			probe("[" + at + "-0.0], [0.0]", arr([realv(t, n, i, N0)]), arr([realv(t, n, i, Z)]), true)
			probe("{a: " + at + "NaN} twice", dict([var_to_bytes("a"), realv(t, n, i, NANA)]), dict([var_to_bytes("a"), realv(t, n, i, NANA)]), true)
	# Arrays.
	probe("[0.0], [-0.0]", arr([f64(Z64)]), arr([f64(N064)]), true)
	probe("[NaN] twice", arr([f64(NAN64A)]), arr([f64(NAN64A)]), false)
	probe("[NaN], [NaN other payload]", arr([f64(NAN64A)]), arr([f64(NAN64B)]), false)
	probe("[1, NaN] twice", arr([var_to_bytes(1), f64(NAN64A)]), arr([var_to_bytes(1), f64(NAN64A)]), false)
	probe("[[NaN]] twice", arr([arr([f64(NAN64A)])]), arr([arr([f64(NAN64A)])]), false)
	probe("[[0.0]], [[-0.0]]", arr([arr([f64(Z64)])]), arr([arr([f64(N064)])]), true)
	probe("[1], [1.0]", arr([var_to_bytes(1)]), arr([var_to_bytes(1.0)]), false)
	probe("[true], [1]", arr([var_to_bytes(true)]), arr([var_to_bytes(1)]), false)
	probe("[\"a\"], [&\"a\"]", arr([var_to_bytes("a")]), arr([var_to_bytes(&"a")]), false)
	probe("[&\"a\"] twice", arr([var_to_bytes(&"a")]), arr([var_to_bytes(&"a")]), true)
	probe("[Vector2], [Vector2i]", arr([var_to_bytes(Vector2(1, 2))]), arr([var_to_bytes(Vector2i(1, 2))]), false)
	probe("[] twice", arr([]), arr([]), true)
	probe("[null] twice", arr([var_to_bytes(null)]), arr([var_to_bytes(null)]), true)
	probe("Array[int]([1]), [1]", var_to_bytes(Array([1], TYPE_INT, &"", null)), var_to_bytes([1]), true)
	probe("Array[float]([1.0]), [1.0]", var_to_bytes(Array([1.0], TYPE_FLOAT, &"", null)), var_to_bytes([1.0]), true)
	probe("[{a: 1}] twice", var_to_bytes([{"a": 1}]), var_to_bytes([{"a": 1}]), true)
	probe("[{a: 1}], [{&a: 1}]", var_to_bytes([{"a": 1}]), var_to_bytes([{&"a": 1}]), true)
	probe("[{NaN: 1}] twice", arr([dict([f64(NAN64A), var_to_bytes(1)])]), arr([dict([f64(NAN64A), var_to_bytes(1)])]), true)
	probe("[{-0.0: 1}], [{0.0: 1}]", arr([dict([f64(N064), var_to_bytes(1)])]), arr([dict([f64(Z64), var_to_bytes(1)])]), true)
	probe("[{a: 1, b: 2}], [{b: 2, a: 1}]", var_to_bytes([{"a": 1, "b": 2}]), var_to_bytes([{"b": 2, "a": 1}]), false)
	probe("[Callable] twice", arr([var_to_bytes(Callable())]), arr([var_to_bytes(Callable())]), true)
	probe("[RID 5] twice", arr([cat([hdr(23), ID5])]), arr([cat([hdr(23), ID5])]), true)
	probe("[Signal] twice", arr([signal_bytes(ID5)]), arr([signal_bytes(ID5)]), true)
	probe("[NodePath a:b] twice", arr([var_to_bytes(NodePath("a:b"))]), arr([var_to_bytes(NodePath("a:b"))]), true)
	probe("[object id 5] twice", arr([obj_id(ID5)]), arr([obj_id(ID5)]), false)
	probe("[null object] twice", arr([obj_id(Z64)]), arr([obj_id(Z64)]), true)
	var ob := var_to_bytes_with_objects(RefCounted.new())
	probe("[full object] twice", arr([ob]), arr([ob]), false, true)
	probe("PackedStringArray[a], [a]", var_to_bytes(PackedStringArray(["a"])), var_to_bytes(["a"]), false)
	probe("PackedByteArray[1], [1]", var_to_bytes(PackedByteArray([1])), var_to_bytes([1]), false)
	# Dictionaries.
	probe("{a: 0.0}, {a: -0.0}", dict([var_to_bytes("a"), f64(Z64)]), dict([var_to_bytes("a"), f64(N064)]), true)
	probe("{a: NaN} twice", dict([var_to_bytes("a"), f64(NAN64A)]), dict([var_to_bytes("a"), f64(NAN64A)]), false)
	probe("{a: {b: NaN}} twice", dict([var_to_bytes("a"), dict([var_to_bytes("b"), f64(NAN64A)])]), dict([var_to_bytes("a"), dict([var_to_bytes("b"), f64(NAN64A)])]), false)
	probe("{0.0: 1}, {-0.0: 1}", dict([f64(Z64), var_to_bytes(1)]), dict([f64(N064), var_to_bytes(1)]), true)
	probe("{NaN: 1} twice", dict([f64(NAN64A), var_to_bytes(1)]), dict([f64(NAN64A), var_to_bytes(1)]), true)
	probe("{[NaN]: 1} twice", dict([arr([f64(NAN64A)]), var_to_bytes(1)]), dict([arr([f64(NAN64A)]), var_to_bytes(1)]), false)
	probe("{a: 1, b: 2}, {b: 2, a: 1}", var_to_bytes({"a": 1, "b": 2}), var_to_bytes({"b": 2, "a": 1}), false)
	probe("{1: 1, 2: 2, 3: 3}, reversed", var_to_bytes({1: 1, 2: 2, 3: 3}), var_to_bytes({3: 3, 2: 2, 1: 1}), false)
	probe("{a: 1, b: 2} twice", var_to_bytes({"a": 1, "b": 2}), var_to_bytes({"a": 1, "b": 2}), true)
	probe("{k: {a: 1, b: 2}}, {k: {b: 2, a: 1}}", var_to_bytes({"k": {"a": 1, "b": 2}}), var_to_bytes({"k": {"b": 2, "a": 1}}), false)
	probe("{a: 1}, {&a: 1}", var_to_bytes({"a": 1}), var_to_bytes({&"a": 1}), true)
	probe("{a: 1}, {a: 1.0}", var_to_bytes({"a": 1}), var_to_bytes({"a": 1.0}), false)
	probe("{1: 1}, {1.0: 1}", var_to_bytes({1: 1}), var_to_bytes({1.0: 1}), false)
	probe("{a: \"x\"}, {a: &\"x\"}", var_to_bytes({"a": "x"}), var_to_bytes({"a": &"x"}), false)
	probe("{a: [0.0]}, {a: [-0.0]}", dict([var_to_bytes("a"), arr([f64(Z64)])]), dict([var_to_bytes("a"), arr([f64(N064)])]), true)
	probe("{a: object id 5} twice", dict([var_to_bytes("a"), obj_id(ID5)]), dict([var_to_bytes("a"), obj_id(ID5)]), false)
	probe("{} twice", var_to_bytes({}), var_to_bytes({}), true)
	var td: Dictionary[String, int] = {"a": 1}
	probe("Dictionary[String, int]{a: 1}, {a: 1}", var_to_bytes(td), var_to_bytes({"a": 1}), true)
	# Packed arrays.
	probe("PackedFloat32Array [0.0], [-0.0]", cat([hdr(32), 1, Z]), cat([hdr(32), 1, N0]), true)
	probe("PackedFloat32Array NaN twice", cat([hdr(32), 1, NANA]), cat([hdr(32), 1, NANA]), true)
	probe("PackedFloat32Array NaN payloads", cat([hdr(32), 1, NANA]), cat([hdr(32), 1, NANB]), true)
	probe("PackedFloat64Array [0.0], [-0.0]", cat([hdr(33), 1, Z64]), cat([hdr(33), 1, N064]), true)
	probe("PackedFloat64Array NaN payloads", cat([hdr(33), 1, NAN64A]), cat([hdr(33), 1, NAN64B]), true)
	probe("PackedVector2Array -0.0", cat([hdr(35), 1, Z, ONE]), cat([hdr(35), 1, N0, ONE]), true)
	probe("PackedVector2Array NaN payloads", cat([hdr(35), 1, NANA, ONE]), cat([hdr(35), 1, NANB, ONE]), true)
	probe("PackedVector3Array -0.0", cat([hdr(36), 1, Z, ONE, ONE]), cat([hdr(36), 1, N0, ONE, ONE]), true)
	probe("PackedVector3Array NaN twice", cat([hdr(36), 1, NANA, ONE, ONE]), cat([hdr(36), 1, NANA, ONE, ONE]), true)
	probe("PackedColorArray -0.0", cat([hdr(37), 1, Z, ONE, ONE, ONE]), cat([hdr(37), 1, N0, ONE, ONE, ONE]), true)
	probe("PackedColorArray NaN twice", cat([hdr(37), 1, NANA, ONE, ONE, ONE]), cat([hdr(37), 1, NANA, ONE, ONE, ONE]), true)
	probe("PackedVector4Array -0.0", cat([hdr(38), 1, Z, ONE, ONE, ONE]), cat([hdr(38), 1, N0, ONE, ONE, ONE]), true)
	probe("PackedVector4Array NaN twice", cat([hdr(38), 1, NANA, ONE, ONE, ONE]), cat([hdr(38), 1, NANA, ONE, ONE, ONE]), true)
	probe("[PackedFloat32Array NaN payloads]", arr([cat([hdr(32), 1, NANA])]), arr([cat([hdr(32), 1, NANB])]), true)
	probe("[PackedFloat32Array -0.0], [0.0]", arr([cat([hdr(32), 1, N0])]), arr([cat([hdr(32), 1, Z])]), true)
	probe("PackedByteArray [1, 2] twice", var_to_bytes(PackedByteArray([1, 2])), var_to_bytes(PackedByteArray([1, 2])), true)
	probe("PackedByteArray [], PackedInt32Array []", var_to_bytes(PackedByteArray()), var_to_bytes(PackedInt32Array()), false)
	probe("PackedInt32Array [1], PackedInt64Array [1]", var_to_bytes(PackedInt32Array([1])), var_to_bytes(PackedInt64Array([1])), false)
	probe("PackedInt64Array [1, 2] twice", var_to_bytes(PackedInt64Array([1, 2])), var_to_bytes(PackedInt64Array([1, 2])), true)
	probe("PackedStringArray [a] twice", var_to_bytes(PackedStringArray(["a"])), var_to_bytes(PackedStringArray(["a"])), true)
	# Node paths, RIDs, objects, callables, signals.
	probe("NodePath a/b twice", var_to_bytes(NodePath("a/b")), var_to_bytes(NodePath("a/b")), true)
	probe("NodePath a/b, a:b", var_to_bytes(NodePath("a/b")), var_to_bytes(NodePath("a:b")), false)
	probe("NodePath /a, a", var_to_bytes(NodePath("/a")), var_to_bytes(NodePath("a")), false)
	probe("NodePath empty twice", var_to_bytes(NodePath("")), var_to_bytes(NodePath("")), true)
	probe("RID 5 twice", cat([hdr(23), ID5]), cat([hdr(23), ID5]), true)
	probe("RID 0 twice", cat([hdr(23), Z64]), cat([hdr(23), Z64]), true)
	probe("object id 5 twice", obj_id(ID5), obj_id(ID5), false)
	probe("null object twice", obj_id(Z64), obj_id(Z64), true)
	# The model decodes a null object as Nil, so it merges these two (a known divergence).
	probe("null object, Nil", obj_id(Z64), var_to_bytes(null), false)
	probe("full object twice", ob, ob, false, true)
	probe("full null object twice", cat([hdr(24), 0]), cat([hdr(24), 0]), true, true)
	probe("Callable twice", var_to_bytes(Callable()), var_to_bytes(Callable()), true)
	probe("Signal twice", signal_bytes(ID5), signal_bytes(ID5), true)
	probe("Signal s/5, s/6", signal_bytes(ID5), signal_bytes("0600000000000000"), false)
	print("%d probes, %d differ from the expectation" % [checked, failures])
	quit(1 if failures else 0)
