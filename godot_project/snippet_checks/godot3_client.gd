extends SceneTree
## Runs the README's godot3_client snippet against a real Godot 3 server
## (tests/peers/godot3_server.gd --mode=tcp, which echoes each value with its own put_var):
##   godot --headless --path godot_project -s res://snippet_checks/godot3_client.gd -- --port=N

const Lib := preload("res://snippet_checks/lib.gd")

var t := Lib.new()
var node: Node
var deadline := 0


func _initialize() -> void:
	var port := 47400
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--port="):
			port = int(a.trim_prefix("--port="))
	node = Lib.snippet("godot3_client").new()
	node.port = port
	root.add_child(node)
	deadline = Time.get_ticks_msec() + 20000


func _process(_delta: float) -> bool:
	if node.replies.size() < 2 and Time.get_ticks_msec() < deadline:
		return false
	t.check(node.replies.size() == 2, "the server echoed both values", str(node.replies))
	if node.replies.size() == 2:
		t.check(var_to_bytes(node.replies[0]) == var_to_bytes({"hello": "from Godot 4", "pos": Vector2(1, 2)}),
				"the Dictionary came back intact", str(node.replies[0]))
		t.check(node.replies[1] is int and node.replies[1] == 42, "the int came back intact", str(node.replies[1]))
	# The server's protocol ends with its end marker.
	node.stream.put_var(node.tcp, "__fvc_end__")
	node.tcp.disconnect_from_host()
	node.queue_free()
	closing_mid_value()
	quit(t.finish("godot3_client"))
	return true


## The same snippet against a server that closes the connection in the middle of a value: the
## snippet's `stream.get_error()` after `get_vars()` sees what `poll()` reported.
func closing_mid_value() -> void:
	var server := TCPServer.new()
	if not t.check(server.listen(0, "127.0.0.1") == OK, "a local server for the closing case"):
		return
	var client: Node = Lib.snippet("godot3_client").new()
	client.port = server.get_local_port()
	root.add_child(client)  # _ready connects; _process is called here, frame by frame
	var conn: StreamPeerTCP = null
	var until := Time.get_ticks_msec() + 10000
	while conn == null and Time.get_ticks_msec() < until:
		client._process(0.0)
		if server.is_connection_available():
			conn = server.take_connection()
		OS.delay_msec(1)
	if not t.check(conn != null, "the snippet connected to the local server"):
		client.free()
		return
	# Read what the snippet sent first: closing on unread bytes would reset the connection.
	var codec: FastVarCodec = client.stream.codec
	var sent: int = codec.encode_framed({"hello": "from Godot 4", "pos": Vector2(1, 2)}).size() \
			+ codec.encode_framed(42).size()
	var read := 0
	while read < sent and Time.get_ticks_msec() < until:
		client._process(0.0)
		conn.poll()
		var n := conn.get_available_bytes()
		if n > 0:
			read += n
			conn.get_data(n)
		OS.delay_msec(1)
	var prefix := PackedByteArray([0, 0, 0, 0])
	prefix.encode_u32(0, 400001)
	conn.put_data(prefix + PackedByteArray([2, 0, 0, 0]))  # a value's length and 4 of its bytes
	conn.disconnect_from_host()
	while client.is_processing() and Time.get_ticks_msec() < until:
		client._process(0.0)
		OS.delay_msec(1)
	var warnings := t.take_logged()
	t.check(not client.is_processing(), "the snippet stopped on the closed connection")
	t.check(client.stream.get_error() == ERR_FILE_EOF, "it saw poll's ERR_FILE_EOF after get_vars",
			error_string(client.stream.get_error()))
	t.check(" ".join(warnings).contains("bytes of an incomplete value are left"),
			"and its push_warning says what was left", "; ".join(warnings))
	client.free()
	server.stop()
