extends RefCounted
## The GDScript surface of FastVarCodec: constants, properties, error reporting, encoded_size,
## offsets, StreamPeer framing (against StreamPeerBuffer.put_var/get_var), double precision and
## max_depth. Also checks that the test harness' own comparison can tell values apart.

const Ctx := preload("res://tests/lib/ctx.gd")
const Values := preload("res://tests/lib/values.gd")

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	class_typed_encode_then_object_id()  # first: it needs a process that has decoded no object id yet
	harness()
	constants_and_properties()
	errors()
	offsets()
	calling_conventions()
	encode_inside_encode()
	repeated_strings()
	dictionary_reads()
	stream_peer()
	packet_peer()
	packet_peer_stream()
	double_precision()
	depth()
	t.done()


## The comparison every test relies on must not be trivially true.
func harness() -> void:
	var a := EncodedObjectAsID.new()
	a.set_object_id(5)
	var b := EncodedObjectAsID.new()
	b.set_object_id(5)
	var c := EncodedObjectAsID.new()
	c.set_object_id(6)
	t.check(Ctx.same(a, b), "harness: EncodedObjectAsID with equal ids are the same")
	t.check(not Ctx.same(a, c), "harness: EncodedObjectAsID with different ids differ")
	t.check(not Ctx.same([a], [c]), "harness: nested EncodedObjectAsID with different ids differ")
	t.check(not Ctx.same(1, 1.0), "harness: int 1 and float 1.0 differ")
	t.check(not Ctx.same(0.0, Values.neg0()), "harness: 0.0 and -0.0 differ")
	t.check(Ctx.same(NAN, NAN), "harness: NAN is the same as NAN")
	t.check(not Ctx.same(NAN, Values.float_from_bits(0x7ff8000000000001)), "harness: NaN payloads differ")
	t.check(not Ctx.same("a", &"a"), "harness: String and StringName differ")
	t.check(not Ctx.same([1], Array([1], TYPE_INT, &"", null)), "harness: typed and untyped Arrays differ")
	t.check(not Ctx.same({1: 2, 3: 4}, {3: 4, 1: 2}), "harness: Dictionary order matters")
	var r1 := Resource.new()
	r1.resource_name = "x"
	var r2 := Resource.new()
	r2.resource_name = "x"
	var r3 := Resource.new()
	r3.resource_name = "y"
	t.check(Ctx.same(r1, r2), "harness: equal full objects are the same")
	t.check(not Ctx.same(r1, r3), "harness: full objects with different properties differ")
	t.check(not Ctx.same(Values.nest_array(1030), Values.nest_array(1031)), "harness: too-deep values are compared structurally")
	t.check(Ctx.same(Values.nest_array(1030), Values.nest_array(1030)), "harness: equal too-deep values are the same")


## Encoding an Array typed with an engine class, then decoding an object id (which makes an
## EncodedObjectAsID). gdext 0.5.5 panics when an engine class it has seen by name (from a
## container's typing) is later used as a Rust type; reading the typing through gdext did that,
## and every object id decoded after such an encode came back null (found by the Pandemonium peers).
func class_typed_encode_then_object_id() -> void:
	var c := FastVarCodec.new()
	for name in [&"EncodedObjectAsID", &"Script", &"Object", &"Resource"]:
		var typed := Array([], TYPE_OBJECT, name, null)
		t.check_bytes(c.encode(typed), var_to_bytes(typed), "encode of an empty Array[%s]" % name)
	var typed_dict := Dictionary({}, TYPE_OBJECT, &"EncodedObjectAsID", null, TYPE_OBJECT, &"Script", null)
	t.check_bytes(c.encode(typed_dict), var_to_bytes(typed_dict), "encode of a Dictionary[EncodedObjectAsID, Script]")
	var n := Node.new()
	var back = c.decode(var_to_bytes(n))
	t.check(back is EncodedObjectAsID and back.object_id == n.get_instance_id(),
			"an object id decodes after class-typed containers were encoded",
			"got %s (%s)" % [back, c.get_error_message()])
	n.free()


func constants_and_properties() -> void:
	for k in ["DIALECT_GODOT_4", "DIALECT_GODOT_3", "PRECISION_SINGLE", "PRECISION_DOUBLE"]:
		t.check(ClassDB.class_has_integer_constant(&"FastVarCodec", k), "constant FastVarCodec.%s exists" % k)
	t.check(FastVarCodec.DIALECT_GODOT_4 != FastVarCodec.DIALECT_GODOT_3, "dialect constants are distinct")
	t.check(FastVarCodec.PRECISION_SINGLE != FastVarCodec.PRECISION_DOUBLE, "precision constants are distinct")
	var codec := FastVarCodec.new()
	t.check(codec is RefCounted, "FastVarCodec is reference-counted")
	t.check(codec.dialect == FastVarCodec.DIALECT_GODOT_4, "default dialect is DIALECT_GODOT_4")
	t.check(codec.precision == engine_precision(), "default precision is the running engine's own",
			"got %d" % codec.precision)
	t.check(codec.full_objects == false, "default full_objects is false")
	t.check(codec.allow_objects == false, "default allow_objects is false")
	t.check(codec.allow_lossy == false, "default allow_lossy is false")
	t.check(codec.max_depth == 1024, "default max_depth is 1024", "got %s" % codec.max_depth)
	t.check(codec.get_error() == OK, "get_error() of a new codec is OK")
	t.check(codec.get_decoded_size() == 0, "get_decoded_size() of a new codec is 0")
	var props := {
		"dialect": [FastVarCodec.DIALECT_GODOT_3, FastVarCodec.DIALECT_GODOT_4],
		"precision": [FastVarCodec.PRECISION_DOUBLE, FastVarCodec.PRECISION_SINGLE],
		"full_objects": [true, false], "allow_objects": [true, false], "allow_lossy": [true, false],
		"max_depth": [7, 1024],
	}
	var listed := {}
	for p in codec.get_property_list():
		listed[p.name] = p.type
		# Properties that choose among constants show the constants as choices in the inspector.
		if p.name == "dialect" or p.name == "precision":
			var first := "DIALECT_GODOT_4:0" if p.name == "dialect" else "PRECISION_SINGLE:0"
			t.check(p.hint == PROPERTY_HINT_ENUM and String(p.hint_string).begins_with(first)
					and (p.usage & PROPERTY_USAGE_EDITOR) != 0,
					"property %s is an enum of its constants in the inspector" % p.name,
					"hint %d, hint_string %s, usage %d" % [p.hint, p.hint_string, p.usage])
	for p in props:
		t.check(listed.has(p), "property %s is listed" % p)
		for v in props[p]:
			codec.set(p, v)
			t.check(codec.get(p) == v, "property %s round-trips %s" % [p, v], "read back %s" % codec.get(p))
	# Typed access, as the documentation's snippets use it.
	codec.dialect = FastVarCodec.DIALECT_GODOT_4
	codec.precision = FastVarCodec.PRECISION_DOUBLE
	t.check(codec.dialect == FastVarCodec.DIALECT_GODOT_4 and codec.precision == FastVarCodec.PRECISION_DOUBLE,
			"dialect and precision set through properties")
	# Godot 3 has no binary64 reals: a combination that could encode nothing is refused when set.
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	t.check(codec.dialect == FastVarCodec.DIALECT_GODOT_4, "Godot 3 refused while precision is double (value kept)")
	codec.precision = FastVarCodec.PRECISION_SINGLE
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	codec.precision = FastVarCodec.PRECISION_DOUBLE
	t.check(codec.precision == FastVarCodec.PRECISION_SINGLE, "double precision refused in Godot 3 (value kept)")
	t.check(codec.encode(null) == PackedByteArray([0, 0, 0, 0]) and codec.get_error() == OK,
			"the codec still encodes after a refused setting")
	# Two codecs do not share settings.
	var other := FastVarCodec.new()
	t.check(other.dialect == FastVarCodec.DIALECT_GODOT_4 and other.precision == engine_precision(),
			"a second codec keeps its own defaults")
	t.check_bytes(other.encode(Vector2(1, 2)), var_to_bytes(Vector2(1, 2)), "a second codec encodes with its own settings")
	precision_follows_dialect()


## FastVarCodec.PRECISION_DOUBLE in an engine built with precision=double (which loads the
## addon's double-precision library), else PRECISION_SINGLE.
static func engine_precision() -> int:
	return FastVarCodec.PRECISION_DOUBLE if OS.has_feature("double") else FastVarCodec.PRECISION_SINGLE


## Until precision is set, it follows the dialect: the engine's own in Godot 4 (so the defaults
## write var_to_bytes' bytes in any engine), single in Godot 3, which has no other; once set, it
## stays, and a dialect that cannot use it is refused.
func precision_follows_dialect() -> void:
	var c := FastVarCodec.new()
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	t.check(c.dialect == FastVarCodec.DIALECT_GODOT_3 and c.precision == FastVarCodec.PRECISION_SINGLE,
			"an unset precision becomes single in Godot 3", "dialect %d, precision %d" % [c.dialect, c.precision])
	c.dialect = FastVarCodec.DIALECT_GODOT_4
	t.check(c.precision == engine_precision(), "and the engine's own again in Godot 4")
	t.check_bytes(c.encode(Transform3D.IDENTITY.translated(Vector3(0.1, 2, 3))),
			var_to_bytes(Transform3D.IDENTITY.translated(Vector3(0.1, 2, 3))), "the defaults write var_to_bytes' reals")
	c.precision = FastVarCodec.PRECISION_DOUBLE
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	t.check(c.dialect == FastVarCodec.DIALECT_GODOT_4, "a precision set to double keeps Godot 3 refused")
	c.precision = FastVarCodec.PRECISION_SINGLE
	c.dialect = FastVarCodec.DIALECT_GODOT_3
	c.dialect = FastVarCodec.DIALECT_GODOT_4
	t.check(c.precision == FastVarCodec.PRECISION_SINGLE, "a precision set to single stays single in Godot 4")


func errors() -> void:
	var codec := FastVarCodec.new()
	# success
	t.check_bytes(codec.encode(7), var_to_bytes(7), "encode(7)")
	t.check(codec.get_error() == OK and codec.get_error_message() == "", "after a successful encode: OK and no message",
			"%s '%s'" % [codec.get_error(), codec.get_error_message()])
	# decoding NIL succeeds with null
	var v = codec.decode(var_to_bytes(null))
	t.check(v == null and codec.get_error() == OK and codec.get_decoded_size() == 4, "decoding NIL gives null with OK and size 4")
	# decode failures
	v = codec.decode(PackedByteArray())
	t.check(v == null and codec.get_error() == ERR_INVALID_DATA, "decode(empty) fails with ERR_INVALID_DATA",
			"got %s / %s" % [v, error_string(codec.get_error())])
	t.check(codec.get_error_message() != "", "decode(empty) sets a message")
	t.check(codec.get_decoded_size() == 0, "get_decoded_size() is 0 after a failed decode")
	var str_bytes := var_to_bytes("hello")
	v = codec.decode(str_bytes.slice(0, str_bytes.size() - 1))
	t.check(v == null and codec.get_error() != OK, "a truncated String fails")
	t.check(codec.get_error_message() != "", "a truncated String sets a message")
	# full object without allow_objects: ERR_UNAUTHORIZED (the engine's code)
	var full := var_to_bytes_with_objects(Resource.new())
	v = codec.decode(full)
	t.check(v == null and codec.get_error() == ERR_UNAUTHORIZED, "a full object with allow_objects=false fails with ERR_UNAUTHORIZED",
			"got %s / %s" % [v, error_string(codec.get_error())])
	t.check(full.decode_var_size(0, false) == 0, "the engine also refuses it (decode_var_size 0)")
	codec.allow_objects = true
	codec.allowed_classes = PackedStringArray(["Resource"])
	v = codec.decode(full)
	t.check(v is Resource and codec.get_error() == OK, "the same bytes decode with allow_objects=true and Resource listed")
	codec.allow_objects = false
	# an id-mode object decodes without allow_objects, as an EncodedObjectAsID
	var res := Resource.new()
	v = codec.decode(var_to_bytes(res))
	t.check(v is EncodedObjectAsID and v.get_object_id() == res.get_instance_id(), "an id-mode object decodes to EncodedObjectAsID")
	# success resets the error
	t.check(codec.decode(var_to_bytes(5)) == 5 and codec.get_error() == OK and codec.get_error_message() == "",
			"a success after a failure resets get_error() and the message")
	# encode failures and encoded_size -1
	var g3 := FastVarCodec.new()
	g3.dialect = FastVarCodec.DIALECT_GODOT_3
	var fails := {
		"Vector2i in Godot 3 without allow_lossy": [g3, Vector2i(1, 2)],
		"nested Projection in Godot 3 without allow_lossy": [g3, {"p": [Projection.IDENTITY]}],
		"depth 1026": [codec, Values.nest_array(1026)],
	}
	var cyclic := []
	cyclic.append(cyclic)
	fails["self-containing Array"] = [codec, cyclic]
	var fullc := FastVarCodec.new()
	fullc.full_objects = true
	fails["non-instantiable object in full mode"] = [fullc, RenderingServer]
	for k in fails:
		var c = fails[k][0]
		var b: PackedByteArray = c.encode(fails[k][1])
		t.check(b.is_empty(), "encode fails: " + k, "wrote %d bytes" % b.size())
		t.check(c.get_error() != OK, "get_error() after failure: " + k)
		t.check(c.get_error_message() != "", "get_error_message() after failure: " + k)
		t.check(c.encoded_size(fails[k][1]) == -1, "encoded_size is -1: " + k)
		t.check(c.get_error() != OK, "get_error() after encoded_size failure: " + k)
		t.check(c.encoded_size(42) == 8 and c.get_error() == OK, "encoded_size works again after: " + k)
	cyclic.clear()
	t.check(codec.encoded_size("abc") == var_to_bytes("abc").size(), "encoded_size(\"abc\") == var_to_bytes size")


## An encode that runs script code which encodes again (a property getter, with full_objects):
## the inner encode gets a buffer of its own, and both give the engine's bytes.
func encode_inside_encode() -> void:
	var obj: Resource = load("res://tests/fixtures/encoding_getter.gd").new()
	var inner := var_to_bytes({"inner": [1, 2.5, "three"]})
	t.check(obj.encoded_inside == inner, "encode inside a getter: the engine's bytes")
	var codec := FastVarCodec.new()
	codec.full_objects = true
	for value in [obj, [obj, "after", obj]]:
		var got := codec.encode(value)
		var want := var_to_bytes_with_objects(value)
		t.check(codec.get_error() == OK and got == want,
				"encode of %s whose getter encodes: the engine's bytes" % type_string(typeof(value)),
				"%d bytes, engine %d (%s)" % [got.size(), want.size(), codec.get_error_message()])
	t.check(codec.encode("after") == var_to_bytes("after"), "an encode after those: the engine's bytes")


func offsets() -> void:
	var codec := FastVarCodec.new()
	codec.allow_trailing_bytes = true  # values one after another, read as bytes_to_var reads them
	var b := PackedByteArray([9, 9, 9])
	b.append_array(var_to_bytes("abc"))
	b.append_array(var_to_bytes(77))
	t.check(codec.decode(b, 3) == "abc" and codec.get_decoded_size() == 12, "decode at offset 3")
	t.check(codec.decode(b, 15) == 77 and codec.get_decoded_size() == 8, "decode of the second value at offset 15")
	var v = codec.decode(b, b.size())
	t.check(v == null and codec.get_error() != OK, "decode at offset == size fails")
	v = codec.decode(b, b.size() + 10)
	t.check(v == null and codec.get_error() != OK, "decode at an offset past the end fails")
	v = codec.decode(b, -1)
	t.check(v == null and codec.get_error() != OK, "decode at a negative offset fails")
	t.check(codec.decode(b, 3) == "abc", "decode works after offset errors")
	t.check(codec.decode(var_to_bytes(1.5)) == 1.5 and codec.get_decoded_size() == 8, "decode without offset argument")


## A script that extends FastVarCodec: its instances reach the codec's methods the same way.
class ScriptedCodec extends FastVarCodec:
	var calls := 0

	func encode_counted(v: Variant) -> PackedByteArray:
		calls += 1
		return encode(v)


## encode, encoded_size, decode and the three reporting methods are registered with the engine
## directly (rust/gdextension/src/direct_methods.rs): through a typed variable GDScript calls them
## by pointer (ptrcall), through an untyped one, call() and callv() by Variants (varcall). Each way
## must give the same results, fill in decode's default offset, and refuse wrong calls cleanly.
func calling_conventions() -> void:
	var typed := FastVarCodec.new()
	var untyped: Variant = FastVarCodec.new()
	var value := {"a": [1, 2.5, "x"], &"b": Vector3(1, 2, 3)}
	var bytes := var_to_bytes(value)
	var framed := PackedByteArray([7, 7])
	framed.append_array(bytes)
	t.check(typed.encode(value) == bytes, "ptrcall: encode")
	t.check(untyped.encode(value) == bytes, "varcall: encode")
	t.check(typed.call("encode", value) == bytes, "call(): encode")
	t.check(typed.callv("encode", [value]) == bytes, "callv(): encode")
	t.check(Callable(typed, "encode").call(value) == bytes, "Callable: encode")
	t.check(typed.encoded_size(value) == bytes.size() and untyped.encoded_size(value) == bytes.size(), "encoded_size both ways")
	t.check(Ctx.same(typed.decode(bytes), value), "ptrcall: decode with the default offset")
	t.check(Ctx.same(typed.decode(framed, 2), value), "ptrcall: decode at an offset")
	t.check(Ctx.same(untyped.decode(bytes), value), "varcall: decode with the default offset")
	t.check(Ctx.same(untyped.decode(framed, 2), value) and untyped.get_decoded_size() == bytes.size(), "varcall: decode at an offset, get_decoded_size")
	t.check(Ctx.same(typed.call("decode", framed, 2), value), "call(): decode at an offset")
	t.check(typed.decode(PackedByteArray([1])) == null and typed.get_error() == ERR_INVALID_DATA, "ptrcall: get_error after a failure")
	t.check(untyped.decode(PackedByteArray([1])) == null and untyped.get_error() == ERR_INVALID_DATA, "varcall: get_error after a failure")
	t.check(typeof(untyped.get_error()) == TYPE_INT and typeof(untyped.get_error_message()) == TYPE_STRING, "varcall: result types")
	t.check(untyped.get_error_message() != "" and untyped.get_decoded_size() == 0, "varcall: message and size after a failure")
	t.check(untyped.decode(bytes) != null and untyped.get_error() == OK and untyped.get_error_message() == "", "varcall: OK clears the message")
	# Arguments convert as for the engine's own methods: a float offset, an Array of bytes.
	t.check(Ctx.same(untyped.decode(framed, 2.0), value), "varcall: float offset converted to int")
	t.check(Ctx.same(untyped.decode(Array(bytes)), value), "varcall: Array converted to PackedByteArray")
	# A PackedByteArray from 256 KiB is copied out of the input by the engine, whichever way the
	# input came: by pointer, in a Variant, converted from an Array.
	var large := PackedByteArray()
	large.resize(262144 + 3)
	for i in range(0, large.size(), 37):
		large[i] = i & 0xFF
	var large_value := [large, "after"]
	var large_bytes := var_to_bytes(large_value)
	var large_framed := PackedByteArray([9, 9, 9])
	large_framed.append_array(large_bytes)
	t.check(Ctx.same(typed.decode(large_framed, 3), large_value), "ptrcall: a large PackedByteArray at an offset")
	t.check(Ctx.same(untyped.decode(large_framed, 3), large_value), "varcall: a large PackedByteArray at an offset")
	t.check(Ctx.same(untyped.decode(Array(large_bytes)), large_value)
			and untyped.get_decoded_size() == large_bytes.size(), "varcall: a large PackedByteArray from a converted Array")
	# Wrong calls: the engine reports them (not a script error) and nothing is decoded.
	t.check(typed.callv("decode", ["not bytes"]) == null, "varcall: wrong argument type refused")
	t.check(typed.callv("decode", []) == null, "varcall: too few arguments refused")
	t.check(typed.callv("decode", [bytes, 0, 1]) == null, "varcall: too many arguments refused")
	t.check(typed.callv("get_error", [1]) == null, "varcall: arguments to a method that takes none refused")
	t.check(typed.decode(bytes) != null and typed.get_error() == OK, "the codec works after refused calls")
	# How the engine sees the methods: names, parameters, defaults, return types.
	var seen := {}
	for m in ClassDB.class_get_method_list(&"FastVarCodec", true):
		seen[m.name] = m
	for name in ["encode", "encoded_size", "decode", "get_decoded_size", "get_error", "get_error_message"]:
		t.check(seen.has(name), "ClassDB lists FastVarCodec.%s" % name)
	if seen.has("decode") and seen.has("get_error") and seen.has("encode"):
		var d: Dictionary = seen["decode"]
		t.check(d.args.size() == 2 and d.args[0].name == "bytes" and d.args[0].type == TYPE_PACKED_BYTE_ARRAY and d.args[1].name == "offset" and d.args[1].type == TYPE_INT, "decode(bytes: PackedByteArray, offset: int)")
		t.check(d.default_args == [0], "decode's offset defaults to 0")
		t.check(d["return"].type == TYPE_NIL and (d["return"].usage & PROPERTY_USAGE_NIL_IS_VARIANT) != 0, "decode returns Variant")
		t.check(seen["get_error"]["return"].type == TYPE_INT and seen["get_error"]["return"]["class_name"] == &"Error", "get_error returns Error")
		t.check(seen["encode"]["return"].type == TYPE_PACKED_BYTE_ARRAY and seen["encode"].args[0].name == "value", "encode(value) -> PackedByteArray")
	# A script extending the class reaches the same state.
	var sub := ScriptedCodec.new()
	sub.dialect = FastVarCodec.DIALECT_GODOT_3
	t.check(sub.encode_counted(Vector2i(1, 2)) == PackedByteArray() and sub.get_error() == ERR_INVALID_PARAMETER and sub.calls == 1, "script subclass: settings and errors of its own codec")
	t.check(sub.encode(5) == PackedByteArray([2, 0, 0, 0, 5, 0, 0, 0]), "script subclass: encode in the Godot 3 dialect")
	# A thread remembers the codec it called last, with its options: a settings change must reach
	# the very next call, and calls alternating between two codecs must each see their own.
	var a := FastVarCodec.new()
	var b := FastVarCodec.new()
	b.dialect = FastVarCodec.DIALECT_GODOT_3
	var seen_ok := true
	for i in 6:
		seen_ok = seen_ok and a.encode(Vector2i(1, 2)) == var_to_bytes(Vector2i(1, 2))
		seen_ok = seen_ok and b.encode(Vector2i(1, 2)).is_empty() and b.get_error() == ERR_INVALID_PARAMETER
	t.check(seen_ok, "calls alternating between two codecs each see their own dialect")
	t.check(a.encode(Vector2i(1, 2)) == var_to_bytes(Vector2i(1, 2)), "before a settings change")
	a.dialect = FastVarCodec.DIALECT_GODOT_3
	t.check(a.encode(Vector2i(1, 2)).is_empty() and a.get_error() == ERR_INVALID_PARAMETER, "the call right after a settings change uses the new dialect")
	a.dialect = FastVarCodec.DIALECT_GODOT_4
	t.check(a.encode(Vector2i(1, 2)) == var_to_bytes(Vector2i(1, 2)), "and right after changing it back")
	a.max_depth = 1
	t.check(a.encode([[1]]).is_empty() and a.get_error() == ERR_OUT_OF_MEMORY, "a lowered max_depth applies to the next call")
	# Many codecs made and dropped: each call finds its own codec's settings, never a dropped one's.
	var ok := true
	for i in 200:
		var c := FastVarCodec.new()
		c.dialect = FastVarCodec.DIALECT_GODOT_3 if i % 2 == 1 else FastVarCodec.DIALECT_GODOT_4
		# Vector2(1, 2) in Godot 3 (id 5, two binary32); in Godot 4, var_to_bytes' (binary64 in a
		# double-precision engine).
		var v2 := PackedByteArray([5, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]) if i % 2 == 1 else var_to_bytes(Vector2(1, 2))
		ok = ok and c.encode(Vector2(1, 2)) == v2 and c.get_error() == OK
		# Vector2i has no Godot 3 form: refused there, encoded in Godot 4.
		var e: PackedByteArray = c.encode(Vector2i(1, 2))
		ok = ok and ((i % 2 == 0 and e == var_to_bytes(Vector2i(1, 2)) and c.get_error() == OK)
				or (i % 2 == 1 and e.is_empty() and c.get_error() == ERR_INVALID_PARAMETER))
	t.check(ok, "200 codecs made and dropped in turn: each call sees its own codec")


## Short Strings that repeat within one decode are built once and shared
## (rust/gdextension/src/string_cache.rs): results must equal the engine's in every case —
## keys and values repeating, more distinct strings than the table has slots, lengths at the
## kept limit (24 bytes) and just past it, non-ASCII and empty strings, both dialects — and a
## shared String must behave as a copy when one place is changed.
func repeated_strings() -> void:
	var recs := []
	for i in 300:
		var r := {"id": i, "name": "n%d" % (i % 7), "tag": "x".repeat(24), "long": "y".repeat(25), "": "", "é€": "ü%d" % (i % 3)}
		r["k%d" % (i % 97)] = "v%d" % (i % 89)  # more distinct short strings than slots
		recs.append(r)
	var bytes := var_to_bytes(recs)
	var c := FastVarCodec.new()
	var got = c.decode(bytes)
	t.check(c.get_error() == OK and Ctx.same(got, bytes_to_var(bytes)), "records with repeated keys and values decode as the engine's")
	if got is Array and got.size() == 300:
		got[0]["name"] += "!"
		got[7]["tag"] = "changed"
		t.check(got[0]["name"] == "n0!" and got[7]["name"] == "n0" and got[14]["name"] == "n0", "a shared String changed in one record stays the same in the others")
		t.check(got[1]["tag"] == "x".repeat(24) and got[7]["tag"] == "changed", "a shared value replaced in one record only")
	var c3 := FastVarCodec.new()
	c3.dialect = FastVarCodec.DIALECT_GODOT_3
	var b3: PackedByteArray = c3.encode(recs)
	t.check(c3.get_error() == OK and Ctx.same(c3.decode(b3), recs), "Godot 3: records with repeated strings round-trip")
	# The same bytes as a String and as a StringName stay distinct types.
	var mixed := ["ab", &"ab", "ab", &"ab", {"ab": &"ab", 1: "ab"}, {&"ab": "ab"}]
	var bm := var_to_bytes(mixed)
	t.check(Ctx.same(c.decode(bm), bytes_to_var(bm)), "String and StringName with the same bytes stay distinct")
	# One decode after another on the same thread: nothing leaks from the first into the second.
	# (More than the 8 Strings a decode builds before it uses the table.)
	var first := []
	first.resize(20)
	first.fill("same")
	var second := first.duplicate()
	second[15] = "other"
	c.decode(var_to_bytes(first))
	t.check(Ctx.same(c.decode(var_to_bytes(second)), second), "a second decode shares nothing with the first")


## Untyped Dictionaries are read in place through the engine's own iteration
## (rust/gdextension/src/fast_access.rs, untyped_entries); typed ones, and any the iteration cannot walk exactly,
## through copies of their keys and values. Both must give var_to_bytes' bytes.
func dictionary_reads() -> void:
	var c := FastVarCodec.new()
	var odd := {}
	var keys := [NAN, 0.0, Values.neg0(), [1, [2]], {"k": NAN}, Vector2(NAN, 0), &"s", "s", null, RefCounted.new(), NAN]
	for i in keys.size():
		odd[keys[i]] = i
	t.check(c.encode(odd) == var_to_bytes(odd), "keys NaN, 0.0/-0.0, containers, StringName/String, null, an object: bytes of var_to_bytes")
	var big := {}
	for i in 5000:
		big[i if i % 3 else str(i)] = {"v": i} if i % 5 == 0 else i * 0.5
	t.check(c.encode(big) == var_to_bytes(big), "5,000 entries: bytes of var_to_bytes")
	var typed: Dictionary[String, int] = {"a": 1, "b": 2}
	t.check(c.encode(typed) == var_to_bytes(typed), "typed Dictionary: bytes of var_to_bytes")
	var removed := {"a": 1, "b": 2, "c": 3}
	removed.erase("b")
	removed["d"] = 4
	t.check(c.encode(removed) == var_to_bytes(removed), "after erase and insert: the engine's order")
	t.check(c.encode({}) == var_to_bytes({}), "empty Dictionary")


## One value per datagram over loopback UDP, against the engine's own PacketPeer.put_var/get_var.
func packet_peer() -> void:
	var codec := FastVarCodec.new()
	var a := PacketPeerUDP.new()
	var b := PacketPeerUDP.new()
	t.check(b.bind(0, "127.0.0.1") == OK and a.bind(0, "127.0.0.1") == OK, "packet peers: bound on 127.0.0.1")
	a.set_dest_address("127.0.0.1", b.get_local_port())
	b.set_dest_address("127.0.0.1", a.get_local_port())
	var none = codec.get_packet_var(b)
	t.check(none == null and codec.get_error() == ERR_BUSY,
			"get_packet_var with no datagram waiting: null and ERR_BUSY", codec.get_error_message())
	var values := [42, "héllo 😀", {"k": [1, 2.5, Vector3(1, 2, 3)]}, PackedByteArray([1, 2, 3]), null]
	for i in values.size():
		var v = values[i]
		t.check(codec.put_packet_var(a, v) == OK, "put_packet_var #%d returns OK" % i, codec.get_error_message())
		t.check(_wait_packet(b), "put_packet_var #%d arrives" % i)
		t.check_bytes(b.get_packet(), var_to_bytes(v), "put_packet_var #%d: the datagram is var_to_bytes" % i)
		a.put_var(v)
		t.check(_wait_packet(b), "PacketPeer.put_var #%d arrives" % i)
		var got = codec.get_packet_var(b)
		t.check(codec.get_error() == OK, "get_packet_var #%d returns OK" % i, codec.get_error_message())
		t.check_same(got, v, "get_packet_var #%d reads PacketPeer.put_var's value" % i)
	var untyped: Variant = codec
	t.check(untyped.put_packet_var(null, 1) == ERR_INVALID_PARAMETER and codec.get_error() == ERR_INVALID_PARAMETER,
			"put_packet_var with a null peer: ERR_INVALID_PARAMETER", codec.get_error_message())
	t.check(codec.get_error_message() == "the peer is null or not a PacketPeer",
			"put_packet_var with a null peer: the message names the class", codec.get_error_message())
	t.check(untyped.get_var(b) == null and codec.get_error() == ERR_INVALID_PARAMETER,
			"get_var with a PacketPeer, not a StreamPeer: null and ERR_INVALID_PARAMETER", codec.get_error_message())
	t.check(codec.get_error_message() == "the peer is null or not a StreamPeer",
			"get_var with a PacketPeer: the message names the class", codec.get_error_message())
	var after = codec.get_packet_var(b)
	t.check(after == null and codec.get_error() == ERR_BUSY,
			"get_packet_var once every datagram is read: null and ERR_BUSY", codec.get_error_message())
	a.close()
	b.close()


## A PacketPeer that is not a PacketPeerUDP (a PacketPeerStream over a StreamPeerBuffer): its
## queue is asked for a packet count before a packet is taken, as the engine's own get_var does.
func packet_peer_stream() -> void:
	var codec := FastVarCodec.new()
	var writer := PacketPeerStream.new()
	writer.stream_peer = StreamPeerBuffer.new()
	var none = codec.get_packet_var(writer)
	t.check(none == null and codec.get_error() == ERR_BUSY,
			"PacketPeerStream: get_packet_var with no packet waiting: null and ERR_BUSY", codec.get_error_message())
	var values := [7, "héllo 😀", {"k": [1, 2.5, Vector2(1, 2)]}, PackedByteArray([4, 5])]
	for v in values:
		t.check(codec.put_packet_var(writer, v) == OK, "PacketPeerStream: put_packet_var of %s returns OK" % [v], codec.get_error_message())
		writer.put_var(v)
	# The reader reads the writer's bytes from their start.
	var reader := PacketPeerStream.new()
	var read_buffer := StreamPeerBuffer.new()
	read_buffer.data_array = (writer.stream_peer as StreamPeerBuffer).data_array
	reader.stream_peer = read_buffer
	for v in values:
		t.check_bytes(reader.get_packet(), var_to_bytes(v), "PacketPeerStream: put_packet_var of %s wrote var_to_bytes" % [v])
		var got = codec.get_packet_var(reader)
		t.check(codec.get_error() == OK, "PacketPeerStream: get_packet_var of %s returns OK" % [v], codec.get_error_message())
		t.check_same(got, v, "PacketPeerStream: get_packet_var reads PacketPeer.put_var's %s" % [v])
	t.check(codec.get_packet_var(reader) == null and codec.get_error() == ERR_BUSY,
			"PacketPeerStream: get_packet_var once every packet is read: null and ERR_BUSY", codec.get_error_message())
	var untyped: Variant = codec
	t.check(untyped.put_packet_var(writer.stream_peer, 1) == ERR_INVALID_PARAMETER,
			"put_packet_var with a StreamPeer, not a PacketPeer: ERR_INVALID_PARAMETER", codec.get_error_message())
	t.check(codec.get_error_message() == "the peer is null or not a PacketPeer",
			"put_packet_var with a StreamPeer: the message names the class", codec.get_error_message())


## Whether a datagram is waiting on `peer` within a second (loopback delivers at once).
func _wait_packet(peer: PacketPeerUDP) -> bool:
	var deadline := Time.get_ticks_msec() + 1000
	while peer.get_available_packet_count() <= 0:
		if Time.get_ticks_msec() > deadline:
			return false
		OS.delay_msec(1)
	return true


func stream_peer() -> void:
	var node := Node.new()
	var values := [null, true, 42, -2147483649, 0.1, NAN, "héllo 😀", &"sn", NodePath("/a/b:c"), Vector3(1, 2, 3),
			Color(0.1, 0.2, 0.3, 1), [1, ["x", {}]], {"k": PackedInt64Array([1, 2])}, PackedByteArray([1, 2, 3]),
			PackedStringArray(["a", "", "bc"]), Array([1, 2], TYPE_INT, &"", null), rid_from_int64(99), node,
			Values.nest_array(200), "x".repeat(5000)]
	# Large enough that get_var has the engine copy it out of the bytes it received.
	var large := PackedByteArray()
	large.resize(300007)
	for i in range(0, large.size(), 53):
		large[i] = i & 0xFF
	values.append(large)
	for big_endian in [false, true]:
		var codec := FastVarCodec.new()
		var mine := StreamPeerBuffer.new()
		var theirs := StreamPeerBuffer.new()
		mine.big_endian = big_endian
		theirs.big_endian = big_endian
		var tag := "big_endian=%s" % big_endian
		for i in values.size():
			var v = values[i]
			var before := mine.get_size()
			var err: Error = codec.put_var(mine, v)
			t.check(err == OK, "%s put_var #%d returns OK" % [tag, i], error_string(err))
			theirs.put_var(v)
			var payload := var_to_bytes(v)
			var written := mine.data_array.slice(before)
			var prefix := written.slice(0, 4)
			if big_endian:
				prefix.reverse()
			t.check(prefix.decode_u32(0) == payload.size(), "%s put_var #%d: length prefix" % [tag, i],
					"prefix %s, payload %d bytes" % [written.slice(0, 4).hex_encode(), payload.size()])
			t.check_bytes(written.slice(4), payload, "%s put_var #%d: payload is var_to_bytes (little-endian)" % [tag, i])
		t.check_bytes(mine.data_array, theirs.data_array, "%s: put_var bytes == StreamPeerBuffer.put_var" % tag)
		# get_var reads them back, as StreamPeerBuffer.get_var does
		mine.seek(0)
		theirs.seek(0)
		for i in values.size():
			var got = codec.get_var(mine)
			var exp = theirs.get_var()
			t.check_same(got, exp, "%s get_var #%d" % [tag, i])
			t.check(mine.get_position() == theirs.get_position(), "%s get_var #%d: stream position" % [tag, i],
					"%d vs %d" % [mine.get_position(), theirs.get_position()])
		# full objects through the stream
		var res := Resource.new()
		res.resource_name = "streamed"
		codec.full_objects = true
		var s1 := StreamPeerBuffer.new()
		var s2 := StreamPeerBuffer.new()
		s1.big_endian = big_endian
		s2.big_endian = big_endian
		codec.put_var(s1, res)
		s2.put_var(res, true)
		t.check_bytes(s1.data_array, s2.data_array, "%s put_var full object == StreamPeerBuffer.put_var(v, true)" % tag)
		s1.seek(0)
		var back = codec.get_var(s1)
		t.check(back == null and codec.get_error() == ERR_UNAUTHORIZED, "%s get_var of a full object without allow_objects" % tag,
				"%s / %s" % [back, error_string(codec.get_error())])
		codec.allow_objects = true
		codec.allowed_classes = PackedStringArray(["Resource"])
		s1.seek(0)
		back = codec.get_var(s1)
		t.check(back is Resource and back.resource_name == "streamed", "%s get_var of a full object with allow_objects" % tag)
		# truncated stream / failures
		var short := StreamPeerBuffer.new()
		short.big_endian = big_endian
		short.data_array = s2.data_array.slice(0, s2.data_array.size() - 3)
		var none = codec.get_var(short)
		t.check(none == null and codec.get_error() != OK, "%s get_var of a truncated stream fails" % tag)
		var empty := StreamPeerBuffer.new()
		none = codec.get_var(empty)
		t.check(none == null and codec.get_error() != OK, "%s get_var of an empty stream fails" % tag)
		var g3 := FastVarCodec.new()
		g3.dialect = FastVarCodec.DIALECT_GODOT_3
		var s3 := StreamPeerBuffer.new()
		s3.big_endian = big_endian
		var err: Error = g3.put_var(s3, Vector2i(1, 2))
		t.check(err != OK and err == g3.get_error(), "%s put_var returns the error of a failed encode" % tag, error_string(err))
		t.check(s3.get_size() == 0, "%s a failed put_var writes nothing" % tag, "%d bytes written" % s3.get_size())
		t.check(codec.get_var(s3) == null, "%s get_var after nothing was written" % tag)
	node.free()


func double_precision() -> void:
	var codec := FastVarCodec.new()
	codec.precision = FastVarCodec.PRECISION_DOUBLE
	var b: PackedByteArray = codec.encode(Vector2(1, 2))
	t.check(b.size() == 20, "double: encode(Vector2(1, 2)) is 20 bytes", "got %s" % Ctx.hex(b))
	t.check(b.size() >= 4 and b[0] == TYPE_VECTOR2 and b[2] == 1, "double: header byte 2 (64-bit flag) is 1", Ctx.hex(b))
	if b.size() == 20:
		t.check(b.decode_double(4) == 1.0 and b.decode_double(12) == 2.0, "double: components are binary64 1.0 and 2.0", Ctx.hex(b))
	t.check(codec.decode(b) == Vector2(1, 2) and codec.get_decoded_size() == 20, "double: decodes back to Vector2(1, 2)")
	t.check(bytes_to_var(b) == Vector2(1, 2), "double: the engine decodes the bytes to Vector2(1, 2)")
	var single := FastVarCodec.new()
	t.check(single.decode(b) == Vector2(1, 2), "double: a single-precision codec decodes them too")
	# Every real_t type: flagged, 8-byte components, readable by the engine.
	var vals := Values.new(99)
	var n_comp := {TYPE_VECTOR2: 2, TYPE_RECT2: 4, TYPE_VECTOR3: 3, TYPE_TRANSFORM2D: 6, TYPE_VECTOR4: 4, TYPE_PLANE: 4,
			TYPE_QUATERNION: 4, TYPE_AABB: 6, TYPE_BASIS: 9, TYPE_TRANSFORM3D: 12, TYPE_PROJECTION: 16}
	for ty in n_comp:
		for i in 4:
			var v = vals.rand_of_type(ty)
			var name := "double: %s #%d" % [type_string(ty), i]
			var enc: PackedByteArray = codec.encode(v)
			t.check(enc.size() == 4 + 8 * n_comp[ty] and enc[2] == 1, name + ": flagged, 8-byte components", Ctx.hex(enc))
			t.check(codec.encoded_size(v) == enc.size(), name + ": encoded_size")
			t.check_same(bytes_to_var(enc), v, name + ": the engine decodes it to the value")
			t.check_same(codec.decode(enc), v, name + ": decodes back")
	for pv in [PackedVector2Array([Vector2(1, 2), Vector2(0.5, -3)]), PackedVector3Array([Vector3(1, 2, 3)]),
			PackedVector4Array([Vector4(1, 2, 3, 4)])]:
		var name := "double: " + type_string(typeof(pv))
		var enc: PackedByteArray = codec.encode(pv)
		t.check(enc.size() > 2 and enc[2] == 1, name + ": flagged", Ctx.hex(enc))
		t.check_same(bytes_to_var(enc), pv, name + ": the engine decodes it")
		t.check_same(codec.decode(enc), pv, name + ": decodes back")
	# Types double precision does not change.
	for v in [Color(0.1, 0.2, 0.3, 1), PackedColorArray([Color(1, 0, 0)]), PackedFloat32Array([0.5]), Vector2i(1, 2),
			Rect2i(1, 2, 3, 4), 0.1, 0.5, 1 << 40, PackedFloat64Array([0.1]), [Vector2i(3, 4)]]:
		t.check_bytes(codec.encode(v), var_to_bytes(v), "double: %s is unchanged" % type_string(typeof(v)))
	# Nested: an Array of Vector3 in double precision.
	var arr := [Vector3(1, 2, 3), "x"]
	var enc: PackedByteArray = codec.encode(arr)
	t.check_same(bytes_to_var(enc), arr, "double: nested Vector3 readable by the engine")


func depth() -> void:
	var codec := FastVarCodec.new()
	t.check(not codec.encode(Values.nest_array(1025)).is_empty(), "max_depth 1024: 1025 nested Arrays encode (as the engine)")
	t.check(codec.encode(Values.nest_array(1026)).is_empty() and codec.get_error() == ERR_OUT_OF_MEMORY,
			"max_depth 1024: 1026 nested Arrays fail with ERR_OUT_OF_MEMORY (as the engine)", error_string(codec.get_error()))
	codec.max_depth = 8
	var ok9: bool = not codec.encode(Values.nest_array(9)).is_empty()
	var fail10: bool = codec.encode(Values.nest_array(10)).is_empty()
	t.check(ok9 and fail10, "max_depth 8: 9 nested Arrays encode, 10 do not (the engine's rule scaled down)",
			"9 arrays: %s, 10 arrays: %s" % ["ok" if ok9 else "refused", "refused" if fail10 else "ok"])
	var deep_bytes := var_to_bytes(Values.nest_array(12))
	var v = codec.decode(deep_bytes)
	t.check(v == null and codec.get_error() != OK, "max_depth 8: decoding 12 nested Arrays fails")
	codec.max_depth = 1024
	t.check_same(codec.decode(deep_bytes), Values.nest_array(12), "max_depth back to 1024: the same bytes decode")
	# Decoding at the engine's limit
	var b1025 := var_to_bytes(Values.nest_array(1025))
	t.check_same(codec.decode(b1025), bytes_to_var(b1025), "decode 1025 nested Arrays (engine accepts)")
