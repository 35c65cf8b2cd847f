#!/usr/bin/env bash
# Builds the extension for macOS as one universal library (x86_64 + arm64 slices, one Mach-O fat
# file), the form Godot's GDExtension docs give for macOS beside a .framework, and checks it as far
# as Linux can:
#   bash tests/build_macos.sh            release: addons/fast_var_codec/bin/libfast_var_codec.macos.dylib
#   bash tests/build_macos.sh --debug    the dev profile too (target/universal2-apple-darwin/debug/),
#                                        for a developer's checks; nothing ships it
# Ends with "N passed, N failed"; exits non-zero on any failure. A step of tests/run_all.sh.
#
# No Apple SDK: zig is the C toolchain and linker (cargo-zigbuild, target universal2-apple-darwin,
# which builds aarch64-apple-darwin and x86_64-apple-darwin and joins them). zig, cargo-zigbuild and
# lief come from PyPI into the tool cache (tests/install_tools.sh); Rust's std for both
# targets from rustup (`rustup target add`, done here when missing). The minimum macOS is 11.0
# (MACOSX_DEPLOYMENT_TARGET; 11 is the first macOS on arm64, and one value serves both slices).
#
# The checks (tests/macos/check_macho.py, with lief's Mach-O parser), for each library built: a fat
# file of exactly the slices x86_64 and arm64, each a 64-bit MH_DYLIB that exports
# _gdext_rust_init (the .gdextension's entry_symbol; Mach-O names carry a leading underscore),
# whose LC_LOAD_DYLIB commands name only system libraries (/usr/lib/, /System/Library/), whose
# install name is @rpath/, and whose LC_BUILD_VERSION says macOS 11.0; and the arm64 slice carries
# a code signature (LC_CODE_SIGNATURE, an ad-hoc one from zig's linker: arm64 macOS refuses to
# load unsigned code). Nothing here runs the library: no macOS, no Mach-O loader on Linux.
# Cargo's output: tests/out/build_macos/cargo_{release,debug}.log. FVC_BUILD_LOCK=FILE runs each
# cargo build under `flock FILE`.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
target=universal2-apple-darwin
out=addons/fast_var_codec/bin/libfast_var_codec.macos.dylib
profiles=(release)
for arg in "$@"; do
    case $arg in
        --debug) profiles+=(debug) ;;
        *) echo "usage: $0 [--debug]" >&2; exit 2 ;;
    esac
done
logs=$(fvc_out_dir) || exit 2
tally_init
pass() { tally 0; echo "PASS $*"; }
log() { echo "build_macos.sh: $*" >&2; }
finish() { echo; tally_end; exit; }
locked() { if [ -n "${FVC_BUILD_LOCK:-}" ]; then flock "$FVC_BUILD_LOCK" "$@"; else "$@"; fi; }

# --- tools -------------------------------------------------------------------------------------
if ! tools=$(bash tests/install_tools.sh 2>"$logs/install_tools.log"); then
    tail -n 20 "$logs/install_tools.log"
    tally 1 "installing zig, cargo-zigbuild and lief into the tool cache (tests/install_tools.sh)"
    finish
fi
eval "$tools"
export PYTHONPATH=$FVC_TOOLS_PYTHONPATH${PYTHONPATH:+:$PYTHONPATH} PATH=$FVC_TOOLS_BIN:$PATH
for t in aarch64-apple-darwin x86_64-apple-darwin; do
    if ! compgen -G "$(rustc --print target-libdir --target "$t" 2>/dev/null)/libstd-*.rlib" >/dev/null; then
        log "rustup target add $t"
        fvc_setup_locked timeout 600 rustup target add "$t" >&2 || { tally 1 "rustup target add $t"; finish; }
    fi
done
pass "tools: $(cargo-zigbuild --version), zig $(python3 -m ziglang version), lief $(python3 -c 'import lief; print(lief.__version__)')"

# --- build and check ---------------------------------------------------------------------------
export MACOSX_DEPLOYMENT_TARGET=11.0
# The release library ships without debug map or local symbols (rust/gdextension/build.rs).
fvc_cross_release_profile
for profile in "${profiles[@]}"; do
    args=(zigbuild --timings -p fast_var_codec_gdextension --target "$target")
    [ "$profile" = release ] && args+=(--release)
    build_log=$logs/cargo_$profile.log
    start=$(date +%s)
    log "cargo ${args[*]} (log: ${build_log#"$root/"})"
    if locked cargo "${args[@]}" >"$build_log" 2>&1; then
        pass "cargo zigbuild ($profile) for $target ($(($(date +%s) - start)) s)"
    else
        tail -n 30 "$build_log"
        tally 1 "cargo zigbuild ($profile) for $target (${build_log#"$root/"})"
        continue
    fi
    lib=target/$target/$profile/libfast_var_codec.dylib
    if [ "$profile" = release ]; then
        install -m 0755 "$lib" "$out"
    fi
    echo "checks of $lib ($(stat -c %s "$lib") bytes):"
    python3 tests/macos/check_macho.py --min-macos 11.0 "$lib" >"$logs/check_$profile.log" 2>&1
    status=$?
    cat "$logs/check_$profile.log"
    tally_result "check_macho.py ($profile)" "$logs/check_$profile.log" "$status"
done
finish
