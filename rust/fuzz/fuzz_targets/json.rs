//! The JSON projection (`json::to_json` / `json::from_json`): the input read as Godot bytes in
//! both dialects (selector byte: src/lib.rs; bit 7 picks Godot 3) must give a JSON text that
//! reads back to the very same Value, compact and pretty; the input read as JSON text must fail
//! with a `JsonError` or give a Value whose projection reads back to itself. Never a panic.
#![no_main]
use fast_var_codec_core::json::{from_json, to_json, to_json_pretty};
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::{decode, Dialect, Value};
use fast_var_codec_fuzz::Selector;
use libfuzzer_sys::fuzz_target;

fn projects_back(v: &Value) {
    for text in [to_json(v), to_json_pretty(v)] {
        match from_json(&text) {
            Ok(back) => assert!(back == *v, "the projection read back differs: {text}"),
            Err(e) => panic!("the projection of a value does not read back: {e} in {text}"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((sel, bytes)) = Selector::split(data) else {
        return;
    };
    let dialect = if data[0] & 0x80 != 0 {
        Dialect::Godot3
    } else {
        Dialect::Godot4
    };
    if let Ok((v, _)) = decode(bytes, &sel.options(dialect, Precision::Single)) {
        projects_back(&v);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        if let Ok(v) = from_json(text) {
            projects_back(&v);
        }
    }
});
