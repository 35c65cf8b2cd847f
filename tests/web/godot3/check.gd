# Godot 3 (3.6.2) and the web page's files, for tests/run_web_tests.sh:
#   godot3 --no-window --path tests/web/godot3 -s res://check.gd --write=FILE --open=SPEC
#     writes the conversion set (conversion_values()) with store_var, opened as SPEC says;
#   godot3 --no-window --path tests/web/godot3 -s res://check.gd --got=FILE --open=SPEC
#          --expected=FILE --expected-open=SPEC [--changed=INDEX --value=VAR2STR]
#     reads every value of both files with the engine's File and get_var(true) and compares
#     them exactly (types, containers item by item, leaves by their var2bytes bytes, full
#     objects by class and stored properties): the same, except value INDEX, which must be
#     str2var(VAR2STR).
#   godot3 --no-window --path tests/web/godot3 -s res://check.gd --config-got=FILE --open=SPEC
#          --config-expected=FILE --expected-open=SPEC [--changed=SECTION/KEY --value=VAR2STR]
#     loads both ConfigFiles with the engine's ConfigFile (load, load_encrypted_pass,
#     load_encrypted) and compares them exactly: the same sections and keys in the same order,
#     the same values, except key KEY of section SECTION, which must be str2var(VAR2STR).
# SPEC: "plain", "pass:PASSWORD", "key:HEX" (32 bytes), "compressed:MODE" (File.COMPRESSION_*).
# Prints one line per mismatch, then "N passed, N failed"; exits 1 on failure.
# res://godot3_lib/ is a committed symlink to tests/godot3_lib/ (cli.gd, diff.gd, tally.gd).
extends SceneTree

const Cli = preload("res://godot3_lib/cli.gd")
const Diff = preload("res://godot3_lib/diff.gd")
const Tally = preload("res://godot3_lib/tally.gd")

var t = Tally.new()


func _init():
	var a = Cli.args()
	if a.has("write"):
		var f = open_as(a["write"], a.get("open", "plain"), File.WRITE)
		if f == null:
			quit(1)
			return
		for v in conversion_values():
			f.store_var(v)
		f.close()
		print("wrote %s" % a["write"])
		print("1 passed, 0 failed")
		quit(0)
		return
	if a.has("config-got"):
		check_config(a)
		print(t.summary())
		quit(0 if t.failed == 0 else 1)
		return
	var got = read_all(a["got"], a.get("open", "plain"))
	var expected = read_all(a["expected"], a.get("expected-open", "plain"))
	var changed = int(a.get("changed", "-1"))
	if got != null and expected != null:
		if changed >= 0:
			expected[changed] = str2var(a["value"])
		t.check(got.size() == expected.size(), "%d values, %d expected" % [got.size(), expected.size()])
		for i in range(min(got.size(), expected.size())):
			var why = Diff.diff(got[i], expected[i], "")
			t.check(why == "", "value %d:%s" % [i, why])
	print(t.summary())
	quit(0 if t.failed == 0 else 1)


func open_as(path, spec, mode):
	var f = File.new()
	var err
	if spec.begins_with("pass:"):
		err = f.open_encrypted_with_pass(path, mode, spec.substr(5, spec.length() - 5))
	elif spec.begins_with("key:"):
		err = f.open_encrypted(path, mode, Cli.hex_decode(spec.substr(4, spec.length() - 4)))
	elif spec.begins_with("compressed:"):
		err = f.open_compressed(path, mode, int(spec.substr(11, spec.length() - 11)))
	else:
		err = f.open(path, mode)
	if not t.check(err == OK, "%s opens as %s (error %d)" % [path, spec, err]):
		return null
	return f


func read_all(path, spec):
	var f = open_as(path, spec, File.READ)
	if f == null:
		return null
	var out = []
	while f.get_position() < f.get_len():
		out.append(f.get_var(true))
	t.check(f.get_position() == f.get_len(), "%s: the values end at its end" % path)
	f.close()
	return out


func load_config(path, spec):
	var cf = ConfigFile.new()
	var err
	if spec.begins_with("pass:"):
		err = cf.load_encrypted_pass(path, spec.substr(5, spec.length() - 5))
	elif spec.begins_with("key:"):
		err = cf.load_encrypted(path, Cli.hex_decode(spec.substr(4, spec.length() - 4)))
	else:
		err = cf.load(path)
	if not t.check(err == OK, "%s loads as a ConfigFile, %s (error %d)" % [path, spec, err]):
		return null
	return cf


func check_config(a):
	var got = load_config(a["config-got"], a.get("open", "plain"))
	var expected = load_config(a["config-expected"], a.get("expected-open", "plain"))
	if got == null or expected == null:
		return
	if a.has("changed"):
		var at = a["changed"].find("/")
		expected.set_value(a["changed"].substr(0, at), a["changed"].substr(at + 1), str2var(a["value"]))
	var sections = Array(expected.get_sections())
	var why = Diff.diff(Array(got.get_sections()), sections, "sections")
	if not t.check(why == "", why):
		return
	for s in sections:
		var keys = Array(expected.get_section_keys(s))
		why = Diff.diff(Array(got.get_section_keys(s)), keys, "[%s] keys" % s)
		if not t.check(why == "", why):
			continue
		for k in keys:
			why = Diff.diff(got.get_value(s, k), expected.get_value(s, k), "[%s] %s" % [s, k])
			t.check(why == "", why)


# The values of the Godot 3 save the page converts to Godot 4 (tests/web/godot4/check.gd has
# them as Godot 4 values, in the same order).
func conversion_values():
	return [
		"Ada",
		42,
		0.25,
		Vector2(1.5, -2),
		Vector3(1, 2, 3),
		Color(1, 0.5, 0.25, 1),
		Rect2(1, 2, 3, 4),
		Transform(Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)), Vector3(5, 6, 7)),
		Quat(0, 0, 0, 1),
		PoolStringArray(["a", "b"]),
		PoolIntArray([1, 2, 3]),
		PoolRealArray([0.5, 1.5]),
		{"name": "Ada", "hp": 10, "pos": Vector2(1, 2), "inventory": ["sword", 3, 2.5]},
		NodePath("/root/Main:position"),
		[1, "two", 3.5, null, true],
	]
