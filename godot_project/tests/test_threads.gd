extends RefCounted
## FastVarCodec and FastVarStream on any thread, as var_to_bytes and bytes_to_var work on any
## thread: a codec made on a worker, a codec handed from thread to thread, one codec shared by a
## WorkerThreadPool group (each thread's results and errors its own), both dialects, streams,
## objects, and settings changed while workers decode. Results are compared with the engine's own
## functions, computed on the main thread beforehand.

const Ctx := preload("res://tests/lib/ctx.gd")
const Item := preload("res://tests/fixtures/item.gd")

const TASKS := 8
const ROUNDS := 40
## Every group is posted high priority: a low-priority group can make Godot 4.6 hang at quit
## (docs/gdscript.md, "Threads"; tests/run_exit_guard.sh runs this file under load to check).
const HIGH_PRIORITY := true

var t: Ctx
var values: Array = []
## The engine's bytes of each value (Godot 4), and FastVarCodec's Godot 3 bytes from the main thread.
var engine_bytes: Array[PackedByteArray] = []
var godot3_bytes: Array[PackedByteArray] = []
var mutex := Mutex.new()
var mismatches: PackedStringArray = PackedStringArray()
var shared: FastVarCodec
var shared_stream: FastVarStream


func run(ctx: Ctx) -> void:
	t = ctx
	values = [
		null, true, 42, -7.25, "héllo", &"name", Vector2(1, 2), Vector3(1, 2, 3), Color(0.1, 0.2, 0.3),
		[1, "two", [3.0]], {"hp": 10, "pos": Vector2(3, 4), "tags": PackedStringArray(["a", "b"])},
		PackedFloat32Array([1.5, 2.5]), PackedByteArray([1, 2, 3]), Array([1, 2, 3], TYPE_INT, &"", null),
		large_bytes(300007),
	]
	var g3 := FastVarCodec.new()
	g3.dialect = FastVarCodec.DIALECT_GODOT_3
	for v in values:
		engine_bytes.append(var_to_bytes(v))
		godot3_bytes.append(g3.encode(v))
	codec_made_on_a_thread()
	codec_handed_between_threads()
	one_codec_many_threads()
	settings_change_while_workers_decode()
	streams_on_threads()
	objects_on_a_worker()
	codecs_made_and_dropped_on_workers()
	t.done()


func fail(msg: String) -> void:
	mutex.lock()
	mismatches.append(msg)
	mutex.unlock()


func take_failures() -> PackedStringArray:
	mutex.lock()
	var out := mismatches
	mismatches = PackedStringArray()
	mutex.unlock()
	return out


## Encodes and decodes every value with `codec` in `dialect`, comparing with the main thread's
## bytes; returns the number of values that matched.
## A PackedByteArray large enough that a decode has the engine copy it out of the input.
static func large_bytes(n: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(n)
	for i in range(0, n, 61):
		b[i] = i & 0xFF
	return b


func exercise(codec: FastVarCodec, dialect: int, who: String) -> int:
	var good := 0
	for i in values.size():
		var expected: PackedByteArray = engine_bytes[i] if dialect == FastVarCodec.DIALECT_GODOT_4 else godot3_bytes[i]
		var got := codec.encode(values[i])
		if got != expected or codec.get_error() != OK:
			fail("%s: encode of value %d differs (%s)" % [who, i, codec.get_error_message()])
			continue
		var back = codec.decode(expected)
		if codec.get_error() != OK or codec.get_decoded_size() != expected.size() \
				or var_to_bytes(back) != var_to_bytes(values[i] if dialect == FastVarCodec.DIALECT_GODOT_4 else back):
			fail("%s: decode of value %d differs (%s)" % [who, i, codec.get_error_message()])
			continue
		if dialect == FastVarCodec.DIALECT_GODOT_3 and codec.encode(back) != expected:
			fail("%s: Godot 3 value %d does not round-trip" % [who, i])
			continue
		good += 1
	# A bad input on this thread reports this thread's error, then a good one clears it.
	if codec.decode(PackedByteArray([99, 0, 0, 0])) != null or codec.get_error() != ERR_INVALID_DATA:
		fail("%s: a bad type id is not ERR_INVALID_DATA (%s)" % [who, codec.get_error()])
	return good


func made_on_thread(dialect: int) -> int:
	var codec := FastVarCodec.new()
	codec.dialect = dialect
	return exercise(codec, dialect, "thread-made codec (dialect %d)" % dialect)


func codec_made_on_a_thread() -> void:
	for dialect in [FastVarCodec.DIALECT_GODOT_4, FastVarCodec.DIALECT_GODOT_3]:
		var th := Thread.new()
		th.start(made_on_thread.bind(dialect))
		var good: int = th.wait_to_finish()
		t.check(good == values.size(), "a codec made on a Thread works there (dialect %d)" % dialect,
				"%d of %d; %s" % [good, values.size(), take_failures()])
		var task := WorkerThreadPool.add_task(made_on_thread.bind(dialect))
		WorkerThreadPool.wait_for_task_completion(task)
		var errs := take_failures()
		t.check(errs.is_empty(), "a codec made in a WorkerThreadPool task works there (dialect %d)" % dialect, errs)


func use_on_thread(codec: FastVarCodec) -> int:
	return exercise(codec, codec.dialect, "handed codec")


func codec_handed_between_threads() -> void:
	var codec := FastVarCodec.new()
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	var th := Thread.new()
	th.start(use_on_thread.bind(codec))
	var good: int = th.wait_to_finish()
	t.check(good == values.size(), "a codec made on the main thread works on a Thread", take_failures())
	t.check(exercise(codec, FastVarCodec.DIALECT_GODOT_3, "main after thread") == values.size(),
			"and back on the main thread", take_failures())


func shared_task(index: int) -> void:
	for round in ROUNDS:
		var i := (index + round) % values.size()
		var dialect := shared.dialect
		var expected: PackedByteArray = engine_bytes[i] if dialect == FastVarCodec.DIALECT_GODOT_4 else godot3_bytes[i]
		if shared.encode(values[i]) != expected:
			fail("task %d: encode of value %d differs" % [index, i])
		# Alternate a failing and a succeeding call: each thread must see its own outcome.
		if round % 2 == 0:
			shared.decode(PackedByteArray([1, 2]))
			if shared.get_error() != ERR_INVALID_DATA and shared.get_error() != ERR_FILE_EOF:
				fail("task %d: a truncated input reported %s" % [index, shared.get_error()])
		else:
			var back = shared.decode(expected)
			if shared.get_error() != OK or shared.get_decoded_size() != expected.size():
				fail("task %d: decode of value %d reported %s, size %d" % [index, i, shared.get_error(), shared.get_decoded_size()])
			elif dialect == FastVarCodec.DIALECT_GODOT_4 and var_to_bytes(back) != expected:
				fail("task %d: decode of value %d differs" % [index, i])


## Codecs are found by the engine's instance pointer in a registry (direct_methods.rs), and
## decodes share repeated Strings through a per-thread table (string_cache.rs): many codecs made,
## used and dropped at once on several threads, each in its own dialect, must each see their own
## settings and give engine-equal results (a dropped codec's entry never serves a new one).
func churn_task(index: int) -> void:
	var records := []
	for r in 40:
		records.append({"id": r, "name": "unit_%d" % (r % 5), "team": "blue" if r % 2 else "red", "hp": 0.5 * r})
	var want4 := var_to_bytes(records)
	for round in 60:
		var c := FastVarCodec.new()
		var godot3 := (index + round) % 2 == 1
		if godot3:
			c.dialect = FastVarCodec.DIALECT_GODOT_3
		var b: PackedByteArray = c.encode(records)
		if not godot3 and b != want4:
			fail("churn task %d round %d: Godot 4 bytes differ" % [index, round])
		var v2i: PackedByteArray = c.encode(Vector2i(1, 2))
		if godot3 != (v2i.is_empty() and c.get_error() == ERR_INVALID_PARAMETER):
			fail("churn task %d round %d: a codec saw another codec's dialect" % [index, round])
		var back = c.decode(b)
		if c.get_error() != OK or not (back is Array) or back.size() != records.size():
			fail("churn task %d round %d: decode reported %s" % [index, round, c.get_error()])
		elif var_to_bytes(back) != want4:
			fail("churn task %d round %d: decoded records differ" % [index, round])


func codecs_made_and_dropped_on_workers() -> void:
	var group := WorkerThreadPool.add_group_task(churn_task, TASKS, -1, HIGH_PRIORITY)
	WorkerThreadPool.wait_for_group_task_completion(group)
	var errs := take_failures()
	t.check(errs.is_empty(), "%d tasks each making, using and dropping 60 codecs at once: each its own settings and results" % TASKS,
			errs.slice(0, 5))


func one_codec_many_threads() -> void:
	for dialect in [FastVarCodec.DIALECT_GODOT_4, FastVarCodec.DIALECT_GODOT_3]:
		shared = FastVarCodec.new()
		shared.dialect = dialect
		var group := WorkerThreadPool.add_group_task(shared_task, TASKS * 4, -1, HIGH_PRIORITY)
		WorkerThreadPool.wait_for_group_task_completion(group)
		var errs := take_failures()
		t.check(errs.is_empty(), "one codec, %d group tasks at once (dialect %d): every result and error right" % [TASKS * 4, dialect],
				errs.slice(0, 5))
	t.note("threads: %d tasks x %d rounds on one codec, both dialects" % [TASKS * 4, ROUNDS])


func decode_while_settings_change(index: int) -> void:
	for round in ROUNDS * 4:
		var i := (index + round) % values.size()
		var back = shared.decode(engine_bytes[i])
		# max_depth toggles between 1024 and 64: every value here is shallower than both.
		if shared.get_error() != OK or var_to_bytes(back) != engine_bytes[i]:
			fail("task %d: decode of value %d under changing settings: %s" % [index, i, shared.get_error_message()])
		# The calls gdext binds (for a moment), a setter among them, beside the main thread's
		# setters: none fails. (A setter on &mut self, an exclusive bind, failed here with
		# "bind_mut() failed, already bound".)
		var framed = shared.decode_framed(shared.encode_framed(values[i]))
		if shared.get_error() != OK or var_to_bytes(framed) != engine_bytes[i]:
			fail("task %d: framed round trip of value %d under changing settings: %s" % [index, i, shared.get_error_message()])
		var depth := shared.max_depth
		if depth != 64 and depth != 1024:
			fail("task %d: max_depth read as %d" % [index, depth])
		shared.allow_trailing_bytes = false
		if shared.get_error() != OK:
			fail("task %d: a setter on a worker: %s" % [index, shared.get_error_message()])


func settings_change_while_workers_decode() -> void:
	shared = FastVarCodec.new()
	var group := WorkerThreadPool.add_group_task(decode_while_settings_change, TASKS, -1, HIGH_PRIORITY)
	var flips := 0
	while not WorkerThreadPool.is_group_task_completed(group):
		shared.max_depth = 64 if flips % 2 == 0 else 1024
		shared.allow_lossy = flips % 3 == 0
		flips += 1
		OS.delay_usec(50)
	WorkerThreadPool.wait_for_group_task_completion(group)
	var errs := take_failures()
	t.check(errs.is_empty(), "settings changed %d times while %d workers decoded" % [flips, TASKS], errs.slice(0, 5))


## Each task frames values through the shared stream into its own buffer, then reads them back
## through a stream of its own made on that thread, fed in small pieces.
func stream_task(index: int) -> void:
	var peer := StreamPeerBuffer.new()
	for v in values:
		if shared_stream.put_var(peer, v) != OK:
			fail("task %d: put_var failed: %s" % [index, shared_stream.get_error_message()])
	var wire := peer.data_array
	var own := FastVarStream.new()
	own.codec.dialect = shared_stream.codec.dialect
	var got := []
	for at in range(0, wire.size(), 5 + index):
		own.feed(wire.slice(at, at + 5 + index))
		while own.get_available_packet_count() > 0:
			got.append(own.get_var())
			if own.get_error() != OK:
				fail("task %d: get_var: %s" % [index, own.get_error_message()])
	if got.size() != values.size():
		fail("task %d: %d values came out of the stream, not %d" % [index, got.size(), values.size()])
		return
	if shared_stream.codec.dialect == FastVarCodec.DIALECT_GODOT_4:
		for k in values.size():
			if var_to_bytes(got[k]) != engine_bytes[k]:
				fail("task %d: stream value %d differs" % [index, k])


func streams_on_threads() -> void:
	for dialect in [FastVarCodec.DIALECT_GODOT_4, FastVarCodec.DIALECT_GODOT_3]:
		shared_stream = FastVarStream.new()
		shared_stream.codec.dialect = dialect
		var group := WorkerThreadPool.add_group_task(stream_task, TASKS, -1, HIGH_PRIORITY)
		WorkerThreadPool.wait_for_group_task_completion(group)
		var errs := take_failures()
		t.check(errs.is_empty(), "streams on %d threads, one shared for writing (dialect %d)" % [TASKS, dialect], errs.slice(0, 5))
	# One stream fed on one thread and read on another.
	var s := FastVarStream.new()
	var peer := StreamPeerBuffer.new()
	for v in values:
		peer.put_var(v)
	var feeder := Thread.new()
	feeder.start(func(): return s.feed(peer.data_array))
	var fed: int = feeder.wait_to_finish()
	var count := 0
	while s.get_available_packet_count() > 0:
		var v = s.get_var()
		if s.get_error() == OK and var_to_bytes(v) == engine_bytes[count]:
			count += 1
		else:
			break
	t.check(fed == OK and count == values.size(), "a stream fed on a Thread and read on the main thread", "%d values" % count)


func decode_item(bytes: PackedByteArray) -> Array:
	var codec := FastVarCodec.new()
	codec.allow_objects = true
	codec.allowed_classes = PackedStringArray([Item.resource_path])
	var v = codec.decode(bytes)
	codec.decode(var_to_bytes_with_objects(Curve.new()))
	return [v, codec.get_error()]


func objects_on_a_worker() -> void:
	var item := Item.new()
	item.title = "shield"
	var th := Thread.new()
	th.start(decode_item.bind(var_to_bytes_with_objects(item)))
	var r: Array = th.wait_to_finish()
	t.check(r[0] is Resource and r[0].get_script() == Item and r[0].title == "shield",
			"a full object with a listed script decodes on a Thread")
	t.check(r[1] == ERR_UNAUTHORIZED, "and an unlisted class is refused there", "%s" % r[1])
