# Godot 3 reads the save files Godot 4 wrote with FastVarCodec
# (godot_project/saves_tools/write_godot3_saves.gd; both driven by tests/run_save_tests.sh).
# Runs unchanged on Godot 3.2.3 and 3.6.2:
#   godot3 --no-window --path tests/saves/check3 -s res://check3.gd --in=DIR --fixture=DIR 2>ERR.log
# --in: the files Godot 4 wrote and their manifest.json. --fixture: this engine's own fixture
# directory (tests/saves/godot3_6_2 or godot3_2_3): the expected values are what this engine reads
# from its own plain.bin, at the indices the manifest lists.
# Each file is opened as a Godot 3 game opens its saves (File.open, open_compressed(mode),
# open_encrypted_with_pass, open_encrypted) and read with get_var(allow_objects); the encrypted
# ConfigFiles are loaded with load_encrypted_pass / load_encrypted. Values are compared exactly
# (res://godot3_lib/diff.gd): same types, containers element by element (Dictionary order too,
# except in ConfigFiles, whose text Godot 4 writes with sorted keys), leaves by their var2bytes
# bytes (NaN payloads, -0.0), NodePaths by their parts, full objects by class and stored properties.
# Prints one line per mismatch, "RESULT <kind> <passed> <failed>" per file, then
# "N passed, N failed"; exits 1 on failure.
extends SceneTree

const Cli = preload("res://godot3_lib/cli.gd")
const Diff = preload("res://godot3_lib/diff.gd")
const Tally = preload("res://godot3_lib/tally.gd")

var total = Tally.new()
var kind_tally = Tally.new()   # the checks of the file kind being read


func _init():
	var args = Cli.args()
	if not args.has("in") or not args.has("fixture"):
		printerr("usage: -s res://check3.gd --in=DIR --fixture=DIR")
		quit(2)
		return
	print("engine %s" % Engine.get_version_info().string)
	run(args["in"], args["fixture"])
	print(total.summary())
	quit(0 if total.failed == 0 else 1)


func check(ok, what):
	return kind_tally.check(ok, what)


func end_kind(kind):
	print("RESULT %s %d %d" % [kind, kind_tally.passed, kind_tally.failed])
	total.add(kind_tally)
	kind_tally = Tally.new()


func run(in_dir, fixture):
	var f = File.new()
	var m = null
	if f.open(in_dir.plus_file("manifest.json"), File.READ) == OK:
		m = JSON.parse(f.get_as_text()).result
		f.close()
	if not check(m is Dictionary, "manifest.json in %s reads" % in_dir):
		end_kind("manifest")
		return
	# What this engine reads from its own fixture.
	var expected = []
	if check(f.open(fixture.plus_file("plain.bin"), File.READ) == OK, "the fixture %s opens" % fixture):
		for e in m.values:
			expected.append(f.get_var(e.allow_objects))
		check(f.get_position() == f.get_len(), "the fixture's values end at its end")
		f.close()
	end_kind("fixture")
	if expected.size() != m.values.size():
		return
	var key = Cli.hex_decode(m.key_hex)

	for fe in m.files:
		var kind = fe.kind
		var path = in_dir.plus_file(fe.file)
		var err
		if kind.begins_with("compressed_"):
			err = f.open_compressed(path, File.READ, int(fe.mode))
		elif kind == "encrypted_pass":
			err = f.open_encrypted_with_pass(path, File.READ, m.password)
		elif kind == "encrypted_key":
			err = f.open_encrypted(path, File.READ, key)
		else:
			err = f.open(path, File.READ)
		if check(err == OK, "%s: opens (error %d)" % [kind, err]):
			for e in m.values:
				if not e.written:
					continue
				var i = int(e.index)
				var got = f.get_var(e.allow_objects)
				var why = Diff.diff(got, expected[i], "", true)
				check(why == "", "%s: value %d (%s):%s" % [kind, i, e.name, why])
			check(f.get_position() == f.get_len(), "%s: the values end at the end of the file (at %d of %d)" % [
				kind, f.get_position(), f.get_len()])
			f.close()
		end_kind(kind)

	for ce in m.configs:
		var cf = ConfigFile.new()
		var path = in_dir.plus_file(ce.file)
		var err
		if ce.kind == "encrypted_pass":
			err = cf.load_encrypted_pass(path, m.password)
		else:
			err = cf.load_encrypted(path, key)
		if check(err == OK, "%s: loads (error %d)" % [ce.file, err]):
			for cv in m.config_values:
				var got = cf.get_value(m.config_section, cv.key)
				var why = Diff.diff(got, expected[int(cv.index)], "", false)
				check(why == "", "%s: %s (value %d):%s" % [ce.file, cv.key, int(cv.index), why])
			check(cf.get_section_keys(m.config_section).size() == m.config_values.size(),
				"%s: %d keys, no others" % [ce.file, m.config_values.size()])
		end_kind("config_" + ce.kind)
