# Golden-data generator for the Pandemonium dialects of the Variant binary format: the v3.8.0-v4.9.0
# numbering (run on Pandemonium v4.9.0) and the v5.0.0+ numbering (run on v5.2.0).
# Output format: tests/golden/FORMAT.md. Run through run.sh (next to this file), or:
#   pandemonium-server --path <this dir> -s res://generate.gd OUT.json 2>ERR.log
# Pandemonium is a Godot 3 fork, and so is this generator (it shares the Godot 3 generator's
# machinery, res://godot3_lib/golden_generator.gd): stderr MUST be redirected to a regular file, as
# the code of every failed decode is read back from the engine's own error log. Where the log names
# no code (an ERR_FAIL_*_MSG that prints only its message), "error" is null. No decode size either:
# no script API returns it ("size": null).
#
# Type ids differ between the two numberings, so nothing here hard-codes one: the ids come from
# typeof() of sample values (T: res://godot3_lib/describe.gd, which also gives the Godot 4 type id
# that stands for each Pandemonium type), and crafted byte strings are built from them (H()).
# Values are described in the Godot 4 vocabulary (FORMAT.md). Every Desc of a top-level value is
# checked against the bytes the engine wrote (check_case); a mismatch fails the run.
extends "res://godot3_lib/golden_inputs.gd"

const ERROR_SOURCE = ("Error codes come from the engine's own error log: " +
	"the first 'Returned: ERR_*' that core/io/marshalls.cpp prints while PacketPeerStream.get_var() " +
	"decodes the packet (stderr read back between markers; the depth limit prints only its message, " +
	"'Variant is too deep', i.e. ERR_OUT_OF_MEMORY). null where the log names no code. " +
	"PacketPeer.get_packet_error() stays 0 for decode failures, and no script API returns the " +
	"size a decode consumed (size: null). Texts are described from their code points in " +
	"generalized UTF-8, not through the engine's to_utf8().")

var typed5 = null         # typed5.gd on engines with TypedArray (v5+)
var nodepath_leak = false
var dialect = ""


func _init():
	null_when_unnamed = true
	rand_kinds = 22
	var out = start()
	if out == "":
		return
	_init_typed_arrays()
	gen_cases()
	if typed5 != null:
		gen_typed_cases()
	gen_malformed()
	conclude(out, dialect, nodepath_leak, ERROR_SOURCE,
		"%s (%s): %d cases, %d malformed (%d ok, %d failed, %d failed with no code in the log), %d encode failures, %d warnings" % [
		Engine.get_version_info().string, dialect, case_lines.size(), malformed_lines.size(), n_ok, n_fail,
		n_unnamed, encode_failures.size(), warnings.size()])


# TYPE_MAX is the first id the decoder rejects (38 in v3.8-v4.9, 40 from v5.0). Two ids that no
# sample of describe.gd's table has are TypedArray and PackedTypedArray (v5.0+): their Godot 4
# counterpart is a typed Array (28).
func _init_typed_arrays():
	if describer.missing_ids().empty():
		dialect = "pandemonium38"
	else:
		typed5 = load("res://typed5.gd").new()
		describer.add_type("TYPED_ARRAY", typeof(typed5.empty(0, "int")), 28)
		describer.add_type("PACKED_TYPED_ARRAY", typeof(typed5.empty(1, "int")), 28)
		describer.WIRE_ONLY[T.TYPED_ARRAY] = true
		describer.WIRE_ONLY[T.PACKED_TYPED_ARRAY] = true
		dialect = "pandemonium5"
	describer.check_complete()


# ---------------------------------------------------------------- self-checks (Desc against bytes)

func f32s_of(b, from, count):
	var sp = StreamPeerBuffer.new()
	sp.data_array = b
	sp.seek(from)
	var r = []
	for i in range(count):
		r.append(sp.get_float())
	return r


func i32s_of(b, from, count):
	var sp = StreamPeerBuffer.new()
	sp.data_array = b
	sp.seek(from)
	var r = []
	for i in range(count):
		r.append(sp.get_32())
	return r


var REAL_COUNTS = {"VECTOR2": 2, "RECT2": 4, "VECTOR3": 3, "TRANSFORM2D": 6, "VECTOR4": 4, "PLANE": 4,
	"QUATERNION": 4, "AABB": 6, "BASIS": 9, "TRANSFORM": 12, "PROJECTION": 16, "COLOR": 4}
var INT_COUNTS = {"VECTOR2I": 2, "RECT2I": 4, "VECTOR3I": 3, "VECTOR4I": 4}
var POOL_HEX = ["POOL_BYTE_ARRAY", "POOL_INT_ARRAY", "POOL_REAL_ARRAY", "POOL_VECTOR2_ARRAY",
	"POOL_VECTOR2I_ARRAY", "POOL_VECTOR3_ARRAY", "POOL_VECTOR3I_ARRAY", "POOL_VECTOR4_ARRAY",
	"POOL_VECTOR4I_ARRAY", "POOL_COLOR_ARRAY"]


# Checks that the Desc of a top-level value really matches the bytes the engine wrote for it.
func check_case(name, v, b, desc, full):
	var n = TN.get(typeof(v), "?")
	var hdr = i32s_of(b, 0, 1)[0]
	if (hdr & 0xFF) != typeof(v) and not (n == "OBJECT" and hdr == T.NIL):
		problems.append("%s: header %x is not type %d" % [name, hdr, typeof(v)])
		return
	if REAL_COUNTS.has(n):
		if describer.fl(f32s_of(b, 4, REAL_COUNTS[n])) != desc.v:
			problems.append("%s: component order differs from the bytes" % name)
	elif INT_COUNTS.has(n):
		if i32s_of(b, 4, INT_COUNTS[n]) != desc.v:
			problems.append("%s: int component order differs from the bytes" % name)
	elif n == "STRING" or n == "STRING_NAME":
		var slen = i32s_of(b, 4, 1)[0]
		var got = b.subarray(8, 7 + slen).hex_encode() if slen > 0 and b.size() >= 8 + slen else ""
		# Code points valid UTF-8 cannot carry are described in generalized UTF-8 (see utf()),
		# which the engine's encoder rewrites (listed in the notes).
		if got != desc.v and not name.begins_with("string/nonunicode/"):
			problems.append("%s: text differs from the bytes" % name)
	elif n in POOL_HEX:
		var got = b.subarray(8, b.size() - 1).hex_encode() if b.size() > 8 else ""
		if n == "POOL_BYTE_ARRAY":
			got = got.substr(0, desc.v.length())
		if got != desc.v:
			if n == "POOL_VECTOR4I_ARRAY" and got == z_into_w(desc.v):
				notes.append("%s: the engine's encoder wrote each z into the w slot (docs/wire_format.md#pandemonium-decoder-bugs)" % name)
			else:
				problems.append("%s: pool array Desc differs from the bytes\n  bytes %s\n  desc  %s" % [name, got, desc.v])
	elif n == "OBJECT" and full and is_instance_valid(v):
		var rebuilt = expected_full_object(v)
		if rebuilt != b:
			problems.append("%s: full-object Desc does not rebuild the engine bytes\n  engine %s\n  rebuilt %s" % [
				name, b.hex_encode(), rebuilt.hex_encode()])
	elif n == "NODE_PATH":
		check_nodepath_padding(b)
	elif n == "TYPED_ARRAY" or n == "PACKED_TYPED_ARRAY":
		# element type, then (but for objects sent in full: a class name first) the count
		var w = i32s_of(b, 4, 2)
		if w[0] != v.get_variant_type():
			problems.append("%s: element type %d in the bytes, %d in the value" % [name, w[0], v.get_variant_type()])
		elif w[0] != T.OBJECT and w[1] != v.size():
			problems.append("%s: count %d in the bytes, %d items in the value" % [name, w[1], v.size()])


# The hex of int32 quadruples with each w replaced by z.
func z_into_w(h):
	var out = ""
	var i = 0
	while i + 32 <= h.length():
		out += h.substr(i, 24) + h.substr(i + 16, 8)
		i += 32
	return out


# Rebuilds the engine's full-object encoding from the property list as described.
func expected_full_object(o):
	var b = hx(describer.u32hex(T.OBJECT))
	b.append_array(strpay(o.get_class()))
	var props = []
	for p in o.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			props.append(p.name)
	b.append_array(hx(describer.u32hex(props.size())))
	for p in props:
		b.append_array(strpay(p))
		b.append_array(var2bytes(o.get(p), true))
	return b


# String payload (u32 length + bytes + zero padding) from the engine's own String encoding.
func strpay(s):
	var b = var2bytes(String(s))
	return b.subarray(4, b.size() - 1)


func check_nodepath_padding(b):
	var names = i32s_of(b, 4, 1)[0] & 0x7FFFFFFF
	var total = names + i32s_of(b, 8, 1)[0]
	var ofs = 16
	for i in range(total):
		var n = i32s_of(b, ofs, 1)[0]
		ofs += 4 + n
		while ofs % 4:
			if b[ofs] != 0:
				nodepath_leak = true
			ofs += 1


# ---------------------------------------------------------------- cases


# Kept without a warning: Pandemonium cannot decode some of its own encodings
# (docs/wire_format.md#pandemonium-decoder-bugs).
func own_decode_failed(_name, _err):
	pass


# A case whose bytes are the engine's but which the engine is not asked to decode (the reason is
# recorded): "decoded" is null and there is no "decode_error".
func add_encode_only_case(name, v, full, why):
	if case_names.has(name):
		warnings.append("duplicate case name " + name)
		return
	case_names[name] = true
	var bytes = var2bytes(v, full)
	var e = {"name": name, "full_objects": full, "value": describe(v, full, false),
		"bytes": bytes.hex_encode(), "decoded": null, "decode_skipped": why}
	check_case(name, v, bytes, e["value"], full)
	case_lines.append(to_json(e))


# ---------------------------------------------------------------- cases (hooks of golden_inputs.gd)

func quat(x, y, z, w):
	return Quaternion(x, y, z, w)


func quat_axis(axis, angle):
	return Quaternion(axis, angle)


func cases_own_math():
	add_case("vector2i/zero", Vector2i())
	add_case("vector2i/1_m2", Vector2i(1, -2))
	add_case("vector2i/extremes", Vector2i(2147483647, -2147483648))
	add_case("rect2i/zero", Rect2i())
	add_case("rect2i/distinct", rect2i(1, -2, 3, 4))
	add_case("rect2i/extremes", rect2i(-2147483648, 2147483647, 0, -1))
	add_case("vector3i/zero", Vector3i())
	add_case("vector3i/distinct", Vector3i(1, -2, 3))
	add_case("vector3i/extremes", Vector3i(2147483647, -2147483648, -1))
	# Vector4 and Vector4i decode correctly at top level; nested ones are under bug/ below.
	add_case("vector4/zero", Vector4())
	add_case("vector4/distinct", Vector4(1, 2, 3, 4))
	add_case("vector4/inexact", Vector4(0.1, -0.2, 1.0 / 3.0, 1e30))
	add_case("vector4/special", Vector4(dbits(0x7FF00000, 0), dbits(0x80000000, 0), fbits(1), dbits(0xFFF00000, 0)))
	add_case("vector4i/zero", Vector4i())
	add_case("vector4i/distinct", Vector4i(1, -2, 3, -4))
	add_case("vector4i/extremes", Vector4i(2147483647, -2147483648, 0, -1))
	add_case("string_name/empty", StringName())
	add_case("string_name/ascii", StringName("node_name"))
	add_case("string_name/len4", StringName("abcd"))
	add_case("string_name/multibyte", StringName(u8([0xE6, 0x97, 0xA5, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80])))


func cases_own_scripted(scripted):
	# This case records the encoding only; malformed/craft/object/full_scripted_refused decodes it
	# with objects refused.
	add_encode_only_case("object/full_scripted", scripted, true,
		"decoding it with objects allowed crashes the engine (SIGSEGV)")
	add_case("object/id_scripted_in_dictionary", {"s": scripted})


func cases_own_containers():
	# Pandemonium's own types, but Vector4/Vector4i/Projection (under bug/: they break containers).
	add_case("array/mixed_pandemonium", [Vector2i(1, 2), rect2i(3, 4, 5, 6), Vector3i(7, 8, 9),
		StringName("sn"), PoolVector2iArray([Vector2i(1, -1)]), PoolVector3iArray([Vector3i(1, 2, 3)]),
		PoolVector4Array([Vector4(1, 2, 3, 3)]), PoolVector4iArray([Vector4i(1, 2, 3, 3)]), 7])
	add_case("dictionary/pandemonium_keys", {StringName("a"): 1, "a": 2, Vector2i(1, 2): 3, Vector3i(): 4,
		rect2i(0, 0, 1, 1): 5})


func cases_own_pools():
	for n in range(0, 4):
		var a2 = PoolVector2iArray()
		var a3 = PoolVector3iArray()
		for i in range(n):
			a2.append(Vector2i(i * 7 - 3, -i * 100003))
			a3.append(Vector3i(i, -i - 1, i * 65536 + 1))
		add_case("packed_vector2i_array/len%d" % n, a2)
		add_case("packed_vector3i_array/len%d" % n, a3)
	add_case("packed_vector2i_array/extremes", PoolVector2iArray([Vector2i(2147483647, -2147483648), Vector2i(-1, 0)]))
	add_case("packed_vector3i_array/extremes", PoolVector3iArray([Vector3i(2147483647, -2147483648, -1)]))
	# PoolVector4Array/PoolVector4iArray round-trip where z == w (else: bug/ below).
	add_case("packed_vector4_array/empty", PoolVector4Array())
	add_case("packed_vector4_array/w_equals_z", PoolVector4Array([Vector4(1, 2, 3, 3), Vector4(0.1, -0.5, 1e30, 1e30)]))
	add_case("packed_vector4i_array/empty", PoolVector4iArray())
	add_case("packed_vector4i_array/w_equals_z", PoolVector4iArray([Vector4i(1, 2, 3, 3), Vector4i(2147483647, -2147483648, -1, -1)]))

	gen_bug_cases()


# Pandemonium's own kinds of random value (rand_kinds is 22 here).
func rand_own(k, _depth):
	if k == 19:
		return Vector2i(rnd() - 1073741824, rr(1000) - 500)
	elif k == 20:
		return StringName(rand_string())
	else:
		var a = PoolVector3iArray()
		for i in range(rr(4)):
			a.append(Vector3i(rnd() - 1073741824, rr(100), -rr(100)))
		return a


func rect2i(x, y, w, h):
	# (v4.9.0's Rect2i has no four-int constructor)
	var r = Rect2i()
	r.position = Vector2i(x, y)
	r.size = Vector2i(w, h)
	return r


func proj(c):
	# a Projection from its 16 components, column by column (v4.9.0 has no Vector4 constructor)
	var p = Projection()
	p.x = Vector4(c[0], c[1], c[2], c[3])
	p.y = Vector4(c[4], c[5], c[6], c[7])
	p.z = Vector4(c[8], c[9], c[10], c[11])
	p.w = Vector4(c[12], c[13], c[14], c[15])
	return p


func proj_distinct():
	var c = []
	for i in range(16):
		c.append(i + 1 + 0.25 * (i % 3))
	return proj(c)


# Cases that show the Pandemonium decoder bugs (docs/wire_format.md#pandemonium-decoder-bugs) with the engine's own output.
func gen_bug_cases():
	# VECTOR4 and VECTOR4I decode advance by 12 bytes instead of 16: harmless at top level and as
	# the last thing read, but whatever follows in a container is read from the w slot on.
	var B = "bug/vector4_decode_advances_12/"
	add_case(B + "array_vector4_then_int", [Vector4(1, 2, 3, 4), 7])
	add_case(B + "array_vector4i_then_string", [Vector4i(1, 2, 3, 4), "after"])
	# w = STRING's id: the w slot is read as a String header, the next header as its length
	add_case(B + "array_vector4i_w_is_a_string_header", [Vector4i(1, 2, 3, T.STRING), "abc"])
	add_case(B + "array_vector4_then_vector4", [Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8)])
	add_case(B + "dictionary_vector4_value_then_entry", {"a": Vector4(0.5, 1.5, 2.5, 3.5), "b": 2})
	add_case(B + "dictionary_vector4i_key", {Vector4i(1, 2, 3, 0): "v", "k": 1})
	add_case(B + "nested_array_vector4_then_int", [[Vector4(1, 2, 3, 4)], 5])
	add_case(B + "last_in_array_harmless", [1, Vector4(1, 2, 3, 4)])
	add_case(B + "in_array_before_full_object", [Vector4i(9, 8, 7, 6), Reference.new()], true)
	# PROJECTION decode needs 248 bytes (62 floats) after its header, for a 64-byte payload.
	var P = "bug/projection_decode_needs_248/"
	add_case(P + "identity", Projection())
	add_case(P + "distinct", proj_distinct())
	add_case(P + "in_array_then_184_bytes", [Projection(), bytes_len(176)])
	add_case(P + "in_array_then_180_bytes", [Projection(), bytes_len(172)])
	add_case(P + "last_in_array", [1, proj_distinct()])
	# POOL_VECTOR4_ARRAY decode fills w from the z slot.
	var V = "bug/pool_vector4_array_decode_w_from_z/"
	add_case(V + "len1", PoolVector4Array([Vector4(1, 2, 3, 4)]))
	add_case(V + "len3", PoolVector4Array([Vector4(1, 2, 3, 4), Vector4(-0.5, 0.25, 1e-3, 7), Vector4(0, 0, 0, 1)]))
	# POOL_VECTOR4I_ARRAY: the encoder writes z into the w slot (and the decoder reads w from z).
	var I = "bug/pool_vector4i_array_encode_z_into_w/"
	add_case(I + "len1", PoolVector4iArray([Vector4i(1, 2, 3, 4)]))
	add_case(I + "len3", PoolVector4iArray([Vector4i(1, 2, 3, 4), Vector4i(-1, -2, -3, 2147483647), Vector4i(0, 0, 5, 0)]))


# Pandemonium v5+: TypedArray (TYPED_ARRAY) and PackedTypedArray (PACKED_TYPED_ARRAY) of every
# element type. The engine writes a TypedArray value as TYPED_ARRAY and a PackedTypedArray value as
# PACKED_TYPED_ARRAY, with the same layout; a plain Array stays ARRAY.
func gen_typed_cases():
	var imin = -9223372036854775807 - 1
	var node = Node.new()
	keep.append(node)
	var res = Resource.new()
	res.resource_name = "r"
	keep.append(res)
	# [label, a sample of the element type (the typed array takes its type from it), items]
	var kinds = [
		["nil", null, [null, null]],
		["bool", false, [true, false]],
		["int", 0, [0, -1, 2147483648, imin]],
		["float", 0.5, [0.5, 0.1, dbits(0x80000000, 0)]],
		["string", "", ["", "ab", u8([0xE6, 0x97, 0xA5])]],
		["rect2", Rect2(), [Rect2(1, 2, 3, 4), Rect2(0.1, 0.2, 0.3, 0.4)]],
		["rect2i", Rect2i(), [rect2i(1, 2, 3, 4), rect2i(-1, -2, -3, -4)]],
		["vector2", Vector2(), [Vector2(1, 2), Vector2(0.1, -3)]],
		["vector2i", Vector2i(), [Vector2i(1, 2), Vector2i(-3, 2147483647)]],
		["vector3", Vector3(), [Vector3(1, 2, 3), Vector3(0.1, 0.2, 0.3)]],
		["vector3i", Vector3i(), [Vector3i(1, 2, 3), Vector3i(-1, -2, -3)]],
		# one element: a second one would be misread (bug/vector4_decode_advances_12/)
		["vector4", Vector4(), [Vector4(1, 2, 3, 4)]],
		["vector4i", Vector4i(), [Vector4i(1, 2, 3, 4)]],
		["plane", Plane(), [Plane(1, 0, 0, 2), Plane(0.1, 0.2, 0.3, 0.4)]],
		["quaternion", Quaternion(), [Quaternion(), Quaternion(0.1, 0.2, 0.3, 0.4)]],
		["aabb", AABB(), [AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))]],
		["basis", Basis(), [Basis(), Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))]],
		["transform", Transform(), [Transform(), Transform(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12))]],
		["transform2d", Transform2D(), [Transform2D(), Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))]],
		# empty: an element cannot be decoded (bug/projection_decode_needs_248/)
		["projection", Projection(), []],
		["color", Color(), [Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]],
		["node_path", NodePath("a"), [NodePath("abcd/efgh:ijkl"), NodePath("/root")]],
		["rid", RID(), [RID(), RID()]],
		["string_name", StringName("a"), [StringName("a"), StringName("")]],
		["dictionary", {}, [{}, {"a": 1, 2: [3]}]],
		["array", [], [[], [1, "a", [2]]]],
		["typed_array", typed5.empty(0, "int"), [typed5.make(0, [0], [1, 2], []), typed5.make(0, [""], ["s"], [])]],
		["packed_typed_array", typed5.empty(1, "int"), [typed5.make(1, [0], [3], []), typed5.make(1, [Vector2()], [Vector2(1, 2)], [])]],
		["pool_byte_array", PoolByteArray(), [PoolByteArray([1, 2, 3]), PoolByteArray()]],
		["pool_int_array", PoolIntArray(), [PoolIntArray([1, -1])]],
		["pool_real_array", PoolRealArray(), [PoolRealArray([0.5, 0.1])]],
		["pool_string_array", PoolStringArray(), [PoolStringArray(["a", ""])]],
		["pool_vector2_array", PoolVector2Array(), [PoolVector2Array([Vector2(1, 2)])]],
		["pool_vector2i_array", PoolVector2iArray(), [PoolVector2iArray([Vector2i(1, 2), Vector2i(3, 4)])]],
		["pool_vector3_array", PoolVector3Array(), [PoolVector3Array([Vector3(1, 2, 3)])]],
		["pool_vector3i_array", PoolVector3iArray(), [PoolVector3iArray([Vector3i(1, 2, 3)])]],
		["pool_vector4_array", PoolVector4Array(), [PoolVector4Array([Vector4(1, 2, 3, 3)])]],
		["pool_vector4i_array", PoolVector4iArray(), [PoolVector4iArray([Vector4i(1, 2, 3, 3)])]],
		["pool_color_array", PoolColorArray(), [PoolColorArray([Color(1, 0, 0, 1)])]],
	]
	for k in kinds:
		for form in [0, 1]:
			var prefix = ["typed_array/", "packed_typed_array/"][form]
			var e = typed5_make(form, [k[1]], [], typeof(k[1]))
			add_case(prefix + k[0] + "/empty", e)
			if not k[2].empty():
				add_case(prefix + k[0] + "/items", typed5_make(form, [k[1]], k[2], typeof(k[1])))
	# Objects: the class name travels (as a nested StringName value) only with full objects.
	for form in [0, 1]:
		var prefix = ["typed_array/", "packed_typed_array/"][form]
		add_case(prefix + "object_node/empty", typed5_make(form, "Node", [], T.OBJECT))
		add_case(prefix + "object_node/empty/full", typed5_make(form, "Node", [], T.OBJECT), true)
		add_case(prefix + "object_node/ids", typed5_make(form, "Node", [node, null], T.OBJECT))
		add_case(prefix + "object_reference/full", typed5_make(form, "Reference", [Reference.new(), null], T.OBJECT), true)
		add_case(prefix + "object_resource/full", typed5_make(form, "Resource", [res], T.OBJECT), true)
		add_case(prefix + "object_no_class/empty", typed5_make(form, "", [], T.OBJECT))
		add_case(prefix + "object_no_class/empty/full", typed5_make(form, "", [], T.OBJECT), true)
		add_case(prefix + "object_object/ids", typed5_make(form, "Object", [node, res], T.OBJECT))
		add_case(prefix + "object_unknown_class/empty/full", typed5_make(form, "NoSuchClass", [], T.OBJECT), true)
	add_case("typed_array/object_node/full", typed5_make(0, "Node", [node], T.OBJECT), true)
	# Typed arrays inside other values, and the int type of a PackedTypedArray (not on the wire).
	add_case("typed_array/nested/in_array", [typed5_make(0, [0], [1, 2], T.INT), "x"])
	add_case("typed_array/nested/in_dictionary", {"t": typed5_make(0, [""], ["a"], T.STRING), "n": 1})
	add_case("packed_typed_array/nested/in_dictionary", {"t": typed5_make(1, [""], ["a"], T.STRING), "n": 1})
	add_case("typed_array/nested/typed_of_typed", typed5_make(0, [typed5.empty(0, "int")],
		[typed5_make(0, [0], [1], T.INT), typed5_make(0, [""], ["s"], T.STRING)], T.TYPED_ARRAY))
	add_case("typed_array/nested/full_flag_without_objects", [typed5_make(0, [0.5], [0.5], T.REAL)], true)
	for it in range(8):
		add_case("packed_typed_array/int_type_%d" % it, typed5.ints(it, [300, -1, 2147483648]))
	# the bugs, in typed arrays
	add_case("bug/vector4_decode_advances_12/typed_array_two_vector4",
		typed5_make(0, [Vector4()], [Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8)], T.VECTOR4))
	add_case("bug/vector4_decode_advances_12/packed_typed_array_two_vector4i",
		typed5_make(1, [Vector4i()], [Vector4i(1, 2, 3, 4), Vector4i(5, 6, 7, 8)], T.VECTOR4I))
	add_case("bug/projection_decode_needs_248/typed_array_one", typed5_make(0, [Projection()], [Projection()], T.PROJECTION))


# typed5.make, checking the element type the engine chose and that it took every item.
func typed5_make(form, spec, items, want_type):
	var refused = []
	var a = typed5.make(form, spec, items, refused)
	if a.get_variant_type() != want_type:
		problems.append("typed array of %s: element type %d, not %d" % [str(spec), a.get_variant_type(), want_type])
	if not refused.empty():
		problems.append("typed array of %s refused %s" % [str(spec), str(refused)])
	return a


# ---------------------------------------------------------------- malformed (and hooks)

func gen_malformed():
	.gen_malformed()
	crafted_bugs()
	if typed5 != null:
		crafted_typed()


func add_own_sources(sources):
	insert_after(sources, "string_multibyte", [
		["string_name", var2bytes(StringName("abcde")), false, true]])
	insert_after(sources, "vector2", [
		["vector2i", var2bytes(Vector2i(7, -2)), false, false]])
	insert_after(sources, "rect2", [
		["rect2i", var2bytes(rect2i(1, -2, 3, 4)), false, false]])
	insert_after(sources, "vector3", [
		["vector3i", var2bytes(Vector3i(1, 2, -3)), false, false],
		["vector4", var2bytes(Vector4(1, 2, 3, 4)), false, false],
		["vector4i", var2bytes(Vector4i(1, 2, 3, -4)), false, false]])
	insert_after(sources, "packed_vector2_array", [
		["packed_vector2i_array", var2bytes(PoolVector2iArray([Vector2i(1, 2), Vector2i(-3, 4)])), false, true]])
	# z == w: the w-from-z decode (and z-into-w encode) bugs are shown under craft/bug/
	insert_after(sources, "packed_vector3_array", [
		["packed_vector3i_array", var2bytes(PoolVector3iArray([Vector3i(1, 2, 3)])), false, true],
		["packed_vector4_array", var2bytes(PoolVector4Array([Vector4(1, 2, 3, 3)])), false, true],
		["packed_vector4i_array", var2bytes(PoolVector4iArray([Vector4i(1, -2, 3, 3)])), false, true]])
	if typed5 != null:
		sources.append(["typed_array_int", var2bytes(typed5_make(0, [0], [5, -6], T.INT)), false, false])
		sources.append(["typed_array_string", var2bytes(typed5_make(0, [""], ["ab"], T.STRING)), false, false])
		sources.append(["packed_typed_array_float", var2bytes(typed5_make(1, [0.5], [0.5, 0.1], T.REAL)), false, false])
		sources.append(["typed_array_object_ids", hx(H("TYPED_ARRAY", ID) + H("OBJECT") + "01000000" +
			H("OBJECT", ID) + "efbeadde 34120000"), false, false])
		sources.append(["typed_array_object_full", var2bytes(typed5_make(0, "Reference", [Reference.new()], T.OBJECT), true), true, false])


func type_max_label():
	return "type_max"


func add_own_crafted(C):
	var STR = H("STRING")
	var ARR = H("ARRAY")
	var DIC = H("DICTIONARY")
	var NP = H("NODE_PATH")
	var SN = H("STRING_NAME")
	insert_after(C, "type_max_payload", [
		["type_max_minus_1_empty", describer.u32hex(T.MAX - 1) + " 00000000", false]])
	insert_after(C, "vector2_flag64_16bytes", [
		["vector2i_flag64", H("VECTOR2I", ID) + " 01000000 02000000", false],
		["vector4_flag64_32bytes", H("VECTOR4", ID) + " 00000000 0000f03f 00000000 00000040 00000000 00000840 00000000 00001040", false],
		["projection_flag64", H("PROJECTION", ID) + rep(" 00000000", 62), false],
		["string_name_flag", H("STRING_NAME", ID) + " 01000000 61000000", false]])
	var keys = [
		["dictionary_string_and_string_name_keys", DIC + " 02000000 " + STR + " 01000000 61000000 02000000 01000000 " + SN + " 01000000 61000000 02000000 02000000", false]]
	# which keys the engine's Dictionary merges (each pair: key, 1, key, 2)
	var KEYS = [["string_name_twice", SN + " 01000000 61000000", SN + " 01000000 61000000"],
		["nan_payloads", "03000000 0000c07f", "03000000 0100c07f"],
		["zero_negzero", "03000000 00000000", "03000000 00000080"],
		["int_and_float", "02000000 01000000", "03000000 0000803f"],
		["vector2_negzero", H("VECTOR2") + " 00000000 0000803f", H("VECTOR2") + " 00000080 0000803f"],
		["vector2_nan", H("VECTOR2") + " 0000c07f 0000803f", H("VECTOR2") + " 0000c07f 0000803f"],
		["array_nan", ARR + " 01000000 03000000 0000c07f", ARR + " 01000000 03000000 0000c07f"],
		["array_negzero", ARR + " 01000000 03000000 00000000", ARR + " 01000000 03000000 00000080"],
		["array_string_and_string_name", ARR + " 01000000 " + STR + " 01000000 61000000", ARR + " 01000000 " + SN + " 01000000 61000000"],
		["array_int_and_float", ARR + " 01000000 02000000 01000000", ARR + " 01000000 03000000 0000803f"],
		["dictionary_order", DIC + " 02000000 02000000 01000000 00000000 02000000 02000000 00000000",
			DIC + " 02000000 02000000 02000000 00000000 02000000 01000000 00000000"],
		["dictionary_nan_value", DIC + " 01000000 02000000 01000000 03000000 0000c07f",
			DIC + " 01000000 02000000 01000000 03000000 0000c07f"],
		["dictionary_string_name_key_inside", DIC + " 01000000 " + STR + " 01000000 61000000 00000000",
			DIC + " 01000000 " + SN + " 01000000 61000000 00000000"],
		["nil_and_null_object", "00000000", H("OBJECT", 1 << 16) + " 00000000 00000000"],
		["pool_real_nan", H("POOL_REAL_ARRAY") + " 01000000 0000c07f", H("POOL_REAL_ARRAY") + " 01000000 0000c07f"],
		["node_path_twice", NP + " 01000080 00000000 00000000 01000000 61000000", NP + " 01000080 00000000 00000000 01000000 61000000"],
		["rid_twice", H("RID"), H("RID")]]
	for k in KEYS:
		keys.append(["dictionary_keys/" + k[0], DIC + " 02000000 " + k[1] + " 02000000 01000000 " + k[2] + " 02000000 02000000", false])
	insert_after(C, "dictionary_int_and_real_keys", keys)
	insert_after(C, "pca_count_short", [
		["pv2i_count_overflow", H("POOL_VECTOR2I_ARRAY") + " ffffff1f 00000000", false],
		["pv2i_count_short", H("POOL_VECTOR2I_ARRAY") + " 02000000 01000000 02000000 03000000", false],
		["pv3i_count_negative", H("POOL_VECTOR3I_ARRAY") + " ffffffff", false],
		["pv3i_count_short", H("POOL_VECTOR3I_ARRAY") + " 01000000 01000000 02000000", false],
		["pv4_count_overflow", H("POOL_VECTOR4_ARRAY") + " 00000010 00000000", false],
		["pv4_count_short", H("POOL_VECTOR4_ARRAY") + " 01000000 0000803f 00000040 00004040", false],
		["pv4i_count_huge", H("POOL_VECTOR4I_ARRAY") + " ffffff7f 00000000", false],
		["pv4i_count_short", H("POOL_VECTOR4I_ARRAY") + " 01000000 01000000 02000000 03000000", false]])
	insert_after(C, "string_padding_nonzero", [
		["string_name_len_short", H("STRING_NAME") + " 08000000 61616161", false],
		["string_name_embedded_nul", strbytes(H("STRING_NAME"), hx("61 00 62")), false]])
	insert_after(C, "utf8/latin1_e9", [
		["utf8/string_name_surrogate", strbytes(H("STRING_NAME"), hx("ed a0 80")), false],
		["utf8/string_name_overlong", strbytes(H("STRING_NAME"), hx("c0 80")), false]])
	# (decoding a full scripted object with objects allowed crashes the engine: refused only)
	insert_after(C, "object/full_in_array_allowed", [
		["object/full_scripted_refused", var2bytes(load("res://payload.gd").new(), true), false]])


# The decoder bugs of docs/wire_format.md#pandemonium-decoder-bugs on hand-made bytes.
func crafted_bugs():
	var C = []
	var ARR = H("ARRAY")
	var V4 = H("VECTOR4")
	var V4I = H("VECTOR4I")
	var B = "bug/vector4_decode_advances_12/"
	# the w word read as the next header: 0x40800000 (4.0) is a NIL header, 0x000000ff no type
	C.append([B + "array_w_is_nil_header", ARR + " 02000000 " + V4 + " 0000803f 00000040 00004040 00008040 02000000 07000000", false])
	C.append([B + "array_w_is_bad_header", ARR + " 02000000 " + V4I + " 01000000 02000000 03000000 ff000000 02000000 07000000", false])
	C.append([B + "array_w_is_int_header", ARR + " 02000000 " + V4I + " 01000000 02000000 03000000 02000000 2a000000", false])
	C.append([B + "dictionary_value", H("DICTIONARY") + " 01000000 02000000 01000000 " + V4 + " 0000803f 00000040 00004040 00000000", false])
	C.append([B + "top_level_exact", V4 + " 0000803f 00000040 00004040 00008040", false])
	C.append([B + "top_level_15_bytes_short", V4 + " 0000803f 00000040 00004040 000080", false])
	var P = "bug/projection_decode_needs_248/"
	var pr = var2bytes(proj_distinct())
	C.append([P + "exact_68_bytes", pr, false])
	C.append([P + "plus_183_bytes", cat(pr, zeros(183)), false])
	C.append([P + "plus_184_bytes", cat(pr, zeros(184)), false])
	C.append([P + "plus_184_bytes_truncated_payload", cat(pr.subarray(0, 63), zeros(189)), false])
	C.append([P + "in_array_last", cat(hx(ARR + " 01000000"), pr), false])
	C.append([P + "in_array_then_nils", cat(cat(hx(ARR + " 47000000"), pr), zeros(4 * 70)), false])
	var V = "bug/pool_vector4_array_decode_w_from_z/"
	C.append([V + "one", H("POOL_VECTOR4_ARRAY") + " 01000000 0000803f 00000040 00004040 00008040", false])
	C.append([V + "two", H("POOL_VECTOR4_ARRAY") + " 02000000 0000803f 00000040 00004040 00008040 000000bf 0000803e 00000000 0000e040", false])
	var I = "bug/pool_vector4i_array_decode_w_from_z/"
	C.append([I + "one", H("POOL_VECTOR4I_ARRAY") + " 01000000 01000000 02000000 03000000 04000000", false])
	C.append([I + "two", H("POOL_VECTOR4I_ARRAY") + " 02000000 01000000 02000000 03000000 04000000 ffffffff feffffff fdffffff ffffff7f", false])
	add_crafted(C)


# Pandemonium v5+: TYPED_ARRAY / PACKED_TYPED_ARRAY on hand-made bytes.
func crafted_typed():
	var C = []
	for form in ["TYPED_ARRAY", "PACKED_TYPED_ARRAY"]:
		var TA = H(form)
		var TAI = H(form, ID)
		var p = form.to_lower() + "/"
		C.append([p + "element_int_count_0", TA + " 02000000 00000000", false])
		C.append([p + "element_nil_with_items", TA + " 00000000 02000000 00000000 02000000 05000000", false])
		C.append([p + "element_type_max", TA + " " + H("MAX") + " 00000000", false])
		C.append([p + "element_type_99_count_0", TA + " 63000000 00000000", false])
		C.append([p + "element_type_99_with_item", TA + " 63000000 01000000 02000000 05000000", false])
		C.append([p + "element_type_255_with_item", TA + " ff000000 01000000 02000000 05000000", false])
		C.append([p + "element_type_0x1_0000_int", TA + " 02000100 01000000 02000000 05000000", false])
		C.append([p + "missing_element_type", TA, false])
		C.append([p + "missing_count", TA + " 02000000", false])
		C.append([p + "count_huge_short", TA + " 02000000 ffffff7f 02000000 05000000", false])
		C.append([p + "count_negative", TA + " 02000000 ffffffff", false])
		C.append([p + "count_negative_with_item", TA + " 02000000 ffffffff 02000000 05000000", false])
		C.append([p + "count_bit31_with_item", TA + " 02000000 01000080 02000000 05000000", false])
		C.append([p + "count_2_has_1", TA + " 02000000 02000000 02000000 05000000", false])
		C.append([p + "int_with_string_item", TA + " 02000000 02000000 " + H("STRING") + " 01000000 61000000 02000000 05000000", false])
		C.append([p + "int_with_float_item", TA + " 02000000 02000000 03000000 0000c03f 02000000 05000000", false])
		C.append([p + "float_with_int_item", TA + " 03000000 02000000 02000000 05000000 03000000 0000c03f", false])
		C.append([p + "int_with_int64_item", TA + " 02000000 01000000 02000100 00000000 01000000", false])
		C.append([p + "string_with_string_name_item", TA + " 04000000 01000000 " + H("STRING_NAME") + " 01000000 61000000", false])
		C.append([p + "string_name_with_string_item", TA + " " + H("STRING_NAME") + " 01000000 04000000 01000000 61000000", false])
		C.append([p + "vector2_with_vector2i_item", TA + " " + H("VECTOR2") + " 01000000 " + H("VECTOR2I") + " 01000000 02000000", false])
		C.append([p + "array_with_typed_array_item", TA + " " + ARR_H() + " 01000000 " + H("TYPED_ARRAY") + " 02000000 01000000 02000000 05000000", false])
		C.append([p + "typed_array_with_array_item", TA + " " + H("TYPED_ARRAY") + " 01000000 " + ARR_H() + " 01000000 02000000 05000000", false])
		C.append([p + "pool_vector2i_with_items", TA + " " + H("POOL_VECTOR2I_ARRAY") + " 01000000 " + H("POOL_VECTOR2I_ARRAY") + " 01000000 01000000 02000000", false])
		C.append([p + "pool_vector2i_with_array_item", TA + " " + H("POOL_VECTOR2I_ARRAY") + " 01000000 " + ARR_H() + " 01000000 " + H("VECTOR2I") + " 01000000 02000000", false])
		# containers in containers: the innermost at depth 1024 (the limit), then 1025
		C.append([p + "nested_containers_1025", nested_typed(TA, 1025), false])
		C.append([p + "nested_containers_1026", nested_typed(TA, 1026), false])
		# objects: bit 16 set = ids, no class name; clear = a class name as a nested STRING_NAME value
		var OBJ = H("OBJECT")
		var SN = H("STRING_NAME")
		C.append([p + "object_ids_empty", TAI + " " + OBJ + " 00000000", false])
		C.append([p + "object_ids_one_id", TAI + " " + OBJ + " 01000000 " + H("OBJECT", ID) + " 2a000000 00000000", false])
		C.append([p + "object_ids_one_id_allowed", TAI + " " + OBJ + " 01000000 " + H("OBJECT", ID) + " 2a000000 00000000", true])
		C.append([p + "object_ids_nil_item", TAI + " " + OBJ + " 01000000 " + H("NIL"), false])
		C.append([p + "object_ids_int_item", TAI + " " + OBJ + " 01000000 02000000 05000000", false])
		C.append([p + "object_ids_bit16_on_int_element", TAI + " 02000000 01000000 02000000 05000000", false])
		C.append([p + "object_class_node_empty", cat(hx(TA + " " + OBJ), cat(strbytes(SN, "Node".to_utf8()), hx("00000000"))), false])
		C.append([p + "object_class_node_empty_allowed", cat(hx(TA + " " + OBJ), cat(strbytes(SN, "Node".to_utf8()), hx("00000000"))), true])
		C.append([p + "object_class_node_with_id_item", cat(hx(TA + " " + OBJ), cat(strbytes(SN, "Node".to_utf8()), hx("01000000 " + H("OBJECT", ID) + " 2a000000 00000000"))), true])
		C.append([p + "object_class_node_with_reference_item", cat(hx(TA + " " + OBJ), cat(strbytes(SN, "Node".to_utf8()),
			cat(hx("01000000"), cat(strbytes(OBJ, "Reference".to_utf8()), hx("00000000"))))), true])
		C.append([p + "object_class_reference_with_reference_item", cat(hx(TA + " " + OBJ), cat(strbytes(SN, "Reference".to_utf8()),
			cat(hx("01000000"), cat(strbytes(OBJ, "Reference".to_utf8()), hx("00000000"))))), true])
		C.append([p + "object_class_reference_with_item_refused", cat(hx(TA + " " + OBJ), cat(strbytes(SN, "Reference".to_utf8()),
			cat(hx("01000000"), cat(strbytes(OBJ, "Reference".to_utf8()), hx("00000000"))))), false])
		C.append([p + "object_class_unknown_empty", cat(hx(TA + " " + OBJ), cat(strbytes(SN, "NoSuchClass".to_utf8()), hx("00000000"))), false])
		C.append([p + "object_class_unknown_empty_allowed", cat(hx(TA + " " + OBJ), cat(strbytes(SN, "NoSuchClass".to_utf8()), hx("00000000"))), true])
		C.append([p + "object_class_empty_name_allowed", cat(hx(TA + " " + OBJ), cat(strbytes(SN, PoolByteArray()), hx("00000000"))), true])
		C.append([p + "object_class_name_as_string", cat(hx(TA + " " + OBJ), cat(strbytes(H("STRING"), "Node".to_utf8()), hx("00000000"))), true])
		C.append([p + "object_class_name_as_int", TA + " " + OBJ + " 02000000 05000000 00000000", true])
		C.append([p + "object_class_name_missing", TA + " " + OBJ, true])
		C.append([p + "object_class_name_invalid_utf8", cat(hx(TA + " " + OBJ), cat(strbytes(SN, hx("c0 80")), hx("00000000"))), true])
	add_crafted(C)


func ARR_H():
	return H("ARRAY")


# n nested containers: typed arrays of Array (header_hex) and Arrays in turn, the outermost a
# typed one, the innermost empty.
func nested_typed(header_hex, n):
	var b = PoolByteArray()
	for i in range(n - 1):
		if i % 2 == 0:
			b.append_array(hx(header_hex + " " + H("ARRAY") + " 01000000"))
		else:
			b.append_array(hx(H("ARRAY") + " 01000000"))
	if (n - 1) % 2 == 0:
		b.append_array(hx(header_hex + " " + H("ARRAY") + " 00000000"))
	else:
		b.append_array(hx(H("ARRAY") + " 00000000"))
	return b

