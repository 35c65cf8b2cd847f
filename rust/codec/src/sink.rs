//! Where encoded bytes go: a growable buffer, a fixed slice, or nowhere (size counting).
//!
//! The writer emits through [`Sink`], so [`crate::encoded_size`] runs the very same code as
//! encoding and cannot disagree with it.

use bytes::{BufMut, BytesMut};

use crate::header::pad4;

mod sealed {
    /// Only the plain number types below: `unsafe` code in this module views their memory as
    /// bytes, which is sound only for types without padding or invalid bit patterns.
    pub trait Sealed {}
}

/// A little-endian number that can be copied to or from wire bytes in bulk: u8, u32, u64,
/// i32, i64, f32 and f64. Sealed, because the bulk copies below rely on exactly these types.
pub trait LeWord: sealed::Sealed + Copy + Default + 'static {
    /// Size in bytes, on the wire as in memory.
    const SIZE: usize;
    /// Writes the little-endian bytes into `out`, which must be exactly [`LeWord::SIZE`] long.
    fn to_le(self, out: &mut [u8]);
    /// Reads the number from `bytes`, which must be exactly [`LeWord::SIZE`] long.
    fn from_le(bytes: &[u8]) -> Self;
}

macro_rules! le_word {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl LeWord for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline]
            fn to_le(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn from_le(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(bytes);
                <$t>::from_le_bytes(b)
            }
        }
    )*};
}
le_word!(u8, u32, u64, i32, i64, f32, f64);

/// The bytes of `words` as they lie in memory, which on little-endian hosts is the wire form.
#[cfg(target_endian = "little")]
#[inline]
pub fn le_bytes_of<T: LeWord>(words: &[T]) -> &[u8] {
    // SAFETY: `LeWord` is sealed to u8, u32, u64, i32, i64, f32 and f64: plain numbers with no
    // padding and no invalid bit patterns, so viewing their memory as bytes is sound. The
    // length is the slice's size in bytes (`size_of_val`), and u8 needs no alignment.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}

/// Fills `out` from wire bytes (`raw.len()` must be `out.len() * T::SIZE`; extra is ignored).
///
/// # Examples
/// ```
/// use fast_var_codec_core::reader::copy_from_le;
///
/// let mut out = [0.0f32; 2];
/// copy_from_le(&[0, 0, 0x80, 0x3f, 0, 0, 0, 0x40], &mut out);
/// assert_eq!(out, [1.0, 2.0]);
/// ```
#[inline]
pub fn copy_from_le<T: LeWord>(raw: &[u8], out: &mut [T]) {
    #[cfg(target_endian = "little")]
    {
        let n = std::mem::size_of_val(out).min(raw.len());
        // SAFETY: `out` is a valid, exclusively borrowed slice of plain numbers (see
        // `le_bytes_of`), so any byte pattern written into its first `n` bytes is a valid value;
        // `n` is at most the size of both `out` and `raw`, and the two cannot overlap because
        // `out` is a unique borrow.
        unsafe {
            std::ptr::copy_nonoverlapping(raw.as_ptr(), out.as_mut_ptr().cast::<u8>(), n);
        }
    }
    #[cfg(not(target_endian = "little"))]
    for (dst, src) in out.iter_mut().zip(raw.chunks_exact(T::SIZE)) {
        *dst = T::from_le(src);
    }
}

/// Wire bytes as a `Vec` of numbers (`raw.len() / T::SIZE` of them).
///
/// # Examples
/// ```
/// use fast_var_codec_core::reader::vec_from_le;
///
/// assert_eq!(vec_from_le::<i32>(&[1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), [1, -1]);
/// ```
pub fn vec_from_le<T: LeWord>(raw: &[u8]) -> Vec<T> {
    let mut v = vec![T::default(); raw.len() / T::SIZE];
    copy_from_le(raw, &mut v);
    v
}

/// A destination for encoded bytes.
pub trait Sink {
    /// Appends `v` little-endian (headers, counts, lengths).
    fn put_u32(&mut self, v: u32);
    /// Appends `v` little-endian (64-bit ints and ids).
    fn put_u64(&mut self, v: u64);
    /// Appends raw bytes.
    fn put_slice(&mut self, bytes: &[u8]);
    /// Appends `n` zero bytes (padding to a multiple of 4).
    fn put_zeros(&mut self, n: usize);
    /// Bytes written so far.
    fn written(&self) -> usize;

    /// A text as the wire holds it: `head` (the value's header and the text's length, as one
    /// little-endian 64-bit word), the bytes, and zero padding to a multiple of 4.
    #[inline]
    fn put_padded_text(&mut self, head: u64, bytes: &[u8]) {
        self.put_u64(head);
        self.put_slice(bytes);
        self.put_zeros(pad4(bytes.len()));
    }

    /// Numbers in little-endian order; a single copy on little-endian hosts.
    #[inline]
    fn put_words<T: LeWord>(&mut self, words: &[T]) {
        #[cfg(target_endian = "little")]
        self.put_slice(le_bytes_of(words));
        #[cfg(not(target_endian = "little"))]
        for w in words {
            let mut b = [0u8; 8];
            if let Some(dst) = b.get_mut(..T::SIZE) {
                w.to_le(dst);
                self.put_slice(dst);
            }
        }
    }

    /// UTF-8 of `chars`, whose UTF-8 length the caller has measured.
    fn put_chars_utf8(&mut self, chars: &[char]) {
        // Short ASCII (keys, names): one narrowing pass into a small buffer.
        if chars.len() <= 64 && chars.iter().all(char::is_ascii) {
            let mut buf = [0u8; 64];
            for (dst, &c) in buf.iter_mut().zip(chars) {
                *dst = c as u8;
            }
            self.put_slice(buf.get(..chars.len()).unwrap_or_default());
            return;
        }
        let mut buf = [0u8; 256];
        let mut used = 0;
        for &c in chars {
            if used + 4 > buf.len() {
                self.put_slice(buf.get(..used).unwrap_or_default());
                used = 0;
            }
            if let Some(dst) = buf.get_mut(used..) {
                used += c.encode_utf8(dst).len();
            }
        }
        self.put_slice(buf.get(..used).unwrap_or_default());
    }
}

/// Appends the bytes of a fixed-size array to a `BytesMut` or `Vec<u8>`: stored straight into
/// its spare room when there is enough (one store, no call), else through
/// `extend_from_slice`, which grows it. (`BufMut`'s `put_u32_le` goes through `put_slice`, which
/// the compiler leaves as a call, and a `memcpy` call for four bytes in it.)
macro_rules! put_array {
    ($buf:expr, $bytes:expr) => {{
        let buf = &mut *$buf;
        let bytes = $bytes;
        let len = buf.len();
        match buf.spare_capacity_mut().get_mut(..bytes.len()) {
            Some(room) => {
                for (dst, src) in room.iter_mut().zip(bytes) {
                    dst.write(src);
                }
                // SAFETY: the `bytes.len()` bytes after `len` were initialized just above,
                // inside the capacity (`spare_capacity_mut` held them).
                unsafe { buf.set_len(len + bytes.len()) };
            }
            None => buf.extend_from_slice(&bytes),
        }
    }};
}

/// Copies `src` to `dst`, a short one (keys, names: up to 16 bytes) by two overlapping loads
/// and stores rather than a call to `memcpy`.
///
/// # Safety
/// `dst` must be valid for writes of `src.len()` bytes, none of them inside `src`.
#[inline(always)]
unsafe fn copy_short(src: &[u8], dst: *mut u8) {
    let n = src.len();
    let from = src.as_ptr();
    // SAFETY: each load reads inside `src` (its offset plus its width is at most n, which the
    // arm's range bounds), each store writes inside the n bytes at `dst` that the caller
    // promises; the two halves may overlap, each writing the same bytes.
    unsafe {
        match n {
            0 => {}
            1..=3 => {
                *dst = *from;
                *dst.add(n / 2) = *from.add(n / 2);
                *dst.add(n - 1) = *from.add(n - 1);
            }
            4..=7 => {
                let low = from.cast::<[u8; 4]>().read_unaligned();
                let high = from.add(n - 4).cast::<[u8; 4]>().read_unaligned();
                dst.cast::<[u8; 4]>().write_unaligned(low);
                dst.add(n - 4).cast::<[u8; 4]>().write_unaligned(high);
            }
            8..=16 => {
                let low = from.cast::<[u8; 8]>().read_unaligned();
                let high = from.add(n - 8).cast::<[u8; 8]>().read_unaligned();
                dst.cast::<[u8; 8]>().write_unaligned(low);
                dst.add(n - 8).cast::<[u8; 8]>().write_unaligned(high);
            }
            _ => std::ptr::copy_nonoverlapping(from, dst, n),
        }
    }
}

macro_rules! bufmut_sink {
    ($t:ty) => {
        impl Sink for $t {
            #[inline]
            fn put_u32(&mut self, v: u32) {
                put_array!(self, v.to_le_bytes());
            }
            #[inline]
            fn put_u64(&mut self, v: u64) {
                put_array!(self, v.to_le_bytes());
            }
            #[inline]
            fn put_slice(&mut self, bytes: &[u8]) {
                self.extend_from_slice(bytes);
            }
            #[inline]
            fn put_zeros(&mut self, n: usize) {
                if n <= 4 {
                    // Padding, the usual case: one word written and cut back costs less than
                    // a call to `memset` for up to three bytes.
                    let end = self.len() + n;
                    put_array!(self, [0u8; 4]);
                    self.truncate(end);
                } else {
                    self.put_bytes(0, n);
                }
            }
            #[inline]
            fn written(&self) -> usize {
                self.len()
            }
            /// One capacity check for the whole text: the padding is written as a whole zero
            /// word past the bytes, and the length then cut to the padded end.
            #[inline]
            fn put_padded_text(&mut self, head: u64, bytes: &[u8]) {
                let n = bytes.len();
                let start = self.len();
                self.reserve(8 + n + 4);
                let room = self.spare_capacity_mut();
                if room.len() < 8 + n + 4 {
                    // Not after `reserve`; written the long way all the same.
                    Sink::put_u64(self, head);
                    Sink::put_slice(self, bytes);
                    Sink::put_zeros(self, pad4(n));
                    return;
                }
                let at = room.as_mut_ptr().cast::<u8>();
                // SAFETY: `room` holds at least 8 + n + 4 bytes (tested), so the 8 bytes at
                // `at`, the n after them (`copy_short`'s destination) and the 4 after those are
                // inside it.
                unsafe {
                    at.cast::<[u8; 8]>().write_unaligned(head.to_le_bytes());
                    copy_short(bytes, at.add(8));
                    at.add(8 + n).cast::<[u8; 4]>().write_unaligned([0; 4]);
                }
                // SAFETY: the 8 + n + pad4(n) bytes after `start` were written just above
                // (pad4(n) <= 4), inside the capacity.
                unsafe { self.set_len(start + 8 + n + pad4(n)) };
            }
        }
    };
}
bufmut_sink!(BytesMut);
bufmut_sink!(Vec<u8>);

/// A sink whose written bytes can be rewritten: where a container's count is written only
/// once its end is known (the transcoder, serde's sequences of unknown length).
pub(crate) trait PatchSink: Sink {
    /// Writes `v` little-endian over the four bytes at `at` (nothing when they are not all
    /// written yet).
    fn patch_u32(&mut self, at: usize, v: u32);
    /// The bytes written from `at` on (empty past the end).
    #[cfg(feature = "serde")]
    fn bytes_from(&self, at: usize) -> &[u8];
}

impl PatchSink for BytesMut {
    fn patch_u32(&mut self, at: usize, v: u32) {
        if let Some(field) = self.get_mut(at..at.saturating_add(4)) {
            field.copy_from_slice(&v.to_le_bytes());
        }
    }
    #[cfg(feature = "serde")]
    fn bytes_from(&self, at: usize) -> &[u8] {
        self.get(at..).unwrap_or_default()
    }
}

impl PatchSink for Vec<u8> {
    fn patch_u32(&mut self, at: usize, v: u32) {
        if let Some(field) = self.get_mut(at..at.saturating_add(4)) {
            field.copy_from_slice(&v.to_le_bytes());
        }
    }
    #[cfg(feature = "serde")]
    fn bytes_from(&self, at: usize) -> &[u8] {
        self.get(at..).unwrap_or_default()
    }
}

/// Counts bytes instead of writing them: the engine of [`crate::encoded_size`].
#[derive(Debug, Default, Clone, Copy)]
pub struct SizeCounter(pub usize);

impl Sink for SizeCounter {
    #[inline]
    fn put_u32(&mut self, _: u32) {
        self.0 += 4;
    }
    #[inline]
    fn put_u64(&mut self, _: u64) {
        self.0 += 8;
    }
    #[inline]
    fn put_slice(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        self.0 += n;
    }
    #[inline]
    fn written(&self) -> usize {
        self.0
    }
    #[inline]
    fn put_words<T: LeWord>(&mut self, words: &[T]) {
        self.0 += std::mem::size_of_val(words);
    }
    #[inline]
    fn put_chars_utf8(&mut self, chars: &[char]) {
        self.0 += chars.iter().map(|c| c.len_utf8()).sum::<usize>();
    }
}

/// Writes into a caller-provided slice (e.g. a pre-sized engine buffer). Writing past its end
/// writes nothing more and marks it [`SliceSink::overflowed`]; the writer reports that as an error.
#[derive(Debug)]
pub struct SliceSink<'a> {
    buf: &'a mut [u8],
    pos: usize,
    overflowed: bool,
}

impl<'a> SliceSink<'a> {
    /// A sink that writes from the start of `buf`.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceSink {
            buf,
            pos: 0,
            overflowed: false,
        }
    }

    /// Whether a write did not fit: the slice then holds an incomplete encoding, which its
    /// user must treat as [`crate::error::EncodeReason::BufferFull`].
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    #[inline]
    fn take(&mut self, n: usize) -> Option<&mut [u8]> {
        let end = self.pos.checked_add(n)?;
        match self.buf.get_mut(self.pos..end) {
            Some(dst) => {
                self.pos = end;
                Some(dst)
            }
            None => {
                self.overflowed = true;
                None
            }
        }
    }
}

impl Sink for SliceSink<'_> {
    #[inline]
    fn put_u32(&mut self, v: u32) {
        self.put_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_u64(&mut self, v: u64) {
        self.put_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_slice(&mut self, bytes: &[u8]) {
        if let Some(dst) = self.take(bytes.len()) {
            dst.copy_from_slice(bytes);
        }
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        if let Some(dst) = self.take(n) {
            dst.fill(0);
        }
    }
    #[inline]
    fn written(&self) -> usize {
        self.pos
    }
    fn put_chars_utf8(&mut self, chars: &[char]) {
        let mut pos = self.pos;
        for &c in chars {
            let len = c.len_utf8();
            match self.buf.get_mut(pos..pos + len) {
                Some(dst) => {
                    c.encode_utf8(dst);
                    pos += len;
                }
                None => {
                    self.overflowed = true;
                    return;
                }
            }
        }
        self.pos = pos;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_text_is_head_bytes_and_zeros() {
        for n in 0..40 {
            let text: Vec<u8> = (1..=n as u8).collect();
            let mut expected = 0x1122_3344_5566_7788_u64.to_le_bytes().to_vec();
            expected.extend_from_slice(&text);
            expected.resize(expected.len() + pad4(n), 0);
            for room in [0, n, 8 + n + 4, 64] {
                let mut v = Vec::with_capacity(room);
                v.push(0xAA);
                Sink::put_padded_text(&mut v, 0x1122_3344_5566_7788, &text);
                assert_eq!(v[0], 0xAA);
                assert_eq!(&v[1..], &expected[..], "Vec, {n} bytes");
                let mut b = BytesMut::with_capacity(room);
                Sink::put_padded_text(&mut b, 0x1122_3344_5566_7788, &text);
                assert_eq!(&b[..], &expected[..], "BytesMut, {n} bytes");
                let mut counter = SizeCounter(0);
                counter.put_padded_text(0, &text);
                assert_eq!(counter.0, expected.len());
            }
        }
    }

    #[test]
    fn words_round_trip_through_le_bytes() {
        let v = [1.5f32, -0.0, f32::INFINITY];
        let mut out = Vec::new();
        out.put_words(&v);
        assert_eq!(out.len(), 12);
        assert_eq!(&out[0..4], &1.5f32.to_le_bytes());
        let back: Vec<f32> = vec_from_le(&out);
        assert_eq!(
            back.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
            v.map(f32::to_bits)
        );
    }

    #[test]
    fn slice_sink_reports_overflow() {
        let mut buf = [0u8; 6];
        let mut s = SliceSink::new(&mut buf);
        s.put_u32(7);
        assert!(!s.overflowed());
        s.put_u32(8);
        assert!(s.overflowed());
        assert_eq!(s.written(), 4);
    }

    #[test]
    fn chars_to_utf8_in_every_sink() {
        let text = "aé日😀".repeat(100);
        let chars: Vec<char> = text.chars().collect();
        let mut v = Vec::new();
        v.put_chars_utf8(&chars);
        assert_eq!(v, text.as_bytes());
        let mut n = SizeCounter::default();
        n.put_chars_utf8(&chars);
        assert_eq!(n.0, text.len());
        let mut buf = vec![0u8; text.len()];
        let mut s = SliceSink::new(&mut buf);
        s.put_chars_utf8(&chars);
        assert!(!s.overflowed());
        assert_eq!(buf, text.as_bytes());
    }
}
