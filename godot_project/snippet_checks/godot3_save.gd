extends SceneTree
## Runs the README's godot3_save snippet on the save files real Godot 3.6.2 and 3.2.3 engines
## wrote (tests/saves/, linked as res://saves): every container gives the values the engine
## read back (their count and scalars, from each file's sidecar).

const Lib := preload("res://snippet_checks/lib.gd")

var t := Lib.new()


func _initialize() -> void:
	var load_save: Callable = Lib.snippet("godot3_save").load_godot3_save
	for engine in ["godot3_6_2", "godot3_2_3"]:
		for kind in ["plain", "compressed_fastlz", "compressed_deflate", "compressed_zstd", "compressed_gzip", "encrypted_pass"]:
			var dir := "res://saves/%s/" % engine
			var sidecar = JSON.parse_string(FileAccess.get_file_as_string(dir + kind + ".json"))
			if not t.check(sidecar is Dictionary, "%s/%s.json" % [engine, kind]):
				continue
			var expected: Array = sidecar["values"]
			var values: Array = load_save.call(dir + kind + ".bin", sidecar.get("password", ""))
			t.check(values.size() == expected.size(), "%s %s: every value" % [engine, kind],
					"%d of %d" % [values.size(), expected.size()])
			for i in mini(values.size(), expected.size()):
				var e: Dictionary = expected[i]
				var d: Dictionary = e["value"]
				if d["t"] in ["int", "bool"]:
					t.check(str(values[i]).to_lower() == str(d["v"]).to_lower(),
							"%s %s: %s" % [engine, kind, e["name"]], "%s, the engine read %s" % [values[i], d["v"]])
	quit(t.finish("godot3_save"))
