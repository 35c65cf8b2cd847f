//! `save::compress`, `save::decompress` and `save::decode_compressed` (the `compression`
//! feature) against the packets Godot 4.6.3 and Godot 3.6.2 compressed
//! (tests/golden/packets_*.jsonl, made by tests/golden/gen/godot*/packets.gd): every packet
//! decompresses to the bytes the engine compressed, and the core's to the same bytes; the limits refuse what the engine's `decompress` and `decompress_dynamic` refuse; and a
//! value's packet reads as the value. That the engines read the core's packets is
//! tests/run_save_tests.sh's step 6.
#![cfg(feature = "compression")]

mod corpus;

use fast_var_codec_core::error::{DecodeReason, ErrorCode};
use fast_var_codec_core::save::{compress, decode_compressed, decompress, Compression};
use fast_var_codec_core::{decode, CodecError, Dialect, Options};
use serde_json::Value as Json;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// One packet the engine made.
struct Case {
    name: String,
    mode: Compression,
    /// The bytes the engine compressed.
    data: Vec<u8>,
    /// Whether `data` is a value's `var_to_bytes`.
    value: bool,
    packet: Vec<u8>,
    /// (size, what the engine gave back) from `decompress(size)`, then from
    /// `decompress_dynamic(size)`; a size of -1 is no limit.
    decompressed: Vec<(i64, Vec<u8>)>,
    dynamic: Vec<(i64, Vec<u8>)>,
}

fn cases(file: &str, engine: &str) -> Vec<Case> {
    let path = corpus::golden_dir().join(file);
    let text = std::fs::read_to_string(path).expect("golden file");
    let mut lines = text.lines();
    let head: Json = serde_json::from_str(lines.next().expect("head")).expect("head json");
    assert!(
        head["engine"].as_str().unwrap_or("").starts_with(engine),
        "{head}"
    );
    lines
        .map(|line| {
            let j: Json = serde_json::from_str(line).expect("case json");
            let data = match j.get("pattern") {
                Some(n) => (0..n.as_u64().expect("pattern") as usize)
                    .map(|i| ((i * 7 + i / 300) % 251) as u8)
                    .collect(),
                None => hex(j["data"].as_str().expect("data")),
            };
            let results = |field: &str| -> Vec<(i64, Vec<u8>)> {
                j[field]
                    .as_array()
                    .expect("results")
                    .iter()
                    .map(|r| {
                        let got = r[1].as_str().expect("result");
                        let got = if got == "=" { data.clone() } else { hex(got) };
                        (r[0].as_i64().expect("size"), got)
                    })
                    .collect()
            };
            Case {
                name: j["name"].as_str().expect("name").to_owned(),
                mode: Compression::from_mode(j["mode"].as_u64().expect("mode") as u32)
                    .expect("a mode"),
                value: j["value"].as_bool().expect("value"),
                packet: hex(j["packet"].as_str().expect("packet")),
                decompressed: results("decompress"),
                dynamic: results("dynamic"),
                data,
            }
        })
        .collect()
}

fn engines() -> [(&'static str, Vec<Case>, Dialect); 2] {
    [
        (
            "4.6.3",
            cases("packets_godot4_6_3.jsonl", "4.6.3"),
            Dialect::Godot4,
        ),
        (
            "3.6.2",
            cases("packets_godot3_6_2.jsonl", "3.6.2"),
            Dialect::Godot3,
        ),
    ]
}

/// What the engine compressed, as its own decompress gives it back: FastLZ pads what is
/// shorter than 16 bytes.
fn padded(case: &Case) -> Vec<u8> {
    let mut bytes = case.data.clone();
    if !bytes.is_empty() {
        bytes.resize(case.mode.decompressed_len(bytes.len()), 0);
    }
    bytes
}

#[test]
fn every_engine_packet_decompresses_to_what_the_engine_compressed() {
    let mut checked = 0;
    for (engine, cases, _) in engines() {
        assert_eq!(
            cases.len(),
            14 * 4,
            "Godot {engine}: every case in every mode"
        );
        for case in &cases {
            let got = decompress(&case.packet, case.mode, padded(case).len())
                .unwrap_or_else(|e| panic!("Godot {engine} {} {:?}: {e}", case.name, case.mode));
            assert_eq!(
                got,
                padded(case),
                "Godot {engine} {} {:?}",
                case.name,
                case.mode
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 112);
}

/// The core's packets are not always the engine's bytes (fastlz-rs and ruzstd are other
/// compressors than the engine's FastLZ and zstd; miniz_oxide differs from zlib on longer
/// inputs), but nothing compresses to nothing, as in the engine, and a gzip member starts with
/// the engine's header.
#[test]
fn our_packets_read_back_and_start_as_the_engines() {
    for (engine, cases, _) in engines() {
        for case in &cases {
            let ours = compress(&case.data, case.mode).expect("compress");
            if case.data.is_empty() {
                assert!(ours.is_empty() && case.packet.is_empty(), "{}", case.name);
                continue;
            }
            if case.mode == Compression::Gzip {
                assert_eq!(
                    ours[..10],
                    case.packet[..10],
                    "Godot {engine} {}",
                    case.name
                );
            }
            assert_eq!(
                decompress(&ours, case.mode, padded(case).len()).expect("ours decompresses"),
                padded(case),
                "Godot {engine} {} {:?}",
                case.name,
                case.mode
            );
        }
    }
}

/// The engine's `decompress(size)` and `decompress_dynamic(size)` fail on a packet holding more
/// than `size` bytes; `decompress` gives back fewer bytes only where FastLZ cuts its padded
/// copy (sizes under 16), which the core does not do.
#[test]
fn the_limit_refuses_what_the_engines_refuse() {
    let mut refused = 0;
    for (engine, cases, _) in engines() {
        for case in cases.iter().filter(|c| !c.packet.is_empty()) {
            let mut sizes: Vec<(i64, &Vec<u8>)> = Vec::new();
            sizes.extend(case.decompressed.iter().map(|(s, g)| (*s, g)));
            // The engine's decompress_dynamic takes Deflate and Gzip only.
            if matches!(case.mode, Compression::Deflate | Compression::Gzip) {
                sizes.extend(case.dynamic.iter().map(|(s, g)| (*s, g)));
            } else {
                assert!(
                    case.dynamic.iter().all(|(_, g)| g.is_empty()),
                    "{}",
                    case.name
                );
            }
            for (size, engine_gave) in sizes {
                let max = usize::try_from(size).unwrap_or(usize::MAX);
                let ours = decompress(&case.packet, case.mode, max);
                let what = format!("Godot {engine} {} {:?} size {size}", case.name, case.mode);
                if engine_gave.is_empty() {
                    let error = ours.expect_err(&what);
                    assert!(
                        matches!(
                            error,
                            CodecError::Decode {
                                reason: DecodeReason::DecompressedTooLong { .. },
                                ..
                            }
                        ),
                        "{what}: {error}"
                    );
                    assert_eq!(error.code(), ErrorCode::OutOfMemory);
                    refused += 1;
                } else if engine_gave.len() < padded(case).len() {
                    // FastLZ under 16 bytes: the engine copies part of its padded block.
                    assert_eq!(case.mode, Compression::FastLz, "{what}");
                    assert!(ours.is_err(), "{what}");
                } else {
                    assert_eq!(&ours.expect(&what), engine_gave, "{what}");
                }
            }
        }
    }
    assert!(refused > 100, "{refused}");
}

#[test]
fn a_values_packet_reads_as_the_value() {
    let mut read = 0;
    for (engine, cases, dialect) in engines() {
        let opts = Options::new(dialect);
        for case in cases.iter().filter(|c| c.value) {
            let (want, _) = decode(&case.data, &opts).expect("the engine's value");
            let got = decode_compressed(&case.packet, case.mode, 1 << 20, &opts)
                .unwrap_or_else(|e| panic!("Godot {engine} {} {:?}: {e}", case.name, case.mode));
            assert_eq!(got, want, "Godot {engine} {} {:?}", case.name, case.mode);
            read += 1;
        }
    }
    assert_eq!(read, 2 * 9 * 4);
}

#[test]
fn damaged_packets_are_refused_with_the_codecs_reason() {
    let opts = Options::default();
    for (_, cases, _) in engines() {
        for case in cases.iter().filter(|c| c.value) {
            // Cut in half: every codec notices a stream that stops.
            let cut = &case.packet[..case.packet.len() / 2];
            match decode_compressed(cut, case.mode, 1 << 20, &opts) {
                Err(CodecError::Decode { .. }) => {}
                other => panic!("{} {:?}: {other:?}", case.name, case.mode),
            }
        }
    }
    // Not compressed at all.
    for mode in [Compression::Deflate, Compression::Zstd, Compression::Gzip] {
        let error = decompress(b"not a packet", mode, 100).expect_err("refused");
        assert!(
            matches!(
                error,
                CodecError::Decode {
                    reason: DecodeReason::NotDecompressed(_),
                    ..
                }
            ),
            "{mode:?}: {error}"
        );
        assert_eq!(error.code(), ErrorCode::InvalidData);
    }
}

#[test]
fn a_value_must_fill_its_packet_but_fastlz_padding() {
    let opts = Options::default();
    // var_to_bytes(42), then four bytes it leaves unread.
    let mut bytes = vec![2, 0, 0, 0, 42, 0, 0, 0];
    bytes.extend_from_slice(&[1, 0, 0, 0]);
    for mode in Compression::ALL {
        let packet = compress(&bytes, mode).expect("compress");
        let error = decode_compressed(&packet, mode, 100, &opts).expect_err("not whole");
        assert!(
            matches!(
                error,
                CodecError::Decode {
                    reason: DecodeReason::RecordNotWhole { used: 8, .. },
                    ..
                }
            ),
            "{mode:?}: {error}"
        );
    }
}

#[test]
fn a_hostile_packet_makes_no_more_than_the_limit() {
    // 16 MiB of zeros in a few kilobytes of each codec: refused at the limit, each codec
    // stopping there rather than making it all.
    let zeros = vec![0u8; 16 << 20];
    for mode in Compression::ALL {
        let packet = compress(&zeros, mode).expect("compress");
        assert!(packet.len() < 1 << 20, "{mode:?}: {}", packet.len());
        let error = decompress(&packet, mode, 1 << 20).expect_err("over the limit");
        assert!(
            matches!(error, CodecError::Decode { reason: DecodeReason::DecompressedTooLong { max }, .. } if max == 1 << 20),
            "{mode:?}: {error}"
        );
    }
}
