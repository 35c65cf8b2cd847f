extends RefCounted
## What a script gets when it calls the codec wrongly or with the wrong data: null or wrong-class
## peers and files, a stream that ends early, bytes of another dialect, a typo in
## allowed_classes. Every such call returns its documented empty result with the reason in
## get_error() / get_error_message(), and never aborts the calling function (each case is its own
## function, so that one aborted call fails only its own checks).

const Ctx := preload("res://tests/lib/ctx.gd")

var t: Ctx


## Collects the errors the engine logs, to see where they say they come from.
class ErrorLog extends Logger:
	var mutex := Mutex.new()
	var entries: Array = []

	func _log_error(function: String, file: String, line: int, code: String, rationale: String,
			editor_notify: bool, error_type: int, script_backtraces: Array[ScriptBacktrace]) -> void:
		mutex.lock()
		entries.append({"function": function, "file": file, "line": line, "code": code})
		mutex.unlock()

	func _log_message(message: String, error: bool) -> void:
		pass

	func take() -> Array:
		mutex.lock()
		var out := entries
		entries = []
		mutex.unlock()
		return out


func run(ctx: Ctx) -> void:
	t = ctx
	eof_counts_what_arrived()
	eof_over_tcp_counts_what_arrived()
	null_file_store_var()
	null_file_read_var()
	wrong_class_file()
	null_peer_put_vars()
	wrong_class_peer_put_vars()
	decode_of_another_dialect()
	decode_trailing_bytes_allowed()
	decode_keeps_an_unpadded_final_byte_array()
	get_vars_keeps_the_poll_error()
	allowed_classes_typos()
	listed_script_loads_at_decode()
	logged_errors_name_no_source_file()
	t.done()


func prefix(n: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, n)
	return b


## A peer that has 8 of the 100 bytes its length announces: the message counts the 8.
func eof_counts_what_arrived() -> void:
	var codec := FastVarCodec.new()
	var peer := StreamPeerBuffer.new()
	var data := prefix(100)
	var body := PackedByteArray()
	body.resize(8)
	data.append_array(body)
	peer.data_array = data
	var v = codec.get_var(peer)
	t.check(v == null and codec.get_error() == ERR_FILE_EOF, "get_var of a value cut short: ERR_FILE_EOF",
			error_string(codec.get_error()))
	t.check(codec.get_error_message().contains("got 8 of the 100 bytes"),
			"get_var's EOF message counts the 8 bytes that arrived", codec.get_error_message())
	var empty := StreamPeerBuffer.new()
	v = codec.get_var(empty)
	t.check(v == null and codec.get_error() == ERR_FILE_EOF, "get_var on an empty peer: ERR_FILE_EOF",
			error_string(codec.get_error()))
	t.check(codec.get_error_message().contains("got 0 of the 4 bytes"),
			"get_var on an empty peer says no byte of the length arrived", codec.get_error_message())
	var three := StreamPeerBuffer.new()
	three.data_array = PackedByteArray([1, 2, 3])
	codec.get_var(three)
	t.check(codec.get_error_message().contains("got 3 of the 4 bytes"),
			"get_var with 3 bytes of a length counts them", codec.get_error_message())


## Over TCP the engine's get_data claims all of them on failure: the count must still be real.
func eof_over_tcp_counts_what_arrived() -> void:
	var pair := _tcp_pair()
	if pair.is_empty():
		return
	var client: StreamPeerTCP = pair[0]
	var conn: StreamPeerTCP = pair[1]
	var data := prefix(100)
	var body := PackedByteArray()
	body.resize(8)
	data.append_array(body)
	conn.put_data(data)
	conn.disconnect_from_host()
	var codec := FastVarCodec.new()
	var v = codec.get_var(client)  # blocks until the server's close
	t.check(v == null and codec.get_error() == ERR_FILE_EOF, "get_var over TCP of a value cut short: ERR_FILE_EOF",
			error_string(codec.get_error()))
	t.check(codec.get_error_message().contains("got 8 of the 100 bytes"),
			"get_var over TCP counts the 8 bytes that arrived", codec.get_error_message())
	client.disconnect_from_host()
	pair[2].stop()


func null_file_store_var() -> void:
	var codec = FastVarCodec.new()  # untyped: the call is checked at run time, as in most scripts
	var err = codec.store_var(null, 1)
	t.check(err == ERR_INVALID_PARAMETER and codec.get_error() == ERR_INVALID_PARAMETER,
			"store_var(null, 1): ERR_INVALID_PARAMETER through get_error()", error_string(codec.get_error()))
	t.check(codec.get_error_message().contains("FileAccess"), "and the message names the file",
			codec.get_error_message())


func null_file_read_var() -> void:
	var codec = FastVarCodec.new()
	var f := FileAccess.open("user://no/such/dir/file.save", FileAccess.READ)  # fails: null
	var v = codec.read_var(f)
	t.check(v == null and codec.get_error() == ERR_INVALID_PARAMETER,
			"read_var of a file that failed to open: null, ERR_INVALID_PARAMETER", error_string(codec.get_error()))


func wrong_class_file() -> void:
	var codec = FastVarCodec.new()
	var v = codec.read_var(StreamPeerBuffer.new())
	t.check(v == null and codec.get_error() == ERR_INVALID_PARAMETER,
			"read_var of a StreamPeerBuffer: null, ERR_INVALID_PARAMETER", error_string(codec.get_error()))
	var err = codec.store_var(RefCounted.new(), 1)
	t.check(err == ERR_INVALID_PARAMETER and codec.get_error() == ERR_INVALID_PARAMETER,
			"store_var into a RefCounted: ERR_INVALID_PARAMETER", error_string(codec.get_error()))


func null_peer_put_vars() -> void:
	var stream = FastVarStream.new()
	var err = stream.put_vars(null, [1])
	t.check(err == ERR_INVALID_PARAMETER and stream.get_error() == ERR_INVALID_PARAMETER,
			"put_vars(null, [1]): ERR_INVALID_PARAMETER, as put_var(null, 1)", error_string(stream.get_error()))


func wrong_class_peer_put_vars() -> void:
	var stream = FastVarStream.new()
	var err = stream.put_vars(PacketPeerUDP.new(), [1])
	t.check(err == ERR_INVALID_PARAMETER and stream.get_error() == ERR_INVALID_PARAMETER,
			"put_vars to a PacketPeer: ERR_INVALID_PARAMETER", error_string(stream.get_error()))


## Godot 3 bytes decoded as Godot 4 used to come back as other values with OK.
func decode_of_another_dialect() -> void:
	var g3 := FastVarCodec.new()
	g3.dialect = FastVarCodec.DIALECT_GODOT_3
	var codec := FastVarCodec.new()
	for value in [{"hp": 3, "name": "xyz", "lvl": 2}, Rect2(1, 2, 3, 4)]:
		var bytes := g3.encode(value)
		var v = codec.decode(bytes)
		t.check(v == null and codec.get_error() == ERR_INVALID_DATA,
				"Godot 3 %s decoded as Godot 4: ERR_INVALID_DATA" % type_string(typeof(value)),
				"%s %s" % [Ctx.show(v), error_string(codec.get_error())])
		t.check(codec.get_error_message().contains("dialect \"godot3\""),
				"and the message names the dialect that reads it whole", codec.get_error_message())
		g3.decode(bytes)
		t.check(g3.get_error() == OK, "the Godot 3 codec reads it", g3.get_error_message())
	# Bytes after a value at an offset: the same rule from the offset on.
	var b := PackedByteArray([9, 9])
	b.append_array(var_to_bytes("abc"))
	b.append_array(var_to_bytes(77))
	t.check(codec.decode(b, 2) == null and codec.get_error() == ERR_INVALID_DATA,
			"decode at an offset with another value after it: ERR_INVALID_DATA by default")
	t.check(codec.get_error_message().contains("allow_trailing_bytes"),
			"and the message names the property that allows it", codec.get_error_message())
	t.check(codec.decode(b, 14) == 77 and codec.get_error() == OK and codec.get_decoded_size() == 8,
			"the last value at its offset decodes")


func decode_trailing_bytes_allowed() -> void:
	var codec := FastVarCodec.new()
	t.check(codec.allow_trailing_bytes == false, "allow_trailing_bytes is off by default")
	codec.allow_trailing_bytes = true
	t.check(codec.get_error() == OK and codec.allow_trailing_bytes, "allow_trailing_bytes set")
	var b := var_to_bytes("abc")
	b.append_array(var_to_bytes(77))
	t.check(codec.decode(b) == "abc" and codec.get_error() == OK and codec.get_decoded_size() == 12,
			"with allow_trailing_bytes, decode reads the first value as bytes_to_var does")
	t.check(codec.decode(b, 12) == 77, "and the next at get_decoded_size()")


## A final PackedByteArray whose padding is missing is whole, as the engine reads it.
func decode_keeps_an_unpadded_final_byte_array() -> void:
	var codec := FastVarCodec.new()
	var b := var_to_bytes(PackedByteArray([1, 2, 3]))
	b.resize(b.size() - 1)  # 8 + 3 bytes, the padding byte gone
	var v = codec.decode(b)
	t.check(codec.get_error() == OK and v == PackedByteArray([1, 2, 3]),
			"a final PackedByteArray without its padding decodes", codec.get_error_message())
	t.check_same(v, bytes_to_var(b), "as bytes_to_var decodes it")


## The README's client: poll, then get_vars, then get_error(). A connection closed in the middle
## of a value must reach that get_error().
func get_vars_keeps_the_poll_error() -> void:
	var pair := _tcp_pair()
	if pair.is_empty():
		return
	var client: StreamPeerTCP = pair[0]
	var conn: StreamPeerTCP = pair[1]
	var stream := FastVarStream.new()
	var framed := prefix(8)
	framed.append_array(var_to_bytes(42))
	framed.append_array(prefix(400000))  # a value announced, 3 of its bytes sent
	framed.append_array(PackedByteArray([1, 2, 3]))
	conn.put_data(framed)
	conn.disconnect_from_host()
	var got := []
	var polled := OK
	var deadline := Time.get_ticks_msec() + 5000
	while Time.get_ticks_msec() < deadline:
		client.poll()
		polled = stream.poll(client)
		got.append_array(stream.get_vars())
		if stream.get_error() != OK:
			break
		OS.delay_msec(1)
	t.check_same(got, [42], "get_vars hands out the complete value")
	t.check(polled == ERR_FILE_EOF and stream.get_error() == ERR_FILE_EOF,
			"after get_vars, get_error() is poll's ERR_FILE_EOF",
			"poll %s, get_error %s" % [error_string(polled), error_string(stream.get_error())])
	t.check(stream.get_error_message().contains("bytes of an incomplete value are left"),
			"and get_error_message() says what was left", stream.get_error_message())
	stream.reset()
	t.check(stream.get_vars().is_empty() and stream.get_error() == OK, "reset forgets poll's failure")
	client.disconnect_from_host()
	pair[2].stop()


func allowed_classes_typos() -> void:
	var codec := FastVarCodec.new()
	codec.allowed_classes = ["Resource"]
	for typo in ["Nonsense", "res://nonexistent.gd", "resource"]:
		codec.allowed_classes = ["Curve", typo]
		t.check(codec.get_error() == ERR_INVALID_PARAMETER,
				"allowed_classes with %s: ERR_INVALID_PARAMETER" % typo, error_string(codec.get_error()))
		t.check(codec.get_error_message().contains(typo) and codec.get_error_message().contains("neither a class"),
				"and the message names %s" % typo, codec.get_error_message())
		t.check(codec.allowed_classes == PackedStringArray(["Resource"]), "and the list keeps its value",
				str(codec.allowed_classes))
	for good in [["*"], ["Resource", "res://golden_item.gd"], ["Curve", "Node"], []]:
		codec.allowed_classes = good
		t.check(codec.get_error() == OK and codec.allowed_classes == PackedStringArray(good),
				"allowed_classes = %s applies" % str(good), codec.get_error_message())


## Listing a script runs none of its code; the first decode with objects allowed loads it (to
## learn the native class its objects have) and admits its objects.
func listed_script_loads_at_decode() -> void:
	var path := "res://tests/fixtures/static_init_probe.gd"
	var loads := func() -> int: return int(Engine.get_meta(&"fvc_static_init_probe", 0))
	t.check(loads.call() == 0, "the probe script is not loaded before the test")
	var codec := FastVarCodec.new()
	codec.allowed_classes = [path]
	t.check(codec.get_error() == OK, "a listed script path that exists is accepted", codec.get_error_message())
	codec.allow_objects = true
	t.check(loads.call() == 0, "listing a script and allowing objects do not load it", str(loads.call()))
	t.check(codec.decode(var_to_bytes(1)) == 1, "a decode with objects allowed")
	t.check(loads.call() == 1, "loads the listed script, once", str(loads.call()))
	var r: Resource = load(path).new()
	r.set("hp", 7)
	var bytes := var_to_bytes_with_objects(r)
	var back = codec.decode(bytes)
	t.check(codec.get_error() == OK and back is Resource and back.get_script() != null and back.get("hp") == 7,
			"an object carrying the listed script decodes", codec.get_error_message())


## The engine's error log names the method that refused, never a file of the library's sources.
func logged_errors_name_no_source_file() -> void:
	var log := ErrorLog.new()
	OS.add_logger(log)
	var codec := FastVarCodec.new()
	codec.max_depth = 100000
	codec.allowed_classes = ["Nonsense"]
	var stream := FastVarStream.new()
	stream.codec = null
	OS.remove_logger(log)
	var entries := log.take()
	t.check(entries.size() >= 3, "the refused settings are logged", str(entries.size()))
	for e in entries:
		t.check(not String(e["file"]).ends_with(".rs") and not String(e["code"]).contains(".rs"),
				"a logged error names no Rust source file", str(e))
	t.check(codec.get_error_message().find(".rs:") < 0, "get_error_message names no source file")


## A loopback connection: [client, server side, server], or [] (with a failed check).
func _tcp_pair() -> Array:
	var server := TCPServer.new()
	if server.listen(0, "127.0.0.1") != OK:
		t.check(false, "listening on 127.0.0.1")
		return []
	var client := StreamPeerTCP.new()
	client.connect_to_host("127.0.0.1", server.get_local_port())
	var deadline := Time.get_ticks_msec() + 10000
	var conn: StreamPeerTCP = null
	while conn == null and Time.get_ticks_msec() < deadline:
		client.poll()
		if server.is_connection_available():
			conn = server.take_connection()
		OS.delay_msec(1)
	while client.get_status() != StreamPeerTCP.STATUS_CONNECTED and Time.get_ticks_msec() < deadline:
		client.poll()
		OS.delay_msec(1)
	if not t.check(conn != null and client.get_status() == StreamPeerTCP.STATUS_CONNECTED, "a loopback connection"):
		return []
	return [client, conn, server]
