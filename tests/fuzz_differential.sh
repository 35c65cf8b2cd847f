#!/usr/bin/env bash
# Differential fuzzing against real engines (godot_project/fuzz/differential.gd says what is
# compared): engine encodings of random values of every type, mutated with knowledge of the format,
# decoded by the engine and by FastVarCodec, which must agree on the verdict, the size (Godot 4)
# and the value, to the bit; and the engine's var_to_str texts of random values, mutated, read by
# its str_to_var and by FastVarCodec.str_to_var (godot_project/fuzz/text_differential.gd: the
# same value, or both refusing, or a difference the project makes on purpose, counted apart).
#   bash tests/fuzz_differential.sh [--godot4 N] [--godot3 N] [--text N] [--seed S] [--chunk N]
#     --godot4 N   N inputs in the Godot 4 dialect against Godot 4.6.3 (default 1000000)
#     --godot3 N   N inputs in the Godot 3 dialect against Godot 3.6.2 (default 300000): 3.6.2
#                  encodes random values (tests/godot3_differential/), Godot 4.6.3 mutates them,
#                  3.6.2 decodes each input and re-encodes its value, FastVarCodec in 4.6.3 compares
#     --text N     N mutated texts against Godot 4.6.3's str_to_var (default 200000)
#     --seed S     the first chunk's seed (default 1); chunk k uses S + k
#     --chunk N    inputs per engine run (default 250000)
# The bounded default is a step of tests/run_all.sh (about 60 s). The long run, documented in
# docs/testing.md: --godot4 10000000 --godot3 1000000 --text 2000000.
# Ends with "N passed, N failed": one check per input, passed when both sides agree. Engine
# output: tests/out/fuzz_differential/ (a failing chunk's inputs are kept there).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
n4=1000000
n3=300000
nt=200000
seed=1
chunk=250000
while [ $# -gt 0 ]; do
    case $1 in
        --godot4) n4=$2; shift 2 ;;
        --godot3) n3=$2; shift 2 ;;
        --text) nt=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --chunk) chunk=$2; shift 2 ;;
        *) echo "usage: $0 [--godot4 N] [--godot3 N] [--text N] [--seed S] [--chunk N]" >&2; exit 2 ;;
    esac
done
need_engines GODOT4 GODOT3 || exit 2
need_addon || exit 2
bash tests/setup_godot_project.sh || exit 2
out=$(fvc_out_dir)
tally_init
started=$SECONDS
g4=("$GODOT4" --headless --path godot_project -s res://fuzz/differential_main.gd --)
g3=("$GODOT3" --no-window --path tests/godot3_differential -s res://differential3.gd)
# Each engine run is bounded: about 25 s per million inputs, and never more than 30 minutes.
limit() { echo $((60 + $1 / 25000)); }

# run_counted LABEL LOG COMMAND...: a differential_main.gd run, counted from its last line.
run_counted() {
    local label=$1 log=$2 status=0; shift 2
    "$DEADLINE" -k 10 "$(limit "$chunk")" "$@" >"$log.stdout" 2>"$log.stderr" || status=$?
    grep -E '^(DISAGREE|KEYS|differential: [^0-9])' "$log.stdout" | cut -c1-300
    tally_result "$label" "$log.stdout" "$status" "$log.stderr"
}

k=0
done4=0
while [ "$done4" -lt "$n4" ]; do
    n=$((n4 - done4 < chunk ? n4 - done4 : chunk))
    run_counted "Godot 4 chunk $k" "$out/godot4_$k" "${g4[@]}" godot4 "$n" $((seed + k))
    done4=$((done4 + n))
    k=$((k + 1))
done

k=0
done3=0
while [ "$done3" -lt "$n3" ]; do
    n=$((n3 - done3 < chunk ? n3 - done3 : chunk))
    s=$((seed + k))
    dir="$out/godot3_$k"
    mkdir -p "$dir"
    ok=1
    # 2,000 random values per chunk, each mutated many times.
    "$DEADLINE" -k 10 120 "${g3[@]}" --bases "$dir/bases.bin" 2000 "$s" >"$dir/bases.log" 2>&1
    grep -q '^differential3.gd: done$' "$dir/bases.log" || { tally 1 "Godot 3 chunk $k: encoding the values failed ($dir/bases.log)"; ok=0; }
    if [ "$ok" = 1 ]; then
        "$DEADLINE" -k 10 "$(limit "$n")" "${g4[@]}" mutate3 "$dir/bases.bin" "$dir/inputs.bin" "$n" "$s" \
            >"$dir/mutate.log" 2>&1 || { tally 1 "Godot 3 chunk $k: mutating failed ($dir/mutate.log)"; ok=0; }
    fi
    if [ "$ok" = 1 ]; then
        "$DEADLINE" -k 10 "$(limit "$n")" "${g3[@]}" --decode "$dir/inputs.bin" "$dir/results.bin" >"$dir/decode.log" 2>&1
        grep -q '^differential3.gd: done$' "$dir/decode.log" || { tally 1 "Godot 3 chunk $k: the Godot 3 engine did not finish decoding ($dir/decode.log)"; ok=0; }
    fi
    if [ "$ok" = 1 ]; then
        before=$failed
        run_counted "Godot 3 chunk $k" "$dir/compare" "${g4[@]}" compare3 "$dir/inputs.bin" "$dir/results.bin"
        # Inputs are kept only when they found something.
        if [ "$failed" -eq "$before" ]; then rm -f "$dir"/*.bin "$dir"/*.log; fi
    fi
    done3=$((done3 + n))
    k=$((k + 1))
done

k=0
donet=0
while [ "$donet" -lt "$nt" ]; do
    n=$((nt - donet < chunk ? nt - donet : chunk))
    run_counted "text chunk $k" "$out/text_$k" "${g4[@]}" text "$n" $((seed + k))
    donet=$((donet + n))
    k=$((k + 1))
done

echo "fuzz_differential.sh: $n4 Godot 4 and $n3 Godot 3 inputs and $nt texts from seed $seed in $((SECONDS - started)) s (logs: tests/out/fuzz_differential/)"
tally_end
