#!/usr/bin/env bash
# Regenerates the Pandemonium golden files with the real headless servers (../shared/engines):
#   tests/golden/pandemonium_4_9_0.json          Pandemonium v4.9.0 ($PANDEMONIUM4), "pandemonium38"
#   tests/golden/pandemonium_5_2_0.json          Pandemonium v5.2.0 ($PANDEMONIUM5), "pandemonium5"
#   tests/golden/classes_pandemonium_4_9_0.json  their instantiable classes (../classes/classes3.gd)
#   tests/golden/classes_pandemonium_5_2_0.json
# Works from any cwd. An engine that is not there (a clone without ../shared/engines) is skipped,
# saying so; its files stay as they are. The engines' stderr goes to temporary files, which
# generate.gd reads back to learn decode error codes (see the comment at the top of generate.gd).
# Exits non-zero if an engine that is there failed to write its files.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out_dir="$repo/tests/golden"
# shellcheck source=tests/lib.sh
source "$repo/tests/lib.sh"
need_engines PANDEMONIUM4 PANDEMONIUM5 || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fvc_golden_pandemonium.XXXXXX")
status=0
run_one() { # label engine
    local label=$1 engine=$2
    local out="$out_dir/$label.json" classes="$out_dir/classes_$label.json"
    local err="$tmp/$label.stderr" log="$tmp/$label.stdout"
    if [ -z "$engine" ]; then
        echo "[pandemonium golden] $label: no engine (../shared/engines has none): $out not regenerated" >&2
        return
    fi
    rm -f "$out.tmp.json" "$classes.tmp.json"
    # A script error leaves the engine running (it never calls quit()): bound every run.
    timeout 600 "$engine" --path "$here" -s res://generate.gd "$out.tmp.json" "--stderr=$err" \
        >"$log" 2>"$err"
    local rc=$?
    grep -E '^(WARNING: |PROBLEM: |note: |.*self-check problems|[0-9]+\.[0-9]+-stable.*cases)' "$log" >&2
    if grep -q '^SCRIPT ERROR' "$err"; then
        echo "[pandemonium golden] $label: GDScript errors during generation (see $err)" >&2
        if [ $rc -eq 0 ]; then rc=7; fi
    fi
    if [ $rc -ne 0 ] || [ ! -s "$out.tmp.json" ]; then
        echo "[pandemonium golden] $label: engine failed (exit $rc); stderr kept in $err" >&2
        rm -f "$out.tmp.json"
        status=1
        return
    fi
    mv "$out.tmp.json" "$out"
    echo "[pandemonium golden] $label: wrote $out" >&2
    # The classes a full-object decode can instantiate (the Godot 3 class-list script runs as is).
    mkdir -p "$tmp/classes"
    echo 'config_version=4' >"$tmp/classes/project.pandemonium"
    cp "$here/../classes/classes3.gd" "$tmp/classes/"
    timeout 120 "$engine" --path "$tmp/classes" -s res://classes3.gd "$classes.tmp.json" \
        >"$tmp/$label.classes.log" 2>&1
    if [ $? -ne 0 ] || [ ! -s "$classes.tmp.json" ]; then
        echo "[pandemonium golden] $label: the class list failed (see $tmp/$label.classes.log)" >&2
        rm -f "$classes.tmp.json"
        status=1
        return
    fi
    mv "$classes.tmp.json" "$classes"
    echo "[pandemonium golden] $label: wrote $classes" >&2
}
run_one pandemonium_4_9_0 "${PANDEMONIUM4:-}"
run_one pandemonium_5_2_0 "${PANDEMONIUM5:-}"
if [ $status -eq 0 ]; then rm -rf "$tmp"; fi
exit $status
