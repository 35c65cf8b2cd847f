//! A decode never allocates more than its input justifies: hostile counts fail fast.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use fast_var_codec_core::{decode, Dialect, Options};

struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: defers every call to the system allocator unchanged and only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: same layout contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

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
            let before = ALLOCATED.load(Ordering::Relaxed);
            let res = decode(&bytes, &opts);
            let used = ALLOCATED.load(Ordering::Relaxed) - before;
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
    let before = ALLOCATED.load(Ordering::Relaxed);
    let (_, used) = decode(&bytes, &Options::default()).unwrap();
    let alloc = ALLOCATED.load(Ordering::Relaxed) - before;
    assert_eq!(used, bytes.len());
    assert!(
        alloc < 64 * bytes.len(),
        "{alloc} bytes allocated for {} input bytes",
        bytes.len()
    );
}

#[test]
fn element_and_byte_limits_refuse_before_allocating() {
    use fast_var_codec_core::{ErrorCode, Limits};
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
    let before = ALLOCATED.load(Ordering::Relaxed);
    let err = decode(&big, &bytes_only).unwrap_err();
    assert!(ALLOCATED.load(Ordering::Relaxed) - before < 1000);
    assert_eq!(err.code(), ErrorCode::OutOfMemory);
    assert!(err.to_string().contains("max_bytes"), "{err}");
}
