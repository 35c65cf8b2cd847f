# What the Godot 3 family's golden-data generators share (tests/golden/gen/godot3/generate.gd on
# Godot 3.2.3 and 3.6.2, tests/golden/gen/pandemonium/generate.gd on Pandemonium v4.9.0 and
# v5.2.0; each extends this script): reading decode error codes back from the engine's own error
# log, the corpus records and their JSON (tests/golden/FORMAT.md), the mutations of valid
# encodings, byte helpers and the seeded random values.
#
# No decode error code reaches scripts in these engines (PacketPeer.get_packet_error() only
# reports get_packet() failures and stays 0 after a failed get_var()), so the code of every decode
# is read back from the engine's own error log: the innermost "Returned: ERR_*" printed by
# core/io/marshalls.cpp, between markers printed to stderr. stderr MUST be redirected to a regular
# file, found through /proc/self/fd/2, or --stderr=PATH.
extends SceneTree

const Describer = preload("res://godot3_lib/describe.gd")
const MARK = "@@FVC-GOLDEN"
const ID = 1 << 16   # ENCODE_FLAG_OBJECT_AS_ID / ENCODE_FLAG_64 of a header word

var describer = Describer.new()
var T = describer.T     # type name -> this engine's id
var TN = describer.TN   # id -> type name
var case_lines = []
var malformed_lines = []
var encode_failures = []
var warnings = []
var problems = []          # self-check failures: nothing is written
var notes = []             # observations worth printing
var keep = []              # objects kept alive until the end
var case_names = {}
var mal_names = {}
var n_ok = 0
var n_fail = 0
var rng_state = 1
var rand_kinds = 19        # rand_value's kinds at depth < 3; those from 19 on are rand_own()'s
# Godot 3.x names an error code for every failed decode (else a warning, and -1); Pandemonium's
# log sometimes names none: with null_when_unnamed, "error" is null then, and counted.
var null_when_unnamed = false
var n_unnamed = 0
var ERRS = {
	"FAILED": FAILED, "ERR_UNAVAILABLE": ERR_UNAVAILABLE, "ERR_UNCONFIGURED": ERR_UNCONFIGURED,
	"ERR_UNAUTHORIZED": ERR_UNAUTHORIZED, "ERR_PARAMETER_RANGE_ERROR": ERR_PARAMETER_RANGE_ERROR,
	"ERR_OUT_OF_MEMORY": ERR_OUT_OF_MEMORY, "ERR_FILE_CORRUPT": ERR_FILE_CORRUPT,
	"ERR_FILE_EOF": ERR_FILE_EOF, "ERR_INVALID_DATA": ERR_INVALID_DATA,
	"ERR_INVALID_PARAMETER": ERR_INVALID_PARAMETER, "ERR_PARSE_ERROR": ERR_PARSE_ERROR,
	"ERR_BUG": ERR_BUG, "ERR_CANT_CREATE": ERR_CANT_CREATE, "ERR_ALREADY_EXISTS": ERR_ALREADY_EXISTS,
	"ERR_DOES_NOT_EXIST": ERR_DOES_NOT_EXIST, "ERR_BUSY": ERR_BUSY,
}
var _errlog = File.new()
var _errpos = 0
var _mark_seq = 0
var _spb = StreamPeerBuffer.new()


# ---------------------------------------------------------------- start and end

# Reads the command line (OUT.json [--stderr=PATH]) and opens the error log; returns OUT, or ""
# after quitting with a message.
func start():
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
		return ""
	problems += describer.problems
	describer.problems = problems
	if _errlog.open(errpath, File.READ) != OK:
		printerr("cannot open stderr log " + errpath)
		quit(3)
		return ""
	_errpos = _errlog.get_len()
	# Check that stderr really is a file we can read back.
	printerr(MARK + " PROBE")
	if read_new_stderr().find(MARK + " PROBE") < 0:
		print("stderr is not readable back (redirect it to a regular file)")
		quit(4)
		return ""
	return out


# Prints what was seen, writes the corpus to out unless a self-check failed, and quits.
func conclude(out, dialect, nodepath_leak, error_source, summary):
	for w in warnings:
		print("WARNING: " + w)
	for w in describer.utf_divergences:
		print("note: to_utf8() differs from the code points: " + w)
	for w in notes:
		print("note: " + w)
	if not problems.empty():
		for p in problems:
			print("PROBLEM: " + p)
		print("%d self-check problems: nothing written" % problems.size())
		free_kept()
		quit(6)
		return
	var f = File.new()
	if f.open(out, File.WRITE) != OK:
		printerr("cannot write " + out)
		free_kept()
		quit(5)
		return
	f.store_string("{\"engine\": " + to_json(Engine.get_version_info().string) + ",\n")
	f.store_string("\"dialect\": " + to_json(dialect) + ",\n")
	f.store_string("\"nodepath_padding_leaks\": " + to_json(nodepath_leak) + ",\n")
	f.store_string("\"error_source\": " + to_json(error_source) + ",\n")
	f.store_string("\"encode_failures\": " + to_json(encode_failures) + ",\n")
	f.store_string("\"cases\": [\n" + PoolStringArray(case_lines).join(",\n") + "\n],\n")
	f.store_string("\"malformed\": [\n" + PoolStringArray(malformed_lines).join(",\n") + "\n]}\n")
	f.close()
	print(summary)
	free_kept()
	quit(0)


func free_kept():
	for o in keep:
		if o is Object and is_instance_valid(o) and not (o is Reference):
			o.free()
	keep.clear()


# Frees the Nodes a decode made (they are not reference-counted), once described.
func free_nodes(v):
	var n = describer.type_name(v)
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


# ---------------------------------------------------------------- the engine's error log

func read_new_stderr():
	var l = _errlog.get_len()
	if l <= _errpos:
		return ""
	_errlog.seek(_errpos)
	var buf = _errlog.get_buffer(l - _errpos)
	_errpos = l
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
	_mark_seq += 1
	var begin = "%s BEGIN %d" % [MARK, _mark_seq]
	var end = "%s END %d" % [MARK, _mark_seq]
	read_new_stderr()
	printerr(begin)
	var v = pp.get_var(allow)
	var perr = pp.get_packet_error()
	printerr(end)
	var text = read_new_stderr()
	var a = text.find(begin)
	var b = text.find(end)
	if a < 0 or b < 0:
		warnings.append("markers not found for decode %d" % _mark_seq)
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
					# too deep. Bailing."): only the message is printed (3.6, Pandemonium), not the code.
					code = "ERR_OUT_OF_MEMORY"
	if perr != OK:
		warnings.append("get_packet_error() = %d for decode %d" % [perr, _mark_seq])
	if not failed:
		if code != "":
			warnings.append("decode %d succeeded but marshalls logged %s" % [_mark_seq, code])
		return {"ok": true, "err": OK, "value": v}
	return {"ok": false, "err": error_code(code), "value": null}


# The Error value named code ("" when the log names none).
func error_code(code):
	if ERRS.has(code):
		return ERRS[code]
	if code == "" and null_when_unnamed:
		n_unnamed += 1
		return null
	warnings.append("decode %d failed with unrecognised error '%s'" % [_mark_seq, code])
	return null if null_when_unnamed else -1


# Error of encoding v, without risking a script error (var2bytes raises one on failure).
func encode_error(v, full):
	var sp = StreamPeerBuffer.new()
	var pp = PacketPeerStream.new()
	pp.output_buffer_max_size = 1 << 20
	pp.stream_peer = sp
	return pp.put_var(v, full)


# ---------------------------------------------------------------- records

func describe(v, full, decoded):
	return describer.describe(v, full, decoded)


# A value the engine encodes (and decodes back): FORMAT.md's "cases".
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
		own_decode_failed(name, d.err)
		e["decoded"] = null
		e["decode_error"] = d.err
	case_lines.append(to_json(e))


# Self-checks of a case's Desc against the bytes the engine wrote (problems fail the run).
func check_case(_name, _v, _bytes, _desc, _full):
	pass


# The engine could not decode the bytes it wrote for a case.
func own_decode_failed(name, err):
	warnings.append("case %s: engine cannot decode its own bytes (error %d)" % [name, err])


# Bytes the engine is asked to decode: FORMAT.md's "malformed".
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


# Every source ([name, bytes, allow_objects, has_count_word]) as is, then mutated: every
# truncation, every bit of the header word, every bit of the first count / length word, and
# seeded single-bit flips elsewhere.
func mutate_sources(sources):
	var si = 0
	for s in sources:
		var name = s[0]
		var b = s[1]
		var allow = s[2]
		si += 1
		add_mal("valid/" + name, b, allow)
		for k in range(b.size()):
			var t = PoolByteArray()
			if k > 0:
				t = b.subarray(0, k - 1)
			add_mal("trunc/%s/%d" % [name, k], t, allow)
		for bit in range(32):
			add_mal("hdrflip/%s/%d" % [name, bit], flip(b, bit), allow)
		if s[3] and b.size() >= 8:
			for bit in range(32):
				add_mal("cntflip/%s/%d" % [name, bit], flip(b, 32 + bit), allow)
		# outside the words already flipped bit by bit above
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


# Adds each crafted input [name, bytes or hex text, allow_objects] as "craft/" + name.
func add_crafted(list):
	for c in list:
		var b = c[1]
		if typeof(b) == TYPE_STRING:
			b = hx(b)
		add_mal("craft/" + c[0], b, c[2])


# ---------------------------------------------------------------- bytes

# The hex of a header word: this engine's id of the type `name`, plus flag bits.
func H(name, flags = 0):
	return describer.u32hex(T[name] | flags)


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


func zeros(n):
	var b = PoolByteArray()
	b.resize(n)
	for i in range(n):
		b[i] = 0
	return b


func bytes_len(n):
	var b = PoolByteArray()
	for i in range(n):
		b.append((i * 7 + 3) % 256)
	return b


func flip(b, bit):
	var r = PoolByteArray(b)
	r[bit / 8] = r[bit / 8] ^ (1 << (bit % 8))
	return r


# header/prefix + u32 length + raw bytes + zero padding
func strbytes(prefix_hex, raw):
	var b = hx(prefix_hex)
	_spb.clear()
	_spb.put_32(raw.size())
	b.append_array(_spb.data_array)
	b.append_array(raw)
	while b.size() % 4 != 0:
		b.append(0)
	return b


# double from its IEEE bits (hi, lo as 32-bit words)
func dbits(hi, lo):
	_spb.clear()
	_spb.put_32(lo)
	_spb.put_32(hi)
	_spb.seek(0)
	return _spb.get_double()


# f32 from its bits, widened to double (exact)
func fbits(bits):
	_spb.clear()
	_spb.put_32(bits)
	_spb.seek(0)
	return _spb.get_float()


# ---------------------------------------------------------------- values

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


func mk_curve():
	var c = Curve.new()
	c.add_point(Vector2(0, 0.25))
	c.add_point(Vector2(1, 0.75))
	return c


func rnd():
	rng_state = (rng_state * 1103515245 + 12345) % 2147483648
	return rng_state


func rr(n):
	return (rnd() >> 7) % n


# a random finite f32 (widened); exponent kept moderate
func rand_f32():
	var bits = ((rr(2) << 31) | ((rr(100) + 77) << 23) | rr(1 << 23))
	return fbits(bits)


func rand_string():
	var alphabet = ["a", "b", "z", "0", " ", "_", u8([0xC3, 0xA9]), u8([0xE6, 0x97, 0xA5]), u8([0xF0, 0x9F, 0x98, 0x80]), "/", ":"]
	var s = ""
	for i in range(rr(12)):
		s += alphabet[rr(alphabet.size())]
	return s


func rand_value(depth):
	var k = rr(rand_kinds if depth < 3 else 14)
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
	return rand_own(k, depth)


# The engine's own kinds of random value (k from 19 to rand_kinds - 1).
func rand_own(_k, _depth):
	return null
