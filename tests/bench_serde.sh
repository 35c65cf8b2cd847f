#!/usr/bin/env bash
# serde's to_bytes and from_bytes against rmp-serde, in alternated rounds (rust/codec/benches/serde.rs:
# the structs and what is timed). Not a test: no thresholds, exit 1 only when the build fails.
#   bash tests/bench_serde.sh [--rounds N] [--baseline BENCH_BINARY] [--op to_bytes|from_bytes]
# 1. Builds the bench (cargo bench --no-run, the workspace's release profile: fat LTO for every
#    crate in it, rmp-serde's included) and copies its binary to tests/out/bench_serde/serde-HEAD.
# 2. For each struct (message, messages_100, world, f32_10k), N rounds (default 7) of: this
#    crate's call, then rmp-serde's, each a short criterion run (0.5 s warm-up, 1.5 s measured)
#    whose median is kept. On this 2-core machine a single run moves by a fifth between minutes;
#    a round pairs the two formats within seconds, and the median of the rounds' ratios is the
#    figure (docs/performance.md).
# --baseline BENCH_BINARY: an earlier build's binary (the serde-HEAD file a run at another commit
# left) is timed in the same rounds, before this one: a before -> after column within one run.
# Prints one line per struct: the medians in µs and the ratios to rmp-serde's, the rounds' ratios;
# also in tests/out/bench_serde/bench_serde.txt.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
out=$(fvc_out_dir)
rounds=7
baseline=
op=to_bytes
while [ $# -gt 0 ]; do
    case $1 in
        --rounds) rounds=${2:?--rounds N}; shift ;;
        --baseline) baseline=$(realpath "${2:?--baseline BENCH_BINARY}"); shift ;;
        --op) op=${2:?--op to_bytes|from_bytes}; shift ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench_serde.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    esac
    shift
done
case $op in to_bytes|from_bytes) ;; *) echo "bench_serde.sh: --op is to_bytes or from_bytes" >&2; exit 2 ;; esac

echo "=== cargo bench --no-run (log: ${out#"$PWD/"}/build.log)"
if ! cargo bench -p fast_var_codec_core --features serde --bench serde --no-run \
    --message-format=json >"$out/build.json" 2>"$out/build.log"; then
    tail -n 20 "$out/build.log"
    exit 1
fi
built=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "serde" and m.get("executable"):
        print(m["executable"])' "$out/build.json" | tail -n 1)
[ -x "$built" ] || { echo "bench_serde.sh: no bench binary in cargo's output" >&2; exit 1; }
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- rust Cargo.toml Cargo.lock || commit="$commit+changes"
cp "$built" "$out/serde-HEAD"

# The median time of one benchmark in µs, from criterion's "time: [low median high]" line.
median() {
    (cd "$out" && "$1" --bench "^$2\$" --warm-up-time 0.5 --measurement-time 1.5 --noplot 2>/dev/null) |
        awk '/time:/ { sub(/.*time: *\[/, ""); v = $3; u = $4; if (u == "ns") v /= 1000; if (u == "ms") v *= 1000; print v; exit }'
}

{
    echo "serde $op against rmp-serde at $commit, $rounds alternated rounds, $(date -u '+%F %H:%M UTC'), load $(cut -d' ' -f1 /proc/loadavg)"
    for s in message messages_100 world f32_10k; do
        before=() ours=() rmp=()
        for _ in $(seq "$rounds"); do
            [ -n "$baseline" ] && before+=("$(median "$baseline" "$s/$op/godot")")
            ours+=("$(median "$out/serde-HEAD" "$s/$op/godot")")
            rmp+=("$(median "$out/serde-HEAD" "$s/$op/rmp")")
        done
        python3 - "$s" "${before[*]:-}" "${ours[*]}" "${rmp[*]}" <<'EOF'
import statistics, sys
name, before, ours, rmp = sys.argv[1], *(list(map(float, a.split())) for a in sys.argv[2:])
ratios = [o / r for o, r in zip(ours, rmp)]
line = f"{name:14} godot {statistics.median(ours):9.3f} µs  rmp-serde {statistics.median(rmp):9.3f} µs  ratio {statistics.median(ratios):.2f}"
if before:
    line += f"  (baseline {statistics.median(before):9.3f} µs, ratio {statistics.median(b / r for b, r in zip(before, rmp)):.2f})"
print(line + "  rounds " + " ".join(f"{x:.2f}" for x in ratios))
EOF
    done
} | tee "$out/bench_serde.txt"
