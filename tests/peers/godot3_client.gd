# A real Godot 3 client for the Rust echo server (rust/codec/examples/echo_server.rs, started with
# --dialect godot3 --allow-objects): it sends each of its own values (values3.gd) with the engine's
# own StreamPeer.put_var, reads the echo with StreamPeer.get_var and checks it is the same value.
# Godot 3 GDScript; runs unchanged on Godot 3.2.3 and 3.6.2.
#
#   godot3-server --no-window --path tests/peers -s res://godot3_client.gd --port=47400 [--timeout=60]
#
# Prints one line per failure and a final "N passed, N failed"; exit code 0 only if nothing failed.
extends SceneTree

const Values = preload("res://values3.gd")

var port = 47400
var timeout_ms = 60000
var deadline = 0
var passed = 0
var failed = 0


func _init():
	for a in OS.get_cmdline_args():
		if a.begins_with("--port="):
			port = int(a.substr(7, a.length() - 7))
		elif a.begins_with("--timeout="):
			timeout_ms = int(float(a.substr(10, a.length() - 10)) * 1000.0)
	deadline = OS.get_ticks_msec() + timeout_ms
	run()
	print("%d passed, %d failed" % [passed, failed])
	quit(0 if failed == 0 else 1)


func check(ok, what):
	if ok:
		passed += 1
	else:
		failed += 1
		print("FAIL " + what)


## Connects to 127.0.0.1:port, retrying until connect_deadline (the server may still be starting).
func connect_tcp(connect_deadline):
	while OS.get_ticks_msec() < connect_deadline:
		var peer = StreamPeerTCP.new()
		if peer.connect_to_host("127.0.0.1", port) == OK:
			while OS.get_ticks_msec() < connect_deadline:
				var st = peer.get_status()
				if st == StreamPeerTCP.STATUS_CONNECTED:
					return peer
				if st != StreamPeerTCP.STATUS_CONNECTING:
					break
				OS.delay_msec(5)
		peer.disconnect_from_host()
		OS.delay_msec(50)
	return null


func run():
	var finished = run_exchange()
	# A GDScript runtime error aborts the function silently: count that as a failure.
	check(finished == true, "godot3_client.gd: the exchange was aborted (script error? see the log)")


func run_exchange():
	var values = Values.new()
	var own = values.values()
	var peer = connect_tcp(min(deadline, OS.get_ticks_msec() + 20000))
	check(peer != null, "godot3_client.gd: cannot connect to the echo server at 127.0.0.1:%d" % port)
	if peer == null:
		return true
	peer.set_no_delay(true)
	var engine = Engine.get_version_info().string
	for e in own:
		var name = e[0]
		var full = e[2] == "full"
		peer.put_var(e[1], full)  # void in Godot 3
		# One value in flight at a time; wait until the echo has started, then the engine's
		# blocking get_var reads the whole of it.
		while OS.get_ticks_msec() < deadline and peer.get_available_bytes() < 4 \
				and peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
			OS.delay_msec(1)
		if peer.get_available_bytes() < 4:
			check(false, "%s: no echo (connection status %d)" % [name, peer.get_status()])
			return true
		var got = peer.get_var(full)
		var why = Values.check(name, e[1], got)
		check(why == "", "godot3 %s client -> rust echo: %s: %s" % [engine, name, why])
	peer.disconnect_from_host()
	return true
	return true
