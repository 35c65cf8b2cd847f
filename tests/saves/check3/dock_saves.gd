# Godot 3.6.2's part of the Saves dock test (tests/run_dock_test.sh), in Godot 3's own File:
#   godot3 --no-window --path tests/saves/check3 -s res://dock_saves.gd --write --dir=DIR
#     writes g3_*.sav into DIR, one store_var per value, in every container (File.open,
#     open_compressed in the four modes, open_encrypted_with_pass, open_encrypted);
#   godot3 --no-window --path tests/saves/check3 -s res://dock_saves.gd --check --dir=DIR
#     opens each as a Godot 3 game does and reads it with get_var: the values as the dock edited
#     them (the edits of tests/dock/saves.gd's edits4()), compared by var2bytes.
# Prints FAIL lines and "N passed, N failed"; exits 1 on any failure.
extends SceneTree

const Tally = preload("res://godot3_lib/tally.gd")
const PASSWORD = "fvc secret ✓"
const FILES = ["plain", "fastlz", "deflate", "zstd", "gzip", "pass", "key"]
var tally = Tally.new()


func _init():
	var dir = ""
	var writing = false
	for a in OS.get_cmdline_args():
		if a.begins_with("--dir="):
			dir = a.substr(6)
		elif a == "--write":
			writing = true
	for name in FILES:
		var path = dir.plus_file("g3_%s.sav" % name)
		var f = File.new()
		var err = open(f, path, name, File.WRITE if writing else File.READ)
		if not check(err == OK, "Godot 3.6.2 opens %s (%d)" % [path, err]):
			continue
		if writing:
			for v in values():
				f.store_var(v)
			f.close()
			continue
		var read = []
		while f.get_position() < f.get_len():
			read.append(f.get_var())
		f.close()
		check(var2bytes(read) == var2bytes(edited()), "Godot 3.6.2 reads %s as edited: %s" % [path, read])
	print(tally.summary())
	quit(1 if tally.failed > 0 or tally.passed == 0 else 0)


static func values():
	return [{"name": "hero", "gold": 10, "inventory": ["sword", "shield"]}, PoolIntArray([1, 2, 3]), 3.5, Color(0.25, 0.5, 0.75, 1)]


static func edited():
	var v = values()
	v[0]["gold"] = 11
	v[1] = PoolIntArray([1, 2, 30])
	v[0]["inventory"][1] = "bow"
	return v


func open(f, path, name, mode):
	var key = PoolByteArray()
	for i in 32:
		key.append((7 * i + 3) % 256)
	var modes = {"fastlz": File.COMPRESSION_FASTLZ, "deflate": File.COMPRESSION_DEFLATE, "zstd": File.COMPRESSION_ZSTD, "gzip": File.COMPRESSION_GZIP}
	if modes.has(name):
		return f.open_compressed(path, mode, modes[name])
	if name == "pass":
		return f.open_encrypted_with_pass(path, mode, PASSWORD)
	if name == "key":
		return f.open_encrypted(path, mode, key)
	return f.open(path, mode)


func check(ok, what):
	return tally.check(ok, what)
