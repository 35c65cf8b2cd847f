//! `fast_var_codec._native`: the Python package's extension module. It only translates: Python
//! objects to the core's `Value` and back (`convert`), keyword arguments to `Options`, the core's
//! errors to the package's exceptions (`errors`); every rule of the format is the core's.

use fast_var_codec_core::options::{AllowList, Limits, Precision};
use fast_var_codec_core::save::{self, decode_records};
use fast_var_codec_core::save::{
    compress_block, decompress_block, open, store, Compression, OpenOptions, StoreOptions,
    DEFAULT_MAX_PAYLOAD,
};
use fast_var_codec_core::save::{ConfigFile, FileKey, TextResource};
use fast_var_codec_core::save::{JsonSave, JsonStyle};
use fast_var_codec_core::stream::{ByteOrder, StreamReader, DEFAULT_MAX_MESSAGE};
use fast_var_codec_core::value::{NodePath, Value};
use fast_var_codec_core::{Dialect, Options};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyList, PyString, PyTuple};

mod classes;
mod codec;
mod convert;
mod errors;
mod from_wire;
mod frozen;
mod to_wire;

use convert::{from_value, to_value};
use errors::{codec_error, config_file_error, file_error, json_file_error, record_error};

/// The dialect of its short name (`"godot4"`, `"godot3"` ...).
fn dialect(name: &str) -> PyResult<Dialect> {
    name.parse::<Dialect>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

fn precision(name: &str) -> PyResult<Precision> {
    match name {
        "single" => Ok(Precision::Single),
        "double" => Ok(Precision::Double),
        other => Err(PyValueError::new_err(format!(
            "unknown precision {other:?} (\"single\" or \"double\")"
        ))),
    }
}

/// The options of an encode.
fn encode_options(
    dialect_name: &str,
    precision_name: &str,
    full_objects: bool,
    allow_lossy: bool,
) -> PyResult<Options> {
    let opts = Options::new(dialect(dialect_name)?)
        .with_precision(precision(precision_name)?)
        .with_full_objects(full_objects)
        .with_allow_lossy(allow_lossy);
    opts.check().map_err(codec_error)?;
    Ok(opts)
}

/// The limits and object policy of a decode.
struct DecodeSettings<'a> {
    precision: &'a str,
    max_depth: Option<usize>,
    max_elements: Option<usize>,
    max_bytes: Option<usize>,
    allow_objects: bool,
    allowed_classes: Option<Vec<String>>,
    refuse_dropped_elements: bool,
}

impl<'a> DecodeSettings<'a> {
    /// The settings of a call's arguments: each limit a non-negative int or None (no limit),
    /// the allow-list an iterable of names or None.
    fn from_args(
        precision: &'a str,
        max_depth: Option<&Bound<'_, PyAny>>,
        max_elements: Option<&Bound<'_, PyAny>>,
        max_bytes: Option<&Bound<'_, PyAny>>,
        allow_objects: bool,
        allowed_classes: Option<&Bound<'_, PyAny>>,
        refuse_dropped_elements: bool,
    ) -> PyResult<Self> {
        Ok(DecodeSettings {
            precision,
            max_depth: limit("max_depth", max_depth)?,
            max_elements: limit("max_elements", max_elements)?,
            max_bytes: limit("max_bytes", max_bytes)?,
            allow_objects,
            allowed_classes: names(allowed_classes)?,
            refuse_dropped_elements,
        })
    }

    /// No limits, no objects.
    fn with_precision(precision: &'a str) -> Self {
        DecodeSettings {
            precision,
            max_depth: None,
            max_elements: None,
            max_bytes: None,
            allow_objects: false,
            allowed_classes: None,
            refuse_dropped_elements: false,
        }
    }

    fn options(&self, dialect_name: &str) -> PyResult<Options> {
        let defaults = Limits::default();
        let limits = Limits {
            max_depth: self.max_depth.unwrap_or(defaults.max_depth),
            max_elements: self.max_elements.unwrap_or(defaults.max_elements),
            max_bytes: self.max_bytes.unwrap_or(defaults.max_bytes),
        };
        // An allow-list of class names and script paths (`res://...`), only with allow_objects;
        // an empty one admits no object. None: no list, every class (trusted input only).
        let list = match &self.allowed_classes {
            Some(names) => {
                if !self.allow_objects && !names.is_empty() {
                    return Err(PyValueError::new_err(
                        "allowed_classes needs allow_objects=True",
                    ));
                }
                Some(AllowList::from_names(names))
            }
            None => None,
        };
        Ok(Options::new(dialect(dialect_name)?)
            .with_precision(precision(self.precision)?)
            .with_limits(limits)
            .with_allow_objects(self.allow_objects)
            .with_allowed_objects(list)
            .with_refuse_dropped_elements(self.refuse_dropped_elements))
    }
}

/// The texts of an iterable of str (`allowed_classes`): a list, tuple, set ...; not one str.
fn names(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<String>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "allowed_classes is an iterable of class names and script paths, not one str",
        ));
    }
    obj.try_iter()?
        .map(|item| item?.extract::<String>())
        .collect::<PyResult<Vec<String>>>()
        .map(Some)
}

/// The bytes of a bytes-like object (bytes, bytearray, memoryview, array, anything with the
/// buffer protocol); a `TypeError` naming `what` for anything else (a str, an int).
fn with_bytes<R>(
    what: &str,
    data: &Bound<'_, PyAny>,
    f: impl FnOnce(&[u8]) -> PyResult<R>,
) -> PyResult<R> {
    if let Ok(b) = data.cast::<PyBytes>() {
        return f(b.as_bytes());
    }
    let copy = match convert::buffer_bytes(data)? {
        Some(copy) => copy,
        None => {
            let ty = data
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            return Err(PyTypeError::new_err(format!(
                "{what} must be a bytes-like object (bytes, bytearray, memoryview ...), not {ty}"
            )));
        }
    };
    f(copy.as_bytes())
}

/// A count or size limit: None is no limit (the default), a negative number a `ValueError`, a
/// number above the machine's range the same as no limit.
fn limit(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if value.is_instance_of::<pyo3::types::PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int or None (no limit), not {}",
            value
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        )));
    }
    if let Ok(n) = value.extract::<usize>() {
        return Ok(Some(n));
    }
    if value.lt(0)? {
        return Err(PyValueError::new_err(format!(
            "{name} must be None (no limit) or a number >= 0, not {value}"
        )));
    }
    Ok(Some(usize::MAX))
}

/// A limit that always has a value (`max_message`, `max_payload`): None is no limit (the
/// Python layer passes the default), a negative number a `ValueError`.
fn limit_or_unlimited(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    Ok(limit(name, value)?.unwrap_or(usize::MAX))
}

/// The encoding and decoding options of a call that gives none, built once (a call mostly
/// gives none).
fn defaults() -> &'static (Option<Options>, Option<Options>) {
    static DEFAULTS: std::sync::OnceLock<(Option<Options>, Option<Options>)> =
        std::sync::OnceLock::new();
    DEFAULTS.get_or_init(|| {
        (
            encode_options("godot4", "single", false, false).ok(),
            DecodeSettings::with_precision("single")
                .options("godot4")
                .ok(),
        )
    })
}

/// The bytes of `value` encoded with `opts`.
fn encode_with<'py>(value: &Bound<'py, PyAny>, opts: &Options) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = bytes::BytesMut::with_capacity(256);
    to_wire::encode_into(value, opts, &mut out)?;
    Ok(PyBytes::new(value.py(), &out))
}

/// The bytes of `value` framed as `StreamPeer.put_var` sends it, encoded with `opts`.
fn encode_framed_with<'py>(
    value: &Bound<'py, PyAny>,
    opts: &Options,
    big_endian: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = bytes::BytesMut::with_capacity(256);
    to_wire::frame_into(
        value,
        opts,
        ByteOrder::from_big_endian(big_endian),
        &mut out,
    )?;
    Ok(PyBytes::new(value.py(), &out))
}

/// What a decode returns for the bytes after the value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Trailing {
    /// `decode`: the value alone; bytes after it raise `ExtraData`, as msgpack's `unpackb`.
    Refused,
    /// `decode_with_size`: the value and the bytes it used; what follows is the caller's.
    Sized,
}

/// The value at `offset` of `data` decoded with `opts`: alone, or with the bytes it used
/// (`trailing`).
fn decode_with_options<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    offset: Option<&Bound<'py, PyAny>>,
    opts: &Options,
    trailing: Trailing,
) -> PyResult<Bound<'py, PyAny>> {
    let offset = limit("offset", offset)?.unwrap_or(0);
    with_bytes("data", data, |b| {
        let (value, used) = match from_wire::decode_at(py, b, offset, opts)? {
            Some(built) => built,
            None => {
                let (value, used) = unlocked(py, b.len(), || {
                    fast_var_codec_core::decode_at(b, offset, opts)
                })
                .map_err(codec_error)?;
                (from_value(py, &value)?, used)
            }
        };
        match trailing {
            Trailing::Sized => {
                Ok(PyTuple::new(py, [value, used.into_pyobject(py)?.into_any()])?.into_any())
            }
            Trailing::Refused => match b.get(offset + used..).filter(|rest| !rest.is_empty()) {
                None => Ok(value),
                Some(extra) => Err(errors::extra_data(b, offset, opts, value, extra)),
            },
        }
    })
}

/// ``value`` encoded as ``var_to_bytes`` does (``var_to_bytes_with_objects`` with
/// ``full_objects=True``), in ``dialect`` (see ``DIALECTS``) and ``precision`` ("single" or
/// "double", a ``precision=double`` build's layout). ``allow_lossy`` writes a value the dialect
/// has no type for as the engine would convert it instead of raising :class:`EncodeError`
/// (a StringName needs none in Godot 3: its exact form there is a String).
///
/// Raises :class:`EncodeError` with the path inside ``value`` for a value with no Godot type,
/// an int outside 64 bits, a type the dialect lacks without ``allow_lossy``, an
/// :class:`Object` without ``full_objects`` (the engine writes an object as its id:
/// :class:`EncodedObjectAsID`), a text holding U+0000 (every engine reads a String only up to
/// it) or a lone surrogate (no UTF-8 form); a bad option is a ``ValueError``.
/// :meth:`Codec.encode` is the same with the options held once.
#[pyfunction]
#[pyo3(
    signature = (value, *, dialect="godot4", precision="single", full_objects=false, allow_lossy=false),
    text_signature = "(value, *, dialect='godot4', precision='single', full_objects=False, allow_lossy=False)"
)]
fn encode<'py>(
    value: &Bound<'py, PyAny>,
    dialect: &str,
    precision: &str,
    full_objects: bool,
    allow_lossy: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    if (dialect, precision, full_objects, allow_lossy) == ("godot4", "single", false, false) {
        if let Some(opts) = defaults().0.as_ref() {
            return encode_with(value, opts);
        }
    }
    let opts = encode_options(dialect, precision, full_objects, allow_lossy)?;
    encode_with(value, &opts)
}

/// ``value`` as ``StreamPeer.put_var`` sends it: a u32 length (big-endian with
/// ``big_endian``, as ``StreamPeer.big_endian``), then :func:`encode`'s bytes. Raises
/// :class:`EncodeError` as :func:`encode`.
#[pyfunction]
#[pyo3(
    signature = (value, *, dialect="godot4", precision="single", full_objects=false, allow_lossy=false, big_endian=false),
    text_signature = "(value, *, dialect='godot4', precision='single', full_objects=False, allow_lossy=False, big_endian=False)"
)]
fn encode_framed<'py>(
    value: &Bound<'py, PyAny>,
    dialect: &str,
    precision: &str,
    full_objects: bool,
    allow_lossy: bool,
    big_endian: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let opts = encode_options(dialect, precision, full_objects, allow_lossy)?;
    encode_framed_with(value, &opts, big_endian)
}

/// The module's `decode` and `decode_with_size`: one keyword list, two answers for the bytes
/// after the value (`Trailing`).
macro_rules! decode_function {
    ($(#[doc = $doc:literal])* $name:ident, $trailing:expr) => {
        $(#[doc = $doc])*
        #[pyfunction]
        #[pyo3(
            signature = (data, *, offset=None, dialect="godot4", precision="single", max_depth=None, max_elements=None, max_bytes=None, allow_objects=false, allowed_classes=None, refuse_dropped_elements=false),
            text_signature = "(data, *, offset=0, dialect='godot4', precision='single', max_depth=None, max_elements=None, max_bytes=None, allow_objects=False, allowed_classes=None, refuse_dropped_elements=False)"
        )]
        #[allow(clippy::too_many_arguments)]
        fn $name<'py>(
            py: Python<'py>,
            data: &Bound<'py, PyAny>,
            offset: Option<&Bound<'py, PyAny>>,
            dialect: &str,
            precision: &str,
            max_depth: Option<&Bound<'py, PyAny>>,
            max_elements: Option<&Bound<'py, PyAny>>,
            max_bytes: Option<&Bound<'py, PyAny>>,
            allow_objects: bool,
            allowed_classes: Option<&Bound<'py, PyAny>>,
            refuse_dropped_elements: bool,
        ) -> PyResult<Bound<'py, PyAny>> {
            let args = DecodeArgs {
                dialect,
                precision,
                max_depth,
                max_elements,
                max_bytes,
                allow_objects,
                allowed_classes,
                refuse_dropped_elements,
            };
            args.decode(py, data, offset, $trailing)
        }
    };
}

decode_function!(
    /// The value at ``offset`` of ``data`` (its start by default), as ``bytes_to_var`` reads it,
    /// where it takes the rest of ``data`` whole; ``data`` is any bytes-like object (a ``str`` is a
    /// ``TypeError``). ``precision`` is the reading engine's: "single" narrows binary64 reals (from
    /// a double build) to binary32 as a standard build does, "double" keeps them.
    ///
    /// Limits for untrusted input: ``max_depth`` nesting (at most 1024, the default),
    /// ``max_elements`` container elements in all, ``max_bytes`` of strings and packed arrays;
    /// None is no limit, a negative number a ``ValueError``.
    /// Full objects only with ``allow_objects``; then ``allowed_classes``, when given, lists the
    /// class names and ``res://`` script paths admitted (an empty one admits none; None admits
    /// every class, for trusted input only). With ``refuse_dropped_elements``, an element of a
    /// typed Array or Dictionary that the engine would drop on decode raises instead.
    ///
    /// Raises :class:`DecodeError` with ``offset``, counted from the start of ``data``, for bytes
    /// that do not decode, a limit passed or an object not allowed; :class:`ExtraData` (a
    /// :class:`DecodeError` holding the value) when bytes follow the value, as msgpack's
    /// ``unpackb`` does: :func:`decode_with_size` reads a value that bytes follow.
    /// :meth:`Codec.decode` is the same with the options held once.
    decode,
    Trailing::Refused
);

decode_function!(
    /// The value at ``offset`` of ``data`` and the bytes it used, ``(value, size)``, as
    /// ``bytes_to_var`` and ``decode_var_size`` read them: bytes after the value are ignored
    /// (``data[offset + size:]`` is what follows it; ``size`` never passes the end of ``data``).
    /// The options and errors are :func:`decode`'s, but for :class:`ExtraData`.
    /// :meth:`Codec.decode_with_size` is the same with the options held once.
    decode_with_size,
    Trailing::Sized
);

/// The value of a text in Godot's text format, as ``str_to_var`` reads it (also ConfigFile
/// values and ``.tres`` properties; Godot 3's spellings too), but never making or loading an
/// object: ``Object(...)``, ``Resource(...)``, ``ExtResource(...)`` and ``SubResource(...)`` are
/// refused unless ``allow_objects`` (and ``allowed_classes``, when given) admits their class,
/// and even then they are data (an :class:`Object`; a ``script`` stays a ``res://`` path). The
/// limits and object options are :func:`decode`'s. Raises :class:`DecodeError` for text that
/// is not Godot's (``offset`` is the byte where it went wrong; the message has the line and
/// column), an object not allowed or a limit passed.
#[pyfunction]
#[pyo3(
    signature = (text, *, precision="single", max_depth=None, max_elements=None, max_bytes=None, allow_objects=false, allowed_classes=None, refuse_dropped_elements=false),
    text_signature = "(text, *, precision='single', max_depth=None, max_elements=None, max_bytes=None, allow_objects=False, allowed_classes=None, refuse_dropped_elements=False)"
)]
#[allow(clippy::too_many_arguments)]
fn str_to_var<'py>(
    py: Python<'py>,
    text: &str,
    precision: &str,
    max_depth: Option<&Bound<'py, PyAny>>,
    max_elements: Option<&Bound<'py, PyAny>>,
    max_bytes: Option<&Bound<'py, PyAny>>,
    allow_objects: bool,
    allowed_classes: Option<&Bound<'py, PyAny>>,
    refuse_dropped_elements: bool,
) -> PyResult<Bound<'py, PyAny>> {
    // The text's own dialect is told by its spellings; the options give the limits and objects.
    let opts = DecodeArgs {
        dialect: "godot4",
        precision,
        max_depth,
        max_elements,
        max_bytes,
        allow_objects,
        allowed_classes,
        refuse_dropped_elements,
    }
    .options()?;
    let value = Value::from_godot_text(text, &opts).map_err(codec_error)?;
    from_value(py, &value)
}

/// ``value`` as Godot's ``var_to_str`` writes it: Godot 4's text by default (``"godot4"`` and
/// the other Godot 4 dialects), Godot 3's ``var2str`` with ``dialect="godot3"``.
/// :func:`str_to_var` reads both back.
#[pyfunction]
#[pyo3(signature = (value, *, dialect="godot4"))]
fn var_to_str(value: &Bound<'_, PyAny>, dialect: &str) -> PyResult<String> {
    let dialect = dialect
        .parse::<Dialect>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_value(value)?.to_godot_text(dialect).ok_or_else(|| {
        PyValueError::new_err(format!(
            "var_to_str writes Godot 4's or Godot 3's text, not {}'s",
            dialect.short_name()
        ))
    })
}

/// The sections of a Godot ``ConfigFile``, as ``ConfigFile.load`` (``data`` bytes-like: the
/// file) or ``ConfigFile.parse`` (``data`` a ``str``: its text) reads them: a dict of section
/// name to a dict of key to value, in the file's order (the keys before any ``[section]`` are
/// section ``""``). An encrypted file, in Godot 4's container or Godot 3's, opens with the
/// ``password`` it was saved with (``save_encrypted_pass``) or its 32-byte ``key``
/// (``save_encrypted``); a plain file needs neither. ``dialect`` is the engine whose text it is:
/// Godot 3's ends a section's name at its first ``]``. The values are :func:`str_to_var`'s,
/// and as there no object is made or loaded: ``Object(...)`` and ``Resource(...)`` are refused
/// unless ``allow_objects`` (and ``allowed_classes``, when given) admits them, and then are
/// data. The limits and object options are :func:`decode`'s, for the whole file.
///
/// Raises :class:`SaveFileError` for an encrypted file without a password or key
/// (``ERR_UNAUTHORIZED``), with a wrong one or damaged (``ERR_FILE_CORRUPT``);
/// :class:`DecodeError` for text that is not a ConfigFile or not UTF-8 (``offset`` is the
/// byte where it went wrong; the message has the line and column), an object not allowed or a
/// limit passed; ``TypeError`` for ``data`` neither ``str`` nor bytes-like.
#[pyfunction]
#[pyo3(
    signature = (data, *, dialect="godot4", password=None, key=None, precision="single", max_depth=None, max_elements=None, max_bytes=None, allow_objects=false, allowed_classes=None, refuse_dropped_elements=false),
    text_signature = "(data, *, dialect='godot4', password=None, key=None, precision='single', max_depth=None, max_elements=None, max_bytes=None, allow_objects=False, allowed_classes=None, refuse_dropped_elements=False)"
)]
#[allow(clippy::too_many_arguments)]
fn read_config_file<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    dialect: &str,
    password: Option<&str>,
    key: Option<&Bound<'py, PyAny>>,
    precision: &str,
    max_depth: Option<&Bound<'py, PyAny>>,
    max_elements: Option<&Bound<'py, PyAny>>,
    max_bytes: Option<&Bound<'py, PyAny>>,
    allow_objects: bool,
    allowed_classes: Option<&Bound<'py, PyAny>>,
    refuse_dropped_elements: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let opts = DecodeArgs {
        dialect,
        precision,
        max_depth,
        max_elements,
        max_bytes,
        allow_objects,
        allowed_classes,
        refuse_dropped_elements,
    }
    .options()?;
    let key = file_key(password, key)?;
    let cfg = if let Ok(text) = data.cast::<PyString>() {
        let text = text.to_cow()?;
        unlocked(py, text.len(), || ConfigFile::parse(&text, &opts)).map_err(codec_error)?
    } else {
        with_bytes(
            "data, when not a str (a ConfigFile's text),",
            data,
            |file| {
                unlocked(py, file.len(), || {
                    ConfigFile::from_file(file, key.as_ref(), &opts)
                })
                .map_err(config_file_error)
            },
        )?
    };
    from_value(py, &cfg.to_value())
}

/// The file ``ConfigFile.save`` writes for ``sections`` (a dict of section name to a dict of
/// key to value, as :func:`read_config_file` gives it), in the engine of ``dialect``
/// (``"godot4"`` and the other Godot 4 dialects, or ``"godot3"``); with a ``password`` or
/// 32-byte ``key``, the file ``save_encrypted_pass`` / ``save_encrypted`` writes (Godot 4's
/// container with a random IV, or Godot 3's). Keys and sections keep their order, but for the
/// section ``""`` (the keys before any ``[section]``), which Godot 4 writes first, without a
/// header, and Godot 3 in its place, as ``[]``: as the engines write them.
///
/// Raises ``ValueError`` for ``sections`` that are not a dict of dicts keyed by ``str``, or a
/// None value (a ConfigFile cannot hold null: setting one erases the key), a dialect whose
/// text is not written (Pandemonium's) or a bad option; :class:`EncodeError` with its path
/// for a value with no Godot type (as :func:`var_to_str`).
#[pyfunction]
#[pyo3(
    signature = (sections, *, dialect="godot4", password=None, key=None),
    text_signature = "(sections, *, dialect='godot4', password=None, key=None)"
)]
fn write_config_file<'py>(
    py: Python<'py>,
    sections: &Bound<'py, PyAny>,
    dialect: &str,
    password: Option<&str>,
    key: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let dialect = self::dialect(dialect)?;
    let key = file_key(password, key)?;
    let cfg = ConfigFile::from_value(&to_value(sections)?).map_err(config_file_error)?;
    let file = cfg
        .to_file(dialect, key.as_ref())
        .map_err(config_file_error)?;
    Ok(PyBytes::new(py, &file))
}

/// The sections of a Godot text resource (``.tres``, what ``ResourceSaver.save`` writes), as the
/// engine's loader reads its tags and properties, but never loading or making anything: a list
/// of dicts ``{"tag": str, "attributes": {...}, "properties": {...}}`` in the file's order, the
/// header (``gd_resource``) first, then the ``ext_resource`` entries (files it refers to), the
/// ``sub_resource`` entries (resources inside it) and the ``resource`` itself. A reference to an
/// entry, ``ExtResource("1_ab")`` or ``SubResource("Resource_x")``, is an :class:`Object` of
/// class ``"ExtResource"`` or ``"SubResource"`` whose one property is its ``id``; a typed
/// container of a script the file refers to keeps its type as written
/// (``Array[ExtResource("1_ab")]``). ``data`` is the text (``str``) or its bytes (UTF-8). The
/// values are :func:`str_to_var`'s: an inline ``Object(...)`` is refused unless
/// ``allow_objects`` (and ``allowed_classes``, when given) admits it, and then is data. The
/// limits are :func:`decode`'s, for the whole file.
///
/// Raises :class:`DecodeError` for text that is not a text resource or not UTF-8 (``offset``
/// is the byte where it went wrong; the message has the line and column), an object not
/// allowed or a limit passed; ``TypeError`` for ``data`` neither ``str`` nor bytes-like.
#[pyfunction]
#[pyo3(
    signature = (data, *, precision="single", max_depth=None, max_elements=None, max_bytes=None, allow_objects=false, allowed_classes=None, refuse_dropped_elements=false),
    text_signature = "(data, *, precision='single', max_depth=None, max_elements=None, max_bytes=None, allow_objects=False, allowed_classes=None, refuse_dropped_elements=False)"
)]
#[allow(clippy::too_many_arguments)]
fn read_text_resource<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    precision: &str,
    max_depth: Option<&Bound<'py, PyAny>>,
    max_elements: Option<&Bound<'py, PyAny>>,
    max_bytes: Option<&Bound<'py, PyAny>>,
    allow_objects: bool,
    allowed_classes: Option<&Bound<'py, PyAny>>,
    refuse_dropped_elements: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let opts = DecodeArgs {
        dialect: "godot4",
        precision,
        max_depth,
        max_elements,
        max_bytes,
        allow_objects,
        allowed_classes,
        refuse_dropped_elements,
    }
    .options()?;
    let res = if let Ok(text) = data.cast::<PyString>() {
        let text = text.to_cow()?;
        unlocked(py, text.len(), || TextResource::parse(&text, &opts)).map_err(codec_error)?
    } else {
        with_bytes(
            "data, when not a str (a text resource's text),",
            data,
            |file| {
                unlocked(py, file.len(), || TextResource::from_bytes(file, &opts))
                    .map_err(codec_error)
            },
        )?
    };
    from_value(py, &res.to_value())
}

/// The text of a Godot text resource (``.tres``) for ``sections`` (a list of section dicts, as
/// :func:`read_text_resource` gives them), as Godot writes it: each tag on its line, its
/// properties as ``name = value`` after it, values as ``var_to_str`` writes them (Godot 3's
/// ``var2str`` for a header of ``format`` 2 or less); the file :func:`read_text_resource` read,
/// byte for byte, when nothing was changed, and an edited value as the engine writes it.
///
/// Raises ``ValueError`` for ``sections`` that are not a list of dicts with a ``str`` ``"tag"``
/// (the first ``"gd_resource"`` or ``"gd_scene"``) and dicts keyed by ``str`` as
/// ``"attributes"`` and ``"properties"``; :class:`EncodeError` with its path for a value with no
/// Godot type (as :func:`var_to_str`).
#[pyfunction]
#[pyo3(signature = (sections), text_signature = "(sections)")]
fn write_text_resource(sections: &Bound<'_, PyAny>) -> PyResult<String> {
    let res = TextResource::from_value(&to_value(sections)?)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(res.to_text())
}

/// A JSON save, as a game writes one with ``store_string(JSON.stringify(data))`` (Godot 3:
/// ``JSON.print``), read as the engine's ``JSON.parse`` reads it, but for a number written
/// without a fraction or exponent, which stays an ``int``: a dict ``{"value": ..., "style":
/// {"dialect", "indent", "sort_keys", "full_precision"}, "engine_text": bool}``, the style the
/// text was written in (:func:`write_json_save`'s keywords) and whether that style writes the
/// text read exactly (an engine wrote it). ``data`` is the text (``str``) or the file's bytes:
/// the text, or its encrypted container (``open_encrypted_with_pass`` with ``password``,
/// ``open_encrypted`` with a 32-byte ``key``; Godot 4's or Godot 3's). ``dialect="godot3"``
/// reads Godot 3's escapes. The limits are :func:`decode`'s.
///
/// Raises :class:`SaveFileError` for an encrypted file without a password or key, with a wrong
/// one or damaged; :class:`DecodeError` for text that is not JSON or not UTF-8 (``offset`` is
/// the byte where it went wrong; the message has the line and column) or a limit passed;
/// ``TypeError`` for ``data`` neither ``str`` nor bytes-like.
#[pyfunction]
#[pyo3(
    signature = (data, *, dialect="godot4", password=None, key=None, max_depth=None, max_elements=None, max_bytes=None),
    text_signature = "(data, *, dialect='godot4', password=None, key=None, max_depth=None, max_elements=None, max_bytes=None)"
)]
#[allow(clippy::too_many_arguments)]
fn read_json_save<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    dialect: &str,
    password: Option<&str>,
    key: Option<&Bound<'py, PyAny>>,
    max_depth: Option<&Bound<'py, PyAny>>,
    max_elements: Option<&Bound<'py, PyAny>>,
    max_bytes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let opts = DecodeArgs {
        dialect,
        precision: "single",
        max_depth,
        max_elements,
        max_bytes,
        allow_objects: false,
        allowed_classes: None,
        refuse_dropped_elements: false,
    }
    .options()?;
    let key = file_key(password, key)?;
    let save = if let Ok(text) = data.cast::<PyString>() {
        if key.is_some() {
            return Err(PyTypeError::new_err(
                "a password or a key opens a file's bytes, not a text (a str)",
            ));
        }
        let text = text.to_cow()?;
        unlocked(py, text.len(), || JsonSave::parse(&text, &opts)).map_err(codec_error)?
    } else {
        with_bytes("data, when not a str (a JSON save's text),", data, |file| {
            unlocked(py, file.len(), || {
                JsonSave::from_file(file, key.as_ref(), &opts)
            })
            .map_err(json_file_error)
        })?
    };
    let style = save.style().clone();
    let out = Value::from_iter([
        ("value", save.value().clone()),
        (
            "style",
            Value::from_iter([
                ("dialect", Value::from(style.dialect.short_name())),
                ("indent", Value::from(style.indent)),
                ("sort_keys", Value::Bool(style.sort_keys)),
                ("full_precision", Value::Bool(style.full_precision)),
            ]),
        ),
        ("engine_text", Value::Bool(save.is_engine_text())),
    ]);
    from_value(py, &out)
}

/// The file of a JSON save of ``value`` (JSON's values: ``None``, ``bool``, ``int``,
/// ``float``, ``str``, lists and dicts keyed by ``str``), as the engine of ``dialect`` writes
/// it: ``JSON.stringify(value, indent, sort_keys, full_precision)`` in Godot 4,
/// ``JSON.print(value, indent, sort_keys)`` in Godot 3 (``sort_keys`` ``None``: the engine's
/// default, sorted in Godot 4, not in Godot 3); with a ``password`` or 32-byte ``key``, in
/// that engine's encrypted container. :func:`read_json_save`'s ``style`` gives the keywords
/// that write a save as it was written.
///
/// Raises :class:`EncodeError` for a value the engine would write as another (a
/// :class:`Vector2` becomes a str, NaN ``null``, a key that is not a ``str``), naming its place
/// (``$.player.pos``); ``ValueError`` for a bad option.
#[pyfunction]
#[pyo3(
    signature = (value, *, dialect="godot4", indent="", sort_keys=None, full_precision=false, password=None, key=None),
    text_signature = "(value, *, dialect='godot4', indent='', sort_keys=None, full_precision=False, password=None, key=None)"
)]
#[allow(clippy::too_many_arguments)]
fn write_json_save<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    dialect: &str,
    indent: &str,
    sort_keys: Option<bool>,
    full_precision: bool,
    password: Option<&str>,
    key: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let dialect = self::dialect(dialect)?;
    let key = file_key(password, key)?;
    let mut style = JsonStyle::new(dialect)
        .with_indent(indent)
        .with_full_precision(full_precision);
    if let Some(sorted) = sort_keys {
        style = style.with_sort_keys(sorted);
    }
    let file = JsonSave::new(to_value(value)?, style)
        .to_file(key.as_ref())
        .map_err(json_file_error)?;
    Ok(PyBytes::new(py, &file))
}

/// The decoding keywords of the module's `decode` and `decode_with_size`.
struct DecodeArgs<'a, 'py> {
    dialect: &'a str,
    precision: &'a str,
    max_depth: Option<&'a Bound<'py, PyAny>>,
    max_elements: Option<&'a Bound<'py, PyAny>>,
    max_bytes: Option<&'a Bound<'py, PyAny>>,
    allow_objects: bool,
    allowed_classes: Option<&'a Bound<'py, PyAny>>,
    refuse_dropped_elements: bool,
}

impl<'py> DecodeArgs<'_, 'py> {
    /// Decodes with these options: the defaults' options made once, any others per call.
    fn decode(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        offset: Option<&Bound<'py, PyAny>>,
        trailing: Trailing,
    ) -> PyResult<Bound<'py, PyAny>> {
        let unset = |v: Option<&Bound<'py, PyAny>>| v.is_none_or(|v| v.is_none());
        if (
            self.dialect,
            self.precision,
            self.allow_objects,
            self.refuse_dropped_elements,
        ) == ("godot4", "single", false, false)
            && unset(self.max_depth)
            && unset(self.max_elements)
            && unset(self.max_bytes)
            && unset(self.allowed_classes)
        {
            if let Some(opts) = defaults().1.as_ref() {
                return decode_with_options(py, data, offset, opts, trailing);
            }
        }
        decode_with_options(py, data, offset, &self.options()?, trailing)
    }

    /// The core's options these keywords ask for.
    fn options(&self) -> PyResult<Options> {
        DecodeSettings::from_args(
            self.precision,
            self.max_depth,
            self.max_elements,
            self.max_bytes,
            self.allow_objects,
            self.allowed_classes,
            self.refuse_dropped_elements,
        )?
        .options(self.dialect)
    }
}

/// The parts of a NodePath's text, as the core parses it: (names, subnames, absolute).
#[pyfunction]
fn _parse_node_path(text: &str) -> (Vec<String>, Vec<String>, bool) {
    let p = NodePath::from(text);
    (p.names, p.subnames, p.absolute)
}

/// Checks an element type's name as encoding will read it (`ContainerType::from_name`); a
/// `ValueError` that names the Godot type meant, for one that is no type.
#[pyfunction]
fn _check_type_name(name: &str) -> PyResult<()> {
    fast_var_codec_core::value::ContainerType::from_name(name)
        .map(|_| ())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The Godot 3 key of a password or a 32-byte key (neither: None; both: an error).
fn file_key(password: Option<&str>, key: Option<&Bound<'_, PyAny>>) -> PyResult<Option<FileKey>> {
    match (password, key) {
        (Some(_), Some(_)) => Err(PyValueError::new_err("give a password or a key, not both")),
        (Some(p), None) => Ok(Some(FileKey::from_password(p))),
        (None, Some(k)) => with_bytes("key", k, |b| {
            FileKey::from_slice(b).map(Some).map_err(file_error)
        }),
        (None, None) => Ok(None),
    }
}

/// The values of a file of `store_var` records (plain, compressed, or encrypted with the password
/// or key), in order; the dialect `"auto"` takes the first that reads every record whole (the
/// core's rule). Returns the dialect's name and the values.
#[pyfunction]
#[pyo3(signature = (data, *, dialect="auto", precision="single", password=None, key=None, max_depth=None, max_elements=None, max_bytes=None, allow_objects=false, allowed_classes=None, max_payload=None, refuse_dropped_elements=false))]
#[allow(clippy::too_many_arguments)]
fn _read_records<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    dialect: &str,
    precision: &str,
    password: Option<&str>,
    key: Option<&Bound<'py, PyAny>>,
    max_depth: Option<&Bound<'py, PyAny>>,
    max_elements: Option<&Bound<'py, PyAny>>,
    max_bytes: Option<&Bound<'py, PyAny>>,
    allow_objects: bool,
    allowed_classes: Option<&Bound<'py, PyAny>>,
    max_payload: Option<&Bound<'py, PyAny>>,
    refuse_dropped_elements: bool,
) -> PyResult<(&'static str, Bound<'py, PyList>)> {
    let settings = DecodeSettings::from_args(
        precision,
        max_depth,
        max_elements,
        max_bytes,
        allow_objects,
        allowed_classes,
        refuse_dropped_elements,
    )?;
    let named = match dialect {
        "auto" => None,
        name => Some(self::dialect(name)?),
    };
    let opts = settings.options(named.map_or("godot4", Dialect::short_name))?;
    let key = file_key(password, key)?;
    let open_opts = OpenOptions::new()
        .with_key(key.as_ref())
        .with_max_payload(limit_or_unlimited("max_payload", max_payload)?);
    let (found, values) = with_bytes("data", data, |file| {
        unlocked(py, file.len(), || {
            let opened = open(file, named, &open_opts, decompress_block).map_err(file_error)?;
            decode_records(&opened.payload, named, &opts).map_err(record_error)
        })
    })?;
    let list = PyList::empty(py);
    for v in &values {
        list.append(from_value(py, v)?)?;
    }
    Ok((found.short_name(), list))
}

/// The compression of a name (`"zstd"`, any case), for `compression=`.
fn compression(name: Option<&str>) -> PyResult<Option<Compression>> {
    name.map(|n| {
        Compression::from_name(n).ok_or_else(|| {
            let names: Vec<String> = Compression::ALL
                .iter()
                .map(|c| format!("'{}'", c.name().to_lowercase()))
                .collect();
            PyValueError::new_err(format!(
                "unknown compression '{n}': one of {}",
                names.join(", ")
            ))
        })
    })
    .transpose()
}

/// The compression of a name that must be given, for `compress` and `decompress`.
fn packet_compression(name: &str) -> PyResult<Compression> {
    compression(Some(name))?.ok_or_else(|| PyValueError::new_err("a compression is needed"))
}

/// ``data`` compressed as Godot's ``PackedByteArray.compress(mode)`` does, ``compression`` one
/// of "fastlz", "deflate", "zstd", "gzip": a packet the engine's ``decompress`` and
/// ``decompress_dynamic`` read, as games send values
/// (``compress(encode(value), "zstd")``). Not always the engine's bytes: other compressors
/// than its own.
#[pyfunction]
#[pyo3(signature = (data, compression))]
fn compress<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    compression: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let mode = packet_compression(compression)?;
    let packet = with_bytes("data", data, |b| {
        unlocked(py, b.len(), || save::compress(b, mode)).map_err(codec_error)
    })?;
    Ok(PyBytes::new(py, &packet))
}

/// The bytes of a packet made by ``compress`` or the engine's ``PackedByteArray.compress``, at
/// most ``max_size`` of them, as ``decompress_dynamic(max_size, mode)`` gives them but in every
/// mode. A FastLZ packet of fewer than 16 bytes gives 16, the rest zeros, as the engine's does:
/// :func:`decode_compressed` reads the value past them. Raises :class:`DecodeError` for a
/// packet that does not decompress, or that holds more than ``max_size`` bytes (nothing past
/// them is made).
#[pyfunction]
#[pyo3(signature = (data, compression, *, max_size))]
fn decompress<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    compression: &str,
    max_size: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let mode = packet_compression(compression)?;
    let bytes = with_bytes("data", data, |b| {
        unlocked(py, b.len(), || save::decompress(b, mode, max_size)).map_err(codec_error)
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// The value of a packet ``compress(encode(value), compression)`` made (or a game's
/// ``var_to_bytes(value).compress(mode)``): decompressed to at most ``max_size`` bytes, then
/// decoded as :func:`decode` decodes, with its options. The value must fill the packet (FastLZ's
/// padding aside). Raises :class:`DecodeError` as :func:`decompress` and :func:`decode` (its
/// ``offset`` counted in the decompressed bytes).
#[pyfunction]
#[pyo3(
    signature = (data, compression, *, max_size, dialect="godot4", precision="single", max_depth=None, max_elements=None, max_bytes=None, allow_objects=false, allowed_classes=None, refuse_dropped_elements=false),
    text_signature = "(data, compression, *, max_size, dialect='godot4', precision='single', max_depth=None, max_elements=None, max_bytes=None, allow_objects=False, allowed_classes=None, refuse_dropped_elements=False)"
)]
#[allow(clippy::too_many_arguments)]
fn decode_compressed<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    compression: &str,
    max_size: usize,
    dialect: &str,
    precision: &str,
    max_depth: Option<&Bound<'py, PyAny>>,
    max_elements: Option<&Bound<'py, PyAny>>,
    max_bytes: Option<&Bound<'py, PyAny>>,
    allow_objects: bool,
    allowed_classes: Option<&Bound<'py, PyAny>>,
    refuse_dropped_elements: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mode = packet_compression(compression)?;
    let opts = DecodeArgs {
        dialect,
        precision,
        max_depth,
        max_elements,
        max_bytes,
        allow_objects,
        allowed_classes,
        refuse_dropped_elements,
    }
    .options()?;
    let value = with_bytes("data", data, |b| {
        unlocked(py, b.len(), || {
            save::decode_compressed(b, mode, max_size, &opts)
        })
        .map_err(codec_error)
    })?;
    from_value(py, &value)
}

/// `values` as `store_var` records, one after the other; encrypted with the password or key when
/// one is given (the dialect's engine's container; for Godot 4's, `iv`, or a random one when
/// none is given), or
/// compressed as `open_compressed` writes it.
#[pyfunction]
#[pyo3(signature = (values, *, dialect="godot4", precision="single", full_objects=false, allow_lossy=false, password=None, key=None, compression=None, iv=None))]
#[allow(clippy::too_many_arguments)]
fn _write_records<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    dialect: &str,
    precision: &str,
    full_objects: bool,
    allow_lossy: bool,
    password: Option<&str>,
    key: Option<&Bound<'py, PyAny>>,
    compression: Option<&str>,
    iv: Option<[u8; 16]>,
) -> PyResult<Bound<'py, PyBytes>> {
    let opts = encode_options(dialect, precision, full_objects, allow_lossy)?;
    let key = file_key(password, key)?;
    let compression = self::compression(compression)?;
    // Without an iv, Godot 4's container gets a random one, drawn by the core.
    let container = StoreOptions::new()
        .with_compression(compression)
        .with_key(key.as_ref())
        .with_iv(iv);
    let mut out = bytes::BytesMut::new();
    for (index, item) in values.try_iter()?.enumerate() {
        let in_record = |e: PyErr| errors::in_record(py, e, index);
        to_wire::frame_into(&item?, &opts, ByteOrder::Little, &mut out).map_err(in_record)?;
    }
    let file = unlocked(py, out.len(), || {
        store(&out, opts.dialect, &container, compress_block)
    })
    .map_err(file_error)?;
    Ok(PyBytes::new(py, &file))
}

/// Inputs from this size on are decoded with the interpreter's lock released, so that other
/// Python threads run meanwhile; below it, releasing costs more than it gives.
const UNLOCKED_FROM: usize = 64 * 1024;

/// `work` on `len` bytes, without the interpreter's lock when the input is large.
fn unlocked<T: Send>(py: Python<'_>, len: usize, work: impl FnOnce() -> T + Send) -> T {
    if len >= UNLOCKED_FROM {
        py.detach(work)
    } else {
        work()
    }
}

/// Values from a byte stream fed in pieces as they arrive (a socket, an asyncio protocol): each
/// a u32 length then the encoding, as `StreamPeer.put_var` sends them. With the dialect
/// `"auto"`, the dialect is the one the peer's messages tell (the core's `DialectDetector`).
#[pyclass(module = "fast_var_codec", subclass)]
struct StreamDecoder {
    reader: StreamReader,
}

impl StreamDecoder {
    /// The next complete value, `None` until one has arrived.
    fn take(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        match self.reader.next_value().map_err(codec_error)? {
            Some(v) => Ok(Some(from_value(py, &v)?.unbind())),
            None => Ok(None),
        }
    }
}

#[pymethods]
impl StreamDecoder {
    #[new]
    #[pyo3(signature = (*, dialect="godot4", precision="single", max_message=None, big_endian=false, max_depth=None, max_elements=None, max_bytes=None, allow_objects=false, allowed_classes=None, refuse_dropped_elements=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        dialect: &str,
        precision: &str,
        max_message: Option<&Bound<'_, PyAny>>,
        big_endian: bool,
        max_depth: Option<&Bound<'_, PyAny>>,
        max_elements: Option<&Bound<'_, PyAny>>,
        max_bytes: Option<&Bound<'_, PyAny>>,
        allow_objects: bool,
        allowed_classes: Option<&Bound<'_, PyAny>>,
        refuse_dropped_elements: bool,
    ) -> PyResult<Self> {
        let max_message = limit_or_unlimited("max_message", max_message)?;
        let settings = DecodeSettings::from_args(
            precision,
            max_depth,
            max_elements,
            max_bytes,
            allow_objects,
            allowed_classes,
            refuse_dropped_elements,
        )?;
        let detecting = dialect == "auto";
        let opts = settings.options(if detecting { "godot4" } else { dialect })?;
        let reader = if detecting {
            StreamReader::detecting(opts)
        } else {
            StreamReader::new(opts)
        };
        Ok(StreamDecoder {
            reader: reader
                .with_byte_order(ByteOrder::from_big_endian(big_endian))
                .with_max_message(max_message),
        })
    }

    /// Adds received bytes (any bytes-like object).
    fn feed(&mut self, data: &Bound<'_, PyAny>) -> PyResult<()> {
        with_bytes("data", data, |b| self.reader.feed(b).map_err(codec_error))
    }

    /// The next complete value (None for a Godot null); raises OutOfData until one has arrived.
    /// A message that does not decode raises DecodeError with its offset in the stream, and the
    /// stream goes on; one whose value leaves bytes of it unread (another dialect's) raises
    /// DecodeError naming the dialect that reads it whole; a length above max_message raises
    /// DecodeError (ERR_OUT_OF_MEMORY) and breaks the stream until reset().
    fn next_value(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.take(py)? {
            Some(v) => Ok(v),
            None => Err(errors::out_of_data(py, self.reader.buffered())),
        }
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        self.take(py)
    }

    /// Bytes received but not yet taken as values.
    #[getter]
    fn buffered(&self) -> usize {
        self.reader.buffered()
    }

    /// The largest message accepted, in bytes (no limit: the machine's largest size).
    #[getter]
    fn max_message(&self) -> usize {
        self.reader.max_message()
    }

    /// True once a message above max_message was announced: the stream cannot go on.
    #[getter]
    fn broken(&self) -> bool {
        self.reader.broken().is_some()
    }

    /// The dialect values are read in: the one given, or with "auto" the one the messages
    /// so far tell ("godot4" until they tell otherwise; a message engines read differently waits
    /// until then).
    #[getter]
    fn dialect(&self) -> &'static str {
        self.reader.dialect().short_name()
    }

    /// True when the dialect is known: always, but with "auto" only once the messages leave
    /// one engine family (Godot 4, Godot 3 or Pandemonium).
    #[getter]
    fn dialect_settled(&self) -> bool {
        self.reader.is_settled()
    }

    /// Forgets buffered bytes and a broken state (after reconnecting); with "auto", the
    /// dialect detected too.
    fn reset(&mut self) {
        self.reader.reset();
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(encode_framed, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(decode_with_size, m)?)?;
    m.add_function(wrap_pyfunction!(str_to_var, m)?)?;
    m.add_function(wrap_pyfunction!(var_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(compress, m)?)?;
    m.add_function(wrap_pyfunction!(decompress, m)?)?;
    m.add_function(wrap_pyfunction!(decode_compressed, m)?)?;
    m.add_function(wrap_pyfunction!(read_config_file, m)?)?;
    m.add_function(wrap_pyfunction!(write_config_file, m)?)?;
    m.add_function(wrap_pyfunction!(read_text_resource, m)?)?;
    m.add_function(wrap_pyfunction!(read_json_save, m)?)?;
    m.add_function(wrap_pyfunction!(write_json_save, m)?)?;
    m.add_function(wrap_pyfunction!(write_text_resource, m)?)?;
    m.add_function(wrap_pyfunction!(_parse_node_path, m)?)?;
    m.add_function(wrap_pyfunction!(_check_type_name, m)?)?;
    m.add_function(wrap_pyfunction!(_read_records, m)?)?;
    m.add_function(wrap_pyfunction!(_write_records, m)?)?;
    m.add_class::<StreamDecoder>()?;
    m.add_class::<codec::NativeCodec>()?;
    // Every dialect's name, in the core's order: what `dialect=` takes.
    let dialects: Vec<&str> = Dialect::ALL.iter().map(|d| d.short_name()).collect();
    m.add("DIALECTS", PyTuple::new(m.py(), dialects)?)?;
    // The defaults the Python layer passes: None is no limit there.
    m.add("DEFAULT_MAX_PAYLOAD", DEFAULT_MAX_PAYLOAD)?;
    m.add("DEFAULT_MAX_MESSAGE", DEFAULT_MAX_MESSAGE)?;
    // The one version of the project (the workspace's), as pip reports it.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
