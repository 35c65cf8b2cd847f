//! Reading the engine-made test data under tests/ (golden corpora, save fixtures): shared by
//! the integration tests that `mod corpus;` it (not a test target of its own).

// Each includer uses a part of this file.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value as Json;

/// A path under this package (rust/codec/), found when the test runs: `cargo test` names the
/// package's folder in `CARGO_MANIFEST_DIR`. Never `env!`: a test binary the build cache reuses
/// in another clone would read the files of the clone it was compiled in (tests/source_times.py).
pub fn package_path(relative: &str) -> PathBuf {
    let package =
        std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR: run by cargo test");
    PathBuf::from(package).join(relative)
}

/// A path under the repository's root.
pub fn repo_path(relative: &str) -> PathBuf {
    package_path("../..").join(relative)
}

/// tests/golden/ of the repository.
pub fn golden_dir() -> PathBuf {
    repo_path("tests/golden")
}

/// A golden corpus, parsed without serde_json's recursion limit (the corpora hold values 1025
/// levels deep: parse and drop them on a thread with a large stack).
pub fn load(name: &str) -> Json {
    let path = golden_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut de = serde_json::Deserializer::from_str(&text);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// Bytes from hex; whitespace between the digits is ignored.
pub fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    assert!(s.len().is_multiple_of(2), "odd hex {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Lowercase hex of `b`, as the corpora write it.
pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Checks a golden file of key orders (`key_order_*.jsonl`, tests/golden/FORMAT.md): each
/// Dictionary's bytes decoded in `dialect` must `write` as the engine's text. 400 Dictionaries,
/// at least 150 of them past the 16 keys of the engine's insertion sort.
pub fn check_key_order(
    file: &str,
    dialect: fast_var_codec_core::Dialect,
    write: impl Fn(&fast_var_codec_core::Value) -> String,
) {
    let texts = std::fs::read_to_string(golden_dir().join(file)).expect("texts");
    let opts = fast_var_codec_core::Options::new(dialect);
    let (mut checked, mut past_insertion_sort, mut failures) = (0, 0, Vec::new());
    for line in texts.lines() {
        let j: Json = serde_json::from_str(line).expect("line json");
        let name = j["name"].as_str().expect("name");
        let expected = String::from_utf8(hex(j["text"].as_str().expect("text"))).expect("utf-8");
        let bytes = hex(j["bytes"].as_str().expect("bytes"));
        let (value, _) = fast_var_codec_core::decode(&bytes, &opts).expect(name);
        if value.len().is_some_and(|n| n > 16) {
            past_insertion_sort += 1;
        }
        checked += 1;
        let text = write(&value);
        if text != expected {
            failures.push(format!(
                "{name}:\n  engine: {expected:?}\n  core:   {text:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{file}: {} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 400, "{file}");
    assert!(
        past_insertion_sort >= 150,
        "{file}: {past_insertion_sort} past 16 keys"
    );
}
