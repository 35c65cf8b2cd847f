extends SceneTree
# NaN bits in real_t components, as a Godot 3 engine decodes them: every component of every math
# type and pool vector array holding, one at a time, a signalling or quiet NaN (both signs, small
# and large payloads). The engine decodes each input and re-encodes what it holds; the JSON keeps
# both (tests/golden/FORMAT.md, "Reals"). Godot 3 has binary32 components only. Run through
# run.sh: godot3-server --no-window --path <this dir> -s res://reals.gd OUTFILE
# Only the inputs are made here; every "reencoded" is the running engine's.

# binary32 NaNs: signalling (smallest and largest payload, negative), quiet (payload, negative).
const F32_NANS = [0x7f800001, 0x7fbfffff, 0xffa00001, 0x7fc12345, 0xffc00000]
# [name, type, components per value, values]: the math types, then the pool vector arrays (two
# elements each).
const SHAPES = [
	["vector2", TYPE_VECTOR2, 2, 1], ["rect2", TYPE_RECT2, 4, 1], ["vector3", TYPE_VECTOR3, 3, 1],
	["transform2d", TYPE_TRANSFORM2D, 6, 1], ["plane", TYPE_PLANE, 4, 1],
	["quaternion", TYPE_QUAT, 4, 1], ["aabb", TYPE_AABB, 6, 1], ["basis", TYPE_BASIS, 9, 1],
	["transform3d", TYPE_TRANSFORM, 12, 1],
	["packed_vector2_array", TYPE_VECTOR2_ARRAY, 2, 2],
	["packed_vector3_array", TYPE_VECTOR3_ARRAY, 3, 2],
]


func _init():
	var out = ""
	for a in OS.get_cmdline_args():
		if a.ends_with(".json"):
			out = a
	if out == "":
		printerr("usage: -s res://reals.gd OUTFILE.json")
		quit()
		return
	var lines = PoolStringArray()
	var failures = 0
	for shape in SHAPES:
		var n = shape[2] * shape[3]
		for at in range(n):
			for nan in F32_NANS:
				var b = input(shape, at, nan)
				var v = bytes2var(b)
				if typeof(v) != shape[1]:
					failures += 1
					printerr("reals.gd: %s did not decode" % b.hex_encode())
					continue
				lines.append('{"name": "%s/%d/f32_%08x", "bytes": "%s", "reencoded": "%s"}' % [
					shape[0], at, nan, b.hex_encode(), var2bytes(v).hex_encode()])
	var info = Engine.get_version_info()
	var f = File.new()
	if f.open(out, File.WRITE) != OK:
		printerr("reals.gd: cannot write %s" % out)
		quit()
		return
	f.store_string('{\n"engine": "%s",\n"dialect": "godot3",\n"precision": "single",\n"cases": [\n%s\n]}\n' % [
		info.string, lines.join(",\n")])
	f.close()
	print("reals.gd: %d cases, %d failures" % [lines.size(), failures])
	if failures == 0:
		print("reals.gd: done")
	quit()


# One value of `shape` whose component `at` is `nan` and every other component a distinct number
# exact in binary32.
func input(shape, at, nan):
	var s = StreamPeerBuffer.new()
	s.put_u32(shape[1])
	if shape[3] > 1:
		s.put_u32(shape[3])
	for i in range(shape[2] * shape[3]):
		if i == at:
			s.put_u32(nan)
		else:
			s.put_float(i + 0.25)
	return s.data_array
