//! The "error of the last call" that both GDScript classes report through `get_error()` and
//! `get_error_message()`.

use fast_var_codec_core::{CodecError, ErrorCode};
use godot::builtin::GString;
use godot::global::Error;

pub fn godot_error(code: ErrorCode) -> Error {
    match code {
        ErrorCode::Unavailable => Error::ERR_UNAVAILABLE,
        ErrorCode::Unauthorized => Error::ERR_UNAUTHORIZED,
        ErrorCode::OutOfMemory => Error::ERR_OUT_OF_MEMORY,
        ErrorCode::FileEof => Error::ERR_FILE_EOF,
        ErrorCode::InvalidData => Error::ERR_INVALID_DATA,
        ErrorCode::InvalidParameter => Error::ERR_INVALID_PARAMETER,
    }
}

pub struct LastError {
    error: Error,
    message: GString,
}

impl Default for LastError {
    fn default() -> Self {
        LastError {
            error: Error::OK,
            message: GString::new(),
        }
    }
}

impl LastError {
    pub fn ok(&mut self) -> Error {
        self.error = Error::OK;
        self.message = GString::new();
        Error::OK
    }

    pub fn fail(&mut self, e: CodecError) -> Error {
        self.fail_with(godot_error(e.code()), e.to_string())
    }

    pub fn fail_with(&mut self, error: Error, message: String) -> Error {
        self.error = error;
        self.message = GString::from(message.as_str());
        error
    }

    pub fn error(&self) -> Error {
        self.error
    }

    pub fn message(&self) -> GString {
        self.message.clone()
    }
}
