//! The core's errors as the package's exceptions (defined in `fast_var_codec._types`):
//! `DecodeError(offset, godot_error, message)`, `EncodeError(path, godot_error, message)`,
//! `SaveFileError(godot_error, message)`.

use fast_var_codec_core::error::{DecodeReason, ErrorCode};
use fast_var_codec_core::record::decode_record;
use fast_var_codec_core::save::RecordError;
use fast_var_codec_core::save::{ConfigFileError, FileError, JsonFileError};
use fast_var_codec_core::{CodecError, Options};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::classes::types;

/// The exception for a core error.
pub fn codec_error(e: CodecError) -> PyErr {
    Python::attach(|py| {
        let t = match types(py) {
            Ok(t) => t,
            Err(err) => return err,
        };
        let name = e.code().godot_name();
        let made = match &e {
            CodecError::Decode { offset, reason } => t.decode_error.bind(py).call1((
                *offset,
                name,
                reason.to_string(),
                ambiguous_dialects(reason),
            )),
            CodecError::Encode { path, reason } => {
                t.encode_error
                    .bind(py)
                    .call1((path.to_string(), name, reason.to_string()))
            }
            other => t.encode_error.bind(py).call1(("", name, other.to_string())),
        };
        match made {
            Ok(exc) => PyErr::from_value(exc),
            Err(err) => err,
        }
    })
}

/// The `ExtraData` of a value at `offset` of `data` that `extra`, the rest of `data`, follows:
/// the core's reason (a value that does not take its bytes whole, with the dialect that reads
/// them whole, where one does), the value and the bytes after it.
pub fn extra_data(
    data: &[u8],
    offset: usize,
    opts: &Options,
    value: Bound<'_, PyAny>,
    extra: &[u8],
) -> PyErr {
    let py = value.py();
    let t = match types(py) {
        Ok(t) => t,
        Err(err) => return err,
    };
    let rest = data.get(offset..).unwrap_or_default();
    let (at, code, message) = match decode_record(rest, opts).map_err(|e| e.shifted(offset)) {
        Err(CodecError::Decode { offset: at, reason }) => (at, reason.code(), reason.to_string()),
        // The record rule and the decode disagree on where the value ends: say what is known.
        _ => (
            data.len() - extra.len(),
            ErrorCode::InvalidData,
            format!("{} bytes follow the value", extra.len()),
        ),
    };
    match t.extra_data.bind(py).call1((
        at,
        code.godot_name(),
        message,
        value,
        PyBytes::new(py, extra),
    )) {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}

/// The dialects an [`DecodeReason::Ambiguous`] names (none for any other reason).
fn ambiguous_dialects(reason: &DecodeReason) -> Vec<&'static str> {
    match reason {
        DecodeReason::Ambiguous { readings } => {
            readings.iter().map(|r| r.dialect.short_name()).collect()
        }
        _ => Vec::new(),
    }
}

/// The exception for a save file's container error.
pub fn file_error(e: FileError) -> PyErr {
    Python::attach(|py| {
        let t = match types(py) {
            Ok(t) => t,
            Err(err) => return err,
        };
        match t
            .save_file_error
            .bind(py)
            .call1((e.code().godot_name(), e.to_string()))
        {
            Ok(exc) => PyErr::from_value(exc),
            Err(err) => err,
        }
    })
}

/// The exception for a ConfigFile's error: its container's as [`file_error`], its text's as
/// [`codec_error`], a value that is no ConfigFile or a dialect whose text is not written a
/// `ValueError`.
pub fn config_file_error(e: ConfigFileError) -> PyErr {
    match e {
        ConfigFileError::File(e) => file_error(e),
        ConfigFileError::Text(e) => codec_error(e),
        other => pyo3::exceptions::PyValueError::new_err(other.to_string()),
    }
}

/// The exception for a JSON save: the container's as [`file_error`], the text's as
/// [`codec_error`], a value the save cannot hold an `EncodeError`.
pub fn json_file_error(e: JsonFileError) -> PyErr {
    match e {
        JsonFileError::File(e) => file_error(e),
        JsonFileError::Text(e) => codec_error(e),
        other => Python::attach(|py| encode_error(py, "", other.to_string())),
    }
}

/// The exception for a file's records: a record cut short is the file's (`SaveFileError`), a
/// value that fails a `DecodeError` at its payload offset, naming the value.
pub fn record_error(e: RecordError) -> PyErr {
    match e {
        RecordError::Value {
            index,
            offset,
            error: CodecError::Decode { offset: at, reason },
        } => Python::attach(|py| {
            let t = match types(py) {
                Ok(t) => t,
                Err(err) => return err,
            };
            let message = format!("value {index} (record at payload offset {offset}): {reason}");
            match t.decode_error.bind(py).call1((
                at,
                reason.code().godot_name(),
                message,
                ambiguous_dialects(&reason),
            )) {
                Ok(exc) => PyErr::from_value(exc),
                Err(err) => err,
            }
        }),
        RecordError::Value { error, .. } => codec_error(error),
        RecordError::Cut(e) => file_error(e),
        other => pyo3::exceptions::PyValueError::new_err(other.to_string()),
    }
}

/// An encode error found while translating a Python value (an unsupported type, an int out of
/// range), at `path` inside it.
pub fn encode_error(py: Python<'_>, path: &str, message: String) -> PyErr {
    let t = match types(py) {
        Ok(t) => t,
        Err(err) => return err,
    };
    match t
        .encode_error
        .bind(py)
        .call1((path, "ERR_INVALID_PARAMETER", message))
    {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}

/// `OutOfData`: no complete value has arrived yet (not an error of the stream).
pub fn out_of_data(py: Python<'_>, buffered: usize) -> PyErr {
    let t = match types(py) {
        Ok(t) => t,
        Err(err) => return err,
    };
    let message = format!("no complete value yet ({buffered} bytes buffered): feed more data");
    match t.out_of_data.bind(py).call1((message,)) {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}

/// An `EncodeError` of the value at `index` of a file's values, made again with a message that
/// names the value and where in it (`value 1, at ['x']: ...`); other errors as they are.
pub fn in_record(py: Python<'_>, e: PyErr, index: usize) -> PyErr {
    let t = match types(py) {
        Ok(t) => t,
        Err(err) => return err,
    };
    let exc = e.value(py);
    if !exc.is_instance(t.encode_error.bind(py)).unwrap_or(false) {
        return e;
    }
    let remade = (|| -> PyResult<Bound<'_, PyAny>> {
        let path: String = exc.getattr("path")?.extract()?;
        let godot_error: String = exc.getattr("godot_error")?.extract()?;
        let message: String = exc.getattr("message")?.extract()?;
        let message = if path.is_empty() {
            format!("value {index}: {message}")
        } else {
            format!("value {index}, at {path}: {message}")
        };
        t.encode_error.bind(py).call1((path, godot_error, message))
    })();
    match remade {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}
