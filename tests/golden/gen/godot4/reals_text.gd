extends SceneTree
## Writes how Godot 4's var_to_str writes 20,000 random reals, for the core's digits of a real
## (rust/codec/tests/reals_text.rs):
##   godot --headless --path <this dir> -s res://reals_text.gd -- OUTFILE
## One line per real: the hex of its binary64 bytes (little-endian), var_to_str of it as a float,
## and var_to_str of Vector2(it, 0) (binary32 components), separated by spaces. A third of the
## reals are random bits, a third binary32 values, a third short decimals; a fixed seed.


func _init() -> void:
	var out := FileAccess.open(OS.get_cmdline_user_args()[0], FileAccess.WRITE)
	var rng := RandomNumberGenerator.new()
	rng.seed = 12345
	var bytes := PackedByteArray()
	bytes.resize(8)
	var n := 0
	while n < 20000:
		for i in 8:
			bytes[i] = rng.randi() & 255
		var x := bytes.decode_double(0)
		if n % 3 == 1:
			x = float(bytes.decode_float(0))
		elif n % 3 == 2:
			x = float(rng.randi_range(-1000000, 1000000)) / pow(10.0, rng.randi_range(0, 12))
		if is_nan(x) or is_inf(x):
			continue
		bytes.encode_double(0, x)
		out.store_line("%s %s %s" % [bytes.hex_encode(), var_to_str(x), var_to_str(Vector2(x, 0))])
		n += 1
	out.close()
	print("reals_text.gd: done")
	quit()
