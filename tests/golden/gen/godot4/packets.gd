extends SceneTree
## Writes what Godot 4's PackedByteArray.compress gives for values and byte patterns, and what
## its decompress and decompress_dynamic give back from those packets, for the core's packet
## compression (rust/codec/tests/packets.rs):
##   godot --headless --path <this dir> -s res://packets.gd -- OUTFILE
## One JSON object per line after a head line naming the engine: {"name", "mode" (the
## compression mode's number), "data": <hex of the bytes compressed> or "pattern": n (byte i of
## n is (i * 7 + i / 300) % 251), "value": whether data is var_to_bytes of a value, "packet":
## <hex of data.compress(mode)>, "decompress": [[buffer_size, <packet.decompress(buffer_size,
## mode)>], ...], "dynamic": [[max_output_size, <packet.decompress_dynamic(max_output_size,
## mode)>], ...]}, each result "=" when it is data, else its hex: "" for a failed call (the
## engine prints its error and returns nothing).


func pattern(n: int) -> PackedByteArray:
	var out := PackedByteArray()
	out.resize(n)
	for i in n:
		out[i] = (i * 7 + i / 300) % 251
	return out


func sizes(n: int) -> Array:
	# Too small by one, exact, larger, and (dynamic only) no limit; never 0, which the engine refuses.
	var out := [n + 10]
	if n > 0:
		out.push_front(n)
	if n > 1:
		out.push_front(n - 1)
	return out


func result(got: PackedByteArray, data: PackedByteArray) -> String:
	return "=" if got == data and not got.is_empty() else got.hex_encode()


func case(out: FileAccess, name: String, data: PackedByteArray, value: bool, patterned := false) -> void:
	for mode in [FileAccess.COMPRESSION_FASTLZ, FileAccess.COMPRESSION_DEFLATE,
			FileAccess.COMPRESSION_ZSTD, FileAccess.COMPRESSION_GZIP]:
		var packet := data.compress(mode)
		var decompressed := []
		var dynamic := []
		if not packet.is_empty():
			for size in sizes(data.size()):
				decompressed.append([size, result(packet.decompress(size, mode), data)])
			for size in sizes(data.size()) + [-1]:
				dynamic.append([size, result(packet.decompress_dynamic(size, mode), data)])
		var line := {"name": name, "mode": mode, "value": value, "packet": packet.hex_encode(),
			"decompress": decompressed, "dynamic": dynamic}
		if patterned:
			line["pattern"] = data.size()
		else:
			line["data"] = data.hex_encode()
		out.store_line(JSON.stringify(line))


func _init() -> void:
	var out := FileAccess.open(OS.get_cmdline_user_args()[0], FileAccess.WRITE)
	out.store_line(JSON.stringify({"engine": Engine.get_version_info().string}))
	var values := {
		"int": 42,
		"float": 1.5,
		"string": "hello, hello, hello, hello",
		"vector2": Vector2(1, 2),
		"color": Color(0.25, 0.5, 0.75, 1.0),
		"dictionary": {"name": "player", "hp": 100, "position": Vector3(1, 2, 3), "items": ["a", "b"]},
		"array": range(300),
		"packed_floats": PackedFloat32Array(range(1000)),
		"long_string": "abc".repeat(3000),
	}
	for name in values:
		case(out, name, var_to_bytes(values[name]), true)
	case(out, "empty", PackedByteArray(), false)
	case(out, "three_bytes", PackedByteArray([1, 2, 3]), false)
	case(out, "sixteen_bytes", pattern(16), false, true)
	case(out, "pattern_65535", pattern(65535), false, true)
	case(out, "pattern_70000", pattern(70000), false, true)
	out.close()
	quit()
