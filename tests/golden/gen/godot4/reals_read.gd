extends SceneTree
## Reads the texts of ../../var_to_str_reals_godot4_6_3.txt back with Godot 4's str_to_var, for
## the core's reading of reals in text (rust/codec/tests/reals_text.rs):
##   godot --headless --path <this dir> -s res://reals_read.gd -- INFILE OUTFILE
## One line per real of INFILE: its float text, the hex of the binary64 str_to_var makes of it,
## and the hex of the binary32 x component str_to_var makes of its Vector2 text (both
## little-endian), and that text, separated by spaces. Lines whose texts hold inf or nan are left out.


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	var f := FileAccess.open(args[0], FileAccess.READ)
	var out := FileAccess.open(args[1], FileAccess.WRITE)
	var bytes := PackedByteArray()
	bytes.resize(12)
	while not f.eof_reached():
		var line := f.get_line()
		if line == "" or "inf" in line or "nan" in line:
			continue
		var fields := line.split(" ", true, 2)
		var x: float = str_to_var(fields[1])
		var v: Vector2 = str_to_var(fields[2])
		bytes.encode_double(0, x)
		bytes.encode_float(8, v.x)
		out.store_line("%s %s %s %s" % [fields[1], bytes.slice(0, 8).hex_encode(), bytes.slice(8, 12).hex_encode(), fields[2]])
	out.close()
	print("reals_read.gd: done")
	quit()
