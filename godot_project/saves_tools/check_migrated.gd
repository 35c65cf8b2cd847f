extends SceneTree
## Checks the Godot 4 saves that the addon's tools/migrate_godot3_save.gd made from the Godot 3 fixtures
## (tests/run_save_tests.sh runs both):
##   godot --headless --path godot_project -s res://saves_tools/check_migrated.gd -- --dir=DIR
## DIR/<engine>/<kind>.save (engine: godot3_6_2, godot3_2_3; kind: the fixture kinds, migrated
## from res://saves/<engine>/<kind>.bin with --allow-classes=Curve). Each is opened with Godot 4's
## own FileAccess as the migration wrote it (open, open_compressed, open_encrypted_with_pass,
## open_encrypted) and read with FileAccess.get_var(true); every value must equal what
## FastVarCodec.read_var reads from the fixture's plain.bin (which test_saves.gd holds to the
## engine's sidecar), and the file must end after the last one. Prints one line per failure,
## "RESULT <engine> <kind> <passed> <failed>" per file, then "N passed, N failed".
## --kinds=a,b: only those kinds; --plain: every file is a plain Godot 4 save, whatever the kind
## of the fixture it was made from (the fast-var-codec tool's convert writes plain files).

const Ctx := preload("res://tests/lib/ctx.gd")

const PASSWORD := "fvc secret ✓"
const KINDS := {"plain": -1, "compressed_fastlz": FileAccess.COMPRESSION_FASTLZ,
	"compressed_deflate": FileAccess.COMPRESSION_DEFLATE, "compressed_zstd": FileAccess.COMPRESSION_ZSTD,
	"compressed_gzip": FileAccess.COMPRESSION_GZIP, "encrypted_pass": -1, "encrypted_key": -1}

var ctx := Ctx.new("check_migrated")


func _initialize() -> void:
	var dir := ""
	var kinds: Array = KINDS.keys()
	var plain := false
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--dir="):
			dir = a.trim_prefix("--dir=")
		elif a.begins_with("--kinds="):
			kinds = Array(a.trim_prefix("--kinds=").split(","))
		elif a == "--plain":
			plain = true
	var key := PackedByteArray()
	for i in 32:
		key.append((i * 7 + 3) & 0xFF)
	for engine in ["godot3_6_2", "godot3_2_3"]:
		var expected := fixture_values("res://saves/%s/plain.bin" % engine)
		for kind in kinds:
			var p0 := ctx.passed
			var f0 := ctx.failed
			var path := dir.path_join(engine).path_join(kind + ".save")
			var f: FileAccess
			if plain:
				f = FileAccess.open(path, FileAccess.READ)
			elif kind == "encrypted_pass":
				f = FileAccess.open_encrypted_with_pass(path, FileAccess.READ, PASSWORD)
			elif kind == "encrypted_key":
				f = FileAccess.open_encrypted(path, FileAccess.READ, key)
			elif KINDS[kind] >= 0:
				f = FileAccess.open_compressed(path, FileAccess.READ, KINDS[kind])
			else:
				f = FileAccess.open(path, FileAccess.READ)
			if ctx.check(f != null, "%s %s: opens (%s)" % [engine, kind, error_string(FileAccess.get_open_error())]):
				for i in expected.size():
					ctx.check_same(f.get_var(true), expected[i], "%s %s: value %d" % [engine, kind, i])
				ctx.check(f.get_position() == f.get_length(), "%s %s: ends after %d values" % [engine, kind, expected.size()])
			print("RESULT %s %s %d %d" % [engine, kind, ctx.passed - p0, ctx.failed - f0])
	quit(ctx.finish())


## The values of a fixture's plain.bin, as FastVarCodec reads them (objects allowed: Curve).
func fixture_values(path: String) -> Array:
	var codec := FastVarCodec.new()
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	codec.allow_objects = true
	codec.allowed_classes = PackedStringArray(["Curve"])
	var f := FileAccess.open(path, FileAccess.READ)
	var out := []
	while f.get_position() < f.get_length():
		out.append(codec.read_var(f))
		if not ctx.check(codec.get_error() == OK, "%s: %s" % [path, codec.get_error_message()]):
			break
	ctx.check(out.size() == 59, "%s: 59 values" % path)
	return out
