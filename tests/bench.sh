#!/usr/bin/env bash
# FastVarCodec benchmarks, one command:
#   bash tests/bench.sh                 (both parts, about 4 minutes on 2 cores)
#   bash tests/bench.sh --godot-only    (only the Godot scene)
#   bash tests/bench.sh --rust-only     (only the criterion benches of the core)
#   bash tests/bench.sh --network-only --libs=A.so,B.so [--pairs=3] [--rounds=15]
#                                       (the network tick alone, libraries A and B of the extension
#                                       taking turns: A, B, A, B, ... --pairs times; prints each
#                                       run's ratios and their medians per library; builds nothing)
#
# 1. Godot: builds the addon in release mode (tests/build_addon.sh), prepares godot_project/
#    (tests/setup_godot_project.sh) and runs godot_project/bench/bench.gd headless in Godot 4
#    (GODOT4 may be preset; otherwise tests/install_engines.sh finds or installs it). The scene checks
#    first that FastVarCodec's bytes equal var_to_bytes' (Godot 4) and the GDScript Godot 3 codec's
#    (Godot 3), and that every decode matches, then times encode and decode of each payload in the
#    same process, FastVarCodec called through a typed and through an untyped variable alternating
#    with the competitor (median of 15 rounds after 5 warm-ups).
#    -> tests/out/bench/bench_godot.txt, tests/out/bench/bench_godot.json, tests/out/bench/bench_payloads/*.bin
#    Then the network tick (godot_project/bench/network_tick.gd): 400 8-field messages per round
#    over loopback TCP (the engine's put_var/get_var, FastVarStream per message, FastVarStream
#    put_vars/get_vars per round) and UDP (PacketPeerUDP.put_var against put_packet_var).
#    -> tests/out/bench/bench_network.txt
# 2. Rust: cargo bench -p fast_var_codec_core --bench codec (criterion, short measurement time) on
#    the same payloads, after checking that the core encodes them to exactly the engine's bytes of
#    part 1 (when part 1 has run); encode, encode_into, decode and a memcpy of as many bytes.
#    -> tests/out/bench/bench_rust.txt, tests/out/bench/bench_rust.json, tests/out/bench/criterion/ (criterion's own)
# Then prints the two tables together (also in tests/out/bench/bench_summary.txt), with the load average
# before and after: numbers taken on a busy machine are only indicative.
# Logs: tests/out/bench/bench_godot.stderr.log (engine), tests/out/bench/bench_rust.log (criterion).
# Profiling one case (after a run of this script has built and set up everything):
#   perf record -F 999 --call-graph dwarf -- "$GODOT4" --headless --path godot_project \
#       -s res://bench/bench.gd -- --only=typed_int_100k --op=decode --dialect=4 --spin=8
#   (--spin runs only FastVarCodec on the selected cases; see the header of bench.gd), and for the
#   core: target/release/deps/codec-<hash> --bench --profile-time 5 'decode_g4/typed_int_100k'.
# Exit code: 0, or non-zero when a build, a correctness check or a run failed.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)
project="$repo/godot_project"
lib="$repo/addons/fast_var_codec/bin/libfast_var_codec.so"

run_godot=1
run_rust=1
network_libs=""
pairs=3
rounds=15
for arg in "$@"; do
    case "$arg" in
        --godot-only) run_rust=0 ;;
        --rust-only) run_godot=0 ;;
        --network-only) run_godot=0; run_rust=0; network_libs=${network_libs:-none} ;;
        --libs=*) network_libs=${arg#--libs=} ;;
        --pairs=*) pairs=${arg#--pairs=} ;;
        --rounds=*) rounds=${arg#--rounds=} ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench.sh: unknown argument $arg (--godot-only, --rust-only, --network-only --libs=A,B)" >&2; exit 2 ;;
    esac
done

die() { echo "bench.sh: $*" >&2; exit 1; }
mkdir -p "$out"

# The network tick with two builds of the library taking turns (a busy machine moves every
# figure; alternating spreads that over both builds alike).
if [ -n "$network_libs" ]; then
    IFS=, read -r lib_a lib_b <<<"$network_libs"
    [ -f "${lib_a:-}" ] && [ -f "${lib_b:-}" ] || die "--network-only needs --libs=A.so,B.so (two built libraries)"
    need_engines GODOT4 || exit 1
    rm -f "$out/library_before_alternation.so"
    if [ -f "$lib" ]; then cp "$lib" "$out/library_before_alternation.so"; else cp "$lib_a" "$lib"; fi
    bash "$repo/tests/setup_godot_project.sh" || die "cannot prepare godot_project/"
    restore() { [ -f "$out/library_before_alternation.so" ] && cp "$out/library_before_alternation.so" "$lib"; }
    trap restore EXIT
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "A: $lib_a (sha256 $(sha256sum "$lib_a" | cut -c1-16)...)"
    echo "B: $lib_b (sha256 $(sha256sum "$lib_b" | cut -c1-16)...)"
    runs="$out/network_alternation.txt"
    : >"$runs"
    for pair in $(seq 1 "$pairs"); do
        for side in A B; do
            if [ "$side" = A ]; then cp "$lib_a" "$lib"; else cp "$lib_b" "$lib"; fi
            table="$out/bench_network_$side$pair.txt"
            rm -f "$table"
            "$GODOT4" --headless --path "$project" -s res://bench/network_tick.gd -- --rounds="$rounds" \
                --out="$table" >/dev/null 2>"$out/bench_network_$side$pair.stderr.log" || true
            [ -s "$table" ] || die "the network tick failed with library $side (tests/out/bench/bench_network_$side$pair.stderr.log)"
            # The x column of the per-message, batched and UDP rows.
            ratios=$(awk '/FastVarStream.put_var /{m=$NF} /put_vars/{b=$NF} /put_packet_var/{u=$NF} END{print m, b, u}' "$table")
            echo "$side $pair $ratios" | tee -a "$runs"
        done
    done
    echo "medians (engine time / library time; per message, batched, UDP):"
    median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
    for side in A B; do
        m=$(awk -v s="$side" '$1 == s { print $3 }' "$runs" | median)
        b=$(awk -v s="$side" '$1 == s { print $4 }' "$runs" | median)
        u=$(awk -v s="$side" '$1 == s { print $5 }' "$runs" | median)
        echo "$side: per message $m, batched $b, UDP $u ($pairs runs)"
    done
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$(date +%s)

if [ "$run_godot" = 1 ]; then
    need_engines GODOT4 || exit 1

    echo "== building the addon (release)" >&2
    bash "$repo/tests/build_addon.sh" || die "the addon build failed"
    bash "$repo/tests/setup_godot_project.sh" || die "cannot prepare godot_project/"
    # Other jobs may install a debug library into the same place: the timing must use the release one.
    release_lib="$repo/target/release/libfast_var_codec.so"
    cmp -s "$release_lib" "$lib" || die "$lib is not the release build just made (another job replaced it?)"
    lib_sum=$(sha256sum "$lib" | cut -c1-16)
    git_rev=$(git -C "$repo" describe --always --dirty 2>/dev/null || echo '?')

    echo "== Godot benchmark (godot_project/bench/bench.gd, about 2 minutes)" >&2
    rm -f "$out/bench_godot.txt" "$out/bench_godot.json"
    rm -rf "$out/bench_payloads"
    status=0
    "$GODOT4" --headless --path "$project" -s res://bench/bench.gd -- --out-dir="$out" \
        >"$out/bench_godot.stdout.log" 2>"$out/bench_godot.stderr.log" || status=$?
    grep -v '^Godot Engine v\|^Initialize godot-rust\|^$' "$out/bench_godot.stdout.log" | grep '^bench.gd' >&2
    if [ "$status" -ne 0 ] || [ ! -s "$out/bench_godot.json" ]; then
        echo "bench.sh: the Godot benchmark failed (exit code $status); last lines of its logs:" >&2
        tail -n 15 "$out/bench_godot.stdout.log" >&2
        grep -v '^   ' "$out/bench_godot.stderr.log" | tail -n 15 >&2
        exit 1
    fi
    echo "== Network tick (godot_project/bench/network_tick.gd, about 20 seconds)" >&2
    rm -f "$out/bench_network.txt"
    "$GODOT4" --headless --path "$project" -s res://bench/network_tick.gd -- --out="$out/bench_network.txt" \
        >"$out/bench_network.stdout.log" 2>"$out/bench_network.stderr.log" || status=$?
    if [ "$status" -ne 0 ] || [ ! -s "$out/bench_network.txt" ]; then
        echo "bench.sh: the network tick benchmark failed (exit code $status); last lines of its logs:" >&2
        tail -n 15 "$out/bench_network.stdout.log" "$out/bench_network.stderr.log" >&2
        exit 1
    fi
    # godot-rust prints its safeguard level: "balanced" in release builds, "strict" in debug ones.
    banner=$(grep -m1 '^Initialize godot-rust' "$out/bench_godot.stdout.log" "$out/bench_godot.stderr.log" 2>/dev/null | sed 's/^[^:]*://')
    [ "$(sha256sum "$lib" | cut -c1-16)" = "$lib_sum" ] || echo "bench.sh: WARNING: $lib was replaced during the run (another job rebuilt it?); Godot loaded it at startup, so the numbers are of the build made above, not of the current file" >&2
    banner="$banner; library sha256 $lib_sum..., source git $git_rev"
    case "$banner" in
        *"safeguards strict"*) echo "bench.sh: WARNING: the extension ran with strict safeguards (a debug build?): $banner" >&2 ;;
    esac
fi

if [ "$run_rust" = 1 ]; then
    echo "== Rust criterion benchmarks (cargo bench -p fast_var_codec_core --bench codec, about 2 minutes)" >&2
    rm -f "$out/bench_rust.json"
    payload_env=()
    [ -d "$out/bench_payloads" ] && payload_env=(FVC_BENCH_PAYLOAD_DIR="$out/bench_payloads")
    status=0
    (cd "$repo" && env "${payload_env[@]}" CRITERION_HOME="$out/criterion" FVC_BENCH_OUT="$out/bench_rust.json" \
        cargo bench -p fast_var_codec_core --bench codec -- --noplot) >"$out/bench_rust.log" 2>&1 || status=$?
    grep '^codec bench' "$out/bench_rust.log" >&2
    if [ "$status" -ne 0 ] || [ ! -s "$out/bench_rust.json" ]; then
        echo "bench.sh: the criterion benchmarks failed (exit code $status); last lines of $out/bench_rust.log:" >&2
        tail -n 20 "$out/bench_rust.log" >&2
        exit 1
    fi
    sed -n '/^Rust core/,$p' "$out/bench_rust.log" >"$out/bench_rust.txt"
fi

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
{
    echo "FastVarCodec benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(( $(date +%s) - t_start )) s"
    echo "load average (1, 5, 15 min) before: $load_before, after: $load_after$( [ "$(nproc)" -gt 0 ] && awk -v l="${load_after%% *}" -v n="$(nproc)" 'BEGIN { if (l > 0.5 * n) print "  -- a busy machine: indicative numbers only" }')"
    [ -n "${banner:-}" ] && echo "$banner"
    if [ "$run_godot" = 1 ]; then
        echo
        cat "$out/bench_godot.txt"
        echo
        cat "$out/bench_network.txt"
    fi
    if [ "$run_rust" = 1 ]; then
        echo
        cat "$out/bench_rust.txt"
    fi
} >"$out/bench_summary.txt"
cat "$out/bench_summary.txt"
echo "(tests/out/bench/: bench_summary.txt, bench_godot.{txt,json}, bench_rust.{txt,json}, logs, criterion/)"
