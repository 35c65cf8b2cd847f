//! Byte vectors written before an engine here could produce them: double precision (written
//! when no double-precision Godot build was available; godot4_6_3_double.json now checks that
//! precision against a real engine too), checked against the engine's own unit-test vectors
//! (Godot's `tests/core/io/test_marshalls.h`) and the layout rules of
//! docs/wire_format.md#double-precision; plus the Godot 3 conversion policy and error reporting.

use fast_var_codec_core::error::ErrorCode;
use fast_var_codec_core::error::{CodecError, DecodeReason, EncodeReason};
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::value::{Array, ContainerType, VariantType};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn double() -> Options {
    Options::new(Dialect::Godot4).with_precision(Precision::Double)
}

#[test]
fn engine_unit_test_vectors() {
    let g4 = Options::default();
    let x = 0xF123_4567_89AB_CDEFu64 as i64;
    let cases = [
        (Value::Nil, "00000000"),
        (Value::Int(0x1234_5678), "02000000 78563412"),
        (Value::Int(x), "02000100 efcdab89674523f1"),
        (Value::Float(0.15625), "03000000 0000203e"),
        (Value::Float(0.333_333_333_333_333_3), "03000100 555555555555d53f"),
        (
            Value::Array(Box::new(Array { element: ContainerType::Builtin(VariantType::Int), items: vec![Value::Int(x)] })),
            "1c000100 02000000 01000000 02000100 efcdab89674523f1",
        ),
        (
            Value::typed_dictionary(
                ContainerType::Builtin(VariantType::Int),
                ContainerType::Builtin(VariantType::Int),
                vec![(Value::Int(x), Value::Int(x))],
            ),
            "1b000500 02000000 02000000 01000000 02000100 efcdab89674523f1 02000100 efcdab89674523f1",
        ),
    ];
    for (v, bytes) in cases {
        let want = hex(bytes);
        assert_eq!(encode(&v, &g4).unwrap().to_vec(), want, "{v:?}");
        // A double-precision build writes these identically: int and float follow their own rule
        // (docs/wire_format.md#double-precision).
        assert_eq!(
            encode(&v, &double()).unwrap().to_vec(),
            want,
            "{v:?} (double)"
        );
        assert_eq!(decode(&want, &g4).unwrap(), (v, want.len()));
    }
    // Upstream: a 1-byte buffer and an out-of-range type both fail with ERR_INVALID_DATA.
    for bad in ["00", "ff000000"] {
        assert_eq!(
            decode(&hex(bad), &g4).unwrap_err().code(),
            ErrorCode::InvalidData
        );
    }
}

#[test]
fn double_precision_flags_and_widths() {
    // The 64-bit flag and binary64 components on the 14 real_t types
    // (docs/wire_format.md#double-precision).
    let v = Value::Vector2([1.0, 2.0]);
    let want = hex("05000100 000000000000f03f 0000000000000040");
    assert_eq!(encode(&v, &double()).unwrap().to_vec(), want);
    assert_eq!(decode(&want, &Options::default()).unwrap(), (v.clone(), 20));
    assert_eq!(
        encode(&v, &Options::default()).unwrap().to_vec(),
        hex("05000000 0000803f 00000040")
    );

    let flagged = [
        (Value::Vector2([0.1; 2]), 2),
        (Value::Rect2(Box::new([0.1; 4])), 4),
        (Value::Vector3([0.1; 3]), 3),
        (Value::Transform2D(Box::new([0.1; 6])), 6),
        (Value::Vector4(Box::new([0.1; 4])), 4),
        (Value::Plane(Box::new([0.1; 4])), 4),
        (Value::Quaternion(Box::new([0.1; 4])), 4),
        (Value::Aabb(Box::new([0.1; 6])), 6),
        (Value::Basis(Box::new([0.1; 9])), 9),
        (Value::Transform3D(Box::new([0.1; 12])), 12),
        (Value::Projection(Box::new([0.1; 16])), 16),
    ];
    for (v, n) in flagged {
        let b = encode(&v, &double()).unwrap();
        assert_eq!(b[2], 1, "{v:?} must carry the 64-bit flag");
        assert_eq!(b.len(), 4 + 8 * n, "{v:?}");
        assert_eq!(&b[4..12], &0.1f64.to_le_bytes(), "{v:?}");
        // Decoded as the engine of the options' precision holds it: binary64 in a double build,
        // rounded to binary32 in a standard one (which reads flagged bytes too).
        assert_eq!(decode(&b, &double()).unwrap().0, v);
        assert_eq!(
            decode(&b, &Options::default()).unwrap().0,
            v.with_single_precision_reals()
        );
    }
    for (v, n) in [
        (Value::PackedVector2Array(vec![[0.1; 2]; 3]), 2),
        (Value::PackedVector3Array(vec![[0.1; 3]; 3]), 3),
        (Value::PackedVector4Array(vec![[0.1; 4]; 3]), 4),
    ] {
        let b = encode(&v, &double()).unwrap();
        assert_eq!(b[2], 1, "{v:?}");
        assert_eq!(b.len(), 8 + 3 * 8 * n, "{v:?}");
        assert_eq!(decode(&b, &double()).unwrap().0, v);
        assert_eq!(
            decode(&b, &Options::default()).unwrap().0,
            v.with_single_precision_reals()
        );
    }
    // Never flagged, whatever the precision (docs/wire_format.md#double-precision).
    for v in [
        Value::Color([0.1; 4]),
        Value::PackedColorArray(vec![[0.5; 4]]),
        Value::PackedFloat32Array(vec![0.5]),
        Value::PackedFloat64Array(vec![0.1]),
        Value::Vector2i([1, 2]),
        Value::Vector3i([1, 2, 3]),
        Value::Vector4i([1, 2, 3, 4]),
        Value::Rect2i([1, 2, 3, 4]),
    ] {
        assert_eq!(
            encode(&v, &double()).unwrap(),
            encode(&v, &Options::default()).unwrap(),
            "{v:?}"
        );
    }
}

#[test]
fn godot3_has_no_double_precision() {
    let opts = Options::new(Dialect::Godot3).with_precision(Precision::Double);
    let err = encode(&Value::Int(1), &opts).unwrap_err();
    assert!(
        matches!(
            err,
            CodecError::Encode {
                reason: EncodeReason::DoubleInGodot3,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.code(), ErrorCode::InvalidParameter);
}

#[test]
fn godot3_strict_refuses_with_type_and_path() {
    let g3 = Options::new(Dialect::Godot3);
    let v = Value::array(vec![
        Value::Nil,
        Value::Nil,
        Value::Nil,
        Value::Object(Box::new(fast_var_codec_core::value::Object {
            class: "Resource".into(),
            properties: vec![(
                "items".into(),
                Value::dictionary(vec![(Value::String("k".into()), Value::Vector2i([1, 2]))]),
            )],
        })),
    ]);
    let err = encode(&v, &g3.clone().with_full_objects(true)).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("[3].items[\"k\"]"), "{msg}");
    assert!(msg.contains("Vector2i"), "{msg}");
    assert_eq!(err.code(), ErrorCode::InvalidParameter);
}

#[test]
fn godot3_exact_mappings_need_no_lossy() {
    let g3 = Options::new(Dialect::Godot3);
    let cases = [
        (Value::StringName("a".into()), "04000000 01000000 61000000"),
        (
            Value::Quaternion(Box::new([1.0, 2.0, 3.0, 4.0])),
            "0a000000 0000803f 00000040 00004040 00008040",
        ),
        // An empty RID is exact; one with an id is lossy (godot3_lossy_table).
        (Value::Rid(0), "10000000"),
        (Value::ObjectId(0x1234), "11000100 3412000000000000"),
        (
            Value::Array(Box::new(Array {
                element: ContainerType::Builtin(VariantType::Int),
                items: vec![Value::Int(1)],
            })),
            "13000000 01000000 02000000 01000000",
        ),
        (
            Value::PackedInt32Array(vec![1]),
            "15000000 01000000 01000000",
        ),
    ];
    for (v, bytes) in cases {
        assert_eq!(encode(&v, &g3).unwrap().to_vec(), hex(bytes), "{v:?}");
    }
}

#[test]
fn godot3_lossy_table() {
    let lossy = Options::new(Dialect::Godot3).with_allow_lossy(true);
    let cases = [
        (Value::Vector2i([1, -2]), Value::Vector2([1.0, -2.0])),
        (Value::Vector3i([1, 2, 3]), Value::Vector3([1.0, 2.0, 3.0])),
        (
            Value::Rect2i([1, 2, 3, 4]),
            Value::Rect2(Box::new([1.0, 2.0, 3.0, 4.0])),
        ),
        (
            Value::Vector4i([1, 2, 3, 4]),
            Value::Quaternion(Box::new([1.0, 2.0, 3.0, 4.0])),
        ),
        (
            Value::Vector4(Box::new([1.0, 2.0, 3.0, 4.0])),
            Value::Quaternion(Box::new([1.0, 2.0, 3.0, 4.0])),
        ),
        (
            Value::Projection(Box::new([1.0; 16])),
            Value::PackedFloat32Array(vec![1.0; 16]),
        ),
        (
            Value::PackedInt64Array(vec![1 << 40]),
            Value::array(vec![Value::Int(1 << 40)]),
        ),
        (
            Value::PackedFloat64Array(vec![0.1]),
            Value::array(vec![Value::Float(0.1)]),
        ),
        (
            Value::PackedVector4Array(vec![[1.0, 2.0, 3.0, 4.0]]),
            Value::array(vec![Value::Quaternion(Box::new([1.0, 2.0, 3.0, 4.0]))]),
        ),
        (Value::Callable, Value::Nil),
        (Value::Rid(1234), Value::Rid(0)),
        (
            Value::Signal {
                name: "hit".into(),
                object_id: 7,
            },
            Value::array(vec![Value::String("hit".into()), Value::Int(7)]),
        ),
    ];
    for (v, becomes) in cases {
        let strict = encode(&v, &Options::new(Dialect::Godot3));
        assert!(strict.is_err(), "{v:?} must be refused without allow_lossy");
        let bytes = encode(&v, &lossy).unwrap();
        assert_eq!(decode(&bytes, &lossy).unwrap().0, becomes, "{v:?}");
    }
}

#[test]
fn depth_limit_is_the_engines() {
    // 1025 levels of recursion need more than a test thread's default stack in debug builds.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(depth_limit_body)
        .unwrap()
        .join()
        .unwrap();
}

fn depth_limit_body() {
    let mut v = Value::Int(1);
    for _ in 0..1024 {
        v = Value::array(vec![v]);
    }
    let opts = Options::default();
    let ok = encode(&v, &opts).unwrap();
    assert_eq!(decode(&ok, &opts).unwrap().1, ok.len());
    let deeper = Value::array(vec![v]);
    let err = encode(&deeper, &opts).unwrap_err();
    assert_eq!(err.code(), ErrorCode::OutOfMemory);
    let mut bytes = Vec::new();
    for _ in 0..1025 {
        bytes.extend(hex("1c000000 01000000"));
    }
    bytes.extend(hex("00000000"));
    assert_eq!(
        decode(&bytes, &opts).unwrap_err().code(),
        ErrorCode::OutOfMemory
    );
    assert_decode_too_deep(&bytes, &opts, 1024);
    assert_encode_too_deep(&deeper, &opts, 1024);
    // A smaller limit is honoured both ways, at exactly its depth: with max_depth 3 a value
    // inside 3 containers is accepted, one inside 4 refused (an empty container at depth 3 is
    // fine: it holds nothing deeper).
    for max in [0, 1, 3] {
        let tight = Options::default().with_max_depth(max);
        for (make, kind) in [
            (nested_arrays as fn(usize, Value) -> Value, "Arrays"),
            (nested_dictionaries, "Dictionaries"),
        ] {
            let at_limit = make(max, Value::Int(1));
            let bytes = encode(&at_limit, &tight)
                .unwrap_or_else(|e| panic!("{max} {kind} deep, max_depth {max}: {e}"));
            assert_eq!(bytes, encode(&at_limit, &opts).unwrap());
            assert_eq!(decode(&bytes, &tight).unwrap(), (at_limit, bytes.len()));
            let empty_at_limit = make(max, Value::array(vec![]));
            let bytes = encode(&empty_at_limit, &tight).unwrap();
            assert_eq!(decode(&bytes, &tight).unwrap().1, bytes.len());

            let over = make(max + 1, Value::Int(1));
            assert_encode_too_deep(&over, &tight, max);
            let bytes = encode(&over, &opts).unwrap();
            assert_decode_too_deep(&bytes, &tight, max);
            assert_eq!(decode(&bytes, &opts).unwrap(), (over, bytes.len()));
        }
    }
}

/// `leaf` inside `n` Arrays.
fn nested_arrays(n: usize, leaf: Value) -> Value {
    (0..n).fold(leaf, |v, _| Value::array(vec![v]))
}

/// `leaf` inside `n` Dictionaries, as the value of key 0 (`{0: {0: leaf}}`).
fn nested_dictionaries(n: usize, leaf: Value) -> Value {
    (0..n).fold(leaf, |v, _| Value::dictionary(vec![(Value::Int(0), v)]))
}

fn assert_decode_too_deep(bytes: &[u8], opts: &Options, max: usize) {
    match decode(bytes, opts) {
        Err(CodecError::Decode {
            reason: DecodeReason::TooDeep(m),
            ..
        }) if m == max => {}
        other => panic!("max_depth {max}: expected TooDeep({max}) decoding, got {other:?}"),
    }
}

fn assert_encode_too_deep(v: &Value, opts: &Options, max: usize) {
    match encode(v, opts) {
        Err(CodecError::Encode {
            reason: EncodeReason::TooDeep(m),
            ..
        }) if m == max => {}
        other => panic!("max_depth {max}: expected TooDeep({max}) encoding, got {other:?}"),
    }
}

#[test]
fn decode_at_offset_reports_offsets_from_there() {
    let opts = Options::default();
    let mut buf = vec![0xAA; 3];
    buf.extend(encode(&Value::String("hey".into()), &opts).unwrap());
    buf.extend([1, 2, 3]); // trailing bytes are ignored
    let (v, used) = fast_var_codec_core::decode_at(&buf, 3, &opts).unwrap();
    assert_eq!((v, used), (Value::String("hey".into()), 12));
    let err = fast_var_codec_core::decode_at(&buf[..12], 3, &opts).unwrap_err();
    assert!(err.to_string().contains("byte 11"), "{err}");
    assert_eq!(err.code(), ErrorCode::FileEof);
}

#[test]
fn reusable_buffer_is_left_clean_on_failure() {
    let mut buf = bytes::BytesMut::new();
    let opts = Options::new(Dialect::Godot3);
    fast_var_codec_core::encode_into(&Value::Int(5), &opts, &mut buf).unwrap();
    let before = buf.clone();
    let bad = Value::array(vec![Value::Int(1), Value::Callable]);
    assert!(fast_var_codec_core::encode_into(&bad, &opts, &mut buf).is_err());
    assert_eq!(buf, before);
}

#[test]
fn equal_keys_merge_in_small_and_large_dictionaries() {
    // The engine keeps the first key's place and the last value; String and StringName of the
    // same text are one key (docs/wire_format.md#dictionary-keys, golden dictionary cases).
    for n in [3usize, 40] {
        let mut entries: Vec<(Value, Value)> = (0..n)
            .map(|i| (Value::Int(i as i64), Value::Int(0)))
            .collect();
        entries.push((Value::Int(1), Value::Int(7)));
        entries.push((Value::String("k".into()), Value::Int(1)));
        entries.push((Value::StringName("k".into()), Value::Int(2)));
        let bytes = encode(&Value::dictionary(entries), &Options::default()).unwrap();
        let Value::Dictionary(d) = decode(&bytes, &Options::default()).unwrap().0 else {
            panic!()
        };
        assert_eq!(d.len(), n + 1, "n = {n}");
        assert_eq!(d.entries()[1], (Value::Int(1), Value::Int(7)));
        assert_eq!(d.entries()[n], (Value::String("k".into()), Value::Int(2)));
    }
}
