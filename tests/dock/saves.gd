extends RefCounted
## What the Saves dock test writes, edits and expects, shared by its three parts: Godot 4.6.3
## writing the saves (write_saves.gd), the editor driving the dock (dock_test/dock_test.gd) and
## Godot 4.6.3 reading back what the dock saved (read_back.gd). Godot 3.6.2's part
## (tests/saves/check3/dock_saves.gd) writes and reads the Godot 3 files, with the same values and edits.

const PASSWORD := "fvc secret ✓"
const CLASSES := ["Curve"]


## The encryption key of the fixtures: byte i is (7 i + 3) mod 256.
static func key() -> PackedByteArray:
	var k := PackedByteArray()
	for i in 32:
		k.append((7 * i + 3) % 256)
	return k


## The values Godot 4.6.3 writes into each of its store_var files.
static func values4() -> Array:
	return [
		{"name": "hero", "gold": 10, "position": Vector2(1.5, -2), "inventory": ["sword", "shield"]},
		PackedInt32Array([1, 2, 3]),
		3.5,
		Color(0.25, 0.5, 0.75, 1),
	]


## Each edit the dock makes in Godot 4's store_var files: where, the value before, after.
static func edits4() -> Array:
	return [[[0, "gold"], 10, 11], [[1, 2], 3, 30], [[0, "inventory", 1], "shield", "bow"]]


## The values after the edits.
static func edited4() -> Array:
	var v := values4()
	v[0]["gold"] = 11
	v[1] = PackedInt32Array([1, 2, 30])
	v[0]["inventory"][1] = "bow"
	return v


## The ConfigFile Godot 4.6.3 saves.
static func config4() -> ConfigFile:
	var c := ConfigFile.new()
	c.set_value("player", "name", "hero")
	c.set_value("player", "volume", 0.8)
	c.set_value("player", "keys", PackedStringArray(["a", "b", "c"]))
	c.set_value("world", "seed", 1234)
	return c


static func config_edits() -> Array:
	return [[["player", "volume"], 0.8, 0.5], [["player", "keys", 1], "b", "d"]]


## The JSON save Godot 4.6.3 writes (store_string(JSON.stringify(json4(), indent, false))).
static func json4() -> Dictionary:
	return {"name": "hero", "gold": 10, "speed": 2.5, "inventory": ["sword", "shield"], "level": {"id": 3}}


## Each edit the dock makes in the JSON saves (the save is the dock's one value, [0]).
static func json_edits() -> Array:
	return [[[0, "gold"], 10, 11], [[0, "inventory", 1], "shield", "bow"], [[0, "speed"], 2.5, 3.25]]


## The JSON save after the edits.
static func json_edited4() -> Dictionary:
	var v := json4()
	v["gold"] = 11
	v["inventory"][1] = "bow"
	v["speed"] = 3.25
	return v


## Godot 4's JSON saves: plain with tabs, and encrypted on one line.
static func jsons4() -> Array:
	return [
		{"file": "save.json", "container": "plain", "indent": "\t"},
		{"file": "save_pass.json", "container": "encrypted", "password": PASSWORD, "indent": ""},
	]


## How a JSON save of Godot 4 is opened by the engine itself.
static func open_json4(entry: Dictionary, mode: FileAccess.ModeFlags) -> FileAccess:
	var path: String = "user://" + entry.file
	if entry.has("password"):
		return FileAccess.open_encrypted_with_pass(path, mode, entry.password)
	return FileAccess.open(path, mode)


## The text resource Godot 4.6.3's ResourceSaver writes: a Resource, its values as metadata
## (the dock test's project has no scripts of its own).
static func tres4() -> Resource:
	var r := Resource.new()
	r.resource_name = "hero save"
	r.set_meta("gold", 10)
	r.set_meta("inventory", ["sword", "shield"])
	r.set_meta("speed", 2.5)
	return r


## Each edit the dock makes in the text resource: [section, value name, inside], before, after
## (section 1 is the [resource], after the header).
static func tres_edits() -> Array:
	return [[[1, "metadata/gold"], 10, 11], [[1, "metadata/inventory", 1], "shield", "bow"], [[1, "resource_name"], "hero save", "hero"]]


const TRES4 := "save.tres"


## Godot 4's files: name, how it is written and opened (container, compression mode, secret).
static func files4() -> Array:
	return [
		{"file": "g4_plain.sav", "container": "plain"},
		{"file": "g4_fastlz.sav", "container": "compressed", "mode": FileAccess.COMPRESSION_FASTLZ},
		{"file": "g4_deflate.sav", "container": "compressed", "mode": FileAccess.COMPRESSION_DEFLATE},
		{"file": "g4_zstd.sav", "container": "compressed", "mode": FileAccess.COMPRESSION_ZSTD},
		{"file": "g4_gzip.sav", "container": "compressed", "mode": FileAccess.COMPRESSION_GZIP},
		{"file": "g4_pass.sav", "container": "encrypted", "password": PASSWORD},
		{"file": "g4_key.sav", "container": "encrypted", "key": true},
	]


static func configs4() -> Array:
	return [
		{"file": "settings.cfg", "container": "plain"},
		{"file": "settings_pass.cfg", "container": "encrypted", "password": PASSWORD},
	]


## The saves Godot 3.6.2 writes (tests/saves/check3/dock_saves.gd) into user://godot3/, with values4()'s
## values in Godot 3's types: edits4() applies.
static func files3() -> Array:
	return [
		{"file": "godot3/g3_plain.sav", "container": "plain"},
		{"file": "godot3/g3_fastlz.sav", "container": "compressed"},
		{"file": "godot3/g3_deflate.sav", "container": "compressed"},
		{"file": "godot3/g3_zstd.sav", "container": "compressed"},
		{"file": "godot3/g3_gzip.sav", "container": "compressed"},
		{"file": "godot3/g3_pass.sav", "container": "encrypted", "password": PASSWORD},
		{"file": "godot3/g3_key.sav", "container": "encrypted", "key": true},
	]


## Godot 3.6.2's fixture of every value (tests/saves/godot3_6_2/plain.bin), copied beside them:
## full Curves and objects written as ids, which open (Curve listed) read only.
const MIXED_OBJECTS3 := "godot3/fixture_plain.bin"


## How a file of Godot 4 is opened by the engine itself.
static func open4(entry: Dictionary, mode: FileAccess.ModeFlags) -> FileAccess:
	var path: String = "user://" + entry.file
	match entry.container:
		"compressed":
			return FileAccess.open_compressed(path, mode, entry.mode)
		"encrypted":
			if entry.has("password"):
				return FileAccess.open_encrypted_with_pass(path, mode, entry.password)
			return FileAccess.open_encrypted(path, mode, key())
	return FileAccess.open(path, mode)
