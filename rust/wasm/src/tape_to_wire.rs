//! A tape JavaScript wrote, fed straight to the core's [`Writer`] without a `Value` tree (the
//! mirror of `tape_builder`): untyped containers, numbers and strings are walked here, every
//! other value is read alone into the core's `Value` (`tape::Reader::value`) and written by the
//! core's `write_value`; a large packed array stops the walk (the caller encodes the model's
//! value, as for an error). No bytes are written here, so every rule of the format stays in the
//! core.
//!
//! The walk only knows that a value failed, not why: the package's errors come from the
//! reference path (the whole tape read into a `Value`, then the core's encode), run again on
//! failure, so that errors and their paths stay exactly as they are.

use fast_var_codec_core::error::{CodecError, EncodeReason};
use fast_var_codec_core::value::{write_value, ContainerType};
use fast_var_codec_core::writer::{Sink, Writer};
use fast_var_codec_core::Result;

use crate::tape::{self, Reader, TapeError};

/// A container being written: whether a Dictionary, and how many values it still takes (a
/// Dictionary's keys and values each count).
struct Level {
    dictionary: bool,
    left: usize,
}

/// Where the walk left room for a typed array JavaScript places itself (PACKED_HOLE): at `at`
/// in the output, `size` bytes (its numbers' little-endian bytes, then zeros).
pub struct Hole {
    pub at: usize,
    pub size: usize,
}

/// Feeds the one value of `tape` to `w`; an error (its reason a placeholder) when the value, or
/// the tape, is refused. With `holes`, a PACKED_HOLE's head is written and its room listed
/// there, nothing else (without, the walk stops at one).
pub fn write_tape<S: Sink>(
    w: &mut Writer<'_, S>,
    tape: &[u8],
    mut holes: Option<&mut Vec<Hole>>,
) -> Result<()> {
    let mut r = Reader::new(tape);
    let mut open: Vec<Level> = Vec::new();
    loop {
        if let Some(level) = value(w, &mut r, holes.as_deref_mut()).map_err(|Stop| refused())? {
            if level.left > 0 {
                open.push(level);
                continue;
            }
            close(w, &level);
        }
        // Close the containers this value completes.
        loop {
            let Some(top) = open.last_mut() else {
                return if r.at_end() { Ok(()) } else { Err(refused()) };
            };
            top.left -= 1;
            if top.left > 0 {
                break;
            }
            if let Some(done) = open.pop() {
                close(w, &done);
            }
        }
    }
}

fn close<S: Sink>(w: &mut Writer<'_, S>, level: &Level) {
    if level.dictionary {
        w.end_dictionary();
    } else {
        w.end_array();
    }
}

/// Elements from which a packed array is left to the model (64 Ki: 256 KiB of binary32).
const LARGE_PACKED: usize = 1 << 16;

/// Whether `tag` is a packed array's (its element count follows it).
fn is_packed(tag: u8) -> bool {
    matches!(
        tag,
        tape::PACKED_BYTE
            | tape::PACKED_STRING
            | tape::PACKED_INT32
            | tape::PACKED_INT64
            | tape::PACKED_FLOAT32
            | tape::PACKED_FLOAT64
            | tape::PACKED_VECTOR2
            | tape::PACKED_VECTOR3
            | tape::PACKED_VECTOR4
            | tape::PACKED_COLOR
    )
}

/// A placeholder: the walk's errors are not reported (see the module's comment).
fn refused() -> CodecError {
    CodecError::encode(EncodeReason::Invalid(String::new()))
}

/// The walk stopped: at a tape it cannot read, or a value the writer refused.
struct Stop;

impl From<TapeError> for Stop {
    fn from(_: TapeError) -> Self {
        Stop
    }
}

impl From<CodecError> for Stop {
    fn from(_: CodecError) -> Self {
        Stop
    }
}

/// Writes the next value of the tape; an untyped container's head only, returned with the count
/// of values it takes.
#[inline(never)]
fn value<S: Sink>(
    w: &mut Writer<'_, S>,
    r: &mut Reader<'_>,
    holes: Option<&mut Vec<Hole>>,
) -> std::result::Result<Option<Level>, Stop> {
    let untyped = ContainerType::Untyped;
    match r.peek(0) {
        Some(tape::NIL) => {
            r.skip(1);
            w.nil()?;
        }
        Some(tape::FALSE) => {
            r.skip(1);
            w.bool(false)?;
        }
        Some(tape::TRUE) => {
            r.skip(1);
            w.bool(true)?;
        }
        Some(tape::INT32) => {
            r.skip(1);
            w.int(i64::from(i32::from_le_bytes(r.array()?)))?;
        }
        Some(tape::INT64) => {
            r.skip(1);
            w.int(i64::from_le_bytes(r.array()?))?;
        }
        Some(tape::FLOAT) => {
            r.skip(1);
            w.float(r.f64()?)?;
        }
        Some(tape::STRING) => {
            r.skip(1);
            w.string(r.str_ref()?)?;
        }
        // A large packed array is the model's: read into a `Value`, it would be held three times
        // at once here (the tape, its items, the output), where the model's path lets the tape
        // go first; a small one is read into a `Value` below.
        Some(tag) if is_packed(tag) && r.peek_u32(1).is_some_and(|n| n > LARGE_PACKED) => {
            return Err(Stop);
        }
        Some(tape::PACKED_HOLE) => {
            let (Some(holes), Some(ty)) = (holes, r.peek(1).and_then(tape::numbers_type)) else {
                return Err(Stop);
            };
            r.skip(2);
            let count = r.u32()?;
            // None where the dialect writes these numbers otherwise: they must cross after all.
            let size = w.packed_numbers_head(ty, count)?.ok_or(Stop)?;
            holes.push(Hole {
                at: w.sink().written(),
                size,
            });
        }
        Some(tape::ARRAY) if r.peek(1) == Some(tape::UNTYPED) => {
            r.skip(2);
            let n = r.u32()?;
            w.begin_array(&untyped, n)?;
            return Ok(Some(Level {
                dictionary: false,
                left: n,
            }));
        }
        Some(tape::DICTIONARY)
            if r.peek(1) == Some(tape::UNTYPED) && r.peek(2) == Some(tape::UNTYPED) =>
        {
            r.skip(3);
            let n = r.u32()?;
            w.begin_dictionary(&untyped, &untyped, n)?;
            return Ok(Some(Level {
                dictionary: true,
                left: n.checked_mul(2).ok_or(Stop)?,
            }));
        }
        _ => {
            let v = r.value()?;
            write_value(w, &v)?;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::BytesMut;
    use fast_var_codec_core::value::{NodePath, VariantType};
    use fast_var_codec_core::{Dialect, Options, Value};

    /// `v` crossed as a tape and walked into the writer, or None when the walk stopped.
    fn walked(v: &Value, opts: &Options) -> Option<BytesMut> {
        let mut tape = Vec::new();
        tape::write(&mut tape, v);
        let mut w = Writer::new(BytesMut::new(), opts).ok()?;
        write_tape(&mut w, &tape, None).ok()?;
        Some(w.into_sink())
    }

    fn s(text: &str) -> Value {
        Value::String(text.into())
    }

    #[test]
    fn writes_the_bytes_of_the_models_encode() {
        let leaves = vec![
            Value::Nil,
            Value::Bool(true),
            Value::Int(-5),
            Value::Int(1 << 40),
            Value::Float(0.1),
            s("zoë"),
            // Every length the tape reader's short ASCII test reads differently, and non-ASCII
            // at its edges.
            s(""),
            s("ab"),
            s("abcd"),
            s("abcdefg"),
            s("abcdefgh"),
            s("0123456789abcdef"),
            s("0123456789abcdefg"),
            s(&"a".repeat(64)),
            s(&"a".repeat(65)),
            s(&format!("{}é", "a".repeat(62))),
            s("é"),
            s("abcdefgé"),
            s("éabcdefghijklmn"),
            Value::Vector2([1.5, 2.0]),
            Value::Color([0.5, 0.25, 1.0, 1.0]),
            Value::NodePath(Box::new(NodePath::from("/root/a:b"))),
            Value::PackedByteArray(vec![1, 2, 3]),
            Value::PackedFloat32Array(vec![0.5; 300]),
            Value::PackedStringArray(vec!["a".into(), "ü".into()]),
            Value::array(vec![]),
            Value::dictionary(vec![]),
            Value::typed_array(
                ContainerType::Builtin(VariantType::Int),
                vec![Value::Int(1)],
            ),
        ];
        let v = Value::array(vec![
            Value::array(leaves.clone()),
            Value::dictionary(vec![
                (s("leaves"), Value::array(leaves)),
                (Value::Int(7), Value::dictionary(vec![(s("a"), Value::Nil)])),
            ]),
        ]);
        let opts = Options::new(Dialect::Godot4);
        let expected = fast_var_codec_core::encode(&v, &opts).ok();
        assert!(expected.is_some());
        assert_eq!(walked(&v, &opts), expected);
    }

    #[test]
    fn stops_where_the_models_encode_fails_and_at_large_packed_arrays() {
        // Godot 3 has no Vector3i: the model refuses, and so does the walk.
        let v = Value::dictionary(vec![(
            s("k"),
            Value::array(vec![Value::Vector3i([1, 2, 3])]),
        )]);
        let opts = Options::new(Dialect::Godot3);
        assert!(fast_var_codec_core::encode(&v, &opts).is_err());
        assert_eq!(walked(&v, &opts), None);
        // Deeper than the limit.
        let mut deep = Value::Nil;
        for _ in 0..=opts.limits.depth() {
            deep = Value::array(vec![deep]);
        }
        assert!(fast_var_codec_core::encode(&deep, &opts).is_err());
        assert_eq!(walked(&deep, &opts), None);
        // A large packed array of numbers, left to the model (which writes it).
        let large = Value::PackedFloat32Array(vec![0.5; LARGE_PACKED + 1]);
        assert!(fast_var_codec_core::encode(&large, &opts).is_ok());
        assert_eq!(walked(&large, &opts), None);
        // A tape with bytes after its value.
        let mut tape = Vec::new();
        tape::write(&mut tape, &Value::Nil);
        tape.push(tape::NIL);
        let mut w = Writer::new(BytesMut::new(), &opts).expect("a writer");
        assert!(write_tape(&mut w, &tape, None).is_err());
    }
}
