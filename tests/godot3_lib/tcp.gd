# TCP client steps of the Godot 3 family's real-peer scripts, each bounded by a deadline
# (OS.get_ticks_msec()); everything is on 127.0.0.1.
extends Reference


# Connects to 127.0.0.1:port, retrying until the deadline (the server may still be starting);
# null when it could not.
static func connect_to(port, deadline):
	while OS.get_ticks_msec() < deadline:
		var peer = StreamPeerTCP.new()
		if peer.connect_to_host("127.0.0.1", port) == OK:
			while OS.get_ticks_msec() < deadline:
				var st = peer.get_status()
				if st == StreamPeerTCP.STATUS_CONNECTED:
					return peer
				if st != StreamPeerTCP.STATUS_CONNECTING:
					break
				OS.delay_msec(5)
		peer.disconnect_from_host()
		OS.delay_msec(50)
	return null


# Waits until an answer has started (its 4-byte length prefix is there), so that the engine's
# blocking get_var reads the whole of it; false when none came.
static func wait_for_answer(peer, deadline):
	while OS.get_ticks_msec() < deadline and peer.get_available_bytes() < 4 \
			and peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
		OS.delay_msec(1)
	return peer.get_available_bytes() >= 4
