# A real Godot 3 client for the Rust echo server (rust/codec/examples/echo_server.rs, started with
# --dialect godot3 --allow-objects): it sends each of its own values (values3.gd) with the engine's
# own StreamPeer.put_var, reads the echo with StreamPeer.get_var and checks it is the same value.
# Godot 3 GDScript; runs unchanged on Godot 3.2.3 and 3.6.2; res://godot3_lib/peer_client.gd does
# the work.
#
#   godot3-server --no-window --path tests/peers -s res://godot3_client.gd --port=47400 [--timeout=60]
#
# Prints one line per failure and a final "N passed, N failed"; exit code 0 only if nothing failed.
extends SceneTree

const Client = preload("res://godot3_lib/peer_client.gd")
const Values = preload("res://values3.gd")


func _init():
	var t = Client.new("godot3_client.gd", "godot3", Values.new()).run()
	print(t.summary())
	quit(0 if t.failed == 0 else 1)
