extends SceneTree
## Checks the compressed packets the command-line tool wrote (fast-var-codec from-json --packet
## MODE; tests/run_save_tests.sh runs both):
##   godot --headless --path godot_project -s res://saves_tools/check_packets.gd -- --dir=DIR
## DIR/<name>.plain is a value's var_to_bytes (from-json), DIR/<name>.<mode> the same value's
## packet. The engine's own PackedByteArray.decompress(size, mode), and decompress_dynamic for
## Deflate and Gzip, must give back the plain bytes, which bytes_to_var reads. Prints one line
## per failure, "RESULT packet_<mode> <passed> <failed>" per mode, then "N passed, N failed".

const Ctx := preload("res://tests/lib/ctx.gd")
const MODES := {"fastlz": FileAccess.COMPRESSION_FASTLZ, "deflate": FileAccess.COMPRESSION_DEFLATE,
	"zstd": FileAccess.COMPRESSION_ZSTD, "gzip": FileAccess.COMPRESSION_GZIP}

var ctx := Ctx.new("check_packets")


func _initialize() -> void:
	var dir := ""
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--dir="):
			dir = a.trim_prefix("--dir=")
	var names := []
	for f in DirAccess.get_files_at(dir):
		if f.ends_with(".plain"):
			names.append(f.get_basename())
	ctx.check(names.size() >= 3, "%s holds the values' files" % dir)
	for mode_name in MODES:
		var mode: int = MODES[mode_name]
		var p0 := ctx.passed
		var f0 := ctx.failed
		for name in names:
			var plain := FileAccess.get_file_as_bytes(dir.path_join(name + ".plain"))
			var packet := FileAccess.get_file_as_bytes(dir.path_join("%s.%s" % [name, mode_name]))
			var what := "%s.%s" % [name, mode_name]
			if not ctx.check(not plain.is_empty() and not packet.is_empty(), what + ": both files read"):
				continue
			var back := packet.decompress(plain.size(), mode)
			ctx.check_bytes(back, plain, what + ": decompress(size) gives the value's bytes")
			if mode == FileAccess.COMPRESSION_DEFLATE or mode == FileAccess.COMPRESSION_GZIP:
				ctx.check_bytes(packet.decompress_dynamic(-1, mode), plain,
					what + ": decompress_dynamic gives the value's bytes")
			ctx.check(var_to_bytes(bytes_to_var(back)) == var_to_bytes(bytes_to_var(plain)),
				what + ": bytes_to_var reads the value")
		print("RESULT packet_%s %d %d" % [mode_name, ctx.passed - p0, ctx.failed - f0])
	quit(ctx.finish())
