#!/usr/bin/env bash
# Fuzzes the core codec with libFuzzer (cargo-fuzz; stable Rust through RUSTC_BOOTSTRAP=1).
#
#   bash tests/fuzz.sh [seconds] [target ...]
#
# Installs cargo-fuzz if missing, seeds the corpora from tests/golden (rust/fuzz/seed_corpus.sh),
# builds every target of rust/fuzz, then runs each target, one at a time, for `seconds` (default
# 60). Prints per target the executions, the coverage (libFuzzer's final "cov:") and whether it
# crashed, then one line "N passed, N failed" (N targets). Exits non-zero if any target crashed
# (panic, sanitizer report, out-of-memory, timeout); the reproducer's path is printed
# (rust/fuzz/artifacts/<target>/...). Replay one with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir rust/fuzz <target> <artifact>
# Logs: tests/out/fuzz_<target>.log. Corpora grow in rust/fuzz/corpus/ (not committed).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${1:-60}
shift || true
fuzz_dir=rust/fuzz
mkdir -p tests/out
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz"
    cargo install --locked cargo-fuzz >tests/out/fuzz_install.log 2>&1 \
        || cargo install cargo-fuzz >>tests/out/fuzz_install.log 2>&1 \
        || { echo "FAILED: cargo install cargo-fuzz (tests/out/fuzz_install.log)"; exit 1; }
fi

bash "$fuzz_dir/seed_corpus.sh" || { echo "FAILED: seeding the corpora"; exit 1; }

if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list --fuzz-dir "$fuzz_dir")
fi

echo "building ${targets[*]}"
if ! cargo fuzz build --fuzz-dir "$fuzz_dir" >tests/out/fuzz_build.log 2>&1; then
    echo "FAILED: cargo fuzz build (tests/out/fuzz_build.log)"
    tail -n 30 tests/out/fuzz_build.log
    exit 1
fi

passed=0
failed=0
printf '\n%-22s %12s %8s %8s  %s\n' target executions cov ft result
for t in "${targets[@]}"; do
    log="tests/out/fuzz_$t.log"
    mkdir -p "$fuzz_dir/corpus/$t" "$fuzz_dir/artifacts/$t"
    # -timeout: an input taking longer than 10 s is a hang; -rss_limit_mb: libFuzzer's default,
    # stated. The corpus directory is both the seeds and where new inputs are kept.
    cargo fuzz run --fuzz-dir "$fuzz_dir" "$t" -- \
        -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
        >"$log" 2>&1
    rc=$?
    execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -n 1)
    if [ -z "$execs" ]; then
        # A crash ends the run before the final stats: take the last status line's count.
        execs=$(grep -Eo '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    fi
    cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+')
    ft=$(grep -Eo 'ft: [0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+')
    artifact=$(grep -Eo 'Test unit written to [^ ]+' "$log" | tail -n 1 | sed 's/Test unit written to //')
    if [ "$rc" -eq 0 ] && [ -z "$artifact" ]; then
        result="ok, 0 crashes"
        passed=$((passed + 1))
    else
        result="CRASH (exit $rc): ${artifact:-no artifact, see $log}"
        failed=$((failed + 1))
    fi
    printf '%-22s %12s %8s %8s  %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$result"
    if [ "$result" != "ok, 0 crashes" ]; then
        grep -E "panicked at|^thread '|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY" "$log" | head -n 5 | sed 's/^/    /'
        grep -A3 "panicked at" "$log" | sed -n '2,4p' | cut -c1-300 | sed 's/^/    /'
    fi
done
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
