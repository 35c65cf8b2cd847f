extends RefCounted
## Godot 3 save files, written by real Godot 3.6.2 and 3.2.3 engines (res://saves/, a link to
## tests/saves/; format in tests/saves/FORMAT.md), read in Godot 4 with DIALECT_GODOT_3:
##   * every store_var file kind: plain (FileAccess.open + read_var), the four compressed modes
##     (FileAccess.open_compressed + read_var), encrypted with the password and with the key
##     (decrypt_godot3* + FastVarStream, and the plaintext written to user:// + read_var);
##     each value equals the engine's sidecar Desc, the count is right, the file ends after them;
##   * store_var writes the engine's own records;
##   * the encrypted ConfigFiles decrypt to the text of config_plain.cfg and parse to its values;
##   * errors: wrong password or key, a flipped byte, a cut file, not an encrypted file, a key of
##     the wrong length; a plain file cut short; a full object of a class Godot 4 lacks;
##   * read_godot3_save: every kind of file in one call (the container and the compression mode
##     found in the file), values equal to the sidecar's; damaged and cut files made from the
##     fixtures (a compressed block overwritten, which the engine's own open_compressed passes
##     on with get_error() OK; a file cut inside its blocks or its last record; a record whose
##     type is broken), wrong, missing and malformed passwords and keys, a missing file;
##   * in the Godot 4 dialect, store_var / read_var frame as FileAccess.store_var / get_var do, in
##     both byte orders.

const Ctx := preload("res://tests/lib/ctx.gd")
const Desc := preload("res://tests/lib/desc.gd")

const ENGINES := {"3.6.2": "res://saves/godot3_6_2", "3.2.3": "res://saves/godot3_2_3"}
const COMPRESSED := {"compressed_fastlz": FileAccess.COMPRESSION_FASTLZ,
	"compressed_deflate": FileAccess.COMPRESSION_DEFLATE,
	"compressed_zstd": FileAccess.COMPRESSION_ZSTD, "compressed_gzip": FileAccess.COMPRESSION_GZIP}
const VALUE_COUNT := 59  # tests/saves/gen/generate.gd writes 59 values
const TMP_DIR := "user://fvc_test_saves"

var t: Ctx
var codec: FastVarCodec
var noted := {}


func run(ctx: Ctx) -> void:
	t = ctx
	codec = FastVarCodec.new()
	# Engine parity: admits every class, as bytes_to_var_with_objects does (trusted test data).
	codec.allowed_classes = PackedStringArray(["*"])
	codec.dialect = FastVarCodec.DIALECT_GODOT_3
	codec.allowed_classes = PackedStringArray(["Curve"])  # the only class the fixtures hold in full
	DirAccess.make_dir_recursive_absolute(TMP_DIR)
	for tag in ENGINES:
		var dir: String = ENGINES[tag]
		var plain := load_sidecar(dir, "plain")
		if not t.check(plain.size() > 0 and plain.values.size() == VALUE_COUNT,
				"%s: plain.json loads with %d values" % [tag, VALUE_COUNT]):
			continue
		read_plain(tag, dir, plain)
		for kind in COMPRESSED:
			read_compressed(tag, dir, kind)
		for kind in ["encrypted_pass", "encrypted_key"]:
			read_encrypted(tag, dir, kind)
		store_var_writes_engine_records(tag, dir, plain)
		config_files(tag, dir)
		decrypt_errors(tag, dir)
		cut_plain_file(tag, dir, plain)
		one_call(tag, dir, plain)
		inspect_and_write(tag, dir, plain)
	write_file_godot4()
	inspect_and_write_errors()
	missing_class()
	framing()
	DirAccess.remove_absolute(TMP_DIR)
	t.done()


static func load_sidecar(dir: String, kind: String) -> Dictionary:
	var d = JSON.parse_string(FileAccess.get_file_as_string(dir.path_join(kind + ".json")))
	return d if d is Dictionary else {}


static func sha256(b: PackedByteArray) -> String:
	var h := HashingContext.new()
	h.start(HashingContext.HASH_SHA256)
	if not b.is_empty():
		h.update(b)
	return h.finish().hex_encode()


func err_text(c) -> String:
	return "%s: %s" % [error_string(c.get_error()), c.get_error_message()]


func tmp_file(name: String, bytes: PackedByteArray) -> String:
	var path := TMP_DIR.path_join(name)
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(bytes)
	f.close()
	return path


# ------------------------------------------------------------------ comparing with the sidecar

## Checks one value read back against its sidecar entry (Desc, or size + SHA-256 of a big one).
## `ok` is whether the read succeeded; a full object of a class Godot 4 lacks must fail with
## ERR_UNAVAILABLE instead (the caller then skips the record).
func check_value(what: String, item: Dictionary, v, ok: bool, c) -> void:
	var d: Dictionary = item.value
	if d.has("sha256"):
		t.check(ok, what + ": reads", func(): return err_text(c))
		var raw = null
		match String(d.t):
			"packed_byte_array":
				if v is PackedByteArray: raw = v
			"packed_int32_array":
				if v is PackedInt32Array: raw = v.to_byte_array()
			"packed_float32_array":
				if v is PackedFloat32Array: raw = v.to_byte_array()
			"string":
				if v is String: raw = v.to_utf8_buffer()
		if t.check(raw != null, what + ": is a " + String(d.t), func(): return Ctx.show(v)):
			t.check(raw.size() == int(d.size) and sha256(raw) == d.sha256, what + ": size and SHA-256 as the engine's",
					"got %d bytes %s, expected %d %s" % [raw.size(), sha256(raw), int(d.size), d.sha256])
		return
	var dd := Desc.new()
	var expected = dd.rebuild(d)
	if dd.missing_class != "":
		# Godot 4 has no such class: documented as ERR_UNAVAILABLE (README, "Dialects").
		t.check(not ok and v == null and c.get_error() == ERR_UNAVAILABLE,
				what + ": a full %s (no Godot 4 class) fails with ERR_UNAVAILABLE" % dd.missing_class,
				func(): return "got %s, %s" % [Ctx.show(v), err_text(c)])
		t.skip("value of a class Godot 4 lacks (checked to fail)")
		return
	if t.check(ok, what + ": reads", func(): return err_text(c)):
		t.check_same(v, expected, what + " == the engine's value")
	Ctx.dispose(expected)


## Reads the sidecar's values from `f` (positioned at the payload start) with read_var, checks
## each value and its offset, then that the file ends right after them.
func read_values_from_file(what: String, f: FileAccess, sc: Dictionary) -> void:
	var n := 0
	for item in sc.values:
		var at := f.get_position()
		t.check(at == int(item.offset), "%s[%s]: at the engine's offset" % [what, item.name],
				"position %d, engine %d" % [at, int(item.offset)])
		codec.allow_objects = bool(item.allow_objects)
		var v = codec.read_var(f)
		var ok := codec.get_error() == OK
		check_value("%s[%s]" % [what, item.name], item, v, ok, codec)
		if not ok:
			f.seek(at + 4 + f.get_32())  # skip the record: read_var left the position at its start
		else:
			n += 1
		Ctx.dispose(v)
	codec.allow_objects = false
	t.check(n + skipped_in(sc) == VALUE_COUNT, what + ": the value count", "%d read" % n)
	var end := f.get_position()
	t.check(end == int(sc.position_after_values) and end == int(sc.payload_size) and end == f.get_length(),
			what + ": the values end where the engine's did, at the end of the payload",
			"at %d, engine %d, payload %d, length %d" % [end, int(sc.position_after_values), int(sc.payload_size), f.get_length()])
	var past = codec.read_var(f)
	t.check(past == null and codec.get_error() == ERR_FILE_EOF and f.get_position() == end,
			what + ": read_var at the end gives ERR_FILE_EOF, position unchanged",
			func(): return "got %s, %s, position %d" % [Ctx.show(past), err_text(codec), f.get_position()])
	t.check(codec.get_error_message().contains(str(end)), what + ": the EOF message names the offset", codec.get_error_message())


## Values of the sidecar that fail by design (a class Godot 4 lacks).
static func skipped_in(sc: Dictionary) -> int:
	var n := 0
	for item in sc.values:
		if not item.value.has("sha256"):
			var dd := Desc.new()
			var e = dd.rebuild(item.value)
			Ctx.dispose(e)
			if dd.missing_class != "":
				n += 1
	return n


## Feeds a decrypted payload to a FastVarStream and checks its values.
func read_values_from_stream(what: String, payload: PackedByteArray, sc: Dictionary) -> void:
	var stream := FastVarStream.new()
	stream.codec = codec
	t.check(stream.feed(payload) == OK, what + ": feed", func(): return err_text(stream))
	var n := 0
	for item in sc.values:
		if not t.check(stream.get_available_packet_count() > 0, "%s[%s]: get_available_packet_count" % [what, item.name]):
			return
		codec.allow_objects = bool(item.allow_objects)
		var v = stream.get_var()
		var ok := stream.get_error() == OK
		check_value("%s[%s]" % [what, item.name], item, v, ok, stream)
		if ok:
			n += 1
		Ctx.dispose(v)
	codec.allow_objects = false
	t.check(n + skipped_in(sc) == VALUE_COUNT, what + ": the value count", "%d read" % n)
	t.check(stream.get_available_packet_count() == 0 and stream.get_buffered_bytes() == 0 and not stream.is_broken(),
			what + ": nothing left after the values", "%d bytes buffered" % stream.get_buffered_bytes())


# ------------------------------------------------------------------ the file kinds

func read_plain(tag: String, dir: String, sc: Dictionary) -> void:
	var f := FileAccess.open(dir.path_join("plain.bin"), FileAccess.READ)
	if t.check(f != null, tag + " plain: opens"):
		read_values_from_file(tag + " plain", f, sc)


func read_compressed(tag: String, dir: String, kind: String) -> void:
	var sc := load_sidecar(dir, kind)
	var what := "%s %s" % [tag, kind]
	if not t.check(sc.size() > 0 and int(sc.compression_mode.value) == COMPRESSED[kind], what + ": sidecar"):
		return
	var f := FileAccess.open_compressed(dir.path_join(kind + ".bin"), FileAccess.READ, COMPRESSED[kind])
	if t.check(f != null, what + ": FileAccess.open_compressed opens it", error_string(FileAccess.get_open_error())):
		t.check(f.get_length() == int(sc.payload_size), what + ": payload size", "%d" % f.get_length())
		read_values_from_file(what, f, sc)


func decrypt(kind: String, data: PackedByteArray, sc: Dictionary) -> PackedByteArray:
	if kind.ends_with("_pass"):
		return codec.decrypt_godot3(data, sc.password)
	return codec.decrypt_godot3_with_key(data, String(sc.key_hex).hex_decode())


func read_encrypted(tag: String, dir: String, kind: String) -> void:
	var sc := load_sidecar(dir, kind)
	var what := "%s %s" % [tag, kind]
	if not t.check(sc.size() > 0, what + ": sidecar"):
		return
	var data := FileAccess.get_file_as_bytes(dir.path_join(kind + ".bin"))
	var payload := decrypt(kind, data, sc)
	if not t.check(codec.get_error() == OK and not payload.is_empty(), what + ": decrypts", func(): return err_text(codec)):
		return
	t.check(payload.size() == int(sc.payload_size) and sha256(payload) == sc.payload_sha256,
			what + ": the plaintext is the engine's payload (size, SHA-256)")
	if sc.payload_differs_from_plain_at.is_empty():
		t.check(payload == FileAccess.get_file_as_bytes(dir.path_join("plain.bin")), what + ": the plaintext is plain.bin")
	# Encrypting it again gives the engine's file (ECB, no IV: deterministic).
	var again: PackedByteArray = codec.encrypt_godot3(payload, sc.password) if kind.ends_with("_pass") \
			else codec.encrypt_godot3_with_key(payload, String(sc.key_hex).hex_decode())
	t.check_bytes(again, data, what + ": encrypt_godot3 of the plaintext == the engine's file")
	read_values_from_stream(what + " (FastVarStream)", payload, sc)
	var path := tmp_file(kind + ".plain", payload)
	var f := FileAccess.open(path, FileAccess.READ)
	if t.check(f != null, what + ": the plaintext file opens"):
		read_values_from_file(what + " (plaintext file)", f, sc)
		f.close()
	DirAccess.remove_absolute(path)


## codec.store_var of each value read writes the engine's own record (the bytes of plain.bin),
## except where the record cannot be the same: NodePath padding is uninitialised in Godot 3
## (size compared), an object id belongs to the Godot 3 run, a full Curve has Godot 4's
## properties.
func store_var_writes_engine_records(tag: String, dir: String, sc: Dictionary) -> void:
	var src := FileAccess.open(dir.path_join("plain.bin"), FileAccess.READ)
	var raw := FileAccess.get_file_as_bytes(dir.path_join("plain.bin"))
	var path := TMP_DIR.path_join("store_var.bin")
	for i in sc.values.size():
		var item: Dictionary = sc.values[i]
		var start := int(item.offset)
		var end := int(sc.values[i + 1].offset) if i + 1 < sc.values.size() else raw.size()
		codec.allow_objects = bool(item.allow_objects)
		var v = codec.read_var(src)
		codec.allow_objects = false
		var desc_text := JSON.stringify(item.value)
		if desc_text.contains("\"object") :
			t.skip("store_var: objects (ids of the Godot 3 run, Godot 4's Curve properties)")
			Ctx.dispose(v)
			continue
		var f := FileAccess.open(path, FileAccess.WRITE)
		var err := codec.store_var(f, v)
		f.close()
		var got := FileAccess.get_file_as_bytes(path)
		var what := "%s store_var[%s]" % [tag, item.name]
		t.check(err == OK and codec.get_error() == OK, what + ": OK", func(): return err_text(codec))
		if desc_text.contains("\"node_path\""):
			t.skip("store_var: NodePath padding (size compared)")
			t.check(got.size() == end - start, what + ": the engine's record size (NodePath)", "%d, engine %d" % [got.size(), end - start])
		else:
			t.check_bytes(got, raw.slice(start, end), what + " == the engine's record")
		Ctx.dispose(v)
	DirAccess.remove_absolute(path)


# ------------------------------------------------------------------ ConfigFile

## Decrypted, an encrypted ConfigFile is the text of config_plain.cfg; parsed, it has the sections,
## keys and values ConfigFile.load reads from config_plain.cfg. One difference is the engine's own:
## ConfigFile.load takes the bytes of an unquoted key as Latin-1 characters (3.2.3 writes
## "clé ✓" unquoted; load reads "clÃ©â\u009c\u0093"), ConfigFile.parse of the UTF-8 text reads
## "clé✓". Such keys are matched by their bytes, and parse() of config_plain.cfg's text must agree
## exactly.
func config_files(tag: String, dir: String) -> void:
	var loaded := ConfigFile.new()
	var plain_text := FileAccess.get_file_as_bytes(dir.path_join("config_plain.cfg"))
	if not t.check(loaded.load(dir.path_join("config_plain.cfg")) == OK, tag + " config_plain.cfg: ConfigFile.load"):
		return
	var parsed := ConfigFile.new()
	t.check(parsed.parse(plain_text.get_string_from_utf8()) == OK, tag + " config_plain.cfg: ConfigFile.parse of its text")
	for kind in ["config_encrypted_pass", "config_encrypted_key"]:
		var what := "%s %s" % [tag, kind]
		var sc := load_sidecar(dir, kind)
		var data := FileAccess.get_file_as_bytes(dir.path_join(kind + ".cfg"))
		var text := decrypt(kind, data, sc)
		if not t.check(codec.get_error() == OK and not text.is_empty(), what + ": decrypts", func(): return err_text(codec)):
			continue
		t.check(sha256(text) == sc.payload_sha256 and text == plain_text, what + ": the plaintext is config_plain.cfg")
		var cf := ConfigFile.new()
		t.check(cf.parse(text.get_string_from_utf8()) == OK, what + ": ConfigFile.parse of the plaintext")
		t.check(cf.get_sections() == loaded.get_sections(), what + ": the sections of config_plain.cfg",
				"%s vs %s" % [cf.get_sections(), loaded.get_sections()])
		var keys := 0
		var latin1_keys := 0
		for s in loaded.get_sections():
			var cf_keys := cf.get_section_keys(s)
			t.check(cf_keys == parsed.get_section_keys(s), "%s [%s]: the keys of parse(config_plain.cfg)" % [what, s])
			t.check(cf_keys.size() == loaded.get_section_keys(s).size(), "%s [%s]: as many keys as load(config_plain.cfg)" % [what, s])
			for k in loaded.get_section_keys(s):
				var ck := k
				if not cf.has_section_key(s, k):
					ck = latin1_as_utf8(k)  # the engine's load() took its UTF-8 bytes as Latin-1
					latin1_keys += 1
				if not t.check(cf.has_section_key(s, ck), "%s [%s] %s: the key is there" % [what, s, k]):
					continue
				t.check_same(cf.get_value(s, ck), loaded.get_value(s, k),
						"%s [%s] %s == ConfigFile.load of config_plain.cfg" % [what, s, k])
				t.check_same(cf.get_value(s, ck), parsed.get_value(s, ck),
						"%s [%s] %s == ConfigFile.parse of config_plain.cfg" % [what, s, ck])
				keys += 1
		t.check(keys >= 40, what + ": at least 40 keys compared", "%d" % keys)
		if latin1_keys > 0 and not noted.has("latin1"):
			noted["latin1"] = true
			t.note("%s: %d unquoted non-ASCII key(s), which Godot 4.6.3's ConfigFile.load reads as Latin-1 and parse() as UTF-8" % [what, latin1_keys])
		# Godot 4's own loader refuses the Godot 3 container (docs/godot3_save_files.md §4).
		var own := ConfigFile.new()
		var own_err: int = own.load_encrypted_pass(dir.path_join(kind + ".cfg"), sc.password) if kind.ends_with("_pass") \
				else own.load_encrypted(dir.path_join(kind + ".cfg"), String(sc.key_hex).hex_decode())
		t.check(own_err == ERR_FILE_CORRUPT, what + ": Godot 4's ConfigFile.load_encrypted* refuses it (as documented)",
				error_string(own_err))


## A String whose characters are bytes (U+0000..U+00FF), read as UTF-8.
static func latin1_as_utf8(s: String) -> String:
	var b := PackedByteArray()
	for i in s.length():
		b.append(s.unicode_at(i) & 0xFF)
	return b.get_string_from_utf8()


# ------------------------------------------------------------------ errors

func check_refused(what: String, got: PackedByteArray, error: int) -> void:
	t.check(got.is_empty() and codec.get_error() == error and codec.get_error_message() != "",
			"%s: empty, %s" % [what, error_string(error)],
			func(): return "%d bytes, %s" % [got.size(), err_text(codec)])


func decrypt_errors(tag: String, dir: String) -> void:
	var pass_sc := load_sidecar(dir, "encrypted_pass")
	var key_sc := load_sidecar(dir, "encrypted_key")
	var enc_pass := FileAccess.get_file_as_bytes(dir.path_join("encrypted_pass.bin"))
	var enc_key := FileAccess.get_file_as_bytes(dir.path_join("encrypted_key.bin"))
	var key := String(key_sc.key_hex).hex_decode()
	var pw: String = pass_sc.password
	check_refused(tag + " wrong password", codec.decrypt_godot3(enc_pass, pw + "x"), ERR_FILE_CORRUPT)
	check_refused(tag + " the password's MD5 as a key", codec.decrypt_godot3_with_key(enc_pass, pw.md5_buffer() + pw.md5_buffer()), ERR_FILE_CORRUPT)
	var wrong_key := key.duplicate()
	wrong_key[31] ^= 1
	check_refused(tag + " wrong key", codec.decrypt_godot3_with_key(enc_key, wrong_key), ERR_FILE_CORRUPT)
	check_refused(tag + " the password file with the key", codec.decrypt_godot3_with_key(enc_pass, key), ERR_FILE_CORRUPT)
	for at in [9, 30, 32, 1000, enc_pass.size() - 1]:  # MD5, length, first block, a middle block, the last block
		var flipped := enc_pass.duplicate()
		flipped[at] ^= 0x10
		check_refused("%s a byte flipped at %d" % [tag, at], codec.decrypt_godot3(flipped, pw), ERR_FILE_CORRUPT)
	for n in [0, 3, 31, 32, 48, enc_pass.size() - 16, enc_pass.size() - 1]:
		check_refused("%s cut to %d bytes" % [tag, n], codec.decrypt_godot3(enc_pass.slice(0, n), pw), ERR_FILE_CORRUPT)
	var mode2 := enc_pass.duplicate()
	mode2[4] = 2
	check_refused(tag + " mode word 2", codec.decrypt_godot3(mode2, pw), ERR_FILE_CORRUPT)
	check_refused(tag + " plain.bin is not encrypted", codec.decrypt_godot3(FileAccess.get_file_as_bytes(dir.path_join("plain.bin")), pw),
			ERR_FILE_UNRECOGNIZED)
	check_refused(tag + " a compressed file is not encrypted",
			codec.decrypt_godot3(FileAccess.get_file_as_bytes(dir.path_join("compressed_zstd.bin")), pw), ERR_FILE_UNRECOGNIZED)
	check_refused(tag + " a 16-byte key", codec.decrypt_godot3_with_key(enc_key, key.slice(0, 16)), ERR_INVALID_PARAMETER)
	check_refused(tag + " a 33-byte key", codec.encrypt_godot3_with_key(PackedByteArray([1]), key + PackedByteArray([0])), ERR_INVALID_PARAMETER)
	# After all that, the codec still decrypts.
	t.check(codec.decrypt_godot3(enc_pass, pw).size() == int(pass_sc.payload_size) and codec.get_error() == OK,
			tag + " decrypting works again after the errors")
	# Godot 4's own open_encrypted_with_pass refuses Godot 3's container (as documented).
	var own := FileAccess.open_encrypted_with_pass(dir.path_join("encrypted_pass.bin"), FileAccess.READ, pw)
	t.check(own == null and FileAccess.get_open_error() == ERR_FILE_CORRUPT,
			tag + " Godot 4's FileAccess.open_encrypted_with_pass refuses it (as documented)")


## A plain file cut inside a value: the values before it read, then ERR_FILE_EOF naming the
## offset, with the position left at the start of the cut value.
func cut_plain_file(tag: String, dir: String, sc: Dictionary) -> void:
	var raw := FileAccess.get_file_as_bytes(dir.path_join("plain.bin"))
	# [value index, bytes kept of it]: inside the length word, inside a small value, just
	# before its end, inside the 100 KB value.
	for cut in [[40, 2], [40, 6], [54, 100], [56, 50000]]:
		var i: int = cut[0]
		var start := int(sc.values[i].offset)
		var path := tmp_file("cut.bin", raw.slice(0, start + cut[1]))
		var what := "%s plain.bin cut %d bytes into [%s]" % [tag, cut[1], sc.values[i].name]
		var f := FileAccess.open(path, FileAccess.READ)
		var n := 0
		while f.get_position() < start:
			codec.allow_objects = bool(sc.values[n].allow_objects)
			var v = codec.read_var(f)
			if codec.get_error() != OK:
				break
			n += 1
			Ctx.dispose(v)
		codec.allow_objects = false
		t.check(n == i and f.get_position() == start, what + ": the values before it read", "%d read, at %d" % [n, f.get_position()])
		for attempt in 2:  # and again: nothing was consumed
			var v = codec.read_var(f)
			t.check(v == null and codec.get_error() == ERR_FILE_EOF and f.get_position() == start,
					"%s: read_var gives ERR_FILE_EOF, position at the value's start (try %d)" % [what, attempt + 1],
					func(): return "got %s, %s, position %d" % [Ctx.show(v), err_text(codec), f.get_position()])
			t.check(codec.get_error_message().contains("offset %d" % start), what + ": the message names the offset",
					codec.get_error_message())
		f.close()
		DirAccess.remove_absolute(path)


## A full object of a Godot 3-only class (Reference, bytes made by Godot 3.6.2: the golden
## corpus' object/full_reference) between two values of a save file: read_var fails with the
## documented error and leaves the position at that record, and the caller can skip it.
# ------------------------------------------------------------------ read_godot3_save

func one_call(tag: String, dir: String, plain: Dictionary) -> void:
	var c := FastVarCodec.new()  # the Godot 4 dialect: read_godot3_save decodes in Godot 3's anyway
	c.allow_objects = true
	c.allowed_classes = PackedStringArray(["Curve"])
	var pass_sc := load_sidecar(dir, "encrypted_pass")
	var key_sc := load_sidecar(dir, "encrypted_key")
	var password := String(pass_sc.password)
	var key := String(key_sc.key_hex).hex_decode()
	var kinds := {"plain": [], "encrypted_pass": [password], "encrypted_key": ["", key]}
	for kind in COMPRESSED:
		kinds[kind] = []
	for kind in kinds:
		var what := "%s read_godot3_save(%s)" % [tag, kind]
		var values: Array = c.callv("read_godot3_save", [dir.path_join(kind + ".bin")] + kinds[kind])
		if not t.check(c.get_error() == OK and values.size() == VALUE_COUNT, what + ": every value, OK",
				func(): return "%d values, %s" % [values.size(), err_text(c)]):
			continue
		for i in VALUE_COUNT:
			check_value("%s[%s]" % [what, plain.values[i].name], plain.values[i], values[i], true, c)
		for v in values:
			Ctx.dispose(v)

	# Damaged compressed files: the second block's first bytes overwritten (0xff starts no
	# block of any mode). The engine's own reader opens it and reports nothing.
	var raw := FileAccess.get_file_as_bytes(dir.path_join("plain.bin"))
	for kind in COMPRESSED:
		var b := FileAccess.get_file_as_bytes(dir.path_join(kind + ".bin"))
		var second := 16 + 4 * (b.decode_u32(12) / 4096 + 1) + b.decode_u32(16)
		var d := b.duplicate()
		for i in 4:
			d[second + i] = 0xff
		var path := tmp_file("damaged.bin", d)
		var what := "%s read_godot3_save(%s, block 1 damaged)" % [tag, kind]
		var values := c.read_godot3_save(path)
		t.check(values.is_empty() and c.get_error() == ERR_FILE_CORRUPT, what + ": ERR_FILE_CORRUPT, no values",
				func(): return "%d values, %s" % [values.size(), err_text(c)])
		t.check(c.get_error_message().contains("compressed block 1 (file offset %d) is damaged" % second),
				what + ": the message names the block", c.get_error_message())
		var f := FileAccess.open_compressed(path, FileAccess.READ, COMPRESSED[kind])
		if t.check(f != null, what + ": FileAccess.open_compressed opens it all the same"):
			var got := f.get_buffer(f.get_length())
			t.check(f.get_error() == OK and got.size() == raw.size() and got != raw,
					what + ": the engine's get_buffer gives wrong bytes with get_error() OK",
					"%s, %d bytes" % [error_string(f.get_error()), got.size()])
			f.close()
		var cut := c.read_godot3_save(tmp_file("cut.bin", b.slice(0, b.size() / 2)))
		t.check(cut.is_empty() and c.get_error() == ERR_FILE_CORRUPT and c.get_error_message().contains("cut short"),
				"%s read_godot3_save(%s, cut in half): ERR_FILE_CORRUPT, no values" % [tag, kind], err_text(c))

	# Records: the last one cut, one broken; the values before them are kept.
	var last := int(plain.values[VALUE_COUNT - 1].offset)
	var values := c.read_godot3_save(tmp_file("cut.bin", raw.slice(0, raw.size() - 3)))
	t.check(values.size() == VALUE_COUNT - 1 and c.get_error() == ERR_FILE_EOF
			and c.get_error_message().contains("value %d" % (VALUE_COUNT - 1))
			and c.get_error_message().contains("offset %d" % last),
			tag + " read_godot3_save(plain cut inside its last record): the values before it, ERR_FILE_EOF",
			func(): return "%d values, %s" % [values.size(), err_text(c)])
	var broken := raw.duplicate()
	var at := int(plain.values[10].offset)
	broken[at + 4] = 0xff  # the type word of value 10
	values = c.read_godot3_save(tmp_file("broken.bin", broken))
	t.check(values.size() == 10 and c.get_error() == ERR_INVALID_DATA
			and c.get_error_message().contains("value 10 (payload offset %d)" % at),
			tag + " read_godot3_save(plain, value 10 broken): the 10 values before it, ERR_INVALID_DATA",
			func(): return "%d values, %s" % [values.size(), err_text(c)])
	for i in values.size():
		check_value("%s read_godot3_save(broken)[%d]" % [tag, i], plain.values[i], values[i], true, c)

	# Keys and files.
	var enc := dir.path_join("encrypted_pass.bin")
	for case in [["no password", [enc], ERR_UNAUTHORIZED, "password or key is needed"],
			["a wrong password", [enc, "fvc secret"], ERR_FILE_CORRUPT, "wrong key or password"],
			["the key of the other file", [enc, "", key], ERR_FILE_CORRUPT, "wrong key or password"],
			["a 31-byte key", [enc, "", key.slice(1)], ERR_INVALID_PARAMETER, "32 bytes"],
			["a password and a key", [enc, password, key], ERR_INVALID_PARAMETER, "not both"],
			["a missing file", [TMP_DIR.path_join("none.bin")], ERR_FILE_NOT_FOUND, "cannot open"]]:
		values = c.callv("read_godot3_save", case[1])
		t.check(values.is_empty() and c.get_error() == case[2] and c.get_error_message().contains(case[3]),
				"%s read_godot3_save with %s: %s" % [tag, case[0], error_string(case[2])],
				func(): return "%d values, %s" % [values.size(), err_text(c)])
	DirAccess.remove_absolute(TMP_DIR.path_join("damaged.bin"))
	DirAccess.remove_absolute(TMP_DIR.path_join("cut.bin"))
	DirAccess.remove_absolute(TMP_DIR.path_join("broken.bin"))


## inspect_file finds each fixture's container, compression and dialect and reads every value;
## write_file writes them back the same way, and inspect_file reads the engine's values again.
func inspect_and_write(tag: String, dir: String, plain: Dictionary) -> void:
	var c := FastVarCodec.new()
	c.allow_objects = true
	c.full_objects = true
	c.allowed_classes = PackedStringArray(["Curve"])
	var password := String(load_sidecar(dir, "encrypted_pass").password)
	var key := String(load_sidecar(dir, "encrypted_key").key_hex).hex_decode()
	# kind: password, key, container, compression, encryption
	var kinds := {"plain": ["", PackedByteArray(), "plain", -1, ""],
		"encrypted_pass": [password, PackedByteArray(), "encrypted", -1, "godot3"],
		"encrypted_key": ["", key, "encrypted", -1, "godot3"]}
	for kind in COMPRESSED:
		kinds[kind] = ["", PackedByteArray(), "compressed", COMPRESSED[kind], ""]
	for kind in kinds:
		var k: Array = kinds[kind]
		for round in ["the fixture", "written back by write_file"]:
			var path := dir.path_join(kind + ".bin") if round == "the fixture" else TMP_DIR.path_join(kind + ".bin")
			var what := "%s inspect_file(%s, %s)" % [tag, kind, round]
			var found := c.inspect_file(path, k[0], k[1])
			var values: Array = found.get("values", [])
			if not t.check(c.get_error() == OK and values.size() == VALUE_COUNT, what + ": every value, OK",
					func(): return "%d values, %s" % [values.size(), err_text(c)]):
				break
			var how := [found.get("dialect"), found.get("container"), found.get("compression"),
				found.get("encryption"), found.get("raw")]
			t.check_same(how, [FastVarCodec.DIALECT_GODOT_3, k[2], k[3], k[4], false],
				what + ": [dialect, container, compression, encryption, raw]")
			for i in VALUE_COUNT:
				if round != "the fixture" and plain.values[i].name == "object/as_id":
					# Read as an EncodedObjectAsID and written with full objects, it is one in full,
					# as the engine's var_to_bytes_with_objects writes it.
					t.check(values[i] is EncodedObjectAsID, what + "[object/as_id]: a full EncodedObjectAsID",
						func(): return Ctx.show(values[i]))
					continue
				check_value("%s[%s]" % [what, plain.values[i].name], plain.values[i], values[i], true, c)
			if round == "the fixture":
				c.dialect = found.dialect
				c.allowed_classes = PackedStringArray(["Curve", "EncodedObjectAsID"])
				var err := c.write_file(TMP_DIR.path_join(kind + ".bin"), values, found.compression, k[0], k[1])
				t.check(err == OK and c.get_error() == OK, "%s write_file(%s): OK" % [tag, kind], func(): return err_text(c))
				t.check(not FileAccess.file_exists(TMP_DIR.path_join(kind + ".bin.fvc-writing")),
					"%s write_file(%s): nothing is left beside the file" % [tag, kind])
			for v in values:
				Ctx.dispose(v)
		c.allowed_classes = PackedStringArray(["Curve"])
		DirAccess.remove_absolute(TMP_DIR.path_join(kind + ".bin"))


## write_file in the Godot 4 dialect: files the engine's own FileAccess opens in each container
## and reads with get_var.
func write_file_godot4() -> void:
	var c := FastVarCodec.new()
	var values := [{"gold": 10, "items": ["sword"]}, PackedInt32Array([1, 2, 3]), Color(0.25, 0.5, 0.75, 1), 3.5]
	var key := PackedByteArray()
	for i in 32:
		key.append(i * 5 % 256)
	var path := TMP_DIR.path_join("g4.sav")
	# compression, password, key, how the engine opens it
	var kinds := [[-1, "", PackedByteArray(), func(): return FileAccess.open(path, FileAccess.READ)],
		[FileAccess.COMPRESSION_ZSTD, "", PackedByteArray(), func(): return FileAccess.open_compressed(path, FileAccess.READ, FileAccess.COMPRESSION_ZSTD)],
		[FileAccess.COMPRESSION_FASTLZ, "", PackedByteArray(), func(): return FileAccess.open_compressed(path, FileAccess.READ, FileAccess.COMPRESSION_FASTLZ)],
		[-1, "pw ✓", PackedByteArray(), func(): return FileAccess.open_encrypted_with_pass(path, FileAccess.READ, "pw ✓")],
		[-1, "", key, func(): return FileAccess.open_encrypted(path, FileAccess.READ, key)]]
	for k in kinds:
		var what := "write_file(Godot 4, compression %d, %s)" % [k[0], "password" if k[1] != "" else "key" if not k[2].is_empty() else "no secret"]
		if not t.check(c.write_file(path, values, k[0], k[1], k[2]) == OK, what + ": OK", func(): return err_text(c)):
			continue
		var f: FileAccess = k[3].call()
		if not t.check(f != null, what + ": the engine's FileAccess opens it"):
			continue
		var read := []
		while f.get_position() < f.get_length():
			read.append(f.get_var())
		f.close()
		t.check_bytes(var_to_bytes(read), var_to_bytes(values), what + ": the engine's get_var reads every value")
		var found := c.inspect_file(path, k[1], k[2])
		t.check_same([found.get("dialect"), found.get("compression"), found.get("encryption", "?")],
			[FastVarCodec.DIALECT_GODOT_4, k[0], "godot4" if k[1] != "" or not k[2].is_empty() else ""],
			what + ": inspect_file finds it as written")
	DirAccess.remove_absolute(path)


## What inspect_file and write_file refuse, and that a refused write leaves the file as it was.
func inspect_and_write_errors() -> void:
	var c := FastVarCodec.new()
	var path := TMP_DIR.path_join("kept.sav")
	t.check(c.write_file(path, [1, "two"]) == OK, "write_file: a plain file", func(): return err_text(c))
	var before := FileAccess.get_file_as_bytes(path)
	c.max_depth = 2
	var err := c.write_file(path, [1, [[["too deep"]]]])
	t.check(err != OK and c.get_error() == err and c.get_error_message().contains("value 1"),
		"write_file: a value that cannot be written fails, naming its index", func(): return err_text(c))
	t.check_bytes(FileAccess.get_file_as_bytes(path), before, "write_file: the file a failed write meant to replace is as it was")
	t.check(not FileAccess.file_exists(path + ".fvc-writing"), "write_file: a failed write leaves nothing beside the file")
	c.max_depth = 1024
	t.check(c.write_file(path, [1], FileAccess.COMPRESSION_ZSTD, "pw") == ERR_INVALID_PARAMETER,
		"write_file: compressed and encrypted at once is ERR_INVALID_PARAMETER", func(): return err_text(c))
	t.check(c.write_file(path, [1], FileAccess.COMPRESSION_BROTLI) == ERR_INVALID_PARAMETER,
		"write_file: Brotli, which the engine does not write, is ERR_INVALID_PARAMETER", func(): return err_text(c))
	t.check(c.write_file(path, [1], -1, "", PackedByteArray([1, 2])) == ERR_INVALID_PARAMETER,
		"write_file: a key that is not 32 bytes is ERR_INVALID_PARAMETER", func(): return err_text(c))
	t.check_bytes(FileAccess.get_file_as_bytes(path), before, "write_file: refused arguments leave the file as it was")
	var missing := c.inspect_file(TMP_DIR.path_join("no such file"))
	t.check(missing.is_empty() and c.get_error() == ERR_FILE_NOT_FOUND, "inspect_file: a missing file is {} and ERR_FILE_NOT_FOUND",
		func(): return "%s, %s" % [missing, err_text(c)])
	t.check(c.write_file(path, [1], -1, "pw") == OK, "write_file: an encrypted file", func(): return err_text(c))
	var locked := c.inspect_file(path)
	t.check(locked.is_empty() and c.get_error() == ERR_UNAUTHORIZED, "inspect_file: an encrypted file without a password is {} and ERR_UNAUTHORIZED",
		func(): return "%s, %s" % [locked, err_text(c)])
	var wrong := c.inspect_file(path, "not pw")
	t.check(wrong.is_empty() and c.get_error() == ERR_FILE_CORRUPT, "inspect_file: a wrong password is {} and ERR_FILE_CORRUPT",
		func(): return "%s, %s" % [wrong, err_text(c)])
	t.check(c.inspect_file(path, "", PackedByteArray(), 99).is_empty() and c.get_error() == ERR_INVALID_PARAMETER,
		"inspect_file: an unknown dialect is ERR_INVALID_PARAMETER", func(): return err_text(c))
	# One Godot 3 Color is also a Godot 4 Plane: the dialect must be named.
	var g3 := FastVarCodec.new()
	g3.dialect = FastVarCodec.DIALECT_GODOT_3
	t.check(g3.write_file(path, [Color(0.25, 0.5, 0.75, 1)]) == OK, "write_file: one Godot 3 Color", func(): return err_text(g3))
	var either := c.inspect_file(path)
	t.check(c.get_error() == ERR_INVALID_DATA and either.get("values", [null]).is_empty(),
		"inspect_file: records engines read as different values fail, naming the dialects", func(): return "%s, %s" % [either, err_text(c)])
	var named := c.inspect_file(path, "", PackedByteArray(), FastVarCodec.DIALECT_GODOT_3)
	t.check(c.get_error() == OK and named.get("values") == [Color(0.25, 0.5, 0.75, 1)],
		"inspect_file(dialect = DIALECT_GODOT_3) reads the Color", func(): return "%s, %s" % [named, err_text(c)])
	DirAccess.remove_absolute(path)


func missing_class() -> void:
	var ref_bytes := PackedByteArray()
	var corpus := FileAccess.open("res://golden/godot3_6_2.json", FileAccess.READ)
	while not corpus.eof_reached():
		var line := corpus.get_line()
		if line.contains("\"name\":\"object/full_reference\""):
			var d = JSON.parse_string(line.strip_edges().trim_suffix(","))
			ref_bytes = String(d.bytes).hex_decode()
			break
	if not t.check(ref_bytes.size() > 8, "the Godot 3 Reference bytes are in the golden corpus"):
		return
	var writer := FastVarCodec.new()
	writer.dialect = FastVarCodec.DIALECT_GODOT_3
	var path := TMP_DIR.path_join("reference.bin")
	var f := FileAccess.open(path, FileAccess.WRITE)
	writer.store_var(f, 42)
	f.store_32(ref_bytes.size())
	f.store_buffer(ref_bytes)
	writer.store_var(f, "after")
	f.close()
	f = FileAccess.open(path, FileAccess.READ)
	for policy in [["allowed_classes [*]", PackedStringArray(["*"]), ERR_UNAVAILABLE],
			["allow_objects, no list", PackedStringArray(), ERR_UNAUTHORIZED],
			["allowed_classes [Curve]", PackedStringArray(["Curve"]), ERR_UNAUTHORIZED]]:
		var c := FastVarCodec.new()
		c.dialect = FastVarCodec.DIALECT_GODOT_3
		c.allow_objects = true
		c.allowed_classes = policy[1]
		f.seek(0)
		var what := "a full Godot 3 Reference in a save (%s)" % policy[0]
		t.check(c.read_var(f) == 42, what + ": the value before it")
		var at := f.get_position()
		var v = c.read_var(f)
		t.check(v == null and c.get_error() == policy[2] and f.get_position() == at,
				"%s: %s, position at the record" % [what, error_string(policy[2])],
				func(): return "got %s, %s, position %d (record at %d)" % [Ctx.show(v), err_text(c), f.get_position(), at])
		t.check(c.get_error_message().contains("offset %d" % at), what + ": the message names the offset", c.get_error_message())
		if not noted.has(policy[0]):
			noted[policy[0]] = true
			t.note("%s: %s" % [what, c.get_error_message()])
		f.seek(at + 4 + f.get_32())
		t.check(c.read_var(f) == "after", what + ": the value after it, once the record is skipped")
	f.close()
	DirAccess.remove_absolute(path)


## DIALECT_GODOT_4: codec.store_var writes the bytes of FileAccess.store_var, in the file's byte
## order (big_endian: the length word only; the encoding stays little-endian), and each reads the
## other's file.
func framing() -> void:
	var g4 := FastVarCodec.new()
	var values := [42, "héllo ✓", {"a": [1, 2.5, Vector3i(1, 2, 3)]}, PackedByteArray([1, 2, 3]), null]
	# Large enough that read_var has the engine copy it out of the bytes it read.
	var large := PackedByteArray()
	large.resize(300007)
	for i in range(0, large.size(), 59):
		large[i] = i & 0xFF
	values.append(large)
	for big in [false, true]:
		var what := "Godot 4 framing (big_endian %s)" % big
		var engine_path := TMP_DIR.path_join("engine.bin")
		var codec_path := TMP_DIR.path_join("codec.bin")
		var fe := FileAccess.open(engine_path, FileAccess.WRITE)
		var fc := FileAccess.open(codec_path, FileAccess.WRITE)
		fe.big_endian = big
		fc.big_endian = big
		for v in values:
			fe.store_var(v)
			t.check(g4.store_var(fc, v) == OK, what + ": store_var OK", func(): return err_text(g4))
		fe.close()
		fc.close()
		t.check_bytes(FileAccess.get_file_as_bytes(codec_path), FileAccess.get_file_as_bytes(engine_path),
				what + ": codec.store_var == FileAccess.store_var")
		fe = FileAccess.open(engine_path, FileAccess.READ)
		fc = FileAccess.open(codec_path, FileAccess.READ)
		fe.big_endian = big
		fc.big_endian = big
		for v in values:
			t.check_same(g4.read_var(fe), v, what + ": codec.read_var of the engine's file")
			t.check_same(fc.get_var(), v, what + ": FileAccess.get_var of the codec's file")
		t.check(fe.get_position() == fe.get_length() and fc.get_position() == fc.get_length(), what + ": both files end after the values")
		fe.close()
		fc.close()
		DirAccess.remove_absolute(engine_path)
		DirAccess.remove_absolute(codec_path)
