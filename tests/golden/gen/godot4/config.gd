extends SceneTree
## Writes what Godot 4's ConfigFile saves and reads, for the core's ConfigFile reader and writer
## (rust/codec/tests/config_file.rs):
##   godot --headless --path <this dir> -s res://config.gd -- CORPUS.json TEXTS.json OUTFILE
## One JSON object per line after a head line naming the engine:
## * a file the engine saved: {"name", "file": <hex>, "written": [[section, key, <hex of
##   var_to_bytes>], ...], "entries": [...]}, the ConfigFile it saved and what it reads back from
##   that file (not always the same: it trims a section's name, for one): the
##   values of CORPUS.json that decode without objects (a section per type: a case "int/0" is key
##   "0" of section "int"), keys and section names that need quoting or escaping, and the empty file;
## * a file saved with save_encrypted_pass or save_encrypted: {"name", "password" or "key": <hex>,
##   "file": <hex>, "plain": <hex of the same ConfigFile saved plain>};
## * a text of TEXTS.json given to ConfigFile.parse: {"name", "text": <hex>, "error": <the Error
##   parse returned>, "entries": [...]}.
## Texts as hex: a Godot string may hold code points JSON cannot.

const KEY := "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


func entries_of(cfg: ConfigFile) -> Array:
	var out := []
	for section in cfg.get_sections():
		for key in cfg.get_section_keys(section):
			out.append([section, key, var_to_bytes(cfg.get_value(section, key)).hex_encode()])
	return out


func saved(cfg: ConfigFile, path: String) -> PackedByteArray:
	var err := cfg.save(path)
	if err != OK:
		printerr("config.gd: save failed: ", err)
		quit(3)
	return FileAccess.get_file_as_bytes(path)


func file_case(out: FileAccess, name: String, cfg: ConfigFile, path: String) -> void:
	var bytes := saved(cfg, path)
	var back := ConfigFile.new()
	var err := back.load(path)
	if err != OK:
		printerr("config.gd: the engine does not read its own file ", name, ": ", err)
		quit(3)
	out.store_line('{"name": %s, "file": "%s", "written": %s, "entries": %s}' % [
		JSON.stringify(name), bytes.hex_encode(), JSON.stringify(entries_of(cfg)),
		JSON.stringify(entries_of(back))])


var unreadable := []
var lossy := []


func corpus_values(path: String) -> ConfigFile:
	var cfg := ConfigFile.new()
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
			continue  # objects: a ConfigFile would make them on load
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
			continue  # null erases a key; the others have no text that reads back
		var case_name := line.substr(NAME.length(), name_end - NAME.length())
		var slash := case_name.find("/")
		var section := case_name if slash < 0 else case_name.substr(0, slash)
		var key := "value" if slash < 0 else case_name.substr(slash + 1)
		var one := ConfigFile.new()
		one.set_value(section, key, value)
		var back := ConfigFile.new()
		if back.parse(one.encode_to_text()) != OK:
			unreadable.append(case_name)  # text the engine cannot read back
			continue
		if var_to_bytes(back.get_value(section, key)) != var_to_bytes(value):
			lossy.append(case_name)  # it reads back another value
			continue
		cfg.set_value(section, key, value)
	return cfg


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 3:
		printerr("usage: -- CORPUS.json TEXTS.json OUTFILE")
		quit(2)
		return
	var texts = JSON.parse_string(FileAccess.get_file_as_string(args[1]))
	var out := FileAccess.open(args[2], FileAccess.WRITE)
	if not texts is Array or out == null:
		printerr("config.gd: cannot read ", args[1], " or write ", args[2])
		quit(2)
		return
	out.store_line('{"engine": %s}' % JSON.stringify(Engine.get_version_info().string))
	var tmp := OS.get_user_data_dir().path_join("config4_tmp.cfg")

	var values := corpus_values(args[0])
	file_case(out, "values", values, tmp)
	out.store_line('{"name": "unreadable", "cases": %s}' % JSON.stringify(unreadable))
	out.store_line('{"name": "lossy", "cases": %s}' % JSON.stringify(lossy))

	var names := ConfigFile.new()
	for key in ["plain", "a b", "a=b", "quo\"te", "semi;colon", "brack[et]", "ü", "tab\tkey",
			"new\nline", "back\\slash", "#hash", "sl/ash", "dot.ted", "col:on", "~tilde", "x\u007f"]:
		names.set_value("keys", key, 1)
	for section in ["a b", "br]acket", "ü", " padded ", "x=y", "semi;colon"]:
		names.set_value(section, "k", "v")
	file_case(out, "names", names, tmp)

	var top := ConfigFile.new()
	top.set_value("", "no_section", 1)
	top.set_value("s", "k", 2)
	file_case(out, "no_section", top, tmp)

	var later_top := ConfigFile.new()
	later_top.set_value("s", "k", 2)
	later_top.set_value("", "no_section", 1)
	file_case(out, "no_section_later", later_top, tmp)

	file_case(out, "empty", ConfigFile.new(), tmp)

	var small := ConfigFile.new()
	small.set_value("player", "name", "Ada")
	small.set_value("player", "pos", Vector2(1.5, -2))
	small.set_value("player", "items", ["sword", 3, {"gold": 10}])
	var plain := saved(small, tmp)
	if small.save_encrypted_pass(tmp, "hunter2") != OK:
		quit(3)
	out.store_line('{"name": "encrypted/password", "password": "hunter2", "file": "%s", "plain": "%s"}' % [
		FileAccess.get_file_as_bytes(tmp).hex_encode(), plain.hex_encode()])
	if small.save_encrypted(tmp, KEY.hex_decode()) != OK:
		quit(3)
	out.store_line('{"name": "encrypted/key", "key": "%s", "file": "%s", "plain": "%s"}' % [
		KEY, FileAccess.get_file_as_bytes(tmp).hex_encode(), plain.hex_encode()])

	var i := 0
	for text in texts:
		var cfg := ConfigFile.new()
		var err := cfg.parse(text)
		out.store_line('{"name": "parse/%d", "text": "%s", "error": %d, "entries": %s}' % [
			i, text.to_utf8_buffer().hex_encode(), err, JSON.stringify(entries_of(cfg))])
		i += 1
	out.close()
	DirAccess.remove_absolute(tmp)
	print("config.gd: %d texts" % texts.size())
	quit(0)
