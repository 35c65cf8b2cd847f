#!/usr/bin/env bash
# Linux arm64 (aarch64): cross-builds the extension on this x86_64 machine and runs it, and the
# core's tests, under emulation (qemu-aarch64, user mode) in a real arm64 Godot 4.6.3 (Debian's):
#   bash tests/run_arm64.sh                  the test command's set: the parity and API scenes
#   bash tests/run_arm64.sh --all            every scene of godot_project/tests/
#   bash tests/run_arm64.sh test_deep.gd ... those scenes
#   bash tests/run_arm64.sh --core-tests     the core's tests instead (step 3 alone; the test
#                                            command's arm64_core step, beside the arm64 step)
# What it does, each counted:
#  1. installs what it needs (tests/install_arm64.sh: qemu-user, gcc-aarch64-linux-gnu, Rust's
#     std for aarch64-unknown-linux-gnu, a Debian sid arm64 root with Godot 4.6.3);
#  2. builds the release library for aarch64-unknown-linux-gnu and installs it as
#     addons/fast_var_codec/bin/libfast_var_codec.arm64.so (the linux.*.arm64 entries of the
#     .gdextension); checks it with binutils: an AArch64 ELF shared object that exports
#     gdext_rust_init and needs only glibc's and libgcc's libraries;
#  3. (--core-tests) runs the core's tests and doctests (cargo test -p fast_var_codec_core
#     --features serde,tokio,json,compression, the features of the test command's core step; not
#     the examples, which only compile) built for aarch64 at opt-level 2 with
#     debug assertions and overflow checks kept (the dev profile's, optimized: emulated
#     unoptimized code is many times slower), each test binary
#     under qemu-aarch64 with the arm64 root's libraries (cargo's target runner); the corpus
#     tests (golden, detection, json, transcode, godot_text) check every 16th input of each
#     golden corpus and every one a test names (FVC_CORPUS_STRIDE, 1 for all: 8 minutes more;
#     the core step checks all of them natively);
#  4. runs the headless scenes (tests/run_godot_tests.sh) in the arm64 Godot 4.6.3 under
#     qemu-aarch64: it can load only the arm64 library (an aarch64 process cannot map an x86_64
#     one, and the project's .gdextension names no other for arm64), and the scenes fail at once
#     when FastVarCodec is not registered.
# Times here (2 cores, from scratch): the release build 4 min, the core's tests about 4 min with their
# build (transcode.rs's sampled corpora about 1 min under the emulator), the two scenes 80 s.
# Ends with "N passed, N failed"; exits non-zero on any failure. Logs: tests/out/run_arm64/
# (cargo_release.log, cargo_test.log; the engine's stderr in
# tests/out/run_godot_tests/godot_tests_arm64.stderr.log). FVC_BUILD_LOCK=FILE runs each cargo build
# under `flock FILE`.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
target=aarch64-unknown-linux-gnu
out=addons/fast_var_codec/bin/libfast_var_codec.arm64.so
scenes=(test_parity.gd test_api.gd)
all=0
core_tests=0
picked=()
for arg in "$@"; do
    case $arg in
        --all) all=1 ;;
        --core-tests) core_tests=1 ;;
        test_*.gd) picked+=("$arg") ;;
        *) echo "usage: $0 [--all | --core-tests | test_NAME.gd ...]" >&2; exit 2 ;;
    esac
done
if [ "$all" = 1 ]; then scenes=(); elif [ ${#picked[@]} -gt 0 ]; then scenes=("${picked[@]}"); fi
logs=$(fvc_out_dir) || exit 2
tally_init
pass() { tally 0; echo "PASS $*"; }
finish() { echo; tally_end; exit; }
locked() { if [ -n "${FVC_BUILD_LOCK:-}" ]; then flock "$FVC_BUILD_LOCK" "$@"; else "$@"; fi; }

# --- 1. tools and engine -----------------------------------------------------------------------
# One install at a time: the arm64 and arm64_core steps run at the same time (tests/run_all.sh).
if ! vars=$(flock "$root/tests/out/.arm64_install.lock" bash tests/install_arm64.sh 2>"$logs/install.log"); then
    tail -n 20 "$logs/install.log"
    tally 1 "installing the arm64 tools and engine (tests/install_arm64.sh; ${logs#"$root/"}/install.log)"
    finish
fi
eval "$vars"
pass "arm64 tools and engine: $(qemu-aarch64 --version | head -n 1), Godot $("$GODOT4_ARM64" --version 2>/dev/null | tail -n 1)"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=$FVC_ARM64_RUN

# --- 3. the core's tests under emulation (--core-tests) ---------------------------------------
if [ "$core_tests" = 1 ]; then
    start=$(date +%s)
    # The library's and the integration tests, then the doctests: not the examples, which no
    # test runs and the core step builds natively (cargo allows --doc with no other target).
    status=0
    : >"$logs/cargo_test.log"
    for targets in "--lib --tests" --doc; do
        # shellcheck disable=SC2086 # $targets: one or two options
        CARGO_PROFILE_DEV_OPT_LEVEL=2 CARGO_PROFILE_TEST_OPT_LEVEL=2 FVC_CORPUS_STRIDE=${FVC_CORPUS_STRIDE:-16} \
            locked "$DEADLINE" 3600 nice -n 10 cargo test --no-fail-fast --timings -p fast_var_codec_core --features serde,tokio,json,compression --target "$target" $targets >>"$logs/cargo_test.log" 2>&1 \
            || status=$?
    done
    before=$passed
    count_cargo_test "$logs/cargo_test.log" "$status"
    grep -E '^test result|FAILED|panicked' "$logs/cargo_test.log" | grep -v ' 0 passed; 0 failed' | cut -c1-200 | tail -n 20
    echo "core tests under qemu-aarch64: $((passed - before)) passed ($(($(date +%s) - start)) s with the build; ${logs#"$root/"}/cargo_test.log)"
    finish
fi

# --- 2. the library ----------------------------------------------------------------------------
fvc_cross_release_profile
start=$(date +%s)
if locked nice -n 10 cargo build --release --timings -p fast_var_codec_gdextension --target "$target" >"$logs/cargo_release.log" 2>&1; then
    pass "cargo build --release for $target ($(($(date +%s) - start)) s)"
else
    tail -n 30 "$logs/cargo_release.log"
    tally 1 "cargo build --release for $target (${logs#"$root/"}/cargo_release.log)"
    finish
fi
install -m 0755 "target/$target/release/libfast_var_codec.so" "$out"
header=$(aarch64-linux-gnu-readelf -h "$out")
tally_check "$out is not an AArch64 ELF shared object" \
    grep -qE 'Machine: +AArch64' <<<"$header"
tally_check "$out is not a shared object (DYN)" grep -qE 'Type: +DYN' <<<"$header"
tally_check "$out does not export gdext_rust_init" \
    bash -c "aarch64-linux-gnu-nm -D --defined-only '$out' | grep -qw gdext_rust_init"
needed=$(aarch64-linux-gnu-readelf -d "$out" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)
others=$(grep -vxE 'libc\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|ld-linux-aarch64\.so\.1' <<<"$needed" || true)
tally_check "$out needs libraries beyond glibc and libgcc: $others" test -n "$needed" -a -z "$others"
glibc=$(aarch64-linux-gnu-objdump -T "$out" | grep -oE 'GLIBC_[0-9.]+' | sort -uV | tail -n 1)
echo "$out: $(stat -c %s "$out") bytes; needs $(echo $needed); newest glibc symbol version $glibc"

# --- 4. the scenes in the arm64 Godot ------------------------------------------------------------
start=$(date +%s)
echo "scenes in Godot 4.6.3 arm64 under qemu-aarch64: ${scenes[*]:-every scene}"
scene_log=$logs/scenes.log
GODOT4=$GODOT4_ARM64 FVC_ADDON_LIBRARY=$root/$out FVC_GODOT_LOG=godot_tests_arm64 \
    FVC_GODOT_TEST_TIMEOUT=${FVC_ARM64_TIMEOUT:-3600} \
    bash tests/run_godot_tests.sh "${scenes[@]}" >"$scene_log" 2>&1
status=$?
grep -vE '^[0-9]+ passed, [0-9]+ failed$' "$scene_log" | tail -n 40
tally_result "the arm64 scenes" "$scene_log" "$status"
echo "scenes: $(last_result "$scene_log" | awk '{print $1 " passed, " $2 " failed"}') in $(($(date +%s) - start)) s"
finish
