//! Criterion benchmarks of the core codec on the payload suite of the Godot benchmark
//! (`godot_project/bench/bench.gd`): the same shapes, built from the same seed with the same LCG, so
//! the encodings are byte for byte the engine's (checked when the Godot bench has written them).
//!
//!   cargo bench -p fast_var_codec_core --bench codec              (tests/bench.sh runs it)
//!   cargo bench -p fast_var_codec_core --bench codec -- decode_g4 (criterion filters work)
//!
//! Groups (each reports MB/s of the encoded size, criterion `Throughput::Bytes`):
//!   encode_g4       `encode` (a new buffer per call, like `var_to_bytes`), Godot 4 dialect
//!   encode_into_g4  `encode_into` a reused `BytesMut`
//!   decode_g4       `decode` to a `Value` (dropping it is timed too)
//!   encode_g3 / decode_g3   the same in the Godot 3 dialect
//!   memcpy          `copy_from_slice` of as many bytes as the Godot 4 encoding: the physical limit
//!   decode_keys_g4  `decode` of 1-2 MB Dictionaries of 64,000 distinct Vector2, Color or Array keys
//!                   (not in the Godot bench nor in the summary table)
//!
//! After criterion has run, a summary table (median of criterion's samples) is printed from the
//! `estimates.json` files under `$CRITERION_HOME` (default `target/criterion`) and, when
//! `FVC_BENCH_OUT` names a file, written there as JSON. When `FVC_BENCH_PAYLOAD_DIR` names the
//! directory where the Godot bench stored the engine's `var_to_bytes` of each payload
//! (`<name>.godot4.bin`), the core's encoding is compared with it first (a mismatch aborts).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bytes::BytesMut;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput};
use fast_var_codec_core::transcode::{transcode, transcode_into};
use fast_var_codec_core::value::{Array, ContainerType, VariantType};
use fast_var_codec_core::{decode, encode, encode_into, Dialect, Options, Value};

const SEED: u32 = 20250611;

/// Non-ASCII words of the 1 MiB text (same escapes as bench.gd).
const WORDS: [&str; 10] = [
    "Gr\u{fc}\u{df}e",
    "\u{65e5}\u{672c}\u{8a9e}\u{306e}\u{30c6}\u{30ad}\u{30b9}\u{30c8}",
    "\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442}",
    "h\u{e9}llo",
    "w\u{f6}rld",
    "\u{1f3ae}",
    "\u{fc}n\u{ef}c\u{f6}d\u{e9}",
    "\u{6771}\u{4eac}",
    "\u{395}\u{3bb}\u{3bb}\u{3b7}\u{3bd}\u{3b9}\u{3ba}\u{3ac}",
    "na\u{ef}ve caf\u{e9}",
];
const ALPHA: &str = "abcdefghijklmnop";

/// 32-bit LCG (Numerical Recipes), identical in bench.gd.
struct Lcg(u32);

impl Lcg {
    fn new(seed: u32) -> Lcg {
        Lcg(seed)
    }
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(1664525).wrapping_add(1013904223);
        self.0
    }
    fn next_i64(&mut self) -> i64 {
        i64::from(self.next())
    }
    /// A float exactly representable in binary32, in [-128, 128).
    fn f32v(&mut self) -> f64 {
        (i64::from(self.next() >> 8) - 8388608) as f64 / 65536.0
    }
}

fn s(text: &str) -> Value {
    Value::String(text.to_string().into())
}

struct Payload {
    name: &'static str,
    value: Value,
}

fn payloads() -> Vec<Payload> {
    let mut list = Vec::new();

    let mut r = Lcg::new(SEED + 1);
    let id = r.next_i64() % 100000;
    let seq = r.next_i64() % 65536;
    let hp = r.f32v();
    let pos = [r.f32v(), r.f32v(), r.f32v()];
    let name = format!("player_{}", r.next() % 1000);
    let inputs = vec![
        Value::Int(r.next_i64() % 16),
        Value::Int(r.next_i64() % 16),
        Value::Float(r.f32v()),
    ];
    let t = f64::from(r.next()) / 3.0;
    list.push(Payload {
        name: "small_message",
        value: Value::dictionary(vec![
            (s("id"), Value::Int(id)),
            (s("seq"), Value::Int(seq)),
            (s("hp"), Value::Float(hp)),
            (s("pos"), Value::Vector3(pos)),
            (s("name"), Value::String(name.into())),
            (s("inputs"), Value::array(inputs)),
            (s("t"), Value::Float(t)),
        ]),
    });

    let mut r = Lcg::new(SEED + 2);
    list.push(Payload {
        name: "f32_1m",
        value: Value::PackedFloat32Array((0..1_000_000).map(|_| r.f32v() as f32).collect()),
    });

    let mut r = Lcg::new(SEED + 3);
    list.push(Payload {
        name: "vec3_100k",
        value: Value::PackedVector3Array(
            (0..100_000)
                .map(|_| [r.f32v(), r.f32v(), r.f32v()])
                .collect(),
        ),
    });

    let mut r = Lcg::new(SEED + 4);
    list.push(Payload {
        name: "bytes_4m",
        value: Value::PackedByteArray(
            (0..(4 << 20) / 4)
                .flat_map(|_| r.next().to_le_bytes())
                .collect(),
        ),
    });

    let mut r = Lcg::new(SEED + 5);
    let dicts = (0..10_000)
        .map(|_| {
            let name = format!("item_{}", r.next() % 100000);
            let hp = r.next_i64() % 1000;
            let pos = [r.f32v(), r.f32v()];
            Value::dictionary(vec![
                (s("name"), Value::String(name.into())),
                (s("hp"), Value::Int(hp)),
                (s("pos"), Value::Vector2(pos)),
            ])
        })
        .collect();
    list.push(Payload {
        name: "dicts_10k",
        value: Value::array(dicts),
    });

    let mut r = Lcg::new(SEED + 6);
    let strings = (0..10_000)
        .map(|_| {
            let k = r.next() % 1000000;
            let l = (r.next() % 16) as usize;
            format!("item_{k}_{}", &ALPHA[..l]).into()
        })
        .collect();
    list.push(Payload {
        name: "strings_10k",
        value: Value::PackedStringArray(strings),
    });

    let mut r = Lcg::new(SEED + 7);
    let mut parts = Vec::new();
    let mut total = 0;
    while total < 1 << 20 {
        let w = WORDS[(r.next() % WORDS.len() as u32) as usize];
        parts.push(w);
        total += w.len() + 1;
    }
    list.push(Payload {
        name: "text_1m",
        value: Value::String(parts.join(" ").into()),
    });

    let mut r = Lcg::new(SEED + 8);
    let mixed = (0..10_000)
        .map(|_| match r.next() % 6 {
            0 => Value::Int(r.next_i64() % 1000),
            1 => {
                let hi = r.next_i64() & 0x7FFF_FFFF;
                Value::Int((hi << 32) | r.next_i64())
            }
            2 => Value::Float(r.f32v()),
            3 => Value::Float(f64::from(r.next()) / 3.0),
            4 => Value::Bool(r.next() & 1 == 1),
            _ => Value::Nil,
        })
        .collect();
    list.push(Payload {
        name: "mixed_10k",
        value: Value::array(mixed),
    });

    let mut r = Lcg::new(SEED + 9);
    list.push(Payload {
        name: "typed_int_100k",
        value: Value::Array(Box::new(Array {
            element: ContainerType::Builtin(VariantType::Int),
            items: (0..100_000)
                .map(|_| Value::Int(r.next_i64() - 2147483648))
                .collect(),
        })),
    });
    list
}

/// Compares the core's Godot 4 encoding with the engine's bytes the Godot bench stored.
fn check_against_engine(payloads: &[Payload], g4: &Options) {
    let Some(dir) = std::env::var_os("FVC_BENCH_PAYLOAD_DIR") else {
        return;
    };
    let dir = PathBuf::from(dir);
    let mut checked = 0;
    for p in payloads {
        let path = dir.join(format!("{}.godot4.bin", p.name));
        let Ok(engine) = std::fs::read(&path) else {
            eprintln!(
                "codec bench: no engine bytes at {} (skipped)",
                path.display()
            );
            continue;
        };
        let ours = encode(&p.value, g4).expect("encode");
        if ours[..] != engine[..] {
            let at = ours
                .iter()
                .zip(&engine)
                .position(|(a, b)| a != b)
                .unwrap_or(ours.len().min(engine.len()));
            eprintln!(
                "codec bench: ABORT, payload {}: the core's encoding ({} bytes) differs from the engine's var_to_bytes ({} bytes) at byte {at}: the Rust and GDScript payload builders disagree, or the codec is wrong",
                p.name,
                ours.len(),
                engine.len()
            );
            std::process::exit(1);
        }
        let (back, used) = decode(&engine, g4).expect("decode");
        assert_eq!(used, engine.len(), "{}: decode consumed", p.name);
        assert!(
            back == p.value,
            "{}: decode differs from the payload",
            p.name
        );
        checked += 1;
    }
    eprintln!(
        "codec bench: {checked} payloads encode to exactly the engine's var_to_bytes bytes ({})",
        dir.display()
    );
}

/// A group with flat sampling: the same iteration count in every sample, which suits the
/// millisecond-long payloads within the short measurement time.
fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g
}

fn bench_all(c: &mut Criterion, payloads: &[Payload]) {
    for (dialect, opts) in [
        ("g4", Options::new(Dialect::Godot4)),
        ("g3", Options::new(Dialect::Godot3)),
    ] {
        let encoded: Vec<BytesMut> = payloads
            .iter()
            .map(|p| encode(&p.value, &opts).expect("encode"))
            .collect();
        for (p, bytes) in payloads.iter().zip(&encoded) {
            let (back, used) = decode(bytes, &opts).expect("decode");
            assert_eq!(used, bytes.len());
            if dialect == "g4" {
                assert!(back == p.value, "{}: round trip", p.name);
            }
        }

        let mut g = group(c, &format!("encode_{dialect}"));
        for (p, bytes) in payloads.iter().zip(&encoded) {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_function(p.name, |b| {
                b.iter(|| encode(black_box(&p.value), &opts).expect("encode"))
            });
        }
        g.finish();

        if dialect == "g4" {
            let mut g = group(c, &format!("encode_into_{dialect}"));
            for (p, bytes) in payloads.iter().zip(&encoded) {
                g.throughput(Throughput::Bytes(bytes.len() as u64));
                let mut buf = BytesMut::with_capacity(bytes.len());
                g.bench_function(p.name, |b| {
                    b.iter(|| {
                        buf.clear();
                        encode_into(black_box(&p.value), &opts, &mut buf).expect("encode_into")
                    })
                });
            }
            g.finish();
        }

        let mut g = group(c, &format!("decode_{dialect}"));
        for (p, bytes) in payloads.iter().zip(&encoded) {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_function(p.name, |b| {
                b.iter(|| decode(black_box(&bytes[..]), &opts).expect("decode"))
            });
        }
        g.finish();

        if dialect == "g4" {
            let mut g = group(c, "memcpy");
            for (p, bytes) in payloads.iter().zip(&encoded) {
                g.throughput(Throughput::Bytes(bytes.len() as u64));
                let src = bytes.to_vec();
                let mut dst = vec![0u8; src.len()];
                g.bench_function(p.name, |b| {
                    b.iter(|| {
                        dst.copy_from_slice(black_box(&src));
                        black_box(&mut dst);
                    })
                });
            }
            g.finish();
        }
    }
}

/// Godot 3 bytes to Godot 4 bytes and back (lossy), by `transcode` and by decode then encode,
/// for the closing table of the summary.
const TRANSCODINGS: [(&str, Dialect, Dialect); 2] = [
    ("g3_to_g4", Dialect::Godot3, Dialect::Godot4),
    ("g4_to_g3", Dialect::Godot4, Dialect::Godot3),
];

fn transcoding_options(from: Dialect, to: Dialect) -> (Options, Options) {
    (Options::new(from), Options::new(to).with_allow_lossy(true))
}

fn bench_transcode(c: &mut Criterion, payloads: &[Payload]) {
    for (name, from, to) in TRANSCODINGS {
        let (from, to) = transcoding_options(from, to);
        let inputs: Vec<BytesMut> = payloads
            .iter()
            .map(|p| encode(&p.value, &from).expect("encode"))
            .collect();
        for (p, bytes) in payloads.iter().zip(&inputs) {
            let (v, _) = decode(bytes, &from).expect("decode");
            let (t, _) = transcode(bytes, &from, &to).expect("transcode");
            assert_eq!(t, encode(&v, &to).expect("encode"), "{}: {name}", p.name);
        }
        let mut g = group(c, &format!("transcode_{name}"));
        for (p, bytes) in payloads.iter().zip(&inputs) {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            let mut out = BytesMut::with_capacity(2 * bytes.len());
            g.bench_function(p.name, |b| {
                b.iter(|| {
                    out.clear();
                    transcode_into(black_box(&bytes[..]), &from, &to, &mut out).expect("transcode")
                })
            });
        }
        g.finish();
        let mut g = group(c, &format!("decode_encode_{name}"));
        for (p, bytes) in payloads.iter().zip(&inputs) {
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            let mut out = BytesMut::with_capacity(2 * bytes.len());
            g.bench_function(p.name, |b| {
                b.iter(|| {
                    out.clear();
                    let (v, _) = decode(black_box(&bytes[..]), &from).expect("decode");
                    encode_into(&v, &to, &mut out).expect("encode")
                })
            });
        }
        g.finish();
    }
}

/// Transcoding against decode then encode, per payload (criterion medians of this run).
fn transcode_summary(payloads: &[Payload], home: &Path) -> (String, Vec<serde_json::Value>) {
    let mut text = String::from(
        "Transcoding (lossy toward Godot 3) against decode then encode: median per call, and how many times faster
",
    );
    let mut rows = Vec::new();
    for (name, _, _) in TRANSCODINGS {
        text.push_str(&format!(
            "{:<15} {:>12} {:>14} {:>8}   ({name})\n",
            "payload", "transcode", "decode+encode", "speedup"
        ));
        for p in payloads {
            let t = median_ns(home, &format!("transcode_{name}"), p.name);
            let de = median_ns(home, &format!("decode_encode_{name}"), p.name);
            if let (Some(t), Some(de)) = (t, de) {
                text.push_str(&format!(
                    "{:<15} {:>12} {:>14} {:>7.2}x\n",
                    p.name,
                    fmt_time(t),
                    fmt_time(de),
                    de / t
                ));
                rows.push(serde_json::json!({
                    "transcoding": name, "payload": p.name,
                    "transcode_median_ns": t, "decode_encode_median_ns": de, "speedup": de / t,
                }));
            }
        }
    }
    (text, rows)
}

/// Large Dictionaries whose keys are all distinct values of one kind (not in the Godot bench):
/// 64,000 Vector2 keys with Nil values are 1 MB. Decoding them was quadratic while keys other than
/// String, StringName, Int and Float were hashed by their type alone.
fn bench_dictionary_keys(c: &mut Criterion) {
    type KeyOf = fn(u32) -> Value;
    let opts = Options::new(Dialect::Godot4);
    let cases: [(&str, KeyOf); 3] = [
        ("vector2_keys_64k", |i| {
            Value::Vector2([f64::from(i % 256), f64::from(i / 256)])
        }),
        ("color_keys_64k", |i| {
            Value::Color([(i % 256) as f32, (i / 256) as f32, 0.5, 1.0])
        }),
        ("array_keys_64k", |i| {
            Value::array(vec![
                Value::Int(i64::from(i % 256)),
                Value::Int(i64::from(i / 256)),
            ])
        }),
    ];
    let mut g = group(c, "decode_keys_g4");
    for (name, key) in cases {
        let value = Value::dictionary((0..64_000).map(|i| (key(i), Value::Nil)).collect());
        let bytes = encode(&value, &opts).expect("encode");
        let (back, _) = decode(&bytes, &opts).expect("decode");
        assert!(back == value, "{name}: round trip");
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| decode(black_box(&bytes[..]), &opts).expect("decode"))
        });
    }
    g.finish();
}

const GROUPS: [&str; 6] = [
    "encode_g4",
    "encode_into_g4",
    "decode_g4",
    "memcpy",
    "encode_g3",
    "decode_g3",
];

fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir).join("criterion");
    }
    // Benches run with the package directory as working directory; the workspace target is
    // two levels up (rust/codec -> repo).
    for candidate in ["../../target/criterion", "target/criterion"] {
        if Path::new(candidate).is_dir() {
            return PathBuf::from(candidate);
        }
    }
    PathBuf::from("target/criterion")
}

/// Median time per iteration in ns from criterion's estimates.json, if that benchmark ran.
fn median_ns(home: &Path, group: &str, name: &str) -> Option<f64> {
    let text =
        std::fs::read_to_string(home.join(group).join(name).join("new/estimates.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn fmt_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e4 {
        format!("{:.2} us", ns / 1e3)
    } else if ns < 1e6 {
        format!("{:.1} us", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

fn summary(payloads: &[Payload]) {
    let home = criterion_home();
    let g4 = Options::new(Dialect::Godot4);
    let g3 = Options::new(Dialect::Godot3);
    let mut rows = Vec::new();
    let mut text = String::new();
    text.push_str(&format!(
        "Rust core (criterion median per call; MB/s = 10^6 bytes/s of the encoded size; results in {})\n",
        home.display()
    ));
    text.push_str(&format!(
        "{:<15} {:>9} | {:>20} {:>20} {:>20} {:>20} | {:>20} {:>20}\n",
        "payload",
        "size",
        "encode_g4",
        "encode_into_g4",
        "decode_g4",
        "memcpy",
        "encode_g3",
        "decode_g3"
    ));
    for p in payloads {
        let size4 = fast_var_codec_core::encoded_size(&p.value, &g4).unwrap_or(0);
        let size3 = fast_var_codec_core::encoded_size(&p.value, &g3).unwrap_or(0);
        let mut cells = Vec::new();
        let mut row = serde_json::Map::new();
        row.insert("payload".into(), p.name.into());
        row.insert("bytes_godot4".into(), size4.into());
        row.insert("bytes_godot3".into(), size3.into());
        for group in GROUPS {
            let size = if group.ends_with("g3") { size3 } else { size4 };
            match median_ns(&home, group, p.name) {
                Some(ns) => {
                    let mbs = size as f64 / ns * 1e3;
                    cells.push(format!("{:>9} {:>6.0} MB/s", fmt_time(ns), mbs));
                    row.insert(
                        group.into(),
                        serde_json::json!({"median_ns": ns, "mb_s": mbs}),
                    );
                }
                None => cells.push(format!("{:>20}", "-")),
            }
        }
        text.push_str(&format!(
            "{:<15} {:>9} | {} | {}\n",
            p.name,
            size4,
            cells[..4].join(" "),
            cells[4..].join(" ")
        ));
        rows.push(serde_json::Value::Object(row));
    }
    let (transcoding, transcoding_rows) = transcode_summary(payloads, &home);
    println!("\n{text}\n{transcoding}");
    if let Some(out) = std::env::var_os("FVC_BENCH_OUT") {
        let doc = serde_json::json!({
            "criterion_home": home.display().to_string(),
            "statistic": "criterion median of the per-iteration time",
            "mb": "10^6 bytes",
            "results": rows,
            "transcoding": transcoding_rows,
        });
        let text = serde_json::to_string_pretty(&doc).expect("json") + "\n";
        if let Err(e) = std::fs::write(&out, text) {
            eprintln!(
                "codec bench: cannot write {}: {e}",
                Path::new(&out).display()
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo test --benches` runs this with --test (each benchmark once); --list only lists.
    let quick = args.iter().any(|a| a == "--test" || a == "--list");
    let payloads = payloads();
    check_against_engine(&payloads, &Options::new(Dialect::Godot4));
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .configure_from_args();
    bench_all(&mut c, &payloads);
    bench_transcode(&mut c, &payloads);
    bench_dictionary_keys(&mut c);
    c.final_summary();
    if !quick {
        summary(&payloads);
    }
}
