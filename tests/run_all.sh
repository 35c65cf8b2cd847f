#!/usr/bin/env bash
# Every test of the project, on a fresh machine: installs the engines it needs, runs the core's
# cargo tests (golden corpora from real engines, property tests), `cargo fmt --check` and
# `cargo clippy -D warnings` on the workspace and the fuzz crate, `cargo doc` (no warnings) and
# `cargo package` of the core crate, builds the addon, runs the
# headless test scenes in Godot 4.6.3 (and, when ../shared/engines has it, in a Godot 4.6.3 built
# with precision=double, with the addon's double-precision library), the real-peer tests against Godot 3.6.2 and 3.2.3, the
# Godot 3 save-file tests (tests/run_save_tests.sh: Godot 4 writes, Godot 3.6.2 and 3.2.3 read; the migration demo),
# the Windows cross-build with its checks (tests/build_windows.sh, about 3 minutes), the release
# package (tests/package.sh makes dist/fast_var_codec-VERSION.zip, adding the dev-profile Linux and
# Windows builds: about 3 minutes on a fresh machine, 10 s when built; tests/run_package_test.sh unzips
# it into a fresh Godot 4.6.3 project and runs both classes with each Linux library: about 10 s),
# and a short run of every fuzz target (FVC_FUZZ_SECONDS each, default 60). Ends with one line "N passed, N failed"; exits
# non-zero on any failure: a failing check, a step that exits non-zero (a cargo test binary that
# aborts, say) or reports no result, and "ObjectDB instances leaked" or "SCRIPT ERROR" in an
# engine's output (checked by the Godot runners, tests/lib.sh). Logs: tests/out/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
mkdir -p tests/out
tally_init

step() { echo; echo "=== $*"; }

# Counts a cargo test run from its log and exit status: the sum of its "test result:" lines; one
# failure per test binary that failed without a result line (aborted: a stack overflow, a failed
# allocation, a signal); and one if cargo exited non-zero, or ran no test, with no failure counted
# otherwise (it did not compile, say).
count_cargo_test() { # log exit_status
    local log=$1 rc=$2 results failed_targets aborted before=$failed
    results='test result: [a-zA-Z]+\. [0-9]+ passed; [0-9]+ failed'
    tally_add "$(grep -Eo "$results" "$log" | awk '{s+=$4} END {print s+0}')" \
        "$(grep -Eo "$results" "$log" | awk '{s+=$6} END {print s+0}')"
    failed_targets=$(grep -cE '^error: (test|doctest) failed, to rerun' "$log")
    aborted=$((failed_targets - $(grep -cE '^test result: FAILED' "$log")))
    if [ "$aborted" -gt 0 ]; then
        tally_add 0 "$aborted"
        echo "FAIL $aborted cargo test binaries ended without a result (tests/out/cargo_test.log):"
        grep -E "process didn't exit successfully" "$log" | head -n 5 | cut -c1-300
    fi
    if { [ "$rc" -ne 0 ] || ! grep -qE "$results" "$log"; } && [ "$failed" -eq "$before" ]; then
        tally 1 "cargo test exited with $rc, no failing test counted (or no test ran; tests/out/cargo_test.log)"
        grep -E '^error' "$log" | head -n 5
    fi
}

# A step that must succeed but reports no counts of its own counts as one check; its output goes
# to tests/out/NAME.log (its end is shown when it fails).
must() {
    local name=$1 status=0; shift
    "$@" >"tests/out/$name.log" 2>&1 || status=$?
    tally "$status" "$name (tests/out/$name.log)"
    if [ "$status" -ne 0 ]; then tail -n 30 "tests/out/$name.log"; return 1; fi
}

step "Installing headless engines (Godot 4.6.3, 3.6.2, 3.2.3)"
# Every engine a step runs, exported to the steps (tests/lib.sh); the optional ones may be empty
# (absent: their runs are reported as not run).
if need_engines GODOT4 GODOT3 GODOT32 --optional GODOT4_DOUBLE PANDEMONIUM4 PANDEMONIUM5; then
    tally 0
    for e in GODOT4 GODOT3 GODOT32 GODOT4_DOUBLE PANDEMONIUM4 PANDEMONIUM5; do echo "$e=${!e}"; done
else
    tally 1 "engine install (tests/out/install_engines.log)"
    tail -n 30 tests/out/install_engines.log 2>/dev/null
fi

step "Core crate and command-line tool: cargo test"
# --no-fail-fast: every test binary runs, whichever fails first.
cargo test --no-fail-fast -p fast_var_codec_core -p fast_var_codec_cli --features fast_var_codec_core/serde 2>&1 | tee tests/out/cargo_test.log \
    | grep -E "^test result|FAILED|panicked|differ|json:|didn't exit successfully"
count_cargo_test tests/out/cargo_test.log "${PIPESTATUS[0]}"

step "Engine probes: which Dictionary keys Godot 4.6.3 merges, against the core's table"
must engine_probes bash tests/engine_probes/run.sh

step "Formatting: cargo fmt --all --check (the workspace and the fuzz crate)"
must cargo_fmt cargo fmt --all --check
must cargo_fmt_fuzz cargo fmt --manifest-path rust/fuzz/Cargo.toml --all --check

step "Lints: cargo clippy --all-targets -- -D warnings (the workspace and the fuzz crate)"
must cargo_clippy cargo clippy --workspace --all-targets --features fast_var_codec_core/serde -- -D warnings
# The fuzz crate is its own workspace (cargo-fuzz builds it with its own flags); stable Rust
# checks it with RUSTC_BOOTSTRAP=1, as tests/fuzz.sh builds it.
must cargo_clippy_fuzz env RUSTC_BOOTSTRAP=1 cargo clippy --manifest-path rust/fuzz/Cargo.toml \
    --all-targets -- -D warnings

step "The core crate as published: cargo doc without warnings (missing_docs on), cargo package"
must cargo_doc env RUSTDOCFLAGS="-D warnings" cargo doc -p fast_var_codec_core --features serde --no-deps
must cargo_package cargo package -p fast_var_codec_core --allow-dirty

step "Building the addon (release)"
if must build_addon bash tests/build_addon.sh; then
    step "Godot 4.6.3 headless test scenes"
    bash tests/run_godot_tests.sh 2>&1 | tee tests/out/godot_tests.log | tail -n 60
    tally_result "the Godot test scenes" tests/out/godot_tests.log "${PIPESTATUS[0]}"

    step "Editor help: Godot's doctool (--gdextension-docs) finds a description for every class and member"
    bash tests/check_docs.sh 2>&1 | tee tests/out/check_docs.log | tail -n 20
    tally_result "the editor help check" tests/out/check_docs.log "${PIPESTATUS[0]}"

    step "Godot 4.6.3 built with precision=double: the addon's double-precision library, the same scenes"
    if [ -n "${GODOT4_DOUBLE:-}" ]; then
        # The committed API description must be what the engines give (--refresh-api remakes it).
        if must build_addon_double bash tests/build_addon.sh --double --refresh-api \
            && must double_api_is_current git diff --exit-code --stat tests/double_api/double_api.json; then
            GODOT4="$GODOT4_DOUBLE" FVC_GODOT_LOG=godot_tests_double bash tests/run_godot_tests.sh 2>&1 \
                | tee tests/out/godot_tests_double.log | tail -n 14
            tally_result "the Godot test scenes (double precision)" tests/out/godot_tests_double.log "${PIPESTATUS[0]}"
        fi
    else
        echo "NOT RUN: no double-precision Godot 4.6.3 (../shared/engines/godot-4.6.3-double): its scenes were not run."
    fi

    step "Real peers on 127.0.0.1: Godot 3.6.2 and 3.2.3, the Rust echo server, hostile streams"
    bash tests/run_peer_tests.sh 2>&1 | tee tests/out/peer_tests.log | tail -n 14
    tally_result "the peer tests" tests/out/peer_tests.log "${PIPESTATUS[0]}"

    step "Godot 3 save files: Godot 4.6.3 writes them, Godot 3.6.2 and 3.2.3 read them; the migration demo"
    bash tests/run_save_tests.sh 2>&1 | tee tests/out/save_tests.log | tail -n 10
    tally_result "the save-file tests" tests/out/save_tests.log "${PIPESTATUS[0]}"
fi

step "Windows x86_64: cross-built on Linux, its exports and imports, loaded under wine"
bash tests/build_windows.sh 2>&1 | tee tests/out/build_windows.log | tail -n 12
tally_result "the Windows build" tests/out/build_windows.log "${PIPESTATUS[0]}"

step "Release package: dist/fast_var_codec-VERSION.zip, unzipped into a fresh project and run"
if must package bash tests/package.sh; then
    grep -E '^(dist/|  )' tests/out/package.log
    bash tests/run_package_test.sh 2>&1 | tee tests/out/package_test.log | tail -n 16
    tally_result "the package test" tests/out/package_test.log "${PIPESTATUS[0]}"
fi

step "Fuzzing the core: every cargo-fuzz target for ${FVC_FUZZ_SECONDS:-60} s"
bash tests/fuzz.sh "${FVC_FUZZ_SECONDS:-60}" 2>&1 | tee tests/out/fuzz.log | tail -n 12
tally_result "the fuzz run" tests/out/fuzz.log "${PIPESTATUS[0]}"

echo
tally_end
