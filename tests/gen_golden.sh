#!/usr/bin/env bash
# Regenerates the golden corpora under tests/golden/ from the real engines (about 10 s).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/golden/gen/godot4/run.sh"
bash "$here/golden/gen/godot3/run.sh"
bash "$here/golden/gen/classes/run.sh"
