#!/usr/bin/env bash
# Speed of the npm package (rust/wasm) against @msgpack/msgpack, @gd-com/utils and JSON (rust/wasm/bench/bench.mjs:
# what is timed and how). Not a test: no thresholds, exit 1 only when a build, an install or a
# correctness check fails.
#   bash tests/bench_npm.sh [--no-build] [--baseline TARBALL] [bench.mjs's options, e.g. --rounds 15]
# 1. Builds and packs the package with tests/build_npm.sh (log tests/out/bench_npm/build.log);
#    --no-build takes the tarball of the last build (dist/fast-var-codec-VERSION.tgz).
# 2. Installs the tarball, @msgpack/msgpack and @gd-com/utils (pinned below; the latter writes
#    the Godot 3 dialect only) with `npm install` into a fresh folder, tests/out/bench_npm/app/.
# 3. Runs bench.mjs there under nice -n 10 and writes tests/out/bench_npm/bench_npm.txt, .json
#    and .md (the tables for rust/wasm/README.md and docs/performance.md). The commit named is
#    HEAD's when the tarball was built, marked "+changes" when rust/ (its .md files aside) or the
#    Cargo files differed from it (the package is built from the work tree).
# --baseline TARBALL: another build of the package (an earlier commit's tests/build_npm.sh
# output) is unpacked beside it as fvc-baseline and timed in the same rounds: a before → after
# table, the change's effect within one run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
out=$(fvc_out_dir)
gdcom_pin="@gd-com/utils@5.0.0"
msgpack_pin="@msgpack/msgpack@3.1.3"
build=1
baseline=
args=()
while [ $# -gt 0 ]; do
    case $1 in
        --no-build) build=0 ;;
        --baseline) baseline=$(realpath "${2:?--baseline TARBALL}"); shift ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) args+=("$1") ;;
    esac
    shift
done
version=$(bash tests/version.sh) || exit 1
tarball=$fvc_root/dist/fast-var-codec-$version.tgz

if [ "$build" = 1 ]; then
    echo "=== the package (tests/build_npm.sh; log: ${out#"$fvc_root/"}/build.log)"
    commit=$(git rev-parse --short HEAD)
    git diff --quiet HEAD -- rust ':!*.md' Cargo.lock Cargo.toml || commit="$commit+changes"
    if ! bash tests/build_npm.sh >"$out/build.log" 2>&1; then
        tail -n 20 "$out/build.log"
        echo "bench_npm.sh: the package did not build" >&2
        exit 1
    fi
    echo "$commit" >"$out/commit.txt"
fi
[ -f "$tarball" ] || { echo "bench_npm.sh: no ${tarball#"$fvc_root/"} (run without --no-build)" >&2; exit 1; }

echo "=== npm install ${tarball#"$fvc_root/"} $gdcom_pin $msgpack_pin into a fresh folder"
app=$out/app
rm -rf "$app"
mkdir -p "$app"
printf '{\n  "name": "fvc-npm-bench",\n  "private": true,\n  "type": "module"\n}\n' >"$app/package.json"
if ! (cd "$app" && npm install --no-audit --no-fund --loglevel=error "$tarball" "$gdcom_pin" "$msgpack_pin") \
        >"$out/npm_install.log" 2>&1; then
    tail -n 20 "$out/npm_install.log"
    exit 1
fi
cp rust/wasm/bench/*.mjs "$app/"
if [ -n "$baseline" ]; then
    echo "=== the baseline ${baseline#"$fvc_root/"} as fvc-baseline"
    mkdir -p "$app/node_modules/fvc-baseline"
    tar -xzf "$baseline" -C "$app/node_modules/fvc-baseline" --strip-components=1 || exit 1
    sed -i 's/"name": "fast-var-codec"/"name": "fvc-baseline"/' "$app/node_modules/fvc-baseline/package.json"
    args+=(--baseline fvc-baseline)
    export FVC_BENCH_BASELINE_LABEL=${baseline##*/}
fi

commit=$(cat "$out/commit.txt" 2>/dev/null || echo unknown)
echo "=== rust/wasm/bench/bench.mjs (commit $commit; $(uptime))"
rm -f "$out"/bench_npm.txt "$out"/bench_npm.json "$out"/bench_npm.md
(cd "$app" && FVC_BENCH_COMMIT=$commit nice -n 10 node bench.mjs --json "$out/bench_npm.json" \
    --markdown "$out/bench_npm.md" "${args[@]}") | tee "$out/bench_npm.txt"
status=${PIPESTATUS[0]}
echo "(after: $(uptime))"
[ -f "$out/bench_npm.md" ] && echo "-> ${out#"$fvc_root/"}/bench_npm.txt, .json, .md"
exit "$status"
