//! serde with Godot's format against other formats on the same structs, and decode into a
//! [`Value`] (the engine-free model) of the same bytes:
//!
//!   cargo bench -p fast_var_codec_core --features serde --bench serde
//!   cargo bench -p fast_var_codec_core --features serde --bench serde -- message/to_bytes
//!
//! Each struct is serialized and deserialized by `fast_var_codec_core::serde_format` (Godot 4 dialect),
//! rmp-serde (MessagePack with field names, `to_vec_named`), serde_json and postcard; the round
//! trip of every format is checked first. Groups: `STRUCT/to_bytes`, `STRUCT/from_bytes`, and
//! `STRUCT/decode_value` (our bytes into a `Value`). The summary printed at the end is the
//! median of criterion's samples per call, from `$CRITERION_HOME` (default target/criterion).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::Criterion;
use fast_var_codec_core::serde_format::{from_bytes, to_bytes};
use fast_var_codec_core::{decode, Options};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A small part of a game message.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Item {
    kind: String,
    count: i64,
}

/// One game message: a String, an i64, two f64, a bool, two Strings, two small structs.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Message {
    player: String,
    tick: i64,
    x: f64,
    y: f64,
    running: bool,
    tags: Vec<String>,
    items: Vec<Item>,
}

/// Maps inside maps.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct World {
    name: String,
    regions: BTreeMap<String, BTreeMap<String, i64>>,
}

/// A buffer of reals.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Samples {
    values: Vec<f32>,
}

/// A byte buffer (PackedByteArray in Godot's format).
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Blob {
    #[serde(with = "serde_bytes")]
    data: Vec<u8>,
}

fn message(i: i64) -> Message {
    Message {
        player: format!("player-{i}"),
        tick: 1_000_000 + i,
        x: 12.5 + i as f64,
        y: -3.25,
        running: i % 2 == 0,
        tags: vec!["red".into(), "fast".into()],
        items: vec![
            Item {
                kind: "sword".into(),
                count: 1,
            },
            Item {
                kind: "potion".into(),
                count: 3 + i,
            },
        ],
    }
}

fn world() -> World {
    let mut regions = BTreeMap::new();
    for r in 0..20 {
        let mut inner = BTreeMap::new();
        for k in 0..10 {
            inner.insert(format!("stat-{k}"), r * 100 + k);
        }
        regions.insert(format!("region-{r}"), inner);
    }
    World {
        name: "world".into(),
        regions,
    }
}

fn opts() -> Options {
    Options::default()
}

/// One struct in each format: checks the round trips, then benchmarks them.
fn bench<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(
    c: &mut Criterion,
    name: &str,
    value: &T,
) {
    let o = opts();
    let ours = to_bytes(value, &o).expect("to_bytes");
    assert_eq!(&from_bytes::<T>(&ours, &o).expect("from_bytes"), value);
    let rmp = rmp_serde::to_vec_named(value).expect("rmp");
    assert_eq!(&rmp_serde::from_slice::<T>(&rmp).expect("rmp"), value);
    let json = serde_json::to_vec(value).expect("json");
    assert_eq!(&serde_json::from_slice::<T>(&json).expect("json"), value);
    let post = postcard::to_allocvec(value).expect("postcard");
    assert_eq!(&postcard::from_bytes::<T>(&post).expect("postcard"), value);
    println!(
        "serde bench: {name}: {} bytes (rmp {}, json {}, postcard {})",
        ours.len(),
        rmp.len(),
        json.len(),
        post.len()
    );

    let mut g = c.benchmark_group(format!("{name}/to_bytes"));
    g.bench_function("godot", |b| b.iter(|| to_bytes(black_box(value), &o)));
    g.bench_function("rmp", |b| {
        b.iter(|| rmp_serde::to_vec_named(black_box(value)))
    });
    g.bench_function("json", |b| b.iter(|| serde_json::to_vec(black_box(value))));
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::to_allocvec(black_box(value)))
    });
    g.finish();

    let mut g = c.benchmark_group(format!("{name}/from_bytes"));
    g.bench_function("godot", |b| {
        b.iter(|| from_bytes::<T>(black_box(&ours), &o))
    });
    g.bench_function("rmp", |b| {
        b.iter(|| rmp_serde::from_slice::<T>(black_box(&rmp)))
    });
    g.bench_function("json", |b| {
        b.iter(|| serde_json::from_slice::<T>(black_box(&json)))
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::from_bytes::<T>(black_box(&post)))
    });
    g.finish();

    let mut g = c.benchmark_group(format!("{name}/decode_value"));
    g.bench_function("godot", |b| b.iter(|| decode(black_box(&ours), &o)));
    g.finish();
}

fn criterion_home() -> PathBuf {
    std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            // The package's folder when cargo runs the bench (not `env!`: tests/source_times.py).
            std::env::var_os("CARGO_MANIFEST_DIR")
                .map(|dir| PathBuf::from(dir).join("../../target/criterion"))
        })
        .unwrap_or_else(|| PathBuf::from("target/criterion"))
}

/// The median per call of one benchmark, from criterion's estimates.
fn median_ns(group: &str, name: &str) -> Option<f64> {
    let dir = criterion_home().join(group.replace('/', "_")).join(name);
    let text = std::fs::read_to_string(dir.join("new/estimates.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn summary(names: &[&str]) {
    println!(
        "\nserde bench: median per call (ns); godot = fast_var_codec_core::serde_format, Godot 4 dialect"
    );
    println!(
        "{:<28} {:>10} {:>10} {:>10} {:>10}",
        "", "godot", "rmp", "json", "postcard"
    );
    for name in names {
        for op in ["to_bytes", "from_bytes"] {
            let group = format!("{name}/{op}");
            let cell = |f: &str| median_ns(&group, f).map_or("-".into(), |ns| format!("{ns:.0}"));
            println!(
                "{:<28} {:>10} {:>10} {:>10} {:>10}",
                group,
                cell("godot"),
                cell("rmp"),
                cell("json"),
                cell("postcard")
            );
        }
        let group = format!("{name}/decode_value");
        let cell = median_ns(&group, "godot").map_or("-".into(), |ns| format!("{ns:.0}"));
        println!("{group:<28} {cell:>10}");
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let samples = Samples {
        values: (0..10_000).map(|i| i as f32 * 0.25).collect(),
    };
    let blob = Blob {
        data: (0..65_536u32).map(|i| (i * 31 % 251) as u8).collect(),
    };
    let messages: Vec<Message> = (0..100).map(message).collect();
    bench(&mut c, "message", &message(7));
    bench(&mut c, "messages_100", &messages);
    bench(&mut c, "world", &world());
    bench(&mut c, "f32_10k", &samples);
    bench(&mut c, "bytes_64k", &blob);
    c.final_summary();
    summary(&["message", "messages_100", "world", "f32_10k", "bytes_64k"]);
}
