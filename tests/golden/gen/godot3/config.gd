extends SceneTree
# Godot 3's side of tests/golden/gen/godot4/config.gd (read its head for the output): what Godot 3's ConfigFile saves
# and reads, for rust/codec/tests/config_file.rs.
#   godot3-server --no-window --path <this dir> -s res://config.gd CORPUS.json TEXTS.json OUTFILE.jsonl
# Like it, it leaves out (and names) the values Godot 3 does not read back as it wrote them.
# Ends its output with "config.gd: done" once OUTFILE is written.

const Cli = preload("res://godot3_lib/cli.gd")
const KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
const BYTES = '{"bytes":"'
const FULL = '"full_objects":'
const NAME = ',"name":"'
var failed = false


func read_bytes(path):
	var f = File.new()
	f.open(path, File.READ)
	var b = f.get_buffer(f.get_len())
	f.close()
	return b


func entries_of(cfg):
	var out = []
	for section in cfg.get_sections():
		for key in cfg.get_section_keys(section):
			out.append([section, key, var2bytes(cfg.get_value(section, key)).hex_encode()])
	return out


func file_case(out, name, cfg, path):
	if cfg.save(path) != OK:
		printerr("config.gd: save failed")
		failed = true
	var back = ConfigFile.new()
	var err = back.load(path)
	if err != OK:
		printerr("config.gd: the engine does not read its own file %s: %d" % [name, err])
		failed = true
	out.store_line('{"name": %s, "file": "%s", "written": %s, "entries": %s}' % [
		to_json(name), read_bytes(path).hex_encode(), to_json(entries_of(cfg)), to_json(entries_of(back))])


var unreadable = []
var lossy = []
var probe_path = OS.get_user_data_dir().plus_file("config_probe.cfg")


func corpus_values(path):
	var cfg = ConfigFile.new()
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
			continue  # not a case, or objects: a ConfigFile would make them on load
		var name_at = line.find(NAME, full_at)
		if name_at < 0:
			continue
		name_at += NAME.length()
		var case_name = line.substr(name_at, line.find('"', name_at) - name_at)
		if case_name.begins_with("string/nonunicode/"):
			continue  # code points past U+10FFFF: no UTF-8 holds them (the core's reader refuses such text)
		var value = bytes2var(Cli.hex_decode(line.substr(BYTES.length(), end - BYTES.length())))
		if value == null or typeof(value) == TYPE_OBJECT or typeof(value) == TYPE_RID:
			continue  # null erases a key; the others have no text that reads back
		var slash = case_name.find("/")
		var section = case_name if slash < 0 else case_name.substr(0, slash)
		var key = "value" if slash < 0 else case_name.substr(slash + 1, case_name.length())
		var one = ConfigFile.new()
		one.set_value(section, key, value)
		one.save(probe_path)
		var back = ConfigFile.new()
		if back.load(probe_path) != OK:
			unreadable.append(case_name)  # Godot 3 writes text it cannot read back
			continue
		var again = back.get_value(section, key)
		if var2bytes(again) != var2bytes(value) and not (typeof(value) == TYPE_NODE_PATH and again == value):
			lossy.append(case_name)  # it reads back another value (heap bytes in a NodePath aside)
			continue
		cfg.set_value(section, key, value)
	return cfg


func _init():
	var paths = []
	for a in OS.get_cmdline_args():
		if a.ends_with(".json") or a.ends_with(".jsonl"):
			paths.append(a)
	if paths.size() != 3:
		printerr("usage: -s res://config.gd CORPUS.json TEXTS.json OUTFILE.jsonl")
		quit()
		return
	var tf = File.new()
	tf.open(paths[1], File.READ)
	var texts = parse_json(tf.get_as_text())
	tf.close()
	var out = File.new()
	if typeof(texts) != TYPE_ARRAY or out.open(paths[2], File.WRITE) != OK:
		printerr("config.gd: cannot read %s or write %s" % [paths[1], paths[2]])
		quit()
		return
	out.store_line('{"engine": %s}' % to_json(Engine.get_version_info().string))
	var tmp = OS.get_user_data_dir().plus_file("config3_tmp.cfg")

	file_case(out, "values", corpus_values(paths[0]), tmp)
	out.store_line('{"name": "unreadable", "cases": %s}' % to_json(unreadable))
	out.store_line('{"name": "lossy", "cases": %s}' % to_json(lossy))
	Directory.new().remove(probe_path)

	var names = ConfigFile.new()
	for key in ["plain", "a b", "a=b", "quo\"te", "semi;colon", "brack[et]", "ü", "tab\tkey",
			"new\nline", "back\\slash", "#hash", "sl/ash", "dot.ted", "col:on", "~tilde"]:
		names.set_value("keys", key, 1)
	for section in ["a b", "br]acket", "ü", " padded ", "x=y", "semi;colon"]:
		names.set_value(section, "k", "v")
	file_case(out, "names", names, tmp)

	var top = ConfigFile.new()
	top.set_value("", "no_section", 1)
	top.set_value("s", "k", 2)
	file_case(out, "no_section", top, tmp)

	var later_top = ConfigFile.new()
	later_top.set_value("s", "k", 2)
	later_top.set_value("", "no_section", 1)
	file_case(out, "no_section_later", later_top, tmp)

	file_case(out, "empty", ConfigFile.new(), tmp)

	var small = ConfigFile.new()
	small.set_value("player", "name", "Ada")
	small.set_value("player", "pos", Vector2(1.5, -2))
	small.set_value("player", "items", ["sword", 3, {"gold": 10}])
	small.save(tmp)
	var plain = read_bytes(tmp)
	small.save_encrypted_pass(tmp, "hunter2")
	out.store_line('{"name": "encrypted/password", "password": "hunter2", "file": "%s", "plain": "%s"}' % [
		read_bytes(tmp).hex_encode(), plain.hex_encode()])
	small.save_encrypted(tmp, Cli.hex_decode(KEY))
	out.store_line('{"name": "encrypted/key", "key": "%s", "file": "%s", "plain": "%s"}' % [
		KEY, read_bytes(tmp).hex_encode(), plain.hex_encode()])

	var i = 0
	for text in texts:
		var cfg = ConfigFile.new()
		var err = cfg.parse(text)
		out.store_line('{"name": "parse/%d", "text": "%s", "error": %d, "entries": %s}' % [
			i, text.to_utf8().hex_encode(), err, to_json(entries_of(cfg))])
		i += 1
	out.close()
	Directory.new().remove(tmp)
	if not failed:
		print("config.gd: done")
	quit()
