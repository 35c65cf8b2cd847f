extends SceneTree
# Writes what the engine's var2str makes of every value of a Godot 3 golden corpus that it decodes:
# the text the Rust core's text reader must read as the value of the corpus's bytes
# (rust/codec/tests/godot_text.rs). Run through run.sh:
#   godot3-server --no-window --path <this dir> -s res://var2str.gd CORPUS.json OUTFILE.jsonl
# Each case's bytes are decoded by the engine (with objects for full-object cases) and the result
# given to var2str. One JSON object per line, after a head line naming the engine and corpus:
#   {"name": <case name>, "text": <hex of the UTF-8 of var2str's result>}

const Cli = preload("res://godot3_lib/cli.gd")

# Plain string search. Each case is one line:
# {"bytes":"hex","decoded":...,"full_objects":true|false,"name":"...",...}.
const BYTES = '{"bytes":"'
const FULL = '"full_objects":'
const NAME = ',"name":"'


func _init():
	var corpus_path = ""
	var out_path = ""
	for a in OS.get_cmdline_args():
		if a.ends_with(".jsonl"):
			out_path = a
		elif a.ends_with(".json"):
			corpus_path = a
	if corpus_path == "" or out_path == "":
		printerr("usage: -s res://var2str.gd CORPUS.json OUTFILE.jsonl")
		quit()
		return
	var corpus = File.new()
	if corpus.open(corpus_path, File.READ) != OK:
		printerr("var2str.gd: cannot read %s" % corpus_path)
		quit()
		return
	var out = File.new()
	if out.open(out_path, File.WRITE) != OK:
		printerr("var2str.gd: cannot write %s" % out_path)
		quit()
		return
	out.store_line('{"engine": %s, "corpus": %s}' % [
		to_json(Engine.get_version_info().string), to_json(corpus_path.get_file())])
	var written = 0
	while not corpus.eof_reached():
		var line = corpus.get_line()
		if not line.begins_with(BYTES):
			continue
		var end = line.find('"', BYTES.length())
		if end == BYTES.length():
			continue  # the engine encoded nothing
		if line.substr(end, 16) == '","decoded":null':
			continue  # the engine did not decode its own bytes
		var full_at = line.find(FULL, end)
		if full_at < 0:
			continue  # a malformed input, not a case
		var full = line.substr(full_at + FULL.length(), 4) == "true"
		var name_at = line.find(NAME, full_at)
		if name_at < 0:
			continue
		name_at += NAME.length()
		var case_name = line.substr(name_at, line.find('"', name_at) - name_at)
		var bytes = Cli.hex_decode(line.substr(BYTES.length(), end - BYTES.length()))
		var value = bytes2var(bytes, full)
		var text = var2str(value)
		out.store_line('{"name": %s, "text": "%s"}' % [
			to_json(case_name), text.to_utf8().hex_encode()])
		written += 1
	out.close()
	print("var2str.gd: %d texts" % written)
	print("var2str.gd: done")
	quit()
