# Godot 3's side of godot_project/saves_tools/check_packets.gd (read its head): the engine's own
# PoolByteArray.decompress(size, mode), and decompress_dynamic for Deflate and Gzip, give back
# the bytes of each value the command-line tool compressed (from-json --packet MODE, in the
# Godot 3 dialect). Runs on Godot 3.6.2 (tests/run_save_tests.sh):
#   godot3 --no-window --path tests/saves/check3 -s res://check_packets.gd --dir=DIR
# Prints one line per failure, "RESULT packet_<mode> <passed> <failed>" per mode, then
# "N passed, N failed"; exits 1 on failure.
extends SceneTree

const Cli = preload("res://godot3_lib/cli.gd")
const Tally = preload("res://godot3_lib/tally.gd")
const MODES = {"fastlz": File.COMPRESSION_FASTLZ, "deflate": File.COMPRESSION_DEFLATE,
	"zstd": File.COMPRESSION_ZSTD, "gzip": File.COMPRESSION_GZIP}


func read_bytes(path):
	var f = File.new()
	if f.open(path, File.READ) != OK:
		return PoolByteArray()
	var b = f.get_buffer(f.get_len())
	f.close()
	return b


func _init():
	var args = Cli.args()
	var dir = args.get("dir", "")
	var total = Tally.new()
	var names = []
	var d = Directory.new()
	if d.open(dir) == OK:
		d.list_dir_begin(true)
		var f = d.get_next()
		while f != "":
			if f.ends_with(".plain"):
				names.append(f.get_basename())
			f = d.get_next()
	total.check(names.size() >= 3, "%s holds the values' files" % dir)
	for mode_name in MODES:
		var mode = MODES[mode_name]
		var t = Tally.new()
		for name in names:
			var plain = read_bytes(dir.plus_file(name + ".plain"))
			var packet = read_bytes(dir.plus_file("%s.%s" % [name, mode_name]))
			var what = "%s.%s" % [name, mode_name]
			if not t.check(plain.size() > 0 and packet.size() > 0, what + ": both files read"):
				continue
			var back = packet.decompress(plain.size(), mode)
			t.check(back == plain, what + ": decompress(size) gives the value's bytes")
			if mode == File.COMPRESSION_DEFLATE or mode == File.COMPRESSION_GZIP:
				t.check(packet.decompress_dynamic(-1, mode) == plain,
					what + ": decompress_dynamic gives the value's bytes")
			t.check(var2bytes(bytes2var(back)) == var2bytes(bytes2var(plain)),
				what + ": bytes2var reads the value")
		print("RESULT packet_%s %d %d" % [mode_name, t.passed, t.failed])
		total.add(t)
	print(total.summary())
	quit(0 if total.failed == 0 else 1)
