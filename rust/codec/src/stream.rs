//! Stream framing as `StreamPeer.put_var` / `get_var` and `FileAccess.store_var` / `get_var` do
//! it: a u32 length (in the peer's byte order) then the encoding (always little-endian), and an
//! incremental reader for byte streams such as TCP, where values arrive split and coalesced.
//!
//! ```
//! use fast_var_codec_core::stream::{frame, ByteOrder, StreamReader};
//! use fast_var_codec_core::{Options, Value};
//!
//! let opts = Options::default();
//! let mut wire = bytes::BytesMut::new();
//! frame(&Value::Int(7), &opts, ByteOrder::Little, &mut wire)?;
//! frame(&Value::String("hi".into()), &opts, ByteOrder::Little, &mut wire)?;
//!
//! let mut reader = StreamReader::new(opts);
//! for chunk in wire.chunks(3) {          // bytes arrive in arbitrary pieces
//!     reader.feed(chunk)?;
//! }
//! assert_eq!(reader.next_value()?, Some(Value::Int(7)));
//! assert_eq!(reader.next_value()?, Some(Value::String("hi".into())));
//! assert_eq!(reader.next_value()?, None);  // nothing more yet: never blocks
//! # Ok::<(), fast_var_codec_core::CodecError>(())
//! ```

use bytes::{Bytes, BytesMut};

use crate::build::Build;
use crate::error::{CodecError, DecodeReason, EncodeReason, Result};
use crate::limits::Options;
use crate::sink::Sink;
use crate::value::{write_value, Value};
use crate::writer::Writer;

mod framing;
#[cfg(feature = "tokio")]
mod tokio_codec;

use framing::{Framing, Reading};
#[cfg(all(feature = "tokio", feature = "serde"))]
pub use tokio_codec::TypedVarCodec;
#[cfg(feature = "tokio")]
pub use tokio_codec::{MessageError, VarCodec, VarCodecError};

/// The engine's `encode_buffer_max_size` default: the largest message accepted by default.
pub const DEFAULT_MAX_MESSAGE: usize = 8 << 20;

/// Size of the length prefix.
pub const PREFIX_LEN: usize = 4;

/// The byte order of a length prefix: `StreamPeer.big_endian` / `FileAccess.big_endian` (the
/// encoded value itself is always little-endian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ByteOrder {
    /// Least significant byte first: what the engine uses unless told otherwise.
    #[default]
    Little,
    /// Most significant byte first (`big_endian = true`).
    Big,
}

impl ByteOrder {
    /// [`ByteOrder::Big`] when `big_endian` is true (the engine's `big_endian` property),
    /// else [`ByteOrder::Little`].
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::stream::ByteOrder;
    /// assert_eq!(ByteOrder::from_big_endian(true), ByteOrder::Big);
    /// assert!(!ByteOrder::from_big_endian(false).is_big_endian());
    /// ```
    pub fn from_big_endian(big_endian: bool) -> Self {
        if big_endian {
            ByteOrder::Big
        } else {
            ByteOrder::Little
        }
    }

    /// True for [`ByteOrder::Big`].
    pub fn is_big_endian(self) -> bool {
        self == ByteOrder::Big
    }
}

/// The length prefix for a message of `len` bytes.
///
/// # Errors
/// [`EncodeReason::TooLarge`] when `len` does not fit in a u32.
pub fn prefix(len: usize, order: ByteOrder) -> Result<[u8; PREFIX_LEN]> {
    let n = u32::try_from(len).map_err(|_| {
        CodecError::encode(EncodeReason::TooLarge {
            what: "message",
            len,
        })
    })?;
    Ok(match order {
        ByteOrder::Big => n.to_be_bytes(),
        ByteOrder::Little => n.to_le_bytes(),
    })
}

/// The message length a prefix announces.
///
/// # Examples
/// ```
/// use fast_var_codec_core::stream::{prefix, prefix_len, ByteOrder};
/// assert_eq!(prefix_len(prefix(300, ByteOrder::Big)?, ByteOrder::Big), 300);
/// assert_eq!(prefix_len([1, 0, 0, 0], ByteOrder::Little), 1);
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn prefix_len(head: [u8; PREFIX_LEN], order: ByteOrder) -> usize {
    (match order {
        ByteOrder::Big => u32::from_be_bytes(head),
        ByteOrder::Little => u32::from_le_bytes(head),
    }) as usize
}

/// Appends `value` framed (prefix in `order`, then the encoding) to `out`; returns the bytes
/// appended. On failure `out` is left as it was.
///
/// # Errors
/// Whatever [`crate::encode`] refuses (with the value path), and [`EncodeReason::TooLarge`]
/// when the encoding does not fit the u32 prefix.
///
/// # Examples
/// ```
/// use fast_var_codec_core::stream::{frame, ByteOrder};
/// use fast_var_codec_core::{Options, Value};
///
/// let mut out = bytes::BytesMut::new();
/// let n = frame(&Value::Int(1), &Options::default(), ByteOrder::Big, &mut out)?;
/// assert_eq!(n, 12);
/// // A big-endian prefix (as with `big_endian = true`), then the little-endian encoding.
/// assert_eq!(&out[..], &[0, 0, 0, 8, 2, 0, 0, 0, 1, 0, 0, 0]);
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn frame(value: &Value, opts: &Options, order: ByteOrder, out: &mut BytesMut) -> Result<usize> {
    frame_with(out, opts, order, |w| write_value(w, value))
}

/// The framing every `put_var` of the project uses, whatever writes the value: reserves the
/// prefix in `out`, lets `write` encode the value after it through a [`Writer`], then writes
/// the length in `order`. Returns the bytes appended; on failure `out` is left as it was.
///
/// # Errors
/// What `write` returns, and [`EncodeReason::TooLarge`] when the encoding does not fit the u32
/// prefix.
pub fn frame_with<B: FrameBuffer>(
    out: &mut B,
    opts: &Options,
    order: ByteOrder,
    write: impl FnOnce(&mut Writer<'_, B>) -> Result<()>,
) -> Result<usize> {
    let start = out.len();
    out.put_slice(&[0; PREFIX_LEN]);
    let mut w = match Writer::new(std::mem::take(out), opts) {
        Ok(w) => w,
        Err(e) => {
            out.truncate(start);
            return Err(e);
        }
    };
    let res = write(&mut w);
    *out = w.into_sink();
    let len = out.len() - start - PREFIX_LEN;
    let head = res.and_then(|()| prefix(len, order));
    match (head, out.get_mut(start..start + PREFIX_LEN)) {
        (Ok(head), Some(slot)) => {
            slot.copy_from_slice(&head);
            Ok(len + PREFIX_LEN)
        }
        (Err(e), _) => {
            out.truncate(start);
            Err(e)
        }
        (Ok(_), None) => {
            out.truncate(start);
            Err(CodecError::encode(EncodeReason::BufferFull))
        }
    }
}

/// A growable byte buffer that [`frame_with`] can frame into: `Vec<u8>` or `BytesMut`.
pub trait FrameBuffer: Sink + Default + std::ops::DerefMut<Target = [u8]> {
    /// Shortens the buffer to `len` bytes.
    fn truncate(&mut self, len: usize);
}

impl FrameBuffer for Vec<u8> {
    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len);
    }
}

impl FrameBuffer for BytesMut {
    fn truncate(&mut self, len: usize) {
        BytesMut::truncate(self, len);
    }
}

/// Checks a message's announced length against a maximum, as every reader of framed values in
/// the project does before reading (or allocating for) the message.
///
/// # Errors
/// A [`DecodeReason::MessageTooLong`] at `offset` (where the prefix is) when `len` exceeds `max`.
pub fn check_message_len(len: usize, max: usize, offset: usize) -> Result<()> {
    if len > max {
        return Err(CodecError::decode(
            offset,
            DecodeReason::MessageTooLong { len, max },
        ));
    }
    Ok(())
}

/// Reassembles length-prefixed messages from a byte stream fed in arbitrary chunks, and decodes
/// them with the options it was made with (given once, as tokio-util's codecs take theirs; the
/// tokio `VarCodec` reads the same way).
///
/// A message whose payload does not decode is consumed and reported; the stream stays in sync
/// and usable. A length prefix above the maximum cannot be skipped safely (the peer is hostile
/// or speaks another protocol): the reader reports it, allocates nothing for it, and stays
/// broken until [`StreamReader::reset`]; the connection should be closed.
///
/// # Examples
/// ```
/// use fast_var_codec_core::stream::StreamReader;
/// use fast_var_codec_core::{Options, Value};
///
/// let mut reader = StreamReader::new(Options::default()).with_max_message(1024);
/// reader.feed(&[8, 0, 0, 0, 2, 0, 0])?; // a message of 8 bytes, not all here yet
/// assert_eq!(reader.next_value()?, None);
/// reader.feed(&[0, 5, 0, 0, 0])?; // the rest: var_to_bytes(5)
/// assert_eq!(reader.next_value()?, Some(Value::Int(5)));
///
/// reader.feed(&[0, 0, 0, 0x80])?; // a 2 GiB message: refused, and the stream is broken
/// assert!(reader.next_value().is_err());
/// assert!(reader.broken().is_some());
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
#[derive(Debug, Clone)]
pub struct StreamReader {
    buf: BytesMut,
    framing: Framing,
    reading: Reading,
}

impl StreamReader {
    /// A reader of values in the dialect (and with the limits) of `options`; little-endian
    /// prefixes and a maximum message of [`DEFAULT_MAX_MESSAGE`] bytes, as the engine's
    /// defaults.
    pub fn new(options: Options) -> Self {
        StreamReader {
            buf: BytesMut::new(),
            framing: Framing::default(),
            reading: Reading::fixed(options),
        }
    }

    /// A reader that takes the stream's dialect from the peer's own messages, as
    /// `VarCodec::detecting` (the `tokio` feature) does (the rule of [`crate::record`]):
    /// each message goes to a [`DialectDetector`](crate::record::DialectDetector), which gives its value at once when it reads
    /// the same in every engine family still possible, and holds it otherwise until a later
    /// message settles the family. [`StreamReader::next_value`] gives the values in the
    /// peer's dialect, in order; [`StreamReader::dialect`] is the dialect detected so far.
    /// The options' `dialect` is not used; their limits and object policies are.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::stream::{frame, ByteOrder, StreamReader};
    /// use fast_var_codec_core::{Dialect, Options, Value};
    ///
    /// let godot3 = Options::new(Dialect::Godot3);
    /// let color = Value::Color([1.0, 0.5, 0.0, 1.0]); // also a Godot 4 Plane
    /// let mut wire = bytes::BytesMut::new();
    /// frame(&Value::Int(1), &godot3, ByteOrder::Little, &mut wire)?;
    /// frame(&color, &godot3, ByteOrder::Little, &mut wire)?;
    ///
    /// let mut reader = StreamReader::detecting(Options::default());
    /// reader.feed(&wire)?;
    /// assert_eq!(reader.next_value()?, Some(Value::Int(1)));
    /// assert_eq!(reader.next_value()?, None); // the Color waits
    /// wire.clear();
    /// // Pandemonium reads no 8-byte Vector2, Godot 4 no Godot 3 Rect2: Godot 3 it is.
    /// frame(&Value::Vector2([1.0, 2.0]), &godot3, ByteOrder::Little, &mut wire)?;
    /// frame(&Value::rect2(0.0, 0.0, 8.0, 8.0), &godot3, ByteOrder::Little, &mut wire)?;
    /// reader.feed(&wire)?;
    /// assert_eq!(reader.next_value()?, Some(color));
    /// assert_eq!(reader.next_value()?, Some(Value::Vector2([1.0, 2.0])));
    /// assert_eq!(reader.next_value()?, Some(Value::rect2(0.0, 0.0, 8.0, 8.0)));
    /// assert_eq!(reader.dialect(), Dialect::Godot3);
    /// assert!(reader.is_settled());
    /// # Ok::<(), fast_var_codec_core::CodecError>(())
    /// ```
    pub fn detecting(options: Options) -> Self {
        StreamReader {
            buf: BytesMut::new(),
            framing: Framing::default(),
            reading: Reading::detecting(options),
        }
    }

    /// The dialect values are read in: the options' for [`StreamReader::new`]; for
    /// [`StreamReader::detecting`], the one the peer's messages tell so far
    /// ([`Dialect::Godot4`](crate::Dialect::Godot4) until they tell otherwise).
    pub fn dialect(&self) -> crate::Dialect {
        self.reading.opts.dialect
    }

    /// Whether the dialect is known: always for [`StreamReader::new`]; for
    /// [`StreamReader::detecting`], once the peer's messages leave one engine family.
    pub fn is_settled(&self) -> bool {
        self.reading.is_settled()
    }

    /// The same reader with length prefixes in `order` (the engine's `big_endian` property).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::stream::{ByteOrder, StreamReader};
    /// use fast_var_codec_core::{Options, Value};
    ///
    /// let mut reader = StreamReader::new(Options::default()).with_byte_order(ByteOrder::Big);
    /// reader.feed(&[0, 0, 0, 8, 2, 0, 0, 0, 1, 0, 0, 0])?;
    /// assert_eq!(reader.next_value()?, Some(Value::Int(1)));
    /// # Ok::<(), fast_var_codec_core::CodecError>(())
    /// ```
    pub fn with_byte_order(mut self, order: ByteOrder) -> Self {
        self.framing.order = order;
        self
    }

    /// The same reader refusing messages above `max` bytes (the prefix excluded; the engine's
    /// `encode_buffer_max_size`).
    pub fn with_max_message(mut self, max: usize) -> Self {
        self.framing.max_message = max;
        self
    }

    /// The options values are decoded with.
    pub fn options(&self) -> &Options {
        &self.reading.opts
    }

    /// Decodes the messages still to come with `options`.
    pub fn set_options(&mut self, options: Options) {
        self.reading.opts = options;
    }

    /// The byte order of the length prefixes.
    pub fn byte_order(&self) -> ByteOrder {
        self.framing.order
    }

    /// Sets the byte order of the length prefixes still to come.
    pub fn set_byte_order(&mut self, order: ByteOrder) {
        self.framing.order = order;
    }

    /// The largest message accepted, in bytes (the prefix excluded).
    pub fn max_message(&self) -> usize {
        self.framing.max_message
    }

    /// Changes the largest message accepted, for prefixes not yet read (as the engine's
    /// `encode_buffer_max_size`).
    pub fn set_max_message(&mut self, max: usize) {
        self.framing.max_message = max;
    }

    /// Bytes received but not yet taken as messages.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// The error that broke the stream, if any.
    pub fn broken(&self) -> Option<&CodecError> {
        self.framing.broken()
    }

    /// Forgets buffered bytes and any broken state (e.g. after reconnecting); a
    /// [`StreamReader::detecting`] reader detects again.
    pub fn reset(&mut self) {
        self.buf.clear();
        self.framing.reset();
        self.reading.reset();
    }

    /// Adds received bytes. Fails only when the stream is broken.
    ///
    /// # Errors
    /// The error that broke the stream (see [`StreamReader::broken`]); the bytes are not kept.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(e) = self.framing.broken() {
            return Err(e.clone());
        }
        self.buf.extend_from_slice(bytes);
        Ok(())
    }

    /// True when a complete message (or an oversized prefix, which is an error to take) is here.
    pub fn ready(&self) -> bool {
        self.framing.ready(&self.buf)
    }

    /// How many calls of [`StreamReader::next_value`] would return a value or an error of their
    /// own rather than `None`, as PacketPeer's `get_available_packet_count` counts: the
    /// messages here whole (a malformed one is an error of its own), and one more for a length
    /// prefix above [`StreamReader::max_message`] after them (the error that breaks the
    /// stream); none once the stream is broken. Nothing is taken.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::stream::StreamReader;
    /// use fast_var_codec_core::Options;
    ///
    /// let mut reader = StreamReader::new(Options::default()).with_max_message(1024);
    /// reader.feed(&[8, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0])?; // put_var(5)
    /// reader.feed(&[8, 0, 0, 0, 2, 0])?; // and part of put_var(6)
    /// assert_eq!(reader.ready_count(), 1);
    /// reader.feed(&[0, 0, 6, 0, 0, 0])?; // its rest
    /// reader.feed(&[0, 0, 1, 0])?; // a prefix of 65536 bytes, above the maximum
    /// assert_eq!(reader.ready_count(), 3);
    /// while reader.ready_count() > 0 {
    ///     let _ = reader.next_value(); // 5, 6, then the error that breaks the stream
    /// }
    /// assert!(reader.broken().is_some());
    /// # Ok::<(), fast_var_codec_core::CodecError>(())
    /// ```
    pub fn ready_count(&self) -> usize {
        self.framing.ready_count(&self.buf)
    }

    /// Takes the next complete message payload, `None` until all of it has arrived.
    ///
    /// # Errors
    /// A [`DecodeReason::MessageTooLong`] at the prefix's stream offset when the next message
    /// is above [`StreamReader::max_message`]: the stream is then broken, and every later call returns
    /// the same error until [`StreamReader::reset`].
    pub fn next_frame(&mut self) -> Result<Option<Bytes>> {
        Ok(self.framing.take(&mut self.buf)?.map(BytesMut::freeze))
    }

    /// The next complete message's payload where it lies, not taken: `None` until all of it has
    /// arrived, and when the next call of [`StreamReader::next_value`] would be an error of the
    /// framing (a message above [`StreamReader::max_message`], a broken stream). For a package
    /// surface that reads some messages itself (the npm package's JavaScript) and leaves the
    /// rest to `next_value`; not part of the format's API.
    #[doc(hidden)]
    pub fn peek_frame(&self) -> Option<&[u8]> {
        if self.framing.broken().is_some() {
            return None;
        }
        let len = self.framing.peek_len(&self.buf)?;
        check_message_len(len, self.max_message(), 0).ok()?;
        self.buf.get(PREFIX_LEN..PREFIX_LEN.checked_add(len)?)
    }

    /// Drops the message [`StreamReader::peek_frame`] shows, as read; nothing when it shows none.
    #[doc(hidden)]
    pub fn skip_frame(&mut self) {
        if self.peek_frame().is_some() {
            // Whole and within the limit: framing takes it without an error.
            let _ = self.framing.next(&mut self.buf, |_, _| ());
        }
    }

    /// Decodes the next complete message with `builder`; `None` until one is complete. A message
    /// that fails to decode is consumed and its error returned: the next call goes on after it.
    ///
    /// # Errors
    /// As [`StreamReader::next_frame`]; and a [`CodecError::Decode`] for a message that does not
    /// decode (as [`crate::reader::decode_with`]'s, with the offset counted from the start of the
    /// stream), or whose value leaves bytes of the message unread
    /// ([`crate::error::DecodeReason::RecordNotWhole`]: another dialect's message), after which the
    /// stream goes on.
    ///
    /// Reads in [`StreamReader::dialect`]: a [`StreamReader::detecting`] reader detects with
    /// [`StreamReader::next_value`] only.
    pub fn next_value_with<B: Build>(&mut self, builder: &mut B) -> Result<Option<B::Value>> {
        let opts = &self.reading.opts;
        self.framing
            .next(&mut self.buf, |payload, at| {
                crate::record::decode_record_with(payload, opts, builder).map_err(|e| e.shifted(at))
            })?
            .transpose()
    }

    /// [`StreamReader::next_value_with`] building [`Value`]s; for a
    /// [`StreamReader::detecting`] reader, in the dialect the peer's messages tell.
    ///
    /// # Errors
    /// As [`StreamReader::next_value_with`]; and for a detecting reader a
    /// [`crate::error::DecodeReason::Ambiguous`] for a message whose family was still undecided
    /// after [`crate::record::MAX_HELD_MESSAGES`] more (the stream goes on).
    pub fn next_value(&mut self) -> Result<Option<Value>> {
        self.reading
            .next_value(&mut self.framing, &mut self.buf)?
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn big_endian_prefix_little_endian_payload() {
        let opts = Options::default();
        let mut out = BytesMut::new();
        frame(&Value::Int(1), &opts, ByteOrder::Big, &mut out).unwrap();
        assert_eq!(&out[..], &[0, 0, 0, 8, 2, 0, 0, 0, 1, 0, 0, 0]);
        let mut r = StreamReader::new(opts).with_byte_order(ByteOrder::Big);
        r.feed(&out).unwrap();
        assert_eq!(r.next_value().unwrap(), Some(Value::Int(1)));
    }

    #[test]
    fn bad_payload_is_skipped_and_the_stream_goes_on() {
        let opts = Options::default();
        let mut r = StreamReader::new(opts.clone());
        r.feed(&[4, 0, 0, 0, 0xff, 0, 0, 0]).unwrap();
        let mut good = BytesMut::new();
        frame(&Value::Bool(true), &opts, ByteOrder::Little, &mut good).unwrap();
        r.feed(&good).unwrap();
        let err = r.next_value().unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidData);
        assert!(err.to_string().contains("byte 4"), "{err}");
        assert_eq!(r.next_value().unwrap(), Some(Value::Bool(true)));
    }

    #[test]
    fn a_peeked_frame_is_the_payload_next_value_would_read_until_skipped() {
        let mut r = StreamReader::new(Options::default()).with_max_message(8);
        r.feed(&[8, 0, 0, 0, 2, 0, 0, 0, 5, 0]).unwrap();
        assert_eq!(r.peek_frame(), None); // not all there yet
        r.feed(&[0, 0, 12, 0, 0, 0]).unwrap();
        assert_eq!(r.peek_frame(), Some(&[2, 0, 0, 0, 5, 0, 0, 0][..]));
        assert_eq!(r.peek_frame(), Some(&[2, 0, 0, 0, 5, 0, 0, 0][..])); // not taken
        r.skip_frame();
        // The next prefix announces more than the maximum: next_value's error, not a frame.
        assert_eq!(r.peek_frame(), None);
        r.skip_frame();
        let err = r.next_value().unwrap_err();
        assert_eq!(err.code(), ErrorCode::OutOfMemory);
        assert!(err.to_string().contains("byte 12"), "{err}");
        assert_eq!(r.peek_frame(), None); // broken
    }

    #[test]
    fn oversized_prefix_breaks_without_allocating() {
        let mut r = StreamReader::new(Options::default()).with_max_message(1024);
        r.feed(&[0, 0, 0, 0x80, 1, 2, 3]).unwrap();
        let err = r.next_value().unwrap_err();
        assert_eq!(err.code(), ErrorCode::OutOfMemory);
        assert!(r.buffered() < 16);
        assert!(r.feed(&[0; 4]).is_err());
        assert!(r.next_value().is_err());
        r.reset();
        r.feed(&[0, 0, 0, 0]).unwrap();
        assert!(r.next_value().is_err()); // an empty message is not a value
    }
}
