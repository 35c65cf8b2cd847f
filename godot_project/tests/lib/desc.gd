extends RefCounted
## Reads the golden corpora (res://golden/*.json, format in tests/golden/FORMAT.md) and rebuilds
## Variants from their Desc descriptions: rebuild() is the inverse of the generators' describe().

## Set by rebuild() when the value could not be rebuilt exactly: a text with code points a Godot 4
## String cannot hold (Godot 3 lets surrogates and 5/6-byte forms through; they become U+FFFD, the
## codec's documented decoding), or a NodePath whose parts do not survive NodePath parsing.
var inexact := false
var has_node_path := false
## An "object_id" Desc: a live object of the engine that wrote the corpus (cannot be re-created).
var has_object_id := false
## A full "object" Desc.
var has_full_object := false
## A full object whose class this engine cannot instantiate ("" if none).
var missing_class := ""


func reset() -> void:
	inexact = false
	has_node_path = false
	has_object_id = false
	has_full_object = false
	missing_class = ""


# ------------------------------------------------------------------ corpus reading

## The corpus as {"header": {...}, "cases": [...], "malformed": [...]}: one JSON item per line;
## lines too deep for Godot's JSON parser (1024 levels) go through parse_deep().
static func load_corpus(path: String) -> Dictionary:
	var out := {"header": {}, "cases": [], "malformed": [], "error": ""}
	var f := FileAccess.open(path, FileAccess.READ)
	if f == null:
		out.error = "cannot open %s: %s" % [path, error_string(FileAccess.get_open_error())]
		return out
	var section := ""
	var json := JSON.new()
	while not f.eof_reached():
		var line := f.get_line().strip_edges()
		if line.begins_with("\"cases\""):
			section = "cases"
			continue
		if line.begins_with("\"malformed\""):
			section = "malformed"
			continue
		if section == "" and line.begins_with("\""):
			# header fields: "key": value,
			var j := JSON.new()
			if j.parse("{" + line.trim_suffix(",") + "}") == OK:
				out.header.merge(j.data)
			continue
		if not line.begins_with("{") or section == "":
			continue
		line = line.trim_suffix(",")
		var item
		if json.parse(line) == OK:
			item = json.data
		else:
			item = parse_deep(line)
		if item is Dictionary:
			out[section].append(item)
		else:
			out.error = "unparsable line in %s section of %s" % [section, path]
	return out


## A minimal iterative JSON parser for the corpus' deeply nested lines (no recursion, no depth
## limit). Handles objects, arrays, strings (with simple escapes), numbers, true/false/null.
static func parse_deep(s: String):
	var stack: Array = []
	var keys: Array = []  # pending key per open Dictionary (null: a key is expected next)
	var root = null
	var i := 0
	var n := s.length()
	while i < n:
		var c := s.unicode_at(i)
		var value = null
		var have := false
		if c == 123:  # {
			stack.append({})
			keys.append(null)
			i += 1
			continue
		elif c == 91:  # [
			stack.append([])
			keys.append(null)
			i += 1
			continue
		elif c == 125 or c == 93:  # } ]
			value = stack.pop_back()
			keys.pop_back()
			have = true
			i += 1
		elif c == 34:  # "
			var j := i + 1
			var buf := ""
			while true:
				var q := s.find("\"", j)
				var bs := s.find("\\", j)
				if q < 0:
					return null
				if bs >= 0 and bs < q:
					buf += s.substr(j, bs - j)
					var e := s[bs + 1]
					match e:
						"n": buf += "\n"
						"t": buf += "\t"
						"r": buf += "\r"
						"b": buf += char(8)
						"f": buf += char(12)
						"u":
							buf += char(s.substr(bs + 2, 4).hex_to_int())
							j = bs + 6
							continue
						_: buf += e
					j = bs + 2
					continue
				buf += s.substr(j, q - j)
				i = q + 1
				break
			value = buf
			have = true
		elif c == 116:  # true
			value = true
			have = true
			i += 4
		elif c == 102:  # false
			value = false
			have = true
			i += 5
		elif c == 110:  # null
			value = null
			have = true
			i += 4
		elif c == 45 or (c >= 48 and c <= 57):
			var j := i
			while j < n and "-+.eE0123456789".contains(s[j]):
				j += 1
			value = s.substr(i, j - i).to_float()
			have = true
			i = j
		else:
			i += 1  # whitespace , :
			continue
		if have:
			if stack.is_empty():
				root = value
			else:
				var top = stack.back()
				if top is Array:
					top.append(value)
				elif keys.back() == null:
					keys[keys.size() - 1] = value
				else:
					top[keys.back()] = value
					keys[keys.size() - 1] = null
	return root


# ------------------------------------------------------------------ scalars

static func f64(h: String) -> float:
	return h.hex_decode().decode_double(0)


## int64 from a decimal string (values above 2^63 - 1 are u64 ids: wrapped to their bits).
static func i64(v) -> int:
	if typeof(v) != TYPE_STRING:
		return int(v)
	var s: String = v
	var neg := s.begins_with("-")
	if neg:
		s = s.substr(1)
	var r := 0
	for ch in s:
		r = r * 10 + (ch.unicode_at(0) - 48)  # wraps like u64 arithmetic
	return -r if neg else r


## Text from the hex of its (generalized) UTF-8. A leading BOM is kept (the Desc is exact).
## Code points no Godot 4 String can hold become U+FFFD and mark the value inexact.
func text(h: String) -> String:
	var b := h.hex_decode()
	if b.is_empty():
		return ""
	var fast := b.get_string_from_utf8()
	if fast.to_utf8_buffer() == b:
		return fast
	var parts := PackedStringArray()
	var i := 0
	while i < b.size():
		var lead := b[i]
		var l := 1
		if lead >= 0xFC: l = 6
		elif lead >= 0xF8: l = 5
		elif lead >= 0xF0: l = 4
		elif lead >= 0xE0: l = 3
		elif lead >= 0xC0: l = 2
		var cp := lead if l == 1 else lead & (0xFF >> (l + 1))
		for k in range(1, l):
			if i + k < b.size():
				cp = (cp << 6) | (b[i + k] & 0x3F)
		i += l
		if cp == 0:
			inexact = true  # a Godot 4 String cannot hold NUL
			continue
		if (cp >= 0xD800 and cp <= 0xDFFF) or cp > 0x10FFFF:
			inexact = true
			cp = 0xFFFD
		parts.append(char(cp))
	return "".join(parts)


func reals(d: Dictionary) -> Array:
	var out := []
	for h in d.v:
		out.append(f64(h))
	return out


static func ints(d: Dictionary) -> Array:
	var out := []
	for x in d.v:
		out.append(int(x))
	return out


# ------------------------------------------------------------------ rebuild

func typed_args(t) -> Array:
	# [builtin type, class name, script] as the Array/Dictionary constructors take them.
	if t == null:
		return [TYPE_NIL, &"", null]
	match t.kind:
		"builtin":
			return [int(t.type), &"", null]
		"class":
			return [TYPE_OBJECT, StringName(text(t.name)), null]
		"script":
			var sc = load(text(t.path))
			var base: StringName = sc.get_instance_base_type() if sc != null else &"Object"
			return [TYPE_OBJECT, base, sc]
	return [TYPE_NIL, &"", null]


func rebuild(d):
	var c: Array
	match String(d.t):
		"nil":
			return null
		"bool":
			return bool(d.v)
		"int":
			return i64(d.v)
		"float":
			return f64(d.v)
		"string":
			return text(d.v)
		"string_name":
			return StringName(text(d.v))
		"vector2":
			c = reals(d)
			return Vector2(c[0], c[1])
		"vector2i":
			c = ints(d)
			return Vector2i(c[0], c[1])
		"rect2":
			c = reals(d)
			return Rect2(c[0], c[1], c[2], c[3])
		"rect2i":
			c = ints(d)
			return Rect2i(c[0], c[1], c[2], c[3])
		"vector3":
			c = reals(d)
			return Vector3(c[0], c[1], c[2])
		"vector3i":
			c = ints(d)
			return Vector3i(c[0], c[1], c[2])
		"transform2d":
			c = reals(d)
			return Transform2D(Vector2(c[0], c[1]), Vector2(c[2], c[3]), Vector2(c[4], c[5]))
		"vector4":
			c = reals(d)
			return Vector4(c[0], c[1], c[2], c[3])
		"vector4i":
			c = ints(d)
			return Vector4i(c[0], c[1], c[2], c[3])
		"plane":
			c = reals(d)
			var p := Plane()
			p.normal = Vector3(c[0], c[1], c[2])
			p.d = c[3]
			return p
		"quaternion":
			c = reals(d)
			var q := Quaternion()
			q.x = c[0]
			q.y = c[1]
			q.z = c[2]
			q.w = c[3]
			return q
		"aabb":
			c = reals(d)
			return AABB(Vector3(c[0], c[1], c[2]), Vector3(c[3], c[4], c[5]))
		"basis":
			return basis_of(reals(d))
		"transform3d":
			c = reals(d)
			return Transform3D(basis_of(c), Vector3(c[9], c[10], c[11]))
		"projection":
			c = reals(d)
			return Projection(Vector4(c[0], c[1], c[2], c[3]), Vector4(c[4], c[5], c[6], c[7]),
					Vector4(c[8], c[9], c[10], c[11]), Vector4(c[12], c[13], c[14], c[15]))
		"color":
			c = reals(d)
			return Color(c[0], c[1], c[2], c[3])
		"node_path":
			return node_path_of(d)
		"rid":
			return rid_from_int64(i64(d.v))
		"object_id":
			has_object_id = true
			var e := EncodedObjectAsID.new()
			e.set_object_id(i64(d.v))
			return e
		"object":
			return object_of(d)
		"callable":
			return Callable()
		"signal":
			if i64(d.object) == 0 and text(d.name) == "":
				return Signal()
			inexact = true  # a Signal cannot be built from a bare object id
			return Signal()
		"array":
			var items := []
			for it in d.items:
				items.append(rebuild(it))
			if d.typed == null:
				return items
			var ta := typed_args(d.typed)
			return Array(items, ta[0], ta[1], ta[2])
		"dictionary":
			var dict := {}
			for kv in d.entries:
				dict[rebuild(kv[0])] = rebuild(kv[1])
			if d.key_typed == null and d.value_typed == null:
				return dict
			var kt := typed_args(d.key_typed)
			var vt := typed_args(d.value_typed)
			return Dictionary(dict, kt[0], kt[1], kt[2], vt[0], vt[1], vt[2])
		"packed_byte_array":
			return String(d.v).hex_decode()
		"packed_int32_array":
			return String(d.v).hex_decode().to_int32_array()
		"packed_int64_array":
			return String(d.v).hex_decode().to_int64_array()
		"packed_float32_array":
			return String(d.v).hex_decode().to_float32_array()
		"packed_float64_array":
			return String(d.v).hex_decode().to_float64_array()
		"packed_string_array":
			var sa := PackedStringArray()
			for h in d.v:
				sa.append(text(h))
			return sa
		"packed_vector2_array":
			var f := String(d.v).hex_decode().to_float32_array()
			var a := PackedVector2Array()
			for i in range(0, f.size(), 2):
				a.append(Vector2(f[i], f[i + 1]))
			return a
		"packed_vector3_array":
			var f := String(d.v).hex_decode().to_float32_array()
			var a := PackedVector3Array()
			for i in range(0, f.size(), 3):
				a.append(Vector3(f[i], f[i + 1], f[i + 2]))
			return a
		"packed_vector4_array":
			var f := String(d.v).hex_decode().to_float32_array()
			var a := PackedVector4Array()
			for i in range(0, f.size(), 4):
				a.append(Vector4(f[i], f[i + 1], f[i + 2], f[i + 3]))
			return a
		"packed_color_array":
			var f := String(d.v).hex_decode().to_float32_array()
			var a := PackedColorArray()
			for i in range(0, f.size(), 4):
				a.append(Color(f[i], f[i + 1], f[i + 2], f[i + 3]))
			return a
	push_error("desc.gd: unknown Desc type %s" % d.t)
	inexact = true
	return null


## Basis from its wire order (rows): columns X = (r0.x, r1.x, r2.x) ...
static func basis_of(c: Array) -> Basis:
	return Basis(Vector3(c[0], c[3], c[6]), Vector3(c[1], c[4], c[7]), Vector3(c[2], c[5], c[8]))


func node_path_of(d: Dictionary) -> NodePath:
	has_node_path = true
	# NodePath has no constructor from parts, and text cannot express every part list (empty
	# names, '/' or ':' inside a name): let the engine's own decoder build it from its parts,
	# written in the Godot 4 layout (docs/wire_format.md#nodepath).
	var buf := StreamPeerBuffer.new()
	buf.put_u32(22)
	buf.put_u32(d.names.size() | 0x80000000)
	buf.put_u32(d.subnames.size())
	buf.put_u32(1 if d.absolute else 0)
	for h in d.names + d.subnames:
		var utf8: PackedByteArray = String(h).hex_decode()
		buf.put_u32(utf8.size())
		buf.put_data(utf8)
		for _i in (4 - utf8.size() % 4) % 4:
			buf.put_u8(0)
	var np = bytes_to_var(buf.data_array)
	if not np is NodePath:
		inexact = true
		return NodePath()
	return np


func object_of(d: Dictionary):
	has_full_object = true
	var cls := text(d["class"])
	if not ClassDB.can_instantiate(cls):
		if missing_class == "":
			missing_class = cls
		return null
	var o: Object = ClassDB.instantiate(cls)
	for p in d.props:
		var name := text(p[0])
		var v = rebuild(p[1])
		if name == "script":
			if v is String and v != "":
				o.set_script(load(v))
			elif v != null:
				inexact = true  # a Godot 3 embedded Script object
		else:
			o.set(name, v)
	return o
