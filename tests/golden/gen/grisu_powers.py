#!/usr/bin/env python3
"""Prints the table of cached powers of ten in rust/codec/src/value/grisu.rs: for k = -300,
-292, ..., 324, 10^k as a 64-bit significand f (2^63 <= f < 2^64, rounded to nearest) and a
binary exponent e, so that 10^k ~= f * 2^e. Exact arithmetic (fractions), no floats."""
from fractions import Fraction


def cached_power(k):
    v = Fraction(10) ** k
    e = v.numerator.bit_length() - v.denominator.bit_length() - 64
    while Fraction(2) ** (e + 63) > v:
        e -= 1
    while Fraction(2) ** (e + 64) <= v:
        e += 1
    q = v / Fraction(2) ** e
    f = q.numerator // q.denominator
    if q - f >= Fraction(1, 2):
        f += 1
    if f == 2**64:
        f, e = f // 2, e + 1
    return f, e


for k in range(-300, 325, 8):
    f, e = cached_power(k)
    print(f"    (0x{f:016x}, {e}, {k}),")
