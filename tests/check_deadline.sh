#!/usr/bin/env bash
# Does tests/deadline.sh tell a slow command from a hung one? Runs it with a 1 s deadline on
# stand-ins (Python, no engine) whose verdict does not depend on how fast the machine is:
#   slow-at-deadline  exits as soon as its deadline has passed (deadline.sh's evidence file has
#                     appeared): slow, with its own exit status
#   slow-after-look   exits only once gdb has read its backtraces and let it go (its evidence
#                     has gone past them; needs gdb): slow
#   hung              its main thread and a second thread wait on locks nobody will release
#                     (futex waits with no timeout): hung, killed
#   busy              spins forever: running, killed (neither slow nor hung)
#   in-time           exits before its deadline: in time, with its own exit status
# Each stand-in is one check: deadline.sh's verdict, its exit status (124 for every missed
# deadline, else the stand-in's) and, past the deadline, the verdict line of its evidence file.
# Ends with "N passed, N failed".
#   tests/check_deadline.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)
# The interpreter itself, not a wrapper that starts it (a pyenv shim, say): each stand-in is the
# command's own process.
python=$(python3 -c 'import sys; print(sys.executable)') || {
    echo "check_deadline.sh: python3 is needed" >&2
    exit 2
}

declare -A program=(
    [slow-at-deadline]='
import glob, os, sys, time
while not glob.glob(os.path.join(os.environ["FVC_HANG_DIR"], "*.txt")):
    time.sleep(0.01)
print("done")
sys.exit(3)'
    [slow-after-look]='
import glob, os, time
# gdb stops the process while it reads it: done once the evidence has gone past its backtraces.
looked = "--- mappings (/proc/%d/maps" % os.getpid()
def seen():
    for name in glob.glob(os.path.join(os.environ["FVC_HANG_DIR"], "*.txt")):
        with open(name) as evidence:
            if looked in evidence.read():
                return True
    return False
while not seen():
    time.sleep(0.01)
print("done")'
    [hung]='
import threading
lock = threading.Lock()
lock.acquire()
threading.Thread(target=lock.acquire, daemon=True).start()
print("done", flush=True)
lock.acquire()'
    [busy]='
while True:
    pass'
    [in-time]='
import sys
sys.exit(5)'
)
# The verdict file's line and deadline.sh's exit status each stand-in must give.
declare -A want=([slow-at-deadline]="slow 3" [slow-after-look]="slow 0" [hung]="hung" [busy]="running"
    [in-time]="in-time 5")
declare -A want_status=([slow-at-deadline]=124 [slow-after-look]=124 [hung]=124 [busy]=124 [in-time]=5)
# GRACE: how long deadline.sh watches after the deadline. For the slow and hung ones only a bound
# that is never reached; the busy one never exits nor waits, whatever GRACE is.
declare -A grace=([slow-at-deadline]=60 [slow-after-look]=60 [hung]=60 [busy]=1 [in-time]=60)

tally_init
for case in in-time slow-at-deadline slow-after-look hung busy; do
    if [ "$case" = slow-after-look ] && ! command -v gdb >/dev/null; then
        echo "NOT RUN: $case (gdb is not installed)"
        continue
    fi
    dir="$out/$case"
    rm -rf "$dir"
    mkdir -p "$dir"
    FVC_HANG_DIR="$dir/hangs" bash "$here/deadline.sh" -k 5 -g "${grace[$case]}" -v "$dir/verdict" 1 \
        "$python" -c "${program[$case]}" >"$dir/stdout" 2>"$dir/stderr"
    status=$?
    verdict=$(cat "$dir/verdict" 2>/dev/null)
    line=
    if [ "$case" != in-time ]; then
        line=$(grep -h '^verdict: ' "$dir"/hangs/*.txt 2>/dev/null)
    fi
    ok=1
    [ "$verdict" = "${want[$case]}" ] && [ "$status" = "${want_status[$case]}" ] && ok=0
    if [ "$case" != in-time ] && [[ $line != "verdict: ${want[$case]%% *}:"* ]]; then ok=1; fi
    tally $ok "$case: verdict '$verdict', exit status $status, evidence's '${line:-no verdict line}'; wanted '${want[$case]}', ${want_status[$case]} (${dir#"$fvc_root/"})"
    [ "$ok" = 0 ] && echo "$case: ${want[$case]} (exit status $status)"
done
tally_end
