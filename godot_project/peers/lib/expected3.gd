extends RefCounted
## The Godot 3 peers' own values (tests/peers/values3.gd), written as the Godot 4 values they must
## decode to. Same order and names as values3.gd: keep the two lists in step.

const Peer := preload("res://peers/lib/peer_common.gd")


## [[name, value, kind], ...]; kind as in values3.gd: "small" (sent over UDP too), "large", "full".
## "object_as_id" and "full_object" hold placeholders: check() knows what they must be.
static func values() -> Array:
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
	v.append(["vector2", Vector2(1.5, -2.25), "small"])
	v.append(["rect2", Rect2(1, 2, 3, 4.5), "small"])
	v.append(["vector3", Vector3(0.1, 0.2, 0.3), "small"])
	v.append(["transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)), "small"])
	v.append(["plane", Plane(1, 2, 3, 4), "small"])
	v.append(["quat", Quaternion(0.1, 0.2, 0.3, 0.9), "small"])
	v.append(["aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), "small"])
	v.append(["basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), "small"])
	v.append(["transform", Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2)), Vector3(10, 11, 12)), "small"])
	v.append(["color", Color(0.1, 0.2, 0.3, 0.4), "small"])
	v.append(["node_path_absolute", NodePath("/root/Main/Player:position:x"), "small"])
	v.append(["node_path_relative", NodePath("../Sibling/Child"), "small"])
	v.append(["node_path_empty", NodePath(""), "small"])
	v.append(["rid", RID(), "small"])
	v.append(["object_as_id", null, "small"])
	v.append(["pool_byte_array", PackedByteArray([0, 1, 2, 127, 128, 255]), "small"])
	v.append(["pool_int_array", PackedInt32Array([1, -2, 2147483647, -2147483648]), "small"])
	v.append(["pool_real_array", PackedFloat32Array([1.5, -0.1, 1e30]), "small"])
	v.append(["pool_string_array", PackedStringArray(["a", "", "é日本"]), "small"])
	v.append(["pool_vector2_array", PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]), "small"])
	v.append(["pool_vector3_array", PackedVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)]), "small"])
	v.append(["pool_color_array", PackedColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]), "small"])
	v.append(["pool_arrays_empty", [PackedByteArray(), PackedInt32Array(), PackedFloat32Array(), PackedStringArray(),
			PackedVector2Array(), PackedVector3Array(), PackedColorArray()], "small"])
	v.append(["array", [1, "two", 3.0, [4, [5, [6]]], {"x": null}], "small"])
	v.append(["array_empty", [], "small"])
	v.append(["dictionary", {"a": 1, 2: "b", Vector2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": PackedInt32Array([1, 2])}]}}, "small"])
	v.append(["dictionary_empty", {}, "small"])
	v.append(["nested_game_state", {
		"players": [
			{"name": "ann", "pos": Vector3(1, 2, 3), "inventory": PackedStringArray(["sword", "shield"]),
				"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1)},
			{"name": "bob", "pos": Vector3(-4, 0, 8.25), "inventory": PackedStringArray(),
				"stats": {"hp": 0, "mp": 0.0}, "path": NodePath("Players/bob")},
		],
		"map": {"tiles": PackedInt32Array([0, 1, 1, 2, 3, 5, 8]), "spawn": [Vector2(0, 0), Vector2(10, -5)],
			"bounds": Rect2(-100, -100, 200, 200)},
		"meta": [[], {}, [[[1]]], null, true],
	}, "small"])
	v.append(["big_bytes", big_bytes(), "large"])
	v.append(["big_string", big_string(), "large"])
	v.append(["big_array", big_array(), "large"])
	v.append(["big_dictionary", big_dictionary(), "large"])
	v.append(["full_object", null, "full"])
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
		match i % 4:
			0: a[i] = i * 7
			1: a[i] = i * 0.5
			2: a[i] = str(i)
			3: a[i] = Vector2(i, -i)
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
	return {"ints": ints, "v3": v3, "reals": reals, "colors": colors}


## "" when got is what the Godot 3 peer's value `name` must decode to; else why not.
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
	if name == "full_object":
		# ["res", a Resource named "fvc_res"], sent by Godot 3 as a full object.
		if not (got is Array) or got.size() != 2 or not (got[0] is String) or got[0] != "res":
			return "expected [\"res\", Resource], got " + Peer.show(got)
		if not (got[1] is Resource):
			return "item 1 is not a Resource: " + Peer.show(got[1])
		if got[1].resource_name != "fvc_res":
			return "resource_name is %s" % got[1].resource_name
		return ""
	return Peer.why_not_same(expected, got)
