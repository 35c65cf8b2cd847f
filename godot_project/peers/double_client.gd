extends SceneTree
## The single-precision side of the precision peer test: a standard Godot 4.6.3 with FastVarCodec
## in PRECISION_DOUBLE talks to peers/double_server.gd in a Godot 4.6.3 built with precision=double:
##
##   godot --headless --path godot_project -s res://peers/double_client.gd -- --port=47400 [--timeout=60]
##
## 1. Sends every PrecisionValues.exact() value with FastVarCodec.put_var (PRECISION_DOUBLE); the
##    server checks each and echoes it with its own put_var. Each echo's bytes must be exactly
##    FastVarCodec's PRECISION_DOUBLE encoding (so the double engine writes what we write), and
##    decode to the value sent.
## 2. Reads the server's verdict on what it received.
## 3. Reads the values that need binary64 (PrecisionValues.wide()), written by the double engine:
##    each decodes whole, to what the same literal is in this engine (narrowed to binary32).
## Prints one line per failure and a final "N passed, N failed"; exits 1 on any failure.

const Peer := preload("res://peers/lib/peer_common.gd")
const PrecisionValues := preload("res://peers/lib/precision_values.gd")
const FrameReader := preload("res://peers/lib/frame_reader.gd")

var p: Peer
var frames := FrameReader.new()


func _initialize() -> void:
	p = Peer.new("single client -> double server")
	if not p.has_extension():
		quit(p.finish())
		return
	var tcp := Peer.connect_tcp(p.port, mini(p.deadline, Time.get_ticks_msec() + 20000))
	if p.check(tcp != null, "connecting to the double-precision server at 127.0.0.1:%d" % p.port):
		exchange(tcp)
		tcp.disconnect_from_host()
	quit(p.finish())


func exchange(tcp: StreamPeerTCP) -> void:
	p.check(not OS.has_feature("double"), "this side is a single-precision engine")
	var codec := FastVarCodec.new()
	codec.precision = FastVarCodec.PRECISION_DOUBLE
	var exact := PrecisionValues.exact()
	for e in exact:
		var name: String = e[0]
		var ours := codec.encode(e[1])
		p.check(codec.put_var(tcp, e[1]) == OK, name + ": put_var", codec.get_error_message())
		var echo := frames.next(tcp, p.deadline)
		if not p.check(echo.ok, name + ": echo received", echo.get("why")):
			return
		p.check(echo.bytes == ours, name + ": the double engine's put_var bytes are FastVarCodec's PRECISION_DOUBLE bytes",
				"engine %s\n    ours   %s" % [echo.bytes.hex_encode(), ours.hex_encode()])
		var back = codec.decode(echo.bytes)
		p.check(codec.get_error() == OK and codec.get_decoded_size() == echo.bytes.size(), name + ": echo decodes whole",
				codec.get_error_message())
		p.check(Peer.same(e[1], back), name + ": echo decodes to the value sent", Peer.why_not_same(e[1], back))
	codec.put_var(tcp, Peer.END_MARK)
	var verdict := frames.next(tcp, p.deadline)
	if p.check(verdict.ok, "the server's verdict received", verdict.get("why")):
		var v = codec.decode(verdict.bytes)
		p.check(v is Dictionary and v.get("matched") == exact.size() and v.get("mismatched") == [],
				"the double engine read every value as sent (%d)" % exact.size(), Peer.show(v))
	for e in PrecisionValues.wide():
		var name: String = e[0]
		var r := frames.next(tcp, p.deadline)
		if not p.check(r.ok, name + ": received", r.get("why")):
			return
		if not e[1] is Array:  # an Array's header has no such flag; its elements do
			p.check((r.bytes.decode_u32(0) & (1 << 16)) != 0, name + ": written with binary64 components")
		var v = codec.decode(r.bytes)
		p.check(codec.get_error() == OK and codec.get_decoded_size() == r.bytes.size(), name + ": decodes whole",
				codec.get_error_message())
		p.check(Peer.same(e[1], v), name + ": decodes to this engine's narrowing of the same literal",
				Peer.why_not_same(e[1], v))
	print("%s: %d values each way checked byte for byte, %d binary64 values decoded" % [p.label, exact.size(),
			PrecisionValues.wide().size()])
