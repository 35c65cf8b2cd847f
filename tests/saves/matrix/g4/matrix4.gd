# Save-container matrix, Godot 4 side (Godot 4.6.3). Driven by ../run.sh:
#   --phase=write --dir=W --label=L    write W/L/ as matrix3.gd does, with FileAccess/ConfigFile
#   --phase=read --dir=W --label=L --writers=A,B,... --out=R.tsv [--fixtures=REPO/tests/saves]
#                                     read what each writer wrote (TSV lines as matrix3.gd), and
#                                     with --fixtures also the committed Godot 3 fixtures: payload
#                                     SHA-256 against the sidecars, encrypted files, ConfigFiles,
#                                     and what get_var makes of a Godot 3 store_var file.
extends SceneTree

const PASSWORD = "fvc secret ✓"
const SIZES = [0, 5, 4096, 8192, 12295, 300000]
const MODES = [["fastlz", FileAccess.COMPRESSION_FASTLZ], ["deflate", FileAccess.COMPRESSION_DEFLATE],
	["zstd", FileAccess.COMPRESSION_ZSTD], ["gzip", FileAccess.COMPRESSION_GZIP]]

var args = {}
var lines = []
var seq = 0
var rng_state = 1


func _init():
	for a in OS.get_cmdline_args():
		if a.begins_with("--") and a.find("=") > 0:
			var i = a.find("=")
			args[a.substr(2, i - 2)] = a.substr(i + 1)
	var rc = 0
	if args.get("phase") == "write":
		rc = write_phase(args["dir"].path_join(args["label"]))
	elif args.get("phase") == "read":
		rc = read_phase()
	else:
		printerr("usage: --phase=write|read --dir=W --label=L [--writers=A,B --out=R.tsv --fixtures=DIR]")
		rc = 2
	quit(rc)


func key() -> PackedByteArray:
	var k = PackedByteArray()
	for i in range(32):
		k.append((i * 7 + 3) & 0xFF)
	return k


func rnd():
	rng_state = (rng_state * 1103515245 + 12345) % 2147483648
	return rng_state


# The same bytes as matrix3.gd's payload(n).
func payload(n):
	rng_state = 99
	var text = "Godot save matrix ".to_utf8_buffer()
	var b = PackedByteArray()
	b.resize(n)
	for i in range(n):
		if i < 4096 or (i >> 16) & 1 == 1:
			b[i] = (rnd() >> 16) & 0xFF
		else:
			b[i] = text[i % text.size()]
	return b


# matrix3.gd's config() in Godot 4 types.
func config():
	var c = ConfigFile.new()
	c.set_value("game", "name", "Hero ✓")
	c.set_value("game", "hp", 87)
	c.set_value("game", "speed", 4.75)
	c.set_value("game", "pos", Vector2(1.5, -2))
	c.set_value("game", "pos3", Vector3(1, 2, 3))
	c.set_value("game", "xform", Transform3D(Basis(), Vector3(1, 2, 3)))
	c.set_value("game", "rot", Quaternion(0, 0, 0, 1))
	c.set_value("game", "tint", Color(1, 0.5, 0.25, 1))
	c.set_value("game", "items", [1, "sword", {"n": 2}])
	c.set_value("game", "ints", PackedInt32Array([1, 2, 3]))
	c.set_value("game", "names", PackedStringArray(["a", "b"]))
	c.set_value("game", "bytes", PackedByteArray([1, 2]))
	c.set_value("game", "reals", PackedFloat32Array([0.5]))
	c.set_value("game", "v2s", PackedVector2Array([Vector2(1, 2)]))
	c.set_value("game", "v3s", PackedVector3Array([Vector3(1, 2, 3)]))
	c.set_value("game", "colors", PackedColorArray([Color(1, 0, 0, 1)]))
	c.set_value("game", "path", NodePath("/root/Main:position"))
	c.set_value("game", "rect", Rect2(1, 2, 3, 4))
	c.set_value("game", "xform2d", Transform2D(0, Vector2(5, 6)))
	c.set_value("game", "aabb", AABB(Vector3(), Vector3(1, 1, 1)))
	c.set_value("game", "plane", Plane(0, 1, 0, 2))
	c.set_value("game", "basis", Basis())
	return c


func write_phase(dir):
	DirAccess.make_dir_recursive_absolute(dir)
	var bad = 0
	for n in SIZES:
		var p = payload(n)
		var raw = FileAccess.open(dir.path_join("p%d.raw" % n), FileAccess.WRITE)
		if raw == null:
			bad += 1
		else:
			raw.store_buffer(p)
			raw.close()
		for m in MODES:
			var f = FileAccess.open_compressed(dir.path_join("p%d.%s.gcpf" % [n, m[0]]), FileAccess.WRITE, m[1])
			if f == null:
				printerr("open_compressed write failed: %d" % FileAccess.get_open_error())
				bad += 1
				continue
			f.store_buffer(p)
			f.close()
	var e = FileAccess.open_encrypted_with_pass(dir.path_join("enc_pass.bin"), FileAccess.WRITE, PASSWORD)
	if e != null:
		e.store_buffer(payload(12295))
		e.close()
	else:
		bad += 1
	e = FileAccess.open_encrypted(dir.path_join("enc_key.bin"), FileAccess.WRITE, key())
	if e != null:
		e.store_buffer(payload(12295))
		e.close()
	else:
		bad += 1
	var c = config()
	bad += int(c.save(dir.path_join("cfg_plain.cfg")) != OK)
	bad += int(c.save_encrypted_pass(dir.path_join("cfg_pass.cfg"), PASSWORD) != OK)
	bad += int(c.save_encrypted(dir.path_join("cfg_key.cfg"), key()) != OK)
	print("write %s: %d failures" % [dir, bad])
	return 0 if bad == 0 else 1


func mark():
	seq += 1
	var id = "%s-%d" % [args["label"], seq]
	printerr("@@M " + id)
	return id


func rec(id, writer, what, mode, size, result, detail):
	lines.append("\t".join(PackedStringArray([id, args["label"], writer, what, mode, str(size), result, detail])))


func read_raw(path):
	var f = FileAccess.open(path, FileAccess.READ)
	if f == null:
		return PackedByteArray()
	var b = f.get_buffer(f.get_length())
	f.close()
	return b


func open_error_text():
	var err = FileAccess.get_open_error()
	return "open error %d (%s)" % [err, error_string(err)]


func verdict(f, expected):
	if f == null:
		return ["error", open_error_text()]
	var n = f.get_length()
	var got = f.get_buffer(n)
	f.close()
	if got == expected:
		return ["ok", "%d bytes" % n]
	return ["mismatch", "got %d bytes, expected %d" % [got.size(), expected.size()]]


func sha256(bytes):
	var h = HashingContext.new()
	h.start(HashingContext.HASH_SHA256)
	if bytes.size() > 0:
		h.update(bytes)
	return h.finish().hex_encode()


func load_config(cf, kind, path):
	if kind == "config_encrypted_pass":
		return cf.load_encrypted_pass(path, PASSWORD)
	elif kind == "config_encrypted_key":
		return cf.load_encrypted(path, key())
	return cf.load(path)


func read_phase():
	for w in args["writers"].split(","):
		var dir = args["dir"].path_join(w)
		for n in SIZES:
			var expected = read_raw(dir.path_join("p%d.raw" % n))
			for mi in range(MODES.size()):
				var m = MODES[mi]
				var id = mark()
				var f = FileAccess.open_compressed(dir.path_join("p%d.%s.gcpf" % [n, m[0]]), FileAccess.READ, m[1])
				var v = verdict(f, expected)
				rec(id, w, "compressed", m[0], n, v[0], v[1])
				if n == 12295:
					var other = MODES[(mi + 1) % MODES.size()]
					id = mark()
					f = FileAccess.open_compressed(dir.path_join("p%d.%s.gcpf" % [n, m[0]]), FileAccess.READ, other[1])
					v = verdict(f, expected)
					rec(id, w, "compressed_opened_as_" + other[0], m[0], n, v[0], v[1])
		var expected = read_raw(dir.path_join("p12295.raw"))
		var id = mark()
		var v = verdict(FileAccess.open_encrypted_with_pass(dir.path_join("enc_pass.bin"), FileAccess.READ, PASSWORD), expected)
		rec(id, w, "encrypted_pass", "-", 12295, v[0], v[1])
		id = mark()
		v = verdict(FileAccess.open_encrypted(dir.path_join("enc_key.bin"), FileAccess.READ, key()), expected)
		rec(id, w, "encrypted_key", "-", 12295, v[0], v[1])
		for c in [["cfg_plain", "config_plain"], ["cfg_pass", "config_encrypted_pass"], ["cfg_key", "config_encrypted_key"]]:
			id = mark()
			var cf = ConfigFile.new()
			var err = load_config(cf, c[1], dir.path_join(c[0] + ".cfg"))
			if err != OK:
				rec(id, w, c[1], "-", 0, "error", "load error %d (%s)" % [err, error_string(err)])
			else:
				var ref = config()
				var keys = cf.get_section_keys("game")
				var diffs = []
				for k in keys:
					var got = cf.get_value("game", k)
					if var_to_str(got) != var_to_str(ref.get_value("game", k)):
						diffs.append("%s=%s" % [k, var_to_str(got).replace("\n", " ")])
				rec(id, w, c[1], "-", keys.size(), "ok" if diffs.is_empty() else "differs",
					"%d keys; differ from this engine's own values: %s" % [keys.size(), "; ".join(PackedStringArray(diffs))])
	if args.has("fixtures"):
		for label in ["godot3_6_2", "godot3_2_3"]:
			read_fixtures(label, args["fixtures"].path_join(label))
	var out = FileAccess.open(args["out"], FileAccess.WRITE)
	if out == null:
		printerr("cannot write " + args["out"])
		return 1
	out.store_string("\n".join(PackedStringArray(lines)) + "\n")
	out.close()
	return 0


func sidecar(path):
	return JSON.parse_string(FileAccess.get_file_as_string(path))


# The committed Godot 3 fixtures, read by Godot 4.
func read_fixtures(label, dir):
	var w = "fixture:" + label
	for kind in ["compressed_fastlz", "compressed_deflate", "compressed_zstd", "compressed_gzip"]:
		var sc = sidecar(dir.path_join(kind + ".json"))
		var id = mark()
		var f = FileAccess.open_compressed(dir.path_join(kind + ".bin"), FileAccess.READ, int(sc["compression_mode"]["value"]))
		if f == null:
			rec(id, w, "fixture_" + kind, kind.substr(11), sc["payload_size"], "error", open_error_text())
		else:
			var got = f.get_buffer(f.get_length())
			f.close()
			var ok = sha256(got) == sc["payload_sha256"]
			rec(id, w, "fixture_" + kind, kind.substr(11), got.size(), "ok" if ok else "mismatch",
				"payload SHA-256 %s the sidecar's" % ("equals" if ok else "differs from"))
	var bs = sidecar(dir.path_join("buffers.json"))
	for e in bs["files"]:
		var id = mark()
		var f = FileAccess.open_compressed(dir.path_join(e["file"]), FileAccess.READ, int(e["compression_mode"]["value"]))
		if f == null:
			rec(id, w, "fixture_" + e["file"], e["kind"].substr(11), e["payload_size"], "error", open_error_text())
		else:
			var got = f.get_buffer(f.get_length())
			f.close()
			var ok = sha256(got) == e["payload_sha256"]
			rec(id, w, "fixture_" + e["file"], e["kind"].substr(11), got.size(), "ok" if ok else "mismatch",
				"payload SHA-256 %s the sidecar's" % ("equals" if ok else "differs from"))
	var id = mark()
	var fe = FileAccess.open_encrypted_with_pass(dir.path_join("encrypted_pass.bin"), FileAccess.READ, PASSWORD)
	rec(id, w, "fixture_encrypted_pass", "-", 0, "error" if fe == null else "opened", open_error_text())
	id = mark()
	fe = FileAccess.open_encrypted(dir.path_join("encrypted_key.bin"), FileAccess.READ, key())
	rec(id, w, "fixture_encrypted_key", "-", 0, "error" if fe == null else "opened", open_error_text())
	for kind in ["config_encrypted_pass", "config_encrypted_key", "config_plain"]:
		id = mark()
		var cf = ConfigFile.new()
		var err = load_config(cf, kind, dir.path_join(kind + ".cfg"))
		if err != OK:
			rec(id, w, "fixture_" + kind, "-", 0, "error", "load error %d (%s)" % [err, error_string(err)])
			continue
		var n = 0
		for s in cf.get_sections():
			for k in cf.get_section_keys(s):
				n += 1
				var v = cf.get_value(s, k)
				var t = var_to_str(v).replace("\n", " ")
				if t.length() > 90:
					t = t.substr(0, 90) + "..."
				rec(mark(), w, "fixture_config_plain_value", "-", 0, type_string(typeof(v)), "[%s] %s = %s" % [s, k, t])
		rec(id, w, "fixture_" + kind, "-", n, "ok", "loaded: %d keys" % n)
	# What Godot 4's own get_var makes of a Godot 3 store_var file (no dialect choice there).
	var f = FileAccess.open(dir.path_join("plain.bin"), FileAccess.READ)
	var sc = sidecar(dir.path_join("plain.json"))
	for item in sc["values"]:
		if f.get_position() >= f.get_length():
			break
		f.seek(int(item["offset"]))
		id = mark()
		var v = f.get_var(false)
		var t = var_to_str(v).replace("\n", " ")
		if t.length() > 70:
			t = t.substr(0, 70) + "..."
		rec(id, w, "fixture_get_var", "-", int(item["offset"]), type_string(typeof(v)),
			"%s -> %s (next position %d)" % [item["name"], t, f.get_position()])
	f.close()
