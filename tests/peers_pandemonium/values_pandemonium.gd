# The Pandemonium peers' own values (Pandemonium GDScript; runs on v4.9.0 and v5.2.0), shared by
# pandemonium_server.gd (sends them to the Godot 4 client) and pandemonium_client.gd (sends them to
# the Rust echo server). The Godot 4 side writes the same values as Godot 4 values in
# godot_project/peers/lib/expected_pandemonium.gd: keep the two lists in step (same order, same
# names). On v5 and later, values_v5.gd adds typed arrays at the end.
#
# Every Pandemonium Variant type (Godot 3's, and Rect2i, Vector2i, Vector3i, Vector4, Vector4i,
# Projection, StringName, the Vector2i/3i/4/4i pools), nested containers, and large values
# (>= 1 MiB each) that a TCP stream delivers in many reads; the entries the Godot 3 family
# shares are in res://godot3_lib/peer_values.gd.
extends "res://godot3_lib/peer_values.gd"

var v5 = null


func _init():
	if Engine.get_version_info().major >= 5:
		# Typed arrays: a separate script, which v4.9 could not even parse.
		v5 = load("res://values_v5.gd").new()


## [[name, value, kind, readback], ...] (peer_values.gd says what the fields are; a readback note
## names a known engine bug: docs/wire_format.md#pandemonium-decoder-bugs).
func values():
	var v = scalars()
	v += [
		small("rect2", Rect2(1, 2, 3, 4.5)),
		small("rect2i", rect2i(1, -2, 3, 2147483647)),
		small("vector2", Vector2(1.5, -2.25)),
		small("vector2i", Vector2i(-7, 2147483647)),
		small("vector3", Vector3(0.1, 0.2, 0.3)),
		small("vector3i", Vector3i(1, -2, -2147483648)),
		small("vector4", Vector4(1.5, -2, 0.25, 1e10)),
		small("vector4i", Vector4i(1, -2, 3, -4)),
		small("plane", Plane(1, 2, 3, 4)),
		small("quaternion", Quaternion(0.1, 0.2, 0.3, 0.9)),
		small("aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))),
		small("basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))),
		small("transform", Transform(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2)), Vector3(10, 11, 12))),
		small("transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))),
		small("projection", projection(), "Projection: the decoder wants 248 bytes for its 64"),
		small("color", Color(0.1, 0.2, 0.3, 0.4))]
	v += paths_and_ids()
	v += [
		small("string_name", StringName("fvc_name é日本")),
		small("string_name_empty", StringName("")),
		small("pool_byte_array", PoolByteArray([0, 1, 2, 127, 128, 255])),
		small("pool_int_array", PoolIntArray([1, -2, 2147483647, -2147483648])),
		small("pool_real_array", PoolRealArray([1.5, -0.1, 1e30])),
		small("pool_string_array", PoolStringArray(["a", "", "é日本"])),
		small("pool_vector2_array", PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])),
		small("pool_vector2i_array", PoolVector2iArray([Vector2i(1, 2), Vector2i(-3, 2147483647)])),
		small("pool_vector3_array", PoolVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)])),
		small("pool_vector3i_array", PoolVector3iArray([Vector3i(1, 2, 3), Vector3i(-4, 0, -2147483648)])),
		small("pool_vector4_array", PoolVector4Array([Vector4(1, 2, 3, 4), Vector4(-0.5, 0, 1e10, 8)]),
				"PoolVector4Array: the decoder reads w from the z slot"),
		# The encoder writes z into the w slot: the Godot 4 side expects (1, 2, 3, 3), (-5, 6, -7, -7).
		small("pool_vector4i_array", PoolVector4iArray([Vector4i(1, 2, 3, 4), Vector4i(-5, 6, -7, 8)]),
				"PoolVector4iArray: the decoder reads w from the z slot"),
		small("pool_color_array", PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)])),
		small("pool_arrays_empty", [PoolByteArray(), PoolIntArray(), PoolRealArray(), PoolStringArray(),
				PoolVector2Array(), PoolVector2iArray(), PoolVector3Array(), PoolVector3iArray(),
				PoolVector4Array(), PoolVector4iArray(), PoolColorArray()])]
	v += containers()
	# Pandemonium's own types inside containers (the encoder writes them right; the decoder
	# misreads what follows a nested Vector4/Vector4i and wants 248 bytes for a Projection).
	v.append(small("pandemonium_types_nested", {
		StringName("sn_key"): [Vector2i(1, 2), rect2i(-1, -2, 3, 4), Vector3i(5, 6, 7), StringName("sn")],
		Vector2i(3, 4): {"v4": Vector4(1, 2, 3, 4), "v4i": Vector4i(-1, -2, -3, -4), "after": "still read right?"},
		"projection": [projection(), "then more"],
		"pools": [PoolVector2iArray([Vector2i(9, 8)]), PoolVector3iArray([Vector3i(7, 6, 5)])],
	}, "nested Vector4/Vector4i: the decoder advances 12 bytes past one, not 16"))
	# bob's "mp" is a negative zero (inside a nested Dictionary).
	v.append(small("nested_game_state", {
		"players": [
			{"name": "ann", "pos": Vector3(1, 2, 3), "cell": Vector2i(4, 5), "inventory": PoolStringArray(["sword", "shield"]),
				"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1), "tag": StringName("red")},
			{"name": "bob", "pos": Vector3(-4, 0, 8.25), "cell": Vector2i(-1, 0), "inventory": PoolStringArray(),
				"stats": {"hp": 0, "mp": -0.0}, "path": NodePath("Players/bob"), "tag": StringName("blue")},
		],
		"map": {"tiles": PoolIntArray([0, 1, 1, 2, 3, 5, 8]), "spawn": PoolVector2iArray([Vector2i(0, 0), Vector2i(10, -5)]),
			"bounds": rect2i(-100, -100, 200, 200), "chunks": PoolVector3iArray([Vector3i(0, 0, 0), Vector3i(1, 0, -1)])},
		"meta": [[], {}, [[[1]]], null, true],
	}))
	v += large_and_full()
	if v5 != null:
		v += v5.values(keep)
	return v


## Rect2i has no four-int constructor in v4.9.0.
static func rect2i(x, y, w, h):
	var r = Rect2i()
	r.position = Vector2i(x, y)
	r.size = Vector2i(w, h)
	return r


## Projection has no four-Vector4 constructor in v4.9.0.
static func projection():
	var p = Projection()
	p.x = Vector4(1, 2, 3, 4)
	p.y = Vector4(5, 6, 7, 8.5)
	p.z = Vector4(-9, 10, 11, 12)
	p.w = Vector4(13, 14, 15, 1e10)
	return p


func big_array_kinds():
	return 2


func big_array_item(i, k):
	if k == 3:
		return Vector2i(i, -i)
	return StringName("n" + str(i % 100))


func big_dictionary_own(d):
	var v2i = PoolVector2iArray()
	v2i.resize(100000)
	for i in range(100000):
		v2i[i] = Vector2i(i, -3 * i)
	d["v2i"] = v2i


## What the Rust echo server sends back: the value itself, but for the v5 typed arrays whose
## Godot 4 form is shared with another Pandemonium type.
func echo_of(name, v):
	if v5 != null:
		return v5.echo_of(name, v)
	return v


func check_own(name, expected, got):
	if v5 != null and v5.has_check(name):
		return v5.check(name, expected, got)
	return null
