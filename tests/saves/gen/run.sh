#!/usr/bin/env bash
# Regenerates the Godot 3 save-file fixtures with the real engines:
#   tests/saves/godot3_6_2/  (Godot 3.6.2, $GODOT3)
#   tests/saves/godot3_2_3/  (Godot 3.2.3, $GODOT32)
# (format: tests/saves/FORMAT.md). Works from any cwd. Engine stderr goes to temporary files.
# Exits non-zero if an engine failed or reported a problem.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
# shellcheck source=tests/lib.sh
source "$repo/tests/lib.sh"
need_engines GODOT3 GODOT32 || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fvc_saves3.XXXXXX")
status=0
run_one() { # label engine
    local label=$1 engine=$2
    local out="$repo/tests/saves/$label" new="$tmp/$label"
    mkdir -p "$new"
    timeout 300 "$engine" --no-window --path "$here" -s res://generate.gd "--out=$new" \
        >"$tmp/$label.stdout" 2>"$tmp/$label.stderr"
    local rc=$?
    grep -E '^(PROBLEM|[a-z_0-9]+\.(bin|cfg|json):|[0-9]+\.[0-9]+\.[0-9]+-stable)' "$tmp/$label.stdout" >&2
    if [ $rc -ne 0 ] || [ ! -s "$new/plain.json" ]; then
        echo "[saves godot3] $label: engine failed (exit $rc); output kept in $tmp" >&2
        status=1
        return
    fi
    rm -rf "$out"
    mv "$new" "$out"
    echo "[saves godot3] $label: wrote $out ($(du -sh "$out" | cut -f1))" >&2
}
run_one godot3_6_2 "$GODOT3"
run_one godot3_2_3 "$GODOT32"
if [ $status -eq 0 ]; then rm -rf "$tmp"; fi
exit $status
