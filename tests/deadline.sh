#!/usr/bin/env bash
# Runs a command with a deadline, like timeout(1), and leaves evidence when it is missed:
#   tests/deadline.sh [-k KILL_AFTER] [-g GRACE] [-v VERDICT_FILE] LIMIT COMMAND [ARG...]
# When COMMAND (an engine, a test binary, a server) is still running after LIMIT seconds, every
# process of its tree is attached with gdb and the backtraces of all its threads, its command line
# and its memory mappings (a stripped engine's frames are placed by them) are written to
# tests/out/hangs/WHEN-NAME-PID.txt (FVC_HANG_DIR names another directory). tests/run_all.sh
# copies every such file into the log of the step that made it.
# Then it tells a slow command from a hung one, and the file ends with the verdict:
#   slow     COMMAND exited by itself after the deadline: before gdb came, while it looked, or
#            within GRACE seconds after (default 2). Nothing is killed.
#   hung     its threads sat in waits with no timeout: every thread of the tree asleep (none
#            running or in disk I/O), a process's main thread among them waiting on a futex with
#            no timeout (a mutex, a condition variable, a semaphore; what a deadlock looks like),
#            and the same threads on the same futex words at two looks with gdb's reading of
#            their backtraces between them.
#   running  neither, GRACE seconds after the deadline (a busy loop, a wait with a timeout, a
#            server waiting for input).
# A hung or running tree gets SIGTERM, and SIGKILL KILL_AFTER seconds later (default 10).
# Exits with COMMAND's status when it ended within LIMIT, else 124 (as timeout(1) does), whatever
# the verdict: a caller that counts a slow command as passed reads VERDICT_FILE, where one line is
# written: "in-time STATUS", "slow STATUS" (COMMAND's own exit status), "hung" or "running".
set -uo pipefail
kill_after=10
grace=2
verdict_file=
while [ $# -gt 0 ]; do
    case $1 in
        -k) kill_after=$2; shift 2 ;;
        -g) grace=$2; shift 2 ;;
        -v) verdict_file=$2; shift 2 ;;
        *) break ;;
    esac
done
if [ $# -lt 2 ]; then
    echo "usage: tests/deadline.sh [-k KILL_AFTER] [-g GRACE] [-v VERDICT_FILE] LIMIT COMMAND [ARG...]" >&2
    exit 125
fi
limit=$1
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
hang_dir=${FVC_HANG_DIR:-$root/tests/out/hangs}

# The pids of PID's tree, PID first.
tree() {
    local pid=$1 child
    echo "$pid"
    for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do tree "$child"; done
}

# place_frames PID: gdb's backtrace on stdin, each frame without a symbol followed by the file and
# file offset its address falls in (a stripped engine's frames, to look up in a disassembly).
place_frames() {
    local maps line addr start end off file
    maps=$(grep ' r-xp ' "/proc/$1/maps" 2>/dev/null)
    while IFS= read -r line; do
        printf '%s' "$line"
        if [[ $line =~ ^#[0-9]+\ +0x([0-9a-f]+)\ in\ \?\?\ \(\)$ ]]; then
            addr=$((16#${BASH_REMATCH[1]}))
            while read -r range _ off _ _ file; do
                start=$((16#${range%-*}))
                end=$((16#${range#*-}))
                if [ "$addr" -ge "$start" ] && [ "$addr" -lt "$end" ]; then
                    printf '   [%s+0x%x]' "${file##*/}" $((addr - start + 16#$off))
                    break
                fi
            done <<<"$maps"
        fi
        printf '\n'
    done
}

# Every thread's state and system call, backtraces, the command line and the mappings of each
# process in PIDS.
evidence() {
    local pid
    for pid in "$@"; do
        if [ ! -d "/proc/$pid" ]; then
            echo "=== process $pid: it had exited before it was looked at"
            continue
        fi
        echo "=== process $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-400)"
        echo "--- threads (id, name, state, system call: number and arguments)"
        for task in /proc/"$pid"/task/*; do
            printf '%s %s %s | %s\n' "${task##*/}" "$(cat "$task/comm" 2>/dev/null)" \
                "$(awk '/^State:/ {print $2, $3}' "$task/status" 2>/dev/null)" \
                "$(cat "$task/syscall" 2>/dev/null)"
        done
        echo "--- backtraces (gdb)"
        if command -v gdb >/dev/null; then
            timeout -k 5 120 gdb -nx -batch -iex 'set auto-load safe-path /' -p "$pid" \
                -ex 'set pagination off' -ex 'info threads' -ex 'thread apply all bt 40' </dev/null 2>&1 \
                | grep -vE '^\[New LWP|^warning: (Could not load|Unable to find)' | place_frames "$pid"
        else
            echo "gdb is not installed: no backtraces (apt-get install gdb)"
        fi
        echo "--- mappings (/proc/$pid/maps, executable and named)"
        grep -E ' r-xp | /' "/proc/$pid/maps" 2>/dev/null
    done
}

# The futex system calls of this machine: a thread asleep in one whose timeout argument (the
# fourth, for futex and futex_waitv alike) is null waits until another thread wakes it.
case $(uname -m) in
    x86_64) futex_calls=" 202 449 " ;;
    aarch64 | arm64 | riscv64) futex_calls=" 98 449 " ;;
    i?86 | arm*) futex_calls=" 240 449 " ;;
    *) futex_calls=" 449 " ;;
esac

# exited: COMMAND has ended (reaped, or a zombie whose status is decided).
exited() {
    local state
    state=$(awk '/^State:/ {print $2}' "/proc/$child/status" 2>/dev/null)
    [ -z "$state" ] || [ "$state" = Z ] || [ "$state" = X ]
}

# waits: when COMMAND's tree is stuck, prints its waits ("TID:FUTEX_WORD" for every thread asleep
# on a futex with no timeout) and succeeds. Stuck: no thread of the tree runs or is in disk I/O
# (R, D), and the main thread of one of its processes is among those waits. Fails otherwise.
waits() {
    local pid task state call found=() main=0
    for pid in $(tree "$child"); do
        for task in /proc/"$pid"/task/*; do
            state=$(awk '/^State:/ {print $2}' "$task/status" 2>/dev/null)
            case $state in
                R | D) return 1 ;;
                S) ;;
                *) continue ;;
            esac
            read -r -a call <"$task/syscall" 2>/dev/null || continue
            if [[ $futex_calls == *" ${call[0]} "* ]] && [ "${call[4]:-}" = 0x0 ]; then
                found+=("${task##*/}:${call[1]}")
                [ "${task##*/}" = "$pid" ] && main=1
            fi
        done
    done
    [ "$main" = 1 ] || return 1
    echo "${found[*]}"
}

# Signals to this script go to the command too.
child=
forward() {
    [ -n "$child" ] && kill -TERM $(tree "$child") 2>/dev/null
    exit 143
}
trap forward TERM INT HUP

"$@" &
child=$!
sleep "$limit" &
sleeper=$!
finished=
wait -n -p finished "$child" "$sleeper"
status=$?
if [ "$finished" = "$child" ]; then
    kill "$sleeper" 2>/dev/null
    wait "$sleeper" 2>/dev/null
    [ -z "$verdict_file" ] || echo "in-time $status" >"$verdict_file"
    exit "$status"
fi

# The deadline came first: look, read the backtraces, look again until COMMAND has exited, is
# found stuck in the same waits as at the look before the last backtraces, or GRACE has passed.
mkdir -p "$hang_dir"
name=$(basename "$1")
file="$hang_dir/$(date -u +%Y%m%dT%H%M%SZ)-$name-$child.txt"
missed=$SECONDS
seen=$(waits) || seen=
{
    echo "tests/deadline.sh: '$*' was still running after $limit s (started in $(pwd))."
    evidence $(tree "$child")
} >"$file" 2>&1
verdict=running
rounds=0
while :; do
    if exited; then
        verdict=slow
        break
    fi
    if now=$(waits); then
        if [ -n "$seen" ] && [ "$now" = "$seen" ]; then
            verdict=hung
            break
        fi
        # Newly stuck: its backtraces as they are now (three times at most), then look again.
        if [ "$rounds" -lt 3 ]; then
            rounds=$((rounds + 1))
            seen=$now
            {
                echo
                echo "--- $((SECONDS - missed)) s after the deadline, every thread asleep, waiting: $now"
                evidence $(tree "$child")
            } >>"$file" 2>&1
            continue
        fi
    fi
    seen=
    [ $((SECONDS - missed)) -lt "$grace" ] || break
    sleep 0.1
done

case $verdict in
    slow)
        wait "$child" 2>/dev/null
        status=$?
        echo "verdict: slow: it exited by itself $((SECONDS - missed)) s after the deadline, with status $status; not a hang" >>"$file"
        echo "deadline.sh: '$name' did not end within $limit s but exited by itself after it (status $status): slow, not hung; what was seen: ${file#"$root/"}" >&2
        [ -z "$verdict_file" ] || echo "slow $status" >"$verdict_file"
        exit 124
        ;;
    hung)
        echo "verdict: hung: every thread asleep, the same ones waiting with no timeout on the same futex words before and after gdb read their backtraces (thread:word): $seen" >>"$file"
        echo "deadline.sh: '$name' did not end within $limit s: hung, its threads waiting with no timeout; backtraces of its processes: ${file#"$root/"}" >&2
        ;;
    running)
        echo "verdict: running: $grace s after the deadline it had neither exited nor settled in waits with no timeout; killed" >>"$file"
        echo "deadline.sh: '$name' did not end within $limit s and was still running $grace s later: killed; backtraces of its processes: ${file#"$root/"}" >&2
        ;;
esac
[ -z "$verdict_file" ] || echo "$verdict" >"$verdict_file"
kill -TERM $(tree "$child") 2>/dev/null
for _ in $(seq "$kill_after"); do
    kill -0 "$child" 2>/dev/null || break
    sleep 1
done
kill -KILL $(tree "$child") 2>/dev/null
wait "$child" 2>/dev/null
exit 124
