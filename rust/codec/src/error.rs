//! Errors, each carrying the Godot `Error` code the engine would report, where it happened
//! (a byte offset when decoding, a value path when encoding) and a reason a person can act on.

use std::fmt;

use crate::types::VariantType;

/// Godot's `Error` codes that the codec can produce (values as in `@GlobalScope.Error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `ERR_UNAVAILABLE`: an object's class exists but cannot be made (where the dialect's
    /// engine reports it so).
    Unavailable = 2,
    /// `ERR_UNAUTHORIZED`: a full object while objects are not allowed, or one the allow-list
    /// refuses.
    Unauthorized = 4,
    /// `ERR_OUT_OF_MEMORY`: a decode limit, nesting too deep, or an encoding too large.
    OutOfMemory = 6,
    /// `ERR_FILE_UNRECOGNIZED`: not a Godot 3 encrypted file (no `GDEC` magic).
    FileUnrecognized = 15,
    /// `ERR_FILE_CORRUPT`: an encrypted file cut short, of an unknown mode, or failing its MD5
    /// check (a wrong key or password).
    FileCorrupt = 16,
    /// `ERR_FILE_EOF`: a string that runs past the end of the input.
    FileEof = 18,
    /// `ERR_INVALID_DATA`: malformed input, the engine's usual answer to bytes it cannot read.
    InvalidData = 30,
    /// `ERR_INVALID_PARAMETER`: a value that cannot be encoded as asked (or an encryption key
    /// of the wrong length).
    InvalidParameter = 31,
}

impl ErrorCode {
    /// The numeric `Error` value, as GDScript sees it.
    pub fn godot_value(self) -> i32 {
        self as i32
    }

    pub fn godot_name(self) -> &'static str {
        match self {
            ErrorCode::Unavailable => "ERR_UNAVAILABLE",
            ErrorCode::Unauthorized => "ERR_UNAUTHORIZED",
            ErrorCode::OutOfMemory => "ERR_OUT_OF_MEMORY",
            ErrorCode::FileUnrecognized => "ERR_FILE_UNRECOGNIZED",
            ErrorCode::FileCorrupt => "ERR_FILE_CORRUPT",
            ErrorCode::FileEof => "ERR_FILE_EOF",
            ErrorCode::InvalidData => "ERR_INVALID_DATA",
            ErrorCode::InvalidParameter => "ERR_INVALID_PARAMETER",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.godot_name())
    }
}

/// Why a decode failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeReason {
    #[error("{needed} bytes needed for {what}, {available} left")]
    Truncated {
        what: &'static str,
        needed: usize,
        available: usize,
    },
    #[error("type id {0} does not exist in this dialect")]
    UnknownType(u32),
    #[error("nesting deeper than {0} levels")]
    TooDeep(usize),
    #[error("string length {len} (+{pad} padding) does not fit in the {available} bytes left")]
    StringPastEnd {
        len: i64,
        pad: usize,
        available: usize,
    },
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
    #[error("NodePath in the obsolete pre-3.0 format (bit 31 of the name count is clear)")]
    OldNodePath,
    #[error("{what} count {count} is negative or too large for the {available} bytes left")]
    BadCount {
        what: &'static str,
        count: i64,
        available: usize,
    },
    #[error("full objects are not allowed (allow_objects is off)")]
    ObjectsNotAllowed,
    #[error("object class {0:?} refused: {1}")]
    ClassRefused(String, String),
    #[error("object class {0:?} cannot be instantiated")]
    UnknownClass(String),
    #[error("object class {0:?} cannot be instantiated")]
    UnavailableClass(String),
    #[error("container type: {0}")]
    BadContainerType(String),
    #[error("decode limit exceeded: {0}")]
    Limit(String),
    #[error("not in the allow-list: {0}")]
    NotAllowed(String),
    #[error("{0}")]
    Refused(String),
}

impl DecodeReason {
    /// The error the engine reports in this situation.
    pub fn code(&self) -> ErrorCode {
        match self {
            DecodeReason::TooDeep(_) | DecodeReason::Limit(_) => ErrorCode::OutOfMemory,
            DecodeReason::StringPastEnd { .. } => ErrorCode::FileEof,
            DecodeReason::ObjectsNotAllowed | DecodeReason::NotAllowed(_) => {
                ErrorCode::Unauthorized
            }
            DecodeReason::UnavailableClass(_) => ErrorCode::Unavailable,
            _ => ErrorCode::InvalidData,
        }
    }
}

/// Why an encode failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeReason {
    #[error("{ty} has no exact form in the {dialect} dialect (turn on allow_lossy to convert it)")]
    NotInDialect {
        ty: VariantType,
        dialect: &'static str,
    },
    #[error("the Godot 3 dialect has no double-precision form")]
    DoubleInGodot3,
    #[error("script {path:?}: a Godot 4 script cannot travel to {dialect}, which embeds the script's source")]
    ScriptNotInDialect { path: String, dialect: &'static str },
    #[error("nesting deeper than {0} levels (or a container that contains itself)")]
    TooDeep(usize),
    #[error("{what} of {len} does not fit the format's 31-bit length")]
    TooLarge { what: &'static str, len: usize },
    #[error("output buffer too small")]
    BufferFull,
    #[error("{0}")]
    Invalid(String),
}

impl EncodeReason {
    pub fn code(&self) -> ErrorCode {
        match self {
            EncodeReason::TooDeep(_) | EncodeReason::TooLarge { .. } | EncodeReason::BufferFull => {
                ErrorCode::OutOfMemory
            }
            EncodeReason::NotInDialect { .. }
            | EncodeReason::ScriptNotInDialect { .. }
            | EncodeReason::DoubleInGodot3
            | EncodeReason::Invalid(_) => ErrorCode::InvalidParameter,
        }
    }
}

/// One step from a container to a value inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
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
    pub fn segments(&self) -> impl Iterator<Item = &PathSegment> {
        self.reversed.iter().rev()
    }

    pub fn is_root(&self) -> bool {
        self.reversed.is_empty()
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
    #[error("decode failed at byte {offset}: {reason} ({})", reason.code())]
    Decode { offset: usize, reason: DecodeReason },
    #[error("encode failed at {path}: {reason} ({})", reason.code())]
    Encode {
        path: ValuePath,
        reason: EncodeReason,
    },
    /// Transcoding: the value read at `offset` of the input cannot be written in the target
    /// dialect (`error` is the encode error, with its path inside that value).
    #[error("the value at input byte {offset} cannot be written: {error}")]
    Transcode {
        offset: usize,
        error: Box<CodecError>,
    },
}

impl CodecError {
    pub fn decode(offset: usize, reason: DecodeReason) -> Self {
        CodecError::Decode { offset, reason }
    }

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
