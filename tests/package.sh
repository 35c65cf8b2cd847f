#!/usr/bin/env bash
# Makes the release package dist/fast_var_codec-VERSION.zip (VERSION: the workspace's version,
# tests/version.sh) in the Godot Asset Library's layout: the zip holds only addons/fast_var_codec/,
# unzipped into a project's root as it is:
#   fast_var_codec.gdextension          the repository's, with its debug entries pointed at the
#                                       debug libraries (below) and its "; repo:" comment dropped
#   LICENSE, README.md, icon.svg        the repository's addons/fast_var_codec/ files
#   bin/libfast_var_codec.so            Linux x86_64, release profile    (tests/build_addon.sh)
#   bin/libfast_var_codec.debug.so      Linux x86_64, dev profile: godot-rust's debug checks on
#   bin/libfast_var_codec.double.so     Linux x86_64, precision=double engines, release profile
#                                       (tests/build_addon.sh --double); the one double library,
#                                       named for both debug.double and release.double
#   bin/fast_var_codec.dll              Windows x86_64, release profile  (tests/build_windows.sh,
#                                       which also checks it: exports, imports, wine)
#   bin/fast_var_codec.debug.dll        Windows x86_64, dev profile
#   bin/libfast_var_codec.arm64.so      Linux arm64, release profile     (tests/run_arm64.sh, which
#                                       also runs it in an arm64 Godot under qemu-aarch64)
#   bin/libfast_var_codec.arm64.debug.so  Linux arm64, dev profile
#   bin/libfast_var_codec.macos.dylib   macOS universal (x86_64 + arm64), release profile
#                                       (tests/build_macos.sh --debug, which checks both builds'
#                                       Mach-O: slices, exports, loads, minimum macOS, signature)
#   bin/libfast_var_codec.macos.debug.dylib  macOS universal, dev profile
# Every Linux and Windows library is stripped (strip, aarch64-linux-gnu-strip,
# x86_64-w64-mingw32-strip); the macOS ones are linked without debug map or local symbols
# (rust/gdextension/build.rs), since stripping afterwards would break the arm64 slice's code
# signature. Each must export gdext_rust_init. Nothing else goes in (no bin/README.md, no .gdignore).
#
# Why two library names per platform in the zip, and one in the repository: Godot picks the entry
# whose feature tags match best and never falls back when that file is missing, and the engines
# the tests run (editor builds) always carry the "debug" tag. So the repository's .gdextension
# names the release builds for debug too (what tests/build_addon.sh, tests/build_windows.sh,
# tests/run_arm64.sh and tests/build_macos.sh make, and every test loads), and this script
# rewrites just the debug lines for the zip, then checks that the shipped .gdextension names
# exactly the libraries the zip holds.
#
#   bash tests/package.sh        -> dist/fast_var_codec-VERSION.zip and dist/SHA256SUMS (its
#                                   checksum, as a release carries it); prints its file list
#
# Deterministic: fixed file order, every entry (and the DLLs' PE timestamp) dated by HEAD's commit
# time (SOURCE_DATE_EPOCH overrides), fixed permissions (python3's zipfile). Builds are incremental: about 10 s when
# everything is built (tests/build_windows.sh's checks included); when the test command's earlier
# steps have built the release libraries, the two dev-profile builds add about 3 minutes on two
# cores from scratch (Linux 90 s, Windows 100 s). Installs what
# tests/build_windows.sh, tests/run_arm64.sh and tests/build_macos.sh need through those scripts
# (MinGW-w64 and wine; qemu, the aarch64 linker and the arm64 Godot; zig, cargo-zigbuild and lief).
# FVC_PACKAGE_ARM64_BUILT=1 skips running tests/run_arm64.sh when the test command has just run it
# (its library is in bin/, its tools installed); the arm64 dev build is made here either way.
# FVC_BUILD_LOCK=FILE runs each build under `flock FILE`. Output of the builds: tests/out/package/*.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p dist
# shellcheck source=tests/lib.sh
source tests/lib.sh
logs=$(fvc_out_dir)

die() { echo "package.sh: $*" >&2; exit 1; }
locked() { if [ -n "${FVC_BUILD_LOCK:-}" ]; then flock "$FVC_BUILD_LOCK" "$@"; else "$@"; fi; }
run_logged() { # NAME COMMAND...: runs COMMAND with its output in tests/out/package/NAME.log
    local name=$1; shift
    echo "package.sh: $name: $*" >&2
    "$@" >"$logs/$name.log" 2>&1 || {
        tail -n 30 "$logs/$name.log" >&2
        die "$name failed (tests/out/package/$name.log)"
    }
}

version=$(bash tests/version.sh) || die "no version (tests/version.sh)"
zip_path=dist/fast_var_codec-$version.zip
src=addons/fast_var_codec
bin=$src/bin
windows_target=x86_64-pc-windows-gnu
arm64_target=aarch64-unknown-linux-gnu
mac_target=universal2-apple-darwin

# --- build -------------------------------------------------------------------------------------
start=$(date +%s)
run_logged build_linux locked bash tests/build_addon.sh
run_logged build_linux_double locked bash tests/build_addon.sh --double
run_logged build_linux_debug locked cargo build -p fast_var_codec_gdextension
# Installs the cross toolchain and the target's std if missing, builds, strips and checks the
# release DLL (takes FVC_BUILD_LOCK itself).
run_logged build_windows bash tests/build_windows.sh
# The debug DLL, built the way build_windows.sh built the release one: with rustup's prebuilt std,
# or (when it had to) with -Zbuild-std through its private sysroot's rustc.
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
win_args=(build -p fast_var_codec_gdextension --target "$windows_target")
if grep -q "^std for $windows_target: rustup" "$logs/build_windows.log"; then
    win_dir=target/windows
    run_logged build_windows_debug locked cargo "${win_args[@]}" --target-dir "$win_dir"
else
    rustc_version=$(rustc -vV | sed -n 's/^release: //p')
    wrapper=${FVC_WINDOWS_CACHE:-/var/cache/fast_var_codec/windows}/bin/rustc-$rustc_version
    [ -x "$wrapper" ] || die "tests/build_windows.sh used neither rustup's std nor $wrapper"
    win_dir=target/windows-build-std
    run_logged build_windows_debug locked env RUSTC="$wrapper" RUSTC_BOOTSTRAP=1 \
        cargo "${win_args[@]}" -Zbuild-std=std,panic_abort --target-dir "$win_dir"
fi
# Linux arm64: the release library built, checked and run by tests/run_arm64.sh (its scenes
# included), and the dev profile here with the same linker.
if [ "${FVC_PACKAGE_ARM64_BUILT:-0}" != 1 ] || [ ! -f "$bin/libfast_var_codec.arm64.so" ]; then
    run_logged build_arm64 bash tests/run_arm64.sh
fi
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
run_logged build_arm64_debug locked nice -n 10 cargo build -p fast_var_codec_gdextension --target "$arm64_target"
# macOS: both profiles, built and checked by tests/build_macos.sh.
run_logged build_macos bash tests/build_macos.sh --debug
echo "package.sh: built in $(($(date +%s) - start)) s" >&2

# --- stage -------------------------------------------------------------------------------------
# One date for everything: the zip's entries, and the PE header's TimeDateStamp, which
# x86_64-w64-mingw32-strip otherwise sets to the time it runs.
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 315532800)}
export SOURCE_DATE_EPOCH=$epoch
stage=target/package/fast_var_codec-$version
rm -rf "$stage"
out=$stage/addons/fast_var_codec
mkdir -p "$out/bin"
strip -o "$out/bin/libfast_var_codec.so" "$bin/libfast_var_codec.so"
strip -o "$out/bin/libfast_var_codec.debug.so" target/debug/libfast_var_codec.so
strip -o "$out/bin/libfast_var_codec.double.so" "$bin/libfast_var_codec.double.so"
x86_64-w64-mingw32-strip -o "$out/bin/fast_var_codec.dll" "$bin/fast_var_codec.dll"
x86_64-w64-mingw32-strip -o "$out/bin/fast_var_codec.debug.dll" "$win_dir/$windows_target/debug/fast_var_codec.dll"
aarch64-linux-gnu-strip -o "$out/bin/libfast_var_codec.arm64.so" "$bin/libfast_var_codec.arm64.so"
aarch64-linux-gnu-strip -o "$out/bin/libfast_var_codec.arm64.debug.so" "target/$arm64_target/debug/libfast_var_codec.so"
cp "target/$mac_target/release/libfast_var_codec.dylib" "$out/bin/libfast_var_codec.macos.dylib"
cp "target/$mac_target/debug/libfast_var_codec.dylib" "$out/bin/libfast_var_codec.macos.debug.dylib"
cp "$src/LICENSE" "$src/README.md" "$src/icon.svg" "$out/"
res=res://addons/fast_var_codec/bin
sed -e '/^; repo:/d' \
    -e "s|^linux\.debug\.x86_64 = .*|linux.debug.x86_64 = \"$res/libfast_var_codec.debug.so\"|" \
    -e "s|^windows\.debug\.x86_64 = .*|windows.debug.x86_64 = \"$res/fast_var_codec.debug.dll\"|" \
    -e "s|^linux\.debug\.arm64 = .*|linux.debug.arm64 = \"$res/libfast_var_codec.arm64.debug.so\"|" \
    -e "s|^macos\.debug = .*|macos.debug = \"$res/libfast_var_codec.macos.debug.dylib\"|" \
    "$src/fast_var_codec.gdextension" >"$out/fast_var_codec.gdextension"

# --- checks ------------------------------------------------------------------------------------
# The shipped .gdextension names exactly the libraries in bin/, and the two debug entries changed.
named=$(sed -n 's|^[a-z0-9_.]* = "res://addons/fast_var_codec/\(bin/[^"]*\)"$|\1|p' \
    "$out/fast_var_codec.gdextension" | sort -u)
present=$(cd "$out" && find bin -type f | sort)
[ "$named" = "$present" ] || die "the shipped .gdextension names [$(echo $named)], bin/ holds [$(echo $present)]"
grep -q '^linux\.debug\.x86_64 = .*libfast_var_codec\.debug\.so"$' "$out/fast_var_codec.gdextension" \
    && grep -q '^windows\.debug\.x86_64 = .*fast_var_codec\.debug\.dll"$' "$out/fast_var_codec.gdextension" \
    && grep -q '^linux\.debug\.arm64 = .*libfast_var_codec\.arm64\.debug\.so"$' "$out/fast_var_codec.gdextension" \
    && grep -q '^macos\.debug = .*libfast_var_codec\.macos\.debug\.dylib"$' "$out/fast_var_codec.gdextension" \
    || die "the debug entries of $src/fast_var_codec.gdextension were not found to rewrite"
if grep -q '^; repo:' "$out/fast_var_codec.gdextension"; then die "a '; repo:' comment is left in the shipped .gdextension"; fi
for so in "$out"/bin/*.so; do
    nm -D --defined-only "$so" | grep -w gdext_rust_init >/dev/null || die "$so does not export gdext_rust_init"
done
# The macOS libraries as copied: the same Mach-O checks tests/build_macos.sh made.
tools=$(bash tests/install_tools.sh 2>"$logs/install_tools.log") || die "tests/install_tools.sh failed (tests/out/package/install_tools.log)"
eval "$tools"
PYTHONPATH=$FVC_TOOLS_PYTHONPATH python3 tests/macos/check_macho.py "$out"/bin/*.dylib >"$logs/check_macho.log" 2>&1 \
    || { grep FAIL "$logs/check_macho.log" >&2; die "the macOS libraries fail tests/macos/check_macho.py"; }
for dll in "$out"/bin/*.dll; do
    x86_64-w64-mingw32-objdump -p "$dll" | grep -w gdext_rust_init >/dev/null || die "$dll does not export gdext_rust_init"
done

# --- zip ---------------------------------------------------------------------------------------
files=(
    addons/fast_var_codec/fast_var_codec.gdextension
    addons/fast_var_codec/LICENSE
    addons/fast_var_codec/README.md
    addons/fast_var_codec/icon.svg
    addons/fast_var_codec/bin/libfast_var_codec.so
    addons/fast_var_codec/bin/libfast_var_codec.debug.so
    addons/fast_var_codec/bin/libfast_var_codec.double.so
    addons/fast_var_codec/bin/fast_var_codec.dll
    addons/fast_var_codec/bin/fast_var_codec.debug.dll
    addons/fast_var_codec/bin/libfast_var_codec.arm64.so
    addons/fast_var_codec/bin/libfast_var_codec.arm64.debug.so
    addons/fast_var_codec/bin/libfast_var_codec.macos.dylib
    addons/fast_var_codec/bin/libfast_var_codec.macos.debug.dylib
)
listed=$(printf '%s\n' "${files[@]}" | sort)
staged=$(cd "$stage" && find addons -type f | sort)
[ "$listed" = "$staged" ] || die "the staged files differ from the zip's list"
rm -f "$zip_path.tmp"
python3 - "$stage" "$zip_path.tmp" "$epoch" "${files[@]}" <<'EOF'
import sys, time, zipfile
stage, dest, epoch, names = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip dates start in 1980
with zipfile.ZipFile(dest, "w") as z:
    for name in names:
        info = zipfile.ZipInfo(name, date_time=stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.create_system = 3  # Unix, so that the permissions below are read
        mode = 0o755 if name.startswith("addons/fast_var_codec/bin/") else 0o644
        info.external_attr = (0o100000 | mode) << 16
        with open(f"{stage}/{name}", "rb") as f:
            z.writestr(info, f.read(), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
EOF
mv "$zip_path.tmp" "$zip_path"
# The checksum file a release carries beside the zip (`sha256sum -c SHA256SUMS` checks a download).
(cd dist && sha256sum "${zip_path#dist/}" >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)

echo "$zip_path ($(stat -c %s "$zip_path") bytes, sha256 $(sha256sum "$zip_path" | cut -c1-16)):"
unzip -Zl "$zip_path" | awk 'NR > 2 && $NF ~ /^addons\// {printf "  %10d  %s\n", $4, $NF}'
echo "package.sh: done in $(($(date +%s) - start)) s" >&2
