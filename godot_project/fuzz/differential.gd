extends RefCounted
## Differential fuzzing against the engine: inputs made from the engine's own encodings of random
## values of every type, mutated with knowledge of the format (bits flipped; cut; 32-bit fields set
## to edge values; header types and flags changed; two encodings spliced; bytes appended), each
## decoded by the engine and by FastVarCodec with its defaults. They must agree on the verdict,
## the size consumed and the value, compared by re-encoding (so that NaN bits count).
##
## Godot 4 dialect: the running engine decodes (PackedByteArray.decode_var_size, bytes_to_var).
## Godot 3 dialect: a Godot 3.6.2 engine decodes, in its own process (tests/fuzz_differential.sh):
## this class mutates the Godot 3 engine's encodings (mutate_all), and compares with what that
## engine made of them (compare_godot3).

const Values := preload("res://tests/lib/values.gd")

## Values of 32-bit fields (counts, lengths, headers) that sit on the edges of the format.
const EDGE_WORDS := [0, 1, 2, 3, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x7FFFFFFE, 0x40000000,
		0x3FFFFFFF, 0x10000, 0x20000, 0x00FFFFFF, 0xFFFF]
## Flag bits of a header word (bit 16: 64-bit payload or object as id; 17–18: typed containers).
const HEADER_FLAGS := [1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 24, 1 << 31]
## One past the highest type id either dialect has, plus a few more.
const TYPE_LIMIT := 42

var values: Values
var rng: RandomNumberGenerator
var codec := FastVarCodec.new()
## Recent encodings, spliced into later inputs.
var pool: Array[PackedByteArray] = []
## A live object some values hold, sent by instance id.
var object := RefCounted.new()
var stats := {"inputs": 0, "accepted": 0, "rejected": 0, "disagreements": 0}
## The first disagreements: "what: hex of the input".
var examples := PackedStringArray()
const MAX_EXAMPLES := 20


func _init(seed_value: int) -> void:
	values = Values.new(seed_value)
	rng = values.rng
	codec.allow_trailing_bytes = true  # as the engine's bytes_to_var


# ------------------------------------------------------------------ inputs

## A random value of any type: the test values' generator, now and then an object sent by id.
func random_value():
	if rng.randi_range(0, 30) == 0:
		return [object, values.rand_value(2)] if rng.randi_range(0, 1) == 0 else object
	return values.rand_value()


## `b` with one to three mutations.
func mutated(b: PackedByteArray) -> PackedByteArray:
	var m := b
	for i in rng.randi_range(1, 3):
		m = mutate_once(m)
	return m


func mutate_once(b: PackedByteArray) -> PackedByteArray:
	var m := b.duplicate()
	var words := m.size() >> 2
	match rng.randi_range(0, 9):
		0, 1:  # bit flips
			if m.is_empty():
				return m
			for i in rng.randi_range(1, 3):
				var at := rng.randi_range(0, m.size() - 1)
				m[at] = m[at] ^ (1 << rng.randi_range(0, 7))
		2:  # cut at the end, or a piece out of the middle
			if m.is_empty():
				return m
			var at := rng.randi_range(0, m.size() - 1)
			if rng.randi_range(0, 1) == 0:
				m = m.slice(0, at)
			else:
				var to := rng.randi_range(at, mini(m.size(), at + 16))
				m = m.slice(0, at) + m.slice(to)
		3, 4:  # a 32-bit field set to an edge value
			if words == 0:
				return m
			var w := rng.randi_range(0, words - 1)
			var x: int = EDGE_WORDS[rng.randi_range(0, EDGE_WORDS.size() - 1)]
			if rng.randi_range(0, 3) == 0:
				x = m.size() + rng.randi_range(-8, 8)
			m.encode_u32(w * 4, x & 0xFFFFFFFF)
		5, 6:  # a header's type or flags changed (the first word, or one that looks like a header)
			var at := header_offset(m)
			if at < 0:
				return m
			var h := m.decode_u32(at)
			if rng.randi_range(0, 1) == 0:
				h = (h & ~0xFF) | rng.randi_range(0, TYPE_LIMIT)
			else:
				h ^= HEADER_FLAGS[rng.randi_range(0, HEADER_FLAGS.size() - 1)]
			m.encode_u32(at, h)
		7:  # two encodings spliced at word boundaries
			var other := pool[rng.randi_range(0, pool.size() - 1)] if not pool.is_empty() else m
			var i := rng.randi_range(0, words) * 4
			var j := rng.randi_range(0, other.size() >> 2) * 4
			if rng.randi_range(0, 1) == 0:
				m = m.slice(0, i) + other.slice(j)
			else:
				m = m.slice(0, i) + other + m.slice(i)
		_:  # bytes appended: noise, or another encoding
			if rng.randi_range(0, 1) == 0 and not pool.is_empty():
				m.append_array(pool[rng.randi_range(0, pool.size() - 1)])
			else:
				for i in rng.randi_range(1, 12):
					m.append(rng.randi_range(0, 255))
	return m


## The offset of a word that looks like a value's header (a type id below TYPE_LIMIT in the low
## byte, no bits in the second), chosen at random; -1 when there is none.
func header_offset(b: PackedByteArray) -> int:
	var found := PackedInt32Array()
	for w in b.size() >> 2:
		var h := b.decode_u32(w * 4)
		if (h & 0xFF) < TYPE_LIMIT and (h & 0xFF00) == 0:
			found.append(w * 4)
	return found[rng.randi_range(0, found.size() - 1)] if not found.is_empty() else -1


func remember(b: PackedByteArray) -> void:
	if pool.size() < 32:
		pool.append(b)
	else:
		pool[rng.randi_range(0, pool.size() - 1)] = b


# ------------------------------------------------------------------ Godot 4

## `count` inputs in the Godot 4 dialect, against the running engine.
func run_godot4(count: int) -> void:
	for i in count:
		var b := var_to_bytes(random_value())
		remember(b)
		compare_godot4(mutated(b))


func compare_godot4(b: PackedByteArray) -> void:
	stats.inputs += 1
	var engine_size := b.decode_var_size(0)
	var engine_ok := engine_size > 0
	var engine_value = bytes_to_var(b) if engine_ok else null
	var v = codec.decode(b)
	var ok: bool = codec.get_error() == OK
	if ok != engine_ok:
		disagree("verdict: engine %s, FastVarCodec %s (%s)" % [engine_ok, ok, codec.get_error_message()], b)
		return
	if not ok:
		stats.rejected += 1
		return
	stats.accepted += 1
	# The engine counts a final PackedByteArray's missing padding; FastVarCodec's size ends with
	# the input.
	if codec.get_decoded_size() != mini(engine_size, b.size()):
		disagree("size: engine %d, FastVarCodec %d" % [engine_size, codec.get_decoded_size()], b)
	elif not same_value(engine_value, v):
		disagree("value: engine %s, FastVarCodec %s" % [str(engine_value).left(200), str(v).left(200)], b)


## The same value to the bit: the engine's encoding of both; where that differs and objects sent
## by id are involved (each EncodedObjectAsID re-encodes with its own instance id, and a typed
## container of Strings holds the text of such an object, which names that instance id), the
## same structure, container types and leaves, the same ids in those objects and the same texts
## but for those instance ids.
func same_value(a, b) -> bool:
	if var_to_bytes(a) == var_to_bytes(b):
		return true
	if a is EncodedObjectAsID and b is EncodedObjectAsID:
		return a.get_object_id() == b.get_object_id()
	if a is String and b is String:
		return without_instance_ids(a) == without_instance_ids(b)
	if a is PackedStringArray and b is PackedStringArray:
		if a.size() != b.size():
			return false
		for i in a.size():
			if without_instance_ids(a[i]) != without_instance_ids(b[i]):
				return false
		return true
	if a is Array and b is Array:
		if a.size() != b.size() or a.get_typed_builtin() != b.get_typed_builtin() \
				or a.get_typed_class_name() != b.get_typed_class_name() \
				or a.get_typed_script() != b.get_typed_script():
			return false
		for i in a.size():
			if not same_value(a[i], b[i]):
				return false
		return true
	if a is Dictionary and b is Dictionary:
		if a.size() != b.size() or a.get_typed_key_builtin() != b.get_typed_key_builtin() \
				or a.get_typed_value_builtin() != b.get_typed_value_builtin() \
				or a.get_typed_key_class_name() != b.get_typed_key_class_name() \
				or a.get_typed_value_class_name() != b.get_typed_value_class_name():
			return false
		var ka: Array = a.keys()
		var kb: Array = b.keys()
		for i in ka.size():
			if not same_value(ka[i], kb[i]) or not same_value(a[ka[i]], b[kb[i]]):
				return false
		return true
	return false


## `s` with the instance id taken out of every "<EncodedObjectAsID#123>" (an object's text).
static func without_instance_ids(s: String) -> String:
	var marker := "<EncodedObjectAsID#"
	var at := s.find(marker)
	while at >= 0:
		var end := s.find(">", at)
		if end < 0:
			break
		s = s.substr(0, at + marker.length()) + s.substr(end)
		at = s.find(marker, at + marker.length())
	return s


func disagree(what: String, b: PackedByteArray) -> void:
	stats.disagreements += 1
	if examples.size() < MAX_EXAMPLES:
		examples.append("%s: %s" % [what, b.hex_encode().left(400)])


# ------------------------------------------------------------------ Godot 3

## Records of `[u32 length][bytes]`, as the Godot 3 side reads and writes them.
static func read_records(path: String) -> Array[PackedByteArray]:
	var out: Array[PackedByteArray] = []
	var f := FileAccess.open(path, FileAccess.READ)
	if f == null:
		return out
	while f.get_position() + 4 <= f.get_length():
		var n := f.get_32()
		out.append(f.get_buffer(n))
	return out


static func write_records(path: String, records: Array) -> Error:
	var f := FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		return FileAccess.get_open_error()
	for r: PackedByteArray in records:
		f.store_32(r.size())
		f.store_buffer(r)
	return OK


## `count` mutated inputs made from a Godot 3 engine's encodings (`bases`).
func mutate_all(bases: Array[PackedByteArray], count: int) -> Array[PackedByteArray]:
	var out: Array[PackedByteArray] = []
	if bases.is_empty():
		return out
	for b in bases:
		remember(b)
	for i in count:
		out.append(mutated(bases[rng.randi_range(0, bases.size() - 1)]))
	return out


## Compares FastVarCodec (DIALECT_GODOT_3) with a Godot 3 engine on `inputs`: `results` holds,
## per input, the engine's verdict (one byte, 1 when it decoded), the number of Dictionary entries
## in its value (all levels, a u32) and its var2bytes of the value in canonical form (see
## canonical()). FastVarCodec's value in the same form must encode to those very bytes, NaN bits
## and all.
##
## Godot 3 and Godot 4 do not merge the same Dictionary keys (Godot 3 compares a Dictionary by
## identity and a NaN inside an Array key as equal to another NaN, Godot 4 the other way round:
## docs/wire_format.md, "Dictionary keys"), and FastVarCodec builds Godot 4 Dictionaries, which
## follow Godot 4's rules. An input whose value has another number of entries for that reason is
## counted apart ("keys"), not as a disagreement, and shown.
func compare_godot3(inputs: Array[PackedByteArray], results: Array[PackedByteArray]) -> void:
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	var reader := FastVarCodec.new()
	reader.dialect = FastVarCodec.DIALECT_GODOT_3
	reader.allow_trailing_bytes = true  # as the engine's bytes_to_var
	stats.keys = 0
	if results.size() != inputs.size():
		disagree("the Godot 3 side answered %d of %d inputs" % [results.size(), inputs.size()], PackedByteArray())
		return
	for i in inputs.size():
		var b := inputs[i]
		var r := results[i]
		stats.inputs += 1
		var engine_ok := r.size() > 0 and r[0] == 1
		var v = codec.decode(b)
		var ok: bool = codec.get_error() == OK
		if ok != engine_ok:
			disagree("verdict: Godot 3 %s, FastVarCodec %s (%s)" % [engine_ok, ok, codec.get_error_message()], b)
			continue
		if not ok:
			stats.rejected += 1
			continue
		stats.accepted += 1
		var engine_bytes := r.slice(5)
		var ours_value = canonical(v)
		var ours := codec.encode(ours_value)
		if ours == engine_bytes:
			continue
		var what := "value: Godot 3 %s, FastVarCodec %s (Godot 3 bytes %s, ours %s)" % [
				str(reader.decode(engine_bytes)).left(200), str(v).left(200),
				engine_bytes.hex_encode().left(200), ours.hex_encode().left(200)]
		if entries(ours_value) != r.decode_u32(1):
			stats.keys += 1
			if key_examples.size() < 3:
				key_examples.append("%s: %s" % [what, b.hex_encode().left(300)])
			continue
		disagree(what, b)


## Examples of inputs counted under "keys" (see compare_godot3).
var key_examples := PackedStringArray()


## Dictionary entries at any depth, those of Dictionaries inside keys included.
static func entries(v) -> int:
	var n := 0
	if v is Array:
		for x in v:
			n += entries(x)
	elif v is Dictionary:
		n += v.size()
		for k in v:
			n += entries(k) + entries(v[k])
	return n


## `v` in the form both sides compare (Godot 3 values: untyped containers): every object sent by
## id (an EncodedObjectAsID, which re-encodes with its own instance id) replaced by the id it holds,
## and every NodePath by its parts, `["NodePath", absolute, [names], [subnames]]` (Godot 3 writes
## heap bytes into a NodePath's padding), at any depth. differential3.gd does the same on the
## Godot 3 side.
static func canonical(v):
	if v is EncodedObjectAsID:
		return v.get_object_id()
	if v is NodePath:
		var names := []
		for i in v.get_name_count():
			names.append(String(v.get_name(i)))
		var subnames := []
		for i in v.get_subname_count():
			subnames.append(String(v.get_subname(i)))
		return ["NodePath", v.is_absolute(), names, subnames]
	if v is Array:
		var a := []
		for x in v:
			a.append(canonical(x))
		return a
	if v is Dictionary:
		var d := {}
		for k in v:
			d[canonical(k)] = canonical(v[k])
		return d
	return v
