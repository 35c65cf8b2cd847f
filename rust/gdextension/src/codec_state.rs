//! What a `FastVarCodec` holds and does, apart from the engine's view of the class: settings
//! shared by every thread that calls it, per-thread call states, and the calls themselves.
//! `codec.rs` registers the class and forwards each call here.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, PoisonError, RwLock, RwLockReadGuard};

use bytes::BytesMut;
use fast_var_codec_core::error::EncodeReason;
use fast_var_codec_core::stream::{check_message_len, frame_with, ByteOrder, DEFAULT_MAX_MESSAGE};
use fast_var_codec_core::{
    decode_with, CodecError, Dialect, Options, Precision, Sink, SizeCounter, SliceSink, Writer,
};
use godot::classes::{PacketPeer, StreamPeer};
use godot::global::Error;
use godot::prelude::*;

use crate::allow_list;
use crate::call_state::CallState;
use crate::codec::FastVarCodec;
use crate::from_wire::VariantBuilder;
use crate::to_wire::write_variant;

/// Everything a codec holds, shared by the threads that call it.
pub(crate) struct CodecState {
    pub(crate) settings: RwLock<Settings>,
    pub(crate) calls: CallState,
    /// The key it is registered under for direct calls, once one has registered it
    /// (`crate::direct_methods`).
    pub(crate) registered: OnceLock<usize>,
    /// Counts settings changes, so a thread's cached copy of the options knows it is stale.
    pub(crate) version: AtomicU64,
}

/// The shared settings: the core's options, and what the properties hand back.
#[derive(Clone)]
pub(crate) struct Settings {
    pub(crate) opts: Arc<Options>,
    pub(crate) dialect: i64,
    pub(crate) precision: i64,
    /// Whether `precision` was set by the user. Until it is, it follows the dialect: the engine's
    /// own `real_t` in the Godot 4 dialects, single in those that have no double layout.
    precision_chosen: bool,
    pub(crate) allowed_classes: Vec<String>,
    /// Longest message `get_var` reads and `put_packet_var` sends.
    pub(crate) max_message: usize,
}

/// The `real_t` of the running engine: the library's own (the `.gdextension` gives a
/// double-precision engine the library built with gdext's `double-precision`).
fn engine_precision() -> (Precision, i64) {
    if std::mem::size_of::<godot::builtin::real>() == 8 {
        (Precision::Double, FastVarCodec::PRECISION_DOUBLE)
    } else {
        (Precision::Single, FastVarCodec::PRECISION_SINGLE)
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

thread_local! {
    /// Each thread's encode buffer, reused between calls (taken out while in use, so an encode
    /// that runs script code which encodes again simply gets a fresh one).
    static ENCODE_BUFFER: Cell<Option<BytesMut>> = const { Cell::new(None) };
}

/// Buffers larger than this are not kept for the next call.
const KEPT_BUFFER_CAPACITY: usize = 1 << 20;

/// Encodes `value` into this thread's buffer, then copies it into an engine array.
fn encode_to_packed(opts: &Options, value: &Variant) -> Result<PackedByteArray, CodecError> {
    encode_into_buffer(opts, value, None)
}

/// As [`encode_to_packed`], with the stream framing of `StreamPeer.put_var` when `framed` says
/// the prefix's byte order: the core's length prefix, then the encoding, in one array.
pub(crate) fn encode_into_buffer(
    opts: &Options,
    value: &Variant,
    framed: Option<bool>,
) -> Result<PackedByteArray, CodecError> {
    let mut buf = ENCODE_BUFFER.with(Cell::take).unwrap_or_default();
    buf.clear();
    let res = match framed {
        // The core's framing, as every put_var of the project.
        Some(big_endian) => frame_with(
            &mut buf,
            opts,
            ByteOrder::from_big_endian(big_endian),
            |w| write_variant(w, value),
        )
        .map(|_| ()),
        None => Writer::new(std::mem::take(&mut buf), opts).and_then(|mut w| {
            let res = write_variant(&mut w, value);
            buf = w.into_sink();
            res
        }),
    };
    let out = res.map(|()| PackedByteArray::from(&buf[..]));
    if buf.capacity() <= KEPT_BUFFER_CAPACITY {
        ENCODE_BUFFER.with(|cell| cell.set(Some(buf)));
    }
    out
}

/// The exact size first (cheap for these), then the bytes written into the engine array itself:
/// for packed arrays of numbers, whose encoding is mostly one copy of their data.
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

/// Packed arrays of numbers, vectors and colors: sized in constant time, and written faster
/// straight into their final array than through a buffer and a copy.
fn is_packed_numbers(v: &Variant) -> bool {
    use fast_var_codec_core::VariantType as T;
    matches!(
        crate::fast_access::type_of(v),
        Some(
            T::PackedByteArray
                | T::PackedInt32Array
                | T::PackedInt64Array
                | T::PackedFloat32Array
                | T::PackedFloat64Array
                | T::PackedVector2Array
                | T::PackedVector3Array
                | T::PackedVector4Array
                | T::PackedColorArray
        )
    )
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
    /// Godot 4, the engine's own precision: the bytes of its `var_to_bytes`.
    pub(crate) fn new() -> Self {
        let (precision, value) = engine_precision();
        Settings {
            opts: Arc::new(Options::default().with_precision(precision)),
            dialect: FastVarCodec::DIALECT_GODOT_4,
            precision: value,
            precision_chosen: false,
            allowed_classes: Vec::new(),
            max_message: DEFAULT_MAX_MESSAGE,
        }
    }

    fn opts_mut(&mut self) -> &mut Options {
        Arc::make_mut(&mut self.opts)
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
        self.version.fetch_add(1, Ordering::Release);
    }

    /// A snapshot of the options for one call (settings changed meanwhile apply to the next).
    pub(crate) fn options(&self) -> Arc<Options> {
        self.settings().opts.clone()
    }

    /// The options, and the settings version they belong to (read together).
    pub(crate) fn options_and_version(&self) -> (Arc<Options>, u64) {
        let settings = self.settings();
        (settings.opts.clone(), self.version.load(Ordering::Acquire))
    }

    pub(crate) fn get_dialect(&self) -> i64 {
        self.settings().dialect
    }
    pub(crate) fn set_dialect(&self, value: i64) {
        let dialect = match value {
            FastVarCodec::DIALECT_GODOT_4 => Dialect::Godot4,
            FastVarCodec::DIALECT_GODOT_3 => Dialect::Godot3,
            FastVarCodec::DIALECT_PANDEMONIUM_3_8 => Dialect::Pandemonium38,
            FastVarCodec::DIALECT_PANDEMONIUM_5 => Dialect::Pandemonium5,
            FastVarCodec::DIALECT_GODOT_4_3 => Dialect::Godot4_3,
            FastVarCodec::DIALECT_GODOT_4_0_TO_4_2 => Dialect::Godot4_0To4_2,
            _ => {
                godot_error!("FastVarCodec: unknown dialect {value}; keeping the current one");
                return;
            }
        };
        self.change("dialect", |s| {
            s.opts_mut().dialect = dialect;
            s.dialect = value;
            if !s.precision_chosen {
                let (precision, value) = if dialect.spec().real_flag {
                    engine_precision()
                } else {
                    (Precision::Single, FastVarCodec::PRECISION_SINGLE)
                };
                s.opts_mut().precision = precision;
                s.precision = value;
            }
        });
    }
    pub(crate) fn get_precision(&self) -> i64 {
        self.settings().precision
    }
    pub(crate) fn set_precision(&self, value: i64) {
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
            s.precision_chosen = true;
        });
    }
    pub(crate) fn get_full_objects(&self) -> bool {
        self.settings().opts.full_objects
    }
    pub(crate) fn set_full_objects(&self, on: bool) {
        self.change("full_objects", |s| s.opts_mut().full_objects = on);
    }
    pub(crate) fn get_allow_objects(&self) -> bool {
        self.settings().opts.allow_objects
    }
    pub(crate) fn set_allow_objects(&self, on: bool) {
        self.change("allow_objects", |s| s.opts_mut().allow_objects = on);
    }
    pub(crate) fn get_allow_lossy(&self) -> bool {
        self.settings().opts.allow_lossy
    }
    pub(crate) fn set_allow_lossy(&self, on: bool) {
        self.change("allow_lossy", |s| s.opts_mut().allow_lossy = on);
    }
    pub(crate) fn get_max_depth(&self) -> i64 {
        self.settings().opts.limits.max_depth as i64
    }
    pub(crate) fn set_max_depth(&self, depth: i64) {
        let ceiling = fast_var_codec_core::limits::MAX_DEPTH_CEILING as i64;
        if !(0..=ceiling).contains(&depth) {
            godot_error!("FastVarCodec: max_depth must be between 0 and {ceiling}");
            return;
        }
        self.change("max_depth", |s| {
            s.opts_mut().limits.max_depth = depth as usize
        });
    }
    pub(crate) fn get_max_elements(&self) -> i64 {
        limit_to_godot(self.settings().opts.limits.max_elements)
    }
    pub(crate) fn set_max_elements(&self, n: i64) {
        match limit_from_godot(n) {
            Some(v) => self.change("max_elements", |s| s.opts_mut().limits.max_elements = v),
            None => godot_error!("FastVarCodec: max_elements is -1 (no limit) or a count"),
        }
    }
    pub(crate) fn get_max_bytes(&self) -> i64 {
        limit_to_godot(self.settings().opts.limits.max_bytes)
    }
    pub(crate) fn set_max_bytes(&self, n: i64) {
        match limit_from_godot(n) {
            Some(v) => self.change("max_bytes", |s| s.opts_mut().limits.max_bytes = v),
            None => godot_error!("FastVarCodec: max_bytes is -1 (no limit) or a count"),
        }
    }
    pub(crate) fn get_max_message_size(&self) -> i64 {
        self.settings().max_message as i64
    }
    pub(crate) fn set_max_message_size(&self, size: i64) {
        match usize::try_from(size) {
            Ok(n) if size <= i64::from(u32::MAX) => {
                self.change("max_message_size", |s| s.max_message = n)
            }
            _ => godot_error!("FastVarCodec: max_message_size must be between 0 and 4294967295"),
        }
    }
    pub(crate) fn get_allowed_classes(&self) -> PackedStringArray {
        self.settings()
            .allowed_classes
            .iter()
            .map(|c| GString::from(c.as_str()))
            .collect()
    }
    pub(crate) fn set_allowed_classes(&self, classes: PackedStringArray) {
        let entries: Vec<String> = classes.as_slice().iter().map(|c| c.to_string()).collect();
        let list = (!entries.is_empty()).then(|| allow_list::resolve(&entries));
        self.change("allowed_classes", |s| {
            s.opts_mut().allowed_objects = list.map(Arc::new);
            s.allowed_classes = entries;
        });
    }
    pub(crate) fn encode(&self, opts: &Options, value: &Variant) -> PackedByteArray {
        let res = if is_packed_numbers(value) {
            encode_in_place(opts, value)
        } else {
            // One walk into this thread's reused buffer, then one copy into the engine's
            // array: walking Godot values twice (size, then bytes) costs more than the copy,
            // and so does sizing a small leaf first (more engine calls) or a String.
            encode_to_packed(opts, value)
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
    pub(crate) fn encoded_size(&self, opts: &Options, value: &Variant) -> i64 {
        let res = Writer::new(SizeCounter::default(), opts).and_then(|mut w| {
            write_variant(&mut w, value)?;
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
    pub(crate) fn get_decoded_size(&self) -> i64 {
        self.calls.decoded_size()
    }
    pub(crate) fn get_error(&self) -> Error {
        self.calls.error()
    }
    pub(crate) fn get_error_message(&self) -> GString {
        self.calls.message()
    }
    /// `FastVarCodec.put_var`: framed in the peer's own byte order, as `StreamPeer.put_var`.
    pub(crate) fn put_var(&self, peer: Gd<StreamPeer>, value: Variant) -> Error {
        let big_endian = peer.is_big_endian_enabled();
        self.put_framed(&self.calls, peer, &value, big_endian)
    }

    /// Writes `value` to `peer` as `StreamPeer.put_var` does — the length prefix in `big_endian`
    /// order, then the encoding — in one write, and reports through `calls` (the codec's own, or
    /// a stream's).
    pub(crate) fn put_framed(
        &self,
        calls: &CallState,
        mut peer: Gd<StreamPeer>,
        value: &Variant,
        big_endian: bool,
    ) -> Error {
        let framed = match encode_into_buffer(&self.options(), value, Some(big_endian)) {
            Ok(b) => b,
            Err(e) => return calls.fail(&e),
        };
        let err = peer.put_data(&framed);
        if err != Error::OK {
            return calls.fail_with(err, format!("the peer refused the data ({err:?})"));
        }
        calls.ok()
    }
    pub(crate) fn put_packet_var(&self, mut peer: Gd<PacketPeer>, value: Variant) -> Error {
        let bytes = match encode_to_packed(&self.options(), &value) {
            Ok(b) => b,
            Err(e) => return self.calls.fail(&e),
        };
        if let Err(e) = check_message_len(bytes.len(), self.settings().max_message, 0) {
            return self.calls.fail(&e);
        }
        let err = peer.put_packet(&bytes);
        if err != Error::OK {
            return self
                .calls
                .fail_with(err, format!("the peer refused the packet ({err:?})"));
        }
        self.calls.ok()
    }
    pub(crate) fn get_packet_var(&self, mut peer: Gd<PacketPeer>) -> Variant {
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
        self.decode(&self.options(), packet.as_slice(), 0)
    }
    pub(crate) fn get_var(&self, mut peer: Gd<StreamPeer>) -> Variant {
        let len = peer.get_u32() as usize;
        if let Err(e) = check_message_len(len, self.settings().max_message, 0) {
            self.calls.fail(&e);
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
        self.decode(&self.options(), data.as_slice(), 0)
    }
    pub(crate) fn decode(&self, opts: &Options, bytes: &[u8], offset: i64) -> Variant {
        let Ok(offset) = usize::try_from(offset) else {
            self.calls.fail_with(
                Error::ERR_INVALID_PARAMETER,
                format!("negative offset {offset}"),
            );
            return Variant::nil();
        };
        match decode_variant(bytes, offset, opts) {
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
