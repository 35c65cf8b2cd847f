//! The reader as the serde deserializer pulls from it: value by value, in wire order, each part
//! read and checked by the same methods a decode uses (headers, depth, the object policy on
//! container types, string and packed-data lengths, UTF-8, limits). What serde reads here it
//! reads as the bytes hold it; for the rest (objects, math types, NodePaths, typed and
//! Pandemonium containers) it asks for the whole value through a [`Build`], as a decode does.

use std::borrow::Cow;

use super::{decode_err, Head, Reader, Result};
use crate::build::Build;
use crate::error::DecodeReason;
use crate::header::{pad4, FLAG_64, KIND_NONE, TYPE_MASK};
use crate::limits::Options;
use crate::real::quiet_as_engine;
use crate::text::decode_utf8;
use crate::types::VariantType;

impl<'b, 'o> Reader<'b, 'o> {
    /// A reader of the value at the start of `bytes`.
    #[inline]
    pub(crate) fn pull(bytes: &'b [u8], opts: &'o Options) -> Self {
        Reader {
            buf: bytes,
            pos: 0,
            spec: opts.dialect.spec(),
            opts,
            max_depth: opts.limits.depth(),
            elements: 0,
            text_bytes: 0,
            prealloc_left: bytes.len() / 4,
        }
    }

    /// The offset of the next byte to read, within the input ([`Reader::consumed`]).
    #[inline]
    pub(crate) fn position(&self) -> usize {
        self.consumed()
    }

    /// The whole input.
    #[inline]
    pub(crate) fn input(&self) -> &'b [u8] {
        self.buf
    }

    /// The options the reader reads with.
    #[inline]
    pub(crate) fn options(&self) -> &'o Options {
        self.opts
    }

    /// The next value's header, read (see [`Reader::head`]).
    #[inline]
    pub(crate) fn pull_head(&mut self, depth: usize) -> Result<Head> {
        self.head(depth)
    }

    /// The type of the next value, when its header is there and names one; nothing is read.
    #[inline]
    pub(crate) fn peek_type(&self) -> Option<VariantType> {
        let word = self.buf.get(self.pos..self.pos.checked_add(4)?)?;
        let header = u32::from_le_bytes(word.try_into().ok()?);
        match self.spec.kind_of_wire_id(header & TYPE_MASK)? {
            crate::dialect::WireKind::Type(ty) => Some(ty),
            _ => None,
        }
    }

    /// A bool's payload, after its header.
    #[inline]
    pub(crate) fn pull_bool(&mut self) -> Result<bool> {
        self.bool_payload()
    }

    /// An int's payload, after its header.
    #[inline]
    pub(crate) fn pull_int(&mut self, head: &Head) -> Result<i64> {
        self.int_payload(head.header & FLAG_64 != 0)
    }

    /// A float's payload, after its header.
    #[inline]
    pub(crate) fn pull_float(&mut self, head: &Head) -> Result<f64> {
        self.float_payload(head.header & FLAG_64 != 0)
    }

    /// A float's payload for an `f32`, after its header, when it is binary32: the value a
    /// float read as the engine reads it and converted back holds, without the round trip.
    /// `None`, nothing read, for a binary64 payload ([`Reader::pull_float`] reads it).
    #[inline]
    pub(crate) fn pull_f32(&mut self, head: &Head) -> Result<Option<f32>> {
        if head.header & FLAG_64 != 0 {
            return Ok(None);
        }
        Ok(Some(quiet_as_engine(f32::from_bits(
            self.u32("a float32")?,
        ))))
    }

    /// A String's or StringName's text, after its header: borrowed from the input when the bytes
    /// are the text (valid UTF-8 without a byte-order mark or NUL; always, for what Godot 4
    /// writes), else decoded by the dialect's rules (Godot 3's: lone surrogates and 5- or
    /// 6-byte forms as U+FFFD).
    ///
    /// # Errors
    /// What a decode reports for the same bytes: a length past the end, invalid UTF-8, a limit.
    #[inline]
    pub(crate) fn pull_text(&mut self) -> Result<Cow<'b, str>> {
        let (raw, at) = self.raw_string()?;
        decode_utf8(raw, self.spec.utf8).ok_or_else(|| decode_err(at, DecodeReason::InvalidUtf8))
    }

    /// A PackedByteArray's bytes, after its header (the final padding counts as read even when
    /// the input ends without it, as in a decode).
    #[inline]
    pub(crate) fn pull_bytes(&mut self) -> Result<&'b [u8]> {
        let (raw, count) = self.packed_raw(1, "PackedByteArray")?;
        self.pos += pad4(count);
        Ok(raw)
    }

    /// An Array's count, after its header; its element type is read and checked (the object
    /// policy), not kept. An untyped Array's head is read without making its type, which would
    /// be returned through memory and dropped (a tenth of a small struct's `from_bytes`).
    #[inline]
    pub(crate) fn pull_array_count(&mut self, head: &Head) -> Result<u32> {
        if self.array_kind(head.header) == KIND_NONE {
            return self.array_count();
        }
        Ok(self.array_head(head.header)?.1)
    }

    /// As [`Reader::pull_array_count`], for a Dictionary's key and value types.
    #[inline]
    pub(crate) fn pull_dictionary_count(&mut self, head: &Head) -> Result<u32> {
        if self.dictionary_kinds(head.header) == (KIND_NONE, KIND_NONE) {
            return self.dictionary_count();
        }
        Ok(self.dictionary_head(head.header)?.2)
    }

    /// Counts one container element (an item or an entry) against the limits.
    #[inline]
    pub(crate) fn pull_element(&mut self) -> Result<()> {
        self.charge_elements(1)
    }

    /// How many of `claimed` elements of at least 4 bytes the input could still hold: what a
    /// consumer may reserve.
    #[inline]
    pub(crate) fn plausible(&self, claimed: u32) -> usize {
        (claimed as usize).min(self.remaining() / 4)
    }

    /// The rest of the value whose header `head` was read, built whole by `b`.
    #[inline]
    pub(crate) fn pull_rest<B: Build>(
        &mut self,
        b: &mut B,
        head: &Head,
        depth: usize,
    ) -> Result<B::Value> {
        b.configure(self.opts);
        self.value_after_head(b, head, depth)
    }
}
