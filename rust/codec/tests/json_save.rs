//! `save::JsonSave` against Godot 4.6.3's `JSON.stringify` / `JSON.parse` and Godot 3.6.2's
//! `JSON.print` / `JSON.parse` (tests/golden/json_*.jsonl, made by
//! tests/golden/gen/godot*/json.gd from the values there and the texts of
//! tests/golden/gen/json_texts.json):
//! - the core writes every value in every style as the engine wrote it;
//! - it reads each engine text to a value that it writes back to the same text, finding its
//!   style, and whose numbers are the engine's;
//! - it reads what the engine's `JSON.parse` reads and refuses what it refuses.
#![cfg(feature = "files")]

mod corpus;

use fast_var_codec_core::save::{JsonSave, JsonStyle};
use fast_var_codec_core::{decode, encode, Dialect, Options, Value};
use serde_json::Value as Json;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn lines(file: &str, engine: &str) -> Vec<Json> {
    let path = corpus::golden_dir().join(file);
    let text = std::fs::read_to_string(path).expect("golden file");
    let mut lines = text.lines();
    let head: Json = serde_json::from_str(lines.next().expect("head")).expect("head json");
    assert!(
        head["engine"].as_str().unwrap_or("").starts_with(engine),
        "{head}"
    );
    lines
        .map(|l| serde_json::from_str(l).expect("line json"))
        .collect()
}

fn value(hex_bytes: &str, dialect: Dialect) -> Value {
    decode(&hex(hex_bytes), &Options::new(dialect))
        .expect("the engine's bytes decode")
        .0
}

fn text(j: &Json) -> String {
    String::from_utf8(hex(j.as_str().expect("hex text"))).expect("UTF-8")
}

/// The value as the engine's `JSON.parse` gives it: every number a float.
fn as_engine_reads(v: &Value) -> Value {
    match v {
        Value::Int(i) => Value::Float(*i as f64),
        Value::Array(a) => Value::from(a.iter().map(as_engine_reads).collect::<Vec<_>>()),
        Value::Dictionary(d) => Value::from_iter(
            d.iter()
                .map(|(k, v)| (k.clone(), as_engine_reads(v)))
                .collect::<Vec<_>>(),
        ),
        v => v.clone(),
    }
}

/// Equal as values, floats bit for bit (so that -0.0 is not 0.0).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| same(a, b))
        }
        // In any order: sort_keys writes them in another.
        (Value::Dictionary(x), Value::Dictionary(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (a, b) => a == b,
    }
}

fn check_engine(file: &str, engine: &str, dialect: Dialect) {
    let opts = Options::new(dialect);
    let (mut written, mut read) = (0, 0);
    for j in lines(file, engine) {
        if let Some(read_text) = j.get("read") {
            let t = text(read_text);
            let ours = JsonSave::parse(&t, &opts);
            let engine_ok = j["error"] == 0;
            if dialect == Dialect::Godot3 && t.contains("\\u0000") {
                // Godot 3 reads a NUL into its String, which no String of the core holds.
                assert!(ours.is_err(), "{t:?}: {:?}", ours.map(|s| s.into_value()));
                read += 1;
                continue;
            }
            match ours {
                Ok(save) if engine_ok => {
                    // Compared as the engine's bytes (which keep a Godot 3 String's NUL).
                    let theirs = hex(j["parsed"].as_str().expect("parsed"));
                    let ours = as_engine_reads(save.value());
                    assert_eq!(
                        encode(&ours, &opts).expect("encodes"),
                        theirs,
                        "{engine} reads {t:?} otherwise than the core: {ours:?}"
                    );
                }
                Ok(save) => panic!(
                    "{engine} refuses {t:?} ({}), the core reads {:?}",
                    j["message"],
                    save.value()
                ),
                Err(e) if engine_ok => panic!("{engine} reads {t:?}, the core refuses it: {e}"),
                Err(_) => {}
            }
            read += 1;
            continue;
        }
        let name = j["name"].as_str().expect("name");
        let original = value(j["value"].as_str().expect("value"), dialect);
        for style_j in j["texts"].as_array().expect("texts") {
            let engine_text = text(&style_j["text"]);
            let style = JsonStyle::new(dialect)
                .with_indent(style_j["indent"].as_str().expect("indent"))
                .with_sort_keys(style_j["sort_keys"].as_bool().expect("sort_keys"))
                .with_full_precision(style_j["full_precision"].as_bool().unwrap_or(false));
            let ours = JsonSave::new(original.clone(), style.clone()).to_text();
            if engine_text.contains("\\v") {
                // A vertical tab: written `\v`, which Godot 4's reader refuses and Godot 3's
                // reads as `v`; refused here.
                assert!(ours.is_err(), "{name}: {ours:?}");
                continue;
            }
            if dialect == Dialect::Godot3 && engine_text.len() == 255 && !engine_text.contains('.')
            {
                // Godot 3 cuts a number's text at 255 characters: another number, refused here.
                assert!(ours.is_err(), "{name}: {ours:?}");
                continue;
            }
            assert_eq!(
                ours.as_deref(),
                Ok(engine_text.as_str()),
                "{engine} writes {name} in {style:?} otherwise"
            );
            let parsed = JsonSave::parse(&engine_text, &opts)
                .unwrap_or_else(|e| panic!("{name}: the core refuses {engine_text:?}: {e}"));
            if !same(
                &as_engine_reads(parsed.value()),
                &as_engine_reads(&original),
            ) {
                // The text reads as another number (more than 18 digits): in the engine too,
                // so no text writes back as it was.
                let theirs = value(j["parsed"].as_str().expect("parsed"), dialect);
                assert!(
                    !same(&theirs, &as_engine_reads(&original)),
                    "{name}: {engine_text:?}"
                );
                continue;
            }
            assert!(
                parsed.is_engine_text(),
                "{name}: no style found for {engine_text:?}"
            );
            let again = JsonSave::new(parsed.value().clone(), parsed.style().clone());
            assert_eq!(
                again.to_text().as_deref(),
                Ok(engine_text.as_str()),
                "{name}: read and written in {:?}",
                parsed.style()
            );
            written += 1;
        }
        // The engine's JSON.parse of its default text, against the core's reading of it (which
        // the engine does not read where it holds a vertical tab: refused above).
        let first = text(&j["texts"][0]["text"]);
        if first.contains("\\v") {
            continue;
        }
        let theirs = value(j["parsed"].as_str().expect("parsed"), dialect);
        let ours = as_engine_reads(JsonSave::parse(&first, &opts).expect("read").value());
        assert!(
            same(&ours, &theirs),
            "{name}: {engine} reads {first:?} as {theirs:?}, the core as {ours:?}"
        );
    }
    assert!(
        written > 250 && read > 100,
        "{engine}: {written} texts, {read} reads"
    );
}

#[test]
fn godot4_texts_are_written_and_read_as_the_engine_does() {
    check_engine("json_godot4_6_3.jsonl", "4.6.3", Dialect::Godot4);
}

#[test]
fn godot3_texts_are_written_and_read_as_the_engine_does() {
    check_engine("json_godot3_6_2.jsonl", "3.6.2", Dialect::Godot3);
}

#[test]
fn what_json_cannot_hold_is_refused_with_its_place() {
    let save = |v: Value, d| JsonSave::new(v, JsonStyle::new(d)).to_text();
    let pos = Value::from_iter([(
        "player",
        Value::from_iter([("pos", Value::vector2(1.0, 2.0))]),
    )]);
    let e = save(pos, Dialect::Godot4).expect_err("a Vector2");
    assert!(
        e.to_string().contains("Vector2") && e.to_string().contains("$.player.pos"),
        "{e}"
    );
    let nan = Value::from(vec![Value::Float(f64::NAN)]);
    assert!(save(nan, Dialect::Godot4)
        .expect_err("NaN")
        .to_string()
        .contains("$[0]"));
    assert!(save(Value::Float(f64::INFINITY), Dialect::Godot3).is_err());
    assert_eq!(
        save(Value::Float(f64::INFINITY), Dialect::Godot4).as_deref(),
        Ok("1e99999")
    );
    let int_key = Value::dictionary(vec![(Value::Int(1), Value::Nil)]);
    assert!(save(int_key, Dialect::Godot4)
        .expect_err("an int key")
        .to_string()
        .contains("int"));
}

#[test]
fn an_unchanged_text_is_kept_and_an_edited_one_is_the_engines() {
    let opts = Options::default();
    // Hand-written: spaces the engine does not write.
    let text = "{ \"b\": 1, \"a\": [ 2.50 ] }";
    let mut save = JsonSave::parse(text, &opts).expect("JSON");
    assert!(!save.is_engine_text());
    assert_eq!(save.to_text().as_deref(), Ok(text));
    save.value_mut()["b"] = Value::Int(2);
    assert_eq!(save.to_text().as_deref(), Ok("{\"b\":2,\"a\":[2.5]}"));
}

#[test]
fn limits_hold_for_untrusted_text() {
    let mut opts = Options::default();
    opts.limits.max_depth = 8;
    let deep = format!("{}{}", "[".repeat(9), "]".repeat(9));
    assert!(JsonSave::parse(&deep, &opts).is_err());
    let ok = format!("{}{}", "[".repeat(8), "]".repeat(8));
    assert!(JsonSave::parse(&ok, &opts).is_ok());
    opts.limits.max_elements = 3;
    assert!(JsonSave::parse("[1,2,3,4]", &opts).is_err());
    opts.limits.max_bytes = 4;
    assert!(JsonSave::parse("[\"12345\"]", &opts).is_err());
}
