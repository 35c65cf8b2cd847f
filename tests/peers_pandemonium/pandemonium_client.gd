# A real Pandemonium client for the Rust echo server (rust/codec/examples/echo_server.rs, started
# with --dialect pandemonium38 for v3.8.0–v4.9.0 or pandemonium5 for v5.0.0+, and
# --allow-objects): it sends each of its own values (values_pandemonium.gd, on v5 with
# values_v5.gd) with the engine's own StreamPeer.put_var, reads the echo with StreamPeer.get_var
# and checks it is the same value. Pandemonium GDScript; runs unchanged on v4.9.0 and v5.2.0;
# res://godot3_lib/peer_client.gd does the work.
#
#   pandemonium-server --path tests/peers_pandemonium -s res://pandemonium_client.gd \
#       --port=47400 [--timeout=60]
#
# The engine's own get_var cannot read some of its own encodings back
# (docs/wire_format.md#pandemonium-decoder-bugs: a nested Vector4/Vector4i, a Projection,
# PoolVector4Array, PoolVector4iArray); for those values (the fourth field in
# values_pandemonium.gd says why) the echo is compared as bytes with the engine's own var2bytes.
#
# Prints one line per failure and a final "N passed, N failed"; exit code 0 only if nothing failed.
extends SceneTree

const Client = preload("res://godot3_lib/peer_client.gd")
const Values = preload("res://values_pandemonium.gd")


func _init():
	var t = Client.new("pandemonium_client.gd", "pandemonium", Values.new()).run()
	print(t.summary())
	quit(0 if t.failed == 0 else 1)
