#!/usr/bin/env bash
# Load test of the tokio echo server (rust/codec/examples/tokio_server.rs: Framed<TcpStream,
# VarCodec>, a task per connection). The tokio codec's own tests (its unit tests,
# tests/tokio_codec.rs, the doctests) run in the core step, whose features include tokio.
#
#   tests/run_load_test.sh     (FVC_LOAD_PORT: port, default 47700, or the next free one;
#                               FVC_LOAD_CONNECTIONS: default 1000; FVC_LOAD_MESSAGES: default 100)
#
# The server, then the load client (rust/codec/examples/load_client.rs): 1,000 connections open
#    at once, each sending 100 small Dictionaries (different per connection and message) one at a
#    time and checking every echo, while 3 connections of each hostile kind send a 2 GiB length
#    prefix, a message cut short by closing the connection, and random bytes: the server must
#    close those (or refuse them), and the others must not notice. Checks: one per connection
#    (good or hostile, counted by the client), the server's exit status, its own totals (every
#    connection served, every echo, each hostile kind seen), and its memory:
#      * peak resident memory (VmHWM, read from /proc/PID/status while it runs, and as the server
#        reports it at exit) below 256 MiB. What it needs: per connection a Framed with 8 KiB read
#        and write buffers, the socket and the task, about 20 KiB, so some 20 MiB for 1,009
#        connections, plus the runtime and the binary (about 10 MiB): the bound is ten times that,
#        and far below what honouring even one 2 GiB prefix would take once its bytes came;
#      * peak virtual memory (VmPeak) below 2 GiB: no reservation for a 2 GiB message was ever made,
#        even untouched (with 2 worker threads, as both programs here run: glibc's per-thread arenas
#        and the thread stacks stay a few hundred MiB).
#    Throughput (messages per second) and round-trip percentiles (p50, p99, p99.9) are printed as
#    figures, never checked: nothing here depends on the machine's speed.
# Everything listens on 127.0.0.1 only and is bounded in time: about 10 s once the dependencies
# are built (the load itself about 2 s on 2 cores), 2 minutes at most for the load. Ends with
# "N passed, N failed"; logs in tests/out/run_load_test/.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)
cd "$repo" || exit 2

connections=${FVC_LOAD_CONNECTIONS:-1000}
messages=${FVC_LOAD_MESSAGES:-100}
hostile=3                          # of each of the 3 kinds
rss_bound_kib=$((256 * 1024))
vm_bound_kib=$((2 * 1024 * 1024))
# Both programs on 2 worker threads, whatever the machine (the virtual-memory bound counts on it).
export TOKIO_WORKER_THREADS=2

tally_init

# Sockets: the client and the server each hold one per connection.
want_fds=$((connections + 3 * hostile + 256))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$want_fds" ]; then
    ulimit -n "$want_fds" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
fi
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$want_fds" ]; then
    echo "run_load_test.sh: cannot raise the open-file limit to $want_fds (hard limit $(ulimit -Hn))" >&2
    exit 2
fi

# --- the load test ------------------------------------------------------------------------------
echo
echo "=== building the tokio server and the load client (the core step's dev build)"
# shellcheck disable=SC2086 # the selection's words
if ! "$DEADLINE" -k 5 900 cargo build $FVC_CORE_BUILD \
    --example tokio_server --example load_client >"$out/cargo_build.log" 2>&1; then
    tail -n 30 "$out/cargo_build.log"
    tally 1 "cannot build the tokio server and the load client (tests/out/run_load_test/cargo_build.log)"
    tally_end
    exit
fi
server_bin="$repo/target/debug/examples/tokio_server"
client_bin="$repo/target/debug/examples/load_client"

port=${FVC_LOAD_PORT:-47700}
port_in_use() {
    if command -v ss >/dev/null 2>&1; then
        ss -H -tan 2>/dev/null | awk '{print $4}' | grep -qE "[:.]$1\$"
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
    fi
}
tries=0
while port_in_use "$port" && [ $tries -lt 200 ]; do port=$((port + 1)); tries=$((tries + 1)); done

total=$((connections + 3 * hostile))
echo
echo "=== $connections connections x $messages messages, $((3 * hostile)) hostile connections, 127.0.0.1:$port"
# Not under `timeout`: its pid must be the server's own (for /proc). Its --timeout bounds it, and
# it is killed below if it outlives the client by 15 s.
"$server_bin" --port "$port" --dialect godot4 --connections "$total" \
    --max-concurrent 10000 --timeout 100 --quiet >"$out/server.stdout" 2>"$out/server.log" &
spid=$!
for _ in $(seq 100); do
    grep -q '^listening' "$out/server.stdout" 2>/dev/null && break
    kill -0 "$spid" 2>/dev/null || break
    sleep 0.1
done
if ! grep -q '^listening' "$out/server.stdout" 2>/dev/null; then
    tail -n 10 "$out/server.log"
    tally 1 "the tokio server did not start (tests/out/run_load_test/server.log)"
    kill "$spid" 2>/dev/null
    wait "$spid" 2>/dev/null
    tally_end
    exit
fi

# The server's memory, from /proc while it runs: "VmRSS VmHWM VmPeak" in KiB, 10 times a second.
# shellcheck disable=SC2016 # $1 is the server's pid, expanded by the inner shell
bash -c 'while [ -r "/proc/$1/status" ]; do
    awk "/^VmRSS:/ {r=\$2} /^VmHWM:/ {h=\$2} /^VmPeak:/ {p=\$2} END {if (h) print r, h, p}" "/proc/$1/status"
    sleep 0.1
done' _ "$spid" >"$out/memory.log" 2>/dev/null &
mpid=$!

"$DEADLINE" -k 5 100 "$client_bin" --port "$port" --dialect godot4 --connections "$connections" \
    --messages "$messages" --hostile "$hostile" --timeout 90 >"$out/client.stdout" 2>"$out/client.log"
crc=$?
grep -vE '^(RESULT |[0-9]+ passed, [0-9]+ failed$)' "$out/client.stdout" | cut -c1-240 | head -n 40
tally_result "the load client" "$out/client.stdout" "$crc" "$out/client.log"

# The server ends once every connection has been served.
for _ in $(seq 150); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$spid" 2>/dev/null; then
    kill "$spid" 2>/dev/null; sleep 0.5; kill -9 "$spid" 2>/dev/null
fi
wait "$spid" 2>/dev/null
src=$?
wait "$mpid" 2>/dev/null
grep -vE '^tokio_server: connection ' "$out/server.log" | cut -c1-300 | sed 's/^/  server: /'
tally "$src" "the tokio server exited with $src (3: the timeout came first or connections are missing; tests/out/run_load_test/server.log)"

# Its totals: every connection served, every echo, the hostile kinds seen as such.
done_line=$(grep -E '^tokio_server: done: ' "$out/server.log" | tail -n 1)
num() { echo "$done_line" | grep -Eo "[0-9]+ $1" | head -n 1 | awk '{print $1}'; }
served=$(num 'connection'); values=$(num 'values echoed'); broken=$(num 'closed for an oversized prefix')
cut=$(num 'ended inside a message'); io=$(num 'I/O errors')
echo "  server totals: ${served:-?} connections, ${values:-?} values echoed, ${broken:-?} closed for an oversized prefix, ${cut:-?} ended inside a message, ${io:-?} I/O errors"
[ "${served:-0}" -eq "$total" ] && [ "${values:-0}" -ge $((connections * messages)) ] \
    && [ "${broken:-0}" -ge "$hostile" ] && [ "${cut:-0}" -ge "$hostile" ]
tally $? "the server's totals: expected $total connections, at least $((connections * messages)) values echoed, $hostile oversized prefixes and $hostile messages cut short ($done_line)"

# Memory.
samples=$(wc -l <"$out/memory.log")
read -r max_rss max_hwm max_peak < <(awk '{if ($1>r) r=$1; if ($2>h) h=$2; if ($3>p) p=$3} END {print r+0, h+0, p+0}' "$out/memory.log")
reported=$(echo "$done_line" | grep -Eo 'peak RSS [0-9]+' | awk '{print $3}')
[ "${reported:-0}" -gt "$max_hwm" ] && max_hwm=$reported
echo "  server memory ($samples samples from /proc/$spid/status): peak RSS (VmHWM) $((max_hwm / 1024)) MiB (bound $((rss_bound_kib / 1024)) MiB; at exit the server reported ${reported:-?} KiB), highest VmRSS sampled $((max_rss / 1024)) MiB, peak virtual memory (VmPeak) $((max_peak / 1024)) MiB (bound $((vm_bound_kib / 1024)) MiB)"
[ "$samples" -gt 0 ] && [ "$max_hwm" -gt 0 ] && [ "$max_hwm" -lt "$rss_bound_kib" ]
tally $? "the server's peak resident memory: $max_hwm KiB, bound $rss_bound_kib KiB ($samples samples)"
[ "$samples" -gt 0 ] && [ "$max_peak" -gt 0 ] && [ "$max_peak" -lt "$vm_bound_kib" ]
tally $? "the server's peak virtual memory: $max_peak KiB, bound $vm_bound_kib KiB (a 2 GiB message reserved?)"

# The figures (measurements on a shared machine: never checked).
res() { grep -E "^RESULT $1=" "$out/client.stdout" | tail -n 1 | cut -d= -f2; }
echo
echo "=== figures: $(res connections) connections, $(res echoes) echoes in $(res seconds) s: $(res messages_per_second) messages/s; round trip p50 $(res p50_ms) ms, p99 $(res p99_ms) ms, p99.9 $(res p99_9_ms) ms; server peak RSS $((max_hwm / 1024)) MiB"
echo
tally_end
