extends SceneTree
# Godot 3's side of tests/golden/gen/godot4/packets.gd (read its head for the output): what
# PoolByteArray.compress gives, and decompress and decompress_dynamic give back, for
# rust/codec/tests/packets.rs.
#   godot3-server --no-window --path <this dir> -s res://packets.gd OUTFILE.jsonl
# Ends its output with "packets.gd: done" once OUTFILE is written.


func pattern(n):
	var out = PoolByteArray()
	out.resize(n)
	for i in n:
		out[i] = (i * 7 + i / 300) % 251
	return out


func sizes(n):
	var out = [n + 10]
	if n > 0:
		out.push_front(n)
	if n > 1:
		out.push_front(n - 1)
	return out


func result(got, data):
	return "=" if got == data and not got.empty() else got.hex_encode()


func case(out, name, data, value, patterned = false):
	for mode in [File.COMPRESSION_FASTLZ, File.COMPRESSION_DEFLATE, File.COMPRESSION_ZSTD,
			File.COMPRESSION_GZIP]:
		var packet = data.compress(mode)
		var decompressed = []
		var dynamic = []
		if not packet.empty():
			for size in sizes(data.size()):
				decompressed.append([size, result(packet.decompress(size, mode), data)])
			for size in sizes(data.size()) + [-1]:
				dynamic.append([size, result(packet.decompress_dynamic(size, mode), data)])
		var line = {"name": name, "mode": mode, "value": value, "packet": packet.hex_encode(),
			"decompress": decompressed, "dynamic": dynamic}
		if patterned:
			line["pattern"] = data.size()
		else:
			line["data"] = data.hex_encode()
		out.store_line(to_json(line))


func _init():
	var args = OS.get_cmdline_args()
	var out = File.new()
	out.open(args[args.size() - 1], File.WRITE)
	out.store_line(to_json({"engine": Engine.get_version_info().string}))
	var long_string = ""
	for i in 3000:
		long_string += "abc"
	var values = {
		"int": 42,
		"float": 1.5,
		"string": "hello, hello, hello, hello",
		"vector2": Vector2(1, 2),
		"color": Color(0.25, 0.5, 0.75, 1.0),
		"dictionary": {"name": "player", "hp": 100, "position": Vector3(1, 2, 3), "items": ["a", "b"]},
		"array": range(300),
		"packed_floats": PoolRealArray(range(1000)),
		"long_string": long_string,
	}
	for name in values:
		case(out, name, var2bytes(values[name]), true)
	case(out, "empty", PoolByteArray(), false)
	case(out, "three_bytes", PoolByteArray([1, 2, 3]), false)
	case(out, "sixteen_bytes", pattern(16), false, true)
	case(out, "pattern_65535", pattern(65535), false, true)
	case(out, "pattern_70000", pattern(70000), false, true)
	out.close()
	print("packets.gd: done")
	quit()
