//! A decode never allocates more than its input justifies: hostile counts fail fast.
//!
//! Allocations are counted per thread (`common::alloc_counter`), so the other tests of this
//! binary, running in parallel, do not add to a measurement.

mod common;

use std::hint::black_box;

use common::alloc_counter::measure;
use fast_var_codec_core::{decode, Dialect, Options};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn huge_counts_in_small_packets_allocate_almost_nothing() {
    let hostile = [
        "1c000000 ffffff7f 00000000", // Array of 2^31-1, one NIL present
        "1b000000 ffffff7f 00000000", // Dictionary of 2^31-1
        "22000000 ffffff7f 01000000", // PackedStringArray of 2^31-1
        "16000000 ffffffff ffffff7f 00000000", // NodePath with 2^31 names
        "1d000000 ffffff7f 00000000", // PackedByteArray of 2^31-1
        "20000000 ffffff3f 00000000", // PackedFloat32Array of 2^30-1
        "12000000 ffffff7f 00000000", // Godot 3 Dictionary
    ];
    for h in hostile {
        let bytes = hex(h);
        for dialect in [Dialect::Godot4, Dialect::Godot3] {
            let opts = Options::new(dialect);
            let (res, usage) = measure(|| decode(&bytes, &opts));
            let used = usage.allocated;
            assert!(res.is_err(), "{h} must fail");
            // Error messages allocate a little; nothing scales with the claimed count.
            assert!(used < 4096, "{h} ({dialect:?}) allocated {used} bytes");
        }
    }
}

#[test]
fn allocation_is_linear_in_input() {
    // Many tiny containers: allocation stays proportional to the bytes.
    let mut bytes = hex("1c000000 00400000");
    for _ in 0..0x4000 {
        bytes.extend(hex("1c000000 00000000"));
    }
    let (res, usage) = measure(|| decode(&bytes, &Options::default()));
    let (_, used) = res.unwrap();
    let alloc = usage.allocated;
    assert_eq!(used, bytes.len());
    assert!(
        alloc < 64 * bytes.len(),
        "{alloc} bytes allocated for {} input bytes",
        bytes.len()
    );
}

#[test]
fn element_and_byte_limits_refuse_before_allocating() {
    use fast_var_codec_core::error::ErrorCode;
    use fast_var_codec_core::options::Limits;
    let tight = Options::default().with_limits(Limits {
        max_depth: 1024,
        max_elements: 100,
        max_bytes: 1000,
    });
    // 101 NILs in an Array: over max_elements.
    let mut many = hex("1c000000 65000000");
    many.extend(std::iter::repeat_n(0u8, 4 * 101));
    assert_eq!(
        decode(&many, &tight).unwrap_err().code(),
        ErrorCode::OutOfMemory
    );
    assert!(decode(&many, &Options::default()).is_ok());
    // A 2000-byte PackedByteArray: over max_bytes, refused before the copy.
    let mut big = hex("1d000000 d0070000");
    big.extend(std::iter::repeat_n(7u8, 2000));
    let bytes_only = Options::default().with_limits(Limits {
        max_bytes: 1000,
        ..Limits::default()
    });
    let (res, usage) = measure(|| decode(&big, &bytes_only));
    let err = res.unwrap_err();
    assert!(
        usage.allocated < 1000,
        "{} bytes allocated before refusing",
        usage.allocated
    );
    assert_eq!(err.code(), ErrorCode::OutOfMemory);
    assert!(err.to_string().contains("max_bytes"), "{err}");
}

/// The harness sees what the measured closure allocates on its thread, and only that: a
/// counter that missed allocations, or counted other threads', would make the bounds above
/// pass or fail for the wrong reason.
#[test]
fn the_counter_sees_this_thread_only() {
    let (v, usage) = measure(|| black_box(vec![7u8; 100_000]));
    assert!(
        usage.allocated >= 100_000 && usage.peak >= 100_000,
        "a 100,000-byte Vec counted as {usage:?}"
    );
    drop(v);
    // Freed inside: counted as allocated, held at the peak, not held after.
    let ((), usage) = measure(|| drop(black_box(vec![7u8; 50_000])));
    assert!(
        usage.allocated >= 50_000 && usage.peak >= 50_000,
        "{usage:?}"
    );
    // A megabyte allocated on another thread while this one is measured is not counted
    // (spawning the thread allocates a little here).
    let (len, usage) = measure(|| {
        std::thread::spawn(|| black_box(vec![7u8; 1 << 20]).len())
            .join()
            .unwrap()
    });
    assert_eq!(len, 1 << 20);
    assert!(
        usage.allocated < 64 * 1024,
        "another thread's allocations were counted: {usage:?}"
    );
}
