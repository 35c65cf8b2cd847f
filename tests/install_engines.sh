#!/usr/bin/env bash
# Installs the real headless engines the tests compare against, outside the repo, and prints
# shell assignments for GODOT4, GODOT3 (3.6) and GODOT32 (eval its output), and for the engine
# builds that no package offers when `../shared/engines/` has them (its README says how they were
# made): GODOT4_DOUBLE (Godot 4.6.3, precision=double), PANDEMONIUM4 (Pandemonium v4.9.0, the
# v3.8.0-v4.9.0 numbering) and PANDEMONIUM5 (v5.2.0). Those are empty when absent, and the tests
# that need them say they were not run, and why.
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
# The shared engine builds: FVC_SHARED_ENGINES, else ../shared/engines beside the checkout (or
# beside the main checkout, for a clone elsewhere on this machine).
shared=${FVC_SHARED_ENGINES:-}
if [ -z "$shared" ]; then
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    for d in "$here/../../shared/engines" /work/shared/engines; do
        if [ -d "$d" ]; then shared=$(cd "$d" && pwd); break; fi
    done
fi
shared_engine() { # variable file
    local preset=${!1:-}
    if [ -n "$preset" ]; then
        echo "$preset"
    elif [ -n "$shared" ] && [ -x "$shared/$2" ]; then
        echo "$shared/$2"
    fi
}
double=$(shared_engine GODOT4_DOUBLE godot-4.6.3-double)
if [ -n "$double" ] && [ -z "${GODOT4_DOUBLE:-}" ]; then
    # Its wrapper runs it through a sid root's loader: this cache's root.
    cat >"$bindir/godot4-double" <<W
#!/bin/sh
GODOT_SID_ROOT="$root" exec "$double" "\$@"
W
    chmod +x "$bindir/godot4-double"
    double="$bindir/godot4-double"
fi
echo "GODOT4_DOUBLE=$double"
echo "PANDEMONIUM4=$(shared_engine PANDEMONIUM4 pandemonium-v4.9.0-server)"
echo "PANDEMONIUM5=$(shared_engine PANDEMONIUM5 pandemonium-v5.2.0-server)"
echo "GODOT4=${GODOT4:-$bindir/godot4}"
echo "GODOT3=${GODOT3:-$bindir/godot36}"
echo "GODOT32=${GODOT32:-/usr/bin/godot3-server}"
