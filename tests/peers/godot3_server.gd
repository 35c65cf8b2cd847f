# A real Godot 3 peer for FastVarCodec's Godot 3 dialect: a server that speaks only through the
# engine's own StreamPeer / PacketPeer put_var and get_var, and sends its own values (values3.gd:
# every Godot 3 type, nested containers, values >= 1 MiB, one full object). Godot 3 GDScript; runs
# unchanged on Godot 3.2.3 and 3.6.2; res://godot3_lib/peer_server.gd does the work and says how.
#
#   godot3-server --no-window --path tests/peers -s res://godot3_server.gd \
#       --mode=tcp|udp --port=47400 [--timeout=60]
#
# Exits by itself: after the exchange, or after --timeout seconds (exit code 3/4), with a summary
# line on stdout. Nothing but 127.0.0.1 is used.
extends SceneTree

const Server = preload("res://godot3_lib/peer_server.gd")
const Values = preload("res://values3.gd")


func _init():
	quit(Server.new("godot3_server.gd", Engine.get_version_info().string, Values.new()).run())
