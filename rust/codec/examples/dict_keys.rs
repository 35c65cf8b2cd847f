//! Times the decode of one large Dictionary whose keys are all distinct values of one kind (the
//! input that made the engine-free builder quadratic before keys were hashed by content).
//!
//! ```sh
//! cargo run --release --example dict_keys -p fast_var_codec_core -- [KIND] [N]
//! ```
//!
//! KIND is one of `vector2` (default), `int`, `string`, `vector3i`, `color`, `rect2`, `array`,
//! `dictionary`; N is the number of keys (default 64000: with Nil values and Vector2 keys that is
//! a 1 MB input). Prints the input size, the number of entries decoded and the best of a few
//! decode times (a single one when it takes over a second).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use fast_var_codec_core::{decode, encode, Dialect, Options, Value};

fn key(kind: &str, i: u32) -> Option<Value> {
    let f = f64::from(i);
    let x = f64::from(i % 256);
    let y = f64::from(i / 256);
    Some(match kind {
        "vector2" => Value::Vector2([x, y]),
        "int" => Value::Int(i64::from(i)),
        "string" => Value::String(format!("k{i}").into()),
        "vector3i" => Value::Vector3i([(i % 256) as i32, (i / 256) as i32, 7]),
        "color" => Value::Color([(i % 256) as f32, (i / 256) as f32, 0.5, 1.0]),
        "rect2" => Value::Rect2(Box::new([x, y, 1.0, 1.0])),
        "array" => Value::array(vec![Value::Float(f), Value::Int(1)]),
        "dictionary" => Value::dictionary(vec![(Value::String("k".into()), Value::Float(f))]),
        _ => return None,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map_or("vector2", String::as_str);
    let n: u32 = match args.get(1).map(|s| s.parse()) {
        None => 64_000,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("usage: dict_keys [KIND] [N]");
            return ExitCode::from(2);
        }
    };
    let mut entries = Vec::new();
    for i in 0..n {
        match key(kind, i) {
            Some(k) => entries.push((k, Value::Nil)),
            None => {
                eprintln!("unknown kind {kind}");
                return ExitCode::from(2);
            }
        }
    }
    let opts = Options::new(Dialect::Godot4);
    let bytes = match encode(&Value::dictionary(entries), &opts) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("encode: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut best = Duration::MAX;
    let mut decoded = 0;
    for _ in 0..5 {
        let t = Instant::now();
        match decode(&bytes, &opts) {
            Ok((Value::Dictionary(d), _)) => decoded = d.len(),
            Ok(_) => decoded = 0,
            Err(e) => {
                eprintln!("decode: {e}");
                return ExitCode::FAILURE;
            }
        }
        let took = t.elapsed();
        best = best.min(took);
        if took > Duration::from_secs(1) {
            break;
        }
    }
    println!(
        "{kind}: {n} keys, {} bytes, {decoded} entries decoded, decode {:.3} ms",
        bytes.len(),
        best.as_secs_f64() * 1e3
    );
    ExitCode::SUCCESS
}
