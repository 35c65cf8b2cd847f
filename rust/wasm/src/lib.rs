//! The npm package's WebAssembly (`fast-var-codec`): the core under a few functions that take
//! and return byte buffers. It only translates: values cross as a tape (`tape`, read and written
//! by `js/tape.js`), settings as the core's `Options`, errors as a short text the JavaScript
//! layer (`js/`) turns into its error classes; every rule of the format is the core's.
//!
//! `encode` and `decode` take their input from a buffer JavaScript writes into the WebAssembly's
//! memory (`input_buffer`: the tape writer writes there, a decode's bytes are copied there) and
//! leave their result in a buffer of this module that JavaScript reads in place (`encoded_ptr`,
//! `tape_ptr`) before its next call: no allocation per call, and one copy fewer each way than
//! passing and returning byte vectors.

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::locate::{locate, locate_records, Framing, Span};
use fast_var_codec_core::options::{AllowList, Limits, Precision};
use fast_var_codec_core::record::decode_record;
use fast_var_codec_core::save::{self, decode_records, RecordError};
use fast_var_codec_core::save::{
    compress_block, decompress_block, open, store, Compression, OpenOptions, StoreOptions,
    DEFAULT_MAX_PAYLOAD,
};
use fast_var_codec_core::save::{ConfigFile, ConfigFileError, TextResource};
use fast_var_codec_core::save::{FileError, FileKey};
use fast_var_codec_core::save::{JsonFileError, JsonSave, JsonStyle};
use fast_var_codec_core::stream::{frame, ByteOrder, StreamReader};
use fast_var_codec_core::value::{ContainerType, NodePath};
use fast_var_codec_core::{CodecError, Dialect, Options, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

pub mod tape;

/// Errors cross as one text, fields separated by U+001F: the kind (`decode`, `encode`, `file`
/// or `usage`), the Godot error name, the offset (decode; file: a cut record's, or empty) or
/// path (encode), the message.
fn error(kind: &str, godot: &str, at: &str, message: &str) -> JsValue {
    JsValue::from_str(&error_text(kind, godot, at, message))
}

fn error_text(kind: &str, godot: &str, at: &str, message: &str) -> String {
    format!("{kind}\u{1f}{godot}\u{1f}{at}\u{1f}{message}")
}

fn usage(message: impl std::fmt::Display) -> JsValue {
    error("usage", "ERR_INVALID_PARAMETER", "", &message.to_string())
}

fn codec_error(e: &CodecError) -> JsValue {
    JsValue::from_str(&codec_error_text(e))
}

/// [`codec_error`]'s text.
fn codec_error_text(e: &CodecError) -> String {
    let name = e.code().godot_name();
    match e {
        CodecError::Decode { offset, reason } => {
            error_text("decode", name, &offset.to_string(), &reason.to_string())
                + &ambiguous_dialects(reason)
        }
        CodecError::Encode { path, reason } => {
            let at = if path.is_root() {
                String::new()
            } else {
                path.to_string()
            };
            error_text("encode", name, &at, &reason.to_string())
        }
        other => error_text("encode", name, "", &other.to_string()),
    }
}

/// For a [`DecodeReason::Ambiguous`], a fifth field: the dialects it names, comma-separated.
fn ambiguous_dialects(reason: &DecodeReason) -> String {
    match reason {
        DecodeReason::Ambiguous { readings } => {
            let names: Vec<&str> = readings.iter().map(|r| r.dialect.short_name()).collect();
            format!("\u{1f}{}", names.join(","))
        }
        _ => String::new(),
    }
}

fn file_error(e: &FileError) -> JsValue {
    JsValue::from_str(&file_error_text(e, ""))
}

/// A file error's text, then `cut` for a file that ends before its own header says it does
/// (the core's `is_cut_short`: Godot gives a cut encrypted file a wrong key's code).
fn file_error_text(e: &FileError, at: &str) -> String {
    let text = error_text("file", e.code().godot_name(), at, &e.to_string());
    if e.is_cut_short() {
        format!("{text}\u{1f}cut")
    } else {
        text
    }
}

fn record_error(e: &RecordError) -> JsValue {
    JsValue::from_str(&record_error_text(e))
}

/// [`record_error`]'s text.
fn record_error_text(e: &RecordError) -> String {
    match e {
        RecordError::Value {
            index,
            offset,
            error: CodecError::Decode { offset: at, reason },
        } => {
            error_text(
                "decode",
                reason.code().godot_name(),
                &at.to_string(),
                &format!("value {index} (record at payload offset {offset}): {reason}"),
            ) + &ambiguous_dialects(reason)
        }
        RecordError::Value { error, .. } => codec_error_text(error),
        RecordError::Cut(e) => {
            let at = match e {
                FileError::RecordCut { offset, .. } => offset.to_string(),
                _ => String::new(),
            };
            file_error_text(e, &at)
        }
        other => error_text("file", other.code().godot_name(), "", &other.to_string()),
    }
}

fn tape_error(e: tape::TapeError) -> JsValue {
    error("encode", "ERR_INVALID_PARAMETER", "", &e.0)
}

fn dialect(name: &str) -> Result<Dialect, JsValue> {
    name.parse::<Dialect>().map_err(usage)
}

fn precision(name: &str) -> Result<Precision, JsValue> {
    match name {
        "single" => Ok(Precision::Single),
        "double" => Ok(Precision::Double),
        other => Err(usage(format!(
            "unknown precision {other:?} (\"single\" or \"double\")"
        ))),
    }
}

/// The settings of a `Codec` (and of each call of the module's functions): the core's options
/// for encoding and for decoding, made once.
#[wasm_bindgen]
pub struct Settings {
    encode: Options,
    decode: Options,
}

#[wasm_bindgen]
impl Settings {
    /// Checks and keeps the settings. `allowed_classes` (class names and `res://` script paths)
    /// only with `allow_objects`; `None`: every class, when objects are allowed.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        dialect_name: &str,
        precision_name: &str,
        max_depth: Option<usize>,
        max_elements: Option<usize>,
        max_bytes: Option<usize>,
        allow_objects: bool,
        allowed_classes: Option<Vec<String>>,
        full_objects: bool,
        allow_lossy: bool,
        refuse_dropped_elements: bool,
    ) -> Result<Settings, JsValue> {
        let d = dialect(dialect_name)?;
        let p = precision(precision_name)?;
        let defaults = Limits::default();
        let limits = Limits {
            max_depth: max_depth.unwrap_or(defaults.max_depth),
            max_elements: max_elements.unwrap_or(defaults.max_elements),
            max_bytes: max_bytes.unwrap_or(defaults.max_bytes),
        };
        let list = match allowed_classes {
            Some(names) => {
                if !allow_objects && !names.is_empty() {
                    return Err(usage("allowedClasses needs allowObjects: true"));
                }
                Some(AllowList::from_names(&names))
            }
            None => None,
        };
        let encode = Options::new(d)
            .with_precision(p)
            .with_full_objects(full_objects)
            .with_allow_lossy(allow_lossy);
        encode.check().map_err(|e| codec_error(&e))?;
        let decode = Options::new(d)
            .with_precision(p)
            .with_limits(limits)
            .with_allow_objects(allow_objects)
            .with_allowed_objects(list)
            .with_refuse_dropped_elements(refuse_dropped_elements);
        Ok(Settings { encode, decode })
    }
}

/// The value of a tape.
fn value_of(tape: &[u8]) -> Result<Value, JsValue> {
    let mut r = tape::Reader::new(tape);
    let v = r.value().map_err(tape_error)?;
    if !r.at_end() {
        return Err(tape_error(tape::TapeError(
            "bytes after the tape's value".into(),
        )));
    }
    Ok(v)
}

/// The values of a tape of several, one after the other.
fn values_of(tape: &[u8]) -> Result<Vec<Value>, JsValue> {
    let mut r = tape::Reader::new(tape);
    let mut out = Vec::new();
    while !r.at_end() {
        out.push(r.value().map_err(tape_error)?);
    }
    Ok(out)
}

/// A buffer kept between calls shrinks back when it held more than this (16 MiB): a large value
/// once does not keep its memory for every small one after it.
const KEEP: usize = 16 << 20;

/// Items (of a container, or of a packed array) above which an encode measures its output
/// before writing it ([`encode_to_output`]).
const LARGE_VALUE: usize = 4096;

thread_local! {
    /// What JavaScript writes for the next call: a tape to encode, or the bytes to decode.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last encode's bytes, read by JavaScript from `encoded_ptr`.
    static ENCODED: RefCell<bytes::BytesMut> = RefCell::new(bytes::BytesMut::new());
    /// The last decode's tape, read by JavaScript from `tape_ptr`.
    static TAPE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last decode's value, whose large packed arrays its tape refers to (PACKED_REF):
    /// kept until the next decode.
    static KEPT: RefCell<Option<Value>> = const { RefCell::new(None) };
}

/// The input buffer, at least `size` bytes long (what it holds up to `size` kept), and shrunk
/// to about `size` when it is above `KEEP` and four times larger; returns its address.
/// JavaScript writes into it in place (`input_size` bytes from there).
#[wasm_bindgen]
pub fn input_buffer(size: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|b| {
        let size = size.max(256);
        // Powers of two while small; a large buffer as asked (the writer asks with room to
        // spare), not up to twice that.
        let want = if size > KEEP {
            size
        } else {
            size.checked_next_power_of_two().unwrap_or(size)
        };
        if b.len() < size {
            b.resize(want, 0);
        } else if b.len() > KEEP && b.len() / 4 > want {
            b.truncate(want);
            b.shrink_to_fit();
        }
        b.as_mut_ptr()
    })
}

/// The input buffer's length.
#[wasm_bindgen]
pub fn input_size() -> usize {
    INPUT.with_borrow(|b| b.len())
}

/// Where the last `encode`'s bytes are (its result the count).
#[wasm_bindgen]
pub fn encoded_ptr() -> *const u8 {
    ENCODED.with_borrow(|b| b.as_ptr())
}

/// Where the last `decode`'s tape is (its result the length).
#[wasm_bindgen]
pub fn tape_ptr() -> *const u8 {
    TAPE.with_borrow(|b| b.as_ptr())
}

/// The last call's results, read by JavaScript as soon as that call returned, released before
/// the next call takes its input where they are large: the last decode's value, and its tape
/// or the last encode's bytes when above `KEEP`.
fn release_large_results() {
    KEPT.with_borrow_mut(|kept| *kept = None);
    TAPE.with_borrow_mut(|b| {
        if b.capacity() > KEEP {
            *b = Vec::new();
        }
    });
    ENCODED.with_borrow_mut(|b| {
        if b.capacity() > KEEP {
            *b = bytes::BytesMut::new();
        }
    });
}

/// The first `len` bytes of the input buffer, as `f` takes them. An input buffer grown past
/// `KEEP` is released when `f` is done (what `f` made owns its data), so that a large value's
/// input, its `Value` and its output are not all held at once: JavaScript's writer asks for
/// the buffer again before its next use (`WasmTapeWriter.begin` and `reserve`).
fn with_input<R>(len: usize, f: impl FnOnce(&[u8]) -> Result<R, JsValue>) -> Result<R, JsValue> {
    release_large_results();
    let result = INPUT.with_borrow(|b| match b.get(..len) {
        Some(input) => f(input),
        None => Err(usage(format!(
            "{len} bytes asked of an input buffer of {}",
            b.len()
        ))),
    });
    INPUT.with_borrow_mut(|b| {
        if b.len() > KEEP {
            *b = Vec::new();
        }
    });
    result
}

/// The value of the tape in the input buffer's first `len` bytes, encoded (`var_to_bytes`), or
/// framed as `put_var` sends it (a u32 length first, big-endian with `big_endian`), into the
/// buffer at `encoded_ptr`; returns the count of bytes.
#[wasm_bindgen]
pub fn encode(
    settings: &Settings,
    len: usize,
    framed: bool,
    big_endian: bool,
) -> Result<usize, JsValue> {
    let v = with_input(len, value_of)?;
    encode_to_output(&v, settings, framed, big_endian)
}

/// The value at `offset` of the input buffer's first `len` bytes, as `bytes_to_var` reads it,
/// as a tape (the size it took, a u64, then the value; its large packed arrays referred to where
/// they lie, the value kept until the next decode) into the buffer at `tape_ptr`; returns the
/// tape's length.
#[wasm_bindgen]
pub fn decode(settings: &Settings, len: usize, offset: usize) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let (value, used) = with_input(len, |data| {
        fast_var_codec_core::decode_at(data, offset, &settings.decode).map_err(|e| codec_error(&e))
    })?;
    Ok(keep_tape(value, used))
}

/// The value at `offset` of the input buffer's first `len` bytes, which must take every byte
/// from `offset` to `len` ([`decode_whole_at`]), as a tape into the buffer at `tape_ptr` like
/// [`decode`]'s; returns the tape's length.
#[wasm_bindgen]
pub fn decode_whole(settings: &Settings, len: usize, offset: usize) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let (value, used) = with_input(len, |data| decode_whole_at(data, offset, settings))?;
    Ok(keep_tape(value, used))
}

/// The value at `offset` of `data`, which must take every byte from `offset` to the end (the
/// core's `decode_record`: a value that leaves bytes unread is a `RecordNotWhole` error at the
/// first of them, naming the dialect that reads them whole), and the bytes it took. Error
/// offsets count from the start of `data`. The one rule of `decode` and `toJSON` of bytes.
fn decode_whole_at(
    data: &[u8],
    offset: usize,
    settings: &Settings,
) -> Result<(Value, usize), JsValue> {
    let Some(rest) = data.get(offset..) else {
        // Past the end: the error a decode there gives.
        return fast_var_codec_core::decode_at(data, offset, &settings.decode)
            .map_err(|e| codec_error(&e));
    };
    decode_record(rest, &settings.decode)
        .map(|v| (v, rest.len()))
        .map_err(|e| codec_error(&e.shifted(offset)))
}

/// Writes the tape of `value` (the size `used`, then the value) into the buffer at `tape_ptr`
/// and keeps the value until the next call (its large packed arrays are referred to where they
/// lie); returns the tape's length.
fn keep_tape(value: Value, used: usize) -> usize {
    TAPE.with_borrow_mut(|out| {
        if out.capacity() > KEEP {
            *out = Vec::new();
        }
        out.clear();
        out.extend_from_slice(&(used as u64).to_le_bytes());
        tape::write_referencing(out, &value);
        // Moved, the value's packed arrays stay where the tape says they are.
        KEPT.with_borrow_mut(|kept| *kept = Some(value));
        out.len()
    })
}

/// A JSON error as the package's error text: the kind `json`, Godot's `ERR_PARSE_ERROR`, the
/// JSON path, the message, then `line:column` of a syntax error (or nothing).
fn json_error(e: &fast_var_codec_core::json::JsonError) -> JsValue {
    let at = e
        .line_column
        .map(|(l, c)| format!("{l}:{c}"))
        .unwrap_or_default();
    JsValue::from_str(&format!(
        "{}\u{1f}{at}",
        error_text("json", "ERR_PARSE_ERROR", &e.path, &e.message)
    ))
}

/// The JSON projection (the core's `json`) of the value of the tape in the input buffer's first
/// `len` bytes; indented with `pretty`.
#[wasm_bindgen]
pub fn value_to_json(len: usize, pretty: bool) -> Result<String, JsValue> {
    let v = with_input(len, value_of)?;
    Ok(json_text(&v, pretty))
}

fn json_text(v: &Value, pretty: bool) -> String {
    if pretty {
        fast_var_codec_core::json::to_json_pretty(v)
    } else {
        fast_var_codec_core::json::to_json(v)
    }
}

/// The JSON projection of the value at `offset` of the input buffer's first `len` bytes, which
/// must take every byte from `offset` to `len`, as [`decode_whole`]'s ([`decode_whole_at`]).
#[wasm_bindgen]
pub fn bytes_to_json(
    settings: &Settings,
    len: usize,
    offset: usize,
    pretty: bool,
) -> Result<String, JsValue> {
    let (value, _) = with_input(len, |data| decode_whole_at(data, offset, settings))?;
    Ok(json_text(&value, pretty))
}

/// The value of a text in Godot's text format (the core's `Value::from_godot_text`: objects
/// and resources refused unless the settings admit them, and then data; nothing made or
/// loaded), as `decode` leaves one: a tape in the buffer at `tape_ptr`; returns its length.
#[wasm_bindgen]
pub fn text_to_tape(settings: &Settings, text: &str) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let value = Value::from_godot_text(text, &settings.decode).map_err(|e| codec_error(&e))?;
    Ok(keep_tape(value, 0))
}

/// The text the engines of `dialect` write for the value of the tape in the input buffer's
/// first `len` bytes (the core's `Value::to_godot_text`: Godot 4's `var_to_str`, Godot 3's
/// `var2str`).
#[wasm_bindgen]
pub fn value_to_text(len: usize, dialect: &str) -> Result<String, JsValue> {
    let dialect = dialect
        .parse::<Dialect>()
        .map_err(|e| usage(e.to_string()))?;
    let v = with_input(len, value_of)?;
    v.to_godot_text(dialect).ok_or_else(|| {
        usage(format!(
            "varToStr writes Godot 4's or Godot 3's text, not {}'s",
            dialect.short_name()
        ))
    })
}

/// The value of a JSON text (the core's `json::from_json`), as `decode` leaves one: a tape
/// (size 0, then the value) in the buffer at `tape_ptr`; returns the tape's length.
#[wasm_bindgen]
pub fn json_to_tape(text: &str) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let value = fast_var_codec_core::json::from_json(text).map_err(|e| json_error(&e))?;
    Ok(keep_tape(value, 0))
}

/// The value of a JSON text encoded (framed with `framed`) into the buffer at `encoded_ptr`;
/// returns the count of bytes.
#[wasm_bindgen]
pub fn json_to_bytes(
    settings: &Settings,
    text: &str,
    framed: bool,
    big_endian: bool,
) -> Result<usize, JsValue> {
    let v = fast_var_codec_core::json::from_json(text).map_err(|e| json_error(&e))?;
    encode_to_output(&v, settings, framed, big_endian)
}

/// `v` encoded (or framed as put_var sends it) into the output buffer at `encoded_ptr`, which is
/// kept between calls unless it grew beyond `KEEP`; returns the count of bytes.
fn encode_to_output(
    v: &Value,
    settings: &Settings,
    framed: bool,
    big_endian: bool,
) -> Result<usize, JsValue> {
    ENCODED.with_borrow_mut(|out| {
        if out.capacity() > KEEP {
            *out = bytes::BytesMut::new();
        }
        out.clear();
        // A large value's bytes written into their exact room, not a doubling buffer.
        if v.len().is_some_and(|n| n > LARGE_VALUE) {
            if let Ok(size) = fast_var_codec_core::encoded_size(v, &settings.encode) {
                out.reserve(size + 4);
            }
        }
        if framed {
            frame(
                v,
                &settings.encode,
                ByteOrder::from_big_endian(big_endian),
                out,
            )
        } else {
            fast_var_codec_core::encode_into(v, &settings.encode, out)
        }
        .map_err(|e| codec_error(&e))?;
        Ok(out.len())
    })
}

/// The Godot 3 key of a password or a 32-byte key (neither: none; both: an error).
fn file_key(password: Option<String>, key: Option<Vec<u8>>) -> Result<Option<FileKey>, JsValue> {
    match (password, key) {
        (Some(_), Some(_)) => Err(usage("give a password or a key, not both")),
        (Some(p), None) => Ok(Some(FileKey::from_password(&p))),
        (None, Some(k)) => FileKey::from_slice(&k)
            .map(Some)
            .map_err(|e| file_error(&e)),
        (None, None) => Ok(None),
    }
}

/// A ConfigFile's error as the package's: the container's as [`file_error`], the text's as
/// [`codec_error`] (a decode error at the text's byte), a value that is no Dictionary of sections
/// as an encode's error, a dialect whose text is not written as a misuse (as `value_to_text`).
fn config_error(e: &ConfigFileError) -> JsValue {
    match e {
        ConfigFileError::File(e) => file_error(e),
        ConfigFileError::Text(e) => codec_error(e),
        ConfigFileError::NotSections(_) => {
            error("encode", e.code().godot_name(), "", &e.to_string())
        }
        ConfigFileError::TextNotChecked(_) => usage(e),
        other => error("file", other.code().godot_name(), "", &other.to_string()),
    }
}

/// The sections of a ConfigFile's text (the core's `ConfigFile::parse`, as `ConfigFile.parse`
/// reads it, in the settings' dialect), as a Dictionary of Dictionaries (`ConfigFile::to_value`)
/// in a tape in the buffer at `tape_ptr`, as `text_to_tape` leaves one; returns its length.
#[wasm_bindgen]
pub fn config_text_to_tape(settings: &Settings, text: &str) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let cfg = ConfigFile::parse(text, &settings.decode).map_err(|e| codec_error(&e))?;
    Ok(keep_tape(cfg.to_value(), 0))
}

/// The sections of a ConfigFile's file (the core's `ConfigFile::from_file`: its text, or either
/// engine's encrypted container of it, opened with the password or key), as
/// [`config_text_to_tape`] leaves them; returns the tape's length.
#[wasm_bindgen]
pub fn config_file_to_tape(
    settings: &Settings,
    data: &[u8],
    password: Option<String>,
    key: Option<Vec<u8>>,
) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let key = file_key(password, key)?;
    let cfg = ConfigFile::from_file(data, key.as_ref(), &settings.decode)
        .map_err(|e| config_error(&e))?;
    Ok(keep_tape(cfg.to_value(), 0))
}

/// The file `ConfigFile.save` writes in the engine of `dialect` (`save_encrypted_pass` or
/// `save_encrypted` with the password or key) for the Dictionary of sections of the tape in the
/// input buffer's first `len` bytes (the core's `ConfigFile::from_value` and `to_file`).
#[wasm_bindgen]
pub fn write_config_file(
    len: usize,
    dialect_name: &str,
    password: Option<String>,
    key: Option<Vec<u8>>,
) -> Result<Vec<u8>, JsValue> {
    let d = dialect(dialect_name)?;
    let key = file_key(password, key)?;
    let v = with_input(len, value_of)?;
    let cfg = ConfigFile::from_value(&v).map_err(|e| config_error(&e))?;
    cfg.to_file(d, key.as_ref()).map_err(|e| config_error(&e))
}

/// A JSON save's error as the package's: the container's as [`file_error`], the text's as
/// [`codec_error`], a value the save cannot hold as an encode's error.
fn json_save_error(e: &JsonFileError) -> JsValue {
    match e {
        JsonFileError::File(e) => file_error(e),
        JsonFileError::Text(e) => codec_error(e),
        other => error("encode", "ERR_INVALID_PARAMETER", "", &other.to_string()),
    }
}

/// A JSON save (the core's `JsonSave::from_file`: `JSON.stringify`'s text, or either engine's
/// encrypted container of it, read as `JSON.parse` reads it in the settings' dialect), as an
/// Array `[value, dialect, indent, sort_keys, full_precision, engine_text]` (the style found) in
/// a tape in the buffer at `tape_ptr`, as `text_to_tape` leaves one; returns its length.
#[wasm_bindgen]
pub fn json_save_to_tape(
    settings: &Settings,
    data: &[u8],
    password: Option<String>,
    key: Option<Vec<u8>>,
) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let key = file_key(password, key)?;
    let save = JsonSave::from_file(data, key.as_ref(), &settings.decode)
        .map_err(|e| json_save_error(&e))?;
    let style = save.style().clone();
    let engine_text = save.is_engine_text();
    let out = Value::from(vec![
        save.into_value(),
        Value::from(style.dialect.short_name()),
        Value::from(style.indent),
        Value::Bool(style.sort_keys),
        Value::Bool(style.full_precision),
        Value::Bool(engine_text),
    ]);
    Ok(keep_tape(out, 0))
}

/// The file of a JSON save of the value of the tape in the input buffer's first `len` bytes,
/// written as the engine of `dialect_name` writes it in the style given (`sort_keys` `None`: the
/// engine's default), in that engine's encrypted container with the password or key (the core's
/// `JsonSave::to_file`).
#[wasm_bindgen]
pub fn write_json_save(
    len: usize,
    dialect_name: &str,
    indent: &str,
    sort_keys: Option<bool>,
    full_precision: bool,
    password: Option<String>,
    key: Option<Vec<u8>>,
) -> Result<Vec<u8>, JsValue> {
    let d = dialect(dialect_name)?;
    let key = file_key(password, key)?;
    let v = with_input(len, value_of)?;
    let mut style = JsonStyle::new(d)
        .with_indent(indent)
        .with_full_precision(full_precision);
    if let Some(sorted) = sort_keys {
        style = style.with_sort_keys(sorted);
    }
    JsonSave::new(v, style)
        .to_file(key.as_ref())
        .map_err(|e| json_save_error(&e))
}

/// The sections of a text resource (`.tres`; the core's `TextResource::from_bytes`, as Godot's
/// loader reads its tags and properties, loading nothing), as an Array of section Dictionaries
/// (`TextResource::to_value`) in a tape in the buffer at `tape_ptr`, as `text_to_tape` leaves
/// one; returns its length.
#[wasm_bindgen]
pub fn text_resource_to_tape(settings: &Settings, data: &[u8]) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let res = TextResource::from_bytes(data, &settings.decode).map_err(|e| codec_error(&e))?;
    Ok(keep_tape(res.to_value(), 0))
}

/// The text of a text resource for the Array of sections of the tape in the input buffer's
/// first `len` bytes (the core's `TextResource::from_value` and `to_text`).
#[wasm_bindgen]
pub fn write_text_resource(len: usize) -> Result<String, JsValue> {
    let v = with_input(len, value_of)?;
    let res = TextResource::from_value(&v)
        .map_err(|e| error("encode", "ERR_INVALID_PARAMETER", "", &e.to_string()))?;
    Ok(res.to_text())
}

/// The values of a file of `store_var` records (plain, compressed, or encrypted with the
/// password or key), in the dialect named (`None`: the first that reads every record whole, the
/// core's rule): a tape of the dialect's name (a STRING) and then each value.
#[wasm_bindgen]
pub fn read_records(
    settings: &Settings,
    data: &[u8],
    dialect_name: Option<String>,
    password: Option<String>,
    key: Option<Vec<u8>>,
    max_payload: Option<usize>,
) -> Result<Vec<u8>, JsValue> {
    let named = dialect_name.as_deref().map(dialect).transpose()?;
    let key = file_key(password, key)?;
    let open_opts = OpenOptions::new()
        .with_key(key.as_ref())
        .with_max_payload(max_payload.unwrap_or(DEFAULT_MAX_PAYLOAD));
    let opened = open(data, named, &open_opts, decompress_block).map_err(|e| file_error(&e))?;
    let (found, values) =
        decode_records(&opened.payload, named, &settings.decode).map_err(|e| record_error(&e))?;
    let mut out = Vec::new();
    tape::write(&mut out, &Value::String(found.short_name().into()));
    for v in &values {
        tape::write(&mut out, v);
    }
    Ok(out)
}

/// The compression of a name (`"zstd"`, any case), or a usage error naming them all.
fn compression_named(name: &str) -> Result<Compression, JsValue> {
    Compression::from_name(name).ok_or_else(|| {
        let names: Vec<String> = Compression::ALL
            .iter()
            .map(|c| format!("\"{}\"", c.name().to_lowercase()))
            .collect();
        usage(format!(
            "unknown compression \"{name}\": one of {}",
            names.join(", ")
        ))
    })
}

/// `data` compressed as `PackedByteArray.compress(mode)` does (the core's `save::compress`).
#[wasm_bindgen]
pub fn compress_packet(data: &[u8], compression: &str) -> Result<Vec<u8>, JsValue> {
    save::compress(data, compression_named(compression)?).map_err(|e| codec_error(&e))
}

/// The bytes of a compressed packet, at most `max_size` of them (the core's `save::decompress`).
#[wasm_bindgen]
pub fn decompress_packet(
    data: &[u8],
    compression: &str,
    max_size: usize,
) -> Result<Vec<u8>, JsValue> {
    save::decompress(data, compression_named(compression)?, max_size).map_err(|e| codec_error(&e))
}

/// The value of a compressed packet (the core's `save::decode_compressed`), as `decode` leaves
/// one: a tape in the buffer at `tape_ptr`; returns its length.
#[wasm_bindgen]
pub fn compressed_to_tape(
    settings: &Settings,
    data: &[u8],
    compression: &str,
    max_size: usize,
) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let mode = compression_named(compression)?;
    let value = save::decode_compressed(data, mode, max_size, &settings.decode)
        .map_err(|e| codec_error(&e))?;
    Ok(keep_tape(value, 0))
}

/// The tape's values as `store_var` records, one after the other (with `raw`, the tape's one
/// value as `var_to_bytes` writes it, no length before it); encrypted with the password
/// or key (the dialect's engine's container; for Godot 4's, `iv`, or a random one when empty), or
/// compressed as `open_compressed` writes it (`compression`: `"fastlz"`, `"deflate"`, `"zstd"`,
/// `"gzip"`).
#[wasm_bindgen]
pub fn write_records(
    settings: &Settings,
    tape: &[u8],
    compression: Option<String>,
    password: Option<String>,
    key: Option<Vec<u8>>,
    iv: &[u8],
    raw: bool,
) -> Result<Vec<u8>, JsValue> {
    let key = file_key(password, key)?;
    let compression = compression.as_deref().map(compression_named).transpose()?;
    // None (an empty iv): Godot 4's container gets a random one, drawn by the core.
    let iv = match <[u8; 16]>::try_from(iv) {
        Ok(iv16) => Some(iv16),
        Err(_) if iv.is_empty() => None,
        Err(_) => return Err(usage("an encrypted file's iv is 16 bytes")),
    };
    let container = StoreOptions::new()
        .with_compression(compression)
        .with_key(key.as_ref())
        .with_iv(iv);
    let mut out = bytes::BytesMut::new();
    if raw {
        let v = value_of(tape)?;
        out = fast_var_codec_core::encode(&v, &settings.encode).map_err(|e| codec_error(&e))?;
    } else {
        for v in values_of(tape)? {
            frame(&v, &settings.encode, ByteOrder::Little, &mut out)
                .map_err(|e| codec_error(&e))?;
        }
    }
    store(&out, settings.encode.dialect, &container, compress_block).map_err(|e| match e {
        // A misuse of the call (a TypeError), not a file's fault.
        FileError::CompressedAndEncrypted => usage(e),
        e => file_error(&e),
    })
}

/// What [`inspect_file`] found in a file: its container, the payload inside it, and the values
/// read from that payload as far as they go, with where each lies.
#[wasm_bindgen]
pub struct Inspection {
    container: &'static str,
    compression: Option<String>,
    encryption: Option<String>,
    dialect: &'static str,
    raw: bool,
    payload: Vec<u8>,
    records: Vec<u32>,
    tape: Vec<u8>,
    spans: Vec<u32>,
    error: Option<String>,
}

#[wasm_bindgen]
impl Inspection {
    /// `"plain"`, `"compressed"` or `"encrypted"`.
    pub fn container(&self) -> String {
        self.container.to_string()
    }
    /// A compressed file's mode: `"fastlz"`, `"deflate"`, `"zstd"`, `"gzip"`.
    pub fn compression(&self) -> Option<String> {
        self.compression.clone()
    }
    /// An encrypted file's container: `"godot3"` or `"godot4"`.
    pub fn encryption(&self) -> Option<String> {
        self.encryption.clone()
    }
    /// The dialect the values were read in.
    pub fn dialect(&self) -> String {
        self.dialect.to_string()
    }
    /// Whether the payload is one `var_to_bytes` value rather than `store_var` records.
    pub fn raw(&self) -> bool {
        self.raw
    }
    /// The payload (decompressed, decrypted): the bytes the offsets count in.
    pub fn payload(&self) -> Vec<u8> {
        self.payload.clone()
    }
    /// Per value read: where its record starts in the payload, the length of its encoding, and
    /// how many spans it has (three numbers each).
    pub fn records(&self) -> Vec<u32> {
        self.records.clone()
    }
    /// The values read, one after the other.
    pub fn tape(&self) -> Vec<u8> {
        self.tape.clone()
    }
    /// The spans of every value read, record after record: start, end and descendants each.
    pub fn spans(&self) -> Vec<u32> {
        self.spans.clone()
    }
    /// Why the read stopped before the payload's end (an error text, as the thrown ones).
    pub fn error(&self) -> Option<String> {
        self.error.clone()
    }
}

fn push_spans(out: &mut Vec<u32>, spans: &[Span]) {
    out.reserve(3 * spans.len());
    for s in spans {
        out.extend([s.start as u32, s.end as u32, s.descendants as u32]);
    }
}

/// A file of any container (plain, compressed, encrypted with the password or key) opened, and
/// its payload read as far as it goes (the core's `locate_records`: `store_var` records in the
/// dialect named, or found; or one raw value). A container that cannot be opened (no or a wrong
/// password, a damaged header) is an error; a payload that fails part way is not: the values
/// before the failure come with its error.
#[wasm_bindgen]
pub fn inspect_file(
    settings: &Settings,
    data: &[u8],
    dialect_name: Option<String>,
    password: Option<String>,
    key: Option<Vec<u8>>,
    max_payload: Option<usize>,
) -> Result<Inspection, JsValue> {
    let named = dialect_name.as_deref().map(dialect).transpose()?;
    let key = file_key(password, key)?;
    let open_opts = OpenOptions::new()
        .with_key(key.as_ref())
        .with_max_payload(max_payload.unwrap_or(DEFAULT_MAX_PAYLOAD));
    let opened = open(data, named, &open_opts, decompress_block).map_err(|e| file_error(&e))?;
    let read = locate_records(&opened.payload, named, &settings.decode);
    let mut records = Vec::with_capacity(3 * read.records.len());
    let mut tape_out = Vec::new();
    let mut spans = Vec::new();
    for r in &read.records {
        records.extend([r.offset as u32, r.len as u32, r.spans.len() as u32]);
        tape::write(&mut tape_out, &r.value);
        push_spans(&mut spans, &r.spans);
    }
    Ok(Inspection {
        container: opened.container.name(),
        compression: opened.compression.map(|c| c.name().to_lowercase()),
        encryption: opened.encryption.map(|f| f.name().to_string()),
        dialect: read.dialect.short_name(),
        raw: read.framing == Framing::Raw,
        payload: opened.payload.into_owned(),
        records,
        tape: tape_out,
        spans,
        error: read.error.as_ref().map(record_error_text),
    })
}

/// Where the value at `offset` of `data` and every value inside it lie (the core's `locate`):
/// start, end and descendants of each, in pre-order.
#[wasm_bindgen]
pub fn value_spans(settings: &Settings, data: &[u8], offset: usize) -> Result<Vec<u32>, JsValue> {
    let (_, _, spans) = locate(data, offset, &settings.decode).map_err(|e| codec_error(&e))?;
    let mut out = Vec::new();
    push_spans(&mut out, &spans);
    Ok(out)
}

/// The parts of a NodePath's text, as the core parses it: `"1"` or `"0"` (absolute), the
/// number of names, the names, then the subnames.
#[wasm_bindgen]
pub fn parse_node_path(text: &str) -> Vec<String> {
    let p = NodePath::from(text);
    let mut out = Vec::with_capacity(2 + p.names.len() + p.subnames.len());
    out.push(if p.absolute { "1" } else { "0" }.to_string());
    out.push(p.names.len().to_string());
    out.extend(p.names);
    out.extend(p.subnames);
    out
}

/// Checks an element type's name as encoding reads it (`ContainerType::from_name`).
#[wasm_bindgen]
pub fn check_type_name(name: &str) -> Result<(), JsValue> {
    ContainerType::from_name(name)
        .map(|_| ())
        .map_err(|e| usage(e.to_string()))
}

/// The version of the package (the workspace's).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Values from a byte stream fed in pieces as they arrive: each a u32 length then the
/// encoding, as `StreamPeer.put_var` sends them.
#[wasm_bindgen]
pub struct StreamDecoder {
    reader: StreamReader,
}

#[wasm_bindgen]
impl StreamDecoder {
    /// `detecting`: the dialect is the one the peer's messages tell (the core's detector),
    /// the settings' dialect until they do.
    #[wasm_bindgen(constructor)]
    pub fn new(
        settings: &Settings,
        max_message: usize,
        big_endian: bool,
        detecting: bool,
    ) -> StreamDecoder {
        StreamDecoder {
            reader: stream_reader(settings, detecting)
                .with_byte_order(ByteOrder::from_big_endian(big_endian))
                .with_max_message(max_message),
        }
    }

    /// Adds received bytes; an error once the stream is broken.
    pub fn feed(&mut self, data: &[u8]) -> Result<(), JsValue> {
        self.reader.feed(data).map_err(|e| codec_error(&e))
    }

    /// The tape of the next complete value, `None` until one has arrived.
    pub fn next_value(&mut self) -> Result<Option<Vec<u8>>, JsValue> {
        let next = self.reader.next_value();
        match next {
            Ok(Some(v)) => {
                let mut out = Vec::with_capacity(64);
                tape::write(&mut out, &v);
                Ok(Some(out))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(codec_error(&e)),
        }
    }

    /// Bytes received but not yet taken as values.
    pub fn buffered(&self) -> usize {
        self.reader.buffered()
    }

    /// The largest message accepted, in bytes.
    pub fn max_message(&self) -> usize {
        self.reader.max_message()
    }

    /// Whether a message above the limit was announced: the stream cannot go on.
    pub fn broken(&self) -> bool {
        self.reader.broken().is_some()
    }

    /// The dialect values are read in: the one given, or while detecting the one the
    /// messages so far tell.
    pub fn dialect(&self) -> String {
        self.reader.dialect().short_name().to_owned()
    }

    /// Whether the dialect is known: always, but while detecting only once the messages
    /// leave one engine family.
    pub fn dialect_settled(&self) -> bool {
        self.reader.is_settled()
    }

    /// Forgets buffered bytes and a broken state (after reconnecting); while detecting, the
    /// dialect detected too.
    pub fn reset(&mut self) {
        self.reader.reset();
    }
}

/// The core's stream reader of `settings`' decode options: detecting the dialect from the
/// peer's messages when `detecting`.
fn stream_reader(settings: &Settings, detecting: bool) -> StreamReader {
    let opts = settings.decode.clone();
    if detecting {
        StreamReader::detecting(opts)
    } else {
        StreamReader::new(opts)
    }
}

/// Values from whole messages, one value each (a WebSocket's binary messages, as
/// `WebSocketPeer.put_var` sends them: no length prefix), with the dialect optionally detected
/// per connection. Each message goes through the core's stream reader as one frame, so a
/// connection's dialect is detected by the same rule (`StreamReader::detecting`) as a TCP
/// stream's; errors count their offsets in the message.
#[wasm_bindgen]
pub struct MessageDecoder {
    reader: StreamReader,
    /// Where each message fed and not yet read starts in the reader's stream (its payload,
    /// after the length the reader is given): error offsets are told from there.
    starts: std::collections::VecDeque<u64>,
    /// The stream's length so far (every frame fed).
    fed: u64,
}

#[wasm_bindgen]
impl MessageDecoder {
    /// `detecting`: the dialect is the one the connection's messages tell, the settings'
    /// dialect until they do.
    #[wasm_bindgen(constructor)]
    pub fn new(settings: &Settings, detecting: bool) -> MessageDecoder {
        MessageDecoder {
            reader: stream_reader(settings, detecting).with_max_message(u32::MAX as usize),
            starts: std::collections::VecDeque::new(),
            fed: 0,
        }
    }

    /// Adds one whole message.
    pub fn feed(&mut self, message: &[u8]) -> Result<(), JsValue> {
        let len = u32::try_from(message.len()).map_err(|_| usage("a message of 4 GiB or more"))?;
        let mut frame = Vec::with_capacity(message.len() + 4);
        frame.extend_from_slice(&len.to_le_bytes());
        frame.extend_from_slice(message);
        self.reader.feed(&frame).map_err(|e| codec_error(&e))?;
        self.starts.push_back(self.fed + 4);
        self.fed += frame.len() as u64;
        Ok(())
    }

    /// The tape of the next message's value, `None` when every message fed has been read.
    pub fn next_value(&mut self) -> Result<Option<Vec<u8>>, JsValue> {
        let next = self.reader.next_value();
        let consumed = self.fed - self.reader.buffered() as u64;
        match next {
            Ok(Some(v)) => {
                self.forget_read(consumed);
                let mut out = Vec::with_capacity(64);
                tape::write(&mut out, &v);
                Ok(Some(out))
            }
            Ok(None) => Ok(None),
            Err(CodecError::Decode { offset, reason }) => {
                // The message the offset falls in (the last one starting at or before it).
                let at = offset as u64;
                let start = self
                    .starts
                    .iter()
                    .rev()
                    .find(|&&s| s <= at)
                    .copied()
                    .unwrap_or(0);
                self.forget_read(consumed);
                Err(codec_error(&CodecError::Decode {
                    offset: usize::try_from(at - start).unwrap_or(usize::MAX),
                    reason,
                }))
            }
            Err(e) => Err(codec_error(&e)),
        }
    }

    /// Drops the starts of the messages read whole (those before `consumed`).
    fn forget_read(&mut self, consumed: u64) {
        while self.starts.front().is_some_and(|&s| s <= consumed) {
            self.starts.pop_front();
        }
    }

    /// The dialect values are read in: the one given, or while detecting the one the
    /// messages so far tell.
    pub fn dialect(&self) -> String {
        self.reader.dialect().short_name().to_owned()
    }

    /// Whether the dialect is known: always, but while detecting only once the messages
    /// leave one engine family.
    pub fn dialect_settled(&self) -> bool {
        self.reader.is_settled()
    }

    /// Forgets unread messages; while detecting, the dialect detected too.
    pub fn reset(&mut self) {
        self.reader.reset();
        self.starts.clear();
        self.fed = 0;
    }
}
