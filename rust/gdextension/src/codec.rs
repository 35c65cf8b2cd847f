//! The `FastVarCodec` class as GDScript sees it.

use std::sync::Arc;

use godot::classes::file_access::CompressionMode;
use godot::classes::{ConfigFile, FileAccess, IRefCounted, RefCounted};
use godot::global::Error;
use godot::prelude::*;
use godot::register::property::PhantomVar;

use crate::class_enums::{DialectInt, PrecisionInt};
use crate::codec_state::CodecState;

/// Encodes and decodes Godot's binary Variant format (the bytes of [method @GlobalScope.var_to_bytes],
/// [method StreamPeer.put_var] and [method FileAccess.store_var]) in an explicit dialect and precision.
///
/// With the defaults ([constant DIALECT_GODOT_4], the engine's own [member precision]) the bytes are exactly
/// those of [method @GlobalScope.var_to_bytes]. Set [member dialect] to the engine at the other end:
/// [constant DIALECT_GODOT_4] for Godot 4.4 and later, [constant DIALECT_GODOT_4_3] for Godot 4.3,
/// [constant DIALECT_GODOT_4_0_TO_4_2] for Godot 4.0–4.2, [constant DIALECT_GODOT_3] for the Godot
/// 3.1–3.6 layout ([code]var2bytes[/code]), so a Godot 4 game can talk to Godot 3 games, servers and
/// save files, [constant DIALECT_PANDEMONIUM_3_8] for the Pandemonium engine v3.8–v4.9 and
/// [constant DIALECT_PANDEMONIUM_5] for Pandemonium v5.
/// Errors never crash: a failed call returns empty bytes or [code]null[/code], and [method get_error]
/// and [method get_error_message] tell what went wrong and where.
///
/// [b]Threads:[/b] every method may be called from any thread, and one codec may serve several
/// threads at once. Settings are shared; [method get_error], [method get_error_message] and
/// [method get_decoded_size] report the last call made [i]from the calling thread[/i].
#[derive(GodotClass)]
// `tool`: it works in the editor as in a game (the Saves dock, editor plugins, @tool scripts);
// nothing of it is for a running game only.
#[class(tool, base = RefCounted)]
pub struct FastVarCodec {
    /// Byte layout: [constant DIALECT_GODOT_4] (default), [constant DIALECT_GODOT_3],
    /// [constant DIALECT_PANDEMONIUM_3_8], [constant DIALECT_PANDEMONIUM_5], or for older Godot 4 peers
    /// [constant DIALECT_GODOT_4_3] and [constant DIALECT_GODOT_4_0_TO_4_2].
    /// Godot 3 and Pandemonium cannot be chosen while [member precision] is set to [constant PRECISION_DOUBLE].
    /// [b]Every setting[/b] that cannot apply (this combination, an unknown value, a limit out of
    /// range) is refused: the codec keeps all its settings as they were, so it never encodes or
    /// decodes with settings other than those last set successfully, and [method get_error]
    /// returns [constant ERR_INVALID_PARAMETER] with the reason in [method get_error_message]
    /// (a setting that applies makes it [constant OK]).
    // Typed `FastVarCodec.Dialect`: the inspector offers the constants by name (shown, never stored).
    #[var(get = get_dialect, set = set_dialect, usage_flags = [EDITOR, CLASS_IS_ENUM])]
    dialect: PhantomVar<DialectInt>,
    /// Width of [code]real_t[/code] components on the wire: [constant PRECISION_SINGLE] or
    /// [constant PRECISION_DOUBLE] (what [code]precision=double[/code] engine builds write; Godot 4 only).
    /// Decoding accepts both. Until set, it follows [member dialect]: the running engine's own width in
    /// [constant DIALECT_GODOT_4] ([constant PRECISION_DOUBLE] in a double-precision engine, which loads
    /// the addon's double-precision library), [constant PRECISION_SINGLE] in the others.
    #[var(get = get_precision, set = set_precision, usage_flags = [EDITOR, CLASS_IS_ENUM])]
    precision: PhantomVar<PrecisionInt>,
    /// Encode objects with their class and stored properties, as [method @GlobalScope.var_to_bytes_with_objects];
    /// off, objects travel as instance ids.
    // Every property is EDITOR: the inspector shows it, and the editor help its default (the
    // engine reads defaults only of EDITOR or STORAGE properties). Not STORAGE: a codec is no
    // resource, and stored settings would travel in `var_to_bytes_with_objects(codec)`.
    #[var(get = get_full_objects, set = set_full_objects, usage_flags = [EDITOR])]
    full_objects: PhantomVar<bool>,
    /// Decode full objects, as [method @GlobalScope.bytes_to_var_with_objects], of the classes and scripts
    /// [member allowed_classes] lists, and of none while it is empty. Off (default), such input fails with
    /// [constant ERR_UNAUTHORIZED]. [b]Warning:[/b] a decoded object can carry a script path, and loading
    /// that script runs its code: list only what the data may hold.
    #[var(get = get_allow_objects, set = set_allow_objects, usage_flags = [EDITOR])]
    allow_objects: PhantomVar<bool>,
    /// In [constant DIALECT_GODOT_3], convert Godot 4-only values (Vector2i, Vector4, Projection, Callable,
    /// an RID's id …) to their closest Godot 3 value instead of failing.
    #[var(get = get_allow_lossy, set = set_allow_lossy, usage_flags = [EDITOR])]
    allow_lossy: PhantomVar<bool>,
    /// Let [method decode] return a value followed by other bytes, as
    /// [method @GlobalScope.bytes_to_var] does ([method get_decoded_size] then tells where the
    /// next one starts). Off (default), [method decode] takes the bytes from its offset on as one
    /// value, whole: bytes left after it mean a value of another dialect (a Godot 3 Dictionary
    /// read as Godot 4 comes out as something else entirely), and the decode fails with
    /// [constant ERR_INVALID_DATA], the message naming the dialect that reads the bytes whole.
    #[var(get = get_allow_trailing_bytes, set = set_allow_trailing_bytes, usage_flags = [EDITOR])]
    allow_trailing_bytes: PhantomVar<bool>,
    /// Deepest nesting accepted when encoding or decoding (default and maximum 1024, as the engine).
    #[var(get = get_max_depth, set = set_max_depth, usage_flags = [EDITOR])]
    max_depth: PhantomVar<i64>,
    /// Most container elements one decode may produce, all levels together: Array items, Dictionary
    /// entries, object properties, NodePath parts. [code]-1[/code] (default): no limit, as the engine.
    /// Past it: [constant ERR_OUT_OF_MEMORY].
    #[var(get = get_max_elements, set = set_max_elements, usage_flags = [EDITOR])]
    max_elements: PhantomVar<i64>,
    /// Most bytes of strings and packed-array data one decode may produce. [code]-1[/code] (default):
    /// no limit, as the engine. Past it: [constant ERR_OUT_OF_MEMORY].
    #[var(get = get_max_bytes, set = set_max_bytes, usage_flags = [EDITOR])]
    max_bytes: PhantomVar<i64>,
    /// Longest message, in bytes, on every path that writes or reads one with a length prefix or
    /// as a packet: [method put_var], [method get_var], [method put_packet_var],
    /// [method get_packet_var], [method store_var], [method read_var], [method encode_framed],
    /// [method decode_framed], and a [FastVarStream] using this codec. A longer length prefix is
    /// refused without allocating, a longer encoding before anything is written; past it:
    /// [constant ERR_OUT_OF_MEMORY]. Default 8388608 (8 MiB, the engine's
    /// [code]encode_buffer_max_size[/code]).
    #[var(get = get_max_message_size, set = set_max_message_size, usage_flags = [EDITOR])]
    max_message_size: PhantomVar<i64>,
    /// Largest payload, in bytes, that a compressed or encrypted file read by
    /// [method read_godot3_save] may announce in its header: a larger one fails with
    /// [constant ERR_OUT_OF_MEMORY] before any block is decompressed or decrypted (a few
    /// megabytes of compressed file can announce gigabytes). Default 268435456 (256 MiB);
    /// [code]-1[/code]: no limit.
    #[var(get = get_max_payload, set = set_max_payload, usage_flags = [EDITOR])]
    max_payload: PhantomVar<i64>,
    /// With [member allow_objects] on, the only classes and scripts a decode may name, anywhere in the
    /// value: full objects, their [code]script[/code], and the types of typed Arrays and Dictionaries.
    /// Entries are native class names ([code]"Resource"[/code], matched exactly, not their subclasses),
    /// script class names ([code]"MyData"[/code]) or script paths ([code]"res://my_data.gd"[/code]). A
    /// listed script admits objects of the native class it extends when they carry it. Anything else fails
    /// with [constant ERR_UNAUTHORIZED] before any object is made or any script is loaded; empty (default),
    /// nothing is admitted. The entry [code]"*"[/code] admits every class and script, as
    /// [method @GlobalScope.bytes_to_var_with_objects] does: only for data you trust as you trust your
    /// own code. Setting the list loads the listed scripts that have no global class name, to learn their
    /// base class.
    #[var(get = get_allowed_classes, set = set_allowed_classes, usage_flags = [EDITOR])]
    allowed_classes: PhantomVar<PackedStringArray>,
    /// Reached by the per-value methods without gdext's binding (`crate::direct`).
    state: Arc<CodecState>,
    base: Base<RefCounted>,
}

#[godot_api]
impl IRefCounted for FastVarCodec {
    fn init(base: Base<RefCounted>) -> Self {
        Self {
            dialect: PhantomVar::default(),
            precision: PhantomVar::default(),
            full_objects: PhantomVar::default(),
            allow_objects: PhantomVar::default(),
            allow_lossy: PhantomVar::default(),
            allow_trailing_bytes: PhantomVar::default(),
            max_depth: PhantomVar::default(),
            max_elements: PhantomVar::default(),
            max_bytes: PhantomVar::default(),
            max_message_size: PhantomVar::default(),
            max_payload: PhantomVar::default(),
            allowed_classes: PhantomVar::default(),
            state: Arc::new(CodecState::new()),
            base,
        }
    }
}

#[godot_api]
impl FastVarCodec {
    // The Dialect and Precision constants are registered with their enum's name by
    // `crate::class_enums` (gdext's `#[constant]` has no enum name).
    //
    // `const` only when nothing changes. gdext registers every `&self` method as `const`, so the
    // calls that change what a later call sees (a file, a stream, what `get_error()` reports)
    // take `this: Gd<Self>` (`gd_self`), registered as not `const`, and copy the state's `Arc`
    // out of a momentary shared bind: no bind is held while they run. The setters cannot:
    // gdext's property check admits only `&self` and `&mut self` setters, and `&mut self`
    // takes an exclusive bind, which gdext's thread-safe cell refuses ("bind_mut() failed,
    // already bound") while another thread holds a bind of the object. So they stay `&self`,
    // and `const` in ClassDB (docs/gdscript.md says so); the getters are `const` by right.

    /// Returns [member dialect].
    #[func]
    fn get_dialect(&self) -> DialectInt {
        DialectInt(self.state.get_dialect())
    }
    /// Sets [member dialect]; see [member dialect] for a value that cannot apply.
    #[func]
    fn set_dialect(&self, value: DialectInt) {
        self.state.set_dialect(value.0);
    }
    /// Returns [member precision].
    #[func]
    fn get_precision(&self) -> PrecisionInt {
        PrecisionInt(self.state.get_precision())
    }
    /// Sets [member precision]; see [member dialect] for a value that cannot apply.
    #[func]
    fn set_precision(&self, value: PrecisionInt) {
        self.state.set_precision(value.0);
    }
    /// Returns [member full_objects].
    #[func]
    fn get_full_objects(&self) -> bool {
        self.state.get_full_objects()
    }
    /// Sets [member full_objects].
    #[func]
    fn set_full_objects(&self, on: bool) {
        self.state.set_full_objects(on);
    }
    /// Returns [member allow_objects].
    #[func]
    fn get_allow_objects(&self) -> bool {
        self.state.get_allow_objects()
    }
    /// Sets [member allow_objects].
    #[func]
    fn set_allow_objects(&self, on: bool) {
        self.state.set_allow_objects(on);
    }
    /// Returns [member allow_lossy].
    #[func]
    fn get_allow_lossy(&self) -> bool {
        self.state.get_allow_lossy()
    }
    /// Sets [member allow_lossy].
    #[func]
    fn set_allow_lossy(&self, on: bool) {
        self.state.set_allow_lossy(on);
    }
    /// Returns [member allow_trailing_bytes].
    #[func]
    fn get_allow_trailing_bytes(&self) -> bool {
        self.state.allow_trailing_bytes()
    }
    /// Sets [member allow_trailing_bytes].
    #[func]
    fn set_allow_trailing_bytes(&self, on: bool) {
        self.state.set_allow_trailing_bytes(on);
    }
    /// Returns [member max_depth].
    #[func]
    fn get_max_depth(&self) -> i64 {
        self.state.get_max_depth()
    }
    /// Sets [member max_depth].
    #[func]
    fn set_max_depth(&self, depth: i64) {
        self.state.set_max_depth(depth);
    }
    /// Returns [member max_elements].
    #[func]
    fn get_max_elements(&self) -> i64 {
        self.state.get_max_elements()
    }
    /// Sets [member max_elements].
    #[func]
    fn set_max_elements(&self, n: i64) {
        self.state.set_max_elements(n);
    }
    /// Returns [member max_bytes].
    #[func]
    fn get_max_bytes(&self) -> i64 {
        self.state.get_max_bytes()
    }
    /// Sets [member max_bytes].
    #[func]
    fn set_max_bytes(&self, n: i64) {
        self.state.set_max_bytes(n);
    }
    /// Returns [member max_message_size].
    #[func]
    fn get_max_message_size(&self) -> i64 {
        self.state.get_max_message_size()
    }
    /// Sets [member max_message_size].
    #[func]
    fn set_max_message_size(&self, size: i64) {
        self.state.set_max_message_size(size);
    }
    /// Returns [member max_payload].
    #[func]
    fn get_max_payload(&self) -> i64 {
        self.state.get_max_payload()
    }
    /// Sets [member max_payload].
    #[func]
    fn set_max_payload(&self, n: i64) {
        self.state.set_max_payload(n);
    }
    /// Returns [member allowed_classes].
    #[func]
    fn get_allowed_classes(&self) -> PackedStringArray {
        self.state.get_allowed_classes()
    }
    /// Sets [member allowed_classes].
    #[func]
    fn set_allowed_classes(&self, classes: PackedStringArray) {
        self.state.set_allowed_classes(classes);
    }

    // `encode`, `encoded_size`, `decode`, `get_decoded_size`, `get_error`,
    // `get_error_message`, `put_var`, `get_var`, `put_packet_var` and `get_packet_var` are
    // registered by `crate::direct`, without gdext's binding.

    /// The bytes [method put_var] writes for [param value] on a peer with the default byte
    /// order: a 32-bit little-endian length, then the encoding ([method StreamPeer.put_var]'s
    /// framing, [method FastVarStream.feed]'s input). Empty bytes on failure, with
    /// [constant ERR_OUT_OF_MEMORY] above [member max_message_size].
    ///
    /// ```gdscript
    /// var wire := codec.encode_framed({"hp": 3}) + codec.encode_framed("bye")
    /// var first = codec.decode_framed(wire)
    /// var second = codec.decode_framed(wire, codec.get_decoded_size())
    /// ```
    #[func(gd_self)]
    fn encode_framed(this: Gd<Self>, value: Variant) -> PackedByteArray {
        let state = Arc::clone(&this.bind().state);
        state.encode_framed(&value)
    }

    /// Decodes the framed value at [param offset] in [param bytes], as [method encode_framed]
    /// writes it; [method get_decoded_size] is then the whole frame's size (length included), the
    /// offset of the next frame. Returns [code]null[/code] on failure: [constant ERR_FILE_EOF]
    /// for a frame cut short, [constant ERR_OUT_OF_MEMORY] for a length above
    /// [member max_message_size] (refused without allocating), [constant ERR_INVALID_DATA] for a
    /// value that leaves bytes of its frame unread (another dialect's; the message names the
    /// dialect that reads it whole), the decode error otherwise.
    #[func(gd_self)]
    fn decode_framed(
        this: Gd<Self>,
        bytes: PackedByteArray,
        #[opt(default = 0)] offset: i64,
    ) -> Variant {
        let state = Arc::clone(&this.bind().state);
        state.decode_framed(bytes.as_slice(), offset)
    }

    /// The value of a packet a game compressed, [code]var_to_bytes(value).compress(compression)[/code]
    /// ([method PackedByteArray.compress]), decompressed to at most [param max_size] bytes and
    /// decoded with this codec's settings. Unlike [method PackedByteArray.decompress_dynamic]
    /// it reads every mode (FastLZ and Zstd too) within the size, and unlike
    /// [method PackedByteArray.decompress] it needs no exact size, and it reads a FastLZ packet
    /// of a short value past its padding. Returns [code]null[/code] on failure:
    /// [constant ERR_OUT_OF_MEMORY] for a packet holding more than [param max_size] bytes
    /// (nothing past them is made), [constant ERR_INVALID_DATA] for one that does not
    /// decompress or a value that leaves bytes unread, the decode's error otherwise; check
    /// [method get_error].
    /// [codeblock]
    /// var codec := FastVarCodec.new()
    /// var value = codec.decode_compressed(packet, FileAccess.COMPRESSION_ZSTD, 65536)
    /// [/codeblock]
    #[func(gd_self)]
    fn decode_compressed(
        this: Gd<Self>,
        packet: PackedByteArray,
        compression: CompressionMode,
        max_size: i64,
    ) -> Variant {
        let state = Arc::clone(&this.bind().state);
        let opts = state.options();
        state.decode_compressed(
            &opts,
            packet.as_slice(),
            i64::from(compression.ord()),
            max_size,
        )
    }

    /// The value of [param text] in Godot's text format, as [method @GlobalScope.str_to_var]
    /// reads it (also a [ConfigFile]'s values and a [code].tres[/code] file's properties), but
    /// safely: it never makes or loads an object. Where the engine's [code]str_to_var[/code]
    /// instantiates an [code]Object(...)[/code] and loads its [code]script[/code] (and loads any
    /// [code]Resource(...)[/code] path), this returns [code]null[/code] with
    /// [constant ERR_UNAUTHORIZED], whatever [member allow_objects] says. Text that is not
    /// Godot's returns [code]null[/code] with [constant ERR_PARSE_ERROR], the message naming the
    /// line and column; the limits ([member max_depth] …) apply as to a decode. Check
    /// [method get_error].
    /// [codeblock]
    /// var codec := FastVarCodec.new()
    /// var value = codec.str_to_var(untrusted_text)
    /// if codec.get_error() != OK:
    ///     push_warning(codec.get_error_message())
    /// [/codeblock]
    #[func(gd_self)]
    fn str_to_var(this: Gd<Self>, text: GString) -> Variant {
        let state = Arc::clone(&this.bind().state);
        // The options as set, without loading the allow-list's scripts: no object is read.
        let opts = state.settings().opts.clone();
        state.str_to_var(&opts, &text.to_string())
    }

    /// The version of the FastVarCodec addon that is loaded (the library's own, such as
    /// [code]"0.1.0"[/code]), for a script to check what it runs against.
    #[func]
    fn get_version() -> GString {
        GString::from(env!("CARGO_PKG_VERSION"))
    }

    /// Writes [param value] at [param file]'s position as [method FileAccess.store_var] does (a
    /// 32-bit length in the file's byte order, then the encoding), in this codec's dialect and
    /// precision: with [constant DIALECT_GODOT_3], a file Godot 3's [code]File.get_var[/code] reads.
    /// Open the file with [method FileAccess.open_compressed] for Godot 3's compressed files (every
    /// mode is compatible), or write to bytes and use [method encrypt_godot3] for its encrypted ones.
    /// A [param file] that is [code]null[/code] (a failed [method FileAccess.open]) or not a
    /// [FileAccess] is refused with [constant ERR_INVALID_PARAMETER].
    #[func(gd_self)]
    fn store_var(this: Gd<Self>, file: Variant, value: Variant) -> Error {
        let state = Arc::clone(&this.bind().state);
        match file_arg(&file) {
            Some(file) => state.store_var(file, &value),
            None => no_file(&state.calls),
        }
    }

    /// Reads the value written by [method store_var] (or [code]store_var[/code] of the dialect's
    /// engine) at [param file]'s position, and moves past it. Returns [code]null[/code] on failure:
    /// [constant ERR_FILE_EOF] at the end of the file or for a value cut short, the decode error
    /// otherwise; [method get_error_message] names the file offset, and the position stays where
    /// that value starts, so values already read are kept and nothing is skipped. The value must
    /// take all the bytes its length announces: one that leaves some unread is another dialect's
    /// (a Godot 3 file read as Godot 4) or damaged, [constant ERR_INVALID_DATA], and the message
    /// names the dialect that reads it whole. ([code]FileAccess.get_var[/code] returns what it
    /// read of such a value.)
    ///
    /// ```gdscript
    /// var f := FileAccess.open_compressed("user://godot3.save", FileAccess.READ, FileAccess.COMPRESSION_ZSTD)
    /// while f.get_position() < f.get_length():
    ///     var v = codec.read_var(f)
    ///     if codec.get_error() != OK:
    ///         push_error(codec.get_error_message())
    ///         break
    /// ```
    /// A [param file] that is [code]null[/code] (a failed [method FileAccess.open]) or not a
    /// [FileAccess] gives [code]null[/code] with [constant ERR_INVALID_PARAMETER].
    #[func(gd_self)]
    fn read_var(this: Gd<Self>, file: Variant) -> Variant {
        let state = Arc::clone(&this.bind().state);
        match file_arg(&file) {
            Some(file) => state.read_var(file),
            None => {
                no_file(&state.calls);
                Variant::nil()
            }
        }
    }

    /// Reads every value of a save file written by Godot 3's [code]File.store_var[/code], in
    /// order, whatever the file's container: plain ([code]File.open[/code]), compressed
    /// ([code]File.open_compressed[/code], any of the four modes: the mode is read from the file)
    /// or encrypted ([code]File.open_encrypted_with_pass[/code] with [param password], or
    /// [code]File.open_encrypted[/code] with its 32-byte [param key]: pass one of the two). The
    /// password or key is for encrypted files only: other files ignore it. The values are decoded in the Godot 3
    /// dialect whatever [member dialect] is, with this codec's other settings
    /// ([member allow_objects], [member allowed_classes], the limits, and
    /// [member max_message_size] for each value's length, as [method read_var], and
    /// [member max_payload] for the file's payload). A value that leaves bytes of its record
    /// unread (a Godot 4 file) fails with [constant ERR_INVALID_DATA], naming the dialect that
    /// reads it whole.
    /// [method get_error] is [constant OK] when every value was read. Otherwise:
    /// - the file cannot be opened: the engine's open error, and an empty array;
    /// - an encrypted file without [param password] or [param key]: [constant ERR_UNAUTHORIZED];
    /// a wrong one (which cannot be told from damage), a damaged or cut encrypted or compressed
    /// file: [constant ERR_FILE_CORRUPT]; a key that is not 32 bytes, or both a password and a
    /// key: [constant ERR_INVALID_PARAMETER]; in all these cases the array is empty, since no
    /// byte of the payload can be trusted. (A damaged compressed block is found because each
    /// block is decompressed with the engine's codec and its size checked:
    /// [method FileAccess.open_compressed] itself passes such a block on unnoticed.)
    /// - a value that does not decode, or the last one cut short ([constant ERR_FILE_EOF]): the
    /// values before it are returned, and [method get_error_message] names the value's index.
    ///
    /// ```gdscript
    /// var codec := FastVarCodec.new()
    /// var values := codec.read_godot3_save("user://savegame.sav", "the game's password")
    /// if codec.get_error() != OK:
    ///     push_error(codec.get_error_message())
    /// ```
    #[func(gd_self)]
    fn read_godot3_save(
        this: Gd<Self>,
        path: GString,
        #[opt(default = "")] password: GString,
        #[opt(default = &PackedByteArray::new())] key: PackedByteArray,
    ) -> VarArray {
        let state = Arc::clone(&this.bind().state);
        state.read_godot3_save(&path, &password, &key)
    }

    /// Reads the [ConfigFile] at [param path] as [method ConfigFile.load] does, or as
    /// [method ConfigFile.load_encrypted_pass] with [param password] and
    /// [method ConfigFile.load_encrypted] with its 32-byte [param key] (either engine's encrypted
    /// file: Godot 4's or Godot 3's), but safely: objects pass the gates of a decode. Where the
    /// engine's [method ConfigFile.load] makes every [code]Object(...)[/code] a file names and
    /// loads its [code]script[/code] (running its code), this fails the whole file with
    /// [constant ERR_UNAUTHORIZED] unless [member allow_objects] is on and
    /// [member allowed_classes] admits the class (settings often hold an [InputEventKey] or a
    /// [Curve]: list those), and loads a script only when [member allowed_classes] admits it; a
    /// [code]Resource("res://…")[/code] reference is read as a [Resource] holding its path, never
    /// loaded. The limits ([member max_depth] …) apply to the whole file; with [member dialect]
    /// [constant DIALECT_GODOT3] a section's name ends at its first [code]][/code], as in Godot 3.
    /// Returns [code]null[/code] on failure: the engine's open error, [constant ERR_UNAUTHORIZED]
    /// for an encrypted file without a password or key, [constant ERR_FILE_CORRUPT] for a wrong
    /// one or a damaged file, [constant ERR_PARSE_ERROR] for text that is not a ConfigFile (the
    /// message names the line and column). Save it with [method ConfigFile.save], which runs
    /// nothing.
    /// [codeblock]
    /// var codec := FastVarCodec.new()
    /// var config := codec.load_config_file("user://settings.cfg")
    /// if config == null:
    ///     push_warning(codec.get_error_message())
    /// [/codeblock]
    #[func(gd_self)]
    fn load_config_file(
        this: Gd<Self>,
        path: GString,
        #[opt(default = "")] password: GString,
        #[opt(default = &PackedByteArray::new())] key: PackedByteArray,
    ) -> Option<Gd<ConfigFile>> {
        let state = Arc::clone(&this.bind().state);
        state.load_config_file(&path, &password, &key)
    }

    /// Opens a file of [code]store_var[/code] values, whatever its container and dialect, and
    /// tells how it is kept, so that [method write_file] can write it back the same way (a save
    /// editor's open). The container is found from the file: plain, compressed
    /// ([method FileAccess.open_compressed], any mode) or encrypted with [param password] or the
    /// 32-byte [param key] (Godot 4's [method FileAccess.open_encrypted_with_pass] and
    /// [method FileAccess.open_encrypted], or Godot 3's). The values are read in [param dialect],
    /// or with [code]-1[/code] (default) in the dialect the records tell, whatever
    /// [member dialect] is; this codec's other settings apply as for [method read_var]. A file
    /// holding one [method @GlobalScope.var_to_bytes] value and nothing else is read as that
    /// value ([code]"raw"[/code]). Returns:
    /// - [code]"values"[/code]: an [Array] of the values, in order;
    /// - [code]"dialect"[/code]: the [enum Dialect] they were read in;
    /// - [code]"container"[/code]: [code]"plain"[/code], [code]"compressed"[/code] or
    /// [code]"encrypted"[/code];
    /// - [code]"compression"[/code]: a compressed file's [enum FileAccess.CompressionMode],
    /// [code]-1[/code] otherwise;
    /// - [code]"encryption"[/code]: an encrypted file's container, [code]"godot4"[/code] or
    /// [code]"godot3"[/code], [code]""[/code] otherwise;
    /// - [code]"raw"[/code]: [code]true[/code] for one [method @GlobalScope.var_to_bytes] value.
    /// [method get_error] is [constant OK] when every value was read. A file that cannot be
    /// opened, an encrypted one without or with a wrong password or key, a damaged container:
    /// [code]{}[/code], the error as for [method read_godot3_save]. A record that does not
    /// decode, or records that engines read as different values (a Godot 3 [Color] is also a
    /// Godot 4 [Plane]: pass a [param dialect]): the values before it, and the error naming its
    /// index.
    /// [codeblock]
    /// var codec := FastVarCodec.new()
    /// var save := codec.inspect_file("user://savegame.dat", "the game's password")
    /// if codec.get_error() != OK:
    ///     push_error(codec.get_error_message())
    /// [/codeblock]
    #[func(gd_self)]
    fn inspect_file(
        this: Gd<Self>,
        path: GString,
        #[opt(default = "")] password: GString,
        #[opt(default = &PackedByteArray::new())] key: PackedByteArray,
        #[opt(default = -1)] dialect: i64,
    ) -> VarDictionary {
        let state = Arc::clone(&this.bind().state);
        state.inspect_file(&path, &password, &key, dialect)
    }

    /// Writes [param values] to [param path] as [method FileAccess.store_var] writes them, one
    /// record each, in this codec's [member dialect], [member precision] and
    /// [member full_objects]: a plain file; with [param compression] (a
    /// [enum FileAccess.CompressionMode]; [code]-1[/code], the default, for none) the file
    /// [method FileAccess.open_compressed] writes; with [param password] or a 32-byte [param key]
    /// the file [method FileAccess.open_encrypted_with_pass] / [method FileAccess.open_encrypted]
    /// writes (Godot 3's container in [constant DIALECT_GODOT_3]). Compressed or encrypted, not
    /// both. An object read as an id ([EncodedObjectAsID]) is written as [method encode] writes
    /// it: an id, or with [member full_objects] an [EncodedObjectAsID] in full, as the engine's
    /// [method @GlobalScope.var_to_bytes_with_objects] does. Every value is encoded first, and the file is written beside [param path], then
    /// renamed over it: on any failure the file that was there stays as it was. Returns
    /// [constant OK], or the error [method get_error] reports: a value that cannot be written
    /// (its index in the message), [constant ERR_INVALID_PARAMETER] for a mode or key that cannot
    /// be, or the engine's file error.
    /// [codeblock]
    /// var codec := FastVarCodec.new()
    /// var save := codec.inspect_file("user://savegame.dat", "pw")
    /// save.values[0]["gold"] += 10
    /// codec.dialect = save.dialect
    /// codec.write_file("user://savegame.dat", save.values, save.compression, "pw")
    /// [/codeblock]
    #[func(gd_self)]
    fn write_file(
        this: Gd<Self>,
        path: GString,
        values: VarArray,
        #[opt(default = -1)] compression: i64,
        #[opt(default = "")] password: GString,
        #[opt(default = &PackedByteArray::new())] key: PackedByteArray,
    ) -> Error {
        let state = Arc::clone(&this.bind().state);
        state.write_file(&path, &values, compression, &password, &key)
    }

    /// [method load_config_file] for the text of a ConfigFile, as [method ConfigFile.parse]
    /// reads it, safely.
    #[func(gd_self)]
    fn parse_config_file(this: Gd<Self>, text: GString) -> Option<Gd<ConfigFile>> {
        let state = Arc::clone(&this.bind().state);
        state.parse_config_file(&text.to_string())
    }

    /// Reads the text resource ([code].tres[/code]) at [param path] as data, safely: where
    /// [method ResourceLoader.load] loads every file the resource names and runs their scripts,
    /// this one loads and makes nothing (see [FastVarTextResource]). Values written as
    /// [code]Object(...)[/code] pass the gates of a decode ([member allow_objects],
    /// [member allowed_classes]); the limits ([member max_depth] …) apply to the whole file.
    /// Returns [code]null[/code] on failure: the engine's open error, [constant ERR_PARSE_ERROR]
    /// for text that is not a text resource (the message names the line and column),
    /// [constant ERR_UNAUTHORIZED] for an object not admitted.
    /// [codeblock]
    /// var codec := FastVarCodec.new()
    /// var res := codec.load_text_resource("user://save.tres")
    /// if res == null:
    ///     push_error(codec.get_error_message())
    /// [/codeblock]
    #[func(gd_self)]
    fn load_text_resource(
        this: Gd<Self>,
        path: GString,
    ) -> Option<Gd<crate::text_resources::FastVarTextResource>> {
        let state = Arc::clone(&this.bind().state);
        state.load_text_resource(&path)
    }

    /// [method load_text_resource] for the text of a text resource.
    #[func(gd_self)]
    fn parse_text_resource(
        this: Gd<Self>,
        text: GString,
    ) -> Option<Gd<crate::text_resources::FastVarTextResource>> {
        let state = Arc::clone(&this.bind().state);
        state.parse_text_resource(&text.to_string())
    }

    /// Reads a JSON save, as a game writes one with
    /// [code]store_string(JSON.stringify(data))[/code] (Godot 3: [code]JSON.print[/code]): the
    /// text, or its encrypted container with [param password] or the 32-byte [param key]
    /// ([method FileAccess.open_encrypted_with_pass], [method FileAccess.open_encrypted]; Godot
    /// 4's or Godot 3's, which Godot 4 cannot open). It reads as [method JSON.parse] reads, but
    /// a number written without a fraction or an exponent stays an [int]; with [member dialect]
    /// [constant DIALECT_GODOT_3], Godot 3's escapes. Returns a Dictionary:
    /// - [code]"value"[/code]: the value;
    /// - [code]"style"[/code]: how its text was written, what [method write_json_save] takes:
    /// [code]"dialect"[/code] (the engine, a [enum Dialect]), [code]"indent"[/code],
    /// [code]"sort_keys"[/code], [code]"full_precision"[/code];
    /// - [code]"engine_text"[/code]: [code]true[/code] when that style writes the text read
    /// exactly (an engine wrote it; a file a person wrote is rewritten in the engine's layout).
    /// On failure [code]{}[/code] and [method get_error]: the engine's open error,
    /// [constant ERR_UNAUTHORIZED] for an encrypted file without a password or key,
    /// [constant ERR_FILE_CORRUPT] for a wrong one or a damaged file, [constant ERR_PARSE_ERROR]
    /// for text that is not JSON (the message names the line and column), or a limit
    /// ([member max_depth] …) passed.
    /// [codeblock]
    /// var codec := FastVarCodec.new()
    /// var save := codec.load_json_save("user://save.json", "the game's password")
    /// if codec.get_error() != OK:
    ///     push_error(codec.get_error_message())
    /// [/codeblock]
    #[func(gd_self)]
    fn load_json_save(
        this: Gd<Self>,
        path: GString,
        #[opt(default = "")] password: GString,
        #[opt(default = &PackedByteArray::new())] key: PackedByteArray,
    ) -> VarDictionary {
        let state = Arc::clone(&this.bind().state);
        state.load_json_save(&path, &password, &key)
    }

    /// Writes [param value] to [param path] as a JSON save: the text
    /// [method JSON.stringify] writes with the arguments in [param style] (Godot 3's
    /// [code]JSON.print[/code] for [constant DIALECT_GODOT_3]), the keys
    /// [method load_json_save] gives; a key left out is the engine's default (no indent, keys
    /// sorted in Godot 4 and not in Godot 3, no [code]full_precision[/code]) in this codec's
    /// [member dialect], so [code]{}[/code] writes what [code]JSON.stringify(value)[/code]
    /// writes. With [param password] or a 32-byte [param key], in that engine's
    /// encrypted container. A value JSON cannot hold as it is (a [Vector2] the engine would
    /// write as a String, a NaN it would write as [code]null[/code], a key that is not a
    /// String) is refused with [constant ERR_INVALID_PARAMETER], the message naming its place
    /// ([code]$.player.pos[/code]), rather than read back as another. The file is written
    /// beside [param path], then renamed over it: on any failure the file that was there stays
    /// as it was.
    /// [codeblock]
    /// var codec := FastVarCodec.new()
    /// var save := codec.load_json_save("user://save.json")
    /// save.value["gold"] += 10
    /// codec.write_json_save("user://save.json", save.value, save.style)
    /// [/codeblock]
    #[func(gd_self)]
    fn write_json_save(
        this: Gd<Self>,
        path: GString,
        value: Variant,
        style: VarDictionary,
        #[opt(default = "")] password: GString,
        #[opt(default = &PackedByteArray::new())] key: PackedByteArray,
    ) -> Error {
        let state = Arc::clone(&this.bind().state);
        state.write_json_save(&path, &value, &style, &password, &key)
    }

    /// The plaintext of a file written by Godot 3's [code]File.open_encrypted_with_pass[/code] or
    /// [code]ConfigFile.save_encrypted_pass[/code] (Godot 4's [method FileAccess.open_encrypted_with_pass]
    /// cannot open them: the container changed). Feed it to a [FastVarStream] to read its values
    /// ([method load_config_file] opens an encrypted ConfigFile of either engine itself). A wrong password or a damaged file
    /// fails the MD5 check: empty bytes and [constant ERR_FILE_CORRUPT].
    #[func(gd_self)]
    fn decrypt_godot3(this: Gd<Self>, data: PackedByteArray, password: GString) -> PackedByteArray {
        let state = Arc::clone(&this.bind().state);
        state.decrypt_godot3(&data, crate::files::KeySource::Password(&password))
    }

    /// As [method decrypt_godot3], for files written with a 32-byte key
    /// ([code]File.open_encrypted[/code], [code]ConfigFile.save_encrypted[/code]).
    #[func(gd_self)]
    fn decrypt_godot3_with_key(
        this: Gd<Self>,
        data: PackedByteArray,
        key: PackedByteArray,
    ) -> PackedByteArray {
        let state = Arc::clone(&this.bind().state);
        state.decrypt_godot3(&data, crate::files::KeySource::Bytes(&key))
    }

    /// A Godot 3 encrypted file holding [param plaintext], which Godot 3's
    /// [code]File.open_encrypted_with_pass[/code] (and [code]ConfigFile.load_encrypted_pass[/code]) opens.
    #[func(gd_self)]
    fn encrypt_godot3(
        this: Gd<Self>,
        plaintext: PackedByteArray,
        password: GString,
    ) -> PackedByteArray {
        let state = Arc::clone(&this.bind().state);
        state.encrypt_godot3(&plaintext, crate::files::KeySource::Password(&password))
    }

    /// As [method encrypt_godot3], with a 32-byte key ([code]File.open_encrypted[/code]).
    #[func(gd_self)]
    fn encrypt_godot3_with_key(
        this: Gd<Self>,
        plaintext: PackedByteArray,
        key: PackedByteArray,
    ) -> PackedByteArray {
        let state = Arc::clone(&this.bind().state);
        state.encrypt_godot3(&plaintext, crate::files::KeySource::Bytes(&key))
    }
}

/// A file argument: taken as a Variant, so that `null` (what a failed `FileAccess.open`
/// returns) and objects of other classes reach the method, which refuses them through
/// `get_error()` instead of gdext failing the call and aborting the calling function.
fn file_arg(file: &Variant) -> Option<Gd<FileAccess>> {
    file.try_to::<Gd<FileAccess>>().ok()
}

/// The failure of a call whose file argument is null or not a `FileAccess`.
fn no_file(calls: &crate::call_state::CallState) -> Error {
    calls.fail_with(
        Error::ERR_INVALID_PARAMETER,
        "the file is null (did FileAccess.open fail? see FileAccess.get_open_error()) or not a FileAccess".into(),
    )
}

impl FastVarCodec {
    /// What the codec holds: shared with `crate::direct` and with streams.
    pub(crate) fn state(&self) -> &Arc<CodecState> {
        &self.state
    }
}

impl Drop for FastVarCodec {
    fn drop(&mut self) {
        crate::codec_registry::forget(&self.state);
    }
}
