extends RefCounted
## The Pandemonium peers' own values (tests/peers_pandemonium/values_pandemonium.gd, and
## values_v5.gd on v5), written as the Godot 4 values they must decode to. Same order and names
## as there: keep the lists in step. What the Godot 3 family shares is in expected_common.gd.
##
## Pandemonium's POOL_VECTOR2I/3I/4I_ARRAY become Array[Vector2i/3i/4i] (Godot 4 has no packed
## int-vector arrays); its TYPED_ARRAY and PACKED_TYPED_ARRAY become typed Arrays; a TypedArray
## of type Nil becomes a plain Array.

const Peer := preload("res://peers/lib/peer_common.gd")
const Common := preload("res://peers/lib/expected_common.gd")


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
	var v := Common.scalars()
	v += [
		Common.small("rect2", Rect2(1, 2, 3, 4.5)),
		Common.small("rect2i", Rect2i(1, -2, 3, 2147483647)),
		Common.small("vector2", Vector2(1.5, -2.25)),
		Common.small("vector2i", Vector2i(-7, 2147483647)),
		Common.small("vector3", Vector3(0.1, 0.2, 0.3)),
		Common.small("vector3i", Vector3i(1, -2, -2147483648)),
		Common.small("vector4", Vector4(1.5, -2, 0.25, 1e10)),
		Common.small("vector4i", Vector4i(1, -2, 3, -4)),
		Common.small("plane", Plane(1, 2, 3, 4)),
		Common.small("quaternion", Quaternion(0.1, 0.2, 0.3, 0.9)),
		Common.small("aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))),
		Common.small("basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))),
		Common.small("transform", Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2)), Vector3(10, 11, 12))),
		Common.small("transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))),
		Common.small("projection", projection()),
		Common.small("color", Color(0.1, 0.2, 0.3, 0.4))]
	v += Common.paths_and_ids()
	v += [
		Common.small("string_name", &"fvc_name é日本"),
		Common.small("string_name_empty", &""),
		Common.small("pool_byte_array", PackedByteArray([0, 1, 2, 127, 128, 255])),
		Common.small("pool_int_array", PackedInt32Array([1, -2, 2147483647, -2147483648])),
		Common.small("pool_real_array", PackedFloat32Array([1.5, -0.1, 1e30])),
		Common.small("pool_string_array", PackedStringArray(["a", "", "é日本"])),
		Common.small("pool_vector2_array", PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])),
		Common.small("pool_vector2i_array", v2i([Vector2i(1, 2), Vector2i(-3, 2147483647)])),
		Common.small("pool_vector3_array", PackedVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)])),
		Common.small("pool_vector3i_array", v3i([Vector3i(1, 2, 3), Vector3i(-4, 0, -2147483648)])),
		Common.small("pool_vector4_array", PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-0.5, 0, 1e10, 8)])),
		# Pandemonium's encoder writes z into the w slot of a PoolVector4iArray (docs/wire_format.md#pandemonium-decoder-bugs):
		# the engine sent (1, 2, 3, 4), (-5, 6, -7, 8).
		Common.small("pool_vector4i_array", v4i([Vector4i(1, 2, 3, 3), Vector4i(-5, 6, -7, -7)])),
		Common.small("pool_color_array", PackedColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)])),
		Common.small("pool_arrays_empty", [PackedByteArray(), PackedInt32Array(), PackedFloat32Array(), PackedStringArray(),
				PackedVector2Array(), v2i([]), PackedVector3Array(), v3i([]), PackedVector4Array(), v4i([]),
				PackedColorArray()])]
	v += Common.containers()
	v.append(Common.small("pandemonium_types_nested", {
		&"sn_key": [Vector2i(1, 2), Rect2i(-1, -2, 3, 4), Vector3i(5, 6, 7), &"sn"],
		Vector2i(3, 4): {"v4": Vector4(1, 2, 3, 4), "v4i": Vector4i(-1, -2, -3, -4), "after": "still read right?"},
		"projection": [projection(), "then more"],
		"pools": [v2i([Vector2i(9, 8)]), v3i([Vector3i(7, 6, 5)])],
	}))
	# bob's "mp" is a negative zero (inside a nested Dictionary).
	v.append(Common.small("nested_game_state", {
		"players": [
			{"name": "ann", "pos": Vector3(1, 2, 3), "cell": Vector2i(4, 5), "inventory": PackedStringArray(["sword", "shield"]),
				"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1), "tag": &"red"},
			{"name": "bob", "pos": Vector3(-4, 0, 8.25), "cell": Vector2i(-1, 0), "inventory": PackedStringArray(),
				"stats": {"hp": 0, "mp": -0.0}, "path": NodePath("Players/bob"), "tag": &"blue"},
		],
		"map": {"tiles": PackedInt32Array([0, 1, 1, 2, 3, 5, 8]), "spawn": v2i([Vector2i(0, 0), Vector2i(10, -5)]),
			"bounds": Rect2i(-100, -100, 200, 200), "chunks": v3i([Vector3i(0, 0, 0), Vector3i(1, 0, -1)])},
		"meta": [[], {}, [[[1]]], null, true],
	}))
	v += Common.large_and_full(big_array(), big_dictionary())
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


## Pandemonium's big array cycles through a Vector2i and a StringName too.
static func big_array() -> Array:
	return Common.big_array([func(i): return Vector2i(i, -i), func(i): return StringName("n" + str(i % 100))])


static func big_dictionary() -> Dictionary:
	var d := Common.big_dictionary()
	var v2 := []
	v2.resize(100000)
	for i in 100000:
		v2[i] = Vector2i(i, -3 * i)
	d["v2i"] = v2i(v2)
	return d


## "" when got is what the Pandemonium peer's value `name` must decode to; else why not.
static func check(name: String, expected, got) -> String:
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
	return Common.check(name, expected, got)
