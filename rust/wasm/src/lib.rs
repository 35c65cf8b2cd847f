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
use fast_var_codec_core::options::{AllowList, Limits, Precision};
use fast_var_codec_core::reader::{decode_with, Build, WireForm, WireHeader, FLAG_64};
use fast_var_codec_core::record::decode_record_with;
use fast_var_codec_core::stream::{frame, frame_with, ByteOrder, StreamReader};
use fast_var_codec_core::value::{ContainerType, NodePath, ValueBuilder};
use fast_var_codec_core::writer::Writer;
use fast_var_codec_core::{CodecError, Dialect, Options, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[cfg(feature = "files")]
mod files;
pub mod tape;
mod tape_builder;
mod tape_to_wire;

use tape_builder::TapeBuilder;
use tape_to_wire::{write_tape, Hole};

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

    /// What the package's JavaScript reader (js/wire.js) may read of a decode's input itself,
    /// told by the core's rules ([`Dialect::read_header`], the limits): 512 bytes, one for each
    /// header of a type id alone (0–255) and of a type id with the 64-bit flag (256–511), the
    /// Godot 4 type id the header stands for, with 0x80 added where its numbers are 64-bit, or
    /// 0xFF where the core reads it otherwise (Pandemonium's pool and typed arrays; a flag that
    /// does not make 64-bit numbers, such as a typed Array's kind); then two little-endian u32:
    /// the deepest level a decode admits, and the largest input whose values cannot reach the
    /// decode's limits on elements and bytes (every element takes at least a 4-byte header, and
    /// every byte of a string or packed array is a byte of the input).
    pub fn wire_table(&self) -> Vec<u8> {
        let dialect = self.decode.dialect;
        let mut out = Vec::with_capacity(520);
        for word in (0..256).chain((0..256).map(|id| id | FLAG_64)) {
            let entry = match dialect.read_header(word) {
                Some(WireHeader {
                    form: WireForm::Type(ty),
                    wide,
                    ..
                }) if wide || word & FLAG_64 == 0 => ty.id() as u8 | if wide { 0x80 } else { 0 },
                _ => 0xFF,
            };
            out.push(entry);
        }
        let limits = &self.decode.limits;
        let largest_input = limits.max_bytes.min(limits.max_elements.saturating_mul(4));
        for n in [limits.depth(), largest_input] {
            out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
        }
        out
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

/// A buffer kept between calls shrinks back when it held more than this (16 MiB): a large value
/// once does not keep its memory for every small one after it.
const KEEP: usize = 16 << 20;

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
    /// The last decode's input when it was above `KEEP`: its tape may refer to large packed
    /// arrays in it (PACKED_REF). Released with the call's other results.
    static KEPT_INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The input buffer, at least `size` bytes long (what it holds up to `size` kept), and shrunk
/// to about `size` when it is above `KEEP` and four times larger; returns its address.
/// JavaScript writes into it in place (`input_size` bytes from there).
#[wasm_bindgen]
pub fn input_buffer(size: usize) -> *mut u8 {
    // Asked for before the next call's input is written: the last decode's tape was read.
    KEPT_INPUT.with_borrow_mut(|kept| *kept = Vec::new());
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
    KEPT_INPUT.with_borrow_mut(|kept| *kept = Vec::new());
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
    input_then(len, f, false)
}

/// [`with_input`] for a decode whose tape may refer into the input (PACKED_REF): an input buffer
/// grown past `KEEP` is kept with the call's results (`KEPT_INPUT`), not released.
fn with_input_kept<R>(
    len: usize,
    f: impl FnOnce(&[u8]) -> Result<R, JsValue>,
) -> Result<R, JsValue> {
    input_then(len, f, true)
}

fn input_then<R>(
    len: usize,
    f: impl FnOnce(&[u8]) -> Result<R, JsValue>,
    keep: bool,
) -> Result<R, JsValue> {
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
            let input = std::mem::take(b);
            if keep {
                KEPT_INPUT.with_borrow_mut(|kept| *kept = input);
            }
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
    holes: bool,
) -> Result<usize, JsValue> {
    // The tape walked into the writer; or, where the walk stops (an error, which the model's
    // path reports with its path, or a large packed array), read whole into a `Value`, whose
    // encode runs once the input buffer is released, into room for about the tape's size.
    // With `holes` (not framed), the tape's PACKED_HOLEs are typed arrays JavaScript places
    // itself: after the bytes around them, where each goes and its size (two u32s each, in the
    // tape's order); where the walk stops, WALK_STOPPED, and JavaScript writes the tape again
    // with their numbers in it.
    let mut found = Vec::new();
    let walked = with_input(len, |tape| {
        let walked = encode_tape(
            tape,
            settings,
            framed,
            big_endian,
            holes.then_some(&mut found),
        );
        match walked {
            Some(written) => Ok(Ok(written)),
            None if holes => Ok(Ok(WALK_STOPPED)),
            None => value_of(tape).map(|v| Err((v, tape.len()))),
        }
    })?;
    match walked {
        Ok(written) => {
            ENCODED.with_borrow_mut(|out| {
                for hole in found {
                    // wasm32: every size fits a u32.
                    out.extend_from_slice(&(hole.at as u32).to_le_bytes());
                    out.extend_from_slice(&(hole.size as u32).to_le_bytes());
                }
            });
            Ok(written)
        }
        Err((v, size)) => encode_to_output(&v, settings, framed, big_endian, size),
    }
}

/// What [`encode`] with `holes` returns when its walk stopped (no encode is that long in wasm32).
const WALK_STOPPED: usize = u32::MAX as usize;

/// The value of `tape` encoded (framed with `framed`) into the buffer at `encoded_ptr` by
/// `tape_to_wire`, without a `Value` tree (with `holes`, its PACKED_HOLEs left as room, listed
/// there); returns the count of bytes, or `None` (the buffer emptied) when the walk stopped.
fn encode_tape(
    tape: &[u8],
    settings: &Settings,
    framed: bool,
    big_endian: bool,
    holes: Option<&mut Vec<Hole>>,
) -> Option<usize> {
    ENCODED.with_borrow_mut(|out| {
        if out.capacity() > KEEP {
            *out = bytes::BytesMut::new();
        }
        out.clear();
        // No room made first: the walk may stop at a large packed array, whose model then takes
        // its own room (and a large packed array of bytes is written with its exact room).
        let opts = &settings.encode;
        let written = if framed {
            let order = ByteOrder::from_big_endian(big_endian);
            frame_with(out, opts, order, |w| write_tape(w, tape, holes)).map(|_| ())
        } else {
            Writer::new(std::mem::take(out), opts).and_then(|mut w| {
                let walked = write_tape(&mut w, tape, holes);
                *out = w.into_sink();
                walked
            })
        };
        match written {
            Ok(()) => Some(out.len()),
            Err(_) => {
                out.clear();
                None
            }
        }
    })
}

/// The value at `offset` of the input buffer's first `len` bytes, as `bytes_to_var` reads it,
/// as a tape (the size it took, a u64, then the value; its large packed arrays referred to where
/// they lie when the value was kept, until the next decode) into the buffer at `tape_ptr`;
/// returns the tape's length.
#[wasm_bindgen]
pub fn decode(settings: &Settings, len: usize, offset: usize) -> Result<usize, JsValue> {
    decode_to_tape(settings, len, offset, false)
}

/// The value at `offset` of the input buffer's first `len` bytes, which must take every byte
/// from `offset` to `len` ([`decode_at_with`]), as a tape into the buffer at `tape_ptr` like
/// [`decode`]'s; returns the tape's length.
#[wasm_bindgen]
pub fn decode_whole(settings: &Settings, len: usize, offset: usize) -> Result<usize, JsValue> {
    decode_to_tape(settings, len, offset, true)
}

/// [`decode`] (or with `whole`, [`decode_whole`]): the tape written as the reader goes
/// (`tape_builder`, its large packed arrays of numbers referred to where they lie in the input,
/// which is kept until the next call), or, for what only the model decodes as the engine does,
/// the model's value written as a tape and kept until the next call.
fn decode_to_tape(
    settings: &Settings,
    len: usize,
    offset: usize,
    whole: bool,
) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    with_input_kept(len, |data| {
        let direct = TAPE.with_borrow_mut(|out| {
            start_tape(out);
            // The size, once known.
            out.extend_from_slice(&[0; 8]);
            let mut builder = TapeBuilder::referencing(out);
            let decoded = decode_at_with(data, offset, settings, whole, &mut builder);
            let needs_model = builder.needs_model();
            drop(builder);
            if needs_model {
                return Ok(None);
            }
            match decoded {
                Ok((_, used)) => {
                    set_tape_size(out, used);
                    Ok(Some(out.len()))
                }
                Err(e) => Err(codec_error(&e)),
            }
        })?;
        if let Some(tape_len) = direct {
            return Ok(tape_len);
        }
        let (value, used) =
            decode_at_with(data, offset, settings, whole, &mut ValueBuilder::default())
                .map_err(|e| codec_error(&e))?;
        Ok(keep_tape(value, used))
    })
}

/// The value at `offset` of `data` and the bytes it took, built by `builder`. With `whole` it
/// must take every byte from `offset` to the end (the core's `decode_record_with`: a value that
/// leaves bytes unread is a `RecordNotWhole` error at the first of them, naming the dialect that
/// reads them whole); error offsets count from the start of `data`. The one rule of `decode` and
/// `toJSON` of bytes.
fn decode_at_with<B: Build>(
    data: &[u8],
    offset: usize,
    settings: &Settings,
    whole: bool,
    builder: &mut B,
) -> Result<(B::Value, usize), CodecError> {
    let opts = &settings.decode;
    match data.get(offset..).filter(|_| whole) {
        Some(rest) => decode_record_with(rest, opts, builder)
            .map(|v| (v, rest.len()))
            .map_err(|e| e.shifted(offset)),
        // Past the end, the error a decode there gives.
        None => decode_with(data, offset, opts, builder),
    }
}

/// Empties the tape buffer (released when a large value had grown it).
fn start_tape(out: &mut Vec<u8>) {
    if out.capacity() > KEEP {
        *out = Vec::new();
    }
    out.clear();
}

/// Writes the size a decode took at the tape's start.
fn set_tape_size(out: &mut [u8], used: usize) {
    if let Some(slot) = out.get_mut(..8) {
        slot.copy_from_slice(&(used as u64).to_le_bytes());
    }
}

/// Writes the tape of `value` (the size `used`, then the value) into the buffer at `tape_ptr`
/// and keeps the value until the next call (its large packed arrays are referred to where they
/// lie); returns the tape's length.
fn keep_tape(value: Value, used: usize) -> usize {
    TAPE.with_borrow_mut(|out| {
        start_tape(out);
        out.extend_from_slice(&(used as u64).to_le_bytes());
        tape::write_referencing(out, &value);
        // Moved, the value's packed arrays stay where the tape says they are.
        KEPT.with_borrow_mut(|kept| *kept = Some(value));
        out.len()
    })
}

/// The value of a text in Godot's text format (the core's `Value::from_godot_text`: objects
/// and resources refused unless the settings admit them, and then data; nothing made or
/// loaded), as `decode` leaves one: a tape in the buffer at `tape_ptr`; returns its length.
#[cfg(feature = "text")]
#[wasm_bindgen]
pub fn text_to_tape(settings: &Settings, text: &str) -> Result<usize, JsValue> {
    KEPT.with_borrow_mut(|kept| *kept = None);
    let value = Value::from_godot_text(text, &settings.decode).map_err(|e| codec_error(&e))?;
    Ok(keep_tape(value, 0))
}

/// The text the engines of `dialect` write for the value of the tape in the input buffer's
/// first `len` bytes (the core's `Value::to_godot_text`: Godot 4's `var_to_str`, Godot 3's
/// `var2str`).
#[cfg(feature = "text")]
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

/// `v` encoded (or framed as put_var sends it) into the output buffer at `encoded_ptr`, which is
/// kept between calls unless it grew beyond `KEEP`, with room for `size` bytes made first (a
/// large value's bytes written into their room, not a doubling buffer: a packed array's tape is
/// its bytes' size but for a few header bytes); returns the count of bytes.
fn encode_to_output(
    v: &Value,
    settings: &Settings,
    framed: bool,
    big_endian: bool,
    size: usize,
) -> Result<usize, JsValue> {
    ENCODED.with_borrow_mut(|out| {
        if out.capacity() > KEEP {
            *out = bytes::BytesMut::new();
        }
        out.clear();
        // With room for the frame's length and a zero word the writer may put past the end.
        out.reserve(size + 16);
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

    /// The length of the next complete message's payload, not taken, for the package's
    /// JavaScript to read where it lies ([`StreamDecoder::message_ptr`], until the next call)
    /// and then drop ([`StreamDecoder::skip_message`]), or leave to
    /// [`StreamDecoder::next_value`]; `None` when `next_value` would give nothing or an error
    /// of the framing (the core's `StreamReader::peek_frame`).
    pub fn peek_message(&self) -> Option<u32> {
        self.reader
            .peek_frame()
            .and_then(|payload| u32::try_from(payload.len()).ok())
    }

    /// Where the payload [`StreamDecoder::peek_message`] measured lies in the WebAssembly's memory.
    pub fn message_ptr(&self) -> usize {
        self.reader
            .peek_frame()
            .map_or(0, |payload| payload.as_ptr() as usize)
    }

    /// Drops the message [`StreamDecoder::peek_message`] measured, read by JavaScript.
    pub fn skip_message(&mut self) {
        self.reader.skip_frame();
    }

    /// The tape of the next complete value, `None` until one has arrived.
    pub fn next_value(&mut self) -> Result<Option<Vec<u8>>, JsValue> {
        let next = self.reader.next_value();
        match next {
            Ok(Some(v)) => Ok(Some(tape::tape_of(&v))),
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
        let consumed = self.fed.saturating_sub(self.reader.buffered() as u64);
        match next {
            Ok(Some(v)) => {
                self.forget_read(consumed);
                Ok(Some(tape::tape_of(&v)))
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

#[cfg(test)]
mod tests {
    use super::Settings;

    fn table(dialect: &str, max_depth: Option<usize>, max_elements: Option<usize>) -> Vec<u8> {
        let settings = Settings::new(
            dialect,
            "single",
            max_depth,
            max_elements,
            None,
            false,
            None,
            false,
            false,
            false,
        );
        match settings {
            Ok(s) => s.wire_table(),
            Err(_) => panic!("the settings of {dialect} are refused"),
        }
    }

    fn limits(t: &[u8]) -> [u32; 2] {
        let word = |at: usize| u32::from_le_bytes([t[at], t[at + 1], t[at + 2], t[at + 3]]);
        [word(512), word(516)]
    }

    #[test]
    fn the_wire_table_names_each_header_by_its_godot_4_type() {
        let godot4 = table("godot4", None, None);
        assert_eq!(godot4.len(), 520);
        // Id 14 is a Plane in Godot 4, a Color (Godot 4's 20) in Godot 3.
        assert_eq!(godot4[14], 14);
        assert_eq!(table("godot3", None, None)[14], 20);
        // The 64-bit flag: wide ints and floats; a flag that is a typed Array's kind is the core's.
        assert_eq!(godot4[256 + 2], 0x82);
        assert_eq!(godot4[256 + 3], 0x83);
        assert_eq!(godot4[256 + 5], 0x85);
        assert_eq!(godot4[256 + 28], 0xFF);
        // Godot 3 ignores the flag on a Vector2 (its reals are binary32): the core reads it.
        assert_eq!(table("godot3", None, None)[256 + 5], 0xFF);
        // Ids no type has, and Pandemonium's pool arrays of int vectors.
        assert_eq!(godot4[39], 0xFF);
        let pandemonium = table("pandemonium38", None, None);
        assert!(pandemonium[..256].iter().filter(|&&e| e == 0xFF).count() > 256 - 38);
    }

    #[test]
    fn the_wire_table_ends_with_the_depth_and_the_largest_input_within_the_limits() {
        assert_eq!(limits(&table("godot4", Some(5), Some(10))), [5, 40]);
        let [depth, largest] = limits(&table("godot4", None, None));
        assert!(depth >= 64, "{depth}");
        assert_eq!(largest, u32::MAX);
    }
}
