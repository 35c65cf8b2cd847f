extends SceneTree
## Godot 4 client of a real Godot 3 server (tests/peers/godot3_server.gd --mode=tcp, the engine's
## own put_var/get_var), writing and reading a network tick at a time with FastVarStream:
##
##   godot --headless --path godot_project -s res://peers/batch_client.gd -- --port=47400 [--timeout=60]
##
## 1. Sends the Godot 3 golden values (godot3_6_2.json) and the Godot 3 peers' own values in
##    batches of 1 to 64 with put_vars (one write each); the server reads each with get_var and
##    echoes it with put_var; the echoes are read with poll + get_vars, however TCP splits and
##    coalesces them, and each must be the value sent.
## 2. Sends "__fvc_end__" and reads the server's own values (values3.gd) with get_vars: each is
##    what Expected3 says, and the full object (objects are not allowed here) is the one value
##    get_vars stops at, with ERR_UNAUTHORIZED, the values after it coming with the next call.
## Prints one line per failure and a final "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")
const Expected3 := preload("res://peers/lib/expected3.gd")
const Godot3 := preload("res://peers/lib/godot3_behaviour.gd")

const BATCH_SIZES := [1, 7, 64, 3, 20]

var p: Peer
var deadline := 0


func _initialize() -> void:
	p = Peer.new("batch")
	p.label = "godot4 client (put_vars/get_vars) -> godot3_server.gd"
	var port := p.arg_int("port", 47400)
	deadline = Time.get_ticks_msec() + p.arg_int("timeout", 60) * 1000
	if not ClassDB.class_exists(&"FastVarCodec"):
		p.check(false, "class FastVarCodec is not registered (is the extension built and listed?)")
		quit(p.finish())
		return
	var g := Peer.golden_values("res://golden/godot3_6_2.json")
	p.check(g.error == "", "loading godot3_6_2.json", g.error)
	var values: Array = g.values
	for e in Expected3.values():
		if e[0] not in ["object_as_id", "full_object"]:
			values.append(["godot3 peer value/" + e[0], e[1]])
	var tcp := Peer.connect_tcp(port, mini(deadline, Time.get_ticks_msec() + 20000))
	if p.check(tcp != null, "connecting to the Godot 3 server at 127.0.0.1:%d" % port):
		var stream := FastVarStream.new()
		stream.codec.dialect = FastVarCodec.DIALECT_GODOT_3
		var finished := echo_in_batches(tcp, stream, values) and own_values(tcp, stream)
		p.check(finished, "the exchange did not reach its end (see the log)")
		tcp.disconnect_from_host()
	quit(p.finish())


## Every complete value within the deadline, until `count` have come; stops at an error.
func receive(tcp: StreamPeerTCP, stream: FastVarStream, count: int) -> Array:
	var got := []
	var until := mini(deadline, Time.get_ticks_msec() + 15000)
	while got.size() < count and Time.get_ticks_msec() < until:
		tcp.poll()
		stream.poll(tcp)
		got.append_array(stream.get_vars(count - got.size()))
		if stream.get_error() != OK:
			break
		OS.delay_msec(1)
	return got


func echo_in_batches(tcp: StreamPeerTCP, stream: FastVarStream, values: Array) -> bool:
	var echoed := 0
	var at := 0
	var batches := 0
	while at < values.size():
		var size: int = BATCH_SIZES[batches % BATCH_SIZES.size()]
		var batch := values.slice(at, at + size)
		var sent := batch.map(func(e): return e[1])
		var err := stream.put_vars(tcp, sent)
		if not p.check(err == OK, "put_vars of values %d..%d" % [at, at + batch.size() - 1],
				"%s: %s" % [error_string(err), stream.get_error_message()]):
			return false
		var got := receive(tcp, stream, batch.size())
		if not p.check(got.size() == batch.size() and stream.get_error() == OK,
				"get_vars reads the %d echoes of values %d.." % [batch.size(), at],
				"got %d; %s" % [got.size(), stream.get_error_message()]):
			return false
		for k in batch.size():
			var why := Peer.why_not_same(Godot3.echo_of(sent[k]), got[k])
			if p.check(why == "", "%s: echo in a batch of %d" % [batch[k][0], batch.size()], why):
				echoed += 1
		at += batch.size()
		batches += 1
	print("%s: %d of %d values echoed intact in %d put_vars calls" % [p.label, echoed, values.size(), batches])
	return true


func own_values(tcp: StreamPeerTCP, stream: FastVarStream) -> bool:
	if not p.check(stream.put_vars(tcp, [Peer.END_MARK]) == OK, "put_vars of the end marker"):
		return false
	var own := Expected3.values()
	var got := []
	var refused := []
	while got.size() < own.size() and Time.get_ticks_msec() < deadline:
		var part := receive(tcp, stream, own.size() - got.size())
		got.append_array(part)
		if stream.get_error() == OK:
			if part.is_empty():
				break
			continue
		if not p.check(stream.get_error() == ERR_UNAUTHORIZED and not stream.is_broken(),
				"get_vars stops only at the full object", stream.get_error_message()):
			return false
		refused.append(got.size())
		got.append(null)
	if not p.check(got.size() == own.size(), "every own value of the server", "got %d of %d" % [got.size(), own.size()]):
		return false
	var as_expected := 0
	for i in own.size():
		var e: Array = own[i]
		var why := ""
		if e[2] == "full":
			why = "" if i in refused else "the full object was not refused"
		elif i in refused:
			why = "refused"
		else:
			why = Expected3.check(e[0], e[1], got[i])
		if p.check(why == "", "server's own value %s through get_vars" % e[0], why):
			as_expected += 1
	print("%s: %d of %d server values as expected (the full object refused: objects not allowed)" % [p.label, as_expected, own.size()])
	return true
