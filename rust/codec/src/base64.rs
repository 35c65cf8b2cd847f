//! Standard base64 (RFC 4648, padded), as Godot writes a PackedByteArray in a text resource of
//! format 4 and the JSON projection writes one; read back by both.

const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in standard base64, padded with `=`.
#[cfg_attr(not(any(feature = "json", feature = "files")), allow(dead_code))]
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                let digit = (n >> (18 - 6 * i)) & 63;
                out.push(char::from(
                    DIGITS.get(digit as usize).copied().unwrap_or(b'A'),
                ));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of base64 `text`, with or without its `=` padding; `url_safe` also reads the
/// URL-safe digits `-` and `_`. `None` if malformed (a lone last digit carries no whole byte).
#[cfg(any(feature = "text", feature = "json"))]
pub(crate) fn decode(text: &str, url_safe: bool) -> Option<Vec<u8>> {
    let digits = text.trim_end_matches('=');
    if text.len() - digits.len() > 2 || digits.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(digits.len() / 4 * 3 + 2);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in digits.bytes() {
        let d = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'-' if url_safe => 62,
            b'_' if url_safe => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(d);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(all(test, any(feature = "text", feature = "json")))]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for n in 0..40u8 {
            let b: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(decode(&encode(&b), false), Some(b));
        }
        assert_eq!(encode(b"Man"), "TWFu");
        assert_eq!(encode(b"Ma"), "TWE=");
        assert_eq!(encode(b"M"), "TQ==");
        assert_eq!(decode("TQ", false), Some(b"M".to_vec()));
        assert_eq!(decode("-_8=", false), None);
        assert_eq!(decode("-_8=", true), Some(vec![0xfb, 0xff]));
        assert_eq!(decode("TWFuT", false), None);
        assert_eq!(decode("TQ===", false), None);
    }
}
