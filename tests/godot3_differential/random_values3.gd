# Seeded random values of every Godot 3 Variant type but full objects (Godot 3 GDScript; runs on
# 3.2.3 and 3.6.2): what the differential fuzzing (differential3.gd) encodes and then mutates.
extends Reference

var rng = RandomNumberGenerator.new()
# A live object that values hold, sent by instance id.
var object = Reference.new()


func _init(seed_value):
	rng.seed = seed_value


func i(n):
	return rng.randi_range(0, n - 1)


# A finite binary32 value (real_t components hold binary32), or an edge one.
func real():
	match i(8):
		0:
			return 0.0
		1:
			return -0.0
		2:
			return INF if i(2) == 0 else -INF
		_:
			var s = StreamPeerBuffer.new()
			s.put_u32((i(2) << 31) | ((i(100) + 77) << 23) | i(1 << 23))
			s.seek(0)
			return s.get_float()


func v2():
	return Vector2(real(), real())


func v3():
	return Vector3(real(), real(), real())


func text():
	var pieces = ["a", "Z", "0", " ", "_", "/", ":", "é", "日本", "😀", "\n", "\"", "\\"]
	var s = ""
	for _k in range(i(10)):
		s += pieces[i(pieces.size())]
	return s


func integer():
	match i(4):
		0:
			return i(401) - 200
		1:
			return rng.randi() - 2147483648
		2:
			return (rng.randi() << 32) | rng.randi()
		_:
			return [0, 2147483647, -2147483648, 9223372036854775807, -9223372036854775807 - 1][i(5)]


func value(depth = 0):
	var last = 27 if depth < 3 else 25
	match i(last):
		0:
			return null
		1:
			return i(2) == 1
		2:
			return integer()
		3:
			return [0.5, 0.1, -0.0, 1e300, INF, NAN, float(integer()) / 7.0][i(7)]
		4:
			return text()
		5:
			return v2()
		6:
			return Rect2(v2(), v2())
		7:
			return v3()
		8:
			return Transform2D(v2(), v2(), v2())
		9:
			return Plane(v3(), real())
		10:
			return Quat(real(), real(), real(), real())
		11:
			return AABB(v3(), v3())
		12:
			return Basis(v3(), v3(), v3())
		13:
			return Transform(Basis(v3(), v3(), v3()), v3())
		14:
			return Color(real(), real(), real(), real())
		15:
			var s = "/" if i(3) == 0 else ""
			var names = []
			for _k in range(i(4)):
				names.append(["a", "Node2D", "x_y", "..", "é"][i(5)])
			s += PoolStringArray(names).join("/")
			for _k in range(i(3)):
				s += ":" + ["position", "x", "modulate"][i(3)]
			return NodePath(s)
		16:
			return RID()
		17:
			return object
		18:
			var b = PoolByteArray()
			for _k in range(i(12)):
				b.append(i(256))
			return b
		19:
			var a = PoolIntArray()
			for _k in range(i(6)):
				a.append(rng.randi() - 2147483648)
			return a
		20:
			var a = PoolRealArray()
			for _k in range(i(6)):
				a.append(real())
			return a
		21:
			var a = PoolStringArray()
			for _k in range(i(5)):
				a.append(text())
			return a
		22:
			var a = PoolVector2Array()
			for _k in range(i(5)):
				a.append(v2())
			return a
		23:
			var a = PoolVector3Array()
			for _k in range(i(5)):
				a.append(v3())
			return a
		24:
			var a = PoolColorArray()
			for _k in range(i(5)):
				a.append(Color(real(), real(), real(), real()))
			return a
		25:
			var a = []
			for _k in range(i(6)):
				a.append(value(depth + 1))
			return a
		_:
			var d = {}
			for _k in range(i(6)):
				d[value(3) if i(2) == 0 else text()] = value(depth + 1)
			return d
