//! The `FastVarCodec` class as GDScript sees it.

use std::cell::Cell;
use std::sync::{Arc, OnceLock, PoisonError, RwLock, RwLockReadGuard};

use bytes::BytesMut;
use fast_var_codec_core::error::EncodeReason;
use fast_var_codec_core::{
    decode_with, CodecError, Dialect, Options, Precision, Sink, SizeCounter, SliceSink, Writer,
};
use godot::classes::{IRefCounted, PacketPeer, RefCounted, StreamPeer};
use godot::global::Error;
use godot::prelude::*;
use godot::register::property::PhantomVar;

use crate::allow_list;
use crate::call_state::CallState;
use crate::from_wire::VariantBuilder;
use crate::registry::Registry;
use crate::to_wire::write_variant;

/// Encodes and decodes Godot's binary Variant format (the bytes of [method @GlobalScope.var_to_bytes],
/// [method StreamPeer.put_var] and [method FileAccess.store_var]) in an explicit dialect and precision.
///
/// With [constant DIALECT_GODOT_4] and [constant PRECISION_SINGLE] (the defaults) the bytes are exactly
/// those of [method @GlobalScope.var_to_bytes]. [constant DIALECT_GODOT_3] speaks the Godot 3.1–3.6 layout
/// ([code]var2bytes[/code]), so a Godot 4 game can talk to Godot 3 games, servers and save files.
/// Errors never crash: a failed call returns empty bytes or [code]null[/code], and [method get_error]
/// and [method get_error_message] tell what went wrong and where.
///
/// [b]Threads:[/b] every method may be called from any thread, and one codec may serve several
/// threads at once. Settings are shared; [method get_error], [method get_error_message] and
/// [method get_decoded_size] report the last call made [i]from the calling thread[/i].
#[derive(GodotClass)]
#[class(base = RefCounted)]
pub struct FastVarCodec {
    /// Byte layout: [constant DIALECT_GODOT_4] (default), [constant DIALECT_GODOT_3],
    /// [constant DIALECT_PANDEMONIUM_3_8] or [constant DIALECT_PANDEMONIUM_5].
    /// Godot 3 and Pandemonium cannot be chosen while [member precision] is [constant PRECISION_DOUBLE].
    #[var(get = get_dialect, set = set_dialect)]
    dialect: PhantomVar<i64>,
    /// Width of [code]real_t[/code] components on the wire: [constant PRECISION_SINGLE] (default) or
    /// [constant PRECISION_DOUBLE] (what double-precision engine builds write; Godot 4 only). Decoding
    /// accepts both.
    #[var(get = get_precision, set = set_precision)]
    precision: PhantomVar<i64>,
    /// Encode objects with their class and stored properties, as [method @GlobalScope.var_to_bytes_with_objects];
    /// off, objects travel as instance ids.
    #[var(get = get_full_objects, set = set_full_objects)]
    full_objects: PhantomVar<bool>,
    /// Decode full objects, as [method @GlobalScope.bytes_to_var_with_objects]. Off (default), such input
    /// fails with [constant ERR_UNAUTHORIZED]. [b]Warning:[/b] a decoded object can carry a script path, and
    /// loading that script runs its code: for untrusted data, also set [member allowed_classes].
    #[var(get = get_allow_objects, set = set_allow_objects)]
    allow_objects: PhantomVar<bool>,
    /// In [constant DIALECT_GODOT_3], convert Godot 4-only values (Vector2i, Vector4, Projection, Callable,
    /// an RID's id …) to their closest Godot 3 value instead of failing.
    #[var(get = get_allow_lossy, set = set_allow_lossy)]
    allow_lossy: PhantomVar<bool>,
    /// Deepest nesting accepted when encoding or decoding (default and maximum 1024, as the engine).
    #[var(get = get_max_depth, set = set_max_depth)]
    max_depth: PhantomVar<i64>,
    /// Most container elements one decode may produce, all levels together: Array items, Dictionary
    /// entries, object properties, NodePath parts. [code]-1[/code] (default): no limit, as the engine.
    /// Past it: [constant ERR_OUT_OF_MEMORY].
    #[var(get = get_max_elements, set = set_max_elements)]
    max_elements: PhantomVar<i64>,
    /// Most bytes of strings and packed-array data one decode may produce. [code]-1[/code] (default):
    /// no limit, as the engine. Past it: [constant ERR_OUT_OF_MEMORY].
    #[var(get = get_max_bytes, set = set_max_bytes)]
    max_bytes: PhantomVar<i64>,
    /// When not empty and [member allow_objects] is on, the only classes and scripts a decode may name,
    /// anywhere in the value: full objects, their [code]script[/code], and the types of typed Arrays and
    /// Dictionaries. Entries are native class names ([code]"Resource"[/code], matched exactly, not their
    /// subclasses), script class names ([code]"MyData"[/code]) or script paths ([code]"res://my_data.gd"[/code]).
    /// A listed script admits objects of the native class it extends when they carry it. Anything else fails
    /// with [constant ERR_UNAUTHORIZED] before any object is made or any script is loaded. Setting the list
    /// loads the listed scripts that have no global class name, to learn their base class.
    #[var(get = get_allowed_classes, set = set_allowed_classes)]
    allowed_classes: PhantomVar<PackedStringArray>,
    /// Reached from calls through [`CODECS`], never through gdext's binding (see there).
    state: Arc<CodecState>,
    base: Base<RefCounted>,
}

/// Codecs by instance id: a call reaches its codec's state here rather than through gdext's
/// thread-safe instance binding, which takes a mutex and wakes a futex on every call (about
/// 100 ns, a third of a small call).
static CODECS: Registry<CodecState> = Registry::new();

/// Everything a codec holds, shared by the threads that call it.
pub(crate) struct CodecState {
    settings: RwLock<Settings>,
    calls: CallState,
    /// The instance id it is registered under in [`CODECS`], once a call has registered it.
    registered: OnceLock<i64>,
}

/// The shared settings: the core's options, and what the properties hand back.
#[derive(Clone)]
struct Settings {
    opts: Arc<Options>,
    dialect: i64,
    precision: i64,
    allowed_classes: Vec<String>,
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
            max_depth: PhantomVar::default(),
            max_elements: PhantomVar::default(),
            max_bytes: PhantomVar::default(),
            allowed_classes: PhantomVar::default(),
            state: Arc::new(CodecState {
                settings: RwLock::new(Settings {
                    opts: Arc::new(Options::default()),
                    dialect: Self::DIALECT_GODOT_4,
                    precision: Self::PRECISION_SINGLE,
                    allowed_classes: Vec::new(),
                }),
                calls: CallState::default(),
                registered: OnceLock::new(),
            }),
            base,
        }
    }
}

/// `-1` for "no limit" (Godot's convention), else the number.
fn limit_to_godot(n: usize) -> i64 {
    if n == usize::MAX {
        -1
    } else {
        i64::try_from(n).unwrap_or(i64::MAX)
    }
}

fn limit_from_godot(n: i64) -> Option<usize> {
    match n {
        -1 => Some(usize::MAX),
        n => usize::try_from(n).ok(),
    }
}

#[godot_api]
impl FastVarCodec {
    /// The Godot 4.4–4.6 layout of [method @GlobalScope.var_to_bytes].
    #[constant]
    pub const DIALECT_GODOT_4: i64 = 0;
    /// The Godot 3.1–3.6 layout of [code]var2bytes[/code].
    #[constant]
    pub const DIALECT_GODOT_3: i64 = 1;
    /// Pandemonium engine v3.8.0–v4.9.0 ([code]var2bytes[/code]): Godot 3 layout with renumbered types.
    /// Derived from the engine's source; not checked against a running Pandemonium.
    #[constant]
    pub const DIALECT_PANDEMONIUM_3_8: i64 = 2;
    /// Pandemonium engine v5.0.0 and later, with typed arrays. Derived from the engine's source;
    /// not checked against a running Pandemonium.
    #[constant]
    pub const DIALECT_PANDEMONIUM_5: i64 = 3;
    /// 32-bit [code]real_t[/code] components, as standard engine builds write.
    #[constant]
    pub const PRECISION_SINGLE: i64 = 0;
    /// 64-bit [code]real_t[/code] components, as [code]precision=double[/code] engine builds write.
    #[constant]
    pub const PRECISION_DOUBLE: i64 = 1;

    /// Returns [member dialect].
    #[func]
    fn get_dialect(&self) -> i64 {
        self.state.get_dialect()
    }
    /// Sets [member dialect].
    #[func]
    fn set_dialect(&self, value: i64) {
        self.state.set_dialect(value)
    }
    /// Returns [member precision].
    #[func]
    fn get_precision(&self) -> i64 {
        self.state.get_precision()
    }
    /// Sets [member precision].
    #[func]
    fn set_precision(&self, value: i64) {
        self.state.set_precision(value)
    }
    /// Returns [member full_objects].
    #[func]
    fn get_full_objects(&self) -> bool {
        self.state.get_full_objects()
    }
    /// Sets [member full_objects].
    #[func]
    fn set_full_objects(&self, on: bool) {
        self.state.set_full_objects(on)
    }
    /// Returns [member allow_objects].
    #[func]
    fn get_allow_objects(&self) -> bool {
        self.state.get_allow_objects()
    }
    /// Sets [member allow_objects].
    #[func]
    fn set_allow_objects(&self, on: bool) {
        self.state.set_allow_objects(on)
    }
    /// Returns [member allow_lossy].
    #[func]
    fn get_allow_lossy(&self) -> bool {
        self.state.get_allow_lossy()
    }
    /// Sets [member allow_lossy].
    #[func]
    fn set_allow_lossy(&self, on: bool) {
        self.state.set_allow_lossy(on)
    }
    /// Returns [member max_depth].
    #[func]
    fn get_max_depth(&self) -> i64 {
        self.state.get_max_depth()
    }
    /// Sets [member max_depth].
    #[func]
    fn set_max_depth(&self, depth: i64) {
        self.state.set_max_depth(depth)
    }
    /// Returns [member max_elements].
    #[func]
    fn get_max_elements(&self) -> i64 {
        self.state.get_max_elements()
    }
    /// Sets [member max_elements].
    #[func]
    fn set_max_elements(&self, n: i64) {
        self.state.set_max_elements(n)
    }
    /// Returns [member max_bytes].
    #[func]
    fn get_max_bytes(&self) -> i64 {
        self.state.get_max_bytes()
    }
    /// Sets [member max_bytes].
    #[func]
    fn set_max_bytes(&self, n: i64) {
        self.state.set_max_bytes(n)
    }
    /// Returns [member allowed_classes].
    #[func]
    fn get_allowed_classes(&self) -> PackedStringArray {
        self.state.get_allowed_classes()
    }
    /// Sets [member allowed_classes].
    #[func]
    fn set_allowed_classes(&self, classes: PackedStringArray) {
        self.state.set_allowed_classes(classes)
    }

    /// Encodes [param value]. Returns empty bytes on failure (see [method get_error]).
    #[func(gd_self)]
    fn encode(this: Gd<Self>, value: Variant) -> PackedByteArray {
        Self::state(&this).encode(value)
    }

    /// The exact size [method encode] would return, computed without encoding; -1 on failure.
    #[func(gd_self)]
    fn encoded_size(this: Gd<Self>, value: Variant) -> i64 {
        Self::state(&this).encoded_size(value)
    }

    /// Decodes one value from [param bytes], starting at [param offset]. Trailing bytes are ignored;
    /// [method get_decoded_size] tells how many were used. Returns [code]null[/code] on failure; a failed
    /// decode leaves no object behind.
    #[func(gd_self)]
    fn decode(this: Gd<Self>, bytes: PackedByteArray, #[opt(default = 0)] offset: i64) -> Variant {
        Self::state(&this).decode(bytes, offset)
    }

    /// Bytes consumed by this thread's last successful [method decode] or [method get_var] on this
    /// codec (0 after a failure).
    #[func(gd_self)]
    fn get_decoded_size(this: Gd<Self>) -> i64 {
        Self::state(&this).get_decoded_size()
    }

    /// The [enum Error] of this thread's last call on this codec: [constant OK], or why it failed
    /// ([constant ERR_INVALID_DATA], [constant ERR_FILE_EOF], [constant ERR_UNAUTHORIZED],
    /// [constant ERR_OUT_OF_MEMORY] …).
    #[func(gd_self)]
    fn get_error(this: Gd<Self>) -> Error {
        Self::state(&this).get_error()
    }

    /// What went wrong in this thread's last call on this codec, with the byte offset (decoding) or
    /// the path inside the value (encoding, e.g. [code][3].items["k"][/code]); empty after a success.
    #[func(gd_self)]
    fn get_error_message(this: Gd<Self>) -> GString {
        Self::state(&this).get_error_message()
    }

    /// Writes [param value] to [param peer] as [method StreamPeer.put_var] does: a 32-bit length
    /// (in the peer's byte order) and the encoding.
    #[func(gd_self)]
    fn put_var(this: Gd<Self>, peer: Gd<StreamPeer>, value: Variant) -> Error {
        Self::state(&this).put_var(peer, value)
    }

    /// Sends [param value] as one packet, as [method PacketPeer.put_var] does (UDP, ENet, WebSocket).
    /// Encodings larger than [member FastVarStream.max_message_size]'s default (8 MiB, the engine's
    /// [code]encode_buffer_max_size[/code]) are refused with [constant ERR_OUT_OF_MEMORY].
    #[func(gd_self)]
    fn put_packet_var(this: Gd<Self>, peer: Gd<PacketPeer>, value: Variant) -> Error {
        Self::state(&this).put_packet_var(peer, value)
    }

    /// Takes one packet from [param peer] and decodes it, as [method PacketPeer.get_var] does.
    /// Returns [code]null[/code] with [constant ERR_UNAVAILABLE] when no packet is waiting.
    #[func(gd_self)]
    fn get_packet_var(this: Gd<Self>, peer: Gd<PacketPeer>) -> Variant {
        Self::state(&this).get_packet_var(peer)
    }

    /// Reads one value written by [method put_var] (or [method StreamPeer.put_var]) from [param peer],
    /// waiting for all of it as [method StreamPeer.get_var] does. A length above 8 MiB (the
    /// engine's [code]encode_buffer_max_size[/code]) is refused without allocating. Returns
    /// [code]null[/code] on failure. To read without ever waiting, use [FastVarStream].
    #[func(gd_self)]
    fn get_var(this: Gd<Self>, peer: Gd<StreamPeer>) -> Variant {
        Self::state(&this).get_var(peer)
    }
}

/// Arrays, Dictionaries and Objects: values whose size is as costly to find as to write.
fn is_container(v: &Variant) -> bool {
    use godot::builtin::VariantType as V;
    matches!(v.get_type(), V::ARRAY | V::DICTIONARY | V::OBJECT)
}

thread_local! {
    /// Each thread's encode buffer, reused between calls (taken out while in use, so an encode
    /// that runs script code which encodes again simply gets a fresh one).
    static ENCODE_BUFFER: Cell<BytesMut> = Cell::new(BytesMut::new());
}

/// Buffers larger than this are not kept for the next call.
const KEPT_BUFFER_CAPACITY: usize = 1 << 20;

/// Encodes `value` into this thread's buffer, then copies it into an engine array.
fn encode_to_packed(opts: &Options, value: &Variant) -> Result<PackedByteArray, CodecError> {
    let mut buf = ENCODE_BUFFER.with(Cell::take);
    buf.clear();
    let mut w = Writer::new(buf, opts)?;
    let res = write_variant(&mut w, value);
    let buf = w.into_sink();
    let out = res.map(|()| PackedByteArray::from(&buf[..]));
    if buf.capacity() <= KEPT_BUFFER_CAPACITY {
        ENCODE_BUFFER.with(|cell| cell.set(buf));
    }
    out
}

/// The exact size first, then the bytes written into the engine array itself.
fn encode_in_place(opts: &Options, value: &Variant) -> Result<PackedByteArray, CodecError> {
    let mut sizer = Writer::new(SizeCounter::default(), opts)?;
    write_variant(&mut sizer, value)?;
    let size = sizer.into_sink().0;
    let mut out = PackedByteArray::new();
    out.resize(size);
    let mut w = Writer::new(SliceSink::new(out.as_mut_slice()), opts)?;
    write_variant(&mut w, value)?;
    if w.sink().overflowed() || w.sink().written() != size {
        return Err(CodecError::encode(EncodeReason::BufferFull));
    }
    Ok(out)
}

/// Decodes one Variant; a failed decode frees the objects it made.
pub(crate) fn decode_variant(
    bytes: &[u8],
    offset: usize,
    opts: &Options,
) -> Result<(Variant, usize), CodecError> {
    let mut builder = VariantBuilder::default();
    let res = decode_with(bytes, offset, opts, &mut builder);
    if res.is_err() {
        builder.discard();
    }
    res
}

impl Settings {
    fn opts_mut(&mut self) -> &mut Options {
        Arc::make_mut(&mut self.opts)
    }
}

impl FastVarCodec {
    /// The state of `this` codec, without binding it (after the first call).
    fn state(this: &Gd<Self>) -> Arc<CodecState> {
        let id = this.instance_id().to_i64();
        if let Some(state) = CODECS.get(id) {
            return state;
        }
        let state = this.bind().state.clone();
        if state.registered.set(id).is_ok() {
            CODECS.insert(id, state.clone());
        }
        state
    }

    /// The options of `codec` for one call.
    pub(crate) fn options_of(codec: &Gd<Self>) -> Arc<Options> {
        Self::state(codec).options()
    }

    /// The encoding of `value` with `codec`'s settings (errors are the caller's to report).
    pub(crate) fn encode_with(
        codec: &Gd<Self>,
        value: &Variant,
    ) -> Result<PackedByteArray, CodecError> {
        Self::state(codec).encode_variant(value)
    }
}

impl Drop for FastVarCodec {
    fn drop(&mut self) {
        if let Some(id) = self.state.registered.get() {
            CODECS.remove(*id);
        }
    }
}

impl CodecState {
    fn settings(&self) -> RwLockReadGuard<'_, Settings> {
        self.settings.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies a settings change unless it makes options that cannot work.
    fn change(&self, what: &str, f: impl FnOnce(&mut Settings)) {
        let mut guard = self
            .settings
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let mut next = guard.clone();
        f(&mut next);
        if let Err(e) = next.opts.check() {
            godot_error!("FastVarCodec: {what} not changed: {e}");
            return;
        }
        *guard = next;
    }

    /// A snapshot of the options for one call (settings changed meanwhile apply to the next).
    pub(crate) fn options(&self) -> Arc<Options> {
        self.settings().opts.clone()
    }

    /// The encoding of `value` as engine bytes (errors are the caller's to report).
    pub(crate) fn encode_variant(&self, value: &Variant) -> Result<PackedByteArray, CodecError> {
        encode_to_packed(&self.options(), value)
    }

    fn get_dialect(&self) -> i64 {
        self.settings().dialect
    }
    fn set_dialect(&self, value: i64) {
        let dialect = match value {
            FastVarCodec::DIALECT_GODOT_4 => Dialect::Godot4,
            FastVarCodec::DIALECT_GODOT_3 => Dialect::Godot3,
            FastVarCodec::DIALECT_PANDEMONIUM_3_8 => Dialect::Pandemonium38,
            FastVarCodec::DIALECT_PANDEMONIUM_5 => Dialect::Pandemonium5,
            _ => {
                godot_error!("FastVarCodec: unknown dialect {value}; keeping the current one");
                return;
            }
        };
        self.change("dialect", |s| {
            s.opts_mut().dialect = dialect;
            s.dialect = value;
        });
    }
    fn get_precision(&self) -> i64 {
        self.settings().precision
    }
    fn set_precision(&self, value: i64) {
        let precision = match value {
            FastVarCodec::PRECISION_SINGLE => Precision::Single,
            FastVarCodec::PRECISION_DOUBLE => Precision::Double,
            _ => {
                godot_error!("FastVarCodec: unknown precision {value}; keeping the current one");
                return;
            }
        };
        self.change("precision", |s| {
            s.opts_mut().precision = precision;
            s.precision = value;
        });
    }
    fn get_full_objects(&self) -> bool {
        self.settings().opts.full_objects
    }
    fn set_full_objects(&self, on: bool) {
        self.change("full_objects", |s| s.opts_mut().full_objects = on);
    }
    fn get_allow_objects(&self) -> bool {
        self.settings().opts.allow_objects
    }
    fn set_allow_objects(&self, on: bool) {
        self.change("allow_objects", |s| s.opts_mut().allow_objects = on);
    }
    fn get_allow_lossy(&self) -> bool {
        self.settings().opts.allow_lossy
    }
    fn set_allow_lossy(&self, on: bool) {
        self.change("allow_lossy", |s| s.opts_mut().allow_lossy = on);
    }
    fn get_max_depth(&self) -> i64 {
        self.settings().opts.limits.max_depth as i64
    }
    fn set_max_depth(&self, depth: i64) {
        let ceiling = fast_var_codec_core::limits::MAX_DEPTH_CEILING as i64;
        if !(0..=ceiling).contains(&depth) {
            godot_error!("FastVarCodec: max_depth must be between 0 and {ceiling}");
            return;
        }
        self.change("max_depth", |s| {
            s.opts_mut().limits.max_depth = depth as usize
        });
    }
    fn get_max_elements(&self) -> i64 {
        limit_to_godot(self.settings().opts.limits.max_elements)
    }
    fn set_max_elements(&self, n: i64) {
        match limit_from_godot(n) {
            Some(v) => self.change("max_elements", |s| s.opts_mut().limits.max_elements = v),
            None => godot_error!("FastVarCodec: max_elements is -1 (no limit) or a count"),
        }
    }
    fn get_max_bytes(&self) -> i64 {
        limit_to_godot(self.settings().opts.limits.max_bytes)
    }
    fn set_max_bytes(&self, n: i64) {
        match limit_from_godot(n) {
            Some(v) => self.change("max_bytes", |s| s.opts_mut().limits.max_bytes = v),
            None => godot_error!("FastVarCodec: max_bytes is -1 (no limit) or a count"),
        }
    }
    fn get_allowed_classes(&self) -> PackedStringArray {
        self.settings()
            .allowed_classes
            .iter()
            .map(|c| GString::from(c.as_str()))
            .collect()
    }
    fn set_allowed_classes(&self, classes: PackedStringArray) {
        let entries: Vec<String> = classes.as_slice().iter().map(|c| c.to_string()).collect();
        let list = (!entries.is_empty()).then(|| allow_list::resolve(&entries));
        self.change("allowed_classes", |s| {
            s.opts_mut().allowed_objects = list.map(Arc::new);
            s.allowed_classes = entries;
        });
    }
    fn encode(&self, value: Variant) -> PackedByteArray {
        let opts = self.options();
        let res = if is_container(&value) {
            // One walk into this thread's reused buffer, then one copy: walking Godot
            // containers twice (size, then bytes) would cost more than the copy.
            encode_to_packed(&opts, &value)
        } else {
            // Sizing a leaf is cheap: write it straight into the engine's array.
            encode_in_place(&opts, &value)
        };
        match res {
            Ok(bytes) => {
                self.calls.ok();
                bytes
            }
            Err(e) => {
                self.calls.fail(&e);
                PackedByteArray::new()
            }
        }
    }
    fn encoded_size(&self, value: Variant) -> i64 {
        let opts = self.options();
        let res = Writer::new(SizeCounter::default(), &opts).and_then(|mut w| {
            write_variant(&mut w, &value)?;
            Ok(w.into_sink().0)
        });
        match res {
            Ok(n) => {
                self.calls.ok();
                n as i64
            }
            Err(e) => {
                self.calls.fail(&e);
                -1
            }
        }
    }
    fn get_decoded_size(&self) -> i64 {
        self.calls.decoded_size()
    }
    fn get_error(&self) -> Error {
        self.calls.error()
    }
    fn get_error_message(&self) -> GString {
        self.calls.message()
    }
    fn put_var(&self, mut peer: Gd<StreamPeer>, value: Variant) -> Error {
        let bytes = match encode_to_packed(&self.options(), &value) {
            Ok(b) => b,
            Err(e) => return self.calls.fail(&e),
        };
        let Ok(len) = u32::try_from(bytes.len()) else {
            return self.calls.fail_with(
                Error::ERR_OUT_OF_MEMORY,
                "value too large for a 32-bit length".into(),
            );
        };
        peer.put_u32(len);
        let err = peer.put_data(&bytes);
        if err != Error::OK {
            return self
                .calls
                .fail_with(err, format!("the peer refused the data ({err:?})"));
        }
        self.calls.ok()
    }
    fn put_packet_var(&self, mut peer: Gd<PacketPeer>, value: Variant) -> Error {
        let bytes = match encode_to_packed(&self.options(), &value) {
            Ok(b) => b,
            Err(e) => return self.calls.fail(&e),
        };
        if bytes.len() > fast_var_codec_core::stream::DEFAULT_MAX_MESSAGE {
            let n = bytes.len();
            return self.calls.fail_with(
                Error::ERR_OUT_OF_MEMORY,
                format!("a packet of {n} bytes exceeds 8 MiB"),
            );
        }
        let err = peer.put_packet(&bytes);
        if err != Error::OK {
            return self
                .calls
                .fail_with(err, format!("the peer refused the packet ({err:?})"));
        }
        self.calls.ok()
    }
    fn get_packet_var(&self, mut peer: Gd<PacketPeer>) -> Variant {
        if peer.get_available_packet_count() <= 0 {
            self.calls
                .fail_with(Error::ERR_UNAVAILABLE, "no packet is waiting".into());
            return Variant::nil();
        }
        let packet = peer.get_packet();
        let err = peer.get_packet_error();
        if err != Error::OK {
            self.calls
                .fail_with(err, format!("receiving the packet failed ({err:?})"));
            return Variant::nil();
        }
        self.decode(packet, 0)
    }
    fn get_var(&self, mut peer: Gd<StreamPeer>) -> Variant {
        let len = peer.get_u32() as usize;
        if len > fast_var_codec_core::stream::DEFAULT_MAX_MESSAGE {
            self.calls.fail_with(
                Error::ERR_OUT_OF_MEMORY,
                format!(
                    "a message of {len} bytes exceeds the maximum message size of 8388608 bytes"
                ),
            );
            return Variant::nil();
        }
        // Blocking peers (TCP) wait until every byte is there, as the engine's get_var does.
        let reply = peer.get_data(len as i32);
        let err = reply
            .get(0)
            .and_then(|e| e.try_to::<i32>().ok())
            .unwrap_or(0);
        let data = reply
            .get(1)
            .and_then(|d| d.try_to::<PackedByteArray>().ok())
            .unwrap_or_default();
        if err != 0 || data.len() != len {
            self.calls.fail_with(
                Error::ERR_FILE_EOF,
                format!("got {} of the {len} bytes of the value", data.len()),
            );
            return Variant::nil();
        }
        self.decode(data, 0)
    }
    fn decode(&self, bytes: PackedByteArray, offset: i64) -> Variant {
        let Ok(offset) = usize::try_from(offset) else {
            self.calls.fail_with(
                Error::ERR_INVALID_PARAMETER,
                format!("negative offset {offset}"),
            );
            return Variant::nil();
        };
        match decode_variant(bytes.as_slice(), offset, &self.options()) {
            Ok((v, used)) => {
                self.calls.ok_with_size(used as i64);
                v
            }
            Err(e) => {
                self.calls.fail(&e);
                Variant::nil()
            }
        }
    }
}
