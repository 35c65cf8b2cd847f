# Exact comparison of two values, for the Godot 3 family's checkers of saves and files
# (tests/saves/check3/check3.gd, tests/web/godot3/check.gd).
extends Reference


# v as text, cut to 120 characters.
static func short(v):
	var s = str(v)
	if s.length() > 120:
		s = s.substr(0, 120) + "..."
	return s


# "" when a (got) and b (expected) are the same value, else where (path) and how they differ:
# the same types, containers item by item (Dictionaries in their order; with ordered false, each
# entry of b wherever a has its key), leaves by their var2bytes bytes (NaN payloads, -0.0, every
# element of a pool array), NodePaths by their parts, full objects by class and stored
# properties, EncodedObjectAsIDs by their id.
static func diff(a, b, path, ordered = true):
	if typeof(a) != typeof(b):
		return " %s: got type %d %s, expected type %d %s" % [path, typeof(a), short(a), typeof(b), short(b)]
	match typeof(a):
		TYPE_ARRAY:
			if a.size() != b.size():
				return " %s: got %d items, expected %d" % [path, a.size(), b.size()]
			for i in range(a.size()):
				var d = diff(a[i], b[i], "%s[%d]" % [path, i], ordered)
				if d != "":
					return d
			return ""
		TYPE_DICTIONARY:
			if a.size() != b.size():
				return " %s: got %d entries, expected %d" % [path, a.size(), b.size()]
			var ka = a.keys()
			var kb = b.keys()
			var va = a.values()
			var vb = b.values()
			for i in range(kb.size()):
				var j = i
				if not ordered:  # find the key wherever it is
					j = -1
					for n in range(ka.size()):
						if diff(ka[n], kb[i], "", true) == "":
							j = n
							break
					if j < 0:
						return " %s: no key %s" % [path, short(kb[i])]
				var d = diff(ka[j], kb[i], "%s.keys()[%d]" % [path, i], ordered)
				if d == "":
					d = diff(va[j], vb[i], "%s[%s]" % [path, short(kb[i])], ordered)
				if d != "":
					return d
			return ""
		TYPE_OBJECT:
			if a == null or b == null:
				return "" if a == b else " %s: got %s, expected %s" % [path, short(a), short(b)]
			if a.get_class() != b.get_class():
				return " %s: got class %s, expected %s" % [path, a.get_class(), b.get_class()]
			if a is EncodedObjectAsID:
				return "" if a.object_id == b.object_id else " %s: got id %d, expected %d" % [path, a.object_id, b.object_id]
			for p in b.get_property_list():
				if p.usage & PROPERTY_USAGE_STORAGE:
					var d = diff(a.get(p.name), b.get(p.name), "%s.%s" % [path, p.name], ordered)
					if d != "":
						return d
			return ""
		TYPE_NODE_PATH:
			if a == b and str(a) == str(b) and a.is_absolute() == b.is_absolute():
				return ""
			return " %s: got NodePath %s, expected %s" % [path, a, b]
	# Leaves: the exact bytes (NaN payloads, -0.0, every element of a pool array).
	if var2bytes(a) == var2bytes(b):
		return ""
	return " %s: got %s, expected %s" % [path, short(a), short(b)]
