extends SceneTree
## The network tick, inside one engine over loopback: a round is MESSAGES 8-field messages sent
## from one socket and all received on the other.
##
##   godot --headless --path godot_project -s res://bench/network_tick.gd -- [--rounds=15] [--out=FILE]
##       [--only=tcp_stream]   (that way alone, for a profiler: perf record -g -- godot ...)
##
## TCP, three ways: the engine's StreamPeerTCP.put_var / get_var per message; FastVarStream.put_var
## per message and poll + get_var; FastVarStream.put_vars once per round and poll + get_vars.
## UDP: PacketPeerUDP.put_var / get_var against FastVarCodec.put_packet_var / get_packet_var, one
## datagram per message, UDP_GROUP at a time. Every way's received values are first checked equal to those sent (by
## var_to_bytes). Each figure is the median of the rounds after WARMUP rounds; the ways alternate
## within each round so that a busy moment hits them alike. Prints a table and writes it to --out.

const MESSAGES := 400
const WARMUP := 3
## UDP goes in groups of this many datagrams, each received before the next is sent: a burst
## of all MESSAGES overflows the socket's receive buffer, and UDP drops what does not fit.
const UDP_GROUP := 50

var messages: Array = []


func _initialize() -> void:
	var args := {}
	for a in OS.get_cmdline_user_args():
		var kv := a.trim_prefix("--").split("=", true, 1)
		args[kv[0]] = kv[1] if kv.size() > 1 else ""
	var rounds := int(args.get("rounds", "15"))
	seed(7)
	for i in MESSAGES:
		messages.append({
			"id": i, "tick": 100000 + i, "speed": float(randi() % 1000) / 8.0,
			"pos": Vector3(randf(), randf(), randf()), "vel": Vector2(randf(), randf()),
			"name": "player_%d" % (randi() % 1000), "flags": randi() % 2 == 0,
			"inputs": [randi() % 16, randf(), randi() % 2 == 0],
		})
	var code := run(rounds, args.get("out", ""))
	quit(code)


func run(rounds: int, out_path: String) -> int:
	var server := TCPServer.new()
	if server.listen(0, "127.0.0.1") != OK:
		printerr("network_tick.gd: cannot listen on 127.0.0.1")
		return 1
	var a := StreamPeerTCP.new()
	a.connect_to_host("127.0.0.1", server.get_local_port())
	var b: StreamPeerTCP = null
	var until := Time.get_ticks_msec() + 10000
	while (b == null or a.get_status() != StreamPeerTCP.STATUS_CONNECTED) and Time.get_ticks_msec() < until:
		a.poll()
		if b == null and server.is_connection_available():
			b = server.take_connection()
		OS.delay_msec(1)
	if b == null:
		printerr("network_tick.gd: no loopback connection")
		return 1
	a.set_no_delay(true)
	b.set_no_delay(true)
	var udp_a := PacketPeerUDP.new()
	var udp_b := PacketPeerUDP.new()
	udp_b.bind(0, "127.0.0.1", 1 << 22)
	udp_a.bind(0, "127.0.0.1", 1 << 22)
	udp_a.set_dest_address("127.0.0.1", udp_b.get_local_port())
	var codec := FastVarCodec.new()
	var stream := FastVarStream.new()

	var ways := {
		"tcp_engine": func(): return tcp_engine(a, b),
		"tcp_stream": func(): return tcp_stream(a, b, stream),
		"tcp_batched": func(): return tcp_batched(a, b, stream),
		"udp_engine": func(): return udp_engine(udp_a, udp_b),
		"udp_codec": func(): return udp_codec(udp_a, udp_b, codec),
	}
	var only := ""
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--only="):
			only = arg.trim_prefix("--only=")
	if only != "":
		# Profiling one way: it alone, many rounds, no table.
		for r in rounds:
			ways[only].call()
		return 0
	# Correctness first: every way delivers the messages intact.
	for name in ways:
		var got: Array = ways[name].call()[1]
		if got.size() != MESSAGES or not same_all(got):
			printerr("network_tick.gd: %s delivered %d messages, not all equal to those sent" % [name, got.size()])
			return 1
	var times := {}
	for name in ways:
		times[name] = []
	for r in WARMUP + rounds:
		for name in ways:
			var us: int = ways[name].call()[0]
			if r >= WARMUP:
				times[name].append(us)
	var med := {}
	for name in ways:
		med[name] = median(times[name])
	var lines := PackedStringArray()
	lines.append("Network tick: %d 8-field messages per round over loopback in one engine, median of %d rounds (us per round; x = engine time / this way's time, above 1 is faster)" % [MESSAGES, rounds])
	lines.append("%-56s %10s %7s" % ["way", "us/round", "x"])
	var rows := [
		["TCP: StreamPeerTCP.put_var / get_var per message", "tcp_engine", "tcp_engine"],
		["TCP: FastVarStream.put_var / poll + get_var per message", "tcp_stream", "tcp_engine"],
		["TCP: FastVarStream.put_vars / poll + get_vars per round", "tcp_batched", "tcp_engine"],
		["UDP: PacketPeerUDP.put_var / get_var", "udp_engine", "udp_engine"],
		["UDP: FastVarCodec.put_packet_var / get_packet_var", "udp_codec", "udp_engine"],
	]
	for row in rows:
		lines.append("%-56s %10.0f %7.2f" % [row[0], med[row[1]], med[row[2]] / med[row[1]]])
	var text := "\n".join(lines)
	print(text)
	if out_path != "":
		var f := FileAccess.open(out_path, FileAccess.WRITE)
		f.store_string(text + "\n")
	a.disconnect_from_host()
	b.disconnect_from_host()
	server.stop()
	return 0


func tcp_engine(a: StreamPeerTCP, b: StreamPeerTCP) -> Array:
	var t0 := Time.get_ticks_usec()
	for m in messages:
		a.put_var(m)
	var got := []
	var limit := Time.get_ticks_msec() + 10000
	while got.size() < MESSAGES and Time.get_ticks_msec() < limit:
		b.poll()
		while b.get_available_bytes() > 0 and got.size() < MESSAGES:
			got.append(b.get_var())
	return [Time.get_ticks_usec() - t0, got]


func tcp_stream(a: StreamPeerTCP, b: StreamPeerTCP, stream: FastVarStream) -> Array:
	var t0 := Time.get_ticks_usec()
	for m in messages:
		stream.put_var(a, m)
	var got := []
	var limit := Time.get_ticks_msec() + 10000
	while got.size() < MESSAGES and Time.get_ticks_msec() < limit:
		b.poll()
		stream.poll(b)
		while stream.get_available_packet_count() > 0:
			got.append(stream.get_var())
	return [Time.get_ticks_usec() - t0, got]


func tcp_batched(a: StreamPeerTCP, b: StreamPeerTCP, stream: FastVarStream) -> Array:
	var t0 := Time.get_ticks_usec()
	stream.put_vars(a, messages)
	var got := []
	var limit := Time.get_ticks_msec() + 10000
	while got.size() < MESSAGES and Time.get_ticks_msec() < limit:
		b.poll()
		stream.poll(b)
		got.append_array(stream.get_vars())
	return [Time.get_ticks_usec() - t0, got]


func udp_engine(a: PacketPeerUDP, b: PacketPeerUDP) -> Array:
	var t0 := Time.get_ticks_usec()
	var got := []
	var limit := Time.get_ticks_msec() + 10000
	for start in range(0, MESSAGES, UDP_GROUP):
		for i in range(start, start + UDP_GROUP):
			a.put_var(messages[i])
		while got.size() < start + UDP_GROUP and Time.get_ticks_msec() < limit:
			if b.get_available_packet_count() > 0:
				got.append(b.get_var())
	return [Time.get_ticks_usec() - t0, got]


func udp_codec(a: PacketPeerUDP, b: PacketPeerUDP, codec: FastVarCodec) -> Array:
	var t0 := Time.get_ticks_usec()
	var got := []
	var limit := Time.get_ticks_msec() + 10000
	for start in range(0, MESSAGES, UDP_GROUP):
		for i in range(start, start + UDP_GROUP):
			codec.put_packet_var(a, messages[i])
		while got.size() < start + UDP_GROUP and Time.get_ticks_msec() < limit:
			if b.get_available_packet_count() > 0:
				got.append(codec.get_packet_var(b))
	return [Time.get_ticks_usec() - t0, got]


func same_all(got: Array) -> bool:
	for i in MESSAGES:
		if var_to_bytes(got[i]) != var_to_bytes(messages[i]):
			return false
	return true


func median(xs: Array) -> float:
	var s := xs.duplicate()
	s.sort()
	var n := s.size()
	return float(s[n / 2]) if n % 2 == 1 else (s[n / 2 - 1] + s[n / 2]) / 2.0
