# A real Godot 3 client for the Python asyncio server (rust/python/examples/asyncio_echo_server.py,
# started with --dialect godot3), and for the npm package's TCP server
# (rust/wasm/examples/tcp_server.mjs, with --made-in=JavaScript), through the engine's own
# StreamPeerTCP put_var/get_var only:
#   * a malformed message (put_data of a frame whose payload is no value) is answered with the
#     server's error String, and the connection goes on (the next value comes back intact);
#   * the server's own values, made in Python or JavaScript ("fvc:samples"), each equal to the
#     same value made here (expected());
#   * the server's counts of this connection ("fvc:stats") are what this client sent.
# Godot 3 GDScript (3.2.3 and 3.6.2). tests/peers/godot3_client.gd checks the echo of every value.
#
#   godot3 --no-window --path tests/peers -s res://samples_client3.gd --port=47400 [--timeout=60] [--made-in=Python]
#
# Prints one line per failure, "RESULT sent=N malformed=N samples=N" (what the server should
# have counted) and a final "N passed, N failed"; exit code 0 only if nothing failed.
extends SceneTree

const Cli = preload("res://godot3_lib/cli.gd")
const Tally = preload("res://godot3_lib/tally.gd")
const Tcp = preload("res://godot3_lib/tcp.gd")
const Values = preload("res://godot3_lib/peer_values.gd")

var t = Tally.new()
var deadline = 0
var sent = 0   # values sent with put_var (the server counts each)
var made_in = "Python"   # the server's language: its sample object is named "made in <it>"


func _init():
	var args = Cli.args()
	deadline = OS.get_ticks_msec() + Cli.timeout_ms(args, 60)
	made_in = args.get("made-in", made_in)
	var finished = run(int(args.get("port", "47400")))
	t.check(finished == true, "the exchange was aborted (script error? see the log)")
	print("RESULT sent=%d malformed=1 samples=%d" % [sent, expected().size()])
	print(t.summary())
	quit(0 if t.failed == 0 else 1)


func run(port):
	var peer = Tcp.connect_to(port, min(deadline, OS.get_ticks_msec() + 20000))
	if not t.check(peer != null, "cannot connect to the server at 127.0.0.1:%d" % port):
		return true
	peer.set_no_delay(true)

	# A frame of 8 bytes whose type id (0x7fffffff) no engine has.
	peer.put_data(PoolByteArray([8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]))
	var r = receive(peer)
	t.check(typeof(r) == TYPE_STRING and r.begins_with("server error: ERR_INVALID_DATA"),
			"a malformed message is answered with the server's error", Values.describe(r))
	print("samples_client3.gd: the server said: %s" % Values.describe(r))
	var still = {"still": "here", "n": PoolIntArray([1, 2])}
	send(peer, still)
	t.check(Values.differ(still, receive(peer), "") == "", "the connection goes on after a malformed message")

	send(peer, "fvc:samples")
	var want = expected()
	var seen = {}
	while true:
		var s = receive(peer)
		if typeof(s) == TYPE_STRING and s == "fvc:samples_end":
			break
		if typeof(s) != TYPE_ARRAY or s.size() != 2 or typeof(s[0]) != TYPE_STRING:
			t.check(false, "a sample is [name, value]", Values.describe(s))
			return true
		var name = s[0]
		t.check(want.has(name) and not seen.has(name), "sample %s: known here, once" % name)
		seen[name] = true
		if want.has(name):
			var why = compare(name, want[name], s[1])
			t.check(why == "", "sample %s made in %s equals the engine's" % [name, made_in], why)
	for name in want:
		t.check(seen.has(name), "sample %s was sent" % name)

	send(peer, "fvc:stats")
	var stats = receive(peer)
	var expect = {"values": sent, "malformed": 1, "samples_sent": want.size()}
	t.check(Values.differ(expect, stats, "") == "", "the server's counts", str(stats))
	peer.disconnect_from_host()
	return true


func send(peer, v):
	peer.put_var(v)
	sent += 1


# The next value the server sends (objects allowed: the samples have one); null when none came.
func receive(peer):
	if not Tcp.wait_for_answer(peer, deadline):
		t.check(false, "no answer from the server (connection status %d)" % peer.get_status())
		return null
	return peer.get_var(true)


func compare(name, want, got):
	if name == "object_as_id":
		if not (got is EncodedObjectAsID) or got.get_object_id() != want:
			return "expected the object id %d, got %s" % [want, Values.describe(got)]
		return ""
	if name == "object":
		if not (got is Resource) or got.resource_name != want:
			return "expected a Resource named %s, got %s" % [want, Values.describe(got)]
		return ""
	return Values.differ(want, got, "")


# What rust/python/examples/asyncio_echo_server.py's sample_values("godot3") makes (and
# rust/wasm/examples/samples.mjs's sampleValues("godot3")), made here.
func expected():
	var big_bytes = PoolByteArray()
	var block = PoolByteArray(range(256))
	for i in range(4100):
		big_bytes.append_array(block)
	var big_array = []
	big_array.resize(60000)
	for i in range(60000):
		big_array[i] = i * 3 if i % 2 else str(i)
	var basis = Basis(Vector3(1, 0, 0), Vector3(0, 0.5, 0), Vector3(0, 0, 2))
	return {
		"nil": null, "bool": true, "int": -42, "int_min64": -9223372036854775807 - 1,
		"int_max64": 9223372036854775807, "int_above_32": (1 << 40) + 7,
		"float": 0.1, "float_negative_zero": -0.0, "float_inf": -INF, "float_1e300": 1e300,
		"string": "héllo 日本 🎼 \"q\" \\ \t\n", "string_empty": "",
		"vector2": Vector2(1.5, -0.1), "vector3": Vector3(0.1, 0.2, 0.3), "rect2": Rect2(1, 2, 3, 4.5),
		"transform2d": Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)),
		"plane": Plane(Vector3(0, 1, 0), 2.5), "quaternion": Quat(0.1, 0.2, 0.3, 0.9),
		"aabb": AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		"basis": Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"transform3d": Transform(basis, Vector3(10, 11, 12)), "color": Color(0.1, 0.2, 0.3, 0.4),
		"node_path": NodePath("/root/Main/Player:position:x"), "node_path_relative": NodePath("../Enemies/Boss"),
		"object_as_id": 123456789, "object": "made in " + made_in,
		"bytes": block, "int32s": PoolIntArray([1, -2, 2147483647, -2147483648]),
		"float32s": PoolRealArray([1.5, -0.1, 1e30]), "strings": PoolStringArray(["a", "", "é日本"]),
		"vector2s": PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]),
		"vector3s": PoolVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 1e10)]),
		"colors": PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]),
		"array": [1, "two", 3.5, [4, [5, [6]]], {"x": null}],
		"dictionary": {"a": 1, 2: "b", Vector2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": null}]}},
		"game_state": {
			"players": [
				{"name": "ann", "pos": Vector3(1, 2, 3), "inventory": PoolStringArray(["sword"]),
					"stats": {"hp": 10, "mp": 2.5}, "team": Color(0, 0.5, 1, 1)},
				{"name": "bob", "pos": Vector3(-4, 0, 8.25), "inventory": PoolStringArray(),
					"stats": {"hp": 0, "mp": -0.0}, "path": NodePath("Players/bob")},
			],
			"map": {"tiles": PoolIntArray([0, 1, 1, 2, 3, 5, 8]), "spawn": [Vector2(0, 0), Vector2(10, -5)]},
			"meta": [[], {}, [[[1]]], null, true],
		},
		"big_bytes": big_bytes, "big_array": big_array,
	}
