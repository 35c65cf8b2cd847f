extends RefCounted
## DIALECT_GODOT_4_3 and DIALECT_GODOT_4_0_TO_4_2: bytes for servers still on Godot 4.3 or 4.0–4.2.
## No such engine can be installed here, so the check is the running Godot 4.6.3: the bytes must be
## exactly what it writes for the value with the container types those versions lack dropped
## (Dictionaries untyped for 4.3; Arrays and Dictionaries untyped for 4.0–4.2, which wrote typed
## Arrays as plain ones), and it must read them back as those untyped values. PackedVector4Array
## (added in 4.3) is refused for 4.0–4.2, or sent as an Array of Vector4 under allow_lossy.

const Ctx := preload("res://tests/lib/ctx.gd")

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	var res := Resource.new()
	var typed_ints: Array[int] = [1, 2, 3]
	var typed_vecs: Array[Vector3] = [Vector3(1, 2, 3)]
	var typed_res: Array[Resource] = [res]
	var typed_dict: Dictionary[String, int] = {"a": 1, "b": 2}
	var dict_of_arrays: Dictionary[int, Array] = {1: [typed_ints]}
	var values := {
		"int": 7, "string": "é", "vector3": Vector3(1, 2, 3),
		"array/typed_int": typed_ints,
		"array/typed_vector3": typed_vecs,
		"array/typed_resource_ids": typed_res,
		"dictionary/typed_string_int": typed_dict,
		"dictionary/typed_int_array": dict_of_arrays,
		"nested": {"list": typed_ints, "map": typed_dict, "plain": [typed_vecs, 1]},
		"packed_vector3": PackedVector3Array([Vector3(1, 2, 3)]),
	}
	for dialect in [FastVarCodec.DIALECT_GODOT_4_3, FastVarCodec.DIALECT_GODOT_4_0_TO_4_2]:
		var label := "4.3" if dialect == FastVarCodec.DIALECT_GODOT_4_3 else "4.0-4.2"
		var drop_arrays: bool = dialect == FastVarCodec.DIALECT_GODOT_4_0_TO_4_2
		var codec := FastVarCodec.new()
		codec.dialect = dialect
		t.check(codec.dialect == dialect, label + ": the dialect is set")
		for name in values:
			var v = values[name]
			var expected = untyped(v, drop_arrays)
			var bytes := codec.encode(v)
			t.check(codec.get_error() == OK, "%s %s: encodes" % [label, name], codec.get_error_message())
			t.check_bytes(bytes, var_to_bytes(expected), "%s %s: Godot 4.6.3's bytes for the value without the types %s lacks" % [label, name, label])
			# What 4.6.3 reads from its own bytes of the untyped value (objects travel as ids).
			var read_back = bytes_to_var(var_to_bytes(expected))
			var engine = bytes_to_var(bytes)
			t.check(Ctx.same(engine, read_back), "%s %s: Godot 4.6.3 reads the untyped value" % [label, name],
					func(): return "got %s" % [engine])
			var ours = codec.decode(bytes)
			t.check(Ctx.same(ours, read_back), "%s %s: and so does the codec" % [label, name],
					func(): return "got %s (%s)" % [ours, codec.get_error_message()])
		var pv4 := PackedVector4Array([Vector4(1, 2, 3, 4)])
		if drop_arrays:
			t.check(codec.encode(pv4).is_empty() and codec.get_error() == ERR_INVALID_PARAMETER,
					label + ": PackedVector4Array (new in 4.3) is refused", codec.get_error_message())
			t.check(codec.decode(var_to_bytes(pv4)) == null and codec.get_error() == ERR_INVALID_DATA,
					label + ": type id 38 does not exist in 4.0-4.2", codec.get_error_message())
			codec.allow_lossy = true
			t.check_bytes(codec.encode(pv4), var_to_bytes([Vector4(1, 2, 3, 4)]),
					label + ": PackedVector4Array under allow_lossy: an Array of Vector4")
		else:
			t.check_bytes(codec.encode(pv4), var_to_bytes(pv4), label + ": PackedVector4Array as 4.3 wrote it")
	t.done()


## `v` with the container types a version lacks dropped: Dictionaries always, Arrays when
## `drop_arrays`; elements alike, recursively.
static func untyped(v, drop_arrays: bool):
	if v is Dictionary:
		var out := {}
		for k in v:
			out[untyped(k, drop_arrays)] = untyped(v[k], drop_arrays)
		return out
	if v is Array:
		var items := []
		for e in v:
			items.append(untyped(e, drop_arrays))
		if drop_arrays or not v.is_typed():
			return items
		return Array(items, v.get_typed_builtin(), v.get_typed_class_name(), v.get_typed_script())
	return v
