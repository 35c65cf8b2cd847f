extends SceneTree
## Golden-data generator for the Godot 4 binary Variant format (var_to_bytes / bytes_to_var).
## Writes the JSON described in tests/golden/FORMAT.md. Run through run.sh:
##   godot --headless --path <this dir> -s res://generate.gd -- OUTFILE
## Everything recorded here comes from the running engine; nothing is written by hand except the
## inputs: the values to encode (golden_values.gd, which the parity scene uses too) and the byte
## strings to decode (here).

const ITEM_PATH := "res://golden_item.gd"
const HOLDER_PATH := "res://golden_holder.gd"
const GoldenValues := preload("res://golden_values.gd")


## Captures engine error reports, so that the Error code of a failed decode can be read.
## (PacketPeer.get_packet_error() only reports the transport error, never the decode error.)
class Cap extends Logger:
	var errs: Array = []
	var script_errors: PackedStringArray = PackedStringArray()

	func _log_error(function: String, file: String, line: int, code: String, rationale: String,
			editor_notify: bool, error_type: int, script_backtraces: Array[ScriptBacktrace]) -> void:
		errs.append([function, file, line, code, rationale])
		if error_type == ERROR_TYPE_SCRIPT or file.begins_with("res://"):
			script_errors.append("%s:%d %s %s" % [file, line, code, rationale])

	func _log_message(message: String, error: bool) -> void:
		pass


var cap := Cap.new()
var NEG0: float = GoldenValues.float_from_bits(GoldenValues.hx("8000000000000000"))  # a -0.0 literal folds to +0.0
var cases: Array = []
var malformed: Array = []
var encode_failures: Array = []
var case_names := {}
var mal_seen := {}
var problems: PackedStringArray = PackedStringArray()  # self-check failures, printed at the end
var notes: PackedStringArray = PackedStringArray()  # observations printed at the end
var keep_alive: Array = []  # live objects referenced by id-mode cases
var item_script: Script
var holder_script: Script
var nodepath_leak := false
var packet_error_nonzero := 0
var err_names := {
	"OK": OK, "FAILED": FAILED, "ERR_UNAVAILABLE": ERR_UNAVAILABLE,
	"ERR_UNAUTHORIZED": ERR_UNAUTHORIZED, "ERR_OUT_OF_MEMORY": ERR_OUT_OF_MEMORY,
	"ERR_FILE_EOF": ERR_FILE_EOF, "ERR_INVALID_DATA": ERR_INVALID_DATA,
	"ERR_INVALID_PARAMETER": ERR_INVALID_PARAMETER, "ERR_PARSE_ERROR": ERR_PARSE_ERROR,
	"ERR_BUG": ERR_BUG, "ERR_CANT_CREATE": ERR_CANT_CREATE,
}


# ---------------------------------------------------------------- encoding helpers for the Desc

static func F(x: float) -> String:
	return PackedFloat64Array([x]).to_byte_array().hex_encode()


static func U(s) -> String:
	return String(s).to_utf8_buffer().hex_encode()


## Unsigned decimal of a u64 held in a (signed) GDScript int.
static func u64s(x: int) -> String:
	if x >= 0:
		return str(x)
	var hi := (x >> 32) & 0xFFFFFFFF
	var lo := x & 0xFFFFFFFF
	var q1 := hi / 10
	var r1 := hi % 10
	var t := (r1 << 32) | lo
	return str((q1 << 32) + t / 10) + str(t % 10)


static func fl(arr: Array) -> Array:
	var out := []
	for x in arr:
		out.append(F(x))
	return out


func typed_desc(builtin: int, cname: StringName, script) -> Dictionary:
	if script != null:
		return {"kind": "script", "path": U(script.resource_path)}
	if cname != &"":
		return {"kind": "class", "name": U(cname)}
	return {"kind": "builtin", "type": builtin}


func storage_props(o: Object) -> Array:
	var out := []
	for p in o.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			var val
			if p.name == "script":
				var sc = o.get_script()
				val = sc.resource_path if sc != null else null
			else:
				val = o.get(p.name)
			out.append([p.name, val])
	return out


## Describes any Variant as a Desc (FORMAT.md). `full` selects how live objects are described:
## as full objects (var_to_bytes_with_objects) or by instance id.
func describe(v, full: bool) -> Dictionary:
	match typeof(v):
		TYPE_NIL:
			return {"t": "nil"}
		TYPE_BOOL:
			return {"t": "bool", "v": v}
		TYPE_INT:
			return {"t": "int", "v": str(v)}
		TYPE_FLOAT:
			return {"t": "float", "v": F(v)}
		TYPE_STRING:
			return {"t": "string", "v": U(v)}
		TYPE_STRING_NAME:
			return {"t": "string_name", "v": U(v)}
		TYPE_VECTOR2:
			return {"t": "vector2", "v": fl([v.x, v.y])}
		TYPE_VECTOR2I:
			return {"t": "vector2i", "v": [v.x, v.y]}
		TYPE_RECT2:
			return {"t": "rect2", "v": fl([v.position.x, v.position.y, v.size.x, v.size.y])}
		TYPE_RECT2I:
			return {"t": "rect2i", "v": [v.position.x, v.position.y, v.size.x, v.size.y]}
		TYPE_VECTOR3:
			return {"t": "vector3", "v": fl([v.x, v.y, v.z])}
		TYPE_VECTOR3I:
			return {"t": "vector3i", "v": [v.x, v.y, v.z]}
		TYPE_TRANSFORM2D:
			return {"t": "transform2d", "v": fl([v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y])}
		TYPE_VECTOR4:
			return {"t": "vector4", "v": fl([v.x, v.y, v.z, v.w])}
		TYPE_VECTOR4I:
			return {"t": "vector4i", "v": [v.x, v.y, v.z, v.w]}
		TYPE_PLANE:
			return {"t": "plane", "v": fl([v.normal.x, v.normal.y, v.normal.z, v.d])}
		TYPE_QUATERNION:
			return {"t": "quaternion", "v": fl([v.x, v.y, v.z, v.w])}
		TYPE_AABB:
			return {"t": "aabb", "v": fl([v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z])}
		TYPE_BASIS:
			return {"t": "basis", "v": fl(basis_rows(v))}
		TYPE_TRANSFORM3D:
			var comps := basis_rows(v.basis)
			comps.append_array([v.origin.x, v.origin.y, v.origin.z])
			return {"t": "transform3d", "v": fl(comps)}
		TYPE_PROJECTION:
			var comps := []
			for c in [v.x, v.y, v.z, v.w]:
				comps.append_array([c.x, c.y, c.z, c.w])
			return {"t": "projection", "v": fl(comps)}
		TYPE_COLOR:
			return {"t": "color", "v": fl([v.r, v.g, v.b, v.a])}
		TYPE_NODE_PATH:
			var names := []
			var subnames := []
			for i in v.get_name_count():
				names.append(U(v.get_name(i)))
			for i in v.get_subname_count():
				subnames.append(U(v.get_subname(i)))
			return {"t": "node_path", "names": names, "subnames": subnames, "absolute": v.is_absolute()}
		TYPE_RID:
			return {"t": "rid", "v": u64s(v.get_id())}
		TYPE_OBJECT:
			if not is_instance_valid(v):
				return {"t": "nil"}
			if v is EncodedObjectAsID:
				return {"t": "object_id", "v": u64s(v.get_object_id())}
			if not full:
				return {"t": "object_id", "v": u64s(v.get_instance_id())}
			var props := []
			for p in storage_props(v):
				props.append([U(p[0]), describe(p[1], full)])
			return {"t": "object", "class": U(v.get_class()), "props": props}
		TYPE_CALLABLE:
			return {"t": "callable"}
		TYPE_SIGNAL:
			return {"t": "signal", "name": U(v.get_name()), "object": u64s(v.get_object_id())}
		TYPE_DICTIONARY:
			var kt = null
			var vt = null
			if v.is_typed_key():
				kt = typed_desc(v.get_typed_key_builtin(), v.get_typed_key_class_name(), v.get_typed_key_script())
			if v.is_typed_value():
				vt = typed_desc(v.get_typed_value_builtin(), v.get_typed_value_class_name(), v.get_typed_value_script())
			var entries := []
			var ks: Array = v.keys()
			var vs: Array = v.values()
			for i in ks.size():
				entries.append([describe(ks[i], full), describe(vs[i], full)])
			return {"t": "dictionary", "key_typed": kt, "value_typed": vt, "entries": entries}
		TYPE_ARRAY:
			var td = null
			if v.is_typed():
				td = typed_desc(v.get_typed_builtin(), v.get_typed_class_name(), v.get_typed_script())
			var items := []
			for e in v:
				items.append(describe(e, full))
			return {"t": "array", "typed": td, "items": items}
		TYPE_PACKED_BYTE_ARRAY:
			return {"t": "packed_byte_array", "v": v.hex_encode()}
		TYPE_PACKED_INT32_ARRAY:
			return {"t": "packed_int32_array", "v": v.to_byte_array().hex_encode()}
		TYPE_PACKED_INT64_ARRAY:
			return {"t": "packed_int64_array", "v": v.to_byte_array().hex_encode()}
		TYPE_PACKED_FLOAT32_ARRAY:
			return {"t": "packed_float32_array", "v": v.to_byte_array().hex_encode()}
		TYPE_PACKED_FLOAT64_ARRAY:
			return {"t": "packed_float64_array", "v": v.to_byte_array().hex_encode()}
		TYPE_PACKED_STRING_ARRAY:
			var items := []
			for s in v:
				items.append(U(s))
			return {"t": "packed_string_array", "v": items}
		TYPE_PACKED_VECTOR2_ARRAY:
			return {"t": "packed_vector2_array", "v": v.to_byte_array().hex_encode()}
		TYPE_PACKED_VECTOR3_ARRAY:
			return {"t": "packed_vector3_array", "v": v.to_byte_array().hex_encode()}
		TYPE_PACKED_COLOR_ARRAY:
			return {"t": "packed_color_array", "v": v.to_byte_array().hex_encode()}
		TYPE_PACKED_VECTOR4_ARRAY:
			return {"t": "packed_vector4_array", "v": v.to_byte_array().hex_encode()}
	problems.append("describe: unknown type %d" % typeof(v))
	return {"t": "unknown"}


## Basis in wire order: row-major, row i = (X[i], Y[i], Z[i]) where X/Y/Z are the columns.
static func basis_rows(b: Basis) -> Array:
	return [b.x.x, b.y.x, b.z.x, b.x.y, b.y.y, b.z.y, b.x.z, b.y.z, b.z.z]


# ---------------------------------------------------------------- byte helpers

static func u32(x: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, x & 0xFFFFFFFF)
	return b


static func u64b(x: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(8)
	b.encode_s64(0, x)
	return b


static func f32b(x: float) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_float(0, x)
	return b


static func raw(s: String) -> PackedByteArray:
	return s.to_utf8_buffer()


## String payload (u32 length + bytes + zero padding) taken from the engine's own String encoding.
static func strpay(s) -> PackedByteArray:
	return var_to_bytes(String(s)).slice(4)


## String payload built from raw bytes (for malformed input).
static func rawstr(b: PackedByteArray, pad := true) -> PackedByteArray:
	var out := u32(b.size())
	out.append_array(b)
	if pad:
		while out.size() % 4:
			out.append(0)
	return out


static func cat(parts: Array) -> PackedByteArray:
	var out := PackedByteArray()
	for p in parts:
		if p is PackedByteArray:
			out.append_array(p)
		elif p is String:
			out.append_array(p.hex_decode())
		elif p is int:
			out.append_array(u32(p))
	return out


# ---------------------------------------------------------------- cases

func add_case(name: String, v, full := false) -> void:
	if case_names.has(name):
		problems.append("duplicate case name " + name)
		return
	case_names[name] = true
	var b: PackedByteArray = var_to_bytes_with_objects(v) if full else var_to_bytes(v)
	if b.is_empty():
		encode_failures.append(name)
	var d = bytes_to_var_with_objects(b) if full else bytes_to_var(b)
	var c := {"name": name, "full_objects": full, "value": describe(v, full), "bytes": b.hex_encode(),
			"decoded": describe(d, full)}
	cases.append(c)
	check_case(name, v, b, c, full)
	# Free nodes created by decoding, so that the exit is tidy (the Desc is already taken).
	if d is Node:
		d.free()


## Self-checks that the Desc really matches the bytes the engine wrote.
func check_case(name: String, v, b: PackedByteArray, c: Dictionary, full: bool) -> void:
	if b.is_empty():
		return
	var t := typeof(v)
	var float_types := [TYPE_VECTOR2, TYPE_RECT2, TYPE_VECTOR3, TYPE_TRANSFORM2D, TYPE_VECTOR4, TYPE_PLANE,
			TYPE_QUATERNION, TYPE_AABB, TYPE_BASIS, TYPE_TRANSFORM3D, TYPE_PROJECTION, TYPE_COLOR]
	var int_types := [TYPE_VECTOR2I, TYPE_RECT2I, TYPE_VECTOR3I, TYPE_VECTOR4I]
	if t in float_types:
		# Bit 16 of the header: binary64 components (an engine built with precision=double).
		var wide := (b.decode_u32(0) & (1 << 16)) != 0
		var payload := b.slice(4)
		var got := fl(Array(payload.to_float64_array() if wide else payload.to_float32_array()))
		if got != c.value.v:
			problems.append("%s: component order differs from bytes: %s vs %s" % [name, got, c.value.v])
	elif t in int_types:
		if Array(b.slice(4).to_int32_array()) != c.value.v:
			problems.append("%s: int component order differs from bytes" % name)
	elif t == TYPE_OBJECT and full and is_instance_valid(v):
		var exp := expected_full_object(v)
		if exp != b:
			problems.append("%s: full-object Desc does not rebuild the engine bytes\n  engine %s\n  rebuilt %s" % [name, b.hex_encode(), exp.hex_encode()])
	elif t == TYPE_NODE_PATH:
		check_nodepath_padding(b)


## Rebuilds the engine's full-object encoding from the property list as described.
func expected_full_object(o: Object) -> PackedByteArray:
	var props := storage_props(o)
	var parts := ["18000000", strpay(o.get_class()), props.size()]
	for p in props:
		parts.append(strpay(p[0]))
		parts.append(var_to_bytes_with_objects(p[1]))
	return cat(parts)


func check_nodepath_padding(b: PackedByteArray) -> void:
	var names := b.decode_u32(4) & 0x7FFFFFFF
	var total := names + b.decode_u32(8)
	var ofs := 16
	for i in total:
		var n := b.decode_u32(ofs)
		ofs += 4 + n
		while ofs % 4:
			if b[ofs] != 0:
				nodepath_leak = true
			ofs += 1


## The values of tests/golden/gen/godot4/golden_values.gd, each encoded and decoded by the engine.
func build_cases() -> void:
	GoldenValues.add_all(add_case, self, item_script, holder_script, keep_alive)


# ---------------------------------------------------------------- malformed

## The name after "Returning: " in an ERR_FAIL_* report ("ERR_INVALID_DATA", "FAILED"), or "".
## Plain string search, not RegEx: the double-precision engine is built without the regex module.
static func returned_error_name(code: String) -> String:
	var at := code.find("Returning: ")
	if at < 0:
		return ""
	var name := code.substr(at + len("Returning: "))
	var end := 0
	while end < name.length() and (name[end] == "_" or (name[end] >= "A" and name[end] <= "Z")):
		end += 1
	return name.substr(0, end)


## Error code of the decode that just ran, taken from the first error report of marshalls.cpp.
## Every decode_variant failure path reports through an ERR_FAIL_* macro whose text carries the
## returned Error (the innermost report comes first; outer frames only propagate it).
func decode_error(errs: Array) -> int:
	for e in errs:
		if not String(e[1]).ends_with("core/io/marshalls.cpp"):
			continue
		var code: String = e[3]
		var returned := returned_error_name(code)
		if err_names.has(returned):
			return err_names[returned]
		if code.begins_with("Index ") and e[0] == "_decode_container_type":
			return ERR_INVALID_DATA  # ERR_FAIL_INDEX_V(bt, Variant::VARIANT_MAX, ERR_INVALID_DATA)
		if code.begins_with("Parameter \"obj\" is null"):
			return ERR_UNAVAILABLE  # ERR_FAIL_NULL_V(obj, ERR_UNAVAILABLE)
		if code.ends_with("Returning: err"):
			continue
		problems.append("unrecognised decode error report: %s" % [e])
		return -1
	return OK


func add_mal(name: String, b: PackedByteArray, ao: bool) -> void:
	var key := ("1:" if ao else "0:") + b.hex_encode()
	if mal_seen.has(key):
		return
	mal_seen[key] = true
	cap.errs.clear()
	var v = bytes_to_var_with_objects(b) if ao else bytes_to_var(b)
	var err := decode_error(cap.errs)
	var size := b.decode_var_size(0, ao)
	var has := b.has_encoded_var(0, ao)
	# The PacketPeer route: one packet holding exactly these bytes.
	var sp := StreamPeerBuffer.new()
	sp.put_32(b.size())
	sp.put_data(b)
	sp.seek(0)
	var pp := PacketPeerStream.new()
	pp.stream_peer = sp
	var pv = pp.get_var(ao)
	var perr := pp.get_packet_error()
	if perr != OK:
		packet_error_nonzero += 1
	var ok := err == OK
	if ok != (size != 0) or ok != has:
		problems.append("%s: ok disagrees: log error %d, decode_var_size %d, has_encoded_var %s" % [name, err, size, has])
	var m := {"name": name, "allow_objects": ao, "bytes": b.hex_encode(), "ok": ok, "error": err, "size": size}
	if ok:
		m["decoded"] = describe(v, ao)
		if describe(pv, ao) != m["decoded"] and not has_object(v):
			problems.append("%s: PacketPeer.get_var decoded differently" % name)
	elif pv != null:
		problems.append("%s: PacketPeer.get_var returned a value for a failed decode" % name)
	malformed.append(m)
	for x in [v, pv]:
		if x is Node:
			x.free()


func has_object(v) -> bool:
	return typeof(v) == TYPE_OBJECT or (typeof(v) in [TYPE_ARRAY, TYPE_DICTIONARY] and var_to_str(v).contains("Object("))


var flip_rng := RandomNumberGenerator.new()


## Truncations, seeded random single-bit flips, and flips of every bit of the header word and of
## the given 32-bit words (the first length/count words).
func mutate(base: String, b: PackedByteArray, ao: bool, words: Array = [4]) -> void:
	add_mal("valid/" + base, b, ao)
	for n in b.size():
		add_mal("trunc/%s/%d" % [base, n], b.slice(0, n), ao)
	for bit in 32:
		var c := b.duplicate()
		c[bit / 8] ^= 1 << (bit % 8)
		add_mal("flip/%s/header/%d" % [base, bit], c, ao)
	for w in words:
		if w + 4 > b.size():
			continue
		for bit in 32:
			var c := b.duplicate()
			c[w + bit / 8] ^= 1 << (bit % 8)
			add_mal("flip/%s/word%d/%d" % [base, w, bit], c, ao)
	for i in 8:
		var byte := flip_rng.randi_range(0, b.size() - 1)
		var bit := flip_rng.randi_range(0, 7)
		var c := b.duplicate()
		c[byte] ^= 1 << bit
		add_mal("flip/%s/random/%d.%d" % [base, byte, bit], c, ao)


func build_malformed() -> void:
	flip_rng.seed = 424242
	crafted()  # first, so that hand-crafted inputs keep their names when a mutation repeats them
	var item = item_script.new()
	item.title = "t"
	item.count = 2
	var res := Resource.new()
	res.resource_name = "r"
	keep_alive.append_array([item, res])
	var node := Node.new()
	keep_alive.append(node)
	# [name, value, full_objects, extra words to flip]
	var bases := [
		["nil", null, false, []],
		["bool", true, false, []],
		["int32", -2, false, []],
		["int64", 1 << 40, false, []],
		["float32", 0.5, false, []],
		["float64", 0.1, false, []],
		["string_len0", "", false, []],
		["string_len1", "a", false, []],
		["string_len2", "é", false, []],
		["string_len3", "abc", false, []],
		["string_len4", "日a", false, []],
		["string_len5", "a😀", false, []],
		["string_name", &"sn", false, []],
		["node_path", NodePath("/a/bc:d"), false, [8, 12, 16]],
		["node_path_empty", NodePath(""), false, [8, 12]],
		["vector2", Vector2(1, 2), false, []],
		["vector2i", Vector2i(1, -1), false, []],
		["rect2", Rect2(1, 2, 3, 4), false, []],
		["rect2i", Rect2i(1, 2, 3, 4), false, []],
		["vector3", Vector3(1, 2, 3), false, []],
		["vector3i", Vector3i(1, 2, 3), false, []],
		["transform2d", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)), false, []],
		["vector4", Vector4(1, 2, 3, 4), false, []],
		["vector4i", Vector4i(1, 2, 3, 4), false, []],
		["plane", Plane(1, 2, 3, 4), false, []],
		["quaternion", Quaternion(1, 2, 3, 4), false, []],
		["aabb", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), false, []],
		["basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), false, []],
		["transform3d", Transform3D.IDENTITY, false, []],
		["projection", Projection.IDENTITY, false, []],
		["color", Color(1, 0, 0, 1), false, []],
		["rid", rid_from_int64(13), false, []],
		["object_id", res, false, []],
		["object_full_resource", res, true, [8, 16]],
		["object_full_golden_item", item, true, [8, 16]],
		["callable", Callable(), false, []],
		["signal", Signal(res, "changed"), false, [12]],
		["dictionary", {"a": 1, 2: [3]}, false, [8]],
		["array", [1, "ab", [null]], false, [8, 12]],
		["array_typed_int", Array([1, 2], TYPE_INT, &"", null), false, [8]],
		["array_typed_node_id", Array([node], TYPE_OBJECT, &"Node", null), false, [8, 28]],
		["array_typed_script_full", Array([item], TYPE_OBJECT, &"Resource", item_script), true, [8, 28]],
		["dictionary_typed", Dictionary({"k": 1.5}, TYPE_STRING, &"", null, TYPE_FLOAT, &"", null), false, [8, 12]],
		["packed_byte_array_len3", PackedByteArray([1, 2, 3]), false, []],
		["packed_byte_array_len4", PackedByteArray([1, 2, 3, 4]), false, []],
		["packed_int32_array", PackedInt32Array([1, -1]), false, []],
		["packed_int64_array", PackedInt64Array([1, -1]), false, []],
		["packed_float32_array", PackedFloat32Array([0.5]), false, []],
		["packed_float64_array", PackedFloat64Array([0.1]), false, []],
		["packed_string_array", PackedStringArray(["ab", "", "日本"]), false, [8]],
		["packed_vector2_array", PackedVector2Array([Vector2(1, 2)]), false, []],
		["packed_vector3_array", PackedVector3Array([Vector3(1, 2, 3)]), false, []],
		["packed_color_array", PackedColorArray([Color(1, 0, 0, 1)]), false, []],
		["packed_vector4_array", PackedVector4Array([Vector4(1, 2, 3, 4)]), false, []],
	]
	for base in bases:
		var b: PackedByteArray = var_to_bytes_with_objects(base[1]) if base[2] else var_to_bytes(base[1])
		if b.is_empty():
			problems.append("malformed base %s did not encode" % base[0])
			continue
		var words: Array = [4]
		words.append_array(base[3])
		mutate(base[0], b, base[2], words)


func crafted() -> void:
	var full_res := var_to_bytes_with_objects(Resource.new())
	var item = item_script.new()
	item.count = 9
	var full_item := var_to_bytes_with_objects(item)
	var c := {
		# header
		"type_39": cat([39]),
		"type_255": cat(["ff000000"]),
		"type_0x0127": cat(["27010000"]),
		"header_ffff0002_int64": cat(["0200ffff", "2a00000000000000"]),
		"header_ffff0002_int32_payload_only": cat(["0200ffff", "2a000000"]),
		"header_byte1_set_int32": cat(["02010000", "2a000000"]),
		"header_unused_bits_string": cat(["0400fcff", rawstr(raw("ab"))]),
		"header_unused_bits_nil": cat(["00ffffff"]),
		"header_flag_on_bool": cat(["01000100", 1]),
		"header_flag_on_color": cat(["14000100", f32b(1), f32b(0), f32b(0), f32b(1)]),
		"header_flag_on_color_with_doubles": cat(["14000100", u64b(0x3ff0000000000000), u64b(0), u64b(0), u64b(0x3ff0000000000000)]),
		"header_flag_on_packed_float32": cat(["20000100", 1, f32b(0.5)]),
		"header_flag_on_callable": cat(["19000100"]),
		"header_flag_on_rid": cat(["17000100", u64b(13)]),
		"header_flag_on_vector2i": cat(["06000100", 1, 2]),
		# scalars
		"bool_2": cat(["01000000", 2]),
		"bool_ffffffff": cat(["01000000", "ffffffff"]),
		"bool_missing": cat(["01000000"]),
		"int64_flag_short": cat(["02000100", "2a000000"]),
		"int32_trailing_garbage": cat(["02000000", "2a000000", "deadbeef"]),
		"int32_trailing_partial": cat(["02000000", "2a000000", "01"]),
		"nil_trailing": cat(["00000000", "00000000"]),
		"float64_vector2": cat(["05000100", u64b(0x3ff0000000000000), u64b(0x3fb999999999999a)]),
		"float64_vector2_short": cat(["05000100", u64b(0x3ff0000000000000)]),
		"float64_vector3": cat(["09000100", u64b(0x3ff0000000000000), u64b(0x3fb999999999999a), u64b(0x7ff8000000000001)]),
		"float64_transform2d": cat(["0b000100", u64b(0x3ff0000000000000), u64b(0x4000000000000000), u64b(0x4008000000000000), u64b(0x4010000000000000), u64b(0x4014000000000000), u64b(0x3fb999999999999a)]),
		"float64_basis": cat(["11000100"] + range(9).map(func(i): return u64b(float_to_bits(1.0 + i)))),
		"float64_transform3d": cat(["12000100"] + range(12).map(func(i): return u64b(float_to_bits(0.1 * i)))),
		"float64_projection": cat(["13000100"] + range(16).map(func(i): return u64b(float_to_bits(1.0 + i)))),
		"float64_projection_short": cat(["13000100"] + range(15).map(func(i): return u64b(float_to_bits(1.0 + i)))),
		"float64_aabb": cat(["10000100"] + range(6).map(func(i): return u64b(float_to_bits(-0.5 * i)))),
		"float64_plane": cat(["0e000100"] + range(4).map(func(i): return u64b(float_to_bits(1e300 * i)))),
		"float64_quaternion": cat(["0f000100"] + range(4).map(func(i): return u64b(float_to_bits(0.1 + i)))),
		"float64_rect2": cat(["07000100"] + range(4).map(func(i): return u64b(float_to_bits(0.1 + i)))),
		"float64_vector4": cat(["0c000100"] + range(4).map(func(i): return u64b(float_to_bits(0.1 + i)))),
		"float64_packed_vector2": cat(["23000100", 1, u64b(0x3fb999999999999a), u64b(0x4000000000000000)]),
		"float64_packed_vector3": cat(["24000100", 1, u64b(0x3fb999999999999a), u64b(0x4000000000000000), u64b(0)]),
		"float64_packed_vector4": cat(["26000100", 1, u64b(0x3fb999999999999a), u64b(0x4000000000000000), u64b(0), u64b(0x3ff0000000000000)]),
		"float64_packed_vector2_short": cat(["23000100", 1, u64b(0x3fb999999999999a)]),
		"float_nan_f32": cat(["03000000", "0100c07f"]),
		"float_snan_f32": cat(["03000000", "0100807f"]),
		# strings
		"string_missing_padding": cat(["04000000", 3, raw("abc")]),
		"string_missing_one_pad_of_two": cat(["04000000", 2, raw("ab"), "00"]),
		"string_len_negative": cat(["04000000", "ffffffff", raw("abcd")]),
		"string_len_0x7fffffff": cat(["04000000", "ffffff7f", raw("abcd")]),
		"string_len_overflow_pad": cat(["04000000", "fdffff7f", raw("abcd")]),
		"string_len_missing": cat(["04000000", "0100"]),
		"string_nonzero_padding": cat(["04000000", 1, "61ffffff"]),
		"string_utf8_lone_continuation": cat(["04000000", rawstr("80".hex_decode())]),
		"string_utf8_overlong_c080": cat(["04000000", rawstr("c080".hex_decode())]),
		"string_utf8_overlong_e08080": cat(["04000000", rawstr("e08080".hex_decode())]),
		"string_utf8_overlong_f0808080": cat(["04000000", rawstr("f0808080".hex_decode())]),
		"string_utf8_surrogate_eda080": cat(["04000000", rawstr("eda080".hex_decode())]),
		"string_utf8_surrogate_pair_cesu": cat(["04000000", rawstr("eda0bdedb880".hex_decode())]),
		"string_utf8_f4908080": cat(["04000000", rawstr("f4908080".hex_decode())]),
		"string_utf8_truncated_e282": cat(["04000000", rawstr("e282".hex_decode())]),
		"string_utf8_truncated_then_ascii": cat(["04000000", rawstr("e28261".hex_decode())]),
		"string_utf8_ff": cat(["04000000", rawstr("ff".hex_decode())]),
		"string_utf8_fe": cat(["04000000", rawstr("fe".hex_decode())]),
		"string_utf8_5byte": cat(["04000000", rawstr("f888808080".hex_decode())]),
		"string_utf8_c1bf": cat(["04000000", rawstr("c1bf".hex_decode())]),
		"string_utf8_embedded_nul": cat(["04000000", rawstr("610062".hex_decode())]),
		"string_utf8_leading_nul": cat(["04000000", rawstr("006162".hex_decode())]),
		"string_utf8_nul_then_invalid": cat(["04000000", rawstr("6100ff".hex_decode())]),
		"string_utf8_bom": cat(["04000000", rawstr("efbbbf61".hex_decode())]),
		"string_utf8_bom_only": cat(["04000000", rawstr("efbbbf".hex_decode())]),
		"string_utf8_double_bom": cat(["04000000", rawstr("efbbbfefbbbf61".hex_decode())]),
		"string_utf8_max_10ffff": cat(["04000000", rawstr("f48fbfbf".hex_decode())]),
		"string_name_utf8_invalid": cat(["15000000", rawstr("c080".hex_decode())]),
		"string_name_bom": cat(["15000000", rawstr("efbbbf61".hex_decode())]),
		# node paths
		"node_path_without_bit31": cat(["16000000", 1, 0, 0, rawstr(raw("a"))]),
		"node_path_old_format_string": cat(["16000000", rawstr(raw("a/b"))]),
		"node_path_property_bit": cat(["16000000", "01000080", 0, 2, rawstr(raw("a")), rawstr(raw("b"))]),
		"node_path_property_bit_with_sub": cat(["16000000", "01000080", 1, 2, rawstr(raw("a")), rawstr(raw("b")), rawstr(raw("c"))]),
		"node_path_property_bit_missing_name": cat(["16000000", "01000080", 0, 2, rawstr(raw("a"))]),
		"node_path_absolute_and_property": cat(["16000000", "00000080", 0, 3, rawstr(raw("p"))]),
		"node_path_other_flag_bits": cat(["16000000", "01000080", 0, "fcffffff", rawstr(raw("a"))]),
		"node_path_counts_short": cat(["16000000", "01000080", 0]),
		"node_path_huge_name_count": cat(["16000000", "ffffffff", 0, 0, rawstr(raw("a"))]),
		"node_path_huge_subname_count": cat(["16000000", "00000080", "ffffff7f", 0, rawstr(raw("a"))]),
		"node_path_nonzero_padding": cat(["16000000", "01000080", 0, 0, 1, "61ababab"]),
		"node_path_empty_name": cat(["16000000", "01000080", 0, 0, 0]),
		"node_path_bad_utf8": cat(["16000000", "01000080", 0, 0, rawstr("ff".hex_decode())]),
		"node_path_name_with_slash": cat(["16000000", "01000080", 1, 0, rawstr(raw("a/b")), rawstr(raw("c:d"))]),
		# rid / signal / callable
		"rid_short": cat(["17000000", 13]),
		"signal_no_id": cat(["1a000000", rawstr(raw("sig"))]),
		"signal_short_id": cat(["1a000000", rawstr(raw("sig")), 1]),
		"signal_id_zero": cat(["1a000000", rawstr(raw("sig")), u64b(0)]),
		"signal_empty_name_id": cat(["1a000000", 0, u64b(12345)]),
		"callable_trailing": cat(["19000000", "01020304"]),
		# objects
		"object_id_zero": cat(["18000100", u64b(0)]),
		"object_id_max": cat(["18000100", u64b(-1)]),
		"object_id_short": cat(["18000100", 1]),
		"object_full_empty_class": cat(["18000000", 0]),
		"object_full_empty_class_trailing": cat(["18000000", 0, "deadbeef"]),
		"object_full_no_such_class": cat(["18000000", strpay("NoSuchClass"), 0]),
		"object_full_abstract_class": cat(["18000000", strpay("Script"), 0]),
		"object_full_noninstantiable_rendering_server": cat(["18000000", strpay("RenderingServer"), 0]),
		"object_full_class_lowercase": cat(["18000000", strpay("resource"), 0]),
		"object_full_no_count": cat(["18000000", strpay("Resource")]),
		"object_full_negative_count": cat(["18000000", strpay("Resource"), "ffffffff"]),
		"object_full_zero_props": cat(["18000000", strpay("Resource"), 0]),
		"object_full_unknown_prop": cat(["18000000", strpay("Resource"), 1, strpay("no_such_prop"), var_to_bytes(5)]),
		"object_full_wrong_prop_type": cat(["18000000", strpay("Resource"), 1, strpay("resource_name"), var_to_bytes(5)]),
		"object_full_duplicate_prop": cat(["18000000", strpay("Resource"), 2, strpay("resource_name"), var_to_bytes("a"), strpay("resource_name"), var_to_bytes("b")]),
		"object_full_script_bad_path": cat(["18000000", strpay("Resource"), 1, strpay("script"), var_to_bytes("res://nope.gd")]),
		"object_full_script_not_res": cat(["18000000", strpay("Resource"), 1, strpay("script"), var_to_bytes("user://x.gd")]),
		"object_full_script_int": cat(["18000000", strpay("Resource"), 1, strpay("script"), var_to_bytes(1)]),
		"object_full_script_string_name": cat(["18000000", strpay("Resource"), 1, strpay("script"), var_to_bytes(&"res://golden_item.gd")]),
		"object_full_script_nil": cat(["18000000", strpay("Resource"), 1, strpay("script"), var_to_bytes(null)]),
		"object_full_script_ok_props_after": cat(["18000000", strpay("Resource"), 2, strpay("script"), var_to_bytes(ITEM_PATH), strpay("count"), var_to_bytes(42)]),
		"object_full_script_props_before_script": cat(["18000000", strpay("Resource"), 2, strpay("count"), var_to_bytes(42), strpay("script"), var_to_bytes(ITEM_PATH)]),
		"object_full_script_on_wrong_base": cat(["18000000", strpay("RefCounted"), 1, strpay("script"), var_to_bytes(ITEM_PATH)]),
		"object_full_nested_id_mode": cat(["18000000", strpay("Resource"), 1, strpay("resource_name"), cat(["18000100", u64b(77)])]),
		"object_full_node": cat(["18000000", strpay("Node"), 1, strpay("name"), var_to_bytes("N")]),
		# containers
		"array_count_bit31": cat(["1c000000", "01000080", var_to_bytes(5)]),
		"array_count_bit31_only": cat(["1c000000", "00000080"]),
		"array_count_huge_short": cat(["1c000000", "ffffff7f", var_to_bytes(5)]),
		"array_count_ffffffff": cat(["1c000000", "ffffffff"]),
		"array_count_missing": cat(["1c000000"]),
		"array_count_more_than_items": cat(["1c000000", 3, var_to_bytes(1), var_to_bytes(2)]),
		"array_trailing": cat(["1c000000", 1, var_to_bytes(1), var_to_bytes(2)]),
		"dictionary_count_bit31": cat(["1b000000", "01000080", var_to_bytes("a"), var_to_bytes(1)]),
		"dictionary_count_huge_short": cat(["1b000000", "ffffff7f", var_to_bytes("a"), var_to_bytes(1)]),
		"dictionary_key_without_value": cat(["1b000000", 1, var_to_bytes("a")]),
		"dictionary_duplicate_int_keys": cat(["1b000000", 2, var_to_bytes(1), var_to_bytes("a"), var_to_bytes(1), var_to_bytes("b")]),
		"dictionary_string_then_string_name_key": cat(["1b000000", 3, var_to_bytes("k"), var_to_bytes(1), var_to_bytes("z"), var_to_bytes(2), var_to_bytes(&"k"), var_to_bytes(3)]),
		"dictionary_string_name_then_string_key": cat(["1b000000", 2, var_to_bytes(&"k"), var_to_bytes(1), var_to_bytes("k"), var_to_bytes(2)]),
		"dictionary_int_and_float_key": cat(["1b000000", 2, var_to_bytes(1), var_to_bytes("i"), var_to_bytes(1.0), var_to_bytes("f")]),
		"dictionary_nan_keys": cat(["1b000000", 2, var_to_bytes(NAN), var_to_bytes(1), var_to_bytes(NAN), var_to_bytes(2)]),
		"dictionary_neg_zero_key": cat(["1b000000", 2, var_to_bytes(0.0), var_to_bytes(1), var_to_bytes(NEG0), var_to_bytes(2)]),
		"dictionary_empty_typed_kind_bits_no_info": cat(["1b000500", 0]),
		# typed arrays
		"array_typed_int_with_float_and_string": cat(["1c000100", 2, 3, var_to_bytes(1.5), var_to_bytes("x"), var_to_bytes(7)]),
		"array_typed_int_with_whole_float": cat(["1c000100", 2, 1, var_to_bytes(2.0)]),
		"array_typed_float_with_int": cat(["1c000100", 3, 2, var_to_bytes(2), var_to_bytes(0.5)]),
		"array_typed_string_with_string_name": cat(["1c000100", 4, 1, var_to_bytes(&"sn")]),
		"array_typed_string_name_with_string": cat(["1c000100", 21, 1, var_to_bytes("s")]),
		"array_typed_string_with_node_path": cat(["1c000100", 4, 1, var_to_bytes(NodePath("a"))]),
		"array_typed_vector2_with_vector2i": cat(["1c000100", 5, 1, var_to_bytes(Vector2i(1, 2))]),
		"array_typed_int_with_nil": cat(["1c000100", 2, 1, var_to_bytes(null)]),
		"array_typed_int_with_bool": cat(["1c000100", 2, 1, var_to_bytes(true)]),
		"array_typed_packed_byte_with_array": cat(["1c000100", 29, 1, var_to_bytes([1, 2])]),
		"array_typed_array_with_packed": cat(["1c000100", 28, 1, var_to_bytes(PackedByteArray([1]))]),
		"array_typed_builtin_nil": cat(["1c000100", 0, 1, var_to_bytes(5)]),
		"array_typed_builtin_object_id": cat(["1c000100", 24, 1, cat(["18000100", u64b(77)])]),
		"array_typed_builtin_38": cat(["1c000100", 38, 0]),
		"array_typed_builtin_39": cat(["1c000100", 39, 0]),
		"array_typed_builtin_negative": cat(["1c000100", "ffffffff", 0]),
		"array_typed_info_missing": cat(["1c000100"]),
		"array_typed_count_missing": cat(["1c000100", 2]),
		"array_typed_class_node_with_int": cat(["1c000200", strpay("Node"), 1, var_to_bytes(5)]),
		"array_typed_class_node_with_id": cat(["1c000200", strpay("Node"), 1, cat(["18000100", u64b(77)])]),
		"array_typed_class_empty_name": cat(["1c000200", 0, 0]),
		"array_typed_class_no_such": cat(["1c000200", strpay("NoSuchClass"), 0]),
		"array_typed_class_bad_utf8": cat(["1c000200", rawstr("c080".hex_decode()), 0]),
		"array_typed_script_ok": cat(["1c000300", strpay(ITEM_PATH), 0]),
		"array_typed_script_bad_path": cat(["1c000300", strpay("res://nope.gd"), 0]),
		"array_typed_script_not_res": cat(["1c000300", strpay("/etc/passwd"), 0]),
		"array_typed_script_empty": cat(["1c000300", 0, 0]),
		"array_typed_script_with_plain_resource": cat(["1c000300", strpay(ITEM_PATH), 1, full_res]),
		"array_typed_script_with_item": cat(["1c000300", strpay(ITEM_PATH), 1, full_item]),
		"array_typed_script_with_int": cat(["1c000300", strpay(ITEM_PATH), 1, var_to_bytes(1)]),
		"array_typed_class_resource_with_item": cat(["1c000200", strpay("Resource"), 1, full_item]),
		"array_typed_class_node_with_resource": cat(["1c000200", strpay("Node"), 1, full_res]),
		# typed dictionaries
		"dictionary_typed_int_int_with_string_key": cat(["1b000500", 2, 2, 2, var_to_bytes("a"), var_to_bytes(1), var_to_bytes(2), var_to_bytes(3)]),
		"dictionary_typed_int_int_with_string_value": cat(["1b000500", 2, 2, 1, var_to_bytes(1), var_to_bytes("v")]),
		"dictionary_typed_float_key_with_int": cat(["1b000100", 3, 1, var_to_bytes(1), var_to_bytes(1)]),
		"dictionary_typed_value_float_with_int": cat(["1b000400", 3, 1, var_to_bytes("k"), var_to_bytes(1)]),
		"dictionary_typed_value_only_class": cat(["1b000800", strpay("Resource"), 0]),
		"dictionary_typed_key_script_value_builtin": cat(["1b000700", strpay(ITEM_PATH), 2, 0]),
		"dictionary_typed_value_script_bad": cat(["1b000c00", strpay("res://nope.gd"), 0]),
		"dictionary_typed_key_builtin_39": cat(["1b000100", 39, 0]),
		"dictionary_typed_value_info_missing": cat(["1b000500", 2]),
		"dictionary_typed_high_bits": cat(["1b00f5ff", 2, 2, 0]),
		# packed arrays
		"packed_byte_array_missing_padding": cat(["1d000000", 3, "010203"]),
		"packed_byte_array_missing_padding_len1": cat(["1d000000", 1, "01"]),
		"packed_byte_array_missing_one_pad": cat(["1d000000", 2, "0102", "00"]),
		"packed_byte_array_nonzero_padding": cat(["1d000000", 1, "01ffffff"]),
		"packed_byte_array_negative": cat(["1d000000", "ffffffff", "01020304"]),
		"packed_byte_array_huge": cat(["1d000000", "ffffff7f", "01020304"]),
		"packed_byte_array_count_missing": cat(["1d000000"]),
		"packed_int32_array_huge": cat(["1e000000", "ffffff7f", 1]),
		"packed_int32_array_mul_overflow": cat(["1e000000", "00000040", 1]),
		"packed_int32_array_negative": cat(["1e000000", "ffffffff", 1]),
		"packed_int32_array_partial_element": cat(["1e000000", 2, 1, "0100"]),
		"packed_int64_array_mul_overflow": cat(["1f000000", "00000020", 1, 1]),
		"packed_int64_array_partial": cat(["1f000000", 1, 1]),
		"packed_float64_array_partial": cat(["21000000", 1, 1]),
		"packed_string_array_negative": cat(["22000000", "ffffffff"]),
		"packed_string_array_negative_with_items": cat(["22000000", "feffffff", rawstr(raw("a"))]),
		"packed_string_array_huge": cat(["22000000", "ffffff7f", rawstr(raw("a"))]),
		"packed_string_array_item_without_nul": cat(["22000000", 1, rawstr(raw("ab"))]),
		"packed_string_array_item_zero_len": cat(["22000000", 2, 0, rawstr("616200".hex_decode())]),
		"packed_string_array_item_missing_padding": cat(["22000000", 1, 3, "616200"]),
		"packed_string_array_item_bad_utf8": cat(["22000000", 1, rawstr("c08000".hex_decode())]),
		"packed_string_array_item_bom": cat(["22000000", 1, rawstr("efbbbf6100".hex_decode())]),
		"packed_vector2_array_mul_overflow": cat(["23000000", "00000010", 1]),
		"packed_vector3_array_partial": cat(["24000000", 1, f32b(1), f32b(2)]),
		"packed_color_array_mul_overflow": cat(["25000000", "00000008", 1]),
		"packed_color_array_partial": cat(["25000000", 1, f32b(1), f32b(2), f32b(3)]),
		"packed_vector4_array_negative": cat(["26000000", "ffffffff"]),
	}
	for k in c:
		add_mal("craft/" + k, c[k], false)
		if k.begins_with("object_full") or k.contains("script") or k.contains("class") or k.contains("builtin_object"):
			add_mal("craft/%s/allow_objects" % k, c[k], true)
	# full objects made by the engine, decoded with and without object decoding
	for pair in [["resource", full_res], ["golden_item", full_item]]:
		add_mal("craft/object_full_%s/engine_bytes" % pair[0], pair[1], false)
		add_mal("craft/object_full_%s/engine_bytes/allow_objects" % pair[0], pair[1], true)
	# nesting depth built from bytes: n nested one-element arrays around a NIL, and n nested
	# arrays whose innermost one is empty; likewise for dictionaries (value side).
	for n in [1023, 1024, 1025, 1026]:
		var b := PackedByteArray()
		for i in n:
			b.append_array(cat(["1c000000", 1]))
		add_mal("craft/depth/array_nil_leaf/%d" % n, cat([b, "00000000"]), false)
		add_mal("craft/depth/array_empty_leaf/%d" % n, cat([b.slice(0, b.size() - 4), 0]), false)
		var d := PackedByteArray()
		for i in n:
			d.append_array(cat(["1b000000", 1, "00000000"]))
		add_mal("craft/depth/dict_nil_leaf/%d" % n, cat([d, "00000000"]), false)
		var k := PackedByteArray()
		for i in n:
			k.append_array(cat(["1b000000", 1]))
		add_mal("craft/depth/dict_key_nesting_empty_leaf/%d" % n, cat([k.slice(0, k.size() - 4), 0] + range(n - 1).map(func(_i): return "00000000")), false)


static func float_to_bits(x: float) -> int:
	return PackedFloat64Array([x]).to_byte_array().decode_s64(0)


# ---------------------------------------------------------------- JSON

## Iterative JSON writer (the Descs of deeply nested values are deeper than GDScript's call stack).
## StringName items on the work stack are literal JSON text; descs never contain StringNames.
func jw(root, out: PackedStringArray) -> void:
	var stack := [root]
	while not stack.is_empty():
		var v = stack.pop_back()
		match typeof(v):
			TYPE_STRING_NAME:
				out.append(String(v))
			TYPE_DICTIONARY:
				out.append("{")
				stack.append(&"}")
				var ks: Array = v.keys()
				for i in range(ks.size() - 1, -1, -1):
					stack.append(v[ks[i]])
					stack.append(StringName(("," if i > 0 else "") + JSON.stringify(String(ks[i])) + ":"))
			TYPE_ARRAY:
				out.append("[")
				stack.append(&"]")
				for i in range(v.size() - 1, -1, -1):
					stack.append(v[i])
					if i > 0:
						stack.append(&",")
			TYPE_STRING:
				out.append(JSON.stringify(v))
			TYPE_BOOL:
				out.append("true" if v else "false")
			TYPE_INT:
				out.append(str(v))
			TYPE_NIL:
				out.append("null")
			_:
				problems.append("json: unexpected type %d" % typeof(v))
				out.append("null")


func to_json() -> String:
	var out := PackedStringArray()
	out.append("{\n")
	out.append("\"engine\":%s,\n" % JSON.stringify(Engine.get_version_info().string))
	out.append("\"dialect\":\"godot4\",\n")
	# real_t of the engine that wrote this: "double" for a precision=double build.
	out.append("\"precision\":\"%s\",\n" % ("double" if OS.has_feature("double") else "single"))
	out.append("\"nodepath_padding_leaks\":%s,\n" % ("true" if nodepath_leak else "false"))
	out.append("\"error_source\":%s,\n" % JSON.stringify("Error codes come from the engine's own decode_variant error report (a Logger added with OS.add_logger), because PacketPeer.get_packet_error() stays 0 for decode failures in this engine."))
	out.append("\"encode_failures\":")
	jw(encode_failures, out)
	out.append(",\n\"cases\":[\n")
	for i in cases.size():
		jw(cases[i], out)
		out.append(",\n" if i + 1 < cases.size() else "\n")
	out.append("],\n\"malformed\":[\n")
	for i in malformed.size():
		jw(malformed[i], out)
		out.append(",\n" if i + 1 < malformed.size() else "\n")
	out.append("]\n}\n")
	return "".join(out)


# ---------------------------------------------------------------- main

func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 1:
		printerr("usage: godot --headless --path <dir> -s res://generate.gd -- OUTFILE")
		quit(2)
		return
	var t0 := Time.get_ticks_msec()
	OS.add_logger(cap)
	item_script = load(ITEM_PATH)
	holder_script = load(HOLDER_PATH)
	build_cases()
	build_malformed()
	var text := to_json()
	var f := FileAccess.open(args[0], FileAccess.WRITE)
	if f == null:
		printerr("cannot open %s: %s" % [args[0], error_string(FileAccess.get_open_error())])
		quit(1)
		return
	f.store_string(text)
	f.close()
	for node in keep_alive:
		if node is Node:
			node.free()
	keep_alive.clear()
	var n_ok := 0
	for m in malformed:
		if m.ok:
			n_ok += 1
	print("cases: %d (encode failures: %d), malformed: %d (ok: %d), bytes: %d, %d ms" % [cases.size(),
			encode_failures.size(), malformed.size(), n_ok, text.length(), Time.get_ticks_msec() - t0])
	print("encode failures: ", encode_failures)
	print("PacketPeer.get_packet_error() non-zero: %d times" % packet_error_nonzero)
	print("nodepath padding leaked: ", nodepath_leak)
	for p in notes:
		print("NOTE ", p)
	for p in cap.script_errors:
		problems.append("script error: " + p)
	for p in problems:
		print("PROBLEM ", p)
	quit(1 if problems.size() else 0)
