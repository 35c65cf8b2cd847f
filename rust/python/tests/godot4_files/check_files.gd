# Godot 4 reads store_var files the Python package compressed, as a game opens its saves:
#   godot4 --headless --path <copy of this dir> -s res://read_compressed.gd -- --dir=DIR
# DIR holds plain.bin (the records, uncompressed) and compressed_<mode>.bin for each mode of
# FileAccess.COMPRESSION_*. Each compressed file must open with FileAccess.open_compressed in its
# mode, hold plain.bin's bytes (get_length and get_buffer), and give plain.bin's values with
# get_var, ending at its end. Prints one line per failure, then "N passed, N failed"; exits 1 on
# a failure.
extends SceneTree

const MODES := {
	"fastlz": FileAccess.COMPRESSION_FASTLZ,
	"deflate": FileAccess.COMPRESSION_DEFLATE,
	"zstd": FileAccess.COMPRESSION_ZSTD,
	"gzip": FileAccess.COMPRESSION_GZIP,
}

var passed := 0
var failed := 0


func check(ok: bool, what: String) -> void:
	if ok:
		passed += 1
	else:
		failed += 1
		print("FAIL ", what)


func values_of(f: FileAccess) -> Array:
	var out := []
	while f.get_position() < f.get_length():
		out.append(f.get_var())
	return out


func _initialize() -> void:
	var dir := ""
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--dir="):
			dir = a.substr(6)
	var plain_bytes := FileAccess.get_file_as_bytes(dir.path_join("plain.bin"))
	var plain := FileAccess.open(dir.path_join("plain.bin"), FileAccess.READ)
	check(plain != null and plain_bytes.size() > 4096, "plain.bin opens and spans blocks")
	if plain == null:
		finish()
		return
	var want := values_of(plain)
	check(want.size() > 0, "plain.bin holds values")
	for mode in MODES:
		var path := dir.path_join("compressed_%s.bin" % mode)
		var f := FileAccess.open_compressed(path, FileAccess.READ, MODES[mode])
		check(f != null, "%s: opens (%s)" % [mode, error_string(FileAccess.get_open_error())])
		if f == null:
			continue
		check(f.get_length() == plain_bytes.size(), "%s: length %d, plain %d" % [mode, f.get_length(), plain_bytes.size()])
		check(f.get_buffer(f.get_length()) == plain_bytes, "%s: the payload is plain.bin's bytes" % mode)
		f.seek(0)
		var got := values_of(f)
		check(got.size() == want.size(), "%s: %d values, plain %d" % [mode, got.size(), want.size()])
		for i in mini(got.size(), want.size()):
			check(var_to_bytes(got[i]) == var_to_bytes(want[i]), "%s: value %d" % [mode, i])
	finish()


func finish() -> void:
	print("%d passed, %d failed" % [passed, failed])
	quit(0 if failed == 0 else 1)
