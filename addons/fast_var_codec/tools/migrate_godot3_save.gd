extends SceneTree
## Migrates a Godot 3 save file (values written with File.store_var) to a Godot 4 save file
## (the same values written with FileAccess.store_var), keeping its compression or encryption:
##
##   godot --headless --path PROJECT -s res://addons/fast_var_codec/tools/migrate_godot3_save.gd -- IN OUT
##         [--password=PW | --key-hex=64_HEX_DIGITS] [--compressed=zstd|gzip|deflate|fastlz]
##         [--allow-classes=Curve,MyResource]
##
## IN is read as the Godot 3 game wrote it: File.open, File.open_compressed (its mode is read
## from the file), File.open_encrypted_with_pass (--password) or File.open_encrypted (--key-hex);
## an encrypted IN without them is refused, naming the missing password. OUT is written with
## Godot 4's own FileAccess in the same way (--compressed: with that compression), so the
## Godot 4 game reads it with get_var.
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
		printerr("usage: -s res://addons/fast_var_codec/tools/migrate_godot3_save.gd -- IN OUT [--password=PW | --key-hex=HEX] [--compressed=zstd|gzip|deflate|fastlz] [--allow-classes=A,B]")
		return 2
	var key: PackedByteArray = String(opt.get("--key-hex", "")).hex_decode()
	var mode: int = MODES.get(opt.get("--compressed", ""), -1)

	# Godot 3 numbers its types differently: Godot 4's own get_var misreads such files.
	var codec := FastVarCodec.new()
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	if opt.has("--allow-classes"):
		codec.allow_objects = true
		codec.allowed_classes = String(opt["--allow-classes"]).split(",")

	# Godot 4 cannot open Godot 3's encrypted files, and its get_var misreads Godot 3's values:
	# read_godot3_save finds the container (plain, compressed, encrypted) and reads every value.
	var password: String = opt.get("--password", "")
	if password.is_empty() and key.is_empty() and is_encrypted(paths[0]):
		return fail("%s: the file is encrypted: pass --password or --key-hex" % paths[0])
	codec.max_message_size = 4294967295  # the save's own values: each is bounded by the file
	var values := codec.read_godot3_save(paths[0], password, key)
	if codec.get_error() != OK:
		return fail(codec.get_error_message())

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


## Whether the file at `path` is Godot 3's encrypted container (its "GDEC" magic).
func is_encrypted(path: String) -> bool:
	var f := FileAccess.open(path, FileAccess.READ)
	return f != null and f.get_length() >= 4 and f.get_buffer(4).get_string_from_ascii() == "GDEC"


func fail(message: String) -> int:
	printerr("migrate_godot3_save: " + message)
	return 1
