//! Which dialect wrote bytes that do not name it: the bytes decide, or nothing does.
//!
//! Most values are the same bytes in every engine family (ints, Strings, Vector2s, Arrays of
//! them), and many are not: a record that reads whole in one family only tells the dialect. But
//! some bytes read whole in two families as two different values: a Godot 3 Color is a Godot 4
//! Plane of the same 20 bytes, a Godot 3 AABB a Godot 4 Transform2D, a PoolByteArray of 12
//! bytes a Color. Such bytes are never decided by the order of [`Dialect::ALL`]:
//!
//! * a file whose records agree on one family is read in it; where every family that reads
//!   them reads different values, the read fails with [`DecodeReason::Ambiguous`], which names
//!   each family's reading, so that the caller can pass the dialect;
//! * a connection ([`DialectDetector::push_message`]) delivers a message whose value is the
//!   same in every family still possible at once, and holds one whose value differs until a
//!   later message settles the family (at most [`MAX_HELD_MESSAGES`] messages and
//!   [`MAX_HELD_BYTES`] bytes; past that, the oldest undecided message is refused with
//!   [`DecodeReason::Ambiguous`]).
//!
//! Within a family the newest dialect that reads the bytes whole is taken: a later release
//! reads what an earlier one wrote as the earlier one did, and adds only what it can write.

use std::collections::VecDeque;

use crate::dialect::Dialect;
use crate::error::{CodecError, DecodeReason, Reading, Result};
use crate::limits::Options;
use crate::value::Value;

use super::{decode_record, with_dialect};

/// The most messages a [`DialectDetector`] holds while their dialect is undecided.
pub const MAX_HELD_MESSAGES: usize = 64;

/// The most message bytes a [`DialectDetector`] holds while their dialect is undecided.
pub const MAX_HELD_BYTES: usize = 1 << 20;

/// What the dialects that read some bytes whole make of them ([`judge`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Verdict<T> {
    /// No dialect reads them whole.
    Unread,
    /// One engine family reads them, or every family reads the same: the first family's newest
    /// dialect and its reading.
    One(Dialect, T),
    /// Engine families read them as different things: each family's newest dialect and its
    /// reading, in [`Dialect::ALL`] order.
    Ambiguous(Vec<(Dialect, T)>),
}

/// The rule for bytes that do not name their dialect, given what each dialect that reads them
/// whole reads (in [`Dialect::ALL`] order): the first family's reading when every family reads
/// the same, else every family's.
///
/// # Examples
/// ```
/// use fast_var_codec_core::record::{judge, Verdict};
/// use fast_var_codec_core::Dialect;
///
/// let same = [(Dialect::Godot4, 7), (Dialect::Godot4_3, 7), (Dialect::Godot3, 7)];
/// assert_eq!(judge(same), Verdict::One(Dialect::Godot4, 7));
/// let differ = [(Dialect::Godot4, "Plane"), (Dialect::Godot3, "Color")];
/// assert!(matches!(judge(differ), Verdict::Ambiguous(r) if r.len() == 2));
/// assert_eq!(judge(Vec::<(Dialect, u8)>::new()), Verdict::Unread);
/// ```
pub fn judge<T: PartialEq>(readings: impl IntoIterator<Item = (Dialect, T)>) -> Verdict<T> {
    let mut families: Vec<(Dialect, T)> = Vec::new();
    for (dialect, reading) in readings {
        if !families.iter().any(|(d, _)| d.family() == dialect.family()) {
            families.push((dialect, reading));
        }
    }
    let agree = families
        .first()
        .is_none_or(|(_, first)| families.iter().all(|(_, r)| r == first));
    match families.len() {
        0 => Verdict::Unread,
        _ if agree => {
            let (dialect, reading) = families.swap_remove(0);
            Verdict::One(dialect, reading)
        }
        _ => Verdict::Ambiguous(families),
    }
}

/// The [`DecodeReason::Ambiguous`] of records that families read as different values: the
/// index of the first record where they differ, and each family's reading of it (the first
/// reading given of each family, so that the readings of every dialect may be passed).
///
/// # Examples
/// ```
/// use fast_var_codec_core::record::ambiguous_record;
/// use fast_var_codec_core::error::DecodeReason;
/// use fast_var_codec_core::{Dialect, Value};
///
/// let plane = Value::Plane(Box::new([0.0, 1.0, 0.0, 2.0]));
/// let readings = [
///     (Dialect::Godot4, vec![Value::Int(1), plane.clone()]),
///     (Dialect::Godot4_3, vec![Value::Int(1), plane]),
///     (Dialect::Godot3, vec![Value::Int(1), Value::Color([0.0, 1.0, 0.0, 2.0])]),
/// ];
/// let (index, reason) = ambiguous_record(&readings).unwrap();
/// assert_eq!(index, 1);
/// let text = reason.to_string();
/// assert!(text.contains("Color(0, 1, 0, 2) as godot3"), "{text}");
/// assert!(!text.contains("godot4_3"), "one reading a family: {text}");
/// ```
pub fn ambiguous_record(readings: &[(Dialect, Vec<Value>)]) -> Option<(usize, DecodeReason)> {
    let first = &readings.first()?.1;
    let index = (0..first.len()).find(|&i| {
        readings
            .iter()
            .any(|(_, values)| values.get(i) != first.get(i))
    })?;
    let mut shown: Vec<Reading> = Vec::new();
    for (dialect, values) in readings {
        if shown.iter().any(|r| r.dialect.family() == dialect.family()) {
            continue;
        }
        if let Some(value) = values.get(index) {
            shown.push(Reading {
                dialect: *dialect,
                value: value.clone(),
            });
        }
    }
    Some((index, DecodeReason::Ambiguous { readings: shown }))
}

/// What every candidate dialect that reads `record` whole reads, in their order.
fn whole_readings(record: &[u8], candidates: &[Dialect], opts: &Options) -> Vec<(Dialect, Value)> {
    candidates
        .iter()
        .filter_map(|d| {
            decode_record(record, &with_dialect(opts, *d))
                .ok()
                .map(|v| (*d, v))
        })
        .collect()
}

/// The dialect of a sequence of records (a connection's messages, a file's records), found
/// record by record: the candidates are the dialects in which every record so far decodes and
/// takes its bytes whole; the detector is settled once they belong to one engine family.
///
/// For a connection, [`DialectDetector::push_message`] takes each message and
/// [`DialectDetector::next_value`] gives the values in message order: at once for a message
/// that reads the same in every family still possible, later for one that does not (the
/// module's rule: [`crate::record`]).
///
/// # Examples
/// ```
/// use fast_var_codec_core::record::DialectDetector;
/// use fast_var_codec_core::{encode, Dialect, Options, Value};
///
/// let godot3 = Options::new(Dialect::Godot3);
/// let mut detector = DialectDetector::new(&Options::default());
/// // An int reads the same everywhere: delivered at once, nothing settled.
/// detector.push_message(&encode(&Value::Int(1), &godot3)?, 0);
/// assert_eq!(detector.next_value(), Some(Ok(Value::Int(1))));
/// assert!(!detector.is_settled());
/// // A Godot 3 Color is also a Godot 4 Plane: held.
/// let color = Value::Color([1.0, 0.5, 0.0, 1.0]);
/// detector.push_message(&encode(&color, &godot3)?, 12);
/// assert_eq!(detector.next_value(), None);
/// assert_eq!(detector.held(), 1);
/// // Pandemonium reads no 8-byte Vector2 (its id 5 is a Rect2), Godot 4 no Godot 3 Rect2: settled,
/// // and the Color comes out a Color.
/// let (vector, rect) = (Value::Vector2([1.0, 2.0]), Value::rect2(1.0, 2.0, 3.0, 4.0));
/// detector.push_message(&encode(&vector, &godot3)?, 36);
/// detector.push_message(&encode(&rect, &godot3)?, 48);
/// assert_eq!(detector.dialect(), Some(Dialect::Godot3));
/// assert_eq!(detector.next_value(), Some(Ok(color)));
/// assert_eq!(detector.next_value(), Some(Ok(vector)));
/// assert_eq!(detector.next_value(), Some(Ok(rect)));
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
#[derive(Debug, Clone)]
pub struct DialectDetector {
    opts: Options,
    candidates: Vec<Dialect>,
    /// Messages taken but not delivered: an undecided one first, then every one after it.
    held: VecDeque<Held>,
    held_bytes: usize,
    /// Values and errors to deliver, in message order.
    ready: VecDeque<Result<Value>>,
}

#[derive(Debug, Clone)]
enum Held {
    /// A message that reads whole in the candidates; `undecided` when they read it differently.
    Message {
        bytes: Vec<u8>,
        at: usize,
        undecided: bool,
    },
    /// A message that no candidate reads whole: its error.
    Failed(CodecError),
}

impl DialectDetector {
    /// Every dialect a candidate; `opts` gives the other settings (precision, limits, objects)
    /// each record is decoded with.
    pub fn new(opts: &Options) -> Self {
        DialectDetector {
            opts: opts.clone(),
            candidates: Dialect::ALL.to_vec(),
            held: VecDeque::new(),
            held_bytes: 0,
            ready: VecDeque::new(),
        }
    }

    /// Drops the candidates that do not read `record` whole (a file's record: every one must).
    pub fn feed(&mut self, record: &[u8]) {
        let opts = &self.opts;
        self.candidates
            .retain(|d| super::reads_whole(record, &with_dialect(opts, *d)));
    }

    /// [`DialectDetector::feed`] for a connection's messages: a record that no candidate reads
    /// whole (a damaged message) leaves the candidates as they were, and once they are settled
    /// nothing changes them. It decodes nothing for the caller: a connection's values come from
    /// [`DialectDetector::push_message`].
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::record::DialectDetector;
    /// use fast_var_codec_core::{encode, Dialect, Options, Value};
    ///
    /// let godot3 = Options::new(Dialect::Godot3);
    /// let mut detector = DialectDetector::new(&Options::default());
    /// detector.narrow(&[0xff, 0xff, 0xff, 0x7f]); // no value in any dialect
    /// assert_eq!(detector.candidates(), Dialect::ALL);
    /// detector.narrow(&encode(&Value::Vector2([1.0, 2.0]), &godot3)?); // not Pandemonium
    /// detector.narrow(&encode(&Value::rect2(1.0, 2.0, 3.0, 4.0), &godot3)?); // not Godot 4
    /// assert!(detector.is_settled());
    /// assert_eq!(detector.dialect(), Some(Dialect::Godot3));
    /// # Ok::<(), fast_var_codec_core::CodecError>(())
    /// ```
    pub fn narrow(&mut self, record: &[u8]) {
        if self.is_settled() {
            return;
        }
        let opts = &self.opts;
        let left: Vec<Dialect> = self
            .candidates
            .iter()
            .copied()
            .filter(|d| super::reads_whole(record, &with_dialect(opts, *d)))
            .collect();
        if !left.is_empty() {
            self.candidates = left;
        }
    }

    /// Takes a connection's next message (its payload, without the length prefix), which starts
    /// at stream byte `at` (for the offsets of errors). Its value, or its error, comes from
    /// [`DialectDetector::next_value`]: at once when it reads the same in every family still
    /// possible, or after the message that settles the family; a message that reads whole in no
    /// candidate is an error and leaves the candidates as they were.
    ///
    /// Past [`MAX_HELD_MESSAGES`] or [`MAX_HELD_BYTES`] held, the oldest undecided message is
    /// refused: its item is a [`DecodeReason::Ambiguous`] error naming each family's reading.
    pub fn push_message(&mut self, message: &[u8], at: usize) {
        if self.is_settled() && self.held.is_empty() {
            let item = self.decode_in_first(message, at);
            self.ready.push_back(item);
            return;
        }
        let whole = whole_readings(message, &self.candidates, &self.opts);
        if whole.is_empty() {
            let failed = self.decode_in_first(message, at);
            if self.held.is_empty() {
                self.ready.push_back(failed);
            } else if let Err(e) = failed {
                self.held.push_back(Held::Failed(e));
            }
            return;
        }
        self.candidates
            .retain(|d| whole.iter().any(|(w, _)| w == d));
        if self.is_settled() {
            self.release_all();
            let first = self.dialect();
            if let Some((_, value)) = whole.into_iter().find(|(d, _)| Some(*d) == first) {
                self.ready.push_back(Ok(value));
            }
            return;
        }
        match judge(whole) {
            Verdict::One(_, value) if self.held.is_empty() => self.ready.push_back(Ok(value)),
            verdict => {
                self.held_bytes = self.held_bytes.saturating_add(message.len());
                self.held.push_back(Held::Message {
                    bytes: message.to_vec(),
                    at,
                    undecided: matches!(verdict, Verdict::Ambiguous(_)),
                });
                while self.held.len() > MAX_HELD_MESSAGES || self.held_bytes > MAX_HELD_BYTES {
                    self.release_oldest();
                }
            }
        }
    }

    /// The next value (or error) of the messages taken, in their order; `None` while there is
    /// none, or while the next one waits for the dialect.
    pub fn next_value(&mut self) -> Option<Result<Value>> {
        self.ready.pop_front()
    }

    /// How many messages wait for the dialect to be settled.
    pub fn held(&self) -> usize {
        self.held.len()
    }

    /// Ends the connection: each message still held is delivered, an undecided one as its
    /// [`DecodeReason::Ambiguous`] error. Then [`DialectDetector::next_value`] gives them.
    pub fn finish(&mut self) {
        while !self.held.is_empty() {
            self.release_oldest();
        }
    }

    /// The dialects that read every record so far whole, in [`Dialect::ALL`] order.
    pub fn candidates(&self) -> &[Dialect] {
        &self.candidates
    }

    /// The first candidate (the dialect answers are written in); `None` once no dialect reads
    /// every record whole.
    pub fn dialect(&self) -> Option<Dialect> {
        self.candidates.first().copied()
    }

    /// Whether the records so far leave candidates of one engine family only: Godot 4 (any
    /// release), Godot 3, Pandemonium 3.8 – 4.9, or Pandemonium 5.
    pub fn is_settled(&self) -> bool {
        match self.candidates.first() {
            Some(first) => self.candidates.iter().all(|d| d.family() == first.family()),
            None => true,
        }
    }

    /// `message` decoded in the first candidate, its error's offset counted from `at`.
    fn decode_in_first(&self, message: &[u8], at: usize) -> Result<Value> {
        let dialect = self.dialect().unwrap_or(self.opts.dialect);
        decode_record(message, &with_dialect(&self.opts, dialect)).map_err(|e| e.shifted(at))
    }

    /// Every held message to `ready`, decoded in the settled dialect.
    fn release_all(&mut self) {
        while let Some(held) = self.held.pop_front() {
            let item = match held {
                Held::Message { bytes, at, .. } => self.decode_in_first(&bytes, at),
                Held::Failed(e) => Err(e),
            };
            self.ready.push_back(item);
        }
        self.held_bytes = 0;
    }

    /// The oldest held message to `ready` (refused if undecided), then those after it that
    /// were held only to keep their order.
    fn release_oldest(&mut self) {
        let mut first = true;
        while let Some(held) = self.held.front() {
            if !first
                && matches!(
                    held,
                    Held::Message {
                        undecided: true,
                        ..
                    }
                )
            {
                break;
            }
            first = false;
            let Some(held) = self.held.pop_front() else {
                break;
            };
            let item = match held {
                Held::Message {
                    bytes,
                    at,
                    undecided,
                } => {
                    self.held_bytes = self.held_bytes.saturating_sub(bytes.len());
                    if undecided {
                        self.refuse(&bytes, at)
                    } else {
                        self.decode_in_first(&bytes, at)
                    }
                }
                Held::Failed(e) => Err(e),
            };
            self.ready.push_back(item);
        }
    }

    /// The error of a message the candidates read as different values.
    fn refuse(&self, message: &[u8], at: usize) -> Result<Value> {
        match judge(whole_readings(message, &self.candidates, &self.opts)) {
            Verdict::Ambiguous(readings) => Err(CodecError::decode(
                at,
                DecodeReason::Ambiguous {
                    readings: readings
                        .into_iter()
                        .map(|(dialect, value)| Reading { dialect, value })
                        .collect(),
                },
            )),
            Verdict::One(_, value) => Ok(value),
            Verdict::Unread => self.decode_in_first(message, at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode;

    fn g3(value: &Value) -> Vec<u8> {
        encode(value, &Options::new(Dialect::Godot3))
            .unwrap()
            .to_vec()
    }

    #[test]
    fn feed_drops_what_does_not_read_whole() {
        let mut d = DialectDetector::new(&Options::default());
        d.feed(&[2, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(d.candidates(), Dialect::ALL);
        d.feed(&[0xff, 0, 0, 0]);
        assert_eq!(d.dialect(), None);
        assert!(d.is_settled());
    }

    #[test]
    fn an_undecided_message_waits_and_a_malformed_one_keeps_its_place() {
        let mut d = DialectDetector::new(&Options::default());
        let color = Value::Color([0.1, 0.2, 0.3, 1.0]);
        d.push_message(&g3(&color), 4);
        d.push_message(&[0xff, 0xff, 0xff, 0x7f], 28);
        d.push_message(&g3(&Value::Int(3)), 36);
        // A Vector2 leaves Pandemonium out (its id 5 is a Rect2), a Rect2 then Godot 4.
        d.push_message(&g3(&Value::Vector2([1.0, 2.0])), 48);
        assert_eq!((d.next_value(), d.held()), (None, 4));
        d.push_message(&g3(&Value::rect2(0.0, 0.0, 1.0, 1.0)), 64);
        assert_eq!(d.next_value(), Some(Ok(color)));
        assert!(
            matches!(d.next_value(), Some(Err(CodecError::Decode { offset, .. })) if offset >= 28)
        );
        assert_eq!(d.next_value(), Some(Ok(Value::Int(3))));
        assert_eq!(d.next_value(), Some(Ok(Value::Vector2([1.0, 2.0]))));
        assert_eq!(d.next_value(), Some(Ok(Value::rect2(0.0, 0.0, 1.0, 1.0))));
        assert_eq!(d.next_value(), None);
    }

    #[test]
    fn past_the_hold_limit_the_oldest_undecided_message_is_refused() {
        let mut d = DialectDetector::new(&Options::default());
        let color = g3(&Value::Color([1.0, 0.5, 0.0, 1.0]));
        for i in 0..=MAX_HELD_MESSAGES {
            d.push_message(&color, i * 24);
        }
        let Some(Err(e)) = d.next_value() else {
            panic!("the oldest message is not refused")
        };
        let text = e.to_string();
        assert!(text.contains("Color(1, 0.5, 0, 1) as godot3"), "{text}");
        assert!(text.contains("Plane(1, 0.5, 0, 1) as godot4"), "{text}");
        assert_eq!(d.held(), MAX_HELD_MESSAGES);
        d.finish();
        assert_eq!(d.held(), 0);
        assert_eq!(
            std::iter::from_fn(|| d.next_value())
                .filter(Result::is_err)
                .count(),
            MAX_HELD_MESSAGES
        );
    }
}
