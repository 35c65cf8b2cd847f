@tool
extends EditorPlugin
## Drives the Saves dock in a headless Godot 4.6.3 editor (tests/run_dock_test.sh): for every
## save Godot 4.6.3 and 3.6.2 wrote (each container), opens it as a user does (the file list,
## the password, key and classes fields), edits values through the editor's UndoRedo, undoes
## and redoes, saves, and opens the file again. Prints PASS/FAIL lines and "N passed, N
## failed", then quits the editor with 0 or 1. Godot reads the saved files afterwards
## (read_back.gd, tests/saves/check3/dock_saves.gd).

const Saves := preload("res://dock_test_lib/saves.gd")
const Tally := preload("res://dock_test_lib/tally.gd")
const SaveDock := preload("res://addons/fast_var_codec/editor/save_dock.gd")

var tally := Tally.new()


func _enter_tree() -> void:
	_run.call_deferred()


func _run() -> void:
	# The editor's first frames: every plugin in the tree and ready.
	for i in 10:
		await get_tree().process_frame
	var dock: SaveDock = _find_dock(EditorInterface.get_base_control())
	check(dock != null, "the Saves dock is in the editor")
	if dock != null and not OS.get_environment("FVC_DOCK_SCREENSHOT").is_empty():
		await _screenshot(dock, OS.get_environment("FVC_DOCK_SCREENSHOT"))
	elif dock != null:
		_drive(dock)
		await _inspector_edits(dock)
	get_tree().quit(tally.finish())


func _drive(dock: SaveDock) -> void:
	check(dock._key.text == Saves.key().hex_encode(),
		"the Key field starts with the export presets' script_encryption_key (%s)" % dock._key.text)
	var listed := SaveDock.list_user_files()
	for entry in Saves.files4() + Saves.configs4() + Saves.jsons4() + Saves.files3() + [{"file": Saves.MIXED_OBJECTS3}, {"file": Saves.TRES4}]:
		check(listed.has("user://" + entry.file), "user://%s is listed" % entry.file)
	dock.refresh()
	var history := get_undo_redo().get_history_undo_redo(EditorUndoRedoManager.GLOBAL_HISTORY)
	for entry in Saves.files4():
		_case(dock, history, entry, Saves.edits4(), Saves.edited4())
	for entry in Saves.configs4():
		_case(dock, history, entry, Saves.config_edits(), null)
	for entry in Saves.jsons4():
		_case(dock, history, entry, Saves.json_edits(), [Saves.json_edited4()])
		check(dock.document.kind == SaveDock.SaveDocument.Kind.JSON_SAVE and dock.document.json_style.get("indent") == entry.indent,
			"user://%s opens as a JSON save, its indent found (%s)" % [entry.file, dock.document.describe()])
	_case(dock, history, {"file": Saves.TRES4, "container": "plain"}, Saves.tres_edits(), null)
	check(dock.document.kind == SaveDock.SaveDocument.Kind.TEXT_RESOURCE and dock.document.describe().begins_with("text resource"),
		"user://%s opens as a text resource (%s)" % [Saves.TRES4, dock.document.describe()])
	check(dock.find_row([1, "metadata/gold"]) != null, "its values are rows of their section")
	for entry in Saves.files3():
		_case(dock, history, entry, Saves.edits4(), null)
	# Full objects (Curve listed) and objects written as ids: opens, read only.
	var mixed := dock.open_file_with("user://" + Saves.MIXED_OBJECTS3, "", "", Saves.CLASSES)
	check(mixed == OK and dock.document.values.size() == 59, "Godot 3.6.2's fixture opens with Curve listed (%s)" % dock.document.error_message)
	check(not dock.document.can_save() and dock.document.read_only_reason.contains("ids"),
		"a save of full objects and objects written as ids is read only (%s)" % dock.document.read_only_reason)
	check(dock.save() == ERR_UNAVAILABLE, "saving it is refused")
	var refused := dock.open_file_with("user://" + Saves.MIXED_OBJECTS3, "", "", [])
	check(refused == ERR_UNAUTHORIZED and not dock.document.can_save(),
		"without Curve listed its full Curve is refused: ERR_UNAUTHORIZED, read only (%s)" % dock.document.error_message)
	_housekeeping(dock)
	# A wrong password: the file fails to open, stays as it was, and cannot be saved.
	var wrong := dock.open_file_with("user://g4_pass.sav", "not the password", "", [])
	check(wrong == ERR_FILE_CORRUPT, "a wrong password fails with ERR_FILE_CORRUPT (got %s: %s)" % [error_string(wrong), dock.document.error_message])
	check(dock.save() != OK, "a file that did not open is not saved")


## Refreshing while a game writes, deleting.
func _housekeeping(dock: SaveDock) -> void:
	# The game writes the open file again: an unedited file is read again, an edited one is not.
	var path := "user://rewritten.sav"
	_write(path, [1])
	dock.refresh()
	check(dock.open_file_with(path, "", "", []) == OK and dock.document.values == [1], "%s opens" % path)
	OS.delay_msec(1100)  # the file times are whole seconds
	_write(path, [2])
	dock.refresh()
	check(dock.document.values == [2], "Refresh reads a file the game wrote again (%s)" % [dock.document.values])
	dock.edit_value([0], 3)
	OS.delay_msec(1100)
	_write(path, [4])
	dock.refresh()
	check(dock.document.values == [3] and dock.document.changed, "Refresh keeps the unsaved edits of a file the game wrote again")
	check(dock._status.text.contains("changed on disk"), "and says the file changed on disk (%s)" % dock._status.text)
	# Delete asks first, then removes the file and its row.
	dock.refresh()
	check(dock.select_file(path), "%s is listed" % path)
	dock._ask_delete()
	check(dock._delete_dialog.visible and dock._delete_dialog.dialog_text.contains(path), "Delete asks first (%s)" % dock._delete_dialog.dialog_text)
	dock._delete_dialog.hide()
	check(FileAccess.file_exists(path), "%s is there until the deletion is confirmed" % path)
	dock._delete_dialog.confirmed.emit()
	check(not FileAccess.file_exists(path) and not dock.select_file(path), "confirmed, %s is deleted and no longer listed" % path)
	check(dock.document.path.is_empty(), "the deleted file is no longer open")


## An edit made as a user makes it: the row selected in the tree shows its value in the editor's
## Inspector, and the value changed there, by its property editor (emit_changed, what typing in
## the field ends in), is one undoable edit of the save.
func _inspector_edits(dock: SaveDock) -> void:
	var history := get_undo_redo().get_history_undo_redo(EditorUndoRedoManager.GLOBAL_HISTORY)
	var path := "user://inspector.sav"
	_write(path, [{"gold": 10, "name": "hero"}])
	dock.refresh()
	if not check(dock.open_file_with(path, "", "", []) == OK, "%s opens" % path):
		return
	var row := dock.find_row([0, "gold"])
	if not check(row != null, "%s: the row of value 0 › gold is in the tree" % path):
		return
	row.get_parent().collapsed = false
	row.select(0)
	await get_tree().process_frame
	var inspector := EditorInterface.get_inspector()
	check(inspector.get_edited_object() == dock._proxy and dock._proxy != null,
		"selecting the row shows its value in the Inspector (%s)" % inspector.get_edited_object())
	var editor := _property_editor(inspector)
	if not check(editor != null and editor.get_class() == "EditorPropertyInteger",
			"the Inspector edits it with the editor's int editor (%s)" % (editor.get_class() if editor else "none")):
		return
	editor.emit_changed(editor.get_edited_property(), 25)
	check(dock.document.get_at([0, "gold"]) == 25 and dock.document.changed,
		"the value set in the Inspector is the save's (%s)" % dock.document.get_at([0, "gold"]))
	history.undo()
	check(dock.document.get_at([0, "gold"]) == 10 and inspector.get_edited_object().get(editor.get_edited_property()) == 10,
		"undo gives it back, in the Inspector too")
	history.redo()
	check(dock.save() == OK, "%s saves (%s)" % [path, dock.document.error_message])
	var f := FileAccess.open(path, FileAccess.READ)
	var read: Variant = f.get_var() if f != null else null
	check(read is Dictionary and read == {"gold": 25, "name": "hero"}, "Godot reads the value the Inspector set: %s" % [read])
	f = null
	DirAccess.remove_absolute(path)


## The Inspector's property editor of the one value it shows, null when there is none.
func _property_editor(node: Node) -> EditorProperty:
	for child in node.get_children():
		if child is EditorProperty and not (child as EditorProperty).get_edited_property().is_empty():
			return child
		var found := _property_editor(child)
		if found != null:
			return found
	return null


func _write(path: String, values: Array) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	for v in values:
		f.store_var(v)
	f.close()


## One file: open it, make each edit, undo and redo the first, save, open it again.
func _case(dock: SaveDock, history: UndoRedo, entry: Dictionary, edits: Array, expected: Variant) -> void:
	var path: String = "user://" + entry.file
	# The Key field holds the project's key whatever the file (as the export presets fill it):
	# only an encrypted file is written with it.
	var key := Saves.key().hex_encode() if not entry.has("password") else ""
	var classes: Array = []
	var opened := dock.open_file_with(path, entry.get("password", ""), key, classes)
	if not check(opened == OK, "%s opens (%s)" % [path, dock.document.error_message]):
		return
	check(dock.document.found.get("container", "") == entry.container or dock.document.kind == SaveDock.SaveDocument.Kind.CONFIG_FILE,
		"%s is found %s (%s)" % [path, entry.container, dock.document.describe()])
	check(dock.document.can_save(), "%s can be saved (%s)" % [path, dock.document.read_only_reason])
	for edit in edits:
		check(dock.document.get_at(edit[0]) == edit[1], "%s %s holds %s before the edit (it holds %s)" % [path, edit[0], edit[1], dock.document.get_at(edit[0])])
		dock.edit_value(edit[0], edit[2])
		check(dock.document.get_at(edit[0]) == edit[2], "%s %s holds %s after the edit" % [path, edit[0], edit[2]])
	history.undo()
	var last: Array = edits[-1]
	check(dock.document.get_at(last[0]) == last[1], "%s: undo gives %s back its %s" % [path, last[0], last[1]])
	history.redo()
	check(dock.document.get_at(last[0]) == last[2], "%s: redo makes %s %s again" % [path, last[0], last[2]])
	check(dock.document.changed, "%s has unsaved edits" % path)
	check(dock.save() == OK, "%s saves (%s)" % [path, dock.document.error_message])
	check(not dock.document.changed, "%s has no unsaved edits after saving" % path)
	check(not FileAccess.file_exists(path + SaveDock.SaveDocument.WRITING_SUFFIX), "%s: nothing is left beside it" % path)
	# Opened again, the file holds the edits.
	var again := dock.open_file_with(path, entry.get("password", ""), key, classes)
	if not check(again == OK, "%s opens again (%s)" % [path, dock.document.error_message]):
		return
	for edit in edits:
		check(dock.document.get_at(edit[0]) == edit[2], "%s %s holds %s when opened again" % [path, edit[0], edit[2]])
	check(dock.document.found.get("container", "") == entry.container, "%s is still %s" % [path, entry.container])
	if expected != null:
		check(var_to_bytes(dock.document.values) == var_to_bytes(expected), "%s holds exactly the edited values" % path)


## The picture of docs/images/saves_dock.png (tests/dock/screenshot.sh): a save Godot 3.6.2
## wrote, compressed with Zstd, open; a value inside its Dictionary selected and shown in the
## inspector.
func _screenshot(dock: SaveDock, path: String) -> void:
	make_bottom_panel_item_visible(dock)
	dock.open_file_with("user://godot3/g3_zstd.sav", "", "", [])
	var row := dock.find_row([0, "gold"])
	if row != null:
		row.get_parent().collapsed = false
		row.select(0)
	for i in 30:
		await get_tree().process_frame
	var image := get_tree().root.get_texture().get_image()
	check(image != null and image.save_png(path) == OK, "the screenshot is saved to " + path)


func _find_dock(node: Node) -> SaveDock:
	if node.get_script() == SaveDock:
		return node
	for child in node.get_children():
		var found := _find_dock(child)
		if found != null:
			return found
	return null


func check(ok: bool, what: String) -> bool:
	return tally.check(ok, what)
