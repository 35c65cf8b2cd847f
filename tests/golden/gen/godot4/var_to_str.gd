extends SceneTree
## Writes what the engine's var_to_str makes of every value of a golden corpus that it decodes:
## the text the Rust core's `Display` of `Value` must equal (rust/codec/tests/var_to_str.rs).
##   godot --headless --path <this dir> -s res://var_to_str.gd -- CORPUS.json OUTFILE
## Each case's bytes are decoded by the engine (bytes_to_var_with_objects for full-object cases)
## and the result given to var_to_str; the text is read back with str_to_var, except where it
## names an object (str_to_var would make it, with an id of its own). One JSON object per line:
##   {"name": <case name>, "text": <hex of the UTF-8 of var_to_str's result>,
##    "read": <hex of var_to_bytes of str_to_var's value of the text, or null>}
## (texts as hex, as the corpus holds them: a Godot string may hold code points JSON cannot).

func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 2:
		printerr("usage: -- CORPUS.json OUTFILE")
		quit(2)
		return
	var corpus := FileAccess.open(args[0], FileAccess.READ)
	if corpus == null:
		printerr("cannot read ", args[0])
		quit(2)
		return
	var out := FileAccess.open(args[1], FileAccess.WRITE)
	# Plain string search (no RegEx: some engine builds leave that module out). Each case is one
	# line: {"name":"...","full_objects":true|false,"value":...,"bytes":"hex","decoded":...}.
	const NAME := '{"name":"'
	const FULL := '","full_objects":'
	const BYTES := '"bytes":"'
	out.store_line('{"engine": %s, "corpus": %s}' % [
		JSON.stringify(Engine.get_version_info().string), JSON.stringify(args[0].get_file())])
	var written := 0
	while not corpus.eof_reached():
		var line := corpus.get_line()
		if not line.begins_with(NAME):
			continue
		var name_end := line.find('"', NAME.length())
		if name_end < 0 or line.find(FULL, name_end) != name_end:
			continue  # a malformed input (allow_objects), not a case
		var case_name := line.substr(NAME.length(), name_end - NAME.length())
		var full := line.substr(name_end + FULL.length(), 4) == "true"
		var at := line.find(BYTES)
		if at < 0:
			continue
		at += BYTES.length()
		var end := line.find('"', at)
		if line.substr(end, 16) == '","decoded":null':
			continue  # the engine did not decode its own bytes
		var bytes := line.substr(at, end - at).hex_decode()
		var value: Variant
		if full:
			value = bytes_to_var_with_objects(bytes)
		else:
			value = bytes_to_var(bytes)
		var text := var_to_str(value)
		var read := "null"
		if not full and not "Object(" in text:
			read = '"%s"' % var_to_bytes(str_to_var(text)).hex_encode()
		out.store_line('{"name": %s, "text": "%s", "read": %s}' % [
			JSON.stringify(case_name), text.to_utf8_buffer().hex_encode(), read])
		written += 1
	out.close()
	print("var_to_str.gd: %d texts" % written)
	quit(0)
