extends RefCounted
## The GDScript surface as docs/gdscript.md's review table settles it: a setting that cannot
## apply is readable from get_error(); objects allowed with an empty allow-list admit nothing;
## a TCP peer still connecting is "nothing yet", a closed or failed one an error naming its
## status; "nothing yet" (ERR_BUSY) differs from every failure; Dialect and Precision are class
## enums; one message-size limit and one byte-order rule on every length-prefixed path; framed
## bytes; the addon's version and icon.

const Ctx := preload("res://tests/lib/ctx.gd")
const MARKER := "res://tests/fixtures/static_init/marker_surface.gd"

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	refused_settings_are_readable()
	objects_safe_by_default()
	connection_states()
	nothing_yet_is_distinct()
	stream_names_as_packet_peer()
	properties_show_defaults()
	const_only_when_nothing_changes()
	every_dialect_documented()
	class_enums()
	one_message_limit()
	one_byte_order()
	framed_bytes()
	version_and_icon()
	review_table()
	t.done()


func le32(n: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, n)
	return b


## A setting that cannot apply keeps every setting as it was and says so through get_error();
## one that applies makes it OK.
func refused_settings_are_readable() -> void:
	var c := FastVarCodec.new()
	c.precision = FastVarCodec.PRECISION_DOUBLE
	t.check(c.get_error() == OK, "an applied setting reports OK", c.get_error_message())
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	t.check(c.get_error() == ERR_INVALID_PARAMETER and c.get_error_message().contains("dialect"),
			"Godot 3 while precision is double: refused with ERR_INVALID_PARAMETER, naming the setting",
			func(): return "%s: %s" % [error_string(c.get_error()), c.get_error_message()])
	t.check(c.dialect == FastVarCodec.DIALECT_GODOT_4, "and the dialect stays what was last set successfully")
	t.check_bytes(c.encode(1.5), var_to_bytes(1.5), "the codec encodes with the settings last applied")
	c.set("dialect", 99)
	t.check(c.get_error() == ERR_INVALID_PARAMETER and c.dialect == FastVarCodec.DIALECT_GODOT_4,
			"an unknown dialect: ERR_INVALID_PARAMETER, value kept", c.get_error_message())
	c.precision = FastVarCodec.PRECISION_SINGLE
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	t.check(c.get_error() == OK and c.dialect == FastVarCodec.DIALECT_GODOT_3, "the same dialect applies once the precision allows it")
	for setting in [["max_depth", 5000], ["max_elements", -7], ["max_bytes", -2], ["max_message_size", -1]]:
		var before = c.get(setting[0])
		c.set(setting[0], setting[1])
		t.check(c.get_error() == ERR_INVALID_PARAMETER and c.get(setting[0]) == before,
				"%s = %d: refused readably, value kept" % setting, c.get_error_message())
	var s := FastVarStream.new()
	var mine := s.codec
	s.codec = null
	t.check(s.get_error() == ERR_INVALID_PARAMETER and s.codec == mine, "FastVarStream.codec = null: refused readably, codec kept")


## With allow_objects on and nothing listed, no object is made and no script is loaded; "*"
## admits every class, as bytes_to_var_with_objects does.
func objects_safe_by_default() -> void:
	var c := FastVarCodec.new()
	c.allow_objects = true
	t.check(c.allowed_classes.is_empty(), "allowed_classes is empty by default")
	var res := Resource.new()
	res.resource_name = "r"
	var full := var_to_bytes_with_objects(res)
	var v = c.decode(full)
	t.check(v == null and c.get_error() == ERR_UNAUTHORIZED, "objects on, list empty: a Resource is refused",
			func(): return "%s %s" % [v, c.get_error_message()])
	var typed := le32(28 | (3 << 16)) + le32(MARKER.length()) + MARKER.to_utf8_buffer()
	while typed.size() % 4 != 0:
		typed.append(0)
	typed += le32(0)
	v = c.decode(typed)
	t.check(v == null and c.get_error() == ERR_UNAUTHORIZED, "objects on, list empty: a script-typed Array is refused",
			func(): return "%s %s" % [v, c.get_error_message()])
	t.check(not Engine.has_meta(&"fvc_loaded_marker_surface"), "and its script was never loaded")
	c.allowed_classes = PackedStringArray(["*"])
	v = c.decode(full)
	t.check(v is Resource and v.resource_name == "r" and c.get_error() == OK, "\"*\" admits every class (trusted input)",
			c.get_error_message())
	c.allowed_classes = PackedStringArray()
	t.check(c.decode(full) == null and c.get_error() == ERR_UNAUTHORIZED, "an emptied list admits nothing again")


## poll() on a StreamPeerTCP: connecting is nothing yet (OK), closed and failed are errors that
## name the status.
func connection_states() -> void:
	var s := FastVarStream.new()
	var idle := StreamPeerTCP.new()
	var err := s.poll(idle)
	t.check(err == ERR_FILE_EOF and s.get_error_message().contains("STATUS_NONE"),
			"a StreamPeerTCP never connected: ERR_FILE_EOF naming STATUS_NONE",
			func(): return "%s: %s" % [error_string(err), s.get_error_message()])
	var server := TCPServer.new()
	if server.listen(0, "127.0.0.1") != OK:
		t.skip("no local TCP port")
		return
	var port := server.get_local_port()
	var tcp := StreamPeerTCP.new()
	tcp.connect_to_host("127.0.0.1", port)
	# Not polled yet, so still connecting whatever the server does.
	if tcp.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		err = s.poll(tcp)
		t.check(err == OK and s.get_error() == OK and s.get_available_packet_count() == 0, "a StreamPeerTCP still connecting: OK, nothing read",
				func(): return "%s: %s" % [error_string(err), s.get_error_message()])
	else:
		t.skip("the connection was not pending")
	tcp.disconnect_from_host()
	server.stop()
	# A refused connection ends in STATUS_ERROR (bounded wait: the refusal is local).
	var refused := StreamPeerTCP.new()
	refused.connect_to_host("127.0.0.1", port)
	for i in 400:
		refused.poll()
		if refused.get_status() != StreamPeerTCP.STATUS_CONNECTING:
			break
		OS.delay_msec(5)
	if refused.get_status() == StreamPeerTCP.STATUS_ERROR:
		err = s.poll(refused)
		t.check(err == ERR_CONNECTION_ERROR and s.get_error_message().contains("STATUS_ERROR"),
				"a failed connection: ERR_CONNECTION_ERROR naming STATUS_ERROR",
				func(): return "%s: %s" % [error_string(err), s.get_error_message()])
	else:
		t.skip("the refused connection did not reach STATUS_ERROR")


## ERR_BUSY is "nothing yet" in get_var and get_packet_var, and no failure uses it: a class this
## engine does not have stays the engine's ERR_UNAVAILABLE.
func nothing_yet_is_distinct() -> void:
	var s := FastVarStream.new()
	t.check(s.get_var() == null and s.get_error() == ERR_BUSY, "get_var with nothing received: ERR_BUSY")
	var c := FastVarCodec.new()
	var pps := PacketPeerStream.new()
	pps.stream_peer = StreamPeerBuffer.new()
	t.check(c.get_packet_var(pps) == null and c.get_error() == ERR_BUSY, "get_packet_var with no packet: ERR_BUSY")
	var udp := PacketPeerUDP.new()
	if udp.bind(0, "127.0.0.1") == OK:
		t.check(c.get_packet_var(udp) == null and c.get_error() == ERR_BUSY, "get_packet_var on an idle UDP socket: ERR_BUSY")
		udp.close()
	# A full object of a class no engine has, in the Godot 3 dialect (whose engine answers ERR_UNAVAILABLE).
	var g3 := FastVarCodec.new()
	g3.dialect = FastVarCodec.DIALECT_GODOT_3
	g3.full_objects = true
	g3.allow_objects = true
	g3.allowed_classes = PackedStringArray(["*"])
	var bytes := g3.encode(Resource.new())
	var at := -1
	var name := "Resource".to_utf8_buffer()
	for i in bytes.size() - name.size():
		if bytes.slice(i, i + name.size()) == name:
			at = i
			break
	if not t.check(at >= 0, "the class name is in the Godot 3 bytes"):
		return
	bytes[at + 7] = "X".unicode_at(0)  # ResourcX
	var v = g3.decode(bytes)
	var missing := g3.get_error()
	t.check(v == null and missing != OK and missing != ERR_BUSY, "a missing class is a failure, not \"nothing yet\"",
			"%s: %s" % [error_string(missing), g3.get_error_message()])
	s.get_var()
	t.check(missing != s.get_error(), "the two codes differ", "%s and %s" % [error_string(missing), error_string(s.get_error())])
	# Why "nothing yet" is not the engine's ERR_UNAVAILABLE (PacketPeer.get_var's): a stream in
	# the Godot 3 dialect reports that very code for a value naming a class no engine has.
	var g3s := FastVarStream.new()
	g3s.codec = g3
	g3s.feed(le32(bytes.size()) + bytes)
	t.check(g3s.get_var() == null and g3s.get_error() == ERR_UNAVAILABLE,
			"FastVarStream.get_var of a Godot 3 object of a missing class: ERR_UNAVAILABLE, so nothing yet is ERR_BUSY",
			"%s: %s" % [error_string(g3s.get_error()), g3s.get_error_message()])


## FastVarStream speaks PacketPeer's words: get_var, get_available_packet_count (an int: the
## values waiting); its one limit is its codec's, with no second property on the stream.
func stream_names_as_packet_peer() -> void:
	var methods := {}
	for m in ClassDB.class_get_method_list(&"FastVarStream", true):
		methods[m.name] = m
	for name in ["get_var", "get_vars", "get_available_packet_count"]:
		t.check(methods.has(name), "FastVarStream.%s exists" % name)
	for name in ["pop_var", "pop_vars", "has_var", "get_max_message_size", "set_max_message_size"]:
		t.check(not methods.has(name), "FastVarStream.%s is gone" % name)
	t.check(methods.has("get_available_packet_count") and methods.get_available_packet_count.return.type == TYPE_INT,
			"get_available_packet_count() returns an int", str(methods.get("get_available_packet_count", {})))
	var props := []
	for p in ClassDB.class_get_property_list(&"FastVarStream", true):
		props.append(p.name)
	t.check(not props.has("max_message_size"), "FastVarStream has no max_message_size of its own (its codec's is the one)", str(props))
	# The count: whole messages (a malformed one too: get_var reports it), not the partial one.
	var s := FastVarStream.new()
	var bad := le32(8) + PackedByteArray([0xff, 0, 0, 0, 0, 0, 0, 0])
	var last := var_to_bytes("three")
	var four := var_to_bytes(4)
	s.feed(le32(8) + var_to_bytes(1) + bad + le32(last.size()) + last + le32(8) + four.slice(0, 1))
	t.check(s.get_available_packet_count() == 3, "three whole messages waiting, one partial: 3", str(s.get_available_packet_count()))
	t.check(s.get_var() == 1 and s.get_available_packet_count() == 2, "each get_var takes one")
	t.check(s.get_var() == null and s.get_error() == ERR_INVALID_DATA and s.get_available_packet_count() == 1,
			"the malformed one is handed out as its failure", s.get_error_message())
	t.check(s.get_var() == "three" and s.get_available_packet_count() == 0, "then the last whole one")
	t.check(s.get_var() == null and s.get_error() == ERR_BUSY, "then nothing yet")
	s.feed(four.slice(1))
	t.check(s.get_available_packet_count() == 1 and s.get_var() == 4, "the partial one counts once whole")
	# An oversized prefix counts once, after the values before it; the broken stream counts none.
	s.feed(le32(8) + var_to_bytes(5) + le32(0x80000000) + PackedByteArray([1, 2]))
	t.check(s.get_available_packet_count() == 2 and not s.is_broken(), "a value and an oversized prefix: 2, not broken yet")
	t.check(s.get_buffered_bytes() == 12 + 4 + 2, "counted messages stay buffered until handed out", str(s.get_buffered_bytes()))
	t.check(s.get_var() == 5 and not s.is_broken(), "the value before the prefix comes out")
	t.check(s.get_var() == null and s.get_error() == ERR_OUT_OF_MEMORY and s.is_broken(), "then the prefix breaks the stream")
	t.check(s.get_available_packet_count() == 0, "a broken stream counts nothing")
	t.check(s.get_var() == null and s.get_error() == ERR_OUT_OF_MEMORY, "and get_var keeps reporting why")
	var rounds := 0
	s.reset()
	s.feed(le32(0x80000000))
	while s.get_available_packet_count() > 0 and rounds < 10:
		s.get_var()
		rounds += 1
	t.check(rounds == 1, "the PacketPeer loop ends on a broken stream", "%d rounds" % rounds)
	s.reset()
	s.feed(le32(8) + var_to_bytes(6))
	t.check(s.get_available_packet_count() == 1 and s.get_var() == 6, "after reset the stream counts again")


## Every property of a built-in type is registered for the editor, so the editor help shows its
## default: the engine reads defaults only of properties with PROPERTY_USAGE_EDITOR or _STORAGE.
## An object property (FastVarStream.codec) is registered for neither: the engine would read an
## instantiated object as its default, and warn so at each start of the editor.
func properties_show_defaults() -> void:
	var expected := {"max_message_size": 8388608, "max_depth": 1024, "max_elements": -1, "max_bytes": -1,
			"max_payload": 268435456, "allow_objects": false, "allowed_classes": PackedStringArray()}
	for cls in [&"FastVarCodec", &"FastVarStream"]:
		for p in ClassDB.class_get_property_list(cls, true):
			if p.usage & PROPERTY_USAGE_CATEGORY:
				continue
			if p.type == TYPE_OBJECT:
				t.check(p.usage & (PROPERTY_USAGE_EDITOR | PROPERTY_USAGE_STORAGE) == 0
						and ClassDB.class_get_property_default_value(cls, p.name) == null,
						"%s.%s: an object, so no default is read (no instantiated object as a default)" % [cls, p.name],
						"usage %d" % p.usage)
				continue
			t.check(p.usage & (PROPERTY_USAGE_EDITOR | PROPERTY_USAGE_STORAGE) != 0,
					"%s.%s: usage lets the help show its default" % [cls, p.name], "usage %d" % p.usage)
			t.check(p.usage & PROPERTY_USAGE_STORAGE == 0,
					"%s.%s: not stored (var_to_bytes_with_objects of a codec carries no settings)" % [cls, p.name], "usage %d" % p.usage)
	for name in expected:
		var d = ClassDB.class_get_property_default_value(&"FastVarCodec", name)
		t.check(typeof(d) == typeof(expected[name]) and d == expected[name],
				"ClassDB's default of FastVarCodec.%s is %s" % [name, expected[name]], str(d))


## ClassDB marks a method const only when it changes nothing a later call sees: the property
## getters and the calls that only report; every call that writes, reads a stream or a file, or
## sets get_error() is not const (gdext made every &self method const). The one exception, the
## property setters, stay const: gdext admits no other setter it can bind on any thread
## (docs/gdscript.md, the review table).
func const_only_when_nothing_changes() -> void:
	var readers := {
		&"FastVarCodec": ["get_decoded_size", "get_error", "get_error_message"],
		&"FastVarStream": ["get_buffered_bytes", "is_broken", "get_error", "get_error_message", "get_available_packet_count"],
	}
	for cls in readers:
		var props := {}
		for p in ClassDB.class_get_property_list(cls, true):
			props[p.name] = true
		for m in ClassDB.class_get_method_list(cls, true):
			var name: String = m.name
			var is_accessor := (name.begins_with("get_") or name.begins_with("set_")) and props.has(name.substr(4))
			var expected: bool = is_accessor or readers[cls].has(name)
			var is_const: bool = m.flags & METHOD_FLAG_CONST != 0
			t.check(is_const == expected, "%s.%s is %s" % [cls, name, "const" if expected else "not const"], "flags %d" % m.flags)


## Every Dialect constant the class registers has a row in docs/gdscript.md's table of dialects,
## saying which engines write and read those bytes (the class's help names each too: the unit
## test editor_help::class_help_names_every_dialect).
func every_dialect_documented() -> void:
	var path := ProjectSettings.globalize_path("res://").path_join("../docs/gdscript.md")
	var text := FileAccess.get_file_as_string(path)
	var at := text.find("### Dialects")
	if not t.check(at >= 0, "docs/gdscript.md has a section \"### Dialects\"", path):
		return
	var section := text.substr(at, text.find("\n## ", at) - at)
	var dialects := ClassDB.class_get_enum_constants(&"FastVarCodec", &"Dialect")
	t.check(dialects.size() == 6, "FastVarCodec.Dialect has its six constants", str(dialects))
	for name in dialects:
		var row := "| `%s` | %d |" % [name, ClassDB.class_get_integer_constant(&"FastVarCodec", name)]
		t.check(section.contains(row), "docs/gdscript.md's dialect table has a row for %s (its name and value)" % name, row)


## Dialect and Precision are enums of the class: constants, properties and methods typed by them.
func class_enums() -> void:
	t.check(ClassDB.class_has_enum(&"FastVarCodec", &"Dialect") and ClassDB.class_has_enum(&"FastVarCodec", &"Precision"),
			"FastVarCodec has the enums Dialect and Precision", str(ClassDB.class_get_enum_list(&"FastVarCodec")))
	var dialects := ClassDB.class_get_enum_constants(&"FastVarCodec", &"Dialect")
	t.check(dialects.size() == 6 and dialects.has("DIALECT_GODOT_3") and dialects.has("DIALECT_GODOT_4_0_TO_4_2"),
			"Dialect holds the six dialect constants", str(dialects))
	t.check(ClassDB.class_get_enum_constants(&"FastVarCodec", &"Precision") == PackedStringArray(["PRECISION_SINGLE", "PRECISION_DOUBLE"]),
			"Precision holds the two precision constants")
	t.check(ClassDB.class_get_integer_constant_enum(&"FastVarCodec", &"DIALECT_GODOT_3") == &"Dialect",
			"DIALECT_GODOT_3 belongs to Dialect")
	for p in FastVarCodec.new().get_property_list():
		if p.name == "dialect" or p.name == "precision":
			var enum_name := "FastVarCodec.Dialect" if p.name == "dialect" else "FastVarCodec.Precision"
			t.check(p.class_name == enum_name and (p.usage & PROPERTY_USAGE_CLASS_IS_ENUM) != 0,
					"property %s is typed %s" % [p.name, enum_name], "class_name %s, usage %d" % [p.class_name, p.usage])
	for m in ClassDB.class_get_method_list(&"FastVarCodec", true):
		if m.name == "get_dialect":
			t.check(m.return.class_name == "FastVarCodec.Dialect", "get_dialect() returns FastVarCodec.Dialect", str(m.return))
	# Typed GDScript: a variable of the enum's type takes the property and the constants.
	var c := FastVarCodec.new()
	var d: FastVarCodec.Dialect = c.dialect
	t.check(d == FastVarCodec.DIALECT_GODOT_4, "var d: FastVarCodec.Dialect holds the default dialect")
	d = FastVarCodec.DIALECT_GODOT_3
	c.dialect = d
	var p: FastVarCodec.Precision = c.precision
	t.check(c.dialect == FastVarCodec.DIALECT_GODOT_3 and p == FastVarCodec.PRECISION_SINGLE, "and sets it back")
	t.check(FastVarCodec.Dialect.DIALECT_GODOT_3 == FastVarCodec.DIALECT_GODOT_3, "FastVarCodec.Dialect.DIALECT_GODOT_3 names the constant")


## FastVarCodec.max_message_size bounds every path that writes or reads a length prefix or a
## packet, a FastVarStream's through its codec.
func one_message_limit() -> void:
	var value := "x".repeat(40)  # 48 bytes encoded
	var c := FastVarCodec.new()
	c.max_message_size = 16
	var peer := StreamPeerBuffer.new()
	t.check(c.put_var(peer, value) == ERR_OUT_OF_MEMORY and peer.get_size() == 0
			and c.get_error_message().contains("max_message_size"),
			"FastVarCodec.put_var refuses a message over max_message_size, writing nothing, and says so", c.get_error_message())
	t.check(c.put_var(peer, 7) == OK, "and writes one within it")
	var s := FastVarStream.new()
	s.codec = c
	var out := StreamPeerBuffer.new()
	t.check(s.put_var(out, value) == ERR_OUT_OF_MEMORY and out.get_size() == 0,
			"FastVarStream.put_var refuses it", s.get_error_message())
	t.check(s.put_vars(out, [1, value]) == ERR_OUT_OF_MEMORY and out.get_size() == 0,
			"FastVarStream.put_vars refuses it, writing nothing", s.get_error_message())
	t.check(c.encode_framed(value).is_empty() and c.get_error() == ERR_OUT_OF_MEMORY, "encode_framed refuses it")
	var path := "user://fvc_surface_limit.bin"
	var f := FileAccess.open(path, FileAccess.WRITE)
	t.check(c.store_var(f, value) == ERR_OUT_OF_MEMORY and f.get_position() == 0, "store_var refuses it")
	f.store_var(value)
	f.close()
	f = FileAccess.open(path, FileAccess.READ)
	t.check(c.read_var(f) == null and c.get_error() == ERR_OUT_OF_MEMORY and f.get_position() == 0,
			"read_var refuses a longer length prefix, position kept", c.get_error_message())
	f.close()
	# A Godot 3 save of two records: the short one reads, the long one is refused by the limit.
	var save := c.encode_framed(7)
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	c.max_message_size = 1 << 20
	save.append_array(c.encode_framed(value))
	c.max_message_size = 16
	c.dialect = FastVarCodec.DIALECT_GODOT_4
	f = FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(save)
	f.close()
	var values := c.read_godot3_save(path)
	t.check(values == [7] and c.get_error() == ERR_OUT_OF_MEMORY and c.get_error_message().contains("maximum message size"),
			"read_godot3_save refuses a value over max_message_size, after the values before it", c.get_error_message())
	c.max_message_size = 1 << 20
	t.check(c.read_godot3_save(path) == [7, value] and c.get_error() == OK, "and reads it within the limit")
	c.max_message_size = 16
	DirAccess.remove_absolute(ProjectSettings.globalize_path(path))
	var pps := PacketPeerStream.new()
	var buffer := StreamPeerBuffer.new()
	pps.stream_peer = buffer
	pps.put_var(value)
	buffer.seek(0)
	t.check(c.get_packet_var(pps) == null and c.get_error() == ERR_OUT_OF_MEMORY, "get_packet_var refuses a longer packet",
			c.get_error_message())
	# The stream reads by its codec's limit.
	var fresh := FastVarStream.new()
	fresh.codec.max_message_size = 16
	fresh.feed(le32(48) + var_to_bytes(value))
	t.check(fresh.get_var() == null and fresh.is_broken(), "the stream reads by the codec's limit")
	# A change made after the bytes arrived applies to them: the stream follows its codec's
	# settings on every call, not as they were when it last read them.
	var later := FastVarStream.new()
	later.feed(le32(48) + var_to_bytes(value))
	t.check(later.get_available_packet_count() > 0, "a message within the limit is ready")
	later.codec.max_message_size = 16
	t.check(later.get_var() == null and later.is_broken(), "a limit lowered after the bytes arrived applies to them")
	var other := FastVarCodec.new()
	other.max_message_size = 16
	var switched := FastVarStream.new()
	switched.feed(le32(48) + var_to_bytes(value))
	t.check(switched.get_available_packet_count() > 0, "and with the default codec")
	switched.codec = other
	t.check(switched.get_var() == null and switched.is_broken(), "a codec set after the bytes arrived reads them by its limit")


## The length prefix follows the peer's big_endian on every path (FastVarStream had its own).
func one_byte_order() -> void:
	var engine := StreamPeerBuffer.new()
	engine.big_endian = true
	engine.put_var("be")
	var ours := StreamPeerBuffer.new()
	ours.big_endian = true
	var s := FastVarStream.new()
	t.check(s.put_var(ours, "be") == OK, "FastVarStream.put_var on a big-endian peer")
	t.check_bytes(ours.data_array, engine.data_array, "writes the big-endian prefix StreamPeer.put_var writes")
	engine.seek(0)
	var r := FastVarStream.new()
	t.check(r.poll(engine) == OK and r.get_var() == "be", "poll reads a big-endian peer's prefix", r.get_error_message())
	var c := FastVarCodec.new()
	var cb := StreamPeerBuffer.new()
	cb.big_endian = true
	c.put_var(cb, "be")
	t.check_bytes(cb.data_array, ours.data_array, "FastVarCodec.put_var writes the same bytes")


## encode_framed / decode_framed: what put_var writes, as bytes.
func framed_bytes() -> void:
	var c := FastVarCodec.new()
	var engine := StreamPeerBuffer.new()
	engine.put_var({"hp": 3})
	engine.put_var("bye")
	var wire := c.encode_framed({"hp": 3}) + c.encode_framed("bye")
	t.check_bytes(wire, engine.data_array, "encode_framed == StreamPeer.put_var's bytes")
	var first = c.decode_framed(wire)
	var size := c.get_decoded_size()
	var second = c.decode_framed(wire, size)
	t.check(first == {"hp": 3} and second == "bye" and size == 4 + var_to_bytes({"hp": 3}).size(),
			"decode_framed reads them back; get_decoded_size is the frame's size", "%s %s %d" % [first, second, size])
	t.check(c.decode_framed(wire.slice(0, wire.size() - 1), size) == null and c.get_error() == ERR_FILE_EOF,
			"a frame cut short: ERR_FILE_EOF")
	t.check(c.decode_framed(PackedByteArray([1, 2])) == null and c.get_error() == ERR_FILE_EOF, "a prefix cut short: ERR_FILE_EOF")
	t.check(c.decode_framed(le32(0x7fffffff)) == null and c.get_error() == ERR_OUT_OF_MEMORY,
			"a length over max_message_size: ERR_OUT_OF_MEMORY")
	var s := FastVarStream.new()
	s.feed(wire)
	t.check(s.get_vars() == [{"hp": 3}, "bye"], "FastVarStream.feed takes encode_framed's bytes")
	# A Godot 3 save encrypted with a key, from framed Godot 3 bytes, read by read_godot3_save's
	# key argument (one reader for every container).
	var g3 := FastVarCodec.new()
	g3.dialect = FastVarCodec.DIALECT_GODOT_3
	var key := PackedByteArray()
	for i in 32:
		key.append(i * 7)
	var path := "user://fvc_surface_key.sav"
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(g3.encrypt_godot3_with_key(g3.encode_framed("saved") + g3.encode_framed(12), key))
	f.close()
	var values := c.read_godot3_save(path, "", key)
	t.check(c.get_error() == OK and values == ["saved", 12], "read_godot3_save(path, \"\", key) reads a key-encrypted Godot 3 save",
			"%s: %s" % [values, c.get_error_message()])
	t.check(not ClassDB.class_has_method(&"FastVarCodec", &"read_godot3_save_with_key"),
			"one reader of Godot 3 saves: no read_godot3_save_with_key beside read_godot3_save")
	var reader := {}
	for m in ClassDB.class_get_method_list(&"FastVarCodec", true):
		if m.name == "read_godot3_save":
			reader = m
	var arg_names := []
	for a in reader.get("args", []):
		arg_names.append(a.name)
	t.check(arg_names == ["path", "password", "key"] and reader.get("default_args", []) == ["", PackedByteArray()],
			"read_godot3_save(path, password = \"\", key = PackedByteArray())", str(reader))
	values = c.read_godot3_save(path)
	t.check(values.is_empty() and c.get_error() == ERR_UNAUTHORIZED, "without the key: ERR_UNAUTHORIZED", c.get_error_message())
	DirAccess.remove_absolute(ProjectSettings.globalize_path(path))


## FastVarCodec.get_version() and the class icons of the .gdextension.
func version_and_icon() -> void:
	var version := FastVarCodec.get_version()
	# (No RegEx: export templates, such as the double-precision engine here, may lack the module.)
	var parts := version.split(".")
	t.check(parts.size() >= 3 and parts[0].is_valid_int() and parts[1].is_valid_int(),
			"get_version() is the library's version, MAJOR.MINOR.PATCH", version)
	var readme := FileAccess.get_file_as_string("res://addons/fast_var_codec/README.md")
	t.check(readme.get_slice("\n", 0) == "# FastVarCodec " + version, "and the version the addon's README states",
			"%s / %s" % [version, readme.get_slice("\n", 0)])
	var cfg := ConfigFile.new()
	t.check(cfg.load("res://addons/fast_var_codec/fast_var_codec.gdextension") == OK, "the .gdextension loads")
	for class_name_ in ["FastVarCodec", "FastVarStream"]:
		var icon := String(cfg.get_value("icons", class_name_, ""))
		t.check(icon != "" and FileAccess.file_exists(icon), "[icons] %s names a file of the addon" % class_name_, icon)


## docs/gdscript.md's review table has a row for every method, property and enum the engine
## lists for each class (a property's own getter and setter count as the property's).
func review_table() -> void:
	var path := ProjectSettings.globalize_path("res://").path_join("../docs/gdscript.md")
	var text := FileAccess.get_file_as_string(path)
	var at := text.find("## The surface against Godot's own classes")
	if not t.check(at >= 0, "docs/gdscript.md has the review table", path):
		return
	var table := text.substr(at)
	var parts := {}
	var classes := ["FastVarCodec", "FastVarStream", "FastVarTextResource", "FastVarResourceReference"]
	for i in classes.size():
		var from := table.find("### " + classes[i])
		var to := table.find("### " + classes[i + 1]) if i + 1 < classes.size() else table.find("### What changed")
		t.check(from >= 0 and to > from, "review table: %s has its part" % classes[i])
		parts[classes[i]] = table.substr(from, to - from)
	for cls in parts:
		var part: String = parts[cls]
		var props := {}
		for p in ClassDB.class_get_property_list(cls, true):
			if p.usage & PROPERTY_USAGE_CATEGORY:
				continue
			props[p.name] = true
			t.check(part.contains("`%s`" % p.name) or part.contains("`%s," % p.name), "review table: %s.%s has a row" % [cls, p.name])
		for m in ClassDB.class_get_method_list(cls, true):
			var name: String = m.name
			if (name.begins_with("get_") or name.begins_with("set_")) and props.has(name.substr(4)) and not part.contains("`%s(" % name):
				t.check(part.contains("`get_dialect()` … `set_allowed_classes()`") or part.contains("`%s()`" % name),
						"review table: %s.%s is covered as a property accessor" % [cls, name])
				continue
			t.check(part.contains("`%s(" % name) or part.contains("`%s`" % name), "review table: %s.%s() has a row" % [cls, name])
		for e in ClassDB.class_get_enum_list(cls, true):
			t.check(part.contains("`enum %s`" % e), "review table: %s.%s has a row" % [cls, e])
