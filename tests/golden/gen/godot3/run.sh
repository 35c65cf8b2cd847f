#!/usr/bin/env bash
# Regenerates the Godot 3 golden files with the real engines:
#   tests/golden/godot3_6_2.json  (Godot 3.6.2, $GODOT3)
#   tests/golden/godot3_2_3.json  (Godot 3.2.3, $GODOT32)
#   tests/golden/reals_godot3_6_2.json, reals_godot3_2_3.json: NaN bits in real_t components
#                                 (reals.gd), by the same two engines
# Works from any cwd. The engines' stderr goes to temporary files, which generate.gd reads
# back to learn decode error codes (see the comment at the top of generate.gd).
# Exits non-zero if an engine failed to write its file.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out_dir="$repo/tests/golden"
# shellcheck source=tests/lib.sh
source "$repo/tests/lib.sh"
need_engines GODOT3 GODOT32 || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fvc_golden3.XXXXXX")
status=0
run_one() { # label engine outfile
    local label=$1 engine=$2 out=$3
    local err="$tmp/$label.stderr" log="$tmp/$label.stdout"
    rm -f "$out.tmp.json"
    "$engine" --no-window --path "$here" -s res://generate.gd "$out.tmp.json" "--stderr=$err" \
        >"$log" 2>"$err"
    local rc=$?
    grep -E '^(WARNING: |Godot|[0-9]+\.[0-9]+\.[0-9]+-stable.*cases)' "$log" | grep -v '^Godot Engine' >&2
    if [ $rc -ne 0 ] || [ ! -s "$out.tmp.json" ]; then
        echo "[godot3 golden] $label: engine failed (exit $rc); stderr kept in $err" >&2
        rm -f "$out.tmp.json"
        status=1
        return
    fi
    mv "$out.tmp.json" "$out"
    echo "[godot3 golden] $label: wrote $out" >&2
}
# reals.gd ends its output with "reals.gd: done" (Godot 3's quit() sets no exit code).
reals() { # label engine outfile
    local label=$1 engine=$2 out=$3 log="$tmp/$1.reals.log"
    rm -f "$out.tmp.json"
    "$engine" --no-window --path "$here" -s res://reals.gd "$out.tmp.json" >"$log" 2>&1
    if ! grep -q '^reals.gd: done$' "$log" || [ ! -s "$out.tmp.json" ]; then
        echo "[godot3 golden] $label: reals.gd failed; its output is in $log" >&2
        rm -f "$out.tmp.json"
        status=1
        return
    fi
    mv "$out.tmp.json" "$out"
    echo "[godot3 golden] $label: wrote $out" >&2
}
run_one godot3_6_2 "$GODOT3" "$out_dir/godot3_6_2.json"
run_one godot3_2_3 "$GODOT32" "$out_dir/godot3_2_3.json"
reals godot3_6_2 "$GODOT3" "$out_dir/reals_godot3_6_2.json"
reals godot3_2_3 "$GODOT32" "$out_dir/reals_godot3_2_3.json"
if [ $status -eq 0 ]; then rm -rf "$tmp"; fi
exit $status
