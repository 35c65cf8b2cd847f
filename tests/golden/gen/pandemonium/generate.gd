# Golden-data generator for the Pandemonium dialects of the Variant binary format: the v3.8.0-v4.9.0
# numbering (run on Pandemonium v4.9.0) and the v5.0.0+ numbering (run on v5.2.0).
# Output format: tests/golden/FORMAT.md. Run through run.sh (next to this file), or:
#   pandemonium-server --path <this dir> -s res://generate.gd OUT.json 2>ERR.log
# Pandemonium is a Godot 3 fork, and so is this generator (a port of gen/godot3/generate.gd):
# stderr MUST be redirected to a regular file, because no decode error code reaches scripts
# (PacketPeer.get_packet_error() stays 0 after a failed get_var()); the code of every failed decode
# is read back from the engine's own error log (the innermost "Returned: ERR_*" printed by
# core/io/marshalls.cpp), between markers this script prints to stderr. The file is found through
# /proc/self/fd/2, or --stderr=PATH. Where the log names no code (an ERR_FAIL_*_MSG that prints only
# its message), "error" is null. No decode size either: no script API returns it ("size": null).
#
# Type ids differ between the two numberings, so nothing here hard-codes one: the ids come from
# typeof() of sample values (T, below), and crafted byte strings are built from them (H()).
# Values are described in the Godot 4 vocabulary (FORMAT.md); the Godot 4 type ids that stand for
# each Pandemonium type are in _init_types(). Every Desc of a top-level value is checked against
# the bytes the engine wrote (check_case); a mismatch fails the run.
extends SceneTree

const MARK = "@@FVC-GOLDEN"

var _spb = StreamPeerBuffer.new()
var case_lines = []
var malformed_lines = []
var encode_failures = []
var warnings = []
var problems = []         # self-check failures: the run fails
var notes = []            # observations worth printing
var utf_divergences = []  # texts whose code points the engine's own to_utf8() rewrites
var errlog = File.new()
var errpos = 0
var mark_seq = 0
var keep = []             # objects kept alive until the end
var rng_state = 1
var ERRS = {}
var n_ok = 0
var n_fail = 0
var n_unknown_code = 0
var T = {}                # Pandemonium type name -> this engine's type id
var TN = {}               # type id -> name
var G4 = {}               # type id -> the Godot 4 type id that describes it
var WIRE_ONLY = {}        # ids whose Godot 4 counterpart is an Array (kept as "wire_type")
var typed5 = null         # typed5.gd on engines with TypedArray (v5+)
var nodepath_leak = false
var dialect = ""


func _init():
	var out = ""
	var errpath = "/proc/self/fd/2"
	for a in OS.get_cmdline_args():
		if a.begins_with("--stderr="):
			errpath = a.substr(9, a.length() - 9)
		elif a.ends_with(".json"):
			out = a
	if out == "":
		printerr("usage: -s res://generate.gd OUT.json [--stderr=PATH]")
		quit(2)
		return
	_init_errs()
	_init_types()
	if errlog.open(errpath, File.READ) != OK:
		printerr("cannot open stderr log " + errpath)
		quit(3)
		return
	errpos = errlog.get_len()
	# Check that stderr really is a file we can read back.
	printerr(MARK + " PROBE")
	if read_new_stderr().find(MARK + " PROBE") < 0:
		print("stderr is not readable back (redirect it to a regular file)")
		quit(4)
		return

	gen_cases()
	if typed5 != null:
		gen_typed_cases()
	gen_malformed()

	for w in warnings:
		print("WARNING: " + w)
	for w in utf_divergences:
		print("note: to_utf8() differs from the code points: " + w)
	for w in notes:
		print("note: " + w)
	if not problems.empty():
		for p in problems:
			print("PROBLEM: " + p)
		print("%d self-check problems: nothing written" % problems.size())
		_free_kept()
		quit(6)
		return
	var f = File.new()
	if f.open(out, File.WRITE) != OK:
		printerr("cannot write " + out)
		_free_kept()
		quit(5)
		return
	f.store_string("{\"engine\": " + to_json(Engine.get_version_info().string) + ",\n")
	f.store_string("\"dialect\": " + to_json(dialect) + ",\n")
	f.store_string("\"nodepath_padding_leaks\": " + to_json(nodepath_leak) + ",\n")
	f.store_string("\"error_source\": " + to_json("Error codes come from the engine's own error log: " +
		"the first 'Returned: ERR_*' that core/io/marshalls.cpp prints while PacketPeerStream.get_var() " +
		"decodes the packet (stderr read back between markers; the depth limit prints only its message, " +
		"'Variant is too deep', i.e. ERR_OUT_OF_MEMORY). null where the log names no code. " +
		"PacketPeer.get_packet_error() stays 0 for decode failures, and no script API returns the " +
		"size a decode consumed (size: null). Texts are described from their code points in " +
		"generalized UTF-8, not through the engine's to_utf8().") + ",\n")
	f.store_string("\"encode_failures\": " + to_json(encode_failures) + ",\n")
	f.store_string("\"cases\": [\n" + PoolStringArray(case_lines).join(",\n") + "\n],\n")
	f.store_string("\"malformed\": [\n" + PoolStringArray(malformed_lines).join(",\n") + "\n]}\n")
	f.close()
	print("%s (%s): %d cases, %d malformed (%d ok, %d failed, %d failed with no code in the log), %d encode failures, %d warnings" % [
		Engine.get_version_info().string, dialect, case_lines.size(), malformed_lines.size(), n_ok, n_fail,
		n_unknown_code, encode_failures.size(), warnings.size()])
	_free_kept()
	quit(0)


func _free_kept():
	for o in keep:
		if o is Object and is_instance_valid(o) and not (o is Reference):
			o.free()
	keep.clear()


# Type ids from values (typeof), each with the Godot 4 type id that describes it (FORMAT.md).
# POOL_VECTOR2I/3I/4I_ARRAY, TYPED_ARRAY and PACKED_TYPED_ARRAY have no Godot 4 type of their
# own: their counterpart is an Array (typed Array[Vector2i] ..., a typed Array), 28.
func _init_types():
	var obj = Reference.new()
	keep.append(obj)
	var table = [
		["NIL", null, 0], ["BOOL", false, 1], ["INT", 0, 2], ["REAL", 0.5, 3], ["STRING", "", 4],
		["VECTOR2", Vector2(), 5], ["VECTOR2I", Vector2i(), 6], ["RECT2", Rect2(), 7], ["RECT2I", Rect2i(), 8],
		["VECTOR3", Vector3(), 9], ["VECTOR3I", Vector3i(), 10], ["TRANSFORM2D", Transform2D(), 11],
		["VECTOR4", Vector4(), 12], ["VECTOR4I", Vector4i(), 13], ["PLANE", Plane(), 14],
		["QUATERNION", Quaternion(), 15], ["AABB", AABB(), 16], ["BASIS", Basis(), 17],
		["TRANSFORM", Transform(), 18], ["PROJECTION", Projection(), 19], ["COLOR", Color(), 20],
		["STRING_NAME", StringName("a"), 21], ["NODE_PATH", NodePath("a"), 22], ["RID", RID(), 23],
		["OBJECT", obj, 24], ["DICTIONARY", {}, 27], ["ARRAY", [], 28],
		["POOL_BYTE_ARRAY", PoolByteArray(), 29], ["POOL_INT_ARRAY", PoolIntArray(), 30],
		["POOL_REAL_ARRAY", PoolRealArray(), 32], ["POOL_STRING_ARRAY", PoolStringArray(), 34],
		["POOL_VECTOR2_ARRAY", PoolVector2Array(), 35], ["POOL_VECTOR2I_ARRAY", PoolVector2iArray(), 28],
		["POOL_VECTOR3_ARRAY", PoolVector3Array(), 36], ["POOL_VECTOR3I_ARRAY", PoolVector3iArray(), 28],
		["POOL_VECTOR4_ARRAY", PoolVector4Array(), 38], ["POOL_VECTOR4I_ARRAY", PoolVector4iArray(), 28],
		["POOL_COLOR_ARRAY", PoolColorArray(), 37]]
	for row in table:
		_add_type(row[0], typeof(row[1]), row[2])
	for n in ["POOL_VECTOR2I_ARRAY", "POOL_VECTOR3I_ARRAY", "POOL_VECTOR4I_ARRAY"]:
		WIRE_ONLY[T[n]] = true
	# TYPE_MAX is the first id the decoder rejects (38 in v3.8-v4.9, 40 from v5.0). Two ids that no
	# value above has are TypedArray and PackedTypedArray (v5.0+).
	var gaps = []
	for id in range(TYPE_MAX):
		if not TN.has(id):
			gaps.append(id)
	if gaps.empty():
		dialect = "pandemonium38"
	else:
		typed5 = load("res://typed5.gd").new()
		_add_type("TYPED_ARRAY", typeof(typed5.empty(0, "int")), 28)
		_add_type("PACKED_TYPED_ARRAY", typeof(typed5.empty(1, "int")), 28)
		WIRE_ONLY[T.TYPED_ARRAY] = true
		WIRE_ONLY[T.PACKED_TYPED_ARRAY] = true
		dialect = "pandemonium5"
	T["MAX"] = TYPE_MAX
	if TN.size() != TYPE_MAX:
		problems.append("%d type ids known, TYPE_MAX is %d" % [TN.size(), TYPE_MAX])


func _add_type(name, id, g4):
	if TN.has(id):
		problems.append("type id %d is both %s and %s" % [id, TN[id], name])
	T[name] = id
	TN[id] = name
	G4[id] = g4


func _init_errs():
	ERRS = {
		"FAILED": FAILED, "ERR_UNAVAILABLE": ERR_UNAVAILABLE, "ERR_UNCONFIGURED": ERR_UNCONFIGURED,
		"ERR_UNAUTHORIZED": ERR_UNAUTHORIZED, "ERR_PARAMETER_RANGE_ERROR": ERR_PARAMETER_RANGE_ERROR,
		"ERR_OUT_OF_MEMORY": ERR_OUT_OF_MEMORY, "ERR_FILE_CORRUPT": ERR_FILE_CORRUPT,
		"ERR_FILE_EOF": ERR_FILE_EOF, "ERR_INVALID_DATA": ERR_INVALID_DATA,
		"ERR_INVALID_PARAMETER": ERR_INVALID_PARAMETER, "ERR_PARSE_ERROR": ERR_PARSE_ERROR,
		"ERR_BUG": ERR_BUG, "ERR_CANT_CREATE": ERR_CANT_CREATE, "ERR_ALREADY_EXISTS": ERR_ALREADY_EXISTS,
		"ERR_DOES_NOT_EXIST": ERR_DOES_NOT_EXIST, "ERR_BUSY": ERR_BUSY,
	}


# ---------------------------------------------------------------- helpers

func rnd():
	rng_state = (rng_state * 1103515245 + 12345) % 2147483648
	return rng_state


func rr(n):
	return (rnd() >> 7) % n


func u64s(x):
	# unsigned decimal text of a 64-bit value held in a (signed) GDScript int
	if x >= 0:
		return str(x)
	var half = (x >> 1) & 0x7FFFFFFFFFFFFFFF
	var bit = x & 1
	return str(half / 5) + str((half % 5) * 2 + bit)


func hexd(x):
	_spb.clear()
	_spb.put_double(x)
	return _spb.data_array.hex_encode()


# Texts are described from their code points (ord_at), each written in the generalized UTF-8 form
# (1 to 6 bytes, surrogates as 3-byte sequences). For every valid text this equals to_utf8(); it
# differs only where the engine holds code points that valid UTF-8 cannot carry (its strings are
# UTF-32, and char() makes such code points), which the engine's own UTF-8 encoder rewrites.
func utf(s):
	var t = String(s)
	var fast = t.to_utf8()
	if fast.size() == t.length() and fast.get_string_from_utf8() == t:
		return fast.hex_encode()   # ASCII
	var out = PoolByteArray()
	for i in range(t.length()):
		var c = t.ord_at(i)
		if c < 0x80:
			out.append(c)
		elif c < 0x800:
			out.append(0xC0 | (c >> 6))
			out.append(0x80 | (c & 0x3F))
		elif c < 0x10000:
			out.append(0xE0 | (c >> 12))
			out.append(0x80 | ((c >> 6) & 0x3F))
			out.append(0x80 | (c & 0x3F))
		elif c < 0x200000:
			out.append(0xF0 | (c >> 18))
			out.append(0x80 | ((c >> 12) & 0x3F))
			out.append(0x80 | ((c >> 6) & 0x3F))
			out.append(0x80 | (c & 0x3F))
		elif c < 0x4000000:
			out.append(0xF8 | (c >> 24))
			out.append(0x80 | ((c >> 18) & 0x3F))
			out.append(0x80 | ((c >> 12) & 0x3F))
			out.append(0x80 | ((c >> 6) & 0x3F))
			out.append(0x80 | (c & 0x3F))
		else:
			out.append(0xFC | ((c >> 30) & 0x01))
			out.append(0x80 | ((c >> 24) & 0x3F))
			out.append(0x80 | ((c >> 18) & 0x3F))
			out.append(0x80 | ((c >> 12) & 0x3F))
			out.append(0x80 | ((c >> 6) & 0x3F))
			out.append(0x80 | (c & 0x3F))
	var h = out.hex_encode()
	if h != fast.hex_encode():
		utf_divergences.append(h + " -> to_utf8 " + fast.hex_encode())
	return h


func dbits(hi, lo):
	# double from its IEEE bits (hi, lo as 32-bit words)
	_spb.clear()
	_spb.put_32(lo)
	_spb.put_32(hi)
	_spb.seek(0)
	return _spb.get_double()


func fbits(bits):
	# f32 from its bits, widened to double (exact)
	_spb.clear()
	_spb.put_32(bits)
	_spb.seek(0)
	return _spb.get_float()


func hx(s):
	s = s.replace(" ", "")
	var b = PoolByteArray()
	var i = 0
	while i < s.length():
		b.append(("0x" + s.substr(i, 2)).hex_to_int())
		i += 2
	return b


func u8(arr):
	return PoolByteArray(arr).get_string_from_utf8()


func cat(a, b):
	var r = PoolByteArray(a)
	r.append_array(b)
	return r


func rep(s, n):
	var r = ""
	for i in range(n):
		r += s
	return r


func read_new_stderr():
	var l = errlog.get_len()
	if l <= errpos:
		return ""
	errlog.seek(errpos)
	var buf = errlog.get_buffer(l - errpos)
	errpos = l
	return buf.get_string_from_ascii()


func _extract_err(rec):
	for key in ["Returned: ", "Returning: "]:
		var i = rec.find(key)
		while i >= 0:
			var j = i + key.length()
			var tok = ""
			while j < rec.length():
				var c = rec[j]
				if (c >= "A" and c <= "Z") or c == "_" or (c >= "0" and c <= "9"):
					tok += c
					j += 1
				else:
					break
			if tok.begins_with("ERR_"):
				return tok
			i = rec.find(key, i + 1)
	return ""


# Decodes one packet through PacketPeerStream (never bytes2var: a failing bytes2var raises a
# script error). Returns {ok, err, value}. The error code comes from the engine's error log.
func decode_packet(bytes, allow):
	var sp = StreamPeerBuffer.new()
	sp.put_32(bytes.size())
	if bytes.size() > 0:
		sp.put_data(bytes)
	sp.seek(0)
	var pp = PacketPeerStream.new()
	pp.input_buffer_max_size = 1 << 20
	pp.stream_peer = sp
	pp.allow_object_decoding = allow
	mark_seq += 1
	var begin = "%s BEGIN %d" % [MARK, mark_seq]
	var end = "%s END %d" % [MARK, mark_seq]
	read_new_stderr()
	printerr(begin)
	var v = pp.get_var(allow)
	var perr = pp.get_packet_error()
	printerr(end)
	var text = read_new_stderr()
	var a = text.find(begin)
	var b = text.find(end)
	if a < 0 or b < 0:
		warnings.append("markers not found for decode %d" % mark_seq)
		return {"ok": false, "err": -1, "value": null}
	var lines = text.substr(a, b - a).split("\n")
	var failed = false
	var code = ""
	for i in range(lines.size()):
		var line = lines[i]
		if line.find("_bnd_get_var") >= 0 or line.find("packet_peer.cpp") >= 0:
			failed = true
		if line.begins_with("ERROR:") and code == "":
			var rec = line
			if i + 1 < lines.size():
				rec += " " + lines[i + 1]
			if rec.find("marshalls.cpp") >= 0:
				code = _extract_err(rec)
				if code == "" and rec.find("Variant is too deep") >= 0:
					# ERR_FAIL_COND_V_MSG(p_depth > MAX_RECURSION_DEPTH, ERR_OUT_OF_MEMORY, "Variant is
					# too deep. Bailing."): only the message is printed, not the returned code.
					code = "ERR_OUT_OF_MEMORY"
	if perr != OK:
		warnings.append("get_packet_error() = %d for decode %d" % [perr, mark_seq])
	if not failed:
		if code != "":
			warnings.append("decode %d succeeded but marshalls logged %s" % [mark_seq, code])
		return {"ok": true, "err": OK, "value": v}
	var n = null   # the log names no code
	if ERRS.has(code):
		n = ERRS[code]
	elif code == "":
		n_unknown_code += 1
	else:
		warnings.append("decode %d failed with unrecognised error '%s'" % [mark_seq, code])
	return {"ok": false, "err": n, "value": null}


# Error of encoding v, without risking a script error (var2bytes raises one on failure).
func encode_error(v, full):
	var sp = StreamPeerBuffer.new()
	var pp = PacketPeerStream.new()
	pp.output_buffer_max_size = 1 << 20
	pp.stream_peer = sp
	return pp.put_var(v, full)


# ---------------------------------------------------------------- describe

func fl(arr):
	var r = []
	for x in arr:
		r.append(hexd(x))
	return r


func u32hex(x):
	_spb.clear()
	_spb.put_32(x)
	return _spb.data_array.hex_encode()


# The hex of int32 components / f32 components of the vectors of a pool array.
func pool_hex(v, comps, ints):
	_spb.clear()
	for e in v:
		for c in comps:
			if ints:
				_spb.put_32(e[c])
			else:
				_spb.put_float(e[c])
	return _spb.data_array.hex_encode()


func typed_desc(vt, cname):
	if vt == T.NIL:
		return null
	if vt == T.OBJECT:
		if cname == "":
			return {"kind": "builtin", "type": G4[vt]}
		return {"kind": "class", "name": utf(cname)}
	if not G4.has(vt):
		# an element type id the engine stored unchecked (TYPED_ARRAY decode does not range-check it)
		return {"kind": "builtin", "type": null, "wire_type": vt}
	var d = {"kind": "builtin", "type": G4[vt]}
	if WIRE_ONLY.has(vt):
		d["wire_type"] = vt
	return d


func describe(v, full, decoded):
	var t = typeof(v)
	var n = TN.get(t, "?")
	if n == "NIL":
		return {"t": "nil"}
	elif n == "BOOL":
		return {"t": "bool", "v": v}
	elif n == "INT":
		return {"t": "int", "v": str(v)}
	elif n == "REAL":
		return {"t": "float", "v": hexd(v)}
	elif n == "STRING":
		return {"t": "string", "v": utf(v)}
	elif n == "STRING_NAME":
		return {"t": "string_name", "v": utf(String(v))}
	elif n == "VECTOR2":
		return {"t": "vector2", "v": fl([v.x, v.y])}
	elif n == "VECTOR2I":
		return {"t": "vector2i", "v": [v.x, v.y]}
	elif n == "RECT2":
		return {"t": "rect2", "v": fl([v.position.x, v.position.y, v.size.x, v.size.y])}
	elif n == "RECT2I":
		return {"t": "rect2i", "v": [v.position.x, v.position.y, v.size.x, v.size.y]}
	elif n == "VECTOR3":
		return {"t": "vector3", "v": fl([v.x, v.y, v.z])}
	elif n == "VECTOR3I":
		return {"t": "vector3i", "v": [v.x, v.y, v.z]}
	elif n == "VECTOR4":
		return {"t": "vector4", "v": fl([v.x, v.y, v.z, v.w])}
	elif n == "VECTOR4I":
		return {"t": "vector4i", "v": [v.x, v.y, v.z, v.w]}
	elif n == "TRANSFORM2D":
		# column-major: x axis, y axis, origin
		return {"t": "transform2d", "v": fl([v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y])}
	elif n == "PLANE":
		return {"t": "plane", "v": fl([v.normal.x, v.normal.y, v.normal.z, v.d])}
	elif n == "QUATERNION":
		return {"t": "quaternion", "v": fl([v.x, v.y, v.z, v.w])}
	elif n == "AABB":
		return {"t": "aabb", "v": fl([v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z])}
	elif n == "BASIS":
		return {"t": "basis", "v": fl(basis_rows(v))}
	elif n == "TRANSFORM":
		var c = basis_rows(v.basis)
		c.append(v.origin.x)
		c.append(v.origin.y)
		c.append(v.origin.z)
		return {"t": "transform3d", "v": fl(c)}
	elif n == "PROJECTION":
		# the four columns x, y, z, w, each x, y, z, w
		var c = []
		for col in [v.x, v.y, v.z, v.w]:
			c.append_array([col.x, col.y, col.z, col.w])
		return {"t": "projection", "v": fl(c)}
	elif n == "COLOR":
		return {"t": "color", "v": fl([v.r, v.g, v.b, v.a])}
	elif n == "NODE_PATH":
		var names = []
		var subnames = []
		for i in range(v.get_name_count()):
			names.append(utf(v.get_name(i)))
		for i in range(v.get_subname_count()):
			subnames.append(utf(v.get_subname(i)))
		return {"t": "node_path", "names": names, "subnames": subnames, "absolute": v.is_absolute()}
	elif n == "RID":
		return {"t": "rid", "v": "0"}
	elif n == "OBJECT":
		if not is_instance_valid(v):
			return {"t": "nil"}   # a null or freed Object (the encoder writes it as NIL)
		if decoded and v.get_class() == "EncodedObjectAsID":
			return {"t": "object_id", "v": u64s(v.get_object_id())}
		if not full:
			return {"t": "object_id", "v": u64s(v.get_instance_id())}
		var props = []
		for p in v.get_property_list():
			if p.usage & PROPERTY_USAGE_STORAGE:
				props.append([utf(p.name), describe(v.get(p.name), full, decoded)])
		return {"t": "object", "class": utf(v.get_class()), "props": props}
	elif n == "DICTIONARY":
		var entries = []
		for k in v.keys():
			entries.append([describe(k, full, decoded), describe(v[k], full, decoded)])
		return {"t": "dictionary", "key_typed": null, "value_typed": null, "entries": entries}
	elif n == "ARRAY":
		var items = []
		for x in v:
			items.append(describe(x, full, decoded))
		return {"t": "array", "typed": null, "items": items}
	elif n == "TYPED_ARRAY" or n == "PACKED_TYPED_ARRAY":
		var items = []
		for i in range(v.size()):
			items.append(describe(v.get(i), full, decoded))
		return {"t": "array", "typed": typed_desc(v.get_variant_type(), String(v.get_object_class_name())),
			"form": n.to_lower(), "items": items}
	elif n == "POOL_BYTE_ARRAY":
		return {"t": "packed_byte_array", "v": v.hex_encode()}
	elif n == "POOL_INT_ARRAY":
		_spb.clear()
		for x in v:
			_spb.put_32(x)
		return {"t": "packed_int32_array", "v": _spb.data_array.hex_encode()}
	elif n == "POOL_REAL_ARRAY":
		_spb.clear()
		for x in v:
			_spb.put_float(x)
		return {"t": "packed_float32_array", "v": _spb.data_array.hex_encode()}
	elif n == "POOL_STRING_ARRAY":
		var items = []
		for x in v:
			items.append(utf(x))
		return {"t": "packed_string_array", "v": items}
	elif n == "POOL_VECTOR2_ARRAY":
		return {"t": "packed_vector2_array", "v": pool_hex(v, ["x", "y"], false)}
	elif n == "POOL_VECTOR2I_ARRAY":
		return {"t": "packed_vector2i_array", "v": pool_hex(v, ["x", "y"], true)}
	elif n == "POOL_VECTOR3_ARRAY":
		return {"t": "packed_vector3_array", "v": pool_hex(v, ["x", "y", "z"], false)}
	elif n == "POOL_VECTOR3I_ARRAY":
		return {"t": "packed_vector3i_array", "v": pool_hex(v, ["x", "y", "z"], true)}
	elif n == "POOL_VECTOR4_ARRAY":
		return {"t": "packed_vector4_array", "v": pool_hex(v, ["x", "y", "z", "w"], false)}
	elif n == "POOL_VECTOR4I_ARRAY":
		return {"t": "packed_vector4i_array", "v": pool_hex(v, ["x", "y", "z", "w"], true)}
	elif n == "POOL_COLOR_ARRAY":
		return {"t": "packed_color_array", "v": pool_hex(v, ["r", "g", "b", "a"], false)}
	problems.append("describe: unknown type %d" % t)
	return {"t": "unknown_%d" % t}


func basis_rows(b):
	# Basis.x/.y/.z are the columns; the wire is row-major (elements[i] are rows).
	return [b.x.x, b.y.x, b.z.x, b.x.y, b.y.y, b.z.y, b.x.z, b.y.z, b.z.z]


# Frees the Nodes a decode made (they are not reference-counted), once described.
func free_nodes(v):
	var n = TN.get(typeof(v), "?")
	if n == "OBJECT":
		if is_instance_valid(v) and not (v is Reference) and v.get_class() != "EncodedObjectAsID":
			if not keep.has(v):
				v.free()
	elif n == "ARRAY":
		for x in v:
			free_nodes(x)
	elif n == "DICTIONARY":
		for k in v.keys():
			free_nodes(v[k])
			free_nodes(k)
	elif n == "TYPED_ARRAY" or n == "PACKED_TYPED_ARRAY":
		for i in range(v.size()):
			free_nodes(v.get(i))


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
		if fl(f32s_of(b, 4, REAL_COUNTS[n])) != desc.v:
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
	var b = hx(u32hex(T.OBJECT))
	b.append_array(strpay(o.get_class()))
	var props = []
	for p in o.get_property_list():
		if p.usage & PROPERTY_USAGE_STORAGE:
			props.append(p.name)
	b.append_array(hx(u32hex(props.size())))
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

var case_names = {}


func add_case(name, v, full = false):
	if case_names.has(name):
		warnings.append("duplicate case name " + name)
		return
	case_names[name] = true
	var e = {"name": name, "full_objects": full, "value": describe(v, full, false)}
	var eerr = encode_error(v, full)
	if eerr != OK:
		encode_failures.append(name)
		e["bytes"] = ""
		e["encode_error"] = eerr
		e["decoded"] = {"t": "nil"}   # nothing to decode (listed in encode_failures)
		case_lines.append(to_json(e))
		return
	var bytes = var2bytes(v, full)
	e["bytes"] = bytes.hex_encode()
	check_case(name, v, bytes, e["value"], full)
	var d = decode_packet(bytes, full)
	if d.ok:
		e["decoded"] = describe(d.value, full, true)
		free_nodes(d.value)
	else:
		# Kept: Pandemonium cannot decode some of its own encodings (docs/wire_format.md#pandemonium-decoder-bugs).
		e["decoded"] = null
		e["decode_error"] = d.err
	case_lines.append(to_json(e))


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


func nested_array(levels, leaf):
	var v = leaf
	for i in range(levels):
		v = [v]
	return v


func nested_dict(levels, leaf):
	var v = leaf
	for i in range(levels):
		v = {"k": v}
	return v


func gen_cases():
	# --- nil / bool
	add_case("nil", null)
	add_case("bool/true", true)
	add_case("bool/false", false)

	# --- int
	var imin = -9223372036854775807 - 1
	var ints = [["0", 0], ["1", 1], ["-1", -1], ["max32", 2147483647], ["max32+1", 2147483648],
		["min32", -2147483648], ["min32-1", -2147483649], ["max64", 9223372036854775807],
		["min64", imin], ["min64+1", imin + 1], ["0x12345678", 0x12345678], ["2^32", 4294967296],
		["-2^32", -4294967296], ["2^53+1", 9007199254740993], ["-2^53-1", -9007199254740993],
		["255", 255], ["-128", -128], ["65536", 65536], ["uint32max", 4294967295],
		["0xF123456789ABCDEF", -1070935975390360081], ["5", 5], ["max32-1", 2147483646],
		["min32+1", -2147483647], ["2^40", 1099511627776], ["2^62", 4611686018427387904],
		["-2^62", -4611686018427387904], ["-2^63+2^31", imin + 2147483648]]
	for p in ints:
		add_case("int/" + p[0], p[1])

	# --- float (REAL)
	var floats = [
		["0.0", 0.0], ["-0.0", dbits(0x80000000, 0)], ["0.5", 0.5], ["1.0", 1.0], ["-1.5", -1.5],
		["0.1", 0.1], ["1/3", 1.0 / 3.0], ["0.15625", 0.15625], ["1e300", 1e300], ["-1e300", -1e300],
		["pi", PI], ["1e-300", 1e-300], ["100000000.0", 100000000.0], ["16777217.0", 16777217.0],
		["flt_max", dbits(0x47EFFFFF, 0xE0000000)], ["-flt_max", dbits(0xC7EFFFFF, 0xE0000000)],
		["flt_max_next_double", dbits(0x47EFFFFF, 0xE0000001)],
		["flt_max_halfway", dbits(0x47EFFFFF, 0xF0000000)],
		["flt_min_normal", dbits(0x38100000, 0)], ["flt_min_subnormal", dbits(0x36A00000, 0)],
		["flt_subnormal_inexact", dbits(0x36A00000, 1)],
		["dbl_min_subnormal", dbits(0, 1)], ["dbl_max_subnormal", dbits(0x000FFFFF, 0xFFFFFFFF)],
		["dbl_min_normal", dbits(0x00100000, 0)], ["dbl_max", dbits(0x7FEFFFFF, 0xFFFFFFFF)],
		["inf", dbits(0x7FF00000, 0)], ["-inf", dbits(0xFFF00000, 0)],
		["nan", dbits(0x7FF80000, 0)], ["nan_neg", dbits(0xFFF80000, 0)],
		["nan_payload", dbits(0x7FF80000, 0x00000123)], ["nan_payload_high", dbits(0x7FFABCDE, 0xF0123456)],
		["nan_f32_exact_bits", dbits(0x7FF80000, 0x20000000)],
		["nan_engine", NAN], ["inf_engine", INF], ["2^-149", fbits(1)], ["f32_0.1", fbits(0x3DCCCCCD)],
		["0.33333333333333333", 0.33333333333333333], ["-2.5e-10", -2.5e-10], ["65504.0", 65504.0],
		["1e38", 1e38], ["3e38", 3e38], ["-1e-45", -1e-45], ["-16777217.0", -16777217.0],
		["nan_f32_like", dbits(0x7FC00000, 0)], ["snan_payload", dbits(0x7FF00000, 0x00000001)]]
	for p in floats:
		add_case("float/" + p[0], p[1])

	# --- String
	var abc = "abcdefghijklmnopqrstuvwxyz0123456789"
	add_case("string/empty", "")
	for n in range(1, 10):
		add_case("string/len%d" % n, abc.substr(0, n))
	var long_s = ""
	var parts = []
	for i in range(10000 / 36 + 1):
		parts.append(abc)
	long_s = PoolStringArray(parts).join("").substr(0, 10000)
	add_case("string/len10000", long_s)
	add_case("string/e_acute", u8([0xC3, 0xA9]))
	add_case("string/nihon", u8([0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC]))
	add_case("string/emoji_gclef", u8([0xF0, 0x9F, 0x98, 0x80, 0xF0, 0x9D, 0x84, 0x9E]))
	add_case("string/mixed", u8([0x61, 0xC3, 0xA9, 0xE6, 0x97, 0xA5, 0xF0, 0x9F, 0x98, 0x80, 0x7A]))
	add_case("string/leading_bom", char(0xFEFF) + "abc")
	add_case("string/only_bom", char(0xFEFF))
	add_case("string/double_bom", char(0xFEFF) + char(0xFEFF) + "x")
	add_case("string/inner_bom", u8([0x61, 0xEF, 0xBB, 0xBF, 0x62]))
	add_case("string/u+ffff", u8([0xEF, 0xBF, 0xBF]))
	add_case("string/u+10ffff", u8([0xF4, 0x8F, 0xBF, 0xBF]))
	add_case("string/u+0080", u8([0xC2, 0x80]))
	add_case("string/u+07ff_u+0800", u8([0xDF, 0xBF, 0xE0, 0xA0, 0x80]))
	add_case("string/controls", u8([0x09, 0x0A, 0x0D, 0x01, 0x7F]))
	add_case("string/quote_backslash", "\"\\/")
	# Code points that valid UTF-8 cannot carry (Pandemonium strings are UTF-32 and can hold
	# them): the engine writes bytes its own (strict) decoder then refuses. Desc = generalized
	# UTF-8 of the code points.
	add_case("string/nonunicode/lone_surrogate", "a" + char(0xD800) + "b")
	add_case("string/nonunicode/surrogate_pair_units", char(0xD83D) + char(0xDE00))
	add_case("string/nonunicode/above_10ffff", char(0x110000))
	add_case("string/nonunicode/5byte", char(0x200000))
	add_case("string/long_multibyte", rep(u8([0xE6, 0x97, 0xA5]), 1000) + "x")

	# --- math types
	add_case("vector2/zero", Vector2())
	add_case("vector2/1_2", Vector2(1, 2))
	add_case("vector2/inexact", Vector2(0.1, -1.0 / 3.0))
	add_case("vector2/special", Vector2(dbits(0x7FF00000, 0), dbits(0x80000000, 0)))
	add_case("vector2/f32_subnormal", Vector2(fbits(1), fbits(0x80000001)))
	add_case("vector2/big", Vector2(1e30, -3e38))
	add_case("rect2/distinct", Rect2(0.1, 0.2, 0.3, 0.4))
	add_case("rect2/negative_size", Rect2(-1.5, 2.25, -3.0, 1e-3))
	add_case("vector3/zero", Vector3())
	add_case("vector3/1_2_3", Vector3(1, 2, 3))
	add_case("vector3/inexact", Vector3(0.1, 0.2, 0.7))
	add_case("vector3/huge", Vector3(1e38, -1e-38, 123456.789))
	add_case("transform2d/identity", Transform2D())
	add_case("transform2d/distinct", Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))
	add_case("transform2d/rotated", Transform2D(0.5, Vector2(1.1, -2.2)))
	add_case("plane/distinct", Plane(0.1, 0.2, 0.3, 0.4))
	add_case("plane/unit", Plane(Vector3(0, 1, 0), -7.5))
	add_case("quaternion/identity", Quaternion())
	add_case("quaternion/distinct", Quaternion(0.1, 0.2, 0.3, 0.4))
	add_case("quaternion/axis_angle", Quaternion(Vector3(1, 0, 0), 1.0))
	add_case("aabb/distinct", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add_case("aabb/inexact", AABB(Vector3(0.1, -0.2, 0.3), Vector3(1.1, 2.2, 3.3)))
	add_case("basis/identity", Basis())
	add_case("basis/distinct", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add_case("basis/rotated", Basis(Vector3(0.1, 0.2, 0.3).normalized(), 0.7))
	add_case("transform3d/identity", Transform())
	add_case("transform3d/distinct", Transform(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12)))
	add_case("transform3d/inexact", Transform(Basis(Vector3(0, 1, 0), 0.3), Vector3(0.1, 0.2, 0.3)))
	add_case("color/red", Color(1, 0, 0, 1))
	add_case("color/distinct", Color(0.1, 0.2, 0.3, 0.4))
	add_case("color/out_of_range", Color(-1.0, 2.5, 1e-3, 0.0))
	add_case("color/html", Color("#80ff4020"))
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

	# --- NodePath
	var paths = [["relative", "a"], ["relative2", "a/b"], ["absolute", "/root"],
		["absolute_deep", "/root/Main/Player"], ["subnames", "a/b:c:d"], ["only_subname", ":x"],
		["only_subnames", ":x:y:z"], ["empty", ""], ["root_only", "/"], ["dot", "."], ["dotdot", "../a"],
		["prop", "Sprite:position:x"], ["issue44999", "Path2D/PathFollow2D/Sprite:position:x"],
		["len4", "abcd/efgh:ijkl"], ["len1to5", "a/bb/ccc/dddd/eeeee"],
		["unicode", u8([0xE3, 0x83, 0x8E, 0xE3, 0x83, 0xBC, 0xE3, 0x83, 0x89]) + "/" + u8([0xC3, 0xA9]) + ":" + u8([0xF0, 0x9F, 0x98, 0x80])],
		["absolute_subname", "/root:visible"]]
	for p in paths:
		add_case("node_path/" + p[0], NodePath(p[1]))

	# --- RID
	add_case("rid/empty", RID())
	var shape = SphereShape.new()
	keep.append(shape)
	add_case("rid/physics_shape", shape.get_rid())
	var img = Image.new()
	img.create(2, 2, false, Image.FORMAT_RGBA8)
	var tex = ImageTexture.new()
	tex.create_from_image(img)
	keep.append(tex)
	add_case("rid/texture", tex.get_rid())

	# --- Objects
	var node = Node.new()
	keep.append(node)
	add_case("object/id_node", node)
	var ref = Reference.new()
	keep.append(ref)
	add_case("object/id_reference", ref)
	var plain = ClassDB.instance("Object")
	keep.append(plain)
	add_case("object/id_object", plain)
	var Payload = load("res://payload.gd")
	var scripted = Payload.new()
	keep.append(scripted)
	add_case("object/id_scripted", scripted)
	add_case("object/id_in_array", [node, ref, 1])
	add_case("object/null_id", node.get_parent())
	add_case("object/null_full", node.get_parent(), true)
	add_case("object/instance_from_id_0", instance_from_id(0))
	var freed = Node.new()
	freed.free()
	add_case("object/freed_id", freed)
	add_case("object/freed_full", freed, true)
	add_case("object/freed_in_array", [freed, 1])
	add_case("object/full_reference", Reference.new(), true)
	add_case("object/full_object", plain, true)
	var res = Resource.new()
	res.resource_name = "named"
	add_case("object/full_resource", res, true)
	add_case("object/full_resource_as_id", res, false)
	var curve = Curve.new()
	curve.add_point(Vector2(0, 0.1))
	curve.add_point(Vector2(0.5, 1.0), 0.25, -0.5)
	curve.add_point(Vector2(1, 0.3))
	add_case("object/full_curve", curve, true)
	var grad = Gradient.new()
	grad.add_point(0.3, Color(0.1, 0.2, 0.3, 0.4))
	add_case("object/full_gradient", grad, true)
	add_case("object/full_in_array", [Reference.new(), 5], true)
	add_case("object/full_in_dictionary", {"obj": res, 1: null}, true)
	add_case("object/full_nested_resource_in_array", [[res]], true)
	# A full scripted object embeds the GDScript object (with its source). Decoding those bytes
	# with objects allowed crashes both Pandemonium servers (SIGSEGV), so this case records the
	# encoding only; malformed/craft/object/full_scripted_refused decodes it with objects refused.
	add_encode_only_case("object/full_scripted", scripted, true,
		"decoding it with objects allowed crashes the engine (SIGSEGV)")
	add_case("object/id_scripted_in_dictionary", {"s": scripted})
	add_case("object/full_flag_no_objects", [1, "a"], true)

	# --- Dictionary
	add_case("dictionary/object_id_key", {node: 1, "x": ref})
	add_case("dictionary/nan_key", {dbits(0x7FF80000, 0): 1})
	add_case("dictionary/empty", {})
	add_case("dictionary/a_1", {"a": 1})
	add_case("dictionary/mixed_keys", {1: "int", "1": "string", 1.5: "float", true: "bool", null: "nil",
		Vector2(1, 2): "vec", NodePath("a/b"): "path", [1]: "array", {}: "dict", Color(1, 0, 0): "color"})
	add_case("dictionary/insertion_order", {"z": 1, "a": 2, "m": 3, 0: 4, -1: 5})
	add_case("dictionary/nested", {"a": {"b": {"c": [1, {"d": null}]}}, "e": []})
	add_case("dictionary/values_all_kinds", {"i": 1, "f": 0.1, "s": "str", "v": Vector3(1, 2, 3),
		"p": PoolByteArray([1, 2, 3]), "n": null, "b": false})

	# --- Array
	add_case("array/floats", [0.5, 0.1, dbits(0x80000000, 0), dbits(0x7FF00000, 0), dbits(0x7FF80000, 0x00000123)])
	add_case("array/ints", [0, -1, 2147483647, 2147483648, -2147483649, imin])
	add_case("array/strings", ["", "a", "ab", "abc", "abcd", u8([0xC3, 0xA9])])
	add_case("array/empty", [])
	add_case("array/1_a", [1, "a"])
	add_case("array/mixed", [null, true, 7, 0.1, "x", Vector2(1, 2), Rect2(), Vector3(), Transform2D(),
		Plane(), Quaternion(), AABB(), Basis(), Transform(), Color(), NodePath("a:b"), RID(),
		{}, [], PoolByteArray([1]), PoolIntArray([2]), PoolRealArray([3]), PoolStringArray(["4"]),
		PoolVector2Array([Vector2(5, 5)]), PoolVector3Array([Vector3(6, 6, 6)]), PoolColorArray([Color(7, 7, 7, 7)])])
	# Pandemonium's own types, but Vector4/Vector4i/Projection (under bug/: they break containers).
	add_case("array/mixed_pandemonium", [Vector2i(1, 2), rect2i(3, 4, 5, 6), Vector3i(7, 8, 9),
		StringName("sn"), PoolVector2iArray([Vector2i(1, -1)]), PoolVector3iArray([Vector3i(1, 2, 3)]),
		PoolVector4Array([Vector4(1, 2, 3, 3)]), PoolVector4iArray([Vector4i(1, 2, 3, 3)]), 7])
	add_case("dictionary/pandemonium_keys", {StringName("a"): 1, "a": 2, Vector2i(1, 2): 3, Vector3i(): 4,
		rect2i(0, 0, 1, 1): 5})
	add_case("array/nested", [[1], [2, [3, [4]]], []])
	add_case("array/of_empty", [[], {}, "", PoolByteArray()])

	# --- deep nesting (leaf int sits at depth = levels)
	for n in [100, 1023, 1024, 1025]:
		add_case("deep/array_%d" % n, nested_array(n, 1))
	for n in [100, 1024, 1025]:
		add_case("deep/dictionary_%d" % n, nested_dict(n, 1))
	add_case("deep/empty_arrays_1025", nested_array(1024, []))
	add_case("deep/empty_arrays_1026", nested_array(1025, []))

	# --- pool arrays
	for n in range(0, 10):
		var b = PoolByteArray()
		for i in range(n):
			b.append((i * 37 + 200) % 256)
		add_case("packed_byte_array/len%d" % n, b)
	add_case("packed_byte_array/len300", _bytes_len(300))
	add_case("packed_int32_array/empty", PoolIntArray())
	add_case("packed_int32_array/one", PoolIntArray([7]))
	add_case("packed_int32_array/extremes", PoolIntArray([2147483647, -2147483648, 0, -1, 1]))
	add_case("packed_int32_array/wrapping", PoolIntArray([2147483648, 4294967295, -2147483649]))
	add_case("packed_int32_array/three", PoolIntArray([1, 2, 3]))
	add_case("packed_float32_array/empty", PoolRealArray())
	add_case("packed_float32_array/one", PoolRealArray([0.5]))
	add_case("packed_float32_array/inexact", PoolRealArray([0.1, -1.0 / 3.0, 1e30]))
	add_case("packed_float32_array/special", PoolRealArray([dbits(0x80000000, 0), dbits(0x7FF00000, 0),
		dbits(0xFFF00000, 0), dbits(0x7FF80000, 0), fbits(1)]))
	add_case("packed_float32_array/overflow", PoolRealArray([1e300, 1e-300]))
	add_case("packed_string_array/empty", PoolStringArray())
	add_case("packed_string_array/one_empty_item", PoolStringArray([""]))
	add_case("packed_string_array/ab_empty", PoolStringArray(["ab", ""]))
	add_case("packed_string_array/lengths", PoolStringArray(["a", "ab", "abc", "abcd", "abcde"]))
	add_case("packed_string_array/multibyte", PoolStringArray([u8([0xC3, 0xA9]), u8([0xE6, 0x97, 0xA5, 0xE6, 0x9C, 0xAC]),
		u8([0xF0, 0x9F, 0x98, 0x80]), "", char(0xFEFF) + "x"]))
	for n in range(0, 6):
		var a2 = PoolVector2Array()
		var a3 = PoolVector3Array()
		var ac = PoolColorArray()
		for i in range(n):
			a2.append(Vector2(i + 0.1, -i - 0.2))
			a3.append(Vector3(i * 0.3, i + 1, -i * 1e-3))
			ac.append(Color(i * 0.1, 1.0 - i * 0.1, 0.5, i))
		add_case("packed_vector2_array/len%d" % n, a2)
		add_case("packed_vector3_array/len%d" % n, a3)
		add_case("packed_color_array/len%d" % n, ac)
	for n in [2, 4]:
		var ai = PoolIntArray()
		var ar = PoolRealArray()
		for i in range(n):
			ai.append(i * 1000003 - 5)
			ar.append(i * 0.7 - 0.35)
		add_case("packed_int32_array/len%d" % n, ai)
		add_case("packed_float32_array/len%d" % n, ar)
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

	# --- random nested values from a fixed seed
	rng_state = 20240601
	for i in range(60):
		add_case("random/%02d" % i, rand_value(0))


func _bytes_len(n):
	var b = PoolByteArray()
	for i in range(n):
		b.append((i * 7 + 3) % 256)
	return b


func rand_f32():
	# a random finite f32 (widened); exponent kept moderate
	var bits = ((rr(2) << 31) | ((rr(100) + 77) << 23) | rr(1 << 23))
	return fbits(bits)


func rand_string():
	var alphabet = ["a", "b", "z", "0", " ", "_", u8([0xC3, 0xA9]), u8([0xE6, 0x97, 0xA5]), u8([0xF0, 0x9F, 0x98, 0x80]), "/", ":"]
	var s = ""
	for i in range(rr(12)):
		s += alphabet[rr(alphabet.size())]
	return s


func rand_value(depth):
	var k = rr(22 if depth < 3 else 14)
	if k == 0:
		return null
	elif k == 1:
		return rr(2) == 1
	elif k == 2:
		return rr(2001) - 1000
	elif k == 3:
		var big = (rnd() << 33) ^ (rnd() << 5) ^ rnd()
		return -big if rr(2) == 1 else big
	elif k == 4:
		return float(rr(2000000) - 1000000) / float(1 + rr(1000))
	elif k == 5:
		return rand_string()
	elif k == 6:
		return Vector2(rand_f32(), rand_f32())
	elif k == 7:
		return Vector3(rand_f32(), rand_f32(), rand_f32())
	elif k == 8:
		return Color(rand_f32(), rand_f32(), rand_f32(), rand_f32())
	elif k == 9:
		var b = PoolByteArray()
		for i in range(rr(9)):
			b.append(rr(256))
		return b
	elif k == 10:
		var a = PoolIntArray()
		for i in range(rr(5)):
			a.append(rnd() - 1073741824)
		return a
	elif k == 11:
		var a = PoolStringArray()
		for i in range(rr(4)):
			a.append(rand_string())
		return a
	elif k == 12:
		return Transform(Basis(Vector3(rand_f32(), rand_f32(), rand_f32()), Vector3(rand_f32(), rand_f32(), rand_f32()),
			Vector3(rand_f32(), rand_f32(), rand_f32())), Vector3(rand_f32(), rand_f32(), rand_f32()))
	elif k == 13:
		var names = []
		for i in range(rr(4)):
			names.append("n%d" % rr(100))
		var s = PoolStringArray(names).join("/")
		if rr(2) == 1:
			s += ":p%d" % rr(10)
		if rr(3) == 0:
			s = "/" + s
		return NodePath(s)
	elif k == 14 or k == 15:
		var a = []
		for i in range(rr(5)):
			a.append(rand_value(depth + 1))
		return a
	elif k == 16 or k == 17:
		var d = {}
		for i in range(rr(5)):
			var key
			var kk = rr(3)
			if kk == 0:
				key = rand_string()
			elif kk == 1:
				key = rr(100)
			else:
				key = rand_value(depth + 1)
			d[key] = rand_value(depth + 1)
		return d
	elif k == 18:
		var a = PoolVector2Array()
		for i in range(rr(4)):
			a.append(Vector2(rand_f32(), rand_f32()))
		return a
	elif k == 19:
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
	add_case(P + "in_array_then_184_bytes", [Projection(), _bytes_len(176)])
	add_case(P + "in_array_then_180_bytes", [Projection(), _bytes_len(172)])
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


# ---------------------------------------------------------------- malformed

var mal_names = {}


func add_mal(name, bytes, allow):
	if mal_names.has(name):
		warnings.append("duplicate malformed name " + name)
		return
	mal_names[name] = true
	var d = decode_packet(bytes, allow)
	var e = {"name": name, "allow_objects": allow, "bytes": bytes.hex_encode(), "ok": d.ok,
		"error": d.err, "size": null}
	if d.ok:
		n_ok += 1
		e["decoded"] = describe(d.value, allow, true)
		free_nodes(d.value)
	else:
		n_fail += 1
	malformed_lines.append(to_json(e))


# The hex of a header word: this engine's id of the type `name`, plus flag bits.
func H(name, flags = 0):
	return u32hex(T[name] | flags)


const ID = 1 << 16   # ENCODE_FLAG_OBJECT_AS_ID / ENCODE_FLAG_64


func gen_malformed():
	# Valid encodings to mutate: [name, bytes, allow_objects, has_count_word]
	var fixed_id = hx(H("OBJECT", ID) + " efbeadde 34120000")   # object as id, fixed id (ids vary per run)
	var sources = [
		["nil", var2bytes(null), false, false],
		["bool", var2bytes(true), false, false],
		["int32", var2bytes(-7), false, false],
		["int64", var2bytes(1099511627776), false, false],
		["float32", var2bytes(0.5), false, false],
		["float64", var2bytes(0.1), false, false],
		["string", var2bytes("abc"), false, true],
		["string_multibyte", var2bytes(u8([0xE6, 0x97, 0xA5, 0xC3, 0xA9])), false, true],
		["string_name", var2bytes(StringName("abcde")), false, true],
		["vector2", var2bytes(Vector2(1.5, -2)), false, false],
		["vector2i", var2bytes(Vector2i(7, -2)), false, false],
		["rect2", var2bytes(Rect2(1, 2, 3, 4)), false, false],
		["rect2i", var2bytes(rect2i(1, -2, 3, 4)), false, false],
		["vector3", var2bytes(Vector3(1, 2, 3)), false, false],
		["vector3i", var2bytes(Vector3i(1, 2, -3)), false, false],
		["vector4", var2bytes(Vector4(1, 2, 3, 4)), false, false],
		["vector4i", var2bytes(Vector4i(1, 2, 3, -4)), false, false],
		["transform2d", var2bytes(Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))), false, false],
		["plane", var2bytes(Plane(1, 0, 0, 2)), false, false],
		["quaternion", var2bytes(Quaternion(0, 0, 0, 1)), false, false],
		["aabb", var2bytes(AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))), false, false],
		["basis", var2bytes(Basis()), false, false],
		["transform3d", var2bytes(Transform()), false, false],
		["color", var2bytes(Color(1, 0.5, 0, 1)), false, false],
		# NodePath whose parts are all 4-byte multiples: no (garbage) padding in the input
		["node_path", var2bytes(NodePath("abcd/efgh:ijkl")), false, true],
		["node_path_abs", var2bytes(NodePath("/root")), false, true],
		["rid", var2bytes(RID()), false, false],
		["object_id", fixed_id, false, false],
		["object_full", var2bytes(Reference.new(), true), true, true],
		["dictionary", var2bytes({"a": 1, 2: [true]}), false, true],
		["array", var2bytes([1, "ab", null, Vector2(1, 2)]), false, true],
		["array_nested", var2bytes([[1], [2, [3]]]), false, true],
		["packed_byte_array", var2bytes(PoolByteArray([1, 2, 3, 4, 5])), false, true],
		["packed_int32_array", var2bytes(PoolIntArray([1, -1, 2147483647])), false, true],
		["packed_float32_array", var2bytes(PoolRealArray([0.5, -2.0])), false, true],
		["packed_string_array", var2bytes(PoolStringArray(["ab", "", u8([0xE6, 0x97, 0xA5])])), false, true],
		["packed_vector2_array", var2bytes(PoolVector2Array([Vector2(1, 2), Vector2(3, 4)])), false, true],
		["packed_vector2i_array", var2bytes(PoolVector2iArray([Vector2i(1, 2), Vector2i(-3, 4)])), false, true],
		["packed_vector3_array", var2bytes(PoolVector3Array([Vector3(1, 2, 3)])), false, true],
		["packed_vector3i_array", var2bytes(PoolVector3iArray([Vector3i(1, 2, 3)])), false, true],
		# z == w: the w-from-z decode (and z-into-w encode) bugs are shown under craft/bug/
		["packed_vector4_array", var2bytes(PoolVector4Array([Vector4(1, 2, 3, 3)])), false, true],
		["packed_vector4i_array", var2bytes(PoolVector4iArray([Vector4i(1, -2, 3, 3)])), false, true],
		["packed_color_array", var2bytes(PoolColorArray([Color(1, 0, 0, 1)])), false, true],
	]
	if typed5 != null:
		sources.append(["typed_array_int", var2bytes(typed5_make(0, [0], [5, -6], T.INT)), false, false])
		sources.append(["typed_array_string", var2bytes(typed5_make(0, [""], ["ab"], T.STRING)), false, false])
		sources.append(["packed_typed_array_float", var2bytes(typed5_make(1, [0.5], [0.5, 0.1], T.REAL)), false, false])
		sources.append(["typed_array_object_ids", hx(H("TYPED_ARRAY", ID) + H("OBJECT") + "01000000" +
			H("OBJECT", ID) + "efbeadde 34120000"), false, false])
		sources.append(["typed_array_object_full", var2bytes(typed5_make(0, "Reference", [Reference.new()], T.OBJECT), true), true, false])
	var si = 0
	for s in sources:
		var name = s[0]
		var b = s[1]
		var allow = s[2]
		si += 1
		add_mal("valid/" + name, b, allow)
		# every truncation
		for k in range(b.size()):
			var t = PoolByteArray()
			if k > 0:
				t = b.subarray(0, k - 1)
			add_mal("trunc/%s/%d" % [name, k], t, allow)
		# every bit of the header word
		for bit in range(32):
			add_mal("hdrflip/%s/%d" % [name, bit], flip(b, bit), allow)
		# every bit of the first count / length word
		if s[3] and b.size() >= 8:
			for bit in range(32):
				add_mal("cntflip/%s/%d" % [name, bit], flip(b, 32 + bit), allow)
		# seeded single-bit flips, outside the words already flipped bit by bit above
		rng_state = 7919 * si + 17
		var covered = 64 if (s[3] and b.size() >= 8) else 32
		var span = b.size() * 8 - covered
		var used = {}
		while span > 0 and used.size() < min(8, span):
			var bit = covered + rr(span)
			if used.has(bit):
				continue
			used[bit] = true
			add_mal("flip/%s/%d.%d" % [name, bit / 8, bit % 8], flip(b, bit), allow)
	# the full object again, with objects refused
	add_mal("valid/object_full_refused", var2bytes(Reference.new(), true), false)
	crafted()
	crafted_bugs()
	if typed5 != null:
		crafted_typed()


func flip(b, bit):
	var r = PoolByteArray(b)
	r[bit / 8] = r[bit / 8] ^ (1 << (bit % 8))
	return r


func strbytes(prefix_hex, raw):
	# header/prefix + u32 length + raw bytes + zero padding
	var b = hx(prefix_hex)
	_spb.clear()
	_spb.put_32(raw.size())
	b.append_array(_spb.data_array)
	b.append_array(raw)
	while b.size() % 4 != 0:
		b.append(0)
	return b


# Hand-made inputs (the Godot 3 generator's, with this engine's type ids), decoded by the engine.
func crafted():
	var C = []
	var NIL = H("NIL")
	var STR = H("STRING")
	var ARR = H("ARRAY")
	var DIC = H("DICTIONARY")
	var PBA = H("POOL_BYTE_ARRAY")
	var NP = H("NODE_PATH")
	var OBJ = H("OBJECT")
	var PSA = H("POOL_STRING_ARRAY")
	# type ids and header bits
	C.append(["type_max", H("MAX"), false])
	C.append(["type_max_payload", H("MAX") + " 00000000", false])
	C.append(["type_max_minus_1_empty", u32hex(T.MAX - 1) + " 00000000", false])
	C.append(["type_255", "ff000000", false])
	C.append(["type_255_payload", "ff000000 01000000", false])
	C.append(["type_0x100_nil", "00010000", false])
	C.append(["header_ffff0002", "0200ffff 05000000", false])
	C.append(["header_ffff0002_8bytes", "0200ffff 05000000 00000000", false])
	C.append(["int_byte1_set", "02ff0000 05000000", false])
	C.append(["int_flag17", "02000200 05000000", false])
	C.append(["int64_short", "02000100 05000000", false])
	C.append(["int64_flag_on_real", "03000100 00000000 0000e03f", false])
	C.append(["real64_short", "03000100 00000000", false])
	C.append(["vector2_flag64", H("VECTOR2", ID) + " 0000803f 00000040", false])
	C.append(["vector2_flag64_16bytes", H("VECTOR2", ID) + " 00000000 0000f03f 00000000 00000040", false])
	C.append(["vector2i_flag64", H("VECTOR2I", ID) + " 01000000 02000000", false])
	C.append(["vector4_flag64_32bytes", H("VECTOR4", ID) + " 00000000 0000f03f 00000000 00000040 00000000 00000840 00000000 00001040", false])
	C.append(["projection_flag64", H("PROJECTION", ID) + rep(" 00000000", 62), false])
	C.append(["string_name_flag", H("STRING_NAME", ID) + " 01000000 61000000", false])
	C.append(["bool_2", "01000000 02000000", false])
	C.append(["bool_ffffffff", "01000000 ffffffff", false])
	C.append(["nil_flags", "0000ffff", false])
	C.append(["rid_payload_ignored", H("RID") + " 0d000000 00000000", false])
	C.append(["rid_flag", H("RID", ID), false])
	C.append(["empty", "", false])
	C.append(["one_byte", "00", false])
	C.append(["three_bytes", "000000", false])
	# trailing garbage
	C.append(["trailing/int", "02000000 05000000 deadbeef", false])
	C.append(["trailing/nil", "00000000 ffffffff", false])
	C.append(["trailing/string", STR + " 01000000 61000000 01", false])
	# containers
	C.append(["array_count_bit31", ARR + " 01000080 02000000 05000000", false])
	C.append(["array_count_bit31_only", ARR + " 00000080", false])
	C.append(["dictionary_count_bit31", DIC + " 01000080 02000000 01000000 02000000 02000000", false])
	C.append(["array_huge_count_short", ARR + " ffffff7f 02000000 05000000", false])
	C.append(["array_count_2_has_1", ARR + " 02000000 02000000 05000000", false])
	C.append(["array_missing_count", ARR, false])
	C.append(["dictionary_huge_count_short", DIC + " 00000010 02000000 01000000 00000000", false])
	C.append(["dictionary_key_without_value", DIC + " 01000000 02000000 01000000", false])
	C.append(["dictionary_duplicate_keys", DIC + " 02000000 " + STR + " 01000000 61000000 02000000 01000000 " + STR + " 01000000 61000000 02000000 02000000", false])
	C.append(["dictionary_int_and_real_keys", DIC + " 02000000 02000000 01000000 02000000 01000000 03000000 0000803f 02000000 02000000", false])
	C.append(["dictionary_string_and_string_name_keys", DIC + " 02000000 " + STR + " 01000000 61000000 02000000 01000000 " + H("STRING_NAME") + " 01000000 61000000 02000000 02000000", false])
	# which keys the engine's Dictionary merges (each pair: key, 1, key, 2)
	var SN = H("STRING_NAME")
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
		C.append(["dictionary_keys/" + k[0], DIC + " 02000000 " + k[1] + " 02000000 01000000 " + k[2] + " 02000000 02000000", false])
	C.append(["crash_2018_pba_negative", PBA + " 000000ff", false])
	C.append(["pba_count_minus1", PBA + " ffffffff", false])
	C.append(["pba_huge_count_short", PBA + " e8030000 01020304", false])
	C.append(["pba_missing_padding", PBA + " 03000000 010203", false])
	C.append(["pba_missing_padding_1", PBA + " 01000000 ff", false])
	C.append(["pba_padding_nonzero", PBA + " 01000000 ffeeddcc", false])
	C.append(["pia_huge_count", H("POOL_INT_ARRAY") + " 00000040 01000000", false])
	C.append(["pia_count_overflow", H("POOL_INT_ARRAY") + " ffffff3f 01000000", false])
	C.append(["pia_negative", H("POOL_INT_ARRAY") + " ffffffff", false])
	C.append(["pra_huge_count", H("POOL_REAL_ARRAY") + " 00000080", false])
	C.append(["pv2_count_overflow", H("POOL_VECTOR2_ARRAY") + " ffffff1f 00000000", false])
	C.append(["pv3_count_7fffffff", H("POOL_VECTOR3_ARRAY") + " ffffff7f 00000000", false])
	C.append(["pca_count_short", H("POOL_COLOR_ARRAY") + " 02000000 0000803f 0000803f 0000803f 0000803f", false])
	C.append(["pv2i_count_overflow", H("POOL_VECTOR2I_ARRAY") + " ffffff1f 00000000", false])
	C.append(["pv2i_count_short", H("POOL_VECTOR2I_ARRAY") + " 02000000 01000000 02000000 03000000", false])
	C.append(["pv3i_count_negative", H("POOL_VECTOR3I_ARRAY") + " ffffffff", false])
	C.append(["pv3i_count_short", H("POOL_VECTOR3I_ARRAY") + " 01000000 01000000 02000000", false])
	C.append(["pv4_count_overflow", H("POOL_VECTOR4_ARRAY") + " 00000010 00000000", false])
	C.append(["pv4_count_short", H("POOL_VECTOR4_ARRAY") + " 01000000 0000803f 00000040 00004040", false])
	C.append(["pv4i_count_huge", H("POOL_VECTOR4I_ARRAY") + " ffffff7f 00000000", false])
	C.append(["pv4i_count_short", H("POOL_VECTOR4I_ARRAY") + " 01000000 01000000 02000000 03000000", false])
	C.append(["psa_negative_count", PSA + " ffffffff", false])
	C.append(["psa_negative_count_trailing", PSA + " feffffff 01000000 61000000", false])
	C.append(["psa_huge_count", PSA + " ffffff7f 02000000 61000000", false])
	C.append(["psa_item_without_nul", PSA + " 01000000 02000000 61620000", false])
	C.append(["psa_item_len0", PSA + " 01000000 00000000", false])
	C.append(["psa_item_nul_inside", PSA + " 01000000 04000000 61006200", false])
	# strings
	C.append(["string_missing_padding", STR + " 03000000 616263", false])
	C.append(["string_missing_one_pad", STR + " 01000000 610000", false])
	C.append(["string_len_negative", STR + " ffffffff 61616161", false])
	C.append(["string_len_overflow", STR + " fdffff7f 61616161", false])
	C.append(["string_len_short", STR + " 08000000 61616161", false])
	C.append(["string_missing_len", STR + " 0100", false])
	C.append(["string_padding_nonzero", STR + " 01000000 61ffffff", false])
	C.append(["string_name_len_short", H("STRING_NAME") + " 08000000 61616161", false])
	C.append(["string_name_embedded_nul", strbytes(H("STRING_NAME"), hx("61 00 62")), false])
	var U8 = [["lone_continuation", "80"], ["lone_continuation_mid", "61 bf 62"], ["c0_80", "c0 80"],
		["c1_bf", "c1 bf"], ["e0_80_80_overlong", "e0 80 80"], ["e0_9f_bf_overlong", "e0 9f bf"],
		["f0_80_80_80_overlong", "f0 80 80 80"], ["surrogate_ed_a0_80", "ed a0 80"],
		["surrogate_pair_cesu", "ed a0 bd ed b8 80"], ["surrogate_low_ed_bf_bf", "ed bf bf"],
		["f4_90_above_max", "f4 90 80 80"], ["f7_bf_bf_bf", "f7 bf bf bf"], ["f8_5byte", "f8 88 80 80 80"],
		["fc_6byte", "fc 84 80 80 80 80"], ["fe", "fe"], ["ff", "ff"], ["truncated_e6_97", "e6 97"],
		["truncated_at_end_f0_9f", "61 f0 9f"], ["bad_continuation", "c3 41"], ["embedded_nul", "61 00 62"],
		["leading_nul", "00 61"], ["invalid_after_nul", "61 00 ff"], ["bom", "ef bb bf 61"],
		["bom_only", "ef bb bf"], ["double_bom", "ef bb bf ef bb bf 61"], ["inner_bom", "61 ef bb bf"],
		["u+fffe", "ef bf be"], ["latin1_e9", "63 61 66 e9"]]
	for u in U8:
		C.append(["utf8/" + u[0], strbytes(STR, hx(u[1])), false])
	C.append(["utf8/string_name_surrogate", strbytes(H("STRING_NAME"), hx("ed a0 80")), false])
	C.append(["utf8/string_name_overlong", strbytes(H("STRING_NAME"), hx("c0 80")), false])
	C.append(["utf8/psa_surrogate", cat(hx(PSA + " 01000000"), strbytes("", hx("ed a0 80 00"))), false])
	C.append(["utf8/psa_lone_continuation", cat(hx(PSA + " 01000000"), strbytes("", hx("80 00"))), false])
	C.append(["utf8/node_path_invalid", cat(hx(NP + " 01000080 00000000 00000000"), strbytes("", hx("c0 80"))), false])
	C.append(["utf8/node_path_bom", cat(hx(NP + " 01000080 00000000 00000000"), strbytes("", hx("ef bb bf 61"))), false])
	# NodePath
	C.append(["node_path/no_bit31", NP + " 01000000 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/old_format_string", NP + " 01000000 61000000", false])
	C.append(["node_path/short_counts", NP + " 01000080 00000000", false])
	C.append(["node_path/property_flag", NP + " 01000080 00000000 02000000 01000000 61000000 01000000 62000000", false])
	C.append(["node_path/property_flag_abs_subname", NP + " 01000080 01000000 03000000 01000000 61000000 01000000 62000000 01000000 63000000", false])
	C.append(["node_path/flags_high_bits", NP + " 01000080 00000000 fcffffff 01000000 61000000", false])
	C.append(["node_path/zero_names_bit31", NP + " 00000080 00000000 00000000", false])
	C.append(["node_path/zero_names_abs", NP + " 00000080 00000000 01000000", false])
	C.append(["node_path/missing_name", NP + " 02000080 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/empty_name", NP + " 02000080 00000000 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/padding_garbage", NP + " 01000080 00000000 00000000 01000000 61ffffff", false])
	C.append(["node_path/huge_name_count", NP + " ffffffff 00000000 00000000", false])
	# Objects
	var full_ref = var2bytes(Reference.new(), true)
	C.append(["object/full_reference_refused", full_ref, false])
	C.append(["object/full_reference_allowed", full_ref, true])
	var full_curve = var2bytes(_mk_curve(), true)
	C.append(["object/full_curve_refused", full_curve, false])
	C.append(["object/full_curve_allowed", full_curve, true])
	C.append(["object/full_in_array_refused", var2bytes([Reference.new()], true), false])
	C.append(["object/full_in_array_allowed", var2bytes([Reference.new()], true), true])
	# (decoding a full scripted object with objects allowed crashes the engine: refused only)
	C.append(["object/full_scripted_refused", var2bytes(load("res://payload.gd").new(), true), false])
	C.append(["object/full_unknown_class", cat(strbytes(OBJ, "NoSuchClass".to_utf8()), hx("00000000")), true])
	C.append(["object/full_empty_class", OBJ + " 00000000", true])
	C.append(["object/full_empty_class_refused", OBJ + " 00000000", false])
	C.append(["object/full_negative_prop_count", cat(strbytes(OBJ, "Reference".to_utf8()), hx("ffffffff")), true])
	C.append(["object/full_zero_props", cat(strbytes(OBJ, "Reference".to_utf8()), hx("00000000")), true])
	C.append(["object/full_missing_prop_count", strbytes(OBJ, "Reference".to_utf8()), true])
	C.append(["object/full_unknown_property", cat(cat(strbytes(OBJ, "Reference".to_utf8()), hx("01000000")),
		cat(strbytes("", "nope".to_utf8()), hx("02000000 05000000"))), true])
	C.append(["object/full_resource_name", cat(cat(strbytes(OBJ, "Resource".to_utf8()), hx("01000000")),
		cat(strbytes("", "resource_name".to_utf8()), strbytes(STR, "hi".to_utf8()))), true])
	C.append(["object/full_prop_value_missing", cat(cat(strbytes(OBJ, "Reference".to_utf8()), hx("01000000")),
		strbytes("", "script".to_utf8())), true])
	C.append(["object/full_abstract_class", cat(strbytes(OBJ, "Texture".to_utf8()), hx("00000000")), true])
	C.append(["object/id_zero", H("OBJECT", ID) + " 00000000 00000000", false])
	C.append(["object/id_zero_allowed", H("OBJECT", ID) + " 00000000 00000000", true])
	C.append(["object/id_max", H("OBJECT", ID) + " ffffffff ffffffff", false])
	C.append(["object/id_short", H("OBJECT", ID) + " 01000000", false])
	C.append(["object/id_allowed", H("OBJECT", ID) + " 2a000000 00000000", true])
	C.append(["object/id_in_array", ARR + " 02000000 " + H("OBJECT", ID) + " 2a000000 00000000 02000000 01000000", false])
	C.append(["object/flag17_full_refused", H("OBJECT", 1 << 17) + " 00000000", false])
	# depth built by bytes (top-level value is at depth 0; the leaf NIL sits at depth = levels)
	for n in [1024, 1025]:
		var arr = PoolByteArray()
		for i in range(n):
			arr.append_array(hx(ARR + " 01000000"))
		arr.append_array(hx(NIL))
		C.append(["depth/arrays_%d_then_nil" % n, arr, false])
		var dic = PoolByteArray()
		for i in range(n):
			dic.append_array(hx(DIC + " 01000000 02000000 01000000"))
		dic.append_array(hx(NIL))
		C.append(["depth/dictionaries_%d_then_nil" % n, dic, false])
		var keys = PoolByteArray()
		for i in range(n):
			keys.append_array(hx(DIC + " 01000000"))
		keys.append_array(hx(NIL))
		for i in range(n):
			keys.append_array(hx(NIL))
		C.append(["depth/dictionary_keys_%d_then_nil" % n, keys, false])
	var arr_empty = PoolByteArray()
	for i in range(1025):
		arr_empty.append_array(hx(ARR + " 01000000"))
	arr_empty.append_array(hx(ARR + " 00000000"))
	C.append(["depth/arrays_1025_then_empty_array", arr_empty, false])

	for c in C:
		var b = c[1]
		if typeof(b) == TYPE_STRING:
			b = hx(b)
		add_mal("craft/" + c[0], b, c[2])


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
	for c in C:
		var b = c[1]
		if typeof(b) == TYPE_STRING:
			b = hx(b)
		add_mal("craft/" + c[0], b, c[2])


func zeros(n):
	var b = PoolByteArray()
	b.resize(n)
	for i in range(n):
		b[i] = 0
	return b


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
	for c in C:
		var b = c[1]
		if typeof(b) == TYPE_STRING:
			b = hx(b)
		add_mal("craft/" + c[0], b, c[2])


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


func _mk_curve():
	var c = Curve.new()
	c.add_point(Vector2(0, 0.25))
	c.add_point(Vector2(1, 0.75))
	return c
