#!/usr/bin/env bash
# Checks that every crate of the workspace builds with the oldest Rust it declares.
#   bash tests/check_msrv.sh              the check; ends with "N passed, N failed"
#   bash tests/check_msrv.sh --self-test  the same check of the core declared one minor version
#                                         lower than it is must fail
#
# The declarations are read from the Cargo.toml files (`cargo metadata`: each member's
# rust-version). For each version V declared, the toolchain V is installed (rustup, minimal
# profile) and a lockfile is resolved for V by cargo's Rust-version-aware resolver (each
# dependency at its newest release that declares V or less) in a copy of the workspace whose
# members all declare V; the committed Cargo.lock is never touched. Then, in a copy of the
# workspace as it is with that lockfile, `cargo +V check --locked` for each crate that declares V:
# its default features, and for the core also every feature and every target (its tests,
# examples and benches with their dev-dependencies). What a check prints goes to
# tests/out/check_msrv/logs/; its first errors are shown when it fails.
#
# Needs rustup and the network (crates.io, rustup's server). The resolver runs with
# FVC_MSRV_RESOLVER_TOOLCHAIN (default stable, as installed: it is not updated; Rust 1.84 or later). The builds go to
# FVC_MSRV_TARGET_DIR (default tests/out/check_msrv/target), one directory per toolchain.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh

self_test=0
case "${1:-}" in
    "") ;;
    --self-test) self_test=1 ;;
    *) echo "usage: bash tests/check_msrv.sh [--self-test]" >&2; exit 2 ;;
esac

out=$(fvc_out_dir)
logs=$out/logs
rm -rf "$logs"; mkdir -p "$logs"
target_root=${FVC_MSRV_TARGET_DIR:-$out/target}
resolver=${FVC_MSRV_RESOLVER_TOOLCHAIN:-stable}
tally_init

# The checks beyond each member's default features: PACKAGE|CARGO CHECK ARGUMENTS. (The
# library with every feature: what a user builds; the tests and benches use newer tools.)
EXTRA_CHECKS=(
    "fast_var_codec_core|--all-features"
)

# install_toolchain V: rustup's toolchain V (idempotent); its output in the logs.
install_toolchain() {
    rustup toolchain install "$1" --profile minimal >"$logs/rustup-$1.log" 2>&1
}

# The resolver is the toolchain already there (never `rustup toolchain install stable`, which
# would update the machine's own stable toolchain under every other build).
if ! rustup run "$resolver" cargo --version >"$logs/resolver.log" 2>&1; then
    tally 1 "no toolchain $resolver for the resolver (${logs#"$root/"}/resolver.log)"
    tally_end
    exit
fi

# The members and what each declares: lines "NAME VERSION MANIFEST".
if ! members=$(cargo +"$resolver" metadata --format-version 1 --no-deps 2>"$logs/metadata.log" | python3 -c '
import json, sys
meta = json.load(sys.stdin)
members = set(meta["workspace_members"])
for p in meta["packages"]:
    if p["id"] in members:
        print(p["name"], p.get("rust_version") or "-", p["manifest_path"])
'); then
    tally 1 "cargo metadata (${logs#"$root/"}/metadata.log)"
    tally_end
    exit
fi

declare -A declared manifest
while read -r name version path; do
    if [ "$version" = - ]; then
        tally 1 "$name declares no rust-version"
        continue
    fi
    declared[$name]=$version
    manifest[$name]=$path
done <<<"$members"

core=fast_var_codec_core
if [ "$self_test" = 1 ]; then
    # One minor version below the core's declaration: the check must find what needs more.
    real=${declared[$core]}
    minor=${real#*.}
    minor=${minor%%.*}
    lowered="${real%%.*}.$((minor - 1))"
    echo "self-test: the core declared as $lowered instead of $real"
    declared=([$core]=$lowered)
fi

# copy_workspace DIR: the workspace's files as they are (tracked or new, not ignored) into DIR
# (its other files are left: the builds' fingerprints keep their paths and times).
copy_workspace() {
    mkdir -p "$1"
    git ls-files -z -c -o --exclude-standard -- Cargo.toml Cargo.lock README.md LICENSE docs rust \
        | python3 -c '
import os, sys
names = [n for n in sys.stdin.buffer.read().split(b"\0") if n and os.path.isfile(n)]
sys.stdout.buffer.write(b"\0".join(names))' \
        | tar -c --null -T - -f - | tar -x -C "$1" -f -
}

# set_rust_version MANIFEST VERSION: its package's (or workspace's) rust-version becomes VERSION.
set_rust_version() {
    python3 - "$1" "$2" <<'EOF'
import re, sys
path, version = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    text = f.read()
text, n = re.subn(r'(?m)^rust-version(\.workspace)?\s*=.*$', f'rust-version = "{version}"', text)
with open(path, "w", encoding="utf-8") as f:
    f.write(text)
EOF
}

# show_errors LOG: the first errors of a failed check.
show_errors() {
    grep -E -A5 '^error' "$1" | head -n 14 | cut -c1-200 | sed 's/^/    /'
}

mapfile -t versions < <(printf '%s\n' "${declared[@]}" | sort -uV)
for v in "${versions[@]}"; do
    if ! install_toolchain "$v"; then
        tally 1 "rustup toolchain install $v (${logs#"$root/"}/rustup-$v.log)"
        continue
    fi
    # The lockfile for V: every member declares V in this copy.
    resolve=$out/resolve-$v
    rm -rf "$resolve"
    copy_workspace "$resolve"
    for name in "${!manifest[@]}"; do
        set_rust_version "$resolve/${manifest[$name]#"$root/"}" "$v"
    done
    set_rust_version "$resolve/Cargo.toml" "$v"
    rm -f "$resolve/Cargo.lock"
    if ! (cd "$resolve" && CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback \
            cargo +"$resolver" generate-lockfile) >"$logs/resolve-$v.log" 2>&1; then
        tally 1 "resolve a lockfile for Rust $v (${logs#"$root/"}/resolve-$v.log)"
        show_errors "$logs/resolve-$v.log"
        continue
    fi
    # The workspace as it is, with that lockfile.
    ws=$out/workspace-$v
    copy_workspace "$ws"
    if [ "$self_test" = 1 ]; then set_rust_version "$ws/${manifest[$core]#"$root/"}" "$v"; fi
    cp "$resolve/Cargo.lock" "$ws/Cargo.lock"
    for name in "${!declared[@]}"; do
        [ "${declared[$name]}" = "$v" ] || continue
        checks=("")
        for extra in "${EXTRA_CHECKS[@]}"; do
            if [ "${extra%%|*}" = "$name" ]; then checks+=("${extra#*|}"); fi
        done
        for args in "${checks[@]}"; do
            label="$name${args:+ $args}"
            log="$logs/${v}_${name}${args:+_${args// /}}.log"
            start=$SECONDS
            # shellcheck disable=SC2086 # the arguments are words
            if (cd "$ws" && CARGO_TARGET_DIR="$target_root/$v" nice -n 10 \
                    cargo +"$v" check -p "$name" $args --locked) >"$log" 2>&1; then
                echo "PASS Rust $v: $label ($((SECONDS - start)) s)"
                tally 0
            else
                tally 1 "Rust $v: $label (${log#"$root/"})"
                show_errors "$log"
            fi
        done
    done
done

if [ "$self_test" = 1 ]; then
    # The check of the lowered declaration must have failed.
    p=$passed f=$failed
    tally_init
    echo "self-test: $p passed, $f failed with the lowered declaration"
    tally_check "the check passes the core declared as $lowered" test "$f" -gt 0
fi
tally_end
