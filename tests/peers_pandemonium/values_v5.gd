# Pandemonium v5 and later only: its typed arrays (TYPED_ARRAY, PACKED_TYPED_ARRAY), appended to
# values_pandemonium.gd's list (same fields) when the engine is v5 or later. A separate script
# because v4.9 cannot parse TypedArray. The Godot 4 side: expected_pandemonium.gd, era 5.
extends Reference


## A TypedArray of the type named type_name holding items. (A TypedArray() written in the script
## is one constant shared by every call: build each from a variable type name instead.)
static func typed(type_name, items):
	var t = TypedArray(type_name, [])
	for x in items:
		if not t.push_back(x):
			printerr("values_v5.gd: TypedArray(%s) refused %s" % [type_name, str(x)])
	return t


static func packed_typed(type_name, items):
	var t = PackedTypedArray(typed(type_name, []))
	t.set_type_from_name(type_name)
	for x in items:
		if not t.push_back(x):
			printerr("values_v5.gd: PackedTypedArray(%s) refused %s" % [type_name, str(x)])
	return t


func values(keep):
	var obj = Reference.new()
	keep.append(obj)
	var v = []
	v.append(["typed_array_int", typed("int", [1, -2, 9223372036854775807]), "small", ""])
	v.append(["typed_array_string", typed("String", ["a", "", "é日本🎼"]), "small", ""])
	v.append(["typed_array_string_name", typed("StringName", [StringName("x"), StringName("")]), "small", ""])
	v.append(["typed_array_vector2i", typed("Vector2i", [Vector2i(1, 2), Vector2i(-3, -4)]), "small", ""])
	v.append(["typed_array_vector4", typed("Vector4", [Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8)]), "small",
			"nested Vector4: the decoder advances 12 bytes past one, not 16"])
	v.append(["typed_array_array", typed("Array", [[1, "a"], [], [[2]]]), "small", ""])
	v.append(["typed_array_dictionary", typed("Dictionary", [{"k": 1}, {}]), "small", ""])
	v.append(["typed_array_pool_int", typed("PoolIntArray", [PoolIntArray([1, 2]), PoolIntArray()]), "small", ""])
	v.append(["typed_array_empty_float", typed("float", []), "small", ""])
	# Type Nil: Pandemonium's untyped TypedArray (it takes no items).
	v.append(["typed_array_nil", TypedArray(), "small", ""])
	v.append(["typed_array_objects_as_ids", [typed("Reference", [obj, null]), obj.get_instance_id()], "small", ""])
	v.append(["packed_typed_array_float", packed_typed("float", [1.5, -2.0, 0.1]), "small", ""])
	v.append(["packed_typed_array_vector3i", packed_typed("Vector3i", [Vector3i(1, 2, 3)]), "small", ""])
	v.append(["typed_arrays_nested", {
		"ints": typed("int", [1, 2]),
		"lists": [typed("String", ["x"]), typed("Vector2", [Vector2(0.5, 1)])],
		typed("int", [7]): "a typed array as a key",
	}, "small", ""])
	return v


## The Rust echo of a value: FastVarCodec decodes each to a Godot 4 value and writes that back,
## and some Pandemonium types share one Godot 4 form: TypedArray(Vector2i/3i/4i) and the
## Vector2i/3i/4i pools are all Array[Vector2i/3i/4i] (written back as the pool), a
## PackedTypedArray is a typed Array like a TypedArray (written back as a TypedArray), and a
## TypedArray of type Nil is a plain Array.
func echo_of(name, v):
	match name:
		"typed_array_vector2i":
			return PoolVector2iArray(items(v))
		"typed_array_nil":
			return []
		"packed_typed_array_float":
			return typed("float", items(v))
		"packed_typed_array_vector3i":
			return PoolVector3iArray(items(v))
	return v


static func items(a):
	var out = []
	for i in range(a.size()):
		out.append(a[i])
	return out


func has_check(name):
	return name == "typed_array_objects_as_ids"


## [TypedArray(Reference) of [obj, null], obj's id]: the objects travel as ids.
func check(name, expected, got):
	if name != "typed_array_objects_as_ids":
		return "no check for " + name
	if typeof(got) != TYPE_ARRAY or got.size() != 2 or typeof(got[0]) != TYPE_TYPED_ARRAY:
		return "expected [TypedArray, id], got " + str(got)
	var a = got[0]
	if a.get_variant_type() != TYPE_OBJECT or a.size() != 2:
		return "expected an Object-typed TypedArray of 2, got %s (%s)" % [str(a), a.get_typename_string()]
	if not (a[0] is EncodedObjectAsID) or a[0].get_object_id() != expected[1] or a[1] != null:
		return "expected [EncodedObjectAsID(%d), null], got %s" % [expected[1], str(a)]
	if typeof(got[1]) != TYPE_INT or got[1] != expected[1]:
		return "id %s, expected %d" % [str(got[1]), expected[1]]
	return ""
