# Godot 4 opens store_var files the Python package wrote, as a game opens its saves, and writes
# encrypted ones of its own for the package to read:
#   godot4 --headless --path <copy of this dir> -s res://check_files.gd -- --dir=DIR --password=PW --key-hex=HEX
# DIR holds plain.bin (the records, uncompressed), compressed_<mode>.bin for each mode of
# FileAccess.COMPRESSION_*, encrypted_pass.bin (the password) and encrypted_key.bin (the 32-byte
# key). Each must open (open_compressed in its mode, open_encrypted_with_pass, open_encrypted),
# hold plain.bin's bytes (get_length and get_buffer), and give plain.bin's values with get_var,
# ending at its end. Then the engine writes plain.bin's values with its own store_var into
# engine_encrypted_pass.bin and engine_encrypted_key.bin. Prints one line per failure, then
# "N passed, N failed"; exits 1 on a failure.
# The kinds of file, how each opens, the arguments and the count are res://store_var_files.gd's
# (tests/godot4_lib/, shared with the npm package's checker).
extends "res://store_var_files.gd"


func values_of(f: FileAccess) -> Array:
	var out := []
	while f.get_position() < f.get_length():
		out.append(f.get_var())
	return out


func _initialize() -> void:
	read_args()
	var plain_bytes := FileAccess.get_file_as_bytes(dir.path_join("plain.bin"))
	var plain := FileAccess.open(dir.path_join("plain.bin"), FileAccess.READ)
	check(plain != null and plain_bytes.size() > 4096, "plain.bin opens and spans blocks")
	if plain == null:
		finish()
		return
	var want := values_of(plain)
	check(want.size() > 0, "plain.bin holds values")
	for kind in KINDS:
		if kind == "plain":
			continue
		var f := open(dir.path_join(kind + ".bin"), kind, FileAccess.READ)
		check(f != null, "%s: opens (%s)" % [kind, error_string(FileAccess.get_open_error())])
		if f == null:
			continue
		check(f.get_length() == plain_bytes.size(), "%s: length %d, plain %d" % [kind, f.get_length(), plain_bytes.size()])
		check(f.get_buffer(f.get_length()) == plain_bytes, "%s: the payload is plain.bin's bytes" % kind)
		f.seek(0)
		var got := values_of(f)
		check(got.size() == want.size(), "%s: %d values, plain %d" % [kind, got.size(), want.size()])
		for i in mini(got.size(), want.size()):
			check(var_to_bytes(got[i]) == var_to_bytes(want[i]), "%s: value %d" % [kind, i])
	for kind in ["encrypted_pass", "encrypted_key"]:
		var w := open(dir.path_join("engine_%s.bin" % kind), kind, FileAccess.WRITE)
		check(w != null, "engine_%s.bin: opens for writing" % kind)
		if w != null:
			for v in want:
				w.store_var(v)
			w.close()
	finish()
