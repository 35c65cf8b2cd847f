# The values the Godot 3 family's real peers send: what the Godot 3 and Pandemonium value lists
# (tests/peers/values3.gd, tests/peers_pandemonium/values_pandemonium.gd, each extends this script)
# have in common, and how a peer checks what comes back. The Godot 4 side writes the same values
# as Godot 4 values (godot_project/peers/lib/expected*.gd): same order, same names.
#
# An entry is [name, value, kind, readback]. kind: "small" (fits a UDP datagram), "large"
# (>= 1 MiB, TCP only), "full" (a full object, sent with put_var(v, true); TCP only). readback:
# "" when the engine's own get_var reads the engine's own encoding of the value back intact; else
# the known engine bug that stops it (the Rust echo test then compares bytes).
extends Reference

const END_MARK = "__fvc_end__"
const HELLO = "__fvc_hello__"
const ACK = "__fvc_ack__"

## Objects sent as instance ids must stay alive while they travel.
var keep = []


func small(name, v, readback = ""):
	return [name, v, "small", readback]


# Nil, bool, int, float and String values.
func scalars():
	return [
		small("nil", null), small("bool_true", true), small("bool_false", false),
		small("int_0", 0), small("int_negative", -123456), small("int_max32", 2147483647),
		small("int_above_32", 2147483648), small("int_max64", 9223372036854775807),
		small("int_min64", -9223372036854775807 - 1),
		small("float_half", 0.5), small("float_tenth", 0.1), small("float_negative_zero", -0.0),
		small("float_1e300", 1e300), small("float_inf", INF), small("float_negative_inf", -INF),
		small("float_nan", NAN),
		small("string_empty", ""), small("string_ascii", "hello, Godot 4"),
		small("string_unicode", "é日本🎼 \"q\" \\ \t\n")]


# NodePaths, an RID and an object sent as its id.
func paths_and_ids():
	var obj = Reference.new()
	keep.append(obj)
	return [
		small("node_path_absolute", NodePath("/root/Main/Player:position:x")),
		small("node_path_relative", NodePath("../Sibling/Child")),
		small("node_path_empty", NodePath("")),
		small("rid", RID()),
		small("object_as_id", [obj, obj.get_instance_id()])]


func containers():
	return [
		small("array", [1, "two", 3.0, [4, [5, [6]]], {"x": null}]),
		small("array_empty", []),
		small("dictionary", {"a": 1, 2: "b", Vector2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": PoolIntArray([1, 2])}]}}),
		small("dictionary_empty", {})]


# Values of 1 MiB or more each (a TCP stream delivers them in many reads), then a full object.
func large_and_full():
	var res = Resource.new()
	res.resource_name = "fvc_res"
	keep.append(res)
	return [
		["big_bytes", big_bytes(), "large", ""],
		["big_string", big_string(), "large", ""],
		["big_array", big_array(), "large", ""],
		["big_dictionary", big_dictionary(), "large", ""],
		["full_object", ["res", res], "full", ""]]


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


## 100,000 items cycling int, float, String and the kinds of big_array_item().
func big_array():
	var kinds = 3 + big_array_kinds()
	var a = []
	a.resize(100000)
	for i in range(100000):
		var k = i % kinds
		if k == 0:
			a[i] = i * 7
		elif k == 1:
			a[i] = i * 0.5
		elif k == 2:
			a[i] = str(i)
		else:
			a[i] = big_array_item(i, k)
	return a


## Pool arrays in one Dictionary (about 3.6 MiB), with big_dictionary_own()'s.
func big_dictionary():
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
	var d = {"ints": ints, "v3": v3, "reals": reals, "colors": colors}
	big_dictionary_own(d)
	return d


# ---------------------------------------------------------------- the engine's own (hooks)

## How many kinds of item big_array() takes from big_array_item() (k from 3 on).
func big_array_kinds():
	return 0


func big_array_item(_i, _k):
	return null


func big_dictionary_own(_d):
	pass


## What the Rust echo server (FastVarCodec's core) sends back for the value named name.
func echo_of(_name, v):
	return v


## A check of the engine's own for the value named name, or null.
func check_own(_name, _expected, _got):
	return null


# ---------------------------------------------------------------- checks

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
	var own = check_own(name, expected, got)
	if own != null:
		return own
	return differ(expected, got, "")


## "" when a and b are the same value: same types all the way down and the same encoding of each
## leaf. NodePaths are compared as NodePaths: var2bytes of a NodePath leaks uninitialised padding
## bytes (see tests/golden "nodepath_padding_leaks").
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


## Items are taken in a call of their own: Pandemonium v5.2.0 would keep a stale TypedArray in a
## reused temporary (see peer_server.gd).
static func differ_at(a, b, ia, ib, at):
	return differ(a[ia], b[ib], at)


static func differ_entry(a, b, ka, kb, i, at):
	return differ_at(a, b, ka[i], kb[i], "%s[%s]" % [at, describe(ka[i])])


static func describe(v):
	var s = str(v)
	if s.length() > 160:
		s = s.substr(0, 160) + "..."
	return s
