#!/usr/bin/env bash
# Runs the headless test scenes (tests/run_godot_tests.sh) with the libraries of a release zip, in
# the Godot that GODOT4 names: the release workflow's check of each platform in each Godot version
# the README claims (GODOT4 from tests/install_official_godot.sh), on Linux x86_64, Windows x86_64
# and macOS.
#   GODOT4=... bash tests/run_release_scenes.sh [ZIP] [test_NAME.gd ...]
#       ZIP: default dist/fast_var_codec-VERSION.zip (tests/package.sh; VERSION: tests/version.sh)
# The zip's bin/ is unpacked into addons/fast_var_codec/bin/, where the repository's
# .gdextension names the release libraries for debug and release alike (what the editor builds
# the scenes run in pick), so the scenes load exactly what the zip ships for this system.
# Ends with run_godot_tests.sh's "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
zip=dist/fast_var_codec-$(bash tests/version.sh).zip
if [ $# -gt 0 ] && [[ $1 == *.zip ]]; then zip=$1; shift; fi
[ -f "$zip" ] || { echo "run_release_scenes.sh: no $zip (bash tests/package.sh makes it)" >&2; exit 2; }
[ -n "${GODOT4:-}" ] || { echo "run_release_scenes.sh: set GODOT4 (tests/install_official_godot.sh)" >&2; exit 2; }
bin=addons/fast_var_codec/bin
case "$(uname -s)" in
    Linux) library=libfast_var_codec.so ;;
    Darwin) library=libfast_var_codec.macos.dylib ;;
    MINGW* | MSYS* | CYGWIN*) library=fast_var_codec.dll ;;
    *) echo "run_release_scenes.sh: no library for $(uname -s)" >&2; exit 2 ;;
esac
[ "$(uname -m)" = x86_64 ] || [ "$(uname -s)" = Darwin ] || library=libfast_var_codec.arm64.so
unzip -q -o -j "$zip" "addons/fast_var_codec/bin/$library" -d "$bin"
case "$(uname -s)" in
    MINGW* | MSYS* | CYGWIN*)
        # Windows' C runtime ends the engine's lines with CR LF; the runners read lines ending in
        # LF ("N passed, N failed" at the end of a line). A wrapper takes the CRs out of both
        # streams and keeps the engine's exit code.
        wrapper=$root/tests/out/run_release_scenes/godot_lf.sh
        mkdir -p "${wrapper%/*}"
        printf '%s\n' '#!/usr/bin/env bash' 'set -o pipefail' \
            "\"$GODOT4\" \"\$@\" 2> >(tr -d '\\r' >&2) | tr -d '\\r'" >"$wrapper"
        chmod +x "$wrapper"
        export GODOT4=$wrapper
        ;;
esac
echo "run_release_scenes.sh: $zip's $library in $("$GODOT4" --headless --version 2>/dev/null | tail -n 1)"
FVC_ADDON_LIBRARY=$root/$bin/$library exec bash tests/run_godot_tests.sh "$@"
