extends SceneTree
## Godot 4.6.3 writes the saves the dock test opens, with its own FileAccess and ConfigFile.

const Saves := preload("res://dock_test_lib/saves.gd")


func _initialize() -> void:
	var failed := 0
	for entry in Saves.files4():
		var f := Saves.open4(entry, FileAccess.WRITE)
		if f == null:
			printerr("cannot write %s: %s" % [entry.file, error_string(FileAccess.get_open_error())])
			failed += 1
			continue
		for v in Saves.values4():
			f.store_var(v)
		f.close()
	for entry in Saves.configs4():
		var c := Saves.config4()
		var path: String = "user://" + entry.file
		var err := c.save_encrypted_pass(path, entry.password) if entry.has("password") else c.save(path)
		if err != OK:
			printerr("cannot write %s: %s" % [entry.file, error_string(err)])
			failed += 1
	for entry in Saves.jsons4():
		var f := Saves.open_json4(entry, FileAccess.WRITE)
		if f == null:
			printerr("cannot write %s: %s" % [entry.file, error_string(FileAccess.get_open_error())])
			failed += 1
			continue
		f.store_string(JSON.stringify(Saves.json4(), entry.indent, false))
		f.close()
	var saved := ResourceSaver.save(Saves.tres4(), "user://" + Saves.TRES4)
	if saved != OK:
		printerr("cannot write %s: %s" % [Saves.TRES4, error_string(saved)])
		failed += 1
	var written := Saves.files4().size() + Saves.configs4().size() + Saves.jsons4().size() + 1
	print("%d passed, %d failed" % [written - failed, failed])
	quit(1 if failed else 0)
