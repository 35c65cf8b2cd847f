#!/usr/bin/env bash
# Installs the Python-packaged build tools the macOS build needs into the project's own tool
# directory, .tools/ at the repository's root (git-ignored), never system-wide:
#   ziglang         zig, the C toolchain and linker for Apple targets (no Apple SDK needed)
#   cargo-zigbuild  cargo build with zig as the linker; makes universal2-apple-darwin (lipo)
#   lief            a maintained Mach-O parser, for tests/macos/check_macho.py
# Prints shell assignments (eval its output): FVC_TOOLS_PYTHONPATH (for PYTHONPATH), FVC_TOOLS_BIN
# (for PATH). Idempotent: a tool already at its pinned version is not installed again. Progress
# goes to stderr. Needs pip (python3 -m pip) and PyPI.
#   bash tests/install_tools.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/.tools
py=$tools/python
# Pinned versions: a fresh machine gets what the checks were written against.
pins=(ziglang==0.15.2 cargo-zigbuild==0.24.1 lief==0.17.6)
log() { echo "[install_tools] $*" >&2; }
mkdir -p "$py"
missing=()
for pin in "${pins[@]}"; do
    name=${pin%%==*} version=${pin#*==}
    # pip's record of an installed distribution: NAME-VERSION.dist-info (name with _ for -).
    if ! compgen -G "$py/${name//-/_}-$version.dist-info" >/dev/null; then missing+=("$pin"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
    log "pip install --target .tools/python ${missing[*]}"
    python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
        --upgrade --target "$py" "${missing[@]}" >&2
fi
# pip --target puts console scripts in $py/bin; cargo-zigbuild's wheel ships its binary there too.
[ -x "$py/bin/cargo-zigbuild" ] || { log "no cargo-zigbuild in $py/bin"; exit 1; }
PYTHONPATH=$py python3 -c 'import ziglang, lief' >&2 || { log "ziglang or lief does not import"; exit 1; }
echo "FVC_TOOLS_PYTHONPATH=$py"
echo "FVC_TOOLS_BIN=$py/bin"
