#!/usr/bin/env bash
# Fuzzes the core codec with libFuzzer (cargo-fuzz; stable Rust through RUSTC_BOOTSTRAP=1).
#
#   bash tests/fuzz.sh [seconds] [target ...]
#
# Takes cargo-fuzz (its version pinned below) from the tool cache, where it is compiled once per
# machine (fvc_cargo_tool), seeds the corpora from tests/golden (rust/fuzz/seed_corpus.sh), builds
# every target of rust/fuzz, then runs each target for `seconds` (default 60), as many at a time as
# there are processors (FUZZ_JOBS overrides; each libFuzzer run is one process). Prints per target
# the executions, the coverage (libFuzzer's final "cov:"), the slow inputs
# reported and the result, then one line "N passed, N failed" (N targets). Exits non-zero if any
# target crashed (panic, sanitizer report, out-of-memory) or timed out; the reproducer's path is
# printed (rust/fuzz/artifacts/<target>/crash-..., timeout-..., oom-...). Replay one with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir rust/fuzz <target> <artifact>
# (cargo-fuzz on PATH: `cargo install cargo-fuzz`, or the tool cache's cargo-fuzz-VERSION/bin).
# Logs: tests/out/fuzz/<target>.log. Corpora grow in rust/fuzz/corpus/ (not committed).
#
# Environment (libFuzzer flags):
#   FUZZ_MAX_LEN  largest input tried, bytes (-max_len; default 4194304: 4 MiB, so that large
#                 containers, e.g. Dictionaries of many keys, are reachable)
#   FUZZ_TIMEOUT  seconds one input may take before it counts as a hang and fails the run
#                 (-timeout; default 10)
#   FUZZ_SLOW     seconds from which an input is reported as slow (-report_slow_units; default 2).
#                 libFuzzer reports an input when it is the slowest so far (by more than 10%) and
#                 keeps it as artifacts/<target>/slow-unit-...; slow inputs are counted and listed
#                 but do not fail the run.
#   FUZZ_RUNS     stop each target after this many executions (-runs) instead of after `seconds`
#                 (pass 0 as seconds): the documented long run is
#                 FUZZ_RUNS=10000000 FUZZ_SANITIZER=none bash tests/fuzz.sh 0 [target ...]
#   FUZZ_JOBS     targets run at the same time (default: the processors, nproc)
#   FUZZ_SANITIZER cargo fuzz's -s: address (default; what the test command runs) or none. The core
#                 is safe Rust but for two byte views of number slices (rust/codec/src/sink.rs), so
#                 a long run without AddressSanitizer loses little and runs 3-20 times faster.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
secs=${1:-60}
shift || true
max_len=${FUZZ_MAX_LEN:-4194304}
sanitizer=${FUZZ_SANITIZER:-address}
timeout=${FUZZ_TIMEOUT:-10}
slow=${FUZZ_SLOW:-2}
fuzz_dir=rust/fuzz
if [ -n "${FUZZ_RUNS:-}" ]; then
    budget=(-runs="$FUZZ_RUNS")
else
    budget=(-max_total_time="$secs")
fi
logs=$(fvc_out_dir) || exit 2
export RUSTC_BOOTSTRAP=1

cargo_fuzz_version=0.13.2
if ! cargo_fuzz_bin=$(fvc_cargo_tool cargo-fuzz "$cargo_fuzz_version" cargo-fuzz "$logs/install.log"); then
    echo "FAILED: cargo install cargo-fuzz $cargo_fuzz_version (tests/out/fuzz/install.log)"
    exit 1
fi
# `cargo fuzz ...`, through the pinned cargo-fuzz of the tool cache.
cargo_fuzz() { "$cargo_fuzz_bin" fuzz "$@"; }

bash "$fuzz_dir/seed_corpus.sh" || { echo "FAILED: seeding the corpora"; exit 1; }

if [ $# -gt 0 ]; then
    targets=("$@")
    build=("$@") # only the targets asked for
else
    mapfile -t targets < <(cargo_fuzz list --fuzz-dir "$fuzz_dir")
    build=("") # every target at once
fi

echo "building ${targets[*]}"
: >"$logs/build.log"
for b in "${build[@]}"; do
    if ! cargo_fuzz build -s "$sanitizer" --fuzz-dir "$fuzz_dir" ${b:+"$b"} >>"$logs/build.log" 2>&1; then
        echo "FAILED: cargo fuzz build ${b} (tests/out/fuzz/build.log)"
        tail -n 30 "$logs/build.log"
        exit 1
    fi
done

# run_target T: fuzzes T, then writes its table row (and any notes under it) to $logs/T.row, the
# number of slow inputs it reported to $logs/T.slow and 0 (ok) or 1 to $logs/T.status.
run_target() {
    local t=$1 log="$logs/$1.log" rc execs cov ft nslow artifact result
    mkdir -p "$fuzz_dir/corpus/$t" "$fuzz_dir/artifacts/$t"
    # -timeout: an input taking longer is a hang (libFuzzer exits, keeps it as timeout-...);
    # -report_slow_units: slower inputs are reported and kept as slow-unit-...; -max_len: the
    # largest input; -rss_limit_mb: libFuzzer's default, stated. The corpus directory is both
    # the seeds and where new inputs are kept.
    cargo_fuzz run -s "$sanitizer" --fuzz-dir "$fuzz_dir" "$t" -- \
        "${budget[@]}" -print_final_stats=1 -max_len="$max_len" \
        -timeout="$timeout" -report_slow_units="$slow" -rss_limit_mb=2048 \
        >"$log" 2>&1
    rc=$?
    execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -n 1)
    if [ -z "$execs" ]; then
        # A crash ends the run before the final stats: take the last status line's count.
        execs=$(grep -Eo '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    fi
    cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+')
    ft=$(grep -Eo 'ft: [0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+')
    # Every reported slow input is one "Slowest unit: N s:" line followed by its artifact.
    nslow=$(grep -c '^Slowest unit: ' "$log")
    artifact=$(grep -Eo 'Test unit written to [^ ]+' "$log" | sed 's/Test unit written to //' \
        | grep -v '/slow-unit-' | tail -n 1)
    if grep -q 'ERROR: libFuzzer: timeout after' "$log"; then
        result="TIMEOUT (over ${timeout} s, exit $rc): ${artifact:-no artifact, see $log}"
    elif [ "$rc" -eq 0 ] && [ -z "$artifact" ]; then
        result="ok, 0 crashes"
    else
        result="CRASH (exit $rc): ${artifact:-no artifact, see $log}"
    fi
    {
        printf '%-22s %12s %8s %8s %5s  %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$nslow" "$result"
        if [ "$nslow" -gt 0 ]; then
            grep -A1 '^Slowest unit: ' "$log" | grep -Eo '^Slowest unit: [0-9]+ s|Test unit written to [^ ]+' \
                | paste -d' ' - - | sed 's/Test unit written to //; s/^/    slow: /'
        fi
        if [ "$result" != "ok, 0 crashes" ]; then
            grep -E "panicked at|^thread '|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY" "$log" | head -n 5 | sed 's/^/    /'
            grep -A3 "panicked at" "$log" | sed -n '2,4p' | cut -c1-300 | sed 's/^/    /'
        fi
    } >"$logs/$t.row"
    echo "$nslow" >"$logs/$t.slow"
    if [ "$result" = "ok, 0 crashes" ]; then echo 0; else echo 1; fi >"$logs/$t.status"
}

jobs_at_once=${FUZZ_JOBS:-$(nproc)}
running=0
for t in "${targets[@]}"; do
    rm -f "$logs/$t.row" "$logs/$t.slow" "$logs/$t.status"
    run_target "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs_at_once" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

tally_init
slow_total=0
printf '\n%-22s %12s %8s %8s %5s  %s\n' target executions cov ft slow result
for t in "${targets[@]}"; do
    if [ -f "$logs/$t.status" ]; then
        cat "$logs/$t.row"
        slow_total=$((slow_total + $(cat "$logs/$t.slow")))
        tally "$(cat "$logs/$t.status")"   # the table row says why
    else
        tally 1 "$t: its run left no result (tests/out/fuzz/$t.log)"
    fi
done
echo
echo "$slow_total slow inputs reported (over ${slow} s each; none fails the run)"
tally_end
