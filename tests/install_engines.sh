#!/usr/bin/env bash
# Installs the real headless engines the tests compare against, outside the repo, and prints
# shell assignments for GODOT4, GODOT36 and GODOT32 (eval its output).
#   Godot 4.6.3 and 3.6.2: Debian sid packages in a separate root (they need a newer glibc),
#                          run through that root's own dynamic loader.
#   Godot 3.2.3:           this machine's own Debian package godot3-server.
# Honours GODOT4 / GODOT3 (3.6) / GODOT32 when already set. Cache: $FVC_ENGINE_CACHE
# (default /var/cache/fast_var_codec). Idempotent; progress goes to stderr.
set -euo pipefail
cache=${FVC_ENGINE_CACHE:-/var/cache/fast_var_codec}
root="$cache/sid-root"
bindir="$cache/bin"
mkdir -p "$cache" "$bindir"
log() { echo "[install_engines] $*" >&2; }

apt_updated=0
apt_install() {
    if [ "$apt_updated" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || true
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

# A wrapper that runs a binary of the sid root through that root's loader.
make_wrapper() { # name binary
    cat >"$bindir/$1" <<W
#!/bin/sh
exec "$root/usr/lib64/ld-linux-x86-64.so.2" --library-path "$root/usr/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu/pulseaudio" "$root$2" "\$@"
W
    chmod +x "$bindir/$1"
}

if [ -z "${GODOT4:-}" ] || [ -z "${GODOT3:-}" ]; then
    if [ ! -x "$root/usr/bin/godot" ] || [ ! -x "$root/usr/bin/godot3-server" ]; then
        command -v mmdebstrap >/dev/null || apt_install mmdebstrap
        log "creating Debian sid root with godot and godot3-server in $root"
        rm -rf "$root.tmp"
        mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
            --include=godot,godot3-server sid "$root.tmp" >&2
        rm -rf "$root"
        mv "$root.tmp" "$root"
    fi
    make_wrapper godot4 /usr/bin/godot
    make_wrapper godot36 /usr/bin/godot3-server
fi
if [ -z "${GODOT32:-}" ]; then
    if [ ! -x /usr/bin/godot3-server ]; then
        log "installing this release's godot3-server (3.2.3)"
        apt_install godot3-server
    fi
fi
echo "GODOT4=${GODOT4:-$bindir/godot4}"
echo "GODOT3=${GODOT3:-$bindir/godot36}"
echo "GODOT32=${GODOT32:-/usr/bin/godot3-server}"
