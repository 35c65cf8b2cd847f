extends SceneTree
## Godot 4 opens store_var files the npm package wrote, as a game opens its saves, says what it
## read, and writes files of its own for the package to read:
##   godot --headless --path <copy of this dir> -s res://files.gd -- --dir=DIR --password=PW --key-hex=HEX
## DIR holds plain.bin (FileAccess.open), compressed_<mode>.bin for each mode of
## FileAccess.COMPRESSION_* (open_compressed), encrypted_pass.bin (open_encrypted_with_pass) and
## encrypted_key.bin (open_encrypted, the 32-byte key). Each is read with get_var to its end, and
## each value printed as "VALUE <kind> <index> <hex of var_to_bytes>", then "COUNT <kind> <n>",
## for the test to compare with the package's own encoding of what it wrote. Then the engine
## writes the values it read from plain.bin, with its own store_var, into engine_<kind>.bin for
## each kind. Prints one line per failure, then "N passed, N failed"; exits 1 on a failure.

const KINDS := {
	"plain": -3,
	"compressed_fastlz": FileAccess.COMPRESSION_FASTLZ,
	"compressed_deflate": FileAccess.COMPRESSION_DEFLATE,
	"compressed_zstd": FileAccess.COMPRESSION_ZSTD,
	"compressed_gzip": FileAccess.COMPRESSION_GZIP,
	"encrypted_pass": -1,
	"encrypted_key": -2,
}

var passed := 0
var failed := 0
var password := ""
var key := PackedByteArray()


func check(ok: bool, what: String) -> bool:
	if ok:
		passed += 1
	else:
		failed += 1
		print("FAIL ", what)
	return ok


func open(path: String, kind: String, mode: FileAccess.ModeFlags) -> FileAccess:
	match KINDS[kind]:
		-3:
			return FileAccess.open(path, mode)
		-2:
			return FileAccess.open_encrypted(path, mode, key)
		-1:
			return FileAccess.open_encrypted_with_pass(path, mode, password)
		_:
			return FileAccess.open_compressed(path, mode, KINDS[kind])


func _initialize() -> void:
	var dir := ""
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--dir="):
			dir = a.substr(6)
		elif a.begins_with("--password="):
			password = a.substr(11)
		elif a.begins_with("--key-hex="):
			key = a.substr(10).hex_decode()
	check(key.size() == 32, "a 32-byte key")
	var plain := []
	for kind in KINDS:
		var f := open(dir.path_join(kind + ".bin"), kind, FileAccess.READ)
		if not check(f != null, "%s: opens (%s)" % [kind, error_string(FileAccess.get_open_error())]):
			continue
		var n := 0
		while f.get_position() < f.get_length():
			var v = f.get_var()
			print("VALUE %s %d %s" % [kind, n, var_to_bytes(v).hex_encode()])
			if kind == "plain":
				plain.append(v)
			n += 1
		check(f.get_error() == OK or f.get_error() == ERR_FILE_EOF, "%s: read without error (%s)" % [kind, error_string(f.get_error())])
		print("COUNT %s %d" % [kind, n])
	for kind in KINDS:
		var w := open(dir.path_join("engine_%s.bin" % kind), kind, FileAccess.WRITE)
		if check(w != null, "engine_%s.bin: opens for writing" % kind):
			for v in plain:
				w.store_var(v)
			w.close()
	print("%d passed, %d failed" % [passed, failed])
	quit(0 if failed == 0 else 1)
