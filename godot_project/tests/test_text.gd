extends RefCounted
## FastVarCodec.str_to_var against the engine's own str_to_var: the same values from the
## engine's var_to_str texts, the errors of text that is not Godot's, and a text carrying a
## script, which the engine's reader loads (running its code) and FastVarCodec's refuses.

const Ctx := preload("res://tests/lib/ctx.gd")
const MARKER := "res://tests/fixtures/static_init/marker_text.gd"

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	reads_what_the_engine_writes()
	text_that_is_not_godots()
	a_script_runs_in_the_engine_and_not_here()
	t.done()


func values() -> Array:
	var typed: Array[int] = [1, 2, 3]
	var typed_dict: Dictionary[String, Vector2] = {"a": Vector2(1, 2)}
	return [
		null, true, false, 0, -7, 9223372036854775807, 0.5, -1.25e-7, 1e300, "text",
		"quote \" and \\ and\nnewline", &"name", NodePath("a/b:c"), Vector2(1, 2.5),
		Vector2i(3, -4), Rect2(1, 2, 3, 4), Rect2i(1, 2, 3, 4), Vector3(1, 2, 3),
		Vector3i(1, 2, 3), Vector4(1, 2, 3, 4), Vector4i(1, 2, 3, 4),
		Transform2D(0.5, Vector2(1, 2)), Plane(0, 1, 0, 2), Quaternion(0, 0, 0, 1),
		AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), Basis.IDENTITY, Transform3D.IDENTITY,
		Projection.IDENTITY, Color(1, 0.5, 0.25, 1), PackedByteArray([1, 2, 255]),
		PackedInt32Array([1, -2]), PackedInt64Array([1, -2]), PackedFloat32Array([0.5, 2]),
		PackedFloat64Array([0.1, 2]), PackedStringArray(["a", "b"]),
		PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(1, 0, 0)]), PackedVector4Array([Vector4(1, 2, 3, 4)]),
		[1, "a", [2, {"k": Vector2(1, 2)}]], {"hp": 10, "pos": Vector2(1, 0.5), 3: [true]},
		typed, typed_dict,
	]


## Each value's engine text reads as the engine's own str_to_var reads it: same type, same value.
func reads_what_the_engine_writes() -> void:
	var c := FastVarCodec.new()
	for v in values():
		var text := var_to_str(v)
		var ours = c.str_to_var(text)
		var engines = str_to_var(text)
		t.check(c.get_error() == OK and typeof(ours) == typeof(engines) and ours == engines,
				"str_to_var(%s) as the engine reads it" % text.replace("\n", " "),
				func(): return "%s: %s (engine: %s)" % [error_string(c.get_error()), var_to_str(ours), var_to_str(engines)])
		if v is Array and v.is_typed():
			t.check(ours.get_typed_builtin() == v.get_typed_builtin(), "and the Array keeps its type")


## Text that is not Godot's: null and ERR_PARSE_ERROR naming the line; the limits apply.
func text_that_is_not_godots() -> void:
	var c := FastVarCodec.new()
	var v = c.str_to_var("{\n\"hp\": 10,\n\"pos\": Vector2(1, }")
	t.check(v == null and c.get_error() == ERR_PARSE_ERROR and c.get_error_message().contains("line 3"),
			"a broken text: null, ERR_PARSE_ERROR with its line", c.get_error_message())
	c.max_depth = 4
	v = c.str_to_var("[[[[[[1]]]]]]")
	t.check(v == null and c.get_error() != OK, "nesting past max_depth is refused", c.get_error_message())
	v = c.str_to_var("[1]")
	t.check(v == [1] and c.get_error() == OK, "and a good text after it reads", c.get_error_message())


## The same text twice: FastVarCodec refuses it and loads nothing; the engine's str_to_var
## then loads the script, whose static initializer runs (the code a downloaded save would run).
func a_script_runs_in_the_engine_and_not_here() -> void:
	var text := "Object(Resource,\"script\":Resource(\"%s\"))" % MARKER
	var c := FastVarCodec.new()
	c.allow_objects = true
	c.allowed_classes = PackedStringArray(["*"])
	var v = c.str_to_var(text)
	t.check(v == null and c.get_error() == ERR_UNAUTHORIZED, "FastVarCodec refuses an object in text, whatever allow_objects says",
			func(): return "%s %s" % [v, c.get_error_message()])
	t.check(not Engine.has_meta(&"fvc_loaded_marker_text"), "and its script was never loaded")
	var engines = str_to_var(text)
	t.check(Engine.has_meta(&"fvc_loaded_marker_text"), "the engine's own str_to_var loads the script and runs its code",
			func(): return "engine gave %s" % [engines])
