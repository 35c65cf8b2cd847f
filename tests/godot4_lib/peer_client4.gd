extends SceneTree
## What the two real Godot 4 peer clients share: rust/wasm/tests/godot4/ws_client.gd (the npm
## package's WebSocket server, through WebSocketPeer) and rust/python/tests/godot4_peer/client4.gd
## (the Python asyncio server, through StreamPeerTCP) each extend this script, which each project
## reaches as res://peer_client4.gd through a committed symlink to tests/godot4_lib/. It runs the
## exchange (run()), in this order:
##   * every value of the Godot 4 golden corpus (res://golden_values.gd) and values of 1 MiB and
##     more, each sent with put_var; its echo, read with get_var, must be what the engine itself
##     reads back from its own encoding of the value (echo_all());
##   * the client's malformed messages (bad_messages());
##   * the server's own values ("fvc:samples"), each equal to the same value made here
##     (samples(), expected_samples());
##   * the server's counts of this connection ("fvc:stats") are what the client sent (stats());
##   * the client's message above the server's limit (oversize()).
## then prints "RESULT sent=N malformed=N samples=N" (what the server should have counted) and
## "N passed, N failed", and exits 1 on any failure. The client gives the connection: configure(),
## connect_peer(), receive(), send(), bad_messages(), oversize(), close_peer().

const GoldenValues := preload("res://golden_values.gd")

## The client's file name, said in its printed lines.
var label := ""
## The server's language: its sample object is named "made in <it>".
var made_in := ""
## The server's name of its sample {1: "int", 1.0: "float", true: "bool"}.
var float_keys_name := ""
## "--key=value" user arguments (after "--" on the command line).
var args := {}
var port := 0
var deadline := 0
var passed := 0
var failed := 0
var sent := 0        # values sent with put_var (the server counts each)
var malformed := 0   # messages the server should count as malformed
var values: Array = []   # [name, value, full_objects]
var want_samples := {}   # expected_samples()
var keep: Array = []     # the objects the values refer to


func _initialize() -> void:
	label = (get_script() as Script).resource_path.get_file()
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--") and a.contains("="):
			var kv := a.substr(2).split("=", true, 1)
			args[kv[0]] = kv[1]
	configure()
	deadline = Time.get_ticks_msec() + int(float(args.get("timeout", "60")) * 1000.0)
	var finished = run()
	check(finished == true, "the exchange reached its end (a script error aborts it: see the log)")
	for o in keep:
		if o is Object and is_instance_valid(o) and not (o is RefCounted):
			o.free()
	keep.clear()
	values.clear()
	print("RESULT sent=%d malformed=%d samples=%d" % [sent, malformed, want_samples.size()])
	print("%d passed, %d failed" % [passed, failed])
	quit(0 if failed == 0 else 1)


func check(ok: bool, what: String, detail: String = "") -> bool:
	if ok:
		passed += 1
	else:
		failed += 1
		print("FAIL %s%s" % [what, "" if detail == "" else " -- " + detail])
	return ok


func add_value(name: String, v, full := false) -> void:
	values.append([name, v, full])


func run() -> bool:
	GoldenValues.add_all(add_value, self, load("res://golden_item.gd"), load("res://golden_holder.gd"), keep)
	values.append_array(large_values())
	want_samples = expected_samples()
	if not connect_peer():
		return true
	var finished := echo_all() and bad_messages() and samples() and stats() and oversize()
	close_peer()
	return finished


# ------------------------------------------------------------------ the client's own

## Reads the client's arguments from args (port, its own); made_in, float_keys_name.
func configure() -> void:
	pass


## Connects to the server: one check, its result.
func connect_peer() -> bool:
	return check(false, "the client connects")


## [true, the next value the server sent] once it is there, or [false, why].
func receive(_allow_objects: bool) -> Array:
	return [false, "the client receives nothing"]


## Sends v with put_var (full: objects whole) and counts it in sent.
func send(_v, _full := false) -> void:
	pass


## Malformed messages, each answered with the server's error, and the connection goes on
## (invalid_data_answered(), goes_on()).
func bad_messages() -> bool:
	return true


## A message above the server's limit, which then closes the connection.
func oversize() -> bool:
	return true


func close_peer() -> void:
	pass


# ------------------------------------------------------------------ the exchange

func echo_all() -> bool:
	var not_encoded := PackedStringArray()
	var intact := 0
	for e in values:
		var name: String = e[0]
		var full: bool = e[2]
		var bytes := var_to_bytes_with_objects(e[1]) if full else var_to_bytes(e[1])
		if bytes.is_empty():
			not_encoded.append(name)
			continue
		var own = bytes_to_var_with_objects(bytes) if full else bytes_to_var(bytes)
		send(e[1], full)
		var r := receive(full)
		if not check(r[0], "%s: an answer" % name, "" if r[0] else str(r[1])):
			return false
		var why := differ(own, r[1], "")
		if check(why == "", "%s: the echo is what the engine reads from its own encoding" % name, why):
			intact += 1
		free_objects(own)
		free_objects(r[1])
	print("%s: %d values echoed intact; %d not sent, as the engine itself does not encode them: %s"
			% [label, intact, not_encoded.size(), ", ".join(not_encoded)])
	return true


func samples() -> bool:
	send("fvc:samples")
	var want := want_samples
	var seen := {}
	while true:
		var r := receive(true)
		if not check(r[0], "the next sample", "" if r[0] else str(r[1])):
			return false
		var s = r[1]
		if s is String and s == "fvc:samples_end":
			break
		if not (s is Array and s.size() == 2 and s[0] is String):
			check(false, "a sample is [name, value]", show(s))
			return false
		var name: String = s[0]
		check(want.has(name) and not seen.has(name), "sample %s: known here, once" % name)
		seen[name] = true
		if want.has(name):
			var why := compare_sample(name, want[name], s[1])
			check(why == "", "sample %s made in %s equals the engine's" % [name, made_in], why)
		free_objects(s)
	for name in want:
		check(seen.has(name), "sample %s was sent" % name)
	return true


## The server's answer to the malformed message the client just sent (counted here): its error
## ERR_INVALID_DATA; false when no answer came.
func invalid_data_answered() -> bool:
	malformed += 1
	var r := receive(false)
	if not check(r[0], "an answer to a malformed message", "" if r[0] else str(r[1])):
		return false
	check(r[1] is String and r[1].begins_with("server error: ERR_INVALID_DATA"),
			"a malformed message is answered with the server's error", show(r[1]))
	print("%s: the server said: %s" % [label, show(r[1])])
	return true


## A value sent after malformed messages comes back intact: one check, what.
func goes_on(what: String) -> bool:
	var still := {"still": "here", &"typed": Array([1, 2], TYPE_INT, &"", null)}
	send(still)
	var r := receive(false)
	return check(r[0] and differ(still, r[1], "") == "", what, show(r[1]))


func stats() -> bool:
	send("fvc:stats")
	var r := receive(false)
	var expect := {"values": sent, "malformed": malformed, "samples_sent": want_samples.size()}
	return check(r[0] and differ(expect, r[1], "") == "", "the server's counts of this connection",
			"%s, expected %s" % [show(r[1]), show(expect)])


# ------------------------------------------------------------------ values

## "" when got is want: the same types all the way down (typed containers of the same element
## types), the same encoding of each leaf, objects of the same class with the same stored
## properties, objects sent as ids with the same id.
func differ(want, got, at: String) -> String:
	if typeof(want) != typeof(got):
		return "%s: a %s, expected a %s: %s" % [at, type_string(typeof(got)), type_string(typeof(want)), show(got)]
	match typeof(want):
		TYPE_ARRAY:
			var a: Array = want
			var b: Array = got
			if a.get_typed_builtin() != b.get_typed_builtin() or a.get_typed_class_name() != b.get_typed_class_name() \
					or script_path(a.get_typed_script()) != script_path(b.get_typed_script()):
				return "%s: Array typed %s, expected %s" % [at, typed_text(b), typed_text(a)]
			if a.size() != b.size():
				return "%s: %d items, expected %d" % [at, b.size(), a.size()]
			for i in a.size():
				var d := differ(a[i], b[i], "%s[%d]" % [at, i])
				if d != "":
					return d
			return ""
		TYPE_DICTIONARY:
			var a: Dictionary = want
			var b: Dictionary = got
			var ta := [a.get_typed_key_builtin(), a.get_typed_key_class_name(), script_path(a.get_typed_key_script()),
					a.get_typed_value_builtin(), a.get_typed_value_class_name(), script_path(a.get_typed_value_script())]
			var tb := [b.get_typed_key_builtin(), b.get_typed_key_class_name(), script_path(b.get_typed_key_script()),
					b.get_typed_value_builtin(), b.get_typed_value_class_name(), script_path(b.get_typed_value_script())]
			if ta != tb:
				return "%s: Dictionary typed %s, expected %s" % [at, str(tb), str(ta)]
			if a.size() != b.size():
				return "%s: %d entries, expected %d" % [at, b.size(), a.size()]
			# Entry by entry, in order (one call a level: nesting goes as deep as the engine's limit).
			var ka := a.keys()
			var kb := b.keys()
			var va := a.values()
			var vb := b.values()
			for i in ka.size():
				var d := differ(ka[i], kb[i], "%s.keys()[%d]" % [at, i])
				if d == "":
					d = differ(va[i], vb[i], "%s[%s]" % [at, show(ka[i])])
				if d != "":
					return d
			return ""
		TYPE_OBJECT:
			return differ_objects(want, got, at)
	if var_to_bytes(want) != var_to_bytes(got):
		return "%s: %s, expected %s" % [at, show(got), show(want)]
	return ""


func differ_objects(want: Object, got: Object, at: String) -> String:
	var valid_want := is_instance_valid(want)
	if not valid_want or not is_instance_valid(got):
		return "" if valid_want == is_instance_valid(got) else "%s: %s, expected %s" % [at, show(got), show(want)]
	if want is EncodedObjectAsID or got is EncodedObjectAsID:
		if not (want is EncodedObjectAsID and got is EncodedObjectAsID) or want.get_object_id() != got.get_object_id():
			return "%s: %s, expected the object id %s" % [at, show(got), show(want)]
		return ""
	if want.get_class() != got.get_class() or script_path(want.get_script()) != script_path(got.get_script()):
		return "%s: a %s (%s), expected a %s (%s)" % [at, got.get_class(), script_path(got.get_script()),
				want.get_class(), script_path(want.get_script())]
	for p in want.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE and p.name != "script":
			var d := differ(want.get(p.name), got.get(p.name), "%s.%s" % [at, p.name])
			if d != "":
				return d
	return ""


func compare_sample(name: String, want, got) -> String:
	if name == "signal":
		if not (got is Signal) or got.get_name() != &"ready" or got.get_object_id() != 1234:
			return "expected the signal ready of the object id 1234, got " + show(got)
		return ""
	return differ(want, got, "")


static func script_path(s) -> String:
	return "" if s == null else String(s.resource_path)


static func typed_text(a: Array) -> String:
	return "%s/%s/%s" % [type_string(a.get_typed_builtin()), a.get_typed_class_name(), script_path(a.get_typed_script())]


static func show(v) -> String:
	var s := str(v)
	return s if s.length() <= 160 else s.substr(0, 160) + "..."


## Frees the objects decoded whole that no reference frees (Nodes, Objects).
static func free_objects(v) -> void:
	if v is Array:
		for x in v:
			free_objects(x)
	elif v is Dictionary:
		for k in v:
			free_objects(k)
			free_objects(v[k])
	elif v is Object and is_instance_valid(v) and not (v is RefCounted):
		v.free()


## Values of 1 MiB and more: TCP hands them to the other side in many pieces.
static func large_values() -> Array:
	var bytes := PackedByteArray()
	bytes.resize(3 << 19)
	for i in bytes.size() / 4:
		bytes.encode_u32(i * 4, (i * 2246822519 + 7) & 0xFFFFFFFF)
	var lines := PackedStringArray()
	for i in 70000:
		lines.append("%d: ünïcödé ✓ 日本語 🎼\n" % i)
	var arr := []
	arr.resize(120000)
	for i in arr.size():
		match i % 5:
			0: arr[i] = i
			1: arr[i] = i * 0.25
			2: arr[i] = StringName("s%d" % i)
			3: arr[i] = Vector3i(i, -i, 5)
			4: arr[i] = [i, {"k": PackedInt64Array([i, -i])}]
	var ints := PackedInt64Array()
	ints.resize(200000)
	for i in ints.size():
		ints[i] = i * 0x1E3779B97F4A7C15
	return [["large/packed_byte_array_1.5MiB", bytes, false], ["large/string", "".join(lines), false],
			["large/array_120000", arr, false], ["large/typed_dictionary_of_packed", Dictionary(
				{&"ints": ints, &"floats": PackedFloat64Array(range(100000))}, TYPE_STRING_NAME, &"", null, TYPE_NIL, &"", null), false]]


## What the server makes for "fvc:samples" (rust/wasm/examples/samples.mjs's sampleValues("godot4"),
## rust/python/examples/asyncio_echo_server.py's sample_values("godot4")), made here.
func expected_samples() -> Dictionary:
	var neg0 := GoldenValues.float_from_bits(GoldenValues.hx("8000000000000000"))  # a -0.0 literal folds to +0.0
	var block := PackedByteArray(range(256))
	var big_bytes := PackedByteArray()
	for i in 4100:
		big_bytes.append_array(block)
	var big_array := []
	big_array.resize(60000)
	for i in 60000:
		big_array[i] = i * 3 if i % 2 == 1 else str(i)
	var as_id := EncodedObjectAsID.new()
	as_id.set_object_id(123456789)
	var res := Resource.new()
	res.resource_name = "made in " + made_in
	var basis := Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2))
	return {
		"nil": null, "bool": true, "int": -42, "int_min64": -9223372036854775808,
		"int_max64": 9223372036854775807, "int_above_32": (1 << 40) + 7,
		"float": 0.1, "float_negative_zero": neg0, "float_inf": -INF, "float_1e300": 1e300,
		"string": "héllo 日本 🎼 \"q\" \\ \t\n", "string_empty": "",
		"vector2": Vector2(1.5, -0.1), "vector3": Vector3(0.1, 0.2, 0.3), "rect2": Rect2(1, 2, 3, 4.5),
		"transform2d": Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)),
		"plane": Plane(Vector3(0, 1, 0), 2.5), "quaternion": Quaternion(0.1, 0.2, 0.3, 0.9),
		"aabb": AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		"basis": Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"transform3d": Transform3D(basis, Vector3(10, 11, 12)), "color": Color(0.1, 0.2, 0.3, 0.4),
		"node_path": NodePath("/root/Main/Player:position:x"), "node_path_relative": NodePath("../Enemies/Boss"),
		"object_as_id": as_id, "object": res,
		"bytes": block, "int32s": PackedInt32Array([1, -2, 2147483647, -2147483648]),
		"float32s": PackedFloat32Array([1.5, -0.1, 1e30]), "strings": PackedStringArray(["a", "", "é日本"]),
		"vector2s": PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]),
		"vector3s": PackedVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)]),
		"colors": PackedColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]),
		"array": [1, "two", 3.5, [4, [5, [6]]], {"x": null}],
		"dictionary": {"a": 1, 2: "b", Vector2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": null}]}},
		"game_state": {
			"players": [
				{"name": "ann", "pos": Vector3(1, 2, 3), "inventory": PackedStringArray(["sword"]),
					"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1)},
				{"name": "bob", "pos": Vector3(-4, 0, 8.25), "inventory": PackedStringArray(),
					"stats": {"hp": 0, "mp": neg0}, "path": NodePath("Players/bob")},
			],
			"map": {"tiles": PackedInt32Array([0, 1, 1, 2, 3, 5, 8]), "spawn": [Vector2(0, 0), Vector2(10, -5)]},
			"meta": [[], {}, [[[1]]], null, true],
		},
		"big_bytes": big_bytes, "big_array": big_array,
		"string_name": &"player_name", "vector2i": Vector2i(-1, 2147483647), "vector3i": Vector3i(1, -2, 3),
		"vector4": Vector4(0.1, -0.2, 3, 4e20), "vector4i": Vector4i(-2147483648, 0, 7, 2147483647),
		"rect2i": Rect2i(1, 2, 3, 4),
		"projection": Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)),
		"rid": rid_from_int64(1 << 40), "signal": null, "callable": Callable(),
		"int64s": PackedInt64Array([1, -9223372036854775808, 9223372036854775807]),
		"float64s": PackedFloat64Array([0.1, neg0, 1e300]),
		"vector4s": PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-1, 0.5, 0, 0.1)]),
		"typed_ints": Array([1, -2, 1 << 40], TYPE_INT, &"", null),
		"typed_vector2s": Array([Vector2(1, 2), Vector2(0.5, -0.25)], TYPE_VECTOR2, &"", null),
		"typed_string_names": Array([&"a", &"日本"], TYPE_STRING_NAME, &"", null),
		"typed_arrays": Array([[1], [], ["x", null]], TYPE_ARRAY, &"", null),
		"typed_dictionary": Dictionary({"hp": 10, "mp": 5}, TYPE_STRING, &"", null, TYPE_INT, &"", null),
		"typed_dictionary_sn_vector3": Dictionary({&"spawn": Vector3(1, 2, 3)}, TYPE_STRING_NAME, &"", null, TYPE_VECTOR3, &"", null),
		"typed_dictionary_variant_values": Dictionary({1: "one", 2: [2]}, TYPE_INT, &"", null, TYPE_NIL, &"", null),
		"typed_inside_untyped": [Array([1], TYPE_INT, &"", null), {"t": Array(["s"], TYPE_STRING, &"", null)}],
		float_keys_name: {1: "int", 1.0: "float", true: "bool"},
		"big_int_and_unicode_keys": {4611686018427387904: "big", -9223372036854775808: "min", "日本": &"é"},
	}
