extends SceneTree
# Reads the texts of ../../var_to_str_reals_godot4_6_3.txt back with Godot 3's str2var, for the
# core's reading of reals in Godot 3's text (rust/codec/tests/reals_text.rs). Run through run.sh:
#   godot3-server --no-window --path <this dir> -s res://reals_read.gd INFILE OUTFILE
# One line per real of INFILE: its float text, the hex of the binary64 str2var makes of it (its
# real, as a double), and the hex of the binary32 x component str2var makes of its Vector2 text
# (both little-endian), and that text, separated by spaces. Lines whose texts hold inf or nan are left out.


func _init():
	var args = OS.get_cmdline_args()
	var f = File.new()
	f.open(args[args.size() - 2], File.READ)
	var out = File.new()
	out.open(args[args.size() - 1], File.WRITE)
	while not f.eof_reached():
		var line = f.get_line()
		if line == "" or "inf" in line or "nan" in line:
			continue
		var fields = line.split(" ", true, 2)
		var x = float(str2var(fields[1]))
		var v = str2var(fields[2])
		var buf = StreamPeerBuffer.new()
		buf.put_double(x)
		buf.put_float(v.x)
		var bytes = buf.data_array
		out.store_line("%s %s %s %s" % [fields[1], bytes.subarray(0, 7).hex_encode(), bytes.subarray(8, 11).hex_encode(), fields[2]])
	out.close()
	print("reals_read.gd: done")
	quit()
