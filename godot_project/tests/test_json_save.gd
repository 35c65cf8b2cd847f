extends RefCounted
## FastVarCodec.load_json_save and write_json_save against the engine: the text Godot 4.6.3's own
## JSON.stringify writes in every style, byte for byte, and read back as it was written; the text
## Godot 3.6.2's JSON.print wrote (res://golden/json_godot3_6_2.jsonl, made by that engine);
## files the engine encrypts, and files the engine decrypts; and the errors.

const Ctx := preload("res://tests/lib/ctx.gd")
const KEY := "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
const PATH := "user://fvc_json_save.json"

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	writes_and_reads_godot4_text()
	writes_godot3_text()
	encrypted_files()
	errors()
	DirAccess.remove_absolute(PATH)
	t.done()


## What games keep in a JSON save: JSON's own types, nested, with the characters that are escaped.
func saves() -> Array:
	return [
		{"hp": 10, "name": "Ada", "speed": 2.5, "alive": true, "pet": null},
		{"inventory": [{"id": 3, "count": 12}, {"id": 7, "count": 1}], "gold": 1234567890123,
			"pos": [1.5, -0.25, 1e-7], "flags": []},
		{"text": "quote \" backslash \\ tab \t line\nreturn\r é ü 漢 😀", "empty": {}, "zero": 0.0,
			"neg": -3, "big": 1.0e20, "third": 1.0 / 3.0},
		[1, 2.0, "3", [4, [5, {}]], false],
		"just a string",
		42,
		-0.5,
	]


func file_bytes(path: String) -> PackedByteArray:
	return FileAccess.get_file_as_bytes(path)


func store(path: String, text: String) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string(text)
	f.close()


## Every style of JSON.stringify: what write_json_save writes is the engine's text, byte for byte,
## and load_json_save reads it back as the value it was, with that style and as the engine's text.
func writes_and_reads_godot4_text() -> void:
	var c := FastVarCodec.new()
	var n := 0
	for value in saves():
		for indent in ["", "\t", "  "]:
			for sort_keys in [true, false]:
				for full_precision in [false, true]:
					var style := {"indent": indent, "sort_keys": sort_keys, "full_precision": full_precision}
					var what := "%s in %s" % [JSON.stringify(value).left(40), JSON.stringify(style)]
					var engines := JSON.stringify(value, indent, sort_keys, full_precision)
					var result := c.write_json_save(PATH, value, style)
					t.check(result == OK, what + ": written", c.get_error_message())
					t.check_bytes(file_bytes(PATH), engines.to_utf8_buffer(), what + ": JSON.stringify's text")
					var read := c.load_json_save(PATH)
					t.check(c.get_error() == OK, what + ": read", c.get_error_message())
					# The engine writes what was read as the text read: its ints as ints, its floats as floats.
					t.check(JSON.stringify(read.get("value"), indent, sort_keys, full_precision) == engines,
							what + ": read as the engine's JSON.stringify writes it back (ints stay ints)", str(read.get("value")))
					if full_precision and not sort_keys:
						t.check_same(read.get("value"), value, what + ": read back as it was")
					t.check(read.get("engine_text") == true, what + ": read as the engine's text")
					var found: Dictionary = read.get("style", {})
					t.check(found.get("dialect") == FastVarCodec.DIALECT_GODOT_4,
							what + ": Godot 4's writer", str(found))
					# The style found writes the same text (a dictionary of one key or none is
					# sorted either way, and a value without a float reads as either precision).
					t.check(c.write_json_save(PATH, read.value, found) == OK and file_bytes(PATH) == engines.to_utf8_buffer(),
							what + ": the style found writes the same text", str(found))
					n += 1
	t.check(n == saves().size() * 12, "every style written", str(n))
	# {} is JSON.stringify(value) with its defaults.
	var value: Dictionary = saves()[0]
	t.check(c.write_json_save(PATH, value, {}) == OK and file_bytes(PATH) == JSON.stringify(value).to_utf8_buffer(),
			"{}: JSON.stringify's defaults", FileAccess.get_file_as_string(PATH))


## Godot 3.6.2's JSON.print texts of the golden values: each value JSON holds as it is is
## written as that engine wrote it, in every style; the others are refused, not written as
## another value.
func writes_godot3_text() -> void:
	var c := FastVarCodec.new()
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	var lines := FileAccess.get_file_as_string("res://golden/json_godot3_6_2.jsonl").split("\n", false)
	t.check(lines.size() > 10, "Godot 3.6.2's JSON texts are there", str(lines.size()))
	var written := 0
	var refused := 0
	for line in lines.slice(1):
		var record: Dictionary = JSON.parse_string(line)
		if not record.has("texts"):
			continue  # a text JSON.parse read: the core's tests read those
		var value = c.decode(record.value.hex_decode())
		if c.get_error() != OK:
			continue
		# What Godot 3.6.2's JSON.parse read of its own text.
		var parsed = c.decode(record.parsed.hex_decode())
		for text in record.texts:
			var style := {"indent": text.indent, "sort_keys": text.sort_keys}
			var what := "Godot 3's %s in %s" % [record.name, JSON.stringify(style)]
			var result := c.write_json_save(PATH, value, style)
			if result == OK:
				written += 1
				t.check_bytes(file_bytes(PATH), text.text.hex_decode(), what + ": JSON.print's text")
				var read := c.load_json_save(PATH)
				t.check(c.get_error() == OK and read.engine_text and read.style.dialect == FastVarCodec.DIALECT_GODOT_3,
						what + ": read as Godot 3's text", c.get_error_message() + str(read.get("style")))
				# The style found writes the same text (an indent shows only in a container).
				t.check(c.write_json_save(PATH, read.value, read.style) == OK and file_bytes(PATH) == text.text.hex_decode(),
						what + ": the style found writes the same text", str(read.get("style")))
			else:
				refused += 1
				t.check(result == ERR_INVALID_PARAMETER and not Ctx.same(parsed, value),
						what + ": refused, as a value Godot 3's JSON.parse reads back as another",
						"%s: %s" % [error_string(result), c.get_error_message()])
	t.check(written > 50 and refused > 10, "written and refused", "%d written, %d refused" % [written, refused])


## The engine's encrypted files read, and the ones written read by the engine.
func encrypted_files() -> void:
	var c := FastVarCodec.new()
	var value: Dictionary = saves()[1]
	var text := JSON.stringify(value, "\t", false)
	var f := FileAccess.open_encrypted_with_pass(PATH, FileAccess.WRITE, "hunter2")
	f.store_string(text)
	f.close()
	var read := c.load_json_save(PATH, "hunter2")
	t.check(c.get_error() == OK, "the engine's open_encrypted_with_pass file: read", c.get_error_message())
	t.check_same(read.get("value"), value, "its value")
	t.check(read.get("style", {}).get("indent") == "\t", "its indent", str(read.get("style")))
	read = c.load_json_save(PATH)
	t.check(read.is_empty() and c.get_error() == ERR_UNAUTHORIZED, "without its password: {}, ERR_UNAUTHORIZED",
			c.get_error_message())
	read = c.load_json_save(PATH, "hunter3")
	t.check(read.is_empty() and c.get_error() == ERR_FILE_CORRUPT, "with a wrong one: {}, ERR_FILE_CORRUPT",
			c.get_error_message())
	t.check(c.write_json_save(PATH, value, {"indent": "  "}, "hunter2") == OK, "written with a password",
			c.get_error_message())
	f = FileAccess.open_encrypted_with_pass(PATH, FileAccess.READ, "hunter2")
	t.check(f != null and f.get_as_text() == JSON.stringify(value, "  "),
			"the engine's open_encrypted_with_pass reads it", "cannot open" if f == null else f.get_as_text())
	if f != null:
		f.close()
	t.check(c.write_json_save(PATH, value, {}, "", KEY.hex_decode()) == OK, "written with a key", c.get_error_message())
	f = FileAccess.open_encrypted(PATH, FileAccess.READ, KEY.hex_decode())
	t.check(f != null and f.get_as_text() == JSON.stringify(value), "the engine's open_encrypted reads it")
	if f != null:
		f.close()
	read = c.load_json_save(PATH, "", KEY.hex_decode())
	t.check(c.get_error() == OK and JSON.stringify(read.get("value")) == JSON.stringify(value),
			"and so does load_json_save", c.get_error_message())


func errors() -> void:
	var c := FastVarCodec.new()
	store(PATH, "{\n\t\"hp\": 10,\n\t\"pos\": [1, 2\n}")
	var read := c.load_json_save(PATH)
	t.check(read.is_empty() and c.get_error() == ERR_PARSE_ERROR and c.get_error_message().contains("line 4"),
			"text that is not JSON: {}, ERR_PARSE_ERROR with its line", c.get_error_message())
	read = c.load_json_save("user://fvc_no_such_save.json")
	t.check(read.is_empty() and c.get_error() == ERR_FILE_NOT_FOUND, "a missing file: the engine's open error",
			c.get_error_message())
	var before := "{\"hp\":10}"
	store(PATH, before)
	var result := c.write_json_save(PATH, {"hp": 11, "pos": Vector2(1, 2)}, {})
	t.check(result == ERR_INVALID_PARAMETER and c.get_error_message().contains("pos"),
			"a Vector2 (the engine writes it as a String): ERR_INVALID_PARAMETER naming its place", c.get_error_message())
	t.check(FileAccess.get_file_as_string(PATH) == before, "and the file is as it was")
	result = c.write_json_save(PATH, {"hp": NAN}, {})
	t.check(result == ERR_INVALID_PARAMETER, "a NaN (the engine writes null): ERR_INVALID_PARAMETER", c.get_error_message())
	result = c.write_json_save(PATH, {"hp": 11}, {"indnet": "\t"})
	t.check(result == ERR_INVALID_PARAMETER and c.get_error_message().contains("indnet"),
			"a style key that is none: ERR_INVALID_PARAMETER naming it", c.get_error_message())
	result = c.write_json_save(PATH, {"hp": 11}, {"dialect": 99})
	t.check(result == ERR_INVALID_PARAMETER, "a dialect that is none: ERR_INVALID_PARAMETER", c.get_error_message())
	result = c.write_json_save(PATH, {"hp": 11}, {}, "hunter2", KEY.hex_decode())
	t.check(result == ERR_INVALID_PARAMETER, "a password and a key: ERR_INVALID_PARAMETER", c.get_error_message())
	t.check(FileAccess.get_file_as_string(PATH) == before, "and the file is still as it was")
