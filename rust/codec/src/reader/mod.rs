//! The decoder: walks the bytes once, checks them as the engine does, and hands each value to
//! a [`Build`] implementation, which makes this crate's [`crate::Value`] or Godot Variants.
//!
//! Nothing here trusts a count: allocations are bounded by the bytes actually present, and every
//! read is checked, so hostile input ends in an error, never a panic or a huge allocation.

use std::borrow::Cow;

use crate::dialect::{DialectSpec, WireKind};
use crate::error::{CodecError, DecodeReason, ErrorCode, LimitKind};
use crate::header::*;
use crate::limits::Options;
use crate::real::{real_width, WireReals};
use crate::sink::LeWord;
use crate::stack;

use crate::types::{
    ContainerType, IntVectorType, PackedVectorType, RealType, VariantType, ENCODED_OBJECT_AS_ID,
};

// What the reader calls for each value it finds.
pub use crate::build::Build;
pub use crate::dialect::{WireForm, WireHeader};
// What a `Build` implementation of its own (a binding's, making its language's values) uses:
// the engines' UTF-8 rules for the text it is handed, a packed array's numbers out of their
// wire bytes, an item pushed into a container under construction, and the stack guard around
// each nesting level of a recursive walk (also a walk of its own values that feeds a
// `writer::Writer`).
pub use crate::build::push_in_place;
/// The header's 64-bit flag, for a package surface's own table of what headers say (the npm
/// package's JavaScript reader), not part of the format's API.
#[doc(hidden)]
pub use crate::header::FLAG_64;
pub use crate::sink::{copy_from_le, vec_from_le};
pub use crate::stack::guard as guard_stack;
pub use crate::text::decode_utf8;
#[doc(hidden)]
pub use crate::text::short_plain_ascii;

#[cfg(feature = "serde")]
mod pull;

/// A failed read inside the reader: the [`CodecError`] boxed, so that every result the walk
/// passes around fits in two registers (a `CodecError` is 64 bytes). Unboxed where a decode
/// returns.
pub(crate) struct Failure(Box<CodecError>);

impl From<CodecError> for Failure {
    #[cold]
    fn from(e: CodecError) -> Self {
        Failure(Box::new(e))
    }
}

impl From<Failure> for CodecError {
    fn from(f: Failure) -> Self {
        *f.0
    }
}

type Result<T> = std::result::Result<T, Failure>;

/// The types that hold no nested value and cost little to read: [`Reader::simple_leaf`]'s, read
/// in the containers' loops without the calls of [`Reader::value`] (a pattern, so that the list
/// is written once for [`is_simple`] and [`Reader::leaf`]).
macro_rules! simple_types {
    () => {
        VariantType::Nil
            | VariantType::Bool
            | VariantType::Int
            | VariantType::Float
            | VariantType::String
            | VariantType::StringName
    };
}

#[inline(always)]
fn is_simple(ty: VariantType) -> bool {
    matches!(ty, simple_types!())
}

/// A [`CodecError::Decode`] at `at`, boxed.
#[cold]
fn decode_err(at: usize, reason: DecodeReason) -> Failure {
    CodecError::decode(at, reason).into()
}

/// Decodes one value from `bytes[offset..]` with `builder`; returns it with the number of bytes
/// it used (trailing bytes are ignored, as the engine does). `offset + used` never exceeds
/// `bytes.len()`: a final PackedByteArray may end the input without its padding, and the size
/// then ends with the input.
///
/// # Errors
/// A [`CodecError::Decode`] with the byte offset (counted from the start of `bytes`), the reason
/// and the Godot `Error` the engine reports for the same input; also what `builder` refuses,
/// at the offset of the value it refused. An `offset` past the end of `bytes` is an error.
///
/// # Examples
/// ```
/// use fast_var_codec_core::{Options, Value};
/// use fast_var_codec_core::reader::decode_with;
/// use fast_var_codec_core::value::ValueBuilder;
///
/// // Two values back to back: an Int, then a PackedByteArray of one byte whose final
/// // padding the sender left out.
/// let bytes = [2, 0, 0, 0, 5, 0, 0, 0, 29, 0, 0, 0, 1, 0, 0, 0, 9];
/// let opts = Options::default();
/// let mut builder = ValueBuilder::default();
/// let mut values = Vec::new();
/// let mut at = 0;
/// while at < bytes.len() {
///     let (value, used) = decode_with(&bytes, at, &opts, &mut builder)?;
///     values.push(value);
///     at += used;
/// }
/// assert_eq!(values, [Value::Int(5), Value::PackedByteArray(vec![9])]);
/// assert_eq!(at, bytes.len()); // the size ends with the input
/// # Ok::<(), fast_var_codec_core::CodecError>(())
/// ```
pub fn decode_with<B: Build>(
    bytes: &[u8],
    offset: usize,
    opts: &Options,
    builder: &mut B,
) -> crate::error::Result<(B::Value, usize)> {
    let mut r = Reader {
        buf: bytes,
        pos: offset,
        spec: opts.dialect.spec(),
        opts,
        max_depth: opts.limits.depth(),
        elements: 0,
        text_bytes: 0,
        prealloc_left: bytes.len().saturating_sub(offset) / 4,
    };
    builder.configure(opts);
    if offset > bytes.len() {
        return Err(r
            .fail(DecodeReason::Truncated {
                what: "the start offset",
                needed: offset,
                available: bytes.len(),
            })
            .into());
    }
    let v = r.value(builder, 0).map_err(CodecError::from)?;
    Ok((v, r.consumed() - offset))
}

pub(crate) struct Reader<'b, 'o> {
    buf: &'b [u8],
    /// May run past `buf.len()` after a PackedByteArray whose padding is missing: read where
    /// the input ends through [`Reader::consumed`].
    pos: usize,
    spec: &'static DialectSpec,
    opts: &'o Options,
    max_depth: usize,
    /// Elements and string/packed bytes produced so far, against the limits.
    elements: usize,
    text_bytes: usize,
    /// Elements all containers together may still reserve up front: nested containers that
    /// claim huge counts must not each reserve from the same remaining bytes.
    prealloc_left: usize,
}

/// A value's header as it was read: what it is, the header word (its flags), and where the
/// value starts.
pub(crate) struct Head {
    pub(crate) kind: WireKind,
    pub(crate) header: u32,
    pub(crate) start: usize,
}

impl<'b> Reader<'b, '_> {
    /// Capacity to reserve for `count` claimed elements of at least `min_size` bytes each:
    /// no more than the bytes left can hold, and no more than the decode's remaining budget.
    #[inline]
    fn prealloc(&mut self, count: usize, min_size: usize) -> usize {
        let cap = count
            .min(self.remaining() / min_size.max(1))
            .min(self.prealloc_left);
        self.prealloc_left -= cap;
        cap
    }

    /// Counts `n` more elements against [`crate::options::Limits::max_elements`], before making them.
    #[inline]
    fn charge_elements(&mut self, n: usize) -> Result<()> {
        self.elements = self.elements.saturating_add(n);
        let (used, max) = (self.elements, self.opts.limits.max_elements);
        self.within(used, max, LimitKind::Elements)
    }

    /// Counts `n` more bytes of strings or packed data against [`crate::options::Limits::max_bytes`].
    #[inline]
    fn charge_bytes(&mut self, n: usize) -> Result<()> {
        self.text_bytes = self.text_bytes.saturating_add(n);
        let (used, max) = (self.text_bytes, self.opts.limits.max_bytes);
        self.within(used, max, LimitKind::Bytes)
    }

    #[inline]
    fn within(&self, used: usize, max: usize, limit: LimitKind) -> Result<()> {
        if used > max {
            return Err(self.fail(DecodeReason::Limit { limit, max }));
        }
        Ok(())
    }

    /// The offset the value read so far ends at, within the input. The padding rule, stated
    /// once: a PackedByteArray's padding need not be present when the input ends first, and
    /// then counts only as far as the input goes. (The engine's `decode_var_size` counts all
    /// of it, so its size can pass the end of the input by up to 3 bytes.)
    #[inline]
    pub(crate) fn consumed(&self) -> usize {
        self.pos.min(self.buf.len())
    }

    #[inline]
    fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    #[cold]
    fn fail(&self, reason: DecodeReason) -> Failure {
        decode_err(self.pos, reason)
    }

    #[inline(always)]
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'b [u8]> {
        let end = self.pos.checked_add(n);
        match end.and_then(|end| self.buf.get(self.pos..end)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.fail(DecodeReason::Truncated {
                what,
                needed: n,
                available: self.remaining(),
            })),
        }
    }

    #[inline(always)]
    fn u32(&mut self, what: &'static str) -> Result<u32> {
        Ok(<u32 as LeWord>::from_le(self.take(4, what)?))
    }

    #[inline(always)]
    fn u64(&mut self, what: &'static str) -> Result<u64> {
        Ok(<u64 as LeWord>::from_le(self.take(8, what)?))
    }

    /// A count the engine reads as int32, with bit 31 making it negative.
    #[inline(always)]
    fn i32(&mut self, what: &'static str) -> Result<i32> {
        Ok(self.u32(what)? as i32)
    }

    /// A string payload: length, bytes, padding that must be present.
    fn string(&mut self) -> Result<Cow<'b, str>> {
        let len = i64::from(self.i32("a string length")?);
        self.string_body(len)
    }

    fn string_body(&mut self, len: i64) -> Result<Cow<'b, str>> {
        let (raw, start) = self.string_bytes(len)?;
        decode_utf8(raw, self.spec.utf8).ok_or_else(|| decode_err(start, DecodeReason::InvalidUtf8))
    }

    /// A string payload's raw UTF-8 (with its offset), padding checked and skipped.
    #[inline]
    fn raw_string(&mut self) -> Result<(&'b [u8], usize)> {
        let len = i64::from(self.i32("a string length")?);
        self.string_bytes(len)
    }

    #[inline]
    fn string_bytes(&mut self, len: i64) -> Result<(&'b [u8], usize)> {
        let available = self.remaining();
        let pad = pad4(len.unsigned_abs() as usize);
        let fits = len >= 0 && (len as usize) + pad <= available && (len as usize) + pad <= MAX_LEN;
        if !fits {
            return Err(self.fail(DecodeReason::StringPastEnd {
                len,
                pad,
                available,
            }));
        }
        self.charge_bytes(len as usize)?;
        let start = self.pos;
        let raw = self.take(len as usize, "string bytes")?;
        self.pos += pad;
        Ok((raw, start))
    }

    #[inline(always)]
    fn bool_payload(&mut self) -> Result<bool> {
        Ok(self.u32("a bool")? != 0)
    }

    /// An int: 64 bits with the header's flag, else 32.
    #[inline(always)]
    fn int_payload(&mut self, wide: bool) -> Result<i64> {
        Ok(if wide {
            self.u64("an int64")? as i64
        } else {
            i64::from(self.i32("an int32")?)
        })
    }

    /// A float: binary64 with the header's flag, else binary32 widened as the engine widens it.
    #[inline(always)]
    fn float_payload(&mut self, wide: bool) -> Result<f64> {
        Ok(if wide {
            f64::from_bits(self.u64("a float64")?)
        } else {
            crate::real::widen_as_engine(f32::from_bits(self.u32("a float32")?))
        })
    }

    /// A math type's components, handed to the builder at the wire's width.
    fn real_value<B: Build>(&mut self, b: &mut B, ty: RealType, wide: bool) -> Result<B::Value> {
        let n = ty.components();
        if wide {
            let mut c = [0f64; RealType::MAX_COMPONENTS];
            let raw = self.take(n * 8, "components")?;
            let c = c.get_mut(..n).unwrap_or_default();
            crate::sink::copy_from_le(raw, c);
            Ok(b.real(ty, WireReals::Binary64(c)))
        } else {
            let mut c = [0f32; RealType::MAX_COMPONENTS];
            let raw = self.take(n * 4, "components")?;
            let c = c.get_mut(..n).unwrap_or_default();
            crate::sink::copy_from_le(raw, c);
            Ok(b.real(ty, WireReals::Binary32(c)))
        }
    }

    fn int_components<const N: usize>(&mut self) -> Result<[i32; N]> {
        let mut out = [0i32; N];
        let raw = self.take(N * 4, "components")?;
        for (dst, src) in out.iter_mut().zip(raw.chunks_exact(4)) {
            *dst = <i32 as LeWord>::from_le(src);
        }
        Ok(out)
    }

    /// Raw bytes of `count` packed elements of `size` bytes, with the engine's checks.
    fn packed_raw(&mut self, size: usize, what: &'static str) -> Result<(&'b [u8], usize)> {
        let count = self.i32(what)?;
        let available = self.remaining();
        let bytes = usize::try_from(count)
            .ok()
            .and_then(|c| c.checked_mul(size))
            .filter(|&b| b <= MAX_LEN && b <= available);
        match bytes {
            Some(b) => {
                // Packed elements are data, bounded by max_bytes, not container elements.
                self.charge_bytes(b)?;
                Ok((self.take(b, what)?, count as usize))
            }
            None => Err(self.fail(DecodeReason::BadCount {
                what,
                count: i64::from(count),
                available,
            })),
        }
    }

    /// Container type info for a header kind (docs/wire_format.md#typed-containers), admitted
    /// by the object policy before any builder sees it.
    ///
    /// The untyped case is inlined, so that the caller sees a constant rather than reading
    /// back what a call stored (a stalled load per container).
    #[inline(always)]
    fn container_type(&mut self, kind: u32) -> Result<ContainerType> {
        if kind == KIND_NONE {
            return Ok(ContainerType::Untyped);
        }
        self.typed_container_type(kind)
    }

    /// [`Reader::container_type`] of a typed container.
    #[inline(never)]
    fn typed_container_type(&mut self, kind: u32) -> Result<ContainerType> {
        let start = self.pos;
        let ty = self.container_type_unchecked(kind)?;
        self.admit_container_type(ty, start)
    }

    /// The one gate for class and script names in container types.
    fn admit_container_type(&self, ty: ContainerType, at: usize) -> Result<ContainerType> {
        if self.opts.allow_objects {
            self.opts
                .object_policy()
                .check_container(&ty)
                .map_err(|r| decode_err(at, r))?;
        }
        Ok(ty)
    }

    fn container_type_unchecked(&mut self, kind: u32) -> Result<ContainerType> {
        let start = self.pos;
        let bad = |msg: String| decode_err(start, DecodeReason::BadContainerType(msg));
        match kind {
            KIND_NONE => Ok(ContainerType::Untyped),
            KIND_BUILTIN => {
                let id = self.u32("a container element type")?;
                match VariantType::from_id(id) {
                    // A NIL element type is no type at all.
                    Some(VariantType::Nil) => Ok(ContainerType::Untyped),
                    Some(VariantType::Object) if !self.opts.allow_objects => {
                        Ok(ContainerType::Class(ENCODED_OBJECT_AS_ID.into()))
                    }
                    Some(ty) => Ok(ContainerType::Builtin(ty)),
                    None => Err(bad(format!("builtin type id {id} does not exist"))),
                }
            }
            KIND_CLASS_NAME => {
                let name = self.string()?;
                if !self.opts.allow_objects {
                    return Ok(ContainerType::Class(ENCODED_OBJECT_AS_ID.into()));
                }
                if name.is_empty() {
                    // Objects of any class, as a builtin OBJECT type without class name.
                    return Ok(ContainerType::Builtin(VariantType::Object));
                }
                Ok(ContainerType::Class(name.into_owned()))
            }
            _ => {
                let path = self.string()?;
                if !self.opts.allow_objects {
                    return Ok(ContainerType::Class(ENCODED_OBJECT_AS_ID.into()));
                }
                if !crate::objects::is_script_path(&path) {
                    return Err(bad(format!("script path {path:?} is not a res:// path")));
                }
                Ok(ContainerType::Script(path.into_owned()))
            }
        }
    }

    /// A container element that is a nil, bool, int, float, String or StringName (the common
    /// elements and keys of Arrays of numbers, records and messages), read straight from the
    /// container's loop by the same [`Reader::simple_leaf`] that [`Reader::leaf`] uses; `None`
    /// (nothing consumed) for any other value, or at a depth [`Reader::value`] would refuse.
    #[inline(always)]
    fn simple<B: Build>(&mut self, b: &mut B, depth: usize) -> Result<Option<B::Value>> {
        if depth > self.max_depth {
            return Ok(None);
        }
        let Some(head) = self.buf.get(self.pos..self.pos.saturating_add(4)) else {
            return Ok(None);
        };
        let header = <u32 as LeWord>::from_le(head);
        let ty = match self.spec.kind_of_wire_id(header & TYPE_MASK) {
            Some(WireKind::Type(ty)) if is_simple(ty) => ty,
            _ => return Ok(None),
        };
        let start = self.pos;
        self.pos += 4;
        let v = self.simple_leaf(b, ty, header)?;
        if B::LOCATES {
            return Ok(Some(b.located(v, start, self.pos)));
        }
        Ok(Some(v))
    }

    /// The payload of a value of a type [`is_simple`] accepts, whose header is read: inlined
    /// into the containers' loops, so that the value is built where the loop stores it instead
    /// of being returned through the calls of [`Reader::value`], a copy at each.
    #[inline(always)]
    fn simple_leaf<B: Build>(
        &mut self,
        b: &mut B,
        ty: VariantType,
        header: u32,
    ) -> Result<B::Value> {
        let wide = header & FLAG_64 != 0;
        use VariantType as T;
        Ok(match ty {
            T::Bool => b.bool(self.bool_payload()?),
            T::Int => b.int(self.int_payload(wide)?),
            T::Float => b.float(self.float_payload(wide)?),
            T::String => {
                let (raw, at) = self.raw_string()?;
                b.string_utf8(raw, self.spec.utf8)
                    .ok_or_else(|| decode_err(at, DecodeReason::InvalidUtf8))?
            }
            T::StringName => {
                let (raw, at) = self.raw_string()?;
                b.string_name_utf8(raw, self.spec.utf8)
                    .ok_or_else(|| decode_err(at, DecodeReason::InvalidUtf8))?
            }
            // Nil, the one other type of `simple_types!` (every caller checks that list first).
            _ => b.nil(),
        })
    }

    /// One value, handed to [`Build::located`] when the builder asks for locations.
    #[inline(always)]
    fn value<B: Build>(&mut self, b: &mut B, depth: usize) -> Result<B::Value> {
        if B::LOCATES {
            let start = self.pos;
            let v = self.unlocated_value(b, depth)?;
            Ok(b.located(v, start, self.pos))
        } else {
            // A constant: a builder that asks for no locations pays nothing for them.
            self.unlocated_value(b, depth)
        }
    }

    fn unlocated_value<B: Build>(&mut self, b: &mut B, depth: usize) -> Result<B::Value> {
        let head = self.head(depth)?;
        self.value_after_head(b, &head, depth)
    }

    /// The next value's header, read, with where it starts: a value deeper than the limit, or
    /// of a type the dialect lacks, is refused here.
    #[inline]
    fn head(&mut self, depth: usize) -> Result<Head> {
        if depth > self.max_depth {
            return Err(self.fail(DecodeReason::TooDeep(self.max_depth)));
        }
        let start = self.pos;
        let header = self.u32("a value header")?;
        let id = header & TYPE_MASK;
        let kind = self
            .spec
            .kind_of_wire_id(id)
            .ok_or_else(|| decode_err(start, DecodeReason::UnknownType(id)))?;
        Ok(Head {
            kind,
            header,
            start,
        })
    }

    /// The value whose header `head` was just read.
    fn value_after_head<B: Build>(
        &mut self,
        b: &mut B,
        head: &Head,
        depth: usize,
    ) -> Result<B::Value> {
        let (header, start) = (head.header, head.start);
        let ty = match head.kind {
            WireKind::Type(ty) => ty,
            WireKind::IntVectorPool(ty) => return self.int_vector_pool(b, ty, start),
            WireKind::TypedArray => {
                return stack::guard(|| self.typed_array(b, header, depth, start));
            }
        };
        use VariantType as T;
        match ty {
            // Each level of nesting on a stack with room for it (`crate::stack`).
            T::Object | T::Dictionary | T::Array => {
                stack::guard(|| self.container(b, ty, header, depth, start))
            }
            _ => self.leaf(b, ty, header),
        }
    }

    /// A Dictionary's key and value types (checked by the object policy) and count, after its
    /// header.
    #[inline]
    fn dictionary_head(&mut self, header: u32) -> Result<(ContainerType, ContainerType, u32)> {
        let (kk, vk) = self.dictionary_kinds(header);
        let key_type = self.container_type(kk)?;
        let value_type = self.container_type(vk)?;
        Ok((key_type, value_type, self.dictionary_count()?))
    }

    /// A Dictionary's count, after its types.
    #[inline(always)]
    fn dictionary_count(&mut self) -> Result<u32> {
        Ok(self.u32("a Dictionary count")? & CONTAINER_COUNT_MASK)
    }

    /// The kinds of a Dictionary's key and value types in its header.
    #[inline(always)]
    fn dictionary_kinds(&self, header: u32) -> (u32, u32) {
        if self.spec.typed_dictionaries {
            (
                (header >> KIND_SHIFT_ELEMENT) & KIND_MASK,
                (header >> KIND_SHIFT_VALUE) & KIND_MASK,
            )
        } else {
            (KIND_NONE, KIND_NONE)
        }
    }

    /// An Array's element type (checked by the object policy) and count, after its header.
    #[inline]
    fn array_head(&mut self, header: u32) -> Result<(ContainerType, u32)> {
        let element = self.container_type(self.array_kind(header))?;
        Ok((element, self.array_count()?))
    }

    /// The kind of an Array's element type in its header.
    #[inline(always)]
    fn array_kind(&self, header: u32) -> u32 {
        if self.spec.typed_arrays {
            (header >> KIND_SHIFT_ELEMENT) & KIND_MASK
        } else {
            KIND_NONE
        }
    }

    /// An Array's count, after its element type.
    #[inline(always)]
    fn array_count(&mut self) -> Result<u32> {
        Ok(self.u32("an Array count")? & CONTAINER_COUNT_MASK)
    }

    /// A Dictionary of `count` entries begun, its types and count read.
    #[inline(always)]
    fn begin_dictionary<B: Build>(
        &mut self,
        b: &mut B,
        key_type: ContainerType,
        value_type: ContainerType,
        count: u32,
        start: usize,
    ) -> Result<(B::Dictionary, u32)> {
        let capacity = self.prealloc(count as usize, 8);
        let d = b
            .begin_dictionary(key_type, value_type, capacity, count as usize)
            .map_err(|reason| decode_err(start, reason))?;
        Ok((d, count))
    }

    /// An Array of `count` elements begun, its type and count read.
    #[inline(always)]
    fn begin_array<B: Build>(
        &mut self,
        b: &mut B,
        element: ContainerType,
        count: u32,
        start: usize,
    ) -> Result<(B::Array, u32)> {
        let capacity = self.prealloc(count as usize, 4);
        let a = b
            .begin_array(element, capacity, count as usize)
            .map_err(|reason| decode_err(start, reason))?;
        Ok((a, count))
    }

    /// An Object, Dictionary or Array, whose header (at `start`) is read.
    fn container<B: Build>(
        &mut self,
        b: &mut B,
        ty: VariantType,
        header: u32,
        depth: usize,
        start: usize,
    ) -> Result<B::Value> {
        let at = |reason: DecodeReason| decode_err(start, reason);
        use VariantType as T;
        match ty {
            T::Object => self.object(b, header, depth),
            T::Dictionary => {
                // The untyped Dictionary begun with constant types: a type passed on from a
                // branch that may have read one is copied through memory, a stalled load.
                let (mut d, count) = if self.dictionary_kinds(header) != (KIND_NONE, KIND_NONE) {
                    let (key_type, value_type, count) = self.dictionary_head(header)?;
                    self.begin_dictionary(b, key_type, value_type, count, start)?
                } else {
                    let count = self.dictionary_count()?;
                    let untyped = ContainerType::Untyped;
                    self.begin_dictionary(b, untyped.clone(), untyped, count, start)?
                };
                for _ in 0..count {
                    self.charge_elements(1)?;
                    let k = match self.simple(b, depth + 1)? {
                        Some(k) => k,
                        None => self.value(b, depth + 1)?,
                    };
                    let v = match self.simple(b, depth + 1)? {
                        Some(v) => v,
                        None => self.value(b, depth + 1)?,
                    };
                    b.insert(&mut d, k, v).map_err(at)?;
                }
                Ok(b.end_dictionary(d))
            }
            T::Array => {
                // Begun with a constant type when untyped, as the Dictionary above.
                let (mut a, count) = if self.array_kind(header) != KIND_NONE {
                    let (element, count) = self.array_head(header)?;
                    self.begin_array(b, element, count, start)?
                } else {
                    let count = self.array_count()?;
                    self.begin_array(b, ContainerType::Untyped, count, start)?
                };
                for _ in 0..count {
                    self.charge_elements(1)?;
                    let v = match self.simple(b, depth + 1)? {
                        Some(v) => v,
                        None => self.value(b, depth + 1)?,
                    };
                    b.push(&mut a, v).map_err(at)?;
                }
                Ok(b.end_array(a))
            }
            _ => self.leaf(b, ty, header),
        }
    }

    /// Everything that holds no nested value, kept out of [`Reader::value`] so that the frame
    /// of the recursion stays small (fewer stack segments for deep values: `crate::stack`).
    #[inline(never)]
    fn leaf<B: Build>(&mut self, b: &mut B, ty: VariantType, header: u32) -> Result<B::Value> {
        let wide = header & FLAG_64 != 0;
        let wide_reals = wide && self.spec.real_flag;
        use VariantType as T;
        Ok(match ty {
            simple_types!() => self.simple_leaf(b, ty, header)?,
            T::Vector2 => self.real_value(b, RealType::Vector2, wide_reals)?,
            T::Rect2 => self.real_value(b, RealType::Rect2, wide_reals)?,
            T::Vector3 => self.real_value(b, RealType::Vector3, wide_reals)?,
            T::Transform2D => self.real_value(b, RealType::Transform2D, wide_reals)?,
            T::Vector4 => self.real_value(b, RealType::Vector4, wide_reals)?,
            T::Plane => self.real_value(b, RealType::Plane, wide_reals)?,
            T::Quaternion => self.real_value(b, RealType::Quaternion, wide_reals)?,
            T::Aabb => self.real_value(b, RealType::Aabb, wide_reals)?,
            T::Basis => self.real_value(b, RealType::Basis, wide_reals)?,
            T::Transform3D => self.real_value(b, RealType::Transform3D, wide_reals)?,
            T::Projection => self.real_value(b, RealType::Projection, wide_reals)?,
            T::Vector2i => {
                let c = self.int_components::<2>()?;
                b.int_vector(IntVectorType::Vector2i, &c)
            }
            T::Rect2i => {
                let c = self.int_components::<4>()?;
                b.int_vector(IntVectorType::Rect2i, &c)
            }
            T::Vector3i => {
                let c = self.int_components::<3>()?;
                b.int_vector(IntVectorType::Vector3i, &c)
            }
            T::Vector4i => {
                let c = self.int_components::<4>()?;
                b.int_vector(IntVectorType::Vector4i, &c)
            }
            T::Color => {
                let raw = self.take(16, "a Color")?;
                let mut rgba = [0f32; 4];
                crate::sink::copy_from_le(raw, &mut rgba);
                b.color(rgba)
            }
            T::NodePath => self.node_path(b)?,
            T::Rid => {
                let id = if self.spec.rid_payload {
                    self.u64("an RID")?
                } else {
                    0
                };
                b.rid(id)
            }
            T::Callable => b.callable(),
            T::Signal => {
                let name = self.string()?;
                let id = self.u64("a Signal's object id")?;
                b.signal(&name, id)
            }
            T::PackedByteArray => {
                let (raw, count) = self.packed_raw(1, "PackedByteArray")?;
                // The padding need not be present at the end of the input (`consumed`).
                self.pos += pad4(count);
                b.packed_bytes(raw)
            }
            T::PackedInt32Array => {
                let (raw, _) = self.packed_raw(4, "PackedInt32Array")?;
                b.packed_i32(raw)
            }
            T::PackedInt64Array => {
                let (raw, _) = self.packed_raw(8, "PackedInt64Array")?;
                b.packed_i64(raw)
            }
            T::PackedFloat32Array => {
                let (raw, _) = self.packed_raw(4, "PackedFloat32Array")?;
                b.packed_f32(raw)
            }
            T::PackedFloat64Array => {
                let (raw, _) = self.packed_raw(8, "PackedFloat64Array")?;
                b.packed_f64(raw)
            }
            T::PackedVector2Array => {
                self.packed_vectors(b, PackedVectorType::Vector2, wide_reals)?
            }
            T::PackedVector3Array => {
                self.packed_vectors(b, PackedVectorType::Vector3, wide_reals)?
            }
            T::PackedVector4Array => {
                self.packed_vectors(b, PackedVectorType::Vector4, wide_reals)?
            }
            T::PackedColorArray => {
                let (raw, _) = self.packed_raw(16, "PackedColorArray")?;
                b.packed_colors(raw)
            }
            T::PackedStringArray => {
                // A negative count is an empty array, not an error.
                let count = self.i32("a PackedStringArray count")?.max(0) as usize;
                let capacity = self.prealloc(count, 4);
                let mut strings = b.begin_strings(capacity);
                for _ in 0..count {
                    // Each string's bytes count against max_bytes (in raw_string).
                    let (raw, at) = self.raw_string()?;
                    if !b.push_string_utf8(&mut strings, raw, self.spec.utf8) {
                        return Err(decode_err(at, DecodeReason::InvalidUtf8));
                    }
                }
                b.end_strings(strings)
            }
            T::Object | T::Dictionary | T::Array => {
                return Err(self.fail(DecodeReason::UnknownType(ty.id())))
            }
        })
    }

    /// Pandemonium's POOL_VECTOR2I/3I/4I_ARRAY, built as a typed Array of that vector type.
    fn int_vector_pool<B: Build>(
        &mut self,
        b: &mut B,
        ty: IntVectorType,
        start: usize,
    ) -> Result<B::Value> {
        let n = ty.components();
        let (raw, count) = self.packed_raw(4 * n, "an int-vector pool array")?;
        let at = |reason: DecodeReason| decode_err(start, reason);
        let mut a = b
            .begin_array(ContainerType::Builtin(ty.variant_type()), count, count)
            .map_err(at)?;
        let mut c = [0i32; 4];
        for chunk in raw.chunks_exact(4 * n) {
            for (dst, src) in c.iter_mut().zip(chunk.chunks_exact(4)) {
                *dst = <i32 as LeWord>::from_le(src);
            }
            let v = b.int_vector(ty, c.get(..n).unwrap_or_default());
            b.push(&mut a, v).map_err(at)?;
        }
        Ok(b.end_array(a))
    }

    /// Pandemonium 5's TYPED_ARRAY / PACKED_TYPED_ARRAY: element type (this dialect's id), for
    /// objects sent in full the class name as a nested StringName value, count, elements.
    fn typed_array<B: Build>(
        &mut self,
        b: &mut B,
        header: u32,
        depth: usize,
        start: usize,
    ) -> Result<B::Value> {
        let at = |reason: DecodeReason| decode_err(start, reason);
        let type_at = self.pos;
        let elem_id = self.u32("a typed array element type")?;
        let Some(elem) = self.spec.type_of_wire_id(elem_id) else {
            return Err(decode_err(
                type_at,
                DecodeReason::BadContainerType(format!("element type id {elem_id} does not exist")),
            ));
        };
        let element = match elem {
            VariantType::Nil => ContainerType::Untyped,
            VariantType::Object if header & FLAG_OBJECT_AS_ID != 0 => {
                ContainerType::Class(ENCODED_OBJECT_AS_ID.into())
            }
            VariantType::Object => {
                let name_at = self.pos;
                let inner = self.u32("the class name's header")?;
                if self.spec.type_of_wire_id(inner & TYPE_MASK) != Some(VariantType::StringName) {
                    return Err(decode_err(
                        name_at,
                        DecodeReason::BadContainerType("the class name is not a StringName".into()),
                    ));
                }
                let class = self.string()?;
                if !self.opts.allow_objects {
                    ContainerType::Class(ENCODED_OBJECT_AS_ID.into())
                } else if class.is_empty() {
                    ContainerType::Builtin(VariantType::Object)
                } else {
                    ContainerType::Class(class.into_owned())
                }
            }
            t => ContainerType::Builtin(t),
        };
        let element = self.admit_container_type(element, type_at)?;
        // Bit 31 of the count is ignored, as in an Array's (Pandemonium v5.2.0 masks it too).
        let count = (self.u32("a typed array count")? & CONTAINER_COUNT_MASK) as usize;
        let capacity = self.prealloc(count, 4);
        let mut a = b.begin_array(element, capacity, count).map_err(at)?;
        for _ in 0..count {
            self.charge_elements(1)?;
            let v = self.value(b, depth + 1)?;
            b.push(&mut a, v).map_err(at)?;
        }
        Ok(b.end_array(a))
    }

    fn packed_vectors<B: Build>(
        &mut self,
        b: &mut B,
        ty: PackedVectorType,
        wide: bool,
    ) -> Result<B::Value> {
        let size = ty.components() * real_width(wide);
        let (raw, _) = self.packed_raw(size, ty.variant_type().name())?;
        Ok(b.packed_vectors(ty, raw, wide))
    }

    fn node_path<B: Build>(&mut self, b: &mut B) -> Result<B::Value> {
        let start = self.pos;
        if self.remaining() < 4 {
            return Err(self.fail(DecodeReason::Truncated {
                what: "a NodePath",
                needed: 12,
                available: self.remaining(),
            }));
        }
        let first = self.u32("a NodePath name count")?;
        if first & NODE_PATH_NEW_FORMAT == 0 {
            return Err(decode_err(start, DecodeReason::OldNodePath));
        }
        let names = first & !NODE_PATH_NEW_FORMAT;
        let mut subnames = self.u32("a NodePath subname count")?;
        let flags = self.u32("NodePath flags")?;
        if flags & NODE_PATH_PROPERTY != 0 {
            subnames = subnames.wrapping_add(1);
        }
        // The engine adds the two counts as u32 (wrapping); do the same.
        let total = names.wrapping_add(subnames);
        let capacity = self.prealloc(total as usize, 4);
        let mut parts: Vec<Cow<'b, str>> = Vec::with_capacity(capacity);
        for _ in 0..total {
            self.charge_elements(1)?;
            parts.push(self.string()?);
        }
        let split = (names as usize).min(parts.len());
        let (n, s) = parts.split_at(split);
        let absolute = flags & NODE_PATH_ABSOLUTE != 0
            && (self.spec.empty_node_path_absolute || !parts.is_empty());
        Ok(b.node_path(n, s, absolute))
    }

    /// A full object's `script` property, in its dialect's form (the one place for this rule):
    /// Godot 4.3+ sends the script's `res://` path as a String, or NIL: the value comes back
    /// with the path, for the object policy to judge and [`Build::set_script`] to set. Godot 3
    /// and Pandemonium embed the Script object itself, source code included: refused before it
    /// is built, as making it would run code that was never part of this project; any other
    /// value there makes no script (as the engine's `set`), so the builder sees null.
    fn script_property<B: Build>(
        &mut self,
        b: &mut B,
        depth: usize,
    ) -> Result<(B::Value, Option<Cow<'b, str>>)> {
        let value_at = self.pos;
        let mut peek = Reader {
            buf: self.buf,
            pos: value_at,
            spec: self.spec,
            opts: self.opts,
            max_depth: self.max_depth,
            elements: 0,
            text_bytes: 0,
            prealloc_left: 0,
        };
        let header = peek.u32("a value header")?;
        let ty = self.spec.type_of_wire_id(header & TYPE_MASK);
        let refuse = |reason: DecodeReason| decode_err(value_at, reason);
        let bad = |why: &str| {
            refuse(DecodeReason::Refused(format!(
                "invalid \"script\" property: {why}"
            )))
        };
        if self.spec.script_as_path {
            let path = match ty {
                Some(VariantType::Nil) => None,
                Some(VariantType::String) => {
                    let path = peek.string()?;
                    if !crate::objects::is_script_path(&path) {
                        return Err(bad("not a res:// path"));
                    }
                    Some(path)
                }
                _ => return Err(bad("expected the script path as a String")),
            };
            Ok((self.value(b, depth + 1)?, path))
        } else {
            if ty == Some(VariantType::Object) && header & FLAG_OBJECT_AS_ID == 0 {
                return Err(refuse(DecodeReason::NotAllowed(
                    "a script embedded as an object (its source code would run)".into(),
                )));
            }
            self.value(b, depth + 1)?;
            Ok((b.nil(), None))
        }
    }

    fn object<B: Build>(&mut self, b: &mut B, header: u32, depth: usize) -> Result<B::Value> {
        let start = self.pos;
        if header & FLAG_OBJECT_AS_ID != 0 {
            let id = self.u64("an object id")?;
            return Ok(if id == 0 {
                b.null_object()
            } else {
                b.object_id(id)
            });
        }
        if !self.opts.allow_objects {
            return Err(self.fail(DecodeReason::ObjectsNotAllowed));
        }
        let class = self.string()?;
        if class.is_empty() {
            return Ok(b.null_object());
        }
        let unknown_code = self.spec.unknown_class_code;
        let class_error = |r: DecodeReason| {
            let r = match r {
                DecodeReason::UnknownClass(c) if unknown_code == ErrorCode::Unavailable => {
                    DecodeReason::UnavailableClass(c)
                }
                r => r,
            };
            decode_err(start, r)
        };
        // The class is judged when it is read (as the engine does), by the policy and then by
        // the builder's knowledge of what exists; nothing is made yet.
        self.opts
            .object_policy()
            .check_class(&class)
            .map_err(class_error)?;
        b.check_class(&class).map_err(class_error)?;
        // Every property is read (its value built) before the object itself is made: the policy
        // must see the `script` property first, wherever it stands.
        let count = self.i32("an object property count")?.max(0);
        let capacity = self.prealloc(count as usize, 8);
        let mut properties = Vec::with_capacity(capacity);
        let mut script = None;
        for _ in 0..count {
            self.charge_elements(1)?;
            let name_at = self.pos;
            let name = self.string()?;
            if name == "script" {
                let (v, path) = self.script_property(b, depth)?;
                script.clone_from(&path);
                properties.push((name_at, name, v, path));
            } else {
                let v = self.value(b, depth + 1)?;
                properties.push((name_at, name, v, None));
            }
        }
        self.opts
            .object_policy()
            .check_object(&class, script.as_deref())
            .map_err(|r| decode_err(start, r))?;
        let mut obj = b.begin_object(&class).map_err(class_error)?;
        for (name_at, name, v, path) in properties {
            match path {
                Some(path) => b.set_script(&mut obj, v, &path),
                None => b.set_property(&mut obj, &name, v),
            }
            .map_err(|r| decode_err(name_at, r))?;
        }
        b.end_object(obj).map_err(|r| decode_err(start, r))
    }
}
