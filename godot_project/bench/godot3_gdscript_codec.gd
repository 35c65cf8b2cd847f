extends RefCounted
## The benchmark's competitor for the Godot 3 dialect: a straightforward GDScript encoder/decoder of
## Godot 3's binary Variant format (`var2bytes` / `bytes2var` of Godot 3.1–3.6), written the way a
## Godot 4 user would write it today with StreamPeerBuffer. It uses the engine's bulk conversions
## where a user naturally would (`PackedFloat32Array.to_byte_array()`,
## `PackedByteArray.to_float32_array()` ...), so that packed arrays are not timed element by element.
##
##   var bytes := Godot3Codec.encode(value)    # empty PackedByteArray on failure (see last_error)
##   var value = Godot3Codec.decode(bytes)     # null on failure (see last_error)
##
## Scope: what Godot 3 can represent, mapped from Godot 4 as FastVarCodec maps it silently
## (StringName -> String, typed Array -> Array, Quaternion -> Quat, Transform3D -> Transform,
## PackedInt32Array -> PoolIntArray, PackedFloat32Array -> PoolRealArray, RID -> _RID without an id,
## null Object -> NIL). Objects and Godot 4-only types are refused. It is a benchmark baseline, not a
## hardened decoder: it trusts its input (the benchmark checks it against FastVarCodec first).
## Packed Vector2/Vector3 arrays rely on `to_byte_array()` giving binary32 components, i.e. a
## single-precision engine (the benchmark checks that).

# Godot 3 type ids (docs/wire_format.md#godot-3-ids).
const NIL := 0
const BOOL := 1
const INT := 2
const REAL := 3
const STRING := 4
const VECTOR2 := 5
const RECT2 := 6
const VECTOR3 := 7
const TRANSFORM2D := 8
const PLANE := 9
const QUAT := 10
const AABB_ID := 11
const BASIS := 12
const TRANSFORM := 13
const COLOR := 14
const NODE_PATH := 15
const RID_ID := 16
const OBJECT := 17
const DICTIONARY := 18
const ARRAY := 19
const POOL_BYTE_ARRAY := 20
const POOL_INT_ARRAY := 21
const POOL_REAL_ARRAY := 22
const POOL_STRING_ARRAY := 23
const POOL_VECTOR2_ARRAY := 24
const POOL_VECTOR3_ARRAY := 25
const POOL_COLOR_ARRAY := 26

const FLAG_64 := 1 << 16

static var last_error := ""
static var _f32 := PackedFloat32Array([0.0])


# --- encoding -------------------------------------------------------------------------------------

static func encode(value: Variant) -> PackedByteArray:
	last_error = ""
	var s := StreamPeerBuffer.new()
	if not _write_value(s, value):
		return PackedByteArray()
	return s.data_array


static func _fits_f32(d: float) -> bool:
	_f32[0] = d
	return _f32[0] == d


static func _pad(s: StreamPeerBuffer, n: int) -> void:
	for i in (4 - n % 4) % 4:
		s.put_u8(0)


static func _put_string(s: StreamPeerBuffer, text: String) -> void:
	var utf8 := text.to_utf8_buffer()
	s.put_u32(utf8.size())
	s.put_data(utf8)
	_pad(s, utf8.size())


static func _write_value(s: StreamPeerBuffer, v: Variant) -> bool:
	match typeof(v):
		TYPE_NIL:
			s.put_u32(NIL)
		TYPE_BOOL:
			s.put_u32(BOOL)
			s.put_u32(1 if v else 0)
		TYPE_INT:
			if v >= -2147483648 and v <= 2147483647:
				s.put_u32(INT)
				s.put_32(v)
			else:
				s.put_u32(INT | FLAG_64)
				s.put_64(v)
		TYPE_FLOAT:
			if _fits_f32(v):
				s.put_u32(REAL)
				s.put_float(v)
			else:
				s.put_u32(REAL | FLAG_64)
				s.put_double(v)
		TYPE_STRING, TYPE_STRING_NAME:
			s.put_u32(STRING)
			_put_string(s, String(v))
		TYPE_VECTOR2:
			s.put_u32(VECTOR2)
			s.put_float(v.x)
			s.put_float(v.y)
		TYPE_VECTOR3:
			s.put_u32(VECTOR3)
			s.put_float(v.x)
			s.put_float(v.y)
			s.put_float(v.z)
		TYPE_DICTIONARY:
			s.put_u32(DICTIONARY)
			s.put_u32(v.size())
			for key in v:
				if not _write_value(s, key) or not _write_value(s, v[key]):
					return false
		TYPE_ARRAY:
			s.put_u32(ARRAY)
			s.put_u32(v.size())
			for item in v:
				if not _write_value(s, item):
					return false
		TYPE_PACKED_BYTE_ARRAY:
			s.put_u32(POOL_BYTE_ARRAY)
			s.put_u32(v.size())
			s.put_data(v)
			_pad(s, v.size())
		TYPE_PACKED_INT32_ARRAY:
			s.put_u32(POOL_INT_ARRAY)
			s.put_u32(v.size())
			s.put_data(v.to_byte_array())
		TYPE_PACKED_FLOAT32_ARRAY:
			s.put_u32(POOL_REAL_ARRAY)
			s.put_u32(v.size())
			s.put_data(v.to_byte_array())
		TYPE_PACKED_STRING_ARRAY:
			s.put_u32(POOL_STRING_ARRAY)
			s.put_u32(v.size())
			for text in v:
				var utf8: PackedByteArray = text.to_utf8_buffer()
				s.put_u32(utf8.size() + 1)
				s.put_data(utf8)
				s.put_u8(0)
				_pad(s, utf8.size() + 1)
		TYPE_PACKED_VECTOR2_ARRAY:
			s.put_u32(POOL_VECTOR2_ARRAY)
			s.put_u32(v.size())
			s.put_data(v.to_byte_array())
		TYPE_PACKED_VECTOR3_ARRAY:
			s.put_u32(POOL_VECTOR3_ARRAY)
			s.put_u32(v.size())
			s.put_data(v.to_byte_array())
		TYPE_PACKED_COLOR_ARRAY:
			s.put_u32(POOL_COLOR_ARRAY)
			s.put_u32(v.size())
			s.put_data(v.to_byte_array())
		TYPE_COLOR:
			s.put_u32(COLOR)
			s.put_float(v.r)
			s.put_float(v.g)
			s.put_float(v.b)
			s.put_float(v.a)
		TYPE_RECT2:
			s.put_u32(RECT2)
			s.put_float(v.position.x)
			s.put_float(v.position.y)
			s.put_float(v.size.x)
			s.put_float(v.size.y)
		TYPE_TRANSFORM2D:
			s.put_u32(TRANSFORM2D)
			for axis in [v.x, v.y, v.origin]:
				s.put_float(axis.x)
				s.put_float(axis.y)
		TYPE_PLANE:
			s.put_u32(PLANE)
			s.put_float(v.normal.x)
			s.put_float(v.normal.y)
			s.put_float(v.normal.z)
			s.put_float(v.d)
		TYPE_QUATERNION:
			s.put_u32(QUAT)
			s.put_float(v.x)
			s.put_float(v.y)
			s.put_float(v.z)
			s.put_float(v.w)
		TYPE_AABB:
			s.put_u32(AABB_ID)
			for c in [v.position, v.size]:
				s.put_float(c.x)
				s.put_float(c.y)
				s.put_float(c.z)
		TYPE_BASIS:
			s.put_u32(BASIS)
			_put_basis_rows(s, v)
		TYPE_TRANSFORM3D:
			s.put_u32(TRANSFORM)
			_put_basis_rows(s, v.basis)
			s.put_float(v.origin.x)
			s.put_float(v.origin.y)
			s.put_float(v.origin.z)
		TYPE_NODE_PATH:
			s.put_u32(NODE_PATH)
			var names: int = v.get_name_count()
			var subnames: int = v.get_subname_count()
			s.put_u32(names | 0x80000000)
			s.put_u32(subnames)
			s.put_u32(1 if v.is_absolute() else 0)
			for i in names:
				_put_string(s, String(v.get_name(i)))
			for i in subnames:
				_put_string(s, String(v.get_subname(i)))
		TYPE_RID:
			s.put_u32(RID_ID)
		TYPE_OBJECT:
			if v != null:
				last_error = "objects are not supported"
				return false
			s.put_u32(NIL)
		_:
			last_error = "%s has no Godot 3 form" % type_string(typeof(v))
			return false
	return true


## Basis on the wire: row-major (X.x, Y.x, Z.x, X.y, ...), where X, Y, Z are the columns (axes).
static func _put_basis_rows(s: StreamPeerBuffer, b: Basis) -> void:
	for row in 3:
		s.put_float(b.x[row])
		s.put_float(b.y[row])
		s.put_float(b.z[row])


# --- decoding -------------------------------------------------------------------------------------

static func decode(bytes: PackedByteArray) -> Variant:
	last_error = ""
	var s := StreamPeerBuffer.new()
	s.data_array = bytes
	var v: Variant = _read_value(s)
	if last_error != "":
		return null
	return v


static func _skip_pad(s: StreamPeerBuffer, n: int) -> void:
	var p := (4 - n % 4) % 4
	if p != 0:
		s.seek(s.get_position() + p)


static func _get_string(s: StreamPeerBuffer) -> String:
	var n := s.get_u32()
	var text := s.get_utf8_string(n)
	_skip_pad(s, n)
	return text


static func _get_block(s: StreamPeerBuffer, n: int) -> PackedByteArray:
	var got := s.get_data(n)
	if got[0] != OK:
		last_error = "unexpected end of data"
		return PackedByteArray()
	return got[1]


static func _read_value(s: StreamPeerBuffer) -> Variant:
	var header := s.get_u32()
	var wide := (header & FLAG_64) != 0
	match header & 0xFF:
		NIL:
			return null
		BOOL:
			return s.get_u32() != 0
		INT:
			return s.get_64() if wide else s.get_32()
		REAL:
			return s.get_double() if wide else s.get_float()
		STRING:
			return _get_string(s)
		VECTOR2:
			var x := s.get_float()
			return Vector2(x, s.get_float())
		VECTOR3:
			var x := s.get_float()
			var y := s.get_float()
			return Vector3(x, y, s.get_float())
		DICTIONARY:
			var n := s.get_u32() & 0x7FFFFFFF
			var d := {}
			for i in n:
				var key: Variant = _read_value(s)
				d[key] = _read_value(s)
			return d
		ARRAY:
			var n := s.get_u32() & 0x7FFFFFFF
			var a := []
			a.resize(n)
			for i in n:
				a[i] = _read_value(s)
			return a
		POOL_BYTE_ARRAY:
			var n := s.get_u32()
			var data := _get_block(s, n)
			_skip_pad(s, n)
			return data
		POOL_INT_ARRAY:
			var n := s.get_u32()
			return _get_block(s, n * 4).to_int32_array()
		POOL_REAL_ARRAY:
			var n := s.get_u32()
			return _get_block(s, n * 4).to_float32_array()
		POOL_STRING_ARRAY:
			var n := s.get_u32()
			var out := PackedStringArray()
			out.resize(n)
			for i in n:
				var len := s.get_u32()  # UTF-8 length + 1 (the NUL terminator)
				out[i] = s.get_utf8_string(len - 1)
				s.seek(s.get_position() + 1 + (4 - len % 4) % 4)
			return out
		POOL_VECTOR2_ARRAY:
			var n := s.get_u32()
			return _get_block(s, n * 8).to_vector2_array()
		POOL_VECTOR3_ARRAY:
			var n := s.get_u32()
			return _get_block(s, n * 12).to_vector3_array()
		POOL_COLOR_ARRAY:
			var n := s.get_u32()
			return _get_block(s, n * 16).to_color_array()
		COLOR:
			var r := s.get_float()
			var g := s.get_float()
			var b := s.get_float()
			return Color(r, g, b, s.get_float())
		RECT2:
			var x := s.get_float()
			var y := s.get_float()
			var w := s.get_float()
			return Rect2(x, y, w, s.get_float())
		TRANSFORM2D:
			var c := _get_floats(s, 6)
			return Transform2D(Vector2(c[0], c[1]), Vector2(c[2], c[3]), Vector2(c[4], c[5]))
		PLANE:
			var c := _get_floats(s, 4)
			return Plane(c[0], c[1], c[2], c[3])
		QUAT:
			var c := _get_floats(s, 4)
			return Quaternion(c[0], c[1], c[2], c[3])
		AABB_ID:
			var c := _get_floats(s, 6)
			return AABB(Vector3(c[0], c[1], c[2]), Vector3(c[3], c[4], c[5]))
		BASIS:
			return _basis_from_rows(_get_floats(s, 9))
		TRANSFORM:
			var c := _get_floats(s, 12)
			return Transform3D(_basis_from_rows(c), Vector3(c[9], c[10], c[11]))
		NODE_PATH:
			var names := s.get_u32() & 0x7FFFFFFF
			var subnames := s.get_u32()
			var flags := s.get_u32()
			if flags & 2:
				subnames += 1
			var text := "/" if flags & 1 else ""
			for i in names:
				text += ("/" if i > 0 else "") + _get_string(s)
			for i in subnames:
				text += ":" + _get_string(s)
			return NodePath(text)
		RID_ID:
			return RID()
		_:
			last_error = "unsupported type id %d" % (header & 0xFF)
			return null


static func _get_floats(s: StreamPeerBuffer, n: int) -> PackedFloat32Array:
	return _get_block(s, n * 4).to_float32_array()


static func _basis_from_rows(c: PackedFloat32Array) -> Basis:
	return Basis(Vector3(c[0], c[3], c[6]), Vector3(c[1], c[4], c[7]), Vector3(c[2], c[5], c[8]))
