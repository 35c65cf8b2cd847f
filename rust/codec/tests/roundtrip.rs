//! decode(encode(v)) == v for generated values, in both dialects and both precisions, and
//! encoded_size agrees with encode.

use fast_var_codec_core::options::Precision;
use fast_var_codec_core::value::{Array, ContainerType, NodePath, Object, VariantType};
use fast_var_codec_core::{decode, encode, encoded_size, Dialect, Options, Value};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
struct Shape {
    dialect: Dialect,
    double: bool,
}

fn real(shape: Shape) -> BoxedStrategy<f64> {
    if shape.double {
        any::<f64>().boxed()
    } else {
        // Single precision carries binary32: only such values survive unchanged.
        any::<f32>().prop_map(f64::from).boxed()
    }
}

fn reals<const N: usize>(shape: Shape) -> BoxedStrategy<[f64; N]> {
    proptest::collection::vec(real(shape), N)
        .prop_map(|v| v.try_into().unwrap_or([0.0; N]))
        .boxed()
}

/// A math type whose `Value` holds its reals boxed (Rect2, Transform3D, …).
fn boxed_reals<const N: usize>(
    shape: Shape,
    make: fn(Box<[f64; N]>) -> Value,
) -> BoxedStrategy<Value> {
    reals::<N>(shape)
        .prop_map(move |c| make(Box::new(c)))
        .boxed()
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,9}",
        any::<String>().prop_map(|s| s
            .replace('\0', "")
            .trim_start_matches('\u{FEFF}')
            .to_string()),
    ]
}

fn leaf(shape: Shape) -> BoxedStrategy<Value> {
    let g4 = matches!(shape.dialect, Dialect::Godot4);
    let mut options: Vec<BoxedStrategy<Value>> = vec![
        Just(Value::Nil).boxed(),
        any::<bool>().prop_map(Value::Bool).boxed(),
        any::<i64>().prop_map(Value::Int).boxed(),
        any::<i32>().prop_map(|i| Value::Int(i.into())).boxed(),
        any::<f64>().prop_map(Value::Float).boxed(),
        text().prop_map(|s| Value::String(s.into())).boxed(),
        reals::<2>(shape).prop_map(Value::Vector2).boxed(),
        boxed_reals::<4>(shape, Value::Rect2),
        reals::<3>(shape).prop_map(Value::Vector3).boxed(),
        boxed_reals::<6>(shape, Value::Transform2D),
        boxed_reals::<4>(shape, Value::Plane),
        boxed_reals::<4>(shape, Value::Quaternion),
        boxed_reals::<6>(shape, Value::Aabb),
        boxed_reals::<9>(shape, Value::Basis),
        boxed_reals::<12>(shape, Value::Transform3D),
        any::<[f32; 4]>().prop_map(Value::Color).boxed(),
        (
            proptest::collection::vec(text(), 0..3),
            proptest::collection::vec(text(), 0..3),
            any::<bool>(),
        )
            .prop_map(move |(names, subnames, absolute)| {
                // Godot 3 drops the absolute flag of an empty path.
                let absolute = absolute && (g4 || !(names.is_empty() && subnames.is_empty()));
                Value::NodePath(Box::new(NodePath {
                    names,
                    subnames,
                    absolute,
                }))
            })
            .boxed(),
        (1u64..).prop_map(Value::ObjectId).boxed(),
        proptest::collection::vec(any::<u8>(), 0..20)
            .prop_map(Value::PackedByteArray)
            .boxed(),
        proptest::collection::vec(any::<i32>(), 0..8)
            .prop_map(Value::PackedInt32Array)
            .boxed(),
        proptest::collection::vec(any::<f32>(), 0..8)
            .prop_map(Value::PackedFloat32Array)
            .boxed(),
        proptest::collection::vec(text(), 0..5)
            .prop_map(|v| Value::PackedStringArray(v.into_iter().map(Into::into).collect()))
            .boxed(),
        proptest::collection::vec(reals::<2>(shape), 0..5)
            .prop_map(Value::PackedVector2Array)
            .boxed(),
        proptest::collection::vec(reals::<3>(shape), 0..5)
            .prop_map(Value::PackedVector3Array)
            .boxed(),
        proptest::collection::vec(any::<[f32; 4]>(), 0..5)
            .prop_map(Value::PackedColorArray)
            .boxed(),
    ];
    if g4 {
        options.extend([
            any::<[i32; 2]>().prop_map(Value::Vector2i).boxed(),
            any::<[i32; 4]>().prop_map(Value::Rect2i).boxed(),
            any::<[i32; 3]>().prop_map(Value::Vector3i).boxed(),
            any::<[i32; 4]>().prop_map(Value::Vector4i).boxed(),
            boxed_reals::<4>(shape, Value::Vector4),
            boxed_reals::<16>(shape, Value::Projection),
            text().prop_map(|s| Value::StringName(s.into())).boxed(),
            any::<u64>().prop_map(Value::Rid).boxed(),
            Just(Value::Callable).boxed(),
            (text(), any::<u64>())
                .prop_map(|(name, object_id)| Value::Signal {
                    name: name.into(),
                    object_id,
                })
                .boxed(),
            proptest::collection::vec(any::<i64>(), 0..8)
                .prop_map(Value::PackedInt64Array)
                .boxed(),
            proptest::collection::vec(any::<f64>(), 0..8)
                .prop_map(Value::PackedFloat64Array)
                .boxed(),
            proptest::collection::vec(reals::<4>(shape), 0..5)
                .prop_map(Value::PackedVector4Array)
                .boxed(),
        ]);
    } else {
        // Godot 3 RIDs carry no id.
        options.push(Just(Value::Rid(0)).boxed());
    }
    proptest::strategy::Union::new(options).boxed()
}

fn value(shape: Shape) -> BoxedStrategy<Value> {
    let g4 = matches!(shape.dialect, Dialect::Godot4);
    leaf(shape)
        .prop_recursive(4, 48, 6, move |inner| {
            let mut options: Vec<BoxedStrategy<Value>> = vec![
                proptest::collection::vec(inner.clone(), 0..6)
                    .prop_map(Value::array)
                    .boxed(),
                // Keys are distinct ints and strings: the engine merges equal keys.
                proptest::collection::vec(inner.clone(), 0..6)
                    .prop_map(|vals| {
                        Value::dictionary(
                            vals.into_iter()
                                .enumerate()
                                .map(|(i, v)| {
                                    let k = if i % 2 == 0 {
                                        Value::Int(i as i64)
                                    } else {
                                        Value::String(format!("k{i}").into())
                                    };
                                    (k, v)
                                })
                                .collect(),
                        )
                    })
                    .boxed(),
                (
                    text(),
                    proptest::collection::vec((text(), inner.clone()), 0..4),
                )
                    .prop_map(|(class, properties)| {
                        Value::Object(Box::new(Object {
                            class: format!("C{class}"),
                            properties: properties
                                .into_iter()
                                .filter(|(k, _)| k != "script")
                                .collect(),
                        }))
                    })
                    .boxed(),
            ];
            if g4 {
                options.push(
                    proptest::collection::vec(any::<i64>(), 0..6)
                        .prop_map(|v| {
                            Value::Array(Box::new(Array {
                                element: ContainerType::Builtin(VariantType::Int),
                                items: v.into_iter().map(Value::Int).collect(),
                            }))
                        })
                        .boxed(),
                );
                options.push(
                    proptest::collection::vec(inner, 0..4)
                        .prop_map(|vals| {
                            Value::typed_dictionary(
                                ContainerType::Builtin(VariantType::String),
                                ContainerType::Untyped,
                                vals.into_iter()
                                    .enumerate()
                                    .map(|(i, v)| (Value::String(format!("k{i}").into()), v))
                                    .collect(),
                            )
                        })
                        .boxed(),
                );
            }
            proptest::strategy::Union::new(options)
        })
        .boxed()
}

fn check(shape: Shape, v: &Value) -> Result<(), TestCaseError> {
    let opts = Options::new(shape.dialect)
        .with_precision(if shape.double {
            Precision::Double
        } else {
            Precision::Single
        })
        .with_full_objects(true)
        .with_allow_objects(true);
    let bytes = encode(v, &opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(bytes.len() % 4, 0);
    prop_assert_eq!(encoded_size(v, &opts).ok(), Some(bytes.len()));
    let (back, used) = decode(&bytes, &opts).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(used, bytes.len());
    prop_assert_eq!(&back, v);
    Ok(())
}

/// What `arbitrary_bytes_never_panic` checks of each input: decodes, and what decodes
/// re-encodes to bytes that decode to the same value.
fn reencodes_to_itself(bytes: &[u8]) -> Result<(), TestCaseError> {
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        let opts = Options::new(dialect)
            .with_allow_objects(true)
            .with_full_objects(true);
        // Decoded reals may be binary64: re-encode at double precision where it exists, and
        // decode that at double precision too (a single-precision decode of binary64 narrows as
        // the engine does, quieting a signalling NaN that came in as binary32).
        let wide = if dialect == Dialect::Godot4 {
            opts.clone().with_precision(Precision::Double)
        } else {
            opts.clone()
        };
        if let Ok((v, used)) = decode(bytes, &opts) {
            prop_assert!(used >= 4);
            let again = encode(&v, &wide).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let (v2, _) = decode(&again, &wide).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(v2, v);
        }
    }
    Ok(())
}

/// A Rect2 whose last component is a signalling binary32 NaN (0x7f810000), with unknown header
/// flags: kept bit for bit through the double-precision re-encode.
#[test]
fn signalling_nan_in_arbitrary_bytes_reencodes_to_itself() {
    let mut bytes = vec![7, 0, 0x20, 0];
    bytes.extend_from_slice(&[0; 12]);
    bytes.extend_from_slice(&0x7f81_0000u32.to_le_bytes());
    reencodes_to_itself(&bytes).expect("re-encodes to itself");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn godot4_single(v in value(Shape { dialect: Dialect::Godot4, double: false })) {
        check(Shape { dialect: Dialect::Godot4, double: false }, &v)?;
    }

    #[test]
    fn godot4_double(v in value(Shape { dialect: Dialect::Godot4, double: true })) {
        check(Shape { dialect: Dialect::Godot4, double: true }, &v)?;
    }

    #[test]
    fn godot3(v in value(Shape { dialect: Dialect::Godot3, double: false })) {
        check(Shape { dialect: Dialect::Godot3, double: false }, &v)?;
    }

    /// Any bytes: decoding never panics, and what decodes re-encodes to bytes that decode to
    /// the same value.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        reencodes_to_itself(&bytes)?;
    }
}
