#!/usr/bin/env bash
# Installs what building and running the extension for Linux arm64 (aarch64) on this x86_64
# machine needs, and prints shell assignments (eval its output):
#   FVC_ARM64_ROOT    a Debian sid arm64 root holding Godot 4.6.3 (package godot) and its
#                     dependencies, unpacked only (mmdebstrap --variant=extract: no maintainer
#                     script runs, so no arm64 code runs while it is made)
#   FVC_ARM64_RUN     a wrapper that runs an arm64 program of this machine (a cargo test binary)
#                     under qemu-aarch64 with that root's libraries, through the root's own
#                     dynamic loader (no binfmt_misc needed): cargo's runner
#   GODOT4_ARM64      a wrapper that runs the root's Godot 4.6.3 the same way
# and installs, when missing: qemu-user (qemu-aarch64), gcc-aarch64-linux-gnu (the linker rustc
# names for aarch64-unknown-linux-gnu) and its C library libc6-dev-arm64-cross with apt, and Rust's std for aarch64-unknown-linux-gnu with
# rustup. Honours GODOT4_ARM64 when already set. Cache: $FVC_ENGINE_CACHE (default
# /var/cache/fast_var_codec), beside tests/install_engines.sh's amd64 root. Idempotent; progress
# goes to stderr. About 30 s from scratch once the packages are downloaded (the root: 490 MB).
set -euo pipefail
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/lib.sh"
cache=${FVC_ENGINE_CACHE:-/var/cache/fast_var_codec}
root="$cache/sid-arm64-root"
bindir="$cache/bin"
target=aarch64-unknown-linux-gnu
mkdir -p "$cache" "$bindir"
log() { echo "[install_arm64] $*" >&2; }

apt_updated=0
apt_install() {
    if [ "$apt_updated" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive fvc_setup_locked apt-get update -qq >&2 || true
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive fvc_setup_locked apt-get install -y -qq --no-install-recommends "$@" >&2
}

command -v qemu-aarch64 >/dev/null || { log "installing qemu-user (apt)"; apt_install qemu-user; }
command -v aarch64-linux-gnu-gcc >/dev/null || { log "installing gcc-aarch64-linux-gnu (apt)"; apt_install gcc-aarch64-linux-gnu; }
command -v aarch64-linux-gnu-readelf >/dev/null || apt_install binutils-aarch64-linux-gnu
# The cross C library (crti.o, libc.so for linking) is only a Recommends of the cross gcc, which
# apt_install leaves out: without it every link for aarch64 fails with "cannot find crti.o".
[ -f /usr/aarch64-linux-gnu/lib/crti.o ] || { log "installing libc6-dev-arm64-cross (apt)"; apt_install libc6-dev-arm64-cross; }
if ! compgen -G "$(rustc --print target-libdir --target "$target" 2>/dev/null)/libstd-*.rlib" >/dev/null; then
    log "rustup target add $target"
    fvc_setup_locked timeout 600 rustup target add "$target" >&2
fi

loader=/usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1
if [ ! -x "$root/usr/bin/godot" ] || [ ! -e "$root$loader" ]; then
    command -v mmdebstrap >/dev/null || apt_install mmdebstrap
    log "creating a Debian sid arm64 root with godot in $root"
    rm -rf "$root.tmp"
    mmdebstrap --architectures=arm64 --variant=extract \
        --aptopt='Acquire::Check-Valid-Until "false"' --include=godot sid "$root.tmp" >&2
    # The merged-/usr links a configured root has (the programs name /lib/ld-linux-aarch64.so.1).
    for d in lib bin sbin; do [ -e "$root.tmp/$d" ] || ln -s "usr/$d" "$root.tmp/$d"; done
    rm -rf "$root"
    mv "$root.tmp" "$root"
fi

# qemu-aarch64 -L ROOT: the guest's absolute paths are looked up under ROOT first (then as they are).
libs="$root/usr/lib/aarch64-linux-gnu:$root/usr/lib/aarch64-linux-gnu/pulseaudio"
cat >"$bindir/arm64-run" <<W
#!/bin/sh
# Runs an arm64 program under qemu-aarch64 with $root's libraries (tests/install_arm64.sh).
exec qemu-aarch64 -L "$root" "$root$loader" --library-path "$libs" "\$@"
W
chmod +x "$bindir/arm64-run"
cat >"$bindir/godot4-arm64" <<W
#!/bin/sh
# Godot 4.6.3 for arm64 (Debian's package) under qemu-aarch64 (tests/install_arm64.sh).
exec "$bindir/arm64-run" "$root/usr/bin/godot" "\$@"
W
chmod +x "$bindir/godot4-arm64"
echo "FVC_ARM64_ROOT=$root"
echo "FVC_ARM64_RUN=$bindir/arm64-run"
echo "GODOT4_ARM64=${GODOT4_ARM64:-$bindir/godot4-arm64}"
