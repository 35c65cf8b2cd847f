//! Criterion benchmarks of building and searching a large [`Dictionary`] from Rust, beside
//! `serde_json::Map` doing the same (a `BTreeMap` here: serde_json's `preserve_order` feature is
//! off). String keys `key0`, `key1` …, int values; 10k, 100k and 1M entries.
//!
//!   cargo bench -p fast_var_codec_core --bench dictionary
//!
//! Groups (each timing all the entries of one size):
//!   insert     `Dictionary::new` then `insert` of each key (`Map::insert`)
//!   get        `get` of each key in a built one (its index already made by an earlier lookup)
//!   from_map   `Value::from(HashMap<String, i64>)` (a `Map` collected from the same HashMap);
//!              the HashMap is cloned outside the timing

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
use fast_var_codec_core::value::Dictionary;
use fast_var_codec_core::Value;

const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

fn keys(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("key{i}")).collect()
}

fn fvc_dictionary(keys: &[String]) -> Dictionary {
    let mut d = Dictionary::new();
    for (i, k) in keys.iter().enumerate() {
        d.insert(k.as_str(), i as i64);
    }
    d
}

fn json_map(keys: &[String]) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    for (i, k) in keys.iter().enumerate() {
        m.insert(k.clone(), serde_json::Value::from(i as i64));
    }
    m
}

fn bench(c: &mut Criterion) {
    for n in SIZES {
        let keys = keys(n);
        let map: HashMap<String, i64> = keys.iter().cloned().zip(0..).collect();
        let d = fvc_dictionary(&keys);
        black_box(d.get("key0"));
        let m = json_map(&keys);

        let mut g = c.benchmark_group("insert");
        g.throughput(Throughput::Elements(n as u64));
        g.sample_size(10);
        g.bench_function(BenchmarkId::new("Dictionary", n), |b| {
            b.iter(|| fvc_dictionary(black_box(&keys)))
        });
        g.bench_function(BenchmarkId::new("serde_json::Map", n), |b| {
            b.iter(|| json_map(black_box(&keys)))
        });
        g.finish();

        let mut g = c.benchmark_group("get");
        g.throughput(Throughput::Elements(n as u64));
        g.sample_size(10);
        g.bench_function(BenchmarkId::new("Dictionary", n), |b| {
            b.iter(|| {
                keys.iter()
                    .filter_map(|k| d.get(k.as_str()).and_then(Value::as_i64))
                    .sum::<i64>()
            })
        });
        g.bench_function(BenchmarkId::new("serde_json::Map", n), |b| {
            b.iter(|| {
                keys.iter()
                    .filter_map(|k| m.get(k.as_str()).and_then(serde_json::Value::as_i64))
                    .sum::<i64>()
            })
        });
        g.finish();

        let mut g = c.benchmark_group("from_map");
        g.throughput(Throughput::Elements(n as u64));
        g.sample_size(10);
        g.bench_function(BenchmarkId::new("Dictionary", n), |b| {
            b.iter_batched(|| map.clone(), Value::from, BatchSize::PerIteration)
        });
        g.bench_function(BenchmarkId::new("serde_json::Map", n), |b| {
            b.iter_batched(
                || map.clone(),
                |map| {
                    map.into_iter()
                        .map(|(k, v)| (k, serde_json::Value::from(v)))
                        .collect::<serde_json::Map<_, _>>()
                },
                BatchSize::PerIteration,
            )
        });
        g.finish();
    }
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1))
}

criterion::criterion_group! {
    name = benches;
    config = config();
    targets = bench
}
criterion::criterion_main!(benches);
