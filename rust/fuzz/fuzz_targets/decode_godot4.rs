//! Godot 4 decoding at single precision, objects allowed or not (selector byte: src/lib.rs).
#![no_main]
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::Dialect;
use fast_var_codec_fuzz::{check_decode, Selector};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sel, data)) = Selector::split(data) else {
        return;
    };
    let opts = sel.options(Dialect::Godot4, Precision::Single);
    let _ = check_decode(data, &opts, sel);
});
