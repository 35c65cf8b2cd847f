extends RefCounted
## The Godot 3 peers' own values (tests/peers/values3.gd), written as the Godot 4 values they must
## decode to. Same order and names as values3.gd: keep the two lists in step. What the Godot 3
## family shares is in expected_common.gd.

const Common := preload("res://peers/lib/expected_common.gd")


## [[name, value, kind], ...]; kind as in values3.gd: "small" (sent over UDP too), "large", "full".
## "object_as_id" and "full_object" hold placeholders: check() knows what they must be.
static func values() -> Array:
	var v := Common.scalars()
	v += [
		Common.small("vector2", Vector2(1.5, -2.25)),
		Common.small("rect2", Rect2(1, 2, 3, 4.5)),
		Common.small("vector3", Vector3(0.1, 0.2, 0.3)),
		Common.small("transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))),
		Common.small("plane", Plane(1, 2, 3, 4)),
		Common.small("quat", Quaternion(0.1, 0.2, 0.3, 0.9)),
		Common.small("aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))),
		Common.small("basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))),
		Common.small("transform", Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2)), Vector3(10, 11, 12))),
		Common.small("color", Color(0.1, 0.2, 0.3, 0.4))]
	v += Common.paths_and_ids()
	v += [
		Common.small("pool_byte_array", PackedByteArray([0, 1, 2, 127, 128, 255])),
		Common.small("pool_int_array", PackedInt32Array([1, -2, 2147483647, -2147483648])),
		Common.small("pool_real_array", PackedFloat32Array([1.5, -0.1, 1e30])),
		Common.small("pool_string_array", PackedStringArray(["a", "", "é日本"])),
		Common.small("pool_vector2_array", PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])),
		Common.small("pool_vector3_array", PackedVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)])),
		Common.small("pool_color_array", PackedColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)])),
		Common.small("pool_arrays_empty", [PackedByteArray(), PackedInt32Array(), PackedFloat32Array(), PackedStringArray(),
				PackedVector2Array(), PackedVector3Array(), PackedColorArray()])]
	v += Common.containers()
	# bob's "mp" is a negative zero (inside a nested Dictionary).
	v.append(Common.small("nested_game_state", {
		"players": [
			{"name": "ann", "pos": Vector3(1, 2, 3), "inventory": PackedStringArray(["sword", "shield"]),
				"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1)},
			{"name": "bob", "pos": Vector3(-4, 0, 8.25), "inventory": PackedStringArray(),
				"stats": {"hp": 0, "mp": -0.0}, "path": NodePath("Players/bob")},
		],
		"map": {"tiles": PackedInt32Array([0, 1, 1, 2, 3, 5, 8]), "spawn": [Vector2(0, 0), Vector2(10, -5)],
			"bounds": Rect2(-100, -100, 200, 200)},
		"meta": [[], {}, [[[1]]], null, true],
	}))
	v += Common.large_and_full(Common.big_array([func(i): return Vector2(i, -i)]), Common.big_dictionary())
	return v


## "" when got is what the Godot 3 peer's value `name` must decode to; else why not.
static func check(name: String, expected, got) -> String:
	return Common.check(name, expected, got)
