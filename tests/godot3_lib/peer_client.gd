# A real Godot 3-family client for the Rust echo server (rust/codec/examples/echo_server.rs, started
# with --allow-objects and the engine's dialect): it sends each of its own values (the values
# script) with the engine's own StreamPeer.put_var, reads the echo with StreamPeer.get_var and
# checks it is what the server must give back (tests/peers/godot3_client.gd on Godot 3.2.3 and
# 3.6.2, tests/peers_pandemonium/pandemonium_client.gd on Pandemonium v4.9.0 and v5.2.0).
#
# Where the engine's own get_var cannot read its own encoding of a value back (a known engine bug,
# named by the value's fourth field), the echo is read as raw bytes (the length prefix, then
# get_data) and must equal the engine's own var2bytes of the value: the Rust server gave back
# exactly what the engine wrote.
#
# Each value is exchanged in a function call of its own (see peer_server.gd: Pandemonium v5.2.0
# keeps a variable's old TypedArray when one of another element type is assigned to it).
#
# run() prints one line per failure and returns the tally ("N passed, N failed").
extends Reference

const Cli = preload("res://godot3_lib/cli.gd")
const Tally = preload("res://godot3_lib/tally.gd")
const Tcp = preload("res://godot3_lib/tcp.gd")

var name = ""      # the script's file name
var family = ""    # "godot3" or "pandemonium", as its results say
var values = null  # the values script (res://godot3_lib/peer_values.gd)
var t = Tally.new()
var port = 47400
var timeout_ms = 60000
var deadline = 0
var engine = ""


func _init(p_name, p_family, p_values):
	name = p_name
	family = p_family
	values = p_values
	var args = Cli.args()
	port = int(args.get("port", str(port)))
	timeout_ms = Cli.timeout_ms(args, 60)


func run():
	deadline = OS.get_ticks_msec() + timeout_ms
	engine = Engine.get_version_info().string
	var finished = run_exchange()
	# A GDScript runtime error aborts the function silently: count that as a failure.
	t.check(finished == true, "%s: the exchange was aborted (script error? see the log)" % name)
	return t


func run_exchange():
	var own = values.values()
	var peer = Tcp.connect_to(port, min(deadline, OS.get_ticks_msec() + 20000))
	t.check(peer != null, "%s: cannot connect to the echo server at 127.0.0.1:%d" % [name, port])
	if peer == null:
		return true
	peer.set_no_delay(true)
	if not exchange_color_first(peer):
		return true
	var as_bytes = []
	for e in own:
		if e[3] != "":
			as_bytes.append(e[0])
		if not exchange_one(peer, e):
			return true
	if not as_bytes.empty():
		print("%s %s client -> rust echo: %d values; compared as bytes, as the engine cannot read them back: %s"
				% [family, engine, own.size(), PoolStringArray(as_bytes).join(", ")])
	peer.disconnect_from_host()
	return true


# A Color first: its bytes are also a Godot 4 Plane (and a Pandemonium Quaternion), so a server
# that detects the dialect cannot tell it yet. Sent with a Dictionary behind it, which only this
# engine's dialect reads whole, both echoes must come back as sent, in order. False when no echo
# came.
func exchange_color_first(peer):
	# (48 bytes: not a Godot 4 Transform of 52, nor a Pandemonium Transform2D of 28.)
	var sent = [Color(0.1, 0.2, 0.3, 0.4), {"hp": 10, "mp": 5}]
	for v in sent:
		peer.put_var(v)
	for v in sent:
		if not Tcp.wait_for_answer(peer, deadline):
			t.check(false, "color first: no echo (connection status %d)" % peer.get_status())
			return false
		var got = peer.get_var()
		t.check(typeof(got) == typeof(v) and str(got) == str(v),
				"%s %s client -> rust echo: color first: sent %s, got %s" % [family, engine, str(v), str(got)])
	return true


# Sends one value and checks its echo; false when no echo came.
func exchange_one(peer, e):
	var value_name = e[0]
	var full = e[2] == "full"
	peer.put_var(e[1], full)  # void in these engines
	# One value in flight at a time.
	if not Tcp.wait_for_answer(peer, deadline):
		t.check(false, "%s: no echo (connection status %d)" % [value_name, peer.get_status()])
		return false
	var why = ""
	if e[3] == "":
		why = values.check(value_name, values.echo_of(value_name, e[1]), peer.get_var(full))
	else:
		var size = peer.get_u32()
		var r = peer.get_data(size)
		var sent = var2bytes(e[1], full)
		if r[0] != OK:
			why = "reading %d bytes of echo failed (error %d)" % [size, r[0]]
		elif r[1] != sent:
			why = "echoed bytes differ from the engine's own (%d bytes, expected %d): %s" % [r[1].size(), sent.size(), r[1].hex_encode().substr(0, 160)]
	t.check(why == "", "%s %s client -> rust echo: %s: %s" % [family, engine, value_name, why])
	return true
