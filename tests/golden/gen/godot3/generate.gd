# Golden-data generator for the Godot 3 dialect of the Variant binary format.
# Output format: tests/golden/FORMAT.md. Run through run.sh (next to this file), or:
#   godot3-server --path <this dir> -s res://generate.gd OUT.json 2>ERR.log
# stderr MUST be redirected to a regular file: Godot 3 exposes no decode error code to
# scripts (PacketPeer.get_packet_error() only reports get_packet() failures and stays 0 after a
# failed get_var()), so the error code of every decode is read back from the engine's own error
# log (the innermost "Returned: ERR_*" printed by core/io/marshalls.cpp), between markers this
# script prints to stderr. The file is found through /proc/self/fd/2, or --stderr=PATH.
# Works unchanged on Godot 3.2.3 and 3.6.2.
extends SceneTree

const MARK = "@@FVC-GOLDEN"

var _spb = StreamPeerBuffer.new()
var case_lines = []
var malformed_lines = []
var encode_failures = []
var warnings = []
var utf_divergences = []   # texts whose code points the engine's own to_utf8() rewrites
var errlog = File.new()
var errpos = 0
var mark_seq = 0
var keep = []            # objects kept alive until the end
var rng_state = 1
var ERRS = {}
var n_ok = 0
var n_fail = 0


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
	gen_malformed()

	var f = File.new()
	if f.open(out, File.WRITE) != OK:
		printerr("cannot write " + out)
		quit(5)
		return
	f.store_string("{\"engine\": " + to_json(Engine.get_version_info().string) + ",\n")
	f.store_string("\"dialect\": \"godot3\",\n\"nodepath_padding_leaks\": true,\n")
	f.store_string("\"error_source\": " + to_json("Error codes come from the engine's own error log: " +
		"the first 'Returned: ERR_*' that core/io/marshalls.cpp prints while PacketPeerStream.get_var() " +
		"decodes the packet (stderr read back between markers; 3.6 prints only the message for the depth " +
		"limit, 'Variant is too deep', i.e. ERR_OUT_OF_MEMORY). PacketPeer.get_packet_error() stays 0 " +
		"for decode failures in Godot 3. Texts are described from their code points in generalized " +
		"UTF-8 (surrogates as 3-byte sequences), not through the engine's to_utf8().") + ",\n")
	f.store_string("\"encode_failures\": " + to_json(encode_failures) + ",\n")
	f.store_string("\"cases\": [\n" + PoolStringArray(case_lines).join(",\n") + "\n],\n")
	f.store_string("\"malformed\": [\n" + PoolStringArray(malformed_lines).join(",\n") + "\n]}\n")
	f.close()
	for w in warnings:
		print("WARNING: " + w)
	for w in utf_divergences:
		print("note: to_utf8() differs from the code points: " + w)
	print("%s: %d cases, %d malformed (%d ok, %d failed), %d encode failures, %d warnings" % [
		Engine.get_version_info().string, case_lines.size(), malformed_lines.size(), n_ok, n_fail,
		encode_failures.size(), warnings.size()])
	for o in keep:
		if o is Object and is_instance_valid(o) and not (o is Reference):
			o.free()
	keep.clear()
	quit(0)


# ---------------------------------------------------------------- helpers

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
# differs only where the engine holds code points that valid UTF-8 cannot carry (the 3.x decoders
# accept surrogates and 5/6-byte forms), which 3.6's own UTF-8 encoder would rewrite.
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
					# too deep. Bailing."): 3.6 prints only the message, not the returned code.
					code = "ERR_OUT_OF_MEMORY"
	if perr != OK:
		warnings.append("get_packet_error() = %d for decode %d" % [perr, mark_seq])
	if not failed:
		if code != "":
			warnings.append("decode %d succeeded but marshalls logged %s" % [mark_seq, code])
		return {"ok": true, "err": OK, "value": v}
	var n = -1
	if ERRS.has(code):
		n = ERRS[code]
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


func describe(v, full, decoded):
	var t = typeof(v)
	if t == TYPE_NIL:
		return {"t": "nil"}
	elif t == TYPE_BOOL:
		return {"t": "bool", "v": v}
	elif t == TYPE_INT:
		return {"t": "int", "v": str(v)}
	elif t == TYPE_REAL:
		return {"t": "float", "v": hexd(v)}
	elif t == TYPE_STRING:
		return {"t": "string", "v": utf(v)}
	elif t == TYPE_VECTOR2:
		return {"t": "vector2", "v": fl([v.x, v.y])}
	elif t == TYPE_RECT2:
		return {"t": "rect2", "v": fl([v.position.x, v.position.y, v.size.x, v.size.y])}
	elif t == TYPE_VECTOR3:
		return {"t": "vector3", "v": fl([v.x, v.y, v.z])}
	elif t == TYPE_TRANSFORM2D:
		# column-major: x axis, y axis, origin
		return {"t": "transform2d", "v": fl([v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y])}
	elif t == TYPE_PLANE:
		return {"t": "plane", "v": fl([v.normal.x, v.normal.y, v.normal.z, v.d])}
	elif t == TYPE_QUAT:
		return {"t": "quaternion", "v": fl([v.x, v.y, v.z, v.w])}
	elif t == TYPE_AABB:
		return {"t": "aabb", "v": fl([v.position.x, v.position.y, v.position.z, v.size.x, v.size.y, v.size.z])}
	elif t == TYPE_BASIS:
		return {"t": "basis", "v": fl(basis_rows(v))}
	elif t == TYPE_TRANSFORM:
		var c = basis_rows(v.basis)
		c.append(v.origin.x)
		c.append(v.origin.y)
		c.append(v.origin.z)
		return {"t": "transform3d", "v": fl(c)}
	elif t == TYPE_COLOR:
		return {"t": "color", "v": fl([v.r, v.g, v.b, v.a])}
	elif t == TYPE_NODE_PATH:
		var names = []
		var subnames = []
		for i in range(v.get_name_count()):
			names.append(utf(v.get_name(i)))
		for i in range(v.get_subname_count()):
			subnames.append(utf(v.get_subname(i)))
		return {"t": "node_path", "names": names, "subnames": subnames, "absolute": v.is_absolute()}
	elif t == TYPE_RID:
		return {"t": "rid", "v": "0"}
	elif t == TYPE_OBJECT:
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
	elif t == TYPE_DICTIONARY:
		var entries = []
		for k in v.keys():
			entries.append([describe(k, full, decoded), describe(v[k], full, decoded)])
		return {"t": "dictionary", "key_typed": null, "value_typed": null, "entries": entries}
	elif t == TYPE_ARRAY:
		var items = []
		for x in v:
			items.append(describe(x, full, decoded))
		return {"t": "array", "typed": null, "items": items}
	elif t == TYPE_RAW_ARRAY:
		return {"t": "packed_byte_array", "v": v.hex_encode()}
	elif t == TYPE_INT_ARRAY:
		_spb.clear()
		for x in v:
			_spb.put_32(x)
		return {"t": "packed_int32_array", "v": _spb.data_array.hex_encode()}
	elif t == TYPE_REAL_ARRAY:
		_spb.clear()
		for x in v:
			_spb.put_float(x)
		return {"t": "packed_float32_array", "v": _spb.data_array.hex_encode()}
	elif t == TYPE_STRING_ARRAY:
		var items = []
		for x in v:
			items.append(utf(x))
		return {"t": "packed_string_array", "v": items}
	elif t == TYPE_VECTOR2_ARRAY:
		_spb.clear()
		for x in v:
			_spb.put_float(x.x)
			_spb.put_float(x.y)
		return {"t": "packed_vector2_array", "v": _spb.data_array.hex_encode()}
	elif t == TYPE_VECTOR3_ARRAY:
		_spb.clear()
		for x in v:
			_spb.put_float(x.x)
			_spb.put_float(x.y)
			_spb.put_float(x.z)
		return {"t": "packed_vector3_array", "v": _spb.data_array.hex_encode()}
	elif t == TYPE_COLOR_ARRAY:
		_spb.clear()
		for x in v:
			_spb.put_float(x.r)
			_spb.put_float(x.g)
			_spb.put_float(x.b)
			_spb.put_float(x.a)
		return {"t": "packed_color_array", "v": _spb.data_array.hex_encode()}
	warnings.append("describe: unknown type %d" % t)
	return {"t": "unknown_%d" % t}


func basis_rows(b):
	# Basis.x/.y/.z are the columns; the wire is row-major (elements[i] are rows).
	return [b.x.x, b.y.x, b.z.x, b.x.y, b.y.y, b.z.y, b.x.z, b.y.z, b.z.z]


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
	var d = decode_packet(bytes, full)
	if d.ok:
		e["decoded"] = describe(bytes2var(bytes, full), full, true)
	else:
		warnings.append("case %s: engine cannot decode its own bytes (error %d)" % [name, d.err])
		e["decoded"] = null
		e["decode_error"] = d.err
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
	# Code points that valid UTF-8 cannot carry (Godot 3 strings are UTF-32 and can hold them):
	# the 3.2.3 and 3.6.2 encoders differ here. Desc = generalized UTF-8 of the code points.
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
	add_case("quaternion/identity", Quat())
	add_case("quaternion/distinct", Quat(0.1, 0.2, 0.3, 0.4))
	add_case("quaternion/axis_angle", Quat(Vector3(1, 0, 0), 1.0))
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
	# Not included: add_case("object/full_scripted", scripted, true). 3.x embeds the GDScript
	# object (with its source); decoding those bytes with objects allowed crashes 3.6.2 (SIGSEGV).
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
		Plane(), Quat(), AABB(), Basis(), Transform(), Color(), NodePath("a:b"), RID(),
		{}, [], PoolByteArray([1]), PoolIntArray([2]), PoolRealArray([3]), PoolStringArray(["4"]),
		PoolVector2Array([Vector2(5, 5)]), PoolVector3Array([Vector3(6, 6, 6)]), PoolColorArray([Color(7, 7, 7, 7)])])
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
	var k = rr(19 if depth < 3 else 14)
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
	else:
		var a = PoolVector2Array()
		for i in range(rr(4)):
			a.append(Vector2(rand_f32(), rand_f32()))
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
	else:
		n_fail += 1
	malformed_lines.append(to_json(e))


func gen_malformed():
	# Valid encodings to mutate: [name, bytes, allow_objects, has_count_word]
	var fixed_id = hx("11000100 efbeadde 34120000")   # object as id, fixed id (ids vary per run)
	var sources = [
		["nil", var2bytes(null), false, false],
		["bool", var2bytes(true), false, false],
		["int32", var2bytes(-7), false, false],
		["int64", var2bytes(1099511627776), false, false],
		["float32", var2bytes(0.5), false, false],
		["float64", var2bytes(0.1), false, false],
		["string", var2bytes("abc"), false, true],
		["string_multibyte", var2bytes(u8([0xE6, 0x97, 0xA5, 0xC3, 0xA9])), false, true],
		["vector2", var2bytes(Vector2(1.5, -2)), false, false],
		["rect2", var2bytes(Rect2(1, 2, 3, 4)), false, false],
		["vector3", var2bytes(Vector3(1, 2, 3)), false, false],
		["transform2d", var2bytes(Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))), false, false],
		["plane", var2bytes(Plane(1, 0, 0, 2)), false, false],
		["quaternion", var2bytes(Quat(0, 0, 0, 1)), false, false],
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
		["packed_vector3_array", var2bytes(PoolVector3Array([Vector3(1, 2, 3)])), false, true],
		["packed_color_array", var2bytes(PoolColorArray([Color(1, 0, 0, 1)])), false, true],
	]
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


func crafted():
	var C = []
	# type ids and header bits
	C.append(["type_27", "1b000000", false])
	C.append(["type_27_payload", "1b000000 00000000", false])
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
	C.append(["vector2_flag64", "05000100 0000803f 00000040", false])
	C.append(["vector2_flag64_16bytes", "05000100 00000000 0000f03f 00000000 00000040", false])
	C.append(["bool_2", "01000000 02000000", false])
	C.append(["bool_ffffffff", "01000000 ffffffff", false])
	C.append(["nil_flags", "0000ffff", false])
	C.append(["rid_payload_ignored", "10000000 0d000000 00000000", false])
	C.append(["rid_flag", "10000100", false])
	C.append(["empty", "", false])
	C.append(["one_byte", "00", false])
	C.append(["three_bytes", "000000", false])
	# trailing garbage
	C.append(["trailing/int", "02000000 05000000 deadbeef", false])
	C.append(["trailing/nil", "00000000 ffffffff", false])
	C.append(["trailing/string", "04000000 01000000 61000000 01", false])
	# containers
	C.append(["array_count_bit31", "13000000 01000080 02000000 05000000", false])
	C.append(["array_count_bit31_only", "13000000 00000080", false])
	C.append(["dictionary_count_bit31", "12000000 01000080 02000000 01000000 02000000 02000000", false])
	C.append(["array_huge_count_short", "13000000 ffffff7f 02000000 05000000", false])
	C.append(["array_count_2_has_1", "13000000 02000000 02000000 05000000", false])
	C.append(["array_missing_count", "13000000", false])
	C.append(["dictionary_huge_count_short", "12000000 00000010 02000000 01000000 00000000", false])
	C.append(["dictionary_key_without_value", "12000000 01000000 02000000 01000000", false])
	C.append(["dictionary_duplicate_keys", "12000000 02000000 04000000 01000000 61000000 02000000 01000000 04000000 01000000 61000000 02000000 02000000", false])
	C.append(["dictionary_int_and_real_keys", "12000000 02000000 02000000 01000000 02000000 01000000 03000000 0000803f 02000000 02000000", false])
	C.append(["crash_2018_pba_negative", "14000000 000000ff", false])
	C.append(["pba_count_minus1", "14000000 ffffffff", false])
	C.append(["pba_huge_count_short", "14000000 e8030000 01020304", false])
	C.append(["pba_missing_padding", "14000000 03000000 010203", false])
	C.append(["pba_missing_padding_1", "14000000 01000000 ff", false])
	C.append(["pba_padding_nonzero", "14000000 01000000 ffeeddcc", false])
	C.append(["pia_huge_count", "15000000 00000040 01000000", false])
	C.append(["pia_count_overflow", "15000000 ffffff3f 01000000", false])
	C.append(["pia_negative", "15000000 ffffffff", false])
	C.append(["pra_huge_count", "16000000 00000080", false])
	C.append(["pv2_count_overflow", "18000000 ffffff1f 00000000", false])
	C.append(["pv3_count_7fffffff", "19000000 ffffff7f 00000000", false])
	C.append(["pca_count_short", "1a000000 02000000 0000803f 0000803f 0000803f 0000803f", false])
	C.append(["psa_negative_count", "17000000 ffffffff", false])
	C.append(["psa_negative_count_trailing", "17000000 feffffff 01000000 61000000", false])
	C.append(["psa_huge_count", "17000000 ffffff7f 02000000 61000000", false])
	C.append(["psa_item_without_nul", "17000000 01000000 02000000 61620000", false])
	C.append(["psa_item_len0", "17000000 01000000 00000000", false])
	C.append(["psa_item_nul_inside", "17000000 01000000 04000000 61006200", false])
	# strings
	C.append(["string_missing_padding", "04000000 03000000 616263", false])
	C.append(["string_missing_one_pad", "04000000 01000000 610000", false])
	C.append(["string_len_negative", "04000000 ffffffff 61616161", false])
	C.append(["string_len_overflow", "04000000 fdffff7f 61616161", false])
	C.append(["string_len_short", "04000000 08000000 61616161", false])
	C.append(["string_missing_len", "04000000 0100", false])
	C.append(["string_padding_nonzero", "04000000 01000000 61ffffff", false])
	C.append(["utf8/lone_continuation", strbytes("04000000", hx("80")), false])
	C.append(["utf8/lone_continuation_mid", strbytes("04000000", hx("61 bf 62")), false])
	C.append(["utf8/c0_80", strbytes("04000000", hx("c0 80")), false])
	C.append(["utf8/c1_bf", strbytes("04000000", hx("c1 bf")), false])
	C.append(["utf8/e0_80_80_overlong", strbytes("04000000", hx("e0 80 80")), false])
	C.append(["utf8/e0_9f_bf_overlong", strbytes("04000000", hx("e0 9f bf")), false])
	C.append(["utf8/f0_80_80_80_overlong", strbytes("04000000", hx("f0 80 80 80")), false])
	C.append(["utf8/surrogate_ed_a0_80", strbytes("04000000", hx("ed a0 80")), false])
	C.append(["utf8/surrogate_pair_cesu", strbytes("04000000", hx("ed a0 bd ed b8 80")), false])
	C.append(["utf8/surrogate_low_ed_bf_bf", strbytes("04000000", hx("ed bf bf")), false])
	C.append(["utf8/f4_90_above_max", strbytes("04000000", hx("f4 90 80 80")), false])
	C.append(["utf8/f7_bf_bf_bf", strbytes("04000000", hx("f7 bf bf bf")), false])
	C.append(["utf8/f8_5byte", strbytes("04000000", hx("f8 88 80 80 80")), false])
	C.append(["utf8/fc_6byte", strbytes("04000000", hx("fc 84 80 80 80 80")), false])
	C.append(["utf8/fe", strbytes("04000000", hx("fe")), false])
	C.append(["utf8/ff", strbytes("04000000", hx("ff")), false])
	C.append(["utf8/truncated_e6_97", strbytes("04000000", hx("e6 97")), false])
	C.append(["utf8/truncated_at_end_f0_9f", strbytes("04000000", hx("61 f0 9f")), false])
	C.append(["utf8/bad_continuation", strbytes("04000000", hx("c3 41")), false])
	C.append(["utf8/embedded_nul", strbytes("04000000", hx("61 00 62")), false])
	C.append(["utf8/leading_nul", strbytes("04000000", hx("00 61")), false])
	C.append(["utf8/invalid_after_nul", strbytes("04000000", hx("61 00 ff")), false])
	C.append(["utf8/bom", strbytes("04000000", hx("ef bb bf 61")), false])
	C.append(["utf8/bom_only", strbytes("04000000", hx("ef bb bf")), false])
	C.append(["utf8/double_bom", strbytes("04000000", hx("ef bb bf ef bb bf 61")), false])
	C.append(["utf8/inner_bom", strbytes("04000000", hx("61 ef bb bf")), false])
	C.append(["utf8/u+fffe", strbytes("04000000", hx("ef bf be")), false])
	C.append(["utf8/latin1_e9", strbytes("04000000", hx("63 61 66 e9")), false])
	C.append(["utf8/psa_surrogate", cat(hx("17000000 01000000"), strbytes("", hx("ed a0 80 00"))), false])
	C.append(["utf8/psa_lone_continuation", cat(hx("17000000 01000000"), strbytes("", hx("80 00"))), false])
	C.append(["utf8/node_path_invalid", cat(hx("0f000000 01000080 00000000 00000000"), strbytes("", hx("c0 80"))), false])
	C.append(["utf8/node_path_bom", cat(hx("0f000000 01000080 00000000 00000000"), strbytes("", hx("ef bb bf 61"))), false])
	# NodePath
	C.append(["node_path/no_bit31", "0f000000 01000000 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/old_format_string", "0f000000 01000000 61000000", false])
	C.append(["node_path/short_counts", "0f000000 01000080 00000000", false])
	C.append(["node_path/property_flag", "0f000000 01000080 00000000 02000000 01000000 61000000 01000000 62000000", false])
	C.append(["node_path/property_flag_abs_subname", "0f000000 01000080 01000000 03000000 01000000 61000000 01000000 62000000 01000000 63000000", false])
	C.append(["node_path/flags_high_bits", "0f000000 01000080 00000000 fcffffff 01000000 61000000", false])
	C.append(["node_path/zero_names_bit31", "0f000000 00000080 00000000 00000000", false])
	C.append(["node_path/zero_names_abs", "0f000000 00000080 00000000 01000000", false])
	C.append(["node_path/missing_name", "0f000000 02000080 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/empty_name", "0f000000 02000080 00000000 00000000 00000000 01000000 61000000", false])
	C.append(["node_path/padding_garbage", "0f000000 01000080 00000000 00000000 01000000 61ffffff", false])
	C.append(["node_path/huge_name_count", "0f000000 ffffffff 00000000 00000000", false])
	# Objects
	var full_ref = var2bytes(Reference.new(), true)
	C.append(["object/full_reference_refused", full_ref, false])
	C.append(["object/full_reference_allowed", full_ref, true])
	var full_curve = var2bytes(_mk_curve(), true)
	C.append(["object/full_curve_refused", full_curve, false])
	C.append(["object/full_curve_allowed", full_curve, true])
	C.append(["object/full_in_array_refused", var2bytes([Reference.new()], true), false])
	C.append(["object/full_in_array_allowed", var2bytes([Reference.new()], true), true])
	C.append(["object/full_unknown_class", cat(strbytes("11000000", "NoSuchClass".to_utf8()), hx("00000000")), true])
	C.append(["object/full_empty_class", "11000000 00000000", true])
	C.append(["object/full_empty_class_refused", "11000000 00000000", false])
	C.append(["object/full_negative_prop_count", cat(strbytes("11000000", "Reference".to_utf8()), hx("ffffffff")), true])
	C.append(["object/full_zero_props", cat(strbytes("11000000", "Reference".to_utf8()), hx("00000000")), true])
	C.append(["object/full_missing_prop_count", strbytes("11000000", "Reference".to_utf8()), true])
	C.append(["object/full_unknown_property", cat(cat(strbytes("11000000", "Reference".to_utf8()), hx("01000000")),
		cat(strbytes("", "nope".to_utf8()), hx("02000000 05000000"))), true])
	C.append(["object/full_resource_name", cat(cat(strbytes("11000000", "Resource".to_utf8()), hx("01000000")),
		cat(strbytes("", "resource_name".to_utf8()), strbytes("04000000", "hi".to_utf8()))), true])
	C.append(["object/full_prop_value_missing", cat(cat(strbytes("11000000", "Reference".to_utf8()), hx("01000000")),
		strbytes("", "script".to_utf8())), true])
	C.append(["object/full_abstract_class", cat(strbytes("11000000", "Texture".to_utf8()), hx("00000000")), true])
	C.append(["object/id_zero", "11000100 00000000 00000000", false])
	C.append(["object/id_zero_allowed", "11000100 00000000 00000000", true])
	C.append(["object/id_max", "11000100 ffffffff ffffffff", false])
	C.append(["object/id_short", "11000100 01000000", false])
	C.append(["object/id_allowed", "11000100 2a000000 00000000", true])
	C.append(["object/id_in_array", "13000000 02000000 11000100 2a000000 00000000 02000000 01000000", false])
	C.append(["object/flag17_full_refused", "11000200 00000000", false])
	# depth built by bytes (top-level value is at depth 0; the leaf NIL sits at depth = levels)
	for n in [1024, 1025]:
		var arr = PoolByteArray()
		for i in range(n):
			arr.append_array(hx("13000000 01000000"))
		arr.append_array(hx("00000000"))
		C.append(["depth/arrays_%d_then_nil" % n, arr, false])
		var dic = PoolByteArray()
		for i in range(n):
			dic.append_array(hx("12000000 01000000 02000000 01000000"))
		dic.append_array(hx("00000000"))
		C.append(["depth/dictionaries_%d_then_nil" % n, dic, false])
		var keys = PoolByteArray()
		for i in range(n):
			keys.append_array(hx("12000000 01000000"))
		keys.append_array(hx("00000000"))
		for i in range(n):
			keys.append_array(hx("00000000"))
		C.append(["depth/dictionary_keys_%d_then_nil" % n, keys, false])
	var arr_empty = PoolByteArray()
	for i in range(1025):
		arr_empty.append_array(hx("13000000 01000000"))
	arr_empty.append_array(hx("13000000 00000000"))
	C.append(["depth/arrays_1025_then_empty_array", arr_empty, false])

	for c in C:
		var b = c[1]
		if typeof(b) == TYPE_STRING:
			b = hx(b)
		add_mal("craft/" + c[0], b, c[2])


func _mk_curve():
	var c = Curve.new()
	c.add_point(Vector2(0, 0.25))
	c.add_point(Vector2(1, 0.75))
	return c
