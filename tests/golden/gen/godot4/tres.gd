extends SceneTree
## Writes the text resources (.tres) Godot 4 saves, for the core's reader and writer
## (rust/codec/tests/text_resource.rs):
##   godot --headless --path <this dir> -s res://tres.gd -- CORPUS.json OUTFILE
## One JSON object per line after a head line naming the engine, each a file ResourceSaver wrote:
## {"name", "file": <hex>, "meta": [[name, <hex of var_to_bytes>], ...]}: "values" holds every
## value of CORPUS.json that decodes without objects as a metadata entry (m0, m1 …, the case names
## in "cases"), and the engine's reading of each back from the file, but for the values the
## engine does not read back as it wrote them (named in the lines "unreadable" and "lossy", as
## config.gd does); "save" is a script resource
## with sub-resources in a typed Array; "plain" and "empty" are a Resource with and without
## metadata.


const PROBE := "res://tres_probe.tres"
var unreadable := []
var lossy := []


func file_case(out: FileAccess, name: String, res: Resource, path: String, extra := "") -> Resource:
	if ResourceSaver.save(res, path) != OK:
		printerr("tres.gd: save failed: ", name)
		quit(3)
	var back := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	if back == null:
		printerr("tres.gd: the engine does not read its own file ", name)
		quit(3)
	var meta := []
	for key in back.get_meta_list():
		meta.append([key, var_to_bytes(back.get_meta(key)).hex_encode()])
	out.store_line('{"name": %s, "file": "%s", "meta": %s%s}' % [
		JSON.stringify(name), FileAccess.get_file_as_bytes(path).hex_encode(),
		JSON.stringify(meta), extra])
	return back


func corpus_values(path: String, res: Resource) -> Array:
	var names := []
	var corpus := FileAccess.open(path, FileAccess.READ)
	const NAME := '{"name":"'
	const FULL := '","full_objects":'
	const BYTES := '"bytes":"'
	while not corpus.eof_reached():
		var line := corpus.get_line()
		if not line.begins_with(NAME):
			continue
		var name_end := line.find('"', NAME.length())
		if name_end < 0 or line.find(FULL, name_end) != name_end:
			continue
		if line.substr(name_end + FULL.length(), 4) == "true":
			continue  # objects: loading the file would make them
		var at := line.find(BYTES)
		if at < 0:
			continue
		at += BYTES.length()
		var end := line.find('"', at)
		if line.substr(end, 16) == '","decoded":null':
			continue
		var value = bytes_to_var(line.substr(at, end - at).hex_decode())
		if value == null or typeof(value) == TYPE_OBJECT or typeof(value) == TYPE_RID \
				or typeof(value) == TYPE_CALLABLE or typeof(value) == TYPE_SIGNAL:
			continue  # null is not saved; the others have no text that reads back
		var case_name := line.substr(NAME.length(), name_end - NAME.length())
		var one := Resource.new()
		one.set_meta("m", value)
		ResourceSaver.save(one, PROBE)
		var back := ResourceLoader.load(PROBE, "", ResourceLoader.CACHE_MODE_IGNORE)
		if back == null:
			unreadable.append(case_name)  # text the engine cannot read back
			continue
		if var_to_bytes(back.get_meta("m")) != var_to_bytes(value) and not has_ids(value):
			lossy.append(case_name)  # it reads back another value
			continue
		res.set_meta("m%d" % names.size(), value)
		names.append(case_name)
	return names


## Whether `v` holds an object id: read back from text as a new EncodedObjectAsID object, whose
## var_to_bytes is that object's own id (compared as ids by the test).
func has_ids(v) -> bool:
	if v is Array:
		return v.any(has_ids)
	if v is Dictionary:
		return v.keys().any(has_ids) or v.values().any(has_ids)
	return typeof(v) == TYPE_OBJECT


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 2:
		printerr("usage: -- CORPUS.json OUTFILE")
		quit(2)
		return
	var out := FileAccess.open(args[1], FileAccess.WRITE)
	if out == null:
		printerr("tres.gd: cannot write ", args[1])
		quit(2)
		return
	out.store_line('{"engine": %s}' % JSON.stringify(Engine.get_version_info().string))
	var tmp := "res://tres_tmp.tres"

	var values := Resource.new()
	var names := corpus_values(args[0], values)
	file_case(out, "values", values, tmp, ', "cases": %s' % JSON.stringify(names))
	out.store_line('{"name": "unreadable", "cases": %s}' % JSON.stringify(unreadable))
	out.store_line('{"name": "lossy", "cases": %s}' % JSON.stringify(lossy))
	DirAccess.remove_absolute(ProjectSettings.globalize_path(PROBE))

	var sword: Resource = load("res://golden_item.gd").new()
	sword.title = "sword"
	sword.count = 1
	sword.tags = PackedStringArray(["sharp", "a b"])
	var potion: Resource = load("res://golden_item.gd").new()
	potion.title = "potion \"red\"\nsecond line"
	potion.weight = 2.25
	potion.child = sword
	var save: Resource = load("res://golden_save.gd").new()
	save.level = 7
	save.player_name = "Ada"
	save.items.append(sword)
	save.items.append(potion)
	save.best = sword
	save.stats = {"hp": 10, "speed": 2.5, "pos": Vector3(1, 2, 3), 4: [1, "x"]}
	save.visited = PackedVector2Array([Vector2(0, 0), Vector2(1.5, -2)])
	save.set_meta("note", "hi")
	file_case(out, "save", save, tmp)

	var plain := Resource.new()
	plain.set_meta("plain", {"a": 1, "b": [Vector2i(1, 2)]})
	file_case(out, "plain", plain, tmp)
	file_case(out, "empty", Resource.new(), tmp)
	out.close()
	DirAccess.remove_absolute(ProjectSettings.globalize_path(tmp))
	print("tres.gd: %d values" % names.size())
	quit(0)
