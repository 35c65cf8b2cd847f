#!/usr/bin/env bash
# Installs an old-glibc Debian root for testing the Python wheel where the oldest supported
# systems are: Debian 11 "bullseye" (glibc 2.31, CPython 3.9.2, pip 20.3.4) with python3-venv,
# python3-pip and godot3-server (3.2.3, the engine $GODOT32 is on this machine), made by
# mmdebstrap outside the repository, beside the engines' roots: $FVC_ENGINE_CACHE (default
# /var/cache/fast_var_codec)/bullseye-root. tests/run_wheel_tests.sh runs the wheel's tests in it
# (chroot, as root). Prints FVC_OLDGLIBC_ROOT=PATH (eval its output). Idempotent: a complete root
# is kept; a half-made one (ROOT.tmp) is made again. Mirror: FVC_OLDGLIBC_MIRROR (default
# Debian's main archive; bullseye moves to archive.debian.org once it leaves it). Needs network
# the first time (about 75 MB); progress goes to stderr.
# --arm64: also an arm64 bullseye root with python3-venv, unpacked only (mmdebstrap
# --variant=extract; about 30 MB), for running the aarch64 wheel under qemu-aarch64 -L:
# bullseye-arm64-root beside it; prints FVC_OLDGLIBC_ARM64_ROOT=PATH too.
#   bash tests/install_oldglibc.sh [--arm64]
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
source tests/lib.sh
cache=${FVC_ENGINE_CACHE:-/var/cache/fast_var_codec}
root=$cache/bullseye-root
arm64_root=$cache/bullseye-arm64-root
mirror=${FVC_OLDGLIBC_MIRROR:-http://deb.debian.org/debian}
arm64=0
case ${1:-} in
    --arm64) arm64=1 ;;
    "") ;;
    *) echo "usage: $0 [--arm64]" >&2; exit 2 ;;
esac
log() { echo "[install_oldglibc] $*" >&2; }

make_root() {
    # Under the setup lock, so that two callers never make it at once.
    [ -x "$root/usr/bin/python3" ] && [ -x "$root/usr/bin/godot3-server" ] && return 0
    if ! command -v mmdebstrap >/dev/null; then
        log "apt-get install mmdebstrap"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >&2
    fi
    log "creating Debian bullseye root with python3-venv, python3-pip and godot3-server in $root"
    mkdir -p "$cache"
    rm -rf "$root.tmp"
    mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
        --include=python3,python3-venv,python3-pip,godot3-server bullseye "$root.tmp" "$mirror" >&2
    rm -rf "$root"
    mv "$root.tmp" "$root"
}
if [ ! -x "$root/usr/bin/python3" ] || [ ! -x "$root/usr/bin/godot3-server" ]; then
    fvc_setup_locked bash -c "$(declare -f make_root log); root='$root' cache='$cache' mirror='$mirror' make_root"
fi
echo "FVC_OLDGLIBC_ROOT=$root"
make_arm64_root() {
    [ -x "$arm64_root/usr/bin/python3.9" ] && return 0
    log "creating Debian bullseye arm64 root with python3-venv (unpacked) in $arm64_root"
    rm -rf "$arm64_root.tmp"
    mmdebstrap --architectures=arm64 --variant=extract --aptopt='Acquire::Check-Valid-Until "false"' \
        --include=python3,python3-venv bullseye "$arm64_root.tmp" "$mirror" >&2
    rm -rf "$arm64_root"
    mv "$arm64_root.tmp" "$arm64_root"
}
if [ "$arm64" = 1 ]; then
    if [ ! -x "$arm64_root/usr/bin/python3.9" ]; then
        fvc_setup_locked bash -c "$(declare -f make_arm64_root log); arm64_root='$arm64_root' mirror='$mirror' make_arm64_root"
    fi
    echo "FVC_OLDGLIBC_ARM64_ROOT=$arm64_root"
fi
