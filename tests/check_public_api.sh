#!/usr/bin/env bash
# The core crate's public API against its snapshot, so that it cannot change by accident:
#   bash tests/check_public_api.sh          the check; ends with "N passed, N failed"
#   bash tests/check_public_api.sh --bless  rewrites the snapshot from the crate as it is
#
# The listing is cargo-public-api's (crates.io, pinned below; compiled once per machine into the
# tool cache, tests/lib.sh fvc_cargo_tool) of fast_var_codec_core with every feature, as docs.rs
# shows it: every public item, impl and trait implementation, but the blanket ones (`-s`). It
# reads rustdoc's JSON, which the machine's stable toolchain writes with RUSTC_BOOTSTRAP=1; a
# toolchain whose JSON format the pinned tool does not read fails here, naming both (pin the
# cargo-public-api release that reads it).
#
# Checks, each one line of the final count:
#   1. the listing equals rust/codec/public-api.txt; a difference is shown as a diff. A change
#      that is meant is recorded in CHANGELOG.md and docs/rust.md, and the snapshot rewritten
#      with --bless in the same commit;
#   2. self-test: the listing of a copy of the crate with one public function more differs from
#      the snapshot by exactly that function (else check 1 could pass on a listing that misses
#      changes).
# Builds go to $CARGO_TARGET_DIR (default target/), logs to tests/out/check_public_api/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh

tool_version=0.52.0 # reads rustdoc JSON format 57 (Rust 1.95)
snapshot=rust/codec/public-api.txt
bless=0
case "${1:-}" in
    "") ;;
    --bless) bless=1 ;;
    *) echo "usage: bash tests/check_public_api.sh [--bless]" >&2; exit 2 ;;
esac

out=$(fvc_out_dir)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
tally_init

if ! tool=$(fvc_cargo_tool cargo-public-api "$tool_version" cargo-public-api "$out/install.log"); then
    tally 1 "cargo install cargo-public-api $tool_version (${out#"$root/"}/install.log)"
    tail -n 20 "$out/install.log" | sed 's/^/    /'
    tally_end
    exit
fi

# list MANIFEST FILE: the public API of the core at MANIFEST into FILE; its log beside it.
list() {
    RUSTC_BOOTSTRAP=1 "$tool" public-api --manifest-path "$1" -p fast_var_codec_core \
        --all-features -s --color never >"$2" 2>"$2.log"
}

if ! list Cargo.toml "$out/listing.txt"; then
    tally 1 "cargo public-api of the core (${out#"$root/"}/listing.txt.log)"
    grep -E -m5 'error|format' "$out/listing.txt.log" | cut -c1-200 | sed 's/^/    /'
    tally_end
    exit
fi
if [ "$bless" = 1 ]; then
    cp "$out/listing.txt" "$snapshot"
    echo "wrote $snapshot ($(wc -l <"$snapshot") lines)"
    exit 0
fi

# 1: the snapshot.
if diff -u "$snapshot" "$out/listing.txt" >"$out/diff.txt"; then
    tally 0
    echo "the core's public API is its snapshot ($snapshot, $(wc -l <"$snapshot") items)"
else
    tally 1 "the core's public API differs from $snapshot (- snapshot, + now); record the change in CHANGELOG.md and docs/rust.md, then: bash tests/check_public_api.sh --bless"
    grep -E '^[-+][^-+]' "$out/diff.txt" | head -n 40 | sed 's/^/    /'
fi

# 2: self-test on a copy of the crate with one public function more.
copy=$out/copy
rm -rf "$copy"
mkdir -p "$copy"
cp -r Cargo.toml Cargo.lock README.md LICENSE docs "$copy/"
mkdir -p "$copy/rust"
cp -r rust/codec "$copy/rust/codec"
# Only the core is a member of the copy: the other crates are not needed to list it.
python3 - "$copy/Cargo.toml" <<'EOF'
import re, sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
text, n = re.subn(r'(?ms)^members\s*=\s*\[.*?\]', 'members = ["rust/codec"]', text)
if n != 1:
    sys.exit("no members list in the workspace's Cargo.toml")
open(path, "w", encoding="utf-8").write(text)
EOF
printf '\n/// A probe of tests/check_public_api.sh.\npub fn api_guard_probe() {}\n' >>"$copy/rust/codec/src/lib.rs"
if ! list "$copy/Cargo.toml" "$out/probe.txt"; then
    tally 1 "self-test: cargo public-api of the altered copy (${out#"$root/"}/probe.txt.log)"
    grep -E -m5 'error' "$out/probe.txt.log" | cut -c1-200 | sed 's/^/    /'
else
    added=$(diff "$out/listing.txt" "$out/probe.txt" | grep -E '^[<>]')
    if [ "$added" = "> pub fn fast_var_codec_core::api_guard_probe()" ]; then
        tally 0
    else
        tally 1 "self-test: a public function added to a copy of the crate changed the listing by: ${added:-nothing}"
    fi
fi

tally_end
