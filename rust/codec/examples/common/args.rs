//! Command-line pieces the example servers share.

use std::time::Duration;

use fast_var_codec_core::Dialect;

/// `--timeout SECONDS`: more than 0, less than a day.
pub fn timeout_arg(s: &str) -> Result<Duration, String> {
    let secs: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if !(secs > 0.0 && secs < 86_400.0) {
        return Err("must be between 0 and 86400 seconds".into());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// `--dialect`: a dialect's name, or `3` / `4`. (Not every example takes every argument.)
#[allow(dead_code)]
pub fn dialect_arg(s: &str) -> Result<Dialect, String> {
    match s {
        "3" => Ok(Dialect::Godot3),
        "4" => Ok(Dialect::Godot4),
        name => name.parse().map_err(|e| format!("{e}")),
    }
}

/// `--trickle BYTES:MS`: answers written in pieces of BYTES, MS milliseconds apart.
#[allow(dead_code)]
pub fn trickle_arg(s: &str) -> Result<(usize, Duration), String> {
    let (bytes, ms) = s.split_once(':').ok_or("expected BYTES:MS, e.g. 65536:2")?;
    let bytes: usize = bytes.parse().map_err(|e| format!("{e}"))?;
    let ms: u64 = ms.parse().map_err(|e| format!("{e}"))?;
    if bytes == 0 || ms > 1000 {
        return Err("BYTES must be positive and MS at most 1000".into());
    }
    Ok((bytes, Duration::from_millis(ms)))
}
