extends SceneTree
## Runs the godot3_write_encrypted snippet of docs/godot3.md: the file it writes is Godot 3's
## encrypted container (GDEC), and reading it back as a Godot 3 save (read_godot3_save, checked
## against the saves real Godot 3 engines wrote) gives the values, in order.

const Lib := preload("res://snippet_checks/lib.gd")

var t := Lib.new()


func _initialize() -> void:
	var save: Callable = Lib.snippet("godot3_write_encrypted").save_for_godot3
	var path := OS.get_user_data_dir().path_join("snippet_for_godot3.save")
	var values := [42, "hello", Vector2(1, 2), {"hp": 10, "items": ["key"]}, PackedByteArray([1, 2, 3]), Color(1, 0, 0)]
	t.check(save.call(path, values, "secret") == OK, "the snippet writes the file")
	var bytes := FileAccess.get_file_as_bytes(path)
	t.check(bytes.slice(0, 4).get_string_from_ascii() == "GDEC", "Godot 3's encrypted container")
	var codec := FastVarCodec.new()
	var back := codec.read_godot3_save(path, "secret")
	t.check(codec.get_error() == OK and back.size() == values.size(), "read back", codec.get_error_message())
	for i in mini(back.size(), values.size()):
		t.check(var_to_bytes(back[i]) == var_to_bytes(values[i]), "value %d" % i, "%s != %s" % [back[i], values[i]])
	DirAccess.remove_absolute(path)
	quit(t.finish("godot3_write_encrypted"))
