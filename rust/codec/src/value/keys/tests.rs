//! Dictionary keys: which keys the engine merges, and decoding in linear time for every kind of
//! key. Nothing here is timed: the builder counts its key comparisons (`probes`) and the values
//! its comparisons and digests visit (`work`); a decode of 8n keys must not cost much more than
//! 8 times a decode of n keys, and keys nested in keys must not be visited once per level.

use super::{probes, work};
use crate::options::Precision;
use crate::value::{NodePath, Object};
use crate::{decode, encode, Dialect, Options, Value};

fn opts() -> Options {
    Options::new(Dialect::Godot4)
        .with_full_objects(true)
        .with_allow_objects(true)
}

/// Decodes the engine encoding of a Dictionary with these entries (the encoder writes entries
/// as given, duplicates included); returns the keys kept and the key comparisons made to merge
/// them (not counting those made while decoding Dictionaries inside the keys: an Array of the
/// same keys is decoded too, and its comparisons are taken off).
fn decode_counting(entries: Vec<(Value, Value)>) -> (Vec<Value>, u64) {
    let count = |v: &Value| {
        let bytes = encode(v, &opts()).expect("encode");
        let before = probes();
        let (v, used) = decode(&bytes, &opts()).expect("decode");
        assert_eq!(used, bytes.len());
        (v, probes() - before)
    };
    let (_, inside) = count(&Value::array(entries.iter().map(|e| e.0.clone()).collect()));
    match count(&Value::dictionary(entries)) {
        (Value::Dictionary(mut d), made) => (
            std::mem::take(&mut d.entries)
                .into_iter()
                .map(|(k, _)| k)
                .collect(),
            made - inside,
        ),
        (other, _) => panic!("decoded {other:?}"),
    }
}

fn s(text: &str) -> Value {
    Value::String(text.into())
}

fn sn(text: &str) -> Value {
    Value::StringName(text.into())
}

fn f32nan(payload: u32) -> f32 {
    f32::from_bits(0x7fc0_0000 | payload)
}

fn f64nan(payload: u64) -> f64 {
    f64::from_bits(0x7ff8_0000_0000_0000 | payload)
}

const NEG0: f64 = -0.0;

/// A real_t component NaN (single precision carries binary32).
fn rnan(payload: u32) -> f64 {
    f64::from(f32nan(payload))
}

fn arr(items: Vec<Value>) -> Value {
    Value::array(items)
}

fn dict(entries: Vec<(Value, Value)>) -> Value {
    Value::dictionary(entries)
}

/// Pairs of keys and whether Godot 4.6.3 keeps one entry (true) or two (false) when both are
/// decoded into one Dictionary: what `tests/engine_probes/dictionary_keys.gd` checks against the
/// headless engine (`bytes_to_var` of crafted Dictionaries).
fn engine_table() -> Vec<(&'static str, Value, Value, bool)> {
    let mut t = vec![
        (
            "Float 0.0, -0.0",
            Value::Float(0.0),
            Value::Float(NEG0),
            true,
        ),
        (
            "Float NaN, NaN",
            Value::Float(f64nan(0)),
            Value::Float(f64nan(0)),
            true,
        ),
        (
            "Float NaN payloads",
            Value::Float(f64nan(0)),
            Value::Float(f64nan(1)),
            true,
        ),
        ("Int 1, Float 1.0", Value::Int(1), Value::Float(1.0), false),
        ("Bool true, Int 1", Value::Bool(true), Value::Int(1), false),
        ("String, StringName", s("a"), sn("a"), true),
        ("StringName, String", sn("a"), s("a"), true),
        (
            "String, NodePath",
            s("a"),
            Value::NodePath(Box::new(np(&["a"], &[], false))),
            false,
        ),
        ("Nil, Nil", Value::Nil, Value::Nil, true),
        (
            "Vector2i",
            Value::Vector2i([1, 2]),
            Value::Vector2i([1, 2]),
            true,
        ),
        (
            "Vector2, Vector2i",
            Value::Vector2([1.0, 2.0]),
            Value::Vector2i([1, 2]),
            false,
        ),
        // Inside Arrays and as Dictionary values: types must match, and a Float NaN equals
        // nothing, but the math types keep NaN == NaN and every float -0.0 == 0.0.
        (
            "[0.0], [-0.0]",
            arr(vec![Value::Float(0.0)]),
            arr(vec![Value::Float(NEG0)]),
            true,
        ),
        (
            "[NaN], [NaN]",
            arr(vec![Value::Float(f64nan(0))]),
            arr(vec![Value::Float(f64nan(0))]),
            false,
        ),
        (
            "[1,NaN] twice",
            arr(vec![Value::Int(1), Value::Float(f64nan(0))]),
            arr(vec![Value::Int(1), Value::Float(f64nan(0))]),
            false,
        ),
        (
            "[[NaN]] twice",
            arr(vec![arr(vec![Value::Float(f64nan(0))])]),
            arr(vec![arr(vec![Value::Float(f64nan(0))])]),
            false,
        ),
        (
            "[[0.0]], [[-0.0]]",
            arr(vec![arr(vec![Value::Float(0.0)])]),
            arr(vec![arr(vec![Value::Float(NEG0)])]),
            true,
        ),
        (
            "[1], [1.0]",
            arr(vec![Value::Int(1)]),
            arr(vec![Value::Float(1.0)]),
            false,
        ),
        (
            "[true], [1]",
            arr(vec![Value::Bool(true)]),
            arr(vec![Value::Int(1)]),
            false,
        ),
        (
            "[\"a\"], [&\"a\"]",
            arr(vec![s("a")]),
            arr(vec![sn("a")]),
            false,
        ),
        (
            "[&\"a\"] twice",
            arr(vec![sn("a")]),
            arr(vec![sn("a")]),
            true,
        ),
        (
            "[Vector2(0,1)], [Vector2(-0,1)]",
            arr(vec![Value::Vector2([0.0, 1.0])]),
            arr(vec![Value::Vector2([NEG0, 1.0])]),
            true,
        ),
        (
            "[Vector2(NaN,1)] twice",
            arr(vec![Value::Vector2([rnan(0), 1.0])]),
            arr(vec![Value::Vector2([rnan(0), 1.0])]),
            true,
        ),
        (
            "[Vector2] , [Vector2i]",
            arr(vec![Value::Vector2([1.0, 2.0])]),
            arr(vec![Value::Vector2i([1, 2])]),
            false,
        ),
        ("[], []", arr(vec![]), arr(vec![]), true),
        (
            "[null] twice",
            arr(vec![Value::Nil]),
            arr(vec![Value::Nil]),
            true,
        ),
        (
            "Array[int]([1]), [1]",
            typed_int_array(vec![Value::Int(1)]),
            arr(vec![Value::Int(1)]),
            true,
        ),
        (
            "[{a:1}] twice",
            arr(vec![dict(vec![(s("a"), Value::Int(1))])]),
            arr(vec![dict(vec![(s("a"), Value::Int(1))])]),
            true,
        ),
        (
            "[{a:1}], [{&a:1}]",
            arr(vec![dict(vec![(s("a"), Value::Int(1))])]),
            arr(vec![dict(vec![(sn("a"), Value::Int(1))])]),
            true,
        ),
        (
            "[{NaN:1}] twice",
            arr(vec![dict(vec![(Value::Float(f64nan(0)), Value::Int(1))])]),
            arr(vec![dict(vec![(Value::Float(f64nan(0)), Value::Int(1))])]),
            true,
        ),
        (
            "[{-0.0:1}], [{0.0:1}]",
            arr(vec![dict(vec![(Value::Float(NEG0), Value::Int(1))])]),
            arr(vec![dict(vec![(Value::Float(0.0), Value::Int(1))])]),
            true,
        ),
        (
            "[{a:1,b:2}], [{b:2,a:1}]",
            arr(vec![dict(vec![
                (s("a"), Value::Int(1)),
                (s("b"), Value::Int(2)),
            ])]),
            arr(vec![dict(vec![
                (s("b"), Value::Int(2)),
                (s("a"), Value::Int(1)),
            ])]),
            false,
        ),
        (
            "[Callable] twice",
            arr(vec![Value::Callable]),
            arr(vec![Value::Callable]),
            true,
        ),
        (
            "[RID 5] twice",
            arr(vec![Value::Rid(5)]),
            arr(vec![Value::Rid(5)]),
            true,
        ),
        (
            "[NodePath a:b] twice",
            arr(vec![Value::NodePath(Box::new(np(&["a"], &["b"], false)))]),
            arr(vec![Value::NodePath(Box::new(np(&["a"], &["b"], false)))]),
            true,
        ),
        (
            "[object id 5] twice",
            arr(vec![Value::ObjectId(5)]),
            arr(vec![Value::ObjectId(5)]),
            false,
        ),
        (
            "[full object] twice",
            arr(vec![object()]),
            arr(vec![object()]),
            false,
        ),
        (
            "PackedStringArray[a], [a]",
            Value::PackedStringArray(vec!["a".into()]),
            arr(vec![s("a")]),
            false,
        ),
        (
            "PackedByteArray[1], [1]",
            Value::PackedByteArray(vec![1]),
            arr(vec![Value::Int(1)]),
            false,
        ),
        // Dictionaries: entry order matters, keys compare as keys, values as inside an Array.
        (
            "{a:0.0}, {a:-0.0}",
            dict(vec![(s("a"), Value::Float(0.0))]),
            dict(vec![(s("a"), Value::Float(NEG0))]),
            true,
        ),
        (
            "{a:NaN} twice",
            dict(vec![(s("a"), Value::Float(f64nan(0)))]),
            dict(vec![(s("a"), Value::Float(f64nan(0)))]),
            false,
        ),
        (
            "{a:{b:NaN}} twice",
            dict(vec![(
                s("a"),
                dict(vec![(s("b"), Value::Float(f64nan(0)))]),
            )]),
            dict(vec![(
                s("a"),
                dict(vec![(s("b"), Value::Float(f64nan(0)))]),
            )]),
            false,
        ),
        (
            "{0.0:1}, {-0.0:1}",
            dict(vec![(Value::Float(0.0), Value::Int(1))]),
            dict(vec![(Value::Float(NEG0), Value::Int(1))]),
            true,
        ),
        (
            "{NaN:1} twice",
            dict(vec![(Value::Float(f64nan(0)), Value::Int(1))]),
            dict(vec![(Value::Float(f64nan(0)), Value::Int(1))]),
            true,
        ),
        (
            "{[NaN]:1} twice",
            dict(vec![(arr(vec![Value::Float(f64nan(0))]), Value::Int(1))]),
            dict(vec![(arr(vec![Value::Float(f64nan(0))]), Value::Int(1))]),
            false,
        ),
        (
            "{a:1,b:2}, {b:2,a:1}",
            dict(vec![(s("a"), Value::Int(1)), (s("b"), Value::Int(2))]),
            dict(vec![(s("b"), Value::Int(2)), (s("a"), Value::Int(1))]),
            false,
        ),
        (
            "{a:1,b:2} twice",
            dict(vec![(s("a"), Value::Int(1)), (s("b"), Value::Int(2))]),
            dict(vec![(s("a"), Value::Int(1)), (s("b"), Value::Int(2))]),
            true,
        ),
        (
            "{a:1}, {&a:1}",
            dict(vec![(s("a"), Value::Int(1))]),
            dict(vec![(sn("a"), Value::Int(1))]),
            true,
        ),
        (
            "{a:1}, {a:1.0}",
            dict(vec![(s("a"), Value::Int(1))]),
            dict(vec![(s("a"), Value::Float(1.0))]),
            false,
        ),
        (
            "{1:1}, {1.0:1}",
            dict(vec![(Value::Int(1), Value::Int(1))]),
            dict(vec![(Value::Float(1.0), Value::Int(1))]),
            false,
        ),
        (
            "{a:\"x\"}, {a:&\"x\"}",
            dict(vec![(s("a"), s("x"))]),
            dict(vec![(s("a"), sn("x"))]),
            false,
        ),
        (
            "{a:[0.0]}, {a:[-0.0]}",
            dict(vec![(s("a"), arr(vec![Value::Float(0.0)]))]),
            dict(vec![(s("a"), arr(vec![Value::Float(NEG0)]))]),
            true,
        ),
        (
            "{a:Vector2(NaN,1)} twice",
            dict(vec![(s("a"), Value::Vector2([rnan(0), 1.0]))]),
            dict(vec![(s("a"), Value::Vector2([rnan(0), 1.0]))]),
            true,
        ),
        (
            "{a:object id 5} twice",
            dict(vec![(s("a"), Value::ObjectId(5))]),
            dict(vec![(s("a"), Value::ObjectId(5))]),
            false,
        ),
        ("{}, {}", dict(vec![]), dict(vec![]), true),
        (
            "Dictionary[String,int]{a:1}, {a:1}",
            typed_dict(vec![(s("a"), Value::Int(1))]),
            dict(vec![(s("a"), Value::Int(1))]),
            true,
        ),
        // Packed arrays: element by element, -0.0 == 0.0 and NaN == NaN (any payload).
        (
            "PackedFloat32Array [0.0], [-0.0]",
            Value::PackedFloat32Array(vec![0.0]),
            Value::PackedFloat32Array(vec![-0.0]),
            true,
        ),
        (
            "PackedFloat32Array NaN payloads",
            Value::PackedFloat32Array(vec![f32nan(0)]),
            Value::PackedFloat32Array(vec![f32nan(1)]),
            true,
        ),
        (
            "PackedFloat64Array [0.0], [-0.0]",
            Value::PackedFloat64Array(vec![0.0]),
            Value::PackedFloat64Array(vec![NEG0]),
            true,
        ),
        (
            "PackedFloat64Array NaN payloads",
            Value::PackedFloat64Array(vec![f64nan(0)]),
            Value::PackedFloat64Array(vec![f64nan(1)]),
            true,
        ),
        (
            "PackedVector2Array -0.0",
            Value::PackedVector2Array(vec![[0.0, 1.0]]),
            Value::PackedVector2Array(vec![[NEG0, 1.0]]),
            true,
        ),
        (
            "PackedVector2Array NaN payloads",
            Value::PackedVector2Array(vec![[rnan(0), 1.0]]),
            Value::PackedVector2Array(vec![[rnan(1), 1.0]]),
            true,
        ),
        (
            "PackedVector3Array -0.0",
            Value::PackedVector3Array(vec![[0.0, 1.0, 1.0]]),
            Value::PackedVector3Array(vec![[NEG0, 1.0, 1.0]]),
            true,
        ),
        (
            "PackedVector3Array NaN",
            Value::PackedVector3Array(vec![[rnan(0), 1.0, 1.0]]),
            Value::PackedVector3Array(vec![[rnan(0), 1.0, 1.0]]),
            true,
        ),
        (
            "PackedVector4Array -0.0",
            Value::PackedVector4Array(vec![[0.0, 1.0, 1.0, 1.0]]),
            Value::PackedVector4Array(vec![[NEG0, 1.0, 1.0, 1.0]]),
            true,
        ),
        (
            "PackedVector4Array NaN",
            Value::PackedVector4Array(vec![[rnan(0), 1.0, 1.0, 1.0]]),
            Value::PackedVector4Array(vec![[rnan(0), 1.0, 1.0, 1.0]]),
            true,
        ),
        (
            "PackedColorArray -0.0",
            Value::PackedColorArray(vec![[0.0, 1.0, 1.0, 1.0]]),
            Value::PackedColorArray(vec![[-0.0, 1.0, 1.0, 1.0]]),
            true,
        ),
        (
            "PackedColorArray NaN",
            Value::PackedColorArray(vec![[f32nan(0), 1.0, 1.0, 1.0]]),
            Value::PackedColorArray(vec![[f32nan(0), 1.0, 1.0, 1.0]]),
            true,
        ),
        (
            "[PackedFloat32Array NaN] payloads",
            arr(vec![Value::PackedFloat32Array(vec![f32nan(0)])]),
            arr(vec![Value::PackedFloat32Array(vec![f32nan(1)])]),
            true,
        ),
        (
            "[PackedFloat32Array -0.0]",
            arr(vec![Value::PackedFloat32Array(vec![-0.0])]),
            arr(vec![Value::PackedFloat32Array(vec![0.0])]),
            true,
        ),
        (
            "PackedByteArray [1,2] twice",
            Value::PackedByteArray(vec![1, 2]),
            Value::PackedByteArray(vec![1, 2]),
            true,
        ),
        (
            "PackedByteArray [], PackedInt32Array []",
            Value::PackedByteArray(vec![]),
            Value::PackedInt32Array(vec![]),
            false,
        ),
        (
            "PackedInt32Array [1], PackedInt64Array [1]",
            Value::PackedInt32Array(vec![1]),
            Value::PackedInt64Array(vec![1]),
            false,
        ),
        (
            "PackedInt64Array twice",
            Value::PackedInt64Array(vec![1, 2]),
            Value::PackedInt64Array(vec![1, 2]),
            true,
        ),
        (
            "PackedStringArray twice",
            Value::PackedStringArray(vec!["a".into()]),
            Value::PackedStringArray(vec!["a".into()]),
            true,
        ),
        // Everything else: by value; objects are new instances on decode, never equal.
        (
            "NodePath a/b twice",
            Value::NodePath(Box::new(np(&["a", "b"], &[], false))),
            Value::NodePath(Box::new(np(&["a", "b"], &[], false))),
            true,
        ),
        (
            "NodePath a/b, a:b",
            Value::NodePath(Box::new(np(&["a", "b"], &[], false))),
            Value::NodePath(Box::new(np(&["a"], &["b"], false))),
            false,
        ),
        (
            "NodePath /a, a",
            Value::NodePath(Box::new(np(&["a"], &[], true))),
            Value::NodePath(Box::new(np(&["a"], &[], false))),
            false,
        ),
        (
            "NodePath empty twice",
            Value::NodePath(Box::new(np(&[], &[], false))),
            Value::NodePath(Box::new(np(&[], &[], false))),
            true,
        ),
        ("RID 5 twice", Value::Rid(5), Value::Rid(5), true),
        ("RID 0 twice", Value::Rid(0), Value::Rid(0), true),
        (
            "object id 5 twice",
            Value::ObjectId(5),
            Value::ObjectId(5),
            false,
        ),
        ("full object twice", object(), object(), false),
        ("Callable twice", Value::Callable, Value::Callable, true),
        ("Signal twice", signal(5), signal(5), true),
        ("Signal s/5, s/6", signal(5), signal(6), false),
    ];
    // Every math type, first and last component: -0.0 == 0.0, NaN == NaN whatever the payload
    // or sign.
    for (name, make) in math_types() {
        let n = make(&[]).1;
        for at in [0, n - 1] {
            let with = |c: f64| make(&[(at, c)]).0;
            let nan_neg = -rnan(0);
            t.push((name, with(0.0), with(NEG0), true));
            t.push((name, with(rnan(0)), with(rnan(0)), true));
            t.push((name, with(rnan(0)), with(rnan(1)), true));
            t.push((name, with(rnan(0)), with(nan_neg), true));
            t.push((name, with(0.0), with(1.0), false));
            t.push((
                name,
                arr(vec![with(rnan(0))]),
                arr(vec![with(rnan(0))]),
                true,
            ));
            t.push((name, arr(vec![with(NEG0)]), arr(vec![with(0.0)]), true));
        }
    }
    t
}

fn np(names: &[&str], subnames: &[&str], absolute: bool) -> NodePath {
    NodePath {
        names: names.iter().map(|s| s.to_string()).collect(),
        subnames: subnames.iter().map(|s| s.to_string()).collect(),
        absolute,
    }
}

fn object() -> Value {
    Value::Object(Box::new(Object {
        class: "RefCounted".into(),
        properties: vec![],
    }))
}

fn signal(id: u64) -> Value {
    Value::Signal {
        name: "s".into(),
        object_id: id,
    }
}

fn typed_int_array(items: Vec<Value>) -> Value {
    Value::Array(Box::new(crate::value::Array {
        element: crate::value::ContainerType::Builtin(crate::value::VariantType::Int),
        items,
    }))
}

fn typed_dict(entries: Vec<(Value, Value)>) -> Value {
    Value::typed_dictionary(
        crate::value::ContainerType::Builtin(crate::value::VariantType::String),
        crate::value::ContainerType::Builtin(crate::value::VariantType::Int),
        entries,
    )
}

/// A math value made of ones with some components replaced; returns it and its component count.
type MakeMath = fn(&[(usize, f64)]) -> (Value, usize);

fn math_types() -> Vec<(&'static str, MakeMath)> {
    fn c<const N: usize>(set: &[(usize, f64)]) -> [f64; N] {
        let mut a = [1.0; N];
        for &(i, x) in set {
            a[i] = x;
        }
        a
    }
    vec![
        ("Vector2", |s| (Value::Vector2(c(s)), 2)),
        ("Rect2", |s| (Value::Rect2(Box::new(c(s))), 4)),
        ("Vector3", |s| (Value::Vector3(c(s)), 3)),
        ("Transform2D", |s| (Value::Transform2D(Box::new(c(s))), 6)),
        ("Vector4", |s| (Value::Vector4(Box::new(c(s))), 4)),
        ("Plane", |s| (Value::Plane(Box::new(c(s))), 4)),
        ("Quaternion", |s| (Value::Quaternion(Box::new(c(s))), 4)),
        ("AABB", |s| (Value::Aabb(Box::new(c(s))), 6)),
        ("Basis", |s| (Value::Basis(Box::new(c(s))), 9)),
        ("Transform3D", |s| (Value::Transform3D(Box::new(c(s))), 12)),
        ("Projection", |s| (Value::Projection(Box::new(c(s))), 16)),
        ("Color", |s| (Value::Color(c::<4>(s).map(|x| x as f32)), 4)),
    ]
}

#[test]
fn keys_merge_as_in_the_engine() {
    let mut wrong = Vec::new();
    for (name, a, b, merged) in engine_table() {
        // Alone (the small-dictionary scan) and after 20 other keys (the hash index).
        for fillers in [0, 20] {
            let mut entries: Vec<(Value, Value)> = (0..fillers)
                .map(|i| (Value::Int(1000 + i), Value::Nil))
                .collect();
            entries.push((a.clone(), Value::Int(1)));
            entries.push((b.clone(), Value::Int(2)));
            let (keys, _) = decode_counting(entries);
            let got = keys.len() == fillers as usize + 1;
            if got != merged {
                wrong.push(format!(
                    "{name} ({fillers} other keys): {a:?} and {b:?} {}",
                    if merged {
                        "should merge"
                    } else {
                        "should stay two keys"
                    }
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Keys that all differ from each other: `key(i)` for i in 0..n.
type Distinct = fn(u32) -> Value;

fn distinct_kinds() -> Vec<(&'static str, Distinct)> {
    fn xy(i: u32) -> (f64, f64) {
        (f64::from(i % 64), f64::from(i / 64))
    }
    fn ixy(i: u32) -> (i32, i32) {
        ((i % 64) as i32, (i / 64) as i32)
    }
    fn reals<const N: usize>(i: u32) -> [f64; N] {
        let (x, y) = xy(i);
        let mut a = [0.5; N];
        a[0] = x;
        a[N - 1] = y;
        a
    }
    vec![
        ("Int", |i| Value::Int(i64::from(i))),
        ("Float", |i| Value::Float(f64::from(i) + 0.5)),
        ("String", |i| Value::String(format!("k{i}").into())),
        ("StringName", |i| Value::StringName(format!("k{i}").into())),
        ("Vector2", |i| Value::Vector2(reals(i))),
        ("Vector2i", |i| Value::Vector2i([ixy(i).0, ixy(i).1])),
        ("Rect2", |i| Value::Rect2(Box::new(reals(i)))),
        ("Rect2i", |i| Value::Rect2i([ixy(i).0, ixy(i).1, 1, 1])),
        ("Vector3", |i| Value::Vector3(reals(i))),
        ("Vector3i", |i| Value::Vector3i([ixy(i).0, ixy(i).1, 1])),
        ("Transform2D", |i| Value::Transform2D(Box::new(reals(i)))),
        ("Vector4", |i| Value::Vector4(Box::new(reals(i)))),
        ("Vector4i", |i| Value::Vector4i([ixy(i).0, 1, 1, ixy(i).1])),
        ("Plane", |i| Value::Plane(Box::new(reals(i)))),
        ("Quaternion", |i| Value::Quaternion(Box::new(reals(i)))),
        ("AABB", |i| Value::Aabb(Box::new(reals(i)))),
        ("Basis", |i| Value::Basis(Box::new(reals(i)))),
        ("Transform3D", |i| Value::Transform3D(Box::new(reals(i)))),
        ("Projection", |i| Value::Projection(Box::new(reals(i)))),
        ("Color", |i| {
            Value::Color([(i % 64) as f32, (i / 64) as f32, 0.5, 1.0])
        }),
        ("NodePath", |i| {
            Value::NodePath(Box::new(np(
                &["root", &format!("n{}", i % 64)],
                &[&format!("p{}", i / 64)],
                i % 2 == 0,
            )))
        }),
        ("RID", |i| Value::Rid(u64::from(i))),
        ("Signal", |i| Value::Signal {
            name: format!("s{}", i % 64).into(),
            object_id: u64::from(i / 64),
        }),
        ("Array", |i| {
            arr(vec![
                Value::Int(i64::from(i % 64)),
                Value::Int(i64::from(i / 64)),
            ])
        }),
        ("Array of floats", |i| {
            arr(vec![Value::Float(NEG0), Value::Float(f64::from(i))])
        }),
        // Twelve items, each "x" or &"x": distinct inside an Array, equal as keys.
        ("Array of String/StringName", |i| {
            arr((0..13)
                .map(|b| if i >> b & 1 == 1 { sn("x") } else { s("x") })
                .collect())
        }),
        ("Dictionary", |i| {
            dict(vec![(s("k"), Value::Int(i64::from(i)))])
        }),
        // The same seven entries in 5040 orders.
        ("Dictionary, entry orders", |i| {
            dict(
                permutation(i, 7)
                    .into_iter()
                    .map(|j| (s(&format!("k{j}")), Value::Int(j as i64)))
                    .collect(),
            )
        }),
        ("Dictionary, String/StringName values", |i| {
            dict(
                (0..13)
                    .map(|b| {
                        (
                            Value::Int(b),
                            if i >> b & 1 == 1 { sn("x") } else { s("x") },
                        )
                    })
                    .collect(),
            )
        }),
        ("Array in Dictionary in Array", |i| {
            arr(vec![dict(vec![(
                s("k"),
                arr(vec![Value::Vector2(reals(i))]),
            )])])
        }),
        ("Dictionary key in Dictionary", |i| {
            dict(vec![(
                dict(vec![(Value::Vector3i([ixy(i).0, ixy(i).1, 0]), Value::Nil)]),
                Value::Nil,
            )])
        }),
        ("PackedByteArray", |i| {
            Value::PackedByteArray(i.to_le_bytes().to_vec())
        }),
        ("PackedInt32Array", |i| {
            Value::PackedInt32Array(vec![i as i32, 0])
        }),
        ("PackedInt64Array", |i| {
            Value::PackedInt64Array(vec![0, i64::from(i)])
        }),
        ("PackedFloat32Array", |i| {
            Value::PackedFloat32Array(vec![-0.0, i as f32])
        }),
        ("PackedFloat64Array", |i| {
            Value::PackedFloat64Array(vec![NEG0, f64::from(i)])
        }),
        ("PackedStringArray", |i| {
            Value::PackedStringArray(vec![format!("{i}").into()])
        }),
        ("PackedVector2Array", |i| {
            Value::PackedVector2Array(vec![reals(i)])
        }),
        ("PackedVector3Array", |i| {
            Value::PackedVector3Array(vec![reals(i)])
        }),
        ("PackedVector4Array", |i| {
            Value::PackedVector4Array(vec![reals(i)])
        }),
        ("PackedColorArray", |i| {
            Value::PackedColorArray(vec![[(i % 64) as f32, (i / 64) as f32, 0.5, 1.0]])
        }),
    ]
}

/// The `i`-th ordering of 0..n (factorial number system).
fn permutation(mut i: u32, n: usize) -> Vec<usize> {
    let mut left: Vec<usize> = (0..n).collect();
    let mut out = Vec::new();
    for k in (1..=n).rev() {
        let f: u32 = (1..k as u32).product();
        out.push(left.remove((i / f) as usize % k));
        i %= f;
    }
    out
}

/// Keys that are each equal to nothing (so none merge), all alike.
fn never_equal_kinds() -> Vec<(&'static str, Value)> {
    vec![
        ("object id", Value::ObjectId(7)),
        ("full object", object()),
        ("[NaN]", arr(vec![Value::Float(f64nan(0))])),
        ("{a:NaN}", dict(vec![(s("a"), Value::Float(f64nan(0)))])),
        ("[object id]", arr(vec![Value::ObjectId(7)])),
    ]
}

/// Pairs of different keys that the engine merges: `pair(i)` and `pair(i)` for i in 0..n.
type Twins = fn(u32) -> (Value, Value);

fn twin_kinds() -> Vec<(&'static str, Twins)> {
    vec![
        ("String and StringName", |i| {
            (s(&format!("k{i}")), sn(&format!("k{i}")))
        }),
        ("Float -0.0 and NaN payloads", |i| {
            if i == 0 {
                (Value::Float(0.0), Value::Float(NEG0))
            } else if i == 1 {
                (Value::Float(f64nan(0)), Value::Float(f64nan(1)))
            } else {
                (Value::Float(f64::from(i)), Value::Float(f64::from(i)))
            }
        }),
        ("Vector2 with -0.0", |i| {
            (
                Value::Vector2([f64::from(i), 0.0]),
                Value::Vector2([f64::from(i), NEG0]),
            )
        }),
        ("Color with NaN payloads", |i| {
            (
                Value::Color([i as f32, f32nan(0), 0.0, 1.0]),
                Value::Color([i as f32, f32nan(1), 0.0, 1.0]),
            )
        }),
        ("Projection with -0.0", |i| {
            let mut a = [NEG0; 16];
            a[5] = f64::from(i);
            let mut b = [0.0; 16];
            b[5] = f64::from(i);
            (
                Value::Projection(Box::new(a)),
                Value::Projection(Box::new(b)),
            )
        }),
        ("Array with -0.0", |i| {
            (
                arr(vec![Value::Float(0.0), Value::Int(i64::from(i))]),
                arr(vec![Value::Float(NEG0), Value::Int(i64::from(i))]),
            )
        }),
        ("Dictionary with StringName keys", |i| {
            (
                dict(vec![(s("k"), Value::Int(i64::from(i)))]),
                dict(vec![(sn("k"), Value::Int(i64::from(i)))]),
            )
        }),
        ("PackedFloat32Array with NaN payloads", |i| {
            (
                Value::PackedFloat32Array(vec![i as f32, f32nan(0)]),
                Value::PackedFloat32Array(vec![i as f32, f32nan(1)]),
            )
        }),
    ]
}

const N: u32 = 500;

/// The comparisons for n and 8n keys must grow about linearly (64 times would be quadratic) and
/// stay a few per key.
fn check_linear(kind: &str, keys: [u32; 2], probes: [u64; 2], failures: &mut Vec<String>) {
    let [small, large] = probes;
    let per_key = large as f64 / f64::from(keys[1]);
    eprintln!(
        "{kind:<40} {:>5} keys: {small:>8} comparisons, {:>5} keys: {large:>8} ({per_key:.2} per key)",
        keys[0], keys[1]
    );
    // 16 keys are scanned (at most 120 comparisons), then each key costs a probe or two.
    if large > 10 * small.max(120) || large > 2 * u64::from(keys[1]) + 120 {
        failures.push(format!(
            "{kind}: {small} comparisons for {} keys, {large} for {} keys",
            keys[0], keys[1]
        ));
    }
}

#[test]
fn distinct_keys_decode_in_linear_time() {
    let mut failures = Vec::new();
    for (kind, key) in distinct_kinds() {
        let mut probes = [0; 2];
        for (slot, n) in [N, 8 * N].into_iter().enumerate() {
            let entries = (0..n).map(|i| (key(i), Value::Nil)).collect();
            let (keys, made) = decode_counting(entries);
            assert_eq!(keys.len(), n as usize, "{kind}: distinct keys merged");
            probes[slot] = made;
        }
        check_linear(kind, [N, 8 * N], probes, &mut failures);
    }
    assert!(failures.is_empty(), "quadratic:\n{}", failures.join("\n"));
}

#[test]
fn keys_equal_to_nothing_decode_in_linear_time() {
    let mut failures = Vec::new();
    for (kind, key) in never_equal_kinds() {
        let mut probes = [0; 2];
        for (slot, n) in [N, 8 * N].into_iter().enumerate() {
            let entries = (0..n).map(|_| (key.clone(), Value::Nil)).collect();
            let (keys, made) = decode_counting(entries);
            assert_eq!(
                keys.len(),
                n as usize,
                "{kind}: keys that equal nothing merged"
            );
            probes[slot] = made;
        }
        check_linear(kind, [N, 8 * N], probes, &mut failures);
    }
    assert!(failures.is_empty(), "quadratic:\n{}", failures.join("\n"));
}

#[test]
fn merged_keys_decode_in_linear_time() {
    let mut failures = Vec::new();
    for (kind, twins) in twin_kinds() {
        let mut probes = [0; 2];
        for (slot, n) in [N, 8 * N].into_iter().enumerate() {
            let entries = (0..n)
                .flat_map(|i| {
                    let (a, b) = twins(i);
                    [(a, Value::Int(1)), (b, Value::Int(2))]
                })
                .collect();
            let (keys, made) = decode_counting(entries);
            assert_eq!(keys.len(), n as usize, "{kind}: twins not merged");
            probes[slot] = made;
        }
        check_linear(kind, [2 * N, 16 * N], probes, &mut failures);
    }
    assert!(failures.is_empty(), "quadratic:\n{}", failures.join("\n"));
}

/// A key that repeats keeps its first form and takes the last value, as in the engine.
#[test]
fn a_repeated_key_keeps_its_first_form_and_last_value() {
    for fillers in [0, 20] {
        let mut entries: Vec<(Value, Value)> =
            (0..fillers).map(|i| (Value::Int(i), Value::Nil)).collect();
        entries.push((sn("k"), Value::Int(1)));
        entries.push((s("k"), Value::Int(2)));
        let bytes = encode(&Value::dictionary(entries), &opts()).expect("encode");
        let (v, _) = decode(&bytes, &opts()).expect("decode");
        let Value::Dictionary(d) = v else {
            panic!("not a dictionary")
        };
        assert_eq!(d.entries.len(), fillers as usize + 1);
        assert!(d.entries.last() == Some(&(sn("k"), Value::Int(2))));
    }
}

/// Two Vector2 keys that differ at double precision (one sent as binary64 with denormal
/// components, one as binary32 zeros) are one key in a single-precision engine, which narrows
/// the first to (0, 0) as it decodes, and two in a double-precision one: Godot 4.6.3 keeps
/// `{(0, 0): 2}` and its double-precision build both entries (the probe "Vector2 denormal as
/// f64, 0.0 as f32" in `tests/engine_probes/dictionary_keys.gd` asks the standard engine).
#[test]
fn keys_that_narrow_to_one_merge_at_single_precision_only() {
    let mut bytes = Vec::new();
    for word in [27u32, 2, 0x0001_0005] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    for bits in [0x0000_0061_0000_0000u64, 0x0000_0062_0000_0000] {
        bytes.extend_from_slice(&bits.to_le_bytes());
    }
    for word in [2u32, 1, 5, 0, 0, 2, 2] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    let entries = |precision| {
        let opts = Options::new(Dialect::Godot4).with_precision(precision);
        match decode(&bytes, &opts) {
            Ok((Value::Dictionary(d), used)) if used == bytes.len() => d.entries.clone(),
            other => panic!("decoded {other:?}"),
        }
    };
    assert!(entries(Precision::Single) == [(Value::Vector2([0.0, 0.0]), Value::Int(2))]);
    let double = entries(Precision::Double);
    assert_eq!(double.len(), 2, "{double:?}");
    assert!(double[0].0 != Value::Vector2([0.0, 0.0]));
}

/// The values that key comparisons and digests visit while decoding `v`.
fn work_of(v: &Value) -> u64 {
    let bytes = encode(v, &opts()).expect("encode");
    let before = work();
    decode(&bytes, &opts()).expect("decode");
    work() - before
}

/// How the level below is held in a key.
type Wrap = fn(Value) -> Value;

/// `levels` Dictionaries, each with 16 Int keys and one key that holds the level below (through
/// `wrap`); the innermost key holds an Array of `payload` Ints.
fn nested_keys(levels: usize, payload: i64, wrap: Wrap) -> Value {
    let mut v = arr((0..payload).map(Value::Int).collect());
    for _ in 0..levels {
        let mut entries: Vec<(Value, Value)> =
            (0..16).map(|i| (Value::Int(i), Value::Nil)).collect();
        entries.push((wrap(v), Value::Nil));
        v = dict(entries);
    }
    v
}

#[test]
fn keys_nested_in_keys_are_visited_once() {
    let wraps: [(&str, Wrap); 4] = [
        ("the Dictionary below is the key", |v| v),
        ("in an Array", |v| arr(vec![v])),
        ("as the value of a one-entry Dictionary", |v| {
            dict(vec![(s("v"), v)])
        }),
        ("as the key of a one-entry Dictionary", |v| {
            dict(vec![(v, Value::Nil)])
        }),
    ];
    let mut failures = Vec::new();
    for (name, wrap) in wraps {
        // The values visited because of the 4000 Ints, with 8 and with 64 levels above them.
        let payload = |levels| {
            work_of(&nested_keys(levels, 4000, wrap)) - work_of(&nested_keys(levels, 0, wrap))
        };
        let (shallow, deep) = (payload(8), payload(64));
        eprintln!("{name:<45} payload visits, 8 levels: {shallow:>6}, 64 levels: {deep:>6}");
        // Once per level would make the deep figure 8 times the shallow one.
        if deep > shallow + shallow / 4 {
            failures.push(format!("{name}: {shallow} for 8 levels, {deep} for 64"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Two keys per Dictionary, alike but for their last value, `depth` levels deep.
fn alike_siblings(depth: u32, tag: i64) -> Value {
    if depth == 0 {
        return arr(vec![
            Value::Int(0),
            Value::Int(1),
            Value::Int(2),
            Value::Int(tag),
        ]);
    }
    dict(vec![
        (alike_siblings(depth - 1, 0), Value::Nil),
        (alike_siblings(depth - 1, 1), Value::Nil),
        (Value::Int(tag), Value::Nil),
    ])
}

fn count_values(v: &Value) -> u64 {
    1 + match v {
        Value::Array(a) => a.items.iter().map(count_values).sum(),
        Value::Dictionary(d) => d
            .entries
            .iter()
            .map(|(k, v)| count_values(k) + count_values(v))
            .sum(),
        _ => 0,
    }
}

#[test]
fn alike_keys_at_every_level_cost_a_constant_per_value() {
    let mut per_value = Vec::new();
    for depth in [4, 12] {
        let v = alike_siblings(depth, 0);
        let (values, visited) = (count_values(&v), work_of(&v));
        eprintln!("depth {depth:>2}: {values:>7} values, {visited:>8} visited");
        per_value.push(visited as f64 / values as f64);
    }
    // Comparing the two alike keys of each level would walk them both: a cost that grows with
    // the depth (n log n).
    assert!(
        per_value[1] <= 1.25 * per_value[0],
        "{per_value:?} values visited per value"
    );
}

/// Keys nested to the depth limit decode, and equal ones still merge. (Digests and comparisons
/// recurse as deep as the reader; unoptimised, that needs more than a test thread's stack, as the
/// other deep tests do.)
#[test]
fn keys_nested_to_the_depth_limit() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            let wraps: [(&str, usize, Wrap); 3] = [
                ("the Dictionary below is the key", 1020, |v| v),
                ("in an Array", 510, |v| arr(vec![v])),
                ("as the value of a one-entry Dictionary", 510, |v| {
                    dict(vec![(s("v"), v)])
                }),
            ];
            for (name, levels, wrap) in wraps {
                let key = nested_keys(levels, 1, wrap);
                // Twice the same deep key, after 16 others so that the index is used.
                let mut entries: Vec<(Value, Value)> =
                    (0..16).map(|i| (Value::Int(i), Value::Nil)).collect();
                entries.push((key.clone(), Value::Int(1)));
                entries.push((key, Value::Int(2)));
                let bytes = encode(&Value::dictionary(entries), &opts()).expect("encode");
                let (v, _) = decode(&bytes, &opts()).unwrap_or_else(|e| panic!("{name}: {e}"));
                let Value::Dictionary(d) = v else {
                    panic!("{name}: not a dictionary")
                };
                assert_eq!(d.entries.len(), 17, "{name}");
            }
        })
        .expect("spawn")
        .join()
        .expect("deep keys");
}

/// Pairs of keys and whether Godot 3 (3.2.3, 3.6.2) and Pandemonium (v4.9.0, v5.2.0) keep one
/// entry (true) or two when both are decoded into one Dictionary: 3.x's `Variant::hash_compare`,
/// observed with the headless engines (the Pandemonium golden corpora hold these as
/// `craft/dictionary_keys/...`). StringName rows are for Pandemonium only (Godot 3 has none).
#[test]
fn godot3_family_keys_merge_as_in_their_engines() {
    let one = |k: Value| dict(vec![(Value::Int(1), k)]);
    let table = [
        ("String, StringName", s("a"), sn("a"), false),
        ("StringName twice", sn("a"), sn("a"), true),
        (
            "Float NaN payloads",
            Value::Float(f64nan(0)),
            Value::Float(f64nan(1)),
            true,
        ),
        (
            "Float 0.0, -0.0",
            Value::Float(0.0),
            Value::Float(NEG0),
            true,
        ),
        ("Int 1, Float 1.0", Value::Int(1), Value::Float(1.0), false),
        (
            "[NaN], [NaN]",
            arr(vec![Value::Float(f64nan(0))]),
            arr(vec![Value::Float(f64nan(0))]),
            true,
        ),
        (
            "[0.0], [-0.0]",
            arr(vec![Value::Float(0.0)]),
            arr(vec![Value::Float(NEG0)]),
            true,
        ),
        (
            "[String], [StringName]",
            arr(vec![s("a")]),
            arr(vec![sn("a")]),
            false,
        ),
        ("{1: nil} twice", one(Value::Nil), one(Value::Nil), false),
        ("{} twice", dict(vec![]), dict(vec![]), false),
        (
            "[{}] twice",
            arr(vec![dict(vec![])]),
            arr(vec![dict(vec![])]),
            false,
        ),
        (
            "[[NaN]] twice",
            arr(vec![arr(vec![Value::Float(f64nan(0))])]),
            arr(vec![arr(vec![Value::Float(f64nan(0))])]),
            true,
        ),
    ];
    let has_string_name = |v: &Value| format!("{v:?}").contains("StringName");
    let mut wrong = Vec::new();
    for dialect in [
        Dialect::Godot3,
        Dialect::Pandemonium38,
        Dialect::Pandemonium5,
    ] {
        let opts = Options::new(dialect);
        for (name, a, b, merged) in &table {
            if dialect == Dialect::Godot3 && (has_string_name(a) || has_string_name(b)) {
                continue;
            }
            // Alone (the small-dictionary scan) and after 20 other keys (the hash index).
            for fillers in [0, 20] {
                let mut entries: Vec<(Value, Value)> = (0..fillers)
                    .map(|i| (Value::Int(1000 + i), Value::Nil))
                    .collect();
                entries.push((a.clone(), Value::Int(1)));
                entries.push((b.clone(), Value::Int(2)));
                let bytes = encode(&Value::dictionary(entries), &opts).expect("encode");
                let Ok((Value::Dictionary(d), _)) = decode(&bytes, &opts) else {
                    panic!("{name}: no dictionary");
                };
                if (d.entries.len() == fillers as usize + 1) != *merged {
                    wrong.push(format!("{dialect:?} {name} ({fillers} other keys)"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
