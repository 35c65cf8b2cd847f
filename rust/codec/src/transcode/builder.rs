//! The reader's [`Build`] that writes each value in the target dialect as soon as it is read.
//!
//! Most values go straight from the reader to the [`Writer`]. Some are built as a [`Value`]
//! first and written whole, because what the engine keeps of them depends on more than their
//! own bytes:
//! * typed Dictionaries (their entries are converted or dropped by the engine's rules),
//! * the elements of a typed Array that are not exactly of its type (converted or dropped one
//!   by one, by the same rules: the Array itself is written as it is read, its count mended at
//!   its end when some were dropped),
//! * full objects (their `script` property is judged before the object is made),
//! * Dictionary keys (equal keys merge, by the engine's equality of Values).
//!
//! Merging keys is the one place where bytes already written change: a repeated key keeps the
//! first key where it stands and takes the later value. The later value is written where it was
//! read, and the move is recorded in [`Splices`] (applied once at the end), so no byte is ever
//! moved twice.
//!
//! A value the target dialect cannot hold fails the transcoding, unless a later repeated key
//! replaces the Dictionary value it sits in (as decode then encode would never see it): such a
//! failure waits, and nothing is written, until that Dictionary value is complete.

use std::ops::Range;

use bytes::BytesMut;

use super::splice::Splices;
use crate::build::Build;
use crate::error::{CodecError, DecodeReason, Result};
use crate::limits::Options;
use crate::real::{held_all, held_from_le, WireReals};
use crate::sink::vec_from_le;
use crate::types::{ContainerType, IntVectorType, PackedVectorType, RealType, VariantType};
use crate::value::keys::{DictionaryKeys, KeyHashing};
use crate::value::{
    type_kept_as_is, write_value, Array, DictionaryInProgress, Object, Value, ValueBuilder,
};
use crate::writer::{CountSlot, Writer};

/// What the reader hands back up: nothing (already written) or a value still being built.
pub(crate) enum Piece {
    Written,
    Built(Value),
}

pub(crate) enum ArrayPart {
    Transcoded,
    Built(Array),
}

pub(crate) enum DictionaryPart {
    Transcoded,
    Built(DictionaryInProgress),
}

pub(crate) enum StringsPart {
    /// Written after a count patched at the end (the reader gives only a capacity up front).
    Transcoded {
        count_at: CountSlot,
        count: u32,
    },
    Built(Vec<crate::value::GodotString>),
    Skipped,
}

/// An open container that is being written (not built).
enum Frame {
    Array { entered: bool },
    Typed(Box<TypedFrame>),
    Dictionary(Box<DictionaryFrame>),
}

/// A typed Array being written: each element is admitted by the engine's rules as it is read.
struct TypedFrame {
    element: ContainerType,
    entered: bool,
    /// Where the count the input claimed was written, patched when elements were dropped.
    count_at: CountSlot,
    claimed: usize,
    kept: usize,
}

/// Where the value now being read goes, outside a value being built.
enum Destination {
    /// Written as it is read.
    Output,
    /// Built, then taken as the innermost Dictionary's key.
    Key,
    /// Admitted into the innermost typed Array (built first unless it is of exactly its type),
    /// or dropped.
    Element,
}

struct DictionaryFrame {
    entered: bool,
    /// Where the entry count lies in the output, patched when keys merged.
    count_at: CountSlot,
    /// Each key as the engine compares it, and where its value lies in the output.
    entries: Vec<(Value, Entry)>,
    keys: DictionaryKeys,
    slot: Slot,
    merged: bool,
}

#[derive(Default)]
struct Entry {
    value: Range<usize>,
    /// The value's failure to be written, forgotten if a later repeated key replaces it.
    error: Option<Box<CodecError>>,
    /// Its replacement by a later value, in the splices.
    replaced: Option<usize>,
}

/// What the next value read into a Dictionary is.
enum Slot {
    Key,
    /// A value; `replaces`: the entry whose key repeated (nothing written for the key).
    Value {
        replaces: Option<usize>,
        start: usize,
    },
}

impl Frame {
    fn holds_value(&self) -> bool {
        matches!(self, Frame::Dictionary(d) if matches!(d.slot, Slot::Value { .. }))
    }
}

/// The message with which a builder callback stops the reader after a failure to write; the
/// caller reports the failure itself (see [`Transcoder::take_failure`]).
const STOPPED: &str = "transcoding stopped: the value cannot be written in the target dialect";

/// `LOCATE`: find the input offset of a value that cannot be written (the reader then tells
/// where each value starts, which costs a little on every value: the caller runs a locating
/// transcoder only again, on an input that failed).
pub(crate) struct Transcoder<'o, const LOCATE: bool> {
    w: Writer<'o, BytesMut>,
    to: &'o Options,
    /// Builds what is built as a Value (typed containers, objects, keys), with the source
    /// dialect's rules.
    values: ValueBuilder,
    hashing: KeyHashing,
    /// Depth inside a value being built; 0 when writing.
    building: usize,
    frames: Vec<Frame>,
    pub(super) splices: Splices,
    /// The frame whose Dictionary value holds a failure that may still be forgiven; nothing
    /// is written until that value ends.
    muted_at: Option<usize>,
    muted_error: Option<Box<CodecError>>,
    /// A failure nothing can forgive: the transcoding fails.
    failure: Option<CodecError>,
    /// Dictionary frames kept for reuse (their entry vectors stay allocated). Boxed as in
    /// [`Frame`], so that they move between the two without allocating.
    #[allow(clippy::vec_box)]
    spare: Vec<Box<DictionaryFrame>>,
    /// A failure was just recorded: the next value located is where it happened.
    unlocated: bool,
}

impl<'o, const LOCATE: bool> Transcoder<'o, LOCATE> {
    pub(crate) fn new(out: BytesMut, to: &'o Options) -> Result<Self> {
        Ok(Transcoder {
            w: Writer::new(out, to)?,
            to,
            values: ValueBuilder::default(),
            hashing: KeyHashing::default(),
            building: 0,
            frames: Vec::new(),
            splices: Splices::default(),
            muted_at: None,
            muted_error: None,
            failure: None,
            spare: Vec::new(),
            unlocated: false,
        })
    }

    /// The target's options.
    pub(crate) fn options(&self) -> &'o Options {
        self.to
    }

    pub(crate) fn output(&self) -> &BytesMut {
        self.w.sink()
    }

    pub(crate) fn output_mut(&mut self) -> &mut BytesMut {
        self.w.sink_mut()
    }

    /// Forgets the last value's state, keeping the allocations, for the next value.
    pub(crate) fn reset(&mut self) {
        // A value that failed may have left containers open.
        self.w.rewind((0, None));
        self.building = 0;
        self.frames.clear();
        self.splices.clear();
        self.muted_at = None;
        self.muted_error = None;
        self.failure = None;
        self.unlocated = false;
    }

    /// The failure that stopped the transcoding, if one did: a value the target cannot hold.
    pub(crate) fn take_failure(&mut self) -> Option<CodecError> {
        self.failure.take()
    }

    /// Whether an error from the reader is only this builder's way of stopping it.
    pub(crate) fn is_stop(e: &CodecError) -> bool {
        matches!(e, CodecError::Decode { reason: DecodeReason::Refused(m), .. } if m == STOPPED)
    }

    fn writing(&self) -> bool {
        self.muted_at.is_none() && self.failure.is_none()
    }

    /// Whether the frame at `index` lies in a value whose bytes no longer matter.
    fn muted(&self, index: usize) -> bool {
        self.failure.is_some() || self.muted_at.is_some_and(|at| index > at)
    }

    fn stop_if_failed(&self) -> std::result::Result<(), DecodeReason> {
        match self.failure {
            Some(_) => Err(DecodeReason::Refused(STOPPED.into())),
            None => Ok(()),
        }
    }

    /// Where the value now being read goes, when no value is being built.
    #[inline]
    fn destination(&self) -> Destination {
        match self.frames.last() {
            Some(Frame::Dictionary(d)) if matches!(d.slot, Slot::Key) => Destination::Key,
            Some(Frame::Typed(_)) => Destination::Element,
            _ => Destination::Output,
        }
    }

    /// Whether the container now being read is built as a [`Value`] before anything is
    /// written.
    fn built_first(&self) -> bool {
        self.building > 0 || !matches!(self.destination(), Destination::Output)
    }

    /// A failure to write inside the first `frames` frames: it waits in the innermost
    /// Dictionary value among them (a repeated key may still replace it), or fails all.
    #[inline(never)]
    fn fail_within(&mut self, frames: usize, e: CodecError) {
        if !self.writing() {
            return;
        }
        let open = self.frames.get(..frames).unwrap_or_default();
        match open.iter().rposition(Frame::holds_value) {
            Some(at) => {
                self.muted_at = Some(at);
                self.muted_error = Some(Box::new(e));
            }
            None => self.failure = Some(e),
        }
        self.unlocated = true;
    }

    fn fail(&mut self, e: CodecError) {
        self.fail_within(self.frames.len(), e);
    }

    fn write(&mut self, f: impl FnOnce(&mut Writer<'o, BytesMut>) -> Result<()>) {
        if self.writing() {
            let at = self.w.checkpoint();
            if let Err(e) = f(&mut self.w) {
                self.w.rewind(at);
                self.fail(e);
            }
        }
    }

    /// A value that holds no other: built, taken as a key, admitted into a typed Array, or
    /// written. `ty`: its type, when it is a cheap one to check (an element of exactly a typed
    /// Array's type is then written without being built).
    #[inline]
    fn leaf(
        &mut self,
        ty: Option<VariantType>,
        build: impl FnOnce(&mut ValueBuilder) -> Value,
        write: impl FnOnce(&mut Writer<'o, BytesMut>) -> Result<()>,
    ) -> Piece {
        if self.building > 0 {
            return Piece::Built(build(&mut self.values));
        }
        match self.destination() {
            Destination::Output => self.write(write),
            Destination::Key => {
                let key = build(&mut self.values);
                self.key_read(key);
            }
            Destination::Element => match self.frames.last_mut() {
                Some(Frame::Typed(t)) if ty.is_some_and(|ty| type_kept_as_is(&t.element, ty)) => {
                    t.kept += 1;
                    self.write(write);
                }
                _ => {
                    let v = build(&mut self.values);
                    self.element_read(v);
                }
            },
        }
        Piece::Written
    }

    /// A value built whole is complete: taken as a key, or written.
    #[inline(never)]
    fn built(&mut self, v: Value) -> Piece {
        if self.building > 0 {
            return Piece::Built(v);
        }
        match self.destination() {
            Destination::Output => self.write(|w| write_value(w, &v)),
            Destination::Key => self.key_read(v),
            Destination::Element => self.element_read(v),
        }
        Piece::Written
    }

    /// An element of the innermost typed Array is read and built: written if the engine keeps
    /// it (converted as decode converts it), else left out.
    #[inline(never)]
    fn element_read(&mut self, v: Value) {
        let Some(Frame::Typed(t)) = self.frames.last_mut() else {
            return;
        };
        let Some(v) = self.values.admit(&t.element, v) else {
            return;
        };
        t.kept += 1;
        self.write(|w| write_value(w, &v));
    }

    /// A key of the innermost Dictionary is read: written if new; if it repeats one, nothing is
    /// written and the value that follows will replace that entry's.
    #[inline(never)]
    fn key_read(&mut self, key: Value) {
        let index = self.frames.len().saturating_sub(1);
        let muted = self.muted(index);
        let start = self.w.sink().len();
        let Some(Frame::Dictionary(d)) = self.frames.last_mut() else {
            return;
        };
        if muted {
            d.slot = Slot::Value {
                replaces: None,
                start,
            };
            return;
        }
        if let Some(i) = d.keys.position(&d.entries, &key, &self.hashing) {
            d.slot = Slot::Value {
                replaces: Some(i),
                start,
            };
            return;
        }
        // New: written now, and kept (the first of equal keys stays).
        let at = self.w.checkpoint();
        let written = write_value(&mut self.w, &key);
        if written.is_err() {
            self.w.rewind(at);
        }
        let start = self.w.sink().len();
        d.entries.push((key, Entry::default()));
        d.slot = Slot::Value {
            replaces: None,
            start,
        };
        if let Err(e) = written {
            // A key that stays cannot be replaced: the Dictionary itself fails.
            self.fail_within(index, e);
        }
    }

    /// Writes a container's final count over the one written when it began (never more than
    /// the count the input gave, so always one the format can carry).
    fn patch_count(&mut self, at: CountSlot, count: usize) {
        if let Err(e) = self.w.set_count(at, count) {
            self.fail(e);
        }
    }

    fn take_frame(&mut self) -> Box<DictionaryFrame> {
        match self.spare.pop() {
            Some(mut d) => {
                d.entries.clear();
                d.keys = DictionaryKeys::default();
                d.slot = Slot::Key;
                d.merged = false;
                d
            }
            None => Box::new(DictionaryFrame {
                entered: false,
                count_at: CountSlot::default(),
                entries: Vec::new(),
                keys: DictionaryKeys::default(),
                slot: Slot::Key,
                merged: false,
            }),
        }
    }
}

fn built(p: Piece) -> Value {
    match p {
        Piece::Built(v) => v,
        // Never: inside a value being built, every part is built too.
        Piece::Written => Value::Nil,
    }
}

// The container callbacks are `#[inline(never)]`: inlined into the reader's recursive frame they
// would make each level's frame larger, and deep values need more stack segments (`crate::stack`).
impl<const LOCATE: bool> Build for Transcoder<'_, LOCATE> {
    type Value = Piece;
    type Array = ArrayPart;
    type Dictionary = DictionaryPart;
    type Object = Object;
    type Strings = StringsPart;

    fn configure(&mut self, opts: &Options) {
        self.values.configure(opts);
        self.hashing.clear(opts.dialect.spec().variant_rules);
    }

    fn nil(&mut self) -> Piece {
        self.leaf(Some(VariantType::Nil), |b| b.nil(), |w| w.nil())
    }
    fn bool(&mut self, v: bool) -> Piece {
        self.leaf(Some(VariantType::Bool), |b| b.bool(v), |w| w.bool(v))
    }
    fn int(&mut self, v: i64) -> Piece {
        self.leaf(Some(VariantType::Int), |b| b.int(v), |w| w.int(v))
    }
    fn float(&mut self, v: f64) -> Piece {
        self.leaf(Some(VariantType::Float), |b| b.float(v), |w| w.float(v))
    }
    fn string(&mut self, s: &str) -> Piece {
        self.leaf(Some(VariantType::String), |b| b.string(s), |w| w.string(s))
    }
    fn string_name(&mut self, s: &str) -> Piece {
        self.leaf(
            Some(VariantType::StringName),
            |b| b.string_name(s),
            |w| w.string_name(s),
        )
    }
    fn real(&mut self, ty: RealType, c: WireReals<'_>) -> Piece {
        // Written as the Value model holds them, so that the bytes are decode then encode's.
        let mut held = [0f64; RealType::MAX_COMPONENTS];
        let held = held.get_mut(..c.len()).unwrap_or_default();
        held_all(self.values.precision(), c, held);
        self.leaf(None, |b| b.real(ty, c), |w| w.real(ty, &*held))
    }
    fn int_vector(&mut self, ty: IntVectorType, c: &[i32]) -> Piece {
        self.leaf(None, |b| b.int_vector(ty, c), |w| w.int_vector(ty, c))
    }
    fn color(&mut self, rgba: [f32; 4]) -> Piece {
        self.leaf(
            Some(VariantType::Color),
            |b| b.color(rgba),
            |w| w.color(rgba),
        )
    }
    fn node_path(
        &mut self,
        names: &[std::borrow::Cow<'_, str>],
        subnames: &[std::borrow::Cow<'_, str>],
        absolute: bool,
    ) -> Piece {
        let v = self.values.node_path(names, subnames, absolute);
        self.built(v)
    }
    fn rid(&mut self, id: u64) -> Piece {
        self.leaf(Some(VariantType::Rid), |b| b.rid(id), |w| w.rid(id))
    }
    fn object_id(&mut self, id: u64) -> Piece {
        self.leaf(None, |b| b.object_id(id), |w| w.object_id(id))
    }
    fn callable(&mut self) -> Piece {
        self.leaf(None, |b| b.callable(), |w| w.callable())
    }
    fn signal(&mut self, name: &str, object_id: u64) -> Piece {
        self.leaf(
            None,
            |b| b.signal(name, object_id),
            |w| w.signal(name, object_id),
        )
    }
    fn packed_bytes(&mut self, raw: &[u8]) -> Piece {
        self.leaf(None, |b| b.packed_bytes(raw), |w| w.packed_bytes(raw))
    }
    fn packed_i32(&mut self, raw: &[u8]) -> Piece {
        self.leaf(
            None,
            |b| b.packed_i32(raw),
            |w| w.packed_i32(&vec_from_le::<i32>(raw)),
        )
    }
    fn packed_i64(&mut self, raw: &[u8]) -> Piece {
        self.leaf(
            None,
            |b| b.packed_i64(raw),
            |w| w.packed_i64(&vec_from_le::<i64>(raw)),
        )
    }
    fn packed_f32(&mut self, raw: &[u8]) -> Piece {
        self.leaf(
            None,
            |b| b.packed_f32(raw),
            |w| w.packed_f32(&vec_from_le::<f32>(raw)),
        )
    }
    fn packed_f64(&mut self, raw: &[u8]) -> Piece {
        self.leaf(
            None,
            |b| b.packed_f64(raw),
            |w| w.packed_f64(&vec_from_le::<f64>(raw)),
        )
    }
    fn packed_vectors(&mut self, ty: PackedVectorType, raw: &[u8], wide: bool) -> Piece {
        let precision = self.values.precision();
        self.leaf(
            None,
            |b| b.packed_vectors(ty, raw, wide),
            |w| {
                // As the Value model holds them, so that the bytes are decode then encode's.
                let flat = held_from_le(precision, raw, wide);
                w.packed_vectors(ty, &flat)
            },
        )
    }
    fn packed_colors(&mut self, raw: &[u8]) -> Piece {
        self.leaf(
            None,
            |b| b.packed_colors(raw),
            |w| w.packed_colors(&vec_from_le::<f32>(raw)),
        )
    }

    fn begin_strings(&mut self, capacity: usize) -> StringsPart {
        if self.built_first() {
            return StringsPart::Built(self.values.begin_strings(capacity));
        }
        if !self.writing() {
            return StringsPart::Skipped;
        }
        match self.w.begin_packed_strings(0) {
            Ok(()) => StringsPart::Transcoded {
                count_at: self.w.last_count_slot(),
                count: 0,
            },
            Err(e) => {
                self.fail(e);
                StringsPart::Skipped
            }
        }
    }
    fn push_string(&mut self, strings: &mut StringsPart, s: &str) {
        match strings {
            StringsPart::Built(v) => self.values.push_string(v, s),
            StringsPart::Transcoded { count, .. } => {
                *count = count.saturating_add(1);
                self.write(|w| w.packed_string_item(s));
            }
            StringsPart::Skipped => {}
        }
    }
    fn end_strings(&mut self, strings: StringsPart) -> Piece {
        match strings {
            StringsPart::Built(v) => {
                let v = self.values.end_strings(v);
                self.built(v)
            }
            StringsPart::Transcoded { count_at, count } => {
                if self.writing() {
                    self.patch_count(count_at, count as usize);
                }
                Piece::Written
            }
            StringsPart::Skipped => Piece::Written,
        }
    }

    #[inline(never)]
    fn begin_array(
        &mut self,
        element: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> std::result::Result<ArrayPart, DecodeReason> {
        // A typed Array is written as it is read, unless whether it may go one level deeper
        // depends on how many of its elements are kept (an empty one always may).
        let typed = element != ContainerType::Untyped;
        if self.built_first() || typed && claimed > 0 && !self.w.children_fit() {
            self.building += 1;
            return Ok(ArrayPart::Built(
                self.values.begin_array(element, capacity, claimed)?,
            ));
        }
        // The type checked as decode checks it, before the elements are read.
        self.values.check_container_type(&element)?;
        let mut entered = false;
        self.write(|w| {
            w.begin_array(&element, claimed)?;
            entered = true;
            Ok(())
        });
        let frame = if typed {
            Frame::Typed(Box::new(TypedFrame {
                element,
                entered,
                count_at: self.w.last_count_slot(),
                claimed,
                kept: 0,
            }))
        } else {
            Frame::Array { entered }
        };
        self.frames.push(frame);
        self.stop_if_failed()?;
        Ok(ArrayPart::Transcoded)
    }
    #[inline(never)]
    fn push(&mut self, array: &mut ArrayPart, v: Piece) -> std::result::Result<(), DecodeReason> {
        match array {
            ArrayPart::Built(a) => self.values.push(a, built(v)),
            ArrayPart::Transcoded => self.stop_if_failed(),
        }
    }
    #[inline(never)]
    fn end_array(&mut self, array: ArrayPart) -> Piece {
        match array {
            ArrayPart::Built(a) => {
                self.building = self.building.saturating_sub(1);
                let v = self.values.end_array(a);
                self.built(v)
            }
            ArrayPart::Transcoded => {
                match self.frames.pop() {
                    Some(Frame::Array { entered: true }) => self.w.end_array(),
                    Some(Frame::Typed(t)) if t.entered => {
                        if t.kept != t.claimed && self.writing() {
                            self.patch_count(t.count_at, t.kept);
                        }
                        self.w.end_array();
                    }
                    _ => {}
                }
                Piece::Written
            }
        }
    }
    #[inline(never)]
    fn begin_dictionary(
        &mut self,
        key: ContainerType,
        value: ContainerType,
        capacity: usize,
        claimed: usize,
    ) -> std::result::Result<DictionaryPart, DecodeReason> {
        if self.built_first() || key != ContainerType::Untyped || value != ContainerType::Untyped {
            self.building += 1;
            return Ok(DictionaryPart::Built(
                self.values
                    .begin_dictionary(key, value, capacity, claimed)?,
            ));
        }
        let mut entered = false;
        self.write(|w| {
            w.begin_dictionary(&ContainerType::Untyped, &ContainerType::Untyped, claimed)?;
            entered = true;
            Ok(())
        });
        let mut d = self.take_frame();
        d.entered = entered;
        d.count_at = self.w.last_count_slot();
        self.frames.push(Frame::Dictionary(d));
        self.stop_if_failed()?;
        Ok(DictionaryPart::Transcoded)
    }
    #[inline(never)]
    fn insert(
        &mut self,
        dict: &mut DictionaryPart,
        key: Piece,
        value: Piece,
    ) -> std::result::Result<(), DecodeReason> {
        let DictionaryPart::Built(d) = dict else {
            self.value_read();
            return self.stop_if_failed();
        };
        self.values.insert(d, built(key), built(value))
    }
    #[inline(never)]
    fn end_dictionary(&mut self, dict: DictionaryPart) -> Piece {
        let DictionaryPart::Transcoded = dict else {
            if let DictionaryPart::Built(d) = dict {
                self.building = self.building.saturating_sub(1);
                let v = self.values.end_dictionary(d);
                return self.built(v);
            }
            return Piece::Written;
        };
        let index = self.frames.len().saturating_sub(1);
        let muted = self.muted(index);
        let Some(Frame::Dictionary(mut d)) = self.frames.pop() else {
            return Piece::Written;
        };
        if d.entered {
            self.w.end_dictionary();
        }
        if !muted {
            if d.merged {
                self.patch_count(d.count_at, d.entries.len());
            }
            if let Some(e) = d.entries.iter_mut().find_map(|(_, e)| e.error.take()) {
                let e = *e;
                // Nothing replaced the failed value: the Dictionary fails where it stands.
                self.fail(e);
            }
        }
        self.spare.push(d);
        Piece::Written
    }

    #[inline(never)]
    fn check_class(&mut self, class: &str) -> std::result::Result<(), DecodeReason> {
        // A full object is built whole: its properties are read before it is made.
        self.building += 1;
        self.values.check_class(class)
    }
    fn begin_object(&mut self, class: &str) -> std::result::Result<Object, DecodeReason> {
        self.values.begin_object(class)
    }
    fn set_property(
        &mut self,
        object: &mut Object,
        name: &str,
        value: Piece,
    ) -> std::result::Result<(), DecodeReason> {
        self.values.set_property(object, name, built(value))
    }
    const LOCATES: bool = LOCATE;

    /// Gives a failure just recorded the input offset of the value it happened in.
    fn located(&mut self, piece: Piece, start: usize, _end: usize) -> Piece {
        if self.unlocated {
            self.unlocated = false;
            let at = |e: CodecError| match e {
                located @ CodecError::Transcode { .. } => located,
                error => CodecError::Transcode {
                    offset: start,
                    error: Box::new(error),
                },
            };
            if let Some(e) = self.failure.take() {
                self.failure = Some(at(e));
            } else if let Some(e) = self.muted_error.take() {
                self.muted_error = Some(Box::new(at(*e)));
            }
        }
        piece
    }

    #[inline(never)]
    fn end_object(&mut self, object: Object) -> std::result::Result<Piece, DecodeReason> {
        self.building = self.building.saturating_sub(1);
        let v = self.values.end_object(object)?;
        let piece = self.built(v);
        self.stop_if_failed()?;
        Ok(piece)
    }
}

impl<const LOCATE: bool> Transcoder<'_, LOCATE> {
    /// A Dictionary value is complete: the entry it belongs to takes it, and a failure inside
    /// it that was waiting is now the entry's.
    #[inline(never)]
    fn value_read(&mut self) {
        let index = self.frames.len().saturating_sub(1);
        let mut error = None;
        if self.muted_at == Some(index) {
            self.muted_at = None;
            error = self.muted_error.take();
        }
        let muted = self.muted(index);
        let end = self.w.sink().len();
        let Some(Frame::Dictionary(d)) = self.frames.last_mut() else {
            return;
        };
        let slot = std::mem::replace(&mut d.slot, Slot::Key);
        if muted {
            return;
        }
        match slot {
            Slot::Value {
                replaces: None,
                start,
            } => {
                if let Some((_, e)) = d.entries.last_mut() {
                    e.value = start..end;
                    e.error = error;
                }
            }
            Slot::Value {
                replaces: Some(i),
                start,
            } => {
                d.merged = true;
                // The later value leaves its place for the first key's.
                self.splices.remove(start..end);
                if let Some((_, e)) = d.entries.get_mut(i) {
                    e.error = error;
                    match e.replaced {
                        Some(handle) => self.splices.retarget(handle, start..end),
                        None => {
                            e.replaced = Some(self.splices.replace(e.value.clone(), start..end))
                        }
                    }
                }
            }
            Slot::Key => {}
        }
    }
}
