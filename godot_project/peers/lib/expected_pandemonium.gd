extends RefCounted
## The Pandemonium peers' own values (tests/peers_pandemonium/values_pandemonium.gd, and
## values_v5.gd on v5), written as the Godot 4 values they must decode to. Same order and names
## as there: keep the lists in step.
##
## Pandemonium's POOL_VECTOR2I/3I/4I_ARRAY become Array[Vector2i/3i/4i] (Godot 4 has no packed
## int-vector arrays); its TYPED_ARRAY and PACKED_TYPED_ARRAY become typed Arrays; a TypedArray
## of type Nil becomes a plain Array.

const Peer := preload("res://peers/lib/peer_common.gd")


static func v2i(items: Array) -> Array:
	return Array(items, TYPE_VECTOR2I, &"", null)


static func v3i(items: Array) -> Array:
	return Array(items, TYPE_VECTOR3I, &"", null)


static func v4i(items: Array) -> Array:
	return Array(items, TYPE_VECTOR4I, &"", null)


static func typed(type: int, items: Array) -> Array:
	return Array(items, type, &"", null)


static func projection() -> Projection:
	return Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8.5), Vector4(-9, 10, 11, 12), Vector4(13, 14, 15, 1e10))


## [[name, value, kind], ...] for a server of `era` (4: v3.8.0–v4.9.0, 5: v5.0.0+); kind as in
## values_pandemonium.gd: "small" (sent over UDP too), "large", "full". Names check() knows hold
## placeholders.
static func values(era: int) -> Array:
	var v := []
	v.append(["nil", null, "small"])
	v.append(["bool_true", true, "small"])
	v.append(["bool_false", false, "small"])
	v.append(["int_0", 0, "small"])
	v.append(["int_negative", -123456, "small"])
	v.append(["int_max32", 2147483647, "small"])
	v.append(["int_above_32", 2147483648, "small"])
	v.append(["int_max64", 9223372036854775807, "small"])
	v.append(["int_min64", -9223372036854775807 - 1, "small"])
	v.append(["float_half", 0.5, "small"])
	v.append(["float_tenth", 0.1, "small"])
	v.append(["float_negative_zero", -0.0, "small"])
	v.append(["float_1e300", 1e300, "small"])
	v.append(["float_inf", INF, "small"])
	v.append(["float_negative_inf", -INF, "small"])
	v.append(["float_nan", NAN, "small"])
	v.append(["string_empty", "", "small"])
	v.append(["string_ascii", "hello, Godot 4", "small"])
	v.append(["string_unicode", "é日本🎼 \"q\" \\ \t\n", "small"])
	v.append(["rect2", Rect2(1, 2, 3, 4.5), "small"])
	v.append(["rect2i", Rect2i(1, -2, 3, 2147483647), "small"])
	v.append(["vector2", Vector2(1.5, -2.25), "small"])
	v.append(["vector2i", Vector2i(-7, 2147483647), "small"])
	v.append(["vector3", Vector3(0.1, 0.2, 0.3), "small"])
	v.append(["vector3i", Vector3i(1, -2, -2147483648), "small"])
	v.append(["vector4", Vector4(1.5, -2, 0.25, 1e10), "small"])
	v.append(["vector4i", Vector4i(1, -2, 3, -4), "small"])
	v.append(["plane", Plane(1, 2, 3, 4), "small"])
	v.append(["quaternion", Quaternion(0.1, 0.2, 0.3, 0.9), "small"])
	v.append(["aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), "small"])
	v.append(["basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), "small"])
	v.append(["transform", Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2)), Vector3(10, 11, 12)), "small"])
	v.append(["transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)), "small"])
	v.append(["projection", projection(), "small"])
	v.append(["color", Color(0.1, 0.2, 0.3, 0.4), "small"])
	v.append(["node_path_absolute", NodePath("/root/Main/Player:position:x"), "small"])
	v.append(["node_path_relative", NodePath("../Sibling/Child"), "small"])
	v.append(["node_path_empty", NodePath(""), "small"])
	v.append(["rid", RID(), "small"])
	v.append(["object_as_id", null, "small"])
	v.append(["string_name", &"fvc_name é日本", "small"])
	v.append(["string_name_empty", &"", "small"])
	v.append(["pool_byte_array", PackedByteArray([0, 1, 2, 127, 128, 255]), "small"])
	v.append(["pool_int_array", PackedInt32Array([1, -2, 2147483647, -2147483648]), "small"])
	v.append(["pool_real_array", PackedFloat32Array([1.5, -0.1, 1e30]), "small"])
	v.append(["pool_string_array", PackedStringArray(["a", "", "é日本"]), "small"])
	v.append(["pool_vector2_array", PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]), "small"])
	v.append(["pool_vector2i_array", v2i([Vector2i(1, 2), Vector2i(-3, 2147483647)]), "small"])
	v.append(["pool_vector3_array", PackedVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)]), "small"])
	v.append(["pool_vector3i_array", v3i([Vector3i(1, 2, 3), Vector3i(-4, 0, -2147483648)]), "small"])
	v.append(["pool_vector4_array", PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-0.5, 0, 1e10, 8)]), "small"])
	# Pandemonium's encoder writes z into the w slot of a PoolVector4iArray (docs/wire_format.md#pandemonium-decoder-bugs):
	# the engine sent (1, 2, 3, 4), (-5, 6, -7, 8).
	v.append(["pool_vector4i_array", v4i([Vector4i(1, 2, 3, 3), Vector4i(-5, 6, -7, -7)]), "small"])
	v.append(["pool_color_array", PackedColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]), "small"])
	v.append(["pool_arrays_empty", [PackedByteArray(), PackedInt32Array(), PackedFloat32Array(), PackedStringArray(),
			PackedVector2Array(), v2i([]), PackedVector3Array(), v3i([]), PackedVector4Array(), v4i([]),
			PackedColorArray()], "small"])
	v.append(["array", [1, "two", 3.0, [4, [5, [6]]], {"x": null}], "small"])
	v.append(["array_empty", [], "small"])
	v.append(["dictionary", {"a": 1, 2: "b", Vector2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": PackedInt32Array([1, 2])}]}}, "small"])
	v.append(["dictionary_empty", {}, "small"])
	v.append(["pandemonium_types_nested", {
		&"sn_key": [Vector2i(1, 2), Rect2i(-1, -2, 3, 4), Vector3i(5, 6, 7), &"sn"],
		Vector2i(3, 4): {"v4": Vector4(1, 2, 3, 4), "v4i": Vector4i(-1, -2, -3, -4), "after": "still read right?"},
		"projection": [projection(), "then more"],
		"pools": [v2i([Vector2i(9, 8)]), v3i([Vector3i(7, 6, 5)])],
	}, "small"])
	v.append(["nested_game_state", {
		"players": [
			{"name": "ann", "pos": Vector3(1, 2, 3), "cell": Vector2i(4, 5), "inventory": PackedStringArray(["sword", "shield"]),
				"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1), "tag": &"red"},
			{"name": "bob", "pos": Vector3(-4, 0, 8.25), "cell": Vector2i(-1, 0), "inventory": PackedStringArray(),
				"stats": {"hp": 0, "mp": 0.0}, "path": NodePath("Players/bob"), "tag": &"blue"},
		],
		"map": {"tiles": PackedInt32Array([0, 1, 1, 2, 3, 5, 8]), "spawn": v2i([Vector2i(0, 0), Vector2i(10, -5)]),
			"bounds": Rect2i(-100, -100, 200, 200), "chunks": v3i([Vector3i(0, 0, 0), Vector3i(1, 0, -1)])},
		"meta": [[], {}, [[[1]]], null, true],
	}, "small"])
	v.append(["big_bytes", big_bytes(), "large"])
	v.append(["big_string", big_string(), "large"])
	v.append(["big_array", big_array(), "large"])
	v.append(["big_dictionary", big_dictionary(), "large"])
	v.append(["full_object", null, "full"])
	if era >= 5:
		v.append(["typed_array_int", typed(TYPE_INT, [1, -2, 9223372036854775807]), "small"])
		v.append(["typed_array_string", typed(TYPE_STRING, ["a", "", "é日本🎼"]), "small"])
		v.append(["typed_array_string_name", typed(TYPE_STRING_NAME, [&"x", &""]), "small"])
		v.append(["typed_array_vector2i", v2i([Vector2i(1, 2), Vector2i(-3, -4)]), "small"])
		v.append(["typed_array_vector4", typed(TYPE_VECTOR4, [Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8)]), "small"])
		v.append(["typed_array_array", typed(TYPE_ARRAY, [[1, "a"], [], [[2]]]), "small"])
		v.append(["typed_array_dictionary", typed(TYPE_DICTIONARY, [{"k": 1}, {}]), "small"])
		v.append(["typed_array_pool_int", typed(TYPE_PACKED_INT32_ARRAY, [PackedInt32Array([1, 2]), PackedInt32Array()]), "small"])
		v.append(["typed_array_empty_float", typed(TYPE_FLOAT, []), "small"])
		v.append(["typed_array_nil", [], "small"])
		v.append(["typed_array_objects_as_ids", null, "small"])
		# A PackedTypedArray of floats keeps them as 32-bit real_t: the engine sent 0.1 as the
		# binary32 nearest to it.
		v.append(["packed_typed_array_float", typed(TYPE_FLOAT, [1.5, -2.0, PackedFloat32Array([0.1])[0]]), "small"])
		v.append(["packed_typed_array_vector3i", v3i([Vector3i(1, 2, 3)]), "small"])
		v.append(["typed_arrays_nested", {
			"ints": typed(TYPE_INT, [1, 2]),
			"lists": [typed(TYPE_STRING, ["x"]), typed(TYPE_VECTOR2, [Vector2(0.5, 1)])],
			typed(TYPE_INT, [7]): "a typed array as a key",
		}, "small"])
	return v


static func big_bytes() -> PackedByteArray:
	var spb := StreamPeerBuffer.new()
	for k in 393217:
		spb.put_u32((k * 2654435761 + 12345) & 0xFFFFFFFF)
	return spb.data_array


static func big_string() -> String:
	var lines := PackedStringArray()
	for i in 60000:
		lines.append(str(i) + " é日本🎼 line\n")
	return "".join(lines)


static func big_array() -> Array:
	var a := []
	a.resize(100000)
	for i in 100000:
		match i % 5:
			0: a[i] = i * 7
			1: a[i] = i * 0.5
			2: a[i] = str(i)
			3: a[i] = Vector2i(i, -i)
			4: a[i] = StringName("n" + str(i % 100))
	return a


static func big_dictionary() -> Dictionary:
	var ints := PackedInt32Array()
	ints.resize(300000)
	for i in 300000:
		ints[i] = (i * 7919) % 2000003 - 1000000
	var v3 := PackedVector3Array()
	v3.resize(100000)
	for i in 100000:
		v3[i] = Vector3(i, i * 0.25, -i)
	var reals := PackedFloat32Array()
	reals.resize(100000)
	for i in 100000:
		reals[i] = i * 0.125
	var colors := PackedColorArray()
	colors.resize(50000)
	for i in 50000:
		colors[i] = Color((i % 256) / 256.0, ((i >> 8) % 256) / 256.0, 0.5, 1.0)
	var v2 := []
	v2.resize(100000)
	for i in 100000:
		v2[i] = Vector2i(i, -3 * i)
	return {"ints": ints, "v3": v3, "reals": reals, "colors": colors, "v2i": v2i(v2)}


## "" when got is what the Pandemonium peer's value `name` must decode to; else why not.
static func check(name: String, expected, got) -> String:
	if name == "object_as_id":
		# [object, its instance id]: the object travels as its id.
		if not (got is Array) or got.size() != 2:
			return "expected [EncodedObjectAsID, id], got " + Peer.show(got)
		if not (got[0] is EncodedObjectAsID):
			return "item 0 is not an EncodedObjectAsID: " + Peer.show(got[0])
		if not (got[1] is int) or got[1] == 0 or got[0].get_object_id() != got[1]:
			return "object id %s, instance id %s" % [str(got[0].get_object_id()), str(got[1])]
		return ""
	if name == "typed_array_objects_as_ids":
		# [TypedArray(Reference) of [object, null], the object's id]: sent as ids, the typed
		# array names no class (header flag), so it is typed EncodedObjectAsID here.
		if not (got is Array) or got.size() != 2 or not (got[0] is Array) or not (got[1] is int):
			return "expected [Array[EncodedObjectAsID], id], got " + Peer.show(got)
		var a: Array = got[0]
		if a.get_typed_builtin() != TYPE_OBJECT or a.get_typed_class_name() != &"EncodedObjectAsID":
			return "item 0 is typed %s / %s, expected Object / EncodedObjectAsID" % [type_string(a.get_typed_builtin()), a.get_typed_class_name()]
		if a.size() != 2 or not (a[0] is EncodedObjectAsID) or a[0].get_object_id() != got[1] or a[1] != null:
			return "expected [EncodedObjectAsID(%d), null], got %s" % [got[1], Peer.show(a)]
		return ""
	if name == "full_object":
		# ["res", a Resource named "fvc_res"], sent by Pandemonium as a full object.
		if not (got is Array) or got.size() != 2 or not (got[0] is String) or got[0] != "res":
			return "expected [\"res\", Resource], got " + Peer.show(got)
		if not (got[1] is Resource):
			return "item 1 is not a Resource: " + Peer.show(got[1])
		if got[1].resource_name != "fvc_res":
			return "resource_name is %s" % got[1].resource_name
		return ""
	return Peer.why_not_same(expected, got)
