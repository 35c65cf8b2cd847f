extends SceneTree
## Migrates a Godot 3 save file (values written with File.store_var) to a Godot 4 save file
## (the same values written with FileAccess.store_var), keeping its compression or encryption:
##
##   godot --headless --path godot_project -s res://demo/migrate_godot3_save.gd -- IN OUT
##         [--password=PW | --key-hex=64_HEX_DIGITS] [--compressed=zstd|gzip|deflate|fastlz]
##         [--allow-classes=Curve,MyResource]
##
## IN is read as the Godot 3 game wrote it: File.open, File.open_compressed (--compressed),
## File.open_encrypted_with_pass (--password) or File.open_encrypted (--key-hex). OUT is written
## with Godot 4's own FileAccess in the same way, so the Godot 4 game reads it with get_var.
## --allow-classes: the save holds full objects (Godot 3's store_var(value, true)) of these classes.
## Paths: absolute, res:// or user:// (a relative path is taken from the project directory).
## Exits 0 when every value was migrated; on any error OUT is not written.

const MODES := {"fastlz": FileAccess.COMPRESSION_FASTLZ, "deflate": FileAccess.COMPRESSION_DEFLATE,
	"zstd": FileAccess.COMPRESSION_ZSTD, "gzip": FileAccess.COMPRESSION_GZIP}


func _initialize() -> void:
	quit(migrate(OS.get_cmdline_user_args()))


func migrate(args: PackedStringArray) -> int:
	var opt := {}
	var paths: Array[String] = []
	for a in args:
		if a.begins_with("--"):
			opt[a.get_slice("=", 0)] = a.substr(a.find("=") + 1)
		else:
			paths.append(a)
	if paths.size() != 2 or (opt.has("--compressed") and not MODES.has(opt["--compressed"])):
		printerr("usage: -s res://demo/migrate_godot3_save.gd -- IN OUT [--password=PW | --key-hex=HEX] [--compressed=zstd|gzip|deflate|fastlz] [--allow-classes=A,B]")
		return 2
	var key: PackedByteArray = String(opt.get("--key-hex", "")).hex_decode()
	var mode: int = MODES.get(opt.get("--compressed", ""), -1)

	# Godot 3 numbers its types differently: Godot 4's own get_var misreads such files.
	var codec := FastVarCodec.new()
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	if opt.has("--allow-classes"):
		codec.allow_objects = true
		codec.allowed_classes = String(opt["--allow-classes"]).split(",")

	var values := []
	if opt.has("--password") or not key.is_empty():
		# Godot 4 cannot open Godot 3's encrypted files: decrypt them, then read the values.
		var data := FileAccess.get_file_as_bytes(paths[0])
		if FileAccess.get_open_error() != OK:
			return fail("%s: %s" % [paths[0], error_string(FileAccess.get_open_error())])
		var plain := codec.decrypt_godot3(data, opt["--password"]) if opt.has("--password") \
				else codec.decrypt_godot3_with_key(data, key)
		if codec.get_error() != OK:
			return fail("%s: %s" % [paths[0], codec.get_error_message()])
		var stream := FastVarStream.new()
		stream.codec = codec
		stream.max_message_size = plain.size()  # our own file: values may exceed the 8 MiB default
		stream.feed(plain)
		while stream.has_var():
			values.append(stream.pop_var())
			if stream.get_error() != OK:
				return fail("%s: value %d: %s" % [paths[0], values.size() - 1, stream.get_error_message()])
		if stream.get_buffered_bytes() > 0:
			return fail("%s: the last value is cut short" % paths[0])
	else:
		# Plain or compressed (Godot 4's open_compressed reads Godot 3's compressed files).
		var f := FileAccess.open_compressed(paths[0], FileAccess.READ, mode) if mode >= 0 \
				else FileAccess.open(paths[0], FileAccess.READ)
		if f == null:
			return fail("%s: %s" % [paths[0], error_string(FileAccess.get_open_error())])
		while f.get_position() < f.get_length():
			values.append(codec.read_var(f))
			if codec.get_error() != OK:
				return fail("%s: value %d: %s" % [paths[0], values.size() - 1, codec.get_error_message()])

	# Write the Godot 4 save: the same container, Godot 4's own store_var.
	var out: FileAccess
	if opt.has("--password"):
		out = FileAccess.open_encrypted_with_pass(paths[1], FileAccess.WRITE, opt["--password"])
	elif not key.is_empty():
		out = FileAccess.open_encrypted(paths[1], FileAccess.WRITE, key)
	elif mode >= 0:
		out = FileAccess.open_compressed(paths[1], FileAccess.WRITE, mode)
	else:
		out = FileAccess.open(paths[1], FileAccess.WRITE)
	if out == null:
		return fail("%s: %s" % [paths[1], error_string(FileAccess.get_open_error())])
	# Full objects stay full objects. (An object Godot 3 saved as its id reads as an
	# EncodedObjectAsID: written in full it keeps that id; otherwise Godot 4 writes the id of the
	# EncodedObjectAsID itself. Ids of a past run rarely mean anything.)
	for v in values:
		out.store_var(v, codec.allow_objects)
	out.close()
	print("migrated %d values: %s -> %s" % [values.size(), paths[0], paths[1]])
	return 0


func fail(message: String) -> int:
	printerr("migrate_godot3_save: " + message)
	return 1
