//! Godot's text Variant format (`Value::from_godot_text`): the input after the selector byte
//! (src/lib.rs: objects, max_depth; bit 1 admits every class instead of none) read as text must
//! give a value or an error, never a panic, holding no more heap than a binary decode may per
//! input byte; a value read must write (`Display`, `var_to_str`'s text) a text that reads again,
//! as a value whose text is as long (the same entries and digits; a Dictionary's entries may come
//! in another order, as the engine's writer sorts keys by an order that is not total).
#![no_main]
use fast_var_codec_core::options::{AllowList, Precision};
use fast_var_codec_core::{Dialect, Value};
use fast_var_codec_fuzz::{measure, within_heap_bound, Selector};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sel, bytes)) = Selector::split(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let precision = if data[0] & 0x80 != 0 {
        Precision::Double
    } else {
        Precision::Single
    };
    let mut opts = sel.options(Dialect::Godot4, precision);
    if sel.known_classes {
        opts = opts.with_allowed_objects(Some(AllowList::any()));
    } else {
        opts = opts.with_allowed_objects(Some(AllowList::new()));
    }
    let (result, usage) = measure(|| Value::from_godot_text(text, &opts));
    assert!(
        within_heap_bound(&usage, text.len()),
        "{usage:?} for {} bytes of text",
        text.len()
    );
    if let Ok(v) = result {
        let written = v.to_string();
        match Value::from_godot_text(&written, &opts) {
            Ok(again) => {
                let rewritten = again.to_string();
                assert_eq!(
                    rewritten.len(),
                    written.len(),
                    "the text read again writes another text:\n{written}\n{rewritten}"
                );
            }
            Err(e) => panic!("the text of a value read does not read again: {e}\n{written}"),
        }
    }
});
