extends RefCounted
## What the Godot 3 and Pandemonium peers' own values have in common (tests/godot3_lib/
## peer_values.gd on their side), written as the Godot 4 values they must decode to, and the checks
## of the values that cannot be compared as they are. expected3.gd and expected_pandemonium.gd
## add their engine's types; each entry is [name, value, kind] (kind as in peer_values.gd).

const Peer := preload("res://peers/lib/peer_common.gd")


static func small(name: String, v) -> Array:
	return [name, v, "small"]


## Nil, bool, int, float and String values.
static func scalars() -> Array:
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


## NodePaths, an RID and an object sent as its id (a placeholder: check() knows what it must be).
static func paths_and_ids() -> Array:
	return [
		small("node_path_absolute", NodePath("/root/Main/Player:position:x")),
		small("node_path_relative", NodePath("../Sibling/Child")),
		small("node_path_empty", NodePath("")),
		small("rid", RID()),
		small("object_as_id", null)]


static func containers() -> Array:
	return [
		small("array", [1, "two", 3.0, [4, [5, [6]]], {"x": null}]),
		small("array_empty", []),
		small("dictionary", {"a": 1, 2: "b", Vector2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": PackedInt32Array([1, 2])}]}}),
		small("dictionary_empty", {})]


## The large values, then the full object (a placeholder: check() knows what it must be).
static func large_and_full(big_array: Array, big_dictionary: Dictionary) -> Array:
	return [
		["big_bytes", big_bytes(), "large"],
		["big_string", big_string(), "large"],
		["big_array", big_array, "large"],
		["big_dictionary", big_dictionary, "large"],
		["full_object", null, "full"]]


static func big_bytes() -> PackedByteArray:
	var spb := StreamPeerBuffer.new()
	for k in 393217:
		spb.put_u32((k * 2654435761 + 12345) & 0xFFFFFFFF)
	return spb.data_array


static func big_string() -> String:
	var lines := PackedStringArray()
	for i in 60000:
		lines.append(str(i) + " é日本🎼 line\n")
	return "".join(lines)


## 100,000 items cycling int, float, String and then what each of `own` makes of the index.
static func big_array(own: Array) -> Array:
	var kinds := 3 + own.size()
	var a := []
	a.resize(100000)
	for i in 100000:
		var k := i % kinds
		match k:
			0: a[i] = i * 7
			1: a[i] = i * 0.5
			2: a[i] = str(i)
			_: a[i] = own[k - 3].call(i)
	return a


static func big_dictionary() -> Dictionary:
	var ints := PackedInt32Array()
	ints.resize(300000)
	for i in 300000:
		ints[i] = (i * 7919) % 2000003 - 1000000
	var v3 := PackedVector3Array()
	v3.resize(100000)
	for i in 100000:
		v3[i] = Vector3(i, i * 0.25, -i)
	var reals := PackedFloat32Array()
	reals.resize(100000)
	for i in 100000:
		reals[i] = i * 0.125
	var colors := PackedColorArray()
	colors.resize(50000)
	for i in 50000:
		colors[i] = Color((i % 256) / 256.0, ((i >> 8) % 256) / 256.0, 0.5, 1.0)
	return {"ints": ints, "v3": v3, "reals": reals, "colors": colors}


## "" when got is what the peer's value `name` must decode to; else why not.
static func check(name: String, expected, got) -> String:
	if name == "object_as_id":
		# [object, its instance id]: the object travels as its id.
		if not (got is Array) or got.size() != 2:
			return "expected [EncodedObjectAsID, id], got " + Peer.show(got)
		if not (got[0] is EncodedObjectAsID):
			return "item 0 is not an EncodedObjectAsID: " + Peer.show(got[0])
		if not (got[1] is int) or got[1] == 0 or got[0].get_object_id() != got[1]:
			return "object id %s, instance id %s" % [str(got[0].get_object_id()), str(got[1])]
		return ""
	if name == "full_object":
		# ["res", a Resource named "fvc_res"], sent as a full object.
		if not (got is Array) or got.size() != 2 or not (got[0] is String) or got[0] != "res":
			return "expected [\"res\", Resource], got " + Peer.show(got)
		if not (got[1] is Resource):
			return "item 1 is not a Resource: " + Peer.show(got[1])
		if got[1].resource_name != "fvc_res":
			return "resource_name is %s" % got[1].resource_name
		return ""
	return Peer.why_not_same(expected, got)
