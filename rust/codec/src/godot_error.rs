//! Godot's `Error` codes, the engine's word for every failure: the leaf every rule that names a
//! failure (a dialect's tables, the errors) takes it from.

use std::fmt;

/// Godot's `Error` codes that the codec can produce (values as in `@GlobalScope.Error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `FAILED`: a compressor that could not compress a block of a file being written.
    Failed = 1,
    /// `ERR_UNAVAILABLE`: an object's class exists but cannot be made (where the dialect's
    /// engine reports it so).
    Unavailable = 2,
    /// `ERR_UNAUTHORIZED`: a full object while objects are not allowed, or one the allow-list
    /// refuses.
    Unauthorized = 4,
    /// `ERR_OUT_OF_MEMORY`: a decode limit, nesting too deep, or an encoding (or a compressed
    /// file's payload) too large.
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
    /// `ERR_PARSE_ERROR`: text that is not Godot's text Variant format (what `str_to_var`
    /// reports).
    ParseError = 43,
}

impl ErrorCode {
    /// The numeric `Error` value, as GDScript sees it.
    pub fn godot_value(self) -> i32 {
        self as i32
    }

    /// The constant's name in the engine (`ERR_INVALID_DATA`, …): what `Display` prints, and
    /// what a Godot user searches the documentation for.
    pub fn godot_name(self) -> &'static str {
        match self {
            ErrorCode::Failed => "FAILED",
            ErrorCode::Unavailable => "ERR_UNAVAILABLE",
            ErrorCode::Unauthorized => "ERR_UNAUTHORIZED",
            ErrorCode::OutOfMemory => "ERR_OUT_OF_MEMORY",
            ErrorCode::FileUnrecognized => "ERR_FILE_UNRECOGNIZED",
            ErrorCode::FileCorrupt => "ERR_FILE_CORRUPT",
            ErrorCode::FileEof => "ERR_FILE_EOF",
            ErrorCode::InvalidData => "ERR_INVALID_DATA",
            ErrorCode::InvalidParameter => "ERR_INVALID_PARAMETER",
            ErrorCode::ParseError => "ERR_PARSE_ERROR",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.godot_name())
    }
}
