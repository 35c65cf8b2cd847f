extends "res://tests/lib/ctx.gd"
## Shared by the real-peer test scripts in res://peers/ (run by tests/run_peer_tests.sh):
## arguments, TCP/UDP helpers with deadlines, the golden values and the large values. Check
## counting (check, finish), value comparison (same) and formatting (show) are the test
## context's (tests/lib/ctx.gd). Every wait here is bounded by a deadline; everything is on
## 127.0.0.1.

const Desc := preload("res://tests/lib/desc.gd")

const END_MARK := "__fvc_end__"
const HELLO := "__fvc_hello__"
const ACK := "__fvc_ack__"
## Largest encoding sent as one UDP datagram (loopback carries up to 65,507 bytes of payload; the
## engines' receive buffers hold 65,536 bytes including their own 24-byte packet header).
const MAX_DATAGRAM := 65000

## The name in FAIL lines and result lines (ctx.gd's `file`).
var label: String:
	get:
		return file
	set(value):
		file = value
var args := {}
## --port (default 47400), and the end of the time the script may take: --timeout seconds
## (default 60) from its start.
var port := 47400
var deadline := 0


func _init(p_label: String) -> void:
	super(p_label)
	# "--key=value" user arguments (after "--" on the command line).
	for a in OS.get_cmdline_user_args():
		if a.begins_with("--") and a.contains("="):
			var kv := a.substr(2).split("=", true, 1)
			args[kv[0]] = kv[1]
		elif a.begins_with("--"):
			args[a.substr(2)] = "true"
	port = arg_int("port", 47400)
	deadline = Time.get_ticks_msec() + arg_int("timeout", 60) * 1000


func arg(name: String, default: String) -> String:
	return args.get(name, default)


func arg_int(name: String, default: int) -> int:
	var s: String = args.get(name, "")
	return s.to_int() if s.is_valid_int() else default


## True when the extension's classes are registered; else a failed check.
func has_extension() -> bool:
	if ClassDB.class_exists(&"FastVarCodec"):
		return true
	check(false, "class FastVarCodec is not registered (is the extension built and listed?)")
	return false


# ------------------------------------------------------------------ values

## Why got is not the same as expected (ctx.gd's same(): types, typed containers, float bits,
## Dictionary order all count), "" if it is, naming the first differing item.
static func why_not_same(expected, got, at := "") -> String:
	if typeof(expected) != typeof(got):
		return "%s: got %s, expected %s" % [at, show(got), show(expected)]
	if same(expected, got):
		return ""
	if expected is Array and got is Array:
		if expected.size() != got.size():
			return "%s: %d items, expected %d" % [at, got.size(), expected.size()]
		for i in expected.size():
			var d := why_not_same(expected[i], got[i], "%s[%d]" % [at, i])
			if d != "":
				return d
	elif expected is Dictionary and got is Dictionary:
		var ke: Array = expected.keys()
		var kg: Array = got.keys()
		var d := why_not_same(ke, kg, at + ".keys()")
		if d != "":
			return d
		for i in ke.size():
			d = why_not_same(expected[ke[i]], got[kg[i]], "%s[%s]" % [at, show(ke[i])])
			if d != "":
				return d
	return "%s: different bytes: got %s, expected %s" % [at, show(got), show(expected)]


## The golden values of a corpus as [[name, value], ...], rebuilt from each case's "decoded" Desc
## (what the engine itself decoded). Leaves out cases that cannot be rebuilt exactly (desc.gd's
## inexact), objects sent as ids of the engine that wrote the corpus, full objects, and cases
## the engine refused to encode. Returns {"values": [...], "skipped": [names], "why": {reason:
## count}, "error": ""}; skipped_text() says it in one line.
static func golden_values(path: String) -> Dictionary:
	var out := {"values": [], "skipped": [], "why": {}, "error": ""}
	var corpus := Desc.load_corpus(path)
	if corpus.error != "":
		out.error = corpus.error
		return out
	var desc := Desc.new()
	for c in corpus.cases:
		var why := ""
		if c.has("encode_error"):
			why = "refused by the engine's encoder"
		elif bool(c.get("full_objects", false)):
			why = "full objects"
		else:
			desc.reset()
			var v = desc.rebuild(c.decoded)
			if desc.has_full_object or desc.missing_class != "":
				why = "full objects"
			elif desc.has_object_id:
				why = "object ids"
			elif desc.inexact:
				why = "inexact (text or node path a Godot 4 String cannot hold)"
			else:
				out.values.append([c.name, v])
				continue
		out.skipped.append(c.name)
		out.why[why] = out.why.get(why, 0) + 1
	if out.values.is_empty():
		out.error = "no cases in " + path
	return out


static func skipped_text(g: Dictionary) -> String:
	var parts := PackedStringArray()
	for k in g.why:
		parts.append("%d %s" % [g.why[k], k])
	return "skipped %d cases (%s): %s" % [g.skipped.size(), ", ".join(parts), ", ".join(g.skipped)]


## Values of at least 1 MiB each (they reach a TCP reader in many pieces).
static func large_values() -> Array:
	var bytes := PackedByteArray()
	bytes.resize(3 << 19)  # 1.5 MiB
	for i in bytes.size() / 4:
		bytes.encode_u32(i * 4, (i * 2246822519 + 7) & 0xFFFFFFFF)
	var lines := PackedStringArray()
	for i in 70000:
		lines.append("%d: ünïcödé ✓ 日本語 🎼\n" % i)
	var text := "".join(lines)
	var arr := []
	arr.resize(120000)
	for i in arr.size():
		match i % 5:
			0: arr[i] = i
			1: arr[i] = i * 0.25
			2: arr[i] = "s%d" % i
			3: arr[i] = Vector3(i, -i, 0.5)
			4: arr[i] = [i, {"k": i}]
	return [["large/packed_byte_array_1.5MiB", bytes], ["large/string_%dB" % text.to_utf8_buffer().size(), text],
			["large/array_120000", arr]]


## Values close to the size of a UDP datagram (each encoding between 40,000 and 65,000 bytes).
static func datagram_values() -> Array:
	var b := PackedByteArray()
	b.resize(60000)
	for i in b.size():
		b[i] = (i * 13 + (i >> 9)) & 255
	var v3 := PackedVector3Array()
	for i in 4000:
		v3.append(Vector3(i, i * 0.5, -i))
	return [["datagram/packed_byte_array_60000", b], ["datagram/string_40000B", "é".repeat(20000)],
			["datagram/packed_vector3_array_4000", v3]]


# ------------------------------------------------------------------ networking

## Connects to 127.0.0.1:to_port, retrying until the deadline (the server may still be starting).
static func connect_tcp(to_port: int, deadline_ms: int) -> StreamPeerTCP:
	while Time.get_ticks_msec() < deadline_ms:
		var tcp := StreamPeerTCP.new()
		if tcp.connect_to_host("127.0.0.1", to_port) == OK:
			while Time.get_ticks_msec() < deadline_ms:
				tcp.poll()
				var st := tcp.get_status()
				if st == StreamPeerTCP.STATUS_CONNECTED:
					tcp.set_no_delay(true)
					return tcp
				if st != StreamPeerTCP.STATUS_CONNECTING:
					break
				OS.delay_msec(2)
		tcp.disconnect_from_host()
		OS.delay_msec(50)
	return null


## Waits for the next complete value on a TCP connection read through a FastVarStream.
## Returns {"ok": bool, "value": v, "error": Error of get_var, "why": text when not ok}.
static func next_var(tcp: StreamPeerTCP, stream: FastVarStream, deadline_ms: int) -> Dictionary:
	while true:
		if stream.get_available_packet_count() > 0:
			var v = stream.get_var()
			var err := stream.get_error()
			return {"ok": err == OK, "value": v, "error": err,
					"why": "" if err == OK else "get_var: %s (%s)" % [error_string(err), stream.get_error_message()]}
		if Time.get_ticks_msec() >= deadline_ms:
			return {"ok": false, "value": null, "error": ERR_TIMEOUT,
					"why": "timed out (%d bytes buffered)" % stream.get_buffered_bytes()}
		tcp.poll()
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			# StreamPeerTCP closes only once everything received has been read.
			return {"ok": false, "value": null, "error": ERR_CONNECTION_ERROR,
					"why": "connection closed (status %d, %d bytes buffered)" % [tcp.get_status(), stream.get_buffered_bytes()]}
		var err := stream.poll(tcp)
		if err != OK:
			return {"ok": false, "value": null, "error": err, "why": "poll: " + stream.get_error_message()}
		if stream.get_available_packet_count() == 0:
			OS.delay_msec(1)
	return {}


## Sends each [name, value, expected] of `entries` over `tcp`, by turns with codec.put_var and
## stream.put_var, and checks that its echo, read through `stream`, is `expected` (one check each).
## Returns {"echoed": how many came back as expected, "adjusted": the names whose expected echo
## is not the value sent, "lost": true when the connection is gone or timed out}.
func echo_each(tcp: StreamPeerTCP, codec: FastVarCodec, stream: FastVarStream, entries: Array) -> Dictionary:
	var out := {"echoed": 0, "adjusted": [], "lost": false}
	for i in entries.size():
		var name: String = entries[i][0]
		var v = entries[i][1]
		var expected = entries[i][2]
		if not same(expected, v):
			out.adjusted.append(name)
		var err := codec.put_var(tcp, v) if i % 2 == 0 else stream.put_var(tcp, v)
		var msg := codec.get_error_message() if i % 2 == 0 else stream.get_error_message()
		var why := ""
		var r := {}
		if err != OK:
			why = "put_var: %s: %s" % [error_string(err), msg]
		else:
			r = next_var(tcp, stream, mini(deadline, Time.get_ticks_msec() + 15000))
			why = why_not_same(expected, r.value) if r.ok else "no echo: " + r.why
		if check(why == "", "%s: echo" % name, why):
			out.echoed += 1
		if r.get("error", OK) in [ERR_TIMEOUT, ERR_CONNECTION_ERROR]:
			out.lost = true
			return out
	return out


## Waits for the next datagram's value (FastVarCodec.get_packet_var), ignoring stray HELLO replies.
static func next_packet_var(udp: PacketPeerUDP, codec: FastVarCodec, deadline_ms: int) -> Dictionary:
	while Time.get_ticks_msec() < deadline_ms:
		if udp.get_available_packet_count() <= 0:
			OS.delay_msec(1)
			continue
		var v = codec.get_packet_var(udp)
		var err := codec.get_error()
		if err == OK and v is String and v == HELLO:
			continue
		return {"ok": err == OK, "value": v, "error": err,
				"why": "" if err == OK else "get_packet_var: %s (%s)" % [error_string(err), codec.get_error_message()]}
	return {"ok": false, "value": null, "error": ERR_TIMEOUT, "why": "no datagram before the deadline"}


## Resident set size of this process in KiB (Linux /proc), -1 if unknown.
static func rss_kib() -> int:
	var f := FileAccess.open("/proc/self/status", FileAccess.READ)
	if f == null:
		return -1
	while not f.eof_reached():
		var line := f.get_line()
		if line.begins_with("VmRSS:"):
			return line.substr(6).strip_edges().split(" ")[0].to_int()
	return -1
