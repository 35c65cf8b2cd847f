# The Pandemonium peers' own values (Pandemonium GDScript; runs on v4.9.0 and v5.2.0), shared by
# pandemonium_server.gd (sends them to the Godot 4 client) and pandemonium_client.gd (sends them to
# the Rust echo server). The Godot 4 side writes the same values as Godot 4 values in
# godot_project/peers/lib/expected_pandemonium.gd: keep the two lists in step (same order, same
# names). On v5 and later, values_v5.gd adds typed arrays at the end.
#
# Every Pandemonium Variant type (Godot 3's, and Rect2i, Vector2i, Vector3i, Vector4, Vector4i,
# Projection, StringName, the Vector2i/3i/4/4i pools), nested containers, and large values
# (>= 1 MiB each) that a TCP stream delivers in many reads.
extends Reference

const END_MARK = "__fvc_end__"
const HELLO = "__fvc_hello__"
const ACK = "__fvc_ack__"

## Objects sent as instance ids must stay alive while they travel.
var keep = []
var v5 = null


func _init():
	if Engine.get_version_info().major >= 5:
		# Typed arrays: a separate script, which v4.9 could not even parse.
		v5 = load("res://values_v5.gd").new()


## [[name, value, kind, readback], ...]; kind: "small" (fits a UDP datagram), "large" (>= 1 MiB,
## TCP only), "full" (a full object, sent with put_var(v, true); TCP only). readback: "" when the
## engine's own get_var reads the engine's own encoding of the value back intact; else the known
## engine bug (docs/wire_format.md#pandemonium-decoder-bugs) that stops it: the Rust echo test then compares bytes.
func values():
	var v = []
	v.append(["nil", null, "small", ""])
	v.append(["bool_true", true, "small", ""])
	v.append(["bool_false", false, "small", ""])
	v.append(["int_0", 0, "small", ""])
	v.append(["int_negative", -123456, "small", ""])
	v.append(["int_max32", 2147483647, "small", ""])
	v.append(["int_above_32", 2147483648, "small", ""])
	v.append(["int_max64", 9223372036854775807, "small", ""])
	v.append(["int_min64", -9223372036854775807 - 1, "small", ""])
	v.append(["float_half", 0.5, "small", ""])
	v.append(["float_tenth", 0.1, "small", ""])
	v.append(["float_negative_zero", -0.0, "small", ""])
	v.append(["float_1e300", 1e300, "small", ""])
	v.append(["float_inf", INF, "small", ""])
	v.append(["float_negative_inf", -INF, "small", ""])
	v.append(["float_nan", NAN, "small", ""])
	v.append(["string_empty", "", "small", ""])
	v.append(["string_ascii", "hello, Godot 4", "small", ""])
	v.append(["string_unicode", "é日本🎼 \"q\" \\ \t\n", "small", ""])
	v.append(["rect2", Rect2(1, 2, 3, 4.5), "small", ""])
	v.append(["rect2i", rect2i(1, -2, 3, 2147483647), "small", ""])
	v.append(["vector2", Vector2(1.5, -2.25), "small", ""])
	v.append(["vector2i", Vector2i(-7, 2147483647), "small", ""])
	v.append(["vector3", Vector3(0.1, 0.2, 0.3), "small", ""])
	v.append(["vector3i", Vector3i(1, -2, -2147483648), "small", ""])
	v.append(["vector4", Vector4(1.5, -2, 0.25, 1e10), "small", ""])
	v.append(["vector4i", Vector4i(1, -2, 3, -4), "small", ""])
	v.append(["plane", Plane(1, 2, 3, 4), "small", ""])
	v.append(["quaternion", Quaternion(0.1, 0.2, 0.3, 0.9), "small", ""])
	v.append(["aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), "small", ""])
	v.append(["basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), "small", ""])
	v.append(["transform", Transform(Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2)), Vector3(10, 11, 12)), "small", ""])
	v.append(["transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)), "small", ""])
	v.append(["projection", projection(), "small", "Projection: the decoder wants 248 bytes for its 64"])
	v.append(["color", Color(0.1, 0.2, 0.3, 0.4), "small", ""])
	v.append(["node_path_absolute", NodePath("/root/Main/Player:position:x"), "small", ""])
	v.append(["node_path_relative", NodePath("../Sibling/Child"), "small", ""])
	v.append(["node_path_empty", NodePath(""), "small", ""])
	v.append(["rid", RID(), "small", ""])
	var obj = Reference.new()
	keep.append(obj)
	v.append(["object_as_id", [obj, obj.get_instance_id()], "small", ""])
	v.append(["string_name", StringName("fvc_name é日本"), "small", ""])
	v.append(["string_name_empty", StringName(""), "small", ""])
	v.append(["pool_byte_array", PoolByteArray([0, 1, 2, 127, 128, 255]), "small", ""])
	v.append(["pool_int_array", PoolIntArray([1, -2, 2147483647, -2147483648]), "small", ""])
	v.append(["pool_real_array", PoolRealArray([1.5, -0.1, 1e30]), "small", ""])
	v.append(["pool_string_array", PoolStringArray(["a", "", "é日本"]), "small", ""])
	v.append(["pool_vector2_array", PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]), "small", ""])
	v.append(["pool_vector2i_array", PoolVector2iArray([Vector2i(1, 2), Vector2i(-3, 2147483647)]), "small", ""])
	v.append(["pool_vector3_array", PoolVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)]), "small", ""])
	v.append(["pool_vector3i_array", PoolVector3iArray([Vector3i(1, 2, 3), Vector3i(-4, 0, -2147483648)]), "small", ""])
	v.append(["pool_vector4_array", PoolVector4Array([Vector4(1, 2, 3, 4), Vector4(-0.5, 0, 1e10, 8)]), "small",
			"PoolVector4Array: the decoder reads w from the z slot"])
	# The encoder writes z into the w slot: the Godot 4 side expects (1, 2, 3, 3), (-5, 6, -7, -7).
	v.append(["pool_vector4i_array", PoolVector4iArray([Vector4i(1, 2, 3, 4), Vector4i(-5, 6, -7, 8)]), "small",
			"PoolVector4iArray: the decoder reads w from the z slot"])
	v.append(["pool_color_array", PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]), "small", ""])
	v.append(["pool_arrays_empty", [PoolByteArray(), PoolIntArray(), PoolRealArray(), PoolStringArray(),
			PoolVector2Array(), PoolVector2iArray(), PoolVector3Array(), PoolVector3iArray(),
			PoolVector4Array(), PoolVector4iArray(), PoolColorArray()], "small", ""])
	v.append(["array", [1, "two", 3.0, [4, [5, [6]]], {"x": null}], "small", ""])
	v.append(["array_empty", [], "small", ""])
	v.append(["dictionary", {"a": 1, 2: "b", Vector2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": PoolIntArray([1, 2])}]}}, "small", ""])
	v.append(["dictionary_empty", {}, "small", ""])
	# Pandemonium's own types inside containers (the encoder writes them right; the decoder
	# misreads what follows a nested Vector4/Vector4i and wants 248 bytes for a Projection).
	v.append(["pandemonium_types_nested", {
		StringName("sn_key"): [Vector2i(1, 2), rect2i(-1, -2, 3, 4), Vector3i(5, 6, 7), StringName("sn")],
		Vector2i(3, 4): {"v4": Vector4(1, 2, 3, 4), "v4i": Vector4i(-1, -2, -3, -4), "after": "still read right?"},
		"projection": [projection(), "then more"],
		"pools": [PoolVector2iArray([Vector2i(9, 8)]), PoolVector3iArray([Vector3i(7, 6, 5)])],
	}, "small", "nested Vector4/Vector4i: the decoder advances 12 bytes past one, not 16"])
	v.append(["nested_game_state", {
		"players": [
			{"name": "ann", "pos": Vector3(1, 2, 3), "cell": Vector2i(4, 5), "inventory": PoolStringArray(["sword", "shield"]),
				"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1), "tag": StringName("red")},
			{"name": "bob", "pos": Vector3(-4, 0, 8.25), "cell": Vector2i(-1, 0), "inventory": PoolStringArray(),
				"stats": {"hp": 0, "mp": 0.0}, "path": NodePath("Players/bob"), "tag": StringName("blue")},
		],
		"map": {"tiles": PoolIntArray([0, 1, 1, 2, 3, 5, 8]), "spawn": PoolVector2iArray([Vector2i(0, 0), Vector2i(10, -5)]),
			"bounds": rect2i(-100, -100, 200, 200), "chunks": PoolVector3iArray([Vector3i(0, 0, 0), Vector3i(1, 0, -1)])},
		"meta": [[], {}, [[[1]]], null, true],
	}, "small", ""])
	v.append(["big_bytes", big_bytes(), "large", ""])
	v.append(["big_string", big_string(), "large", ""])
	v.append(["big_array", big_array(), "large", ""])
	v.append(["big_dictionary", big_dictionary(), "large", ""])
	var res = Resource.new()
	res.resource_name = "fvc_res"
	keep.append(res)
	v.append(["full_object", ["res", res], "full", ""])
	if v5 != null:
		v.append_array(v5.values(keep))
	return v


## Rect2i has no four-int constructor in v4.9.0.
static func rect2i(x, y, w, h):
	var r = Rect2i()
	r.position = Vector2i(x, y)
	r.size = Vector2i(w, h)
	return r


## Projection has no four-Vector4 constructor in v4.9.0.
static func projection():
	var p = Projection()
	p.x = Vector4(1, 2, 3, 4)
	p.y = Vector4(5, 6, 7, 8.5)
	p.z = Vector4(-9, 10, 11, 12)
	p.w = Vector4(13, 14, 15, 1e10)
	return p


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


## 100,000 items cycling int, float, String, Vector2i, StringName (about 1.4 MiB encoded).
static func big_array():
	var a = []
	a.resize(100000)
	for i in range(100000):
		match i % 5:
			0:
				a[i] = i * 7
			1:
				a[i] = i * 0.5
			2:
				a[i] = str(i)
			3:
				a[i] = Vector2i(i, -i)
			4:
				a[i] = StringName("n" + str(i % 100))
	return a


## About 4.4 MiB of pool arrays in one Dictionary.
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
	var v2i = PoolVector2iArray()
	v2i.resize(100000)
	for i in range(100000):
		v2i[i] = Vector2i(i, -3 * i)
	return {"ints": ints, "v3": v3, "reals": reals, "colors": colors, "v2i": v2i}


## "" when got is what a peer should give back for the value named name (expected); else why not.
## Objects travel as instance ids (EncodedObjectAsID on decoding) unless sent full.
func check(name, expected, got):
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
	if v5 != null and v5.has_check(name):
		return v5.check(name, expected, got)
	return differ(expected, got, "")


## "" when a and b are the same value: same types all the way down and the same encoding of each
## leaf. NodePaths are compared as NodePaths: var2bytes of a NodePath leaks uninitialised padding
## bytes (seen with v5.2.0, as with Godot 3).
static func differ(a, b, at):
	if typeof(a) != typeof(b):
		return "%s: type %d, expected %d: %s" % [at, typeof(b), typeof(a), describe(b)]
	match typeof(a):
		TYPE_ARRAY:
			if a.size() != b.size():
				return "%s: %d items, expected %d" % [at, b.size(), a.size()]
			for i in range(a.size()):
				var d = differ_at(a, b, i, i, "%s[%d]" % [at, i])
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
				d = differ_entry(a, b, ka, kb, i, at)
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


## Items are taken in a call of their own: v5.2.0 would keep a stale TypedArray in a reused
## temporary (see pandemonium_server.gd).
static func differ_at(a, b, ia, ib, at):
	return differ(a[ia], b[ib], at)


static func differ_entry(a, b, ka, kb, i, at):
	return differ_at(a, b, ka[i], kb[i], "%s[%s]" % [at, describe(ka[i])])


## What the Rust echo server (FastVarCodec's core) sends back for the value named name: the value
## itself, but for the v5 typed arrays whose Godot 4 form is shared with another Pandemonium type.
func echo_of(name, v):
	if v5 != null:
		return v5.echo_of(name, v)
	return v


static func describe(v):
	var s = str(v)
	if s.length() > 160:
		s = s.substr(0, 160) + "..."
	return s
