# The Godot 3 peers' own values (Godot 3 GDScript; runs on 3.2.3 and 3.6.2), shared by
# godot3_server.gd (sends them to the Godot 4 client) and godot3_client.gd (sends them to the Rust
# echo server). The Godot 4 side writes the same values as Godot 4 values in
# godot_project/peers/lib/expected3.gd: keep the two lists in step (same order, same names).
#
# Every Godot 3 Variant type, nested containers, and large values (>= 1 MiB each) that a TCP
# stream delivers in many reads.
extends Reference

const END_MARK = "__fvc_end__"
const HELLO = "__fvc_hello__"
const ACK = "__fvc_ack__"

## Objects sent as instance ids must stay alive while they travel.
var keep = []


## [[name, value, kind], ...]; kind: "small" (fits a UDP datagram), "large" (>= 1 MiB, TCP only),
## "full" (a full object, sent with put_var(v, true); TCP only).
func values():
	var v = []
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
	v.append(["quat", Quat(0.1, 0.2, 0.3, 0.9), "small"])
	v.append(["aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), "small"])
	v.append(["basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), "small"])
	v.append(["transform", Transform(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2)), Vector3(10, 11, 12)), "small"])
	v.append(["color", Color(0.1, 0.2, 0.3, 0.4), "small"])
	v.append(["node_path_absolute", NodePath("/root/Main/Player:position:x"), "small"])
	v.append(["node_path_relative", NodePath("../Sibling/Child"), "small"])
	v.append(["node_path_empty", NodePath(""), "small"])
	v.append(["rid", RID(), "small"])
	var obj = Reference.new()
	keep.append(obj)
	v.append(["object_as_id", [obj, obj.get_instance_id()], "small"])
	v.append(["pool_byte_array", PoolByteArray([0, 1, 2, 127, 128, 255]), "small"])
	v.append(["pool_int_array", PoolIntArray([1, -2, 2147483647, -2147483648]), "small"])
	v.append(["pool_real_array", PoolRealArray([1.5, -0.1, 1e30]), "small"])
	v.append(["pool_string_array", PoolStringArray(["a", "", "é日本"]), "small"])
	v.append(["pool_vector2_array", PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]), "small"])
	v.append(["pool_vector3_array", PoolVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)]), "small"])
	v.append(["pool_color_array", PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]), "small"])
	v.append(["pool_arrays_empty", [PoolByteArray(), PoolIntArray(), PoolRealArray(), PoolStringArray(),
			PoolVector2Array(), PoolVector3Array(), PoolColorArray()], "small"])
	v.append(["array", [1, "two", 3.0, [4, [5, [6]]], {"x": null}], "small"])
	v.append(["array_empty", [], "small"])
	v.append(["dictionary", {"a": 1, 2: "b", Vector2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": PoolIntArray([1, 2])}]}}, "small"])
	v.append(["dictionary_empty", {}, "small"])
	v.append(["nested_game_state", {
		"players": [
			{"name": "ann", "pos": Vector3(1, 2, 3), "inventory": PoolStringArray(["sword", "shield"]),
				"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1)},
			{"name": "bob", "pos": Vector3(-4, 0, 8.25), "inventory": PoolStringArray(),
				"stats": {"hp": 0, "mp": 0.0}, "path": NodePath("Players/bob")},
		],
		"map": {"tiles": PoolIntArray([0, 1, 1, 2, 3, 5, 8]), "spawn": [Vector2(0, 0), Vector2(10, -5)],
			"bounds": Rect2(-100, -100, 200, 200)},
		"meta": [[], {}, [[[1]]], null, true],
	}, "small"])
	v.append(["big_bytes", big_bytes(), "large"])
	v.append(["big_string", big_string(), "large"])
	v.append(["big_array", big_array(), "large"])
	v.append(["big_dictionary", big_dictionary(), "large"])
	var res = Resource.new()
	res.resource_name = "fvc_res"
	keep.append(res)
	v.append(["full_object", ["res", res], "full"])
	return v


## 1,572,868 bytes: 393,217 little-endian u32 words (k * 2654435761 + 12345) mod 2^32.
static func big_bytes():
	var spb = StreamPeerBuffer.new()
	for k in range(393217):
		spb.put_u32((k * 2654435761 + 12345) & 0xFFFFFFFF)
	return spb.data_array


## About 1.4 MiB of UTF-8 in 60,000 numbered lines.
static func big_string():
	var lines = PoolStringArray()
	for i in range(60000):
		lines.append(str(i) + " é日本🎼 line\n")
	return lines.join("")


## 100,000 items cycling int, float, String, Vector2 (about 1.3 MiB encoded).
static func big_array():
	var a = []
	a.resize(100000)
	for i in range(100000):
		match i % 4:
			0:
				a[i] = i * 7
			1:
				a[i] = i * 0.5
			2:
				a[i] = str(i)
			3:
				a[i] = Vector2(i, -i)
	return a


## About 3.6 MiB of pool arrays in one Dictionary.
static func big_dictionary():
	var ints = PoolIntArray()
	ints.resize(300000)
	for i in range(300000):
		ints[i] = (i * 7919) % 2000003 - 1000000
	var v3 = PoolVector3Array()
	v3.resize(100000)
	for i in range(100000):
		v3[i] = Vector3(i, i * 0.25, -i)
	var reals = PoolRealArray()
	reals.resize(100000)
	for i in range(100000):
		reals[i] = i * 0.125
	var colors = PoolColorArray()
	colors.resize(50000)
	for i in range(50000):
		colors[i] = Color((i % 256) / 256.0, ((i >> 8) % 256) / 256.0, 0.5, 1.0)
	return {"ints": ints, "v3": v3, "reals": reals, "colors": colors}


## "" when got is what a peer should give back for the value named name (expected); else why not.
## Objects travel as instance ids (EncodedObjectAsID on decoding) unless sent full.
static func check(name, expected, got):
	if name == "object_as_id":
		if typeof(got) != TYPE_ARRAY or got.size() != 2:
			return "expected [EncodedObjectAsID, id], got " + describe(got)
		if not (got[0] is EncodedObjectAsID):
			return "item 0 is not an EncodedObjectAsID: " + describe(got[0])
		if got[0].get_object_id() != expected[1] or typeof(got[1]) != TYPE_INT or got[1] != expected[1]:
			return "object id %s / %s, expected %d" % [str(got[0].get_object_id()), str(got[1]), expected[1]]
		return ""
	if name == "full_object":
		if typeof(got) != TYPE_ARRAY or got.size() != 2:
			return "expected [\"res\", Resource], got " + describe(got)
		if typeof(got[0]) != TYPE_STRING or got[0] != "res" or not (got[1] is Resource):
			return "expected [\"res\", Resource], got " + describe(got)
		if got[1].resource_name != "fvc_res":
			return "resource_name is %s" % got[1].resource_name
		return ""
	return differ(expected, got, "")


## "" when a and b are the same value: same types all the way down and the same encoding of each
## leaf. NodePaths are compared as NodePaths: Godot 3's var2bytes of a NodePath leaks
## uninitialised padding bytes (see tests/golden "nodepath_padding_leaks").
static func differ(a, b, at):
	if typeof(a) != typeof(b):
		return "%s: type %d, expected %d: %s" % [at, typeof(b), typeof(a), describe(b)]
	match typeof(a):
		TYPE_ARRAY:
			if a.size() != b.size():
				return "%s: %d items, expected %d" % [at, b.size(), a.size()]
			for i in range(a.size()):
				var d = differ(a[i], b[i], "%s[%d]" % [at, i])
				if d != "":
					return d
			return ""
		TYPE_DICTIONARY:
			var ka = a.keys()
			var kb = b.keys()
			var d = differ(ka, kb, at + ".keys()")
			if d != "":
				return d
			for i in range(ka.size()):
				d = differ(a[ka[i]], b[kb[i]], "%s[%s]" % [at, describe(ka[i])])
				if d != "":
					return d
			return ""
		TYPE_NODE_PATH:
			if a != b or str(a) != str(b):
				return "%s: NodePath %s, expected %s" % [at, str(b), str(a)]
			return ""
		TYPE_OBJECT:
			return "%s: cannot compare objects here" % at
	if var2bytes(a) != var2bytes(b):
		return "%s: different bytes: got %s" % [at, describe(b)]
	return ""


static func describe(v):
	var s = str(v)
	if s.length() > 160:
		s = s.substr(0, 160) + "..."
	return s
