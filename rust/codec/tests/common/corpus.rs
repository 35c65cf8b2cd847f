//! Which inputs of the golden corpora a test checks.
#![allow(dead_code)]

/// `FVC_CORPUS_STRIDE=N`: every Nth input of each corpus is checked (all of them by default).
/// The arm64 run under an emulator takes that sample (tests/run_arm64.sh); the native core step
/// checks every input.
pub fn stride() -> usize {
    std::env::var("FVC_CORPUS_STRIDE")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1)
}

/// Whether the input at `index` is in the sample: every [`stride`]th one, and every one the test
/// names (`named`), whatever its place.
pub fn sampled(index: usize, named: bool) -> bool {
    named || index.is_multiple_of(stride())
}
