//! Dialect detection never guesses, checked on bytes real engines wrote (tests/golden): every
//! value of every corpus, as a one-record `store_var` file and as a message of a connection,
//! reads as its engine read it, or fails naming each engine family's reading, the engine's
//! among them. Many values (a Godot 3 Color, AABB, an empty PoolIntArray …) are bytes another
//! family reads whole as something else. Under `FVC_CORPUS_STRIDE=N` (the arm64 run) the
//! corpus-wide checks take every Nth value, and every one a test names.

mod common;
mod corpus;

use std::str::FromStr;

use fast_var_codec_core::error::DecodeReason;
use fast_var_codec_core::record::{decode_record, DialectDetector};
use fast_var_codec_core::save::{decode_records, RecordError};
use fast_var_codec_core::stream::StreamReader;
use fast_var_codec_core::{CodecError, Dialect, Options, Value};

const CORPORA: [&str; 5] = [
    "godot4_6_3.json",
    "godot3_6_2.json",
    "godot3_2_3.json",
    "pandemonium_4_9_0.json",
    "pandemonium_5_2_0.json",
];

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// A corpus value: its name, the engine's bytes, and what the engine's own dialect reads.
struct Case {
    name: String,
    bytes: Vec<u8>,
    value: Value,
}

/// The corpus's dialect, the options to read it with (objects as the engine was asked), and
/// its cases that the engine's dialect reads whole (tests/golden.rs checks those readings
/// against the engine's own decode).
fn cases(corpus: &str) -> (Dialect, Options, Vec<Case>) {
    let json = corpus::load(corpus);
    let dialect = Dialect::from_str(json["dialect"].as_str().expect("dialect")).expect("dialect");
    let opts = Options::new(dialect).with_allow_objects(true);
    let cases = json["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter_map(|case| {
            let bytes = hex(case["bytes"].as_str()?);
            let value = decode_record(&bytes, &opts).ok()?;
            Some(Case {
                name: case["name"].as_str()?.to_owned(),
                bytes,
                value,
            })
        })
        .collect();
    (dialect, opts, cases)
}

/// Runs `f` on a thread with room for the corpora's deepest values (compared and dropped by
/// recursion here).
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn record(bytes: &[u8]) -> Vec<u8> {
    let mut out = u32::try_from(bytes.len()).unwrap().to_le_bytes().to_vec();
    out.extend_from_slice(bytes);
    out
}

/// Whether `error` is an ambiguity that names `dialect`'s family reading `value`.
fn names_reading(error: &CodecError, dialect: Dialect, value: &Value) -> bool {
    let CodecError::Decode {
        reason: DecodeReason::Ambiguous { readings },
        ..
    } = error
    else {
        return false;
    };
    let family = |d: Dialect| {
        Dialect::ALL
            .iter()
            .position(|x| *x == d)
            .map(|i| [0, 0, 0, 1, 2, 3][i])
    };
    readings.len() >= 2
        && readings
            .iter()
            .any(|r| family(r.dialect) == family(dialect) && r.value == *value)
}

/// Values a Godot 3 engine writes that another reads whole as something else: Godot 4 (a Color
/// is a Plane), or with objects allowed Pandemonium (a PoolStringArray is an Object).
const REFUSED: [&str; 6] = [
    "godot3_6_2.json color/red",
    "godot3_6_2.json aabb/distinct",
    "godot3_6_2.json packed_int32_array/empty",
    "godot3_6_2.json packed_int32_array/one",
    "godot3_6_2.json packed_string_array/one_empty_item",
    "godot3_2_3.json color/distinct",
];

#[test]
fn a_one_record_file_reads_as_its_engine_read_it_or_names_the_readings() {
    on_big_stack(|| {
        let mut ambiguous = Vec::new();
        for corpus in CORPORA {
            let (dialect, opts, cases) = cases(corpus);
            assert!(cases.len() > 100, "{corpus}: {} cases", cases.len());
            let auto = opts.clone();
            for (index, case) in cases.iter().enumerate() {
                let named = REFUSED.contains(&format!("{corpus} {}", case.name).as_str());
                if !common::corpus::sampled(index, named) {
                    continue;
                }
                match decode_records(&record(&case.bytes), None, &auto) {
                    Ok((_, values)) => assert_eq!(
                        values,
                        std::slice::from_ref(&case.value),
                        "{corpus} {}: read as something else",
                        case.name
                    ),
                    Err(RecordError::Value { error, .. }) => {
                        assert!(
                            names_reading(&error, dialect, &case.value),
                            "{corpus} {}: {error}",
                            case.name
                        );
                        ambiguous.push(format!("{corpus} {}", case.name));
                    }
                    Err(e) => panic!("{corpus} {}: {e}", case.name),
                }
            }
        }
        for name in REFUSED {
            assert!(ambiguous.iter().any(|a| a == name), "{name} is not refused");
        }
    });
}

#[test]
fn a_godot3_color_file_is_refused_naming_both_readings_and_read_with_its_dialect() {
    on_big_stack(|| {
        let (_, opts, cases) = cases("godot3_6_2.json");
        let color = cases.iter().find(|c| c.name == "color/distinct").unwrap();
        let file = record(&color.bytes);
        let err = decode_records(&file, None, &opts).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("Color(") && text.contains("as godot3"),
            "{text}"
        );
        assert!(
            text.contains("Plane(") && text.contains("as godot4"),
            "{text}"
        );
        let (_, values) = decode_records(&file, Some(Dialect::Godot3), &opts).unwrap();
        assert_eq!(values, std::slice::from_ref(&color.value));
        // Beside records that only Godot 3 reads whole together (Pandemonium's id 5 is a
        // Rect2, not a Vector2; Godot 4's id 6 a Vector2i, not a Rect2), the file tells.
        let vector = cases
            .iter()
            .find(|c| c.name.starts_with("vector2/"))
            .unwrap();
        let rect = cases.iter().find(|c| c.name.starts_with("rect2/")).unwrap();
        let mut all = file.clone();
        all.extend(record(&vector.bytes));
        all.extend(record(&rect.bytes));
        let (dialect, values) = decode_records(&all, None, &opts).unwrap();
        assert_eq!(dialect, Dialect::Godot3);
        assert_eq!(
            values,
            [
                color.value.clone(),
                vector.value.clone(),
                rect.value.clone()
            ]
        );
    });
}

/// Every value of `cases` in order as the messages of one connection, then `ending` (a
/// message that tells the family), read by a detecting reader fed a few bytes at a time.
fn read_stream(cases: &[&Case], ending: &Case) -> (Vec<Result<Value, CodecError>>, Dialect) {
    let mut wire = Vec::new();
    for case in cases.iter().copied().chain([ending]) {
        wire.extend(record(&case.bytes));
    }
    let mut reader = StreamReader::detecting(Options::default().with_allow_objects(true));
    let mut out = Vec::new();
    for piece in wire.chunks(7) {
        reader.feed(piece).unwrap();
        loop {
            match reader.next_value() {
                Ok(Some(v)) => out.push(Ok(v)),
                Ok(None) => break,
                Err(e) => out.push(Err(e)),
            }
        }
    }
    assert!(reader.is_settled());
    (out, reader.dialect())
}

#[test]
fn a_connection_holds_what_its_families_read_differently_until_one_is_left() {
    on_big_stack(|| {
        for corpus in CORPORA {
            let (dialect, _, cases) = cases(corpus);
            // Those whose bytes another family reads whole as something else, first.
            let ambiguous: Vec<&Case> = cases
                .iter()
                .filter(|c| decode_records(&record(&c.bytes), None, &Options::default()).is_err())
                .take(40)
                .collect();
            let Some(telling) = cases.iter().find(|c| {
                let mut d = DialectDetector::new(&Options::default().with_allow_objects(true));
                d.narrow(&c.bytes);
                d.is_settled() && d.dialect() == Some(dialect)
            }) else {
                panic!("{corpus}: no value tells its dialect")
            };
            let (out, found) = read_stream(&ambiguous, telling);
            assert_eq!(found, dialect, "{corpus}");
            let expected: Vec<Result<Value, CodecError>> = ambiguous
                .iter()
                .chain([&telling])
                .map(|c| Ok(c.value.clone()))
                .collect();
            assert_eq!(out, expected, "{corpus}");
            if corpus.starts_with("godot3") {
                assert!(ambiguous.len() >= 6, "{corpus}: {}", ambiguous.len());
            }
        }
    });
}

#[test]
fn a_whole_corpus_as_one_connection_reads_as_its_engine_read_it() {
    on_big_stack(|| {
        for corpus in CORPORA {
            let (_, _, cases) = cases(corpus);
            let all: Vec<&Case> = cases
                .iter()
                .enumerate()
                .filter(|(index, _)| common::corpus::sampled(*index, false))
                .map(|(_, case)| case)
                .collect();
            let Some((last, rest)) = all.split_last() else {
                panic!("{corpus}: empty")
            };
            let (out, _) = read_stream(rest, last);
            let expected: Vec<Result<Value, CodecError>> =
                all.iter().map(|c| Ok(c.value.clone())).collect();
            assert_eq!(out.len(), expected.len(), "{corpus}");
            for (i, (got, want)) in out.iter().zip(&expected).enumerate() {
                assert_eq!(got, want, "{corpus} {}", all[i].name);
            }
        }
    });
}
