# Save-container matrix, Godot 3 side (runs unchanged on 3.2.3 and 3.6.2). Driven by ../run.sh:
#   --phase=write --dir=W --label=L    write W/L/: raw payloads, File.open_compressed files in
#                                     every mode, encrypted files, ConfigFiles
#   --phase=read --dir=W --label=L --writers=A,B,... --out=R.tsv
#                                     read what each writer wrote, compare with its raw payloads,
#                                     one TSV line per attempt (id reader writer what mode payload
#                                     result detail); "@@M id" goes to stderr before each attempt so
#                                     run.sh can attach the engine's own error message.
extends SceneTree

const Cli = preload("res://godot3_lib/cli.gd")
const PASSWORD = "fvc secret ✓"
const SIZES = [0, 5, 4096, 8192, 12295, 300000]
const MODES = [["fastlz", File.COMPRESSION_FASTLZ], ["deflate", File.COMPRESSION_DEFLATE],
	["zstd", File.COMPRESSION_ZSTD], ["gzip", File.COMPRESSION_GZIP]]

var args = {}
var lines = []
var seq = 0
var rng_state = 1


func _init():
	args = Cli.args()
	var rc = 0
	if args.get("phase") == "write":
		rc = write_phase(args["dir"].plus_file(args["label"]))
	elif args.get("phase") == "read":
		rc = read_phase()
	else:
		printerr("usage: --phase=write|read --dir=W --label=L [--writers=A,B --out=R.tsv]")
		rc = 2
	quit(rc)


func key():
	var k = PoolByteArray()
	for i in range(32):
		k.append((i * 7 + 3) & 0xFF)
	return k


func rnd():
	rng_state = (rng_state * 1103515245 + 12345) % 2147483648
	return rng_state


# n bytes: LCG bytes in the first 4096 and in every odd 64 KiB stretch, text elsewhere.
func payload(n):
	rng_state = 99
	var text = "Godot save matrix ".to_utf8()
	var b = PoolByteArray()
	b.resize(n)
	for i in range(n):
		if i < 4096 or (i >> 16) & 1 == 1:
			b[i] = (rnd() >> 16) & 0xFF
		else:
			b[i] = text[i % text.size()]
	return b


func config():
	var c = ConfigFile.new()
	c.set_value("game", "name", "Hero ✓")
	c.set_value("game", "hp", 87)
	c.set_value("game", "speed", 4.75)
	c.set_value("game", "pos", Vector2(1.5, -2))
	c.set_value("game", "pos3", Vector3(1, 2, 3))
	c.set_value("game", "xform", Transform(Basis(), Vector3(1, 2, 3)))
	c.set_value("game", "rot", Quat(0, 0, 0, 1))
	c.set_value("game", "tint", Color(1, 0.5, 0.25, 1))
	c.set_value("game", "items", [1, "sword", {"n": 2}])
	c.set_value("game", "ints", PoolIntArray([1, 2, 3]))
	c.set_value("game", "names", PoolStringArray(["a", "b"]))
	c.set_value("game", "bytes", PoolByteArray([1, 2]))
	c.set_value("game", "reals", PoolRealArray([0.5]))
	c.set_value("game", "v2s", PoolVector2Array([Vector2(1, 2)]))
	c.set_value("game", "v3s", PoolVector3Array([Vector3(1, 2, 3)]))
	c.set_value("game", "colors", PoolColorArray([Color(1, 0, 0, 1)]))
	c.set_value("game", "path", NodePath("/root/Main:position"))
	c.set_value("game", "rect", Rect2(1, 2, 3, 4))
	c.set_value("game", "xform2d", Transform2D(0, Vector2(5, 6)))
	c.set_value("game", "aabb", AABB(Vector3(), Vector3(1, 1, 1)))
	c.set_value("game", "plane", Plane(0, 1, 0, 2))
	c.set_value("game", "basis", Basis())
	return c


func write_file(path, bytes):
	var f = File.new()
	var err = f.open(path, File.WRITE)
	if err != OK:
		return err
	f.store_buffer(bytes)
	f.close()
	return OK


func write_phase(dir):
	Directory.new().make_dir_recursive(dir)
	var bad = 0
	for n in SIZES:
		var p = payload(n)
		bad += int(write_file(dir.plus_file("p%d.raw" % n), p) != OK)
		for m in MODES:
			var f = File.new()
			var err = f.open_compressed(dir.plus_file("p%d.%s.gcpf" % [n, m[0]]), File.WRITE, m[1])
			if err != OK:
				printerr("open_compressed write failed: %d" % err)
				bad += 1
				continue
			f.store_buffer(p)
			f.close()
	var f = File.new()
	if f.open_encrypted_with_pass(dir.plus_file("enc_pass.bin"), File.WRITE, PASSWORD) == OK:
		f.store_buffer(payload(12295))
		f.close()
	else:
		bad += 1
	if f.open_encrypted(dir.plus_file("enc_key.bin"), File.WRITE, key()) == OK:
		f.store_buffer(payload(12295))
		f.close()
	else:
		bad += 1
	var c = config()
	bad += int(c.save(dir.plus_file("cfg_plain.cfg")) != OK)
	bad += int(c.save_encrypted_pass(dir.plus_file("cfg_pass.cfg"), PASSWORD) != OK)
	bad += int(c.save_encrypted(dir.plus_file("cfg_key.cfg"), key()) != OK)
	print("write %s: %d failures" % [dir, bad])
	return 0 if bad == 0 else 1


func mark():
	seq += 1
	var id = "%s-%d" % [args["label"], seq]
	printerr("@@M " + id)
	return id


func rec(id, writer, what, mode, size, result, detail):
	lines.append(PoolStringArray([id, args["label"], writer, what, mode, str(size), result, detail]).join("\t"))


func read_raw(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return null
	var b = f.get_buffer(f.get_len())
	f.close()
	return b


# Compares what an opened File yields with the expected bytes.
func verdict(f, err, expected):
	if err != OK:
		return ["error", "open error %d" % err]
	var n = f.get_len()
	var got = f.get_buffer(n)
	f.close()
	if got == expected:
		return ["ok", "%d bytes" % n]
	return ["mismatch", "got %d bytes, expected %d" % [got.size(), expected.size()]]


func read_phase():
	for w in args["writers"].split(","):
		var dir = args["dir"].plus_file(w)
		for n in SIZES:
			var expected = read_raw(dir.plus_file("p%d.raw" % n))
			if expected == null:
				expected = PoolByteArray()
			for mi in range(MODES.size()):
				var m = MODES[mi]
				var id = mark()
				var f = File.new()
				var err = f.open_compressed(dir.plus_file("p%d.%s.gcpf" % [n, m[0]]), File.READ, m[1])
				var v = verdict(f, err, expected)
				rec(id, w, "compressed", m[0], n, v[0], v[1])
				if n == 12295:
					# the same file, opened with another mode argument
					var other = MODES[(mi + 1) % MODES.size()]
					id = mark()
					f = File.new()
					err = f.open_compressed(dir.plus_file("p%d.%s.gcpf" % [n, m[0]]), File.READ, other[1])
					v = verdict(f, err, expected)
					rec(id, w, "compressed_opened_as_" + other[0], m[0], n, v[0], v[1])
		var expected = read_raw(dir.plus_file("p12295.raw"))
		var id = mark()
		var f = File.new()
		var err = f.open_encrypted_with_pass(dir.plus_file("enc_pass.bin"), File.READ, PASSWORD)
		var v = verdict(f, err, expected)
		rec(id, w, "encrypted_pass", "-", 12295, v[0], v[1])
		id = mark()
		f = File.new()
		err = f.open_encrypted(dir.plus_file("enc_key.bin"), File.READ, key())
		v = verdict(f, err, expected)
		rec(id, w, "encrypted_key", "-", 12295, v[0], v[1])
		for c in [["cfg_plain", "config_plain"], ["cfg_pass", "config_encrypted_pass"], ["cfg_key", "config_encrypted_key"]]:
			id = mark()
			var cf = ConfigFile.new()
			var path = dir.plus_file(c[0] + ".cfg")
			if c[0] == "cfg_pass":
				err = cf.load_encrypted_pass(path, PASSWORD)
			elif c[0] == "cfg_key":
				err = cf.load_encrypted(path, key())
			else:
				err = cf.load(path)
			if err != OK:
				rec(id, w, c[1], "-", 0, "error", "load error %d" % err)
			else:
				var ref = config()
				var same = 0
				var keys = cf.get_section_keys("game")
				var diffs = []
				for k in keys:
					if var2str(cf.get_value("game", k)) == var2str(ref.get_value("game", k)):
						same += 1
					else:
						diffs.append(k)
				rec(id, w, c[1], "-", keys.size(), "ok" if diffs.empty() else "differs",
					"%d keys, %d as written by this engine; differ: %s" % [keys.size(), same, PoolStringArray(diffs).join(",")])
	var f = File.new()
	if f.open(args["out"], File.WRITE) != OK:
		printerr("cannot write " + args["out"])
		return 1
	f.store_string(PoolStringArray(lines).join("\n") + "\n")
	f.close()
	return 0
