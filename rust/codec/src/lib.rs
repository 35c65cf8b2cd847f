// The README's snippets use both optional features: it is the crate's documentation (and its
// snippets doctests) when they are on, as on docs.rs.
#![cfg_attr(all(feature = "serde", feature = "tokio"), doc = include_str!("../README.md"))]
#![cfg_attr(
    not(all(feature = "serde", feature = "tokio")),
    doc = "Godot's binary Variant format (`var_to_bytes`, `put_var`, `store_var`) without an \
           engine. Its README, with a tokio server, is the documentation with the `serde` and \
           `tokio` features on."
)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

// The crate's root holds what every user needs (`encode`, `decode`, `Value`, `Options`,
// `Dialect`, `CodecError`, `Result`) and one module per concern; `tests/root_items.rs` keeps
// the visible items within its budget. No module is named after a crate a user may import
// beside this one by a glob (`serde`): `use fast_var_codec_core::*;` would make that crate's
// paths ambiguous (E0659).
pub mod error;
#[cfg(feature = "json")]
pub mod json;
pub mod locate;
pub mod options;
pub mod prelude;
pub mod reader;
pub mod real;
pub mod record;
#[cfg(feature = "files")]
pub mod save;
#[cfg(feature = "serde")]
pub mod serde_format;
pub mod stream;
pub mod transcode;
pub mod value;
pub mod writer;

// The modules of the codec's insides; what users need of them is re-exported by a documented
// module (`build` by `reader`, `dialect`, `limits` and `objects` by `options`, `types` by
// `value`).
mod base64;
mod build;
mod dialect;
mod godot_error;
mod header;
mod limits;
mod names;
mod objects;
mod sink;
mod stack;
mod text;
mod types;

use bytes::BytesMut;

pub use error::{CodecError, Result};
pub use options::{Dialect, Options};
pub use value::Value;

/// Appends the encoding of `value` to `out` (a reusable buffer). On failure `out` is left as
/// it was. Returns the number of bytes written.
///
/// # Errors
/// A [`CodecError::Encode`] with the path to the value that failed (`[3].items["k"]`) and the
/// reason: a type the dialect lacks without `opts.allow_lossy`
/// ([`EncodeReason::NotInDialect`](error::EncodeReason::NotInDialect)), nesting deeper than `opts.limits.max_depth` or a container
/// that contains itself ([`EncodeReason::TooDeep`](error::EncodeReason::TooDeep)), a string or container too long for the
/// format ([`EncodeReason::TooLarge`](error::EncodeReason::TooLarge)), a malformed value such as a script property that is
/// not a `res://` path ([`EncodeReason::Invalid`](error::EncodeReason::Invalid)), or options that cannot encode
/// ([`EncodeReason::DoubleInGodot3`](error::EncodeReason::DoubleInGodot3), see [`Options::check`]).
///
/// # Examples
/// ```
/// use bytes::BytesMut;
/// use fast_var_codec_core::{encode_into, Dialect, Options, Value};
///
/// let opts = Options::new(Dialect::Godot3);
/// let mut out = BytesMut::new();
/// for i in 0..3 {
///     out.clear(); // one buffer for every message
///     let n = encode_into(&Value::Int(i), &opts, &mut out)?;
///     assert_eq!(n, 8);
/// }
/// // A Godot 4-only value fails in Godot 3, and leaves `out` as it was.
/// assert!(encode_into(&Value::Vector2i([1, 2]), &opts, &mut out).is_err());
/// assert_eq!(&out[..], &[2, 0, 0, 0, 2, 0, 0, 0]);
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn encode_into(value: &Value, opts: &Options, out: &mut BytesMut) -> Result<usize> {
    let before = out.len();
    let mut w = writer::Writer::new(std::mem::take(out), opts)?;
    let res = value::write_value(&mut w, value);
    *out = w.into_sink();
    match res {
        Ok(()) => Ok(out.len() - before),
        Err(e) => {
            out.truncate(before);
            Err(e)
        }
    }
}

/// The encoding of `value` in a new buffer, allocated once at its exact size: what
/// `var_to_bytes` (or, with `opts.full_objects`, `var_to_bytes_with_objects`) returns.
///
/// # Errors
/// A [`CodecError::Encode`] with the path to the value that failed (`[3].items["k"]`) and the
/// reason: a type the dialect lacks without `opts.allow_lossy`
/// ([`EncodeReason::NotInDialect`](error::EncodeReason::NotInDialect)), nesting deeper than `opts.limits.max_depth` or a container
/// that contains itself ([`EncodeReason::TooDeep`](error::EncodeReason::TooDeep)), a string or container too long for the
/// format ([`EncodeReason::TooLarge`](error::EncodeReason::TooLarge)), a malformed value such as a script property that is
/// not a `res://` path ([`EncodeReason::Invalid`](error::EncodeReason::Invalid)), or options that cannot encode
/// ([`EncodeReason::DoubleInGodot3`](error::EncodeReason::DoubleInGodot3), see [`Options::check`]).
///
/// # Examples
/// ```
/// use fast_var_codec_core::{encode, CodecError, Dialect, Options, Value};
/// use fast_var_codec_core::error::EncodeReason;
///
/// let bytes = encode(&Value::String("hi".into()), &Options::default())?;
/// assert_eq!(&bytes[..], &[4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]); // padded to 4
///
/// // Errors name the value that failed: Godot 3 has no Vector4.
/// let godot3 = Options::new(Dialect::Godot3);
/// let v = Value::array(vec![Value::Nil, Value::Vector4(Box::new([0.0; 4]))]);
/// let err = encode(&v, &godot3).unwrap_err();
/// assert!(matches!(
///     &err,
///     CodecError::Encode { path, reason: EncodeReason::NotInDialect { .. } }
///         if path.to_string() == "[1]"
/// ));
/// assert!(encode(&v, &godot3.with_allow_lossy(true)).is_ok()); // as a Quaternion
/// # Ok::<(), CodecError>(())
/// ```
pub fn encode(value: &Value, opts: &Options) -> Result<BytesMut> {
    let mut out = BytesMut::with_capacity(encoded_size(value, opts)?);
    encode_into(value, opts, &mut out)?;
    Ok(out)
}

/// The exact size [`encode`] would produce, computed without allocating (the same writer runs
/// with a sink that only counts).
///
/// # Errors
/// As [`encode`]'s: exactly when `encode` fails.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{encode, encoded_size, Options, Value};
///
/// let v = Value::PackedByteArray(vec![1, 2, 3, 4, 5]);
/// let opts = Options::default();
/// assert_eq!(encoded_size(&v, &opts)?, 16); // header, count, 5 bytes, 3 of padding
/// assert_eq!(encoded_size(&v, &opts)?, encode(&v, &opts)?.len());
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn encoded_size(value: &Value, opts: &Options) -> Result<usize> {
    let mut w = writer::Writer::new(writer::SizeCounter::default(), opts)?;
    value::write_value(&mut w, value)?;
    Ok(w.into_sink().0)
}

/// Decodes one value from the start of `bytes`; returns it with the bytes consumed, never more
/// than `bytes.len()`, so `&bytes[used..]` is what follows the value.
///
/// Bytes after the value are ignored, as `bytes_to_var` ignores them;
/// [`record::decode_record`] refuses them. A final PackedByteArray may end the input without its padding (the engine accepts it
/// too); the size then ends with the input, where the engine's `decode_var_size` counts the
/// missing padding.
///
/// # Errors
/// A [`CodecError::Decode`] with the byte offset, the reason and the Godot `Error` the engine
/// reports for the same input (truncated data, an unknown type id, invalid UTF-8, a limit of
/// `opts.limits`, a full object without `opts.allow_objects`, …).
///
/// # Examples
/// ```
/// use fast_var_codec_core::{decode, encode, Options, Value};
///
/// let opts = Options::default();
/// let mut bytes = encode(&Value::Int(7), &opts)?.to_vec();
/// bytes.extend_from_slice(b"rest");
/// let (value, used) = decode(&bytes, &opts)?;
/// assert_eq!(value, Value::Int(7));
/// assert_eq!(&bytes[used..], b"rest");
///
/// let full = encode(&Value::PackedByteArray(vec![7]), &opts)?;
/// assert_eq!(full.len(), 12); // header, count, 1 byte, 3 bytes of padding
/// let cut = &full[..9]; // a sender that left the final padding out: still one value
/// assert_eq!(decode(cut, &opts)?, (Value::PackedByteArray(vec![7]), 9));
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn decode(bytes: &[u8], opts: &Options) -> Result<(Value, usize)> {
    reader::decode_with(bytes, 0, opts, &mut value::ValueBuilder::default())
}

/// Decodes one value starting at `offset`; the size returned is counted from `offset` and, as
/// [`decode`]'s, ends at the end of `bytes` at the latest.
///
/// # Errors
/// As [`decode`]'s, with offsets counted from the start of `bytes`; an `offset` past the end
/// is an error too.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{decode_at, Options, Value};
///
/// // A 4-byte header of the caller's own, then var_to_bytes(true).
/// let bytes = [0xAB, 0xCD, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0];
/// let (value, used) = decode_at(&bytes, 4, &Options::default())?;
/// assert_eq!((value, used), (Value::Bool(true), 8));
///
/// let err = decode_at(&bytes, 9, &Options::default()).unwrap_err();
/// assert!(err.to_string().starts_with("decode failed at byte 9")); // counted from bytes[0]
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn decode_at(bytes: &[u8], offset: usize, opts: &Options) -> Result<(Value, usize)> {
    reader::decode_with(bytes, offset, opts, &mut value::ValueBuilder::default())
}

/// The Rust snippets of the repository's README, run as doctests.
#[cfg(all(doctest, feature = "serde", feature = "tokio"))]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeSnippets;

/// The Rust snippets of `docs/rust.md`, run as doctests (its JSON section needs `json` too, its
/// packets `compression`).
#[cfg(all(
    doctest,
    feature = "serde",
    feature = "tokio",
    feature = "json",
    feature = "compression"
))]
#[doc = include_str!("../../../docs/rust.md")]
pub struct DocsRustSnippets;
