//! `put_var`'s framing as a `tokio_util` codec (the `tokio` feature): [`VarCodec`] for
//! [`Value`]s and, with the `serde` feature too, [`TypedVarCodec`] for serde types, to use with
//! `tokio_util::codec::Framed` on a `tokio::net::TcpStream`.
//!
//! Both frame and read exactly as [`super::frame`] and [`super::StreamReader`] do (the same
//! framing underneath, and [`super::frame`]), and report the same errors at the same stream
//! offsets.

use std::io;
#[cfg(feature = "serde")]
use std::marker::PhantomData;

use bytes::BytesMut;
use tokio_util::codec::{Decoder, Encoder};

use super::framing::{Framing, Reading};
use super::{frame, ByteOrder, PREFIX_LEN};
use crate::dialect::Dialect;
use crate::error::{CodecError, DecodeReason};
use crate::limits::Options;
use crate::value::Value;

/// What ends a stream read with [`VarCodec`] (or `TypedVarCodec`, with the `serde` feature too),
/// or fails a write: the transport's error, a broken framing, or a value that cannot be sent. A
/// malformed message is no such error: it is an item of the stream, a [`MessageError`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VarCodecError {
    /// Reading from or writing to the transport failed (a connection reset, …), or the stream
    /// ended inside a message: an [`io::ErrorKind::UnexpectedEof`] whose inner error is the
    /// codec's [`DecodeReason::Truncated`] at the stream offset of the message cut short.
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
    /// The codec refused the stream or a value: a length prefix above the maximum message size
    /// (the stream is then broken: see [`VarCodec::broken`]; close the connection), or, when
    /// writing, a value that cannot be encoded in the dialect.
    #[error(transparent)]
    Codec(#[from] CodecError),
    /// [`TypedVarCodec`]: the item to send could not be serialized (an integer beyond `i64`,
    /// an error of its `Serialize` implementation). Nothing was written.
    #[cfg(feature = "serde")]
    #[error("the item cannot be serialized: {0}")]
    Serialize(crate::serde_format::Error),
}

impl VarCodecError {
    /// The codec's error: what the codec refused, or where the stream ended inside a message.
    pub fn codec_error(&self) -> Option<&CodecError> {
        match self {
            VarCodecError::Codec(e) => Some(e),
            VarCodecError::Io(e) => e.get_ref()?.downcast_ref(),
            #[cfg(feature = "serde")]
            VarCodecError::Serialize(_) => None,
        }
    }
}

impl From<VarCodecError> for io::Error {
    /// The transport's own error as it was; any other as an [`io::ErrorKind::InvalidData`].
    fn from(e: VarCodecError) -> Self {
        match e {
            VarCodecError::Io(e) => e,
            e => io::Error::new(io::ErrorKind::InvalidData, e),
        }
    }
}

/// A message the codec took off the stream whose bytes are no value (or, for `TypedVarCodec`,
/// no value of the expected type): an item of the stream (`Err` inside `Ok`), not an error of
/// the stream. The message has been consumed; the next item is the next message. A server
/// logs or answers it and goes on, as tokio_util's `LinesCodec` goes on after a line too long.
///
/// # Examples
/// ```
/// use bytes::BytesMut;
/// use fast_var_codec_core::stream::{MessageError, VarCodec};
/// use fast_var_codec_core::{Options, Value};
/// use tokio_util::codec::Decoder;
///
/// let mut codec = VarCodec::new(Options::default());
/// // A message of 4 bytes whose type id does not exist, then `true`.
/// let mut buf = BytesMut::from(&[4, 0, 0, 0, 0xff, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0][..]);
/// let bad: MessageError = codec.decode(&mut buf)?.unwrap().unwrap_err();
/// assert_eq!(bad.offset(), 4); // its value starts after its prefix, and fails at once
/// assert_eq!(codec.decode(&mut buf)?, Some(Ok(Value::Bool(true))));
/// # Ok::<(), fast_var_codec_core::stream::VarCodecError>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MessageError {
    /// The message's bytes hold no valid value: the decoder's error, its offset counted from
    /// the start of the stream (as [`super::StreamReader`]'s).
    #[error(transparent)]
    Malformed(CodecError),
    /// [`TypedVarCodec`]: a well-formed value that does not fit the expected type (a missing
    /// field, a String where an int was expected, …).
    #[cfg(feature = "serde")]
    #[error("the value of the message at stream byte {message_at} does not fit the expected type: {error}")]
    Mismatch {
        /// The stream offset of the message's value (after its length prefix); the offset
        /// `error` names, if any, is counted from there.
        message_at: usize,
        /// What did not fit, with the path to it.
        error: crate::serde_format::Error,
    },
}

/// Two malformed messages are equal when their decode errors are; two mismatches when they are
/// at the same offset with the same message (so that items compare: `Some(Ok(value))`).
impl PartialEq for MessageError {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (MessageError::Malformed(a), MessageError::Malformed(b)) => a == b,
            #[cfg(feature = "serde")]
            (
                MessageError::Mismatch {
                    message_at: a,
                    error: x,
                },
                MessageError::Mismatch {
                    message_at: b,
                    error: y,
                },
            ) => a == b && x.to_string() == y.to_string(),
            #[cfg(feature = "serde")]
            _ => false,
        }
    }
}

/// An [`io::ErrorKind::InvalidData`] holding the error, so that `?` works in a function that
/// returns `std::io::Result`.
///
/// # Examples
/// ```
/// use bytes::BytesMut;
/// use fast_var_codec_core::stream::VarCodec;
/// use fast_var_codec_core::{Options, Value};
/// use tokio_util::codec::Decoder;
///
/// fn next(codec: &mut VarCodec, buf: &mut BytesMut) -> std::io::Result<Option<Value>> {
///     match codec.decode(buf)? {
///         Some(item) => Ok(Some(item?)), // a malformed message: an io::Error here
///         None => Ok(None),
///     }
/// }
/// let mut codec = VarCodec::new(Options::default());
/// let mut buf = BytesMut::from(&[4, 0, 0, 0, 0xff, 0, 0, 0][..]);
/// let err = next(&mut codec, &mut buf).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// ```
impl From<MessageError> for io::Error {
    fn from(e: MessageError) -> Self {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

impl MessageError {
    /// The stream offset the error names: of the byte where a malformed message's value failed
    /// to decode; of the value (after its length prefix) that did not fit, for a mismatch.
    pub fn offset(&self) -> usize {
        match self {
            MessageError::Malformed(CodecError::Decode { offset, .. }) => *offset,
            MessageError::Malformed(_) => 0,
            #[cfg(feature = "serde")]
            MessageError::Mismatch { message_at, .. } => *message_at,
        }
    }

    /// The decoder's error, for a malformed message.
    pub fn codec_error(&self) -> Option<&CodecError> {
        match self {
            MessageError::Malformed(e) => Some(e),
            #[cfg(feature = "serde")]
            MessageError::Mismatch { .. } => None,
        }
    }
}

/// The error for bytes left at the end of the stream, which are dropped: a length prefix or a
/// message cut short (an unexpected end of file, as tokio_util's own codecs report it).
fn cut_short(framing: &mut Framing, src: &mut BytesMut) -> VarCodecError {
    let available = src.len();
    let err = match framing.peek_len(src) {
        None => CodecError::decode(
            framing.offset(),
            DecodeReason::Truncated {
                what: "a message's length prefix",
                needed: PREFIX_LEN,
                available,
            },
        ),
        Some(len) => CodecError::decode(
            framing.offset().saturating_add(PREFIX_LEN),
            DecodeReason::Truncated {
                what: "a message",
                needed: len,
                available: available.saturating_sub(PREFIX_LEN),
            },
        ),
    };
    framing.skip(available);
    src.clear();
    VarCodecError::Io(io::Error::new(io::ErrorKind::UnexpectedEof, err))
}

/// [`Framing::next`] for tokio's read buffer: while the message is incomplete, `src` gets room
/// for the rest of it (at most its declared length).
#[cfg(feature = "serde")]
fn next_in_buffer<R>(
    framing: &mut Framing,
    src: &mut BytesMut,
    read: impl FnOnce(&[u8], usize) -> R,
) -> Result<Option<R>, CodecError> {
    let out = framing.next(src, read)?;
    if out.is_none() {
        framing.reserve_rest(src);
    }
    Ok(out)
}

/// `StreamPeer.put_var` / `get_var`'s framing of [`Value`]s for `tokio_util`'s `Framed`,
/// `FramedRead` and `FramedWrite`: a `u32` length in the chosen byte order, then the value
/// encoded in the dialect of the [`Options`].
///
/// It reads as [`super::StreamReader`] does and writes as [`super::frame`] does. Its items are
/// `Result<Value, MessageError>`, so that a bad client costs one message, never the messages
/// after it:
///
/// * A message whose value does not decode is the item `Err(`[`MessageError::Malformed`]`)`,
///   with the offset of the failure in the stream (as `StreamReader`'s). The message has been
///   consumed, and the next item is the next message: with `Framed`, the stream goes on.
/// * A length prefix above [`VarCodec::max_message`] is an error of the stream
///   ([`VarCodecError::Codec`]) before anything is allocated for the message, and it breaks
///   the stream (there is no telling where the next message would start): that call and every
///   later one return the same error and drop the buffered bytes, until [`VarCodec::reset`].
///   Close the connection.
/// * An incomplete message is `Ok(None)`; once its length is known, the read buffer is given
///   room for the rest of it, never more than the length it declared (itself at most the
///   maximum).
/// * At the end of the stream ([`Decoder::decode_eof`]), bytes left of a message cut short are
///   an [`io::ErrorKind::UnexpectedEof`] error ([`VarCodecError::Io`], as tokio_util's own
///   codecs report it) wrapping a [`DecodeReason::Truncated`] with the message's offset; they
///   are dropped.
///
/// Encoding appends exactly what [`super::frame`] appends; a value that cannot be encoded is
/// an error and leaves the write buffer as it was. The maximum message size applies to reading
/// only: set it, and the [`Limits`](crate::options::Limits) of the options, for what a peer may make the
/// server hold. The codec encodes both `Value` and `&Value`, so `Framed` is a sink of both:
/// `send` and `feed` know which from their argument, `flush` and `close` are told
/// (`SinkExt::<Value>::flush(&mut framed)`).
///
/// # Examples
/// ```
/// use fast_var_codec_core::stream::{VarCodec, VarCodecError};
/// use fast_var_codec_core::{Dialect, Options, Value};
/// use futures_util::{SinkExt, StreamExt};
/// use tokio_util::codec::Framed;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), VarCodecError> {
/// // A tokio::net::TcpStream in a real server.
/// let (game, server) = tokio::io::duplex(64 * 1024);
/// let codec = VarCodec::new(Options::new(Dialect::Godot3));
/// let mut game = Framed::new(game, codec.clone());
/// let mut server = Framed::new(server, codec);
///
/// game.send(Value::from("hello")).await?;
/// let got = server.next().await.transpose()?; // Some(Ok(value)), or Some(Err(malformed))
/// assert_eq!(got, Some(Ok(Value::from("hello"))));
/// # Ok(())
/// # }
/// ```
///
/// Without a runtime, on a buffer of received bytes:
/// ```
/// use bytes::BytesMut;
/// use fast_var_codec_core::stream::{ByteOrder, VarCodec};
/// use fast_var_codec_core::{Options, Value};
/// use tokio_util::codec::Decoder;
///
/// let mut codec = VarCodec::new(Options::default()).with_byte_order(ByteOrder::Big);
/// let mut buf = BytesMut::from(&[0, 0, 0, 8, 2, 0, 0][..]); // 8 bytes announced, 3 here
/// assert_eq!(codec.decode(&mut buf)?, None);
/// buf.extend_from_slice(&[0, 5, 0, 0, 0]);
/// assert_eq!(codec.decode(&mut buf)?, Some(Ok(Value::Int(5))));
///
/// // A message that is no value: an item naming its offset in the stream, then the next one.
/// buf.extend_from_slice(&[0, 0, 0, 4, 0xff, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0]);
/// let bad = codec.decode(&mut buf)?.unwrap().unwrap_err();
/// assert!(bad.to_string().starts_with("decode failed at byte 16"), "{bad}");
/// assert_eq!(codec.decode(&mut buf)?, Some(Ok(Value::Nil)));
///
/// // A 2 GiB message: refused before anything is allocated, and the stream is broken.
/// buf.extend_from_slice(&[0x80, 0, 0, 0]);
/// assert!(codec.decode(&mut buf).is_err());
/// assert!(codec.broken().is_some());
/// # Ok::<(), fast_var_codec_core::stream::VarCodecError>(())
/// ```
#[derive(Debug, Clone)]
pub struct VarCodec {
    framing: Framing,
    reading: Reading,
}

impl VarCodec {
    /// A codec of values in the dialect (and with the limits) of `options`; little-endian
    /// prefixes and a maximum message of [`DEFAULT_MAX_MESSAGE`](super::DEFAULT_MAX_MESSAGE) bytes, as
    /// [`super::StreamReader`]'s defaults and the engine's.
    pub fn new(options: Options) -> Self {
        VarCodec {
            framing: Framing::default(),
            reading: Reading::fixed(options),
        }
    }

    /// A codec that takes the connection's dialect from the peer's own messages, so that one
    /// port serves Godot 3 and Godot 4 clients: each message narrows the dialects to those that
    /// read every message so far whole ([`DialectDetector`](crate::record::DialectDetector), the rule of [`crate::record`]),
    /// until one engine family is left (Godot 4, Godot 3, or one of Pandemonium's two). Each codec (each
    /// `Framed`, each connection) detects on its own; clone one per connection.
    ///
    /// Nothing is guessed: most values are the same bytes in every family (ints, Strings, bools,
    /// Vector2s, Arrays of them …) and come at once; a message that families read as different
    /// values (a Godot 3 Color is a Godot 4 Plane of the same bytes) is held until a later
    /// message settles the family, then comes in the peer's dialect, in its place. A peer whose
    /// messages never tell (at most [`crate::record::MAX_HELD_MESSAGES`] held) gets the oldest
    /// refused as [`MessageError::Malformed`] with a [`DecodeReason::Ambiguous`]; at the end of
    /// the stream, those still held come the same way.
    ///
    /// [`VarCodec::dialect`] is the dialect it writes answers in: the first of the dialects still
    /// possible in [`Dialect::ALL`] order, [`Dialect::Godot4`] until the family is settled
    /// ([`VarCodec::is_settled`]); values of the bytes the families share read the same in a
    /// Godot 3 engine (a float then comes as 64 bits, which Godot 3 reads). A message that reads
    /// whole in no dialect still possible is the item [`MessageError::Malformed`] and leaves the
    /// detection as it was.
    ///
    /// The options' `dialect` is not used; their precision (which only writing needs: a reader
    /// takes the width from each value's header), limits and object policies are.
    ///
    /// # Examples
    /// ```
    /// use bytes::BytesMut;
    /// use fast_var_codec_core::stream::{frame, ByteOrder, VarCodec};
    /// use fast_var_codec_core::{Dialect, Options, Value};
    /// use tokio_util::codec::{Decoder, Encoder};
    ///
    /// let godot3 = Options::new(Dialect::Godot3);
    /// let color = Value::Color([1.0, 0.5, 0.0, 1.0]);
    /// let mut wire = BytesMut::new();
    /// frame(&Value::Vector2([1.0, 2.0]), &godot3, ByteOrder::Little, &mut wire)?;
    /// frame(&color, &godot3, ByteOrder::Little, &mut wire)?;
    ///
    /// let mut codec = VarCodec::detecting(Options::default());
    /// assert_eq!(codec.decode(&mut wire)?, Some(Ok(Value::Vector2([1.0, 2.0]))));
    /// assert!(!codec.is_settled()); // a Vector2 reads the same in Godot 4 and Godot 3
    /// assert_eq!(codec.decode(&mut wire)?, None); // the Color (a Godot 4 Plane too) waits
    /// frame(&Value::rect2(0.0, 0.0, 8.0, 8.0), &godot3, ByteOrder::Little, &mut wire)?;
    /// assert_eq!(codec.decode(&mut wire)?, Some(Ok(color)));
    /// assert_eq!(codec.dialect(), Dialect::Godot3); // only Godot 3 reads that Rect2 whole
    /// assert_eq!(codec.decode(&mut wire)?, Some(Ok(Value::rect2(0.0, 0.0, 8.0, 8.0))));
    /// assert!(codec.is_settled());
    ///
    /// // Answers go out in the peer's dialect.
    /// let mut answer = BytesMut::new();
    /// codec.encode(Value::rect2(1.0, 2.0, 3.0, 4.0), &mut answer)?;
    /// let mut expected = BytesMut::new();
    /// frame(&Value::rect2(1.0, 2.0, 3.0, 4.0), &godot3, ByteOrder::Little, &mut expected)?;
    /// assert_eq!(answer, expected);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn detecting(options: Options) -> Self {
        VarCodec {
            framing: Framing::default(),
            reading: Reading::detecting(options),
        }
    }

    /// The dialect values are read and written in: the options' for [`VarCodec::new`]; for
    /// [`VarCodec::detecting`], the one the peer's messages tell so far.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::stream::VarCodec;
    /// use fast_var_codec_core::{Dialect, Options};
    ///
    /// assert_eq!(VarCodec::new(Options::new(Dialect::Godot3)).dialect(), Dialect::Godot3);
    /// assert_eq!(VarCodec::detecting(Options::default()).dialect(), Dialect::Godot4);
    /// ```
    pub fn dialect(&self) -> Dialect {
        self.reading.opts.dialect
    }

    /// Whether the dialect is known: always for [`VarCodec::new`]; for
    /// [`VarCodec::detecting`], once the peer's messages leave one engine family.
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::stream::VarCodec;
    /// use fast_var_codec_core::Options;
    ///
    /// assert!(VarCodec::new(Options::default()).is_settled());
    /// assert!(!VarCodec::detecting(Options::default()).is_settled());
    /// ```
    pub fn is_settled(&self) -> bool {
        self.reading.is_settled()
    }

    /// The same codec with length prefixes in `order` (the engine's `big_endian` property).
    pub fn with_byte_order(mut self, order: ByteOrder) -> Self {
        self.framing.order = order;
        self
    }

    /// The same codec refusing messages above `max` bytes (the prefix excluded; the engine's
    /// `encode_buffer_max_size`).
    pub fn with_max_message(mut self, max: usize) -> Self {
        self.framing.max_message = max;
        self
    }

    /// The options values are encoded and decoded with (their dialect: [`VarCodec::dialect`]).
    pub fn options(&self) -> &Options {
        &self.reading.opts
    }

    /// The byte order of the length prefixes.
    pub fn byte_order(&self) -> ByteOrder {
        self.framing.order
    }

    /// The largest message accepted, in bytes (the prefix excluded).
    pub fn max_message(&self) -> usize {
        self.framing.max_message
    }

    /// The error that broke the stream (a length prefix above the maximum), if any.
    pub fn broken(&self) -> Option<&CodecError> {
        self.framing.broken()
    }

    /// Forgets the broken state and the stream offset, for a new stream (clear the read buffer
    /// too: `Framed::read_buffer_mut`); a [`VarCodec::detecting`] codec detects again.
    pub fn reset(&mut self) {
        self.framing.reset();
        self.reading.reset();
    }
}

impl Decoder for VarCodec {
    type Item = Result<Value, MessageError>;
    type Error = VarCodecError;

    /// The next message, once it is complete: its value, or [`MessageError::Malformed`] when
    /// its bytes hold no valid value or a value that leaves some of them unread
    /// ([`DecodeReason::RecordNotWhole`]: another dialect's message); the stream goes on with
    /// the next message.
    ///
    /// # Errors
    /// [`VarCodecError::Codec`]: a [`DecodeReason::MessageTooLong`] for a prefix above the
    /// maximum (the stream is then broken, see [`VarCodec::broken`]).
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, VarCodecError> {
        let item = self.reading.next_value(&mut self.framing, src)?;
        if item.is_none() {
            self.framing.reserve_rest(src);
        }
        Ok(item.map(|item| item.map_err(MessageError::Malformed)))
    }

    /// As [`VarCodec::decode`]; what is left at the end of the stream must be nothing, and the
    /// messages a detecting codec still holds come as [`MessageError::Malformed`] items.
    ///
    /// # Errors
    /// As [`VarCodec::decode`], and for a message (or length prefix) cut short by the end of
    /// the stream, a [`VarCodecError::Io`] of kind [`io::ErrorKind::UnexpectedEof`] whose inner
    /// error is a [`DecodeReason::Truncated`] at the message's stream offset; its bytes are
    /// dropped.
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, VarCodecError> {
        match self.decode(src)? {
            Some(item) => Ok(Some(item)),
            None if src.is_empty() => Ok(self
                .reading
                .finish()
                .map(|item| item.map_err(MessageError::Malformed))),
            None => Err(cut_short(&mut self.framing, src)),
        }
    }
}

impl<'a> Encoder<&'a Value> for VarCodec {
    type Error = VarCodecError;

    /// Appends `item` framed to `dst`, exactly as [`super::frame`] does.
    ///
    /// # Errors
    /// [`VarCodecError::Codec`]: what [`super::frame`] refuses (a value the dialect cannot hold,
    /// with its path; an encoding too long for the prefix). `dst` is then left as it was.
    fn encode(&mut self, item: &'a Value, dst: &mut BytesMut) -> Result<(), VarCodecError> {
        frame(item, &self.reading.opts, self.framing.order, dst)?;
        Ok(())
    }
}

impl Encoder<Value> for VarCodec {
    type Error = VarCodecError;

    /// As the `Encoder<&Value>` implementation.
    ///
    /// # Errors
    /// As the `Encoder<&Value>` implementation.
    fn encode(&mut self, item: Value, dst: &mut BytesMut) -> Result<(), VarCodecError> {
        <Self as Encoder<&Value>>::encode(self, &item, dst)
    }
}

/// [`VarCodec`] for serde types (the `tokio` and `serde` features): it decodes each message
/// into a `T` with [`crate::serde_format::from_bytes`], and encodes any `Serialize` item (a `T`, a
/// `&T`, or another type: a server decodes its requests and encodes its answers with one codec)
/// with [`crate::serde_format::to_value`] then [`super::frame`]. The mapping between Rust and Godot
/// types is the [`crate::serde_format`] module's.
///
/// The framing, the byte order, the maximum message size and the state after an error are
/// those of [`VarCodec`]. Its items are `Result<T, MessageError>`: a message that holds no
/// valid value is the same [`MessageError::Malformed`] as [`VarCodec`]'s, one whose value does
/// not fit `T` a [`MessageError::Mismatch`]; either way the message has been consumed and the
/// stream goes on with the next one.
///
/// # Examples
/// ```
/// use fast_var_codec_core::stream::{TypedVarCodec, VarCodecError};
/// use fast_var_codec_core::{Dialect, Options};
/// use futures_util::{SinkExt, StreamExt};
/// use serde::{Deserialize, Serialize};
/// use tokio_util::codec::Framed;
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// enum Request {
///     Move { dx: f64, dy: f64 },
/// }
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// enum Answer {
///     Moved { x: f64, y: f64 },
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), VarCodecError> {
/// let opts = Options::new(Dialect::Godot4);
/// let (game, server) = tokio::io::duplex(64 * 1024);
/// let mut game = Framed::new(game, TypedVarCodec::<Answer>::new(opts.clone()));
/// let mut server = Framed::new(server, TypedVarCodec::<Request>::new(opts));
///
/// // What `put_var({"Move": {"dx": 1.5, "dy": 0.0}})` sends from GDScript.
/// game.send(Request::Move { dx: 1.5, dy: 0.0 }).await?;
/// let Some(Ok(Request::Move { dx, dy })) = server.next().await.transpose()? else {
///     panic!("no request");
/// };
/// server.send(&Answer::Moved { x: dx, y: dy }).await?;
/// let answer = game.next().await.transpose()?;
/// assert_eq!(answer.and_then(Result::ok), Some(Answer::Moved { x: 1.5, y: 0.0 }));
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "serde")]
pub struct TypedVarCodec<T> {
    opts: Options,
    framing: Framing,
    /// Decodes `T`s; holds none (`fn() -> T`: `Send` and `Sync` whatever `T` is).
    item: PhantomData<fn() -> T>,
}

#[cfg(feature = "serde")]
impl<T> TypedVarCodec<T> {
    /// A codec of `T`s in the dialect (and with the limits) of `options`; little-endian
    /// prefixes and a maximum message of [`DEFAULT_MAX_MESSAGE`](super::DEFAULT_MAX_MESSAGE) bytes, as [`VarCodec::new`].
    pub fn new(options: Options) -> Self {
        TypedVarCodec {
            opts: options,
            framing: Framing::default(),
            item: PhantomData,
        }
    }

    /// The same codec with length prefixes in `order` (the engine's `big_endian` property).
    pub fn with_byte_order(mut self, order: ByteOrder) -> Self {
        self.framing.order = order;
        self
    }

    /// The same codec refusing messages above `max` bytes (the prefix excluded).
    pub fn with_max_message(mut self, max: usize) -> Self {
        self.framing.max_message = max;
        self
    }

    /// The options values are encoded and decoded with.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The byte order of the length prefixes.
    pub fn byte_order(&self) -> ByteOrder {
        self.framing.order
    }

    /// The largest message accepted, in bytes (the prefix excluded).
    pub fn max_message(&self) -> usize {
        self.framing.max_message
    }

    /// The error that broke the stream (a length prefix above the maximum), if any.
    pub fn broken(&self) -> Option<&CodecError> {
        self.framing.broken()
    }

    /// Forgets the broken state and the stream offset, for a new stream (clear the read buffer
    /// too).
    pub fn reset(&mut self) {
        self.framing.reset();
    }
}

#[cfg(feature = "serde")]
impl<T> Clone for TypedVarCodec<T> {
    fn clone(&self) -> Self {
        TypedVarCodec {
            opts: self.opts.clone(),
            framing: self.framing.clone(),
            item: PhantomData,
        }
    }
}

#[cfg(feature = "serde")]
impl<T> std::fmt::Debug for TypedVarCodec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedVarCodec")
            .field("item", &std::any::type_name::<T>())
            .field("opts", &self.opts)
            .field("framing", &self.framing)
            .finish()
    }
}

/// A `T` from a message's bytes, which its value must take whole, as [`VarCodec`]'s values do
/// ([`DecodeReason::RecordNotWhole`] otherwise: another dialect's message).
#[cfg(feature = "serde")]
fn whole_from_bytes<T: ::serde::de::DeserializeOwned>(
    payload: &[u8],
    opts: &Options,
) -> Result<T, crate::serde_format::Error> {
    let mut de = crate::serde_format::Deserializer::from_bytes(payload, opts);
    let value = T::deserialize(&mut de)?;
    crate::record::check_whole(payload, de.position(), opts)?;
    Ok(value)
}

#[cfg(feature = "serde")]
impl<T: ::serde::de::DeserializeOwned> Decoder for TypedVarCodec<T> {
    type Item = Result<T, MessageError>;
    type Error = VarCodecError;

    /// The next message, once it is complete: its `T`, or a [`MessageError`] for a message
    /// that holds no valid value or a value that does not fit `T` (the stream goes on).
    ///
    /// # Errors
    /// As [`VarCodec::decode`]'s.
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, VarCodecError> {
        let opts = &self.opts;
        Ok(next_in_buffer(&mut self.framing, src, |payload, at| {
            whole_from_bytes::<T>(payload, opts).map_err(|error| {
                match error.codec_error() {
                    // The value itself is malformed: the same error as VarCodec's.
                    Some(e @ CodecError::Decode { .. }) => {
                        MessageError::Malformed(e.clone().shifted(at))
                    }
                    _ => MessageError::Mismatch {
                        message_at: at,
                        error,
                    },
                }
            })
        })?)
    }

    /// As [`TypedVarCodec::decode`]; what is left at the end of the stream must be nothing.
    ///
    /// # Errors
    /// As [`VarCodec::decode_eof`]'s.
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Self::Item>, VarCodecError> {
        match self.decode(src)? {
            Some(item) => Ok(Some(item)),
            None if src.is_empty() => Ok(None),
            None => Err(cut_short(&mut self.framing, src)),
        }
    }
}

#[cfg(feature = "serde")]
impl<T, U: ::serde::Serialize> Encoder<U> for TypedVarCodec<T> {
    type Error = VarCodecError;

    /// Appends `item` framed to `dst`: serialized straight into the frame (as
    /// [`crate::serde_format::to_bytes`] writes it), framed as [`super::frame`] frames a value.
    ///
    /// # Errors
    /// [`VarCodecError::Serialize`] when `item` does not serialize, and
    /// [`VarCodecError::Codec`] for what [`super::frame`] refuses. `dst` is then left as it
    /// was.
    fn encode(&mut self, item: U, dst: &mut BytesMut) -> Result<(), VarCodecError> {
        use crate::serde_format::FrameError;
        match crate::serde_format::frame_serialized(&item, &self.opts, self.framing.order, dst) {
            Ok(_) => Ok(()),
            Err(FrameError::Serialize(e)) => Err(VarCodecError::Serialize(e)),
            Err(FrameError::Frame(e)) => Err(VarCodecError::Codec(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use crate::stream::StreamReader;
    use crate::Dialect;

    fn framed(values: &[Value], opts: &Options, order: ByteOrder) -> BytesMut {
        let mut out = BytesMut::new();
        for v in values {
            frame(v, opts, order, &mut out).unwrap();
        }
        out
    }

    fn sample_values() -> Vec<Value> {
        vec![
            Value::Int(7),
            Value::String("héllo".into()),
            Value::array(vec![Value::Nil, Value::Float(0.5), Value::Bool(true)]),
            Value::PackedByteArray((0..=255).collect()),
            Value::Vector3([1.0, -2.0, 0.25]),
        ]
    }

    /// Decodes everything `src` holds, in arrival order.
    fn drain(codec: &mut VarCodec, src: &mut BytesMut) -> Vec<Value> {
        let mut got = Vec::new();
        while let Some(v) = codec.decode(src).unwrap() {
            got.push(v.unwrap());
        }
        got
    }

    #[test]
    fn split_arrival_one_byte_at_a_time() {
        for dialect in [Dialect::Godot4, Dialect::Godot3] {
            let opts = Options::new(dialect);
            let values = sample_values();
            let wire = framed(&values, &opts, ByteOrder::Little);
            let mut codec = VarCodec::new(opts);
            let mut src = BytesMut::new();
            let mut got = Vec::new();
            for b in wire.iter() {
                src.extend_from_slice(&[*b]);
                got.extend(drain(&mut codec, &mut src));
            }
            assert_eq!(got, values);
            assert!(src.is_empty());
            assert_eq!(codec.decode_eof(&mut src).unwrap(), None);
        }
    }

    #[test]
    fn split_arrival_in_uneven_chunks() {
        let opts = Options::default();
        let values = sample_values();
        let wire = framed(&values, &opts, ByteOrder::Little);
        for chunk in [2, 3, 5, 7, 64, 1000] {
            let mut codec = VarCodec::new(opts.clone());
            let mut src = BytesMut::new();
            let mut got = Vec::new();
            for piece in wire.chunks(chunk) {
                src.extend_from_slice(piece);
                got.extend(drain(&mut codec, &mut src));
            }
            assert_eq!(got, values, "chunks of {chunk}");
        }
    }

    #[test]
    fn coalesced_arrival() {
        let opts = Options::default();
        let values = sample_values();
        let mut src = framed(&values, &opts, ByteOrder::Little);
        let mut codec = VarCodec::new(opts);
        assert_eq!(drain(&mut codec, &mut src), values);
        assert!(src.is_empty());
    }

    #[test]
    fn big_endian_prefixes() {
        let opts = Options::default();
        let values = sample_values();
        let mut src = framed(&values, &opts, ByteOrder::Big);
        assert_eq!(src.get(..4), Some(&[0, 0, 0, 8][..])); // Int(7): 8 bytes, big-endian
        let mut codec = VarCodec::new(opts.clone()).with_byte_order(ByteOrder::Big);
        assert_eq!(codec.byte_order(), ByteOrder::Big);
        assert_eq!(drain(&mut codec, &mut src), values);

        // Read as little-endian, the same prefix announces 128 MiB: above the maximum.
        let mut src = framed(&values, &opts, ByteOrder::Big);
        let mut little = VarCodec::new(opts);
        let err = little.decode(&mut src).unwrap_err();
        assert!(matches!(
            err.codec_error(),
            Some(CodecError::Decode {
                offset: 0,
                reason: DecodeReason::MessageTooLong {
                    len: 0x0800_0000,
                    ..
                }
            })
        ));
    }

    #[test]
    fn encoder_output_is_frame_output() {
        for order in [ByteOrder::Little, ByteOrder::Big] {
            for dialect in [Dialect::Godot4, Dialect::Godot3] {
                let opts = Options::new(dialect);
                let mut codec = VarCodec::new(opts.clone()).with_byte_order(order);
                let mut by_ref = BytesMut::new();
                let mut by_value = BytesMut::new();
                for v in sample_values() {
                    codec.encode(&v, &mut by_ref).unwrap();
                    codec.encode(v, &mut by_value).unwrap();
                }
                let expected = framed(&sample_values(), &opts, order);
                assert_eq!(by_ref, expected);
                assert_eq!(by_value, expected);
            }
        }
    }

    #[test]
    fn encode_error_leaves_the_buffer_as_it_was() {
        let mut codec = VarCodec::new(Options::new(Dialect::Godot3));
        let mut dst = BytesMut::new();
        codec.encode(Value::Int(1), &mut dst).unwrap();
        let before = dst.clone();
        let err = codec.encode(Value::Vector2i([1, 2]), &mut dst).unwrap_err();
        assert_eq!(
            err.codec_error().map(CodecError::code),
            Some(ErrorCode::InvalidParameter)
        );
        assert_eq!(dst, before);
    }

    #[test]
    fn malformed_value_then_the_next_good_one() {
        let opts = Options::default();
        let good = framed(&[Value::Int(1)], &opts, ByteOrder::Little);
        // A message of 8 bytes whose type id does not exist, between two good ones.
        let mut wire = good.clone();
        wire.extend_from_slice(&[8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]);
        wire.extend_from_slice(&framed(&[Value::Bool(true)], &opts, ByteOrder::Little));

        let mut codec = VarCodec::new(opts.clone());
        let mut src = wire.clone();
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(Value::Int(1))));
        let err = codec.decode(&mut src).unwrap().unwrap().unwrap_err();
        // The value's offset in the stream: after the first message (12 bytes) and the prefix.
        let Some(CodecError::Decode { offset, reason }) = err.codec_error() else {
            panic!("not a decode error: {err}")
        };
        assert_eq!(*offset, 16);
        assert_eq!(reason.code(), ErrorCode::InvalidData);
        assert!(codec.broken().is_none());
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(Value::Bool(true))));
        assert!(src.is_empty());

        // The same errors, at the same offsets, as StreamReader's.
        let mut reader = StreamReader::new(opts);
        reader.feed(&wire).unwrap();
        assert_eq!(reader.next_value().unwrap(), Some(Value::Int(1)));
        assert_eq!(Some(&reader.next_value().unwrap_err()), err.codec_error());
        assert_eq!(reader.next_value().unwrap(), Some(Value::Bool(true)));
    }

    #[test]
    fn oversized_prefix_breaks_the_stream_until_reset() {
        let opts = Options::default();
        let mut codec = VarCodec::new(opts.clone()).with_max_message(1024);
        assert_eq!(codec.max_message(), 1024);
        let mut src = framed(&[Value::Int(3)], &opts, ByteOrder::Little);
        src.extend_from_slice(&[0, 0, 0, 0x80, 1, 2, 3]);
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(Value::Int(3))));
        let err = codec.decode(&mut src).unwrap_err();
        let expected = CodecError::decode(
            12,
            DecodeReason::MessageTooLong {
                len: 0x8000_0000,
                max: 1024,
            },
        );
        assert_eq!(err.codec_error(), Some(&expected));
        assert_eq!(codec.broken(), Some(&expected));
        assert!(src.is_empty(), "the buffered bytes are dropped");

        // Broken: even a good message is refused (and dropped), with the same error.
        src.extend_from_slice(&framed(&[Value::Int(4)], &opts, ByteOrder::Little));
        let again = codec.decode(&mut src).unwrap_err();
        assert_eq!(again.codec_error(), Some(&expected));
        assert!(src.is_empty());

        codec.reset();
        assert!(codec.broken().is_none());
        src.extend_from_slice(&framed(&[Value::Int(4)], &opts, ByteOrder::Little));
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(Value::Int(4))));

        // As StreamReader.
        let mut reader = StreamReader::new(opts.clone()).with_max_message(1024);
        reader
            .feed(&framed(&[Value::Int(3)], &opts, ByteOrder::Little))
            .unwrap();
        reader.feed(&[0, 0, 0, 0x80, 1, 2, 3]).unwrap();
        assert_eq!(reader.next_value().unwrap(), Some(Value::Int(3)));
        assert_eq!(reader.next_value().unwrap_err(), expected);
    }

    #[test]
    fn a_message_of_exactly_the_maximum_is_read() {
        let opts = Options::default();
        let v = Value::PackedByteArray(vec![9; 100]);
        let mut src = framed(std::slice::from_ref(&v), &opts, ByteOrder::Little);
        let len = src.len() - PREFIX_LEN;
        let mut codec = VarCodec::new(opts.clone()).with_max_message(len);
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(v.clone())));
        let mut src = framed(std::slice::from_ref(&v), &opts, ByteOrder::Little);
        let mut codec = VarCodec::new(opts).with_max_message(len - 1);
        assert!(codec.decode(&mut src).is_err());
    }

    #[test]
    fn partial_frame_reserves_at_most_its_declared_length() {
        let mut codec = VarCodec::new(Options::default());
        // 1 MiB announced, 10 bytes here.
        let mut src = BytesMut::new();
        src.extend_from_slice(&(1u32 << 20).to_le_bytes());
        src.extend_from_slice(&[0; 6]);
        assert_eq!(codec.decode(&mut src).unwrap(), None);
        assert!(src.capacity() >= PREFIX_LEN + (1 << 20));
        assert!(src.capacity() <= 2 * (PREFIX_LEN + (1 << 20)));
        assert_eq!(src.len(), 10, "nothing consumed");
    }

    #[test]
    fn end_of_stream_inside_a_message() {
        let opts = Options::default();
        let mut codec = VarCodec::new(opts.clone());
        let mut src = framed(&[Value::Int(1)], &opts, ByteOrder::Little);
        src.extend_from_slice(&[20, 0, 0, 0, 4, 0, 0]);
        assert_eq!(codec.decode_eof(&mut src).unwrap(), Some(Ok(Value::Int(1))));
        let err = codec.decode_eof(&mut src).unwrap_err();
        let VarCodecError::Io(io) = &err else {
            panic!("not an I/O error: {err}")
        };
        assert_eq!(io.kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(
            err.codec_error(),
            Some(&CodecError::decode(
                16,
                DecodeReason::Truncated {
                    what: "a message",
                    needed: 20,
                    available: 3
                }
            ))
        );
        assert!(src.is_empty());
        assert_eq!(codec.decode_eof(&mut src).unwrap(), None);

        // A prefix cut short.
        src.extend_from_slice(&[1, 0]);
        let err = codec.decode_eof(&mut src).unwrap_err();
        assert!(matches!(
            err.codec_error(),
            Some(CodecError::Decode {
                offset: 19,
                reason: DecodeReason::Truncated { available: 2, .. }
            })
        ));
    }

    #[test]
    fn io_errors_stay_io_errors() {
        let e = VarCodecError::from(io::Error::new(io::ErrorKind::ConnectionReset, "reset"));
        assert!(e.codec_error().is_none());
        assert_eq!(io::Error::from(e).kind(), io::ErrorKind::ConnectionReset);
        let e = VarCodecError::from(CodecError::decode(3, DecodeReason::UnknownType(99)));
        assert_eq!(io::Error::from(e).kind(), io::ErrorKind::InvalidData);
    }

    /// `values` framed in `dialect`, little-endian.
    fn framed_in(values: &[Value], dialect: Dialect) -> BytesMut {
        framed(values, &Options::new(dialect), ByteOrder::Little)
    }

    #[test]
    fn detecting_settles_on_the_first_telling_message_of_each_family() {
        // What reads the same in both families first, then one only that family reads whole.
        let shared = vec![
            Value::Int(7),
            Value::String("héllo".into()),
            Value::Vector2([1.5, -2.0]),
        ];
        let cases = [
            (Dialect::Godot3, Value::rect2(1.0, 2.0, 3.0, 4.5)),
            (
                Dialect::Godot3,
                Value::transform3d(
                    [1.0, 0.0, 0.0],
                    [0.0, 1.0, 0.0],
                    [0.0, 0.0, 1.0],
                    [5.0, 6.0, 7.0],
                ),
            ),
            (Dialect::Godot4, Value::vector4(1.0, 2.0, 3.0, 4.0)),
            (Dialect::Godot4, Value::array(vec![Value::Int(1)])),
        ];
        for (dialect, telling) in cases {
            let mut values = shared.clone();
            values.push(telling.clone());
            values.push(Value::Float(0.25));
            let mut src = framed_in(&values, dialect);
            let mut codec = VarCodec::detecting(Options::default());
            for v in &shared {
                assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(v.clone())));
                assert!(!codec.is_settled(), "{v:?} tells no dialect");
                assert_eq!(codec.dialect(), Dialect::Godot4);
            }
            assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(telling.clone())));
            assert!(codec.is_settled(), "{telling:?}");
            assert_eq!(codec.dialect(), dialect, "{telling:?}");
            assert_eq!(codec.options().dialect, dialect);
            assert_eq!(
                codec.decode(&mut src).unwrap(),
                Some(Ok(Value::Float(0.25)))
            );

            // Answers in the detected dialect: what a codec of that dialect writes.
            let mut answer = BytesMut::new();
            codec.encode(&telling, &mut answer).unwrap();
            assert_eq!(answer, framed_in(std::slice::from_ref(&telling), dialect));
        }
    }

    #[test]
    fn detecting_holds_what_the_families_read_differently_until_told() {
        // A Godot 3 Color is a Godot 4 Plane of the same 16 bytes: it waits.
        let color = Value::Color([0.5, 0.25, 0.125, 1.0]);
        let mut src = framed_in(std::slice::from_ref(&color), Dialect::Godot3);
        let mut codec = VarCodec::detecting(Options::default());
        assert_eq!(codec.decode(&mut src).unwrap(), None);
        assert!(!codec.is_settled());
        // Answers before then are Godot 4's bytes.
        let mut answer = BytesMut::new();
        codec.encode(Value::Float(0.5), &mut answer).unwrap();
        assert_eq!(answer, framed_in(&[Value::Float(0.5)], Dialect::Godot4));
        // A Vector2 leaves Pandemonium out, a Rect2 Godot 4: the Color comes, a Color.
        let rect = Value::rect2(0.0, 0.0, 8.0, 8.0);
        let telling = [Value::Vector2([1.0, 2.0]), rect.clone()];
        src.extend_from_slice(&framed_in(&telling, Dialect::Godot3));
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(color)));
        assert_eq!(codec.dialect(), Dialect::Godot3);
        assert_eq!(
            codec.decode(&mut src).unwrap(),
            Some(Ok(telling[0].clone()))
        );
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(rect)));
    }

    #[test]
    fn detecting_refuses_what_is_still_undecided_at_the_end_of_the_stream() {
        let color = Value::Color([0.5, 0.25, 0.125, 1.0]);
        let mut src = framed_in(&[color], Dialect::Godot3);
        let mut codec = VarCodec::detecting(Options::default());
        assert_eq!(
            codec.decode_eof(&mut src).unwrap().map(|r| r.is_err()),
            Some(true)
        );
        assert_eq!(codec.decode_eof(&mut src).unwrap(), None);
    }

    #[test]
    fn detecting_skips_a_malformed_message_and_resets() {
        let mut src = BytesMut::new();
        // A message of 8 bytes whose type id does not exist, then a Godot 3 Vector2 and Rect2.
        src.extend_from_slice(&[8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]);
        let rect = Value::rect2(0.0, 0.0, 8.0, 8.0);
        let vector = Value::Vector2([1.0, 2.0]);
        src.extend_from_slice(&framed_in(&[vector.clone(), rect.clone()], Dialect::Godot3));
        let mut codec = VarCodec::detecting(Options::default());
        let bad = codec.decode(&mut src).unwrap().unwrap().unwrap_err();
        assert_eq!(bad.offset(), 4);
        assert!(!codec.is_settled());
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(vector)));
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(rect)));
        assert_eq!(codec.dialect(), Dialect::Godot3);

        codec.reset();
        assert!(!codec.is_settled());
        assert_eq!(codec.dialect(), Dialect::Godot4);
        // A Vector2 leaves Godot 4 and Godot 3, a Vector4 then Godot 4.
        let values = [
            Value::Vector2([1.0, 2.0]),
            Value::vector4(1.0, 2.0, 3.0, 4.0),
        ];
        let mut src = framed_in(&values, Dialect::Godot4);
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(values[0].clone())));
        assert!(!codec.is_settled());
        assert_eq!(codec.dialect(), Dialect::Godot4);
        assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(values[1].clone())));
        assert!(codec.is_settled());
        assert_eq!(codec.dialect(), Dialect::Godot4);

        // A fixed codec stays fixed.
        let mut fixed = VarCodec::new(Options::new(Dialect::Godot3));
        fixed.reset();
        assert!(fixed.is_settled());
        assert_eq!(fixed.dialect(), Dialect::Godot3);
    }

    #[cfg(feature = "serde")]
    mod typed {
        use super::*;
        use serde::{Deserialize, Serialize};

        #[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
        struct Move {
            player: String,
            dx: f64,
            dy: i32,
        }

        fn sample() -> Move {
            Move {
                player: "ada".into(),
                dx: 1.5,
                dy: -2,
            }
        }

        #[test]
        fn typed_roundtrip_split_and_coalesced() {
            let opts = Options::new(Dialect::Godot3);
            let mut codec =
                TypedVarCodec::<Move>::new(opts.clone()).with_byte_order(ByteOrder::Big);
            let mut wire = BytesMut::new();
            for i in 0..3 {
                let mut m = sample();
                m.dy = i;
                codec.encode(&m, &mut wire).unwrap();
            }
            // The same bytes as a Value through VarCodec: the serde mapping, framed by frame().
            let first = Move { dy: 0, ..sample() };
            let as_value = crate::serde_format::to_value(&first).unwrap();
            let expected = framed(&[as_value], &opts, ByteOrder::Big);
            assert_eq!(wire.get(..expected.len()), Some(&expected[..]));

            let mut src = BytesMut::new();
            let mut got = Vec::new();
            for piece in wire.chunks(5) {
                src.extend_from_slice(piece);
                while let Some(m) = codec.decode(&mut src).unwrap() {
                    got.push(m.unwrap().dy);
                }
            }
            assert_eq!(got, [0, 1, 2]);
        }

        #[test]
        fn typed_malformed_and_mismatched_values_then_a_good_one() {
            let opts = Options::default();
            let mut codec = TypedVarCodec::<Move>::new(opts.clone());
            let mut src = BytesMut::new();
            src.extend_from_slice(&[8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4]);
            codec.encode(Value::Int(5), &mut src).unwrap(); // well-formed, not a Move
            codec.encode(sample(), &mut src).unwrap();

            let err = codec.decode(&mut src).unwrap().unwrap().unwrap_err();
            assert!(
                matches!(
                    err.codec_error(),
                    Some(CodecError::Decode { offset: 4, .. })
                ),
                "{err}"
            );
            let err = codec.decode(&mut src).unwrap().unwrap().unwrap_err();
            assert!(
                matches!(err, MessageError::Mismatch { message_at: 16, .. }),
                "{err}"
            );
            assert_eq!(codec.decode(&mut src).unwrap(), Some(Ok(sample())));
            assert!(codec.broken().is_none());
        }

        #[test]
        fn typed_oversized_prefix_breaks_the_stream() {
            let mut codec = TypedVarCodec::<Move>::new(Options::default()).with_max_message(64);
            let mut src = BytesMut::from(&[65, 0, 0, 0][..]);
            let err = codec.decode(&mut src).unwrap_err();
            assert_eq!(
                err.codec_error().map(CodecError::code),
                Some(ErrorCode::OutOfMemory)
            );
            assert!(codec.broken().is_some());
        }

        #[test]
        fn typed_unserializable_item_writes_nothing() {
            let mut codec = TypedVarCodec::<u64>::new(Options::default());
            let mut dst = BytesMut::new();
            let err = codec.encode(u64::MAX, &mut dst).unwrap_err();
            assert!(matches!(err, VarCodecError::Serialize(_)), "{err}");
            assert!(dst.is_empty());
        }
    }
}
