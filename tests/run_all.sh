#!/usr/bin/env bash
# Every test of the project, on a fresh machine: installs the engines it needs, runs the core's
# cargo tests (golden corpora from real engines, property tests), builds the addon, runs the
# headless test scenes in Godot 4.6.3, the real-peer tests against Godot 3.6.2 and 3.2.3, and a
# short run of every fuzz target (FVC_FUZZ_SECONDS each, default 60). Ends with one line "N passed, N failed"; exits non-zero on
# any failure. Logs: tests/out/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p tests/out
passed=0
failed=0

step() { echo; echo "=== $*"; }

# Adds the counts of cargo's "test result:" lines and plain "N passed, N failed" lines in a log.
count() {
    local p f
    p=$(grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' "$1" | awk '{s+=$4} END {print s+0}')
    f=$(grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed' "$1" | awk '{s+=$6} END {print s+0}')
    passed=$((passed + p))
    failed=$((failed + f))
    p=$(grep -E '^[A-Za-z_]*:? ?[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1 | grep -Eo '[0-9]+ passed' | grep -Eo '[0-9]+' || true)
    f=$(grep -E '^[A-Za-z_]*:? ?[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1 | grep -Eo '[0-9]+ failed' | grep -Eo '[0-9]+' || true)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
}

# A step that must succeed but reports no counts of its own counts as one check.
must() {
    local name=$1; shift
    if "$@" >"tests/out/$name.log" 2>&1; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $name (tests/out/$name.log)"
        tail -n 30 "tests/out/$name.log"
        return 1
    fi
}

step "Installing headless engines (Godot 4.6.3, 3.6.2, 3.2.3)"
if engines=$(bash tests/install_engines.sh 2>tests/out/install_engines.log); then
    eval "$engines"
    export GODOT4 GODOT3 GODOT32
    echo "$engines"
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "FAILED: engine install (tests/out/install_engines.log)"
    tail -n 30 tests/out/install_engines.log
fi

step "Core crate: cargo test"
cargo test -p fast_var_codec_core 2>&1 | tee tests/out/cargo_test.log | grep -E '^test result|FAILED|panicked|differ|json:' || true
count tests/out/cargo_test.log
if ! grep -q 'test result' tests/out/cargo_test.log; then
    failed=$((failed + 1))
    echo "FAILED: cargo test did not run (tests/out/cargo_test.log)"
fi

step "Building the addon (release)"
if must build_addon bash tests/build_addon.sh; then
    step "Godot 4.6.3 headless test scenes"
    bash tests/run_godot_tests.sh 2>&1 | tee tests/out/godot_tests.log | tail -n 60
    count tests/out/godot_tests.log
    if ! grep -qE '[0-9]+ passed, [0-9]+ failed' tests/out/godot_tests.log; then
        failed=$((failed + 1))
        echo "FAILED: the Godot test scenes reported no result (tests/out/godot_tests.log)"
    fi

    step "Real peers on 127.0.0.1: Godot 3.6.2 and 3.2.3, the Rust echo server, hostile streams"
    bash tests/run_peer_tests.sh 2>&1 | tee tests/out/peer_tests.log | tail -n 14
    count tests/out/peer_tests.log
    if ! grep -qE '^[0-9]+ passed, [0-9]+ failed' tests/out/peer_tests.log; then
        failed=$((failed + 1))
        echo "FAILED: the peer tests reported no result (tests/out/peer_tests.log)"
    fi
fi

step "Fuzzing the core: every cargo-fuzz target for ${FVC_FUZZ_SECONDS:-60} s"
bash tests/fuzz.sh "${FVC_FUZZ_SECONDS:-60}" 2>&1 | tee tests/out/fuzz.log | tail -n 12
count tests/out/fuzz.log
if ! grep -qE '^[0-9]+ passed, [0-9]+ failed' tests/out/fuzz.log; then
    failed=$((failed + 1))
    echo "FAILED: the fuzz run reported no result (tests/out/fuzz.log)"
fi

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
