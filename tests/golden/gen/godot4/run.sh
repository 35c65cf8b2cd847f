#!/usr/bin/env bash
# Regenerates the Godot 4 golden corpora with real headless engines:
#   tests/golden/godot4_6_3.json         Godot 4.6.3 ($GODOT4)
#   tests/golden/godot4_6_3_double.json  Godot 4.6.3 built with precision=double ($GODOT4_DOUBLE,
#                                        from ../shared/engines; skipped, saying so, without it)
#   tests/golden/reals_godot4_6_3.json, reals_godot4_6_3_double.json: NaN bits in real_t
#                                        components (reals.gd), by the same two engines
# Usage: tests/golden/gen/godot4/run.sh   (from any directory; the variables may be preset)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
# shellcheck source=tests/lib.sh
source "$repo/tests/lib.sh"
need_engines GODOT4 || exit 2

generate() { # engine outfile [script]
    local engine=$1 out=$2 script=${3:-generate.gd} log tmp status=0
    log=$(mktemp "${TMPDIR:-/tmp}/godot4_golden_stderr.XXXXXX")
    tmp="$out.tmp"
    rm -f "$tmp"
    # The engine prints a lot of (expected) errors while decoding malformed input: keep them out
    # of the console. The generator itself exits non-zero when one of its self-checks fails (the
    # Descs must rebuild the engine's bytes) or when a GDScript error occurred.
    # --quit-after: if _init dies on a script error it never calls quit(); do not hang then.
    "$engine" --headless --quit-after 2 --path "$here" -s "res://$script" -- "$tmp" 2>"$log" || status=$?
    # A GDScript runtime error (e.g. a stack overflow, which a script Logger cannot see) would
    # leave holes in the output: refuse the result.
    if [ "$status" -eq 0 ] && grep -q '^SCRIPT ERROR' "$log"; then
        echo "run.sh: GDScript errors during generation (see $log)" >&2
        status=3
    fi
    if [ "$status" -ne 0 ] || [ ! -s "$tmp" ]; then
        echo "run.sh: the engine failed (exit $status) or wrote nothing; its stderr is in $log" >&2
        rm -f "$tmp"
        return 1
    fi
    mv "$tmp" "$out"
    if [ -n "${GOLDEN_KEEP_STDERR:-}" ]; then
        echo "wrote $out (engine stderr: $log)"
    else
        rm -f "$log"  # ~20 MB of expected decode errors; set GOLDEN_KEEP_STDERR=1 to keep it
        echo "wrote $out"
    fi
}

generate "$GODOT4" "$repo/tests/golden/godot4_6_3.json"
generate "$GODOT4" "$repo/tests/golden/reals_godot4_6_3.json" reals.gd
if [ -n "${GODOT4_DOUBLE:-}" ]; then
    generate "$GODOT4_DOUBLE" "$repo/tests/golden/godot4_6_3_double.json"
    generate "$GODOT4_DOUBLE" "$repo/tests/golden/reals_godot4_6_3_double.json" reals.gd
else
    echo "run.sh: no double-precision Godot 4.6.3 (../shared/engines): godot4_6_3_double.json not regenerated" >&2
fi
# How the engine's str_to_var reads the spellings of str_to_var_texts.json
# (rust/codec/tests/godot_text.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://str_to_var.gd -- \
    "$here/str_to_var_texts.json" "$repo/tests/golden/str_to_var_godot4_6_3.jsonl" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/str_to_var_godot4_6_3.jsonl"
# What the engine's var_to_str writes for each value of the corpus it decodes: the text the
# core's `Display` of `Value` must equal (rust/codec/tests/var_to_str.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://var_to_str.gd -- \
    "$repo/tests/golden/godot4_6_3.json" "$repo/tests/golden/var_to_str_godot4_6_3.jsonl" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/var_to_str_godot4_6_3.jsonl"
if [ -n "${GODOT4_DOUBLE:-}" ]; then
    "$GODOT4_DOUBLE" --headless --quit-after 2 --path "$here" -s res://var_to_str.gd -- \
        "$repo/tests/golden/godot4_6_3_double.json" "$repo/tests/golden/var_to_str_godot4_6_3_double.jsonl" \
        >/dev/null 2>&1 && echo "wrote $repo/tests/golden/var_to_str_godot4_6_3_double.jsonl"
fi
# What the engine's ConfigFile saves (plain and encrypted) and reads, and how ConfigFile.parse
# reads the texts of ../config_texts.json (rust/codec/tests/config_file.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://config.gd -- \
    "$repo/tests/golden/godot4_6_3.json" "$here/../config_texts.json" \
    "$repo/tests/golden/config_godot4_6_3.jsonl" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/config_godot4_6_3.jsonl"
# tres.gd: the text resources Godot 4 saves, of every value of the corpus and a save with
# sub-resources (rust/codec/tests/text_resource.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://tres.gd -- \
    "$repo/tests/golden/godot4_6_3.json" "$repo/tests/golden/tres_godot4_6_3.jsonl" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/tres_godot4_6_3.jsonl"
# packets.gd: what PackedByteArray.compress gives and decompress / decompress_dynamic give back
# (rust/codec/tests/packets.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://packets.gd -- \
    "$repo/tests/golden/packets_godot4_6_3.jsonl" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/packets_godot4_6_3.jsonl"
# json.gd: what JSON.stringify writes in every style, and how JSON.parse reads ../json_texts.json
# (rust/codec/tests/json_save.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://json.gd -- \
    "$here/../json_texts.json" "$repo/tests/golden/json_godot4_6_3.jsonl" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/json_godot4_6_3.jsonl"
# key_order.gd: how var_to_str orders the keys of 400 random Dictionaries of mixed key types
# (rust/codec/tests/var_to_str.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://key_order.gd -- \
    "$repo/tests/golden/key_order_godot4_6_3.jsonl" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/key_order_godot4_6_3.jsonl"
# reals_text.gd: how var_to_str writes 20,000 random reals (rust/codec/tests/reals_text.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://reals_text.gd -- \
    "$repo/tests/golden/var_to_str_reals_godot4_6_3.txt" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/var_to_str_reals_godot4_6_3.txt"
# reals_read.gd: how str_to_var reads those texts back (rust/codec/tests/reals_text.rs).
"$GODOT4" --headless --quit-after 2 --path "$here" -s res://reals_read.gd -- \
    "$repo/tests/golden/var_to_str_reals_godot4_6_3.txt" \
    "$repo/tests/golden/str_to_var_reals_godot4_6_3.txt" >/dev/null 2>&1 \
    && echo "wrote $repo/tests/golden/str_to_var_reals_godot4_6_3.txt"
