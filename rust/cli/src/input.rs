//! Reading an input: the file (or stdin), a Godot 3 compressed or encrypted container opened
//! (the core's `save` module tells which), the values
//! split by the core's stream framing or taken as one raw value, and the dialect and framing
//! guessed when not given.

use std::io::Read;

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::locate::failing_path;
use fast_var_codec_core::reader::decode_with;
use fast_var_codec_core::record::{
    ambiguous_record, decode_record_with, judge, DialectDetector, Verdict,
};
use fast_var_codec_core::save::{decompress_block, open, Container, OpenOptions};
use fast_var_codec_core::save::{FileError, FileKey};
use fast_var_codec_core::stream::{prefix_len, ByteOrder, StreamReader, PREFIX_LEN};
use fast_var_codec_core::value::ValueBuilder;
use fast_var_codec_core::{CodecError, Dialect, Options, Value};

use crate::{dialect_name, Fail};

/// How values are laid out in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `store_var` / `put_var`: a u32 length, then the value; repeated.
    Framed,
    /// One value (`var_to_bytes`).
    Raw,
}

impl Framing {
    pub fn name(self) -> &'static str {
        match self {
            Framing::Framed => "framed",
            Framing::Raw => "raw",
        }
    }
}

/// One value of the input.
#[derive(Debug)]
pub struct Item {
    /// Framed: where the value's length prefix is.
    pub frame_at: Option<usize>,
    /// Where the value starts.
    pub start: usize,
    /// The bytes the value may take: its frame's length, or the rest of a raw input.
    pub available: usize,
    /// The bytes it took (its final padding included, present or not).
    pub used: usize,
    pub value: Value,
}

impl Item {
    /// The bytes of the value's frame (or of the raw input) that it leaves unread.
    pub fn unread(&self) -> usize {
        self.available.saturating_sub(self.used)
    }
}

/// The values of an input decoded in one dialect and framing.
#[derive(Debug)]
pub struct Decoded {
    pub dialect: Dialect,
    pub framing: Framing,
    pub items: Vec<Item>,
}

impl Decoded {
    /// True when every value takes all the bytes it may.
    pub fn whole(&self) -> bool {
        self.items.iter().all(|i| i.unread() == 0)
    }
}

/// A decode that failed, `at` the byte where it stopped (to report the attempt that got
/// furthest).
#[derive(Debug)]
pub struct Failure {
    pub at: usize,
    pub message: String,
}

/// What the options leave open, and how it was settled.
#[derive(Debug)]
pub struct Resolved {
    pub decoded: Decoded,
    /// `Some` when the dialect was guessed: the other dialects that fit as well.
    pub dialect_guess: Option<Vec<Dialect>>,
    pub framing_guessed: bool,
}

/// The input's bytes: `-` is standard input; a compressed file (`GCPF`) is decompressed and an
/// encrypted one (`GDEC`) decrypted with `key`, which it needs (the core's `save::open`: the
/// container of `dialect`'s engine, or without a dialect Godot 3's or else Godot 4's), neither
/// when it announces more than `max_payload` bytes; anything else is taken as it is.
pub fn read_input(
    path: &str,
    key: Option<&FileKey>,
    dialect: Option<Dialect>,
    max_payload: usize,
) -> Result<Vec<u8>, Fail> {
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut buf)
            .map_err(|e| Fail::Invalid(format!("cannot read standard input: {e}")))?;
        buf
    } else {
        std::fs::read(path).map_err(|e| Fail::Invalid(format!("cannot read {path}: {e}")))?
    };
    let container = fast_var_codec_core::save::detect(&bytes);
    let opts = OpenOptions::new()
        .with_key(key)
        .with_max_payload(max_payload);
    let mut opened = open(&bytes, dialect, &opts, decompress_block);
    let asked;
    if key.is_none() && matches!(opened, Err(FileError::KeyNeeded)) {
        asked = crate::secret::prompt_if_terminal(path)?;
        if let Some(k) = &asked {
            opened = open(&bytes, dialect, &opts.with_key(Some(k)), decompress_block);
        }
    }
    match opened {
        Ok(opened) => Ok(opened.payload.into_owned()),
        Err(FileError::KeyNeeded) => Err(Fail::Invalid(format!(
            "{path} is an encrypted file: pass --password-env VAR, --password-file PATH, \
--password-prompt or --key-file PATH (or --password, --key-hex)"
        ))),
        Err(e @ FileError::PayloadOverLimit { .. }) => {
            Err(Fail::Invalid(format!("{path}: {e} (--max-payload)")))
        }
        Err(e) if container == Container::Compressed => Err(Fail::Invalid(format!(
            "cannot decompress {path} (a Godot 3 compressed file): {e}"
        ))),
        Err(e) => Err(Fail::Invalid(format!("cannot decrypt {path}: {e}"))),
    }
}

/// A decode error with its offset moved by `by` (from a frame's payload to the file).
fn shifted(e: CodecError, by: usize) -> (usize, CodecError) {
    match e {
        CodecError::Decode { offset, reason } => {
            let offset = offset.saturating_add(by);
            (offset, CodecError::Decode { offset, reason })
        }
        other => (by, other),
    }
}

/// An error as a line: where in the value it failed (the key path of the core's
/// `locate::failing_path`, re-reading `bytes` from `offset`), and the flag that lifts it where
/// there is one.
fn describe(e: &CodecError, bytes: &[u8], offset: usize, opts: &Options) -> String {
    let mut line = e.to_string();
    if let Some(path) = failing_path(bytes, offset, opts).filter(|p| !p.is_root()) {
        line = format!("{line}, in {path}");
    }
    if let CodecError::Decode {
        reason: DecodeReason::ObjectsNotAllowed,
        ..
    } = e
    {
        line.push_str("; pass --allow-objects to decode full objects");
    }
    line
}

/// Decodes every value of `bytes` in `framing` with `opts`.
pub fn decode_all(
    bytes: &[u8],
    framing: Framing,
    order: ByteOrder,
    opts: &Options,
) -> Result<Decoded, Failure> {
    let items = match framing {
        Framing::Raw => {
            let (value, used) =
                decode_with(bytes, 0, opts, &mut ValueBuilder::default()).map_err(|e| {
                    let (at, e) = shifted(e, 0);
                    Failure {
                        at,
                        message: describe(&e, bytes, 0, opts),
                    }
                })?;
            vec![Item {
                frame_at: None,
                start: 0,
                available: bytes.len(),
                used,
                value,
            }]
        }
        Framing::Framed => framed(bytes, order, opts)?,
    };
    Ok(Decoded {
        dialect: opts.dialect,
        framing,
        items,
    })
}

/// The values of a `store_var` file, split by the core's [`StreamReader`].
fn framed(bytes: &[u8], order: ByteOrder, opts: &Options) -> Result<Vec<Item>, Failure> {
    // The whole file is here: no frame can be longer than it, so nothing needs a limit.
    let mut reader = StreamReader::new(opts.clone())
        .with_byte_order(order)
        .with_max_message(usize::MAX);
    let fail = |at: usize, message: String| Failure { at, message };
    reader.feed(bytes).map_err(|e| fail(0, e.to_string()))?;
    let mut items = Vec::new();
    let mut at = 0usize;
    loop {
        let payload = match reader.next_frame() {
            Ok(Some(p)) => p,
            Ok(None) => break,
            Err(e) => return Err(fail(at, format!("frame at byte {at}: {e}"))),
        };
        let start = at + PREFIX_LEN;
        let index = items.len();
        // A frame's value must take the frame whole (the core's rule for records).
        let value =
            decode_record_with(&payload, opts, &mut ValueBuilder::default()).map_err(|e| {
                let (err_at, e) = shifted(e, start);
                fail(
                    err_at,
                    format!(
                        "value {index} (frame at byte {at}): {}",
                        describe(&e, &payload, 0, opts)
                    ),
                )
            })?;
        items.push(Item {
            frame_at: Some(at),
            start,
            available: payload.len(),
            used: payload.len(),
            value,
        });
        at = start + payload.len();
    }
    let left = reader.buffered();
    if left > 0 {
        let head = bytes
            .get(at..)
            .and_then(|rest| rest.first_chunk::<PREFIX_LEN>());
        return Err(match head {
            Some(head) => fail(
                at,
                format!(
                    "frame at byte {at} announces {} bytes, but only {} follow (cut short, or not store_var framing)",
                    prefix_len(*head, order),
                    left - PREFIX_LEN
                ),
            ),
            None => fail(
                at,
                format!("{left} byte(s) at byte {at} after the last frame: too few for a length prefix"),
            ),
        });
    }
    if items.is_empty() {
        return Err(fail(0, "the input is empty".into()));
    }
    Ok(items)
}

/// Calls `f` with each complete frame's payload.
fn for_each_frame(bytes: &[u8], order: ByteOrder, mut f: impl FnMut(&[u8])) {
    let mut reader = StreamReader::new(Options::default())
        .with_byte_order(order)
        .with_max_message(usize::MAX);
    if reader.feed(bytes).is_err() {
        return;
    }
    while let Ok(Some(frame)) = reader.next_frame() {
        f(&frame);
    }
}

/// True when `bytes` split into one or more complete frames with nothing left over.
fn splits_into_frames(bytes: &[u8], order: ByteOrder) -> bool {
    let mut reader = StreamReader::new(Options::default())
        .with_byte_order(order)
        .with_max_message(usize::MAX);
    if reader.feed(bytes).is_err() {
        return false;
    }
    let mut frames = 0usize;
    while let Ok(Some(_)) = reader.next_frame() {
        frames += 1;
    }
    frames > 0 && reader.buffered() == 0
}

/// Decodes `bytes` in the given dialect and framing, or guesses those left `None`: framed when
/// the input splits into frames exactly, else raw; values that take their bytes whole before
/// values followed by unread bytes; dialects in [`Dialect::ALL`] order (Godot 4 first).
pub fn resolve(
    bytes: &[u8],
    dialect: Option<Dialect>,
    framing: Option<Framing>,
    order: ByteOrder,
    opts: &Options,
) -> Result<Resolved, Fail> {
    let framings = match framing {
        Some(f) => vec![f],
        None if splits_into_frames(bytes, order) => vec![Framing::Framed],
        None => vec![Framing::Raw],
    };
    // Without a dialect: the dialects that read every record (each frame, or the whole raw
    // input) whole, as the core's detector finds them, first; for a raw input the others after
    // them, whose value leaves bytes unread (as bytes_to_var ignores them).
    let dialects = match dialect {
        Some(d) => vec![d],
        None => {
            let mut detector = DialectDetector::new(opts);
            match framings.first() {
                Some(Framing::Framed) => {
                    for_each_frame(bytes, order, |frame| detector.feed(frame));
                }
                _ => detector.feed(bytes),
            }
            let whole = detector.candidates();
            let rest = Dialect::ALL.into_iter().filter(|d| !whole.contains(d));
            whole.iter().copied().chain(rest).collect()
        }
    };
    let mut whole: Vec<Vec<Decoded>> = Vec::new();
    let mut partial: Vec<Vec<Decoded>> = Vec::new();
    let mut furthest: Option<(Failure, Dialect, Framing)> = None;
    for &f in &framings {
        let (mut w, mut p) = (Vec::new(), Vec::new());
        for &d in &dialects {
            let mut o = opts.clone();
            o.dialect = d;
            match decode_all(bytes, f, order, &o) {
                Ok(dec) if dec.whole() => w.push(dec),
                Ok(dec) => p.push(dec),
                Err(e) => {
                    if furthest.as_ref().is_none_or(|(best, _, _)| e.at > best.at) {
                        furthest = Some((e, d, f));
                    }
                }
            }
        }
        whole.push(w);
        partial.push(p);
    }
    let pick = whole
        .into_iter()
        .chain(partial)
        .find(|found| !found.is_empty());
    let Some(found) = pick else {
        let Some((e, d, f)) = furthest else {
            return Err(Fail::Invalid("nothing to decode".into()));
        };
        let mut context = Vec::new();
        if dialect.is_none() {
            context.push(dialect_name(d));
        }
        if framing.is_none() {
            context.push(f.name());
        }
        return Err(Fail::Invalid(if dialect.is_none() {
            format!(
                "no dialect decodes the input; the attempt that got furthest ({}): {}",
                context.join(", "),
                e.message
            )
        } else if framing.is_none() {
            format!("({}, guessed) {}", f.name(), e.message)
        } else {
            e.message
        }));
    };
    // Without a dialect, the core's rule: engine families that read the input as different
    // values leave it undecided (a Godot 3 Color is a Godot 4 Plane), never list order.
    let readings: Vec<(Dialect, Vec<Value>)> = found
        .iter()
        .map(|d| (d.dialect, d.items.iter().map(|i| i.value.clone()).collect()))
        .collect();
    let chosen = match judge(readings.iter().map(|(d, v)| (*d, v))) {
        Verdict::One(d, _) => d,
        Verdict::Ambiguous(_) => {
            let Some((index, reason)) = ambiguous_record(&readings) else {
                return Err(Fail::Invalid("nothing to decode".into()));
            };
            let at = found
                .first()
                .and_then(|d| d.items.get(index))
                .map_or(0, |i| i.start);
            return Err(Fail::Invalid(format!(
                "value {index} (byte {at}): {reason} with --dialect"
            )));
        }
        _ => return Err(Fail::Invalid("nothing to decode".into())),
    };
    let mut decoded = None;
    let mut others = Vec::new();
    for d in found {
        if d.dialect == chosen && decoded.is_none() {
            decoded = Some(d);
        } else {
            others.push(d.dialect);
        }
    }
    let Some(decoded) = decoded else {
        return Err(Fail::Invalid("nothing to decode".into()));
    };
    Ok(Resolved {
        dialect_guess: dialect.is_none().then_some(others),
        framing_guessed: framing.is_none(),
        decoded,
    })
}
