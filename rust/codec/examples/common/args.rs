//! Command-line pieces the example servers share.

use std::time::Duration;

/// `--timeout SECONDS`: more than 0, less than a day.
pub fn timeout_arg(s: &str) -> Result<Duration, String> {
    let secs: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if !(secs > 0.0 && secs < 86_400.0) {
        return Err("must be between 0 and 86400 seconds".into());
    }
    Ok(Duration::from_secs_f64(secs))
}
