@tool
extends VBoxContainer
## The Saves dock (the editor's bottom panel): the project's user:// files, and the one opened as a tree of its values, each
## with its type, edited in the inspector with the editor's own property editors, every edit
## undoable, saved back into the file's own container.

const SaveDocument := preload("save_document.gd")
const ValueProxy := preload("value_proxy.gd")

## Rows shown under an Array or Dictionary; the rest are reached by editing it whole.
const MAX_CHILD_ROWS := 1000
## How often the file list and the open file are looked at again while the game runs.
const POLL_SECONDS := 1.0

## The editor's UndoRedo (EditorPlugin.get_undo_redo()); edits are made without one when null.
var undo_redo: EditorUndoRedoManager
## The file open in the dock.
var document := SaveDocument.new()

var _files: ItemList
var _password: LineEdit
var _key: LineEdit
var _dialect: OptionButton
var _classes: LineEdit
var _status: Label
var _tree: Tree
var _save_button: Button
var _delete_dialog: ConfirmationDialog
var _proxy: ValueProxy
var _proxy_where: Array = []
var _listed := PackedStringArray()
var _opened_time := 0


func _init() -> void:
	name = "Saves"
	custom_minimum_size = Vector2(0, 240)
	var split := HSplitContainer.new()
	split.size_flags_vertical = Control.SIZE_EXPAND_FILL
	add_child(split)
	# Left: the files, the secrets, open and save, what happened.
	var side := VBoxContainer.new()
	side.custom_minimum_size = Vector2(320, 0)
	split.add_child(side)
	var bar := HBoxContainer.new()
	side.add_child(bar)
	bar.add_child(_button("Refresh", "List user:// again and reopen the file when the game changed it", refresh))
	bar.add_child(_button("Show Folder", "Open user:// in the file manager", reveal_folder))
	bar.add_child(_button("Delete", "Delete the selected file (asks first)", _ask_delete))
	_files = ItemList.new()
	_files.custom_minimum_size = Vector2(0, 60)
	_files.size_flags_vertical = Control.SIZE_EXPAND_FILL
	_files.item_activated.connect(func(_i: int) -> void: open_selected())
	side.add_child(_files)

	var secrets := GridContainer.new()
	secrets.columns = 2
	side.add_child(secrets)
	_password = LineEdit.new()
	_password.secret = true
	_password.placeholder_text = "open_encrypted_with_pass's password"
	_password.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_key = LineEdit.new()
	_key.placeholder_text = "open_encrypted's key: 64 hex digits"
	_key.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_dialect = OptionButton.new()
	_dialect.tooltip_text = "The dialect of the values: the one the file's records tell, or a chosen one"
	_dialect.add_item("As the file tells", 0)
	_dialect.set_item_metadata(0, -1)
	for entry in [["Godot 4", FastVarCodec.DIALECT_GODOT_4], ["Godot 3", FastVarCodec.DIALECT_GODOT_3]]:
		_dialect.add_item(entry[0])
		_dialect.set_item_metadata(_dialect.item_count - 1, entry[1])
	_classes = LineEdit.new()
	_classes.placeholder_text = "classes of full objects it may make: Curve, InputEventKey"
	_classes.tooltip_text = "A save holding full objects (store_var(value, true)) opens only when their classes are listed; scripts are never run unless listed"
	for row in [["Password", _password], ["Key", _key], ["Dialect", _dialect], ["Classes", _classes]]:
		var label := Label.new()
		label.text = row[0]
		secrets.add_child(label)
		secrets.add_child(row[1])

	var actions := HBoxContainer.new()
	side.add_child(actions)
	actions.add_child(_button("Open", "Open the selected file", open_selected))
	_save_button = _button("Save", "Write the values back into the file, as it was kept", save)
	_save_button.disabled = true
	actions.add_child(_save_button)
	_status = Label.new()
	_status.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	_status.custom_minimum_size = Vector2(120, 0)
	side.add_child(_status)

	# Right: the values.
	_tree = Tree.new()
	_tree.columns = 3
	_tree.column_titles_visible = true
	_tree.set_column_title(0, "Key")
	_tree.set_column_title(1, "Type")
	_tree.set_column_title(2, "Value")
	_tree.set_column_expand_ratio(2, 2)
	_tree.hide_root = true
	_tree.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	_tree.item_selected.connect(_on_row_selected)
	split.add_child(_tree)

	_delete_dialog = ConfirmationDialog.new()
	_delete_dialog.confirmed.connect(delete_selected)
	add_child(_delete_dialog)

	var timer := Timer.new()
	timer.wait_time = POLL_SECONDS
	timer.autostart = true
	timer.timeout.connect(_poll)
	add_child(timer)


func _ready() -> void:
	_key.text = project_key()
	refresh()


## The project's encryption key from its export presets (the first one set), as 64 hex digits;
## "" when there is none.
static func project_key() -> String:
	var codec := FastVarCodec.new()
	# Godot 4.2 and later keep it in .godot/export_credentials.cfg, earlier in export_presets.cfg.
	for path in ["res://.godot/export_credentials.cfg", "res://export_presets.cfg"]:
		if not FileAccess.file_exists(path):
			continue
		var presets := codec.load_config_file(path)
		if presets == null:
			continue
		for section in presets.get_sections():
			var key: Variant = presets.get_value(section, "script_encryption_key", "")
			if key is String and (key as String).length() == 64:
				return key
	return ""


## Every file under user://, as paths from it.
static func list_user_files(dir := "user://") -> PackedStringArray:
	var out := PackedStringArray()
	var access := DirAccess.open(dir)
	if access == null:
		return out
	for file in access.get_files():
		if not file.ends_with(SaveDocument.WRITING_SUFFIX):
			out.append(dir.path_join(file))
	for sub in access.get_directories():
		out.append_array(list_user_files(dir.path_join(sub)))
	return out


## Lists user:// again, and reopens the open file when it changed on disk and holds no edits.
func refresh() -> void:
	var listed := list_user_files()
	if listed != _listed:
		var selected := _selected_path()
		_listed = listed
		_files.clear()
		for path in listed:
			_files.add_item(path.trim_prefix("user://"))
			_files.set_item_metadata(_files.item_count - 1, path)
			if path == selected:
				_files.select(_files.item_count - 1)
	if not document.path.is_empty() and FileAccess.file_exists(document.path):
		var time := FileAccess.get_modified_time(document.path)
		if time != _opened_time:
			if document.changed:
				_show_status("%s changed on disk; save to overwrite it, or reopen it to drop the edits" % document.path, true)
			else:
				open_file(document.path)


## Opens the file selected in the list.
func open_selected() -> Error:
	var path := _selected_path()
	if path.is_empty():
		_show_status("Select a file first", true)
		return ERR_INVALID_PARAMETER
	return open_file(path)


## Opens [param path] as a user does: the password, the key (64 hex digits) and the classes
## typed into their fields, then opened with them.
func open_file_with(path: String, password: String, key_hex: String, classes: Array) -> Error:
	_password.text = password
	_key.text = key_hex
	_classes.text = ", ".join(classes)
	select_file(path)
	return open_file(path)


## Selects [param path] in the list of files; false when it is not listed.
func select_file(path: String) -> bool:
	for i in _files.item_count:
		if _files.get_item_metadata(i) == path:
			_files.select(i)
			return true
	return false


## Opens [param path] with the password, key, dialect and classes of the dock's fields.
func open_file(path: String) -> Error:
	var key := PackedByteArray()
	if not _key.text.strip_edges().is_empty():
		key = _key.text.strip_edges().hex_decode()
		if key.size() != 32:
			_show_status("The key is 32 bytes: 64 hex digits", true)
			return ERR_INVALID_PARAMETER
	var classes := PackedStringArray()
	for name_ in _classes.text.split(",", false):
		if not name_.strip_edges().is_empty():
			classes.append(name_.strip_edges())
	var result := document.open(path, _password.text, key, _dialect.get_selected_metadata(), classes)
	_opened_time = FileAccess.get_modified_time(path)
	_rebuild_tree()
	if result != OK:
		_show_status(document.error_message, true)
	else:
		_show_status(document.describe() + ("" if document.can_save() else " · read only: " + document.read_only_reason), false)
	return result


## Sets the value at [param where] (see SaveDocument.get_at) as one undoable edit.
func edit_value(where: Array, value: Variant) -> void:
	var old: Variant = document.get_at(where)
	if undo_redo == null:
		apply_value(where, value)
		return
	undo_redo.create_action("Edit %s" % _label_of(where))
	undo_redo.add_do_method(self, &"apply_value", where, value)
	undo_redo.add_undo_method(self, &"apply_value", where, old)
	undo_redo.commit_action()


## An edit done or undone: the document, the tree and the inspector follow.
func apply_value(where: Array, value: Variant) -> void:
	document.set_at(where, value)
	var row := find_row(where)
	if row != null and not (value is Array or value is Dictionary):
		row.set_text(1, type_name(value))
		row.set_text(2, preview(value))
	else:
		_rebuild_tree()
	if _proxy != null and _proxy_where == where:
		_proxy.refresh(value)
	_save_button.disabled = not (document.changed and document.can_save())


## Writes the open file back.
func save() -> Error:
	var result := document.save()
	_opened_time = FileAccess.get_modified_time(document.path)
	_save_button.disabled = not (document.changed and document.can_save())
	if result != OK:
		_show_status(document.error_message, true)
	else:
		_show_status("Saved · " + document.describe(), false)
	return result


## Shows user:// in the file manager.
func reveal_folder() -> void:
	OS.shell_show_in_file_manager(ProjectSettings.globalize_path("user://"))


## Deletes the selected file (after the confirmation dialog).
func delete_selected() -> Error:
	var path := _selected_path()
	if path.is_empty():
		return ERR_INVALID_PARAMETER
	var result := DirAccess.remove_absolute(path)
	if result != OK:
		_show_status("%s: cannot delete it (%s)" % [path, error_string(result)], true)
		return result
	if path == document.path:
		document = SaveDocument.new()
		_rebuild_tree()
	_show_status("Deleted %s" % path, false)
	refresh()
	return OK


func _ask_delete() -> void:
	var path := _selected_path()
	if path.is_empty():
		_show_status("Select a file first", true)
		return
	_delete_dialog.dialog_text = "Delete %s? This cannot be undone." % path
	_delete_dialog.popup_centered()


func _poll() -> void:
	if is_visible_in_tree():
		refresh()


func _selected_path() -> String:
	var selected := _files.get_selected_items()
	return _files.get_item_metadata(selected[0]) if selected.size() > 0 else ""


func _rebuild_tree() -> void:
	_tree.clear()
	var root := _tree.create_item()
	if document.path.is_empty() or (document.values.is_empty() and document.config == null and document.resource == null):
		return
	var top: Variant = document.top()
	if document.kind == SaveDocument.Kind.TEXT_RESOURCE:
		var res := document.resource
		for i in res.get_section_count():
			var section_row := _tree.create_item(root)
			section_row.set_text(0, _section_title(i))
			section_row.set_selectable(0, false)
			for entry in res.get_section_keys(i):
				var value: Variant = res.get_value(i, entry)
				if res.get_error() == OK:
					_add_row(section_row, entry, value, [i, entry])
					continue
				# A value no script can hold (a container typed by one of the file's entries):
				# shown, not editable, and saved as the file has it.
				var kept := _tree.create_item(section_row)
				kept.set_text(0, entry)
				kept.set_text(2, "not editable here, saved as it is: " + res.get_error_message())
				kept.set_selectable(0, false)
	elif document.kind == SaveDocument.Kind.CONFIG_FILE:
		for section in top:
			var section_row := _tree.create_item(root)
			section_row.set_text(0, "[%s]" % section)
			section_row.set_selectable(0, false)
			for entry in top[section]:
				_add_row(section_row, entry, top[section][entry], [section, entry])
	else:
		for i in top.size():
			_add_row(root, "value" if document.kind == SaveDocument.Kind.JSON_SAVE else "value %d" % i, top[i], [i])


## A text resource's section as its tag reads: [code][ext_resource type="Script" id="1_ab"][/code].
func _section_title(section: int) -> String:
	var attributes := document.resource.get_section_attributes(section)
	var shown := PackedStringArray([document.resource.get_section_tag(section)])
	for name in ["type", "id"]:
		if attributes.has(name):
			shown.append("%s=%s" % [name, JSON.stringify(attributes[name])])
	return "[%s]" % " ".join(shown)


func _add_row(parent: TreeItem, label: Variant, value: Variant, where: Array) -> void:
	var row := _tree.create_item(parent)
	row.set_text(0, str(label))
	row.set_text(1, type_name(value))
	row.set_text(2, preview(value))
	row.set_metadata(0, where)
	if value is Array or value is Dictionary:
		var keys: Array = range(value.size()) if value is Array else value.keys()
		for i in mini(keys.size(), MAX_CHILD_ROWS):
			_add_row(row, keys[i], value[keys[i]], where + [keys[i]])
		if keys.size() > MAX_CHILD_ROWS:
			var more := _tree.create_item(row)
			more.set_text(0, "… %d more: select the row above to edit it whole" % (keys.size() - MAX_CHILD_ROWS))
			more.set_selectable(0, false)
		row.collapsed = where.size() > 1


func _on_row_selected() -> void:
	var row := _tree.get_selected()
	if row == null or row.get_metadata(0) == null:
		return
	var where: Array = row.get_metadata(0)
	_proxy_where = where
	_proxy = ValueProxy.new(_label_of(where), document.get_at(where),
		func(value: Variant) -> void: edit_value(where, value))
	if Engine.is_editor_hint() and EditorInterface.get_inspector() != null:
		EditorInterface.inspect_object(_proxy, "", true)


## The tree's row of the value at [param where]; null when it has none (not shown).
func find_row(where: Array, from: TreeItem = null) -> TreeItem:
	var row := from if from != null else _tree.get_root()
	if row == null:
		return null
	for child in row.get_children():
		var at: Variant = child.get_metadata(0)
		if at is Array and at == where:
			return child
		var inside := find_row(where, child)
		if inside != null:
			return inside
	return null


func _label_of(where: Array) -> String:
	var parts := where.map(func(k: Variant) -> String: return str(k))
	if document.kind == SaveDocument.Kind.STORE_VAR:
		parts[0] = "value " + parts[0]
	elif document.kind == SaveDocument.Kind.JSON_SAVE:
		parts[0] = "value"
	elif document.kind == SaveDocument.Kind.TEXT_RESOURCE:
		parts[0] = document.resource.get_section_tag(where[0])
	return " › ".join(parts)


func _show_status(text: String, failed: bool) -> void:
	_status.text = text
	_status.modulate = Color(1, 0.45, 0.4) if failed else Color(1, 1, 1)


func _button(text: String, tooltip: String, pressed: Callable) -> Button:
	var button := Button.new()
	button.text = text
	button.tooltip_text = tooltip
	button.pressed.connect(func() -> void: pressed.call())
	return button


## A value's type as the editor names it: "Array[int]", "Dictionary[String, int]", a class.
static func type_name(value: Variant) -> String:
	if value is Object:
		return (value as Object).get_class() if value != null else "Object (freed)"
	if value is Array and (value as Array).is_typed():
		var a: Array = value
		return "Array[%s]" % _element_name(a.get_typed_builtin(), a.get_typed_class_name())
	if value is Dictionary and ((value as Dictionary).is_typed_key() or (value as Dictionary).is_typed_value()):
		var d: Dictionary = value
		return "Dictionary[%s, %s]" % [_element_name(d.get_typed_key_builtin(), d.get_typed_key_class_name()),
			_element_name(d.get_typed_value_builtin(), d.get_typed_value_class_name())]
	return type_string(typeof(value))


static func _element_name(builtin: int, class_name_: StringName) -> String:
	if builtin == TYPE_NIL:
		return "Variant"
	return String(class_name_) if builtin == TYPE_OBJECT else type_string(builtin)


## A short text of a value: containers by their size, the rest as var_to_str writes it.
static func preview(value: Variant) -> String:
	if value is Array or value is Dictionary:
		return "%d items" % value.size()
	match typeof(value):
		TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY, \
		TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY, TYPE_PACKED_STRING_ARRAY, \
		TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY, TYPE_PACKED_COLOR_ARRAY, \
		TYPE_PACKED_VECTOR4_ARRAY:
			return "%d items" % value.size()
		TYPE_OBJECT:
			return str(value)
	var text := var_to_str(value)
	return text if text.length() <= 120 else text.left(119) + "…"
