//! Godot 4 decoding with double-precision options (selector byte: src/lib.rs). The 64-bit flag
//! of each value decides the width of what is on the wire; precision decides the width the
//! engine holds: a single-precision engine narrows binary64 components to binary32 as it decodes
//! them (and makes binary32 reals where a typed container converts: Vector2i into
//! Array[Vector2] …). So the result must equal the single-precision options' result once every
//! real is rounded to binary32 (and fail in the same way, and consume as much), unless rounding
//! makes Dictionary keys equal: the single-precision engine then merges them, and which value it
//! keeps depends on the order of every equal key in the input (the last one wins), which the
//! double-precision result, already merged its own way, no longer holds (the two regression
//! inputs in rust/fuzz/regressions/ are such cases, checked against both builds of Godot 4.6.3).
//! A decoded value must re-encode at double precision and decode back unchanged (no real is
//! narrowed).
#![no_main]
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::reader::decode_with;
use fast_var_codec_core::Dialect;
use fast_var_codec_fuzz::{
    check_decode, check_reencode, narrow_reals, narrowing_merges_keys, Selector,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sel, data)) = Selector::split(data) else {
        return;
    };
    let opts = sel.options(Dialect::Godot4, Precision::Double);
    let result = check_decode(data, &opts, sel);
    let single = decode_with(
        data,
        0,
        &sel.options(Dialect::Godot4, Precision::Single),
        &mut sel.builder(),
    );
    let same = match (&result, &single) {
        (Ok((a, ua)), Ok((b, ub))) => {
            ua == ub && (narrow_reals(a) == narrow_reals(b) || narrowing_merges_keys(a, &opts, sel))
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    assert!(
        same,
        "double-precision options decode differently: {result:?}\nsingle: {single:?}"
    );
    if let Ok((v, _)) = result {
        let enc = opts.clone().with_full_objects(sel.allow_objects);
        check_reencode(data, &v, &opts, &enc, sel, true);
    }
});
