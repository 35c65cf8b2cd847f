//! The native half of the package's `Codec`: the core's `Options` built once, when the codec is
//! made, so that `codec.encode(value)` and `codec.decode(data)` go from the call straight to the
//! walk (no Python frame, no options read, parsed and checked again per call). The Python class
//! (`_codec.py`) derives from it, checks the options and keeps them readable.

use fast_var_codec_core::Options;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

use crate::{
    decode_with_options, encode_framed_with, encode_options, encode_with, DecodeSettings, Trailing,
};

/// The encoding and decoding options of a codec, and its stream's byte order.
#[pyclass(name = "Codec", module = "fast_var_codec", subclass)]
pub struct NativeCodec {
    encoding: Options,
    decoding: Options,
    big_endian: bool,
}

#[pymethods]
impl NativeCodec {
    /// The defaults (Godot 4, single precision, no limits); `_configure` sets the options the
    /// Python class was made with, once it has checked them.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(NativeCodec {
            encoding: encode_options("godot4", "single", false, false)?,
            decoding: DecodeSettings::with_precision("single").options("godot4")?,
            big_endian: false,
        })
    }

    #[pyo3(signature = (dialect, precision, full_objects, allow_lossy, max_depth, max_elements, max_bytes, allow_objects, allowed_classes, refuse_dropped_elements, big_endian))]
    #[allow(clippy::too_many_arguments)]
    fn _configure(
        &mut self,
        dialect: &str,
        precision: &str,
        full_objects: bool,
        allow_lossy: bool,
        max_depth: Option<&Bound<'_, PyAny>>,
        max_elements: Option<&Bound<'_, PyAny>>,
        max_bytes: Option<&Bound<'_, PyAny>>,
        allow_objects: bool,
        allowed_classes: Option<&Bound<'_, PyAny>>,
        refuse_dropped_elements: bool,
        big_endian: bool,
    ) -> PyResult<()> {
        let settings = DecodeSettings::from_args(
            precision,
            max_depth,
            max_elements,
            max_bytes,
            allow_objects,
            allowed_classes,
            refuse_dropped_elements,
        )?;
        self.decoding = settings.options(dialect)?;
        self.encoding = encode_options(dialect, precision, full_objects, allow_lossy)?;
        self.big_endian = big_endian;
        Ok(())
    }

    /// ``value`` encoded as ``var_to_bytes`` does (``var_to_bytes_with_objects`` with
    /// ``full_objects``). Raises :class:`EncodeError` with the path inside ``value`` for a
    /// value with no Godot type, an int outside 64 bits, a type the dialect lacks without
    /// ``allow_lossy``, an :class:`Object` without ``full_objects``, a text holding U+0000 or
    /// a lone surrogate.
    #[pyo3(signature = (value), text_signature = "(self, value)")]
    fn encode<'py>(&self, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        encode_with(value, &self.encoding)
    }

    /// ``value`` as ``StreamPeer.put_var`` sends it: a u32 length (big-endian with
    /// ``big_endian``), then :meth:`encode`'s bytes. Raises :class:`EncodeError` as
    /// :meth:`encode`.
    #[pyo3(signature = (value), text_signature = "(self, value)")]
    fn encode_framed<'py>(&self, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        encode_framed_with(value, &self.encoding, self.big_endian)
    }

    /// The value at ``offset`` of ``data`` (any bytes-like object) as ``bytes_to_var`` reads
    /// it, where it takes the rest of ``data`` whole. Raises :class:`DecodeError` with the
    /// offset from the start of ``data`` for bytes that do not decode, a limit passed
    /// (``max_depth``, ``max_elements``, ``max_bytes``) or an object not allowed;
    /// :class:`ExtraData` when bytes follow the value (:meth:`decode_with_size` reads it); a
    /// ``TypeError`` for a ``str``.
    #[pyo3(signature = (data, offset=None), text_signature = "(self, data, offset=0)")]
    fn decode<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        offset: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        decode_with_options(py, data, offset, &self.decoding, Trailing::Refused)
    }

    /// The value at ``offset`` of ``data`` and the bytes it used, ``(value, size)``: bytes
    /// after the value are ignored, as ``bytes_to_var`` ignores them. Raises as
    /// :meth:`decode`, but for :class:`ExtraData`.
    #[pyo3(signature = (data, offset=None), text_signature = "(self, data, offset=0)")]
    fn decode_with_size<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        offset: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        decode_with_options(py, data, offset, &self.decoding, Trailing::Sized)
    }
}
