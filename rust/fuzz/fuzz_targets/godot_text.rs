//! Godot's text Variant format (`Value::from_godot_text`): the input after the selector byte
//! (src/lib.rs: objects, max_depth; bit 1 admits every class instead of none) read as text must
//! give a value or an error, never a panic, holding no more heap than a binary decode may per
//! input byte; a value read must write (`Display`, `var_to_str`'s text) a text that reads again,
//! as a value whose text has the same characters but for its numbers' digits (the engines' reader
//! of reals is not the inverse of their writer), in an order that may differ: the engine's writer
//! sorts a Dictionary's keys by an order that is not total (Strings and StringNames by text, other
//! types by type id), so the order written depends on the order read.
//! The same text is read as a ConfigFile (`save::ConfigFile::parse`, Godot 4's grammar, or Godot
//! 3's when the selector's offset bits, unused here otherwise, are odd) under the same bound; one
//! read writes (`to_text`, Godot 4's `save`) a text that reads again and writes the same text,
//! unless a section's name ends in a backslash, which Godot 4 writes as it is and then reads as
//! escaping the `]`, or a Godot 3 read holds a Dictionary keyed by a Dictionary: Godot 3 tells such
//! keys apart by identity, Godot 4 by content, so two keys of equal content, two entries in Godot
//! 3, are one when Godot 4 reads them (that text is only read again).
//! And as a text resource (`save::TextResource::parse`) under the same bound; one read writes
//! (its sections written anew as Godot writes them) a text that reads again and writes the same
//! text.
#![no_main]
use fast_var_codec_core::options::{AllowList, Precision};
use fast_var_codec_core::save::{ConfigFile, TextResource};
use fast_var_codec_core::{Dialect, Value};
use fast_var_codec_fuzz::{has_dictionary_key, measure, within_heap_bound, Selector};
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
    config_file(text, &opts, sel.offset % 2 == 1);
    if let Ok(v) = result {
        let written = v.to_string();
        match Value::from_godot_text(&written, &opts) {
            Ok(again) => {
                let rewritten = again.to_string();
                // The engines' reader is not the inverse of their writer for reals (it keeps 18
                // digits and builds powers of ten step by step: `1.0000000000000001e+37` reads
                // as the real written `1e+37`), so numbers compare by their place only; and
                // keys sorted again may come in another order, so the characters compare.
                assert!(
                    shape(&rewritten) == shape(&written),
                    "the text read again writes another text:\n{written}\n{rewritten}"
                );
            }
            Err(e) => panic!("the text of a value read does not read again: {e}\n{written}"),
        }
    }
});

/// The characters of `text` with its numbers masked (`numbers_masked`), sorted: the same for two
/// texts that differ only in their numbers' digits and the order of their parts.
fn shape(text: &str) -> Vec<char> {
    let mut chars: Vec<char> = numbers_masked(text).chars().collect();
    chars.sort_unstable();
    chars
}

/// `text` with every number (a run of digits, points, signs and exponents) and the names
/// `inf_neg`, `inf`, `nan` as `#`.
fn numbers_masked(text: &str) -> String {
    let text = text
        .replace("inf_neg", "#")
        .replace("inf", "#")
        .replace("nan", "#");
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for c in text.chars() {
        let numeric = c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-' | '#');
        if !numeric {
            out.push(c);
        } else if !in_number {
            out.push('#');
        }
        in_number = numeric;
    }
    out
}

fn config_file(text: &str, opts: &fast_var_codec_core::Options, godot3: bool) {
    let mut opts = opts.clone();
    if godot3 {
        opts.dialect = Dialect::Godot3;
    }
    let (result, usage) = measure(|| ConfigFile::parse(text, &opts));
    assert!(
        within_heap_bound(&usage, text.len()),
        "{usage:?} for {} bytes of ConfigFile text",
        text.len()
    );
    let Ok(cfg) = result else {
        return;
    };
    if cfg.sections().any(|s| s.ends_with('\\')) {
        return;
    }
    let written = cfg.to_text(Dialect::Godot4).expect("Godot 4 writes text");
    let keys_may_merge = godot3 && cfg.iter().any(|(_, _, v)| has_dictionary_key(v));
    opts.dialect = Dialect::Godot4;
    match ConfigFile::parse(&written, &opts) {
        Ok(_) if keys_may_merge => {}
        Ok(again) => {
            let rewritten = again.to_text(Dialect::Godot4).expect("Godot 4 writes text");
            // Numbers by their place only and keys in any order, as for a value.
            assert!(
                shape(&rewritten) == shape(&written),
                "the ConfigFile read again writes another text:\n{written}\n{rewritten}"
            );
        }
        Err(e) => panic!("the text of a ConfigFile read does not read again: {e}\n{written}"),
    }
    text_resource(text, &opts);
}

fn text_resource(text: &str, opts: &fast_var_codec_core::Options) {
    let (result, usage) = measure(|| TextResource::parse(text, opts));
    assert!(
        within_heap_bound(&usage, text.len()),
        "{usage:?} for {} bytes of text resource",
        text.len()
    );
    let Ok(mut res) = result else {
        return;
    };
    res.section_mut(0); // written anew, not the text read
    let written = res.to_text();
    match TextResource::parse(&written, opts) {
        Ok(mut again) => {
            again.section_mut(0);
            let rewritten = again.to_text();
            assert_eq!(
                rewritten.len(),
                written.len(),
                "the text resource read again writes another text:\n{written}\n{rewritten}"
            );
        }
        Err(e) => panic!("the text of a text resource read does not read again: {e}\n{written}"),
    }
}
