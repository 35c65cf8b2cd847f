extends Node
## Demo: a Godot 4 game talking to a Godot 3 server (tests/peers/godot3_server.gd, which uses only
## Godot 3's own StreamPeer.put_var / get_var) through FastVarCodec's Godot 3 dialect.
##
##   godot3-server --no-window --path tests/peers -s res://godot3_server.gd --mode=tcp --port=47400
##   godot --headless --path godot_project res://peers/demo_godot3_server.tscn -- --port=47400
##
## Everything happens in _process without ever blocking: StreamPeerTCP.poll(), then
## FastVarStream.poll() takes whatever bytes arrived and hands out each value once it is complete.
## The demo sends a few game messages, prints the Godot 3 server's echo of each, asks for the
## server's own values, prints them, and quits (exit code 0 when all went well).

enum State { CONNECTING, ECHOES, SERVER_VALUES, DONE }

var port := 47400
var tcp := StreamPeerTCP.new()
var stream := FastVarStream.new()
var state := State.CONNECTING
var started_ms := 0
var last_activity_ms := 0
var pending := 0
var received := 0
var failures := 0

## Godot 4 values; each has an exact Godot 3 form (StringName travels as String, Transform3D as
## Transform, Quaternion as Quat, PackedInt32Array as PoolIntArray ...).
var messages := [
	{"type": "hello", "player": "godot4-player", "engine": Engine.get_version_info().string},
	{"type": "move", "pos": Vector3(1, 2, 3), "rot": Quaternion(Vector3.UP, 0.5), "at": Transform3D.IDENTITY},
	{"type": "path", "points": PackedVector2Array([Vector2(0, 0), Vector2(4, 2), Vector2(8, 0)])},
	{"type": "action", "name": &"jump", "inventory": PackedInt32Array([1, 2, 3]), "tint": Color.CORNFLOWER_BLUE},
]


func _ready() -> void:
	Engine.max_fps = 240
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--port="):
			port = a.substr(7).to_int()
	# The Godot 3 dialect, for reading (FastVarStream) and writing (its codec).
	stream.codec.dialect = FastVarCodec.DIALECT_GODOT_3
	started_ms = Time.get_ticks_msec()
	last_activity_ms = started_ms
	tcp.connect_to_host("127.0.0.1", port)
	print("demo: connecting to the Godot 3 server at 127.0.0.1:%d" % port)


func _process(_delta: float) -> void:
	var now := Time.get_ticks_msec()
	if now - started_ms > 30000:
		finish("gave up after 30 s (is the Godot 3 server running on port %d?)" % port, false)
		return
	tcp.poll()
	match tcp.get_status():
		StreamPeerTCP.STATUS_CONNECTING:
			return
		StreamPeerTCP.STATUS_CONNECTED:
			pass
		_:
			if state == State.CONNECTING and now - started_ms < 10000:
				# The server may still be starting: try again.
				tcp = StreamPeerTCP.new()
				tcp.connect_to_host("127.0.0.1", port)
				return
			finish("the connection closed", state == State.SERVER_VALUES and received > 0)
			return
	if state == State.CONNECTING:
		print("demo: connected; sending %d messages in the Godot 3 dialect" % messages.size())
		for m in messages:
			if stream.put_var(tcp, m) != OK:
				print("demo: cannot send %s: %s" % [m, stream.get_error_message()])
				failures += 1
			pending += 1
		state = State.ECHOES

	var before := stream.get_buffered_bytes()
	stream.poll(tcp)
	if stream.get_buffered_bytes() != before:
		last_activity_ms = now
	while stream.get_available_packet_count() > 0:
		last_activity_ms = now
		var v = stream.get_var()
		if stream.is_broken():
			# A length prefix above max_message_size: the peer is not speaking this protocol.
			finish("stream broken: %s" % stream.get_error_message(), false)
			return
		if stream.get_error() != OK:
			# A bad value is skipped; the stream goes on with the next one.
			print("demo: the server sent a value we refuse: %s" % stream.get_error_message())
			if stream.get_error() == ERR_UNAUTHORIZED:
				print("demo:   (a full object: decoding them is off by default; turn codec.allow_objects on only for trusted peers)")
			received += 1
			continue
		if state == State.ECHOES:
			print("demo: echo from Godot 3: %s" % short(v))
			pending -= 1
			if pending == 0:
				print("demo: asking the Godot 3 server for its own values")
				stream.put_var(tcp, "__fvc_end__")
				state = State.SERVER_VALUES
		elif state == State.SERVER_VALUES:
			received += 1
			print("demo: Godot 3 value %2d: %s" % [received, short(v)])
	if state == State.SERVER_VALUES and now - last_activity_ms > 1000:
		finish("no more values from the server", received > 0)


func short(v) -> String:
	var t := type_string(typeof(v))
	var wire := stream.codec.encoded_size(v)
	if wire > 2048:
		# Large: say what it is rather than print megabytes.
		var what := ""
		if v is Dictionary:
			what = "keys %s" % [v.keys()]
		elif v is String:
			what = "%d characters" % v.length()
		elif v is Array or typeof(v) >= TYPE_PACKED_BYTE_ARRAY:
			what = "%d items" % v.size()
		return "%s, %s, %d bytes on the wire" % [t, what, wire]
	var s := var_to_str(v).replace("\n", " ")
	if s.length() > 110:
		s = s.substr(0, 110) + "..."
	return "%s %s" % [t, s]


func finish(why: String, ok: bool) -> void:
	if state == State.DONE:
		return
	state = State.DONE
	tcp.disconnect_from_host()
	ok = ok and failures == 0
	print("demo: %s; %d server values received. %s" % [why, received, "demo finished" if ok else "demo FAILED"])
	get_tree().quit(0 if ok else 1)
