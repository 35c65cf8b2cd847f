//! Values in records of a known length: a `store_var` record of a file or save, a frame of a
//! `put_var` stream, a packet. The length is known before the value is read, so a value that
//! leaves bytes of its record unread was written in another dialect (or is damaged): reading
//! on would return garbage without an error. Here it is an error that says so, and names the
//! dialect that reads the record whole, where one does.
//!
//! The same rule finds the dialect when none is given: the dialects in which every record
//! decodes and takes its bytes whole ([`decode_records`] with `None`, [`DialectDetector`]
//! message by message, for a connection). Where two engine families read the bytes whole as
//! different values (a Godot 3 Color is a Godot 4 Plane), nothing is guessed: a file is an
//! error that names each family's reading ([`DecodeReason::Ambiguous`]), and a connection holds
//! such a message until a later one tells the family ([`DialectDetector::push_message`]).
//!
//! The engines' own `get_var` ignore what a value leaves unread; `bytes_to_var`, which has no
//! record around the value, does too, and so does [`crate::decode`].
//!
//! # Examples
//! ```
//! use fast_var_codec_core::record::decode_record;
//! use fast_var_codec_core::{encode, Dialect, Options, Value};
//! use fast_var_codec_core::error::DecodeReason;
//!
//! // A Godot 3 Transform is a Godot 4 Vector4i's id, with 48 bytes where that reads 16.
//! let godot3 = Options::new(Dialect::Godot3);
//! let transform = Value::transform3d([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [5.0, 6.0, 7.0]);
//! let record = encode(&transform, &godot3)?;
//! assert_eq!(decode_record(&record, &godot3)?, transform);
//! let err = decode_record(&record, &Options::default()).unwrap_err();
//! assert!(err.to_string().contains("reads whole as Godot 3"), "{err}");
//! # Ok::<(), fast_var_codec_core::CodecError>(())
//! ```

use crate::build::Build;
use crate::dialect::Dialect;
use crate::error::{CodecError, DecodeReason, Result};
use crate::limits::Options;
use crate::reader::decode_with;
use crate::value::{Value, ValueBuilder};

mod detect;

pub use crate::error::Reading;
pub use detect::{
    ambiguous_record, judge, DialectDetector, Verdict, MAX_HELD_BYTES, MAX_HELD_MESSAGES,
};

/// Whether a value that took `used` bytes took all `len` bytes of its record.
fn takes_whole(used: usize, len: usize) -> bool {
    used == len
}

/// Decodes the value of a record of exactly `record.len()` bytes with `builder`.
///
/// # Errors
/// Those of [`crate::reader::decode_with`]; and [`DecodeReason::RecordNotWhole`] (`ERR_INVALID_DATA`),
/// at the first byte left unread, when the value does not take the record's bytes whole: its
/// `whole_in` names the first dialect of [`Dialect::ALL`] in which it does.
pub fn decode_record_with<B: Build>(
    record: &[u8],
    opts: &Options,
    builder: &mut B,
) -> Result<B::Value> {
    let (value, used) = decode_with(record, 0, opts, builder)?;
    check_whole(record, used, opts)?;
    Ok(value)
}

/// `Ok` when a value that took `used` bytes of `record` took them whole; otherwise the
/// [`DecodeReason::RecordNotWhole`] error of [`decode_record_with`], for decoders that read the
/// value in their own way (serde's).
pub(crate) fn check_whole(record: &[u8], used: usize, opts: &Options) -> Result<()> {
    if takes_whole(used, record.len()) {
        return Ok(());
    }
    let whole_in = Dialect::ALL
        .into_iter()
        .filter(|d| *d != opts.dialect)
        .find(|d| reads_whole(record, &with_dialect(opts, *d)));
    Err(CodecError::Decode {
        offset: used,
        reason: DecodeReason::RecordNotWhole {
            used,
            len: record.len(),
            dialect: opts.dialect,
            whole_in,
        },
    })
}

/// [`decode_record_with`] building [`Value`]s.
///
/// # Errors
/// As [`decode_record_with`].
///
/// # Examples
/// ```
/// use fast_var_codec_core::record::decode_record;
/// use fast_var_codec_core::{Options, Value};
///
/// let record = [2, 0, 0, 0, 7, 0, 0, 0]; // var_to_bytes(7)
/// assert_eq!(decode_record(&record, &Options::default())?, Value::Int(7));
/// let mut longer = record.to_vec();
/// longer.extend_from_slice(&[0, 0, 0, 0]); // four bytes the value leaves unread
/// assert!(decode_record(&longer, &Options::default()).is_err());
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn decode_record(record: &[u8], opts: &Options) -> Result<Value> {
    decode_record_with(record, opts, &mut ValueBuilder::default())
}

fn with_dialect(opts: &Options, dialect: Dialect) -> Options {
    let mut o = opts.clone();
    o.dialect = dialect;
    o
}

/// Whether `record` decodes in `opts.dialect` and takes its bytes whole. (A dialect without
/// binary64 reals decodes at single precision whatever `opts.precision` says.)
fn reads_whole(record: &[u8], opts: &Options) -> bool {
    matches!(
        decode_with(record, 0, opts, &mut ValueBuilder::default()),
        Ok((_, used)) if takes_whole(used, record.len())
    )
}

/// Every dialect in which `record` decodes (with `opts`' other settings) and takes its bytes
/// whole, in [`Dialect::ALL`] order.
///
/// # Examples
/// ```
/// use fast_var_codec_core::record::dialects_reading_whole;
/// use fast_var_codec_core::{Dialect, Options};
///
/// let int = [2, 0, 0, 0, 7, 0, 0, 0]; // the int 7: the same bytes in every dialect
/// assert_eq!(dialects_reading_whole(&int, &Options::default()), Dialect::ALL);
/// ```
pub fn dialects_reading_whole(record: &[u8], opts: &Options) -> Vec<Dialect> {
    Dialect::ALL
        .into_iter()
        .filter(|d| reads_whole(record, &with_dialect(opts, *d)))
        .collect()
}

/// The values of the records of a `store_var` payload ([`crate::save::records`]), each of which
/// must take its bytes whole; with `dialect` `None`, in the dialect the records tell: the engine
/// family in which every record reads whole (its newest dialect that does), or, where several
/// families do, the first of them when they all read the same values. Returns that dialect and
/// the values.
///
/// # Errors
/// A [`RecordError`]: a record cut short ([`crate::encrypted::FileError::RecordCut`]), or the
/// first record whose value fails (with [`DecodeReason::RecordNotWhole`] for one that leaves
/// bytes unread), its offset counted in the payload. Without a dialect: when none reads every
/// record whole, the failure of the dialect that got furthest; when families read the records
/// as different values, the first record where they differ, with [`DecodeReason::Ambiguous`]
/// naming each family's reading of it.
///
/// # Examples
/// ```
/// use fast_var_codec_core::record::decode_records;
/// use fast_var_codec_core::error::DecodeReason;
/// use fast_var_codec_core::stream::{frame, ByteOrder};
/// use fast_var_codec_core::{CodecError, Dialect, Options, Value};
///
/// // store_var records as Godot 3 writes them.
/// let godot3 = Options::new(Dialect::Godot3);
/// let mut payload = bytes::BytesMut::new();
/// frame(&Value::from("hp"), &godot3, ByteOrder::Little, &mut payload)?;
/// frame(&Value::Vector2([4.0, 2.0]), &godot3, ByteOrder::Little, &mut payload)?;
/// frame(&Value::rect2(0.0, 0.0, 8.0, 8.0), &godot3, ByteOrder::Little, &mut payload)?;
/// // Pandemonium reads no 8-byte Vector2 (its id 5 is a Rect2), Godot 4 no Godot 3 Rect2.
/// let (dialect, values) = decode_records(&payload, None, &Options::default())?;
/// assert_eq!(dialect, Dialect::Godot3);
/// assert_eq!(values[2], Value::rect2(0.0, 0.0, 8.0, 8.0));
/// // Named wrongly, the dialect is an error, not garbage.
/// assert!(decode_records(&payload, Some(Dialect::Godot4), &Options::default()).is_err());
///
/// // A Godot 3 Color alone is also a Godot 4 Plane: an error, not a guess.
/// let mut color = bytes::BytesMut::new();
/// frame(&Value::Color([0.1, 0.2, 0.3, 1.0]), &godot3, ByteOrder::Little, &mut color)?;
/// let err = decode_records(&color, None, &Options::default()).unwrap_err();
/// assert!(err.to_string().contains("as godot3"), "{err}");
/// assert_eq!(decode_records(&color, Some(Dialect::Godot3), &Options::default())?.1[0],
///            Value::Color([0.1, 0.2, 0.3, 1.0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "files")]
pub fn decode_records(
    payload: &[u8],
    dialect: Option<Dialect>,
    opts: &Options,
) -> std::result::Result<(Dialect, Vec<Value>), RecordError> {
    if let Some(d) = dialect {
        return decode_all(payload, &with_dialect(opts, d)).map(|v| (d, v));
    }
    match detect_payload(payload, opts) {
        Detected::One(d, values) => Ok((d, values)),
        Detected::Ambiguous(e) | Detected::Unread(_, e) => Err(e),
    }
}

/// What a payload's records tell of their dialect.
#[cfg(feature = "files")]
enum Detected {
    One(Dialect, Vec<Value>),
    /// Families read the records as different values: the error of the first that differs.
    Ambiguous(RecordError),
    /// No dialect reads every record whole: the one that got furthest, and its error.
    Unread(Dialect, RecordError),
}

/// The rule of [`decode_records`] without a dialect ([`judge`]'s): each family's newest dialect
/// that reads every record whole, the first family's values kept and each other family's
/// compared with them record by record as it reads, so that detection holds one reading of the
/// payload at a time, as a read in a given dialect does.
#[cfg(feature = "files")]
fn detect_payload(payload: &[u8], opts: &Options) -> Detected {
    let mut furthest: Option<(usize, Dialect, RecordError)> = None;
    let mut first: Option<(Dialect, Vec<Value>)> = None;
    // The other families that read every record whole: their first record read differently.
    let mut others: Vec<(Dialect, Option<(usize, Value)>)> = Vec::new();
    for d in Dialect::ALL {
        let read_in_family = first
            .iter()
            .map(|(f, _)| *f)
            .chain(others.iter().map(|(o, _)| *o));
        if read_in_family.into_iter().any(|w| w.family() == d.family()) {
            continue;
        }
        let read = match &first {
            None => decode_all(payload, &with_dialect(opts, d)).map(|values| {
                first = Some((d, values));
            }),
            Some((_, values)) => first_difference(payload, &with_dialect(opts, d), values)
                .map(|difference| others.push((d, difference))),
        };
        if let Err(e) = read {
            let reached = e.reached();
            if furthest.as_ref().is_none_or(|(best, _, _)| reached > *best) {
                furthest = Some((reached, d, e));
            }
        }
    }
    let Some((dialect, values)) = first else {
        return match furthest {
            Some((_, d, e)) => Detected::Unread(d, e),
            None => unreachable_unread(),
        };
    };
    let Some(index) = others
        .iter()
        .filter_map(|(_, diff)| diff.as_ref().map(|(i, _)| *i))
        .min()
    else {
        return Detected::One(dialect, values);
    };
    let Some(agreed) = values.get(index) else {
        return unreachable_unread();
    };
    let mut readings = vec![Reading {
        dialect,
        value: agreed.clone(),
    }];
    for (d, diff) in others {
        let value = match diff {
            Some((i, value)) if i == index => value,
            _ => agreed.clone(),
        };
        readings.push(Reading { dialect: d, value });
    }
    let offset = crate::save::records(payload)
        .nth(index)
        .and_then(|r| r.ok())
        .map_or(0, |r| r.offset);
    Detected::Ambiguous(RecordError::Value {
        index,
        offset,
        error: CodecError::decode(
            offset + crate::stream::PREFIX_LEN,
            DecodeReason::Ambiguous { readings },
        ),
    })
}

/// Reads every record of `payload` in `opts.dialect`, comparing each value with `values`': the
/// first that differs (its index and value), `None` when all are the same; an error when a
/// record does not read whole.
#[cfg(feature = "files")]
fn first_difference(
    payload: &[u8],
    opts: &Options,
    values: &[Value],
) -> std::result::Result<Option<(usize, Value)>, RecordError> {
    let mut difference = None;
    for_each_value(payload, opts, |index, value| {
        if difference.is_none() && values.get(index) != Some(&value) {
            difference = Some((index, value));
        }
    })?;
    Ok(difference)
}

/// The answer for a state the rule cannot reach (no dialect tried, or readings that differ
/// without a differing record): an error rather than a panic.
#[cfg(feature = "files")]
fn unreachable_unread() -> Detected {
    Detected::Unread(
        Dialect::ALL[0],
        RecordError::Value {
            index: 0,
            offset: 0,
            error: CodecError::decode(0, DecodeReason::Refused("no dialect to try".into())),
        },
    )
}

/// The dialect [`decode_records`] reads a payload in when given none: `Ok` with the one the
/// records tell; `Err` with [`DetectError::Ambiguous`] (its error) where families read them as
/// different values, or [`DetectError::Unread`] with the dialect whose read got furthest where
/// none reads every record whole.
///
/// # Examples
/// ```
/// use fast_var_codec_core::record::{detect_records, DetectError};
/// use fast_var_codec_core::{Dialect, Options};
///
/// let int = [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]; // one record: the int 7
/// assert_eq!(detect_records(&int, &Options::default()), Ok(Dialect::Godot4));
/// assert!(matches!(detect_records(&int[..10], &Options::default()), Err(DetectError::Unread(_))));
/// // A Godot 3 Color: also a Godot 4 Plane.
/// let color = [20, 0, 0, 0, 14, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 63];
/// assert!(matches!(detect_records(&color, &Options::default()), Err(DetectError::Ambiguous(_))));
/// ```
#[cfg(feature = "files")]
pub fn detect_records(payload: &[u8], opts: &Options) -> std::result::Result<Dialect, DetectError> {
    match detect_payload(payload, opts) {
        Detected::One(d, _) => Ok(d),
        Detected::Ambiguous(e) => Err(DetectError::Ambiguous(e)),
        Detected::Unread(d, _) => Err(DetectError::Unread(d)),
    }
}

/// Why [`detect_records`] found no dialect.
#[cfg(feature = "files")]
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DetectError {
    /// Engine families read the records as different values: the [`DecodeReason::Ambiguous`]
    /// error of the first record where they differ.
    Ambiguous(RecordError),
    /// No dialect reads every record whole: the one whose read got furthest.
    Unread(Dialect),
}

#[cfg(feature = "files")]
fn decode_all(payload: &[u8], opts: &Options) -> std::result::Result<Vec<Value>, RecordError> {
    let mut values = Vec::new();
    for_each_value(payload, opts, |_, value| values.push(value))?;
    Ok(values)
}

/// Gives `each` the index and value of every record of `payload` in `opts.dialect`, in order;
/// the first record that is cut short or does not read whole is the error.
#[cfg(feature = "files")]
fn for_each_value(
    payload: &[u8],
    opts: &Options,
    mut each: impl FnMut(usize, Value),
) -> std::result::Result<(), RecordError> {
    let mut builder = ValueBuilder::default();
    for (index, record) in crate::save::records(payload).enumerate() {
        let record = record.map_err(RecordError::Cut)?;
        let start = record.offset + crate::stream::PREFIX_LEN;
        let value = decode_record_with(record.bytes, opts, &mut builder).map_err(|e| {
            RecordError::Value {
                index,
                offset: record.offset,
                error: e.shifted(start),
            }
        })?;
        each(index, value);
    }
    Ok(())
}

/// Why the records of a payload could not be read.
#[cfg(feature = "files")]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// The payload ends inside a record.
    #[error(transparent)]
    Cut(crate::encrypted::FileError),
    /// A record's value failed (its offsets counted in the payload).
    #[error("value {index} (record at payload offset {offset}): {error}")]
    Value {
        /// The value's index (0 for the first).
        index: usize,
        /// Where its record's length is in the payload.
        offset: usize,
        /// Why it failed.
        error: CodecError,
    },
}

#[cfg(feature = "files")]
impl RecordError {
    /// The Godot `Error` for it.
    pub fn code(&self) -> crate::error::ErrorCode {
        match self {
            RecordError::Cut(e) => e.code(),
            RecordError::Value { error, .. } => error.code(),
        }
    }

    /// How far the read got: the payload offset of the failure.
    fn reached(&self) -> usize {
        match self {
            RecordError::Cut(crate::encrypted::FileError::RecordCut { offset, .. }) => *offset,
            RecordError::Cut(_) => 0,
            RecordError::Value { error, offset, .. } => match error {
                CodecError::Decode { offset, .. } => *offset,
                _ => *offset,
            },
        }
    }
}

/// An `std::io::Error` holding the error (of its [`RecordError::Cut`]'s kind for a cut
/// payload, [`std::io::ErrorKind::InvalidData`] for a value that failed), so that `?` works in
/// a function that returns `std::io::Result`.
///
/// # Examples
/// ```
/// use fast_var_codec_core::record::decode_records;
/// use fast_var_codec_core::Options;
///
/// fn load(payload: &[u8]) -> std::io::Result<usize> {
///     Ok(decode_records(payload, None, &Options::default())?.1.len())
/// }
/// let err = load(&[8, 0, 0, 0, 2, 0]).unwrap_err(); // a record cut short
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// ```
#[cfg(feature = "files")]
impl From<RecordError> for std::io::Error {
    fn from(e: RecordError) -> Self {
        let kind = match &e {
            RecordError::Cut(cut) => std::io::Error::from(cut.clone()).kind(),
            RecordError::Value { .. } => std::io::ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{frame, ByteOrder};
    use bytes::BytesMut;

    fn records(values: &[Value], opts: &Options) -> BytesMut {
        let mut out = BytesMut::new();
        for v in values {
            frame(v, opts, ByteOrder::Little, &mut out).unwrap();
        }
        out
    }

    #[test]
    fn a_godot3_payload_is_found_and_refused_as_godot4() {
        let g3 = Options::new(Dialect::Godot3);
        let values = [
            Value::Int(1),
            Value::transform3d(
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
                [1.0, 2.0, 3.0],
            ),
        ];
        let payload = records(&values, &g3);
        let (d, got) = decode_records(&payload, None, &Options::default()).unwrap();
        assert_eq!((d, got.as_slice()), (Dialect::Godot3, values.as_slice()));
        let err = decode_records(&payload, Some(Dialect::Godot4), &Options::default()).unwrap_err();
        let RecordError::Value { index, error, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!(*index, 1);
        assert!(matches!(
            error,
            CodecError::Decode {
                reason: DecodeReason::RecordNotWhole {
                    whole_in: Some(Dialect::Godot3),
                    ..
                },
                ..
            }
        ));
    }

    #[test]
    fn a_final_byte_array_without_its_padding_is_whole() {
        let opts = Options::default();
        let full = crate::encode(&Value::PackedByteArray(vec![1]), &opts).unwrap();
        assert_eq!(
            decode_record(&full[..9], &opts).unwrap(),
            Value::PackedByteArray(vec![1])
        );
    }

    #[test]
    fn a_double_precision_reader_still_finds_godot3() {
        let g3 = Options::new(Dialect::Godot3);
        let record = crate::encode(&Value::rect2(1.0, 2.0, 3.0, 4.0), &g3).unwrap();
        let double = Options::default().with_precision(crate::options::Precision::Double);
        let err = decode_record(&record, &double).unwrap_err();
        assert!(err.to_string().contains("reads whole as Godot 3"), "{err}");
        // A Vector2 leaves Pandemonium out (whose id 5 is a Rect2), the Rect2 Godot 4.
        let payload = records(
            &[Value::Vector2([1.0, 2.0]), Value::rect2(1.0, 2.0, 3.0, 4.0)],
            &g3,
        );
        assert_eq!(
            decode_records(&payload, None, &double).unwrap().0,
            Dialect::Godot3
        );
    }
}
