# Describes values as tests/golden/FORMAT.md's Descs (the Godot 4 vocabulary), on every engine of
# the Godot 3 family (Godot 3.2.3 and 3.6.2, Pandemonium v4.9.0 and v5.2.0): the golden corpora's
# "value" and "decoded" fields and the save fixtures' sidecars.
#
# Types are told apart by name, never by a TYPE_* constant: the ids differ between Godot 3 and
# Pandemonium's two numberings, and so do some names. Each id comes from typeof() of a sample; the
# samples spelled differently in the engines (Godot 3's Quat is Pandemonium's Quaternion) or found
# in Pandemonium only are looked up at run time with str2var, which gives back the text itself
# when the engine has no such type. Each name also has the Godot 4 type id that describes it.
extends Reference

# [type name, sample, Godot 4 type id]; a sample given as texts is str2var's of the first that the
# engine knows (OBJECT's: this object). A fourth field marks the pools whose Godot 4 counterpart is
# a typed Array (Godot 4 has no packed int-vector arrays): their Desc keeps the "wire_type".
const TYPES = [
	["NIL", null, 0], ["BOOL", false, 1], ["INT", 0, 2], ["REAL", 0.5, 3], ["STRING", "", 4],
	["VECTOR2", Vector2(), 5], ["VECTOR2I", ["Vector2i( 0, 0 )"], 6], ["RECT2", Rect2(), 7],
	["RECT2I", ["Rect2i( 0, 0, 0, 0 )"], 8], ["VECTOR3", Vector3(), 9], ["VECTOR3I", ["Vector3i( 0, 0, 0 )"], 10],
	["TRANSFORM2D", Transform2D(), 11], ["VECTOR4", ["Vector4( 0, 0, 0, 0 )"], 12],
	["VECTOR4I", ["Vector4i( 0, 0, 0, 0 )"], 13], ["PLANE", Plane(), 14],
	["QUATERNION", ["Quat( 0, 0, 0, 1 )", "Quaternion( 0, 0, 0, 1 )"], 15], ["AABB", AABB(), 16],
	["BASIS", Basis(), 17], ["TRANSFORM", Transform(), 18],
	["PROJECTION", ["Projection(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)"], 19], ["COLOR", Color(), 20],
	["STRING_NAME", ["@\"a\""], 21], ["NODE_PATH", NodePath("a"), 22], ["RID", RID(), 23],
	["OBJECT", "this object", 24], ["DICTIONARY", {}, 27], ["ARRAY", [], 28],
	["POOL_BYTE_ARRAY", PoolByteArray(), 29], ["POOL_INT_ARRAY", PoolIntArray(), 30],
	["POOL_REAL_ARRAY", PoolRealArray(), 32], ["POOL_STRING_ARRAY", PoolStringArray(), 34],
	["POOL_VECTOR2_ARRAY", PoolVector2Array(), 35], ["POOL_VECTOR2I_ARRAY", ["PoolVector2iArray(  )"], 28, "wire"],
	["POOL_VECTOR3_ARRAY", PoolVector3Array(), 36], ["POOL_VECTOR3I_ARRAY", ["PoolVector3iArray(  )"], 28, "wire"],
	["POOL_VECTOR4_ARRAY", ["PoolVector4Array(  )"], 38], ["POOL_VECTOR4I_ARRAY", ["PoolVector4iArray(  )"], 28, "wire"],
	["POOL_COLOR_ARRAY", PoolColorArray(), 37]]

var T = {}           # type name -> this engine's id; "MAX" is TYPE_MAX (the first id decoders refuse)
var TN = {}          # id -> type name
var G4 = {}          # id -> the Godot 4 type id that describes it
var WIRE_ONLY = {}   # ids whose Desc keeps the "wire_type"
var utf_divergences = []   # texts whose code points the engine's own to_utf8() rewrites
var problems = []          # an inconsistent table, values of an unknown type (the owner may share its list)
var _spb = StreamPeerBuffer.new()


func _init():
	for row in TYPES:
		var sample = row[1]
		if row[0] == "OBJECT":
			sample = self
		elif typeof(row[1]) == TYPE_ARRAY:
			for text in row[1]:
				sample = str2var(text)
				if typeof(sample) != TYPE_STRING:
					break
			if typeof(sample) == TYPE_STRING:
				continue   # not a type of this engine
		add_type(row[0], typeof(sample), row[2])
		if row.size() > 3:
			WIRE_ONLY[T[row[0]]] = true
	T["MAX"] = TYPE_MAX


func add_type(name, id, g4):
	if TN.has(id):
		problems.append("type id %d is both %s and %s" % [id, TN[id], name])
	T[name] = id
	TN[id] = name
	G4[id] = g4


# The ids below TYPE_MAX that no sample has (Pandemonium v5's typed arrays, whose owner adds them).
func missing_ids():
	var gaps = []
	for id in range(TYPE_MAX):
		if not TN.has(id):
			gaps.append(id)
	return gaps


# A problem unless every id below TYPE_MAX has a name.
func check_complete():
	if TN.size() != TYPE_MAX:
		problems.append("%d type ids known, TYPE_MAX is %d" % [TN.size(), TYPE_MAX])


func type_name(v):
	return TN.get(typeof(v), "?")


func hexd(x):
	_spb.clear()
	_spb.put_double(x)
	return _spb.data_array.hex_encode()


func u32hex(x):
	_spb.clear()
	_spb.put_32(x)
	return _spb.data_array.hex_encode()


func fl(arr):
	var r = []
	for x in arr:
		r.append(hexd(x))
	return r


# Unsigned decimal text of a 64-bit value held in a (signed) GDScript int.
static func u64s(x):
	if x >= 0:
		return str(x)
	var half = (x >> 1) & 0x7FFFFFFFFFFFFFFF
	var bit = x & 1
	return str(half / 5) + str((half % 5) * 2 + bit)


# Texts are described from their code points (ord_at), each written in the generalized UTF-8 form
# (1 to 6 bytes, surrogates as 3-byte sequences). For every valid text this equals to_utf8(); it
# differs only where the engine holds code points that valid UTF-8 cannot carry (its strings are
# UTF-32: the 3.x decoders accept surrogates and 5/6-byte forms, and char() makes such code
# points), which the engine's own UTF-8 encoder rewrites.
func utf(s):
	var t = String(s)
	var fast = t.to_utf8()
	if fast.size() == t.length() and fast.get_string_from_utf8() == t:
		return fast.hex_encode()   # ASCII
	var out = PoolByteArray()
	for i in range(t.length()):
		var c = t.ord_at(i)
		if c < 0x80:
			out.append(c)
		elif c < 0x800:
			out.append(0xC0 | (c >> 6))
			out.append(0x80 | (c & 0x3F))
		elif c < 0x10000:
			out.append(0xE0 | (c >> 12))
			out.append(0x80 | ((c >> 6) & 0x3F))
			out.append(0x80 | (c & 0x3F))
		elif c < 0x200000:
			out.append(0xF0 | (c >> 18))
			out.append(0x80 | ((c >> 12) & 0x3F))
			out.append(0x80 | ((c >> 6) & 0x3F))
			out.append(0x80 | (c & 0x3F))
		elif c < 0x4000000:
			out.append(0xF8 | (c >> 24))
			out.append(0x80 | ((c >> 18) & 0x3F))
			out.append(0x80 | ((c >> 12) & 0x3F))
			out.append(0x80 | ((c >> 6) & 0x3F))
			out.append(0x80 | (c & 0x3F))
		else:
			out.append(0xFC | ((c >> 30) & 0x01))
			out.append(0x80 | ((c >> 24) & 0x3F))
			out.append(0x80 | ((c >> 18) & 0x3F))
			out.append(0x80 | ((c >> 12) & 0x3F))
			out.append(0x80 | ((c >> 6) & 0x3F))
			out.append(0x80 | (c & 0x3F))
	var h = out.hex_encode()
	if h != fast.hex_encode():
		utf_divergences.append(h + " -> to_utf8 " + fast.hex_encode())
	return h


# The hex of the int32 / f32 components comps of the vectors of a pool array.
func pool_hex(v, comps, ints):
	_spb.clear()
	for e in v:
		for c in comps:
			if ints:
				_spb.put_32(e[c])
			else:
				_spb.put_float(e[c])
	return _spb.data_array.hex_encode()


# Basis.x/.y/.z are the columns; the wire is row-major (elements[i] are rows).
static func basis_rows(b):
	return [b.x.x, b.y.x, b.z.x, b.x.y, b.y.y, b.z.y, b.x.z, b.y.z, b.z.z]


# The Typed of an element type (Pandemonium v5's typed arrays).
func typed_desc(vt, cname):
	if vt == T.NIL:
		return null
	if vt == T.OBJECT:
		if cname == "":
			return {"kind": "builtin", "type": G4[vt]}
		return {"kind": "class", "name": utf(cname)}
	if not G4.has(vt):
		# an element type id the engine stored unchecked (TYPED_ARRAY decode does not range-check it)
		return {"kind": "builtin", "type": null, "wire_type": vt}
	var d = {"kind": "builtin", "type": G4[vt]}
	if WIRE_ONLY.has(vt):
		d["wire_type"] = vt
	return d


# The Desc of v. full: objects are described whole (else as their ids); decoded: v came out of a
# decode (an EncodedObjectAsID stands for an id then).
func describe(v, full, decoded):
	var n = type_name(v)
	if n == "NIL":
		return {"t": "nil"}
	elif n == "BOOL":
		return {"t": "bool", "v": v}
	elif n == "INT":
		return {"t": "int", "v": str(v)}
	elif n == "REAL":
		return {"t": "float", "v": hexd(v)}
	elif n == "STRING":
		return {"t": "string", "v": utf(v)}
	elif n == "STRING_NAME":
		return {"t": "string_name", "v": utf(String(v))}
	elif n == "VECTOR2":
		return {"t": "vector2", "v": fl([v.x, v.y])}
	elif n == "VECTOR2I":
		return {"t": "vector2i", "v": [v.x, v.y]}
	elif n == "RECT2":
		return {"t": "rect2", "v": fl([v.position.x, v.position.y, v.size.x, v.size.y])}
	elif n == "RECT2I":
		return {"t": "rect2i", "v": [v.position.x, v.position.y, v.size.x, v.size.y]}
	elif n == "VECTOR3":
		return {"t": "vector3", "v": fl([v.x, v.y, v.z])}
	elif n == "VECTOR3I":
		return {"t": "vector3i", "v": [v.x, v.y, v.z]}
	elif n == "VECTOR4":
		return {"t": "vector4", "v": fl([v.x, v.y, v.z, v.w])}
	elif n == "VECTOR4I":
		return {"t": "vector4i", "v": [v.x, v.y, v.z, v.w]}
	elif n == "TRANSFORM2D":
		# column-major: x axis, y axis, origin
		return {"t": "transform2d", "v": fl([v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y])}
	elif n == "PLANE":
		return {"t": "plane", "v": fl([v.normal.x, v.normal.y, v.normal.z, v.d])}
	elif n == "QUATERNION":
		return {"t": "quaternion", "v": fl([v.x, v.y, v.z, v.w])}
	elif n == "AABB":
		return {"t": "aabb", "v": fl([v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z])}
	elif n == "BASIS":
		return {"t": "basis", "v": fl(basis_rows(v))}
	elif n == "TRANSFORM":
		var c = basis_rows(v.basis)
		c.append(v.origin.x)
		c.append(v.origin.y)
		c.append(v.origin.z)
		return {"t": "transform3d", "v": fl(c)}
	elif n == "PROJECTION":
		# the four columns x, y, z, w, each x, y, z, w
		var c = []
		for col in [v.x, v.y, v.z, v.w]:
			c.append_array([col.x, col.y, col.z, col.w])
		return {"t": "projection", "v": fl(c)}
	elif n == "COLOR":
		return {"t": "color", "v": fl([v.r, v.g, v.b, v.a])}
	elif n == "NODE_PATH":
		var names = []
		var subnames = []
		for i in range(v.get_name_count()):
			names.append(utf(v.get_name(i)))
		for i in range(v.get_subname_count()):
			subnames.append(utf(v.get_subname(i)))
		return {"t": "node_path", "names": names, "subnames": subnames, "absolute": v.is_absolute()}
	elif n == "RID":
		return {"t": "rid", "v": "0"}
	elif n == "OBJECT":
		if not is_instance_valid(v):
			return {"t": "nil"}   # a null or freed Object (the encoder writes it as NIL)
		if decoded and v.get_class() == "EncodedObjectAsID":
			return {"t": "object_id", "v": u64s(v.get_object_id())}
		if not full:
			return {"t": "object_id", "v": u64s(v.get_instance_id())}
		var props = []
		for p in v.get_property_list():
			if p.usage & PROPERTY_USAGE_STORAGE:
				props.append([utf(p.name), describe(v.get(p.name), full, decoded)])
		return {"t": "object", "class": utf(v.get_class()), "props": props}
	elif n == "DICTIONARY":
		var entries = []
		for k in v.keys():
			entries.append([describe(k, full, decoded), describe(v[k], full, decoded)])
		return {"t": "dictionary", "key_typed": null, "value_typed": null, "entries": entries}
	elif n == "ARRAY":
		var items = []
		for x in v:
			items.append(describe(x, full, decoded))
		return {"t": "array", "typed": null, "items": items}
	elif n == "TYPED_ARRAY" or n == "PACKED_TYPED_ARRAY":
		var items = []
		for i in range(v.size()):
			items.append(describe(v.get(i), full, decoded))
		return {"t": "array", "typed": typed_desc(v.get_variant_type(), String(v.get_object_class_name())),
			"form": n.to_lower(), "items": items}
	elif n == "POOL_BYTE_ARRAY":
		return {"t": "packed_byte_array", "v": v.hex_encode()}
	elif n == "POOL_INT_ARRAY":
		_spb.clear()
		for x in v:
			_spb.put_32(x)
		return {"t": "packed_int32_array", "v": _spb.data_array.hex_encode()}
	elif n == "POOL_REAL_ARRAY":
		_spb.clear()
		for x in v:
			_spb.put_float(x)
		return {"t": "packed_float32_array", "v": _spb.data_array.hex_encode()}
	elif n == "POOL_STRING_ARRAY":
		var items = []
		for x in v:
			items.append(utf(x))
		return {"t": "packed_string_array", "v": items}
	elif n == "POOL_VECTOR2_ARRAY":
		return {"t": "packed_vector2_array", "v": pool_hex(v, ["x", "y"], false)}
	elif n == "POOL_VECTOR2I_ARRAY":
		return {"t": "packed_vector2i_array", "v": pool_hex(v, ["x", "y"], true)}
	elif n == "POOL_VECTOR3_ARRAY":
		return {"t": "packed_vector3_array", "v": pool_hex(v, ["x", "y", "z"], false)}
	elif n == "POOL_VECTOR3I_ARRAY":
		return {"t": "packed_vector3i_array", "v": pool_hex(v, ["x", "y", "z"], true)}
	elif n == "POOL_VECTOR4_ARRAY":
		return {"t": "packed_vector4_array", "v": pool_hex(v, ["x", "y", "z", "w"], false)}
	elif n == "POOL_VECTOR4I_ARRAY":
		return {"t": "packed_vector4i_array", "v": pool_hex(v, ["x", "y", "z", "w"], true)}
	elif n == "POOL_COLOR_ARRAY":
		return {"t": "packed_color_array", "v": pool_hex(v, ["r", "g", "b", "a"], false)}
	problems.append("describe: unknown type %d" % typeof(v))
	return {"t": "unknown_%d" % typeof(v)}
