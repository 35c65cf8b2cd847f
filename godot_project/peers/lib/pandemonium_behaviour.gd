extends RefCounted
## What a real Pandemonium engine (v4.9.0: DIALECT_PANDEMONIUM_3_8; v5.2.0: DIALECT_PANDEMONIUM_5)
## does to a Godot 4 value that FastVarCodec sends it and that it decodes and re-encodes (get_var,
## then put_var), and which values run into its known decoder/encoder bugs
## (docs/wire_format.md#pandemonium-decoder-bugs). The echo tests expect exactly this, no more.
##
## The known bugs are not papered over: values that trigger them are kept out of the plain echo
## lists (bug_in() says why), and bug_cases() sends a few such values on purpose and expects the
## engine's actual, wrong, answer (seen with v4.9.0 and v5.2.0; see each case).

const ECHO_NOTE := "the dialect carries them so: typed Dictionaries and (Pandemonium 3.8) typed Arrays become plain ones, Array[Vector2i/3i/4i] travel as pool arrays, Pandemonium 5 keeps typed Arrays (object-typed ones as EncodedObjectAsID, sent as ids), an empty absolute NodePath loses its absolute flag, and the engine's UTF-8 decoder drops one leading BOM per String"

## Element types a Pandemonium typed Array (v5 TYPED_ARRAY) cannot name: Godot 4 types without a
## Pandemonium counterpart (FastVarCodec writes such a typed Array as a plain Array).
const NO_PANDEMONIUM_TYPE := [TYPE_CALLABLE, TYPE_SIGNAL, TYPE_PACKED_INT64_ARRAY, TYPE_PACKED_FLOAT64_ARRAY]


static func is_p5(dialect: int) -> bool:
	return dialect == FastVarCodec.DIALECT_PANDEMONIUM_5


## The value a Pandemonium engine sends back after get_var + put_var of v (sent by FastVarCodec
## in `dialect`), for values that bug_in() lets through.
static func echo_of(v, dialect: int):
	match typeof(v):
		TYPE_STRING:
			return v.substr(1) if v.begins_with("\ufeff") else v
		TYPE_STRING_NAME:
			return StringName(v.substr(1)) if String(v).begins_with("\ufeff") else v
		TYPE_PACKED_STRING_ARRAY:
			var out := PackedStringArray()
			for x in v:
				out.append(echo_of(x, dialect))
			return out
		TYPE_NODE_PATH:
			# A Godot 3 fork: a path of no names and no subnames is decoded as not absolute.
			if v.get_name_count() == 0 and v.get_subname_count() == 0:
				return NodePath("")
			return v
		TYPE_DICTIONARY:
			var out := {}
			for k in v:
				out[echo_of(k, dialect)] = echo_of(v[k], dialect)
			return out
		TYPE_ARRAY:
			var items := []
			for x in v:
				items.append(echo_of(x, dialect))
			if not v.is_typed():
				return items
			var t: int = v.get_typed_builtin()
			if t in [TYPE_VECTOR2I, TYPE_VECTOR3I, TYPE_VECTOR4I]:
				# POOL_VECTOR2I/3I/4I_ARRAY, in both eras.
				return Array(items, t, &"", null)
			if not is_p5(dialect) or t in NO_PANDEMONIUM_TYPE:
				return items
			if t == TYPE_OBJECT:
				if v.get_typed_script() != null:
					return items  # only a class name could travel
				# Objects travel as ids: the engine's TYPED_ARRAY names no class then (header
				# flag), and both decoders call the element class EncodedObjectAsID.
				return Array(items, TYPE_OBJECT, &"EncodedObjectAsID", null)
			return Array(items, t, &"", null)
	return v


## Why sending v through a Pandemonium engine runs into one of its known bugs ("" if it does
## not). top: v is the whole value (a Vector4 at the top level decodes fine).
static func bug_in(v, dialect: int, top := true) -> String:
	match typeof(v):
		TYPE_VECTOR4, TYPE_VECTOR4I:
			return "" if top else "nested Vector4/Vector4i (the engine's decoder advances 12 bytes past one, not 16)"
		TYPE_PROJECTION:
			return "Projection (the engine's decoder wants 248 bytes for its 64)"
		TYPE_PACKED_VECTOR4_ARRAY:
			return "" if v.is_empty() else "PoolVector4Array (the engine's decoder reads w from the z slot)"
		TYPE_ARRAY:
			if v.is_typed() and v.get_typed_builtin() == TYPE_VECTOR4I and not v.is_empty():
				return "PoolVector4iArray (the engine's decoder reads w from z, its encoder writes z for w)"
			if is_p5(dialect) and v.is_typed() and v.get_typed_builtin() == TYPE_ARRAY:
				for x in v:
					var carried = echo_of(x, dialect)
					if carried is Array and carried.is_typed():
						return "Pandemonium 5: typed Arrays (or int-vector pools) inside a typed Array of Arrays (the engine's TypedArray(Array) refuses them: its decoder drops them)"
			for x in v:
				var why := bug_in(x, dialect, false)
				if why != "":
					return why
		TYPE_DICTIONARY:
			for k in v:
				var why := bug_in(k, dialect, false)
				if why == "":
					why = bug_in(v[k], dialect, false)
				if why != "":
					return why
	return ""


## Values of Pandemonium's own types that the golden corpus (written by Godot 4) does not hold in
## these forms: [[name, value], ...]. None triggers a known bug.
static func extra_values(dialect: int) -> Array:
	var v := []
	v.append(["pandemonium/vector4_top_level", Vector4(1.5, -2, 0.25, 1e10)])
	v.append(["pandemonium/vector4i_top_level", Vector4i(1, -2, 2147483647, -2147483648)])
	v.append(["pandemonium/array_vector2i", Array([Vector2i(1, -2), Vector2i(2147483647, -2147483648)], TYPE_VECTOR2I, &"", null)])
	v.append(["pandemonium/array_vector3i", Array([Vector3i(1, -2, 3), Vector3i(0, 0, 0)], TYPE_VECTOR3I, &"", null)])
	v.append(["pandemonium/empty_vector4_pools", [PackedVector4Array(), Array([], TYPE_VECTOR4I, &"", null)]])
	v.append(["pandemonium/int_types_nested", {
		&"rect2i": Rect2i(1, 2, 3, 4), &"v2i": Vector2i(-1, 1), "v3i": [Vector3i(7, 8, 9)],
		Vector2i(3, 4): {&"inner": Array([Vector2i(5, 6)], TYPE_VECTOR2I, &"", null)},
		"pools": [Array([Vector3i(1, 2, 3)], TYPE_VECTOR3I, &"", null), PackedVector2Array([Vector2(1, 2)])],
	}])
	v.append(["pandemonium/string_names", [&"", &"a", &"é日本🎼", {&"k": &"v"}]])
	if is_p5(dialect):
		v.append(["pandemonium5/typed_int", Array([1, -2, 9223372036854775807], TYPE_INT, &"", null)])
		v.append(["pandemonium5/typed_string_name", Array([&"a", &"b"], TYPE_STRING_NAME, &"", null)])
		v.append(["pandemonium5/typed_rect2i", Array([Rect2i(1, 2, 3, 4)], TYPE_RECT2I, &"", null)])
		v.append(["pandemonium5/typed_dictionary", Array([{"k": 1}, {}], TYPE_DICTIONARY, &"", null)])
		v.append(["pandemonium5/typed_nested", {
			"ints": Array([1, 2], TYPE_INT, &"", null),
			"lists": Array([Array(["x"], TYPE_STRING, &"", null), [1, "mixed"]], TYPE_ARRAY, &"", null),
			"empty": Array([], TYPE_FLOAT, &"", null),
		}])
	return v


## Values that run into the engine's known bugs, sent on purpose, with the engine's actual echo
## as seen with Pandemonium v4.9.0 and v5.2.0: [[name, value, expected echo], ...].
static func bug_cases(dialect: int) -> Array:
	var p := Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16))
	var c := []
	# The decoder advances 12 bytes past a nested Vector4: the next item is read from its w.
	# w = 4.0 (0x40800000) is read as a NIL header, and "after" is never read.
	c.append(["engine bug/vector4 nested in an Array (next item read from its w)",
			[Vector4(1, 2, 3, 4), "after"], [Vector4(1, 2, 3, 4), null]])
	# The same for Vector4i: w = 0 is a NIL header.
	c.append(["engine bug/vector4i nested in an Array (next item read from its w)",
			[Vector4i(1, 2, 3, 0), 7], [Vector4i(1, 2, 3, 0), null]])
	# The decoder wants 248 bytes (62 floats) for a Projection's 64: one alone fails to decode
	# (get_var gives null, which the server echoes) ...
	c.append(["engine bug/projection alone cannot be decoded (echoed as null)", p, null])
	# ... but one followed by at least 184 more bytes decodes whole.
	c.append(["engine bug/projection followed by 200 bytes decodes", [p, "x".repeat(200)], [p, "x".repeat(200)]])
	# POOL_VECTOR4_ARRAY: the decoder fills w from the z slot.
	c.append(["engine bug/PoolVector4Array decoded with w = z",
			PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-5, 6, -7, 8)]),
			PackedVector4Array([Vector4(1, 2, 3, 3), Vector4(-5, 6, -7, -7)])])
	# POOL_VECTOR4I_ARRAY (Array[Vector4i] on the Godot 4 side): the decoder fills w from z, and
	# the encoder writes z into the w slot as well.
	c.append(["engine bug/PoolVector4iArray decoded and encoded with w = z",
			Array([Vector4i(1, 2, 3, 4), Vector4i(-5, 6, -7, 8)], TYPE_VECTOR4I, &"", null),
			Array([Vector4i(1, 2, 3, 3), Vector4i(-5, 6, -7, -7)], TYPE_VECTOR4I, &"", null)])
	if is_p5(dialect):
		# Pandemonium 5's TypedArray is a Variant type of its own, and so are its pools: a
		# TypedArray of Arrays takes neither, and its decoder drops such items without a word.
		# Godot 4's Array[Array] holds typed Arrays (FastVarCodec writes them as TYPED_ARRAY,
		# Array[Vector2i] as POOL_VECTOR2I_ARRAY).
		c.append(["engine bug/Pandemonium 5: a typed Array of Arrays drops its typed items",
				Array([Array([1], TYPE_INT, &"", null), [2], Array([Vector2i(3, 4)], TYPE_VECTOR2I, &"", null)], TYPE_ARRAY, &"", null),
				Array([[2]], TYPE_ARRAY, &"", null)])
	return c
