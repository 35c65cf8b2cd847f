extends SceneTree
## Writes what Godot 3's JSON.print writes for JSON-shaped values in every style (indent,
## sort_keys), and how JSON.parse reads texts, for the core's JSON saves
## (rust/codec/tests/json_save.rs):
##   godot --no-window --path <this dir> -s res://json.gd TEXTS OUTFILE
## TEXTS is ../json_texts.json (an array of texts). OUTFILE has one JSON object per line after a
## head line naming the engine:
##   {"name", "value": <hex of var2bytes(value)>, "texts": [{"indent", "sort_keys", "text": <hex
##    of its UTF-8>}, ...], "parsed": <hex of var2bytes(JSON.parse(JSON.print(value)).result)>}
##   {"read": <hex of a text's UTF-8>, "error": <JSON.parse's error code>, "message": <its
##    message>, "parsed": <hex of var2bytes of what it read>, "" when it failed}
## (Texts are hex: the engine's JSON.print writes control characters as they are.)


func values():
	var strings = ""
	for c in range(1, 0x80):
		strings += char(c)
	return {
		"zero": 0, "int": 42, "negative": -7, "int_2_53_plus_1": 9007199254740993,
		"int_max": 9223372036854775807, "int_min": -9223372036854775807 - 1,
		"float_zero": 0.0, "float_negative_zero": -0.0, "float_ten": 10.0, "float_half": 1.5,
		"float_tenth": 0.1, "float_third": 1.0 / 3.0, "float_sum": 0.1 + 0.2,
		"float_100_25": 100.25, "float_1e14": 1e14, "float_1e15": 1e15, "float_1e16": 1e16,
		"float_1_5e16": 1.5e16, "float_1e20": 1e20, "float_1e100": 1e100, "float_1e300": 1e300,
		"float_1e-4": 1e-4, "float_1e-5": 1e-5, "float_1_2345e-7": 1.2345e-7, "float_2_5e-10": 2.5e-10,
		"float_1_23e-25": 1.2345678901234e-25, "float_1e-33": 1e-33, "float_min_subnormal": 5e-324,
		"float_max": 1.7976931348623157e308, "float_9_99e14": 999999999999999.9,
		"float_99999999999999_99": 99999999999999.99, "float_big": 12345678901234567890.0,
		"float_pi": PI, "float_neg_pi": -PI, "float_123456789": 123456789.123456789,
		"float_1234_5678": 1234.5678, "float_0_000123": 0.000123, "float_7e22": 7e22,
		"float_0_0000005": 0.0000005, "float_0_0000015": 0.0000015, "float_2_5000005": 2.5000005,
		"true": true, "false": false, "null": null,
		"string_empty": "", "string_ascii": strings, "string_unicode": "é ü 😀 " + char(0x2028) + char(0xfeff),
		"array_empty": [], "dictionary_empty": {},
		"array_mixed": [1, 2.0, "x", null, true, {}, [], [[]], {"k": []}],
		"dictionary_unsorted": {"b": 1, "a": 2, "C": 3, "é": 4, "": 5, "a b": 6, "10": 7, "9": 8},
		"save": {
			"version": 3, "player": {"name": "Ada", "hp": 100, "speed": 2.5, "pos": [1.5, -2.25],
				"inventory": [{"id": "sword", "count": 1}, {"id": "potion", "count": 12}], "buffs": {}},
			"flags": {"door_open": true, "boss": null}, "seed": 1234567890123, "played": 3600.75,
			"scores": [10, 9.5, -3, 1e-3], "z_last": "end", "a_first": [],
		},
	}


func _init():
	var args = OS.get_cmdline_args()
	var texts_file = args[args.size() - 2]
	var out = File.new()
	out.open(args[args.size() - 1], File.WRITE)
	out.store_line(JSON.print({"engine": Engine.get_version_info().string}))
	var all = values()
	for name in all:
		var value = all[name]
		var texts = []
		for indent in ["", "\t", "  ", "    "]:
			for sort_keys in [false, true]:
				texts.append({"indent": indent, "sort_keys": sort_keys,
					"text": JSON.print(value, indent, sort_keys).to_utf8().hex_encode()})
		out.store_line(JSON.print({"name": name, "value": var2bytes(value).hex_encode(),
			"texts": texts, "parsed": var2bytes(JSON.parse(JSON.print(value)).result).hex_encode()}))
	var f = File.new()
	f.open(texts_file, File.READ)
	var texts = JSON.parse(f.get_as_text()).result
	f.close()
	for text in texts:
		var read = JSON.parse(text)
		var parsed = ""
		if read.error == OK:
			parsed = var2bytes(read.result).hex_encode()
		out.store_line(JSON.print({"read": text.to_utf8().hex_encode(), "error": read.error,
			"message": read.error_string, "parsed": parsed}))
	out.close()
	print("json.gd: done")
	quit()
