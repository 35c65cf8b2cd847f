# The Godot 3 peers' own values (Godot 3 GDScript; runs on 3.2.3 and 3.6.2), shared by
# godot3_server.gd (sends them to the Godot 4 client) and godot3_client.gd (sends them to the Rust
# echo server). The Godot 4 side writes the same values as Godot 4 values in
# godot_project/peers/lib/expected3.gd: keep the two lists in step (same order, same names).
#
# Every Godot 3 Variant type, nested containers, and large values (>= 1 MiB each) that a TCP
# stream delivers in many reads; the entries the Godot 3 family shares are in
# res://godot3_lib/peer_values.gd.
extends "res://godot3_lib/peer_values.gd"


## [[name, value, kind, readback], ...] (peer_values.gd says what the fields are).
func values():
	var v = scalars()
	v += [
		small("vector2", Vector2(1.5, -2.25)),
		small("rect2", Rect2(1, 2, 3, 4.5)),
		small("vector3", Vector3(0.1, 0.2, 0.3)),
		small("transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))),
		small("plane", Plane(1, 2, 3, 4)),
		small("quat", Quat(0.1, 0.2, 0.3, 0.9)),
		small("aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))),
		small("basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))),
		small("transform", Transform(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2)), Vector3(10, 11, 12))),
		small("color", Color(0.1, 0.2, 0.3, 0.4))]
	v += paths_and_ids()
	v += [
		small("pool_byte_array", PoolByteArray([0, 1, 2, 127, 128, 255])),
		small("pool_int_array", PoolIntArray([1, -2, 2147483647, -2147483648])),
		small("pool_real_array", PoolRealArray([1.5, -0.1, 1e30])),
		small("pool_string_array", PoolStringArray(["a", "", "é日本"])),
		small("pool_vector2_array", PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])),
		small("pool_vector3_array", PoolVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)])),
		small("pool_color_array", PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)])),
		small("pool_arrays_empty", [PoolByteArray(), PoolIntArray(), PoolRealArray(), PoolStringArray(),
				PoolVector2Array(), PoolVector3Array(), PoolColorArray()])]
	v += containers()
	# bob's "mp" is a negative zero (inside a nested Dictionary).
	v.append(small("nested_game_state", {
		"players": [
			{"name": "ann", "pos": Vector3(1, 2, 3), "inventory": PoolStringArray(["sword", "shield"]),
				"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1)},
			{"name": "bob", "pos": Vector3(-4, 0, 8.25), "inventory": PoolStringArray(),
				"stats": {"hp": 0, "mp": -0.0}, "path": NodePath("Players/bob")},
		],
		"map": {"tiles": PoolIntArray([0, 1, 1, 2, 3, 5, 8]), "spawn": [Vector2(0, 0), Vector2(10, -5)],
			"bounds": Rect2(-100, -100, 200, 200)},
		"meta": [[], {}, [[[1]]], null, true],
	}))
	v += large_and_full()
	return v


func big_array_kinds():
	return 1


func big_array_item(i, _k):
	return Vector2(i, -i)
