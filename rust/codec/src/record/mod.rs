//! Values in records of a known length: a `store_var` record of a file or save, a frame of a
//! `put_var` stream, a packet. The length is known before the value is read, so a value that
//! leaves bytes of its record unread was written in another dialect (or is damaged): reading
//! on would return garbage without an error. Here it is an error that says so, and names the
//! dialect that reads the record whole, where one does.
//!
//! The same rule finds the dialect when none is given: the dialects in which every record
//! decodes and takes its bytes whole (`save::decode_records` with `None`, [`DialectDetector`]
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

pub(crate) fn with_dialect(opts: &Options, dialect: Dialect) -> Options {
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_double_precision_reader_still_names_godot3() {
        let g3 = Options::new(Dialect::Godot3);
        let record = crate::encode(&Value::rect2(1.0, 2.0, 3.0, 4.0), &g3).unwrap();
        let double = Options::default().with_precision(crate::options::Precision::Double);
        let err = decode_record(&record, &double).unwrap_err();
        assert!(err.to_string().contains("reads whole as Godot 3"), "{err}");
    }
}
