# The Godot 3 side of the differential fuzzing (tests/fuzz_differential.sh; Godot 3 GDScript):
#   godot3-server --no-window --path <this dir> -s res://differential3.gd --bases OUT COUNT SEED
#       OUT: COUNT records, this engine's var2bytes of random values of every type
#   godot3-server --no-window --path <this dir> -s res://differential3.gd --decode IN OUT
#       per record of IN, a record in OUT: one byte, 1 when this engine decoded it
#       (StreamPeerBuffer.get_var, which gives null for a failed decode), then the number of
#       Dictionary entries in the value (all levels, keys included: a u32), then its var2bytes of
#       the value in the canonical form godot_project/fuzz/differential.gd compares: every object
#       sent by id replaced by that id (an EncodedObjectAsID would re-encode with its own instance
#       id), every NodePath by its parts (this engine writes heap bytes into a NodePath's padding),
#       and in every text each code point that is no Unicode scalar value (a surrogate, one above
#       U+10FFFF, which this engine's UTF-8 decoder lets in) by U+FFFD, as FastVarCodec decodes it
# Records are [u32 length][bytes]. Prints "differential3.gd: done" last (Godot 3's quit() sets no
# exit code).
extends SceneTree

const RandomValues = preload("res://random_values3.gd")


func _init():
	var a = []
	for arg in OS.get_cmdline_args():
		a.append(arg)
	var at = a.find("--bases")
	var ok = false
	if at >= 0 and a.size() >= at + 4:
		ok = bases(a[at + 1], int(a[at + 2]), int(a[at + 3]))
	at = a.find("--decode")
	if at >= 0 and a.size() >= at + 3:
		ok = decode_all(a[at + 1], a[at + 2])
	if ok:
		print("differential3.gd: done")
	else:
		printerr("differential3.gd: failed (usage: --bases OUT COUNT SEED | --decode IN OUT)")
	quit()


func bases(out, count, seed_value):
	var values = RandomValues.new(seed_value)
	var f = File.new()
	if f.open(out, File.WRITE) != OK:
		return false
	for _k in range(count):
		var b = var2bytes(values.value())
		f.store_32(b.size())
		f.store_buffer(b)
	f.close()
	return true


func decode_all(inp, out):
	var f = File.new()
	var g = File.new()
	if f.open(inp, File.READ) != OK or g.open(out, File.WRITE) != OK:
		return false
	var peer = StreamPeerBuffer.new()
	while f.get_position() + 4 <= f.get_len():
		var b = f.get_buffer(f.get_32())
		peer.clear()
		peer.put_32(b.size())
		peer.put_data(b)
		peer.seek(0)
		var v = peer.get_var()
		# A null from get_var is a failure unless the bytes are a NIL, which decodes to null
		# (a null object, TYPE_OBJECT, is not NIL).
		var decoded = typeof(v) != TYPE_NIL or (b.size() >= 4 and b[0] == 0)
		var r = PoolByteArray([1 if decoded else 0])
		if decoded:
			var c = canonical(v)
			var count = StreamPeerBuffer.new()
			count.put_u32(entries(c))
			r.append_array(count.data_array)
			r.append_array(var2bytes(c))
		g.store_32(r.size())
		g.store_buffer(r)
	f.close()
	g.close()
	return true


func canonical(v):
	if v is EncodedObjectAsID:
		return v.get_object_id()
	if v is NodePath:
		var names = []
		for i in range(v.get_name_count()):
			names.append(scalar_text(String(v.get_name(i))))
		var subnames = []
		for i in range(v.get_subname_count()):
			subnames.append(scalar_text(String(v.get_subname(i))))
		return ["NodePath", v.is_absolute(), names, subnames]
	if v is String:
		return scalar_text(v)
	if v is PoolStringArray:
		var p = PoolStringArray()
		for s in v:
			p.append(scalar_text(s))
		return p
	if v is Array:
		var a = []
		for x in v:
			a.append(canonical(x))
		return a
	if v is Dictionary:
		var d = {}
		for k in v:
			d[canonical(k)] = canonical(v[k])
		return d
	return v


func scalar_text(s):
	var out = ""
	var changed = false
	for i in range(s.length()):
		var c = s.ord_at(i)
		if (c >= 0xD800 and c <= 0xDFFF) or c > 0x10FFFF:
			changed = true
			break
	if not changed:
		return s
	for i in range(s.length()):
		var c = s.ord_at(i)
		if (c >= 0xD800 and c <= 0xDFFF) or c > 0x10FFFF:
			out += char(0xFFFD)
		else:
			out += char(c)
	return out


# Dictionary entries at any depth, those of Dictionaries inside keys included.
func entries(v):
	var n = 0
	if v is Array:
		for x in v:
			n += entries(x)
	elif v is Dictionary:
		n += v.size()
		for k in v:
			n += entries(k) + entries(v[k])
	return n
