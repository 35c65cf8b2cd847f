# shellcheck shell=bash
# Sourced by the test scripts: finding the engines, counting checks into the one final
# "N passed, N failed" line every runner ends with (and tests/run_all.sh adds up), reading such a
# line, and checking engine logs, each in one place.

fvc_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# --- where output goes ---------------------------------------------------------------------------
# One naming rule for every file under tests/out/, so that no two writers ever share one:
#   tests/out/steps/STEP.log  tests/run_all.sh's record of one step's command (everything it
#                             printed), and STEP.out what the runner showed of the step; only the
#                             runner writes there (fvc_step_log, fvc_step_out).
#   tests/out/NAME/           everything one script writes itself (its engines' logs, builds,
#                             results), NAME being the script's path under tests/ without ".sh",
#                             slashes made underscores: build_windows, engine_probes_run
#                             (fvc_out_dir). A script run by another keeps its own directory.

# fvc_out_dir [SCRIPT]: creates and prints the directory of SCRIPT (default: the running script,
# $0) under tests/out/.
fvc_out_dir() {
    local script rel
    script=$(realpath "${1:-$0}")
    rel=${script#"$fvc_root/tests/"}
    if [ "$rel" = "$script" ]; then   # not under tests/: named by its file
        rel=${script##*/}
    fi
    rel=${rel%.sh}
    rel=${rel//\//_}
    if [ "$rel" = steps ]; then
        echo "fvc_out_dir: tests/out/steps/ is the runner's" >&2
        return 2
    fi
    mkdir -p "$fvc_root/tests/out/$rel"
    echo "$fvc_root/tests/out/$rel"
}

# fvc_step_out STEP: what the runner showed of STEP (tests/out/steps/STEP.out: steps run at the same
# time, each one's output is shown whole when it ends).
fvc_step_out() {
    mkdir -p "$fvc_root/tests/out/steps"
    echo "$fvc_root/tests/out/steps/$1.out"
}

# fvc_step_log STEP: the runner's log of STEP (its directory created).
fvc_step_log() {
    mkdir -p "$fvc_root/tests/out/steps"
    echo "$fvc_root/tests/out/steps/$1.log"
}

# --- deadlines -----------------------------------------------------------------------------------

# Every engine, test binary and server a runner starts is bounded in time by this command, used as
# timeout(1) is: "$DEADLINE" [-k KILL_AFTER] LIMIT COMMAND... When one is still running at its
# deadline, the backtraces of all its threads and its mappings are written to tests/out/hangs/
# before it is killed (tests/deadline.sh), and tests/run_all.sh copies them into the step's log.
DEADLINE="$fvc_root/tests/deadline.sh"
# The core step's cargo selection (tests/run_all.sh step_core): the steps that run the examples
# and the command-line tool (peers, load, saves) build them with these same words, so that after
# the core step their dev builds are already there and nothing is compiled again.
# shellcheck disable=SC2034 # used by the scripts that source this file
FVC_CORE_BUILD="-p fast_var_codec_core -p fast_var_codec_cli -p fast_var_codec_gdextension -p fast_var_codec_wasm --features fast_var_codec_core/serde,fast_var_codec_core/tokio,fast_var_codec_core/json"

# --- machine setup -------------------------------------------------------------------------------

# fvc_setup_locked COMMAND...: runs COMMAND holding the one lock of machine-wide setup (apt-get,
# rustup target add), so that the cross-build steps, which tests/run_all.sh runs at the same time,
# never install at once (apt and rustup each refuse, or break, a second writer).
fvc_setup_locked() {
    mkdir -p "$fvc_root/tests/out"
    flock "$fvc_root/tests/out/.setup.lock" "$@"
}

# --- cross builds --------------------------------------------------------------------------------

# fvc_release_profile: the release profile of a build of the extension's library
# (tests/build_addon.sh, tests/build_windows.sh, tests/run_arm64.sh, tests/build_macos.sh). The
# library ships stripped (tests/package.sh), so the profile's debug info, kept for profiling the
# Linux library, is left out. With FVC_TEST_BUILD=1 (the test command sets it) the build also skips
# LTO and splits its code generation into 16 units: the tests check what the library does, not its
# speed, and fat LTO with one codegen unit doubles each build (one godot graph: 180 s against 380 s
# on a 2-core machine). The release workflow and the benchmarks leave it unset and build the
# release profile as Cargo.toml has it; a Linux build without FVC_TEST_BUILD keeps its debug info.
fvc_release_profile() {
    if [ "${FVC_TEST_BUILD:-0}" = 1 ]; then
        export CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
        echo "release profile without debug info or LTO, 16 codegen units (FVC_TEST_BUILD=1)" >&2
    fi
}

# fvc_cross_release_profile: fvc_release_profile for a cross build, which never keeps debug info.
fvc_cross_release_profile() {
    export CARGO_PROFILE_RELEASE_DEBUG=0
    fvc_release_profile
}

# --- the build cache -----------------------------------------------------------------------------

# fvc_use_build_cache: a clone without a target/ folder of its own builds into a cache outside it,
# which every clone on the machine shares, as the engines' cache is shared: $FVC_BUILD_CACHE
# (default $FVC_ENGINE_CACHE/build: /var/cache/fast_var_codec/build), one folder per Cargo.lock,
# fuzz lockfile and Rust toolchain together (a change of any starts a new one, but for the
# workspace's own version, which no dependency's build depends on: a release keeps the cache; the
# two used last are kept, older ones removed, so the disk stays bounded: about 15 GB each). target/ and
# rust/fuzz/target become links into it, and the msrv checks build there (FVC_MSRV_TARGET_DIR).
# A clone that has its own target/ folder keeps it; FVC_BUILD_CACHE=off never links one.
# One run at a time per cache folder: two clones building at once would share its files.
# A clone linked here by this call (a fresh clone's first run) also gets its files' modification
# times as the cache knows their content (tests/source_times.py), so that its builds compile again
# only the crates whose text changed; the run then calls fvc_build_cache_end when its builds are done.
fvc_use_build_cache() {
    local base=${FVC_BUILD_CACHE:-${FVC_ENGINE_CACHE:-/var/cache/fast_var_codec}/build} key dir old
    local linked=1
    [ "$base" = off ] && return 0
    if [ -e "$fvc_root/target" ] && [ ! -L "$fvc_root/target" ]; then return 0; fi
    [ -L "$fvc_root/target" ] && linked=0
    key=$({ sed '/^name = "fast_var_codec/{n;/^version = /d}' "$fvc_root/Cargo.lock" "$fvc_root/rust/fuzz/Cargo.lock"; rustc -vV; } | sha256sum | cut -c1-16)
    dir=$base/$key
    mkdir -p "$dir/target" "$dir/fuzz" "$dir/msrv" || return 1
    touch "$dir"
    ln -sfn "$dir/target" "$fvc_root/target"
    if [ ! -e "$fvc_root/rust/fuzz/target" ] || [ -L "$fvc_root/rust/fuzz/target" ]; then
        ln -sfn "$dir/fuzz" "$fvc_root/rust/fuzz/target"
    fi
    export FVC_MSRV_TARGET_DIR=${FVC_MSRV_TARGET_DIR:-$dir/msrv}
    while IFS= read -r old; do
        rm -rf "$old"
    done < <(find "$base" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' | sort -rn | tail -n +3 | cut -d' ' -f2-)
    echo "build cache: $dir (target/ links there)"
    if [ "$linked" = 1 ]; then
        python3 "$fvc_root/tests/source_times.py" start "$fvc_root" "$dir" || return 1
        fvc_source_times_cache=$dir
    fi
}

# fvc_build_cache_end: a run whose clone fvc_use_build_cache gave the cache's source times has
# done its builds (tests/source_times.py end); for any other run, nothing.
fvc_build_cache_end() {
    if [ -n "${fvc_source_times_cache:-}" ]; then
        python3 "$fvc_root/tests/source_times.py" end "$fvc_source_times_cache"
    fi
}

# --- engines -------------------------------------------------------------------------------------

# need_engines NAME... [--optional NAME...]: the engines a script runs, in the variables
# tests/install_engines.sh prints (GODOT4, GODOT3, GODOT32, GODOT4_DOUBLE, PANDEMONIUM4,
# PANDEMONIUM5). What the caller preset stays: a required NAME only when not empty, an optional one
# even when empty (set PANDEMONIUM4="" to leave its runs out). The others come from
# install_engines.sh, which installs what is missing (its progress: tests/out/install_engines/install.log).
# Then every required engine must be an executable, every optional one empty (absent: its runs
# are reported as not run) or an executable. Exports the NAMEs. On failure prints why, prefixed
# with the script's name, and returns 2: call it as `need_engines GODOT4 || exit 2`.
need_engines() {
    local required=() optional=() wanted=() name engines line
    local log
    log="$(fvc_out_dir "$fvc_root/tests/install_engines.sh")/install.log"
    while [ $# -gt 0 ] && [ "$1" != --optional ]; do required+=("$1"); shift; done
    if [ $# -gt 0 ]; then shift; optional=("$@"); fi
    for name in "${required[@]}"; do
        if [ -z "${!name:-}" ]; then wanted+=("$name"); fi
    done
    for name in "${optional[@]}"; do
        if [[ ! -v $name ]]; then wanted+=("$name"); fi
    done
    if [ ${#wanted[@]} -gt 0 ]; then
        if ! engines=$(bash "$fvc_root/tests/install_engines.sh" 2>"$log"); then
            echo "${0##*/}: cannot find or install the engines (tests/install_engines.sh; its log: ${log#"$fvc_root/"})" >&2
            return 2
        fi
        while IFS= read -r line; do   # NAME=path lines; only the wanted ones are taken
            name=${line%%=*}
            if [[ " ${wanted[*]} " == *" $name "* ]]; then printf -v "$name" '%s' "${line#*=}"; fi
        done <<<"$engines"
    fi
    for name in "${required[@]}"; do
        if [ ! -x "${!name:-}" ]; then
            echo "${0##*/}: $name is not an executable: '${!name:-}'" >&2
            return 2
        fi
    done
    for name in "${optional[@]}"; do
        if [ -n "${!name:-}" ] && [ ! -x "${!name}" ]; then
            echo "${0##*/}: $name is not an executable: '${!name}' (set it to \"\" to leave its runs out)" >&2
            return 2
        fi
    done
    for name in "${required[@]}" "${optional[@]}"; do export "${name?}"; done
}

# --- counting ------------------------------------------------------------------------------------
# A runner counts into $passed and $failed: tally_init, then any of the tally functions (each
# returns 0, so that they are safe under `set -e`), then tally_end as its last command.

# tally_init: no check counted yet.
tally_init() {
    passed=0
    failed=0
}

# tally OK [MESSAGE]: one check, passed when OK (an exit status) is 0; a failed one prints
# "FAIL MESSAGE" when there is a MESSAGE.
tally() {
    if [ "$1" -eq 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        if [ -n "${2:-}" ]; then echo "FAIL $2"; fi
    fi
}

# tally_add PASSED FAILED: adds counts the caller read itself.
tally_add() {
    passed=$((passed + $1))
    failed=$((failed + $2))
}

# tally_check MESSAGE COMMAND...: one check, passed when COMMAND succeeds ("FAIL MESSAGE" if not).
tally_check() {
    local message=$1; shift
    if "$@"; then tally 0; else tally 1 "$message"; fi
}

# tally_result NAME OUTPUT STATUS [ERRLOG]: counts a run that has ended (exit status STATUS) whose
# OUTPUT ends with its own "P passed, F failed" line (last_result): adds P and F. A missing line
# (the run did not finish; ERRLOG's last lines are shown), or a non-zero STATUS after reporting no
# failure, counts as one failure more. NAME starts the FAIL line ("NAME exited with ...").
tally_result() {
    local name=$1 output=$2 status=$3 errlog=${4:-} p f
    if read -r p f < <(last_result "$output"); then
        tally_add "$p" "$f"
        if [ "$f" -eq 0 ] && [ "$status" -ne 0 ]; then
            tally 1 "$name exited with $status after reporting no failure (${output#"$fvc_root/"})"
        fi
    else
        p=${errlog:-$output}
        tally 1 "$name did not finish (exit code $status; no final 'N passed, N failed' line; see ${p#"$fvc_root/"})"
        if [ -n "$errlog" ]; then tail -n 15 "$errlog" | sed 's/^/    /'; fi
    fi
}

# count_cargo_test LOG STATUS: counts a cargo test run from its log and exit status: the sum of
# its "test result:" lines; one failure per test binary that failed without a result line (aborted: a stack overflow, a failed
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
        echo "FAIL $aborted cargo test binaries ended without a result (${log#"$fvc_root/"}):"
        grep -E "process didn't exit successfully" "$log" | head -n 5 | cut -c1-300
    fi
    if { [ "$rc" -ne 0 ] || ! grep -qE "$results" "$log"; } && [ "$failed" -eq "$before" ]; then
        tally 1 "cargo test exited with $rc, no failing test counted (or no test ran; ${log#"$fvc_root/"})"
        grep -E '^error' "$log" | head -n 5
    fi
}

# count_node_test LOG STATUS: counts a `node --test --test-reporter=spec` run from its log and exit
# status: shows the failing tests' names and first lines, then node's summary; adds node's passed
# tests, and its failed, cancelled, skipped and todo tests as failures. No summary (the run did
# not finish; the log's last lines are shown), or a non-zero STATUS with no failure counted,
# counts as one failure.
count_node_test() { # log exit_status
    local log=$1 rc=$2 p f=0 n kind
    awk '/^✖ failing tests:/ {f = 1; next} f && /^✖ / {print}' "$log" | head -n 30 | cut -c1-240
    grep -E '^ℹ (tests|pass|fail|cancelled|skipped|todo|duration_ms) ' "$log"
    p=$(grep -E "^ℹ pass [0-9]+" "$log" | tail -n 1 | awk '{print $3}')
    for kind in fail cancelled skipped todo; do
        n=$(grep -E "^ℹ $kind [0-9]+" "$log" | tail -n 1 | awk '{print $3}')
        f=$((f + ${n:-0}))
    done
    if [ -z "$p" ]; then
        tail -n 20 "$log"
        tally 1 "node --test reported no summary (exit $rc)"
    else
        tally_add "$p" "$f"
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            tally 1 "node --test exited with $rc (${log#"$fvc_root/"})"
        fi
    fi
}

# count_pytest LOG STATUS WHERE: counts a `pytest -q -rfEs` run from its log and exit status:
# shows the failing, erroring and skipped tests and pytest's summary line; adds pytest's passed
# tests, and its failures, errors and skips as failures. A non-zero STATUS with no failure
# counted, or no result at all, counts as one failure more (WHERE names the run).
count_pytest() {
    local log=$1 status=$2 where=$3 summary p f
    grep -E '^(FAILED|ERROR|SKIPPED)' "$log" | cut -c1-240 | head -n 30
    summary=$(tail -n 1 "$log")
    echo "$summary"
    p=$(echo "$summary" | grep -Eo "[0-9]+ passed" | awk '{s+=$1} END {print s+0}')
    f=$(echo "$summary" | grep -Eo "[0-9]+ (failed|errors?|skipped)" | awk '{s+=$1} END {print s+0}')
    tally_add "$p" "$f"
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        tail -n 20 "$log"
        tally 1 "$where: pytest exited with $status (${log#"$fvc_root/"})"
    elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        tally 1 "$where: pytest reported no result"
    fi
}

# tally_logs_clean [--only-failure] MESSAGE LOG...: one check, passed when no LOG holds what
# engine_logs_clean looks for; otherwise prints "FAIL MESSAGE" and the problems. With
# --only-failure, clean logs count nothing (runners that never counted them, so that their
# totals stay what they were).
tally_logs_clean() {
    local count_pass=1 problems
    if [ "$1" = --only-failure ]; then count_pass=0; shift; fi
    local message=$1; shift
    if problems=$(engine_logs_clean "$@"); then
        if [ "$count_pass" = 1 ]; then tally 0; fi
    else
        tally 1 "$message"
        echo "$problems"
    fi
}

# tally_run NAME LOG COMMAND...: runs COMMAND (which the caller bounds in time) with its stdout in
# LOG.stdout and its stderr in LOG.log, and shows that output but for engine banners, blank lines,
# "RESULT ..." lines (read by the runner itself) and its result line (at most 40 lines, cut to 240
# characters); then counts it: tally_result (its final line and exit status) and tally_logs_clean
# (one check: neither file holds "SCRIPT ERROR" or leaked objects).
tally_run() {
    local name=$1 log=$2 status=0; shift 2
    "$@" >"$log.stdout" 2>"$log.log" || status=$?
    grep -vE '^(Godot Engine v|Initialize godot-rust|RESULT |[0-9]+ passed, [0-9]+ failed$|[[:space:]]*$)' \
        "$log.stdout" | cut -c1-240 | head -n 40 || true
    tally_result "$name" "$log.stdout" "$status" "$log.log"
    tally_logs_clean "$name: the engine reported leaked objects or GDScript errors" "$log.log" "$log.stdout"
}

# tally_end: prints the final "N passed, N failed" line; fails when a check failed.
tally_end() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

# last_result FILE: prints "P F" from the last "P passed, F failed" line of FILE (the line every
# runner ends with); fails when there is none.
last_result() {
    local line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" 2>/dev/null | tail -n 1)
    [ -n "$line" ] || return 1
    echo "$line" | awk '{print $1, $3}'
}

# --- engine logs ---------------------------------------------------------------------------------

# What in an engine's output fails a run even when every check passed: objects still alive at
# exit (Godot 3 and 4 print "ObjectDB instances leaked at exit"), and GDScript errors (a runtime
# error silently aborts the function it happens in).
ENGINE_PROBLEMS='ObjectDB instances leaked|SCRIPT ERROR'

# need_addon: succeeds when the addon's library is built; otherwise says so, prefixed with the
# script's name, and returns 2: call it as `need_addon || exit 2`.
need_addon() {
    [ -f "$fvc_root/addons/fast_var_codec/bin/libfast_var_codec.so" ] && return 0
    echo "$(basename "$0"): the addon is not built: run tests/build_addon.sh first" >&2
    return 2
}

# engine_logs_clean LOG...: succeeds when no LOG (missing ones are skipped) holds such a line.
# Otherwise prints, per log, its name and the first few such lines (each SCRIPT ERROR with the
# line after it, which says where); the logs themselves stay out of the output (engines print
# a lot on malformed input).
engine_logs_clean() {
    local log clean=0
    for log in "$@"; do
        [ -f "$log" ] || continue
        if grep -qE "$ENGINE_PROBLEMS" "$log"; then
            clean=1
            echo "  in ${log#"$fvc_root/"}:"
            grep -E -A1 "$ENGINE_PROBLEMS" "$log" | grep -v '^--$' | head -n 6 | cut -c1-200 | sed 's/^/    /'
        fi
    done
    return $clean
}

# --- tools ---------------------------------------------------------------------------------------

# fvc_tool_cache: creates and prints the machine-wide folder of the tools the scripts install
# (tests/install_tools.sh, tests/build_npm.sh, tests/install_official_godot.sh), beside the
# engines: $FVC_TOOL_CACHE, by default tools/ in $FVC_ENGINE_CACHE (/var/cache/fast_var_codec).
# Every tool's folder there is named by its pinned versions, so clones with other pins share it and
# a second clone installs nothing. Where that default cannot be written (a CI runner without root),
# the clone's own .tools/ instead.
fvc_tool_cache() {
    local dir=${FVC_TOOL_CACHE:-${FVC_ENGINE_CACHE:-/var/cache/fast_var_codec}/tools}
    if [ -z "${FVC_TOOL_CACHE:-}" ] && ! { mkdir -p "$dir" && [ -w "$dir" ]; } 2>/dev/null; then
        dir=$fvc_root/.tools
    fi
    mkdir -p "$dir" && echo "$dir"
}

# The esbuild of the npm package's modules (tests/build_npm.sh), its tests' bundle
# (tests/run_npm_tests.sh) and the page (tests/build_web.sh).
fvc_esbuild_version=0.28.2

# fvc_cached_tool FOLDER BINARY INSTALL [ARGS...]: prints the path of BINARY (a path inside the
# tool cache's FOLDER), running `INSTALL TMP ARGS...` first when FOLDER lacks it: the install
# goes into a temporary folder TMP renamed to FOLDER when complete, so a folder that exists is
# whole; when another install made it meanwhile, that one stays. Returns 1 when INSTALL fails or
# leaves no BINARY.
fvc_cached_tool() {
    local folder=$1 binary=$2 install=$3 tools dir tmp
    shift 3
    tools=$(fvc_tool_cache) || return 1
    dir=$tools/$folder
    if [ -x "$dir/$binary" ]; then
        echo "$dir/$binary"
        return 0
    fi
    rm -rf "$dir"   # one without its binary
    tmp=$(mktemp -d "$dir.tmp.XXXXXX") || return 1
    "$install" "$tmp" "$@" || { rm -rf "$tmp"; return 1; }
    chmod 755 "$tmp"   # mktemp -d made it private
    mv -T "$tmp" "$dir" 2>/dev/null || true
    rm -rf "$tmp"
    [ -x "$dir/$binary" ] || return 1
    echo "$dir/$binary"
}

# fvc_npm_tool PACKAGE VERSION BINARY LOG: prints the path of BINARY of the npm package PACKAGE at
# exactly VERSION, installed once per machine into the tool cache (PACKAGE-VERSION/) from the npm
# registry with `npm install` (fvc_cached_tool). The install's output goes to LOG. Returns 1 on
# failure (LOG says why).
fvc_npm_tool() {
    local package=$1 version=$2 binary=$3 log=$4
    _fvc_npm_install() { # TMP
        printf '{\n  "private": true\n}\n' >"$1/package.json"
        (cd "$1" && npm install --no-audit --no-fund --loglevel=error "$package@$version") >"$log" 2>&1
    }
    fvc_cached_tool "$package-$version" "node_modules/.bin/$binary" _fvc_npm_install
}

# fvc_cargo_tool CRATE VERSION BINARY LOG [CARGO INSTALL ARGS...]: prints the path of BINARY of
# the crate CRATE at exactly VERSION, compiled once per machine into the tool cache
# (BINARY-VERSION/bin/BINARY, fvc_cached_tool), from crates.io with `cargo install`: --locked
# first (the versions its authors tested), without it when the registry lacks one of them (a
# yanked release). The build's output goes to LOG. A tool's output does not hang on how it was
# compiled: a release profile at opt-level 0, without LTO, in 16 codegen units and without debug
# info, whatever CARGO_PROFILE_RELEASE_* the environment sets. The tools run for a second or two
# on this project's files and are compiled on every new machine, so their compile is what counts:
# opt-level 0 halves it, and their output is the same (docs/performance.md, "The test command's
# time"). Returns 1 on failure (LOG says why).
fvc_cargo_tool() {
    local crate=$1 version=$2 binary=$3 log=$4
    shift 4
    _fvc_cargo_install() { # TMP [CARGO INSTALL ARGS...]
        local tmp=$1
        shift
        CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=off \
            CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=0 \
            CARGO_TARGET_DIR=$tmp/target nice -n 10 cargo install --root "$tmp" "$crate" \
            --version "$version" "$@"
    }
    _fvc_cargo_install_once() { # TMP [CARGO INSTALL ARGS...]
        if ! _fvc_cargo_install "$1" --locked "${@:2}" >"$log" 2>&1; then
            echo "    cargo install --locked $crate $version did not resolve ($(grep -m1 '^error' "$log" | cut -c1-160)); without it" >&2
            _fvc_cargo_install "$@" >>"$log" 2>&1 || return 1
        fi
        rm -rf "$1/target"
    }
    fvc_cached_tool "$binary-$version" "bin/$binary" _fvc_cargo_install_once "$@"
}
