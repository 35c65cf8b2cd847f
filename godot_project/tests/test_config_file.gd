extends RefCounted
## FastVarCodec.load_config_file and parse_config_file against the engine's own ConfigFile: the
## same values from files the engine saved (plain, and encrypted with a password or a key, and a
## file Godot 3.6.2 encrypted, which Godot 4 cannot open), the errors of a wrong password and of
## text that is not a ConfigFile, objects made only when admitted, and a file carrying a script,
## which the engine's ConfigFile.load runs and FastVarCodec's refuses.

const Ctx := preload("res://tests/lib/ctx.gd")
const TextTests := preload("res://tests/test_text.gd")
const MARKER := "res://tests/fixtures/static_init/marker_config.gd"
const KEY := "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	reads_what_the_engine_saves()
	opens_encrypted_files()
	opens_a_godot3_encrypted_file()
	text_that_is_not_a_config_file()
	admitted_objects_are_made()
	a_script_runs_in_the_engine_and_not_here()
	t.done()


func engine_config() -> ConfigFile:
	var cfg := ConfigFile.new()
	var i := 0
	for v in TextTests.new().values():
		if v != null:
			cfg.set_value("values", "v%d" % i, v)
		i += 1
	cfg.set_value("", "top", 1)
	cfg.set_value("names", "a key with spaces", "x")
	cfg.set_value("br]acket", "ü", [1, 2])
	return cfg


## Every entry as the engine's own load reads it: same sections, keys, types and values.
func same_as_engine(ours: ConfigFile, engines: ConfigFile, what: String) -> void:
	t.check(ours != null, what + ": read", func(): return "null")
	if ours == null:
		return
	t.check(ours.get_sections() == engines.get_sections(), what + ": the same sections",
			func(): return "%s vs %s" % [ours.get_sections(), engines.get_sections()])
	for section in engines.get_sections():
		for key in engines.get_section_keys(section):
			var a = ours.get_value(section, key, null)
			var b = engines.get_value(section, key)
			if typeof(b) == TYPE_OBJECT:  # two instances: the same class and properties
				t.check(a is Object and a.get_class() == b.get_class() and var_to_str(a) == var_to_str(b),
						"%s: [%s] %s as the engine reads it" % [what, section, key],
						func(): return "%s (engine: %s)" % [var_to_str(a), var_to_str(b)])
				continue
			t.check(typeof(a) == typeof(b) and (a == b or var_to_str(a) == var_to_str(b)), "%s: [%s] %s as the engine reads it" % [what, section, key],
					func(): return "%s (engine: %s)" % [var_to_str(a), var_to_str(b)])


func reads_what_the_engine_saves() -> void:
	var path := "user://fvc_config_plain.cfg"
	t.check(engine_config().save(path) == OK, "the engine saves a ConfigFile")
	var engines := ConfigFile.new()
	engines.load(path)
	var c := FastVarCodec.new()
	same_as_engine(c.load_config_file(path), engines, "a plain file")
	t.check(c.get_error() == OK, "and the codec reports OK", c.get_error_message())
	same_as_engine(c.parse_config_file(FileAccess.get_file_as_string(path)), engines, "its text")
	DirAccess.remove_absolute(path)


func opens_encrypted_files() -> void:
	var path := "user://fvc_config_encrypted.cfg"
	var cfg := engine_config()
	cfg.save(path)
	var engines := ConfigFile.new()
	engines.load(path)
	var c := FastVarCodec.new()
	cfg.save_encrypted_pass(path, "hunter2")
	same_as_engine(c.load_config_file(path, "hunter2"), engines, "save_encrypted_pass's file")
	var none = c.load_config_file(path)
	t.check(none == null and c.get_error() == ERR_UNAUTHORIZED, "without its password: null, ERR_UNAUTHORIZED",
			c.get_error_message())
	var wrong = c.load_config_file(path, "hunter3")
	t.check(wrong == null and c.get_error() == ERR_FILE_CORRUPT, "with a wrong one: null, ERR_FILE_CORRUPT",
			c.get_error_message())
	cfg.save_encrypted(path, KEY.hex_decode())
	same_as_engine(c.load_config_file(path, "", KEY.hex_decode()), engines, "save_encrypted's file")
	var both = c.load_config_file(path, "hunter2", KEY.hex_decode())
	t.check(both == null and c.get_error() == ERR_INVALID_PARAMETER, "a password and a key: ERR_INVALID_PARAMETER",
			c.get_error_message())
	DirAccess.remove_absolute(path)


## Godot 3.6.2's save_encrypted_pass file (res://saves/godot3_6_2/, made by that engine):
## Godot 4's ConfigFile cannot open its container; FastVarCodec reads it as the engine reads
## the plain file the same engine saved.
func opens_a_godot3_encrypted_file() -> void:
	const DIR := "res://saves/godot3_6_2/"
	var sidecar = JSON.parse_string(FileAccess.get_file_as_string(DIR + "config_encrypted_pass.json"))
	t.check(sidecar is Dictionary, "the Godot 3 fixture's sidecar is there")
	if not sidecar is Dictionary:
		return
	var path := DIR + "config_encrypted_pass.cfg"
	var engines := ConfigFile.new()
	engines.load(DIR + "config_plain.cfg")
	t.check(ConfigFile.new().load_encrypted_pass(path, sidecar["password"]) != OK,
			"Godot 4's ConfigFile cannot open Godot 3's encrypted file")
	var c := FastVarCodec.new()
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	c.allow_objects = true
	c.allowed_classes = PackedStringArray(["Curve"])
	same_as_engine(c.load_config_file(path, sidecar["password"]), engines, "Godot 3's encrypted file")


func text_that_is_not_a_config_file() -> void:
	var c := FastVarCodec.new()
	var v = c.parse_config_file("[s]\nhp=10\npos=Vector2(1, \n")
	t.check(v == null and c.get_error() == ERR_PARSE_ERROR and c.get_error_message().contains("line 4"),
			"a broken value: null, ERR_PARSE_ERROR with its line", c.get_error_message())
	v = c.parse_config_file("[s\nhp=10\n")
	t.check(v == null and c.get_error() == ERR_PARSE_ERROR, "a section without its ']'", c.get_error_message())
	var missing = c.load_config_file("user://fvc_no_such_file.cfg")
	t.check(missing == null and c.get_error() == ERR_FILE_NOT_FOUND, "a missing file: the engine's open error",
			c.get_error_message())


## Settings often hold objects of engine classes (key bindings, curves): made when admitted.
func admitted_objects_are_made() -> void:
	var path := "user://fvc_config_objects.cfg"
	var cfg := ConfigFile.new()
	var key := InputEventKey.new()
	key.keycode = KEY_SPACE
	cfg.set_value("input", "jump", key)
	cfg.set_value("input", "volume", 0.5)
	cfg.save(path)
	var c := FastVarCodec.new()
	t.check(c.load_config_file(path) == null and c.get_error() == ERR_UNAUTHORIZED,
			"an InputEventKey without allow_objects: refused", c.get_error_message())
	c.allow_objects = true
	c.allowed_classes = PackedStringArray(["InputEventKey"])
	var ours := c.load_config_file(path)
	t.check(ours != null, "admitted, it reads", c.get_error_message())
	if ours != null:
		var jump = ours.get_value("input", "jump")
		t.check(jump is InputEventKey and jump.keycode == KEY_SPACE and ours.get_value("input", "volume") == 0.5,
				"the InputEventKey as saved", func(): return var_to_str(jump))
	DirAccess.remove_absolute(path)


## The same file twice: FastVarCodec refuses it and loads nothing; the engine's ConfigFile.load
## then loads the script, whose static initializer runs (the code a downloaded save would run).
func a_script_runs_in_the_engine_and_not_here() -> void:
	var path := "user://fvc_config_evil.cfg"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string("[save]\nhp=10\nplayer=Object(Resource,\"script\":Resource(\"%s\"))\n" % MARKER)
	f.close()
	var c := FastVarCodec.new()
	var v = c.load_config_file(path)
	t.check(v == null and c.get_error() == ERR_UNAUTHORIZED,
			"FastVarCodec refuses a ConfigFile carrying an object by default",
			func(): return "%s %s" % [v, c.get_error_message()])
	c.allow_objects = true
	c.allowed_classes = PackedStringArray(["Resource"])
	v = c.load_config_file(path)
	t.check(v == null and c.get_error() == ERR_UNAUTHORIZED,
			"and with its class admitted, its script still is not",
			func(): return "%s %s" % [v, c.get_error_message()])
	t.check(not Engine.has_meta(&"fvc_loaded_marker_config"), "and its script was never loaded")
	var engines := ConfigFile.new()
	var err := engines.load(path)
	t.check(Engine.has_meta(&"fvc_loaded_marker_config"),
			"the engine's own ConfigFile.load loads the script and runs its code",
			func(): return "engine: %s" % error_string(err))
	DirAccess.remove_absolute(path)
