extends RefCounted
## The object allow-list has no way around it: every place bytes name a class or a script (full
## objects, their script, typed Array elements, typed Dictionary keys and values, at any depth)
## is judged before anything is made or loaded, and a refused decode leaves no object behind.
## Scripts under fixtures/static_init/ mark Engine when they load; none may ever be loaded here.

const Ctx := preload("res://tests/lib/ctx.gd")
const Item := preload("res://tests/fixtures/item.gd")
const MARKERS := "res://tests/fixtures/static_init/marker_%s.gd"

# Godot 4 type ids and container kinds (the engine's marshalls.cpp layout).
const T_STRING := 4
const T_OBJECT := 24
const T_DICTIONARY := 27
const T_ARRAY := 28
const KIND_CLASS := 2
const KIND_SCRIPT := 3

var t: Ctx


func run(ctx: Ctx) -> void:
	t = ctx
	scripts_are_judged_before_loading()
	unlisted_classes_are_never_made()
	refusals_leave_no_object_behind()
	t.done()


func u32(n: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(4)
	b.encode_u32(0, n)
	return b


## A String payload: length, UTF-8, zero padding to 4 bytes.
func text(s: String) -> PackedByteArray:
	var b := s.to_utf8_buffer()
	var out := u32(b.size()) + b
	while out.size() % 4 != 0:
		out.append(0)
	return out


func script_typed_array(path: String) -> PackedByteArray:
	return u32(T_ARRAY | (KIND_SCRIPT << 16)) + text(path) + u32(0)


func marker(name: String) -> String:
	return MARKERS % name


func loaded(name: String) -> bool:
	return Engine.has_meta(StringName("fvc_loaded_marker_" + name))


func object_count() -> int:
	return int(Performance.get_monitor(Performance.OBJECT_COUNT))


func refused(codec: FastVarCodec, bytes: PackedByteArray, what: String) -> void:
	var v = codec.decode(bytes)
	t.check(v == null and codec.get_error() == ERR_UNAUTHORIZED, what,
			func(): return "%s: %s (%s)" % [v, codec.get_error(), codec.get_error_message()])


## The allow-list's promise: allow_objects with ["RefCounted", "Resource"] must not load a script named
## by a typed container, a typed Dictionary key or value, or a script property, at any depth.
func scripts_are_judged_before_loading() -> void:
	var codec := FastVarCodec.new()
	codec.allow_objects = true
	codec.allowed_classes = PackedStringArray(["RefCounted", "Resource"])
	refused(codec, script_typed_array(marker("array_element")), "a script-typed Array names an unlisted script")
	t.check(not loaded("array_element"), "the Array's element script was not loaded")
	var key_typed := u32(T_DICTIONARY | (KIND_SCRIPT << 16)) + text(marker("dict_key")) + u32(0)
	refused(codec, key_typed, "a script-typed Dictionary key names an unlisted script")
	t.check(not loaded("dict_key"), "the Dictionary's key script was not loaded")
	var value_typed := u32(T_DICTIONARY | (KIND_SCRIPT << 18)) + text(marker("dict_value")) + u32(0)
	refused(codec, value_typed, "a script-typed Dictionary value names an unlisted script")
	t.check(not loaded("dict_value"), "the Dictionary's value script was not loaded")
	# [ {"k": Array[marker]} ]: the same, three levels down.
	var nested := u32(T_ARRAY) + u32(1) + u32(T_DICTIONARY) + u32(1) \
			+ u32(T_STRING) + text("k") + script_typed_array(marker("nested"))
	refused(codec, nested, "a script-typed Array nested in a Dictionary in an Array")
	t.check(not loaded("nested"), "the nested Array's script was not loaded")
	# A Resource (listed) whose script property names an unlisted script.
	var scripted := u32(T_OBJECT) + text("Resource") + u32(1) + text("script") \
			+ u32(T_STRING) + text(marker("object_script"))
	refused(codec, scripted, "a listed class carrying an unlisted script")
	t.check(not loaded("object_script"), "the object's script was not loaded")
	# The engine's own bytes_to_var_with_objects loads such a script; FastVarCodec without a list
	# does what the engine does, so the list is what makes untrusted bytes safe (README).
	var class_typed := u32(T_ARRAY | (KIND_CLASS << 16)) + text("Node") + u32(0)
	refused(codec, class_typed, "an Array typed with an unlisted class")
	codec.allowed_classes = PackedStringArray(["Node"])
	var typed = codec.decode(class_typed)
	t.check(typed is Array and typed.get_typed_class_name() == &"Node", "an Array typed with a listed class decodes",
			func(): return codec.get_error_message())


## With a script on the list, an unlisted native class (with or without that script) is refused
## before it is instantiated: no setter runs, the object count does not move.
func unlisted_classes_are_never_made() -> void:
	var codec := FastVarCodec.new()
	codec.allow_objects = true
	codec.allowed_classes = PackedStringArray([Item.resource_path])
	var timer := Timer.new()
	timer.wait_time = 7.0
	var timer_bytes := var_to_bytes_with_objects(timer)
	timer.free()
	var node := Node.new()
	node.name = &"n"
	var node_bytes := var_to_bytes_with_objects(node)
	node.free()
	# A Node claiming the listed script: the script extends Resource, so a Node may not carry it.
	var node_with_script := u32(T_OBJECT) + text("Node") + u32(2) + text("name") + u32(T_STRING) + text("x") \
			+ text("script") + u32(T_STRING) + text(Item.resource_path)
	var before := object_count()
	refused(codec, timer_bytes, "an unlisted Timer is refused")
	refused(codec, node_bytes, "an unlisted Node is refused")
	refused(codec, node_with_script, "a Node carrying a listed Resource script is refused")
	var all_refused := 0
	for i in 50:
		for bytes in [timer_bytes, node_bytes, node_with_script]:
			if codec.decode(bytes) == null and codec.get_error() == ERR_UNAUTHORIZED:
				all_refused += 1
	t.check(all_refused == 150, "150 more decodes refused", "%d" % all_refused)
	t.check(object_count() == before, "153 refused decodes made no object", "%d -> %d" % [before, object_count()])
	var item := Item.new()
	item.title = "sword"
	var ok = codec.decode(var_to_bytes_with_objects(item))
	t.check(ok is Resource and ok.get_script() == Item and ok.title == "sword", "the listed script's own objects decode",
			func(): return codec.get_error_message())


## A decode refused or failing part-way frees what it had made (Nodes are not reference-counted).
func refusals_leave_no_object_behind() -> void:
	var codec := FastVarCodec.new()
	codec.allow_objects = true
	codec.allowed_classes = PackedStringArray(["Node"])
	var a := Node.new()
	var b := Timer.new()
	var bytes := var_to_bytes_with_objects([a, {"deep": [a]}, b])
	var good := var_to_bytes_with_objects([a, a])
	a.free()
	b.free()
	var before := object_count()
	refused(codec, bytes, "an unlisted Timer after two allowed Nodes")
	t.check(object_count() == before, "the refused decode freed the Nodes it had made", "%d -> %d" % [before, object_count()])
	var cut := good.slice(0, good.size() - 3)
	var v = codec.decode(cut)
	t.check(v == null and codec.get_error() != OK, "a truncated Array of Nodes fails")
	t.check(object_count() == before, "the failed decode freed the Nodes it had made", "%d -> %d" % [before, object_count()])
	var whole = codec.decode(good)
	t.check(whole is Array and whole.size() == 2 and whole[0] is Node, "a whole Array of listed Nodes decodes")
	if whole is Array:
		for n in whole:
			if n is Node:
				n.free()
	t.check(object_count() == before, "nothing else was left behind", "%d -> %d" % [before, object_count()])
