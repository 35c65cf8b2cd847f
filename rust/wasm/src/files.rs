//! What the full package adds to the codec (the `files` feature, the default; the codec entry,
//! `fast-var-codec/codec`, is built without it): save files of every container, ConfigFiles,
//! JSON saves, text resources, compressed packets, where a file's values lie, and the core's
//! JSON projection.

use fast_var_codec_core::locate::{locate, locate_records, Framing, Span};
use fast_var_codec_core::save::{self, decode_records, RecordError};
use fast_var_codec_core::save::{
    compress_block, decompress_block, open, store, Compression, OpenOptions, StoreOptions,
    DEFAULT_MAX_PAYLOAD,
};
use fast_var_codec_core::save::{ConfigFile, ConfigFileError, TextResource};
use fast_var_codec_core::save::{FileError, FileKey};
use fast_var_codec_core::save::{JsonFileError, JsonSave, JsonStyle};
use fast_var_codec_core::stream::{frame, ByteOrder};
use fast_var_codec_core::value::ValueBuilder;
use fast_var_codec_core::{CodecError, Value};
use wasm_bindgen::prelude::*;

use super::{
    ambiguous_dialects, codec_error, codec_error_text, decode_at_with, dialect, encode_to_output,
    error, error_text, keep_tape, tape, tape_error, usage, value_of, with_input, Settings, KEPT,
};

/// Items (of a container, or of a packed array) above which `json_to_bytes` measures its output
/// before writing it (`encode_to_output`'s `size`: no tape tells it).
const LARGE_VALUE: usize = 4096;

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

/// The values of a tape of several, one after the other.
fn values_of(tape: &[u8]) -> Result<Vec<Value>, JsValue> {
    let mut r = tape::Reader::new(tape);
    let mut out = Vec::new();
    while !r.at_end() {
        out.push(r.value().map_err(tape_error)?);
    }
    Ok(out)
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
/// must take every byte from `offset` to `len`, as [`decode_whole`]'s ([`decode_at_with`]).
#[wasm_bindgen]
pub fn bytes_to_json(
    settings: &Settings,
    len: usize,
    offset: usize,
    pretty: bool,
) -> Result<String, JsValue> {
    let (value, _) = with_input(len, |data| {
        decode_at_with(data, offset, settings, true, &mut ValueBuilder::default())
            .map_err(|e| codec_error(&e))
    })?;
    Ok(json_text(&value, pretty))
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
    let size = match v.len() {
        Some(n) if n > LARGE_VALUE => {
            fast_var_codec_core::encoded_size(&v, &settings.encode).unwrap_or(0)
        }
        _ => 0,
    };
    encode_to_output(&v, settings, framed, big_endian, size)
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
