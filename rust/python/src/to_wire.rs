//! Python objects written straight to the core's [`Writer`], without a `Value` tree: the plain
//! types (None, bool, int, float, str, bytes, list, tuple, dict) are walked here, every other
//! value is translated alone by `convert` and written by the core's `write_value`. No bytes are
//! written here, so every rule of the format stays in the core.
//!
//! The walk only knows that a value failed, not why: the package's errors come from the
//! reference translation (`convert::to_value`, then the core's encode), run again on failure,
//! so that errors, their paths and which of two faults is reported stay exactly as they are.

use std::borrow::Cow;

use bytes::BytesMut;
use fast_var_codec_core::reader::guard_stack;
use fast_var_codec_core::stream::{frame_with, ByteOrder};
use fast_var_codec_core::value::{write_value, ContainerType};
use fast_var_codec_core::writer::{Sink, Writer};
use fast_var_codec_core::{CodecError, Options};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple,
};

use crate::classes::{types, Types};
use crate::convert::{exact_vector, to_value, value_at, MAX_DEPTH};
use crate::errors::codec_error;

/// A value the walk could not write; the reference translation tells why.
struct Refused;

impl From<CodecError> for Refused {
    fn from(_: CodecError) -> Self {
        Refused
    }
}

impl From<PyErr> for Refused {
    fn from(_: PyErr) -> Self {
        Refused
    }
}

type Step = Result<(), Refused>;

// In the stable ABI from Python 3.10 (so not declared by PyO3 for the 3.9 ABI the wheel
// targets). Every CPython 3 exports it with this signature from its own library, which Linux and
// macOS extensions resolve against; Windows extensions link the stable ABI's python3.dll, which
// has it only from 3.10, so there the text is copied instead (`str_utf8` below).
#[cfg(not(windows))]
extern "C" {
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

/// The UTF-8 text of a str without a copy: the str keeps its UTF-8 form (for an ASCII str, its
/// own characters). Refused for a str that has none (a lone surrogate: `convert` says so).
#[cfg(not(windows))]
fn str_utf8<'a>(s: &'a Bound<'_, PyString>) -> Result<Cow<'a, str>, Refused> {
    let mut len: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live str with the interpreter's lock held (its `Bound`); the function
    // returns its cached UTF-8 form, owned by the str and valid while it lives (as long as the
    // borrow of `s`), or NULL with a Python error set.
    let ptr = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut len) };
    if ptr.is_null() {
        drop(PyErr::fetch(s.py()));
        return Err(Refused);
    }
    let len = usize::try_from(len).map_err(|_| Refused)?;
    // SAFETY: CPython guarantees `len` bytes at `ptr`, valid UTF-8: it encoded them from the
    // str's characters, and fails (NULL, above) for a str with no UTF-8 form.
    let text =
        unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(ptr.cast::<u8>(), len)) };
    Ok(Cow::Borrowed(text))
}

/// The UTF-8 text of a str, copied (PyO3's way under the 3.9 stable ABI). Refused for a str
/// that has none (a lone surrogate: `convert` says so).
#[cfg(windows)]
fn str_utf8<'a>(s: &'a Bound<'_, PyString>) -> Result<Cow<'a, str>, Refused> {
    Ok(s.to_cow()?)
}

/// Appends the encoding of `obj` to `out`; on failure `out` is left as it was and the error is
/// the reference translation's.
pub fn encode_into(obj: &Bound<'_, PyAny>, opts: &Options, out: &mut BytesMut) -> PyResult<()> {
    let t = types(obj.py())?;
    let before = out.len();
    let mut w = Writer::new(std::mem::take(out), opts).map_err(codec_error)?;
    let written = Walk { t }.value(&mut w, obj, 0);
    *out = w.into_sink();
    if written.is_ok() {
        return Ok(());
    }
    out.truncate(before);
    let v = to_value(obj)?;
    fast_var_codec_core::encode_into(&v, opts, out).map_err(codec_error)?;
    Ok(())
}

/// Appends `obj` framed as `StreamPeer.put_var` sends it (the core's `frame_with`); errors as
/// [`encode_into`]'s.
pub fn frame_into(
    obj: &Bound<'_, PyAny>,
    opts: &Options,
    order: ByteOrder,
    out: &mut BytesMut,
) -> PyResult<()> {
    let t = types(obj.py())?;
    let walk = Walk { t };
    let framed = frame_with(out, opts, order, |w| {
        walk.value(w, obj, 0)
            .map_err(|Refused| CodecError::encode(refused()))
    });
    if framed.is_ok() {
        return Ok(());
    }
    let v = to_value(obj)?;
    fast_var_codec_core::stream::frame(&v, opts, order, out).map_err(codec_error)?;
    Ok(())
}

/// A placeholder reason carried through `frame_with` only to say that the walk failed.
fn refused() -> fast_var_codec_core::error::EncodeReason {
    fast_var_codec_core::error::EncodeReason::Invalid(String::new())
}

struct Walk<'t> {
    t: &'t Types,
}

impl Walk<'_> {
    /// Writes `obj`, found at `depth`; the checks run in the order `convert` runs them.
    fn value<S: Sink>(&self, w: &mut Writer<'_, S>, obj: &Bound<'_, PyAny>, depth: usize) -> Step {
        if depth > MAX_DEPTH {
            return Err(Refused);
        }
        // The usual types by their exact type first (a pointer comparison each); subclasses
        // and the rest below, in `convert`'s order.
        if let Ok(s) = obj.cast_exact::<PyString>() {
            return Ok(w.string(&*str_utf8(s)?)?);
        }
        if obj.is_exact_instance_of::<PyInt>() {
            return Ok(w.int(obj.extract::<i64>()?)?);
        }
        if let Ok(f) = obj.cast_exact::<PyFloat>() {
            return Ok(w.float(f.value())?);
        }
        if let Ok(dict) = obj.cast_exact::<PyDict>() {
            return guard_stack(|| self.entries(w, dict, depth));
        }
        if let Ok(list) = obj.cast_exact::<PyList>() {
            return guard_stack(|| self.items(w, list.len(), list.iter(), depth));
        }
        if obj.is_none() {
            return Ok(w.nil()?);
        }
        if let Some(v) = exact_vector(self.t, obj) {
            return Ok(write_value(w, &v)?);
        }
        if let Ok(b) = obj.cast::<PyBool>() {
            return Ok(w.bool(b.is_true())?);
        }
        if obj.is_instance_of::<PyInt>() {
            return Ok(w.int(obj.extract::<i64>()?)?);
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return Ok(w.float(f.value())?);
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(w.string(&*str_utf8(s)?)?);
        }
        if let Ok(list) = obj.cast::<PyList>() {
            return guard_stack(|| self.items(w, list.len(), list.iter(), depth));
        }
        if let Ok(dict) = obj.cast::<PyDict>() {
            return guard_stack(|| self.entries(w, dict, depth));
        }
        if let Ok(tuple) = obj.cast::<PyTuple>() {
            return guard_stack(|| self.items(w, tuple.len(), tuple.iter(), depth));
        }
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(w.packed_bytes(b.as_bytes())?);
        }
        if let Ok(b) = obj.cast::<PyByteArray>() {
            return Ok(w.packed_bytes(&b.to_vec())?);
        }
        // Any other value is one Godot value of its own (a Vector2, a TypedArray ...).
        let v = value_at(self.t, obj, depth).ok_or(Refused)?;
        Ok(write_value(w, &v)?)
    }

    /// An untyped Array of `len` items; a container changed while written is refused.
    fn items<'py, S: Sink>(
        &self,
        w: &mut Writer<'_, S>,
        len: usize,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        depth: usize,
    ) -> Step {
        w.begin_array(&ContainerType::Untyped, len)?;
        let mut written = 0;
        for item in items {
            if written == len {
                return Err(Refused);
            }
            self.value(w, &item, depth + 1)?;
            written += 1;
        }
        if written != len {
            return Err(Refused);
        }
        w.end_array();
        Ok(())
    }

    /// An untyped Dictionary of a dict's entries.
    fn entries<S: Sink>(
        &self,
        w: &mut Writer<'_, S>,
        dict: &Bound<'_, PyDict>,
        depth: usize,
    ) -> Step {
        let len = dict.len();
        w.begin_dictionary(&ContainerType::Untyped, &ContainerType::Untyped, len)?;
        let mut written = 0;
        for (k, v) in dict.iter() {
            if written == len {
                return Err(Refused);
            }
            self.value(w, &k, depth + 1)?;
            self.value(w, &v, depth + 1)?;
            written += 1;
        }
        if written != len {
            return Err(Refused);
        }
        w.end_dictionary();
        Ok(())
    }
}
