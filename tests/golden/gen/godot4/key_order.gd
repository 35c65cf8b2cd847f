extends SceneTree
## Writes how Godot 4's var_to_str orders the keys of 400 random Dictionaries whose keys mix
## types, for the core's order of keys (rust/codec/tests/var_to_str.rs):
##   godot --headless --path <this dir> -s res://key_order.gd -- OUTFILE
## The engine sorts keys by an order that is not total (Strings and StringNames by their text,
## other types by type id), so its text depends on the steps of its sort; 2 to 80 keys, so that
## both its insertion sort (up to 16) and its introsort are reached. One line per Dictionary:
##   {"name": "key_order/<n>", "bytes": <hex of var_to_bytes>, "text": <hex of var_to_str>}
## (the bytes hold the keys in insertion order, which the text's order depends on). A fixed seed.

var rng := RandomNumberGenerator.new()


func _init() -> void:
	var out := FileAccess.open(OS.get_cmdline_user_args()[0], FileAccess.WRITE)
	rng.seed = 4_6_3
	for n in 400:
		var d := {}
		var keys := rng.randi_range(2, 80) if n % 2 == 0 else rng.randi_range(2, 16)
		for i in keys:
			d[random_key()] = i
		out.store_line('{"name": "key_order/%d", "bytes": "%s", "text": "%s"}' % [
			n, var_to_bytes(d).hex_encode(), var_to_str(d).to_utf8_buffer().hex_encode()])
	out.close()
	print("key_order.gd: done")
	quit()


func random_key() -> Variant:
	var word := ""
	for i in rng.randi_range(1, 3):
		word += "abcds"[rng.randi_range(0, 4)]
	var small := rng.randi_range(0, 2)
	match rng.randi_range(0, 13):
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
		6, 7:
			return StringName(word)
		8:
			return Vector2(small, rng.randi_range(0, 2))
		9:
			return Color(small, rng.randi_range(0, 2), 0)
		10:
			return NodePath(word)
		11:
			return {"in": small}
		12:
			return [small, word]
		_:
			return PackedByteArray([small])
