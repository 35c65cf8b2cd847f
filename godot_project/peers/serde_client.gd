extends SceneTree
## Godot 4 client of the Rust serde game server (rust/codec/examples/serde_server.rs, started with
## --dialect godot4 --expect-test-login). It uses only the engine's own StreamPeer.put_var /
## get_var (no FastVarCodec): the server's serde structs must read what the engine writes and
## write what the engine reads.
##
##   godot --headless --path godot_project -s res://peers/serde_client.gd -- --port=47400 [--timeout=60]
##
## Sends a Login (String, 64-bit int, PackedByteArray, Vector2, Color, PackedStringArray,
## Dictionary, an externally tagged enum, a nested Dictionary, null, and an unknown field the
## server ignores), two Moves (a float and an int coordinate), a Move the server cannot use, two
## Chats and a Bye; checks every field of each answer (type and value: var_to_bytes equality) and
## that the server closes the connection after its Farewell. tests/peers/serde_client3.gd is the
## same exchange for Godot 3.
## Prints one line per failure and a final "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")

var p: Peer
var deadline := 0


func _initialize() -> void:
	p = Peer.new("godot4 client -> rust serde_server (godot4 dialect)")
	var port := p.arg_int("port", 47400)
	deadline = Time.get_ticks_msec() + p.arg_int("timeout", 60) * 1000
	var finished := exchange(port)
	p.check(finished, "the exchange did not reach its end (a script error aborted it? see the log)")
	quit(p.finish())


## The messages, each with the answer expected: [name, message, answer variant, answer fields]
## (fields null: an Error whose message must contain the given text).
func steps() -> Array:
	var login := {
		"name": "Ada Łovelace",
		"version": 40000000123,
		"token": PackedByteArray([0, 1, 2, 254, 255, 128]),
		"position": Vector2(1.25, -3.5),
		"color": Color(0.25, 0.5, 0.75, 1.0),
		"tags": PackedStringArray(["pvp", "eu", "beta"]),
		"inventory": {"potion": 3, "arrow": 40, "gold": -7},
		"class": {"Mage": {"school": "fire", "mana": 120}},
		"settings": {"volume": 0.75, "fullscreen": true, "keybinds": [87, 65, 83, 68]},
		"guild": null,
		"referrer": {"name": "bob", "days": 12},
		"engine": Engine.get_version_info().string,  # not a Login field: ignored
	}
	var welcome := {
		"player_id": 1,
		"greeting": "Welcome, ADA ŁOVELACE!",
		"name_chars": 12,
		"next_version": 40000000124,
		"token_len": 6,
		"token_sum": 640,
		"token_reversed": PackedByteArray([128, 255, 254, 2, 1, 0]),
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


func exchange(port: int) -> bool:
	var tcp := Peer.connect_tcp(port, mini(deadline, Time.get_ticks_msec() + 20000))
	if not p.check(tcp != null, "connecting to the serde server at 127.0.0.1:%d" % port):
		return true
	for s in steps():
		var name: String = s[0]
		tcp.put_var(s[1])  # void: a failure shows as no answer
		# One message in flight at a time: wait for the answer to start, then the engine's
		# blocking get_var reads the whole of it.
		while tcp.get_available_bytes() < 4 and Time.get_ticks_msec() < deadline:
			tcp.poll()
			if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
				break
			OS.delay_msec(1)
		if not p.check(tcp.get_available_bytes() >= 4, "%s: an answer" % name,
				"none (connection status %d)" % tcp.get_status()):
			return true
		check_answer(name, tcp.get_var(), s[2], s[3])
	# The server closes the connection after its Farewell.
	var until := mini(deadline, Time.get_ticks_msec() + 10000)
	while Time.get_ticks_msec() < until:
		tcp.poll()
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			break
		OS.delay_msec(2)
	p.check(tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED, "the server closes the connection after its Farewell")
	tcp.disconnect_from_host()
	return true


## An answer is {variant: {field: value, ...}} (serde's externally tagged enum): checks the variant,
## the fields in declaration order, and each field's type and value.
func check_answer(name: String, got, variant: String, fields) -> void:
	var ok: bool = got is Dictionary and got.size() == 1 and got.keys()[0] is String
	if not p.check(ok and got.keys()[0] == variant, "%s: the answer is a %s" % [name, variant], Peer.show(got)):
		return
	var inner = got[variant]
	if not p.check(inner is Dictionary, "%s: %s holds a Dictionary" % [name, variant], Peer.show(inner)):
		return
	if fields is String:
		p.check(inner.keys() == ["message"] and inner.message is String and fields in inner.message,
				"%s: the Error message names %s" % [name, fields], Peer.show(inner))
		print("%s: %s: the server said: %s" % [p.label, name, inner.get("message")])
		return
	p.check(inner.keys() == fields.keys(), "%s: %s's fields, in declaration order" % [name, variant],
			"got %s, expected %s" % [inner.keys(), fields.keys()])
	for k in fields:
		p.check(inner.has(k) and Peer.same(fields[k], inner[k]), "%s: %s.%s" % [name, variant, k],
				Peer.why_not_same(fields[k], inner.get(k)))
