extends SceneTree
## Reads each text of str_to_var_texts.json with the engine's str_to_var and writes the bytes of
## what it made (var_to_bytes): how Godot reads the spellings its text format allows beyond what
## var_to_str writes (rust/codec/tests/godot_text.rs reads each text and compares with the
## decode of those bytes).
##   godot --headless --path <this dir> -s res://str_to_var.gd -- TEXTS.json OUTFILE
## The texts name no objects or resources (str_to_var would make or load them). One JSON object
## per line after a head line: {"text": <hex of the text's UTF-8>, "bytes": <hex>}.

func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 2:
		printerr("usage: -- TEXTS.json OUTFILE")
		quit(2)
		return
	var texts = JSON.parse_string(FileAccess.get_file_as_string(args[0]))
	if not texts is Array:
		printerr("cannot read ", args[0])
		quit(2)
		return
	var out := FileAccess.open(args[1], FileAccess.WRITE)
	out.store_line('{"engine": %s}' % JSON.stringify(Engine.get_version_info().string))
	for text in texts:
		var value = str_to_var(text)
		out.store_line('{"text": "%s", "bytes": "%s"}' % [
			text.to_utf8_buffer().hex_encode(), var_to_bytes(value).hex_encode()])
	out.close()
	print("str_to_var.gd: %d texts" % texts.size())
	quit(0)
