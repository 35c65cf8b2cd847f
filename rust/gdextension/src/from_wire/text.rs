//! Strings made by the engine's own UTF-8 decoder, as `bytes_to_var` makes them.

use fast_var_codec_core::options::Utf8Rules;
use godot::builtin::GString;
use godot::sys::{interface_fn, GodotFfi};

/// A string payload read by the dialect's `rules`: by the engine's own (strict) UTF-8 decoder
/// first, whose result every dialect shares when it accepts (see the core's `decode_utf8`),
/// else, for Godot 3's lenient rules, by the core's decoder. `None`: the dialect's engine
/// rejects the bytes.
pub(super) fn text_by_rules(raw: &[u8], rules: Utf8Rules) -> Option<GString> {
    engine_utf8(raw).or_else(|| match rules {
        Utf8Rules::Strict => None,
        _ => fast_var_codec_core::reader::decode_utf8(raw, rules).map(|s| gstring(&s)),
    })
}

/// A String parsed from payload bytes by the engine's own UTF-8 decoder, which is what
/// `bytes_to_var` uses (it stops at a NUL, drops one byte-order mark, and rejects what the
/// engine rejects: `None`). One pass, no Rust-side validation or copy.
pub(super) fn engine_utf8(raw: &[u8]) -> Option<GString> {
    let len = i64::try_from(raw.len()).ok()?;
    let mut status: i64 = -1;
    // SAFETY: `new_with_uninit` hands an uninitialized String slot, which the engine's
    // constructor initializes in all cases (even when the input is rejected, so the GString is
    // valid and dropped normally); `raw` is valid for `len` bytes during the call.
    let g = unsafe {
        <GString as GodotFfi>::new_with_uninit(|slot| {
            status = interface_fn!(string_new_with_utf8_chars_and_len2)(
                slot.cast(),
                raw.as_ptr().cast(),
                len,
            );
        })
    };
    (status == 0).then_some(g)
}

/// A GString of exactly `s`. (Building it from UTF-8 would drop a leading byte-order mark a
/// second time: the core already applied the engine's rule of dropping one.)
pub(super) fn gstring(s: &str) -> GString {
    if s.is_ascii() {
        // ASCII is Latin-1: the engine's simplest constructor, no UTF-8 parsing.
        if let Ok(g) = GString::try_from_bytes(s.as_bytes(), godot::builtin::Encoding::Latin1) {
            return g;
        }
    }
    // Valid UTF-8 with no NUL and no leading U+FEFF reads the same through the engine's own
    // UTF-8 constructor, which is the fastest way in.
    if !s.starts_with('\u{FEFF}') && !s.contains('\0') {
        if let Some(g) = engine_utf8(s.as_bytes()) {
            return g;
        }
    }
    // Already validated: hand the engine UTF-32 (a copy) instead of UTF-8 to parse again. This
    // also keeps a leading U+FEFF, which the engine's UTF-8 constructor would drop.
    let mut chars: Vec<char> = Vec::with_capacity(s.len());
    chars.extend(s.chars());
    GString::from(&chars[..])
}
