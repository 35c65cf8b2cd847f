extends SceneTree
## Checks the text resources the command-line tool converted from Godot 3's to Godot 4's
## (fast-var-codec convert --to godot4; tests/run_save_tests.sh runs both):
##   godot --headless --path godot_project -s res://saves_tools/check_tres.gd -- --dir=DIR --golden=FILE
## FILE is tests/golden/tres_godot3_6_2.jsonl, the .tres files Godot 3.6.2 saved and the metadata
## it read back from each (its var2bytes); DIR/<name>.tres is each converted. Godot 4's own
## ResourceLoader must load every converted file with that metadata (Godot 3's bytes read by
## FastVarCodec in the Godot 3 dialect) and, for the save, the properties Godot 4.6.3 itself loads
## from the Godot 3 file (which it opens, dropping its metadata): its level, name, stats, and its
## items and best, sub-resources of res://tres/item.gd. Prints one line per failure,
## "RESULT <name> <passed> <failed>" per file, then "N passed, N failed".

const Ctx := preload("res://tests/lib/ctx.gd")

var ctx := Ctx.new("check_tres")


func _initialize() -> void:
	var dir := ""
	var golden := ""
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--dir="):
			dir = a.trim_prefix("--dir=")
		elif a.begins_with("--golden="):
			golden = a.trim_prefix("--golden=")
	var codec := FastVarCodec.new()
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	var lines := FileAccess.get_file_as_string(golden).split("\n", false)
	ctx.check(lines.size() > 4, "%s: read" % golden)
	var files := 0
	for i in range(1, lines.size()):
		var case = JSON.parse_string(lines[i])
		if not case is Dictionary or not case.has("file"):
			continue
		files += 1
		var p0 := ctx.passed
		var f0 := ctx.failed
		var name: String = case["name"]
		var res := ResourceLoader.load(dir.path_join(name + ".tres"), "", ResourceLoader.CACHE_MODE_IGNORE)
		if ctx.check(res != null, "%s: Godot 4 loads the converted file" % name):
			ctx.check(res.get_meta_list().size() == case["meta"].size(), "%s: %d metadata" % [name, case["meta"].size()])
			for m in case["meta"]:
				var expected = codec.decode(m[1].hex_decode())
				ctx.check(codec.get_error() == OK, "%s %s: Godot 3's bytes decode" % [name, m[0]])
				ctx.check_same(res.get_meta(m[0]), expected, "%s: metadata %s" % [name, m[0]])
			if name == "save":
				check_save(res, case["file"].hex_decode())
		print("RESULT %s %d %d" % [name, ctx.passed - p0, ctx.failed - f0])
	ctx.check(files == 4, "4 files (%d)" % files)
	quit(ctx.finish())


## The save's properties, as Godot 4.6.3 loads them from the Godot 3 file itself.
func check_save(res: Resource, godot3_file: PackedByteArray) -> void:
	var original := "user://check_tres_godot3_save.tres"
	var f := FileAccess.open(original, FileAccess.WRITE)
	f.store_buffer(godot3_file)
	f.close()
	var engine := ResourceLoader.load(original, "", ResourceLoader.CACHE_MODE_IGNORE)
	DirAccess.remove_absolute(ProjectSettings.globalize_path(original))
	if not ctx.check(engine != null, "save: Godot 4 loads the Godot 3 file itself"):
		return
	for p in ["level", "player_name", "stats", "visited"]:
		ctx.check_same(res.get(p), engine.get(p), "save: %s" % p)
	ctx.check(res.items.size() == 2 and engine.items.size() == 2, "save: 2 items")
	for i in mini(res.items.size(), engine.items.size()):
		for p in ["title", "count", "weight", "tags"]:
			ctx.check_same(res.items[i].get(p), engine.items[i].get(p), "save: items[%d].%s" % [i, p])
		ctx.check(res.items[i].get_script().resource_path == "res://tres/item.gd", "save: items[%d]'s script" % i)
	ctx.check(res.best == res.items[0], "save: best is items[0], one sub-resource")
	ctx.check(res.items[1].child == res.items[0], "save: items[1].child is items[0]")
