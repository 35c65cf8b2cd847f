extends SceneTree
# Godot 3's side of tests/golden/gen/godot4/tres.gd (read its head for the output): the text
# resources (.tres) Godot 3 saves, for rust/codec/tests/text_resource.rs.
#   godot3-server --no-window --path <this dir> -s res://tres.gd CORPUS.json OUTFILE.jsonl
# Like config.gd, it leaves out (and names) the values Godot 3 does not read back as it wrote them.
# Ends its output with "tres.gd: done" once OUTFILE is written.

const Cli = preload("res://godot3_lib/cli.gd")
const BYTES = '{"bytes":"'
const FULL = '"full_objects":'
const NAME = ',"name":"'
var failed = false
var unreadable = []
var lossy = []
var probe_path = "res://tres_probe.tres"


func read_bytes(path):
	var f = File.new()
	f.open(path, File.READ)
	var b = f.get_buffer(f.get_len())
	f.close()
	return b


func file_case(out, name, res, path, extra = ""):
	if ResourceSaver.save(path, res) != OK:
		printerr("tres.gd: save failed: %s" % name)
		failed = true
	var back = ResourceLoader.load(path, "", true)
	if back == null:
		printerr("tres.gd: the engine does not read its own file %s" % name)
		failed = true
		return
	var meta = []
	for key in back.get_meta_list():
		meta.append([key, var2bytes(back.get_meta(key)).hex_encode()])
	out.store_line('{"name": %s, "file": "%s", "meta": %s%s}' % [
		to_json(name), read_bytes(path).hex_encode(), to_json(meta), extra])


func corpus_values(path, res):
	var names = []
	var corpus = File.new()
	corpus.open(path, File.READ)
	while not corpus.eof_reached():
		var line = corpus.get_line()
		if not line.begins_with(BYTES):
			continue
		var end = line.find('"', BYTES.length())
		if end == BYTES.length() or line.substr(end, 16) == '","decoded":null':
			continue
		var full_at = line.find(FULL, end)
		if full_at < 0 or line.substr(full_at + FULL.length(), 4) == "true":
			continue  # not a case, or objects: loading the file would make them
		var name_at = line.find(NAME, full_at)
		if name_at < 0:
			continue
		name_at += NAME.length()
		var case_name = line.substr(name_at, line.find('"', name_at) - name_at)
		if case_name.begins_with("string/nonunicode/"):
			continue  # code points past U+10FFFF: no UTF-8 holds them
		var value = bytes2var(Cli.hex_decode(line.substr(BYTES.length(), end - BYTES.length())))
		if value == null or typeof(value) == TYPE_OBJECT or typeof(value) == TYPE_RID:
			continue  # null is not saved; the others have no text that reads back
		var one = Resource.new()
		one.set_meta("m", value)
		ResourceSaver.save(probe_path, one)
		var back = ResourceLoader.load(probe_path, "", true)
		if back == null:
			unreadable.append(case_name)  # Godot 3 writes text it cannot read back
			continue
		var again = back.get_meta("m")
		if var2bytes(again) != var2bytes(value) and not (typeof(value) == TYPE_NODE_PATH and again == value):
			lossy.append(case_name)  # it reads back another value (heap bytes in a NodePath aside)
			continue
		res.set_meta("m%d" % names.size(), value)
		names.append(case_name)
	return names


func _init():
	var paths = []
	for a in OS.get_cmdline_args():
		if a.ends_with(".json") or a.ends_with(".jsonl"):
			paths.append(a)
	if paths.size() != 2:
		printerr("usage: -s res://tres.gd CORPUS.json OUTFILE.jsonl")
		quit()
		return
	var out = File.new()
	if out.open(paths[1], File.WRITE) != OK:
		printerr("tres.gd: cannot write %s" % paths[1])
		quit()
		return
	out.store_line('{"engine": %s}' % to_json(Engine.get_version_info().string))
	var tmp = "res://tres_tmp.tres"

	var values = Resource.new()
	var names = corpus_values(paths[0], values)
	file_case(out, "values", values, tmp, ', "cases": %s' % to_json(names))
	out.store_line('{"name": "unreadable", "cases": %s}' % to_json(unreadable))
	out.store_line('{"name": "lossy", "cases": %s}' % to_json(lossy))
	Directory.new().remove(ProjectSettings.globalize_path(probe_path))

	var item = load("res://tres/item.gd")
	var sword = item.new()
	sword.title = "sword"
	sword.count = 1
	sword.tags = PoolStringArray(["sharp", "a b"])
	var potion = item.new()
	potion.title = "potion \"red\"\nsecond line"
	potion.weight = 2.25
	potion.child = sword
	var save = load("res://tres/save.gd").new()
	save.level = 7
	save.player_name = "Ada"
	save.items = [sword, potion]
	save.best = sword
	save.stats = {"hp": 10, "speed": 2.5, "pos": Vector3(1, 2, 3), 4: [1, "x"]}
	save.visited = PoolVector2Array([Vector2(0, 0), Vector2(1.5, -2)])
	save.set_meta("note", "hi")
	file_case(out, "save", save, tmp)

	var plain = Resource.new()
	plain.set_meta("plain", {"a": 1, "b": [Vector2(1, 2)]})
	file_case(out, "plain", plain, tmp)
	file_case(out, "empty", Resource.new(), tmp)
	out.close()
	Directory.new().remove(ProjectSettings.globalize_path(tmp))
	if not failed:
		print("tres.gd: done")
	quit()
