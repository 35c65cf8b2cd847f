#!/usr/bin/env bash
# Does the engine exit? Runs, under load (busy loops on every core), the test scenes that use
# worker threads and the engine's own reproduction of its hang at quit (tests/engine_exit/), each
# many times with a short deadline, and counts the runs that hang.
#   tests/run_exit_guard.sh [--runs N] [CASE...]
# CASEs (default: scenes repro-high repro-drain):
#   scenes             godot_project/tests/test_threads.gd, as tests/run_godot_tests.sh runs it
#   repro-high         the reproduction with its group posted high priority (the way around the
#                      test scenes use)
#   repro-drain        the reproduction with one low-priority task run after the group (the other
#                      way around, docs/gdscript.md "Threads")
#   repro-one-task     the reproduction with its group as one low-priority task (no task of the
#                      group is left queued when it completes)
#   repro-none         the reproduction as it is: the engine's own case, reported, not counted
#                      (run when named: it checks nothing of the project)
#   repro-none-process the same, quitting from _process on the second frame (reported)
# N: FVC_EXIT_GUARD_RUNS, default 30; each run's deadline: FVC_EXIT_GUARD_LIMIT, default 30 s.
# Every run of a counted case is one check: passed when the engine exited by itself with its
# result, within the deadline or after it. tests/deadline.sh tells the two kinds of missed
# deadline apart: an engine that exits by itself after it, before or while gdb looks or within
# FVC_EXIT_GUARD_GRACE seconds (default 15), is slow: reported, not failed; one whose threads sit
# in waits with no timeout (the engine's hang at quit) is a hang, and one still running at the
# end of the grace is killed: both fail. What each missed deadline showed (backtraces, the
# verdict) is in tests/out/run_exit_guard/hangs/. First, tests/check_deadline.sh checks that
# classification on stand-ins (a few seconds, no engine). Ends with "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)
runs=${FVC_EXIT_GUARD_RUNS:-30}
if [ "${1:-}" = --runs ]; then
    runs=$2
    shift 2
fi
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(scenes repro-high repro-drain)
# Seconds an engine may take, the work included (a scene takes a few seconds under this load).
limit=${FVC_EXIT_GUARD_LIMIT:-30}
# Seconds an engine that missed its deadline is watched for, to exit by itself or be found hung.
grace=${FVC_EXIT_GUARD_GRACE:-15}

need_engines GODOT4 || exit 2
for c in "${cases[@]}"; do
    if [ "$c" = scenes ]; then
        need_addon || exit 2
        bash "$repo/tests/setup_godot_project.sh" || exit 2
    fi
done
# The reproduction loads no extension: a project of its own, outside the repository's.
repro_project="$out/repro_project"
rm -rf "$repro_project"
mkdir -p "$repro_project"
cp "$repo/tests/engine_exit/project.godot" "$repo/tests/engine_exit/exit_repro.gd" "$repro_project/"
rm -rf "$out/hangs"
export FVC_HANG_DIR="$out/hangs"

# The load: FVC_EXIT_GUARD_LOAD busy loops per core (default 1), for as long as the script runs.
# The hang needs a worker preempted in a window of microseconds, so it comes by chance: with one
# loop per core the reproduction hung in 4 of 40 runs while builds ran beside it, in none of 10
# on an otherwise idle machine, and two loops per core did no better; hence many runs.
busy=()
for _ in $(seq $(($(nproc) * ${FVC_EXIT_GUARD_LOAD:-1}))); do
    (while :; do :; done) &
    busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT

# run_case CASE RUN: one run; prints "exited", "slow" (it exited by itself with its result, after
# the deadline), "hang" (its threads stuck in waits after its last line: a hang at quit),
# "running" (still running after its last line at the end of the grace: killed) or "failed" (it
# did not finish its work, or reported a failure).
run_case() {
    local case=$1 run=$2 log="$out/$1.$2" status=0 want verdict
    case $case in
        scenes)
            want='^[0-9]+ passed, 0 failed$'
            bash "$here/deadline.sh" -k 5 -g "$grace" -v "$log.verdict" "$limit" \
                "$GODOT4" --headless --path "$repo/godot_project" -s res://tests/run_tests.gd -- test_threads.gd \
                >"$log.stdout" 2>"$log.log" || status=$?
            ;;
        repro-*)
            local way=${case#repro-} quit=initialize
            if [ "$way" = none-process ]; then way=none; quit=process; fi
            want='^done$'
            bash "$here/deadline.sh" -k 5 -g "$grace" -v "$log.verdict" "$limit" \
                "$GODOT4" --headless --path "$repro_project" -s exit_repro.gd -- --way="$way" --quit="$quit" \
                >"$log.stdout" 2>"$log.log" || status=$?
            ;;
    esac
    verdict=$(cat "$log.verdict" 2>/dev/null)
    if [ "$status" -eq 0 ] && grep -qE "$want" "$log.stdout"; then
        echo exited
        rm -f "$log.stdout" "$log.log" "$log.verdict"
    elif [ "$status" -eq 124 ] && [ "$verdict" = "slow 0" ] && grep -qE "$want" "$log.stdout"; then
        echo slow
    elif [ "$status" -eq 124 ] && [ "$verdict" = hung ] && grep -qE "$want" "$log.stdout"; then
        echo hang
    elif [ "$status" -eq 124 ] && [ "$verdict" = running ] && grep -qE "$want" "$log.stdout"; then
        echo running
    else
        echo "failed (exit code $status${verdict:+, after its deadline: $verdict}; $log.stdout)"
    fi
}

tally_init
# The classification itself, on stand-ins whose verdict is known.
bash "$here/check_deadline.sh" >"$out/check_deadline.log" 2>&1
status=$?
grep -E '^(FAIL|NOT RUN)' "$out/check_deadline.log"
echo "tests/check_deadline.sh (slow and hung stand-ins): $(last_result "$out/check_deadline.log" \
    | awk '{print $1 " passed, " $2 " failed"}')"
tally_result "tests/check_deadline.sh" "$out/check_deadline.log" "$status"

for c in "${cases[@]}"; do
    exited=0
    slow=0
    hung=0
    running=0
    other=0
    for run in $(seq "$runs"); do
        result=$(run_case "$c" "$run")
        case $result in
            exited) exited=$((exited + 1)) ;;
            slow)
                slow=$((slow + 1))
                echo "  $c run $run: slow: exited by itself, with its result, after its $limit s deadline (not a hang)"
                ;;
            hang) hung=$((hung + 1)) ;;
            running)
                running=$((running + 1))
                echo "  $c run $run: still running $grace s after its deadline, not stuck in waits: killed"
                ;;
            *) other=$((other + 1)); echo "  $c run $run: $result" ;;
        esac
        if [[ $c != repro-none* ]]; then
            [ "$result" = exited ] || [ "$result" = slow ]
            tally $? "$c run $run: $result"
        fi
    done
    note=""
    [[ $c == repro-none* ]] && note=" (the engine's own case: reported, not counted)"
    echo "$c: $hung hangs at quit in $runs runs under load, $exited exited, $slow slow (exited after the deadline), $running killed still running, $other failed otherwise$note"
done
missed=$(ls "$out/hangs" 2>/dev/null | wc -l)
[ "$missed" -eq 0 ] || echo "what the $missed engines that missed their deadline showed (backtraces, verdict): ${out#"$repo/"}/hangs/"
tally_end
