#!/usr/bin/env bash
# Asks the real headless Godot 4 which Dictionary keys it merges on decode (dictionary_keys.gd)
# and checks the answers against the table the engine-free builder follows.
# Usage: tests/engine_probes/run.sh   (GODOT4 may be preset; otherwise install_engines.sh finds it)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/lib.sh
source "$repo/tests/lib.sh"
need_engines GODOT4 || exit 2
"$DEADLINE" -k 5 120 "$GODOT4" --headless --quit-after 5 --path "$here" -s res://dictionary_keys.gd 2>/dev/null
