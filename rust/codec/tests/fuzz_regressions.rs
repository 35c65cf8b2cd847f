//! Inputs found by fuzzing (rust/fuzz, tests/fuzz.sh) or while writing its checks, each the
//! smallest known form, with what must hold of it. The fuzz targets state the general property;
//! these keep each case from coming back.

mod common;

use common::alloc_counter::{measure, within_heap_bound};
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The bound the fuzz targets hold every decode to (`common::alloc_counter::within_heap_bound`).
fn assert_heap_bounded(bytes: &[u8], opts: &Options) {
    let (result, usage) = measure(|| decode(bytes, opts));
    drop(result);
    let peak = usage.peak;
    assert!(
        within_heap_bound(&usage, bytes.len()),
        "decoding {} bytes held {peak} bytes of heap at once ({} per input byte)",
        bytes.len(),
        peak / bytes.len()
    );
}

/// Nested containers that each claim 2^31-1 elements: every level reserved capacity for
/// `remaining / 4` Values (136 bytes each) before any element was read, so the reservation grew
/// with depth × input: 16 KB held 22 MB; 73 KB at 1000 levels held 2.2 GB; 270 KB aborted
/// the process ("memory allocation … failed") under a 4 GB address-space limit. The stream
/// reader accepts 8 MiB messages. Found while writing the fuzz targets' allocation check,
/// which flags it (decode_godot4 on this input; the roundtrip target then found it on its own
/// through Pandemonium dictionaries and typed arrays). A constant cap on the hint is not enough:
/// 64 Dictionary entries (272 bytes each) per 8-byte level is still ~2,000 bytes per input byte.
#[test]
fn nested_huge_counts_do_not_reserve_per_level() {
    let cases = [
        // Array, Dictionary ids in each dialect.
        (Dialect::Godot4, ["1c000000", "1b000000"]),
        (Dialect::Godot3, ["13000000", "12000000"]),
        (Dialect::Pandemonium38, ["1a000000", "19000000"]),
        (Dialect::Pandemonium5, ["1a000000", "19000000"]),
    ];
    for (dialect, headers) in cases {
        for header in headers {
            // A container of 0x7fffffff, 40 levels deep, then 16,000 zero bytes (NILs).
            let mut bytes = hex(&format!("{header} ffffff7f").repeat(40));
            bytes.resize(bytes.len() + 16_000, 0);
            assert_heap_bounded(&bytes, &Options::new(dialect));
        }
    }
}

/// The same shape through typed Arrays (Godot 4 header kind 1 with element type NIL;
/// Pandemonium 5 TYPED_ARRAY of NIL) and a PackedStringArray at the bottom: the reservation is
/// per container, whatever its kind.
#[test]
fn nested_huge_counts_typed_and_strings() {
    let mut bytes = hex(&"1c000100 00000000 ffffff7f".repeat(30));
    bytes.extend(hex("22000000 ffffff7f"));
    bytes.resize(bytes.len() + 16_000, 0);
    assert_heap_bounded(&bytes, &Options::new(Dialect::Godot4));

    let mut bytes = hex(&"1b000000 00000000 ffffff7f".repeat(30));
    bytes.resize(bytes.len() + 16_000, 0);
    assert_heap_bounded(&bytes, &Options::new(Dialect::Pandemonium5));
}

/// The bound itself is not what fails above: honest input of the same size, as flat and as
/// deep as the cases above, stays well inside it.
#[test]
fn honest_input_stays_within_the_bound() {
    // 4,000 NILs in one Array.
    let mut flat = hex("1c000000 a00f0000");
    flat.resize(flat.len() + 16_000, 0);
    assert_heap_bounded(&flat, &Options::new(Dialect::Godot4));
    // 1,000 nested one-element Arrays, and one-entry Dictionaries ({null: {null: …}}), on a
    // thread with room for 1,000 levels of recursion in a debug build.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let deep = [hex(&"1c000000 01000000".repeat(1000)), hex("00000000")].concat();
            assert_heap_bounded(&deep, &Options::new(Dialect::Godot4));
            let deep = [
                hex(&"1b000000 01000000 00000000".repeat(1000)),
                hex("00000000"),
            ]
            .concat();
            assert_heap_bounded(&deep, &Options::new(Dialect::Godot4));
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Pandemonium 5 TYPED_ARRAY (id 27) of Vector2 (id 7) holding a Vector2i (id 8) of
/// (16777217, 0): the typed array converts it to a Vector2, but kept 16777217.0, which no
/// binary32 real holds (a Pandemonium engine, whose reals are always binary32, holds
/// 16777216.0). Encoding the decoded value in the same dialect rounds it, so it does not
/// survive a round trip. Found by the roundtrip target (minimised by hand from
/// `00 1c000100 05000000 01000000 06000000 0100ff03 ff2a832c ffffffff ffffff2a`, a
/// PACKED_TYPED_ARRAY of Rect2 holding a Rect2i).
#[test]
fn pandemonium5_typed_real_array_holding_int_vector_round_trips() {
    let bytes = hex("1b000000 07000000 01000000 08000000 01000001 00000000");
    let dialect = Dialect::Pandemonium5;
    let opts = Options::new(dialect);
    let (v, used) = decode(&bytes, &opts).unwrap();
    assert_eq!(used, bytes.len());
    let again = encode(&v, &opts).unwrap();
    let (back, _) = decode(&again, &opts).unwrap();
    assert_eq!(back, v, "decoded {v:?}, after encode + decode {back:?}");
}

/// The Godot 4 form of the case above: Array[Vector2] holding Vector2i(16777217, 0). Godot 4.6.3
/// (single precision) `bytes_to_var` gives [(16777216.0, 0.0)] (checked in the headless
/// engine), and `var_to_bytes` of that writes 0000804b; the codec with default (single
/// precision) options gave Vector2(16777217.0, 0.0). The same holds for Vector3i→Vector3,
/// Vector4i→Vector4 and Rect2i→Rect2 elements.
#[test]
fn godot4_typed_vector2_array_rounds_int_vectors_like_the_engine() {
    let bytes = hex("1c000100 05000000 01000000 06000000 01000001 00000000");
    let opts = Options::new(Dialect::Godot4).with_precision(Precision::Single);
    let (v, _) = decode(&bytes, &opts).unwrap();
    let Value::Array(a) = &v else { panic!("{v:?}") };
    assert_eq!(a.items, vec![Value::Vector2([16777216.0, 0.0])], "{v:?}");
}
