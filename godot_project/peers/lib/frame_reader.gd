extends RefCounted
## Reads get_var's framing (a u32 length, then the value's bytes) from a StreamPeerTCP without
## blocking it, keeping what arrives early for the next message. The precision peers use it to
## see the exact bytes an engine's put_var wrote.

var buffer := PackedByteArray()


## The next message's payload: {"ok": true, "bytes": PackedByteArray}, or {"ok": false, "why": ...}
## when the connection closes or `deadline_ms` passes first.
func next(tcp: StreamPeerTCP, deadline_ms: int) -> Dictionary:
	while Time.get_ticks_msec() < deadline_ms:
		if buffer.size() >= 4:
			var length := buffer.decode_u32(0)
			if buffer.size() >= 4 + length:
				var payload := buffer.slice(4, 4 + length)
				buffer = buffer.slice(4 + length)
				return {"ok": true, "bytes": payload}
		tcp.poll()
		if tcp.get_status() != StreamPeerTCP.STATUS_CONNECTED:
			return {"ok": false, "why": "the connection closed early"}
		var available := tcp.get_available_bytes()
		if available > 0:
			var got := tcp.get_partial_data(available)
			if got[0] == OK:
				buffer.append_array(got[1])
		else:
			OS.delay_msec(1)
	return {"ok": false, "why": "timed out"}
