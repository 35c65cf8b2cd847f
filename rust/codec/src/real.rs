//! `real_t` components: the two widths they travel in, and every conversion between them, once.
//!
//! Godot's math types (Vector2 … Projection) and packed vector arrays hold `real_t`: binary32 in
//! a standard engine, binary64 in a `precision=double` one, and the wire carries either (its
//! header flag says which). A NaN's bits are part of the value — an engine re-encodes the bits it
//! decoded — so a conversion here never leaves a NaN to the CPU's float conversion, which sets
//! the quiet bit and whose NaN results Rust does not specify:
//!
//! * **as an engine converts**: [`Real::from_binary32`] and [`Real::from_binary64`] turn a wire
//!   component into a `real_t` as the engine's C++ does (an IEEE conversion): a signalling NaN
//!   that changes width comes out quiet, with what of its payload fits ([`widen_as_engine`],
//!   [`narrow_as_engine`]); one that keeps its width keeps every bit;
//! * **bit for bit**: [`widen_exact`] holds a binary32 component in an f64, a NaN keeping its
//!   sign, payload and signalling bit, and [`narrow_exact`] gives it back. [`crate::Value`] holds
//!   binary32 `real_t` that way, and writing binary32 from f64 uses `narrow_exact`.

use crate::dialect::Precision;
use crate::sink::{LeWord, Sink};

/// Bits of a binary64 mantissa below the 23 a binary32 mantissa has.
const SHIFT: u32 = 52 - 23;
const F32_EXPONENT: u32 = 0x7f80_0000;
const F32_QUIET: u32 = 1 << 22;
const F32_MANTISSA: u32 = (1 << 23) - 1;
const F64_EXPONENT: u64 = 0x7ff0_0000_0000_0000;
const F64_MANTISSA: u64 = (1 << 52) - 1;

/// A binary32 value as a binary64 one, as the engine's `(double)f` converts it: exact, but a
/// signalling NaN comes out quiet (its payload kept).
///
/// # Examples
/// ```
/// use fast_var_codec_core::real::widen_as_engine;
///
/// assert_eq!(widen_as_engine(0.5), 0.5);
/// let quieted = widen_as_engine(f32::from_bits(0x7fa0_0001));
/// assert_eq!(quieted.to_bits(), 0x7ffc_0000_2000_0000);
/// ```
pub fn widen_as_engine(v: f32) -> f64 {
    if v.is_nan() {
        widen_exact(quiet_as_engine(v))
    } else {
        f64::from(v)
    }
}

/// A binary32 value as the engine holds it once read into a double and converted back to
/// float: the same bits, but a signalling NaN quiet ([`widen_as_engine`] of it is exact).
#[inline]
pub(crate) fn quiet_as_engine(v: f32) -> f32 {
    if v.is_nan() {
        f32::from_bits(v.to_bits() | F32_QUIET)
    } else {
        v
    }
}

/// A binary64 value as a binary32 one, as the engine's `(float)d` converts it: rounded to
/// nearest, ties to even; a NaN comes out quiet, with the top of its payload.
///
/// # Examples
/// ```
/// use fast_var_codec_core::real::narrow_as_engine;
///
/// assert_eq!(narrow_as_engine(0.1), 0.1f32);
/// // A signalling NaN whose payload lies below binary32's mantissa: the default quiet NaN.
/// assert_eq!(narrow_as_engine(f64::from_bits(0x7ff0_0000_0000_0001)).to_bits(), 0x7fc0_0000);
/// ```
pub fn narrow_as_engine(v: f64) -> f32 {
    if v.is_nan() {
        let (sign, payload) = nan_parts(v);
        f32::from_bits(sign | F32_EXPONENT | F32_QUIET | payload)
    } else {
        v as f32
    }
}

/// A binary32 value held in a binary64 one without losing a bit: the same number, or for a NaN
/// the NaN with the same sign, payload and signalling bit ([`narrow_exact`] gives it back).
///
/// # Examples
/// ```
/// use fast_var_codec_core::real::{narrow_exact, widen_exact};
///
/// let signalling = f32::from_bits(0xff9e_b518);
/// let held = widen_exact(signalling);
/// assert!(held.is_nan());
/// assert_eq!(narrow_exact(held).to_bits(), 0xff9e_b518);
/// ```
pub fn widen_exact(v: f32) -> f64 {
    if v.is_nan() {
        let bits = v.to_bits();
        let sign = u64::from(bits >> 31) << 63;
        f64::from_bits(sign | F64_EXPONENT | (u64::from(bits & F32_MANTISSA) << SHIFT))
    } else {
        f64::from(v)
    }
}

/// A binary64 value as binary32 for writing: the inverse of [`widen_exact`] for what it made (a
/// NaN whose payload fits binary32's mantissa keeps it, quiet or signalling), otherwise as
/// [`narrow_as_engine`].
///
/// # Examples
/// ```
/// use fast_var_codec_core::real::narrow_exact;
///
/// assert_eq!(narrow_exact(1.0 / 3.0), 1.0f32 / 3.0);
/// assert_eq!(narrow_exact(f64::from_bits(0x7ff4_0000_0000_0000)).to_bits(), 0x7fa0_0000);
/// ```
pub fn narrow_exact(v: f64) -> f32 {
    if v.is_nan() {
        let low = v.to_bits() & ((1 << SHIFT) - 1);
        let (sign, payload) = nan_parts(v);
        if low == 0 && payload != 0 {
            return f32::from_bits(sign | F32_EXPONENT | payload);
        }
    }
    narrow_as_engine(v)
}

/// A binary64 NaN's sign bit at binary32's place, and the top 23 bits of its payload.
fn nan_parts(v: f64) -> (u32, u32) {
    let bits = v.to_bits();
    let sign = ((bits >> 63) as u32) << 31;
    let payload = ((bits & F64_MANTISSA) >> SHIFT) as u32;
    (sign, payload)
}

/// A `real_t` component as a value source holds it: f32 (standard engines) or f64
/// (`precision=double` engines, and this crate's [`crate::Value`]).
pub trait Real: LeWord {
    /// A binary32 wire component as an engine whose `real_t` is `Self` decodes it.
    fn from_binary32(v: f32) -> Self;
    /// A binary64 wire component as an engine whose `real_t` is `Self` decodes it.
    fn from_binary64(v: f64) -> Self;
    /// The component as binary32, for single-precision output ([`narrow_exact`] from f64).
    fn to_binary32(self) -> f32;
    /// The component as binary64, for double-precision output ([`widen_exact`] from f32).
    fn to_binary64(self) -> f64;
    /// Writes `values` as binary32, converting only when `Self` is not already f32.
    fn put_as_f32<S: Sink>(values: &[Self], out: &mut S);
    /// Writes `values` as binary64, converting only when `Self` is not already f64.
    fn put_as_f64<S: Sink>(values: &[Self], out: &mut S);
}

impl Real for f32 {
    #[inline]
    fn from_binary32(v: f32) -> f32 {
        v
    }
    #[inline]
    fn from_binary64(v: f64) -> f32 {
        narrow_as_engine(v)
    }
    #[inline]
    fn to_binary32(self) -> f32 {
        self
    }
    #[inline]
    fn to_binary64(self) -> f64 {
        widen_exact(self)
    }
    #[inline]
    fn put_as_f32<S: Sink>(values: &[f32], out: &mut S) {
        out.put_words(values);
    }
    fn put_as_f64<S: Sink>(values: &[f32], out: &mut S) {
        convert_in_chunks(values, out, |v: &f32| widen_exact(*v));
    }
}

impl Real for f64 {
    #[inline]
    fn from_binary32(v: f32) -> f64 {
        widen_as_engine(v)
    }
    #[inline]
    fn from_binary64(v: f64) -> f64 {
        v
    }
    #[inline]
    fn to_binary32(self) -> f32 {
        narrow_exact(self)
    }
    #[inline]
    fn to_binary64(self) -> f64 {
        self
    }
    fn put_as_f32<S: Sink>(values: &[f64], out: &mut S) {
        convert_in_chunks(values, out, |v: &f64| narrow_exact(*v));
    }
    #[inline]
    fn put_as_f64<S: Sink>(values: &[f64], out: &mut S) {
        out.put_words(values);
    }
}

/// Bytes per `real_t` component on the wire: 8 when `wide` (binary64), else 4.
#[inline]
pub const fn real_width(wide: bool) -> usize {
    if wide {
        8
    } else {
        4
    }
}

/// Converts numbers to another width through a stack buffer, so the sink sees a few large
/// copies rather than one call per component.
pub(crate) fn convert_in_chunks<A, B: LeWord + Default, S: Sink>(
    values: &[A],
    out: &mut S,
    f: impl Fn(&A) -> B,
) {
    let mut buf = [B::default(); 256];
    for chunk in values.chunks(buf.len()) {
        for (dst, src) in buf.iter_mut().zip(chunk) {
            *dst = f(src);
        }
        out.put_words(buf.get(..chunk.len()).unwrap_or_default());
    }
}

/// The `real_t` components of one math value as the wire held them, not yet converted (see
/// [`crate::reader::Build::real`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WireReals<'a> {
    /// Binary32 components (no 64-bit flag in the header, or a dialect without one).
    Binary32(&'a [f32]),
    /// Binary64 components (the header's 64-bit flag, in a dialect that has it).
    Binary64(&'a [f64]),
}

impl WireReals<'_> {
    /// How many components there are.
    pub fn len(&self) -> usize {
        match self {
            WireReals::Binary32(c) => c.len(),
            WireReals::Binary64(c) => c.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The components as an engine whose `real_t` is `R` decodes them, into the first
    /// `self.len()` elements of `out` (as many as fit).
    ///
    /// # Examples
    /// ```
    /// use fast_var_codec_core::real::WireReals;
    ///
    /// let mut out = [0f32; 2];
    /// WireReals::Binary64(&[0.1, 2.0]).read_into(&mut out);
    /// assert_eq!(out, [0.1f32, 2.0]);
    /// ```
    pub fn read_into<R: Real>(&self, out: &mut [R]) {
        match self {
            WireReals::Binary32(c) => {
                for (d, s) in out.iter_mut().zip(*c) {
                    *d = R::from_binary32(*s);
                }
            }
            WireReals::Binary64(c) => {
                for (d, s) in out.iter_mut().zip(*c) {
                    *d = R::from_binary64(*s);
                }
            }
        }
    }
}

/// Fills `out` with the components of a packed vector array's little-endian bytes (`wide`:
/// binary64, else binary32) as an engine whose `real_t` is `R` decodes them: one copy when the
/// widths agree. Fills as many as both hold.
pub fn reals_from_le<R: Real>(raw: &[u8], wide: bool, out: &mut [R]) {
    if real_width(wide) == R::SIZE {
        crate::sink::copy_from_le(raw, out);
    } else if wide {
        for (d, s) in out.iter_mut().zip(raw.chunks_exact(8)) {
            *d = R::from_binary64(<f64 as LeWord>::from_le(s));
        }
    } else {
        for (d, s) in out.iter_mut().zip(raw.chunks_exact(4)) {
            *d = R::from_binary32(<f32 as LeWord>::from_le(s));
        }
    }
}

/// How [`crate::Value`] holds one `real_t` of a decode at `precision`: the engine's `real_t`
/// (binary32 for [`Precision::Single`], kept bit for bit in the f64 by [`widen_exact`]).
pub(crate) fn held(precision: Precision, engine_real: HeldFrom) -> f64 {
    match (precision, engine_real) {
        (Precision::Single, HeldFrom::Binary32(v)) => widen_exact(v),
        (Precision::Single, HeldFrom::Binary64(v)) => widen_exact(narrow_as_engine(v)),
        (Precision::Double, HeldFrom::Binary32(v)) => widen_as_engine(v),
        (Precision::Double, HeldFrom::Binary64(v)) => v,
    }
}

/// One wire component, for [`held`].
#[derive(Clone, Copy)]
pub(crate) enum HeldFrom {
    Binary32(f32),
    Binary64(f64),
}

/// [`held`] for every component of `wire`, into `out` (as many as both hold).
pub(crate) fn held_all(precision: Precision, wire: WireReals<'_>, out: &mut [f64]) {
    match wire {
        WireReals::Binary32(c) => {
            for (d, s) in out.iter_mut().zip(c) {
                *d = held(precision, HeldFrom::Binary32(*s));
            }
        }
        WireReals::Binary64(c) => {
            for (d, s) in out.iter_mut().zip(c) {
                *d = held(precision, HeldFrom::Binary64(*s));
            }
        }
    }
}

/// A packed vector array's components as [`crate::Value`] holds them after a decode at
/// `precision` (see [`held`]).
pub(crate) fn held_from_le(precision: Precision, raw: &[u8], wide: bool) -> Vec<f64> {
    if wide {
        raw.chunks_exact(8)
            .map(|s| held(precision, HeldFrom::Binary64(<f64 as LeWord>::from_le(s))))
            .collect()
    } else {
        raw.chunks_exact(4)
            .map(|s| held(precision, HeldFrom::Binary32(<f32 as LeWord>::from_le(s))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every class of binary32 NaN: signalling and quiet, both signs, smallest and largest
    /// payloads.
    const F32_NANS: [u32; 8] = [
        0x7f80_0001,
        0x7fbf_ffff,
        0xff80_0001,
        0xff9e_b518,
        0x7fc0_0000,
        0x7fc1_2345,
        0xffc0_0000,
        0xffff_ffff,
    ];

    #[test]
    fn widen_exact_keeps_every_binary32_nan() {
        for bits in F32_NANS {
            let held = widen_exact(f32::from_bits(bits));
            assert!(held.is_nan(), "{bits:08x}");
            assert_eq!(narrow_exact(held).to_bits(), bits, "{bits:08x}");
        }
    }

    #[test]
    fn widen_as_engine_quiets_and_keeps_the_payload() {
        for bits in F32_NANS {
            let w = widen_as_engine(f32::from_bits(bits));
            assert_eq!(narrow_exact(w).to_bits(), bits | F32_QUIET, "{bits:08x}");
        }
    }

    #[test]
    fn numbers_convert_as_ieee_does() {
        for v in [
            0.0f32,
            -0.0,
            1.5,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::INFINITY,
            -f32::INFINITY,
        ] {
            assert_eq!(widen_exact(v).to_bits(), f64::from(v).to_bits());
            assert_eq!(widen_as_engine(v).to_bits(), f64::from(v).to_bits());
            assert_eq!(narrow_exact(f64::from(v)).to_bits(), v.to_bits());
        }
        assert_eq!(narrow_as_engine(0.1), 0.1f64 as f32);
        assert_eq!(narrow_as_engine(1e300), f32::INFINITY);
    }
}
