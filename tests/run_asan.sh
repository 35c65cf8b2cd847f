#!/usr/bin/env bash
# The extension's unsafe code under AddressSanitizer, inside the real engine:
#   bash tests/run_asan.sh [test_file.gd ...]     (default: every godot_project/tests/test_*.gd)
# Builds the addon's library with -Zsanitizer=address in the dev profile (godot-rust's strict
# safeguards; stable Rust with RUSTC_BOOTSTRAP=1, as tests/fuzz.sh builds the fuzz targets) into
# target/asan/, makes a copy of godot_project/ whose addon is that library (target/asan/project/,
# links to the real files), and runs the headless test scenes in Godot 4.6.3 with the sanitizer's
# runtime preloaded. Then, with FVC_ASAN_DOUBLE=1 and when ../shared/engines has it, the same in
# the precision=double Godot 4.6.3 with the double-precision library built the same way.
#
# Two things make the engine load an instrumented library:
#  * the sanitizer's runtime must come first in the process: GCC's libasan.so is preloaded
#    (LD_PRELOAD), as nothing in Godot links it;
#  * Godot opens a GDExtension with RTLD_DEEPBIND, which the runtime refuses: tests/asan/
#    no_deepbind.c, compiled here and preloaded before it, clears that flag (see the file).
# ASAN_OPTIONS: leaks are not checked (the engine's own allocations at exit would fill the
# report), and the runtime is not required to come first among all libraries (the preloaded
# dlopen wrapper does).
#
# Ends with "N passed, N failed": the scenes' own checks, plus one per engine that no sanitizer
# report was written (tests/out/run_asan/asan.*) and the engine exited cleanly. Needs gcc (its
# libasan). FVC_ASAN_TIMEOUT bounds each engine run (default 1800 s).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
need_engines GODOT4 --optional GODOT4_DOUBLE || exit 2
out=$(fvc_out_dir) || exit 2
target=x86_64-unknown-linux-gnu
# target/ may be a link to the build cache (tests/lib.sh: fvc_use_build_cache): its real path,
# which every clone sharing the cache names alike, keeps the bindings' input path the same.
mkdir -p "$root/target"
work=$(cd "$root/target" && pwd -P)/asan
tally_init
started=$SECONDS
die() { echo "run_asan.sh: $*" >&2; tally 1 "$*"; tally_end; exit 1; }

libasan=$(gcc -print-file-name=libasan.so 2>/dev/null)
[ -f "$libasan" ] || die "no libasan.so from gcc (apt-get install gcc)"
mkdir -p "$work"
gcc -shared -fPIC -O2 -o "$work/no_deepbind.so" tests/asan/no_deepbind.c -ldl \
    || die "compiling tests/asan/no_deepbind.c"

# build FLAVOUR: the instrumented library (FLAVOUR: single or double); prints its path.
build() {
    local flavour=$1 dir args=()
    dir=$work/$flavour
    if [ "$flavour" = double ]; then
        # The double-precision bindings come from the committed API description, named by its
        # content as tests/build_addon.sh names it.
        local api
        api="$work/double_api-$(sha256sum tests/double_api/double_api.json | cut -c1-16).json"
        cp tests/double_api/double_api.json "$api"
        export GDRUST_GODOT_API_JSON="$api"
        args=(--no-default-features --features double-precision)
    fi
    echo "run_asan.sh: building the $flavour-precision library with AddressSanitizer (log: tests/out/run_asan/cargo_$flavour.log)" >&2
    RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Zsanitizer=address" cargo build --timings -p fast_var_codec_gdextension \
        --target "$target" --target-dir "$dir" "${args[@]}" >"$out/cargo_$flavour.log" 2>&1 || return 1
    unset GDRUST_GODOT_API_JSON
    echo "$dir/$target/debug/libfast_var_codec.so"
}

# project LIBRARY: target/asan/project, godot_project/ with the addon's library replaced; the
# addon's other files and the repository's docs/ beside it, where the scenes read them
# (test_surface.gd: the icon, the addon's README, docs/gdscript.md's review table).
project() {
    local lib=$1 p=$work/project entry name
    bash tests/setup_godot_project.sh || return 1
    rm -rf "$p"
    mkdir -p "$p/.godot" "$p/addons/fast_var_codec/bin"
    for entry in godot_project/* ; do
        name=${entry##*/}
        [ "$name" = addons ] && continue
        ln -s "$root/godot_project/$name" "$p/$name"
    done
    for entry in addons/fast_var_codec/*; do
        name=${entry##*/}
        [ "$name" = bin ] && continue
        cp -r "$entry" "$p/addons/fast_var_codec/"
    done
    ln -sfn "$root/docs" "$work/docs"
    ln -s "$lib" "$p/addons/fast_var_codec/bin/libfast_var_codec.so"
    ln -s "$lib" "$p/addons/fast_var_codec/bin/libfast_var_codec.double.so"
    echo "res://addons/fast_var_codec/fast_var_codec.gdextension" >"$p/.godot/extension_list.cfg"
}

# run LABEL ENGINE [test files]: the scenes under the sanitizer; counts them and their reports.
run() {
    local label=$1 engine=$2 status=0 reports; shift 2
    rm -f "$out/asan.$label".*
    echo "=== $label: the headless scenes under AddressSanitizer"
    env LD_PRELOAD="$work/no_deepbind.so $libasan" \
        ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0:halt_on_error=1:log_path=$out/asan.$label" \
        "$DEADLINE" -k 10 "${FVC_ASAN_TIMEOUT:-1800}" "$engine" --headless --path "$work/project" \
        -s res://tests/run_tests.gd -- "$@" >"$out/$label.stdout" 2>"$out/$label.stderr.log" \
        || status=$?
    grep -E '^(-- |FAIL )' "$out/$label.stdout" | cut -c1-240
    tally_result "$label scenes" "$out/$label.stdout" "$status" "$out/$label.stderr.log"
    reports=$(ls "$out/asan.$label".* 2>/dev/null)
    if [ -z "$reports" ] && ! grep -q "AddressSanitizer" "$out/$label.stderr.log"; then
        tally 0
        echo "no sanitizer report ($label)"
    else
        tally 1 "$label: AddressSanitizer reported (tests/out/run_asan/asan.$label.*)"
        for r in $reports "$out/$label.stderr.log"; do
            grep -E -A12 "ERROR: AddressSanitizer" "$r" | head -n 30
        done
    fi
}

# An instrumented library calls the runtime's __asan_* functions: it loads only where the
# preloaded runtime provides them, so a scene run that finds FastVarCodec ran under the sanitizer.
instrumented() { # LIBRARY
    tally_check "$1 is instrumented (calls __asan_report_*)" \
        bash -c "nm -D --undefined-only '$1' | grep -q __asan_report_"
}

lib=$(build single) || die "the instrumented build failed (tests/out/run_asan/cargo_single.log)"
instrumented "$lib"
project "$lib" || die "preparing target/asan/project"
run asan_single "$GODOT4" "$@"

# The double-precision library under the sanitizer: FVC_ASAN_DOUBLE=1 (the test command sets it).
if [ "${FVC_ASAN_DOUBLE:-0}" != 1 ]; then
    echo "the double-precision library under the sanitizer: not run (FVC_ASAN_DOUBLE=1 runs it)"
elif [ -n "${GODOT4_DOUBLE:-}" ]; then
    lib=$(build double) || die "the instrumented double-precision build failed (tests/out/run_asan/cargo_double.log)"
    instrumented "$lib"
    project "$lib" || die "preparing target/asan/project"
    run asan_double "$GODOT4_DOUBLE" "$@"
else
    echo "NOT RUN: no double-precision Godot 4.6.3 (../shared/engines): its scenes under the sanitizer"
fi

echo "run_asan.sh: $((SECONDS - started)) s (logs: tests/out/run_asan/)"
tally_end
