#!/usr/bin/env bash
# Draws docs/images/saves_dock.png: the Godot 4.6.3 editor (not headless: under Xvfb, OpenGL on
# Mesa's software renderer) with the Saves dock open on a save Godot 3.6.2 compressed. Uses the
# project tests/run_dock_test.sh made (run it first). Not part of the test command.
#   bash tests/dock/screenshot.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib.sh
source "$repo/tests/lib.sh"
need_engines GODOT4 || exit 2
out="$repo/tests/out/run_dock_test"
[ -d "$out/project" ] || { echo "screenshot.sh: run tests/run_dock_test.sh first" >&2; exit 2; }
command -v xvfb-run >/dev/null || fvc_setup_locked apt-get install -y -q xvfb xauth libgl1-mesa-dri >/dev/null
export XDG_DATA_HOME="$out/data" XDG_CONFIG_HOME="$out/data/config" XDG_CACHE_HOME="$out/data/cache"
FVC_DOCK_SCREENSHOT="$repo/docs/images/saves_dock.png" xvfb-run -a -s "-screen 0 1600x900x24" \
    "$DEADLINE" -k 10 300 "$GODOT4" --editor --rendering-driver opengl3 --resolution 1600x900 \
    --path "$out/project" >"$out/screenshot.log" 2>&1
ls -l "$repo/docs/images/saves_dock.png"
