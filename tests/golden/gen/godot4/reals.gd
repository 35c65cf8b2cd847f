extends SceneTree
## NaN bits in real_t components, as a Godot 4 engine decodes them: every component of every math
## type and packed vector array holding, one at a time, a signalling or quiet NaN (both signs,
## small and large payloads) at either wire width. The engine decodes each input and re-encodes
## what it holds; the JSON keeps both (tests/golden/FORMAT.md, "Reals"). Run through run.sh:
##   godot --headless --path <this dir> -s res://reals.gd -- OUTFILE
## Only the inputs are made here; every "reencoded" is the running engine's.

## binary32 NaNs: signalling (smallest and largest payload, negative), quiet (payload, negative).
const F32_NANS := [0x7f800001, 0x7fbfffff, 0xffa00001, 0x7fc12345, 0xffc00000]
## binary64 NaNs as [high word, low word]: signalling with only low payload bits (lost when
## narrowed), signalling with a high payload, negative signalling with a payload at binary32's
## lowest mantissa bit, quiet with a low payload, the negative default quiet NaN.
const F64_NANS := [
	[0x7ff00000, 0x00000001], [0x7ff40000, 0x00000000], [0xfff00000, 0x20000000],
	[0x7ff80000, 0x00000001], [0xfff80000, 0x00000000],
]
## [name, type, components per value, values]: the math types, then the packed vector arrays
## (two elements each).
const SHAPES := [
	["vector2", TYPE_VECTOR2, 2, 1], ["rect2", TYPE_RECT2, 4, 1], ["vector3", TYPE_VECTOR3, 3, 1],
	["transform2d", TYPE_TRANSFORM2D, 6, 1], ["vector4", TYPE_VECTOR4, 4, 1],
	["plane", TYPE_PLANE, 4, 1], ["quaternion", TYPE_QUATERNION, 4, 1], ["aabb", TYPE_AABB, 6, 1],
	["basis", TYPE_BASIS, 9, 1], ["transform3d", TYPE_TRANSFORM3D, 12, 1],
	["projection", TYPE_PROJECTION, 16, 1],
	["packed_vector2_array", TYPE_PACKED_VECTOR2_ARRAY, 2, 2],
	["packed_vector3_array", TYPE_PACKED_VECTOR3_ARRAY, 3, 2],
	["packed_vector4_array", TYPE_PACKED_VECTOR4_ARRAY, 4, 2],
]


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 1:
		printerr("usage: -s res://reals.gd -- OUTFILE")
		quit(2)
		return
	var lines := PackedStringArray()
	var failures := 0
	for shape in SHAPES:
		var n: int = shape[2] * shape[3]
		for at in n:
			for wide in [false, true]:
				var nans: Array = F64_NANS if wide else F32_NANS
				for nan in nans:
					var b := input(shape, at, wide, nan)
					var v = bytes_to_var(b)
					if b.decode_var_size(0) != b.size() or typeof(v) != shape[1]:
						failures += 1
						printerr("reals.gd: %s did not decode whole" % b.hex_encode())
						continue
					var label := ("%08x%08x" % nan) if wide else ("%08x" % nan)
					lines.append('{"name": "%s/%d/%s", "bytes": "%s", "reencoded": "%s"}' % [
						shape[0], at, ("f64_" if wide else "f32_") + label, b.hex_encode(),
						var_to_bytes(v).hex_encode()])
	var info := Engine.get_version_info()
	var text := '{\n"engine": "%s",\n"dialect": "godot4",\n"precision": "%s",\n"cases": [\n%s\n]}\n' % [
		info.string, "double" if OS.has_feature("double") else "single", ",\n".join(lines)]
	var f := FileAccess.open(args[0], FileAccess.WRITE)
	if f == null:
		printerr("reals.gd: cannot write %s" % args[0])
		quit(1)
		return
	f.store_string(text)
	f.close()
	print("reals.gd: %d cases, %d failures" % [lines.size(), failures])
	quit(1 if failures > 0 else 0)


## One value of `shape` whose component `at` is `nan` and every other component a distinct
## number exact at both widths, at the given width.
func input(shape: Array, at: int, wide: bool, nan) -> PackedByteArray:
	var s := StreamPeerBuffer.new()
	s.put_u32(shape[1] | (1 << 16 if wide else 0))
	if shape[3] > 1:
		s.put_u32(shape[3])
	for i in shape[2] * shape[3]:
		if i == at and wide:
			s.put_u32(nan[1])
			s.put_u32(nan[0])
		elif i == at:
			s.put_u32(nan)
		elif wide:
			s.put_double(i + 0.25)
		else:
			s.put_float(i + 0.25)
	return s.data_array
