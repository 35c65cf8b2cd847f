extends SceneTree
## Godot 4 client of a real Godot 3 server (tests/peers/godot3_server.gd, which uses only the
## engine's own put_var/get_var), speaking FastVarCodec's Godot 3 dialect:
##
##   godot --headless --path godot_project -s res://peers/godot3_client.gd -- \
##       --mode=tcp|udp --port=47400 [--timeout=60] [--golden=res://golden/godot3_6_2.json]
##
## 1. Sends every Godot 3-representable golden value (each case's engine-decoded value, rebuilt
##    with tests/lib/desc.gd) and, over TCP, large values (>= 1 MiB); checks each echo is the same
##    value (var_to_bytes equality), but for what a Godot 3 engine changes (lib/godot3_behaviour.gd).
##    Over UDP only the values whose encoding fits a datagram.
## 2. Sends "__fvc_end__" and checks the server's own values (values3.gd) against the Godot 4
##    values they must decode to (lib/expected3.gd). Over UDP it acknowledges each one.
## lib/family_client.gd runs the exchange. Prints one line per failure and a final
## "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")
const FamilyClient := preload("res://peers/lib/family_client.gd")
const Expected3 := preload("res://peers/lib/expected3.gd")
const Godot3 := preload("res://peers/lib/godot3_behaviour.gd")


func _initialize() -> void:
	var p := Peer.new("godot4->godot3")
	var mode := p.arg("mode", "tcp")
	p.label = "godot4 client -> godot3 server (%s)" % mode
	if not p.has_extension():
		quit(p.finish())
		return
	var golden_path := p.arg("golden", "res://golden/godot3_6_2.json")
	var g := Peer.golden_values(golden_path)
	p.check(g.error == "", "loading " + golden_path, g.error)
	print("%s: %d golden values from %s; %s" % [p.label, g.values.size(), golden_path.get_file(), Peer.skipped_text(g)])
	var sent: Array = g.values
	sent.append_array(Peer.large_values() if mode == "tcp" else Peer.datagram_values())
	var values := []
	for e in sent:
		values.append([e[0], e[1], Godot3.echo_of(e[1])])
	var client := FamilyClient.new(p, FastVarCodec.DIALECT_GODOT_3, "Godot 3", values, Expected3.values(), Callable(Expected3, "check"))
	client.echo_word = "intact"
	client.adjusted_note = Godot3.ECHO_NOTE
	var finished := client.run(mode)
	p.check(finished, "the exchange did not reach its end (a script error aborted it? see the log)")
	quit(p.finish())
