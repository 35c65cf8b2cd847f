extends SceneTree
## What the two Godot 4 checkers of store_var files share: rust/wasm/tests/godot4/files.gd (the
## files the npm package wrote) and rust/python/tests/godot4_files/check_files.gd (the Python
## package's) each extend this script, which each project reaches as res://store_var_files.gd
## through a committed symlink to tests/godot4_lib/: the kinds of file and how a game opens each,
## the arguments --dir=DIR --password=PW --key-hex=HEX, and the count of checks.

## The files in DIR, <kind>.bin, and how a game opens each: FileAccess.open (-3),
## open_compressed in that mode, open_encrypted_with_pass (-1), open_encrypted with the 32-byte
## key (-2).
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
var dir := ""
var password := ""
var key := PackedByteArray()


func check(ok: bool, what: String) -> bool:
	if ok:
		passed += 1
	else:
		failed += 1
		print("FAIL ", what)
	return ok


## Reads --dir, --password and --key-hex; one check: the key has 32 bytes.
func read_args() -> void:
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--dir="):
			dir = a.substr(6)
		elif a.begins_with("--password="):
			password = a.substr(11)
		elif a.begins_with("--key-hex="):
			key = a.substr(10).hex_decode()
	check(key.size() == 32, "a 32-byte key")


## The file at path opened as a game opens a file of that kind (null when it does not open).
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


## Prints "N passed, N failed" and quits, with 1 on a failure.
func finish() -> void:
	print("%d passed, %d failed" % [passed, failed])
	quit(0 if failed == 0 else 1)
