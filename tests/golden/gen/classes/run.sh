#!/usr/bin/env bash
# Writes tests/golden/classes_<engine>.json: each engine's instantiable classes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
golden=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib.sh
source "$golden/../lib.sh"
need_engines GODOT3 GODOT32 GODOT4 --optional GODOT4_DOUBLE || exit 2
tmp=$(mktemp -d)
"$GODOT4" --headless --path "$here" -s res://classes4.gd -- "$golden/classes_godot4_6_3.json" >"$tmp/4.log" 2>&1
if [ -n "${GODOT4_DOUBLE:-}" ]; then
    "$GODOT4_DOUBLE" --headless --path "$here" -s res://classes4.gd -- "$golden/classes_godot4_6_3_double.json" >"$tmp/4d.log" 2>&1
else
    echo "no double-precision Godot 4.6.3 (../shared/engines): classes_godot4_6_3_double.json not regenerated" >&2
fi
mkdir -p "$tmp/p3" && echo 'config_version=4' >"$tmp/p3/project.godot" && cp "$here/classes3.gd" "$tmp/p3/"
"$GODOT3" --path "$tmp/p3" -s res://classes3.gd "$golden/classes_godot3_6_2.json" >"$tmp/36.log" 2>&1
"$GODOT32" --path "$tmp/p3" -s res://classes3.gd "$golden/classes_godot3_2_3.json" >"$tmp/32.log" 2>&1
for f in classes_godot4_6_3 classes_godot3_6_2 classes_godot3_2_3; do
    [ -s "$golden/$f.json" ] || { echo "no $f.json" >&2; exit 1; }
done
rm -rf "$tmp"
