#!/usr/bin/env bash
# Cross-builds the extension for Windows x86_64 (x86_64-pc-windows-gnu) on this Linux machine and
# checks the DLL as far as Linux can:
#   bash tests/build_windows.sh               addons/fast_var_codec/bin/fast_var_codec.dll (release, stripped)
#   bash tests/build_windows.sh --build-std   the same, std built from Debian's rust-src (see below)
# FVC_WINDOWS_BUILD_STD=1 is --build-std for every run in its environment (tests/run_all.sh's
# windows and package steps alike), so the test command can run either way.
# Ends with "N passed, N failed"; exits non-zero on any failure. A step of tests/run_all.sh (about
# 3 minutes from scratch on two cores).
#
# What it needs, installed with apt when missing (as root): Debian's MinGW-w64 cross compiler
# (gcc-mingw-w64-x86-64-posix, the linker rustc names for this target) and its binutils (objdump,
# strip), and wine64 for the load check.
#
# The Rust standard library for the target, one of two ways:
#  1. rustup's prebuilt one: `rustup target add x86_64-pc-windows-gnu` (done here when missing).
#  2. When rustup cannot fetch it (no network to its server; or with --build-std): std is built
#     from source with cargo's -Zbuild-std (RUSTC_BOOTSTRAP=1 on the stable toolchain). The source
#     is Debian's rust-src of exactly the installed rustc's version (from trixie-backports, sid or
#     experimental, through a private apt configuration; the system's apt sources are not
#     touched). cargo reads std's source from the compiler's sysroot
#     ($(rustc --print sysroot)/lib/rustlib/src/rust/library); rather than writing into the
#     toolchain, the script makes a private sysroot: hard links of the toolchain's rustc and lib/
#     (rustc takes its sysroot from where its driver library really is, so symlinks would not
#     do) plus lib/rustlib/src/rust pointing at the extracted source, and builds with RUSTC set
#     to that rustc (through a two-line wrapper that clears rustup's LD_LIBRARY_PATH).
# Everything downloaded or made lives in /var/cache/fast_var_codec/windows (FVC_WINDOWS_CACHE);
# builds go to target/windows (target/windows-build-std), beside the Linux builds; logs to
# tests/out/build_windows/ (cargo.log or cargo_build_std.log, wine.log).
#
# The checks: the DLL exports gdext_rust_init (the .gdextension's entry_symbol), before and after
# stripping; it imports only Windows system DLLs (no libgcc_s/libwinpthread/libstdc++ to ship);
# and wine loads it: a small MinGW-built program LoadLibrary's it and GetProcAddress's
# gdext_rust_init (Godot itself is not run under wine: no Windows Godot is installed here).
# FVC_BUILD_LOCK=FILE runs each cargo build under `flock FILE`.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
target=x86_64-pc-windows-gnu
cache=${FVC_WINDOWS_CACHE:-/var/cache/fast_var_codec/windows}
out=addons/fast_var_codec/bin/fast_var_codec.dll
build_std=${FVC_WINDOWS_BUILD_STD:-0}
for arg in "$@"; do
    case $arg in
        --build-std) build_std=1 ;;
        *) echo "usage: $0 [--build-std]" >&2; exit 2 ;;
    esac
done
mkdir -p "$cache"
logs=$(fvc_out_dir) || exit 2
tally_init
pass() { tally 0; echo "PASS $*"; }
log() { echo "build_windows.sh: $*" >&2; }
finish() { echo; tally_end; exit; }
locked() { if [ -n "${FVC_BUILD_LOCK:-}" ]; then flock "$FVC_BUILD_LOCK" "$@"; else "$@"; fi; }

# --- tools -------------------------------------------------------------------------------------
apt_updated=0
apt_install() {
    if [ "$apt_updated" = 0 ]; then fvc_setup_locked apt-get update -qq >&2 || true; apt_updated=1; fi
    DEBIAN_FRONTEND=noninteractive fvc_setup_locked apt-get install -y -qq --no-install-recommends "$@" >&2
}
if ! command -v x86_64-w64-mingw32-gcc >/dev/null || ! command -v x86_64-w64-mingw32-objdump >/dev/null; then
    log "installing the MinGW-w64 cross toolchain (apt)"
    apt_install gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 || {
        tally 1 "installing gcc-mingw-w64-x86-64-posix"; finish; }
fi
find_wine() {
    local w
    for w in "$(command -v wine64)" "$(command -v wine)" /usr/lib/wine/wine64 /usr/lib/wine/wine; do
        [ -n "$w" ] && [ -x "$w" ] && { echo "$w"; return 0; }
    done
    return 1
}
wine=$(find_wine) || { log "installing wine64 (apt)"; apt_install wine64 || true; wine=$(find_wine) || wine=; }

# --- the standard library for the target ---------------------------------------------------------
rustc_version=$(rustc -vV | sed -n 's/^release: //p')
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
fvc_cross_release_profile
cargo_args=(build --release --timings -p fast_var_codec_gdextension --target "$target")
has_prebuilt_std() { compgen -G "$(rustc --print target-libdir --target "$target" 2>/dev/null)/libstd-*.rlib" >/dev/null; }
if [ "$build_std" = 0 ] && ! has_prebuilt_std; then
    log "rustup target add $target"
    fvc_setup_locked timeout 600 rustup target add "$target" >&2 && has_prebuilt_std || {
        log "rustup could not install the prebuilt std for $target: building std from source"
        build_std=1
    }
fi
if [ "$build_std" = 0 ]; then
    echo "std for $target: rustup's prebuilt rust-std $rustc_version"
    target_dir=target/windows
    build_log=$logs/cargo.log
else
    apt_dir=$cache/apt
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    cat >"$apt_dir/sources.list" <<EOF
deb [signed-by=$keyring] http://deb.debian.org/debian trixie-backports main
deb [signed-by=$keyring] http://deb.debian.org/debian sid main
deb [signed-by=$keyring] http://deb.debian.org/debian experimental main
EOF
    apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=-
        -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
        -o Dir::State::status=/dev/null -o Debug::NoLocking=1 -o Acquire::Languages=none
        -o APT::Sandbox::User=root)
    src=$cache/rust-src-$rustc_version
    if [ ! -f "$src/usr/src/rustc-$rustc_version/library/Cargo.lock" ]; then
        log "finding Debian's rust-src $rustc_version"
        apt-get "${apt_opts[@]}" update -qq >&2 || true
        deb_version=$(apt-cache "${apt_opts[@]}" madison rust-src 2>/dev/null \
            | awk -F'|' '{gsub(/ /, "", $2); print $2}' | grep -F "$rustc_version+" | head -n 1)
        [ -n "$deb_version" ] || {
            tally 1 "no Debian rust-src $rustc_version (trixie-backports, sid, experimental) for rustc $rustc_version"
            finish
        }
        rm -rf "$src.tmp" && mkdir -p "$src.tmp/deb"
        (cd "$src.tmp/deb" && apt-get "${apt_opts[@]}" download "rust-src=$deb_version" >&2) \
            && dpkg-deb -x "$src.tmp"/deb/rust-src_*.deb "$src.tmp" || {
            tally 1 "downloading Debian's rust-src $deb_version"; finish; }
        rm -rf "$src.tmp/deb" "$src" && mv "$src.tmp" "$src"
        echo "$deb_version" >"$src/debian-version"
    fi
    # The private sysroot: same compiler (hard links), plus the source.
    sysroot=$cache/sysroot-$rustc_version
    real_sysroot=$(rustc --print sysroot)
    if [ "$("$sysroot/bin/rustc" --print sysroot 2>/dev/null)" != "$sysroot" ] \
        || [ ! -e "$sysroot/lib/rustlib/src/rust/library/std" ]; then
        log "making the private sysroot $sysroot"
        rm -rf "$sysroot" && mkdir -p "$sysroot/bin"
        cp -al "$real_sysroot/bin/rustc" "$sysroot/bin/" && cp -al "$real_sysroot/lib" "$sysroot/" \
            || { rm -rf "$sysroot" && mkdir -p "$sysroot/bin" \
                && cp -a "$real_sysroot/bin/rustc" "$sysroot/bin/" && cp -a "$real_sysroot/lib" "$sysroot/"; }
        rm -rf "$sysroot/lib/rustlib/$target" "$sysroot/lib/rustlib/src"   # only our links go
        mkdir -p "$sysroot/lib/rustlib/src"
        ln -s "$src/usr/src/rustc-$rustc_version" "$sysroot/lib/rustlib/src/rust"
    fi
    [ "$("$sysroot/bin/rustc" -vV | sed -n 's/^release: //p')" = "$rustc_version" ] || {
        tally 1 "the private sysroot's rustc is not $rustc_version"; finish; }
    echo "std for $target: built from Debian's rust-src $(cat "$src/debian-version") (-Zbuild-std)"
    # rustup's cargo proxy sets LD_LIBRARY_PATH to the toolchain's lib/, which would make this
    # rustc load the toolchain's driver library, and so take the toolchain as its sysroot; its
    # own RUNPATH ($ORIGIN/../lib) finds the private sysroot's.
    mkdir -p "$cache/bin"
    printf '#!/bin/sh\nunset LD_LIBRARY_PATH\nexec "%s/bin/rustc" "$@"\n' "$sysroot" >"$cache/bin/rustc-$rustc_version"
    chmod +x "$cache/bin/rustc-$rustc_version"
    [ "$(LD_LIBRARY_PATH=$real_sysroot/lib "$cache/bin/rustc-$rustc_version" --print sysroot)" = "$sysroot" ] || {
        tally 1 "the private sysroot's rustc does not take $sysroot as its sysroot"; finish; }
    export RUSTC=$cache/bin/rustc-$rustc_version RUSTC_BOOTSTRAP=1
    # shellcheck disable=SC2054 # one argument: the crates std is built with
    cargo_args+=(-Zbuild-std=std,panic_abort)
    target_dir=target/windows-build-std
    build_log=$logs/cargo_build_std.log
fi

# --- build -------------------------------------------------------------------------------------
start=$(date +%s)
log "cargo ${cargo_args[*]} --target-dir $target_dir (log: ${build_log#"$root/"})"
if locked cargo "${cargo_args[@]}" --target-dir "$target_dir" >"$build_log" 2>&1; then
    pass "cargo build --release for $target ($(($(date +%s) - start)) s; cargo: $(grep -o 'in [0-9].*' "$build_log" | tail -n 1))"
else
    tail -n 30 "$build_log"
    tally 1 "cargo build --release for $target (${build_log#"$root/"})"
    finish
fi
built=$target_dir/$target/release/fast_var_codec.dll
x86_64-w64-mingw32-strip -o "$out.tmp" "$built" && mv "$out.tmp" "$out"
size() { stat -c %s "$1" | awk '{printf "%d bytes (%.1f MB)", $1, $1 / 1e6}'; }
echo "built:    $built: $(size "$built")"
echo "stripped: $out: $(size "$out")"

# --- checks ------------------------------------------------------------------------------------
exports() { x86_64-w64-mingw32-objdump -p "$1" | sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p'; }
for dll in "$built" "$out"; do
    if exports "$dll" | grep -qw gdext_rust_init; then
        pass "$dll exports gdext_rust_init"
    else
        tally 1 "$dll does not export gdext_rust_init"
    fi
done
echo "exports of $out:"
exports "$out" | sed -n 's/^\s*\[ *[0-9]*\] /  /p'
imports=$(x86_64-w64-mingw32-objdump -p "$out" | sed -n 's/^\s*DLL Name: //p' | sort -uf)
echo "imports of $out: $(echo "$imports" | tr '\n' ' ')"
# Windows' own DLLs (and the API sets that forward to them); anything else (libgcc_s_seh-1.dll,
# libwinpthread-1.dll, libstdc++-6.dll) would have to ship beside the addon.
system_dlls='^(kernel32|kernelbase|ntdll|advapi32|userenv|ws2_32|bcrypt|bcryptprimitives|msvcrt|ucrtbase|user32|ole32|oleaut32|shell32|secur32|crypt32|ncrypt|dbghelp|synchronization|api-ms-win-[a-z0-9-]+)\.dll$'
others=$(echo "$imports" | grep -viE "$system_dlls" || true)
if [ -n "$imports" ] && [ -z "$others" ]; then
    pass "$out imports only Windows system DLLs"
else
    tally 1 "$out imports non-system DLLs: ${others:-<none found>}"
fi

# wine: LoadLibrary + GetProcAddress, which also runs the DLL's initialisation (TLS callbacks,
# static constructors) and resolves every import against Wine's DLLs.
if [ -z "$wine" ]; then
    echo "NOT RUN: the wine load check (no wine64: apt-get install wine64 failed)"
else
    export WINEPREFIX=$cache/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
    unset DISPLAY
    wine_log=$logs/wine.log
    : >"$wine_log"
    # load_dll.exe DLL SYMBOL, and a bcryptprimitives.dll for Wines without one (below).
    if [ ! -x "$cache/wine/shim/bcryptprimitives.dll" ] || [ "$0" -nt "$cache/wine/shim/bcryptprimitives.dll" ]; then
        mkdir -p "$cache/wine/shim"
        cat >"$cache/wine/load_dll.c" <<'EOF'
#include <windows.h>
#include <stdio.h>
/* load_dll.exe DLL SYMBOL: LoadLibrary(DLL), then GetProcAddress(SYMBOL). */
int main(int argc, char **argv) {
    if (argc != 3) { printf("usage: load_dll DLL SYMBOL\n"); return 2; }
    HMODULE dll = LoadLibraryA(argv[1]);
    if (!dll) { printf("LoadLibrary(%s) failed: error %lu\n", argv[1], GetLastError()); return 1; }
    FARPROC sym = GetProcAddress(dll, argv[2]);
    if (!sym) { printf("GetProcAddress(%s) failed: error %lu\n", argv[2], GetLastError()); return 1; }
    printf("LOADED %s: %s at %p\n", argv[1], argv[2], (void *)sym);
    FreeLibrary(dll);
    return 0;
}
EOF
        cat >"$cache/wine/bcryptprimitives.c" <<'EOF'
#include <windows.h>
/* Rust's std (1.78 and later) takes its random numbers from ProcessPrng in bcryptprimitives.dll,
   which every Windows that Rust supports (10 and later) has, and Wine 8 lacks. This stand-in,
   for the load check under such a Wine only, draws them from RtlGenRandom. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
EOF
        x86_64-w64-mingw32-gcc -O2 -o "$cache/wine/load_dll.exe" "$cache/wine/load_dll.c" \
            && cp "$cache/wine/load_dll.exe" "$cache/wine/shim/" \
            && x86_64-w64-mingw32-gcc -O2 -shared -o "$cache/wine/shim/bcryptprimitives.dll" \
                "$cache/wine/bcryptprimitives.c" -ladvapi32 \
            || tally 1 "compiling load_dll.exe and bcryptprimitives.dll"
    fi
    run_loader() { # LOADER DLL SYMBOL
        "$DEADLINE" 300 "$wine" "$1" "$2" "$3" 2>>"$wine_log"
    }
    wine_version=$("$wine" --version 2>/dev/null)
    loader=$cache/wine/load_dll.exe
    # Wine looks for a DLL's imports beside the program first: the stand-in is used only when
    # this Wine has no bcryptprimitives.dll of its own.
    if ! run_loader "$loader" bcryptprimitives.dll ProcessPrng >/dev/null; then
        loader=$cache/wine/shim/load_dll.exe
        echo "$wine_version has no bcryptprimitives.dll (Windows 10 and later have it): the load check puts a stand-in ProcessPrng (RtlGenRandom) beside its program"
    fi
    # Wine maps / to Z:.
    wine_out=$(run_loader "$loader" "Z:$(realpath "$out" | tr / '\\')" gdext_rust_init)
    wine_rc=$?
    echo "wine ($wine_version): ${wine_out:-<no output>}"
    if [ "$wine_rc" = 0 ] && echo "$wine_out" | grep -q '^LOADED '; then
        pass "wine loads $out and finds gdext_rust_init"
    else
        tally 1 "wine did not load $out (exit $wine_rc; ${wine_log#"$root/"})"
    fi
fi
finish
