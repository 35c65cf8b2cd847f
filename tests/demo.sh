#!/usr/bin/env bash
# The main job: build the addon and run the bundled demo scene in headless Godot 4.6.3.
# Installs the engine if needed (tests/install_engines.sh; progress in tests/out/install_engines/install.log;
# GODOT4 may be preset). Exit code 0 when the demo's checks hold.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=tests/lib.sh
source tests/lib.sh
need_engines GODOT4 || exit 2
bash tests/build_addon.sh
bash tests/setup_godot_project.sh
"$GODOT4" --headless --path godot_project res://demo/demo.tscn 2>"$(fvc_out_dir)/godot.stderr.log" \
    | grep -v -e '^Godot Engine v' -e '^Initialize godot-rust' -e '^$'
