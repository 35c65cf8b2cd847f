extends RefCounted
## FastVarCodec.load_text_resource and FastVarTextResource against the engine: a save Godot 4.6.3's
## ResourceSaver writes (a script, sub-resources inside it) read as the engine loads it but
## loading nothing, written back byte for byte, and edited so that the engine's ResourceLoader
## loads the edits; Godot 4.6.3's golden save (res://golden/tres_godot4_6_3.jsonl) with a
## container typed by one of its entries, kept as it was; references as values; the errors; and
## a script the engine's loader runs and this reader never loads.

const Ctx := preload("res://tests/lib/ctx.gd")
const Save := preload("res://tres/save.gd")
const Item := preload("res://tres/item.gd")
const MARKER := "res://tests/fixtures/static_init/marker_tres.gd"
const PATH := "user://fvc_text_resource.tres"

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	reads_what_the_engine_saves()
	edits_that_the_engine_loads()
	a_container_typed_by_an_entry()
	a_godot3_save()
	errors()
	a_script_runs_in_the_engine_and_not_here()
	DirAccess.remove_absolute(PATH)
	t.done()


## A save as a game makes one: a Resource with a script, items inside it, values of many types.
func engine_save() -> Resource:
	var sword := Item.new()
	sword.title = "sword"
	sword.count = 1
	sword.tags = PackedStringArray(["sharp"])
	var potion := Item.new()
	potion.title = "potion \"red\"\nsecond line"
	potion.weight = 2.25
	potion.child = sword
	var save := Save.new()
	save.level = 7
	save.player_name = "Ada"
	save.items = [sword, potion]
	save.best = sword
	save.stats = {"hp": 10, "pos": Vector3(1, 2, 3), 4: [1, "x"]}
	save.visited = PackedVector2Array([Vector2(0, 0), Vector2(1.5, -2)])
	return save


func reads_what_the_engine_saves() -> void:
	t.check(ResourceSaver.save(engine_save(), PATH) == OK, "the engine saves a text resource")
	var text := FileAccess.get_file_as_string(PATH)
	var loaded: Resource = ResourceLoader.load(PATH, "", ResourceLoader.CACHE_MODE_IGNORE)
	var c := FastVarCodec.new()
	var res := c.load_text_resource(PATH)
	if not t.check(res != null and c.get_error() == OK, "read", c.get_error_message()):
		return
	t.check(res.get_section_tag(0) == "gd_resource", "the header first", res.get_section_tag(0))
	var main := res.find_section("resource")
	t.check(main == res.get_section_count() - 1, "the resource itself last", str(main))
	# Every value the engine loads, the same (references aside: the engine made those objects).
	for key in ["level", "player_name", "stats", "visited"]:
		t.check_same(res.get_value(main, key), loaded.get(key), "the resource's %s as the engine loads it" % key)
	var script_ref = res.get_value(main, "script")
	t.check(script_ref is FastVarResourceReference and script_ref.kind == "ExtResource",
			"its script is a reference, not a loaded script", str(script_ref))
	var entry := res.find_entry(script_ref)
	t.check(entry > 0 and res.get_section_tag(entry) == "ext_resource"
			and res.get_section_attributes(entry).get("path") == "res://tres/save.gd",
			"find_entry gives the ext_resource of its path", "%d: %s" % [entry, res.get_section_attributes(entry)])
	var items = res.get_value(main, "items")
	t.check(items is Array and items.size() == 2 and items.all(func(i): return i is FastVarResourceReference and i.kind == "SubResource"),
			"the items are references to the sub-resources", str(items))
	if items is Array and items.size() == 2:
		var sword := res.find_entry(items[0])
		t.check(sword > 0 and res.get_value(sword, "title") == "sword" and res.get_value(sword, "count") == 1
				and res.get_value(sword, "tags") == PackedStringArray(["sharp"]),
				"a sub-resource's values as the engine loads them", str(res.get_section_keys(sword)))
		t.check(str(items[0]) == "SubResource(\"%s\")" % res.get_section_attributes(sword).get("id"),
				"a reference prints as the file writes it", str(items[0]))
	t.check(res.encode_to_text() == text, "unchanged, its text is the file's, byte for byte")


## Values set (in the resource and in a sub-resource, a new one, a reference moved) are what the
## engine's own loader loads from the saved file; what was not set is written as it was.
func edits_that_the_engine_loads() -> void:
	ResourceSaver.save(engine_save(), PATH)
	var c := FastVarCodec.new()
	var res := c.load_text_resource(PATH)
	if not t.check(res != null, "read", c.get_error_message()):
		return
	var main := res.find_section("resource")
	t.check(res.set_value(main, "level", 8) == OK, "set level", res.get_error_message())
	t.check(res.set_value(main, "player_name", "Ada Lovelace") == OK, "set player_name")
	var stats: Dictionary = res.get_value(main, "stats")
	stats["hp"] = 12
	t.check(res.set_value(main, "stats", stats) == OK, "set stats", res.get_error_message())
	var items: Array = res.get_value(main, "items")
	var sword := res.find_entry(items[0])
	t.check(res.set_value(sword, "count", 5) == OK, "set a sub-resource's count")
	# The best item becomes the potion: a reference set as a value.
	t.check(res.set_value(main, "best", items[1]) == OK, "set a reference", res.get_error_message())
	t.check(res.save(PATH) == OK, "saved", res.get_error_message())
	var loaded: Resource = ResourceLoader.load(PATH, "", ResourceLoader.CACHE_MODE_IGNORE)
	if not t.check(loaded != null and loaded.get_script() == Save, "the engine loads the edited file"):
		return
	t.check(loaded.level == 8 and loaded.player_name == "Ada Lovelace" and loaded.stats.hp == 12,
			"with the values set", "%s %s %s" % [loaded.level, loaded.player_name, loaded.stats])
	t.check(loaded.items.size() == 2 and loaded.items[0].count == 5 and loaded.items[0].title == "sword",
			"and the sub-resource's", str(loaded.items))
	t.check(loaded.best == loaded.items[1] and loaded.best.child == loaded.items[0],
			"and the reference set: the same object as the second item", str(loaded.best))
	t.check(loaded.visited == PackedVector2Array([Vector2(0, 0), Vector2(1.5, -2)]), "what was not set is as it was")
	# The engine's own save of what it loaded is the text written (the engine's writer).
	var again := "user://fvc_text_resource_again.tres"
	ResourceSaver.save(loaded, again)
	var ours := c.load_text_resource(PATH)
	var engines := c.load_text_resource(again)
	if ours != null and engines != null:
		var m1 := ours.find_section("resource")
		var m2 := engines.find_section("resource")
		for key in ["level", "player_name", "stats"]:
			t.check_same(ours.get_value(m1, key), engines.get_value(m2, key), "%s as the engine saves it" % key)
	DirAccess.remove_absolute(again)


## The text of one of a golden corpus's records, "" when it is not there.
func golden_text(corpus: String, name: String) -> String:
	for line in FileAccess.get_file_as_string(corpus).split("\n", false):
		var record = JSON.parse_string(line)
		if record is Dictionary and record.get("name") == name:
			return record.file.hex_decode().get_string_from_utf8()
	return ""


## Godot 3.6.2's golden save (format 2: ids are ints, `ExtResource( 2 )`): read, its references
## followed, written back byte for byte, and an edit written in Godot 3's text.
func a_godot3_save() -> void:
	var text := golden_text("res://golden/tres_godot3_6_2.jsonl", "save")
	if not t.check(text.contains("format=2"), "Godot 3.6.2's golden save is there"):
		return
	var c := FastVarCodec.new()
	var res := c.parse_text_resource(text)
	if not t.check(res != null, "Godot 3's save reads", c.get_error_message()):
		return
	t.check(res.encode_to_text() == text, "Godot 3's save unchanged, byte for byte")
	var main := res.find_section("resource")
	var items = res.get_value(main, "items")
	t.check(items is Array and items.size() == 2 and items[1] is FastVarResourceReference and typeof(items[1].id) == TYPE_INT,
			"Godot 3's references, their ids ints", str(items))
	if items is Array and items.size() == 2:
		var potion := res.find_entry(items[1])
		t.check(potion > 0 and res.get_value(potion, "weight") == 2.25 and str(res.get_value(potion, "child")) == "SubResource(1)",
				"followed to its sub-resource", "%d %s" % [potion, res.get_section_keys(potion)])
	t.check(res.get_value(main, "visited") == PackedVector2Array([Vector2(0, 0), Vector2(1.5, -2)]),
			"a PoolVector2Array read as Godot 4's packed array")
	res.set_value(main, "level", 8)
	var written := res.encode_to_text()
	t.check(written == text.replace("\nlevel = 7\n", "\nlevel = 8\n"),
			"an edit written in Godot 3's text, the rest as it was", written)


## Godot 4.6.3's golden save: `items = Array[ExtResource("1_u1a7l")]([...])`, what an
## `@export var items: Array[Item]` saves. No script can hold that type: reading it fails, and it
## is written back as it was while the rest is set.
func a_container_typed_by_an_entry() -> void:
	var text := golden_text("res://golden/tres_godot4_6_3.jsonl", "save")
	if not t.check(text.contains("Array[ExtResource("), "Godot 4.6.3's golden save is there"):
		return
	var c := FastVarCodec.new()
	var res := c.parse_text_resource(text)
	if not t.check(res != null, "read", c.get_error_message()):
		return
	t.check(res.encode_to_text() == text, "unchanged, byte for byte")
	var main := res.find_section("resource")
	var items = res.get_value(main, "items")
	t.check(items == null and res.get_error() == ERR_UNAVAILABLE and res.get_error_message().contains("ExtResource"),
			"the container typed by an entry: null, ERR_UNAVAILABLE naming the type", res.get_error_message())
	t.check(res.get_value(main, "level") == 7 and res.get_error() == OK, "the other values read", res.get_error_message())
	res.set_value(main, "level", 8)
	var written := res.encode_to_text()
	var items_line := func(s: String) -> String:
		for l in s.split("\n"):
			if l.begins_with("items = "):
				return l
		return ""
	t.check(items_line.call(written) != "" and items_line.call(written) == items_line.call(text),
			"written back as it was, beside the value set", written)
	t.check(written.contains("\nlevel = 8\n"), "and the value set", written)


func errors() -> void:
	var c := FastVarCodec.new()
	var res := c.parse_text_resource("[gd_resource type=\"Resource\" format=3]\n\n[resource]\nhp = Vector2(1, \n")
	t.check(res == null and c.get_error() == ERR_PARSE_ERROR and c.get_error_message().contains("line"),
			"a broken value: null, ERR_PARSE_ERROR with its line", c.get_error_message())
	res = c.load_text_resource("user://fvc_no_such_file.tres")
	t.check(res == null and c.get_error() == ERR_FILE_NOT_FOUND, "a missing file: the engine's open error",
			c.get_error_message())
	res = c.parse_text_resource("[gd_resource type=\"Resource\" format=3]\n\n[resource]\nhp = 10\n")
	if not t.check(res != null, "a small resource reads", c.get_error_message()):
		return
	t.check(res.get_value(1, "mp") == null and res.get_error() == ERR_DOES_NOT_EXIST, "a value it has not: ERR_DOES_NOT_EXIST",
			res.get_error_message())
	t.check(res.get_value(5, "hp") == null and res.get_error() == ERR_INVALID_PARAMETER, "a section it has not: ERR_INVALID_PARAMETER",
			res.get_error_message())
	var bad := FastVarResourceReference.new()
	bad.kind = "Resource"
	bad.id = "1"
	t.check(res.set_value(1, "ref", bad) == ERR_INVALID_PARAMETER and res.get_section_keys(1) == PackedStringArray(["hp"]),
			"a reference of another kind: ERR_INVALID_PARAMETER, nothing set", res.get_error_message())
	var ok := FastVarResourceReference.new()
	ok.kind = "ExtResource"
	ok.id = "1_x"
	t.check(res.set_value(1, "ref", ok) == OK and res.encode_to_text().ends_with("hp = 10\nref = ExtResource(\"1_x\")\n"),
			"a reference set is written as the file writes one", res.encode_to_text())
	t.check(res.find_entry(ok) == -1 and res.get_error() == ERR_DOES_NOT_EXIST, "an entry the file has not: -1, ERR_DOES_NOT_EXIST")


## The engine's loader loads the script a text resource names and runs its code; this reader
## keeps it as a reference and never loads it.
func a_script_runs_in_the_engine_and_not_here() -> void:
	var path := "user://fvc_text_resource_evil.tres"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string("[gd_resource type=\"Resource\" format=3]\n\n[ext_resource type=\"Script\" path=\"%s\" id=\"1_m\"]\n\n[resource]\nscript = ExtResource(\"1_m\")\nlevel = 3\n" % MARKER)
	f.close()
	var c := FastVarCodec.new()
	var res := c.load_text_resource(path)
	t.check(res != null and res.get_value(res.find_section("resource"), "level") == 3, "FastVarCodec reads it",
			c.get_error_message())
	t.check(not Engine.has_meta(&"fvc_loaded_marker_tres"), "and its script was never loaded")
	var loaded = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	t.check(Engine.has_meta(&"fvc_loaded_marker_tres"), "the engine's own ResourceLoader.load loads the script and runs its code",
			str(loaded))
	DirAccess.remove_absolute(path)
