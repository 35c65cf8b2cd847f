extends "res://peer_client4.gd"
## A real Godot 4 client for the npm package's WebSocket server (rust/wasm/examples/ws_server.mjs,
## started with --dialect godot4 --allow-objects), through the engine's own WebSocketPeer put_var /
## get_var only (one value per binary message, no length prefix):
##   * every value of the Godot 4 golden corpus (res://golden_values.gd: every builtin type, typed
##     Arrays and Dictionaries, StringNames, NodePaths, packed arrays, objects by id and whole,
##     nesting up to the engine's limit, odd floats and texts) and values of 1 MiB and more, each
##     sent with put_var; its echo, read with get_var, must be what the engine itself reads back
##     from its own encoding of the value (bytes_to_var of var_to_bytes);
##   * a malformed message (put_packet) and a text message are answered with the server's error,
##     and the connection goes on;
##   * the server's own values, made in JavaScript ("fvc:samples"), each equal to the same value
##     made here (expected_samples());
##   * the server's counts of this connection ("fvc:stats") are what this client sent;
##   * a message above the server's --max-message (given here as --max-message too): the server
##     closes the connection with the code 1009 (message too big).
##
##   godot --headless --path <copy of this dir> -s res://ws_client.gd -- --port=9080 --max-message=BYTES [--timeout=60]
##
## Prints one line per failure, "RESULT sent=N malformed=N samples=N" (what the server should have
## counted) and a final "N passed, N failed"; exits 1 on any failure.
##
## The exchange and its checks are res://peer_client4.gd's (tests/godot4_lib/, shared with the
## Python package's Godot 4 client); this script gives the connection.

var max_message := 8 << 20
var ws: WebSocketPeer


func configure() -> void:
	port = int(args.get("port", "9080"))
	max_message = int(args.get("max-message", str(max_message)))
	made_in = "JavaScript"
	float_keys_name = "int_float_bool_keys"


func connect_peer() -> bool:
	return check(connect_ws(), "connecting to the server at ws://127.0.0.1:%d" % port)


func close_peer() -> void:
	ws.close()


func connect_ws() -> bool:
	ws = WebSocketPeer.new()
	# Room for the largest message either way (the default buffers hold 64 KiB).
	ws.inbound_buffer_size = max_message + (1 << 20)
	ws.outbound_buffer_size = max_message + (1 << 20)
	if ws.connect_to_url("ws://127.0.0.1:%d" % port) != OK:
		return false
	var until := mini(deadline, Time.get_ticks_msec() + 20000)
	while Time.get_ticks_msec() < until:
		ws.poll()
		match ws.get_ready_state():
			WebSocketPeer.STATE_OPEN:
				return true
			WebSocketPeer.STATE_CLOSED:
				return false
		OS.delay_msec(5)
	return false


## [true, the next value the server sent] once a message is there, or [false, why].
func receive(allow_objects: bool) -> Array:
	while ws.get_available_packet_count() == 0 and Time.get_ticks_msec() < deadline:
		ws.poll()
		if ws.get_ready_state() != WebSocketPeer.STATE_OPEN:
			return [false, "the connection is closed (code %d)" % ws.get_close_code()]
		OS.delay_msec(1)
	if ws.get_available_packet_count() == 0:
		return [false, "no answer before the deadline"]
	return [true, ws.get_var(allow_objects)]


func send(v, full := false) -> void:
	var err := ws.put_var(v, full)
	check(err == OK, "put_var: %s" % error_string(err))
	sent += 1


func bad_messages() -> bool:
	# A message of 8 bytes whose type id (0x7fffffff) no engine has.
	ws.put_packet(PackedByteArray([0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]))
	if not invalid_data_answered():
		return false
	# put_var sends binary messages: a text message is no value.
	ws.send_text("hello")
	malformed += 1
	var r := receive(false)
	if not check(r[0] and r[1] is String and r[1].begins_with("server error: "),
			"a text message is answered with the server's error", show(r[1])):
		return false
	return goes_on("the connection goes on after malformed messages")


func oversize() -> bool:
	# One byte above the server's limit: it closes the connection without reading the message.
	var big := PackedByteArray()
	big.resize(max_message + 1)
	var err := ws.put_packet(big)
	check(err == OK, "put_packet of %d bytes: %s" % [big.size(), error_string(err)])
	malformed += 1
	var until := mini(deadline, Time.get_ticks_msec() + 10000)
	while Time.get_ticks_msec() < until and ws.get_ready_state() != WebSocketPeer.STATE_CLOSED:
		ws.poll()
		while ws.get_available_packet_count() > 0:
			ws.get_packet()
		OS.delay_msec(2)
	return check(ws.get_ready_state() == WebSocketPeer.STATE_CLOSED and ws.get_close_code() == 1009,
			"a message above the server's limit: the server closes the connection with code 1009 (message too big)",
			"state %d, close code %d" % [ws.get_ready_state(), ws.get_close_code()])

