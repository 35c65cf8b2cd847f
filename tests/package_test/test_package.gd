extends SceneTree
## The release package's smoke test (tests/run_package_test.sh copies it into a fresh project where
## dist/fast_var_codec-VERSION.zip was unzipped): uses FastVarCodec and FastVarStream as a game
## would, prints which feature tags the engine has and which library file it loaded (from
## /proc/self/maps), one line per failing check, then "N passed, N failed"; quits with 1 on any
## failure.
##   godot --headless --path DIR -s res://test_package.gd [-- EXPECTED_LIBRARY_FILE_NAME]

var passed := 0
var failed := 0


func check(ok: bool, what: String) -> void:
	if ok:
		passed += 1
	else:
		failed += 1
		print("FAIL ", what)


func _initialize() -> void:
	run()
	print("%d passed, %d failed" % [passed, failed])
	quit(1 if failed > 0 else 0)


func run() -> void:
	var tags := []
	for tag in ["editor", "template", "debug", "release", "double", "single", "linux", "x86_64", "arm64"]:
		if OS.has_feature(tag):
			tags.append(tag)
	print("engine %s; feature tags: %s" % [Engine.get_version_info().string, ", ".join(tags)])
	var lib := loaded_library()
	print("loaded library: %s" % lib)
	var args := OS.get_cmdline_user_args()
	if not args.is_empty():
		check(lib == args[0], "the engine loaded %s, expected %s" % [lib, args[0]])
	check(GDExtensionManager.get_loaded_extensions().has("res://addons/fast_var_codec/fast_var_codec.gdextension"),
		"the .gdextension is loaded: %s" % [GDExtensionManager.get_loaded_extensions()])
	for cls in [&"FastVarCodec", &"FastVarStream"]:
		check(ClassDB.class_exists(cls), "class %s is registered" % cls)
	if failed > 0:
		return
	codec_checks()
	stream_checks()


## The file name of the FastVarCodec library mapped into this process ("" when none is).
func loaded_library() -> String:
	var maps := FileAccess.open("/proc/self/maps", FileAccess.READ)
	if maps == null:
		return "(no /proc/self/maps)"
	var found := ""
	while not maps.eof_reached():
		var line := maps.get_line()
		var at := line.find("/addons/fast_var_codec/bin/")
		if at >= 0:
			found = line.substr(at).get_file()
	return found


func values() -> Array:
	return [
		null, true, 42, -7, 1 << 40, 3.5, "héllo ✓", &"name", NodePath("a/b:c"),
		Vector2(1, 2), Vector3i(1, -2, 3), Color(0.25, 0.5, 1, 1), Rect2(1, 2, 3, 4),
		Transform3D(Basis.from_euler(Vector3(0.1, 0.2, 0.3)), Vector3(4, 5, 6)),
		[1, "a", [2, 3.5]], {"hp": 10, "pos": Vector3(1, 2, 3), 7: [null]},
		PackedByteArray([1, 2, 3]), PackedInt32Array([1, -1, 1 << 30]),
		PackedStringArray(["x", "y"]), PackedVector2Array([Vector2(1, 1)]),
	]


func codec_checks() -> void:
	var codec := FastVarCodec.new()
	for v in values():
		var bytes: PackedByteArray = codec.encode(v)
		check(codec.get_error() == OK and bytes == var_to_bytes(v),
			"FastVarCodec.encode(%s) is var_to_bytes's bytes (error %s)" % [var_to_str(v), codec.get_error_message()])
		check(codec.encoded_size(v) == bytes.size(), "encoded_size(%s)" % var_to_str(v))
		var back = codec.decode(var_to_bytes(v))
		check(codec.get_error() == OK and typeof(back) == typeof(v) and back == v,
			"FastVarCodec.decode(var_to_bytes(%s)) gives it back: %s" % [var_to_str(v), var_to_str(back)])
		check(codec.get_decoded_size() == bytes.size(), "get_decoded_size after decoding %s" % var_to_str(v))
	# Godot 3's layout: an int is its type (2) and 4 bytes.
	var codec3 := FastVarCodec.new()
	codec3.dialect = FastVarCodec.DIALECT_GODOT_3
	var b3: PackedByteArray = codec3.encode(42)
	check(b3 == PackedByteArray([2, 0, 0, 0, 42, 0, 0, 0]), "Godot 3 dialect: encode(42) = %s" % [b3])
	check(codec3.decode(b3) == 42, "Godot 3 dialect: decode back")
	# Malformed input: null and an error, and the codec goes on working.
	var bad = codec.decode(PackedByteArray([255, 255, 0, 0]))
	check(bad == null and codec.get_error() != OK and codec.get_error_message() != "",
		"decoding garbage fails with a message (error %d)" % codec.get_error())
	check(codec.decode(var_to_bytes("ok")) == "ok" and codec.get_error() == OK, "the codec works after a failure")
	# StreamPeer framing equal to the engine's put_var.
	var ours := StreamPeerBuffer.new()
	var engine := StreamPeerBuffer.new()
	for v in values():
		check(codec.put_var(ours, v) == OK, "FastVarCodec.put_var(%s)" % var_to_str(v))
		engine.put_var(v)
	check(ours.data_array == engine.data_array, "FastVarCodec.put_var writes StreamPeer.put_var's bytes")
	engine.seek(0)
	for v in values():
		var got = codec.get_var(engine)
		check(typeof(got) == typeof(v) and got == v, "FastVarCodec.get_var reads %s" % var_to_str(v))


func stream_checks() -> void:
	var stream := FastVarStream.new()
	check(stream.codec is FastVarCodec, "FastVarStream.codec is a FastVarCodec")
	var peer := StreamPeerBuffer.new()
	for v in values():
		check(stream.put_var(peer, v) == OK, "FastVarStream.put_var(%s)" % var_to_str(v))
	var engine := StreamPeerBuffer.new()
	for v in values():
		engine.put_var(v)
	var wire := peer.data_array
	check(wire == engine.data_array, "FastVarStream.put_var writes StreamPeer.put_var's bytes")
	# Fed 3 bytes at a time: each value comes out once complete, in order.
	var got := []
	for i in range(0, wire.size(), 3):
		check(stream.feed(wire.slice(i, i + 3)) == OK, "FastVarStream.feed")
		while stream.get_available_packet_count() > 0:
			got.append(stream.get_var())
			check(stream.get_error() == OK, "get_var: %s" % stream.get_error_message())
	check(var_to_str(got) == var_to_str(values()), "FastVarStream gives back every value split in 3-byte pieces")
	check(stream.get_buffered_bytes() == 0 and stream.get_available_packet_count() == 0, "nothing left over")
	stream.get_var()
	check(stream.get_error() == ERR_BUSY, "get_var with nothing complete: ERR_BUSY")
	# poll() takes what a peer has.
	var source := StreamPeerBuffer.new()
	source.data_array = engine.data_array
	check(stream.poll(source) == OK, "FastVarStream.poll")
	var polled := []
	while stream.get_available_packet_count() > 0:
		polled.append(stream.get_var())
	check(var_to_str(polled) == var_to_str(values()), "FastVarStream.poll then get_var gives every value back")
	# A Godot 3 peer: the stream's codec decides the dialect.
	var stream3 := FastVarStream.new()
	stream3.codec.dialect = FastVarCodec.DIALECT_GODOT_3
	stream3.feed(PackedByteArray([8, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0]))
	check(stream3.get_available_packet_count() > 0 and stream3.get_var() == 42, "a Godot 3 framed int through FastVarStream")
	# A length prefix above max_message_size breaks the stream without allocating.
	var small := FastVarStream.new()
	small.codec.max_message_size = 16
	small.feed(PackedByteArray([0, 1, 0, 0]))
	check(small.get_available_packet_count() == 1, "a 256-byte prefix over max_message_size 16: an error is waiting")
	check(small.get_var() == null and small.get_error() != OK and small.is_broken(),
		"a 256-byte prefix over max_message_size 16 breaks the stream (error %d)" % small.get_error())
