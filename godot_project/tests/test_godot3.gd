extends RefCounted
## DIALECT_GODOT_3 against the golden corpora written by real Godot 3.6.2 and 3.2.3 engines
## (res://golden/godot3_*.json): decoding the engine's bytes gives the engine's decoded value,
## encoding the described value gives the engine's bytes, and malformed input gets the engine's
## verdict and Error code. Plus the allow_lossy rules for Godot 4-only values.

const Ctx := preload("res://tests/lib/ctx.gd")
const Desc := preload("res://tests/lib/desc.gd")

const CORPORA := {"3.6.2": "res://golden/godot3_6_2.json", "3.2.3": "res://golden/godot3_2_3.json"}

var t: Ctx
var codec
var noted := {}


func run(ctx: Ctx) -> void:
	t = ctx
	codec = FastVarCodec.new()
	# Engine parity: admits every class, as bytes_to_var_with_objects does (trusted test data).
	codec.allowed_classes = PackedStringArray(["*"])
	# and reads a value followed by other bytes, as bytes_to_var does.
	codec.allow_trailing_bytes = true
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	for tag in CORPORA:
		var corpus := Desc.load_corpus(CORPORA[tag])
		if not t.check(corpus.error == "" and corpus.cases.size() >= 200 and corpus.malformed.size() >= 1000,
				"%s corpus loads" % tag, corpus.error):
			continue
		t.check(corpus.header.get("dialect") == "godot3", "%s corpus is a Godot 3 corpus" % tag)
		for c in corpus.cases:
			check_case(tag, c)
		for m in corpus.malformed:
			check_malformed(tag, m)
	lossy()
	t.done()


## Where the codec knowingly keeps the behaviour of later 3.x engines.
static func known_divergence(tag: String, name: String) -> String:
	if tag == "3.2.3" and (name.begins_with("deep/") or name.begins_with("craft/depth/")) \
			and (name.contains("1025") or name.contains("1026")):
		return "3.2.3 has no depth limit (added in 3.3.5/3.4); the codec keeps 1024"
	return ""


func check_case(tag: String, c: Dictionary) -> void:
	var name := "%s/%s" % [tag, c.name]
	if known_divergence(tag, c.name) != "":
		t.skip("known divergence (3.2.3 depth limit)")
		return
	var full: bool = c.full_objects
	codec.full_objects = full
	codec.allow_objects = full
	var bytes: PackedByteArray = String(c.bytes).hex_decode()

	# Decode the engine's bytes.
	var dd := Desc.new()
	var expected = dd.rebuild(c.decoded) if not bytes.is_empty() else null
	if bytes.is_empty():
		pass
	elif dd.missing_class != "":
		t.skip("decode: full object of a class Godot 4 lacks (%s)" % dd.missing_class)
		var v = codec.decode(bytes)
		if not noted.has(dd.missing_class):
			noted[dd.missing_class] = true
			t.note("a Godot 3 full %s decodes to %s (%s: %s)" % [dd.missing_class, Ctx.show(v), error_string(codec.get_error()),
					codec.get_error_message()])
		Ctx.dispose(v)
	else:
		var v = codec.decode(bytes)
		t.check(codec.get_error() == OK, name + ": decode succeeds",
				func(): return "%s: %s" % [error_string(codec.get_error()), codec.get_error_message()])
		t.check_same(v, expected, name + ": decode == the engine's decoded value")
		t.check(codec.get_decoded_size() == bytes.size(), name + ": get_decoded_size",
				"got %d, expected %d" % [codec.get_decoded_size(), bytes.size()])
		Ctx.dispose(v)
	Ctx.dispose(expected)

	# Encode the described value.
	var dv := Desc.new()
	var value = dv.rebuild(c.value)
	if bytes.is_empty():
		# The engine refused to encode it (depth): so must the codec.
		var got: PackedByteArray = codec.encode(value)
		t.check(got.is_empty() and codec.get_error() != OK, name + ": encode refused as by the engine",
				"wrote %d bytes" % got.size())
		t.check(codec.encoded_size(value) == -1, name + ": encoded_size -1 as the engine refuses it")
	elif dv.inexact:
		t.skip("encode: text a Godot 4 String cannot hold (surrogates, > U+10FFFF)")
	elif dv.has_object_id:
		t.skip("encode: live objects of the Godot 3 engine (ids)")
	elif dv.has_full_object:
		t.skip("encode: full objects (Godot 3 classes and property lists)")
	elif dv.has_node_path:
		# Godot 3 leaks heap bytes into NodePath padding: compare the size, and that our bytes
		# decode to what the engine's decode to.
		t.skip("encode: NodePath padding (compared by size and round trip only)")
		var got: PackedByteArray = codec.encode(value)
		t.check(got.size() == bytes.size(), name + ": encode size (NodePath)", "got %s, engine %s" % [Ctx.hex(got), Ctx.hex(bytes)])
		var back = codec.decode(got)
		t.check_same(back, Desc.new().rebuild(c.decoded), name + ": our bytes decode to the engine's decoded value")
	else:
		var got: PackedByteArray = codec.encode(value)
		t.check_bytes(got, bytes, name + ": encode == the engine's bytes")
		var size: int = codec.encoded_size(value)
		t.check(size == bytes.size(), name + ": encoded_size", "got %d, expected %d" % [size, bytes.size()])
	Ctx.dispose(value)


func check_malformed(tag: String, m: Dictionary) -> void:
	var name := "%s/malformed/%s" % [tag, m.name]
	if m.allow_objects:
		t.skip("malformed: allow_objects (Godot 3 classes)")
		return
	if known_divergence(tag, m.name) != "":
		t.skip("known divergence (3.2.3 depth limit)")
		return
	var bytes: PackedByteArray = String(m.bytes).hex_decode()
	codec.allow_objects = false
	var v = codec.decode(bytes)
	var ok: bool = codec.get_error() == OK
	if not t.check(ok == bool(m.ok), name + ": same verdict as Godot " + tag,
			func(): return "engine %s, codec %s (%s: %s); bytes %s" % ["accepts" if m.ok else "rejects (%s)" % error_string(int(m.error)),
				"accepts" if ok else "rejects", error_string(codec.get_error()), codec.get_error_message(), Ctx.hex(bytes)]):
		return
	if ok:
		var d := Desc.new()
		var expected = d.rebuild(m.decoded)
		# An object sent as id 0 decodes to a null Object (an OBJECT-typed Variant) in Godot 3
		# and Godot 4 alike; the description, made with Godot 3's describe(), says only "nil".
		if m.decoded.t == "nil" and bytes.size() >= 4 and bytes[0] == 17:
			expected = bytes_to_var(PackedByteArray([24, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
		t.check_same(v, expected, name + ": decode == the engine's decoded value")
	else:
		var err: int = codec.get_error()
		t.check(err == int(m.error), name + ": the engine's Error code",
				func(): return "codec %s (%s), engine %s; bytes %s" % [error_string(err), codec.get_error_message(),
					error_string(int(m.error)), Ctx.hex(bytes)])
		t.check(v == null, name + ": null on failure")


## Godot 4-only values in the Godot 3 dialect: refused unless allow_lossy.
func lossy() -> void:
	var g3 := FastVarCodec.new()
	g3.dialect = FastVarCodec.DIALECT_GODOT_3
	var no_counterpart := {
		"Vector2i": Vector2i(1, 2), "Vector3i": Vector3i(1, 2, 3), "Rect2i": Rect2i(1, 2, 3, 4),
		"Vector4": Vector4(1, 2, 3, 4), "Vector4i": Vector4i(1, 2, 3, 4), "Projection": Projection.IDENTITY,
		"PackedVector4Array": PackedVector4Array([Vector4(1, 2, 3, 4)]),
		"Vector2i in an Array": [1, Vector2i(1, 2)],
		"Vector2i as a Dictionary value": {"k": [0, {"deep": Vector2i(3, 4)}]},
		"Vector2i as a Dictionary key": {Vector2i(3, 4): 1},
	}
	for k in no_counterpart:
		var v = no_counterpart[k]
		g3.allow_lossy = false
		var b: PackedByteArray = g3.encode(v)
		t.check(b.is_empty() and g3.get_error() != OK, "lossy: %s fails in Godot 3 without allow_lossy" % k,
				"wrote %s" % Ctx.hex(b))
		t.check(g3.get_error_message() != "", "lossy: %s sets get_error_message()" % k)
		t.check(g3.encoded_size(v) == -1, "lossy: encoded_size of %s is -1 without allow_lossy" % k)
		if k == "Vector2i as a Dictionary value":
			t.note("message for a nested Vector2i: " + g3.get_error_message())
		g3.allow_lossy = true
		b = g3.encode(v)
		t.check(not b.is_empty() and g3.get_error() == OK, "lossy: %s encodes with allow_lossy" % k,
				func(): return "%s: %s" % [error_string(g3.get_error()), g3.get_error_message()])
		t.check(g3.encoded_size(v) == b.size(), "lossy: encoded_size of %s with allow_lossy" % k)
		var back = g3.decode(b)
		t.check(g3.get_error() == OK and g3.get_decoded_size() == b.size(), "lossy: %s gives a valid Godot 3 encoding" % k,
				func(): return "%s: %s; bytes %s" % [error_string(g3.get_error()), g3.get_error_message(), Ctx.hex(b)])
	# Values Godot 3 has in some form must still round-trip through the dialect.
	g3.allow_lossy = false
	for v in [null, true, -7, 1 << 40, 0.1, "é😀", Vector2(1, 2), Rect2(1, 2, 3, 4), Vector3(1, 2, 3),
			Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)), Plane(1, 2, 3, 4), Quaternion(1, 2, 3, 4),
			AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
			Transform3D(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12)),
			Color(0.1, 0.2, 0.3, 1), {"a": [1, 2.5, "x"]}, PackedByteArray([1, 2, 3]), PackedInt32Array([1, -1]),
			PackedFloat32Array([0.5]), PackedStringArray(["a", ""]), PackedVector2Array([Vector2(1, 2)]),
			PackedVector3Array([Vector3(1, 2, 3)]), PackedColorArray([Color(1, 0, 0)])]:
		var b: PackedByteArray = g3.encode(v)
		var what := "godot3 round trip: %s" % type_string(typeof(v))
		t.check(not b.is_empty(), what + " encodes", func(): return "%s: %s" % [error_string(g3.get_error()), g3.get_error_message()])
		t.check_same(g3.decode(b), v, what + " decodes back")
	# The Godot 3 type ids differ from Godot 4's from 5 on: same payloads, other headers.
	var g4 := FastVarCodec.new()
	for pair in [[{"a": 1}, 18], [[1], 19], [Color(1, 0, 0), 14], [PackedByteArray([1]), 20], [NodePath("a"), 15]]:
		var b3: PackedByteArray = g3.encode(pair[0])
		t.check(b3.size() > 0 and b3[0] == pair[1], "godot3 type id of %s is %d" % [type_string(typeof(pair[0])), pair[1]],
				Ctx.hex(b3))
		t.check_bytes(b3.slice(4), g4.encode(pair[0]).slice(4), "godot3 payload of %s is the Godot 4 payload" % type_string(typeof(pair[0])))
