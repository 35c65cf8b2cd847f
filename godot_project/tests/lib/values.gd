extends RefCounted
## Value factories shared by the tests: edge values of every Variant type and seeded random ones.

var rng := RandomNumberGenerator.new()


func _init(seed_value: int = 20240611) -> void:
	rng.seed = seed_value


## The golden corpus's values (tests/golden/gen/godot4/golden_values.gd) and its bit helpers.
const GoldenValues := preload("res://golden/gen/godot4/golden_values.gd")


static func float_from_bits(bits: int) -> float:
	return GoldenValues.float_from_bits(bits)


## Big-endian hex (as written in docs) to the int64 with those bits.
static func hx(s: String) -> int:
	return GoldenValues.hx(s)


static func neg0() -> float:
	return float_from_bits(hx("8000000000000000"))


## n nested Arrays; the innermost holds `leaf` (nothing when leaf is null).
static func nest_array(n: int, leaf = null) -> Array:
	return GoldenValues.nest_array(n, leaf)


## n nested Dictionaries {"k": {...}}.
static func nest_dict(n: int) -> Dictionary:
	return GoldenValues.nest_dict(n)


static func garbage(n: int, salt: int) -> PackedByteArray:
	var b := PackedByteArray()
	for i in n:
		b.append((i * 151 + salt * 29 + 0xA5) & 0xFF)
	return b


# ------------------------------------------------------------------ random values

func rand_int() -> int:
	match rng.randi_range(0, 5):
		0:
			return rng.randi_range(-200, 200)
		1:
			return rng.randi_range(-2147483648, 2147483647)
		2:
			return (rng.randi() << 32) | rng.randi()  # any int64
		3:
			return 2147483647 + rng.randi_range(-3, 3)
		4:
			return -2147483648 + rng.randi_range(-3, 3)
	return rng.randi_range(-70000, 70000) * rng.randi_range(-70000, 70000)


func rand_float() -> float:
	match rng.randi_range(0, 6):
		0:
			return rng.randf_range(-1000.0, 1000.0)
		1:  # exactly representable in binary32
			return PackedFloat32Array([rng.randf_range(-1e6, 1e6)])[0]
		2:  # any bit pattern (NaN payloads, subnormals, infinities included)
			return float_from_bits((rng.randi() << 32) | rng.randi())
		3:
			return float(rng.randi_range(-100000, 100000)) / 8.0
		4:
			return [0.0, neg0(), INF, -INF, NAN, 0.5, 1e300, 5e-324, 1.401298464324817e-45][rng.randi_range(0, 8)]
		5:
			return rng.randfn(0.0, 1e20)
	return rng.randf() * pow(10.0, rng.randi_range(-40, 40))


## A binary32-exact float (what real_t components hold in a single-precision engine).
func rand_real() -> float:
	var x := rand_float()
	if rng.randi_range(0, 3) == 0:
		return x
	return PackedFloat32Array([x])[0]


func rand_i32() -> int:
	return rng.randi_range(-2147483648, 2147483647) if rng.randi_range(0, 2) else rng.randi_range(-9, 9)


func rand_text(max_len := 12) -> String:
	var parts := PackedStringArray()
	for i in rng.randi_range(0, max_len):
		var cp: int
		match rng.randi_range(0, 5):
			0, 1:
				cp = rng.randi_range(0x20, 0x7E)
			2:
				cp = rng.randi_range(0xA0, 0x7FF)
			3:
				cp = rng.randi_range(0x800, 0xD7FF)
			4:
				cp = rng.randi_range(0xE000, 0xFFFD)
			_:
				cp = rng.randi_range(0x10000, 0x10FFFF)
		parts.append(char(cp))
	return "".join(parts)


func rand_node_path() -> NodePath:
	var names := PackedStringArray()
	for i in rng.randi_range(0, 3):
		names.append(["a", "Node2D", "日本", "x_y", "..", "😀", "b c"][rng.randi_range(0, 6)])
	var s := ("/" if rng.randi_range(0, 2) == 0 else "") + "/".join(names)
	var subs := rng.randi_range(0, 2)
	for i in subs:
		s += ":" + ["position", "x", "é", "modulate"][rng.randi_range(0, 3)]
	return NodePath(s)


func v2() -> Vector2:
	return Vector2(rand_real(), rand_real())


func v3() -> Vector3:
	return Vector3(rand_real(), rand_real(), rand_real())


func v4() -> Vector4:
	return Vector4(rand_real(), rand_real(), rand_real(), rand_real())


## A random value of builtin type `t` (never an Object).
func rand_of_type(t: int, depth := 0):
	match t:
		TYPE_NIL:
			return null
		TYPE_BOOL:
			return rng.randi_range(0, 1) == 1
		TYPE_INT:
			return rand_int()
		TYPE_FLOAT:
			return rand_float()
		TYPE_STRING:
			return rand_text()
		TYPE_VECTOR2:
			return v2()
		TYPE_VECTOR2I:
			return Vector2i(rand_i32(), rand_i32())
		TYPE_RECT2:
			return Rect2(v2(), v2())
		TYPE_RECT2I:
			return Rect2i(rand_i32(), rand_i32(), rand_i32(), rand_i32())
		TYPE_VECTOR3:
			return v3()
		TYPE_VECTOR3I:
			return Vector3i(rand_i32(), rand_i32(), rand_i32())
		TYPE_TRANSFORM2D:
			return Transform2D(v2(), v2(), v2())
		TYPE_VECTOR4:
			return v4()
		TYPE_VECTOR4I:
			return Vector4i(rand_i32(), rand_i32(), rand_i32(), rand_i32())
		TYPE_PLANE:
			var p := Plane()
			p.normal = v3()
			p.d = rand_real()
			return p
		TYPE_QUATERNION:
			var q := Quaternion()
			var c := v4()
			q.x = c.x
			q.y = c.y
			q.z = c.z
			q.w = c.w
			return q
		TYPE_AABB:
			return AABB(v3(), v3())
		TYPE_BASIS:
			return Basis(v3(), v3(), v3())
		TYPE_TRANSFORM3D:
			return Transform3D(Basis(v3(), v3(), v3()), v3())
		TYPE_PROJECTION:
			return Projection(v4(), v4(), v4(), v4())
		TYPE_COLOR:
			return Color(rand_real(), rand_real(), rand_real(), rand_real())
		TYPE_STRING_NAME:
			return StringName(rand_text(8))
		TYPE_NODE_PATH:
			return rand_node_path()
		TYPE_RID:
			return rid_from_int64((rng.randi() << 32) | rng.randi())
		TYPE_CALLABLE:
			return Callable()
		TYPE_SIGNAL:
			return Signal()
		TYPE_DICTIONARY:
			return rand_dict(depth + 1)
		TYPE_ARRAY:
			return rand_array(depth + 1)
		TYPE_PACKED_BYTE_ARRAY:
			var b := PackedByteArray()
			for i in rng.randi_range(0, 11):
				b.append(rng.randi_range(0, 255))
			return b
		TYPE_PACKED_INT32_ARRAY:
			var a := PackedInt32Array()
			for i in rng.randi_range(0, 6):
				a.append(rand_i32())
			return a
		TYPE_PACKED_INT64_ARRAY:
			var a := PackedInt64Array()
			for i in rng.randi_range(0, 6):
				a.append(rand_int())
			return a
		TYPE_PACKED_FLOAT32_ARRAY:
			var a := PackedFloat32Array()
			for i in rng.randi_range(0, 6):
				a.append(rand_float())
			return a
		TYPE_PACKED_FLOAT64_ARRAY:
			var a := PackedFloat64Array()
			for i in rng.randi_range(0, 6):
				a.append(rand_float())
			return a
		TYPE_PACKED_STRING_ARRAY:
			var a := PackedStringArray()
			for i in rng.randi_range(0, 5):
				a.append(rand_text(6))
			return a
		TYPE_PACKED_VECTOR2_ARRAY:
			var a := PackedVector2Array()
			for i in rng.randi_range(0, 5):
				a.append(v2())
			return a
		TYPE_PACKED_VECTOR3_ARRAY:
			var a := PackedVector3Array()
			for i in rng.randi_range(0, 5):
				a.append(v3())
			return a
		TYPE_PACKED_COLOR_ARRAY:
			var a := PackedColorArray()
			for i in rng.randi_range(0, 5):
				a.append(Color(rand_real(), rand_real(), rand_real(), rand_real()))
			return a
		TYPE_PACKED_VECTOR4_ARRAY:
			var a := PackedVector4Array()
			for i in rng.randi_range(0, 5):
				a.append(v4())
			return a
	return null


func rand_builtin_type() -> int:
	var t := TYPE_OBJECT
	while t == TYPE_OBJECT:
		t = rng.randi_range(0, TYPE_MAX - 1)
	return t


func rand_value(depth := 0):
	if depth >= 3:
		var t := TYPE_ARRAY
		while t == TYPE_ARRAY or t == TYPE_DICTIONARY or t == TYPE_OBJECT:
			t = rng.randi_range(0, TYPE_MAX - 1)
		return rand_of_type(t, depth)
	var r := rng.randi_range(0, 9)
	if r == 0:
		return rand_array(depth + 1)
	if r == 1:
		return rand_dict(depth + 1)
	return rand_of_type(rand_builtin_type(), depth)


func rand_array(depth: int) -> Array:
	if depth < 4 and rng.randi_range(0, 3) == 0:
		# a typed Array of a random builtin element type
		var t := rand_builtin_type()
		while t == TYPE_NIL:
			t = rand_builtin_type()
		var items := []
		for i in rng.randi_range(0, 4):
			items.append(rand_of_type(t, depth + 1))
		return Array(items, t, &"", null)
	var a := []
	for i in rng.randi_range(0, 5):
		a.append(rand_value(depth))
	return a


func rand_dict(depth: int) -> Dictionary:
	var d := {}
	var typed := depth < 4 and rng.randi_range(0, 4) == 0
	var kt := TYPE_STRING
	var vt := TYPE_NIL
	if typed:
		kt = [TYPE_INT, TYPE_STRING, TYPE_STRING_NAME, TYPE_VECTOR2I, TYPE_FLOAT, TYPE_NIL][rng.randi_range(0, 5)]
		vt = [TYPE_NIL, TYPE_INT, TYPE_FLOAT, TYPE_STRING, TYPE_VECTOR3, TYPE_PACKED_BYTE_ARRAY, TYPE_COLOR][rng.randi_range(0, 6)]
	for i in rng.randi_range(0, 5):
		var k = rand_of_type(kt) if typed and kt != TYPE_NIL else rand_value(3)
		var v = rand_of_type(vt) if typed and vt != TYPE_NIL else rand_value(depth)
		d[k] = v
	if typed:
		return Dictionary(d, kt, &"", null, vt, &"", null)
	return d
