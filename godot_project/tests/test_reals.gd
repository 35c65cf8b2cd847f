extends RefCounted
## NaN bits in real_t components: every component of every math type and packed vector array
## holding a signalling or quiet NaN (tests/golden/reals_*.json, written by real engines).
##
## Godot 4 dialect: FastVarCodec's decode must hold exactly the Variant this engine's own
## bytes_to_var makes (compared by the engine's var_to_bytes, so NaN bits count), and encode it
## to the engine's bytes; the corpus of this engine's kind (single or double precision) must be
## what the live engine does.
##
## Godot 3 dialect: the decoded Variant must be what this engine makes of the same binary32
## components (the Godot 3 bytes with Godot 4's type id, decoded by the live engine), and in a
## single-precision engine, which holds them unchanged, it must encode to Godot 3.6.2's and
## 3.2.3's own re-encoding. (A double-precision engine widens them as its C++ does, quieting a
## signalling NaN; no Godot 3 engine holds that value, so those bytes have no engine to match.)

const Ctx := preload("res://tests/lib/ctx.gd")
const Desc := preload("res://tests/lib/desc.gd")

## Godot 3's type ids of its real_t types and pool vector arrays, and Godot 4's for the same
## layout.
const GODOT4_TYPE_OF_GODOT3 := {5: 5, 6: 7, 7: 9, 8: 11, 9: 14, 10: 15, 11: 16, 12: 17, 13: 18,
		24: 35, 25: 36}

var t: Ctx
var double := OS.has_feature("double")


func run(ctx: Ctx) -> void:
	t = ctx
	godot4("res://golden/reals_godot4_6_3_double.json" if double else "res://golden/reals_godot4_6_3.json")
	for path in ["res://golden/reals_godot3_6_2.json", "res://golden/reals_godot3_2_3.json"]:
		godot3(path)
	t.done()


func load_cases(path: String) -> Array:
	var corpus := Desc.load_corpus(path)
	t.check(corpus.error == "" and corpus.cases.size() >= 300, "%s loads" % path, corpus.error)
	return corpus.cases


func godot4(path: String) -> void:
	var codec := FastVarCodec.new()
	var in_array := FastVarCodec.new()
	for c in load_cases(path):
		var input: PackedByteArray = String(c.bytes).hex_decode()
		var name := "godot4 %s" % c.name
		var engine_value = bytes_to_var(input)
		var engine := var_to_bytes(engine_value)
		t.check_bytes(engine, String(c.reencoded).hex_decode(), name + ": the corpus is what this engine does")
		var v = codec.decode(input)
		t.check(codec.get_error() == OK and codec.get_decoded_size() == input.size(), name + ": decodes whole",
				codec.get_error_message())
		t.check_bytes(var_to_bytes(v), engine, name + ": the engine's Variant, to the bit")
		t.check_bytes(codec.encode(v), engine, name + ": encodes to the engine's bytes")
		# The same value as an Array element (the container path of the builder).
		var wrapped := var_to_bytes([0]).slice(0, 8)
		wrapped.append_array(input)
		t.check_bytes(var_to_bytes(in_array.decode(wrapped)), var_to_bytes(bytes_to_var(wrapped)),
				name + ": inside an Array too")


func godot3(path: String) -> void:
	var codec := FastVarCodec.new()
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	for c in load_cases(path):
		var input: PackedByteArray = String(c.bytes).hex_decode()
		var name := "godot3 %s %s" % [path.get_file().get_basename(), c.name]
		var as_godot4 := input.duplicate()
		as_godot4.encode_u32(0, GODOT4_TYPE_OF_GODOT3[input.decode_u32(0)])
		var engine_value = bytes_to_var(as_godot4)
		var v = codec.decode(input)
		t.check(codec.get_error() == OK and codec.get_decoded_size() == input.size(), name + ": decodes whole",
				codec.get_error_message())
		t.check_bytes(var_to_bytes(v), var_to_bytes(engine_value), name + ": this engine's Variant of those components")
		if double:
			t.check_bytes(codec.encode(v), codec.encode(engine_value), name + ": encodes as this engine's value")
		else:
			t.check_bytes(codec.encode(v), String(c.reencoded).hex_decode(), name + ": encodes to the Godot 3 engine's bytes")
