extends "res://store_var_files.gd"
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
## The kinds of file, how each opens, the arguments and the count are res://store_var_files.gd's
## (tests/godot4_lib/, shared with the Python package's checker).


func _initialize() -> void:
	read_args()
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
	finish()
