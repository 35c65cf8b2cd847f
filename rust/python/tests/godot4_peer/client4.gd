extends "res://peer_client4.gd"
## A real Godot 4 client for the Python asyncio server (rust/python/examples/asyncio_echo_server.py,
## started with --dialect godot4 --allow-objects), through the engine's own StreamPeerTCP put_var /
## get_var only:
##   * every value of the Godot 4 golden corpus (res://golden_values.gd: every builtin type, typed
##     Arrays and Dictionaries, StringNames, NodePaths, packed arrays, objects by id and whole,
##     nesting up to the engine's limit, odd floats and texts) and values of 1 MiB and more, each
##     sent with put_var; its echo, read with get_var, must be what the engine itself reads back
##     from its own encoding of the value (bytes_to_var of var_to_bytes);
##   * a malformed message (put_data) is answered with the server's error, and the connection goes on;
##   * the server's own values, made in Python ("fvc:samples"), each equal to the same value made
##     here (expected_samples());
##   * the server's counts of this connection ("fvc:stats") are what this client sent;
##   * a length prefix above the server's --max-message is answered with an error, then the server
##     closes the connection.
##
##   godot --headless --path rust/python/tests/godot4_peer -s res://client4.gd -- --port=47400 [--timeout=60]
##
## Prints one line per failure, "RESULT sent=N malformed=N samples=N" (what the server should have
## counted) and a final "N passed, N failed"; exits 1 on any failure.
##
## The exchange and its checks are res://peer_client4.gd's (tests/godot4_lib/, shared with the
## npm package's Godot 4 client); this script gives the connection.

var tcp: StreamPeerTCP


func configure() -> void:
	port = int(args.get("port", "47400"))
	made_in = "Python"
	float_keys_name = "keys_python_would_merge"


func connect_peer() -> bool:
	tcp = connect_tcp()
	if not check(tcp != null, "connecting to the server at 127.0.0.1:%d" % port):
		return false
	tcp.set_no_delay(true)
	return true


func close_peer() -> void:
	tcp.disconnect_from_host()


func connect_tcp() -> StreamPeerTCP:
	var until := mini(deadline, Time.get_ticks_msec() + 20000)
	while Time.get_ticks_msec() < until:
		var peer := StreamPeerTCP.new()
		if peer.connect_to_host("127.0.0.1", port) == OK:
			while Time.get_ticks_msec() < until:
				peer.poll()
				var st := peer.get_status()
				if st == StreamPeerTCP.STATUS_CONNECTED:
					return peer
				if st != StreamPeerTCP.STATUS_CONNECTING:
					break
				OS.delay_msec(5)
		peer.disconnect_from_host()
		OS.delay_msec(50)
	return null


## [true, the next value the server sent] once its length prefix is there (get_var then waits for
## the rest), or [false, why].
func receive(allow_objects: bool) -> Array:
	while tcp.get_available_bytes() < 4 and Time.get_ticks_msec() < deadline:
		tcp.poll()
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			return [false, "the connection is closed"]
		OS.delay_msec(1)
	if tcp.get_available_bytes() < 4:
		return [false, "no answer before the deadline"]
	return [true, tcp.get_var(allow_objects)]


func send(v, full := false) -> void:
	tcp.put_var(v, full)
	sent += 1


func bad_messages() -> bool:
	# A frame of 8 bytes whose type id (0x7fffffff) no engine has.
	tcp.put_data(PackedByteArray([8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]))
	if not invalid_data_answered():
		return false
	return goes_on("the connection goes on after a malformed message")


func oversize() -> bool:
	# A 2 GiB length prefix: the server cannot follow the stream any further.
	tcp.put_data(PackedByteArray([0, 0, 0, 0x80, 1, 2, 3, 4]))
	malformed += 1
	var r := receive(false)
	check(r[0] and r[1] is String and r[1].begins_with("server error: ERR_OUT_OF_MEMORY"),
			"a length prefix above the server's limit is answered with its error", show(r[1]))
	var until := mini(deadline, Time.get_ticks_msec() + 10000)
	while Time.get_ticks_msec() < until:
		tcp.poll()
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			break
		if tcp.get_available_bytes() > 0:
			tcp.get_partial_data(tcp.get_available_bytes())
		OS.delay_msec(2)
	return check(tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED,
			"then the server closes the connection", "still connected")
