extends RefCounted
## Differential fuzzing of Godot's text format against the engine's own `str_to_var`: the
## engine's `var_to_str` of random values of every type (no objects), mutated with knowledge of
## the format (characters cut, doubled or changed; tokens of the format put in; numbers set to
## edge values; constructor names swapped; two texts spliced), each read by the engine's
## `str_to_var` and by `FastVarCodec.str_to_var`. They must agree on the value, compared by
## `var_to_bytes` (NaN bits count), or both read nothing. Where the engine is lax and the
## project's reader refuses on purpose (docs/text_format.md), the input is counted apart, after
## a check that the refusal is that one:
## * "trailing": text after a value, which the engine ignores: the text before it must read as
##   the engine's value;
## * "dropped": an element of a typed container that does not convert, which the engine drops;
## * "nul": a NUL character or an escape of one, where the engine's String stops;
## * "unfit": a float in an int slot that fits no int of it (NaN, an infinity, beyond the range),
##   which the engines convert by their platform's rule;
## * "partial": `RID(`, `Signal(`, `Callable(` or `NodePath(` followed by what they do not take:
##   the engine's `str_to_var` ignores its parser's error and returns the value it had begun;
## * "rounding": floats the engine's decimal reader rounds otherwise (not always to the nearest
##   binary64; it keeps 18 digits, leading zeros counted), within a part in 10^12 (10^6 for
##   32-bit reals), and tiny ones written with many digits, below 10^-250, which it reads as 0;
## * "color": a `#` without the hex digits of a color (none, or another number of them), which
##   the engine reads as black or leaves out;
## * "escape": `\\a` and `\\v`, which the engine's reader takes for `a` and `v` although its
##   writer makes them of BEL and VT, and `\\U` of a code point past U+10FFFF, refused here;
## * "platform": a float that fits no int, converted into a typed container's int: this engine
##   (x86_64) makes it the smallest int, FastVarCodec as arm64 builds do (saturated, NaN 0);
## * "exponent": an exponent of three digits or more, which the engine's decimal reader
##   overflows (`0e999` is NaN there, 0 here);
## * "base64": a PackedByteArray's base64 that is none, which the engine reads as no bytes;
## * "bom": a text starting with U+FEFF, which FastVarCodec.str_to_var (building its value
##   through the engine's UTF-8 reader, as bytes_to_var does) drops and the engine's text reader
##   keeps;
## * "class type": a container typed with a class, which FastVarCodec.str_to_var, reading no
##   objects, types as EncodedObjectAsID (as bytes_to_var does without objects), where the engine
##   keeps the class, or leaves a class it does not know untyped.
## The engine's `str_to_var` reports nothing: it returns null for a text it cannot read, so a
## text that is not "null" (or "nil") and reads as null is its refusal.

const Values := preload("res://tests/lib/values.gd")

const TOKENS := [",", "(", ")", "[", "]", "{", "}", ":", "\"", "\\", " ", "\n", "-", ".", "e",
	"inf", "inf_neg", "nan", "1e999", "0x", "&", "^", "\\u", "\\uD800", "\\U01F600", "=", ";",
	"Vector2(", "PackedByteArray(", "Array[int](", "Dictionary[String, int](", "StringName(",
	"NodePath(\"", "9223372036854775808", "-9223372036854775809", "-0", "0.", ".5", "1e-400",
	"Color(", "Transform3D(", "true", "null", "\t", "\r", "Rect2i(", "Projection(", "\u00e9",
	"\u0000"]
const NUMBERS := ["0", "-0", "1", "-1", "2147483648", "9223372036854775807",
	"-9223372036854775808", "9223372036854775808", "1e308", "1e309", "-1e309", "1.5e-323",
	"1e-400", "0.1", "3.402823466385289e+38", "nan", "inf", "inf_neg", "00", "1.", ".1", "1e",
	"1e+", "+1", "--1"]
const NAMES := ["Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i", "Rect2",
	"Rect2i", "Color", "Plane", "Quaternion", "AABB", "Basis", "Transform2D", "Transform3D",
	"Projection", "PackedByteArray", "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array",
	"PackedFloat64Array", "PackedStringArray", "PackedVector2Array", "PackedVector3Array",
	"PackedColorArray", "PackedVector4Array", "StringName", "NodePath", "Array", "Dictionary"]

var values: Values
var rng: RandomNumberGenerator
var codec := FastVarCodec.new()
var pool := PackedStringArray()
var stats := {"inputs": 0, "accepted": 0, "rejected": 0, "disagreements": 0,
	"trailing": 0, "dropped": 0, "nul": 0, "unfit": 0, "partial": 0, "color": 0, "rounding": 0,
	"escape": 0, "exponent": 0, "class type": 0, "platform": 0, "base64": 0, "bom": 0}
var tiny_exponent := RegEx.create_from_string("[eE]-(2[5-9][0-9]|3[0-9][0-9])")
var whitespace := RegEx.create_from_string("\\s")
var huge_exponent := RegEx.create_from_string("[eE][+-]?[0-9]{3}")
var examples := PackedStringArray()
const MAX_EXAMPLES := 20
var number_re := RegEx.create_from_string("-?[0-9][0-9.e+-]*")
var name_re := RegEx.create_from_string("[A-Z][A-Za-z0-9]*\\(")


func _init(seed_value: int) -> void:
	values = Values.new(seed_value)
	rng = values.rng


func run(count: int) -> void:
	for i in count:
		var text := var_to_str(values.rand_value())
		if pool.size() < 64:
			pool.append(text)
		else:
			pool[rng.randi_range(0, pool.size() - 1)] = text
		compare(mutated(text))


func mutated(text: String) -> String:
	var m := text
	for i in rng.randi_range(1, 3):
		m = mutate_once(m)
	return m


func mutate_once(t: String) -> String:
	var n := t.length()
	match rng.randi_range(0, 8):
		0:  # a character out
			if n == 0:
				return t
			var at := rng.randi_range(0, n - 1)
			return t.substr(0, at) + t.substr(at + 1)
		1:  # a piece doubled
			if n == 0:
				return t
			var at := rng.randi_range(0, n - 1)
			var to := mini(n, at + rng.randi_range(1, 12))
			return t.substr(0, to) + t.substr(at, to - at) + t.substr(to)
		2, 3:  # a token of the format put in
			var at := rng.randi_range(0, n)
			return t.substr(0, at) + TOKENS[rng.randi_range(0, TOKENS.size() - 1)] + t.substr(at)
		4:  # cut
			return t.substr(0, rng.randi_range(0, n))
		5:  # a number set to an edge value
			var found := number_re.search_all(t)
			if found.is_empty():
				return t
			var m: RegExMatch = found[rng.randi_range(0, found.size() - 1)]
			return t.substr(0, m.get_start()) + NUMBERS[rng.randi_range(0, NUMBERS.size() - 1)] \
					+ t.substr(m.get_end())
		6:  # a constructor's name swapped
			var found := name_re.search_all(t)
			if found.is_empty():
				return t
			var m: RegExMatch = found[rng.randi_range(0, found.size() - 1)]
			return t.substr(0, m.get_start()) + NAMES[rng.randi_range(0, NAMES.size() - 1)] + "(" \
					+ t.substr(m.get_end())
		7:  # two texts spliced
			var other := pool[rng.randi_range(0, pool.size() - 1)]
			return t.substr(0, rng.randi_range(0, n)) + other.substr(rng.randi_range(0, other.length()))
		_:  # a character changed
			if n == 0:
				return t
			var at := rng.randi_range(0, n - 1)
			return t.substr(0, at) + String.chr(rng.randi_range(32, 126)) + t.substr(at + 1)


func compare(text: String) -> void:
	stats.inputs += 1
	var engine = str_to_var(text)
	var engine_read := engine != null or text.strip_edges() in ["null", "nil"]
	var ours = codec.str_to_var(text)
	var err := codec.get_error()
	if err == OK and ours == null and engine == null:
		stats.accepted += 1  # both read null, or the engine refused: its null says nothing more
	elif err == OK and engine_read:
		var kind := known_difference(text, ours, engine)
		if kind == "same":
			stats.accepted += 1
		elif kind != "":
			stats[kind] += 1
		else:
			disagree("values differ", text, ours, engine)
	elif err != OK and not engine_read:
		stats.rejected += 1
	elif err == OK:
		disagree("the engine refuses, FastVarCodec reads", text, ours, engine)
	else:
		explain_refusal(text, engine)


## "same" when FastVarCodec read `text` as the engine did, else the name of the difference on
## purpose it shows (see the head), else "".
func known_difference(text: String, ours, engine) -> String:
	if var_to_bytes(ours) == var_to_bytes(engine):
		return "same"
	if close(ours, engine):
		return "rounding"
	if var_to_str(ours).contains("EncodedObjectAsID") and not var_to_str(engine).contains("EncodedObjectAsID"):
		return "class type"
	if text.contains("\\a") or text.contains("\\v"):
		return "escape"
	if text.contains(String.chr(0xFEFF)):
		return "bom"
	if huge_exponent.search(text) != null:
		return "exponent"
	var engine_text := var_to_str(engine)
	var our_text := var_to_str(ours)
	for smallest in ["-9223372036854775808", "-2147483648"]:
		if engine_text.count(smallest) > our_text.count(smallest):
			return "platform"
	if typeof(ours) == TYPE_DICTIONARY and typeof(engine) == TYPE_DICTIONARY \
			and ours.size() != engine.size() and tiny_exponent.search(text) != null:
		return "rounding"  # a tiny key the engine reads as 0 merges with another
	return ""


## FastVarCodec refused a text the engine read: one of the refusals on purpose, or a disagreement.
func explain_refusal(text: String, engine) -> void:
	var message := codec.get_error_message()
	if message.contains("would be dropped"):
		stats.dropped += 1
	elif message.contains("NUL"):
		stats.nul += 1
	elif message.contains("does not fit a"):
		stats.unfit += 1
	elif message.contains("invalid base64") and var_to_str(engine).contains("PackedByteArray()"):
		stats.base64 += 1
	elif message.contains("no character U+"):
		stats.escape += 1
	elif message.contains("malformed color"):
		stats.color += 1
	elif typeof(engine) in [TYPE_RID, TYPE_SIGNAL, TYPE_CALLABLE, TYPE_NODE_PATH] \
			and whitespace.sub(text, "", true).begins_with(type_string(typeof(engine)) + "("):
		stats.partial += 1
	elif reads_before(text, engine):
		stats.trailing += 1
	else:
		disagree("FastVarCodec refuses (%s), the engine reads" % message, text, null, engine)


## Whether some text at the start of `text` reads as the engine's value: the engine read a value
## and ignored what followed it. The error's offset is tried first, then every shorter start.
func reads_before(text: String, engine) -> bool:
	var at := codec.get_error_message().get_slice("decode failed at byte ", 1).get_slice(":", 0).to_int()
	var bytes := text.to_utf8_buffer()
	var starts := [bytes.slice(0, at).get_string_from_utf8()]
	if text.length() <= 2000:
		for n in range(text.length() - 1, 0, -1):
			starts.append(text.substr(0, n))
	for start in starts:
		var v = codec.str_to_var(start)
		if codec.get_error() == OK and known_difference(start, v, engine) != "":
			return true
	return false


## The same value but for floats within the engine's rounding (see the head).
func close(a, b) -> bool:
	if typeof(a) != typeof(b):
		return false
	match typeof(a):
		TYPE_FLOAT:
			return near(a, b, 1e-12)
		TYPE_ARRAY:
			if a.size() != b.size() or not a.is_same_typed(b):
				return false
			for i in a.size():
				if not close(a[i], b[i]):
					return false
			return true
		TYPE_DICTIONARY:
			if a.size() != b.size():
				return false
			var bk: Array = b.keys()
			var ak: Array = a.keys()
			for i in ak.size():
				if not close(ak[i], bk[i]) or not close(a[ak[i]], b[bk[i]]):
					return false
			return true
		TYPE_PACKED_FLOAT64_ARRAY:
			return close_components(a, b, 1e-12)
		TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_INT64_ARRAY:  # ints the text gives as floats
			return close_components(a, b, 1e-12)
		TYPE_RID:  # an id the text gives as a float, which the engine reads otherwise
			return near(float(a.get_id()), float(b.get_id()), 1e-12)
		TYPE_INT, TYPE_BOOL, TYPE_STRING, TYPE_STRING_NAME, TYPE_NODE_PATH, TYPE_NIL, TYPE_RID, \
				TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_STRING_ARRAY, TYPE_VECTOR2I, TYPE_VECTOR3I, TYPE_VECTOR4I, TYPE_RECT2I, \
				TYPE_CALLABLE, TYPE_SIGNAL, TYPE_OBJECT:
			return var_to_bytes(a) == var_to_bytes(b)
	# The rest hold 32-bit reals: their components, read back as floats.
	return close_components(components(a), components(b), 1e-6)


func components(v) -> PackedFloat64Array:
	var bytes := var_to_bytes(v)
	var out := PackedFloat64Array()
	for at in range(4, bytes.size() - 3, 4):
		out.append(bytes.decode_float(at))
	return out


func close_components(a, b, tolerance: float) -> bool:
	if a.size() != b.size():
		return false
	for i in a.size():
		if not near(a[i], b[i], tolerance):
			return false
	return true


func near(x: float, y: float, tolerance: float) -> bool:
	if x == y or (is_nan(x) and is_nan(y)):
		return true
	if (x == 0.0 or y == 0.0) and maxf(absf(x), absf(y)) < 1e-250:
		return true  # the engine reads a tiny decimal of many digits as 0
	return absf(x - y) <= tolerance * maxf(absf(x), absf(y))


func disagree(what: String, text: String, ours, engine) -> void:
	stats.disagreements += 1
	if examples.size() < MAX_EXAMPLES:
		examples.append("%s: %s -> ours %s, engine %s" % [what, text.c_escape().left(200),
				var_to_str(ours).c_escape().left(120), var_to_str(engine).c_escape().left(120)])
