#!/usr/bin/env bash
# Runs the headless GDScript test suite of godot_project/ against the built FastVarCodec extension.
#   tests/run_godot_tests.sh            (GODOT4 may be preset; otherwise install_engines.sh finds it)
# Prepares the project (tests/setup_godot_project.sh: links, extension_list.cfg, checks that the
# library is built), runs Godot, keeps its stderr (engine error spam on malformed input) in
# tests/out/godot_tests.stderr.log, prints its stdout and exits with Godot's exit code.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
project="$repo/godot_project"
log="$repo/tests/out/godot_tests.stderr.log"

die() { echo "run_godot_tests.sh: $*" >&2; exit 2; }

if [ -z "${GODOT4:-}" ]; then
    eval "$(bash "$repo/tests/install_engines.sh" 2>/dev/null)" || die "cannot find or install Godot 4 (tests/install_engines.sh)"
fi
[ -n "${GODOT4:-}" ] && [ -x "$GODOT4" ] || die "GODOT4 is not an executable: '${GODOT4:-}'"

bash "$repo/tests/setup_godot_project.sh" || exit 2

stdout_file=$(mktemp "${TMPDIR:-/tmp}/godot_tests_stdout.XXXXXX")
trap 'rm -f "$stdout_file"' EXIT
status=0
"$GODOT4" --headless --path "$project" -s res://tests/run_tests.gd >"$stdout_file" 2>"$log" || status=$?
# Godot's banner line is noise; everything else the tests printed is the report.
grep -v '^Godot Engine v' "$stdout_file"

last=$(grep -v '^[[:space:]]*$' "$stdout_file" | tail -n 1)
if ! [[ "$last" =~ ^[0-9]+\ passed,\ [0-9]+\ failed$ ]]; then
    echo "run_godot_tests.sh: the test run did not finish (no final 'N passed, N failed' line; exit code $status)." >&2
    echo "run_godot_tests.sh: last lines of the engine log $log:" >&2
    tail -n 25 "$log" >&2
    [ "$status" -ne 0 ] || status=3
    exit "$status"
fi
if grep -q '^SCRIPT ERROR' "$log"; then
    echo "run_godot_tests.sh: GDScript errors in $log (see 'SCRIPT ERROR' lines)" >&2
fi
echo "(engine stderr: ${log#$repo/})"
exit "$status"
