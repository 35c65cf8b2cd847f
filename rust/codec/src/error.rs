//! Errors, each carrying the Godot `Error` code the engine would report, where it happened
//! (a byte offset when decoding, a value path when encoding) and a reason a person can act on.
//!
//! Every error of the crate, and what returns it. The codec's own is [`CodecError`]; the others
//! wrap it where a value failed, so [`CodecError`] (its [`DecodeReason`] or [`EncodeReason`])
//! is the one to match on for a value, whatever the entry point:
//!
//! | error | returned by | holds a [`CodecError`] |
//! |---|---|---|
//! | [`CodecError`] | [`crate::encode`], [`crate::decode`], readers, writers, [`crate::transcode`], [`crate::stream::StreamReader`] | is one |
//! | [`UnknownName`] | parsing a dialect, type or element type name (`"godot3".parse::<Dialect>()`) | no |
//! | [`IntOutOfRange`] | `Value::try_from` of an integer beyond Godot's `int` | no |
//! | `save::RecordError`, `save::DetectError` | the records of a `store_var` file (`files` feature) | `RecordError::Value` |
//! | `save::FileError` | the file containers: compressed, encrypted, records cut short (`files`) | no |
//! | `save::ConfigFileError` | a ConfigFile: its container, its text, a value that is no ConfigFile (`files`) | `ConfigFileError::File`, `ConfigFileError::Text` |
//! | `save::JsonFileError`, `save::NotJsonSave` | a JSON save: its container, its text, a value the save cannot hold (`files`) | `JsonFileError::Text` |
//! | `save::NotTextResource` | `save::TextResource::from_value`: a value that is no text resource (`files`; its text's errors are [`CodecError`]s) | no |
//! | `stream::VarCodecError`, `stream::MessageError` | tokio's `VarCodec` and `TypedVarCodec` (`tokio`) | `codec_error()` |
//! | `serde_format::Error` | serde's `to_bytes` and `from_bytes` (`serde`) | `codec_error()` |
//! | `json::JsonError` | `json::from_json` (`json`) | no |
//!
//! Each converts into `std::io::Error` (`?` in a function returning `std::io::Result`); the
//! codec's, the files' and the records' tell the Godot [`ErrorCode`] the engine would report
//! (`code()`).

use std::fmt;
use std::io;

pub use crate::godot_error::ErrorCode;
pub use crate::names::{NameKind, UnknownName};
use crate::types::VariantType;

/// Which of [`crate::options::Limits`] a decode exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitKind {
    /// [`crate::options::Limits::max_elements`]: container elements, all levels together.
    #[error("elements (max_elements)")]
    Elements,
    /// [`crate::options::Limits::max_bytes`]: bytes of strings and packed arrays.
    #[error("bytes of strings and packed arrays (max_bytes)")]
    Bytes,
}

/// Why a decode failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeReason {
    /// The input ends (or the start offset lies) before a fixed-size part of a value.
    #[error("{needed} bytes needed for {what}, {available} left")]
    Truncated {
        /// The part being read (`"a value header"`, `"components"`, …).
        what: &'static str,
        /// The bytes that part takes.
        needed: usize,
        /// The bytes left in the input.
        available: usize,
    },
    /// A header whose type id the dialect does not have (the raw id, flags masked off).
    #[error("type id {0} does not exist in this dialect")]
    UnknownType(u32),
    /// Containers nested deeper than [`crate::options::Limits::max_depth`] (the limit given).
    #[error("nesting deeper than {0} levels")]
    TooDeep(usize),
    /// A string (or StringName, or name in a NodePath) whose length, with its padding to 4
    /// bytes, runs past the end of the input; Godot reports `ERR_FILE_EOF` for it.
    #[error("string length {len} (+{pad} padding) does not fit in the {available} bytes left")]
    StringPastEnd {
        /// The length the payload announces (negative if bit 31 was set).
        len: i64,
        /// The padding after it.
        pad: usize,
        /// The bytes left in the input.
        available: usize,
    },
    /// String bytes the dialect's engine rejects as UTF-8.
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
    /// A NodePath in the format of Godot before 3.0, which no supported engine reads.
    #[error("NodePath in the obsolete pre-3.0 format (bit 31 of the name count is clear)")]
    OldNodePath,
    /// A packed array whose element count is negative, or claims more bytes than are left.
    #[error("{what} count {count} is negative or too large for the {available} bytes left")]
    BadCount {
        /// The packed array type being read.
        what: &'static str,
        /// The count as the engine reads it (an int32).
        count: i64,
        /// The bytes left in the input.
        available: usize,
    },
    /// A full object (not an instance id) while [`crate::Options::allow_objects`] is off.
    #[error("full objects are not allowed (allow_objects is off)")]
    ObjectsNotAllowed,
    /// An object of a class the builder does not know or cannot make, in a dialect whose
    /// engine answers `ERR_INVALID_DATA` to it (Godot 4).
    #[error("object class {0:?} cannot be instantiated")]
    UnknownClass(String),
    /// As [`DecodeReason::UnknownClass`], in a dialect whose engine answers `ERR_UNAVAILABLE`
    /// (Godot 3, Pandemonium); the reader turns one into the other.
    #[error("object class {0:?} cannot be instantiated")]
    UnavailableClass(String),
    /// The type of a typed Array or Dictionary is malformed: an unknown builtin type id, a
    /// script path that is not `res://`, a class name that is not a StringName.
    #[error("container type: {0}")]
    BadContainerType(String),
    /// A limit of [`crate::options::Limits`] was exceeded: which one, and its value.
    #[error("decode limit exceeded: more than {max} {limit}")]
    Limit {
        /// Which limit.
        limit: LimitKind,
        /// Its value.
        max: usize,
    },
    /// A framed message announced more bytes than the reader's maximum message size; nothing
    /// was read or allocated for it.
    #[error("a message of {len} bytes exceeds the maximum message size of {max} bytes")]
    MessageTooLong {
        /// The length its prefix announced.
        len: usize,
        /// The maximum.
        max: usize,
    },
    /// An object class or script that [`crate::Options::allowed_objects`] does not admit, or a
    /// Godot 3 script embedded as source code (never decoded).
    #[error("not in the allow-list: {0}")]
    NotAllowed(String),
    /// A function that reads one bare value (`var_to_bytes`) was given a framed one
    /// (`store_var`, `put_var`: a length, then the value): the bare read failed, and its first 4
    /// bytes announce a length of bytes that follow them and hold one whole value. Framed values are read by
    /// [`crate::transcode::transcode_frames`], [`crate::record`] and [`crate::stream`].
    #[error(
        "the input is framed (store_var / put_var: its first 4 bytes are the length {announced} of \
         the value after them), but this reads one bare value (var_to_bytes); for framed values use \
         transcode_frames or the record and stream readers"
    )]
    FramedInput {
        /// The length the first 4 bytes announce.
        announced: usize,
    },
    /// A value a builder (or the reader) refuses for another reason, with the text to show: an
    /// invalid `script` property, a script the builder does not know, ….
    #[error("{0}")]
    Refused(String),
    /// The value of a record of known length (a `store_var` record, a stream frame) leaves
    /// bytes of it unread: the record is in another dialect, or damaged
    /// ([`crate::record`]).
    #[error("{}", record_not_whole(*used, *len, *dialect, *whole_in))]
    RecordNotWhole {
        /// The bytes the value took.
        used: usize,
        /// The record's length.
        len: usize,
        /// The dialect it was decoded in.
        dialect: crate::Dialect,
        /// The first dialect of [`crate::Dialect::ALL`] in which the record decodes whole.
        whole_in: Option<crate::Dialect>,
    },
    /// Bytes that do not name their dialect (a file's records, a message read without a given
    /// dialect) and that engine families read whole as different values: a Godot 3 Color is a
    /// Godot 4 Plane of the same bytes. No dialect is guessed ([`crate::record`]); the caller
    /// passes the one that wrote them.
    #[error("{}", ambiguous(readings))]
    Ambiguous {
        /// Each family's reading: its newest dialect that reads the bytes whole, and the value.
        readings: Vec<Reading>,
    },
    /// Text that is not Godot's text Variant format (`str_to_var`,
    /// [`crate::Value::from_godot_text`]): what was wrong, and where (the error's offset is
    /// the byte; `line` and `column` count from 1, the column in characters).
    #[error("line {line}, column {column}: {message}")]
    BadText {
        /// The line.
        line: usize,
        /// The column, in characters.
        column: usize,
        /// What was expected or found.
        message: String,
    },
    /// A compressed packet (`PackedByteArray.compress`) that does not decompress in the mode
    /// given: what the decompressor said (`save::decompress`, the `compression` feature).
    #[error("the packet does not decompress: {0}")]
    NotDecompressed(String),
    /// A compressed packet that holds more bytes than the maximum size given; nothing past that
    /// size was decompressed (`save::decompress`).
    #[error("the packet decompresses to more than {max} bytes, the maximum size given")]
    DecompressedTooLong {
        /// The maximum size given.
        max: usize,
    },
    /// An element of a typed Array or Dictionary that the engine drops on decode (it is not of
    /// the container's type and does not convert to it), while
    /// [`crate::Options::refuse_dropped_elements`] is on.
    #[error("{what} of type {found} does not fit {container} and would be dropped")]
    DroppedElement {
        /// `"an Array item"`, `"a Dictionary key"`.
        what: &'static str,
        /// The element's type.
        found: VariantType,
        /// The container's type, as GDScript writes it (`Array[int]`).
        container: String,
    },
}

/// One engine family's reading of bytes that several families read whole
/// ([`DecodeReason::Ambiguous`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The family's newest dialect that reads the bytes whole.
    pub dialect: crate::Dialect,
    /// What it reads.
    pub value: crate::Value,
}

/// The longest value shown in full in an error; longer ones are cut with an ellipsis.
const SHOWN_VALUE_CHARS: usize = 60;

/// How an ambiguous decode's error shows a reading: its value in Godot's text format, on one
/// line; without the `text` feature (a build for size, such as the npm codec entry), its type.
#[cfg(feature = "text")]
fn reading_text(value: &crate::Value) -> String {
    value.one_line().to_string()
}

#[cfg(not(feature = "text"))]
fn reading_text(value: &crate::Value) -> String {
    value.variant_type().name().to_owned()
}

fn ambiguous(readings: &[Reading]) -> String {
    let shown: Vec<String> = readings
        .iter()
        .map(|r| {
            let text = reading_text(&r.value);
            let cut: String = text.chars().take(SHOWN_VALUE_CHARS).collect();
            let text = if cut.len() < text.len() {
                format!("{cut}…")
            } else {
                text
            };
            format!("{text} as {}", r.dialect.short_name())
        })
        .collect();
    let names: Vec<String> = readings
        .iter()
        .map(|r| format!("{:?}", r.dialect.short_name()))
        .collect();
    format!(
        "the bytes read whole in more than one engine's dialect, as different values ({}): which \
         engine wrote them cannot be told from them; pass the dialect ({})",
        shown.join("; "),
        names.join(" or ")
    )
}

fn record_not_whole(
    used: usize,
    len: usize,
    dialect: crate::Dialect,
    whole_in: Option<crate::Dialect>,
) -> String {
    let mut text = format!(
        "the value takes {used} of its record's {len} bytes in the {} dialect: the record is in another dialect or damaged",
        dialect.name()
    );
    if let Some(d) = whole_in {
        text.push_str(&format!(
            "; it reads whole as {} (dialect {:?})",
            d.name(),
            d.short_name()
        ));
    }
    text
}

impl DecodeReason {
    /// The error the engine reports in this situation.
    pub fn code(&self) -> ErrorCode {
        match self {
            DecodeReason::TooDeep(_)
            | DecodeReason::Limit { .. }
            | DecodeReason::MessageTooLong { .. }
            | DecodeReason::DecompressedTooLong { .. } => ErrorCode::OutOfMemory,
            DecodeReason::StringPastEnd { .. } => ErrorCode::FileEof,
            DecodeReason::ObjectsNotAllowed | DecodeReason::NotAllowed(_) => {
                ErrorCode::Unauthorized
            }
            DecodeReason::UnavailableClass(_) => ErrorCode::Unavailable,
            DecodeReason::BadText { .. } => ErrorCode::ParseError,
            _ => ErrorCode::InvalidData,
        }
    }
}

/// Why an encode failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeReason {
    /// A value of a type the target dialect does not have (a Vector4 in Godot 3, …) while
    /// [`crate::Options::allow_lossy`] is off.
    #[error("{ty} has no exact form in the {dialect} dialect (turn on allow_lossy to convert it)")]
    NotInDialect {
        /// The value's type.
        ty: VariantType,
        /// The target dialect's name.
        dialect: &'static str,
    },
    /// Double precision asked of the Godot 3 dialect, which has no binary64 reals
    /// ([`crate::Options::check`]).
    #[error("the Godot 3 dialect has no double-precision form")]
    DoubleInGodot3,
    /// An object whose script is a `res://` path, for a dialect that embeds the script's
    /// source in its place (Godot 3, Pandemonium).
    #[error("script {path:?}: a Godot 4 script cannot travel to {dialect}, which embeds the script's source")]
    ScriptNotInDialect {
        /// The script's path.
        path: String,
        /// The target dialect's name.
        dialect: &'static str,
    },
    /// Containers nested deeper than [`crate::options::Limits::max_depth`] (the limit given); a
    /// container that contains itself ends here too.
    #[error("nesting deeper than {0} levels (or a container that contains itself)")]
    TooDeep(usize),
    /// A string, container or packed array (or a stream frame) longer than its length field
    /// can say.
    #[error("{what} of {len} does not fit the format's 31-bit length")]
    TooLarge {
        /// What was too long.
        what: &'static str,
        /// Its length.
        len: usize,
    },
    /// A fixed-size output has no room left: a [`crate::writer::SliceSink`] that overflowed (its user
    /// checks [`crate::writer::SliceSink::overflowed`] and reports this), or a frame's prefix slot.
    #[error("output buffer too small")]
    BufferFull,
    /// A value that cannot be written as it is, with the text to show: a vector with the
    /// wrong number of components, a typed Array holding another type, a script property
    /// that is not a `res://` path, ….
    #[error("{0}")]
    Invalid(String),
    /// A full object while [`crate::Options::full_objects`] is off: `var_to_bytes` writes an
    /// object as its instance id, which an engine-free object does not have.
    #[error("an Object of class {class} is written whole only with full objects (var_to_bytes_with_objects); without them the engine writes an instance id (EncodedObjectAsID)")]
    WholeObject {
        /// The object's class.
        class: String,
    },
    /// A text holding U+0000 (at character `at`): every engine's decoder stops at the first
    /// zero byte, so what follows it would be lost.
    #[error("a text holding U+0000 (at character {at}) cannot be written: every engine reads a String only up to it")]
    NulInText {
        /// The character index of the first U+0000.
        at: usize,
    },
}

impl EncodeReason {
    /// The error the engine reports in this situation: `ERR_OUT_OF_MEMORY` for sizes and
    /// depth, `ERR_INVALID_PARAMETER` for values the dialect cannot hold.
    pub fn code(&self) -> ErrorCode {
        match self {
            EncodeReason::TooDeep(_) | EncodeReason::TooLarge { .. } | EncodeReason::BufferFull => {
                ErrorCode::OutOfMemory
            }
            EncodeReason::NotInDialect { .. }
            | EncodeReason::ScriptNotInDialect { .. }
            | EncodeReason::DoubleInGodot3
            | EncodeReason::Invalid(_)
            | EncodeReason::WholeObject { .. }
            | EncodeReason::NulInText { .. } => ErrorCode::InvalidParameter,
        }
    }
}

/// One step from a container to a value inside it. Later versions may add kinds of step: a
/// `match` needs a `_` arm.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathSegment {
    /// An Array (or packed array) index.
    Index(usize),
    /// A dictionary key, already rendered short (`"k"`, `3`, `Vector2`).
    Key(String),
    /// An object property.
    Property(String),
}

/// Where in a value an encode failed, e.g. `[3].items["k"]`. Empty for the value itself.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ValuePath {
    /// Innermost segment first: segments are added while the error travels outwards.
    reversed: Vec<PathSegment>,
}

impl ValuePath {
    /// The steps from the value that was encoded down to the one that failed, outermost first.
    pub fn segments(&self) -> impl Iterator<Item = &PathSegment> {
        self.reversed.iter().rev()
    }

    /// Whether the failing value is the one that was encoded (no step inside it).
    pub fn is_root(&self) -> bool {
        self.reversed.is_empty()
    }
}

/// A path from its steps, outermost first (the order [`ValuePath::segments`] gives).
impl FromIterator<PathSegment> for ValuePath {
    fn from_iter<I: IntoIterator<Item = PathSegment>>(steps: I) -> Self {
        let mut reversed: Vec<PathSegment> = steps.into_iter().collect();
        reversed.reverse();
        ValuePath { reversed }
    }
}

impl fmt::Display for ValuePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() {
            return f.write_str("the value");
        }
        for seg in self.segments() {
            match seg {
                PathSegment::Index(i) => write!(f, "[{i}]")?,
                PathSegment::Key(k) => write!(f, "[{k}]")?,
                PathSegment::Property(p) => write!(f, ".{p}")?,
            }
        }
        Ok(())
    }
}

/// An encode or decode failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// The input could not be decoded.
    #[error("decode failed at byte {offset}: {reason} ({})", reason.code())]
    Decode {
        /// Where in the input: the byte the reader had reached, or the start of the value it
        /// refused.
        offset: usize,
        /// Why.
        reason: DecodeReason,
    },
    /// A value could not be encoded.
    #[error("encode failed at {path}: {reason} ({})", reason.code())]
    Encode {
        /// Where inside the value being encoded.
        path: ValuePath,
        /// Why.
        reason: EncodeReason,
    },
    /// Transcoding: the value read at `offset` of the input cannot be written in the target
    /// dialect (`error` is the encode error, with its path inside that value).
    #[error("the value at input byte {offset} cannot be written: {error}")]
    Transcode {
        /// The input offset of the value's header.
        offset: usize,
        /// The [`CodecError::Encode`] the target refused it with.
        error: Box<CodecError>,
    },
}

impl CodecError {
    /// A [`CodecError::Decode`] at `offset`: how readers and [`crate::reader::Build`] implementations
    /// outside this crate report a failure.
    pub fn decode(offset: usize, reason: DecodeReason) -> Self {
        CodecError::Decode { offset, reason }
    }

    /// A [`CodecError::Encode`] at the value being written (an empty path); enclosing
    /// containers add their steps with [`CodecError::within`] as the error travels out.
    pub fn encode(reason: EncodeReason) -> Self {
        CodecError::Encode {
            path: ValuePath::default(),
            reason,
        }
    }

    /// The Godot `Error` the engine would report.
    pub fn code(&self) -> ErrorCode {
        match self {
            CodecError::Decode { reason, .. } => reason.code(),
            CodecError::Encode { reason, .. } => reason.code(),
            CodecError::Transcode { error, .. } => error.code(),
        }
    }

    /// The same error with its input offset moved by `by` (a value read from inside a larger
    /// input, such as a frame of a stream).
    pub fn shifted(self, by: usize) -> Self {
        match self {
            CodecError::Decode { offset, reason } => CodecError::Decode {
                offset: offset.saturating_add(by),
                reason,
            },
            CodecError::Transcode { offset, error } => CodecError::Transcode {
                offset: offset.saturating_add(by),
                error,
            },
            e => e,
        }
    }

    /// Adds the step from an enclosing container to an encode error's path (no-op on decode
    /// errors). Called while the error travels outwards, so the success path pays nothing.
    pub fn within(mut self, seg: PathSegment) -> Self {
        if let CodecError::Encode { path, .. } = &mut self {
            path.reversed.push(seg);
        }
        self
    }
}

/// The error of `Value::try_from(n)` for an `n` of `u64`, `usize`, `u128` or `i128` that does
/// not fit Godot's int, a 64-bit signed int (`i64::MIN..=i64::MAX`): Godot has no unsigned
/// int, and a larger number has no exact form. `?` turns it into an `std::io::Error` of kind
/// [`io::ErrorKind::InvalidInput`].
///
/// # Examples
/// ```
/// use fast_var_codec_core::Value;
/// use fast_var_codec_core::error::IntOutOfRange;
///
/// let count: usize = 3;
/// assert_eq!(Value::try_from(count), Ok(Value::Int(3)));
/// assert_eq!(Value::try_from(-5i128), Ok(Value::Int(-5)));
/// let err: IntOutOfRange = Value::try_from(u64::MAX).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "18446744073709551615 does not fit Godot's int (-9223372036854775808 to 9223372036854775807)"
/// );
/// let as_io: std::io::Error = err.into();
/// assert_eq!(as_io.kind(), std::io::ErrorKind::InvalidInput);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntOutOfRange(WideInt);

/// The number that did not fit, as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum WideInt {
    Signed(i128),
    Unsigned(u128),
}

/// The integer types of `Value::try_from`.
pub(crate) trait Wide: Copy {
    fn wide(self) -> IntOutOfRange;
}

macro_rules! wide {
    ($($t:ty => $variant:ident($as:ty)),*) => {$(
        impl Wide for $t {
            fn wide(self) -> IntOutOfRange {
                IntOutOfRange(WideInt::$variant(self as $as))
            }
        }
    )*};
}
wide!(u64 => Unsigned(u128), usize => Unsigned(u128), u128 => Unsigned(u128), i128 => Signed(i128));

impl IntOutOfRange {
    /// The error for `n`.
    pub(crate) fn new(n: impl Wide) -> Self {
        n.wide()
    }
}

impl fmt::Display for IntOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            WideInt::Signed(n) => write!(f, "{n}")?,
            WideInt::Unsigned(n) => write!(f, "{n}")?,
        }
        write!(
            f,
            " does not fit Godot's int ({} to {})",
            i64::MIN,
            i64::MAX
        )
    }
}

impl std::error::Error for IntOutOfRange {}

impl From<IntOutOfRange> for io::Error {
    /// An [`io::ErrorKind::InvalidInput`]: the number given cannot be sent.
    fn from(e: IntOutOfRange) -> Self {
        io::Error::new(io::ErrorKind::InvalidInput, e)
    }
}

/// An [`io::ErrorKind::InvalidData`] holding the error (its `Display`, `source` and
/// [`CodecError::code`] stay reachable through `get_ref`/`into_inner` and `downcast`), so
/// that `?` works in a function that returns `std::io::Result`, such as a tokio handler.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{decode, CodecError, Options, Value};
///
/// fn handle(message: &[u8]) -> std::io::Result<Value> {
///     let (value, _) = decode(message, &Options::default())?;
///     Ok(value)
/// }
/// let err = handle(&[0xff, 0, 0, 0]).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// let codec: &CodecError = err.get_ref().and_then(|e| e.downcast_ref()).unwrap();
/// assert_eq!(codec.code().godot_name(), "ERR_INVALID_DATA");
/// ```
impl From<CodecError> for io::Error {
    fn from(e: CodecError) -> Self {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

/// The result of every codec operation: a [`CodecError`] unless said otherwise.
pub type Result<T, E = CodecError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_renders_outermost_first() {
        let e = CodecError::encode(EncodeReason::DoubleInGodot3)
            .within(PathSegment::Key("\"k\"".into()))
            .within(PathSegment::Property("items".into()))
            .within(PathSegment::Index(3));
        let CodecError::Encode { path, .. } = &e else {
            panic!("not an encode error")
        };
        assert_eq!(path.to_string(), "[3].items[\"k\"]");
        assert_eq!(e.code(), ErrorCode::InvalidParameter);
    }
}
