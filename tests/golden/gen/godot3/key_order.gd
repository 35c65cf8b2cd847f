extends SceneTree
# Writes how Godot 3's var2str orders the keys of 400 random Dictionaries whose keys mix types,
# for the core's order of keys (rust/codec/tests/godot_text.rs). Run through run.sh:
#   godot3-server --no-window --path <this dir> -s res://key_order.gd OUTFILE.jsonl
# The engine sorts keys with an unstable sort (an introsort past 16 keys): keys that are neither
# less nor greater than each other (two Dictionaries) come in the order its steps leave them.
# One line per Dictionary: {"name": "key_order/<n>", "bytes": <hex of var2bytes>,
# "text": <hex of var2str>} (the bytes hold the keys in insertion order). A fixed seed; ends its
# output with "key_order.gd: done".

var rng = RandomNumberGenerator.new()


func _init():
	var out_path = ""
	for a in OS.get_cmdline_args():
		if a.ends_with(".jsonl"):
			out_path = a
	var out = File.new()
	if out_path == "" or out.open(out_path, File.WRITE) != OK:
		printerr("usage: -s res://key_order.gd OUTFILE.jsonl")
		quit()
		return
	rng.seed = 362
	for n in 400:
		var d = {}
		var keys = rng.randi_range(2, 80) if n % 2 == 0 else rng.randi_range(2, 16)
		for i in keys:
			d[random_key()] = i
		out.store_line('{"name": "key_order/%d", "bytes": "%s", "text": "%s"}' % [
			n, var2bytes(d).hex_encode(), var2str(d).to_utf8().hex_encode()])
	out.close()
	print("key_order.gd: done")
	quit()


func random_key():
	var word = ""
	for i in rng.randi_range(1, 3):
		word += "abcds"[rng.randi_range(0, 4)]
	var small = rng.randi_range(0, 2)
	match rng.randi_range(0, 11):
		0:
			return null
		1:
			return small == 1
		2:
			return small - 1
		3:
			return small * 0.5
		4, 5:
			return word
		6:
			return Vector2(small, rng.randi_range(0, 2))
		7:
			return Color(small, rng.randi_range(0, 2), 0)
		8:
			return NodePath(word)
		9:
			return {"in": small}
		10:
			return [small, word]
		_:
			return PoolByteArray([small])
