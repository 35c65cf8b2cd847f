//! `Display` of `Value` against the text Godot 4.6.3's `var_to_str` wrote for every value of
//! the Godot 4 golden corpus that the engine decodes (tests/golden/var_to_str_godot4_6_3.jsonl,
//! made by tests/golden/gen/godot4/var_to_str.gd from the corpus's bytes): the core decodes the
//! same bytes, and its text must be the engine's, byte for byte.

mod corpus;

use std::path::PathBuf;

use fast_var_codec_core::options::Precision;
use fast_var_codec_core::{decode, Dialect, Options, Value};
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

/// Cases whose engine text the core does not write, and why. Nothing else is skipped.
fn cannot_match(_corpus: &str, name: &str, engine_text: &str) -> Option<&'static str> {
    if name.starts_with("object/full/golden_item")
        || name.starts_with("object/full/golden_holder")
        || engine_text.contains("\"transient_note\":")
    {
        // The engine writes every property the object's script declares, among them one that
        // is not exported and so never on the wire.
        return Some("a script property the wire does not carry");
    }
    if name == "dictionary/typed/int_script/empty/full" {
        // The engine names a script value type by the script's native class when the key type
        // is no script: a class the model does not know.
        return Some("a script's native class");
    }
    None
}

/// Each case line of the corpus (one per line in the file): name, full_objects, bytes, and
/// whether the engine decoded them.
fn corpus_cases(corpus: &str) -> Vec<(String, bool, Vec<u8>)> {
    let text = std::fs::read_to_string(golden(corpus)).expect("corpus");
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("{\"name\":\"") else {
            continue;
        };
        if !line.contains("\"full_objects\":") {
            continue; // a malformed input, not a case
        }
        let name = &rest[..rest.find('"').expect("name")];
        let full = line.contains("\"full_objects\":true");
        let at = line.find("\"bytes\":\"").expect("bytes") + 9;
        let bytes = &line[at..at + line[at..].find('"').expect("bytes end")];
        if bytes.is_empty() || line[at + bytes.len()..].starts_with("\",\"decoded\":null") {
            continue; // the engine encoded nothing, or did not decode its own bytes
        }
        out.push((name.to_owned(), full, hex(bytes)));
    }
    out
}

#[test]
fn display_is_the_engines_var_to_str() {
    check(
        "godot4_6_3.json",
        "var_to_str_godot4_6_3.jsonl",
        Precision::Single,
    );
}

/// The same with a `precision=double` Godot 4.6.3 (its `real_t` components binary64).
#[test]
fn display_is_the_double_engines_var_to_str() {
    check(
        "godot4_6_3_double.json",
        "var_to_str_godot4_6_3_double.jsonl",
        Precision::Double,
    );
}

fn check(corpus: &str, engine_texts: &str, precision: Precision) {
    let texts = std::fs::read_to_string(golden(engine_texts)).expect("texts");
    let mut lines = texts.lines();
    let head: Json = serde_json::from_str(lines.next().expect("head")).expect("head json");
    assert!(head["engine"].as_str().unwrap_or("").starts_with("4.6.3"));
    let engine: std::collections::HashMap<String, String> = lines
        .map(|l| {
            let j: Json = serde_json::from_str(l).expect("line json");
            let text = String::from_utf8(hex(j["text"].as_str().expect("text")))
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            (j["name"].as_str().expect("name").to_owned(), text)
        })
        .collect();

    let cases = corpus_cases(corpus);
    assert!(cases.len() >= 500, "{} cases", cases.len());
    let (mut checked, mut skipped, mut failures) = (0, 0, Vec::new());
    for (name, full, bytes) in &cases {
        let Some(expected) = engine.get(name) else {
            failures.push(format!("{name}: no engine text"));
            continue;
        };
        if cannot_match(corpus, name, expected).is_some() {
            skipped += 1;
            continue;
        }
        let opts = Options::new(Dialect::Godot4)
            .with_precision(precision)
            .with_allow_objects(*full);
        let value: Value = match decode(bytes, &opts) {
            Ok((v, _)) => v,
            Err(e) => {
                failures.push(format!("{name}: the core does not decode it: {e}"));
                continue;
            }
        };
        let got = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || value.to_string())
            .expect("thread")
            .join()
            .expect("display");
        checked += 1;
        if &got != expected {
            let cut = |s: &str| s.chars().take(300).collect::<String>();
            failures.push(format!(
                "{name}:\n  engine: {:?}\n  core:   {:?}",
                cut(expected),
                cut(&got)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{corpus}: {} of {checked} differ ({skipped} skipped):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 500, "only {checked} checked");
    assert!(skipped <= 16, "{skipped} skipped");
}

/// The order of keys of mixed types, against Godot 4.6.3's text of 400 random Dictionaries
/// (tests/golden/key_order_godot4_6_3.jsonl, made by tests/golden/gen/godot4/key_order.gd). The
/// engine's order of keys is not total, so its text is the engine's only when sorted by the
/// engine's steps; 2 to 80 keys reach both its insertion sort and its introsort.
#[test]
fn keys_of_mixed_types_come_in_the_engines_order() {
    corpus::check_key_order("key_order_godot4_6_3.jsonl", Dialect::Godot4, |v| {
        v.to_string()
    });
}
