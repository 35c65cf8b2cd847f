# Save-file fixture generator: Godot 3 writes files the way Godot 3 games write their saves, reads
# them back itself and describes what it read. Output format: tests/saves/FORMAT.md.
# Run through run.sh (next to this file), or:
#   godot3-server --no-window --path <this dir> -s res://generate.gd --out=DIR 2>ERR.log
# Works unchanged on Godot 3.2.3 and 3.6.2. Values are described with the golden generators' own
# describe() (res://godot3_lib/describe.gd).
extends SceneTree

const PASSWORD = "fvc secret ✓"   # non-ASCII on purpose
const BIG = 16384                  # packed arrays / strings above this many bytes get a digest

var D = preload("res://godot3_lib/describe.gd").new()
var out_dir = ""
var values = []         # [name, value, full_objects]
var keep = []           # objects freed at the end
var rng_state = 1
var key = PoolByteArray()
var summary = []
var problems = []


func _init():
	for a in OS.get_cmdline_args():
		if a.begins_with("--out="):
			out_dir = a.substr(6, a.length() - 6)
	if out_dir == "":
		printerr("usage: -s res://generate.gd --out=DIR")
		quit(2)
		return
	var dir = Directory.new()
	if not dir.dir_exists(out_dir):
		dir.make_dir_recursive(out_dir)
	for i in range(32):
		key.append((i * 7 + 3) & 0xFF)

	build_values()
	var plain_payload = null
	for kind in ["plain", "compressed_fastlz", "compressed_deflate", "compressed_zstd",
			"compressed_gzip", "encrypted_pass", "encrypted_key"]:
		var payload = store_var_fixture(kind, plain_payload)
		if kind == "plain":
			plain_payload = payload
	buffer_fixtures()
	config_fixtures()

	for line in summary:
		print(line)
	for w in D.problems:
		problems.append("describe: " + w)
	for p in problems:
		print("PROBLEM: " + p)
	print("%s: %d store_var values, %d problems" % [Engine.get_version_info().string, values.size(), problems.size()])
	for o in keep:
		if is_instance_valid(o) and not (o is Reference):
			o.free()
	keep.clear()
	quit(0 if problems.empty() else 1)


# ---------------------------------------------------------------- helpers

func rnd():
	rng_state = (rng_state * 1103515245 + 12345) % 2147483648
	return rng_state


func random_bytes(n, seed_value):
	rng_state = seed_value
	var b = PoolByteArray()
	b.resize(n)
	for i in range(n):
		b[i] = (rnd() >> 16) & 0xFF
	return b


# -0.0 made from its bits: a -0.0 literal would share GDScript 3's constant slot with 0.0 (they
# compare equal), turning the other 0.0 literals of the same function into -0.0 or vice versa.
func neg_zero():
	var s = StreamPeerBuffer.new()
	s.put_64(-9223372036854775807 - 1)
	s.seek(0)
	return s.get_double()


func sha256(bytes):
	var h = HashingContext.new()
	h.start(HashingContext.HASH_SHA256)
	if bytes.size() > 0:
		h.update(bytes)
	return h.finish().hex_encode()


func version_short():
	var v = Engine.get_version_info()
	return "%d.%d.%d" % [v.major, v.minor, v.patch]


func jl(d):
	return to_json(d)


# The Desc of v (tests/golden/FORMAT.md), except that a packed array or a string of more than
# BIG bytes is given as {"t", "size", "sha256"} of its raw bytes (the bytes whose hex "v" would be;
# a string's UTF-8), so the sidecars stay small.
func desc(v, full, decoded):
	var t = typeof(v)
	var raw = null
	if t == TYPE_RAW_ARRAY and v.size() > BIG:
		raw = v
	elif t == TYPE_INT_ARRAY and v.size() * 4 > BIG:
		var s = StreamPeerBuffer.new()
		for x in v:
			s.put_32(x)
		raw = s.data_array
	elif t == TYPE_REAL_ARRAY and v.size() * 4 > BIG:
		var s = StreamPeerBuffer.new()
		for x in v:
			s.put_float(x)
		raw = s.data_array
	elif t == TYPE_STRING and v.length() > BIG:
		raw = v.to_utf8()
	if raw == null:
		return D.describe(v, full, decoded)
	var name = {TYPE_RAW_ARRAY: "packed_byte_array", TYPE_INT_ARRAY: "packed_int32_array",
		TYPE_REAL_ARRAY: "packed_float32_array", TYPE_STRING: "string"}[t]
	return {"t": name, "size": raw.size(), "sha256": sha256(raw)}


# ---------------------------------------------------------------- values

func add(name, v, full = false):
	values.append([name, v, full])


func nested_array(levels, leaf):
	var v = leaf
	for i in range(levels):
		v = [v]
	return v


func build_values():
	add("nil", null)
	add("bool/true", true)
	add("bool/false", false)
	add("int/small", 42)
	add("int/negative", -7)
	add("int/64bit", (1 << 40) + 3)
	add("int/min64", -9223372036854775807 - 1)
	add("float/half", 0.5)
	add("float/tenth", 0.1)
	add("float/neg_zero", neg_zero())
	add("float/inf", INF)
	add("float/nan", NAN)
	add("string/ascii", "Hello, save file!")
	add("string/empty", "")
	add("string/unicode", "héllo ✓ 🎮 日本語")
	add("string/paddings", ["a", "ab", "abc", "abcd", "abcde"])
	add("vector2", Vector2(1.5, -2.25))
	add("rect2", Rect2(1, 2, 3.5, 4.25))
	add("vector3", Vector3(0.1, -20, 3e5))
	add("transform2d", Transform2D(0.5, Vector2(3, -4)))
	add("plane", Plane(0, 1, 0, 2.5))
	add("quat", Quat(0.1, 0.2, 0.3, 0.9))
	add("aabb", AABB(Vector3(-1, -2, -3), Vector3(4, 5, 6)))
	add("basis", Basis(Vector3(1, 0, 0), 0.5))
	add("transform", Transform(Basis(Vector3(0, 1, 0), 1.25), Vector3(1, 2, 3)))
	add("color", Color(0.1, 0.2, 0.3, 0.4))
	add("node_path/absolute", NodePath("/root/Main/Player:position:x"))
	add("node_path/relative", NodePath("Sprite/Child"))
	add("node_path/subnames_only", NodePath(":modulate:a"))
	add("node_path/empty", NodePath(""))
	add("rid", RID())
	var node = Node.new()
	node.name = "SavedAsId"
	keep.append(node)
	add("object/as_id", node)
	var curve = Curve.new()
	curve.add_point(Vector2(0, 0.25))
	curve.add_point(Vector2(1, 0.75))
	add("object/full_curve", curve, true)
	add("object/full_in_dictionary", {"curve": curve, "n": 1}, true)
	add("array/empty", [])
	add("array/mixed", [1, "two", 3.5, null, Vector2(4, 5), [6, [7]], {"k": "v"}])
	add("array/deep", nested_array(30, "leaf"))
	add("dictionary/empty", {})
	add("dictionary/keys", {"s": 1, 2: "int key", 2.5: "float key", Vector2(1, 1): [1],
		NodePath("a/b"): true, null: "nil key", [1, 2]: "array key", {"in": 1}: "dict key"})
	add("dictionary/nested", {"x": {"y": {"z": {"w": null}}}, "list": [{"a": 1}, {"b": [2, 3]}]})
	add("pool/byte", PoolByteArray([0, 1, 127, 128, 255]))
	add("pool/int", PoolIntArray([0, -1, 2147483647, -2147483648]))
	add("pool/real", PoolRealArray([0.0, -1.5, 3.25, 0.1, INF]))
	add("pool/string", PoolStringArray(["a", "", "ünï ✓", "abcd"]))
	add("pool/vector2", PoolVector2Array([Vector2(1, 2), Vector2(-3.5, 4)]))
	add("pool/vector3", PoolVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)]))
	add("pool/color", PoolColorArray([Color(1, 0, 0, 1), Color(0.25, 0.5, 0.75, 0.125)]))
	add("pool/empty_byte", PoolByteArray())
	add("pool/empty_int", PoolIntArray())
	add("pool/empty_real", PoolRealArray())
	add("pool/empty_string", PoolStringArray())
	add("pool/empty_vector2", PoolVector2Array())
	add("pool/empty_vector3", PoolVector3Array())
	add("pool/empty_color", PoolColorArray())
	add("savegame", savegame())
	var npcs = []
	for i in range(20):
		npcs.append({"id": i, "name": "npc_%d" % i, "pos": Vector2(i * 1.5, -i), "alive": i % 3 != 0})
	add("array/records", npcs)
	# large values (described by digest in the sidecars)
	add("large/random_bytes_100k", random_bytes(102400, 12345))
	var ints = PoolIntArray()
	ints.resize(32768)
	for i in range(32768):
		ints[i] = (i / 64) * 1000 - 7
	add("large/int_array_128k", ints)
	var words = PoolStringArray()
	for i in range(15000):
		words.append("word%d" % (i % 97))
	add("large/string_100k", words.join(" ") + " ✓")


func savegame():
	return {
		"version": 3,
		"saved_at": "2024-05-01T12:34:56",
		"player": {
			"name": "Hero ✓",
			"hp": 87,
			"max_hp": 100,
			"speed": 4.75,
			"position": Vector3(12.5, 0, -3.25),
			"facing": Transform(Basis(Vector3(0, 1, 0), 0.3), Vector3(12.5, 0, -3.25)),
			"tint": Color(1, 0.9, 0.8, 1),
			"inventory": [{"id": "sword", "count": 1}, {"id": "potion", "count": 5}],
			"skills": PoolStringArray(["dash", "double_jump"]),
			"hotbar": PoolIntArray([3, 1, 4, 1, 5]),
		},
		"level": "res://levels/forest.tscn",
		"checkpoint": NodePath("/root/Game/Checkpoints/C3"),
		"visited": {"forest": true, "cave": false},
		"map_fog": PoolByteArray([0xFF, 0x0F, 0x00, 0xA5]),
		"path": PoolVector2Array([Vector2(0, 0), Vector2(1, 1), Vector2(2, 4)]),
	}


# ---------------------------------------------------------------- store_var fixtures

func mode_of(kind):
	return {"compressed_fastlz": [File.COMPRESSION_FASTLZ, "COMPRESSION_FASTLZ"],
		"compressed_deflate": [File.COMPRESSION_DEFLATE, "COMPRESSION_DEFLATE"],
		"compressed_zstd": [File.COMPRESSION_ZSTD, "COMPRESSION_ZSTD"],
		"compressed_gzip": [File.COMPRESSION_GZIP, "COMPRESSION_GZIP"]}.get(kind)


func open_kind(f, kind, path, rw):
	if kind.begins_with("compressed_"):
		return f.open_compressed(path, rw, mode_of(kind)[0])
	elif kind == "encrypted_pass":
		return f.open_encrypted_with_pass(path, rw, PASSWORD)
	elif kind == "encrypted_key":
		return f.open_encrypted(path, rw, key)
	return f.open(path, rw)


func container_info(kind, e):
	if kind.begins_with("compressed_"):
		e["container"] = "compressed"
		e["opened_with"] = "File.open_compressed(path, mode, File.%s)" % mode_of(kind)[1]
		e["compression_mode"] = {"name": mode_of(kind)[1], "value": mode_of(kind)[0]}
	elif kind == "encrypted_pass":
		e["container"] = "encrypted"
		e["opened_with"] = "File.open_encrypted_with_pass(path, mode, password)"
		e["password"] = PASSWORD
		e["password_utf8_hex"] = PASSWORD.to_utf8().hex_encode()
	elif kind == "encrypted_key":
		e["container"] = "encrypted"
		e["opened_with"] = "File.open_encrypted(path, mode, key)"
		e["key_hex"] = key.hex_encode()
	else:
		e["container"] = "plain"
		e["opened_with"] = "File.open(path, mode)"


# Reads the whole payload (what store_var wrote) back through the same kind of File.
func payload_of(kind, path):
	var f = File.new()
	var err = open_kind(f, kind, path, File.READ)
	if err != OK:
		return {"error": err}
	var n = f.get_len()
	var b = f.get_buffer(n)
	f.close()
	return {"error": OK, "size": n, "bytes": b}


# Offsets (at most 32) where two payloads differ; -1 when their sizes differ.
func diff_offsets(a, b):
	if a.size() != b.size():
		return [-1]
	var r = []
	for i in range(a.size()):
		if a[i] != b[i]:
			r.append(i)
			if r.size() >= 32:
				break
	return r


func store_var_fixture(kind, plain_payload):
	var name = kind + ".bin"
	var path = out_dir.plus_file(name)
	var f = File.new()
	var err = open_kind(f, kind, path, File.WRITE)
	if err != OK:
		problems.append("%s: open for writing failed: %d" % [name, err])
		return ""
	for v in values:
		f.store_var(v[1], v[2])
	f.close()

	var e = {"engine": Engine.get_version_info().string, "engine_version": version_short(),
		"file": name, "kind": kind}
	container_info(kind, e)
	e["written_with"] = "one File.store_var(value, full_objects) per value, in order; then close()"
	var p = payload_of(kind, path)
	var payload = PoolByteArray()
	if p.error != OK:
		problems.append("%s: reopening for the payload failed: %d" % [name, p.error])
	else:
		payload = p.bytes
		e["payload_size"] = p.size
		e["payload_sha256"] = sha256(payload)
		if kind != "plain":
			# Each store_var encodes afresh: bytes the engine leaves uninitialised (NodePath
			# name padding in 3.x) can differ from plain.bin's.
			e["payload_differs_from_plain_at"] = diff_offsets(payload, plain_payload)

	var lines = []
	err = open_kind(f, kind, path, File.READ)
	if err != OK:
		problems.append("%s: open for reading failed: %d" % [name, err])
	else:
		var n_same = 0
		for v in values:
			var before = f.get_position()
			var got = f.get_var(v[2])
			var d_read = desc(got, v[2], true)
			var d_written = desc(v[1], v[2], false)
			var same = jl(d_read) == jl(d_written)
			var item = {"name": v[0], "allow_objects": v[2], "full_objects": v[2],
				"offset": before, "value": d_read, "same_as_written": same}
			if not same:
				item["written"] = d_written
				problems.append("%s: %s reads back differently" % [name, v[0]])
			else:
				n_same += 1
			lines.append(jl(item))
		e["position_after_values"] = f.get_position()
		e["eof_after_values"] = f.get_position() == f.get_len()
		f.close()
		summary.append("%s: %d bytes on disk, payload %d, %d/%d values read back as written" % [
			name, file_size(path), e.get("payload_size", -1), n_same, values.size()])

	var head = jl(e)
	var text = head.substr(0, head.length() - 1) + ",\n\"values\": [\n" + PoolStringArray(lines).join(",\n") + "\n]}\n"
	write_text(out_dir.plus_file(kind + ".json"), text)
	return payload


func file_size(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return -1
	var n = f.get_len()
	f.close()
	return n


func write_text(path, text):
	var f = File.new()
	if f.open(path, File.WRITE) != OK:
		problems.append("cannot write " + path)
		return
	f.store_string(text)
	f.close()


# ---------------------------------------------------------------- raw buffers (store_buffer)

# Payload bytes for the raw-buffer fixtures: 4096 LCG bytes, then text, then a byte ramp.
func buffer_payload(n):
	var b = random_bytes(min(n, 4096), 777)
	var text = "FastVarCodec save fixture. ".to_utf8()
	var i = b.size()
	while i < n:
		if i < 8192:
			b.append(text[i % text.size()])
		else:
			b.append(i & 0xFF)
		i += 1
	return b


func buffer_fixtures():
	var entries = []
	for n in [0, 8192, 12295]:
		var payload = buffer_payload(n)
		var plain = "buffer_%d.bin" % n
		var f = File.new()
		if n > 0:
			if f.open(out_dir.plus_file(plain), File.WRITE) != OK:
				problems.append("cannot write " + plain)
				continue
			f.store_buffer(payload)
			f.close()
		for kind in ["compressed_fastlz", "compressed_deflate", "compressed_zstd", "compressed_gzip"]:
			var name = "buffer_%d_%s.bin" % [n, kind.substr(11, 10)]
			var path = out_dir.plus_file(name)
			if open_kind(f, kind, path, File.WRITE) != OK:
				problems.append("cannot write " + name)
				continue
			f.store_buffer(payload)
			f.close()
			var back = payload_of(kind, path)
			var ok = back.error == OK and back.bytes == payload
			if not ok:
				problems.append("%s: does not read back (error %d)" % [name, back.error])
			entries.append(jl({"file": name, "kind": kind, "compression_mode": {
				"name": mode_of(kind)[1], "value": mode_of(kind)[0]},
				"payload_size": n, "payload_sha256": sha256(payload),
				"payload_file": plain if n > 0 else null, "reads_back": ok}))
	var head = jl({"engine": Engine.get_version_info().string, "engine_version": version_short(),
		"written_with": "File.open_compressed(path, File.WRITE, mode); one store_buffer(payload); close()",
		"payload_recipe": "first min(n, 4096) bytes: LCG state=777, state=(state*1103515245+12345) mod 2^31, byte=(state>>16)&255 (state advanced before each byte); then up to offset 8191: 'FastVarCodec save fixture. ' repeated by offset (byte i = text[i mod 27]); from 8192: i & 255"})
	write_text(out_dir.plus_file("buffers.json"),
		head.substr(0, head.length() - 1) + ",\n\"files\": [\n" + PoolStringArray(entries).join(",\n") + "\n]}\n")
	summary.append("buffers.json: %d compressed raw-buffer files" % entries.size())


# ---------------------------------------------------------------- ConfigFile

func config_values():
	var curve = Curve.new()
	curve.add_point(Vector2(0, 0.25))
	curve.add_point(Vector2(1, 0.75))
	return [
		["scalars", [["nil", null], ["bool", true], ["int", 42], ["int_negative", -7],
			["int_64bit", (1 << 40) + 3], ["int_min64", -9223372036854775807 - 1],
			["float_half", 0.5], ["float_tenth", 0.1], ["float_third", 1.0 / 3.0],
			["float_small", 1.0e-7], ["float_large", 123456789.123], ["float_integral", 3.0]]],
		["text", [["ascii", "Hello, save file!"], ["empty", ""], ["unicode", "héllo ✓ 🎮 日本語"],
			["quotes_newline", "say \"hi\"\nline 2\ttab \\ backslash"]]],
		["math", [["vector2", Vector2(1.5, -2.25)], ["rect2", Rect2(1, 2, 3.5, 4.25)],
			["vector3", Vector3(0.1, -20, 3e5)], ["transform2d", Transform2D(0.5, Vector2(3, -4))],
			["plane", Plane(0, 1, 0, 2.5)], ["quat", Quat(0.1, 0.2, 0.3, 0.9)],
			["aabb", AABB(Vector3(-1, -2, -3), Vector3(4, 5, 6))], ["basis", Basis(Vector3(1, 0, 0), 0.5)],
			["transform", Transform(Basis(Vector3(0, 1, 0), 1.25), Vector3(1, 2, 3))],
			["color", Color(0.1, 0.2, 0.3, 0.4)], ["node_path", NodePath("/root/Main/Player:position:x")]]],
		["containers", [["array", [1, "two", 3.5, null, Vector2(4, 5), [6, [7]]]],
			["dictionary", {"s": 1, 2: "int key", Vector2(1, 1): [1], "nested": {"x": {"y": null}}}],
			["empty_array", []], ["empty_dictionary", {}]]],
		["pools", [["byte", PoolByteArray([0, 1, 127, 128, 255])],
			["int", PoolIntArray([0, -1, 2147483647, -2147483648])],
			["real", PoolRealArray([0.0, -1.5, 3.25, 0.1])],
			["string", PoolStringArray(["a", "", "ünï ✓"])],
			["vector2", PoolVector2Array([Vector2(1, 2), Vector2(-3.5, 4)])],
			["vector3", PoolVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)])],
			["color", PoolColorArray([Color(1, 0, 0, 1), Color(0.25, 0.5, 0.75, 0.125)])]]],
		["objects", [["curve", curve]]],
		["save", [["game", savegame()]]],
		# keys that 3.2.3 and 3.6.2 write differently
		["keys", [["with space", 1], ["clé ✓", 2], ["after", 3]]],
		# last: special floats (3.2.3 cannot read -inf back; "after" shows what follows survives)
		["float_specials", [["inf", INF], ["neg_inf", -INF], ["nan", NAN], ["neg_zero", neg_zero()], ["after", 1]]],
	]


func config_fixtures():
	config_set("config", config_values(), true)
	# An RID is written as an empty value, which the parser rejects: everything after it is lost.
	config_set("config_rid", [["a", [["before", 1], ["rid", RID()], ["after", 2]]], ["b", [["x", 3]]]], false)


func config_set(prefix, cv, with_encrypted):
	var cf = ConfigFile.new()
	for sec in cv:
		for kv in sec[1]:
			cf.set_value(sec[0], kv[0], kv[1])
	var plain_path = out_dir.plus_file(prefix + "_plain.cfg")
	var plain_sha = ""
	var saves = [[prefix + "_plain", "config_plain", cf.save(plain_path)]]
	if with_encrypted:
		saves.append([prefix + "_encrypted_pass", "config_encrypted_pass",
			cf.save_encrypted_pass(out_dir.plus_file(prefix + "_encrypted_pass.cfg"), PASSWORD)])
		saves.append([prefix + "_encrypted_key", "config_encrypted_key",
			cf.save_encrypted(out_dir.plus_file(prefix + "_encrypted_key.cfg"), key)])
	for s in saves:
		var kind = s[1]
		var name = s[0] + ".cfg"
		var path = out_dir.plus_file(name)
		if s[2] != OK:
			problems.append("%s: save failed: %d" % [name, s[2]])
			continue
		var e = {"engine": Engine.get_version_info().string, "engine_version": version_short(),
			"file": name, "kind": kind}
		var fkind = "plain"
		if kind == "config_encrypted_pass":
			fkind = "encrypted_pass"
			e["saved_with"] = "ConfigFile.save_encrypted_pass(path, password)"
			e["loaded_with"] = "ConfigFile.load_encrypted_pass(path, password)"
			e["container"] = "encrypted"
			e["password"] = PASSWORD
			e["password_utf8_hex"] = PASSWORD.to_utf8().hex_encode()
		elif kind == "config_encrypted_key":
			fkind = "encrypted_key"
			e["saved_with"] = "ConfigFile.save_encrypted(path, key)"
			e["loaded_with"] = "ConfigFile.load_encrypted(path, key)"
			e["container"] = "encrypted"
			e["key_hex"] = key.hex_encode()
		else:
			e["saved_with"] = "ConfigFile.save(path)"
			e["loaded_with"] = "ConfigFile.load(path)"
			e["container"] = "plain"
		var p = payload_of(fkind, path)
		if p.error == OK:
			e["payload_size"] = p.size
			e["payload_sha256"] = sha256(p.bytes)
			if kind == "config_plain":
				plain_sha = e["payload_sha256"]
			else:
				e["payload_same_as_plain"] = e["payload_sha256"] == plain_sha
		else:
			problems.append("%s: payload not readable: %d" % [name, p.error])

		var rd = ConfigFile.new()
		var err
		if kind == "config_encrypted_pass":
			err = rd.load_encrypted_pass(path, PASSWORD)
		elif kind == "config_encrypted_key":
			err = rd.load_encrypted(path, key)
		else:
			err = rd.load(path)
		e["load_error"] = err
		var sec_lines = []
		var n_keys = 0
		var n_same = 0
		var written = {}
		for sec in cv:
			for kv in sec[1]:
				written[sec[0] + "\n" + kv[0]] = kv[1]
		var seen = {}
		for sname in rd.get_sections():
			var keys = []
			for k in rd.get_section_keys(sname):
				var got = rd.get_value(sname, k)
				var item = {"key": D.utf(k), "value": desc(got, true, true)}
				var wk = sname + "\n" + k
				if written.has(wk):
					seen[wk] = true
					var dw = desc(written[wk], true, false)
					item["same_as_written"] = jl(dw) == jl(item["value"])
					if not item["same_as_written"]:
						item["written"] = dw
					else:
						n_same += 1
				else:
					item["same_as_written"] = false
					item["not_a_written_key"] = true
				n_keys += 1
				keys.append(jl(item))
			sec_lines.append("{\"name\": " + jl(D.utf(sname)) + ", \"keys\": [\n  " + PoolStringArray(keys).join(",\n  ") + "]}")
		var missing = []
		for wk in written.keys():
			if not seen.has(wk):
				var parts = wk.split("\n")
				missing.append([D.utf(parts[0]), D.utf(parts[1])])
		e["written_keys_not_read_back"] = missing
		var head = jl(e)
		write_text(out_dir.plus_file(s[0] + ".json"),
			head.substr(0, head.length() - 1) + ",\n\"sections\": [\n" + PoolStringArray(sec_lines).join(",\n") + "\n]}\n")
		summary.append("%s: load error %d, %d keys read, %d as written, %d written keys missing" % [
			name, err, n_keys, n_same, missing.size()])
