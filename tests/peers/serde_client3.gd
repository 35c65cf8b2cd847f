# A real Godot 3 client of the Rust serde game server (rust/codec/examples/serde_server.rs, started
# with --dialect godot3 --expect-test-login). It uses only the engine's own StreamPeer.put_var /
# get_var: the server's serde structs must read what Godot 3 writes and write what it reads.
# The exchange of godot_project/peers/serde_client.gd (Godot 4) in Godot 3's types (PoolByteArray,
# PoolStringArray...). Godot 3 GDScript; runs unchanged on Godot 3.2.3 and 3.6.2.
#
#   godot3-server --no-window --path tests/peers -s res://serde_client3.gd --port=47400 [--timeout=60]
#
# Prints one line per failure and a final "N passed, N failed"; exit code 0 only if nothing failed.
extends SceneTree

const Cli = preload("res://godot3_lib/cli.gd")
const Tally = preload("res://godot3_lib/tally.gd")
const Tcp = preload("res://godot3_lib/tcp.gd")

var port = 47400
var deadline = 0
var t = Tally.new()


func _init():
	var args = Cli.args()
	port = int(args.get("port", str(port)))
	deadline = OS.get_ticks_msec() + Cli.timeout_ms(args, 60)
	t.label = "godot3 %s client -> rust serde_server (godot3 dialect)" % Engine.get_version_info().string
	var finished = exchange()
	# A GDScript runtime error aborts the function silently: count that as a failure.
	t.check(finished == true, "the exchange did not reach its end (a script error aborted it? see the log)")
	print("%s: %s" % [t.label, t.summary()])
	print(t.summary())
	quit(0 if t.failed == 0 else 1)


func check(ok, what, detail = ""):
	return t.check(ok, what, detail)


## Same Variant: same type and the same bytes from the engine's own var2bytes.
static func same(a, b):
	return typeof(a) == typeof(b) and var2bytes(a) == var2bytes(b)


static func show(v):
	return "%s (type %d)" % [str(v), typeof(v)]


## The messages, each with the answer expected: [name, message, answer variant, answer fields]
## (fields a String: an Error whose message must contain it).
func steps():
	var login = {
		"name": "Ada Łovelace",
		"version": 40000000123,
		"token": PoolByteArray([0, 1, 2, 254, 255, 128]),
		"position": Vector2(1.25, -3.5),
		"color": Color(0.25, 0.5, 0.75, 1.0),
		"tags": PoolStringArray(["pvp", "eu", "beta"]),
		"inventory": {"potion": 3, "arrow": 40, "gold": -7},
		"class": {"Mage": {"school": "fire", "mana": 120}},
		"settings": {"volume": 0.75, "fullscreen": true, "keybinds": [87, 65, 83, 68]},
		"guild": null,
		"referrer": {"name": "bob", "days": 12},
		"engine": Engine.get_version_info().string,  # not a Login field: ignored
	}
	var welcome = {
		"player_id": 1,
		"greeting": "Welcome, ADA ŁOVELACE!",
		"name_chars": 12,
		"next_version": 40000000124,
		"token_len": 6,
		"token_sum": 640,
		"token_reversed": PoolByteArray([128, 255, 254, 2, 1, 0]),
		"spawn": Vector2(1.75, -2.5),
		"spawn3": Vector3(1.75, 0, -2.5),
		"color": Color(0.25, 0.5, 0.75, 1.0),
		"tags": ["BETA", "EU", "PVP"],
		"inventory": {"arrow": 41, "gold": -6, "potion": 4},
		"inventory_total": 36,
		"class": {"Mage": {"school": "fire", "mana": 240}},
		"rank": "Novice",
		"settings": {"volume": 0.75, "fullscreen": true, "keybinds": [87, 65, 83, 68]},
		"guild": null,
		"referred_by": "bob",
		"ratio": 1.0 / 3.0,
	}
	return [
		["login", {"Login": login}, "Welcome", welcome],
		["move 1", {"Move": {"dx": 1.5, "dy": -0.5}}, "Moved", {"position": Vector2(3.25, -3.0), "steps": 1}],
		["move 2 (int coordinates)", {"Move": {"dx": 2, "dy": 0}}, "Moved", {"position": Vector2(5.25, -3.0), "steps": 2}],
		["a move the server cannot use", {"Move": {"dx": "far", "dy": 0}}, "Error", "dx"],
		["chat 1", {"Chat": {"to": null, "text": "hello world"}}, "ChatAck",
				{"to": null, "text": "hello world", "words": 2, "private": false}],
		["chat 2", {"Chat": {"to": "bob", "text": "gg  wp all ✓"}}, "ChatAck",
				{"to": "bob", "text": "gg  wp all ✓", "words": 4, "private": true}],
		["bye", {"Bye": {"reason": "done"}}, "Farewell",
				{"reason": "done", "moves": 2, "chats": 2, "rejected": 1, "distance": 4.0}],
	]


func exchange():
	var peer = Tcp.connect_to(port, min(deadline, OS.get_ticks_msec() + 20000))
	if not check(peer != null, "connecting to the serde server at 127.0.0.1:%d" % port):
		return true
	peer.set_no_delay(true)
	for s in steps():
		var name = s[0]
		peer.put_var(s[1])  # void in Godot 3
		# One message in flight at a time.
		if not check(Tcp.wait_for_answer(peer, deadline), "%s: an answer" % name,
				"none (connection status %d)" % peer.get_status()):
			return true
		check_answer(name, peer.get_var(), s[2], s[3])
	# The server closes the connection after its Farewell.
	var until = min(deadline, OS.get_ticks_msec() + 10000)
	while OS.get_ticks_msec() < until and peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
		OS.delay_msec(2)
	check(peer.get_status() != StreamPeerTCP.STATUS_CONNECTED, "the server closes the connection after its Farewell")
	peer.disconnect_from_host()
	return true


## An answer is {variant: {field: value, ...}} (serde's externally tagged enum): checks the variant,
## the fields in declaration order, and each field's type and value.
func check_answer(name, got, variant, fields):
	var ok = typeof(got) == TYPE_DICTIONARY and got.size() == 1 and typeof(got.keys()[0]) == TYPE_STRING
	if not check(ok and got.keys()[0] == variant, "%s: the answer is a %s" % [name, variant], show(got)):
		return
	var inner = got[variant]
	if not check(typeof(inner) == TYPE_DICTIONARY, "%s: %s holds a Dictionary" % [name, variant], show(inner)):
		return
	if typeof(fields) == TYPE_STRING:
		check(same(inner.keys(), ["message"]) and typeof(inner["message"]) == TYPE_STRING and inner["message"].find(fields) >= 0,
				"%s: the Error message names %s" % [name, fields], show(inner))
		print("%s: %s: the server said: %s" % [t.label, name, inner.get("message")])
		return
	check(same(inner.keys(), fields.keys()), "%s: %s's fields, in declaration order" % [name, variant],
			"got %s, expected %s" % [str(inner.keys()), str(fields.keys())])
	for k in fields:
		var g = inner.get(k)
		check(inner.has(k) and same(fields[k], g), "%s: %s.%s" % [name, variant, k],
				"got %s, expected %s" % [show(g), show(fields[k])])
