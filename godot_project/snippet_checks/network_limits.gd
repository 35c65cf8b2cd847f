extends SceneTree
## Runs the README's network_limits snippet: the stream it makes refuses what exceeds each limit
## and reads what does not.

const Lib := preload("res://snippet_checks/lib.gd")

var t := Lib.new()


func framed(v) -> PackedByteArray:
	var peer := StreamPeerBuffer.new()
	peer.put_var(v)
	return peer.data_array


func _initialize() -> void:
	var make: Callable = Lib.snippet("network_limits").untrusted_stream
	var s: FastVarStream = make.call()
	var small := range(100)
	s.feed(framed(small))
	t.check(s.get_var() == small and s.get_error() == OK, "a small message is read")
	var many := []
	many.resize(10_001)
	s.feed(framed(many))
	t.check(s.get_var() == null and s.get_error() == ERR_OUT_OF_MEMORY, "10,001 elements are refused", s.get_error_message())
	var deep := []
	var inner := deep
	for i in 65:
		var next := []
		inner.append(next)
		inner = next
	s.feed(framed(deep))
	t.check(s.get_var() == null and s.get_error() == ERR_OUT_OF_MEMORY, "65 levels are refused", s.get_error_message())
	var header := PackedByteArray([0, 0, 0, 0])
	header.encode_u32(0, (64 << 10) + 1)
	s.feed(header)
	t.check(s.get_var() == null and s.is_broken(), "a length prefix above 64 KiB breaks the stream")
	var g3: FastVarStream = make.call(FastVarCodec.DIALECT_GODOT_3)
	t.check(g3.codec.dialect == FastVarCodec.DIALECT_GODOT_3 and g3.codec.max_depth == 64, "the dialect is the one asked for")
	quit(t.finish("network_limits"))
