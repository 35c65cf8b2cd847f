//! The JSON projection (`--features json`) is lossless: for every input of the golden corpora
//! (tests/golden/*.json, bytes written by real engines, every dialect and precision they have:
//! the engine-made cases, the malformed inputs that decode, the NaN payloads of the reals
//! corpora), bytes → Value → JSON → Value gives the same Value, bit for bit, in compact and
//! pretty JSON, and so encoding it again gives the same bytes as encoding the first decode.
//! Under `FVC_CORPUS_STRIDE=N` (the arm64 run) every Nth input.
#![cfg(feature = "json")]

mod common;
mod corpus;

use fast_var_codec_core::json::{from_json, to_json, to_json_pretty};
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::value::{ContainerType, NodePath, Object, VariantType};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};
use serde_json::Value as Json;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Counts of one corpus: values checked, and how many of the engine's cases encode again to the
/// engine's own bytes (the others differ by what decoding then encoding changes, with or without
/// JSON: a Godot 3 NodePath's padding, a float written in fewer bytes …, see golden.rs).
#[derive(Default, Debug)]
struct Counts {
    values: usize,
    cases: usize,
    engine_bytes: usize,
}

/// The round trip of one decoded value.
fn check(v: &Value, opts: &Options, engine: Option<&[u8]>, what: &str, counts: &mut Counts) {
    let compact = to_json(v);
    let pretty = to_json_pretty(v);
    for text in [&compact, &pretty] {
        let back = from_json(text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert!(back == *v, "{what}: {v:?}\n{text}\nread back as {back:?}");
    }
    // The same bytes as the first decode gives again (also with the engine's bytes counted).
    let back = from_json(&compact).expect("read back");
    let first = encode(v, opts).map(|b| b.to_vec());
    let again = encode(&back, opts).map(|b| b.to_vec());
    assert_eq!(first, again, "{what}");
    if let Some(engine) = engine {
        counts.cases += 1;
        if first.as_deref() == Ok(engine) {
            counts.engine_bytes += 1;
        }
    }
    counts.values += 1;
}

fn corpus_options(corpus: &Json) -> Options {
    let dialect: Dialect = corpus["dialect"]
        .as_str()
        .expect("dialect")
        .parse()
        .expect("a known dialect");
    let precision = match corpus["precision"].as_str() {
        Some("double") => Precision::Double,
        _ => Precision::Single,
    };
    Options::new(dialect).with_precision(precision)
}

fn check_corpus_here(file: &str) -> Counts {
    let corpus = corpus::load(file);
    let base = corpus_options(&corpus);
    let mut counts = Counts::default();
    let mut undecodable = 0;
    let sampled = |(index, _): &(usize, _)| common::corpus::sampled(*index, false);
    for (_, case) in corpus["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .enumerate()
        .filter(sampled)
    {
        let bytes = hex(case["bytes"].as_str().expect("bytes"));
        let full = case["full_objects"].as_bool().unwrap_or(false);
        let opts = base
            .clone()
            .with_allow_objects(full)
            .with_full_objects(full);
        let name = case["name"].as_str().unwrap_or("?");
        match decode(&bytes, &opts) {
            Ok((v, _)) => check(
                &v,
                &opts,
                Some(&bytes),
                &format!("{file}: {name}"),
                &mut counts,
            ),
            Err(_) => undecodable += 1,
        }
    }
    for (_, m) in corpus["malformed"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .filter(sampled)
    {
        let bytes = hex(m["bytes"].as_str().expect("bytes"));
        let allow = m["allow_objects"].as_bool().unwrap_or(false);
        let opts = base.clone().with_allow_objects(allow);
        if let Ok((v, _)) = decode(&bytes, &opts) {
            let name = m["name"].as_str().unwrap_or("?");
            check(&v, &opts, None, &format!("{file}: {name}"), &mut counts);
        }
    }
    eprintln!(
        "{file}: {} values through JSON and back ({} engine cases, {} of them encoding again to the engine's bytes; {} malformed inputs that decode); {undecodable} engine cases do not decode",
        counts.values, counts.cases, counts.engine_bytes, counts.values - counts.cases
    );
    counts
}

/// In a thread with room for the corpora's 1024-level values in an unoptimised build.
fn check_corpus(file: &'static str) {
    let counts = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || check_corpus_here(file))
        .expect("a thread")
        .join()
        .expect("the check");
    assert!(
        counts.values > 100 / common::corpus::stride(),
        "{file}: only {} values",
        counts.values
    );
}

#[test]
fn godot4_6_3() {
    check_corpus("godot4_6_3.json");
}

#[test]
fn godot4_6_3_double() {
    check_corpus("godot4_6_3_double.json");
}

#[test]
fn godot3_6_2() {
    check_corpus("godot3_6_2.json");
}

#[test]
fn godot3_2_3() {
    check_corpus("godot3_2_3.json");
}

#[test]
fn pandemonium_4_9_0() {
    check_corpus("pandemonium_4_9_0.json");
}

#[test]
fn pandemonium_5_2_0() {
    check_corpus("pandemonium_5_2_0.json");
}

#[test]
fn reals_godot4_6_3() {
    check_corpus("reals_godot4_6_3.json");
}

#[test]
fn reals_godot4_6_3_double() {
    check_corpus("reals_godot4_6_3_double.json");
}

#[test]
fn reals_godot3_6_2() {
    check_corpus("reals_godot3_6_2.json");
}

#[test]
fn reals_godot3_2_3() {
    check_corpus("reals_godot3_2_3.json");
}

fn s(x: &str) -> Value {
    Value::String(x.into())
}

fn round_trips(v: &Value) -> String {
    let text = to_json(v);
    assert_eq!(from_json(&text).as_ref(), Ok(v), "{text}");
    assert_eq!(from_json(&to_json_pretty(v)).as_ref(), Ok(v), "{text}");
    text
}

/// Keys that look like tags stay keys: the `$Dictionary` form.
#[test]
fn keys_that_look_like_tags_round_trip() {
    let v = Value::from_iter([("$type", Value::from("Vector2")), ("x", Value::from(1))]);
    assert_eq!(
        round_trips(&v),
        r#"{"$Dictionary":[["$type","Vector2"],["x",1]]}"#
    );
    for key in ["$int", "$float", "$Dictionary", "$", "$$"] {
        round_trips(&Value::from_iter([(key, Value::Nil)]));
        round_trips(&Value::from_iter([(key, Value::from_iter([(key, 1)]))]));
    }
    // A key without `$` keeps the plain form, whatever else it looks like.
    assert_eq!(
        round_trips(&Value::from_iter([("type$", 1)])),
        r#"{"type$":1}"#
    );
}

#[test]
fn every_kind_round_trips() {
    let values = vec![
        Value::Nil,
        Value::Int(1 << 53),
        Value::Int((1 << 53) + 1),
        Value::Int(i64::MIN),
        Value::Float(0.0),
        Value::Float(-0.0),
        Value::Float(1e300),
        Value::Float(f64::from_bits(0xfff0_0000_0000_0001)),
        Value::string_name("jump"),
        Value::NodePath(Box::new(NodePath::from("/root/Player:position:x"))),
        Value::NodePath(Box::new(NodePath {
            names: vec!["a/b".into(), String::new()],
            subnames: vec!["c:d".into()],
            absolute: false,
        })),
        Value::Rid(u64::MAX),
        Value::ObjectId(5),
        Value::Callable,
        Value::Signal {
            name: "hit".into(),
            object_id: u64::MAX - 1,
        },
        Value::Object(Box::new(Object {
            class: "Resource".into(),
            properties: vec![("a".into(), Value::Int(1)), ("a".into(), Value::Nil)],
        })),
        Value::typed_array(
            ContainerType::Builtin(VariantType::Int),
            vec![Value::Int(1)],
        ),
        Value::typed_array(ContainerType::Builtin(VariantType::Object), vec![]),
        Value::typed_array(ContainerType::Class("Node".into()), vec![]),
        Value::typed_array(ContainerType::Class("lower".into()), vec![]),
        Value::typed_array(ContainerType::Class("int".into()), vec![]),
        Value::typed_array(ContainerType::Script("res://a.gd".into()), vec![]),
        Value::typed_array(ContainerType::Script("user://a.gd".into()), vec![]),
        Value::typed_dictionary(
            ContainerType::Builtin(VariantType::String),
            ContainerType::Untyped,
            vec![(s("a"), Value::Vector3i([1, -2, 3]))],
        ),
        Value::dictionary(vec![(Value::Int(1), s("x")), (s("x"), Value::Int(1))]),
        Value::dictionary(vec![(s("x"), Value::Int(1)), (s("x"), Value::Int(2))]),
        Value::PackedByteArray((0..=255).collect()),
        Value::PackedInt64Array(vec![i64::MIN, 0, i64::MAX]),
        Value::PackedFloat32Array(vec![0.1, f32::NAN, -0.0, f32::INFINITY]),
        Value::PackedStringArray(vec!["a".into(), "\u{0}\"\\\n".into()]),
        Value::PackedColorArray(vec![[0.1, 0.2, 0.3, 1.0]]),
        Value::PackedVector4Array(vec![[1.0, 2.0, 3.0, f64::NAN]]),
        Value::Projection(Box::new([0.5; 16])),
        s("\u{1F600} \u{7f} \u{2028}"),
    ];
    for v in &values {
        round_trips(v);
    }
    round_trips(&Value::array(values));
}

#[test]
fn errors_name_the_place() {
    let err = from_json("{\"a\": [1, {\"$Vector3\": [1, 2]}]}").unwrap_err();
    assert_eq!(err.path, "$.a[1].$Vector3");
    assert_eq!(err.line_column, None);
    let err = from_json("{\"a\": [1,\n  {\"b\": tru}]}").unwrap_err();
    assert_eq!(err.path, "$.a[1].b");
    assert_eq!(err.line_column, Some((2, 9)));
    let err = from_json(r#"{"x": {"$type": "Vector2"}}"#).unwrap_err();
    assert_eq!(err.path, "$.x");
    assert!(err.message.contains("unknown tag \"$type\""), "{err}");
    let err = from_json(r#"[{"$float": 1, "y": 2}]"#).unwrap_err();
    assert_eq!(err.path, "$[0]");
    let err = from_json(r#"{"a b": {"$Array": {"type": "str", "items": []}}}"#).unwrap_err();
    assert_eq!(err.path, r#"$["a b"].$Array.type"#);
    assert!(err.to_string().contains("did you mean \"String\""), "{err}");
    assert!(from_json("[1] 2").is_err());
    assert!(from_json(&"[".repeat(5000)).is_err());
}

#[test]
fn plain_json_reads_as_plain_values() {
    let v = from_json(r#"{"b": [true, null, 1.5, -3, "x"], "a": {}}"#).unwrap();
    assert_eq!(
        v,
        Value::from_iter([
            (
                "b",
                Value::array(vec![
                    Value::Bool(true),
                    Value::Nil,
                    Value::Float(1.5),
                    Value::Int(-3),
                    s("x")
                ])
            ),
            ("a", Value::dictionary(vec![])),
        ])
    );
}
