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
# engine_script LABEL ENGINE SCRIPT OUTFILE [ARG...]: runs res://SCRIPT with the ARGs and then a
# temporary OUTFILE (OUTFILE.tmp.<its extension>: the scripts find their output by its position
# or extension), which replaces OUTFILE once the script printed "SCRIPT: done" (Godot 3's quit()
# sets no exit code) and wrote something; its output goes to $tmp/LABEL.SCRIPT.log.
engine_script() {
    local label=$1 engine=$2 script=$3 out=$4
    shift 4
    local part="$out.tmp.${out##*.}" log="$tmp/$label.${script%.gd}.log"
    rm -f "$part"
    "$engine" --no-window --path "$here" -s "res://$script" "$@" "$part" >"$log" 2>&1
    if ! grep -q "^$script: done\$" "$log" || [ ! -s "$part" ]; then
        echo "[godot3 golden] $label: $script failed; its output is in $log" >&2
        rm -f "$part"
        status=1
        return
    fi
    mv "$part" "$out"
    echo "[godot3 golden] $label: wrote $out" >&2
}
run_one godot3_6_2 "$GODOT3" "$out_dir/godot3_6_2.json"
run_one godot3_2_3 "$GODOT32" "$out_dir/godot3_2_3.json"
# reals.gd: NaN bits in real_t components.
engine_script godot3_6_2 "$GODOT3" reals.gd "$out_dir/reals_godot3_6_2.json"
engine_script godot3_2_3 "$GODOT32" reals.gd "$out_dir/reals_godot3_2_3.json"
# var2str.gd: var2str of every value of the corpus, after the corpus it reads is written.
engine_script godot3_6_2 "$GODOT3" var2str.gd "$out_dir/var2str_godot3_6_2.jsonl" "$out_dir/godot3_6_2.json"
# reals_read.gd: how str2var reads the texts of Godot 4.6.3's reals (rust/codec/tests/reals_text.rs).
engine_script godot3_6_2 "$GODOT3" reals_read.gd "$out_dir/str2var_reals_godot3_6_2.txt" \
    "$out_dir/var_to_str_reals_godot4_6_3.txt"
# key_order.gd: how var2str orders the keys of 400 random Dictionaries (rust/codec/tests/godot_text.rs).
engine_script godot3_6_2 "$GODOT3" key_order.gd "$out_dir/key_order_godot3_6_2.jsonl"
# config.gd: Godot 3's ConfigFile, as config.gd says.
engine_script godot3_6_2 "$GODOT3" config.gd "$out_dir/config_godot3_6_2.jsonl" \
    "$out_dir/godot3_6_2.json" "$here/../config_texts.json"
# tres.gd: the text resources Godot 3 saves, as tres.gd says.
engine_script godot3_6_2 "$GODOT3" tres.gd "$out_dir/tres_godot3_6_2.jsonl" "$out_dir/godot3_6_2.json"
# packets.gd: what PoolByteArray.compress gives and decompress / decompress_dynamic give back, as
# packets.gd says.
engine_script godot3_6_2 "$GODOT3" packets.gd "$out_dir/packets_godot3_6_2.jsonl"
# json.gd: what JSON.print writes in every style, and how JSON.parse reads ../json_texts.json
# (rust/codec/tests/json_save.rs).
engine_script godot3_6_2 "$GODOT3" json.gd "$out_dir/json_godot3_6_2.jsonl" "$here/../json_texts.json"
if [ $status -eq 0 ]; then rm -rf "$tmp"; fi
exit $status
