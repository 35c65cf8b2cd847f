#!/usr/bin/env bash
# Regenerates the Godot 3 golden files with the real engines:
#   tests/golden/godot3_6_2.json  (Godot 3.6.2, $GODOT3)
#   tests/golden/godot3_2_3.json  (Godot 3.2.3, $GODOT32)
#   tests/golden/reals_godot3_6_2.json, reals_godot3_2_3.json: NaN bits in real_t components
#                                 (reals.gd), by the same two engines
#   tests/golden/var2str_godot3_6_2.jsonl: var2str of every value of godot3_6_2.json (var2str.gd)
#   tests/golden/key_order_godot3_6_2.jsonl: var2str of 400 random Dictionaries of mixed key
#                                 types (key_order.gd)
# Works from any cwd. The engines' stderr goes to temporary files, which generate.gd reads
# back to learn decode error codes (see the comment at the top of generate.gd).
# Exits non-zero if an engine failed to write its file.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out_dir="$repo/tests/golden"
# shellcheck source=tests/lib.sh
source "$repo/tests/lib.sh"
need_engines GODOT3 GODOT32 || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fvc_golden3.XXXXXX")
status=0
run_one() { # label engine outfile
    local label=$1 engine=$2 out=$3
    local err="$tmp/$label.stderr" log="$tmp/$label.stdout"
    rm -f "$out.tmp.json"
    "$engine" --no-window --path "$here" -s res://generate.gd "$out.tmp.json" "--stderr=$err" \
        >"$log" 2>"$err"
    local rc=$?
    grep -E '^(WARNING: |Godot|[0-9]+\.[0-9]+\.[0-9]+-stable.*cases)' "$log" | grep -v '^Godot Engine' >&2
    if [ $rc -ne 0 ] || [ ! -s "$out.tmp.json" ]; then
        echo "[godot3 golden] $label: engine failed (exit $rc); stderr kept in $err" >&2
        rm -f "$out.tmp.json"
        status=1
        return
    fi
    mv "$out.tmp.json" "$out"
    echo "[godot3 golden] $label: wrote $out" >&2
}
# reals.gd ends its output with "reals.gd: done" (Godot 3's quit() sets no exit code).
reals() { # label engine outfile
    local label=$1 engine=$2 out=$3 log="$tmp/$1.reals.log"
    rm -f "$out.tmp.json"
    "$engine" --no-window --path "$here" -s res://reals.gd "$out.tmp.json" >"$log" 2>&1
    if ! grep -q '^reals.gd: done$' "$log" || [ ! -s "$out.tmp.json" ]; then
        echo "[godot3 golden] $label: reals.gd failed; its output is in $log" >&2
        rm -f "$out.tmp.json"
        status=1
        return
    fi
    mv "$out.tmp.json" "$out"
    echo "[godot3 golden] $label: wrote $out" >&2
}
# var2str.gd ends its output with "var2str.gd: done", after the corpus it reads is written.
var2str() { # label engine corpus outfile
    local label=$1 engine=$2 corpus=$3 out=$4 log="$tmp/$1.var2str.log"
    rm -f "$out.tmp.jsonl"
    "$engine" --no-window --path "$here" -s res://var2str.gd "$corpus" "$out.tmp.jsonl" >"$log" 2>&1
    if ! grep -q '^var2str.gd: done$' "$log" || [ ! -s "$out.tmp.jsonl" ]; then
        echo "[godot3 golden] $label: var2str.gd failed; its output is in $log" >&2
        rm -f "$out.tmp.jsonl"
        status=1
        return
    fi
    mv "$out.tmp.jsonl" "$out"
    echo "[godot3 golden] $label: wrote $out" >&2
}
run_one godot3_6_2 "$GODOT3" "$out_dir/godot3_6_2.json"
run_one godot3_2_3 "$GODOT32" "$out_dir/godot3_2_3.json"
reals godot3_6_2 "$GODOT3" "$out_dir/reals_godot3_6_2.json"
reals godot3_2_3 "$GODOT32" "$out_dir/reals_godot3_2_3.json"
var2str godot3_6_2 "$GODOT3" "$out_dir/godot3_6_2.json" "$out_dir/var2str_godot3_6_2.jsonl"
# reals_read.gd ends its output with "reals_read.gd: done": how str2var reads the texts of
# Godot 4.6.3's reals (rust/codec/tests/reals_text.rs).
log="$tmp/reals_read.log"
"$GODOT3" --no-window --path "$here" -s res://reals_read.gd "$out_dir/var_to_str_reals_godot4_6_3.txt" \
    "$out_dir/str2var_reals_godot3_6_2.txt.tmp" >"$log" 2>&1
if grep -q '^reals_read.gd: done$' "$log"; then
    mv "$out_dir/str2var_reals_godot3_6_2.txt.tmp" "$out_dir/str2var_reals_godot3_6_2.txt"
    echo "[godot3 golden] wrote $out_dir/str2var_reals_godot3_6_2.txt" >&2
else
    echo "[godot3 golden] reals_read.gd failed; its output is in $log" >&2
    status=1
fi
# key_order.gd ends its output with "key_order.gd: done": how var2str orders the keys of 400
# random Dictionaries (rust/codec/tests/godot_text.rs).
log="$tmp/key_order.log"
"$GODOT3" --no-window --path "$here" -s res://key_order.gd "$out_dir/key_order_godot3_6_2.jsonl.tmp.jsonl" \
    >"$log" 2>&1
if grep -q '^key_order.gd: done$' "$log"; then
    mv "$out_dir/key_order_godot3_6_2.jsonl.tmp.jsonl" "$out_dir/key_order_godot3_6_2.jsonl"
    echo "[godot3 golden] wrote $out_dir/key_order_godot3_6_2.jsonl" >&2
else
    echo "[godot3 golden] key_order.gd failed; its output is in $log" >&2
    status=1
fi
# config.gd ends its output with "config.gd: done": Godot 3's ConfigFile, as config.gd says.
log="$tmp/config.log"
"$GODOT3" --no-window --path "$here" -s res://config.gd "$out_dir/godot3_6_2.json" \
    "$here/../config_texts.json" "$out_dir/config_godot3_6_2.jsonl.tmp.jsonl" >"$log" 2>&1
if grep -q '^config.gd: done$' "$log"; then
    mv "$out_dir/config_godot3_6_2.jsonl.tmp.jsonl" "$out_dir/config_godot3_6_2.jsonl"
    echo "[godot3 golden] wrote $out_dir/config_godot3_6_2.jsonl" >&2
else
    echo "[godot3 golden] config.gd failed; its output is in $log" >&2
    status=1
fi
# tres.gd ends its output with "tres.gd: done": the text resources Godot 3 saves, as tres.gd says.
log="$tmp/tres.log"
"$GODOT3" --no-window --path "$here" -s res://tres.gd "$out_dir/godot3_6_2.json" \
    "$out_dir/tres_godot3_6_2.jsonl.tmp.jsonl" >"$log" 2>&1
if grep -q '^tres.gd: done$' "$log"; then
    mv "$out_dir/tres_godot3_6_2.jsonl.tmp.jsonl" "$out_dir/tres_godot3_6_2.jsonl"
    echo "[godot3 golden] wrote $out_dir/tres_godot3_6_2.jsonl" >&2
else
    echo "[godot3 golden] tres.gd failed; its output is in $log" >&2
    status=1
fi
# packets.gd ends its output with "packets.gd: done": what PoolByteArray.compress gives and
# decompress / decompress_dynamic give back, as packets.gd says.
log="$tmp/packets.log"
"$GODOT3" --no-window --path "$here" -s res://packets.gd "$out_dir/packets_godot3_6_2.jsonl.tmp.jsonl" >"$log" 2>&1
if grep -q '^packets.gd: done$' "$log"; then
    mv "$out_dir/packets_godot3_6_2.jsonl.tmp.jsonl" "$out_dir/packets_godot3_6_2.jsonl"
    echo "[godot3 golden] wrote $out_dir/packets_godot3_6_2.jsonl" >&2
else
    echo "[godot3 golden] packets.gd failed; its output is in $log" >&2
    status=1
fi
# json.gd ends its output with "json.gd: done": what JSON.print writes in every style, and how
# JSON.parse reads ../json_texts.json (rust/codec/tests/json_save.rs).
log="$tmp/json.log"
"$GODOT3" --no-window --path "$here" -s res://json.gd "$here/../json_texts.json" \
    "$out_dir/json_godot3_6_2.jsonl.tmp.jsonl" >"$log" 2>&1
if grep -q '^json.gd: done$' "$log"; then
    mv "$out_dir/json_godot3_6_2.jsonl.tmp.jsonl" "$out_dir/json_godot3_6_2.jsonl"
    echo "[godot3 golden] wrote $out_dir/json_godot3_6_2.jsonl" >&2
else
    echo "[godot3 golden] json.gd failed; its output is in $log" >&2
    status=1
fi
if [ $status -eq 0 ]; then rm -rf "$tmp"; fi
exit $status
