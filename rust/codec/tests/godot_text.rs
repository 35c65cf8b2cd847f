//! Reading Godot's text Variant format (`Value::from_godot_text`) against the engine: every text
//! Godot 4.6.3's `var_to_str` wrote for the values of the Godot 4 golden corpora
//! (tests/golden/var_to_str_godot4_6_3*.jsonl, made by tests/golden/gen/godot4/var_to_str.gd from
//! the corpus's bytes) reads as the engine's `str_to_var` read it (else as the value the core
//! decodes from the engine's bytes), and `Display` of it writes the engine's text again where the
//! engine's reading does. Then texts the engine's reader would act on (objects,
//! resources, scripts) and malformed or hostile texts: refused with an error, never a panic.

mod common;
mod corpus;

use std::collections::HashMap;
use std::path::PathBuf;

use fast_var_codec_core::error::{DecodeReason, ErrorCode, LimitKind};
use fast_var_codec_core::options::{AllowList, Limits, Precision};
use fast_var_codec_core::value::{ContainerType, VariantType};
use fast_var_codec_core::{decode, CodecError, Dialect, Options, Value};
use serde_json::Value as Json;

fn golden(name: &str) -> PathBuf {
    corpus::golden_dir().join(name)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Every [`common::corpus::stride`]th case of each corpus is checked.
fn stride() -> usize {
    common::corpus::stride()
}

/// Each case of a corpus that the engine decoded (every [`stride`]th): name, full_objects,
/// bytes.
fn corpus_cases(corpus: &str) -> Vec<(String, bool, Vec<u8>)> {
    let text = std::fs::read_to_string(golden(corpus)).expect("corpus");
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("{\"name\":\"") else {
            continue;
        };
        if !line.contains("\"full_objects\":") {
            continue;
        }
        let name = &rest[..rest.find('"').expect("name")];
        let full = line.contains("\"full_objects\":true");
        let at = line.find("\"bytes\":\"").expect("bytes") + 9;
        let bytes = &line[at..at + line[at..].find('"').expect("bytes end")];
        if bytes.is_empty() || line[at + bytes.len()..].starts_with("\",\"decoded\":null") {
            continue;
        }
        out.push((name.to_owned(), full, hex(bytes)));
    }
    out.into_iter().step_by(stride()).collect()
}

fn engine_texts(file: &str) -> HashMap<String, (String, Option<Vec<u8>>)> {
    let texts = std::fs::read_to_string(golden(file)).expect("texts");
    let mut lines = texts.lines();
    let head: Json = serde_json::from_str(lines.next().expect("head")).expect("head json");
    assert!(head["engine"].as_str().unwrap_or("").starts_with("4.6.3"));
    lines
        .map(|l| {
            let j: Json = serde_json::from_str(l).expect("line json");
            let text = String::from_utf8(hex(j["text"].as_str().expect("text")))
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            let read = j["read"].as_str().map(hex);
            (j["name"].as_str().expect("name").to_owned(), (text, read))
        })
        .collect()
}

/// Whether `parsed` (read from the engine's text) is `decoded` (from the engine's bytes) as far
/// as the text carries it, checked everywhere else exactly: a float is carried as its digits
/// (the engine writes -0.0 as `0`, every NaN as `nan`, and a binary64 number that is a binary32
/// one with the binary32's shortest digits), so floats compare by their text; a Dictionary's
/// entries are written sorted, so they compare by key whatever their order; a Signal is written
/// `Signal()`; containers nested more than 100 levels deep are written empty (the engine's
/// writer's `MAX_RECURSION`). Two container types are one in the text: `Object` is both a typed
/// container of any object and one of the class `Object` (which the engine reads as the first), and
/// Godot 4.6.3 writes a Dictionary's script value type as its key's script when both are scripts.
fn same_as_text_carries(parsed: &Value, decoded: &Value, depth: usize) -> bool {
    same_as_carried_by(parsed, decoded, depth, godot_text_of)
}

/// [`same_as_text_carries`] for the text that `text` writes (Godot 4's or Godot 3's).
fn same_as_carried_by(
    parsed: &Value,
    decoded: &Value,
    depth: usize,
    text: fn(&Value) -> String,
) -> bool {
    if parsed.variant_type() != decoded.variant_type() {
        return false;
    }
    match (parsed, decoded) {
        (Value::Signal { .. }, Value::Signal { .. }) => true,
        (Value::Array(p), Value::Array(d)) => {
            same_type(&p.element, &d.element)
                && (depth > 100
                    || (p.items.len() == d.items.len()
                        && p.items
                            .iter()
                            .zip(&d.items)
                            .all(|(p, d)| same_as_carried_by(p, d, depth + 1, text))))
        }
        (Value::Dictionary(p), Value::Dictionary(d)) => {
            let d_value = match (&d.key, &d.value) {
                (ContainerType::Script(k), ContainerType::Script(_)) => {
                    ContainerType::Script(k.clone())
                }
                (_, v) => v.clone(),
            };
            if !same_type(&p.key, &d.key) || !same_type(&p.value, &d_value) {
                return false;
            }
            if depth > 100 {
                return true;
            }
            let sorted = |d: &'_ fast_var_codec_core::value::Dictionary| {
                let mut e: Vec<(String, Value, Value)> = d
                    .iter()
                    .map(|(k, v)| (text(k), k.clone(), v.clone()))
                    .collect();
                e.sort_by(|a, b| a.0.cmp(&b.0));
                e
            };
            let (p, d) = (sorted(p), sorted(d));
            p.len() == d.len()
                && p.iter().zip(&d).all(|(p, d)| {
                    p.0 == d.0
                        && same_as_carried_by(&p.1, &d.1, depth + 1, text)
                        && same_as_carried_by(&p.2, &d.2, depth + 1, text)
                })
        }
        (Value::Object(p), Value::Object(d)) => {
            p.class == d.class
                && p.properties.len() == d.properties.len()
                && p.properties
                    .iter()
                    .zip(&d.properties)
                    .all(|(p, d)| p.0 == d.0 && same_as_carried_by(&p.1, &d.1, depth + 1, text))
        }
        (p, d) if has_floats(p) => text(p) == text(d),
        (p, d) => p == d,
    }
}

fn same_type(parsed: &ContainerType, decoded: &ContainerType) -> bool {
    match (parsed, decoded) {
        (ContainerType::Builtin(VariantType::Object), ContainerType::Class(c)) => c == "Object",
        (p, d) => p == d,
    }
}

/// A value's text (its floats as the engine's digits), as a String: `Value` compares with text
/// as a String value, which is not this.
fn godot_text_of(v: &Value) -> String {
    v.to_string()
}

fn godot3_text_of(v: &Value) -> String {
    v.godot3_text().to_string()
}

fn has_floats(v: &Value) -> bool {
    matches!(
        v,
        Value::Float(_)
            | Value::Vector2(_)
            | Value::Rect2(_)
            | Value::Vector3(_)
            | Value::Transform2D(_)
            | Value::Vector4(_)
            | Value::Plane(_)
            | Value::Quaternion(_)
            | Value::Aabb(_)
            | Value::Basis(_)
            | Value::Transform3D(_)
            | Value::Projection(_)
            | Value::Color(_)
            | Value::PackedFloat32Array(_)
            | Value::PackedFloat64Array(_)
            | Value::PackedVector2Array(_)
            | Value::PackedVector3Array(_)
            | Value::PackedVector4Array(_)
            | Value::PackedColorArray(_)
    )
}

/// Runs `f` on a thread with a large stack (the corpus nests 1,024 levels).
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no panic")
}

fn check(corpus: &str, texts: &str, precision: Precision) {
    let engine = engine_texts(texts);
    let cases = corpus_cases(corpus);
    let (mut same_value, mut same_text, mut failures) = (0, 0, Vec::new());
    for (name, full, bytes) in cases {
        let Some((text, engine_read)) = engine.get(&name).cloned() else {
            failures.push(format!("{name}: no engine text"));
            continue;
        };
        let opts = Options::new(Dialect::Godot4)
            .with_precision(precision)
            .with_allow_objects(full);
        // What the engine's str_to_var made of the text, where the golden file has it (not for
        // full objects): the engine's reader keeps 18 digits of a real, so a real it wrote can
        // read back as another (3.402823466385289e+38 as FLT_MAX), and so must the core's.
        let engine_read = match engine_read.map(|b| decode(&b, &opts)) {
            Some(Ok((v, _))) => Some(v),
            Some(Err(e)) => {
                failures.push(format!(
                    "{name}: the engine's read value does not decode: {e}"
                ));
                continue;
            }
            None => None,
        };
        let decoded = match decode(&bytes, &opts) {
            Ok((v, _)) => v,
            Err(e) => {
                failures.push(format!("{name}: the core does not decode it: {e}"));
                continue;
            }
        };
        let (text2, opts2) = (text.clone(), opts.clone());
        let (parsed, decoded_text, parsed_text) = on_big_stack(move || {
            let parsed = Value::from_godot_text(&text2, &opts2);
            let decoded_text = decoded.to_string();
            let parsed_text = parsed.as_ref().ok().map(Value::to_string);
            (
                parsed.map(|p| (p, decoded.clone())),
                decoded_text,
                parsed_text,
            )
        });
        if let Some(why) = engine_text_unreadable(&name) {
            assert!(parsed.is_err(), "{name}: read, though {why}");
            continue;
        }
        let (parsed, decoded) = match parsed {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: does not parse: {e}\n  {text:.300}"));
                continue;
            }
        };
        // Where the core's Display writes the engine's text (var_to_str.rs skips the rest), the
        // text reads as the engine read it, else as the value of the engine's bytes.
        let expected = engine_read.unwrap_or_else(|| decoded.clone());
        let expected_text = expected.to_string();
        if decoded_text == text {
            same_value += 1;
            let (parsed2, decoded2) = (parsed.clone(), expected.clone());
            if !on_big_stack(move || same_as_text_carries(&parsed2, &decoded2, 0)) {
                failures.push(format!(
                    "{name}: parsed {:.300}\n  decoded {:.300}",
                    format!("{parsed:?}"),
                    format!("{decoded:?}")
                ));
                continue;
            }
        }
        // And Display of what was read writes the engine's text again, except where it cannot:
        // the engine's digits of two floats, and the engine's text of an object whose script
        // declares more than the wire carried (see var_to_str.rs).
        if parsed_text.as_deref() == Some(text.as_str()) {
            same_text += 1;
        } else if decoded_text == text && expected_text == text {
            failures.push(format!(
                "{name}: Display of the parsed value differs\n  engine: {text:.300}\n  core:   {:.300}",
                parsed_text.unwrap_or_default()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{corpus}: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        same_value >= 500 / stride(),
        "only {same_value} compared by value"
    );
    assert!(
        same_text >= 500 / stride(),
        "only {same_text} compared by text"
    );
    eprintln!("{corpus}: {same_value} values and {same_text} texts as the engine's");
}

/// Cases whose engine text the engine's own reader would not read back, and why: refused here.
fn engine_text_unreadable(name: &str) -> Option<&'static str> {
    // Godot 4.6.3 writes a script-typed Dictionary's value type as its key's script: its values
    // (plain Resources) do not fit the type written, and `str_to_var` leaves the Dictionary empty.
    (name == "dictionary/typed/script_Resource/full")
        .then_some("the value type written is the key's script")
}

#[test]
fn engine_text_reads_as_the_engines_bytes() {
    check(
        "godot4_6_3.json",
        "var_to_str_godot4_6_3.jsonl",
        Precision::Single,
    );
}

#[test]
fn double_engine_text_reads_as_the_engines_bytes() {
    check(
        "godot4_6_3_double.json",
        "var_to_str_godot4_6_3_double.jsonl",
        Precision::Double,
    );
}

/// Each case of a Godot 3 corpus that the engine decoded (its lines are
/// `{"bytes":…,"decoded":…,"full_objects":…,"name":…}`), every [`stride`]th: name,
/// full_objects, bytes.
fn godot3_cases(corpus: &str) -> Vec<(String, bool, Vec<u8>)> {
    let text = std::fs::read_to_string(golden(corpus)).expect("corpus");
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("{\"bytes\":\"") else {
            continue;
        };
        let bytes = &rest[..rest.find('"').expect("bytes end")];
        if bytes.is_empty() || rest[bytes.len()..].starts_with("\",\"decoded\":null") {
            continue;
        }
        let Some(full_at) = line.find("\"full_objects\":") else {
            continue;
        };
        let full = line[full_at..].starts_with("\"full_objects\":true");
        let name_at = full_at + line[full_at..].find(",\"name\":\"").expect("name") + 9;
        let name = &line[name_at..name_at + line[name_at..].find('"').expect("name end")];
        out.push((name.to_owned(), full, hex(bytes)));
    }
    out.into_iter().step_by(stride()).collect()
}

/// Godot 3's text (`var2str`, which writes `Vector2( 1, 2 )`, `Transform( … )`, `PoolIntArray( … )`):
/// for every value of the Godot 3.6.2 golden corpus, the text Godot 3.6.2 wrote
/// (tests/golden/var2str_godot3_6_2.jsonl, made by tests/golden/gen/godot3/var2str.gd) is
/// `Value::godot3_text` of the value the core decodes from the engine's bytes, and reads, in the
/// Godot 3 dialect, as that value as far as the text carries it (reals with six digits).
#[test]
fn godot3_text_is_the_engines_and_reads_back() {
    let texts = std::fs::read_to_string(golden("var2str_godot3_6_2.jsonl")).expect("texts");
    let mut lines = texts.lines();
    let head: Json = serde_json::from_str(lines.next().expect("head")).expect("head json");
    assert!(head["engine"].as_str().unwrap_or("").starts_with("3.6.2"));
    let engine: HashMap<String, String> = lines
        .map(|l| {
            let j: Json = serde_json::from_str(l).expect("line json");
            let text = String::from_utf8(hex(j["text"].as_str().expect("text")))
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            (j["name"].as_str().expect("name").to_owned(), text)
        })
        .collect();
    let (mut written, mut read, mut skipped, mut failures) = (0, 0, 0, Vec::new());
    for (name, full, bytes) in godot3_cases("godot3_6_2.json") {
        let Some(text) = engine.get(&name).cloned() else {
            failures.push(format!("{name}: no engine text"));
            continue;
        };
        if godot3_text_differs(&name).is_some() {
            skipped += 1;
            continue;
        }
        let opts = Options::new(Dialect::Godot3).with_allow_objects(full);
        let decoded = match decode(&bytes, &opts) {
            Ok((v, _)) => v,
            Err(e) => {
                failures.push(format!("{name}: the core does not decode it: {e}"));
                continue;
            }
        };
        let (text2, decoded2) = (text.clone(), decoded.clone());
        let core_text = on_big_stack(move || godot3_text_of(&decoded2));
        if core_text == text {
            written += 1;
        } else {
            failures.push(format!(
                "{name}: written differently\n  engine: {text:.300}\n  core:   {core_text:.300}"
            ));
        }
        // Godot 3 writes an RID as nothing: such a text does not read.
        if contains_rid(&decoded) {
            continue;
        }
        let outcome = on_big_stack(move || {
            let parsed = Value::from_godot_text(&text2, &opts).map_err(|e| e.to_string())?;
            if same_as_carried_by(&parsed, &decoded, 0, godot3_text_of) {
                Ok(())
            } else {
                Err(format!("parsed {parsed:?}\n  decoded {decoded:?}"))
            }
        });
        match outcome {
            Ok(()) => read += 1,
            Err(e) => failures.push(format!("{name}: {e:.600}\n  text: {text:.300}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        written >= 300 / stride(),
        "only {written} written as the engine's"
    );
    assert!(read >= 290 / stride(), "only {read} read");
    assert!(skipped <= 3, "{skipped} skipped");
    eprintln!("godot3_6_2.json: {written} texts written as the engine's, {read} read back");
}

/// Cases whose Godot 3 text the core does not write, and why. Nothing else is skipped.
fn godot3_text_differs(name: &str) -> Option<&'static str> {
    match name {
        // Code points beyond Unicode: the engine's text of them is not UTF-8, and the jsonl holds
        // what is.
        "string/nonunicode/above_10ffff" | "string/nonunicode/5byte" => {
            Some("a code point beyond Unicode")
        }
        // Godot 3 orders two PoolStringArray keys, which neither Godot 4 nor the core's writer
        // does (they stay in insertion order).
        "random/24" => Some("the order of two PoolStringArray keys"),
        _ => None,
    }
}

fn contains_rid(v: &Value) -> bool {
    match v {
        Value::Rid(_) => true,
        Value::Array(a) => a.items.iter().any(contains_rid),
        Value::Dictionary(d) => d.iter().any(|(k, v)| contains_rid(k) || contains_rid(v)),
        Value::Object(o) => o.properties.iter().any(|(_, v)| contains_rid(v)),
        _ => false,
    }
}

/// The spellings the engine's reader takes beyond what its writer writes (Godot 3's names, `#rgb`
/// colors, base64 bytes, exponents without digits, escapes, comments, ints past 64 bits, typed
/// containers that convert, keys that merge …): each text of
/// tests/golden/gen/godot4/str_to_var_texts.json reads as the value Godot 4.6.3's `str_to_var`
/// made of it (its `var_to_bytes` in tests/golden/str_to_var_godot4_6_3.jsonl, made by
/// tests/golden/gen/godot4/str_to_var.gd), exactly.
/// Typed containers with an element that does not convert: the engine's reader logs an error and
/// leaves the container empty; the core refuses the text with the element's place.
const REFUSED: &[&str] = &[
    "Array[int]([1, \"x\", 2])",
    "Dictionary[int, int]({1: \"x\", 2: 3})",
    "Dictionary[int, int]({\"k\": 1, 2: 3})",
];

#[test]
fn spellings_read_as_the_engines_str_to_var() {
    let lines = std::fs::read_to_string(golden("str_to_var_godot4_6_3.jsonl")).expect("lines");
    let mut lines = lines.lines();
    let head: Json = serde_json::from_str(lines.next().expect("head")).expect("head json");
    assert!(head["engine"].as_str().unwrap_or("").starts_with("4.6.3"));
    let (mut checked, mut failures) = (0, Vec::new());
    for line in lines {
        let j: Json = serde_json::from_str(line).expect("line json");
        let text = String::from_utf8(hex(j["text"].as_str().expect("text"))).expect("utf-8");
        let opts = Options::default();
        let (engine, _) = decode(&hex(j["bytes"].as_str().expect("bytes")), &opts).expect("bytes");
        checked += 1;
        let refused = REFUSED.contains(&text.as_str());
        match Value::from_godot_text(&text, &opts) {
            Err(CodecError::Decode {
                reason: DecodeReason::DroppedElement { .. },
                ..
            }) if refused => {}
            _ if refused => failures.push(format!("{text:?}: not refused")),
            Ok(v) if v == engine => {}
            Ok(v) => failures.push(format!("{text:?}: core {v:?}, engine {engine:?}")),
            Err(e) => failures.push(format!("{text:?}: {e}, engine {engine:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 80, "only {checked}");
}

fn parse(text: &str) -> Result<Value, CodecError> {
    Value::from_godot_text(text, &Options::default())
}

fn reason(e: CodecError) -> DecodeReason {
    match e {
        CodecError::Decode { reason, .. } => reason,
        e => panic!("not a decode error: {e}"),
    }
}

#[test]
fn every_scalar_and_its_spellings() {
    let cases: Vec<(&str, Value)> = vec![
        ("null", Value::Nil),
        ("nil", Value::Nil),
        ("true", Value::Bool(true)),
        ("-12", Value::Int(-12)),
        ("1.5", Value::Float(1.5)),
        ("1.", Value::Float(1.0)),
        ("2e3", Value::Float(2000.0)),
        ("1e+20", Value::Float(1e20)),
        ("1.5E-3", Value::Float(1.5e-3)),
        ("1e", Value::Float(1.0)),
        ("inf", Value::Float(f64::INFINITY)),
        ("-inf", Value::Float(f64::NEG_INFINITY)),
        ("inf_neg", Value::Float(f64::NEG_INFINITY)),
        ("9223372036854775807", Value::Int(i64::MAX)),
        ("99999999999999999999", Value::Int(i64::MAX)),
        ("-99999999999999999999", Value::Int(i64::MIN)),
        (
            "\"a\\tb\\n\\\"q\\\" \\\\ \\u00e9 \\U01F600 \\ud83d\\ude00 \\x\"",
            Value::from("a\tb\n\"q\" \\ é 😀 😀 x"),
        ),
        ("\"two\nlines\"", Value::from("two\nlines")),
        ("&\"name\"", Value::string_name("name")),
        // Display escapes BEL and VT so; they read back as written (Godot's reader takes them
        // for `a` and `v`).
        ("&\"\\a\\v\"", Value::string_name("\u{7}\u{b}")),
        ("@\"name\"", Value::string_name("name")),
        ("NodePath(\"/root/a:b\")", Value::node_path("/root/a:b")),
        ("Vector2( 1, 2 )", Value::vector2(1.0, 2.0)),
        (
            "Vector2(inf, -inf)",
            Value::vector2(f64::INFINITY, f64::NEG_INFINITY),
        ),
        ("Vector2i(1, 2.9)", Value::Vector2i([1, 2])),
        ("Quat(0, 0, 0, 1)", Value::quaternion(0.0, 0.0, 0.0, 1.0)),
        ("Color(1, 0, 0, 1)", Value::Color([1.0, 0.0, 0.0, 1.0])),
        // The engine reads a color only with a character after it: `#f00` alone is null there.
        ("#ff000080\n", Value::Color([1.0, 0.0, 0.0, 128.0 / 255.0])),
        ("#f00 ", Value::Color([1.0, 0.0, 0.0, 1.0])),
        ("RID()", Value::Rid(0)),
        ("RID(42)", Value::Rid(42)),
        ("Callable()", Value::Callable),
        (
            "Signal()",
            Value::Signal {
                name: "".into(),
                object_id: 0,
            },
        ),
        (
            "PackedByteArray(\"AQID\")",
            Value::PackedByteArray(vec![1, 2, 3]),
        ),
        ("PackedByteArray(\"\")", Value::PackedByteArray(vec![])),
        (
            "PoolByteArray( 1, 2, 256 )",
            Value::PackedByteArray(vec![1, 2, 0]),
        ),
        (
            "PoolIntArray( 1, -2 )",
            Value::PackedInt32Array(vec![1, -2]),
        ),
        (
            "PackedInt64Array(1099511627776)",
            Value::PackedInt64Array(vec![1 << 40]),
        ),
        ("PoolRealArray( 0.5 )", Value::PackedFloat32Array(vec![0.5])),
        (
            "PackedFloat64Array(0.1)",
            Value::PackedFloat64Array(vec![0.1]),
        ),
        (
            "PoolStringArray( \"a\", \"\" )",
            Value::PackedStringArray(vec!["a".into(), "".into()]),
        ),
        // A last incomplete vector is dropped, as the engine drops it.
        (
            "PackedVector2Array(1, 2, 3)",
            Value::PackedVector2Array(vec![[1.0, 2.0]]),
        ),
        (
            "PackedColorArray(1, 1, 1, 1)",
            Value::PackedColorArray(vec![[1.0, 1.0, 1.0, 1.0]]),
        ),
        ("; a comment\n[1, ; another\n2]", Value::from(vec![1, 2])),
    ];
    for (text, want) in cases {
        assert_eq!(
            parse(text).unwrap_or_else(|e| panic!("{text}: {e}")),
            want,
            "{text}"
        );
    }
    // Godot 3's Transform is Godot 4's Transform3D.
    assert_eq!(
        parse("Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9 )")
            .unwrap()
            .to_string(),
        "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9)"
    );
    // A real_t component is rounded to binary32 by a single-precision engine, not by a double one.
    let single = parse("Vector2(0.1, 0)").unwrap();
    assert_eq!(single, Value::vector2(f64::from(0.1f32), 0.0));
    let double = Options::default().with_precision(Precision::Double);
    assert_eq!(
        Value::from_godot_text("Vector2(0.1, 0)", &double).unwrap(),
        Value::vector2(0.1, 0.0)
    );
    // A float on its own is binary64 in either.
    assert_eq!(parse("0.1").unwrap(), Value::Float(0.1));
}

#[test]
fn typed_containers_convert_as_the_engines_reader_does() {
    let v = parse("Array[float]([1, 2.5])").unwrap();
    assert_eq!(v.to_string(), "Array[float]([1.0, 2.5])");
    let v = parse("Dictionary[String, int]({\n\"a\": 1,\n\"a\": 2\n})").unwrap();
    assert_eq!(v.to_string(), "Dictionary[String, int]({\n\"a\": 2\n})");
    // Without objects, an object type is held as the id form, as the binary decode holds it.
    let v = parse("Array[Node]([])").unwrap();
    let Value::Array(a) = v else { panic!() };
    assert_eq!(a.element, ContainerType::Class("EncodedObjectAsID".into()));
    // With objects, a class or script type must be on the allow-list.
    let list = Options::default()
        .with_allow_objects(true)
        .with_allowed_objects(Some(AllowList::new().with_class("Resource")));
    assert!(Value::from_godot_text("Array[Resource]([])", &list).is_ok());
    let e = Value::from_godot_text("Array[Node]([])", &list).unwrap_err();
    assert_eq!(e.code(), ErrorCode::Unauthorized, "{e}");
    let e = Value::from_godot_text("Array[Resource(\"res://x.gd\")]([])", &list).unwrap_err();
    assert!(matches!(reason(e), DecodeReason::NotAllowed(s) if s.contains("res://x.gd")));
    // A script type that is no res:// path: held as the id form without objects, refused with
    // them, as the binary decode does.
    let user = "Array[Resource(\"user://x.gd\")]([])";
    let Value::Array(a) = parse(user).unwrap() else {
        panic!()
    };
    assert_eq!(a.element, ContainerType::Class("EncodedObjectAsID".into()));
    let e = Value::from_godot_text(user, &list).unwrap_err();
    assert!(matches!(reason(e), DecodeReason::BadContainerType(_)));
}

#[test]
fn objects_and_resources_are_refused_or_kept_as_data() {
    let node = "Object(Node,\"name\":\"n\",\"script\":Resource(\"res://evil.gd\"))\n";
    // Off by default, as bytes_to_var.
    let e = parse(node).unwrap_err();
    assert_eq!(reason(e), DecodeReason::ObjectsNotAllowed);
    let e = parse("Resource(\"res://save.tres\")").unwrap_err();
    assert_eq!(reason(e), DecodeReason::ObjectsNotAllowed);
    let e = parse("[ExtResource(\"1_abc\")]").unwrap_err();
    assert_eq!(reason(e), DecodeReason::ObjectsNotAllowed);

    // On, the allow-list decides; the script must be admitted with the class.
    let only_node = Options::default()
        .with_allow_objects(true)
        .with_allowed_objects(Some(AllowList::new().with_class("Node")));
    let e = Value::from_godot_text(node, &only_node).unwrap_err();
    assert!(
        matches!(reason(e), DecodeReason::NotAllowed(s) if s.contains("res://evil.gd")),
        "the script is judged"
    );
    let e = Value::from_godot_text("Object(Image,\"data\":{})", &only_node).unwrap_err();
    assert!(matches!(reason(e), DecodeReason::NotAllowed(s) if s.contains("Image")));
    let e = Value::from_godot_text("Resource(\"res://a.tres\")", &only_node).unwrap_err();
    assert!(matches!(reason(e), DecodeReason::NotAllowed(s) if s.contains("res://a.tres")));

    let with_script = Options::default()
        .with_allow_objects(true)
        .with_allowed_objects(Some(
            AllowList::new().with_script("res://evil.gd", Some("Node")),
        ));
    let v = Value::from_godot_text(node, &with_script).unwrap();
    let Value::Object(o) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(o.class, "Node");
    // The script is a path, never code.
    assert_eq!(
        o.properties,
        vec![
            ("name".to_string(), Value::from("n")),
            ("script".to_string(), Value::from("res://evil.gd"))
        ]
    );
    assert_eq!(v.to_string(), node);

    // A script property is null or a res:// path: nothing else is taken for one.
    let any = Options::default()
        .with_allow_objects(true)
        .with_allowed_objects(Some(AllowList::any()));
    for bad in [
        "Object(Node,\"script\":\"res://a.gd\")",
        "Object(Node,\"script\":Resource(\"user://a.gd\"))",
        "Object(Node,\"script\":Object(GDScript,\"source_code\":\"func _init(): pass\"))",
    ] {
        let e = Value::from_godot_text(bad, &any).unwrap_err();
        assert!(
            matches!(reason(e.clone()), DecodeReason::Refused(s) if s.contains("script")),
            "{bad}: {e}"
        );
    }
    // A resource reference stays a reference.
    let v = Value::from_godot_text("Resource(\"uid://abc\", \"res://a.tres\")", &any).unwrap();
    let Value::Object(o) = v else { panic!() };
    assert_eq!(o.class, "Resource");
    assert_eq!(
        o.properties,
        vec![("resource_path".to_string(), Value::from("res://a.tres"))]
    );

    // The id form is data, and needs no objects.
    let v = parse("Object(EncodedObjectAsID,\"object_id\":-5,\"script\":null)").unwrap();
    assert_eq!(v, Value::ObjectId(-5i64 as u64));
    assert!(parse("Object(EncodedObjectAsID,\"object_id\":1,\"x\":2)").is_err());
}

/// What `Display` writes reads back as the same value even where names and paths hold quotes and
/// backslashes: the engine escapes a resource path as a String, and the core a property name too.
#[test]
fn names_and_paths_with_quotes_read_back() {
    let any = Options::default()
        .with_allow_objects(true)
        .with_allowed_objects(Some(AllowList::any()));
    for text in [
        "Object(Curve,\"a\\\\b\\\"c\":1,\"script\":Resource(\"res://q\\\"\\\\.gd\"))\n",
        "Array[Resource(\"res://a\\\"b.gd\")]([])",
    ] {
        let v = Value::from_godot_text(text, &any).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(v.to_string(), text);
        assert_eq!(Value::from_godot_text(&v.to_string(), &any).unwrap(), v);
    }
}

#[test]
fn limits_are_the_binary_decodes() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let opts = Options::default().with_max_depth(8);
    assert!(Value::from_godot_text(&deep(9), &opts).is_ok());
    let e = Value::from_godot_text(&deep(10), &opts).unwrap_err();
    assert_eq!(reason(e), DecodeReason::TooDeep(8));
    // A resource reference is an object holding its path: as deep as the text it writes.
    let objects = opts.clone().with_allow_objects(true);
    let reference = format!(
        "{}Resource(\"res://a.tres\"){}",
        "[".repeat(8),
        "]".repeat(8)
    );
    let e = Value::from_godot_text(&reference, &objects).unwrap_err();
    assert_eq!(reason(e), DecodeReason::TooDeep(8));
    let written = format!(
        "{}Object(Resource,\"resource_path\":\"res://a.tres\")\n{}",
        "[".repeat(8),
        "]".repeat(8)
    );
    assert!(Value::from_godot_text(&written, &objects).is_err());
    let shallower = &reference[1..reference.len() - 1];
    let v = Value::from_godot_text(shallower, &objects).expect("7 levels and the object");
    assert!(Value::from_godot_text(&v.to_string(), &objects).is_ok());
    // Far past the ceiling: an error, not a stack overflow.
    let e = parse(&deep(1_000_000)).unwrap_err();
    assert!(matches!(reason(e), DecodeReason::TooDeep(_)));

    let few = Options::default().with_limits(Limits {
        max_elements: 3,
        ..Limits::default()
    });
    assert!(Value::from_godot_text("[1, 2, 3]", &few).is_ok());
    let e = Value::from_godot_text("[1, 2, 3, 4]", &few).unwrap_err();
    assert!(matches!(
        reason(e),
        DecodeReason::Limit {
            limit: LimitKind::Elements,
            max: 3
        }
    ));
    let small = Options::default().with_limits(Limits {
        max_bytes: 4,
        ..Limits::default()
    });
    assert!(Value::from_godot_text("[\"ab\", \"cd\"]", &small).is_ok());
    let e = Value::from_godot_text("[\"ab\", \"cde\"]", &small).unwrap_err();
    assert!(matches!(
        reason(e),
        DecodeReason::Limit {
            limit: LimitKind::Bytes,
            max: 4
        }
    ));
    let e = Value::from_godot_text("PackedInt32Array(1, 2)", &small).unwrap_err();
    assert!(matches!(
        reason(e),
        DecodeReason::Limit {
            limit: LimitKind::Bytes,
            ..
        }
    ));
}

#[test]
fn malformed_text_is_an_error_with_its_position() {
    for (text, line, column) in [
        ("", 1, 1),
        ("   ", 1, 4),
        ("[1, 2", 1, 1),
        ("{\n\"a\" 1\n}", 2, 5),
        ("[1 2]", 1, 4),
        ("Vector2(1)", 1, 1),
        ("Vector2(1, \"x\")", 1, 12),
        ("Vector3i(1, 2, 3", 1, 17),
        ("\"unterminated", 1, 1),
        ("\"bad \\u12g4\"", 1, 10),
        ("\"\\ud800\"", 1, 8),
        ("\"\\udc00\"", 1, 2),
        ("\"\\u0000\"", 1, 2),
        ("\"\\U110000\"", 1, 2),
        ("Frobnicate(1)", 1, 1),
        ("1 2", 1, 3),
        ("[1]]", 1, 4),
        ("é", 1, 1),
        ("- 1", 1, 1),
        ("#12345", 1, 1),
        ("PackedByteArray(\"!!\")", 1, 17),
        ("Array[int]([1]", 1, 15),
        ("Dictionary[int]({})", 1, 15),
        ("1\0", 1, 2),
        ("\"a\0b\"", 1, 1),
        ("[\n\n  }", 3, 3),
    ] {
        let e = parse(text).expect_err(text);
        assert_eq!(e.code(), ErrorCode::ParseError, "{text:?}: {e}");
        match reason(e) {
            DecodeReason::BadText {
                line: l, column: c, ..
            } => assert_eq!((l, c), (line, column), "{text:?}"),
            r => panic!("{text:?}: {r}"),
        }
    }
}

/// An error shows at most a short piece of the input, however long the input's name or number.
#[test]
fn errors_stay_short() {
    for text in [
        "x".repeat(100_000),
        format!("{}(1)", "Vector".repeat(20_000)),
        format!("#{}", "f".repeat(99_999)),
    ] {
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.len() < 200, "{} bytes: {:.300}", e.len(), e);
    }
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of the grammar, so that random texts reach deep into it.
    const PIECES: &[&str] = &[
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        ",",
        ":",
        "\"",
        "\\",
        "&\"",
        "1",
        "-",
        "2.5e",
        "inf",
        "null",
        "Vector2(",
        "Array[int](",
        "Dictionary[String, Node](",
        "Object(Node,",
        "\"script\":",
        "Resource(\"res://a.gd\")",
        "PackedByteArray(",
        "PackedVector3Array(",
        "NodePath(\"a:b\")",
        "#ff",
        "\\u",
        "d83d",
        ";",
        "\n",
        " ",
        "é",
        "\0",
    ];

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::collection::vec(proptest::sample::select(PIECES), 0..60)
                .prop_map(|p| p.concat()),
            ".{0,80}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000 / super::stride() as u32))]

        /// Any text: a value or an error, no panic, and no more heap than the binary decode's
        /// bound per input byte; a value read writes text that reads back as itself.
        #[test]
        fn any_text_is_a_value_or_an_error(text in text()) {
            let opts = Options::default()
                .with_allow_objects(true)
                .with_allowed_objects(Some(AllowList::any()));
            let len = text.len();
            let (result, usage) = common::alloc_counter::measure(|| Value::from_godot_text(&text, &opts));
            prop_assert!(common::alloc_counter::within_heap_bound(&usage, len), "{usage:?}");
            if let Ok(v) = result {
                let again = Value::from_godot_text(&v.to_string(), &opts);
                prop_assert!(again.is_ok(), "{:?} -> {}", text, v);
            }
        }
    }
}

/// A float in an int slot that no int of the slot holds (NaN, an infinity, beyond the range):
/// Godot 4.6.3 on x86_64 reads `Vector2i(1e20, nan)` as two `i32::MIN`, where the same engine on
/// arm64 saturates, so no one value is the engine's; the core refuses the text and says why.
#[test]
fn a_float_that_fits_no_int_of_its_slot_is_refused() {
    for text in [
        "Vector2i(1e20, 0)",
        "Vector2i(0, nan)",
        "Rect2i(inf, 0, 0, 0)",
        "PackedInt32Array(1, 2147483648.0)",
        "PackedInt64Array(1e19)",
        "PackedByteArray(1, 1e10)",
        "RID(inf_neg)",
    ] {
        match parse(text).map_err(reason) {
            Err(DecodeReason::BadText { message, .. }) => {
                assert!(message.contains("does not fit"), "{text}: {message}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // Floats that fit are truncated, as every platform's engine does.
    assert_eq!(
        parse("Vector2i(2147483647.9, -2147483648.9)")
            .map(|v| v.to_string())
            .ok()
            .as_deref(),
        Some("Vector2i(2147483647, -2147483648)")
    );
}

/// A color at the very end of the text: Godot 4.6.3's `str_to_var` returns null for `#ff000080`
/// and reads `#ff000080 ` (its reader asks for the character after the digits).
#[test]
fn a_color_needs_a_character_after_it() {
    for text in ["#ff000080", "#f00", "[1, #f00"] {
        assert!(parse(text).is_err(), "{text}");
    }
    assert!(parse("[#f00]").is_ok());
}

/// Base64 bytes without their `=` padding: Godot 4.6.3's `str_to_var` returns null for
/// `PackedByteArray("AQI")` and reads `PackedByteArray("AQI=")` (tests/golden's texts).
#[test]
fn base64_bytes_need_their_padding() {
    for text in [
        "PackedByteArray(\"AQI\")",
        "PackedByteArray(\"AQ\")",
        "PackedByteArray(\"/Nde2D\")",
    ] {
        assert!(
            matches!(
                parse(text).map_err(reason),
                Err(DecodeReason::BadText { .. })
            ),
            "{text}"
        );
    }
    assert_eq!(
        parse("PackedByteArray(\"AQI=\")").ok(),
        Some(Value::PackedByteArray(vec![1, 2]))
    );
}

/// The order of keys of mixed types in Godot 3's text, against Godot 3.6.2's `var2str` of 400
/// random Dictionaries (tests/golden/key_order_godot3_6_2.jsonl, made by
/// tests/golden/gen/godot3/key_order.gd): keys neither less nor greater than each other come in
/// the order the engine's sort leaves them, so only the engine's steps give its text.
#[test]
fn godot3_keys_of_mixed_types_come_in_the_engines_order() {
    corpus::check_key_order(
        "key_order_godot3_6_2.jsonl",
        Dialect::Godot3,
        godot3_text_of,
    );
}
