extends SceneTree
## Runs the text_resource snippet of docs/gdscript.md on a save Godot's own ResourceSaver wrote
## (a script, two items inside it): the titles it lists, and the level that Godot's own
## ResourceLoader then loads.

const Lib := preload("res://snippet_checks/lib.gd")
const Save := preload("res://tres/save.gd")
const Item := preload("res://tres/item.gd")
const PATH := "user://fvc_snippet_save.tres"

var t := Lib.new()


func _initialize() -> void:
	var save := Save.new()
	save.level = 7
	for title in ["sword", "potion"]:
		var item := Item.new()
		item.title = title
		save.items.append(item)
	t.check(ResourceSaver.save(save, PATH) == OK, "Godot saves the text resource")
	var titles: PackedStringArray = Lib.snippet("text_resource").level_up(PATH)
	t.check(titles == PackedStringArray(["sword", "potion"]), "the snippet lists the items' titles", str(titles))
	var loaded: Resource = ResourceLoader.load(PATH, "", ResourceLoader.CACHE_MODE_IGNORE)
	t.check(loaded != null and loaded.level == 8 and loaded.items.size() == 2 and loaded.items[1].title == "potion",
			"Godot loads the level the snippet set, the rest as it was", str(loaded.level if loaded else null))
	DirAccess.remove_absolute(PATH)
	quit(t.finish("text_resource"))
