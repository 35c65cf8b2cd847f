//! Seed helper for `decode_godot4_double` (run by seed_corpus.sh, an ordinary build): reads
//! lines of hex Godot 4 single-precision bytes on stdin and prints, for each that decodes
//! (objects allowed), its encoding at double precision as hex, one per line.
use std::io::{self, BufRead, Write};

use fast_var_codec_core::options::Precision;
use fast_var_codec_core::{decode, encode, Dialect, Options};

fn main() -> io::Result<()> {
    let single = Options::new(Dialect::Godot4)
        .with_allow_objects(true)
        .with_full_objects(true);
    let double = single.clone().with_precision(Precision::Double);
    let mut out = io::BufWriter::new(io::stdout().lock());
    for line in io::stdin().lock().lines() {
        let line = line?;
        let Some(bytes) = unhex(line.trim()) else {
            continue;
        };
        let Ok((value, _)) = decode(&bytes, &single) else {
            continue;
        };
        let Ok(wide) = encode(&value, &double) else {
            continue;
        };
        if wide[..] != bytes[..] {
            let hex: String = wide.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(out, "{hex}")?;
        }
    }
    out.flush()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}
