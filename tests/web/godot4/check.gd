# Godot 4 (4.6.3) and the web page's files, for tests/run_web_tests.sh:
#   godot4 --headless --path tests/web/godot4 -s res://check.gd --write=FILE --open=SPEC --set=NAME
#     writes the values of set NAME with store_var, the file opened as SPEC says;
#   godot4 --headless --path tests/web/godot4 -s res://check.gd --got=FILE --open=SPEC --set=NAME
#          [--changed=INDEX --value=VAR_TO_STR]
#     reads every value of FILE with the engine's FileAccess and get_var(true) and compares each
#     with set NAME's (by var_to_str, which tells int from float and shows every component and
#     item), except value INDEX, which must be str_to_var(VAR_TO_STR).
# Sets: "roundtrip" (a store_var file the page edits) and "conversion" (the Godot 3 values of
# tests/web/godot3/check.gd, as Godot 4 reads them once the page converted the file).
#   godot4 --headless --path tests/web/godot4 -s res://check.gd --json=FILE --open=SPEC --expect=TEXT
#     reads FILE's text (a JSON save) with FileAccess and get_as_text, and checks that it is the
#     text of file TEXT and that JSON.parse reads it.
# SPEC: "plain", "pass:PASSWORD", "key:HEX" (32 bytes), "compressed:MODE" (FileAccess.COMPRESSION_*).
# Prints one line per mismatch, then "N passed, N failed"; exits 1 on failure.
extends SceneTree

var passed := 0
var failed := 0


func args() -> Dictionary:
	var out := {}
	for a in OS.get_cmdline_args() + OS.get_cmdline_user_args():
		if a.begins_with("--") and a.find("=") > 0:
			var i := a.find("=")
			out[a.substr(2, i - 2)] = a.substr(i + 1)
	return out


func check(ok: bool, what: String) -> bool:
	if ok:
		passed += 1
	else:
		failed += 1
		print("FAIL " + what)
	return ok


func _init() -> void:
	var a := args()
	var values: Array = roundtrip_values() if a.get("set", "roundtrip") == "roundtrip" else conversion_values()
	if a.has("write"):
		var f := open_as(a["write"], a.get("open", "plain"), FileAccess.WRITE)
		if f == null:
			quit(1)
			return
		for v in values:
			f.store_var(v)
		f.close()
		print("wrote %s" % a["write"])
		print("1 passed, 0 failed")
		quit(0)
		return
	if a.has("json"):
		var j := open_as(a["json"], a.get("open", "plain"), FileAccess.READ)
		if j != null:
			var text := j.get_as_text()
			j.close()
			var json := JSON.new()
			check(json.parse(text) == OK, "JSON.parse reads it: %s" % json.get_error_message())
			check(text == FileAccess.get_file_as_string(a["expect"]), "the text: %s" % text.left(200))
		print("%d passed, %d failed" % [passed, failed])
		quit(0 if failed == 0 else 1)
		return
	var f := open_as(a["got"], a.get("open", "plain"), FileAccess.READ)
	if f != null:
		var got := []
		while f.get_position() < f.get_length():
			got.append(f.get_var(true))
		check(f.get_position() == f.get_length(), "the values end at the file's end")
		f.close()
		var changed := int(a.get("changed", "-1"))
		if changed >= 0:
			values[changed] = str_to_var(a["value"])
		check(got.size() == values.size(), "%d values, %d expected" % [got.size(), values.size()])
		for i in range(mini(got.size(), values.size())):
			var g := var_to_str(got[i])
			var e := var_to_str(values[i])
			check(g == e and typeof(got[i]) == typeof(values[i]), "value %d: got %s, expected %s" % [i, g.left(200), e.left(200)])
	print("%d passed, %d failed" % [passed, failed])
	quit(0 if failed == 0 else 1)


func open_as(path: String, spec: String, mode: FileAccess.ModeFlags) -> FileAccess:
	var f: FileAccess
	if spec.begins_with("pass:"):
		f = FileAccess.open_encrypted_with_pass(path, mode, spec.substr(5))
	elif spec.begins_with("key:"):
		f = FileAccess.open_encrypted(path, mode, spec.substr(4).hex_decode())
	elif spec.begins_with("compressed:"):
		f = FileAccess.open_compressed(path, mode, int(spec.substr(11)))
	else:
		f = FileAccess.open(path, mode)
	check(f != null, "%s opens as %s (error %d)" % [path, spec, FileAccess.get_open_error()])
	return f


func roundtrip_values() -> Array:
	var typed: Array[int] = [1, 2, 3]
	var bytes := PackedByteArray()
	for i in range(10000):
		bytes.append((i * 7 + 3) % 256)
	return [
		{"player": "Ada", "gold": 1099511627776, "position": Vector3(1.5, -2, 0.25)},
		"Grüße ✓",
		3.5,
		7,
		Vector3(1, 2, 3),
		Color(0.2, 0.4, 0.6, 1),
		Vector4(1, 2, 3, 4),
		StringName("sword"),
		PackedStringArray(["a", "b"]),
		PackedVector2Array([Vector2(1, 2), Vector2(3, 4)]),
		typed,
		{"nested": {"list": [1, 2.5, "x"]}},
		Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)), Vector3(5, 6, 7)),
		bytes,
	]


# tests/web/godot3/check.gd's conversion_values(), as Godot 4 values.
func conversion_values() -> Array:
	return [
		"Ada",
		42,
		0.25,
		Vector2(1.5, -2),
		Vector3(1, 2, 3),
		Color(1, 0.5, 0.25, 1),
		Rect2(1, 2, 3, 4),
		Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)), Vector3(5, 6, 7)),
		Quaternion(0, 0, 0, 1),
		PackedStringArray(["a", "b"]),
		PackedInt32Array([1, 2, 3]),
		PackedFloat32Array([0.5, 1.5]),
		{"name": "Ada", "hp": 10, "pos": Vector2(1, 2), "inventory": ["sword", 3, 2.5]},
		NodePath("/root/Main:position"),
		[1, "two", 3.5, null, true],
	]
