extends SceneTree
## The double-precision side of the precision peer test: runs in a Godot 4.6.3 built with
## precision=double and speaks only through the engine's own var_to_bytes / bytes_to_var framing
## (StreamPeer.put_var, and get_var's u32 length + value, read without blocking):
##
##   godot-double --headless --path godot_project -s res://peers/double_server.gd --port=47400 [--timeout=60]
## (the options may also follow "--"; tests/run_peer_tests.sh keeps "--" for the client's command)
##
## Listens on 127.0.0.1:PORT, takes one connection. Every value it receives must equal the next of
## PrecisionValues.exact() (what the single-precision client sends with PRECISION_DOUBLE); it echoes
## each with put_var. After the end mark it sends a summary {"matched": n, "mismatched": [...]}, then
## every PrecisionValues.wide() value with put_var, and waits for the client to close. Exits 0 when
## every value matched, 1 otherwise, 3 on timeout.

const Peer := preload("res://peers/lib/peer_common.gd")
const PrecisionValues := preload("res://peers/lib/precision_values.gd")
const FrameReader := preload("res://peers/lib/frame_reader.gd")

var port := 47400
var deadline := 0
var frames := FrameReader.new()


func _initialize() -> void:
	var p := Peer.new("double server")
	# Options given before any "--" reach the engine's own argument list.
	for a in OS.get_cmdline_args():
		if a.begins_with("--") and a.contains("="):
			var kv := a.substr(2).split("=", true, 1)
			if not p.args.has(kv[0]):
				p.args[kv[0]] = kv[1]
	port = p.arg_int("port", 47400)
	deadline = Time.get_ticks_msec() + p.arg_int("timeout", 60) * 1000
	quit(serve())


func serve() -> int:
	if not OS.has_feature("double"):
		print("double_server.gd: this engine is not a precision=double build")
		return 1
	var server := TCPServer.new()
	if server.listen(port, "127.0.0.1") != OK:
		print("double_server.gd: cannot listen on 127.0.0.1:%d" % port)
		return 1
	print("listening on 127.0.0.1:%d (Godot %s)" % [port, Engine.get_version_info().string])
	while not server.is_connection_available():
		if Time.get_ticks_msec() > deadline:
			print("double_server.gd: nobody connected")
			return 3
		OS.delay_msec(5)
	var tcp := server.take_connection()
	tcp.set_no_delay(true)
	var expected := PrecisionValues.exact()
	var matched := 0
	var mismatched: Array = []
	var index := 0
	while true:
		var frame := frames.next(tcp, deadline)
		if not frame.ok:
			print("double_server.gd: %s" % frame.why)
			return 3
		var r := {"value": bytes_to_var(frame.bytes)}  # the engine's own decoder
		if r.value is String and r.value == Peer.END_MARK:
			break
		var name: String = expected[index][0] if index < expected.size() else "extra value %d" % index
		if index < expected.size() and Peer.same(expected[index][1], r.value):
			matched += 1
		else:
			mismatched.append("%s: got %s" % [name, Peer.show(r.value)])
		index += 1
		tcp.put_var(r.value)
	if index != expected.size():
		mismatched.append("received %d values, expected %d" % [index, expected.size()])
	tcp.put_var({"matched": matched, "mismatched": mismatched})
	for e in PrecisionValues.wide():
		tcp.put_var(e[1])
	# Wait for the client to close (it reads everything first).
	while Time.get_ticks_msec() < deadline:
		tcp.poll()
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			break
		OS.delay_msec(5)
	print("double_server.gd: %d of %d values as expected%s" % [matched, expected.size(),
			"" if mismatched.is_empty() else ": " + "; ".join(mismatched)])
	return 0 if mismatched.is_empty() else 1
