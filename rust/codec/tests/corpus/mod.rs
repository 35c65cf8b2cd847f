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
