#!/usr/bin/env bash
# Regenerates tests/golden/godot4_6_3.json with the real Godot 4.6.3 headless engine.
# Usage: tests/golden/gen/godot4/run.sh   (from any directory; GODOT4 may be preset)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out="$repo/tests/golden/godot4_6_3.json"
if [ -z "${GODOT4:-}" ]; then
    eval "$(bash "$repo/tests/install_engines.sh" 2>/dev/null)"
fi
log=$(mktemp "${TMPDIR:-/tmp}/godot4_golden_stderr.XXXXXX")
tmp="$out.tmp"
rm -f "$tmp"
# The engine prints a lot of (expected) errors while decoding malformed input: keep them out of
# the console. The generator itself exits non-zero when one of its self-checks fails (the Descs
# must rebuild the engine's bytes) or when a GDScript error occurred.
status=0
# --quit-after: if _init dies on a script error it never calls quit(); do not hang then.
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://generate.gd -- "$tmp" 2>"$log" || status=$?
# A GDScript runtime error (e.g. a stack overflow, which a script Logger cannot see) would leave
# holes in the output: refuse the result.
if [ "$status" -eq 0 ] && grep -q '^SCRIPT ERROR' "$log"; then
    echo "run.sh: GDScript errors during generation (see $log)" >&2
    status=3
fi
if [ "$status" -ne 0 ] || [ ! -s "$tmp" ]; then
    echo "run.sh: the engine failed (exit $status) or wrote nothing; its stderr is in $log" >&2
    rm -f "$tmp"
    exit 1
fi
mv "$tmp" "$out"
if [ -n "${GOLDEN_KEEP_STDERR:-}" ]; then
    echo "wrote $out (engine stderr: $log)"
else
    rm -f "$log"  # ~20 MB of expected decode errors; set GOLDEN_KEEP_STDERR=1 to keep it
    echo "wrote $out"
fi
