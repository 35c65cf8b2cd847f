#!/usr/bin/env bash
# Runs the headless GDScript test suite of godot_project/ against the built FastVarCodec extension.
#   tests/run_godot_tests.sh [test_file.gd ...]   (default: every godot_project/tests/test_*.gd;
#                                                  GODOT4 may be preset, otherwise
#                                                  install_engines.sh finds it)
# Prepares the project (tests/setup_godot_project.sh: links, extension_list.cfg, checks that the
# library is built), runs Godot, keeps its stderr (engine error spam on malformed input) in
# tests/out/run_godot_tests/godot_tests.stderr.log and prints its stdout. Adds two checks of its
# own: the engine's output holds no "ObjectDB instances leaked" and no "SCRIPT ERROR"
# (tests/lib.sh), and the library built plain Variants the way FAST_VAR_CODEC_VARIANT_LAYOUT asks
# (in place unless it is "engine"). Ends with the combined "N passed, N failed"; exits non-zero
# when Godot did or anything failed.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
project="$repo/godot_project"
# FVC_GODOT_LOG names the engine's stderr log in tests/out/run_godot_tests/ (default godot_tests),
# so that runs in two engines keep both. FVC_STACK_KB runs the engine with that main-thread stack
# (`ulimit -s`; the small stacks of secondary threads and other platforms).
log="$(fvc_out_dir)/${FVC_GODOT_LOG:-godot_tests}.stderr.log"

need_engines GODOT4 || exit 2

bash "$repo/tests/setup_godot_project.sh" || exit 2

stdout_file=$(mktemp "${TMPDIR:-/tmp}/godot_tests_stdout.XXXXXX")
trap 'rm -f "$stdout_file"' EXIT
status=0
# Bounded: the suite takes about 10 s; an engine that has not exited after FVC_GODOT_TEST_TIMEOUT
# seconds (default 300) is killed, and that is a failure (reported below), never a stalled run.
limit=${FVC_GODOT_TEST_TIMEOUT:-300}
(
    if [ -n "${FVC_STACK_KB:-}" ]; then ulimit -s "$FVC_STACK_KB" || exit 3; fi
    exec "$DEADLINE" -k 10 "$limit" "$GODOT4" --headless --path "$project" -s res://tests/run_tests.gd -- "$@"
) >"$stdout_file" 2>"$log" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "run_godot_tests.sh: the engine did not exit within $limit s and was killed (exit code $status)." >&2
fi
# Godot's banner line is noise; everything else the tests printed is the report (its result line
# comes last, with this script's own check added).
grep -v '^Godot Engine v' "$stdout_file" | grep -vE '^[0-9]+ passed, [0-9]+ failed$'

last=$(grep -v '^[[:space:]]*$' "$stdout_file" | tail -n 1)
if ! [[ "$last" =~ ^[0-9]+\ passed,\ [0-9]+\ failed$ ]]; then
    echo "run_godot_tests.sh: the test run did not finish (no final 'N passed, N failed' line; exit code $status)." >&2
    echo "run_godot_tests.sh: last lines of the engine log $log:" >&2
    tail -n 25 "$log" >&2
    [ "$status" -ne 0 ] || status=3
    exit "$status"
fi
tally_init
read -r p f < <(last_result "$stdout_file")
tally_add "$p" "$f"
tally_logs_clean "the engine reported leaked objects or GDScript errors:" "$log" "$stdout_file"
# How the library built plain Variants (rust/gdextension/src/variant_layout.rs): in place, unless
# FAST_VAR_CODEC_VARIANT_LAYOUT=engine asks for the engine's constructors. Either way the log
# says so only when the engine builds them, once.
built_by_engine=$(grep -c "every Variant is built by the engine" "$log")
if [ "${FAST_VAR_CODEC_VARIANT_LAYOUT:-}" = engine ]; then
    [ "$built_by_engine" -eq 1 ] && grep -q "FAST_VAR_CODEC_VARIANT_LAYOUT=engine" "$log"
    tally $? "the engine built the Variants once, as FAST_VAR_CODEC_VARIANT_LAYOUT=engine asks (log: $built_by_engine such lines)"
else
    [ "$built_by_engine" -eq 0 ]
    tally $? "Variants built in place: the layout check found the engine's layout (log: $built_by_engine lines saying otherwise)"
fi
# The peer methods called per message (rust/gdextension/src/engine_methods.rs) are found by
# class, name and hash; the log names any the engine did not have.
not_found=$(grep -c "of the expected signature; it is called through gdext" "$log")
[ "$not_found" -eq 0 ]
tally $? "the peer methods called per message found by hash (log: $not_found lines naming one not found)"
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    tally 1 "the engine did not exit within $limit s after the tests (killed)"
fi
echo "(engine stderr: ${log#"$repo/"})"
# The engine's own exit code when not 0, else 1 when a check failed.
tally_end || [ "$status" -ne 0 ] || status=1
exit "$status"
