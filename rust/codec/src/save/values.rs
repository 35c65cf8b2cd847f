//! The values of a payload's `store_var` records, each read whole (the record rule of
//! [`crate::record`]), in a given dialect or in the one the records tell.

use super::FileError;
use crate::error::{CodecError, DecodeReason, Reading};
use crate::limits::Options;
use crate::record::{decode_record_with, with_dialect};
use crate::stream::PREFIX_LEN;
use crate::value::{Value, ValueBuilder};
use crate::Dialect;

/// The values of the records of a `store_var` payload ([`super::records`]), each of which
/// must take its bytes whole; with `dialect` `None`, in the dialect the records tell: the engine
/// family in which every record reads whole (its newest dialect that does), or, where several
/// families do, the first of them when they all read the same values. Returns that dialect and
/// the values.
///
/// # Errors
/// A [`RecordError`]: a record cut short ([`FileError::RecordCut`]), or the
/// first record whose value fails (with [`DecodeReason::RecordNotWhole`] for one that leaves
/// bytes unread), its offset counted in the payload. Without a dialect: when none reads every
/// record whole, the failure of the dialect that got furthest; when families read the records
/// as different values, the first record where they differ, with [`DecodeReason::Ambiguous`]
/// naming each family's reading of it.
///
/// # Examples
/// ```
/// use fast_var_codec_core::save::decode_records;
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
    let offset = super::records(payload)
        .nth(index)
        .and_then(|r| r.ok())
        .map_or(0, |r| r.offset);
    Detected::Ambiguous(RecordError::Value {
        index,
        offset,
        error: CodecError::decode(offset + PREFIX_LEN, DecodeReason::Ambiguous { readings }),
    })
}

/// Reads every record of `payload` in `opts.dialect`, comparing each value with `values`': the
/// first that differs (its index and value), `None` when all are the same; an error when a
/// record does not read whole.
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
/// use fast_var_codec_core::save::{detect_records, DetectError};
/// use fast_var_codec_core::{Dialect, Options};
///
/// let int = [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]; // one record: the int 7
/// assert_eq!(detect_records(&int, &Options::default()), Ok(Dialect::Godot4));
/// assert!(matches!(detect_records(&int[..10], &Options::default()), Err(DetectError::Unread(_))));
/// // A Godot 3 Color: also a Godot 4 Plane.
/// let color = [20, 0, 0, 0, 14, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 63];
/// assert!(matches!(detect_records(&color, &Options::default()), Err(DetectError::Ambiguous(_))));
/// ```
pub fn detect_records(payload: &[u8], opts: &Options) -> std::result::Result<Dialect, DetectError> {
    match detect_payload(payload, opts) {
        Detected::One(d, _) => Ok(d),
        Detected::Ambiguous(e) => Err(DetectError::Ambiguous(e)),
        Detected::Unread(d, _) => Err(DetectError::Unread(d)),
    }
}

/// Why [`detect_records`] found no dialect.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DetectError {
    /// Engine families read the records as different values: the [`DecodeReason::Ambiguous`]
    /// error of the first record where they differ.
    #[error(transparent)]
    Ambiguous(RecordError),
    /// No dialect reads every record whole: the one whose read got furthest.
    #[error("no dialect reads every record whole ({} read furthest)", .0.short_name())]
    Unread(Dialect),
}

impl DetectError {
    /// The Godot `Error` for it: the ambiguous record's, or `ERR_INVALID_DATA`.
    pub fn code(&self) -> crate::error::ErrorCode {
        match self {
            DetectError::Ambiguous(e) => e.code(),
            DetectError::Unread(_) => crate::error::ErrorCode::InvalidData,
        }
    }
}

/// An [`std::io::ErrorKind::InvalidData`] holding the error, so that `?` works in a function
/// that returns `std::io::Result`.
impl From<DetectError> for std::io::Error {
    fn from(e: DetectError) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

fn decode_all(payload: &[u8], opts: &Options) -> std::result::Result<Vec<Value>, RecordError> {
    let mut values = Vec::new();
    for_each_value(payload, opts, |_, value| values.push(value))?;
    Ok(values)
}

/// Gives `each` the index and value of every record of `payload` in `opts.dialect`, in order;
/// the first record that is cut short or does not read whole is the error.
fn for_each_value(
    payload: &[u8],
    opts: &Options,
    mut each: impl FnMut(usize, Value),
) -> std::result::Result<(), RecordError> {
    let mut builder = ValueBuilder::default();
    for (index, record) in super::records(payload).enumerate() {
        let record = record.map_err(RecordError::Cut)?;
        let start = record.offset + PREFIX_LEN;
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
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// The payload ends inside a record.
    #[error(transparent)]
    Cut(FileError),
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
            RecordError::Cut(FileError::RecordCut { offset, .. }) => *offset,
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
/// use fast_var_codec_core::save::decode_records;
/// use fast_var_codec_core::Options;
///
/// fn load(payload: &[u8]) -> std::io::Result<usize> {
///     Ok(decode_records(payload, None, &Options::default())?.1.len())
/// }
/// let err = load(&[8, 0, 0, 0, 2, 0]).unwrap_err(); // a record cut short
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// ```
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
    fn a_double_precision_reader_still_finds_godot3() {
        let g3 = Options::new(Dialect::Godot3);
        let double = Options::default().with_precision(crate::options::Precision::Double);
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
