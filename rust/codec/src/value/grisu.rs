//! The decimal digits Godot 4 writes for a real (`var_to_str`, a ConfigFile's and a text
//! resource's values, `JSON.stringify`'s `full_precision`): its `String::num_scientific`, which
//! uses Grisu2 (Loitsch, "Printing Floating-Point Numbers Quickly and Accurately with Integers",
//! PLDI 2010). Its digits always read back as the same number, but are not always the fewest:
//! 1e23 is `9.999999999999999e+22`, 7e22 `7.0000000000000004e+22`. A real that is exactly a
//! binary32 gets a binary32's digits (`0.1f32` is `0.1`). Checked against what Godot 4.6.3
//! writes for 30,000 random reals (`tests/golden/var_to_str_reals_godot4_6_3.txt`).

/// 10^k for k = -300, -292 … 324: a 64-bit significand (its top bit set), the binary exponent,
/// and k; 10^k is about f × 2^e, rounded to nearest. Made by `tests/golden/gen/grisu_powers.py`.
#[rustfmt::skip]
const CACHED_POWERS: [(u64, i32, i32); 79] = [
    (0xab70fe17c79ac6ca, -1060, -300),
    (0xff77b1fcbebcdc4f, -1034, -292),
    (0xbe5691ef416bd60c, -1007, -284),
    (0x8dd01fad907ffc3c, -980, -276),
    (0xd3515c2831559a83, -954, -268),
    (0x9d71ac8fada6c9b5, -927, -260),
    (0xea9c227723ee8bcb, -901, -252),
    (0xaecc49914078536d, -874, -244),
    (0x823c12795db6ce57, -847, -236),
    (0xc21094364dfb5637, -821, -228),
    (0x9096ea6f3848984f, -794, -220),
    (0xd77485cb25823ac7, -768, -212),
    (0xa086cfcd97bf97f4, -741, -204),
    (0xef340a98172aace5, -715, -196),
    (0xb23867fb2a35b28e, -688, -188),
    (0x84c8d4dfd2c63f3b, -661, -180),
    (0xc5dd44271ad3cdba, -635, -172),
    (0x936b9fcebb25c996, -608, -164),
    (0xdbac6c247d62a584, -582, -156),
    (0xa3ab66580d5fdaf6, -555, -148),
    (0xf3e2f893dec3f126, -529, -140),
    (0xb5b5ada8aaff80b8, -502, -132),
    (0x87625f056c7c4a8b, -475, -124),
    (0xc9bcff6034c13053, -449, -116),
    (0x964e858c91ba2655, -422, -108),
    (0xdff9772470297ebd, -396, -100),
    (0xa6dfbd9fb8e5b88f, -369, -92),
    (0xf8a95fcf88747d94, -343, -84),
    (0xb94470938fa89bcf, -316, -76),
    (0x8a08f0f8bf0f156b, -289, -68),
    (0xcdb02555653131b6, -263, -60),
    (0x993fe2c6d07b7fac, -236, -52),
    (0xe45c10c42a2b3b06, -210, -44),
    (0xaa242499697392d3, -183, -36),
    (0xfd87b5f28300ca0e, -157, -28),
    (0xbce5086492111aeb, -130, -20),
    (0x8cbccc096f5088cc, -103, -12),
    (0xd1b71758e219652c, -77, -4),
    (0x9c40000000000000, -50, 4),
    (0xe8d4a51000000000, -24, 12),
    (0xad78ebc5ac620000, 3, 20),
    (0x813f3978f8940984, 30, 28),
    (0xc097ce7bc90715b3, 56, 36),
    (0x8f7e32ce7bea5c70, 83, 44),
    (0xd5d238a4abe98068, 109, 52),
    (0x9f4f2726179a2245, 136, 60),
    (0xed63a231d4c4fb27, 162, 68),
    (0xb0de65388cc8ada8, 189, 76),
    (0x83c7088e1aab65db, 216, 84),
    (0xc45d1df942711d9a, 242, 92),
    (0x924d692ca61be758, 269, 100),
    (0xda01ee641a708dea, 295, 108),
    (0xa26da3999aef774a, 322, 116),
    (0xf209787bb47d6b85, 348, 124),
    (0xb454e4a179dd1877, 375, 132),
    (0x865b86925b9bc5c2, 402, 140),
    (0xc83553c5c8965d3d, 428, 148),
    (0x952ab45cfa97a0b3, 455, 156),
    (0xde469fbd99a05fe3, 481, 164),
    (0xa59bc234db398c25, 508, 172),
    (0xf6c69a72a3989f5c, 534, 180),
    (0xb7dcbf5354e9bece, 561, 188),
    (0x88fcf317f22241e2, 588, 196),
    (0xcc20ce9bd35c78a5, 614, 204),
    (0x98165af37b2153df, 641, 212),
    (0xe2a0b5dc971f303a, 667, 220),
    (0xa8d9d1535ce3b396, 694, 228),
    (0xfb9b7cd9a4a7443c, 720, 236),
    (0xbb764c4ca7a44410, 747, 244),
    (0x8bab8eefb6409c1a, 774, 252),
    (0xd01fef10a657842c, 800, 260),
    (0x9b10a4e5e9913129, 827, 268),
    (0xe7109bfba19c0c9d, 853, 276),
    (0xac2820d9623bf429, 880, 284),
    (0x80444b5e7aa7cf85, 907, 292),
    (0xbf21e44003acdd2d, 933, 300),
    (0x8e679c2f5e44ff8f, 960, 308),
    (0xd433179d9c8cb841, 986, 316),
    (0x9e19db92b4e31ba9, 1013, 324),
];

/// The window the scaled exponent must fall in, so that the digits' integral part fits 32 bits.
const ALPHA: i32 = -60;
const GAMMA: i32 = -32;

/// A number f × 2^e.
#[derive(Clone, Copy)]
struct DiyFp {
    f: u64,
    e: i32,
}

impl DiyFp {
    /// The upper 64 bits of the 128-bit product, rounded half up.
    fn mul(self, other: DiyFp) -> DiyFp {
        let p = u128::from(self.f) * u128::from(other.f);
        let high = (p >> 64) as u64 + ((p >> 63) & 1) as u64;
        DiyFp {
            f: high,
            e: self.e + other.e + 64,
        }
    }

    fn normalized(self) -> DiyFp {
        let shift = self.f.leading_zeros();
        DiyFp {
            f: self.f << shift,
            e: self.e - shift as i32,
        }
    }
}

/// The digits of a real: `digits[..len]`, the number being digits × 10^exponent.
pub(crate) struct Digits {
    pub(crate) digits: [u8; 20],
    pub(crate) len: usize,
    pub(crate) exponent: i32,
}

/// The digits Godot 4 writes for a finite, positive `x`: a binary32's when `x` is one.
pub(crate) fn digits(x: f64) -> Digits {
    let narrow = x as f32;
    if f64::from(narrow) == x {
        let bits = narrow.to_bits();
        grisu2(u64::from(bits & 0x7f_ffff), u64::from(bits >> 23), 23, 150)
    } else {
        let bits = x.to_bits();
        grisu2(bits & 0xf_ffff_ffff_ffff, bits >> 52, 52, 1075)
    }
}

/// Grisu2 of the real of this raw fraction and biased exponent, of a format with `fraction_bits`
/// and `bias` (binary64: 52, 1075; binary32: 23, 150).
fn grisu2(fraction: u64, biased: u64, fraction_bits: u32, bias: i32) -> Digits {
    let (f, e) = if biased == 0 {
        (fraction, 1 - bias)
    } else {
        (fraction | (1 << fraction_bits), biased as i32 - bias)
    };
    // The boundaries: halfway to the neighbours; the lower one closer when f is a power of two
    // (not the smallest normal).
    let lower_closer = fraction == 0 && biased > 1;
    let plus = DiyFp {
        f: 2 * f + 1,
        e: e - 1,
    }
    .normalized();
    let minus = if lower_closer {
        DiyFp {
            f: 4 * f - 1,
            e: e - 2,
        }
    } else {
        DiyFp {
            f: 2 * f - 1,
            e: e - 1,
        }
    };
    let minus = DiyFp {
        f: minus.f << (minus.e - plus.e),
        e: plus.e,
    };
    let w = DiyFp { f, e }.normalized();

    let (c_f, c_e, k) = cached_power(plus.e);
    let c = DiyFp { f: c_f, e: c_e };
    let w = w.mul(c);
    let minus = minus.mul(c);
    let plus = plus.mul(c);
    // Within the boundaries by one unit, for the rounding of the products.
    let minus = DiyFp {
        f: minus.f + 1,
        e: minus.e,
    };
    let plus = DiyFp {
        f: plus.f - 1,
        e: plus.e,
    };
    digit_gen(minus, w, plus, -k)
}

/// The cached power 10^-k whose product with a number of binary exponent `e` has its exponent
/// in [`ALPHA`, `GAMMA`]: (significand, exponent, k).
fn cached_power(e: i32) -> (u64, i32, i32) {
    // k = ceil((ALPHA - e - 1) × log10(2)), log10(2) as 78913 / 2^18.
    let f = i64::from(ALPHA - e - 1);
    let k = (f * 78913 + (1 << 18) - 1).div_euclid(1 << 18);
    let index = (300 + k + 7).div_euclid(8).clamp(0, 78) as usize;
    // 10^0 (2^63 × 2^-63) for an index past the table, which no finite real asks for.
    let power = CACHED_POWERS
        .get(index)
        .copied()
        .unwrap_or((1 << 63, -63, 0));
    debug_assert!((ALPHA..=GAMMA).contains(&(power.1 + e + 64)));
    power
}

fn digit_gen(minus: DiyFp, w: DiyFp, plus: DiyFp, exponent: i32) -> Digits {
    let mut out = Digits {
        digits: [0; 20],
        len: 0,
        exponent,
    };
    let mut delta = plus.f - minus.f;
    let mut dist = plus.f - w.f;
    let shift = (-plus.e) as u32;
    let one = 1u64 << shift;
    let mut p1 = (plus.f >> shift) as u32;
    let mut p2 = plus.f & (one - 1);
    let mut n = decimal_len(p1);
    let mut pow10 = 10u32.pow(n - 1);
    let push = |out: &mut Digits, d: u64| {
        if let Some(slot) = out.digits.get_mut(out.len) {
            *slot = d as u8;
            out.len += 1;
        }
    };
    while n > 0 {
        push(&mut out, u64::from(p1 / pow10));
        p1 %= pow10;
        n -= 1;
        let rest = (u64::from(p1) << shift) + p2;
        if rest <= delta {
            out.exponent += n as i32;
            round_weed(&mut out, dist, delta, rest, u64::from(pow10) << shift);
            return out;
        }
        pow10 /= 10;
    }
    let mut m = 0;
    loop {
        p2 = p2.wrapping_mul(10);
        push(&mut out, p2 >> shift);
        p2 &= one - 1;
        m += 1;
        delta = delta.wrapping_mul(10);
        dist = dist.wrapping_mul(10);
        if p2 <= delta {
            break;
        }
    }
    out.exponent -= m;
    round_weed(&mut out, dist, delta, p2, one);
    out
}

/// Brings the last digit down while the number stays within the boundaries and gets closer to
/// `w` (`dist` from the upper boundary).
fn round_weed(out: &mut Digits, dist: u64, delta: u64, rest: u64, ten_k: u64) {
    let (dist, delta, mut rest, ten_k) = (
        u128::from(dist),
        u128::from(delta),
        u128::from(rest),
        u128::from(ten_k),
    );
    while rest < dist
        && delta - rest >= ten_k
        && (rest + ten_k < dist || dist - rest > rest + ten_k - dist)
    {
        if let Some(last) = out.len.checked_sub(1).and_then(|i| out.digits.get_mut(i)) {
            *last = last.saturating_sub(1);
        }
        rest += ten_k;
    }
}

/// The number of decimal digits of `n` (1 for 0).
fn decimal_len(n: u32) -> u32 {
    n.checked_ilog10().map_or(1, |l| l + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(x: f64) -> String {
        let d = digits(x);
        let s: String = d.digits[..d.len]
            .iter()
            .map(|d| char::from(b'0' + d))
            .collect();
        format!("{s}e{}", d.exponent)
    }

    /// What Godot 4.6.3's `var_to_str` wrote for these (Grisu2's longer digits among them).
    #[test]
    fn digits_are_the_engines() {
        for (x, digits) in [
            (7e22, "70000000000000004e6"),
            (1e23, "9999999999999999e7"),
            (5e22, "49999999999999996e6"),
            (0.1, "1e-1"),
            (1.0 / 3.0, "3333333333333333e-16"),
            (0.30000000000000004, "30000000000000004e-17"),
            (5e-324, "5e-324"),
            (f64::MAX, "17976931348623157e292"),
            (f64::from(0.1f32), "1e-1"),
            (100.0, "1e2"),
        ] {
            assert_eq!(text(x), digits, "{x:e}");
        }
    }
}
