extends SceneTree
## Godot 4 writes Godot 3 save files (tests/run_save_tests.sh; Godot 3 then reads them with
## tests/saves/check3/check3.gd):
##   godot --headless --path godot_project -s res://saves_tools/write_godot3_saves.gd -- --out=DIR
##         [--fixture=res://saves/godot3_6_2]
## Reads the fixture's plain.bin with FastVarCodec.read_var (DIALECT_GODOT_3), then writes those
## values back in the Godot 3 dialect into DIR:
##   plain.bin                     FileAccess.open(WRITE) + codec.store_var
##   compressed_<mode>.bin         FileAccess.open_compressed(WRITE, mode) + codec.store_var (4 modes)
##   encrypted_pass.bin / _key.bin codec.put_var into a StreamPeerBuffer, encrypt_godot3[_with_key], store_buffer
##   config_encrypted_pass.cfg / _key.cfg   Godot 4's ConfigFile.encode_to_text of values Godot 3's
##                                 parser reads, encrypted with encrypt_godot3[_with_key]
##   manifest.json                 which fixture values were written, in order; files; password; key
## Values Godot 4 cannot write back as Godot 3 had them are skipped and recorded in the manifest.
## Checks that each file reads back in Godot 4 (read_var / decrypt + FastVarStream), prints one line
## per failure, then "N passed, N failed"; exits 1 on failure.

const Ctx := preload("res://tests/lib/ctx.gd")

const PASSWORD := "fvc secret ✓"  # the fixtures' password (tests/saves/FORMAT.md)
const MODES := {"fastlz": FileAccess.COMPRESSION_FASTLZ, "deflate": FileAccess.COMPRESSION_DEFLATE,
	"zstd": FileAccess.COMPRESSION_ZSTD, "gzip": FileAccess.COMPRESSION_GZIP}
## Written only as an id of the Godot 3 run: Godot 4 has no object for it, and writing the
## EncodedObjectAsID back would write the id of that holder object (as var_to_bytes does).
const SKIP := {"object/as_id": "an object id of the Godot 3 run: no object to write back (an EncodedObjectAsID would be written as its own id)"}
## Values for the ConfigFile: Godot 4 writes their text in a form Godot 3's parser reads (no
## Quaternion/Transform3D/Packed*/-0.0/inf/nan, which Godot 4 names or writes differently).
const CONFIG_VALUES := ["bool/true", "int/small", "int/negative", "int/64bit", "float/half", "float/tenth",
	"string/ascii", "string/empty", "string/unicode", "vector2", "rect2", "vector3", "transform2d", "plane",
	"aabb", "basis", "color", "node_path/absolute", "array/mixed", "dictionary/nested", "array/records"]

var ctx := Ctx.new("write_godot3_saves")


func _initialize() -> void:
	var out_dir := ""
	var fixture := "res://saves/godot3_6_2"
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--out="):
			out_dir = a.trim_prefix("--out=")
		elif a.begins_with("--fixture="):
			fixture = a.trim_prefix("--fixture=")
	if out_dir == "":
		printerr("usage: ... -s res://saves_tools/write_godot3_saves.gd -- --out=DIR [--fixture=DIR]")
		quit(2)
		return
	DirAccess.make_dir_recursive_absolute(out_dir)
	write_all(fixture, out_dir)
	quit(ctx.finish())


func write_all(fixture: String, out_dir: String) -> void:
	var key := PackedByteArray()
	for i in 32:
		key.append((i * 7 + 3) & 0xFF)
	var codec := FastVarCodec.new()
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	codec.allowed_classes = PackedStringArray(["Curve"])

	# Read the fixture's values (names and object flags from its sidecar).
	var sidecar = JSON.parse_string(FileAccess.get_file_as_string(fixture.path_join("plain.json")))
	var f := FileAccess.open(fixture.path_join("plain.bin"), FileAccess.READ)
	ctx.check(sidecar is Dictionary and f != null, "the fixture %s opens" % fixture)
	if ctx.failed > 0:
		return
	var entries := []   # manifest "values": one per fixture value
	var values := []    # [index, value, full_objects] of the values written
	for i in sidecar.values.size():
		var item: Dictionary = sidecar.values[i]
		codec.allow_objects = item.allow_objects
		var v = codec.read_var(f)
		ctx.check(codec.get_error() == OK, "read_var of fixture value %d (%s): %s" % [i, item.name, codec.get_error_message()])
		var e := {"index": i, "name": item.name, "allow_objects": item.allow_objects, "written": not SKIP.has(item.name)}
		if SKIP.has(item.name):
			e["reason"] = SKIP[item.name]
		else:
			values.append([i, v, bool(item.allow_objects)])
		entries.append(e)
	codec.allow_objects = false
	ctx.check(f.get_position() == f.get_length(), "the fixture's values end at its end")

	var files := []
	# Plain and compressed: codec.store_var into the FileAccess.
	var kinds := {"plain": -1}
	for m in MODES:
		kinds["compressed_" + m] = MODES[m]
	for kind in kinds:
		var path := out_dir.path_join(kind + ".bin")
		var w := FileAccess.open(path, FileAccess.WRITE) if kinds[kind] < 0 \
				else FileAccess.open_compressed(path, FileAccess.WRITE, kinds[kind])
		ctx.check(w != null, "open %s for writing" % path)
		if w == null:
			continue
		for v in values:
			codec.full_objects = v[2]
			ctx.check(codec.store_var(w, v[1]) == OK, "%s: store_var of value %d: %s" % [kind, v[0], codec.get_error_message()])
		codec.full_objects = false
		w.close()
		var r := FileAccess.open(path, FileAccess.READ) if kinds[kind] < 0 \
				else FileAccess.open_compressed(path, FileAccess.READ, kinds[kind])
		for v in values:
			codec.allow_objects = v[2]
			ctx.check_same(codec.read_var(r), v[1], "%s: value %d reads back in Godot 4" % [kind, v[0]])
		codec.allow_objects = false
		ctx.check(r.get_position() == r.get_length(), "%s: ends after the values" % kind)
		files.append({"file": kind + ".bin", "kind": kind, "mode": kinds[kind]})

	# Encrypted: the framed values (as store_var frames them) into a buffer, then Godot 3's container.
	var buf := StreamPeerBuffer.new()
	for v in values:
		codec.full_objects = v[2]
		ctx.check(codec.put_var(buf, v[1]) == OK, "put_var of value %d: %s" % [v[0], codec.get_error_message()])
	codec.full_objects = false
	var payload := buf.data_array
	ctx.check(payload == FileAccess.get_file_as_bytes(out_dir.path_join("plain.bin")), "the framed values are the bytes of plain.bin")
	for kind in ["encrypted_pass", "encrypted_key"]:
		var data: PackedByteArray = codec.encrypt_godot3(payload, PASSWORD) if kind == "encrypted_pass" \
				else codec.encrypt_godot3_with_key(payload, key)
		ctx.check(codec.get_error() == OK and data.size() >= 32 + payload.size(), kind + ": encrypt")
		var w := FileAccess.open(out_dir.path_join(kind + ".bin"), FileAccess.WRITE)
		w.store_buffer(data)
		w.close()
		var back: PackedByteArray = codec.decrypt_godot3(data, PASSWORD) if kind == "encrypted_pass" \
				else codec.decrypt_godot3_with_key(data, key)
		ctx.check(back == payload, kind + ": decrypts back to the payload")
		files.append({"file": kind + ".bin", "kind": kind, "mode": -1})

	# ConfigFile: Godot 4's text, in Godot 3's encrypted container.
	var cf := ConfigFile.new()
	var config_values := []
	for v in values:
		var name: String = sidecar.values[v[0]].name
		if name in CONFIG_VALUES:
			var k := name.replace("/", "_")
			cf.set_value("values", k, v[1])
			config_values.append({"key": k, "index": v[0], "name": name})
	ctx.check(config_values.size() == CONFIG_VALUES.size(), "every ConfigFile value is in the fixture")
	var text := cf.encode_to_text().to_utf8_buffer()
	var configs := []
	for kind in ["encrypted_pass", "encrypted_key"]:
		var data: PackedByteArray = codec.encrypt_godot3(text, PASSWORD) if kind == "encrypted_pass" \
				else codec.encrypt_godot3_with_key(text, key)
		var name := "config_%s.cfg" % kind
		var w := FileAccess.open(out_dir.path_join(name), FileAccess.WRITE)
		w.store_buffer(data)
		w.close()
		configs.append({"file": name, "kind": kind})
	FileAccess.open(out_dir.path_join("config_plain_text.cfg"), FileAccess.WRITE).store_buffer(text)  # for reading

	var manifest := {"written_by": Engine.get_version_info().string, "fixture": fixture,
		"fixture_engine": sidecar.engine, "password": PASSWORD, "key_hex": key.hex_encode(),
		"values": entries, "files": files, "configs": configs, "config_section": "values",
		"config_values": config_values}
	var m := FileAccess.open(out_dir.path_join("manifest.json"), FileAccess.WRITE)
	m.store_string(JSON.stringify(manifest, "  ") + "\n")
	m.close()
	print("wrote %d values (%d skipped) in %d files and %d ConfigFiles to %s" % [values.size(),
			entries.size() - values.size(), files.size(), configs.size(), out_dir])
