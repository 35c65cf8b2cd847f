extends SceneTree
## FastVarCodec benchmark, headless:
##   godot --headless --path godot_project -s res://bench/bench.gd [-- --out-dir=DIR --quick]
## (tests/bench.sh builds the addon, prepares the project and runs this.)
##
## For each payload of a fixed suite (built from a fixed seed, with the same LCG and shapes as
## rust/codec/benches/codec.rs for the payloads that bench knows by name), in the same process:
##   Godot 4 dialect: var_to_bytes / bytes_to_var  against  FastVarCodec (defaults);
##   Godot 3 dialect: a GDScript codec (res://bench/godot3_gdscript_codec.gd)  against
##                    FastVarCodec with DIALECT_GODOT_3.
## Before timing, every payload is checked: same bytes from both sides, decodes equal to each other
## (types, typed-ness, key order, float bits) and to the payload; any mismatch aborts (exit 1).
## Timing: encode and decode separately, on three sides: the competitor, FastVarCodec called through
## a typed variable (`var c: FastVarCodec`, the engine's ptrcall) and FastVarCodec called through an
## untyped one (`var c: Variant`, the engine's varcall); per (payload, operation) each side gets its
## own iteration count so that one round lasts >= MIN_ROUND_USEC; WARMUP rounds then ROUNDS rounds,
## the three sides alternating (in an order that changes every round, cycling through the six
## orders, see ORDERS); the median time per iteration is reported. The tables also give, per payload,
## FastVarCodec's Godot 3 time over its Godot 4 time on the same value, the per-call cost of tiny
## values, the date and the load average at the start and the end of the timing.
## Writes DIR/bench_godot.txt and DIR/bench_godot.json (DIR defaults to tests/out/bench/), and the
## engine's bytes of each payload to DIR/bench_payloads/<name>.godot4.bin (and FastVarCodec's Godot 3
## bytes to <name>.godot3.bin), which the Rust bench compares with its own encoding.
## Options (after `--`): --out-dir=DIR; --quick builds every payload 10 times smaller (a smoke test,
## the table is not comparable); --only=NAME,NAME (payloads), --op=encode|decode, --dialect=4|3
## select cases; --spin=SECONDS skips the measurement and runs only FastVarCodec on each selected
## case for SECONDS (for perf / valgrind), e.g.
##   perf record -g -- godot --headless --path godot_project -s res://bench/bench.gd -- \
##       --only=typed_int_100k --op=decode --dialect=4 --spin=10

const G3 := preload("res://bench/godot3_gdscript_codec.gd")

const SEED := 20250611
const WARMUP := 5
const ROUNDS := 15
const MIN_ROUND_USEC := 20000
const MB := 1000000.0  # MB/s are 10^6 bytes per second
## Sides of a timed case: the competitor, FastVarCodec through a typed variable, through an untyped one.
enum { COMPETITOR, FVC_TYPED, FVC_UNTYPED }
## The order of the three sides in round k (warm-up rounds included) is ORDERS[k % 6]: over six
## rounds every side takes every place, and comes before every other side, equally often.
const ORDERS := [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]]

const ALPHA := "abcdefghijklmnop"
# Non-ASCII words of the 1 MiB text (1 to 4 UTF-8 bytes per code point), written with escapes so
# that the Rust bench can hold exactly the same text.
const WORDS := [
	"Gr\u00fc\u00dfe", "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8", "\u041f\u0440\u0438\u0432\u0435\u0442",
	"h\u00e9llo", "w\u00f6rld", "\U01f3ae", "\u00fcn\u00efc\u00f6d\u00e9", "\u6771\u4eac",
	"\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac", "na\u00efve caf\u00e9",
]

enum { ENC, DEC }

## Counts the script errors raised while the bench runs: a GDScript runtime error only aborts the
## function it happens in, so without this a broken check could look like a passed one.
class ScriptErrorWatch extends Logger:
	var mutex := Mutex.new()
	var errors := PackedStringArray()

	func _log_error(function: String, file: String, line: int, code: String, rationale: String,
			editor_notify: bool, error_type: int, script_backtraces: Array[ScriptBacktrace]) -> void:
		if error_type == ERROR_TYPE_SCRIPT or (file.begins_with("res://") and error_type != ERROR_TYPE_WARNING):
			mutex.lock()
			errors.append("%s:%d %s %s" % [file, line, code, rationale])
			mutex.unlock()

	func _log_message(message: String, error: bool) -> void:
		pass

	func count() -> int:
		mutex.lock()
		var n := errors.size()
		mutex.unlock()
		return n

	func first() -> String:
		mutex.lock()
		var e := errors[0] if errors.size() > 0 else ""
		mutex.unlock()
		return e


var _watch := ScriptErrorWatch.new()
var _state := 0
var _out_dir := ""
var _quick := false
var _only := PackedStringArray()  # payload names; empty: all
var _ops := [ENC, DEC]
var _dialects := [4, 3]
var _spin := 0.0  # > 0: profiling mode, see the header
var _codec4: FastVarCodec
var _codec3: FastVarCodec


func _initialize() -> void:
	quit(_main())


func _main() -> int:
	OS.add_logger(_watch)
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--out-dir="):
			_out_dir = arg.substr("--out-dir=".length())
		elif arg == "--quick":
			_quick = true
		elif arg.begins_with("--only="):
			_only = arg.substr("--only=".length()).split(",", false)
		elif arg.begins_with("--op="):
			_ops = [ENC] if arg.ends_with("encode") else [DEC]
		elif arg.begins_with("--dialect="):
			_dialects = [int(arg.substr("--dialect=".length()))]
		elif arg.begins_with("--spin="):
			_spin = float(arg.substr("--spin=".length()))
		else:
			printerr("bench.gd: unknown argument %s" % arg)
			return 2
	if _out_dir == "":
		_out_dir = ProjectSettings.globalize_path("res://").path_join("../tests/out/bench").simplify_path()
	DirAccess.make_dir_recursive_absolute(_out_dir)
	if not ClassDB.class_exists(&"FastVarCodec"):
		printerr("bench.gd: class FastVarCodec is not registered (is the extension built and listed in .godot/extension_list.cfg?)")
		return 2
	if var_to_bytes(Vector2(1, 2)).size() != 12:
		printerr("bench.gd: this engine is not a single-precision build; the GDScript Godot 3 codec needs one")
		return 2
	_codec4 = FastVarCodec.new()
	_codec3 = FastVarCodec.new()
	_codec3.dialect = FastVarCodec.DIALECT_GODOT_3

	var t_build := Time.get_ticks_msec()
	var payloads := _payloads()
	print("bench.gd: built %d payloads in %d ms" % [payloads.size(), Time.get_ticks_msec() - t_build])

	# Correctness first: nothing is timed unless every payload round-trips identically.
	for p in payloads:
		var problem: Variant = _check(p)
		if _watch.count() > 0:
			problem = "script error: %s" % _watch.first()
		if problem != "OK":
			printerr("bench.gd: ABORT, correctness check failed for payload '%s': %s" % [p.name, problem])
			return 1
	print("bench.gd: correctness checks passed (%d payloads x Godot 4 and Godot 3 dialects)" % payloads.size())
	# The engine's bytes, for the Rust bench to check that it encodes exactly the same payloads.
	var payload_dir := _out_dir.path_join("bench_payloads")
	DirAccess.make_dir_recursive_absolute(payload_dir)
	for p in payloads:
		_write_bytes(payload_dir.path_join("%s.godot4.bin" % p.name), p.bytes4)
		_write_bytes(payload_dir.path_join("%s.godot3.bin" % p.name), p.bytes3)

	if _spin > 0.0:
		return _spin_all(payloads)

	var date := Time.get_datetime_string_from_system(true, true) + " UTC"
	var load_start := _loadavg()
	var per_call := _per_call(payloads) if _only.is_empty() else []
	var results := []
	var t_all := Time.get_ticks_msec()
	for dialect in _dialects:
		for p in payloads:
			for op in _ops:
				var r := _measure(dialect, p, op)
				results.append(r)
				print("  %s" % _row_text(r))
	var load_end := _loadavg()
	print("bench.gd: timing took %.1f s" % ((Time.get_ticks_msec() - t_all) / 1000.0))
	if _watch.count() > 0:
		printerr("bench.gd: ABORT, %d script errors while timing, the first: %s" % [_watch.count(), _watch.first()])
		return 1

	var info := Engine.get_version_info()
	var doc := {
		"engine": "Godot %s" % info.string,
		"engine_debug_build": OS.is_debug_build(),
		"processor": OS.get_processor_name(),
		"processor_count": OS.get_processor_count(),
		"date": date,
		"load_average_start": load_start,
		"load_average_end": load_end,
		"seed": SEED,
		"warmup_rounds": WARMUP,
		"timed_rounds": ROUNDS,
		"min_round_usec": MIN_ROUND_USEC,
		"statistic": "median time per iteration over the timed rounds",
		"sides": "competitor_*: the engine (godot4) or the GDScript codec (godot3); fvc_* and ratio: FastVarCodec through a typed variable (var c: FastVarCodec); fvc_untyped_* and ratio_untyped: through an untyped one (var c: Variant); ratio* = competitor time / FastVarCodec time",
		"mb": "10^6 bytes",
		"payloads": payloads.map(func(p): return {"name": p.name, "description": p.desc, "bytes_godot4": p.bytes4.size(), "bytes_godot3": p.bytes3.size()}),
		"results": results,
		"dialect_cost": _dialect_cost(payloads, results),
		"dialect_cost_target": DIALECT_COST_TARGET,
		"per_call": per_call,
	}
	var text := _table(doc)
	print("")
	print(text)
	_write(_out_dir.path_join("bench_godot.txt"), text)
	_write(_out_dir.path_join("bench_godot.json"), JSON.stringify(doc, "  ", false) + "\n")
	print("bench.gd: wrote %s and %s" % [_out_dir.path_join("bench_godot.txt"), _out_dir.path_join("bench_godot.json")])
	return 0


# --- payloads -------------------------------------------------------------------------------------

func _seed(s: int) -> void:
	_state = s & 0xFFFFFFFF


## 32-bit LCG (Numerical Recipes), identical in the Rust bench.
func _rnd() -> int:
	_state = (_state * 1664525 + 1013904223) & 0xFFFFFFFF
	return _state


## A float exactly representable in binary32, in [-128, 128).
func _rf32() -> float:
	return float((_rnd() >> 8) - 8388608) / 65536.0


func _payload(name: String, desc: String, value: Variant) -> Dictionary:
	return {"name": name, "desc": desc, "value": value}


## The load average (1, 5, 15 minutes) from /proc/loadavg, or "n/a" where there is none.
func _loadavg() -> String:
	if not FileAccess.file_exists("/proc/loadavg"):
		return "n/a"
	var f := FileAccess.open("/proc/loadavg", FileAccess.READ)
	if f == null:
		return "n/a"
	# get_line, not get_as_text: /proc files report a length of 0.
	var fields := f.get_line().split(" ", false)
	f.close()
	if fields.size() < 3:
		return "n/a"
	return " ".join(fields.slice(0, 3))


func _payloads() -> Array:
	var list := []
	var scale := 10 if _quick else 1

	_seed(SEED + 1)
	var msg := {}
	msg["id"] = _rnd() % 100000
	msg["seq"] = _rnd() % 65536
	msg["hp"] = _rf32()
	var px := _rf32()
	var py := _rf32()
	var pz := _rf32()
	msg["pos"] = Vector3(px, py, pz)
	msg["name"] = "player_%d" % (_rnd() % 1000)
	var i0 := _rnd() % 16
	var i1 := _rnd() % 16
	var i2 := _rf32()
	msg["inputs"] = [i0, i1, i2]
	msg["t"] = float(_rnd()) / 3.0
	list.append(_payload("small_message", "Dictionary of 7 fields: 2 ints, 2 floats, Vector3, short String, Array of 3", msg))

	_seed(SEED + 2)
	var n := 1000000 / scale
	var f32 := PackedFloat32Array()
	f32.resize(n)
	for i in n:
		f32[i] = _rf32()
	list.append(_payload("f32_1m", "PackedFloat32Array of %d" % n, f32))

	_seed(SEED + 3)
	n = 100000 / scale
	var v3 := PackedVector3Array()
	v3.resize(n)
	for i in n:
		var x := _rf32()
		var y := _rf32()
		v3[i] = Vector3(x, y, _rf32())
	list.append(_payload("vec3_100k", "PackedVector3Array of %d" % n, v3))

	_seed(SEED + 4)
	n = (4 << 20) / scale
	var words := PackedInt32Array()
	words.resize(n / 4)
	for i in n / 4:
		var w := _rnd()
		words[i] = w - 4294967296 if w >= 2147483648 else w
	list.append(_payload("bytes_4m", "PackedByteArray of %d bytes" % n, words.to_byte_array()))

	_seed(SEED + 5)
	n = 10000 / scale
	var dicts := []
	for i in n:
		var name := "item_%d" % (_rnd() % 100000)
		var hp := _rnd() % 1000
		var x := _rf32()
		var y := _rf32()
		dicts.append({"name": name, "hp": hp, "pos": Vector2(x, y)})
	list.append(_payload("dicts_10k", "Array of %d Dictionaries {name: String, hp: int, pos: Vector2}" % n, dicts))

	_seed(SEED + 6)
	var strings := PackedStringArray()
	for i in n:
		var k := _rnd() % 1000000
		var l := _rnd() % 16
		strings.append("item_%d_%s" % [k, ALPHA.substr(0, l)])
	list.append(_payload("strings_10k", "PackedStringArray of %d strings (6-27 bytes)" % n, strings))

	_seed(SEED + 7)
	var sizes := []
	for w in WORDS:
		sizes.append(w.to_utf8_buffer().size() + 1)
	var parts := PackedStringArray()
	var total := 0
	while total < (1 << 20) / scale:
		var w := _rnd() % WORDS.size()
		parts.append(WORDS[w])
		total += sizes[w]
	var text := " ".join(parts)
	list.append(_payload("text_1m", "String of %d UTF-8 bytes, mostly non-ASCII" % text.to_utf8_buffer().size(), text))

	_seed(SEED + 8)
	var mixed := []
	for i in n:
		match _rnd() % 6:
			0:
				mixed.append(_rnd() % 1000)
			1:
				var hi := _rnd() & 0x7FFFFFFF
				mixed.append((hi << 32) | _rnd())
			2:
				mixed.append(_rf32())
			3:
				mixed.append(float(_rnd()) / 3.0)
			4:
				mixed.append((_rnd() & 1) == 1)
			5:
				mixed.append(null)
	list.append(_payload("mixed_10k", "Array of %d mixed scalars (int32, int64, f32-exact float, float64, bool, null)" % n, mixed))

	_seed(SEED + 9)
	n = 100000 / scale
	var ints: Array[int] = []
	ints.resize(n)
	for i in n:
		ints[i] = _rnd() - 2147483648
	list.append(_payload("typed_int_100k", "Array[int] of %d (int32 range)" % n, ints))

	# Payloads that measure the fixed cost of small Dictionaries, the common shape of game
	# state (many records with the same keys), nesting and typed Arrays of floats. Coin flips take
	# bit 16 of _rnd(): its bit 0 alternates between calls.
	list.append(_payload("one_key_dict", "Dictionary {\"a\": 1}", {"a": 1}))

	_seed(SEED + 10)
	var m8 := {}
	m8["id"] = _rnd() % 100000
	m8["seq"] = _rnd() % 65536
	m8["hp"] = _rf32()
	var mx := _rf32()
	var my := _rf32()
	var mz := _rf32()
	m8["pos"] = Vector3(mx, my, mz)
	var vx := _rf32()
	var vy := _rf32()
	m8["vel"] = Vector2(vx, vy)
	m8["name"] = "player_%d" % (_rnd() % 1000)
	m8["flags"] = ((_rnd() >> 16) & 1) == 1
	var a0 := _rnd() % 16
	var a1 := _rf32()
	var a2 := ((_rnd() >> 16) & 1) == 1
	m8["inputs"] = [a0, a1, a2]
	list.append(_payload("message8", "Dictionary of 8 fields: 2 ints, f32-exact float, Vector3, Vector2, short String, bool, Array of 3 (int, float, bool)", m8))

	_seed(SEED + 11)
	n = 2000 / scale
	var records := []
	for i in n:
		var id := _rnd() % 1000000
		var name := "unit_%d" % (_rnd() % 100000)
		var x := _rf32()
		var y := float(_rnd()) / 3.0
		var alive := ((_rnd() >> 16) & 1) == 1
		records.append({"id": id, "name": name, "x": x, "y": y, "alive": alive})
	list.append(_payload("records_2k", "Array of %d Dictionaries with the same 5 keys {id: int, name: String, x: f32-exact float, y: float64, alive: bool}" % n, records))

	_seed(SEED + 12)
	n = 5000 / scale
	var small_dicts := []
	for i in n:
		var k := _rnd() % 100000
		var v := "v%d" % (_rnd() % 1000)
		small_dicts.append({"k": k, "v": v})
	list.append(_payload("dicts_5k", "Array of %d Dictionaries {k: int, v: String}" % n, small_dicts))

	var node := {"depth": 59, "tag": "lvl"}
	for i in range(58, -1, -1):
		node = {"depth": i, "tag": "lvl", "child": node}
	list.append(_payload("nested_60", "60 Dictionaries nested in each other, each {depth: int, tag: String, child: <the next>}", node))

	_seed(SEED + 13)
	n = 50000 / scale
	var floats: Array[float] = []
	floats.resize(n)
	for i in n:
		if ((_rnd() >> 16) & 1) == 1:
			floats[i] = _rf32()
		else:
			floats[i] = float(_rnd()) / 3.0
	list.append(_payload("typed_float_50k", "Array[float] of %d (about half f32-exact, half float64)" % n, floats))
	if not _only.is_empty():
		list = list.filter(func(p): return p.name in _only)
	return list


# --- correctness ----------------------------------------------------------------------------------

## Strict structural equality: same types, same typed-ness, same key order, same float bits.
func _same(a: Variant, b: Variant, ignore_typed := false) -> bool:
	if typeof(a) != typeof(b):
		return false
	match typeof(a):
		TYPE_ARRAY:
			if not ignore_typed and (a.is_typed() != b.is_typed() or a.get_typed_builtin() != b.get_typed_builtin()):
				return false
			if a.size() != b.size():
				return false
			for i in a.size():
				if not _same(a[i], b[i], ignore_typed):
					return false
			return true
		TYPE_DICTIONARY:
			if a.size() != b.size():
				return false
			var ka: Array = a.keys()
			var kb: Array = b.keys()
			for i in ka.size():
				if not _same(ka[i], kb[i], ignore_typed) or not _same(a[ka[i]], b[kb[i]], ignore_typed):
					return false
			return true
		TYPE_FLOAT:
			return var_to_bytes(a) == var_to_bytes(b)
		_:
			return a == b


## Returns "OK" when FastVarCodec and the competitors agree on p (and fills p.bytes4 / p.bytes3),
## otherwise what differs.
func _check(p: Dictionary) -> String:
	var v: Variant = p.value
	# Godot 4 dialect against the engine.
	var engine_bytes := var_to_bytes(v)
	if engine_bytes.is_empty():
		return "var_to_bytes failed"
	var fvc_bytes := _codec4.encode(v)
	if _codec4.get_error() != OK:
		return "FastVarCodec.encode failed: %s" % _codec4.get_error_message()
	if fvc_bytes != engine_bytes:
		return "Godot 4 bytes differ: var_to_bytes %d bytes, FastVarCodec %d bytes, first difference at byte %d" % [engine_bytes.size(), fvc_bytes.size(), _first_diff(engine_bytes, fvc_bytes)]
	if _codec4.encoded_size(v) != engine_bytes.size():
		return "FastVarCodec.encoded_size is %d, the encoding has %d bytes" % [_codec4.encoded_size(v), engine_bytes.size()]
	var engine_value: Variant = bytes_to_var(engine_bytes)
	var fvc_value: Variant = _codec4.decode(engine_bytes)
	if _codec4.get_error() != OK:
		return "FastVarCodec.decode failed: %s" % _codec4.get_error_message()
	if _codec4.get_decoded_size() != engine_bytes.size():
		return "FastVarCodec.decode consumed %d of %d bytes" % [_codec4.get_decoded_size(), engine_bytes.size()]
	if not _same(fvc_value, engine_value):
		return "Godot 4: FastVarCodec.decode differs from bytes_to_var"
	if not _same(fvc_value, v):
		return "Godot 4: FastVarCodec.decode differs from the payload"
	if var_to_bytes(fvc_value) != engine_bytes:
		return "Godot 4: FastVarCodec.decode does not re-encode to the same bytes"
	p["bytes4"] = engine_bytes

	# Godot 3 dialect against the GDScript codec.
	var g3_bytes := G3.encode(v)
	if g3_bytes.is_empty():
		return "GDScript Godot 3 codec cannot encode it: %s" % G3.last_error
	var fvc3_bytes := _codec3.encode(v)
	if _codec3.get_error() != OK:
		return "FastVarCodec (Godot 3) encode failed: %s" % _codec3.get_error_message()
	if fvc3_bytes != g3_bytes:
		return "Godot 3 bytes differ: GDScript codec %d bytes, FastVarCodec %d bytes, first difference at byte %d" % [g3_bytes.size(), fvc3_bytes.size(), _first_diff(g3_bytes, fvc3_bytes)]
	var g3_value: Variant = G3.decode(fvc3_bytes)
	if G3.last_error != "":
		return "GDScript Godot 3 codec cannot decode it: %s" % G3.last_error
	var fvc3_value: Variant = _codec3.decode(fvc3_bytes)
	if _codec3.get_error() != OK:
		return "FastVarCodec (Godot 3) decode failed: %s" % _codec3.get_error_message()
	if _codec3.get_decoded_size() != fvc3_bytes.size():
		return "FastVarCodec (Godot 3) decode consumed %d of %d bytes" % [_codec3.get_decoded_size(), fvc3_bytes.size()]
	if not _same(fvc3_value, g3_value):
		return "Godot 3: FastVarCodec.decode differs from the GDScript codec's decode"
	if not _same(fvc3_value, v, true):
		return "Godot 3: FastVarCodec.decode differs from the payload"
	if _codec3.encode(fvc3_value) != fvc3_bytes or G3.encode(g3_value) != fvc3_bytes:
		return "Godot 3: the decoded value does not re-encode to the same bytes"
	p["bytes3"] = fvc3_bytes
	return "OK"


func _first_diff(a: PackedByteArray, b: PackedByteArray) -> int:
	for i in mini(a.size(), b.size()):
		if a[i] != b[i]:
			return i
	return mini(a.size(), b.size())


# --- timing ---------------------------------------------------------------------------------------

## Profiling mode (--spin=SECONDS): after the checks, runs only FastVarCodec on each selected
## (dialect, payload, op) for SECONDS each, printing when each starts and ends, so that a profiler
## attached to the process sees (almost) nothing else.
func _spin_all(payloads: Array) -> int:
	for dialect in _dialects:
		for p in payloads:
			for op in _ops:
				var bytes: PackedByteArray = p.bytes4 if dialect == 4 else p.bytes3
				var calls := 0
				print("bench.gd: spin start godot%d %s %s" % [dialect, p.name, "encode" if op == ENC else "decode"])
				var t0 := Time.get_ticks_usec()
				# Calls in batches, so that the clock and the loop around them stay out of the
				# profile of a small payload.
				var batch := maxi(1, 20000 / maxi(1, bytes.size()))
				while Time.get_ticks_usec() - t0 < _spin * 1000000.0:
					_round(dialect, FVC_TYPED, op, p.value, bytes, batch)
					calls += batch
				var dt := Time.get_ticks_usec() - t0
				print("bench.gd: spin end: %d calls, %.1f us per call" % [calls, float(dt) / calls])
	return 0


## Runs one side `n` times and returns the elapsed microseconds. side COMPETITOR: the engine in the
## Godot 4 dialect, the GDScript codec in the Godot 3 dialect; FVC_TYPED: FastVarCodec through a
## typed variable (GDScript calls the method by pointer); FVC_UNTYPED: FastVarCodec through an
## untyped variable (GDScript calls it by name with Variant arguments).
func _round(dialect: int, side: int, op: int, value: Variant, bytes: PackedByteArray, n: int) -> int:
	var r: Variant
	var t0 := Time.get_ticks_usec()
	if side == COMPETITOR:
		if dialect == 4:
			if op == ENC:
				for i in n:
					r = var_to_bytes(value)
			else:
				for i in n:
					r = bytes_to_var(bytes)
		else:
			if op == ENC:
				for i in n:
					r = G3.encode(value)
			else:
				for i in n:
					r = G3.decode(bytes)
	elif side == FVC_TYPED:
		var c: FastVarCodec = _codec4 if dialect == 4 else _codec3
		if op == ENC:
			for i in n:
				r = c.encode(value)
		else:
			for i in n:
				r = c.decode(bytes)
	else:
		var c: Variant = _codec4 if dialect == 4 else _codec3
		if op == ENC:
			for i in n:
				r = c.encode(value)
		else:
			for i in n:
				r = c.decode(bytes)
	var dt := Time.get_ticks_usec() - t0
	r = null
	return dt


## Iterations per round so that one round lasts at least MIN_ROUND_USEC.
func _calibrate(dialect: int, side: int, op: int, value: Variant, bytes: PackedByteArray) -> int:
	var n := 1
	var dt := _round(dialect, side, op, value, bytes, n)
	while dt < MIN_ROUND_USEC:
		# Aim at 1.25 x the minimum, growing at most 16 x per step.
		n = mini(n * 16, maxi(n + 1, int(ceil(n * MIN_ROUND_USEC * 1.25 / maxf(dt, 1.0)))))
		dt = _round(dialect, side, op, value, bytes, n)
	return n


func _median(xs: Array) -> float:
	var s := xs.duplicate()
	s.sort()
	var m := s.size() / 2
	return s[m] if s.size() % 2 == 1 else (s[m - 1] + s[m]) / 2.0


func _measure(dialect: int, p: Dictionary, op: int) -> Dictionary:
	var bytes: PackedByteArray = p.bytes4 if dialect == 4 else p.bytes3
	var value: Variant = p.value
	var iters := []
	for side in [COMPETITOR, FVC_TYPED, FVC_UNTYPED]:
		iters.append(_calibrate(dialect, side, op, value, bytes))
	var per_iter := [[], [], []]
	for k in WARMUP + ROUNDS:
		for side in ORDERS[k % ORDERS.size()]:
			var dt := _round(dialect, side, op, value, bytes, iters[side])
			if k >= WARMUP:
				per_iter[side].append(float(dt) / iters[side])
	var other_us := _median(per_iter[COMPETITOR])
	var fvc_us := _median(per_iter[FVC_TYPED])
	var untyped_us := _median(per_iter[FVC_UNTYPED])
	return {
		"dialect": "godot4" if dialect == 4 else "godot3",
		"payload": p.name,
		"op": "encode" if op == ENC else "decode",
		"bytes": bytes.size(),
		"competitor": "engine" if dialect == 4 else "gdscript",
		"competitor_us": other_us,
		"fvc_us": fvc_us,
		"fvc_untyped_us": untyped_us,
		"ratio": other_us / fvc_us,
		"ratio_untyped": other_us / untyped_us,
		"competitor_mb_s": bytes.size() / other_us,
		"fvc_mb_s": bytes.size() / fvc_us,
		"fvc_untyped_mb_s": bytes.size() / untyped_us,
		"competitor_iterations_per_round": iters[COMPETITOR],
		"fvc_iterations_per_round": iters[FVC_TYPED],
		"fvc_untyped_iterations_per_round": iters[FVC_UNTYPED],
		"competitor_min_us": per_iter[COMPETITOR].min(),
		"competitor_max_us": per_iter[COMPETITOR].max(),
		"fvc_min_us": per_iter[FVC_TYPED].min(),
		"fvc_max_us": per_iter[FVC_TYPED].max(),
		"fvc_untyped_min_us": per_iter[FVC_UNTYPED].min(),
		"fvc_untyped_max_us": per_iter[FVC_UNTYPED].max(),
	}


## The cost of the Godot 3 dialect: FastVarCodec's Godot 3 time divided by its Godot 4 time on the
## same value (typed calls, from the timings above), per payload and operation timed in both dialects.
const DIALECT_COST_TARGET := 1.10


func _dialect_cost(payloads: Array, results: Array) -> Array:
	var rows := []
	for p in payloads:
		for op in ["encode", "decode"]:
			var fvc_us := {}
			for r in results:
				if r.payload == p.name and r.op == op:
					fvc_us[r.dialect] = r.fvc_us
			if fvc_us.has("godot4") and fvc_us.has("godot3"):
				rows.append({"payload": p.name, "op": op, "godot4_fvc_us": fvc_us.godot4,
						"godot3_fvc_us": fvc_us.godot3, "ratio": fvc_us.godot3 / fvc_us.godot4})
	return rows


# --- output ---------------------------------------------------------------------------------------

func _fmt_time(us: float) -> String:
	if us < 1.0:
		return "%.0f ns" % (us * 1000.0)
	if us < 10.0:
		return "%.2f us" % us
	if us < 1000.0:
		return "%.1f us" % us
	if us < 10000.0:
		return "%.2f ms" % (us / 1000.0)
	return "%.1f ms" % (us / 1000.0)


func _fmt_size(n: int) -> String:
	if n < 10000:
		return "%d B" % n
	if n < 1000000:
		return "%.1f KB" % (n / 1000.0)
	return "%.2f MB" % (n / 1000000.0)


func _fmt_rate(mbs: float) -> String:
	return "%.0f" % mbs if mbs >= 100.0 else "%.1f" % mbs


func _row_text(r: Dictionary) -> String:
	return "%-7s %-15s %-6s %10s  %-8s %10s  FVC typed %10s untyped %10s  ratio %6.2f %6.2f" % [
		r.dialect, r.payload, r.op, _fmt_size(r.bytes), r.competitor,
		_fmt_time(r.competitor_us), _fmt_time(r.fvc_us), _fmt_time(r.fvc_untyped_us), r.ratio, r.ratio_untyped]


## Nanoseconds per call of tiny values, where the fixed cost of a call dominates, and of the 8-field
## message: the engine's function against FastVarCodec called through a typed and an untyped
## variable (median of ROUNDS alternating rounds of PER_CALL_ITERS calls each).
const PER_CALL_ITERS := 20000


func _per_call_round(kind: int, side: int, value: Variant, bytes: PackedByteArray) -> float:
	var typed := _codec4
	var untyped: Variant = _codec4
	var r: Variant
	var t0 := Time.get_ticks_usec()
	match side:
		0:
			match kind:
				0:
					for i in PER_CALL_ITERS:
						r = typed.get_error()
				1:
					for i in PER_CALL_ITERS:
						r = var_to_bytes(value)
				2:
					for i in PER_CALL_ITERS:
						r = bytes_to_var(bytes)
		1:
			match kind:
				0:
					for i in PER_CALL_ITERS:
						r = typed.get_error()
				1:
					for i in PER_CALL_ITERS:
						r = typed.encode(value)
				2:
					for i in PER_CALL_ITERS:
						r = typed.decode(bytes)
		2:
			match kind:
				0:
					for i in PER_CALL_ITERS:
						r = untyped.get_error()
				1:
					for i in PER_CALL_ITERS:
						r = untyped.encode(value)
				2:
					for i in PER_CALL_ITERS:
						r = untyped.decode(bytes)
	return (Time.get_ticks_usec() - t0) * 1000.0 / PER_CALL_ITERS


func _per_call(payloads: Array) -> Array:
	var cases := [
		["get_error() (a trivial method)", 0, null],
		["encode 1", 1, 1],
		["encode {\"a\": 1}", 1, {"a": 1}],
		["decode 1", 2, 1],
		["decode {\"a\": 1}", 2, {"a": 1}],
	]
	for p in payloads:
		if p.name == "message8":
			cases.append(["encode message8 (8 fields)", 1, p.value])
			cases.append(["decode message8 (8 fields)", 2, p.value])
	var rows := []
	for c in cases:
		var bytes := var_to_bytes(c[2])
		var times := [[], [], []]
		for k in WARMUP + ROUNDS:
			for side in ([0, 1, 2] if k % 2 == 0 else [2, 1, 0]):
				var ns := _per_call_round(c[1], side, c[2], bytes)
				if k >= WARMUP:
					times[side].append(ns)
		var row := {"call": c[0], "engine_ns": _median(times[0]) if c[1] != 0 else -1.0, "fvc_typed_ns": _median(times[1]),
				"fvc_untyped_ns": _median(times[2])}
		rows.append(row)
		print("  per call: %-36s engine %6.0f ns  FVC typed %6.0f ns  untyped %6.0f ns" % [
			row.call, row.engine_ns, row.fvc_typed_ns, row.fvc_untyped_ns])
	return rows


func _table(doc: Dictionary) -> String:
	var lines := PackedStringArray()
	lines.append("FastVarCodec benchmark in %s%s, %s (%d logical CPUs)" % [doc.engine, " (debug build)" if doc.engine_debug_build else "", doc.processor, doc.processor_count])
	lines.append("%s; load average (1, 5, 15 min) at the start of the timing: %s, at the end: %s" % [doc.date, doc.load_average_start, doc.load_average_end])
	lines.append("median time per call over %d rounds after %d warm-up rounds; each round >= %d ms; MB/s = 10^6 bytes/s of the encoded size" % [ROUNDS, WARMUP, MIN_ROUND_USEC / 1000])
	lines.append("FVC typed: FastVarCodec called through `var c: FastVarCodec`; untyped: through `var c: Variant`; the three sides alternate")
	lines.append("ratio = competitor time / FVC typed time, ratio-u = competitor time / FVC untyped time (> 1: FastVarCodec is faster); FVC MB/s: typed")
	for dialect in ["godot4", "godot3"]:
		var competitor := "engine" if dialect == "godot4" else "gdscript"
		lines.append("")
		if dialect == "godot4":
			lines.append("Godot 4 dialect: engine = var_to_bytes / bytes_to_var, FVC = FastVarCodec.encode / decode")
		else:
			lines.append("Godot 3 dialect: gdscript = res://bench/godot3_gdscript_codec.gd (StreamPeerBuffer), FVC = FastVarCodec (DIALECT_GODOT_3)")
		lines.append("%-15s %-6s %10s  %10s %10s %10s %7s %7s  %9s %9s" % ["payload", "op", "size", competitor, "FVC typed", "untyped", "ratio", "ratio-u", competitor + " MB/s", "FVC MB/s"])
		for r in doc.results:
			if r.dialect != dialect:
				continue
			lines.append("%-15s %-6s %10s  %10s %10s %10s %7.2f %7.2f  %9s %9s" % [
				r.payload, r.op, _fmt_size(r.bytes), _fmt_time(r.competitor_us), _fmt_time(r.fvc_us),
				_fmt_time(r.fvc_untyped_us), r.ratio, r.ratio_untyped, _fmt_rate(r.competitor_mb_s), _fmt_rate(r.fvc_mb_s)])
	if not doc.dialect_cost.is_empty():
		lines.append("")
		lines.append("Godot 3 / Godot 4 time (FVC, same value; target <= %.2f)" % DIALECT_COST_TARGET)
		lines.append("%-15s  %10s %10s %7s   %10s %10s %7s" % ["payload", "encode G4", "G3", "G3/G4", "decode G4", "G3", "G3/G4"])
		var over := 0
		for p in doc.payloads:
			var cells := []
			for op in ["encode", "decode"]:
				var found := false
				for c in doc.dialect_cost:
					if c.payload == p.name and c.op == op:
						# Compared as printed, so that a "1.10" is never marked.
						var mark := "*" if snappedf(c.ratio, 0.01) > DIALECT_COST_TARGET + 1e-9 else " "
						if mark == "*":
							over += 1
						cells.append_array([_fmt_time(c.godot4_fvc_us), _fmt_time(c.godot3_fvc_us), "%6.2f%s" % [c.ratio, mark]])
						found = true
				if not found:
					cells.append_array(["-", "-", "-"])
			lines.append(("%-15s  %10s %10s %7s   %10s %10s %7s" % ([p.name] + cells)).strip_edges(false, true))
		if over > 0:
			lines.append("* above the target (%d of %d)" % [over, doc.dialect_cost.size()])
	if not doc.per_call.is_empty():
		lines.append("")
		lines.append("Per call, tiny values and the 8-field message (Godot 4 dialect), nanoseconds; FVC through a typed and an untyped variable")
		lines.append("%-36s %9s %9s %9s" % ["call", "engine", "typed", "untyped"])
		for r in doc.per_call:
			var engine := "-" if r.engine_ns < 0 else "%.0f" % r.engine_ns
			lines.append("%-36s %9s %9.0f %9.0f" % [r.call, engine, r.fvc_typed_ns, r.fvc_untyped_ns])
	return "\n".join(lines) + "\n"


func _write_bytes(path: String, bytes: PackedByteArray) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		printerr("bench.gd: cannot write %s: %s" % [path, error_string(FileAccess.get_open_error())])
		return
	f.store_buffer(bytes)
	f.close()


func _write(path: String, text: String) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		printerr("bench.gd: cannot write %s: %s" % [path, error_string(FileAccess.get_open_error())])
		return
	f.store_string(text)
	f.close()
