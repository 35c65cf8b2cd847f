# A real Pandemonium peer for FastVarCodec's Pandemonium dialects: a server that speaks only
# through the engine's own StreamPeer / PacketPeer put_var and get_var, and sends its own values
# (values_pandemonium.gd: every Pandemonium type, nested containers, values >= 1 MiB, one full
# object; on v5 typed arrays). Pandemonium GDScript; runs unchanged on v4.9.0
# (DIALECT_PANDEMONIUM_3_8) and v5.2.0 (DIALECT_PANDEMONIUM_5); res://godot3_lib/peer_server.gd
# does the work and says how. A value the engine cannot decode (its get_var fails: see
# docs/wire_format.md#pandemonium-decoder-bugs) is echoed as null.
#
#   pandemonium-server --path tests/peers_pandemonium -s res://pandemonium_server.gd \
#       --mode=tcp|udp --port=47400 [--timeout=60]
#
# Exits by itself: after the exchange, or after --timeout seconds (exit code 3/4), with a summary
# line on stdout. Nothing but 127.0.0.1 is used.
extends SceneTree

const Server = preload("res://godot3_lib/peer_server.gd")
const Values = preload("res://values_pandemonium.gd")


func _init():
	quit(Server.new("pandemonium_server.gd", "Pandemonium " + Engine.get_version_info().string, Values.new()).run())
