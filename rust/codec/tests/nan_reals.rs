//! NaN bits in `real_t` components, against real engines (tests/golden/reals_*.json, written by
//! Godot 4.6.3, its precision=double build, Godot 3.6.2 and 3.2.3): every component of every math
//! type and packed vector array holding a signalling or quiet NaN, at each wire width. Decoding
//! into a `Value` and encoding it again, and transcoding, must give the bytes the engine wrote
//! for what it decoded: a signalling NaN keeps its bits where the engine keeps them, and is
//! quieted where the engine converts it to another width.

mod corpus;

use corpus::{hex, load, to_hex};
use fast_var_codec_core::options::Precision;
use fast_var_codec_core::transcode::transcode;
use fast_var_codec_core::{decode, encode, Dialect, Options};

/// Each corpus, with the options of the engine that wrote it.
const CORPORA: [(&str, Dialect, Precision); 4] = [
    ("reals_godot4_6_3.json", Dialect::Godot4, Precision::Single),
    (
        "reals_godot4_6_3_double.json",
        Dialect::Godot4,
        Precision::Double,
    ),
    ("reals_godot3_6_2.json", Dialect::Godot3, Precision::Single),
    ("reals_godot3_2_3.json", Dialect::Godot3, Precision::Single),
];

/// Runs `check(name, input, options)` on every case, which returns the bytes it made; counts the
/// cases whose bytes differ from the engine's and fails with the first few.
fn against_engines(what: &str, check: impl Fn(&[u8], &Options) -> Vec<u8>) {
    for (file, dialect, precision) in CORPORA {
        let corpus = load(file);
        assert_eq!(
            corpus["precision"],
            if precision == Precision::Double {
                "double"
            } else {
                "single"
            }
        );
        let opts = Options::new(dialect).with_precision(precision);
        let cases = corpus["cases"].as_array().expect("cases");
        assert!(cases.len() >= 300, "{file}: only {} cases", cases.len());
        let mut wrong = Vec::new();
        for case in cases {
            let input = hex(case["bytes"].as_str().expect("bytes"));
            let expected = case["reencoded"].as_str().expect("reencoded");
            let got = to_hex(&check(&input, &opts));
            if got != expected {
                wrong.push(format!("{}: engine {expected}, {what} {got}", case["name"]));
            }
        }
        assert!(
            wrong.is_empty(),
            "{file}: {} of {} cases differ, first: {:#?}",
            wrong.len(),
            cases.len(),
            &wrong[..wrong.len().min(5)]
        );
    }
}

#[test]
fn decode_then_encode_gives_the_engines_bytes() {
    against_engines("decode+encode", |input, opts| {
        let (value, used) = decode(input, opts).expect("decodes");
        assert_eq!(used, input.len());
        encode(&value, opts).expect("encodes").to_vec()
    });
}

#[test]
fn transcoding_gives_the_engines_bytes() {
    against_engines("transcode", |input, opts| {
        transcode(input, opts, opts).expect("transcodes").0.to_vec()
    });
}

/// The same inputs inside an Array: the components take the container paths (typed and untyped
/// Arrays hold their elements through the same builder).
#[test]
fn inside_an_array_too() {
    against_engines("decode+encode in an Array", |input, opts| {
        let mut wrapped = vec![0u8; 8];
        let array_id: u32 = match opts.dialect {
            Dialect::Godot3 => 19,
            _ => 28,
        };
        wrapped[..4].copy_from_slice(&array_id.to_le_bytes());
        wrapped[4..8].copy_from_slice(&1u32.to_le_bytes());
        wrapped.extend_from_slice(input);
        let (value, _) = decode(&wrapped, opts).expect("decodes");
        let out = encode(&value, opts).expect("encodes");
        out[8..].to_vec()
    });
}
