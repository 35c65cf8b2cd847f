#!/usr/bin/env bash
# Makes the release package dist/fast_var_codec-VERSION.zip (VERSION: the workspace's version,
# tests/version.sh) in the Godot Asset Library's layout: the zip holds only addons/fast_var_codec/,
# unzipped into a project's root as it is:
#   fast_var_codec.gdextension          the repository's, without its "; repo:" comment
#   LICENSE, README.md, icon.svg        the repository's addons/fast_var_codec/ files
#   tools/migrate_godot3_save.gd        the Godot 3 save migration (docs/godot3.md)
#   plugin.cfg, editor/*.gd             the Saves dock, an editor plugin (docs/gdscript.md)
#   bin/libfast_var_codec.so            Linux x86_64                     (tests/build_addon.sh)
#   bin/libfast_var_codec.double.so     Linux x86_64, precision=double engines
#                                       (tests/build_addon.sh --double)
#   bin/fast_var_codec.dll              Windows x86_64                   (tests/build_windows.sh,
#                                       which also checks it: exports, imports, wine)
#   bin/libfast_var_codec.arm64.so      Linux arm64                      (tests/run_arm64.sh, which
#                                       also runs it in an arm64 Godot under qemu-aarch64)
#   bin/libfast_var_codec.macos.dylib   macOS universal (x86_64 + arm64) (tests/build_macos.sh,
#                                       which checks its Mach-O: slices, exports, loads, minimum
#                                       macOS, signature)
# One library per platform, the release profile, named by both the debug entry (the editor and
# debug exports) and the release entry of the .gdextension: the editor runs the codec at the speed
# an exported game gets, with godot-rust's "balanced" safeguards (object liveness and borrow
# checks), and the zip holds exactly the libraries every test of the repository loads.
# Every Linux and Windows library is stripped (strip, aarch64-linux-gnu-strip,
# x86_64-w64-mingw32-strip); the macOS one is linked without debug map or local symbols
# (rust/gdextension/build.rs), since stripping afterwards would break the arm64 slice's code
# signature. Each must export gdext_rust_init. Nothing else goes in (no bin/README.md, no .gdignore).
#
#   bash tests/package.sh        -> dist/fast_var_codec-VERSION.zip and dist/SHA256SUMS (its
#                                   checksum, as a release carries it); prints its file list
#
# Deterministic: fixed file order, every entry (and the DLL's PE timestamp) dated by HEAD's commit
# time (SOURCE_DATE_EPOCH overrides), fixed permissions (python3's zipfile). Builds are
# incremental: about 10 s when everything is built (tests/build_windows.sh's checks included).
# Installs what tests/build_windows.sh, tests/run_arm64.sh and tests/build_macos.sh need through
# those scripts (MinGW-w64 and wine; qemu, the aarch64 linker and the arm64 Godot; zig,
# cargo-zigbuild and lief).
# FVC_PACKAGE_ARM64_BUILT=1 skips running tests/run_arm64.sh when the test command has just run it
# (its library is in bin/, its tools installed), FVC_PACKAGE_MACOS_BUILT=1 the same for
# tests/build_macos.sh, FVC_PACKAGE_WINDOWS_BUILT=1 for tests/build_windows.sh (its wine check
# included). FVC_BUILD_LOCK=FILE runs each build under `flock FILE`. Output of the
# builds: tests/out/package/*.log.
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

# --- build -------------------------------------------------------------------------------------
start=$(date +%s)
run_logged build_linux locked bash tests/build_addon.sh
run_logged build_linux_double locked bash tests/build_addon.sh --double
# Installs the cross toolchain and the target's std if missing, builds, strips and checks the
# DLL (takes FVC_BUILD_LOCK itself).
if [ "${FVC_PACKAGE_WINDOWS_BUILT:-0}" != 1 ] || [ ! -f "$bin/fast_var_codec.dll" ]; then
    run_logged build_windows bash tests/build_windows.sh
fi
# Linux arm64: built, checked and run by tests/run_arm64.sh (its scenes included).
if [ "${FVC_PACKAGE_ARM64_BUILT:-0}" != 1 ] || [ ! -f "$bin/libfast_var_codec.arm64.so" ]; then
    run_logged build_arm64 bash tests/run_arm64.sh
fi
# macOS: built and checked by tests/build_macos.sh.
if [ "${FVC_PACKAGE_MACOS_BUILT:-0}" != 1 ] || [ ! -f "$bin/libfast_var_codec.macos.dylib" ]; then
    run_logged build_macos bash tests/build_macos.sh
fi
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
strip -o "$out/bin/libfast_var_codec.double.so" "$bin/libfast_var_codec.double.so"
x86_64-w64-mingw32-strip -o "$out/bin/fast_var_codec.dll" "$bin/fast_var_codec.dll"
aarch64-linux-gnu-strip -o "$out/bin/libfast_var_codec.arm64.so" "$bin/libfast_var_codec.arm64.so"
cp "$bin/libfast_var_codec.macos.dylib" "$out/bin/libfast_var_codec.macos.dylib"
cp "$src/LICENSE" "$src/README.md" "$src/icon.svg" "$out/"
mkdir -p "$out/tools"
cp "$src/tools/migrate_godot3_save.gd" "$out/tools/"
cp "$src/plugin.cfg" "$out/"
mkdir -p "$out/editor"
cp "$src/editor/"*.gd "$out/editor/"
sed -e '/^; repo:/d' "$src/fast_var_codec.gdextension" >"$out/fast_var_codec.gdextension"
# --- checks ------------------------------------------------------------------------------------
# The shipped .gdextension names exactly the libraries in bin/.
named=$(sed -n 's|^[a-z0-9_.]* = "res://addons/fast_var_codec/\(bin/[^"]*\)"$|\1|p' \
    "$out/fast_var_codec.gdextension" | sort -u)
present=$(cd "$out" && find bin -type f | sort)
[ "$named" = "$present" ] || die "the shipped .gdextension names [${named//$'\n'/ }], bin/ holds [${present//$'\n'/ }]"
if grep -q '^; repo:' "$out/fast_var_codec.gdextension"; then die "a '; repo:' comment is left in the shipped .gdextension"; fi
for so in "$out"/bin/*.so; do
    nm -D --defined-only "$so" | grep -w gdext_rust_init >/dev/null || die "$so does not export gdext_rust_init"
done
# The macOS library as copied: the same Mach-O checks tests/build_macos.sh made.
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
    addons/fast_var_codec/tools/migrate_godot3_save.gd
    addons/fast_var_codec/plugin.cfg
    addons/fast_var_codec/editor/save_dock_plugin.gd
    addons/fast_var_codec/editor/save_dock.gd
    addons/fast_var_codec/editor/save_document.gd
    addons/fast_var_codec/editor/value_proxy.gd
    addons/fast_var_codec/bin/libfast_var_codec.so
    addons/fast_var_codec/bin/libfast_var_codec.double.so
    addons/fast_var_codec/bin/fast_var_codec.dll
    addons/fast_var_codec/bin/libfast_var_codec.arm64.so
    addons/fast_var_codec/bin/libfast_var_codec.macos.dylib
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
