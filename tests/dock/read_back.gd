extends SceneTree
## Godot 4.6.3 reads back what the Saves dock saved, with its own FileAccess.get_var and
## ConfigFile: every value exactly as edited (compared by var_to_bytes). Prints PASS/FAIL lines
## and "N passed, N failed"; exits 1 on any failure.

const Saves := preload("res://dock_test_lib/saves.gd")
const Tally := preload("res://dock_test_lib/tally.gd")

var tally := Tally.new()


func _initialize() -> void:
	for entry in Saves.files4():
		var f := Saves.open4(entry, FileAccess.READ)
		if not check(f != null, "Godot 4.6.3 opens user://%s (%s)" % [entry.file, error_string(FileAccess.get_open_error())]):
			continue
		var read := []
		while f.get_position() < f.get_length():
			read.append(f.get_var())
		check(var_to_bytes(read) == var_to_bytes(Saves.edited4()),
			"Godot 4.6.3 reads user://%s as edited: %s" % [entry.file, read])
	for entry in Saves.configs4():
		var c := ConfigFile.new()
		var path: String = "user://" + entry.file
		var err := c.load_encrypted_pass(path, entry.password) if entry.has("password") else c.load(path)
		if not check(err == OK, "Godot 4.6.3 loads %s (%s)" % [path, error_string(err)]):
			continue
		var want := Saves.config4()
		for edit in Saves.config_edits():
			if edit[0].size() == 2:
				want.set_value(edit[0][0], edit[0][1], edit[2])
			else:
				var outer: Variant = want.get_value(edit[0][0], edit[0][1])
				outer[edit[0][2]] = edit[2]
				want.set_value(edit[0][0], edit[0][1], outer)
		var same := c.encode_to_text() == want.encode_to_text()
		check(same, "Godot 4.6.3 reads %s as edited%s" % [path, "" if same else ":\n" + c.encode_to_text()])
	for entry in Saves.jsons4():
		var f := Saves.open_json4(entry, FileAccess.READ)
		if not check(f != null, "Godot 4.6.3 opens user://%s (%s)" % [entry.file, error_string(FileAccess.get_open_error())]):
			continue
		var text := f.get_as_text()
		# Written back in the style the engine wrote it in: its indent, its keys in their order.
		var want := JSON.stringify(Saves.json_edited4(), entry.indent, false)
		check(text == want, "Godot 4.6.3 reads user://%s as edited, in its own style:\n%s" % [entry.file, text])
		check(JSON.parse_string(text) == JSON.parse_string(want), "and JSON.parse reads the edited values")
	var res: Resource = ResourceLoader.load("user://" + Saves.TRES4, "", ResourceLoader.CACHE_MODE_IGNORE)
	if check(res != null, "Godot 4.6.3 loads user://%s" % Saves.TRES4):
		check(res.resource_name == "hero" and res.get_meta("gold") == 11 and res.get_meta("inventory") == ["sword", "bow"]
				and res.get_meta("speed") == 2.5,
			"Godot 4.6.3 loads user://%s as edited: %s %s %s %s" % [Saves.TRES4, res.resource_name, res.get_meta("gold"),
				res.get_meta("inventory"), res.get_meta("speed")])
	quit(tally.finish())


func check(ok: bool, what: String) -> bool:
	return tally.check(ok, what)
