extends SceneTree
## Runs the godot3_config snippet of docs/godot3.md on the encrypted ConfigFiles real Godot 3.6.2
## and 3.2.3 engines saved (tests/saves/): every section and key the engine read back is there,
## with its int and bool values.

const Lib := preload("res://snippet_checks/lib.gd")

var t := Lib.new()


func _initialize() -> void:
	var load_config: Callable = Lib.snippet("godot3_config").load_godot3_config
	for engine in ["godot3_6_2", "godot3_2_3"]:
		var dir := "res://saves/%s/" % engine
		var sidecar = JSON.parse_string(FileAccess.get_file_as_string(dir + "config_encrypted_pass.json"))
		if not t.check(sidecar is Dictionary, "%s config_encrypted_pass.json" % engine):
			continue
		var config: ConfigFile = load_config.call(dir + "config_encrypted_pass.cfg", sidecar["password"])
		if not t.check(config != null, "%s: the snippet read the ConfigFile" % engine):
			continue
		for section in sidecar["sections"]:
			var name := hex_text(section["name"])
			t.check(config.has_section(name), "%s: section %s" % [engine, name])
			for k in section["keys"]:
				var key := hex_text(k["key"])
				if not k.get("same_as_written", false):
					continue
				t.check(config.has_section_key(name, key), "%s: %s/%s" % [engine, name, key])
				var d: Dictionary = k["value"]
				if d["t"] in ["int", "bool"]:
					t.check(str(config.get_value(name, key)).to_lower() == str(d["v"]).to_lower(),
							"%s: %s/%s" % [engine, name, key], "%s, the engine read %s" % [config.get_value(name, key), d["v"]])
	quit(t.finish("godot3_config"))


func hex_text(hex: String) -> String:
	return hex.hex_decode().get_string_from_utf8()
