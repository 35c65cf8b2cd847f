//! Text on the wire: UTF-8 out of `str` or UTF-32 (`[char]`, Godot's own string storage),
//! and the engines' rules for accepting UTF-8 in.

use std::borrow::Cow;

use crate::dialect::Utf8Rules;
use crate::sink::Sink;

/// Something that can be written as UTF-8 without first building a Rust `String`.
pub trait Text {
    /// Length of the UTF-8 form in bytes.
    fn utf8_len(&self) -> usize;
    /// Writes the UTF-8 form, exactly [`Text::utf8_len`] bytes, to `out`.
    fn put_utf8<S: Sink>(&self, out: &mut S);
    /// The character index of the first U+0000, which no engine reads past (every decoder
    /// stops at the first zero byte). `None` by default: Godot's own UTF-32 strings (`[char]`)
    /// are the engine's to write.
    fn nul_at(&self) -> Option<usize> {
        None
    }
    /// The UTF-8 bytes themselves, where the text is stored as UTF-8: written with one copy.
    fn as_utf8(&self) -> Option<&[u8]> {
        None
    }
}

/// Whether a byte of the word is zero (the exact test: borrows reach a byte's top bit only
/// from a zero byte below it).
#[inline(always)]
const fn word_has_zero(x: u64) -> bool {
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080 != 0
}

/// Whether `b` holds a zero byte. Keys and names are short: up to 16 bytes are tested as two
/// overlapping words (or, under 4, by their first, middle and last byte, which are all of
/// them), longer texts by core's search for a byte.
#[inline(always)]
fn has_zero_byte(b: &[u8]) -> bool {
    // The little-endian word of `N` bytes at `at`, which the length test below keeps in `b`.
    fn word<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
        b.get(at..at + N)
            .and_then(|s| s.try_into().ok())
            .unwrap_or([0xFF; N])
    }
    let n = b.len();
    match n {
        0 => false,
        1..=3 => b.first() == Some(&0) || b.get(n / 2) == Some(&0) || b.last() == Some(&0),
        4..=7 => {
            let low = u32::from_le_bytes(word(b, 0));
            let high = u32::from_le_bytes(word(b, n - 4));
            word_has_zero(u64::from(low) | u64::from(high) << 32)
        }
        8..=16 => {
            word_has_zero(u64::from_le_bytes(word(b, 0)))
                || word_has_zero(u64::from_le_bytes(word(b, n - 8)))
        }
        _ => b.contains(&0),
    }
}

/// The character index of the first U+0000 in `s`: the test inlined, the search out of line.
#[inline(always)]
fn first_nul(s: &str) -> Option<usize> {
    if has_zero_byte(s.as_bytes()) {
        nul_index(s)
    } else {
        None
    }
}

#[cold]
#[inline(never)]
fn nul_index(s: &str) -> Option<usize> {
    let byte = s.as_bytes().iter().position(|&b| b == 0)?;
    Some(s[..byte].chars().count())
}

impl Text for str {
    #[inline]
    fn utf8_len(&self) -> usize {
        self.len()
    }
    #[inline]
    fn as_utf8(&self) -> Option<&[u8]> {
        Some(self.as_bytes())
    }
    #[inline]
    fn put_utf8<S: Sink>(&self, out: &mut S) {
        out.put_slice(self.as_bytes());
    }
    #[inline(always)]
    fn nul_at(&self) -> Option<usize> {
        first_nul(self)
    }
}

impl Text for String {
    #[inline]
    fn utf8_len(&self) -> usize {
        self.len()
    }
    #[inline]
    fn as_utf8(&self) -> Option<&[u8]> {
        Some(self.as_bytes())
    }
    #[inline]
    fn put_utf8<S: Sink>(&self, out: &mut S) {
        out.put_slice(self.as_bytes());
    }
    #[inline(always)]
    fn nul_at(&self) -> Option<usize> {
        first_nul(self)
    }
}

impl Text for [char] {
    #[inline]
    fn utf8_len(&self) -> usize {
        utf8_len_of_chars(self)
    }
    #[inline]
    fn put_utf8<S: Sink>(&self, out: &mut S) {
        out.put_chars_utf8(self);
    }
}

/// UTF-8 length of UTF-32 text, counting ASCII runs quickly.
pub fn utf8_len_of_chars(chars: &[char]) -> usize {
    chars
        .iter()
        .map(|&c| match c as u32 {
            0..=0x7F => 1,
            0x80..=0x7FF => 2,
            0x800..=0xFFFF => 3,
            _ => 4,
        })
        .sum()
}

/// Decodes a string payload the way the engine does: stop at the first NUL, drop one leading
/// byte-order mark, and validate by the dialect's rules. `None` means the engine rejects it.
///
/// Whatever the strict rules accept, Godot 3's rules read the same: the forms only Godot 3
/// accepts are all invalid UTF-8, and both cut at the first NUL and drop one leading byte-order
/// mark. So a builder may try a strict decoder (Godot 4's own) first in any dialect, and use
/// this function with the dialect's rules only when that decoder rejects the bytes.
///
/// Inlined for its common case, kept small: most texts (keys, names) are short ASCII, where one
/// pass finds neither a NUL, nor a byte-order mark, nor anything but ASCII, and then the bytes
/// are the text. Returned through registers, such a text costs its caller no store and reload
/// of the result.
///
/// A PackedStringArray's items end with their NUL: text ending there takes the same way.
///
/// # Examples
/// ```
/// use fast_var_codec_core::options::Utf8Rules;
/// use fast_var_codec_core::reader::decode_utf8;
///
/// assert_eq!(decode_utf8(b"name\0rest", Utf8Rules::Strict).as_deref(), Some("name"));
/// // A surrogate: Godot 3 reads it (as U+FFFD), Godot 4 refuses the string.
/// assert_eq!(decode_utf8(b"\xed\xa0\x80", Utf8Rules::Strict), None);
/// assert_eq!(decode_utf8(b"\xed\xa0\x80", Utf8Rules::Godot3).as_deref(), Some("\u{fffd}"));
/// ```
#[inline]
pub fn decode_utf8(raw: &[u8], rules: Utf8Rules) -> Option<Cow<'_, str>> {
    let text = raw.strip_suffix(&[0]).unwrap_or(raw);
    if let Some(plain) = short_plain_ascii(text) {
        return Some(Cow::Borrowed(plain));
    }
    decode_utf8_by_rules(raw, rules)
}

/// `bytes` as text when they are at most 64 bytes of ASCII without a NUL (most keys and
/// names), told a word at a time; `None` otherwise, for the caller's full check. Public for the
/// package surfaces' own buffers (the npm package's tape), not part of the format's API.
#[doc(hidden)]
#[inline(always)]
pub fn short_plain_ascii(bytes: &[u8]) -> Option<&str> {
    if is_short_plain_ascii(bytes) {
        // SAFETY: every byte is below 0x80 (checked above): ASCII, which is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        None
    }
}

/// Whether `text` is at most 64 bytes, all ASCII and none NUL: [`decode_utf8`]'s fast case.
///
/// Checked a word at a time, where a loop over the bytes that stops at the first odd one
/// mispredicts its exit at each text's length. A word has no byte of 0x80 or more and no zero
/// byte exactly when neither it nor the word less one in every byte has a high bit set:
/// without high bits, subtracting one borrows, and so sets a high bit, only at a zero byte.
#[inline(always)]
fn is_short_plain_ascii(text: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let plain = |w: u64| (w | w.wrapping_sub(ONES)) & HIGH == 0;
    let word = |at: usize| {
        text.get(at..at + 8)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u64::from_ne_bytes)
    };
    // Four bytes widened with plain ones.
    let half = |at: usize| {
        text.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, |b| u64::from(u32::from_ne_bytes(b)) | (ONES << 32))
    };
    let n = text.len();
    match n {
        0..=3 => text.iter().all(|&b| b != 0 && b < 0x80),
        // Two overlapping halves, or words at 0, 8, … and a last overlapping one.
        4..=7 => plain(half(0)) && plain(half(n - 4)),
        8..=64 => {
            let mut at = 0;
            while at + 8 < n {
                if !plain(word(at)) {
                    return false;
                }
                at += 8;
            }
            plain(word(n - 8))
        }
        _ => false,
    }
}

/// [`decode_utf8`] past its short-ASCII case.
#[inline(never)]
fn decode_utf8_by_rules(raw: &[u8], rules: Utf8Rules) -> Option<Cow<'_, str>> {
    match rules {
        Utf8Rules::Strict => {
            // Usually all valid and NUL-free: one validation, then a fast (memchr) NUL search.
            // Else the engine's order: cut at the first NUL, then validate what precedes it.
            let s = match std::str::from_utf8(raw) {
                Ok(s) => s
                    .find('\0')
                    .map_or(s, |nul| s.get(..nul).unwrap_or_default()),
                Err(_) => {
                    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
                    std::str::from_utf8(raw.get(..end)?).ok()?
                }
            };
            Some(Cow::Borrowed(s.strip_prefix('\u{FEFF}').unwrap_or(s)))
        }
        Utf8Rules::Godot3 => decode_godot3(raw),
    }
}

/// Godot 3's lenient decoder: like strict UTF-8, but surrogates, code points above U+10FFFF
/// and 5/6-byte forms are accepted. Such code points cannot live in a Rust string (nor in a
/// valid Godot 4 one), so each becomes U+FFFD.
fn decode_godot3(raw: &[u8]) -> Option<Cow<'_, str>> {
    // Godot 3 drops the BOM before looking for the NUL, and only when 3 bytes are there.
    let raw = raw.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(raw);
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    let text = raw.get(..end)?;
    if let Ok(s) = std::str::from_utf8(text) {
        return Some(Cow::Borrowed(s));
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((&lead, tail)) = rest.split_first() {
        let len = match lead {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            0xF8..=0xFB => 5,
            0xFC..=0xFD => 6,
            _ => return None, // continuation byte or 0xFE/0xFF as a lead
        };
        if len == 2 && lead & 0x1E == 0 {
            return None; // C0/C1: 2-byte overlong
        }
        let cont = tail.get(..len - 1)?;
        let mut cp: u32 = if len == 1 {
            u32::from(lead)
        } else {
            u32::from(lead) & (0xFF >> (len + 1))
        };
        for (i, &b) in cont.iter().enumerate() {
            if b & 0xC0 != 0x80 {
                return None;
            }
            // 3.x rejects a 3-byte (or longer) form whose lead carries no bits and whose
            // first continuation byte adds none of the bits that need that length.
            if cp == 0 && i == 0 && len > 2 && (b & 0x7F) >> (7 - len) == 0 {
                return None;
            }
            cp = (cp << 6) | u32::from(b & 0x3F);
        }
        out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
        rest = tail.get(len - 1..)?;
    }
    Some(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(b: &[u8]) -> Option<String> {
        decode_utf8(b, Utf8Rules::Strict).map(|c| c.into_owned())
    }

    #[test]
    fn zero_byte_test_is_a_scan() {
        for len in 0..40 {
            for fill in [0x01, 0x7F, 0x80, 0xFF] {
                let mut b = vec![fill; len];
                assert!(!has_zero_byte(&b), "{b:?}");
                for at in 0..len {
                    b[at] = 0;
                    assert!(has_zero_byte(&b), "{b:?}");
                    b[at] = fill;
                }
            }
        }
    }

    #[test]
    fn finds_every_nul() {
        for len in 0..40 {
            let clean: String = "é".repeat(len / 2) + &"x".repeat(len % 2);
            assert_eq!(clean.nul_at(), None);
            for at in 0..=clean.chars().count() {
                let mut with: Vec<char> = clean.chars().collect();
                with.insert(at, '\0');
                let with: String = with.into_iter().collect();
                assert_eq!(with.nul_at(), Some(at), "{with:?}");
            }
        }
    }

    #[test]
    fn stops_at_nul_and_drops_bom() {
        assert_eq!(strict(b"ab\0\xff").as_deref(), Some("ab"));
        assert_eq!(strict(b"\xEF\xBB\xBFx").as_deref(), Some("x"));
        assert_eq!(
            strict(b"\xEF\xBB\xBF\xEF\xBB\xBFx").as_deref(),
            Some("\u{FEFF}x")
        );
    }

    #[test]
    fn short_plain_ascii_is_checked_at_every_position() {
        let bytewise = |t: &[u8]| t.len() <= 64 && t.iter().all(|&b| b != 0 && b < 0x80);
        let mut buf = [b'a'; 66];
        for len in 0..=buf.len() {
            assert_eq!(
                is_short_plain_ascii(&buf[..len]),
                bytewise(&buf[..len]),
                "{len}"
            );
            for at in 0..len {
                for odd in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                    let kept = buf[at];
                    buf[at] = odd;
                    let t = &buf[..len];
                    assert_eq!(is_short_plain_ascii(t), bytewise(t), "{len} {at} {odd:#x}");
                    buf[at] = kept;
                }
            }
        }
    }

    #[test]
    fn strict_rejects_what_godot4_rejects() {
        for bad in [
            &b"\x80"[..],
            b"\xC0\x80",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xE6\x97",
        ] {
            assert_eq!(strict(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn what_strict_rules_accept_godot3_reads_the_same() {
        let cases: [&[u8]; 14] = [
            b"",
            b"plain",
            b"a\0b",
            b"\0",
            b"\xEF\xBB\xBFbom",
            b"\xEF\xBB\xBF\xEF\xBB\xBFtwo",
            b"\xEF\xBB\xBF",
            "Grüße, 日本語, 🎮".as_bytes(),
            b"x\0\xEF\xBB\xBF",
            b"x\0\xff\xfe",
            "\u{FEFF}".as_bytes(),
            b"\xEF\xBB\0",
            b"a\xED\xA0\x80b",
            b"\xF8\x88\x80\x80\x80",
        ];
        for raw in cases {
            if let Some(strict) = decode_utf8(raw, Utf8Rules::Strict) {
                assert_eq!(decode_utf8(raw, Utf8Rules::Godot3), Some(strict), "{raw:?}");
            }
        }
        // Every byte pair and every 3-byte prefix form: the property holds exhaustively there.
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for raw in [&[a, b][..], &[a, b, 0x80][..], &[0xEF, a, b][..]] {
                    if let Some(strict) = decode_utf8(raw, Utf8Rules::Strict) {
                        assert_eq!(decode_utf8(raw, Utf8Rules::Godot3), Some(strict), "{raw:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn godot3_accepts_surrogates_as_replacement() {
        let s = decode_utf8(b"a\xED\xA0\x80b", Utf8Rules::Godot3).map(|c| c.into_owned());
        assert_eq!(s.as_deref(), Some("a\u{FFFD}b"));
        assert_eq!(decode_utf8(b"\xC0\x80", Utf8Rules::Godot3), None);
        assert_eq!(decode_utf8(b"\x80", Utf8Rules::Godot3), None);
    }
}
