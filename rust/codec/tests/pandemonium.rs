//! Pandemonium dialects, derived from the layouts in docs/wire_format.md#pandemonium. The
//! engine-made corpora of Pandemonium v4.9.0 and v5.2.0 (tests/golden/pandemonium_*.json, checked
//! by golden.rs) are the ground truth; these derived checks stay as a second, independent line:
//! * for leaf types whose Pandemonium layout is Godot 3's or Godot 4's
//!   (docs/wire_format.md#pandemonium), the bytes are the real Godot 4.6.3 golden bytes with the
//!   type id replaced by Pandemonium's (docs/wire_format.md#pandemonium-ids);
//! * pools, typed arrays and RID are written out by hand from the same notes
//!   (docs/wire_format.md#pandemonium-typed-arrays, #rid-callable-signal).
//!
//! Plus round trips of generated values and cross-dialect checks.

mod corpus;

use fast_var_codec_core::value::{Array, ContainerType, Object, VariantType};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};
use proptest::prelude::*;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

const ERAS: [Dialect; 2] = [Dialect::Pandemonium38, Dialect::Pandemonium5];

/// Godot 4 types whose Pandemonium layout is the Godot 4 one (docs/wire_format.md#pandemonium):
/// same payload, other id.
fn shares_godot4_layout(ty: u8) -> Option<VariantType> {
    let t = VariantType::from_id(u32::from(ty))?;
    use VariantType as T;
    match t {
        // Different in Pandemonium: RID has no payload; containers may hold such values; no
        // Callable, Signal, 64-bit packed arrays; Object and typed containers checked by hand.
        T::Rid | T::Callable | T::Signal | T::PackedInt64Array | T::PackedFloat64Array => None,
        T::Array | T::Dictionary | T::Object => None,
        t => Some(t),
    }
}

#[test]
fn leaf_types_are_godot4_layouts_under_pandemonium_ids() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let path = corpus::repo_path("tests/golden/godot4_6_3.json");
            let text = std::fs::read_to_string(path).unwrap();
            let mut de = serde_json::Deserializer::from_str(&text);
            de.disable_recursion_limit();
            let json: serde_json::Value = serde::Deserialize::deserialize(&mut de).unwrap();
            let mut checked = 0;
            for case in json["cases"].as_array().unwrap() {
                let engine = hex(case["bytes"].as_str().unwrap());
                let Some(&id) = engine.first() else { continue };
                let Some(ty) = shares_godot4_layout(id) else {
                    continue;
                };
                // Wide (flagged) encodings cannot occur: these engines are single precision.
                let (g4value, used) = decode(&engine, &Options::default()).unwrap();
                assert_eq!(used, engine.len());
                // Only values that their bytes rebuild exactly (a leading BOM does not survive).
                if encode(&g4value, &Options::default()).unwrap().to_vec() != engine {
                    continue;
                }
                for era in ERAS {
                    let opts = Options::new(era);
                    let mut expected = engine.clone();
                    expected[0] = era.wire_id(ty).unwrap();
                    let ours = encode(&g4value, &opts).unwrap();
                    assert_eq!(ours.to_vec(), expected, "{} in {era:?}", case["name"]);
                    // An empty absolute NodePath loses its flag in Godot 3 forks (as in 3.6.2).
                    let empty_path = matches!(&g4value,
                        Value::NodePath(p) if p.names.is_empty() && p.subnames.is_empty());
                    if !empty_path {
                        assert_eq!(
                            decode(&expected, &opts).unwrap().0,
                            g4value,
                            "{}",
                            case["name"]
                        );
                    }
                }
                checked += 1;
            }
            assert!(checked > 250, "only {checked} leaf cases");
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn hand_derived_vectors() {
    let typed = |t, items| {
        Value::Array(Box::new(Array {
            element: ContainerType::Builtin(t),
            items,
        }))
    };
    let both: &[(Value, &str, &str)] = &[
        // RID: no payload (docs/wire_format.md#rid-callable-signal; v3.8+ calls _RID RID).
        (Value::Rid(0), "16000000", "16000000"),
        // Object as id: id 23 with the id flag.
        (
            Value::ObjectId(0x1234),
            "17000100 3412000000000000",
            "17000100 3412000000000000",
        ),
        // Array[Vector2i] travels as POOL_VECTOR2I_ARRAY: count, then int32 pairs.
        (
            typed(
                VariantType::Vector2i,
                vec![Value::Vector2i([1, -1]), Value::Vector2i([2, 3])],
            ),
            "20000000 02000000 01000000 ffffffff 02000000 03000000",
            "22000000 02000000 01000000 ffffffff 02000000 03000000",
        ),
        (
            typed(VariantType::Vector3i, vec![Value::Vector3i([1, 2, 3])]),
            "22000000 01000000 01000000 02000000 03000000",
            "24000000 01000000 01000000 02000000 03000000",
        ),
        (
            typed(VariantType::Vector4i, vec![Value::Vector4i([1, 2, 3, 4])]),
            "24000000 01000000 01000000 02000000 03000000 04000000",
            "26000000 01000000 01000000 02000000 03000000 04000000",
        ),
        // Array[int]: plain ARRAY (26) in era B; TYPED_ARRAY (27) with element id 2 in era C.
        (
            typed(VariantType::Int, vec![Value::Int(5)]),
            "1a000000 01000000 02000000 05000000",
            "1b000000 02000000 01000000 02000000 05000000",
        ),
        // A StringName keeps its own id (24).
        (
            Value::StringName("a".into()),
            "18000000 01000000 61000000",
            "18000000 01000000 61000000",
        ),
    ];
    for (v, era_b, era_c) in both {
        for (era, bytes) in [
            (Dialect::Pandemonium38, era_b),
            (Dialect::Pandemonium5, era_c),
        ] {
            let opts = Options::new(era);
            assert_eq!(
                encode(v, &opts).unwrap().to_vec(),
                hex(bytes),
                "{v:?} in {era:?}"
            );
        }
        // Era C gives the value back exactly; era B loses the type of typed non-pool arrays.
        let c = Options::new(Dialect::Pandemonium5);
        assert_eq!(
            decode(&hex(era_c), &c).unwrap().0,
            expected_back(v),
            "{v:?}"
        );
    }

    // Era C typed arrays of objects: ids set bit 16 and carry no class; full objects carry the
    // class as a nested StringName value (docs/wire_format.md#pandemonium-typed-arrays).
    let c = Options::new(Dialect::Pandemonium5);
    let ids = Value::Array(Box::new(Array {
        element: ContainerType::Class("Node".into()),
        items: vec![Value::ObjectId(7)],
    }));
    let bytes = hex("1b000100 17000000 01000000 17000100 0700000000000000");
    assert_eq!(encode(&ids, &c).unwrap().to_vec(), bytes);
    let back = decode(&bytes, &c).unwrap().0;
    assert_eq!(
        back,
        Value::Array(Box::new(Array {
            element: ContainerType::Class("EncodedObjectAsID".into()),
            items: vec![Value::ObjectId(7)]
        }))
    );
    let full = c.clone().with_full_objects(true).with_allow_objects(true);
    let objects = Value::Array(Box::new(Array {
        element: ContainerType::Class("Node".into()),
        items: vec![Value::Object(Box::new(Object {
            class: "Node".into(),
            properties: vec![],
        }))],
    }));
    let bytes = hex(
        "1b000000 17000000 18000000 04000000 4e6f6465 01000000 17000000 04000000 4e6f6465 00000000",
    );
    assert_eq!(encode(&objects, &full).unwrap().to_vec(), bytes);
    assert_eq!(decode(&bytes, &full).unwrap().0, objects);
    // PACKED_TYPED_ARRAY (28) decodes like TYPED_ARRAY.
    let packed = hex("1c000000 02000000 01000000 02000000 05000000");
    assert_eq!(
        decode(&packed, &c).unwrap().0,
        typed(VariantType::Int, vec![Value::Int(5)])
    );
    // Godot 4-only values follow the Godot 3 policy: refused unless allow_lossy.
    for era in ERAS {
        assert!(encode(&Value::Callable, &Options::new(era)).is_err());
        assert!(encode(&Value::PackedInt64Array(vec![1]), &Options::new(era)).is_err());
        let lossy = Options::new(era).with_allow_lossy(true);
        assert_eq!(
            decode(&encode(&Value::Callable, &lossy).unwrap(), &lossy)
                .unwrap()
                .0,
            Value::Nil
        );
    }
}

fn expected_back(v: &Value) -> Value {
    match v {
        Value::Rid(_) => Value::Rid(0),
        other => other.clone(),
    }
}

#[test]
fn eras_differ_from_godot3_after_id_4() {
    // A Godot 3 Vector2 read as Pandemonium is a Rect2 header (docs/wire_format.md#pandemonium-ids).
    let v = Value::Vector2([1.0, 2.0]);
    let g3 = encode(&v, &Options::new(Dialect::Godot3)).unwrap();
    for era in ERAS {
        let p = encode(&v, &Options::new(era)).unwrap();
        assert_eq!((g3[0], p[0]), (5, 7), "{era:?}");
        assert_eq!(&g3[4..], &p[4..]);
    }
}

fn godot3_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<f64>().prop_map(Value::Float),
        "[a-zé日]{0,6}".prop_map(|s| Value::String(s.into())),
        any::<[f32; 2]>().prop_map(|c| Value::Vector2(c.map(f64::from))),
        any::<[f32; 3]>().prop_map(|c| Value::Vector3(c.map(f64::from))),
        any::<[f32; 12]>().prop_map(|c| Value::Transform3D(Box::new(c.map(f64::from)))),
        any::<[f32; 4]>().prop_map(Value::Color),
        proptest::collection::vec(any::<u8>(), 0..9).prop_map(Value::PackedByteArray),
        proptest::collection::vec(any::<i32>(), 0..4).prop_map(Value::PackedInt32Array),
        proptest::collection::vec("[a-z]{0,3}", 0..4)
            .prop_map(|v| Value::PackedStringArray(v.into_iter().map(Into::into).collect())),
        (1u64..).prop_map(Value::ObjectId),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::array),
            proptest::collection::vec(inner, 0..4).prop_map(|vs| {
                Value::dictionary(
                    vs.into_iter()
                        .enumerate()
                        .map(|(i, v)| (Value::Int(i as i64), v))
                        .collect(),
                )
            }),
        ]
    })
}

fn pandemonium_only() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<[i32; 2]>().prop_map(Value::Vector2i),
        any::<[i32; 3]>().prop_map(Value::Vector3i),
        any::<[i32; 4]>().prop_map(Value::Vector4i),
        any::<[i32; 4]>().prop_map(Value::Rect2i),
        any::<[f32; 4]>().prop_map(|c| Value::Vector4(Box::new(c.map(f64::from)))),
        any::<[f32; 16]>().prop_map(|c| Value::Projection(Box::new(c.map(f64::from)))),
        "[a-z]{0,5}".prop_map(|s| Value::StringName(s.into())),
        proptest::collection::vec(any::<[f32; 4]>(), 0..3).prop_map(|v| Value::PackedVector4Array(
            v.into_iter().map(|c| c.map(f64::from)).collect()
        )),
        proptest::collection::vec(any::<[i32; 2]>(), 0..4).prop_map(|v| Value::Array(Box::new(
            Array {
                element: ContainerType::Builtin(VariantType::Vector2i),
                items: v.into_iter().map(Value::Vector2i).collect(),
            }
        ))),
        proptest::collection::vec(any::<[i32; 4]>(), 0..4).prop_map(|v| Value::Array(Box::new(
            Array {
                element: ContainerType::Builtin(VariantType::Vector4i),
                items: v.into_iter().map(Value::Vector4i).collect(),
            }
        ))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn round_trip_in_both_eras(v in prop_oneof![godot3_value(), pandemonium_only()]) {
        for era in ERAS {
            let opts = Options::new(era);
            let bytes = encode(&v, &opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let (back, used) = decode(&bytes, &opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(used, bytes.len());
            prop_assert_eq!(&back, &v);
        }
    }

    /// A value both formats hold decodes to the same Godot 4 value from Pandemonium 5 bytes as
    /// from Godot 3 bytes.
    #[test]
    fn pandemonium_and_godot3_agree(v in godot3_value()) {
        let from_g3 = decode(&encode(&v, &Options::new(Dialect::Godot3)).unwrap(), &Options::new(Dialect::Godot3)).unwrap().0;
        for era in ERAS {
            let opts = Options::new(era);
            let from_p = decode(&encode(&v, &opts).unwrap(), &opts).unwrap().0;
            prop_assert_eq!(&from_p, &from_g3);
        }
    }
}
