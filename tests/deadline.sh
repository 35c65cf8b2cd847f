#!/usr/bin/env bash
# Runs a command with a deadline, like timeout(1), and leaves evidence when it is missed:
#   tests/deadline.sh [-k KILL_AFTER] LIMIT COMMAND [ARG...]
# When COMMAND (an engine, a test binary, a server) is still running after LIMIT seconds, every
# process of its tree is attached with gdb and the backtraces of all its threads, its command line
# and its memory mappings (a stripped engine's frames are placed by them) are written to
# tests/out/hangs/WHEN-NAME-PID.txt (FVC_HANG_DIR names another directory); then the tree gets
# SIGTERM, and SIGKILL KILL_AFTER seconds later (default 10). tests/run_all.sh copies every such
# file into the log of the step that made it.
# Exits with COMMAND's status, or 124 when the deadline was missed (as timeout(1) does).
set -uo pipefail
kill_after=10
if [ "${1:-}" = -k ]; then
    kill_after=$2
    shift 2
fi
if [ $# -lt 2 ]; then
    echo "usage: tests/deadline.sh [-k KILL_AFTER] LIMIT COMMAND [ARG...]" >&2
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

# Every thread's backtrace, the command line and the mappings of each process in PIDS.
evidence() {
    local pid
    for pid in "$@"; do
        [ -d "/proc/$pid" ] || continue
        echo "=== process $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-400)"
        echo "--- threads (name, state)"
        for task in /proc/"$pid"/task/*; do
            printf '%s %s %s\n' "${task##*/}" "$(cat "$task/comm" 2>/dev/null)" \
                "$(awk '/^State:/ {print $2, $3}' "$task/status" 2>/dev/null)"
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
    exit "$status"
fi

# The deadline came first.
mkdir -p "$hang_dir"
name=$(basename "$1")
file="$hang_dir/$(date -u +%Y%m%dT%H%M%SZ)-$name-$child.txt"
pids=$(tree "$child")
{
    echo "tests/deadline.sh: '$*' was still running after $limit s (started in $(pwd))."
    evidence $pids
} >"$file" 2>&1
echo "deadline.sh: '$name' did not end within $limit s; backtraces of its processes: ${file#"$root/"}" >&2
kill -TERM $(tree "$child") 2>/dev/null
for _ in $(seq "$kill_after"); do
    kill -0 "$child" 2>/dev/null || break
    sleep 1
done
kill -KILL $(tree "$child") 2>/dev/null
wait "$child" 2>/dev/null
exit 124
