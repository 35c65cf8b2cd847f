//! Checks shared by the fuzz targets in `fuzz_targets/`.
//!
//! Most targets read their first input byte as a *selector* and decode the rest:
//!
//! | bits | meaning |
//! |---|---|
//! | 0 | `allow_objects` (and `full_objects` when a target encodes) |
//! | 1 | decode with a `ValueBuilder` that knows a few classes and one script, so full objects of other classes and other scripts are refused |
//! | 2–4 | an offset 1–7: also decode at that offset with `decode_with` and compare with decoding the sub-slice (0: no second decode) |
//! | 5–6 | `max_depth`: the default 1024, 0, 2 or 8 |
//!
//! `seed_corpus.sh` writes each golden input with selector 0x00, and with 0x01 when the engine
//! produced or decoded it with objects allowed.
//!
//! Every target links the project's counting allocator (`alloc_counter`, the file the core's
//! integration tests use too), so decodes can be held to the crate's promise that allocations
//! are bounded by the bytes present ([`within_heap_bound`]). It counts per thread; libFuzzer runs the
//! target on one thread.

pub mod serde_message;

#[path = "../../codec/tests/common/alloc_counter.rs"]
mod alloc_counter;

pub use alloc_counter::{measure, within_heap_bound, Usage, HEAP_PER_INPUT_BYTE, HEAP_SLACK};

use fast_var_codec_core::error::EncodeReason;
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::reader::decode_with;
use fast_var_codec_core::value::{ContainerType, ValueBuilder};
use fast_var_codec_core::{encode, encoded_size, CodecError, Dialect, Options, Value};

/// What the selector byte asks for.
#[derive(Debug, Clone, Copy)]
pub struct Selector {
    pub allow_objects: bool,
    pub known_classes: bool,
    pub offset: usize,
    pub max_depth: Option<usize>,
}

impl Selector {
    pub fn new(byte: u8) -> Self {
        Selector {
            allow_objects: byte & 1 != 0,
            known_classes: byte & 2 != 0,
            offset: usize::from((byte >> 2) & 7),
            max_depth: match (byte >> 5) & 3 {
                0 => None,
                1 => Some(0),
                2 => Some(2),
                _ => Some(8),
            },
        }
    }

    /// Splits the selector byte off the input.
    pub fn split(data: &[u8]) -> Option<(Selector, &[u8])> {
        let (&first, rest) = data.split_first()?;
        Some((Selector::new(first), rest))
    }

    pub fn options(&self, dialect: Dialect, precision: Precision) -> Options {
        let opts = Options::new(dialect)
            .with_precision(precision)
            .with_allow_objects(self.allow_objects);
        match self.max_depth {
            Some(d) => opts.with_max_depth(d),
            None => opts,
        }
    }

    pub fn builder(&self) -> ValueBuilder {
        if self.known_classes {
            ValueBuilder::default()
                .with_classes(
                    ["Object", "RefCounted", "Node", "Node2D", "Resource"].map(String::from),
                )
                .with_scripts(["res://a.gd".to_string()])
        } else {
            ValueBuilder::default()
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Decodes `data` as `opts` and `sel` say, checks what must hold of every decode, and returns
/// the result of the decode at offset 0.
///
/// * the heap held at once stays within [`within_heap_bound`] (the harness' bound);
/// * the size consumed is at least a header and never past the end (a final PackedByteArray's
///   padding may be missing: the size then ends with the input);
/// * an error's offset lies inside that range too, and the error renders;
/// * `decode_with(data, k)` agrees with decoding `&data[k..]`: same value and size, or the same
///   error `k` bytes further on.
pub fn check_decode(
    data: &[u8],
    opts: &Options,
    sel: Selector,
) -> Result<(Value, usize), CodecError> {
    let mut builder = sel.builder();
    let (result, usage) = measure(|| decode_with(data, 0, opts, &mut builder));
    let peak = usage.peak;
    assert!(
        within_heap_bound(&usage, data.len()),
        "decoding {} bytes held {peak} bytes of heap at once ({:.0} per input byte)",
        data.len(),
        peak as f64 / data.len().max(1) as f64
    );
    match &result {
        Ok((_, used)) => {
            assert!(*used >= 4, "decoded {used} bytes, less than a header");
            assert!(
                *used <= data.len(),
                "decoded {used} bytes out of {}",
                data.len()
            );
        }
        Err(e) => check_error(e, data.len(), 0),
    }
    if sel.offset > 0 && sel.offset <= data.len() {
        let k = sel.offset;
        let at = decode_with(data, k, opts, &mut sel.builder());
        let sub = decode_with(&data[k..], 0, opts, &mut sel.builder());
        match (&at, &sub) {
            (Ok((va, ua)), Ok((vb, ub))) => {
                assert!(
                    va == vb,
                    "decode at offset {k} differs from decoding the sub-slice"
                );
                assert_eq!(ua, ub, "size at offset {k} differs from the sub-slice's");
            }
            (
                Err(CodecError::Decode {
                    offset: oa,
                    reason: ra,
                }),
                Err(CodecError::Decode {
                    offset: ob,
                    reason: rb,
                }),
            ) => {
                assert_eq!(ra, rb, "error at offset {k} differs from the sub-slice's");
                assert_eq!(
                    *oa,
                    ob + k,
                    "error offset at {k} is not the sub-slice's + {k}"
                );
            }
            _ => panic!("decode at offset {k}: {at:?}\nsub-slice: {sub:?}"),
        }
    }
    result
}

fn check_error(e: &CodecError, len: usize, base: usize) {
    let _ = e.to_string();
    let _ = e.code().godot_value();
    match e {
        CodecError::Decode { offset, .. } => assert!(
            *offset >= base && *offset <= len + 3,
            "error offset {offset} outside the input of {len} bytes: {e}"
        ),
        _ => panic!("a decode returned another kind of error: {e}"),
    }
}

/// True when some text in `v` starts with U+FEFF. Both engines drop one leading byte-order
/// mark when decoding a string, so such text does not survive encode + decode (an engine
/// property the codec reproduces: golden case `string/leading_bom`); a value holding one is
/// not compared after a round trip (every other check still applies).
pub fn has_leading_bom(v: &Value) -> bool {
    let bom = |s: &str| s.starts_with('\u{FEFF}');
    let ty = |t: &ContainerType| match t {
        ContainerType::Class(s) | ContainerType::Script(s) => bom(s),
        _ => false,
    };
    match v {
        Value::String(s) | Value::StringName(s) => bom(s),
        Value::Signal { name, .. } => bom(name),
        Value::NodePath(p) => p.names.iter().chain(&p.subnames).any(|s| bom(s)),
        Value::PackedStringArray(items) => items.iter().any(|s| bom(s)),
        Value::Object(o) => {
            bom(&o.class)
                || o.properties
                    .iter()
                    .any(|(k, p)| bom(k) || has_leading_bom(p))
        }
        Value::Array(a) => ty(&a.element) || a.items.iter().any(has_leading_bom),
        Value::Dictionary(d) => {
            ty(&d.key)
                || ty(&d.value)
                || d.iter()
                    .any(|(k, v)| has_leading_bom(k) || has_leading_bom(v))
        }
        _ => false,
    }
}

/// `v` as a single-precision engine holds it (see `Value::with_single_precision_reals`).
pub fn narrow_reals(v: &Value) -> Value {
    v.with_single_precision_reals()
}

/// Whether narrowing `v` (decoded with double-precision options `double`) to single precision
/// makes Dictionary keys equal that were not: reals that differ at double precision can narrow to
/// the same binary32 (two denormal components both become 0.0), and the single-precision engine
/// then merges the keys. Found by encoding the narrowed value and decoding it at single precision,
/// which merges as the engine does: merging, and nothing else in that round trip, leaves fewer
/// Dictionary entries. False where the narrowed value does not encode or decode.
pub fn narrowing_merges_keys(v: &Value, double: &Options, sel: Selector) -> bool {
    let single = double.clone().with_precision(Precision::Single);
    let enc = single.clone().with_full_objects(sel.allow_objects);
    let narrowed = narrow_reals(v);
    let Ok(bytes) = encode(&narrowed, &enc) else {
        return false;
    };
    decode_with(&bytes, 0, &single, &mut sel.builder())
        .is_ok_and(|(merged, _)| dictionary_entries(&merged) < dictionary_entries(&narrowed))
}

/// The entries of every Dictionary in `v`, at any depth.
fn dictionary_entries(v: &Value) -> usize {
    match v {
        Value::Dictionary(d) => d
            .iter()
            .map(|(k, v)| 1 + dictionary_entries(k) + dictionary_entries(v))
            .sum(),
        Value::Array(a) => a.items.iter().map(dictionary_entries).sum(),
        Value::Object(o) => o
            .properties
            .iter()
            .map(|(_, v)| dictionary_entries(v))
            .sum(),
        _ => 0,
    }
}

/// Encodes `v` (decoded from `input` with `dec`) with `enc`, which must succeed and agree with
/// `encoded_size`; decodes the encoding with `dec`, which must succeed, consume it exactly and
/// give back `v` when `compare` (unless `v` holds text starting with a BOM, see
/// [`has_leading_bom`]). `compare` is off where `enc` may narrow reals (single precision).
pub fn check_reencode(
    input: &[u8],
    v: &Value,
    dec: &Options,
    enc: &Options,
    sel: Selector,
    compare: bool,
) {
    reencode(input, v, dec, enc, sel, compare, false);
}

fn reencode(
    input: &[u8],
    v: &Value,
    dec: &Options,
    enc: &Options,
    sel: Selector,
    compare: bool,
    too_deep_ok: bool,
) {
    let ctx = || format!("input {}\noptions {enc:?}\nvalue {v:?}", hex(input));
    let bytes = match encode(v, enc) {
        Ok(b) => b,
        Err(CodecError::Encode {
            reason: EncodeReason::TooDeep(_),
            ..
        }) if too_deep_ok => return,
        // A script path has no form in Godot 3 or Pandemonium (which embed the source): refused
        // by design, whichever dialect the value came from.
        Err(CodecError::Encode {
            reason: EncodeReason::ScriptNotInDialect { .. },
            ..
        }) if !matches!(enc.dialect, Dialect::Godot4 | Dialect::Godot4_3) => return,
        Err(e) => panic!("a decoded value does not encode: {e}\n{}", ctx()),
    };
    match encoded_size(v, enc) {
        Ok(n) => assert_eq!(
            n,
            bytes.len(),
            "encoded_size differs from encode\n{}",
            ctx()
        ),
        Err(e) => panic!("encoded_size fails where encode succeeds: {e}\n{}", ctx()),
    }
    let (v2, used) = match decode_with(&bytes, 0, dec, &mut sel.builder()) {
        Ok(r) => r,
        Err(e) => panic!(
            "the encoding {} does not decode: {e}\n{}",
            hex(&bytes),
            ctx()
        ),
    };
    assert_eq!(
        used,
        bytes.len(),
        "decoding the encoding {} consumed {used} bytes\n{}",
        hex(&bytes),
        ctx()
    );
    if compare && !has_leading_bom(v) {
        assert!(
            v2 == *v,
            "round trip changed the value\nencoding {}\nback {v2:?}\n{}",
            hex(&bytes),
            ctx()
        );
    }
}

/// A value decoded in one dialect, encoded in another (`enc`, e.g. Godot 3 with `allow_lossy`):
/// as [`check_reencode`], except that the encode may fail by nesting too deep (a lossy
/// conversion can add a level: a Signal or PackedInt64Array becomes an Array), and that a
/// Dictionary keyed by Dictionaries is not compared ([`has_dictionary_key`]).
pub fn check_cross(
    input: &[u8],
    v: &Value,
    dec: &Options,
    enc: &Options,
    sel: Selector,
    compare: bool,
) {
    reencode(
        input,
        v,
        dec,
        enc,
        sel,
        compare && !has_dictionary_key(v),
        true,
    );
}

/// Whether a Dictionary in `v` has a key that is or holds a Dictionary. Godot 3 and Pandemonium
/// tell such keys apart by identity, Godot 4 by content (`value/keys.rs`): a Godot 3 Dictionary
/// with two such keys of equal content is two entries there and one in Godot 4, as each engine
/// decodes it, so a value crossing between the two is not compared.
pub fn has_dictionary_key(v: &Value) -> bool {
    fn holds_dictionary(v: &Value) -> bool {
        match v {
            Value::Dictionary(_) => true,
            Value::Array(a) => a.items.iter().any(holds_dictionary),
            _ => false,
        }
    }
    match v {
        Value::Array(a) => a.items.iter().any(has_dictionary_key),
        Value::Dictionary(d) => d
            .iter()
            .any(|(k, v)| holds_dictionary(k) || has_dictionary_key(k) || has_dictionary_key(v)),
        Value::Object(o) => o.properties.iter().any(|(_, p)| has_dictionary_key(p)),
        _ => false,
    }
}
