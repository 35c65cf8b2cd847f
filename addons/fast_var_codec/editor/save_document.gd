@tool
extends RefCounted
## A save file opened by the Saves dock: its values, how the file is kept, and the edits made
## to them. Every format rule is FastVarCodec's: the file is read with
## [method FastVarCodec.inspect_file] (a [code]store_var[/code] file of any container and
## dialect), [method FastVarCodec.load_json_save] (a JSON save),
## [method FastVarCodec.load_text_resource] (a [code].tres[/code], nothing it names loaded) or
## [method FastVarCodec.load_config_file] (a ConfigFile, whose objects are refused and whose
## scripts never run), and written back with [method FastVarCodec.write_file],
## [method FastVarCodec.write_json_save], [method FastVarTextResource.save] or the engine's own
## [ConfigFile], in the container, dialect and style it was found in.

enum Kind { STORE_VAR, CONFIG_FILE, JSON_SAVE, TEXT_RESOURCE }

## Beside the file while it is written; renamed over it once whole.
const WRITING_SUFFIX := ".fvc-writing"

var path := ""
var kind := Kind.STORE_VAR
var password := ""
var key := PackedByteArray()
## What [method FastVarCodec.inspect_file] found: dialect, container, compression, encryption,
## raw.
var found := {}
## A store_var file's values, one per record; a JSON save's value, alone.
var values: Array = []
## A JSON save's style, as [method FastVarCodec.load_json_save] found it.
var json_style := {}
## A ConfigFile's values.
var config: ConfigFile
## A text resource's sections.
var resource: FastVarTextResource
## The failure of the last open or save, [constant OK] when there was none.
var error := OK
var error_message := ""
## Why the file can be viewed but not saved ("" when it can be saved).
var read_only_reason := ""
## Edits not yet saved.
var changed := false

var _codec := FastVarCodec.new()


## Opens [param file_path]; [param file_password] or [param file_key] for an encrypted file;
## its records read in [param dialect] ([code]-1[/code]: the one they tell). Full objects are
## made only of [param classes] (none by default: such a file fails with ERR_UNAUTHORIZED), and
## written back as full objects; a file that also holds objects written as ids opens read only
## (written back, one kind would become the other). On failure [member error] and
## [member error_message] say why; the values read before a damaged record are kept, read only.
func open(file_path: String, file_password := "", file_key := PackedByteArray(), dialect := -1,
		classes := PackedStringArray()) -> Error:
	_codec.allow_objects = not classes.is_empty()
	_codec.allowed_classes = classes
	if _codec.get_error() != OK:
		return _done(_codec.get_error(), _codec.get_error_message())
	path = file_path
	password = file_password
	key = file_key
	values = []
	json_style = {}
	config = null
	resource = null
	found = {}
	changed = false
	read_only_reason = ""
	found = _codec.inspect_file(path, password, key, dialect)
	if _codec.get_error() == OK:
		kind = Kind.STORE_VAR
		values = found.values
		var objects := {}
		_count_objects(values, objects)
		_codec.full_objects = objects.has("full")
		if found.raw:
			read_only_reason = "one var_to_bytes value, not store_var records: viewing only"
		elif objects.has("full") and objects.has("id"):
			read_only_reason = "it holds full objects and objects written as ids: written back, the ids would become full objects"
		return _done(OK, "")
	var records_error := _codec.get_error()
	var records_message := _codec.get_error_message()
	# Not store_var records: a JSON save (plain, or in either engine's encrypted container)? A
	# JSON text of an Array would also read as a ConfigFile's section, so JSON is tried first.
	_codec.dialect = dialect if dialect != -1 else FastVarCodec.DIALECT_GODOT_4
	var json := _codec.load_json_save(path, password, key)
	if _codec.get_error() == OK:
		kind = Kind.JSON_SAVE
		values = [json.value]
		json_style = json.style
		return _done(OK, "")
	var json_message := _codec.get_error_message()
	# A text resource (.tres: its header comes first, which no ConfigFile has)?
	var text_resource := _codec.load_text_resource(path)
	if text_resource != null:
		kind = Kind.TEXT_RESOURCE
		resource = text_resource
		return _done(OK, "")
	var resource_message := _codec.get_error_message()
	# A ConfigFile (plain, or in either engine's encrypted container)?
	var loaded := _codec.load_config_file(path, password, key)
	if loaded != null:
		kind = Kind.CONFIG_FILE
		config = loaded
		if found.get("encryption", "") == "godot3":
			read_only_reason = "a ConfigFile in Godot 3's encrypted container: the engine writes Godot 4's"
		return _done(OK, "")
	kind = Kind.STORE_VAR
	if not found.get("values", []).is_empty():
		# Records damaged part way: those before the damage, and why the rest is not there.
		values = found.values
		read_only_reason = "only the values before the failure were read"
		return _done(records_error, records_message)
	if path.get_extension() in ["cfg", "ini"]:
		return _done(_codec.get_error(), _codec.get_error_message())
	if path.get_extension() == "json":
		return _done(ERR_PARSE_ERROR, json_message)
	if path.get_extension() in ["tres", "tscn"]:
		return _done(ERR_PARSE_ERROR, resource_message)
	return _done(records_error, records_message)


## Notes in [param seen] whether [param value] holds full objects ("full") or objects written as
## ids ("id", read as EncodedObjectAsID).
static func _count_objects(value: Variant, seen: Dictionary) -> void:
	if value is EncodedObjectAsID:
		seen["id"] = true
	elif value is Object and value != null:
		seen["full"] = true
	elif value is Array:
		for item in value:
			_count_objects(item, seen)
	elif value is Dictionary:
		for k in value:
			_count_objects(k, seen)
			_count_objects(value[k], seen)


## Whether [method save] may write the file back.
func can_save() -> bool:
	return not path.is_empty() and read_only_reason.is_empty() and (not values.is_empty() or config != null or resource != null)


## The top level: the records (an [Array]) or, for a ConfigFile, [code]{section: {key: value}}[/code].
func top() -> Variant:
	if kind == Kind.TEXT_RESOURCE:
		var sections := []
		for i in resource.get_section_count():
			var entries := {}
			for entry in resource.get_section_keys(i):
				entries[entry] = resource.get_value(i, entry)
			sections.append(entries)
		return sections
	if kind == Kind.CONFIG_FILE:
		var sections := {}
		for section in config.get_sections():
			var entries := {}
			for entry in config.get_section_keys(section):
				entries[entry] = config.get_value(section, entry)
			sections[section] = entries
		return sections
	return values


## The value at [param where]: a record's index (a ConfigFile's section and key), then the keys
## or indices inside it.
func get_at(where: Array) -> Variant:
	var value: Variant
	var from := 1
	if kind == Kind.CONFIG_FILE:
		value = config.get_value(where[0], where[1])
		from = 2
	elif kind == Kind.TEXT_RESOURCE:
		value = resource.get_value(where[0], where[1])
		from = 2
	else:
		value = values[where[0]]
	for i in range(from, where.size()):
		value = value[where[i]]
	return value


## Sets the value at [param where] (see [method get_at]). Packed arrays (and a text
## resource's values) are copied when read, so the one holding the value is set back into its
## own container.
func set_at(where: Array, value: Variant) -> void:
	var top_depth := 2 if kind in [Kind.CONFIG_FILE, Kind.TEXT_RESOURCE] else 1
	if where.size() == top_depth:
		if kind == Kind.CONFIG_FILE:
			config.set_value(where[0], where[1], value)
		elif kind == Kind.TEXT_RESOURCE:
			resource.set_value(where[0], where[1], value)
		else:
			values[where[0]] = value
	else:
		var outer_where := where.slice(0, -1)
		var outer: Variant = get_at(outer_where)
		outer[where[-1]] = value
		# A text resource's values are copies (it holds the file's own): set back, as packed
		# arrays are.
		if kind == Kind.TEXT_RESOURCE or not (outer is Array or outer is Dictionary):
			set_at(outer_where, outer)
	changed = true


## Writes the values back to [member path] as the file was: its container (compression, the
## password or key it was opened with) and dialect. The file is written beside it and renamed
## over it, so a failure leaves it as it was.
func save() -> Error:
	if not can_save():
		return _done(ERR_UNAVAILABLE, "%s cannot be saved: %s" % [path, read_only_reason])
	if kind == Kind.CONFIG_FILE:
		return _save_config()
	if kind == Kind.JSON_SAVE:
		return _save_json()
	if kind == Kind.TEXT_RESOURCE:
		var saved := resource.save(path)
		if saved == OK:
			changed = false
		return _done(saved, resource.get_error_message() if saved != OK else "")
	_codec.dialect = found.dialect
	# The secret only for a file that was encrypted: a key typed (or filled in from the export
	# presets) does not encrypt a plain file.
	var encrypted: bool = found.container == "encrypted"
	var result := _codec.write_file(path, values, found.compression,
		password if encrypted else "", key if encrypted else PackedByteArray())
	if result == OK:
		changed = false
	return _done(result, _codec.get_error_message() if result != OK else "")


func _save_json() -> Error:
	var encrypted: bool = found.get("container", "") == "encrypted"
	var style := json_style.duplicate()
	if found.get("encryption", "") == "godot3":
		# Godot 3's container, which Godot 4's cannot replace: a Godot 3 game wrote it.
		style.dialect = FastVarCodec.DIALECT_GODOT_3
	var result := _codec.write_json_save(path, values[0], style,
		password if encrypted else "", key if encrypted else PackedByteArray())
	if result == OK:
		changed = false
	return _done(result, _codec.get_error_message() if result != OK else "")


func _save_config() -> Error:
	var beside := path + WRITING_SUFFIX
	var result: Error
	var encrypted: bool = found.get("container", "") == "encrypted"
	if encrypted and not password.is_empty():
		result = config.save_encrypted_pass(beside, password)
	elif encrypted and not key.is_empty():
		result = config.save_encrypted(beside, key)
	else:
		result = config.save(beside)
	if result == OK:
		result = DirAccess.rename_absolute(beside, path)
	if result != OK:
		DirAccess.remove_absolute(beside)
		return _done(result, "%s: cannot write it (%s); the file is as it was" % [path, error_string(result)])
	changed = false
	return _done(OK, "")


## One line on how the file is kept, such as "Godot 3 · compressed (Zstd) · 59 values".
func describe() -> String:
	if kind == Kind.CONFIG_FILE:
		var parts := ["ConfigFile"]
		if found.get("container", "") == "encrypted":
			parts.append("encrypted (%s)" % ("Godot 3" if found.encryption == "godot3" else "Godot 4"))
		parts.append("%d sections" % config.get_sections().size())
		return " · ".join(parts)
	if kind == Kind.TEXT_RESOURCE:
		return "text resource · %d sections" % resource.get_section_count()
	if kind == Kind.JSON_SAVE:
		var parts := ["JSON save", "%s's text" % _dialect_name(json_style.get("dialect", -1))]
		if found.get("container", "") == "encrypted":
			parts.append("encrypted (%s container)" % ("Godot 3's" if found.encryption == "godot3" else "Godot 4's"))
		var indent: String = json_style.get("indent", "")
		parts.append("indented with %s" % ("tabs" if indent.begins_with("\t") else "%d spaces" % indent.length()) if indent != "" else "on one line")
		return " · ".join(parts)
	if found.is_empty():
		return ""
	var parts := [_dialect_name(found.dialect)]
	match found.container:
		"compressed":
			parts.append("compressed (%s)" % ["FastLZ", "Deflate", "Zstd", "Gzip"][found.compression])
		"encrypted":
			parts.append("encrypted (%s container)" % ("Godot 3's" if found.encryption == "godot3" else "Godot 4's"))
		_:
			parts.append("plain")
	parts.append("one var_to_bytes value" if found.raw else "%d values" % values.size())
	return " · ".join(parts)


static func _dialect_name(dialect: int) -> String:
	match dialect:
		FastVarCodec.DIALECT_GODOT_4:
			return "Godot 4"
		FastVarCodec.DIALECT_GODOT_3:
			return "Godot 3"
		FastVarCodec.DIALECT_GODOT_4_3:
			return "Godot 4.3"
		FastVarCodec.DIALECT_GODOT_4_0_TO_4_2:
			return "Godot 4.0–4.2"
		FastVarCodec.DIALECT_PANDEMONIUM_3_8:
			return "Pandemonium 3.8–4.9"
		FastVarCodec.DIALECT_PANDEMONIUM_5:
			return "Pandemonium 5"
	return "dialect %d" % dialect


func _done(result: Error, message: String) -> Error:
	error = result
	error_message = message
	return result
