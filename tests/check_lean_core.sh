#!/usr/bin/env bash
# The core for a network-only server: `--no-default-features --features tokio` (no file
# containers, no stack growing) must need no C compiler and name no encryption crate.
#   bash tests/check_lean_core.sh   ends with "N passed, N failed"
#
# Checks, each one line of the final count:
#   1. `cargo tree -e normal` of that build names none of the crates the `files` and
#      `grow-stack` features bring (aes, md-5, cfb-mode, getrandom, stacker, psm);
#   2. `cargo check` of that build succeeds with every C compiler the `cc` crate could find
#      replaced by /bin/false (CC, TARGET_CC, HOST_CC and CC_<host triple>; the linker rustc
#      uses for build scripts is not the `cc` crate's, so it stays);
#   3. the same check with `grow-stack` on must fail in psm's build script: the replaced
#      compiler is really asked for when a crate needs one (else check 2 would prove nothing);
#   4. check 2's build gives no warning (it is a network-only server's whole build of the core).
# Builds go to $CARGO_TARGET_DIR (default target/), logs to tests/out/check_lean_core/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh

out=$(fvc_out_dir)
tally_init
lean=(-p fast_var_codec_core --no-default-features --features tokio)
host=$(rustc -vV | sed -n 's/^host: //p')
# Every variable by which the cc crate picks a C compiler for the host (the target here).
no_cc=(env CC=/bin/false TARGET_CC=/bin/false HOST_CC=/bin/false
    "CC_$host=/bin/false" "CC_${host//-/_}=/bin/false")

if cargo tree -e normal "${lean[@]}" >"$out/tree.log" 2>&1; then
    heavy=$(grep -E '(^|[ ─])(aes|md-5|cfb-mode|getrandom|stacker|psm) v' "$out/tree.log")
    if [ -n "$heavy" ]; then
        tally 1 "the lean core's dependencies name crates of files or grow-stack:"
        echo "$heavy" | sed 's/^/    /'
    else
        tally 0
    fi
else
    tally 1 "cargo tree of the lean core (${out#"$root/"}/tree.log)"
fi

# 2: without a C compiler.
if "${no_cc[@]}" cargo check "${lean[@]}" >"$out/check.log" 2>&1; then
    tally 0
else
    tally 1 "cargo check of the lean core without a C compiler (${out#"$root/"}/check.log)"
    tail -n 20 "$out/check.log" | sed 's/^/    /'
fi
# 4: cargo replays a cached build's warnings, so the log has them whether or not it compiled.
if grep -q '^warning' "$out/check.log"; then
    tally 1 "the lean core builds with warnings (${out#"$root/"}/check.log)"
    grep -A5 '^warning' "$out/check.log" | head -n 30 | sed 's/^/    /'
else
    tally 0
fi

# 3: grow-stack brings psm, whose build script must fail on the replaced compiler.
if "${no_cc[@]}" cargo check "${lean[@]}" --features grow-stack >"$out/self_test.log" 2>&1; then
    tally 1 "self-test: with grow-stack the check built without a C compiler; it cannot tell (${out#"$root/"}/self_test.log)"
elif grep -q 'psm' "$out/self_test.log"; then
    tally 0
else
    tally 1 "self-test: with grow-stack the check failed, but not in psm (${out#"$root/"}/self_test.log)"
    tail -n 20 "$out/self_test.log" | sed 's/^/    /'
fi

tally_end
