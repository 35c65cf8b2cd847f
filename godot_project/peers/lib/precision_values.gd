extends RefCounted
## The values a double-precision and a single-precision Godot 4 exchange in the precision peer
## test (peers/double_server.gd, peers/double_client.gd). Both engines build them from the same
## literals, so each side knows what the other must have sent.


## Values whose real_t components are exact in binary32: each engine holds them exactly, so the
## single-precision side can send them with PRECISION_DOUBLE and the double-precision engine must
## read exactly these.
static func exact() -> Array:
	var t3 := Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, -2)), Vector3(1e10, -3.25, 7))
	var pv3 := PackedVector3Array()
	for i in 64:
		pv3.append(Vector3(i, -i * 0.5, i * 1024))
	var typed_v2: Array[Vector2] = [Vector2(1, 2), Vector2(-0.25, 8388608)]
	return [
		["vector2", Vector2(1.5, -2.25)],
		["vector2/large", Vector2(16777216, -1e10)],
		["vector3", Vector3(0.5, 1024, -65536)],
		["vector4", Vector4(1, 2, 3, 4.75)],
		["rect2", Rect2(1, 2, 3.5, 4.25)],
		["transform2d", Transform2D(Vector2(1, 0.5), Vector2(-0.5, 1), Vector2(100, 200))],
		["plane", Plane(Vector3(0, 1, 0), 12.5)],
		["quaternion", Quaternion(0, 0, 0.5, 0.75)],
		["aabb", AABB(Vector3(-1, -2, -3), Vector3(4, 5, 6))],
		["basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))],
		["transform3d", t3],
		["projection", Projection(Vector4(1, 0, 0, 0), Vector4(0, 2, 0, 0), Vector4(0, 0, 3, 1), Vector4(0.5, 0, 0, 0))],
		["packed_vector2_array", PackedVector2Array([Vector2(1, 2), Vector2(3, 4.5)])],
		["packed_vector3_array/64", pv3],
		["packed_vector4_array", PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-1, -2, -3, -4)])],
		["float/0.1 (a float, binary64 in every engine)", 0.1],
		["color (binary32 in every engine)", Color(0.25, 0.5, 0.75, 1)],
		["array/typed_vector2", typed_v2],
		["dictionary/nested", {"pos": Vector3(1, 2, 3), "path": [Vector2(0.5, 0.5), Rect2(0, 0, 8, 8)], 7: t3}],
	]


## Values that need binary64: only a double-precision engine holds them; the single-precision side
## narrows them as its own engine would (round to nearest), which is what the same literals give it.
static func wide() -> Array:
	return [
		["vector2/0.1", Vector2(0.1, -0.2)],
		["vector3/1e300", Vector3(1e300, 1e-300, 0.3)],
		["transform3d/origin_1e15", Transform3D(Basis.IDENTITY, Vector3(1e15 + 0.5, 0.1, -0.7))],
		["packed_vector3_array/0.1", PackedVector3Array([Vector3(0.1, 0.2, 0.3), Vector3(1e20, 1, 2)])],
		["array/nested_rect2", [Rect2(0.1, 0.2, 0.3, 0.4), {"q": Quaternion(0.1, 0.2, 0.3, 0.9)}]],
	]
