extends RefCounted
## Check counter handed to every test file by run_tests.gd: counts each check once, prints one
## line per failing check (at most MAX_DETAILS per file), plus value comparison helpers. Scripts
## run on their own (-s: peers/lib/peer_common.gd extends it, saves_tools/*.gd) use it too, and end
## with finish().

## Failure lines printed per file; FVC_TEST_DETAILS=<n> in the environment overrides it.
var MAX_DETAILS := 50

## Named in every FAIL line: the test file, or a standalone script's label.
var file: String
## The SceneTree running the tests (a live object to encode by id).
var tree: SceneTree
var passed := 0
var failed := 0
## Checks left out on purpose, by reason (see skip()).
var skipped := {}
var shown := 0
## Set by the test file when its run() reached its end (a GDScript runtime error aborts a
## function silently; the runner counts an unfinished file as a failure).
var finished := false
var started_ms := 0


func _init(p_file: String) -> void:
	file = p_file
	started_ms = Time.get_ticks_msec()
	var env := OS.get_environment("FVC_TEST_DETAILS")
	if env.is_valid_int():
		MAX_DETAILS = env.to_int()


## Counts one check. `what` names the check; `detail` (a String, or a Callable returning one,
## only evaluated when the check fails, so that building it costs nothing on success) follows it
## on the FAIL line unless it is null or empty.
func check(cond: bool, what: String, detail = null) -> bool:
	if cond:
		passed += 1
		return true
	failed += 1
	if shown < MAX_DETAILS:
		var line := "FAIL %s: %s" % [file, what]
		var d = detail.call() if detail is Callable else detail
		if d != null and str(d) != "":
			line += " -- " + str(d)
		print(line)
	elif shown == MAX_DETAILS:
		print("FAIL %s: ... (further failures of this file not shown)" % file)
	shown += 1
	return false


## Checks that two values are the same Variant (see same()).
func check_same(got, expected, what: String) -> bool:
	return check(same(got, expected), what, func(): return "got %s, expected %s" % [show(got), show(expected)])


## Checks two byte strings for equality and shows both (and the first difference) when they differ.
func check_bytes(got: PackedByteArray, expected: PackedByteArray, what: String) -> bool:
	return check(got == expected, what, func(): return bytes_diff(got, expected))


## The test file's run() reached its end (run_tests.gd checks it).
func done() -> void:
	finished = true
	if not skipped.is_empty():
		var total := 0
		for k in skipped:
			total += skipped[k]
		note("%d checks skipped: %s" % [total, skipped])


## Leaves a check out on purpose, counted under `reason` (reported by done()).
func skip(reason: String) -> void:
	skipped[reason] = skipped.get(reason, 0) + 1


## For a script run on its own (-s): prints "<file>: N passed, N failed (T s)", then the final
## "N passed, N failed" line the runners read; returns the exit code (1 on any failure) for quit().
func finish() -> int:
	print("%s: %d passed, %d failed (%.1f s)" % [file, passed, failed, (Time.get_ticks_msec() - started_ms) / 1000.0])
	print("%d passed, %d failed" % [passed, failed])
	return 0 if failed == 0 else 1


func note(msg: String) -> void:
	print("NOTE %s: %s" % [file, msg])


# ------------------------------------------------------------------ comparison

## The same Variant: same type and the same bytes under var_to_bytes_with_objects, which covers
## NaN payloads, -0.0, typed-container info, Dictionary order and object contents (an
## EncodedObjectAsID is compared by its object_id property). Values too deep to encode are
## compared level by level.
static func same(a, b, depth := 0) -> bool:
	if typeof(a) != typeof(b):
		return false
	if typeof(a) == TYPE_OBJECT:
		var va := is_instance_valid(a)
		var vb := is_instance_valid(b)
		if not va or not vb:
			return va == vb
		if a.get_class() != b.get_class():
			return false
		if a is EncodedObjectAsID:
			return a.get_object_id() == b.get_object_id()
		if a.get_script() != b.get_script():
			return false
	var ba := var_to_bytes_with_objects(a)
	var bb := var_to_bytes_with_objects(b)
	if not ba.is_empty() or not bb.is_empty():
		return ba == bb
	# Neither can be encoded (nested deeper than the engine allows): compare structurally.
	if depth > 2000:
		return false
	match typeof(a):
		TYPE_ARRAY:
			if a.size() != b.size() or not same_array_type(a, b):
				return false
			for i in a.size():
				if not same(a[i], b[i], depth + 1):
					return false
			return true
		TYPE_DICTIONARY:
			if a.size() != b.size() or not same_dict_type(a, b):
				return false
			var ka: Array = a.keys()
			var kb: Array = b.keys()
			for i in ka.size():
				if not same(ka[i], kb[i], depth + 1) or not same(a[ka[i]], b[kb[i]], depth + 1):
					return false
			return true
	return false


static func same_array_type(a: Array, b: Array) -> bool:
	return a.get_typed_builtin() == b.get_typed_builtin() and a.get_typed_class_name() == b.get_typed_class_name() \
			and a.get_typed_script() == b.get_typed_script()


static func same_dict_type(a: Dictionary, b: Dictionary) -> bool:
	return a.get_typed_key_builtin() == b.get_typed_key_builtin() \
			and a.get_typed_key_class_name() == b.get_typed_key_class_name() \
			and a.get_typed_key_script() == b.get_typed_key_script() \
			and a.get_typed_value_builtin() == b.get_typed_value_builtin() \
			and a.get_typed_value_class_name() == b.get_typed_value_class_name() \
			and a.get_typed_value_script() == b.get_typed_value_script()


## Frees the objects a decode created that are not reference-counted (Nodes, plain Objects),
## a few levels deep. Only for freshly decoded values.
static func dispose(v, depth := 0) -> void:
	if depth > 8:
		return
	match typeof(v):
		TYPE_OBJECT:
			if is_instance_valid(v) and not (v is RefCounted) and not (v is Node and v.is_inside_tree()):
				v.free()
		TYPE_ARRAY:
			for e in v:
				dispose(e, depth + 1)
		TYPE_DICTIONARY:
			for k in v:
				dispose(k, depth + 1)
				dispose(v[k], depth + 1)


# ------------------------------------------------------------------ formatting (failures only)

static func show(v) -> String:
	var s: String
	if typeof(v) == TYPE_OBJECT and is_instance_valid(v) and v is EncodedObjectAsID:
		s = "EncodedObjectAsID(%d)" % v.get_object_id()
	else:
		s = str(v)
	if s.length() > 160:
		s = s.substr(0, 160) + "..."
	return "%s:%s" % [type_string(typeof(v)), s]


static func hex(b: PackedByteArray, limit := 120) -> String:
	if b.size() <= limit:
		return b.hex_encode() if b.size() > 0 else "(empty)"
	return b.slice(0, limit).hex_encode() + "...(%d bytes)" % b.size()


static func bytes_diff(got: PackedByteArray, expected: PackedByteArray) -> String:
	var first := 0
	while first < got.size() and first < expected.size() and got[first] == expected[first]:
		first += 1
	var from := maxi(0, first - 16) & ~3
	var g := got.slice(from, from + 96)
	var e := expected.slice(from, from + 96)
	return "got %d bytes, expected %d; first difference at byte %d; from byte %d: got %s expected %s" % [
			got.size(), expected.size(), first, from, hex(g), hex(e)]
