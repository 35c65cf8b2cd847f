//! Where values lie in their bytes: the byte range of every value a decode makes, top value and
//! every value inside it, for tools that show a file's bytes beside its values (a hex view, an
//! editor's offsets), and the records of a `store_var` payload read as far as they go, for a
//! damaged file: the values before the failing record and the error with its offset.
//!
//! The ranges come from the reader itself ([`Build::located`]), wrapped around any builder by
//! [`Locating`]; [`locate`] and `locate_records` (the `files` feature) build [`Value`]s with them.
//!
//! # Examples
//! ```
//! use fast_var_codec_core::locate::locate;
//! use fast_var_codec_core::{encode, Options, Value};
//!
//! let opts = Options::default();
//! let bytes = encode(&Value::array(vec![Value::Int(7), Value::from("hp")]), &opts)?;
//! let (value, used, spans) = locate(&bytes, 0, &opts)?;
//! assert_eq!(used, bytes.len());
//! // The Array (header and count: 8 bytes), the int (8 bytes), the String (4 + 4 + "hp" padded).
//! assert_eq!(spans.len(), 3);
//! assert_eq!((spans[0].start, spans[0].end, spans[0].descendants), (0, 28, 2));
//! assert_eq!((spans[1].start, spans[1].end, spans[1].descendants), (8, 16, 0));
//! assert_eq!((spans[2].start, spans[2].end, spans[2].descendants), (16, 28, 0));
//! # let _ = value;
//! # Ok::<(), fast_var_codec_core::CodecError>(())
//! ```

use crate::build::Build;
#[cfg(feature = "files")]
use crate::dialect::Dialect;
#[cfg(feature = "files")]
use crate::error::CodecError;
use crate::error::{DecodeReason, Result};
use crate::limits::Options;
#[cfg(feature = "files")]
use crate::record::{decode_record_with, judge, Verdict};
#[cfg(feature = "files")]
use crate::save::{detect_records, DetectError, RecordError};
use crate::types::ContainerType;
use crate::value::{Value, ValueBuilder};

mod failing_path;
pub use failing_path::failing_path;

/// Where one value lies: `start` is the offset of its header, `end` the offset after it (past
/// the input's end by the padding a final PackedByteArray may lack); `descendants` counts the
/// values inside it (items, keys and values, object property values, at every depth), which
/// follow it in a list of spans in pre-order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The offset of the value's header.
    pub start: usize,
    /// The offset after the value.
    pub end: usize,
    /// How many values lie inside it; they are the spans right after it.
    pub descendants: usize,
}

/// A [`Build`] that makes what `inner` makes and records where each value lies. The reader
/// reports the values inner first ([`Build::located`]); [`Locating::take_spans`] returns them in
/// pre-order (a container, then its items in wire order, each followed by what is inside it),
/// the order of the values in the decoded tree, item for item, where the builder keeps every
/// item (it does not when it merges Dictionary keys the engine finds equal or drops a typed
/// container's items, as the engine does). Not located: the items of a PackedStringArray and
/// the vectors of Pandemonium's int-vector pool arrays, which are data, not values.
#[derive(Debug, Default)]
pub struct Locating<B> {
    /// The builder that makes the values.
    pub inner: B,
    /// `(start, end)` of each value located so far, inner values first.
    located: Vec<(usize, usize)>,
}

impl<B> Locating<B> {
    /// Wraps `inner`.
    pub fn new(inner: B) -> Self {
        Locating {
            inner,
            located: Vec::new(),
        }
    }

    /// The spans of the values located since the last call, in pre-order, each offset plus
    /// `base`; forgets them.
    pub fn take_spans(&mut self, base: usize) -> Vec<Span> {
        let post = std::mem::take(&mut self.located);
        // Inner values come first and lie inside their container: the spans on the stack that
        // start inside a new value are its descendants.
        let mut stack: Vec<(usize, usize)> = Vec::new(); // (start, values in its subtree)
        let mut spans = Vec::with_capacity(post.len());
        for (start, end) in post {
            let mut size = 1;
            while let Some(&(s, n)) = stack.last() {
                if s > start && s < end.max(start + 1) {
                    size += n;
                    stack.pop();
                } else {
                    break;
                }
            }
            stack.push((start, size));
            spans.push(Span {
                start: start.saturating_add(base),
                end: end.saturating_add(base),
                descendants: size - 1,
            });
        }
        // Every value starts at its own offset (a header is four bytes, a container's items
        // follow its header): sorted by start, a tree's spans are in pre-order.
        spans.sort_unstable_by_key(|s| s.start);
        spans
    }
}

impl<B: Build> Build for Locating<B> {
    type Value = B::Value;
    type Array = B::Array;
    type Dictionary = B::Dictionary;
    type Object = B::Object;
    type Strings = B::Strings;

    crate::build::forward_values_to_inner!();

    fn begin_array(
        &mut self,
        element: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> std::result::Result<Self::Array, DecodeReason> {
        self.inner.begin_array(element, capacity, claimed)
    }
    fn push(
        &mut self,
        array: &mut Self::Array,
        v: Self::Value,
    ) -> std::result::Result<(), DecodeReason> {
        self.inner.push(array, v)
    }
    fn end_array(&mut self, array: Self::Array) -> Self::Value {
        self.inner.end_array(array)
    }
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> std::result::Result<Self::Dictionary, DecodeReason> {
        self.inner.begin_dictionary(key, value, capacity, claimed)
    }
    fn insert(
        &mut self,
        dict: &mut Self::Dictionary,
        key: Self::Value,
        value: Self::Value,
    ) -> std::result::Result<(), DecodeReason> {
        self.inner.insert(dict, key, value)
    }
    fn end_dictionary(&mut self, dict: Self::Dictionary) -> Self::Value {
        self.inner.end_dictionary(dict)
    }
    const LOCATES: bool = true;

    fn located(&mut self, value: Self::Value, start: usize, end: usize) -> Self::Value {
        self.located.push((start, end));
        self.inner.located(value, start, end)
    }
}

/// The value at `offset` of `bytes` as [`crate::decode_at`] reads it, the bytes it took, and
/// where it and every value inside it lie ([`Span`]s in pre-order, offsets in `bytes`).
///
/// # Errors
/// Those of [`crate::decode_at`].
pub fn locate(bytes: &[u8], offset: usize, opts: &Options) -> Result<(Value, usize, Vec<Span>)> {
    let mut b = Locating::new(ValueBuilder::default());
    let (value, used) = crate::reader::decode_with(bytes, offset, opts, &mut b)?;
    Ok((value, used, b.take_spans(0)))
}

/// One value of a payload, as [`locate_records`] read it.
#[derive(Debug, Clone, PartialEq)]
#[cfg(feature = "files")]
pub struct LocatedRecord {
    /// Where its record starts in the payload (its 4-byte length; the value itself, for a raw
    /// payload).
    pub offset: usize,
    /// The bytes of the value's encoding (what the length announces).
    pub len: usize,
    /// The value.
    pub value: Value,
    /// Where it and every value inside it lie, in pre-order, offsets in the payload.
    pub spans: Vec<Span>,
}

/// How a payload holds its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg(feature = "files")]
pub enum Framing {
    /// `store_var` records: a u32 length before each value.
    Records,
    /// One value and nothing else (`store_buffer(var_to_bytes(value))`).
    Raw,
}

/// A payload read as far as it goes ([`locate_records`]).
#[derive(Debug, Clone, PartialEq)]
#[cfg(feature = "files")]
pub struct LocatedRecords {
    /// The dialect the values were read in (given, or found).
    pub dialect: Dialect,
    /// How the payload holds them.
    pub framing: Framing,
    /// The values read, in order: all of them, or those before the failing record.
    pub records: Vec<LocatedRecord>,
    /// Why the read stopped early, offsets counted in the payload.
    pub error: Option<RecordError>,
}

/// The values of a payload with where each lies, read as far as they go: `store_var` records as
/// [`crate::save::decode_records`] reads them (with `dialect` `None`, in the dialect the
/// records tell), or, when no dialect does and the payload is one value that a dialect reads
/// whole (`var_to_bytes`' bytes stored as they are), that value ([`Framing::Raw`]). Where engine
/// families read the records (or the one value) as different values, the records before the
/// first that differs, and its [`crate::error::DecodeReason::Ambiguous`] error. When the records fail and the payload is no such value, the records
/// before the failing one (in the dialect given, or in the one that read furthest) and the
/// error: a damaged file shows what was read up to its failing byte.
///
/// # Examples
/// ```
/// use fast_var_codec_core::locate::{locate_records, Framing};
/// use fast_var_codec_core::{encode, Dialect, Options, Value};
///
/// // Two records (the int 7, then true), the second cut short.
/// let file = [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0];
/// let read = locate_records(&file, None, &Options::default());
/// assert_eq!(read.records.len(), 1);
/// assert_eq!(read.records[0].value, Value::Int(7));
/// assert_eq!(read.records[0].spans[0].start, 4);
/// assert!(read.error.is_some());
/// // var_to_bytes' bytes alone: one value, not records.
/// let raw = encode(&Value::from("hp"), &Options::new(Dialect::Godot3))?;
/// let read = locate_records(&raw, None, &Options::default());
/// assert_eq!((read.framing, read.error), (Framing::Raw, None));
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
#[cfg(feature = "files")]
pub fn locate_records(payload: &[u8], dialect: Option<Dialect>, opts: &Options) -> LocatedRecords {
    let with = |d: Dialect| {
        let mut o = opts.clone();
        o.dialect = d;
        o
    };
    let found = match dialect {
        Some(d) => Ok(d),
        None => detect_records(payload, opts),
    };
    // Records before the first one the families read differently read the same in each.
    let mut stop = None;
    let chosen = match found {
        Ok(d) => d,
        Err(DetectError::Ambiguous(e)) => {
            let first = first_reading(&e).unwrap_or(Dialect::ALL[0]);
            stop = Some(e);
            first
        }
        Err(DetectError::Unread(furthest)) => {
            // No dialect reads the records: one value, whole?
            let raw: Verdict<Value> = match dialect {
                Some(d) if reads_raw(payload, &with(d)) => Verdict::One(d, Value::Nil),
                Some(_) => Verdict::Unread,
                None if payload.is_empty() => Verdict::Unread,
                None => judge(Dialect::ALL.into_iter().filter_map(|d| {
                    crate::record::decode_record(payload, &with(d))
                        .ok()
                        .map(|v| (d, v))
                })),
            };
            match raw {
                Verdict::One(d, _) => {
                    if let Ok((value, used, spans)) = locate(payload, 0, &with(d)) {
                        return LocatedRecords {
                            dialect: d,
                            framing: Framing::Raw,
                            records: vec![LocatedRecord {
                                offset: 0,
                                len: used,
                                value,
                                spans,
                            }],
                            error: None,
                        };
                    }
                    furthest
                }
                Verdict::Ambiguous(readings) => {
                    let dialect = readings.first().map_or(Dialect::ALL[0], |(d, _)| *d);
                    let readings = readings
                        .into_iter()
                        .map(|(dialect, value)| crate::record::Reading { dialect, value })
                        .collect();
                    return LocatedRecords {
                        dialect,
                        framing: Framing::Raw,
                        records: Vec::new(),
                        error: Some(RecordError::Value {
                            index: 0,
                            offset: 0,
                            error: CodecError::decode(0, DecodeReason::Ambiguous { readings }),
                        }),
                    };
                }
                _ => furthest,
            }
        }
    };
    let o = with(chosen);
    let mut builder = Locating::new(ValueBuilder::default());
    let mut records = Vec::new();
    let mut error = None;
    for (index, record) in crate::save::records(payload).enumerate() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                error = Some(RecordError::Cut(e));
                break;
            }
        };
        if let Some(RecordError::Value { index: at, .. }) = &stop {
            if index == *at {
                error = stop.take();
                break;
            }
        }
        let start = record.offset + crate::stream::PREFIX_LEN;
        match decode_record_with(record.bytes, &o, &mut builder) {
            Ok(value) => records.push(LocatedRecord {
                offset: record.offset,
                len: record.bytes.len(),
                value,
                spans: builder.take_spans(start),
            }),
            Err(e) => {
                builder.take_spans(0);
                error = Some(RecordError::Value {
                    index,
                    offset: record.offset,
                    error: e.shifted(start),
                });
                break;
            }
        }
    }
    LocatedRecords {
        dialect: chosen,
        framing: Framing::Records,
        records,
        error,
    }
}

/// The first family's dialect of an ambiguous read's error.
#[cfg(feature = "files")]
fn first_reading(e: &RecordError) -> Option<Dialect> {
    match e {
        RecordError::Value {
            error:
                CodecError::Decode {
                    reason: DecodeReason::Ambiguous { readings },
                    ..
                },
            ..
        } => readings.first().map(|r| r.dialect),
        _ => None,
    }
}

/// Whether `payload` is one value that `opts.dialect` reads whole (and not empty).
#[cfg(feature = "files")]
fn reads_raw(payload: &[u8], opts: &Options) -> bool {
    !payload.is_empty() && crate::record::decode_record(payload, opts).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{frame, ByteOrder};

    fn dict() -> Value {
        Value::dictionary(vec![
            (Value::from("a"), Value::Int(1)),
            (
                Value::from("list"),
                Value::array(vec![Value::Float(0.5), Value::vector2(1.0, 2.0)]),
            ),
        ])
    }

    #[test]
    fn spans_are_in_preorder_with_their_descendants() {
        let opts = Options::default();
        let bytes = crate::encode(&dict(), &opts).unwrap();
        let (_, used, spans) = locate(&bytes, 0, &opts).unwrap();
        assert_eq!(used, bytes.len());
        // The Dictionary, "a", 1, "list", the Array, 0.5, the Vector2.
        let tree: Vec<usize> = spans.iter().map(|s| s.descendants).collect();
        assert_eq!(tree, [6, 0, 0, 0, 2, 0, 0]);
        assert_eq!((spans[0].start, spans[0].end), (0, bytes.len()));
        for s in &spans {
            let (v, n) = crate::decode_at(&bytes, s.start, &opts).unwrap();
            assert_eq!(s.start + n, s.end, "{v:?}");
        }
    }

    #[test]
    fn a_damaged_record_keeps_the_records_before_it() {
        let g3 = Options::new(Dialect::Godot3);
        let mut payload = bytes::BytesMut::new();
        for v in [Value::Int(1), dict(), Value::rect2(1.0, 2.0, 3.0, 4.0)] {
            frame(&v, &g3, ByteOrder::Little, &mut payload).unwrap();
        }
        let whole = locate_records(&payload, None, &Options::default());
        assert_eq!(whole.dialect, Dialect::Godot3);
        assert_eq!(whole.records.len(), 3);
        assert!(whole.error.is_none());
        assert_eq!(whole.records[1].spans[0].start, whole.records[1].offset + 4);
        let mut damaged = payload.to_vec();
        let third = whole.records[2].offset;
        damaged[third + 4] = 0xee; // the Rect2's header: no such type
        let read = locate_records(&damaged, None, &Options::default());
        assert_eq!(read.records.len(), 2);
        assert_eq!(read.records[1].value, dict());
        let Some(RecordError::Value { index, error, .. }) = &read.error else {
            panic!("{:?}", read.error)
        };
        assert_eq!(*index, 2);
        assert!(matches!(error, crate::CodecError::Decode { offset, .. } if *offset == third + 4));
    }
}
