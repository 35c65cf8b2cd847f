extends SceneTree
## Godot 4 client of a real Pandemonium server (tests/peers_pandemonium/pandemonium_server.gd,
## which uses only the engine's own put_var/get_var), speaking FastVarCodec's Pandemonium dialect:
##
##   godot --headless --path godot_project -s res://peers/pandemonium_client.gd -- \
##       --dialect=pandemonium38|pandemonium5 --mode=tcp|udp --port=47400 [--timeout=60]
##
## pandemonium38 is the numbering of Pandemonium v3.8.0–v4.9.0, pandemonium5 that of v5.0.0+.
## 1. Sends the Godot 4 golden values (godot4_6_3.json, rebuilt with tests/lib/desc.gd; the same
##    skips as godot3_client.gd) that the dialect carries (FastVarCodec encodes them without
##    allow_lossy), values of Pandemonium's own types, the Pandemonium peers' own values
##    (lib/expected_pandemonium.gd) and, over TCP, large values (>= 1 MiB); checks each echo is
##    what the dialect carries (lib/pandemonium_behaviour.gd: echo_of). Values that run into the
##    engine's known bugs (docs/wire_format.md#pandemonium-decoder-bugs) are left out of that list (bug_in says why), and a
##    few are sent on purpose, expecting the engine's actual wrong answer (bug_cases).
##    Over UDP only the values whose encoding fits a datagram.
## 2. Sends "__fvc_end__" and checks the server's own values (values_pandemonium.gd) against the
##    Godot 4 values they must decode to (lib/expected_pandemonium.gd). Over UDP it acknowledges
##    each one.
## lib/family_client.gd runs the exchange. Prints one line per failure and a final
## "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")
const FamilyClient := preload("res://peers/lib/family_client.gd")
const Expected := preload("res://peers/lib/expected_pandemonium.gd")
const Pandemonium := preload("res://peers/lib/pandemonium_behaviour.gd")

var p: Peer
var dialect := FastVarCodec.DIALECT_PANDEMONIUM_3_8
var era := 4
## [[name, value, expected echo], ...]
var values: Array = []


func _initialize() -> void:
	p = Peer.new("godot4->pandemonium")
	var mode := p.arg("mode", "tcp")
	var dialect_name := p.arg("dialect", "pandemonium38")
	p.label = "godot4 client -> pandemonium server (%s, %s)" % [dialect_name, mode]
	if not p.has_extension():
		quit(p.finish())
		return
	match dialect_name:
		"pandemonium38":
			dialect = FastVarCodec.DIALECT_PANDEMONIUM_3_8
			era = 4
		"pandemonium5":
			dialect = FastVarCodec.DIALECT_PANDEMONIUM_5
			era = 5
		_:
			p.check(false, "unknown --dialect=" + dialect_name)
			quit(p.finish())
			return
	collect_values()
	for e in (Peer.large_values() if mode == "tcp" else Peer.datagram_values()):
		values.append([e[0], e[1], Pandemonium.echo_of(e[1], dialect)])
	var client := FamilyClient.new(p, dialect, "Pandemonium", values, Expected.values(era), Callable(Expected, "check"))
	var finished := client.run(mode)
	p.check(finished, "the exchange did not reach its end (a script error aborted it? see the log)")
	quit(p.finish())


func new_codec() -> FastVarCodec:
	var c := FastVarCodec.new()
	c.dialect = dialect
	return c


## Fills `values`: what the dialect carries of the golden corpus, Pandemonium's own types, the
## Pandemonium peers' values, and the known-bug cases; prints what was left out and why.
func collect_values() -> void:
	var golden_path := "res://golden/godot4_6_3.json"
	var g := Peer.golden_values(golden_path)
	p.check(g.error == "", "loading " + golden_path, g.error)
	var candidates: Array = g.values.duplicate()
	candidates.append_array(Pandemonium.extra_values(dialect))
	for e in Expected.values(era):
		if e[0] not in ["object_as_id", "full_object", "typed_array_objects_as_ids"] and e[2] != "large":
			candidates.append(["pandemonium peer value/" + e[0], e[1]])
	var codec := new_codec()
	var refused := []
	var buggy := {}
	var adjusted := []
	for e in candidates:
		var v = e[1]
		if codec.encoded_size(v) < 0:
			refused.append(e[0])
			continue
		var why := Pandemonium.bug_in(v, dialect)
		if why != "":
			buggy[why] = buggy.get(why, []) + [e[0]]
			continue
		var expected = Pandemonium.echo_of(v, dialect)
		if not Peer.same(expected, v):
			adjusted.append(e[0])
		values.append([e[0], v, expected])
	print("%s: %d values to echo (%d golden values from %s; %s)" % [p.label, values.size(), g.values.size(), golden_path.get_file(), Peer.skipped_text(g)])
	print("%s: not sent, no exact form in this dialect (FastVarCodec refuses them without allow_lossy): %s" % [p.label, names(refused)])
	for why in buggy:
		print("%s: not sent as plain echoes, they would run into a known engine bug, %s: %s" % [p.label, why, names(buggy[why])])
	if not adjusted.is_empty():
		print("%s: expected echo adjusted for %s: %s" % [p.label, names(adjusted), Pandemonium.ECHO_NOTE])
	var bugs := Pandemonium.bug_cases(dialect)
	for c in bugs:
		values.append(c)
	print("%s: %d values sent on purpose to check the engine's known bugs as it actually behaves" % [p.label, bugs.size()])


## "N values (a, b, c, ... and M more)".
static func names(list: Array) -> String:
	var shown := ", ".join(list.slice(0, 12))
	if list.size() > 12:
		shown += ", ... and %d more" % (list.size() - 12)
	return "%d values (%s)" % [list.size(), shown]
