#!/usr/bin/env bash
# The project's test command, in named steps (in the manner of godot-rust's check.sh):
#   bash tests/run_all.sh              every step, in order: what CI runs (.ci/run)
#   bash tests/run_all.sh quick        the inner loop: core tests, lints, the Godot scenes in one
#                                      engine (a few minutes once built)
#   bash tests/run_all.sh STEP|SET...  those steps only, in the order of the list below
#   bash tests/run_all.sh --list       the steps and sets, one line each
# On a fresh machine it installs what it needs (the engines: tests/install_engines.sh; cross
# toolchains, the arm64 Godot and the macOS tools: the steps' own scripts, tests/install_arm64.sh
# and tests/install_tools.sh). A step that needs the engines or the built addon gets them
# first (each at most once per run, counted as a check of its own). Every step's output is kept in
# tests/out/steps/STEP.log (the naming rule for everything under tests/out/: tests/lib.sh).
#
# Ends with one line "N passed, N failed" and exits non-zero on any failure: a failing check, a
# step that exits non-zero (a cargo test binary that aborts, say) or reports no result, and
# "ObjectDB instances leaked" or "SCRIPT ERROR" in an engine's output (checked by the Godot
# runners). FVC_FUZZ_SECONDS sets each fuzz target's time (default 30).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh

# --- the steps -----------------------------------------------------------------------------------
# In the order they run; each is the function step_NAME below.
STEPS=(engines core probes fmt clippy crate msrv compat version workflows cache addon godot exit docs snippets double differential asan peers saves dock python wheels npm web windows arm64 arm64_core macos package fuzz)
declare -A ABOUT=(
    [engines]="install the headless engines (Godot 4.6.3, 3.6.2, 3.2.3; ../shared/engines' builds)"
    [core]="cargo test: the core crate (golden corpora from real engines, property tests), the CLI, the extension's and the npm package's unit tests"
    [probes]="ask Godot 4.6.3 which Dictionary keys it merges, against the core's table"
    [fmt]="cargo fmt --check (the workspace and the fuzz crate)"
    [clippy]="cargo clippy --all-targets -D warnings (the workspace and the fuzz crate)"
    [crate]="the core crate as published: cargo doc without warnings, cargo package; without its default features, built with no C compiler and no encryption crate; its public API against its snapshot (cargo-public-api)"
    [msrv]="each crate checked with the oldest Rust it declares (rust-version), against a lockfile resolved for it; and a self-test with the core's declared one version lower"
    [compat]="the Godot versions the addon admits (4.4 to 4.7), each against its API data: engine methods by hash, interface functions, builtin layouts; and a self-test on altered copies"
    [version]="one version: Cargo.toml's, taken by every crate and stated by the addon's files and CHANGELOG.md"
    [workflows]="the GitHub Actions workflows: actionlint (with shellcheck), and that they call only project scripts"
    [cache]="the build cache's source times: real cargo reuses a build only for a clone of the same text (tests/source_times.py)"
    [addon]="build the addon's release library"
    [godot]="the headless test scenes in Godot 4.6.3 (the deepest values again on a 512 KB stack)"
    [exit]="the engine exits: the worker-thread scenes and the engine's own hang at quit, run again and again under load"
    [docs]="editor help: Godot's doctool finds a description for every class and member"
    [snippets]="the GDScript snippets of README.md and docs/, run as written (one against a real Godot 3.6.2 server)"
    [double]="the double-precision library and the same scenes in a precision=double Godot 4.6.3"
    [differential]="differential fuzzing: 1,000,000 inputs against Godot 4.6.3, 300,000 against Godot 3.6.2"
    [asan]="the extension built with AddressSanitizer, every scene in Godot 4.6.3, and its double-precision build in the precision=double Godot 4.6.3"
    [peers]="real peers on 127.0.0.1: Godot 3.6.2, 3.2.3, Pandemonium, Rust servers, hostile streams"
    [saves]="Godot 3 save files: Godot 4.6.3 writes, Godot 3.6.2 and 3.2.3 read; the addon's migration script"
    [dock]="the editor's Saves dock in a headless Godot 4.6.3 editor: it opens, edits (undo, redo) and saves store_var files of every container that Godot 4.6.3 and 3.6.2 wrote, and ConfigFiles; those engines read back the edits"
    [python]="the Python package: its wheel in a fresh venv, pytest over every golden corpus, the Godot 3 saves, the docs' save editor, its files opened by Godot 3.6.2, 3.2.3 and 4.6.3, its asyncio server against live Godot 4.6.3 and 3.6.2 clients; mypy --strict; mypy's stubtest (the type hints against the runtime)"
    [wheels]="the Python wheel a release ships for Linux x86_64 (manylinux2014): auditwheel, glibc symbol versions, stripped, METADATA, size; installed by pip in Debian bullseye (glibc 2.31, CPython 3.9) and pytest run there against the engines"
    [npm]="the npm package: its WebAssembly built and packed, installed from the tarball in a fresh folder, node --test over every golden corpus, the Godot 3 saves, the edges, the stream decoder, an esbuild bundle, the type declarations under tsc --strict and against the module (every export, class member and parameter count, both ways); the README's server snippets as written and the example servers (--dialect auto too) against clients that send too much, send garbage or reset mid-message; its example servers against Godot 4.6.3 (WebSocketPeer) and Godot 3.6.2 (StreamPeerTCP); store_var files and Godot 3 saves it writes read by the engines, Godot 4.6.3's files read by it"
    [web]="the web page (web/): built from the npm package, in headless Chromium: Godot 3.6.2's encrypted save and a Godot 4.6.3 compressed file edited and read back by those engines, a Godot 3 save converted to Godot 4, damaged files, JSON round trip, ConfigFiles (Godot 3.6.2's encrypted one edited and read back by Godot 3.6.2, Godot 4.6.3's saved to the same bytes), no request leaving the page, the Godot 3 round trip in Firefox ESR; the package in Chromium against every golden corpus"
    [windows]="Windows x86_64 cross-build: exports, imports, loaded under wine (about 3 minutes)"
    [arm64]="Linux arm64 cross-build; the parity and API scenes in an arm64 Godot 4.6.3 under qemu-aarch64"
    [arm64_core]="the core's tests built for Linux arm64 and run under qemu-aarch64 (every 16th input of each golden corpus)"
    [macos]="macOS universal library (x86_64 + arm64) with zig; Mach-O checks (slices, exports, loads, minimum macOS, signature)"
    [package]="the release zip, unzipped into a fresh Godot project and run with its Linux libraries"
    [fuzz]="every cargo-fuzz target of the core for FVC_FUZZ_SECONDS (default 30) seconds, two at a time"
)
declare -A SETS=(
    [quick]="core fmt clippy godot"
    [all]="${STEPS[*]}"
)
# The load step, run after peers: the tokio codec's tests and tests/run_load_test.sh.
ordered=()
for s in "${STEPS[@]}"; do
    ordered+=("$s")
    if [ "$s" = peers ]; then ordered+=(load); fi
done
STEPS=("${ordered[@]}")
ABOUT[load]="the tokio codec's tests; the tokio example server under 1,000 connections at once, hostile ones among them (memory bounded; throughput and latency as figures)"
SETS[all]="${STEPS[*]}"

usage() {
    echo "usage: bash tests/run_all.sh [--list | STEP|SET ...]   (no argument: every step)"
}

list() {
    local name
    echo "steps (run in this order):"
    for name in "${STEPS[@]}"; do printf '  %-13s %s\n' "$name" "${ABOUT[$name]}"; done
    echo "sets:"
    for name in quick all; do printf '  %-13s %s\n' "$name" "${SETS[$name]}"; done
}

# --- what steps share ----------------------------------------------------------------------------

# must NAME COMMAND...: a command that must succeed and reports no counts of its own: one check.
# Its output goes to tests/out/steps/NAME.log (its end is shown when it fails).
must() {
    local name=$1 status=0 log; shift
    log=$(fvc_step_log "$name")
    "$@" >"$log" 2>&1 || status=$?
    tally "$status" "$name (${log#"$root/"})"
    if [ "$status" -ne 0 ]; then tail -n 30 "$log"; return 1; fi
}

# counted NAME TAIL COMMAND...: a runner that ends with its own "N passed, N failed" line; its output
# goes to tests/out/steps/NAME.log, and its last TAIL lines are shown.
counted() {
    local name=$1 lines=$2 log status; shift 2
    log=$(fvc_step_log "$name")
    "$@" 2>&1 | tee "$log" | tail -n "$lines"
    status=${PIPESTATUS[0]}
    tally_result "$name" "$log" "$status"
}

# The engines every step may run, exported (tests/lib.sh's need_engines); installed once per run.
# The optional ones may be empty (absent: their runs are reported as not run).
engines_state=
need_all_engines() {
    if [ -z "$engines_state" ]; then
        if need_engines GODOT4 GODOT3 GODOT32 --optional GODOT4_DOUBLE PANDEMONIUM4 PANDEMONIUM5; then
            engines_state=ok
            tally 0
            for e in GODOT4 GODOT3 GODOT32 GODOT4_DOUBLE PANDEMONIUM4 PANDEMONIUM5; do echo "$e=${!e}"; done
        else
            engines_state=failed
            tally 1 "engine install (tests/out/install_engines/install.log)"
            tail -n 30 tests/out/install_engines/install.log 2>/dev/null
        fi
    fi
    [ "$engines_state" = ok ]
}

# The addon's release library, built once per run.
addon_state=
need_addon_built() {
    if [ -z "$addon_state" ]; then
        if must addon bash tests/build_addon.sh; then addon_state=ok; else addon_state=failed; fi
    fi
    [ "$addon_state" = ok ]
}

# A step that needs what could not be made: says so (the failure is already counted).
not_run() { echo "NOT RUN: $*"; }

# --- the steps -----------------------------------------------------------------------------------

step_engines() { need_all_engines; }

step_core() {
    local log status
    log=$(fvc_step_log core)
    # --no-fail-fast: every test binary runs, whichever fails first.
    # shellcheck disable=SC2086 # the selection's words (tests/lib.sh)
    "$DEADLINE" 3600 cargo test --no-fail-fast --timings $FVC_CORE_BUILD 2>&1 | tee "$log" \
        | grep -E "^test result|FAILED|panicked|differ|json:|didn't exit successfully"
    status=${PIPESTATUS[0]}
    count_cargo_test "$log" "$status"
}

step_probes() {
    need_all_engines || { not_run "the engine probes need Godot 4.6.3"; return; }
    must probes bash tests/engine_probes/run.sh
}

step_fmt() {
    must fmt cargo fmt --all --check
    must fmt_fuzz cargo fmt --manifest-path rust/fuzz/Cargo.toml --all --check
}

step_clippy() {
    must clippy cargo clippy --workspace --all-targets --features fast_var_codec_core/serde,fast_var_codec_core/tokio,fast_var_codec_core/json -- -D warnings
    # The fuzz crate is its own workspace (cargo-fuzz builds it with its own flags); stable Rust
    # checks it with RUSTC_BOOTSTRAP=1, as tests/fuzz.sh builds it.
    must clippy_fuzz env RUSTC_BOOTSTRAP=1 cargo clippy --manifest-path rust/fuzz/Cargo.toml \
        --all-targets -- -D warnings
}

step_crate() {
    must crate_doc env RUSTDOCFLAGS="-D warnings" cargo doc -p fast_var_codec_core --features serde,tokio,json --no-deps
    must crate_package cargo package -p fast_var_codec_core --allow-dirty
    # The core without its default features (a network-only server's): no C compiler needed,
    # no encryption crate named (tests/check_lean_core.sh; a self-test shows the check bites).
    counted crate_lean 4 bash tests/check_lean_core.sh
    # The public API against its snapshot, rust/codec/public-api.txt (tests/check_public_api.sh;
    # a self-test shows the check bites).
    counted crate_api 45 bash tests/check_public_api.sh
}

# Each crate with the Rust its rust-version declares (tests/check_msrv.sh); the self-test lowers
# the core's declaration by one version and must fail.
step_msrv() {
    counted msrv 8 bash tests/check_msrv.sh
    counted msrv_self_test 4 bash tests/check_msrv.sh --self-test
}

# The Godot versions the .gdextension admits, each checked against its own API data
# (tests/check_api_compat.py); the self-test alters a copy of one version's data and must fail.
step_compat() {
    counted compat 4 python3 tests/check_api_compat.py
    counted compat_self_test 9 python3 tests/check_api_compat.py --self-test
}

step_version() {
    counted version 3 python3 tests/check_version.py
    counted version_self_test 3 python3 tests/check_version.py --self-test
}

step_workflows() { counted workflows 8 bash tests/check_workflows.sh; }

# The build cache outside the clone (tests/lib.sh: fvc_use_build_cache) reuses the workspace's own
# crates across fresh clones by their files' times: real cargo, on a probe crate cloned as the run
# clones, compiles again after every change of text and every build outside a run.
step_cache() { counted cache 1 python3 tests/source_times.py --self-test; }

step_addon() { need_addon_built; }

# The steps that run the built addon in engines.
need_engines_and_addon() { # what
    need_all_engines || { not_run "$1 need the engines"; return 1; }
    need_addon_built || { not_run "$1 need the addon, which did not build"; return 1; }
}

step_godot() {
    need_engines_and_addon "the Godot scenes" || return
    counted godot 60 bash tests/run_godot_tests.sh
    # Everything again with plain Variants built by the engine's constructors, the path the
    # library takes when its check of the Variant layout fails.
    counted godot_engine_variants 4 env FAST_VAR_CODEC_VARIANT_LAYOUT=engine \
        FVC_GODOT_LOG=godot_tests_engine_variants bash tests/run_godot_tests.sh
    # The deepest values again, in an engine whose main thread has a 512 KB stack (where the
    # engine's own var_to_bytes and bytes_to_var still work).
    counted godot_small_stack 4 env FVC_STACK_KB=512 FVC_GODOT_LOG=godot_tests_small_stack \
        bash tests/run_godot_tests.sh test_deep.gd
}

# Godot 4.6.3 can hang at quit after WorkerThreadPool group tasks (docs/gdscript.md, "Threads"):
# the scenes that use worker threads, with the way around they apply, must always exit; the
# engine's own reproduction without it is reported beside them.
step_exit() {
    need_engines_and_addon "the exit guard" || return
    counted exit 12 bash tests/run_exit_guard.sh
}

step_docs() {
    need_engines_and_addon "the editor help check" || return
    counted docs 20 bash tests/check_docs.sh
}

step_snippets() {
    need_engines_and_addon "the snippets" || return
    counted snippets 10 bash tests/run_snippets.sh
}

step_double() {
    need_all_engines || { not_run "the double-precision scenes need the engines"; return; }
    if [ -z "${GODOT4_DOUBLE:-}" ]; then
        not_run "no double-precision Godot 4.6.3 (../shared/engines/godot-4.6.3-double): its scenes were not run."
        return
    fi
    # The committed API description must be what the engines give (--refresh-api remakes it).
    must addon_double bash tests/build_addon.sh --double --refresh-api || return
    must double_api_is_current git diff --exit-code --stat tests/double_api/double_api.json || return
    # The library these engines load (the project's setup checks that one is there).
    local lib=$root/addons/fast_var_codec/bin/libfast_var_codec.double.so
    counted double 14 env GODOT4="$GODOT4_DOUBLE" FVC_ADDON_LIBRARY="$lib" \
        FVC_GODOT_LOG=godot_tests_double bash tests/run_godot_tests.sh
    counted double_engine_variants 4 env GODOT4="$GODOT4_DOUBLE" FVC_ADDON_LIBRARY="$lib" \
        FAST_VAR_CODEC_VARIANT_LAYOUT=engine FVC_GODOT_LOG=godot_tests_double_engine_variants \
        bash tests/run_godot_tests.sh
    counted double_small_stack 4 env GODOT4="$GODOT4_DOUBLE" FVC_ADDON_LIBRARY="$lib" \
        FVC_STACK_KB=512 FVC_GODOT_LOG=godot_tests_double_small_stack \
        bash tests/run_godot_tests.sh test_deep.gd
}

step_differential() {
    need_engines_and_addon "the differential fuzzing" || return
    counted differential 6 bash tests/fuzz_differential.sh
}

step_asan() {
    need_all_engines || { not_run "the sanitizer run needs the engines"; return; }
    counted asan 34 bash tests/run_asan.sh
}

step_peers() {
    need_engines_and_addon "the peer tests" || return
    counted peers 14 bash tests/run_peer_tests.sh
}

step_load() { counted load 16 bash tests/run_load_test.sh; }

step_saves() {
    need_engines_and_addon "the save-file tests" || return
    counted saves 10 bash tests/run_save_tests.sh
}

step_dock() {
    need_engines_and_addon "the Saves dock test" || return
    counted dock 12 bash tests/run_dock_test.sh
}

step_python() {
    need_all_engines || return
    counted python 15 bash tests/run_python_tests.sh
}

step_wheels() {
    need_all_engines || return
    counted wheels 16 bash tests/run_wheel_tests.sh
}

step_npm() {
    need_all_engines || return
    counted npm 14 bash tests/run_npm_tests.sh
}

step_web() {
    need_all_engines || return
    counted web 14 bash tests/run_web_tests.sh
}

# The cross builds: each STEP runs one script, whose last LINES lines are shown.
declare -A CROSS_COMMAND=(
    [windows]="bash tests/build_windows.sh"
    [arm64]="bash tests/run_arm64.sh"
    [macos]="bash tests/build_macos.sh"
)
declare -A CROSS_LINES=([windows]=12 [arm64]=30 [macos]=40)

step_windows() { counted_cross windows; }
step_arm64() { counted_cross arm64; }
step_macos() { counted_cross macos; }
step_arm64_core() { counted arm64_core 24 bash tests/run_arm64.sh --core-tests; }

# shellcheck disable=SC2086  # the command is words
counted_cross() { counted "$1" "${CROSS_LINES[$1]}" ${CROSS_COMMAND[$1]}; }

# The Windows, arm64 and macOS libraries as built and checked by their steps are what the package
# ships (the package step then builds none of them again): set when those steps pass.
arm64_state='' macos_state='' windows_state=''

step_package() {
    need_all_engines || { not_run "the package test needs the engines"; return; }
    must package env FVC_PACKAGE_ARM64_BUILT="$([ "$arm64_state" = ok ] && echo 1 || echo 0)" \
        FVC_PACKAGE_WINDOWS_BUILT="$([ "$windows_state" = ok ] && echo 1 || echo 0)" \
        FVC_PACKAGE_MACOS_BUILT="$([ "$macos_state" = ok ] && echo 1 || echo 0)" \
        bash tests/package.sh || return
    grep -E '^(dist/|  )' "$(fvc_step_log package)"
    counted package_test 16 bash tests/run_package_test.sh
    # In the whole run of a clone with its own target/ folder, the cross builds' folders (about
    # 5 GB) are not needed again: the libraries are in addons/fast_var_codec/bin/ and the zip. In
    # the build cache (target/ a link) they are what the next run reuses.
    if [ "$whole_run" = 1 ] && [ ! -L target ]; then
        rm -rf target/windows target/windows-build-std target/aarch64-unknown-linux-gnu \
            target/universal2-apple-darwin target/aarch64-apple-darwin target/x86_64-apple-darwin
    fi
}

step_fuzz() { counted fuzz 12 bash tests/fuzz.sh "${FVC_FUZZ_SECONDS:-30}"; }

# --- main ----------------------------------------------------------------------------------------
declare -A wanted=()
for arg in "$@"; do
    case $arg in
        --list) list; exit 0 ;;
        -h|--help) usage; list; exit 0 ;;
    esac
    if [ -n "${SETS[$arg]:-}" ]; then
        for s in ${SETS[$arg]}; do wanted[$s]=1; done
    elif [ -n "${ABOUT[$arg]:-}" ]; then
        wanted[$arg]=1
    else
        echo "run_all.sh: no step or set '$arg'" >&2
        usage >&2
        list >&2
        exit 2
    fi
done
whole_run=0
if [ $# -eq 0 ]; then
    whole_run=1
    for s in "${STEPS[@]}"; do wanted[$s]=1; done
fi

# report_hangs STEP: every engine, test binary or server that missed its deadline during STEP left
# its backtraces and tests/deadline.sh's verdict in tests/out/hangs/: each file is copied into the
# step's log and named here, SLOW (it exited by itself after its deadline) or HANG (hung, or still
# running and killed). The runner that started it has counted it.
report_hangs() {
    local file log kind
    log=$(fvc_step_log "$1")
    for file in "$root"/tests/out/hangs/*.txt; do
        [ -f "$file" ] || continue
        if [ -z "${reported_hangs[$file]:-}" ]; then
            reported_hangs[$file]=1
            kind=HANG
            grep -q '^verdict: slow:' "$file" && kind=SLOW
            echo "$kind in step $1: ${file#"$root/"}: $(grep -m1 -o '^verdict: [a-z]*' "$file" || echo 'no verdict') (what was seen is in ${log#"$root/"})"
            { echo; echo "=== ${file#"$root/"}"; cat "$file"; } >>"$log"
        fi
    done
}

# The whole run (the README's test command, CI) builds everything once: cargo's incremental caches
# would only take disk (about 2 GB) and time.
if [ "$whole_run" = 1 ] || [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}; fi
# The extension's release builds (the addon, double, the cross builds, package's) in the quicker
# profile of tests/lib.sh's fvc_release_profile: no LTO, 16 codegen units. The release workflow
# builds the shipped profile.
export FVC_TEST_BUILD=${FVC_TEST_BUILD:-1}
# Dev builds (the core's tests, the sanitizer's library, the examples the peers run) with line
# tables only: backtraces keep their files and lines, the builds lose most of their debug info.
export CARGO_PROFILE_DEV_DEBUG=${CARGO_PROFILE_DEV_DEBUG:-line-tables-only}
# The double-precision library under AddressSanitizer too, in every run.
export FVC_ASAN_DOUBLE=${FVC_ASAN_DOUBLE:-1}

# --- how the steps run at the same time ----------------------------------------------------------
# Each step is of one kind:
#   build   compiles (cargo takes both cores), and may run what it built: two at most at once
#   engine  runs engines, servers or quick checks: one at a time (they share godot_project/ and
#           the loopback ports), beside the builds
#   alone   nothing beside it: the exit check loads every core itself, and package replaces the
#           libraries the engines load
# A step starts, in the order of ORDER, as soon as the steps it comes AFTER have ended and its kind
# has room; an alone step that could start holds every step after it until the others end.
# Each step's output is shown whole when it ends (tests/out/steps/STEP.out keeps it).
declare -A KIND=(
    [engines]=alone [core]=build [probes]=engine [fmt]=engine [clippy]=build [crate]=build
    [msrv]=build [compat]=engine [version]=engine [workflows]=engine [cache]=engine [addon]=build [godot]=engine
    [exit]=alone [docs]=engine [snippets]=engine [double]=build [differential]=engine [asan]=build
    [peers]=engine [load]=engine [saves]=engine [dock]=engine [python]=build [wheels]=build [npm]=build
    [web]=build [windows]=build [arm64]=build [arm64_core]=build [macos]=build [package]=alone [fuzz]=build
)
# What a step needs ended first: what it uses (the addon's libraries: peers runs a
# double-precision server too; the core step's dev builds, which peers, load, saves and docs run;
# the npm package the page is built from; the wheel), or whose cargo build folder it shares (clippy, crate: cargo would only wait for its lock). Only
# the steps of the run count; the addon joins any run that has a step after it.
declare -A AFTER=(
    [clippy]=core [crate]=core [godot]=addon [exit]=addon [docs]="core addon"
    [snippets]=addon [differential]=addon [peers]="core addon double" [load]=core [saves]="core addon" [dock]=addon
    [wheels]=python [web]=npm
    [package]="addon double windows arm64 macos godot exit docs snippets differential peers saves dock"
)
# The order in which steps are taken when they may start: the addon first (the engine steps wait
# for it), the longest chains next (the core's tests under qemu; the core step, which others
# reuse; the double library, which peers loads), the quick checks
# beside the first builds, the engine steps as soon as the addon is there; exit when everything
# before it has ended, then package.
ORDER=(engines addon arm64_core core double fmt version compat workflows cache probes arm64 macos asan
    godot docs snippets differential peers load saves dock npm msrv windows python web wheels clippy
    crate fuzz exit package)

declare -A job_pid=() job_began=() done_step=() step_row=()
# How many steps of each kind run, and in all.
declare -A running=([build]=0 [engine]=0 [alone]=0)
running_all=0
# A row of the table the run ends with.
row_format='%-13s %6s %6s %9s %7s'

# job_start NAME: step NAME in the background, its output in tests/out/steps/NAME.out, its
# counts as the last line there.
job_start() {
    local name=$1 out
    out=$(fvc_step_out "$name")
    (
        tally_init
        "step_$name"
        tally_end
    ) >"$out" 2>&1 </dev/null &
    job_pid[$name]=$!
    job_began[$name]=$SECONDS
    running[${KIND[$name]}]=$((running[${KIND[$name]}] + 1))
    running_all=$((running_all + 1))
    echo "[$(date -u +%H:%M:%S)] start $name"
}

# job_end NAME STATUS: shows NAME's output and counts it; the states later steps read.
job_end() {
    local name=$1 status=$2 out p f
    out=$(fvc_step_out "$name")
    running[${KIND[$name]}]=$((running[${KIND[$name]}] - 1))
    running_all=$((running_all - 1))
    done_step[$name]=1
    echo
    echo "=== $name: ${ABOUT[$name]}"
    # The step's own count (its last line) is added to the run's, not shown.
    sed '$d' "$out"
    tally_result "$name" "$out" "$status"
    read -r p f < <(last_result "$out") || f=1
    if [ "$status" -eq 0 ] && [ "${f:-1}" -eq 0 ]; then
        case $name in addon) addon_state=ok ;; arm64) arm64_state=ok ;; macos) macos_state=ok ;; windows) windows_state=ok ;; esac
    else
        case $name in addon) addon_state=failed ;; esac
    fi
    report_hangs "$name"
    echo "--- $name: $((SECONDS - job_began[$name])) s"
    # shellcheck disable=SC2059 # the format is the table's
    step_row[$name]=$(printf "$row_format" "$name" "$((job_began[$name] - started))" \
        "$((SECONDS - job_began[$name]))" "${p:-?}" "${f:-?}")
}

# after_done NAME: every step of the run that NAME comes after has ended.
after_done() {
    local before
    for before in ${AFTER[$1]:-}; do
        if [ -n "${wanted[$before]:-}" ] && [ -z "${done_step[$before]:-}" ]; then return 1; fi
    done
}

# may_start NAME: NAME's AFTER steps have ended, no alone step runs, and its kind has room.
may_start() {
    [ "${running[alone]}" -eq 0 ] && after_done "$1" || return 1
    case ${KIND[$1]} in
        alone) [ "$running_all" -eq 0 ] ;;
        build) [ "${running[build]}" -lt 2 ] ;;
        engine) [ "${running[engine]}" -lt 1 ] ;;
    esac
}

# A step with the addon among what it comes after brings the addon into the run.
for name in "${!wanted[@]}"; do
    if [[ " ${AFTER[$name]:-} " == *" addon "* ]]; then wanted[addon]=1; fi
done
# Every step but these runs engines (or the steps it comes after do): the engines come first.
for name in "${!wanted[@]}"; do
    case $name in core|fmt|clippy|crate|msrv|compat|version|workflows|cache|windows|macos|arm64_core|fuzz) ;;
        *) wanted[engines]=1 ;;
    esac
done

tally_init
rm -rf tests/out/hangs tests/out/timings
mkdir -p tests/out/timings
touch tests/out/timings/.started
declare -A reported_hangs=()
started=$SECONDS
fvc_use_build_cache
if [ -n "${wanted[engines]:-}" ]; then
    echo
    echo "=== engines: ${ABOUT[engines]}"
    need_all_engines
    done_step[engines]=1
fi
pending=()
for name in "${ORDER[@]}"; do
    if [ -n "${wanted[$name]:-}" ] && [ -z "${done_step[$name]:-}" ]; then pending+=("$name"); fi
done
while [ ${#pending[@]} -gt 0 ] || [ "$running_all" -gt 0 ]; do
    left=()
    held=0
    for name in "${pending[@]}"; do
        if [ "$held" = 0 ] && may_start "$name"; then
            job_start "$name"
        else
            left+=("$name")
            # An alone step that only waits for room holds the steps after it.
            if [ "${KIND[$name]}" = alone ] && [ "$running_all" -gt 0 ] && after_done "$name"; then
                held=1
            fi
        fi
    done
    pending=("${left[@]}")
    [ "$running_all" -gt 0 ] || break
    ended=
    wait -n -p ended "${job_pid[@]}"
    status=$?
    for name in "${!job_pid[@]}"; do
        if [ "${job_pid[$name]}" = "$ended" ]; then
            unset "job_pid[$name]"
            job_end "$name" "$status"
        fi
    done
done
if [ ${#pending[@]} -gt 0 ]; then
    tally 1 "steps that never started: ${pending[*]}"
fi
fvc_build_cache_end
# What each build spent its time on: cargo's --timings reports written during the run, kept in
# tests/out/timings/ and summed up (tests/timings.py).
mapfile -t reports < <(find -L target -maxdepth 4 -path '*/cargo-timings/cargo-timing-*.html' \
    -newer tests/out/timings/.started 2>/dev/null | sort)
if [ ${#reports[@]} -gt 0 ]; then
    cp "${reports[@]}" tests/out/timings/
    echo
    echo "=== the builds' times (cargo --timings; tests/out/timings/)"
    python3 tests/timings.py tests/out/timings/cargo-timing-*.html
fi
echo
echo "=== the steps (seconds from the start of the run; checks the step counted)"
# shellcheck disable=SC2059 # the format is the table's
printf "$row_format\n" step start took passed failed
for name in "${!step_row[@]}"; do echo "${step_row[$name]}"; done | sort -k2,2n
echo
echo "($((SECONDS - started)) s; every step's output: tests/out/steps/)"
tally_end
