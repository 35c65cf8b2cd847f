//! Godot's binary Variant format as a [serde](https://serde.rs) data format (the optional
//! `serde` feature): any `Serialize` type to bytes, written as serde walks it, and any
//! `Deserialize` type read straight from the bytes (strings and byte buffers borrowed where the
//! type lets them); and to a [`Value`] and back.
//!
//! It is named `serde_format`, not `serde`: a module of the root named after the `serde` crate
//! would make `use serde::{Deserialize, Serialize};` ambiguous (E0659) beside
//! `use fast_var_codec_core::*;`. One module, as the format's functions come in pairs that share
//! their options and errors (`to_bytes` / `from_bytes`, `to_value` / `from_value`).
//!
//! ```
//! use fast_var_codec_core::serde_format::{from_bytes, to_bytes};
//! use fast_var_codec_core::{Dialect, Options, Value};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Save {
//!     name: String,
//!     level: u32,
//!     items: Vec<String>,
//!     position: Value, // any Godot value, here a Vector3
//! }
//!
//! let save = Save {
//!     name: "ada".into(),
//!     level: 3,
//!     items: vec!["key".into()],
//!     position: Value::Vector3([1.0, 2.0, 0.5]),
//! };
//! let opts = Options::new(Dialect::Godot4);
//! let bytes = to_bytes(&save, &opts)?; // what `bytes_to_var` reads as a Dictionary
//! assert_eq!(from_bytes::<Save>(&bytes, &opts)?, save);
//! # Ok::<(), fast_var_codec_core::serde_format::Error>(())
//! ```
//!
//! # Mapping
//!
//! | Rust (serde data model) | Godot |
//! |---|---|
//! | `bool` | bool |
//! | integers | int (the writer uses 32 bits when the value fits, as the engine does); `u64`/`i128`/`u128` beyond `i64` are an error |
//! | `f32`, `f64` | float (binary32 on the wire when exact, as the engine writes it) |
//! | `String`, `&str`, `char` | String (a StringName decodes as a string too) |
//! | bytes (`serialize_bytes`: `serde_bytes`, `#[serde(with = …)]`) | PackedByteArray |
//! | `None`, `()`, unit structs | null |
//! | `Some(x)`, newtype structs | `x` itself |
//! | sequences, tuples, tuple structs | Array |
//! | structs | Dictionary with String keys in declaration order |
//! | maps | Dictionary (keys are whatever the key type serializes to, usually String or int) |
//! | unit variant `E::A` | String `"A"` |
//! | newtype, tuple, struct variant `E::B(..)` | a one-entry Dictionary `{"B": content}` (serde's externally tagged representation) |
//! | [`Value`] | itself, exactly: the way to put a Vector3, a Color, a PackedVector3Array, a NodePath… in a struct |
//!
//! Decoding is lenient where serde's own visitors are: an int decodes into an `f64` field,
//! packed arrays and math types (components in wire order) decode as sequences (a Vector3 into
//! `[f64; 3]`), a PackedByteArray into `Vec<u8>`. Unknown Dictionary entries are ignored unless
//! `#[serde(deny_unknown_fields)]` (an int key is the field named by its digits: `0` is an
//! unknown field, never the first one); a missing field is an error unless `#[serde(default)]`.
//! Errors name the path to the value (`items[2].count`) and, from [`from_bytes`], the byte
//! offset of that value.
//!
//! [`Value`] implements `Serialize` and `Deserialize`: with this format it passes through
//! unchanged; with another format (JSON…) it serializes as plain data (math types as arrays of
//! components) and deserializes from plain data.
//!
//! # `flatten`, `untagged` and internally tagged enums
//!
//! Writing keeps every Godot type. Reading, these three go through serde's own buffer, which
//! holds plain data only (serde reads the value before it knows the type it will become), so a
//! [`Value`] read there is the plain data of the Godot value: a Color comes back as an untyped
//! Array of its four components, a Vector3 as three floats, a NodePath as a String. To keep the
//! Godot type, keep such a value out of the buffer: a nested struct as a field of its own rather
//! than `#[serde(flatten)]` (a nested Dictionary on the wire), an externally tagged enum (serde's
//! default) or an adjacently tagged one (`#[serde(tag = "…", content = "…")]`, whose tag is
//! written first) rather than `untagged` or `#[serde(tag = "…")]`; or read the message as a
//! [`Value`] and take the typed values from it.
//!
//! ```
//! use fast_var_codec_core::serde_format::{from_bytes, to_bytes};
//! use fast_var_codec_core::{Options, Value};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize)]
//! struct Style { tint: Value }
//! #[derive(Serialize, Deserialize)]
//! struct Flat { #[serde(flatten)] style: Style }
//! #[derive(Serialize, Deserialize)]
//! struct Nested { style: Style }
//!
//! let opts = Options::default();
//! let tint = Value::color(1.0, 0.5, 0.0, 1.0);
//! let flat = to_bytes(&Flat { style: Style { tint: tint.clone() } }, &opts)?;
//! // Read through serde's buffer: the components, an untyped Array.
//! let read = from_bytes::<Flat>(&flat, &opts)?.style.tint;
//! assert_eq!(read, Value::from_iter([1.0, 0.5, 0.0, 1.0]));
//! // The Color itself is in the bytes: read them as a Value.
//! assert_eq!(fast_var_codec_core::decode(&flat, &opts)?.0["tint"], tint);
//! // Nested, the field is read straight: a Color.
//! let nested = to_bytes(&Nested { style: Style { tint: tint.clone() } }, &opts)?;
//! assert_eq!(from_bytes::<Nested>(&nested, &opts)?.style.tint, tint);
//! # Ok::<(), fast_var_codec_core::serde_format::Error>(())
//! ```

mod de;
mod error;
mod ser;

use std::io;

pub use de::Deserializer;
pub use error::Error;

use ::serde::{Deserialize, Serialize};
use bytes::BytesMut;

use crate::dialect::{Dialect, Precision};
use crate::limits::Options;
use crate::value::Value;
use crate::writer::Writer;

/// The newtype-struct name by which [`Value`] recognises this format (as serde_json's
/// `RawValue` does): a value passes through the serializer and deserializer unchanged.
pub(crate) const RAW_VALUE_TOKEN: &str = "$fast_var_codec_core::private::Value";

/// The options under which [`to_value`] turns serde's data into a [`Value`]: the model's own
/// (Godot 4, `real_t` and objects carried whole), so nothing is lost on the way.
fn model_options() -> Options {
    Options::new(Dialect::Godot4)
        .with_precision(Precision::Double)
        .with_full_objects(true)
        .with_allow_objects(true)
}

/// `value` as a [`Value`] (see the module's mapping): what [`to_bytes`] writes, as a decode
/// makes it.
///
/// # Errors
/// An integer that does not fit `i64`, or an error from `value`'s `Serialize`.
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, Error> {
    let opts = model_options();
    let bytes = to_bytes(value, &opts)?;
    Ok(crate::decode(&bytes, &opts)?.0)
}

/// A `T` from a [`Value`] (see the module's mapping).
///
/// # Errors
/// A value of the wrong shape for `T`, with the path to it.
pub fn from_value<T: ::serde::de::DeserializeOwned>(value: Value) -> Result<T, Error> {
    T::deserialize(de::ValueDeserializer::new(value))
}

/// The encoding of `value` in the dialect of `opts`, written as serde walks it: a `BytesMut`,
/// as [`crate::encode`] returns (one type for encoded bytes across the crate, which
/// `stream::frame` and the tokio codec append to as well); [`to_vec`] gives a `Vec<u8>`.
///
/// # Errors
/// An integer that does not fit `i64`, an error from `value`'s `Serialize`, and the encoder's
/// (a value the dialect cannot hold, nesting too deep, sizes), with the path to the value.
///
/// # Examples
/// ```
/// use fast_var_codec_core::serde_format::{from_bytes, to_bytes};
/// use fast_var_codec_core::{encode, Options, Value};
///
/// let opts = Options::default();
/// let bytes = to_bytes(&("hp", 7), &opts)?; // a tuple is an Array
/// assert_eq!(bytes, encode(&Value::from_iter([Value::from("hp"), Value::from(7)]), &opts)?);
/// assert_eq!(from_bytes::<(String, i32)>(&bytes, &opts)?, ("hp".to_string(), 7));
/// # Ok::<(), fast_var_codec_core::serde_format::Error>(())
/// ```
pub fn to_bytes<T: Serialize + ?Sized>(value: &T, opts: &Options) -> Result<BytesMut, Error> {
    let mut w = Writer::new(BytesMut::with_capacity(512), opts)?;
    ser::top(|| value.serialize(&mut ser::Serializer::new(&mut w)))?;
    Ok(w.into_sink())
}

/// The encoding of `value` as [`to_bytes`] writes it, in a `Vec<u8>` (as `serde_json::to_vec`
/// returns), for code that stores or hands on a `Vec`.
///
/// # Errors
/// As [`to_bytes`]'s.
///
/// # Examples
/// ```
/// use fast_var_codec_core::serde_format::{to_bytes, to_vec};
/// use fast_var_codec_core::Options;
///
/// let opts = Options::default();
/// let bytes: Vec<u8> = to_vec(&[1, 2, 3], &opts)?;
/// assert_eq!(bytes, to_bytes(&[1, 2, 3], &opts)?);
/// # Ok::<(), fast_var_codec_core::serde_format::Error>(())
/// ```
pub fn to_vec<T: Serialize + ?Sized>(value: &T, opts: &Options) -> Result<Vec<u8>, Error> {
    let mut w = Writer::new(Vec::with_capacity(512), opts)?;
    ser::top(|| value.serialize(&mut ser::Serializer::new(&mut w)))?;
    Ok(w.into_sink())
}

/// What framing a serialized value can fail with.
#[cfg(feature = "tokio")]
pub(crate) enum FrameError {
    /// The value does not serialize (serde's error, with its path).
    Serialize(Error),
    /// The framing refused the encoding (too long for the prefix).
    Frame(crate::error::CodecError),
}

/// Appends `value` to `out` framed as `put_var` frames it ([`crate::stream::frame_with`]),
/// serialized straight into the frame; `out` is left as it was on failure.
#[cfg(feature = "tokio")]
pub(crate) fn frame_serialized<T: Serialize + ?Sized>(
    value: &T,
    opts: &Options,
    order: crate::stream::ByteOrder,
    out: &mut bytes::BytesMut,
) -> Result<usize, FrameError> {
    let mut failure = None;
    let framed = crate::stream::frame_with(out, opts, order, |w| {
        ser::top(|| value.serialize(&mut ser::Serializer::new(w))).map_err(|e| {
            failure = Some(e);
            // Stands in for the serde error, which is returned instead.
            crate::error::CodecError::encode(crate::error::EncodeReason::Invalid(String::new()))
        })
    });
    match (framed, failure) {
        (Ok(used), _) => Ok(used),
        (Err(_), Some(e)) => Err(FrameError::Serialize(e)),
        (Err(e), None) => Err(FrameError::Frame(e)),
    }
}

/// Writes the encoding of `value` to `writer` (no length prefix: see [`crate::stream`] for
/// `store_var`'s framing).
///
/// # Errors
/// As [`to_bytes`]'s, and the writer's.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
    mut writer: W,
    value: &T,
    opts: &Options,
) -> Result<(), Error> {
    let bytes = to_vec(value, opts)?;
    writer.write_all(&bytes).map_err(Error::io)
}

/// A `T` from the value at the start of `bytes` (bytes after it are ignored, as
/// `bytes_to_var` ignores them), read straight from the bytes: `&str` and `&[u8]` fields borrow
/// from them. Errors carry the path to the value that did not fit `T` and its byte offset.
///
/// # Errors
/// The decoder's (with its offset), or a value of the wrong shape for `T`.
pub fn from_bytes<'de, T: Deserialize<'de>>(bytes: &'de [u8], opts: &Options) -> Result<T, Error> {
    T::deserialize(&mut Deserializer::from_bytes(bytes, opts))
}

/// A `T` from the value at the start of what `reader` holds; reads `reader` to its end.
///
/// # Errors
/// As [`from_bytes`]'s, and the reader's.
pub fn from_reader<R: io::Read, T: ::serde::de::DeserializeOwned>(
    mut reader: R,
    opts: &Options,
) -> Result<T, Error> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).map_err(Error::io)?;
    from_bytes(&bytes, opts)
}
