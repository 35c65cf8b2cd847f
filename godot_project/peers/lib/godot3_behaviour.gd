extends RefCounted
## What a real Godot 3 engine does to a value it decodes and re-encodes (get_var, then put_var),
## where that is not the identity. The echo tests expect exactly this, no more.

const ECHO_NOTE := "Godot 3's UTF-8 decoder (String::parse_utf8) drops a leading U+FEFF (BOM) from every String it decodes, so a Godot 3 echo loses one leading BOM per String"


## The value a Godot 3 engine sends back after get_var + put_var of v.
static func echo_of(v):
	match typeof(v):
		TYPE_STRING:
			return v.substr(1) if v.begins_with("\ufeff") else v
		TYPE_ARRAY:
			var out := []
			for x in v:
				out.append(echo_of(x))
			return out if not v.is_typed() else v  # typed Arrays do not reach Godot 3
		TYPE_DICTIONARY:
			var out := {}
			for k in v:
				out[echo_of(k)] = echo_of(v[k])
			return out
		TYPE_PACKED_STRING_ARRAY:
			var out := PackedStringArray()
			for x in v:
				out.append(echo_of(x))
			return out
	return v
