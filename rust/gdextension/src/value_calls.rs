//! `FastVarCodec`'s calls on values: encode (into a reused per-thread buffer, or straight into
//! the engine's array for packed numbers), the exact encoded size, and decode.

use std::cell::Cell;

use bytes::BytesMut;
use fast_var_codec_core::error::{DecodeReason, EncodeReason};
use fast_var_codec_core::reader::decode_with;
use fast_var_codec_core::save::{decode_compressed_with, Compression};
use fast_var_codec_core::stream::{
    check_message_len, frame_with, prefix_len, ByteOrder, PREFIX_LEN,
};
use fast_var_codec_core::value::{Value, VariantType};
use fast_var_codec_core::writer::{Sink, SizeCounter, SliceSink, Writer};
use fast_var_codec_core::{CodecError, Dialect, Options};
use godot::global::Error;
use godot::prelude::*;

use crate::call_state::godot_error;
use crate::codec_state::CodecState;
use crate::engine_bytes::ByteSource;
use crate::fast_access::{elements, packed_bytes, type_of, Typed};
use crate::from_wire::VariantBuilder;
use crate::to_wire::write_variant;

thread_local! {
    /// Each thread's encode buffer, reused between calls (taken out while in use, so an encode
    /// that runs script code which encodes again simply gets a fresh one).
    static ENCODE_BUFFER: Cell<Option<BytesMut>> = const { Cell::new(None) };
}

/// Buffers larger than this are not kept for the next call.
const KEPT_BUFFER_CAPACITY: usize = 1 << 20;

/// Encodes `value` into this thread's buffer, then copies it into an engine array.
pub(crate) fn encode_to_packed(
    opts: &Options,
    value: &Variant,
) -> Result<PackedByteArray, CodecError> {
    encode_into_buffer(opts, value, None)
}

/// How a framed value is written: the length prefix's byte order (the peer's or the file's own,
/// little-endian without one) and the longest message allowed (the codec's `max_message_size`,
/// the one limit of every path that writes or reads a length prefix).
#[derive(Clone, Copy)]
pub(crate) struct Framing {
    pub(crate) big_endian: bool,
    pub(crate) max_message: usize,
}

impl Framing {
    /// Frames `value` into `buf` with the core's framing, refusing a message above the limit.
    fn frame(self, buf: &mut BytesMut, opts: &Options, value: &Variant) -> Result<(), CodecError> {
        let start = buf.len();
        let order = ByteOrder::from_big_endian(self.big_endian);
        let written = frame_with(buf, opts, order, |w| write_variant(w, value))?;
        if let Err(e) = check_message_len(written - PREFIX_LEN, self.max_message, 0) {
            buf.truncate(start);
            return Err(e);
        }
        Ok(())
    }
}

/// As [`encode_to_packed`], with the stream framing of `StreamPeer.put_var` when `framed` is
/// given: the core's length prefix, then the encoding, in one array.
pub(crate) fn encode_into_buffer(
    opts: &Options,
    value: &Variant,
    framed: Option<Framing>,
) -> Result<PackedByteArray, CodecError> {
    with_encode_buffer(|buf| match framed {
        // The core's framing, as every put_var of the project.
        Some(framing) => framing.frame(buf, opts, value),
        None => Writer::new(std::mem::take(buf), opts).and_then(|mut w| {
            let res = write_variant(&mut w, value);
            *buf = w.into_sink();
            res
        }),
    })
}

/// Every value of `values` framed as [`encode_into_buffer`] frames one, back to back in one
/// array (one write for a whole network tick). On failure, the index of the value that failed
/// and its error; nothing is returned then.
pub(crate) fn encode_frames_into_buffer(
    opts: &Options,
    values: &VarArray,
    framing: Framing,
) -> Result<PackedByteArray, (usize, CodecError)> {
    let mut failed_at = 0;
    // The values read in place, not copied out one by one (a reference counted up and down per
    // message), when nothing can change the array while they are written.
    let in_place = if opts.full_objects {
        None
    } else {
        // SAFETY: without full objects no object getter runs while the values are written
        // (objects travel as ids), so no engine or script code can change `values`; other
        // threads must not write to a value being encoded, as for the engine's var_to_bytes
        // (README, "Threads").
        unsafe { elements(values) }
    };
    with_encode_buffer(|buf| {
        match in_place {
            Some(items) => {
                for (i, value) in items.iter().enumerate() {
                    failed_at = i;
                    framing.frame(buf, opts, value)?;
                }
            }
            None => {
                for (i, value) in values.iter_shared().enumerate() {
                    failed_at = i;
                    framing.frame(buf, opts, &value)?;
                }
            }
        }
        Ok(())
    })
    .map_err(|e| (failed_at, e))
}

/// Runs `encode` on this thread's cleared encode buffer and copies what it wrote into an engine
/// array; keeps the buffer for the next call unless it grew large.
fn with_encode_buffer(
    encode: impl FnOnce(&mut BytesMut) -> Result<(), CodecError>,
) -> Result<PackedByteArray, CodecError> {
    let mut buf = ENCODE_BUFFER.with(Cell::take).unwrap_or_default();
    buf.clear();
    let out = encode(&mut buf).map(|()| PackedByteArray::from(&buf[..]));
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

/// A PackedByteArray, whose encoding is its data between a head and a few bytes of padding. An
/// array made through the GDExtension interface is zero-filled first, a pass that costs a third
/// of the whole encode of a large array; the engine's own `var_to_bytes` copies the data into
/// memory it does not fill first. So the engine makes the array, and the core writes this
/// dialect's head over the engine's and zeroes the padding: the data is the only part taken
/// from the engine. Should the engine's array not have the size of this dialect's encoding,
/// the array is written in place as the other packed arrays are.
fn encode_packed_bytes(opts: &Options, value: &Variant) -> Result<PackedByteArray, CodecError> {
    let Some(len) = Typed::of(value).and_then(packed_bytes).map(<[u8]>::len) else {
        return encode_in_place(opts, value);
    };
    let mut out = godot::global::var_to_bytes(value);
    let mut w = Writer::new(SliceSink::new(out.as_mut_slice()), opts)?;
    let pad = w.packed_bytes_head(len)?;
    let head = w.sink().written();
    if w.sink().overflowed() || out.len() != head + len + pad {
        return encode_in_place(opts, value);
    }
    if let Some(padding) = out.as_mut_slice().get_mut(head + len..) {
        padding.fill(0);
    }
    Ok(out)
}

/// Packed arrays of numbers, vectors and colors (other than bytes, see [`encode_packed_bytes`]):
/// sized in constant time, and written faster straight into their final array than through a
/// buffer and a copy.
fn is_packed_numbers(ty: VariantType) -> bool {
    use VariantType as T;
    matches!(
        ty,
        T::PackedInt32Array
            | T::PackedInt64Array
            | T::PackedFloat32Array
            | T::PackedFloat64Array
            | T::PackedVector2Array
            | T::PackedVector3Array
            | T::PackedVector4Array
            | T::PackedColorArray
    )
}

/// Decodes one Variant of `bytes`, which are those of the engine array `source` when known
/// (large byte arrays are then copied out of it by the engine: `engine_bytes`); a failed decode
/// frees the objects it made.
#[inline]
pub(crate) fn decode_variant_from(
    bytes: &[u8],
    source: Option<ByteSource<'_>>,
    offset: usize,
    opts: &Options,
) -> Result<(Variant, usize), CodecError> {
    let mut builder = VariantBuilder::reading(source);
    let res = decode_with(bytes, offset, opts, &mut builder);
    if res.is_err() {
        builder.discard();
    }
    res
}

/// The Variant of a core `Value`, built as a decode builds it, through the value's bytes in
/// `opts` (their object gates decide what is made).
pub(crate) fn variant_of_value(value: &Value, opts: &Options) -> Result<Variant, CodecError> {
    let bytes = fast_var_codec_core::encode(value, opts)?;
    decode_record_variant(&bytes, None, opts)
}

/// The value of a record of known length (a `store_var` record, a packet): it must take the
/// record's bytes whole (the core's `record` rule; the error names the dialect that does).
pub(crate) fn decode_record_variant(
    bytes: &[u8],
    source: Option<ByteSource<'_>>,
    opts: &Options,
) -> Result<Variant, CodecError> {
    let mut builder = VariantBuilder::reading(source);
    let res = fast_var_codec_core::record::decode_record_with(bytes, opts, &mut builder);
    if res.is_err() {
        builder.discard();
    }
    res
}

impl CodecState {
    pub(crate) fn encode(&self, opts: &Options, value: &Variant) -> PackedByteArray {
        let res = match type_of(value) {
            Some(VariantType::PackedByteArray) => encode_packed_bytes(opts, value),
            Some(ty) if is_packed_numbers(ty) => encode_in_place(opts, value),
            _ => {
                // One walk into this thread's reused buffer, then one copy into the engine's
                // array: walking Godot values twice (size, then bytes) costs more than the copy,
                // and so does sizing a small leaf first (more engine calls) or a String.
                encode_to_packed(opts, value)
            }
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
    /// `str_to_var`: the value of Godot's text format read by the core, which never makes or
    /// loads an object (an `Object(...)`, `Resource(...)`, `ExtResource(...)` or
    /// `SubResource(...)` is refused here, whatever the codec's object settings), then built
    /// as Variants the way a decode builds them, through Godot 4's bytes of the value.
    pub(crate) fn str_to_var(&self, opts: &Options, text: &str) -> Variant {
        let mut text_opts = opts.clone();
        text_opts.dialect = Dialect::Godot4;
        text_opts.allow_objects = false;
        let res = Value::from_godot_text(text, &text_opts)
            .and_then(|value| variant_of_value(&value, &text_opts));
        match res {
            Ok(v) => {
                self.calls.ok();
                v
            }
            Err(e) => {
                self.calls.fail(&e);
                Variant::nil()
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
    /// Decodes the value at `offset` in `bytes`, whose engine array `source` is (when known).
    #[inline]
    pub(crate) fn decode(
        &self,
        opts: &Options,
        bytes: &[u8],
        source: Option<ByteSource<'_>>,
        offset: i64,
    ) -> Variant {
        let Ok(offset) = usize::try_from(offset) else {
            self.calls.fail_with(
                Error::ERR_INVALID_PARAMETER,
                format!("negative offset {offset}"),
            );
            return Variant::nil();
        };
        if self.allow_trailing_bytes() {
            return match decode_variant_from(bytes, source, offset, opts) {
                Ok((v, used)) => {
                    self.calls.ok_with_size(used as i64);
                    v
                }
                Err(e) => {
                    self.calls.fail(&e);
                    Variant::nil()
                }
            };
        }
        // The bytes from `offset` on are the value's, whole (the core's record rule: bytes left
        // after it mean another dialect's value, and the error names the dialect that reads
        // them whole).
        let Some(record) = bytes.get(offset..).filter(|r| !r.is_empty()) else {
            // An offset at or past the end: the decode's own error says so.
            if let Err(e) = decode_variant_from(bytes, None, offset, opts) {
                self.calls.fail(&e);
            }
            return Variant::nil();
        };
        match decode_record_variant(record, source, opts) {
            Ok(v) => {
                self.calls.ok_with_size(record.len() as i64);
                v
            }
            Err(e) => {
                let not_whole = matches!(
                    e,
                    CodecError::Decode {
                        reason: DecodeReason::RecordNotWhole { .. },
                        ..
                    }
                );
                let e = e.shifted(offset);
                if not_whole {
                    self.calls.fail_with(
                        godot_error(e.code()),
                        format!("{e}; allow_trailing_bytes reads a value followed by other bytes"),
                    );
                } else {
                    self.calls.fail(&e);
                }
                Variant::nil()
            }
        }
    }

    /// `decode_compressed`: the value of a packet a game compressed
    /// (`var_to_bytes(v).compress(mode)`), decompressed by the core to at most `max_size` bytes
    /// in any mode and decoded as a record (the core's `save::decode_compressed_with`: the value
    /// fills the packet, FastLZ's padding aside). `mode` is `FileAccess.CompressionMode`'s
    /// number.
    pub(crate) fn decode_compressed(
        &self,
        opts: &Options,
        packet: &[u8],
        mode: i64,
        max_size: i64,
    ) -> Variant {
        let Some(compression) = u32::try_from(mode).ok().and_then(Compression::from_mode) else {
            self.calls.fail_with(
                Error::ERR_INVALID_PARAMETER,
                format!(
                    "compression mode {mode}: decode_compressed reads FastLZ, Deflate, Zstd and Gzip \
                     packets (FileAccess.COMPRESSION_*; the engine writes no Brotli)"
                ),
            );
            return Variant::nil();
        };
        let Ok(max_size) = usize::try_from(max_size) else {
            self.calls.fail_with(
                Error::ERR_INVALID_PARAMETER,
                format!("negative max_size {max_size}"),
            );
            return Variant::nil();
        };
        let mut builder = VariantBuilder::reading(None);
        match decode_compressed_with(packet, compression, max_size, opts, &mut builder) {
            Ok(v) => {
                self.calls.ok_with_size(packet.len() as i64);
                v
            }
            Err(e) => {
                builder.discard();
                self.calls.fail(&e);
                Variant::nil()
            }
        }
    }

    /// The value of a record of known length (`get_var`'s message, a packet), which it must take
    /// whole ([`decode_record_variant`]); the size reported is the record's.
    pub(crate) fn decode_record(
        &self,
        opts: &Options,
        bytes: &[u8],
        source: Option<ByteSource<'_>>,
    ) -> Variant {
        match decode_record_variant(bytes, source, opts) {
            Ok(v) => {
                self.calls.ok_with_size(bytes.len() as i64);
                v
            }
            Err(e) => {
                self.calls.fail(&e);
                Variant::nil()
            }
        }
    }

    /// The framing of this codec's length-prefixed paths: the prefix in `big_endian` order,
    /// messages up to `max_message_size`.
    pub(crate) fn framing(&self, big_endian: bool) -> Framing {
        Framing {
            big_endian,
            max_message: self.settings().max_message,
        }
    }

    /// `encode_framed`: the bytes `StreamPeer.put_var` writes for `value` on a peer with the
    /// default byte order (a little-endian length, then the encoding).
    pub(crate) fn encode_framed(&self, value: &Variant) -> PackedByteArray {
        match encode_into_buffer(&self.options(), value, Some(self.framing(false))) {
            Ok(bytes) => {
                self.calls.ok();
                bytes
            }
            Err(e) => {
                self.calls.fail_write(&e);
                PackedByteArray::new()
            }
        }
    }

    /// `decode_framed`: the value of the frame at `offset` (a little-endian length, then that
    /// many bytes holding the value); `get_decoded_size` is then the whole frame's size.
    pub(crate) fn decode_framed(&self, bytes: &[u8], offset: i64) -> Variant {
        let fail = |error: Error, message: String| {
            self.calls.fail_with(error, message);
            Variant::nil()
        };
        let Ok(start) = usize::try_from(offset) else {
            return fail(
                Error::ERR_INVALID_PARAMETER,
                format!("negative offset {offset}"),
            );
        };
        let head = bytes
            .get(start..)
            .and_then(|rest| rest.get(..PREFIX_LEN))
            .and_then(|head| <[u8; PREFIX_LEN]>::try_from(head).ok());
        let Some(head) = head else {
            return fail(
                Error::ERR_FILE_EOF,
                format!("at offset {start}: the 4-byte length of a frame cut short"),
            );
        };
        let len = prefix_len(head, ByteOrder::Little);
        if let Err(e) = check_message_len(len, self.settings().max_message, start) {
            self.calls.fail(&e);
            return Variant::nil();
        }
        let body_start = start + PREFIX_LEN;
        let Some(body) = bytes.get(body_start..).and_then(|rest| rest.get(..len)) else {
            return fail(
                Error::ERR_FILE_EOF,
                format!(
                    "the frame at offset {start} announces {len} bytes, {} follow",
                    bytes.len().saturating_sub(body_start)
                ),
            );
        };
        // A frame's value must take the frame whole (the core's record rule).
        match decode_record_variant(body, None, &self.options()) {
            Ok(v) => {
                self.calls.ok_with_size((PREFIX_LEN + len) as i64);
                v
            }
            Err(e) => fail(
                godot_error(e.code()),
                format!("the frame at offset {start}: {e}"),
            ),
        }
    }
}
