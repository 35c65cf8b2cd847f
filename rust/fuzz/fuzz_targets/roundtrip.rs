//! For each dialect: whatever decodes must encode, `encoded_size` must equal the encoding's
//! length, and the encoding must decode, whole, to an equal value, at each precision the dialect
//! has (a decode holds `real_t` as the engine of its precision does, so each precision is
//! compared with itself).
//!
//! Across dialects: a Godot 4 value must encode in Godot 3 with `allow_lossy` (unless a lossy
//! conversion nests it too deep) and decode there whole; a Godot 3 value without full objects
//! must encode in Godot 4 and come back equal.
//!
//! The Pandemonium dialects and the older Godot 4 ones (4.3, 4.0-4.2) have no decode target of
//! their own (the Godot 3 and Godot 4 seeds share their layouts), so their decodes get
//! `check_decode`'s checks here, and the re-encodes of their family.
//! Selector byte: src/lib.rs (bit 0 sets both allow_objects and full_objects).
#![no_main]
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::reader::decode_with;
use fast_var_codec_core::Dialect;
use fast_var_codec_fuzz::{check_cross, check_decode, check_reencode, Selector};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sel, data)) = Selector::split(data) else {
        return;
    };
    for dialect in [
        Dialect::Godot4,
        Dialect::Godot3,
        Dialect::Pandemonium38,
        Dialect::Pandemonium5,
        Dialect::Godot4_3,
        Dialect::Godot4_0To4_2,
    ] {
        let dec = sel.options(dialect, Precision::Single);
        let decoded = if matches!(dialect, Dialect::Godot4 | Dialect::Godot3) {
            decode_with(data, 0, &dec, &mut sel.builder())
        } else {
            check_decode(data, &dec, sel)
        };
        let Ok((v, _)) = decoded else {
            continue;
        };
        let full = sel.allow_objects;
        if dialect.has_double_precision() {
            // The Godot 4 dialects, in each precision.
            let single = dec.clone().with_full_objects(full);
            check_reencode(data, &v, &dec, &single, sel, true);
            let dec_double = sel.options(dialect, Precision::Double);
            if let Ok((v_double, _)) = decode_with(data, 0, &dec_double, &mut sel.builder()) {
                let double = dec_double.clone().with_full_objects(full);
                check_reencode(data, &v_double, &dec_double, &double, sel, true);
            }
            if dialect == Dialect::Godot4 {
                let g3 = sel.options(Dialect::Godot3, Precision::Single);
                let lossy = g3.clone().with_full_objects(full).with_allow_lossy(true);
                check_cross(data, &v, &g3, &lossy, sel, false);
            }
        } else {
            let enc = dec.clone().with_full_objects(full);
            check_reencode(data, &v, &dec, &enc, sel, true);
            if dialect == Dialect::Godot3 && !full {
                // At double precision both ways: every binary32 real travels exactly.
                let double = sel.options(Dialect::Godot4, Precision::Double);
                check_cross(data, &v, &double, &double, sel, true);
            }
        }
    }
});
