extends SceneTree
## Writes what Godot 4's JSON.stringify writes for JSON-shaped values in every style (indent,
## sort_keys, full_precision), and how JSON.parse reads texts, for the core's JSON saves
## (rust/codec/tests/json_save.rs):
##   godot --headless --path <this dir> -s res://json.gd -- TEXTS OUTFILE
## TEXTS is ../json_texts.json (an array of texts). OUTFILE has one JSON object per line after a
## head line naming the engine:
##   {"name", "value": <hex of var_to_bytes(value)>, "texts": [{"indent", "sort_keys",
##    "full_precision", "text": <hex of its UTF-8>}, ...], "parsed": <hex of
##    var_to_bytes(JSON.parse_string(JSON.stringify(value)))>}
##   {"read": <hex of a text's UTF-8>, "error": <JSON.parse's error code>, "message": <its
##    message>, "parsed": <hex of var_to_bytes of what it read>, "" when it failed}
## (Texts are hex: the engine's JSON.stringify writes control characters as they are.)


func values() -> Dictionary:
	var strings := ""
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
		"float_inf": INF, "float_negative_inf": -INF,
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


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	var out := FileAccess.open(args[1], FileAccess.WRITE)
	out.store_line(JSON.stringify({"engine": Engine.get_version_info().string}))
	var all := values()
	for name in all:
		var value = all[name]
		var texts := []
		for indent in ["", "\t", "  ", "    "]:
			for sort_keys in [true, false]:
				for full in [false, true]:
					texts.append({"indent": indent, "sort_keys": sort_keys, "full_precision": full,
						"text": JSON.stringify(value, indent, sort_keys, full).to_utf8_buffer().hex_encode()})
		out.store_line(JSON.stringify({"name": name, "value": var_to_bytes(value).hex_encode(),
			"texts": texts, "parsed": var_to_bytes(JSON.parse_string(JSON.stringify(value))).hex_encode()}))
	var texts = JSON.parse_string(FileAccess.get_file_as_string(args[0]))
	for text in texts:
		var json := JSON.new()
		var error := json.parse(text)
		out.store_line(JSON.stringify({"read": text.to_utf8_buffer().hex_encode(), "error": error, "message": json.get_error_message(),
			"parsed": var_to_bytes(json.data).hex_encode() if error == OK else ""}))
	out.close()
	print("json.gd: done")
	quit()
