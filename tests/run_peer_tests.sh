#!/usr/bin/env bash
# Real-peer tests: FastVarCodec talking over 127.0.0.1 to real Godot 3 and Pandemonium engines and
# to the Rust echo server, real engines talking to a Rust server written with serde structs, plus
# hostile streams. The addon must already be built (tests/build_addon.sh); this builds the echo
# server and serde server examples itself.
#
#   tests/run_peer_tests.sh        (GODOT4 / GODOT3 / GODOT32 / PANDEMONIUM4 / PANDEMONIUM5 /
#                                   GODOT4_DOUBLE may be preset, the last three to "" to leave
#                                   those runs out; otherwise tests/install_engines.sh finds them;
#                                   FVC_PEER_PORT: base port, default 47400, every run takes the
#                                   next free port; FVC_PEER_BUDGET: seconds for all runs, default 240)
#
# Runs, for Godot 3.6.2 AND 3.2.3:
#   * godot3_server.gd (Godot 3, its own put_var/get_var) <- Godot 4 client, TCP and UDP, and
#     TCP a network tick at a time (peers/batch_client.gd: FastVarStream.put_vars/get_vars);
#   * godot3_client.gd (Godot 3, its own put_var/get_var) -> Rust echo server, Godot 3 dialect;
#   * serde_client3.gd (Godot 3, its own put_var/get_var) -> Rust serde server
#     (rust/codec/examples/serde_server.rs, serde structs), Godot 3 dialect;
# for Pandemonium v4.9.0 (PANDEMONIUM4, DIALECT_PANDEMONIUM_3_8) AND v5.2.0 (PANDEMONIUM5,
# DIALECT_PANDEMONIUM_5), headless builds from ../shared/engines (tests/install_engines.sh finds
# them; when one is absent, its runs are reported as not run and count neither way):
#   * tests/peers_pandemonium/pandemonium_server.gd (its own put_var/get_var) <- Godot 4 client
#     (peers/pandemonium_client.gd), TCP and UDP;
#   * tests/peers_pandemonium/pandemonium_client.gd (its own put_var/get_var) -> Rust echo server,
#     that Pandemonium dialect;
# and once:
#   * peers/double_server.gd in a Godot 4.6.3 built with precision=double (GODOT4_DOUBLE, from
#     ../shared/engines; its own put_var) <- Godot 4 client with PRECISION_DOUBLE
#     (peers/double_client.gd), TCP; reported as not run when the engine is absent;
#   * Godot 4 client -> Rust echo server, Godot 4 dialect and Godot 3 dialect;
#   * peers/serde_client.gd (Godot 4, its own put_var/get_var) -> Rust serde server, Godot 4
#     dialect;
#   * Godot 4 client and Godot 3.6.2 client at once -> Rust tokio server on one port, each
#     connection's dialect detected from its messages (--dialect auto);
#   (the echo server always runs with --trickle 65536:2: its answers arrive in 64 KiB pieces 2 ms
#   apart, so large values reach the readers in many reads)
#   * hostile streams against FastVarStream / FastVarCodec (Godot 4);
#   * the demo scene peers/demo_godot3_server.tscn against the Godot 3.6.2 server.
# Each run prints its result lines; a server that does not exit 0 by itself, a missing final
# "N passed, N failed" line, or "SCRIPT ERROR" / "ObjectDB instances leaked" in an engine's output
# (tests/lib.sh) counts as a failure. Ends with the combined "N passed, N failed"; exits non-zero
# on any failure. Engine output: tests/out/run_peer_tests/peer_*.log.
# Every process is bounded: its own --timeout, and `timeout` around it (at most 60 s, less when the
# budget runs out); everything listens on 127.0.0.1 only. Normally takes about 50 s.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)
project="$repo/godot_project"
peers3="$repo/tests/peers"
peersp="$repo/tests/peers_pandemonium"
mkdir -p "$out"

die() { echo "run_peer_tests.sh: $*" >&2; exit 2; }

need_addon || exit 2
# The optional ones, when empty (absent, or preset so), are reported as not run.
need_engines GODOT4 GODOT3 GODOT32 --optional PANDEMONIUM4 PANDEMONIUM5 GODOT4_DOUBLE || exit 2
bash "$repo/tests/setup_godot_project.sh" || die "cannot set up godot_project/"

echo "=== building the Rust echo and serde servers (the core step's dev build: cargo build $FVC_CORE_BUILD --example echo_server --example serde_server)"
# shellcheck disable=SC2086 # the selection's words
if ! (cd "$repo" && cargo build $FVC_CORE_BUILD --example echo_server --example serde_server) >"$out/peer_cargo_build.log" 2>&1; then
    tail -n 30 "$out/peer_cargo_build.log"
    die "cannot build the echo and serde servers (tests/out/run_peer_tests/peer_cargo_build.log)"
fi
echo_server="$repo/target/debug/examples/echo_server"
serde_server="$repo/target/debug/examples/serde_server"

tally_init
summary=()
started=$SECONDS
budget=${FVC_PEER_BUDGET:-240}
# Seconds a process of the next run may take: at most 60, and what is left of the budget.
limit() {
    local left=$((budget - (SECONDS - started)))
    [ $left -gt 60 ] && left=60
    echo $left
}

# Ports: from FVC_PEER_PORT (default 47400) upwards, skipping any port in use (TCP or UDP).
next_port=${FVC_PEER_PORT:-47400}
port_in_use() {
    if command -v ss >/dev/null 2>&1; then
        ss -H -tuan 2>/dev/null | awk '{print $5}' | grep -qE "[:.]$1\$"
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
    fi
}
take_port() {
    local tries=0
    while port_in_use "$next_port" && [ $tries -lt 200 ]; do
        next_port=$((next_port + 1)); tries=$((tries + 1))
    done
    port=$next_port
    next_port=$((next_port + 1))
}

engine_version() { # binary -> "3.6.2"
    "$1" --version 2>/dev/null | grep -Eo '^[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1
}

# One run: an optional server in the background, a client in the foreground; both bounded in time.
#   run NAME SERVER_CMD... -- CLIENT_CMD...     ("none" as SERVER_CMD: no server)
# The client's stdout (without engine banners) is printed; its last line must be "N passed, N failed".
# Clean engine logs are no check of their own here: only problems in them count (as failures).
run() {
    local name=$1; shift
    local server=() client=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do server+=("$1"); shift; done
    shift
    client=("$@")
    local lim; lim=$(limit)
    if [ "$lim" -lt 15 ]; then
        tally 1 "$name: not run, the time budget of $budget s is used up"
        summary+=("$(printf '%-66s %5d passed, %3d failed  (not run)' "$name" 0 1)")
        return
    fi
    local slug
    slug=$(printf '%s' "$name" | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9.]+/_/g; s/^_+|_+$//g')
    local slog="$out/peer_${slug}.server.log" clog="$out/peer_${slug}.log" cout="$out/peer_${slug}.stdout"
    echo
    echo "=== $name"
    local spid=""
    if [ "${server[0]}" != "none" ]; then
        "$DEADLINE" -k 5 "$lim" "${server[@]}" >"$slog" 2>&1 &
        spid=$!
    fi
    local t0=$SECONDS p0=$passed f0=$failed
    "$DEADLINE" -k 5 "$lim" "${client[@]}" >"$cout" 2>"$clog"
    local crc=$?
    grep -vE '^(Godot Engine v|Initialize godot-rust|[[:space:]]*$)' "$cout"
    tally_result "$name: the client" "$cout" "$crc" "$clog"
    tally_logs_clean --only-failure "$name: the client's engine reported leaked objects or GDScript errors" "$clog" "$cout"
    if [ -n "$spid" ]; then
        # The server stops by itself once the exchange is over; give it a few seconds.
        local waited=0
        while kill -0 "$spid" 2>/dev/null && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
        if kill -0 "$spid" 2>/dev/null; then
            kill "$spid" 2>/dev/null; sleep 0.2; kill -9 "$spid" 2>/dev/null
        fi
        wait "$spid" 2>/dev/null
        local src=$?
        grep -E '^(godot3_server.gd|pandemonium_server.gd|double_server.gd|echo_server|serde_server|listening)' "$slog" | sed 's/^/  server: /'
        tally $src "$name: the server did not end cleanly (exit code $src; see ${slog#"$repo/"})"
        if [ $src -ne 0 ]; then
            grep -vE '^(Godot Engine v|[[:space:]]*$)' "$slog" | grep -vE 'translation.cpp|locale' | tail -n 8
        fi
        tally_logs_clean --only-failure "$name: the server reported leaked objects or GDScript errors" "$slog"
    fi
    summary+=("$(printf '%-66s %5d passed, %3d failed  (%ds)' "$name" $((passed - p0)) $((failed - f0)) $((SECONDS - t0)))")
}

g4=("$GODOT4" --headless --path "$project")
for engine in "$GODOT3" "$GODOT32"; do
    v=$(engine_version "$engine")
    for mode in tcp udp; do
        take_port
        run "Godot 3 ($v) server <- Godot 4 client, $mode" \
            "$engine" --no-window --path "$peers3" -s res://godot3_server.gd --mode=$mode --port=$port --timeout=50 -- \
            "${g4[@]}" -s res://peers/godot3_client.gd -- --mode=$mode --port=$port --timeout=50
    done
    take_port
    run "Godot 3 ($v) server <- Godot 4 client, put_vars/get_vars" \
        "$engine" --no-window --path "$peers3" -s res://godot3_server.gd --mode=tcp --port=$port --timeout=50 -- \
        "${g4[@]}" -s res://peers/batch_client.gd -- --port=$port --timeout=50
    take_port
    run "Godot 3 ($v) client -> Rust echo_server, godot3 dialect" \
        "$echo_server" --port $port --dialect godot3 --allow-objects --connections 1 --timeout 50 --trickle 65536:2 -- \
        "$engine" --no-window --path "$peers3" -s res://godot3_client.gd --port=$port --timeout=50
    take_port
    run "Godot 3 ($v) client -> Rust serde_server, godot3 dialect" \
        "$serde_server" --port $port --dialect godot3 --expect-test-login --timeout 50 -- \
        "$engine" --no-window --path "$peers3" -s res://serde_client3.gd --port=$port --timeout=50
done
# Pandemonium: PANDEMONIUM4 speaks the v3.8.0-v4.9.0 numbering, PANDEMONIUM5 that of v5.0.0+.
for pvar in PANDEMONIUM4 PANDEMONIUM5; do
    engine=${!pvar:-}
    dialect=pandemonium38
    [ "$pvar" = PANDEMONIUM5 ] && dialect=pandemonium5
    if [ -z "$engine" ]; then
        why="$pvar is empty (set so, or no Pandemonium build in ../shared/engines: see tests/install_engines.sh)"
        echo
        echo "=== Pandemonium ($dialect dialect): 3 runs not run: $why"
        summary+=("$(printf '%-66s not run: %s' "Pandemonium, $dialect dialect: 3 runs" "$pvar is empty")")
        continue
    fi
    v=$(engine_version "$engine")
    for mode in tcp udp; do
        take_port
        run "Pandemonium ($v) server <- Godot 4 client, $mode" \
            "$engine" --path "$peersp" -s res://pandemonium_server.gd --mode=$mode --port=$port --timeout=50 -- \
            "${g4[@]}" -s res://peers/pandemonium_client.gd -- --dialect=$dialect --mode=$mode --port=$port --timeout=50
    done
    take_port
    run "Pandemonium ($v) client -> Rust echo_server, $dialect dialect" \
        "$echo_server" --port $port --dialect $dialect --allow-objects --connections 1 --timeout 50 --trickle 65536:2 -- \
        "$engine" --path "$peersp" -s res://pandemonium_client.gd --port=$port --timeout=50
done
# Precision: a Godot 4.6.3 built with precision=double (its own put_var and framing, the addon's
# double-precision library loaded but unused) <- a standard Godot 4.6.3 with PRECISION_DOUBLE.
if [ -n "${GODOT4_DOUBLE:-}" ]; then
    take_port
    run "Godot 4.6.3 double server <- Godot 4 client, PRECISION_DOUBLE, tcp" \
        "$GODOT4_DOUBLE" --headless --path "$project" -s res://peers/double_server.gd --port=$port --timeout=50 -- \
        "${g4[@]}" -s res://peers/double_client.gd -- --port=$port --timeout=50
else
    echo
    echo "=== Double precision: not run: GODOT4_DOUBLE is empty (set so, or no godot-4.6.3-double in ../shared/engines: see tests/install_engines.sh)"
    summary+=("$(printf '%-66s not run: %s' "Godot 4.6.3 double-precision server" "GODOT4_DOUBLE is empty")")
fi
for dialect in godot4 godot3; do
    take_port
    run "Godot 4 client -> Rust echo_server, $dialect dialect" \
        "$echo_server" --port $port --dialect $dialect --connections 2 --timeout 50 --trickle 65536:2 -- \
        "${g4[@]}" -s res://peers/echo_client.gd -- --dialect=$dialect --port=$port --timeout=50
done
take_port
run "Godot 4 client -> Rust serde_server, godot4 dialect" \
    "$serde_server" --port $port --dialect godot4 --expect-test-login --timeout 50 -- \
    "${g4[@]}" -s res://peers/serde_client.gd -- --port=$port --timeout=50
take_port
run "Hostile streams (Godot 4, in-process TCP server)" none -- \
    "${g4[@]}" -s res://peers/hostile.gd -- --port=$port --timeout=60

# The demo scene: it prints "demo finished" and exits 0 when it worked.
take_port
v=$(engine_version "$GODOT3")
echo
echo "=== Demo: peers/demo_godot3_server.tscn <- Godot 3 ($v) server"
lim=$(limit); [ "$lim" -lt 15 ] && lim=15
"$DEADLINE" -k 5 "$lim" "$GODOT3" --no-window --path "$peers3" -s res://godot3_server.gd --mode=tcp --port=$port --timeout=40 \
    >"$out/peer_demo.server.log" 2>&1 &
dpid=$!
"$DEADLINE" -k 5 "$lim" "${g4[@]}" res://peers/demo_godot3_server.tscn -- --port=$port >"$out/peer_demo.stdout" 2>"$out/peer_demo.log"
drc=$?
wait "$dpid" 2>/dev/null
dsrc=$?
grep -E '^demo: (connected|echo|no more|the)' "$out/peer_demo.stdout" | cut -c1-150
p0=$passed f0=$failed
[ $drc -eq 0 ] && grep -q 'demo finished' "$out/peer_demo.stdout" && [ $dsrc -eq 0 ]
tally $? "demo: exit code $drc, server $dsrc (tests/out/run_peer_tests/peer_demo.stdout, tests/out/run_peer_tests/peer_demo.log)"
tally_logs_clean "demo: an engine reported leaked objects or GDScript errors" \
    "$out/peer_demo.log" "$out/peer_demo.stdout" "$out/peer_demo.server.log"
summary+=("$(printf '%-66s %5d passed, %3d failed' "Demo scene" $((passed - p0)) $((failed - f0)))")

# The tokio echo server (rust/codec/examples/tokio_server.rs: Framed<TcpStream, VarCodec>, a task
# per connection) speaks echo_server's protocol: the same Godot clients, with the same checks, both
# on one port at once (the fixed dialects are echo_server's runs above).
echo
echo "=== building the Rust tokio server (the core step's dev build: --example tokio_server)"
# shellcheck disable=SC2086 # the selection's words
if (cd "$repo" && cargo build $FVC_CORE_BUILD --example tokio_server) \
    >"$out/peer_cargo_build_tokio.log" 2>&1; then
    tokio_server="$repo/target/debug/examples/tokio_server"
    tokio_run() { # NAME SERVER_ARGS... -- CLIENT_CMD...: run, then the server's own lines
        local name=$1 slug
        run "$@"
        slug=$(printf '%s' "$name" | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9.]+/_/g; s/^_+|_+$//g')
        grep -E '^tokio_server' "$out/peer_${slug}.server.log" 2>/dev/null | cut -c1-220 | sed 's/^/  server: /'
    }
    # One port for both engines at once: the server takes each connection's dialect from its
    # peer's own messages (--dialect auto, VarCodec::detecting) and answers each in it. The Godot 3
    # client (the engine's own put_var/get_var, Rect2s and Transforms only Godot 3 reads whole)
    # runs in the background while the Godot 4 client (the golden corpus: Vector4s, typed Arrays,
    # … checked byte for byte by var_to_bytes) runs in the foreground; a connection read in the
    # wrong dialect fails their checks. The server serves their 3 connections, then exits.
    v=$(engine_version "$GODOT3")
    take_port
    name="Godot 4 + Godot 3 ($v) clients at once -> Rust tokio server, one port, --dialect auto"
    g3="$out/peer_one_port_godot3_client"
    "$DEADLINE" -k 5 "$(limit)" "$GODOT3" --no-window --path "$peers3" -s res://godot3_client.gd \
        --port=$port --timeout=50 >"$g3.stdout" 2>"$g3.log" &
    g3pid=$!
    tokio_run "$name" \
        "$tokio_server" --port $port --dialect auto --allow-objects --connections 3 --timeout 50 --trickle 65536:2 -- \
        "${g4[@]}" -s res://peers/echo_client.gd -- --dialect=godot4 --port=$port --timeout=50 --greet=1
    wait "$g3pid"
    g3rc=$?
    p0=$passed f0=$failed
    echo "  the Godot 3 client, at the same time:"
    grep -vE '^(Godot Engine v|[[:space:]]*$)' "$g3.stdout" | sed 's/^/    /'
    tally_result "$name: the Godot 3 client" "$g3.stdout" "$g3rc" "$g3.log"
    tally_logs_clean --only-failure "$name: the Godot 3 client's engine reported leaked objects or GDScript errors" "$g3.log" "$g3.stdout"
    # Each connection was answered in its own engine's dialect, as the server says.
    slog="$out/peer_$(printf '%s' "$name" | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9.]+/_/g; s/^_+|_+$//g').server.log"
    for d in godot4 godot3; do
        grep -qE "^tokio_server: connection .*, $d detected" "$slog"
        tally $? "$name: the server detected no $d connection (${slog#"$repo/"})"
    done
    summary+=("$(printf '%-66s %5d passed, %3d failed' "  ... its Godot 3 client and the dialects detected" $((passed - p0)) $((failed - f0)))")
else
    tail -n 30 "$out/peer_cargo_build_tokio.log"
    tally 1 "cannot build the tokio server (tests/out/run_peer_tests/peer_cargo_build_tokio.log)"
    summary+=("$(printf '%-66s %5d passed, %3d failed  (not built)' "Godot clients -> Rust tokio server" 0 1)")
fi

echo
echo "=== Summary ($((SECONDS - started)) s; engine logs in tests/out/run_peer_tests/peer_*.log)"
for line in "${summary[@]}"; do echo "  $line"; done
echo
tally_end
