#!/usr/bin/env bash
# Tests the release package that tests/package.sh made (dist/fast_var_codec-VERSION.zip) as a user
# gets it:
#  1. the zip holds exactly the expected files (addons/fast_var_codec/ only), its LICENSE the full
#     MIT text; every [libraries] entry of its .gdextension names a file in the zip, and every
#     library in the zip is named by an entry; its README names exactly the zip's libraries, and
#     each [icons] entry names the zip's icon; the Windows DLL exports gdext_rust_init and import
#     only Windows system DLLs, the macOS dylib passes tests/macos/check_macho.py (neither can run
#     here), and each ELF library is for its machine;
#  2. it is unzipped into a fresh temporary project (just a project.godot), which Godot 4.6.3
#     imports (--headless --import: fine for this throwaway project, never for godot_project/);
#  3. tests/package_test/test_package.gd runs there headless (-s): FastVarCodec (encode equal to
#     var_to_bytes, decode back, the Godot 3 dialect, malformed input, put_var/get_var against
#     StreamPeer.put_var) and FastVarStream (put_var, feed in 3-byte pieces, poll, get_var, a
#     Godot 3 peer, max_message_size), with its own "N passed, N failed".
# Which library the engine picks: the Godot 4.6.3 here is an editor build, whose feature tags
# are editor, debug, linux, x86_64 (never "release" or "template"), so it loads the
# linux.debug.x86_64 entry; the zip names one library per platform for both its debug and its
# release entry, which step 1 checks, so this runs bin/libfast_var_codec.so, the library release
# exports load too. The scene prints its tags and the file it finds mapped in /proc/self/maps, and
# is told which one to expect. Then Debian's arm64 Godot 4.6.3 under qemu-aarch64
# (tests/install_arm64.sh) runs the scene from the same unzipped project with
# bin/libfast_var_codec.arm64.so. With a double-precision Godot 4.6.3 (GODOT4_DOUBLE, an export
# template), a last run loads bin/libfast_var_codec.double.so.
#
#   bash tests/run_package_test.sh      (after bash tests/package.sh; GODOT4 / GODOT4_DOUBLE may be
#                                        preset, GODOT4_DOUBLE to "" to leave its run out;
#                                        otherwise tests/install_engines.sh finds them)
# Prints each run's failing checks and counts, then "N passed, N failed"; exits non-zero on any
# failure. Engine output goes to tests/out/run_package_test/package_*.log, and a log holding "SCRIPT ERROR" or
# "ObjectDB instances leaked" fails its run (tests/lib.sh). Takes about 10 s for the x86_64 runs; the arm64 runs under the emulator take longer.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)

die() { echo "run_package_test.sh: $*" >&2; exit 2; }

version=$(bash "$repo/tests/version.sh") || die "no version (tests/version.sh)"
zip_path="$repo/dist/fast_var_codec-$version.zip"
[ -f "$zip_path" ] || die "no $zip_path: run bash tests/package.sh first"
need_engines GODOT4 --optional GODOT4_DOUBLE || exit 2
tally_init

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fvc_package_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- 1. the zip's contents -----------------------------------------------------------------------
expected="addons/fast_var_codec/fast_var_codec.gdextension
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
addons/fast_var_codec/bin/libfast_var_codec.macos.dylib"
listing=$(unzip -Z1 "$zip_path")
if [ "$listing" = "$expected" ]; then
    tally 0
else
    tally 1 "the zip's file list differs from the expected one:"
    diff <(echo "$expected") <(echo "$listing") | sed 's/^/    /' || true
fi
tally_check "unzip -t $zip_path" bash -c "unzip -tq \"\$1\" >/dev/null" _ "$zip_path"
project=$tmp/project
mkdir -p "$project"
unzip -q "$zip_path" -d "$project"
addon=$project/addons/fast_var_codec
license=$addon/LICENSE
# The whole MIT text: title, the notice with year and holder, and lines from each of its three
# paragraphs (whole lines, fixed strings); and its length.
for line in 'MIT License' 'Copyright (c) 2026 The FastVarCodec authors' \
    'Permission is hereby granted, free of charge, to any person obtaining a copy' \
    'furnished to do so, subject to the following conditions:' \
    'The above copyright notice and this permission notice shall be included in all' \
    'copies or substantial portions of the Software.' \
    'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR' \
    'OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE' 'SOFTWARE.'; do
    tally_check "LICENSE lacks the line '$line'" grep -qxF "$line" "$license"
done
tally_check "LICENSE is not the full MIT text ($(wc -w <"$license") words, 170 expected)" \
    test "$(wc -w <"$license")" -eq 170
tally_check "the repository's Cargo.toml declares license = \"MIT\"" \
    grep -q '^license = "MIT"$' "$repo/Cargo.toml"
gdext=$addon/fast_var_codec.gdextension
# Every entry of [libraries] names a file in the zip, and every library in the zip is named by an
# entry (read from the section itself, whatever the form of its lines).
entries=$(sed -n '/^\[libraries\]/,/^\[/ {/^[a-z]/p}' "$gdext")
tally_check "the .gdextension has no [libraries] entries" test -n "$entries"
while IFS= read -r entry; do
    key=${entry%% =*}
    file=$(sed -n 's|^[^=]*= *"res://addons/fast_var_codec/\(.*\)"$|\1|p' <<<"$entry")
    tally_check "the .gdextension's $key names a file the zip lacks: $entry" test -n "$file" -a -f "$addon/$file"
done <<<"$entries"
named=$(sed -n 's|^[^=]*= *"res://addons/fast_var_codec/\(.*\)"$|\1|p' <<<"$entries" | sort -u)
while IFS= read -r file; do
    tally_check "the zip's $file is named by no entry of the .gdextension" grep -qxF "$file" <<<"$named"
done < <(cd "$addon" && find bin -type f | sort)
# What the zip says about itself: its README names exactly the libraries it holds (each `bin/…` it
# names is in the zip, each library in the zip is named), and each [icons] entry names a file in it.
readme=$addon/README.md
readme_named=$(grep -o 'bin/[A-Za-z0-9_.-]*' "$readme" | sort -u)
tally_check "the zip's README names no library" test -n "$readme_named"
while IFS= read -r file; do
    tally_check "the zip's README names $file, which the zip lacks" test -f "$addon/$file"
done <<<"$readme_named"
while IFS= read -r file; do
    tally_check "the zip's $file is named by no line of its README" grep -qxF "$file" <<<"$readme_named"
done < <(cd "$addon" && find bin -type f | sort)
icons=$(sed -n '/^\[icons\]/,/^\[/ {/^[A-Za-z]/p}' "$gdext")
for class in FastVarCodec FastVarStream; do
    icon=$(sed -n "s|^$class *= *\"res://addons/fast_var_codec/\(.*\)\"\$|\1|p" <<<"$icons")
    tally_check "the .gdextension's [icons] gives $class no file of the zip" test -n "$icon" -a -f "$addon/$icon"
done
# The platforms the zip is for, each with its debug and its release entry, both naming the one
# library of that platform.
for pair in linux.debug.x86_64:linux.release.x86_64 linux.debug.double.x86_64:linux.release.double.x86_64 \
    windows.debug.x86_64:windows.release.x86_64 linux.debug.arm64:linux.release.arm64 macos.debug:macos.release; do
    debug_key=${pair%%:*} release_key=${pair##*:}
    debug_file=$(sed -n "s|^${debug_key//./\\.} = ||p" <<<"$entries")
    release_file=$(sed -n "s|^${release_key//./\\.} = ||p" <<<"$entries")
    tally_check "the .gdextension has no $debug_key entry" test -n "$debug_file"
    tally_check "the .gdextension's $debug_key ($debug_file) and $release_key ($release_file) differ" \
        test "$debug_file" = "$release_file"
done
# The Windows libraries: no Windows Godot here; their exports and imports, as build_windows.sh.
system_dlls='^(kernel32|kernelbase|ntdll|advapi32|userenv|ws2_32|bcrypt|bcryptprimitives|msvcrt|ucrtbase|user32|ole32|oleaut32|shell32|secur32|crypt32|ncrypt|dbghelp|synchronization|api-ms-win-[a-z0-9-]+)\.dll$'
for dll in "$addon"/bin/*.dll; do
    name=bin/$(basename "$dll")
    tally_check "$name exports gdext_rust_init" bash -c \
        "x86_64-w64-mingw32-objdump -p '$dll' | sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^\$/p' | grep -qw gdext_rust_init"
    others=$(x86_64-w64-mingw32-objdump -p "$dll" | sed -n 's/^\s*DLL Name: //p' | sort -uf | grep -viE "$system_dlls" || true)
    tally_check "$name imports non-system DLLs: $others" test -z "$others"
done
for so in "$addon"/bin/*.so; do
    tally_check "bin/$(basename "$so") is stripped" bash -c "! file -b '$so' | grep -q 'not stripped'"
done
# The arm64 libraries' machine (they run below, under emulation); the x86_64 ones' too.
for so in "$addon"/bin/*.so; do
    case $so in *.arm64.*) machine='ARM aarch64' ;; *) machine='x86-64' ;; esac
    tally_check "bin/$(basename "$so") is not an ELF shared object for $machine" \
        bash -c "file -b '$so' | grep -q '^ELF 64-bit LSB shared object, $machine'"
done
# The macOS libraries cannot run here: their Mach-O is checked (tests/macos/check_macho.py: both
# slices, _gdext_rust_init exported, system libraries only, macOS 11, the arm64 slice signed).
if tools=$(bash "$here/install_tools.sh" 2>"$out/install_tools.log"); then
    eval "$tools"
    PYTHONPATH=$FVC_TOOLS_PYTHONPATH python3 "$here/macos/check_macho.py" "$addon"/bin/*.dylib >"$out/check_macho.log" 2>&1
    status=$?
    grep '^FAIL' "$out/check_macho.log" || true
    tally_result "check_macho.py" "$out/check_macho.log" "$status"
else
    tally 1 "tests/install_tools.sh failed (tests/out/run_package_test/install_tools.log): the macOS libraries were not checked"
fi

# --- 2. a fresh project, imported ----------------------------------------------------------------
cat >"$project/project.godot" <<'EOF'
; A throwaway project: tests/run_package_test.sh unzips the release package into it.
config_version=5

[application]

config/name="FastVarCodec package test"
EOF
cp "$here/package_test/test_package.gd" "$project/"
import_log=$out/package_import.log
status=0
# --frame-delay 800: without it, this first import of a project with a GDExtension crashes at exit
# (SIGABRT, after the import's work is done; a project without the extension imports cleanly),
# the crash in the editor's GDExtension documentation generation of godotengine/godot#111048
# (open; 4.5 and 4.6), which that issue works around the same way.
"$DEADLINE" -k 10 300 "$GODOT4" --headless --frame-delay 800 --import --path "$project" >"$import_log" 2>&1 || status=$?
tally_check "the engine imports the project (exit $status; tests/out/run_package_test/package_import.log)" test "$status" -eq 0
tally_check "the import lists the extension in .godot/extension_list.cfg" \
    grep -qx 'res://addons/fast_var_codec/fast_var_codec.gdextension' "$project/.godot/extension_list.cfg"
tally_logs_clean "the import's log:" "$import_log"

# --- 3. the scene, with each library -------------------------------------------------------------
run_scene() { # NAME ENGINE EXPECTED_LIBRARY: runs test_package.gd, counts its result and its log
    local name=$1 engine=$2 lib=$3 log=$out/package_$1.log status=0
    "$DEADLINE" -k 10 300 "$engine" --headless --path "$project" -s res://test_package.gd -- "$lib" \
        >"$log" 2>&1 || status=$?
    echo "--- $name ($lib):"
    grep -E '^(engine |loaded library: |FAIL )' "$log" | head -n 20 | sed 's/^/  /' || true
    last_result "$log" | awk '{print "  " $1 " passed, " $2 " failed"}' || true
    tally_result "$name: the engine" "$log" "$status" "$log"
    tally_logs_clean "$name: the engine's log:" "$log"
}
run_scene release_library "$GODOT4" libfast_var_codec.so
# Linux arm64, from the same unzipped project, in Debian's arm64 Godot 4.6.3 under qemu-aarch64
# (tests/install_arm64.sh).
if arm64=$(bash "$here/install_arm64.sh" 2>"$out/install_arm64.log"); then
    eval "$arm64"
    run_scene arm64_release_library "$GODOT4_ARM64" libfast_var_codec.arm64.so
else
    tally 1 "tests/install_arm64.sh failed (tests/out/run_package_test/install_arm64.log): the arm64 library was not run"
fi
if [ -n "$GODOT4_DOUBLE" ]; then
    run_scene double_library "$GODOT4_DOUBLE" libfast_var_codec.double.so
else
    echo "NOT RUN: the double-precision library (no GODOT4_DOUBLE: ../shared/engines/godot-4.6.3-double)"
fi

echo "(engine logs: tests/out/run_package_test/package_*.log)"
tally_end
