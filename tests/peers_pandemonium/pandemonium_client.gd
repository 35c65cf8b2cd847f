# A real Pandemonium client for the Rust echo server (rust/codec/examples/echo_server.rs, started
# with --dialect pandemonium38 for v3.8.0–v4.9.0 or pandemonium5 for v5.0.0+, and
# --allow-objects): it sends each of its own values (values_pandemonium.gd, on v5 with
# values_v5.gd) with the engine's own StreamPeer.put_var, reads the echo with StreamPeer.get_var
# and checks it is the same value. Pandemonium GDScript; runs unchanged on v4.9.0 and v5.2.0.
#
#   pandemonium-server --path tests/peers_pandemonium -s res://pandemonium_client.gd \
#       --port=47400 [--timeout=60]
#
# The engine's own get_var cannot read some of its own encodings back (docs/wire_format.md#pandemonium-decoder-bugs: a nested
# Vector4/Vector4i, a Projection, PoolVector4Array, PoolVector4iArray); for those values (the
# fourth field in values_pandemonium.gd says why) the echo is read as raw bytes (the length
# prefix, then get_data) and must equal the engine's own var2bytes of the value: the Rust server
# gave back exactly what the engine wrote.
#
# Each value is exchanged in a function call of its own (see pandemonium_server.gd: v5.2.0 keeps a
# variable's old TypedArray when one of another element type is assigned to it).
#
# Prints one line per failure and a final "N passed, N failed"; exit code 0 only if nothing failed.
extends SceneTree

const Values = preload("res://values_pandemonium.gd")

var port = 47400
var timeout_ms = 60000
var deadline = 0
var passed = 0
var failed = 0
var values = null
var engine = ""


func _init():
	for a in OS.get_cmdline_args():
		if a.begins_with("--port="):
			port = int(a.substr(7, a.length() - 7))
		elif a.begins_with("--timeout="):
			timeout_ms = int(float(a.substr(10, a.length() - 10)) * 1000.0)
	deadline = OS.get_ticks_msec() + timeout_ms
	engine = Engine.get_version_info().string
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
	check(finished == true, "pandemonium_client.gd: the exchange was aborted (script error? see the log)")


func run_exchange():
	values = Values.new()
	var own = values.values()
	var peer = connect_tcp(min(deadline, OS.get_ticks_msec() + 20000))
	check(peer != null, "pandemonium_client.gd: cannot connect to the echo server at 127.0.0.1:%d" % port)
	if peer == null:
		return true
	peer.set_no_delay(true)
	var as_bytes = []
	for e in own:
		if e[3] != "":
			as_bytes.append(e[0])
		if not exchange_one(peer, e):
			return true
	print("pandemonium %s client -> rust echo: %d values; compared as bytes, as the engine cannot read them back: %s"
			% [engine, own.size(), PoolStringArray(as_bytes).join(", ")])
	peer.disconnect_from_host()
	return true


## Sends one value and checks its echo; false when no echo came.
func exchange_one(peer, e):
	var name = e[0]
	var full = e[2] == "full"
	peer.put_var(e[1], full)  # void in Pandemonium, as in Godot 3
	# One value in flight at a time; wait until the echo has started, then the engine's
	# blocking get_var (or get_data) reads the whole of it.
	while OS.get_ticks_msec() < deadline and peer.get_available_bytes() < 4 \
			and peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
		OS.delay_msec(1)
	if peer.get_available_bytes() < 4:
		check(false, "%s: no echo (connection status %d)" % [name, peer.get_status()])
		return false
	var why = ""
	if e[3] == "":
		why = values.check(name, values.echo_of(name, e[1]), peer.get_var(full))
	else:
		var size = peer.get_u32()
		var r = peer.get_data(size)
		var sent = var2bytes(e[1], full)
		if r[0] != OK:
			why = "reading %d bytes of echo failed (error %d)" % [size, r[0]]
		elif r[1] != sent:
			why = "echoed bytes differ from the engine's own (%d bytes, expected %d): %s" % [r[1].size(), sent.size(), r[1].hex_encode().substr(0, 160)]
	check(why == "", "pandemonium %s client -> rust echo: %s: %s" % [engine, name, why])
	return true
