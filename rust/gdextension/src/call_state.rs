//! What the last call reported — `get_error()`, `get_error_message()`, `get_decoded_size()` —
//! kept per object *and per thread*, like `errno`: one codec may serve several threads at once,
//! and each thread asks about its own last call.
//!
//! The states live in a small thread-local list (the most recently used objects of this thread)
//! rather than in the object, so a call never takes a lock to report its outcome. The list holds
//! plain Rust values only: it is dropped when its thread ends, possibly after the engine is gone.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use fast_var_codec_core::error::{DecodeReason, ErrorCode};
use fast_var_codec_core::CodecError;
use godot::builtin::GString;
use godot::global::{print_custom, Error, PrintLevel, PrintRecord, PrintSource};
use godot::obj::EngineEnum;

/// Objects one thread remembers call states for; the least recently used is forgotten first.
const REMEMBERED_PER_THREAD: usize = 32;

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static STATES: RefCell<Vec<(u64, State)>> = const { RefCell::new(Vec::new()) };
}

#[derive(Clone)]
struct State {
    error: Error,
    message: String,
    decoded_size: i64,
}

impl Default for State {
    fn default() -> Self {
        State {
            error: Error::OK,
            message: String::new(),
            decoded_size: 0,
        }
    }
}

/// The engine's error code for a core error code, which carries the engine's value.
pub fn godot_error(code: ErrorCode) -> Error {
    error_from_ord(i64::from(code.godot_value()))
}

/// The engine's `Error` of ordinal `ord` (as a ptrcall or a script returns one): `FAILED` for
/// a number the engine does not know.
pub(crate) fn error_from_ord(ord: i64) -> Error {
    i32::try_from(ord)
        .ok()
        .and_then(Error::try_from_ord)
        .unwrap_or(Error::FAILED)
}

/// Writes an error (or with `warning`, a warning) to the engine's log as coming from the
/// extension, without gdext's default source location: a game developer reading the log sees
/// what went wrong and which method said so, never a path into this crate's sources.
pub(crate) fn log_error(method: &str, message: &str) {
    log(PrintLevel::Error, method, message);
}

/// As [`log_error`], a warning.
pub(crate) fn log_warning(method: &str, message: &str) {
    log(PrintLevel::Warn, method, message);
}

fn log(level: PrintLevel, method: &str, message: &str) {
    print_custom(PrintRecord {
        level,
        message,
        rationale: None,
        source: Some(PrintSource {
            function: method,
            file: "fast_var_codec",
            line: 0,
        }),
        editor_notify: false,
    });
}

/// One object's handle on its per-thread call states.
pub struct CallState {
    key: u64,
}

impl Default for CallState {
    fn default() -> Self {
        CallState {
            key: NEXT_KEY.fetch_add(1, Ordering::Relaxed),
        }
    }
}

impl CallState {
    fn with<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        STATES.with(|cell| {
            // A call made while another is reporting (not expected: reporting runs no engine
            // code) gets a scratch state instead of a borrow panic.
            let Ok(mut states) = cell.try_borrow_mut() else {
                return f(&mut State::default());
            };
            let at = match states.iter().rposition(|(k, _)| *k == self.key) {
                Some(at) => at,
                None => {
                    if states.len() >= REMEMBERED_PER_THREAD {
                        states.remove(0);
                    }
                    states.push((self.key, State::default()));
                    states.len() - 1
                }
            };
            // Most recently used last: the next lookup finds it first.
            let last = states.len() - 1;
            states.swap(at, last);
            match states.last_mut() {
                Some((_, state)) => f(state),
                None => f(&mut State::default()),
            }
        })
    }

    /// Records a success (and the bytes a decode used).
    pub fn ok_with_size(&self, decoded_size: i64) -> Error {
        self.with(|s| {
            s.error = Error::OK;
            s.message.clear();
            s.decoded_size = decoded_size;
        });
        Error::OK
    }

    /// Records a success.
    pub fn ok(&self) -> Error {
        self.ok_with_size(0)
    }

    /// Records a failure of the core.
    pub fn fail(&self, e: &CodecError) -> Error {
        self.fail_with(godot_error(e.code()), e.to_string())
    }

    /// Records a failure of a write: as [`Self::fail`], except that a message above
    /// `max_message_size` (which the core's framing check reports as a length prefix it
    /// refuses to read) is told as the write it is.
    pub fn fail_write(&self, e: &CodecError) -> Error {
        match e {
            CodecError::Decode {
                reason: DecodeReason::MessageTooLong { len, max },
                ..
            } => self.fail_with(
                Error::ERR_OUT_OF_MEMORY,
                format!(
                    "the message is {len} bytes, above max_message_size ({max}): nothing was written"
                ),
            ),
            _ => self.fail(e),
        }
    }

    /// Records a failure with an engine error code and a message.
    pub fn fail_with(&self, error: Error, message: String) -> Error {
        self.with(|s| {
            s.error = error;
            s.message = message;
            s.decoded_size = 0;
        });
        error
    }

    pub fn error(&self) -> Error {
        self.with(|s| s.error)
    }

    pub fn message(&self) -> GString {
        self.with(|s| GString::from(s.message.as_str()))
    }

    pub fn decoded_size(&self) -> i64 {
        self.with(|s| s.decoded_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each core code is the engine's constant of the same name.
    #[test]
    fn core_codes_are_the_engine_constants_of_their_names() {
        for code in [
            ErrorCode::Unavailable,
            ErrorCode::Unauthorized,
            ErrorCode::OutOfMemory,
            ErrorCode::FileUnrecognized,
            ErrorCode::FileCorrupt,
            ErrorCode::FileEof,
            ErrorCode::InvalidData,
            ErrorCode::InvalidParameter,
        ] {
            assert_eq!(format!("{:?}", godot_error(code)), code.godot_name());
        }
    }
}
