#!/usr/bin/env bash
# Downloads an official Godot 4 editor build for this system from Godot's GitHub releases into
# the tool cache (tests/lib.sh fvc_tool_cache), godot-VERSION/, and prints GODOT4=PATH (eval it;
# on GitHub Actions it is also added to the environment of later steps). For the release workflow, which runs the test scenes in each Godot
# version the README claims, on Linux x86_64, Windows x86_64 and macOS:
#   bash tests/install_official_godot.sh 4.4.1        (VERSION as Godot tags it, without -stable)
# The download is checked against the SHA512-SUMS.txt of the same release. Needs curl and unzip.
# This machine cannot reach GitHub's downloads: here the tests use Debian's Godot 4.6.3
# (tests/install_engines.sh) instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
source "$root/tests/lib.sh"
version=${1:?usage: $0 VERSION (4.4.1, say)}
log() { echo "[install_official_godot] $*" >&2; }
case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) archive=Godot_v$version-stable_linux.x86_64.zip binary=Godot_v$version-stable_linux.x86_64 ;;
    Linux-aarch64) archive=Godot_v$version-stable_linux.arm64.zip binary=Godot_v$version-stable_linux.arm64 ;;
    MINGW*-x86_64 | MSYS*-x86_64) archive=Godot_v$version-stable_win64.exe.zip binary=Godot_v$version-stable_win64_console.exe ;;
    Darwin-*) archive=Godot_v$version-stable_macos.universal.zip binary=Godot.app/Contents/MacOS/Godot ;;
    *) log "no official Godot build for $(uname -s) $(uname -m)"; exit 2 ;;
esac
dir=$(fvc_tool_cache)/godot-$version
base=https://github.com/godotengine/godot/releases/download/$version-stable
if [ ! -x "$dir/$binary" ]; then
    # Into a temporary folder renamed when complete: a folder that exists is a checked build.
    rm -rf "$dir"
    tmp=$(mktemp -d "$dir.tmp.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT   # what a failed or interrupted download left
    log "downloading $archive"
    curl -fsSL --retry 3 -o "$tmp/$archive" "$base/$archive"
    curl -fsSL --retry 3 -o "$tmp/SHA512-SUMS.txt" "$base/SHA512-SUMS.txt"
    expected=$(awk -v f="$archive" '$2 == f {print $1}' "$tmp/SHA512-SUMS.txt")
    actual=$(python3 -c 'import hashlib, sys; print(hashlib.sha512(open(sys.argv[1], "rb").read()).hexdigest())' "$tmp/$archive" 2>/dev/null \
        || python -c 'import hashlib, sys; print(hashlib.sha512(open(sys.argv[1], "rb").read()).hexdigest())' "$tmp/$archive")
    if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
        log "$archive: SHA-512 ${actual:-?} is not the release's (${expected:-not listed})"
        exit 1
    fi
    unzip -q -o "$tmp/$archive" -d "$tmp"
    rm -f "$tmp/$archive"
    chmod +x "$tmp/$binary"
    chmod 755 "$tmp"   # mktemp -d made it private
    mv "$tmp" "$dir" 2>/dev/null || true   # or another install made it meanwhile
fi
"$dir/$binary" --headless --version >&2 || { log "$dir/$binary does not run"; exit 1; }
echo "GODOT4=$dir/$binary"
if [ -n "${GITHUB_ENV:-}" ]; then echo "GODOT4=$dir/$binary" >>"$GITHUB_ENV"; fi
