extends SceneTree
## Makes the API description for FastVarCodec's double-precision library, run INSIDE the
## double-precision engine (tests/build_addon.sh --double):
##   godot-double --headless --path tests/double_api -s res://trim_api.gd -- IN.json OUT.json
## IN is the single-precision Godot 4.6.3 editor's `--dump-extension-api` (export templates, the
## only double-precision build here, cannot dump their own). gdext binds every class method it
## knows at startup and stops at the first one the engine does not have under that hash, so OUT
## keeps only what this engine binds the same way:
##   * classes this engine lacks (a template built with fewer modules, and no editor, lacks some)
##     stay, as other methods and gdext itself name them, but without methods;
##   * methods this engine has, except those whose hash changes with precision: Godot hashes
##     default argument values, and a Vector2/Rect2/... default holds real_t; arguments or results
##     that are PackedFloat32Array in a single-precision engine may be PackedFloat64Array here.
## Builtin types' sizes and offsets need nothing: the file lists every configuration (double_64
## included). Every number in the file is an integer: they are written back as integers.

const REAL_TYPES := ["Vector2", "Vector3", "Vector4", "Rect2", "Transform2D", "Plane", "Quaternion",
		"AABB", "Basis", "Transform3D", "Projection"]

var dropped_classes := 0
var dropped_methods := 0


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	if args.size() != 2:
		printerr("usage: -- IN.json OUT.json")
		quit(2)
		return
	var api = JSON.parse_string(FileAccess.get_file_as_string(args[0]))
	if not api is Dictionary or not api.has("classes"):
		printerr("trim_api.gd: cannot read an API description from %s" % args[0])
		quit(1)
		return
	var classes: Array = []
	for c in api["classes"]:
		if not ClassDB.class_exists(c["name"]):
			dropped_classes += 1
			if c.has("methods"):
				dropped_methods += c["methods"].size()
				c["methods"] = []
		elif c.has("methods"):
			var kept: Array = []
			for m in c["methods"]:
				if m.get("is_virtual", false) or binds_alike(c["name"], m):
					kept.append(m)
				else:
					dropped_methods += 1
			c["methods"] = kept
		classes.append(c)
	api["classes"] = classes
	api["header"]["precision"] = "double"
	var out := PackedStringArray()
	write_json(api, out)
	var f := FileAccess.open(args[1], FileAccess.WRITE)
	if f == null:
		printerr("trim_api.gd: cannot write %s" % args[1])
		quit(1)
		return
	f.store_string("".join(out))
	f.close()
	print("trim_api.gd: %d classes, %d of them emptied (this engine lacks them), %d methods dropped" % [
			classes.size(), dropped_classes, dropped_methods])
	quit(0)


## Whether this engine has the method under the hash the single-precision description gives.
func binds_alike(class_name_: String, m: Dictionary) -> bool:
	if not ClassDB.class_has_method(class_name_, m["name"], true):
		return false
	var types: Array = []
	if m.has("return_value"):
		types.append(m["return_value"]["type"])
	for a in m.get("arguments", []):
		types.append(a["type"])
		if a.has("default_value") and a["type"] in REAL_TYPES:
			return false
	return not ("PackedFloat32Array" in types or "PackedFloat64Array" in types)


## JSON with every number as an integer (JSON.parse_string made them floats; all were integers).
func write_json(v, out: PackedStringArray) -> void:
	match typeof(v):
		TYPE_DICTIONARY:
			out.append("{")
			var first := true
			for k in v:
				if not first:
					out.append(",")
				first = false
				out.append(JSON.stringify(String(k)))
				out.append(":")
				write_json(v[k], out)
			out.append("}")
		TYPE_ARRAY:
			out.append("[")
			for i in v.size():
				if i > 0:
					out.append(",")
				write_json(v[i], out)
			out.append("]")
		TYPE_FLOAT:
			out.append("%d" % int(v))
		TYPE_INT:
			out.append("%d" % v)
		TYPE_STRING, TYPE_STRING_NAME:
			out.append(JSON.stringify(String(v)))
		TYPE_BOOL:
			out.append("true" if v else "false")
		_:
			out.append("null")
