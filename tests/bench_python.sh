#!/usr/bin/env bash
# Speed of the Python package (rust/python) against gdtype-python, msgpack and json
# (tests/bench_python.py: what is timed and how). Not a test: no thresholds, exit 1 only when a
# build or a correctness check fails.
#   bash tests/bench_python.sh [--no-build] [bench_python.py's options, e.g. --rounds 9]
# 1. Builds the wheel as tests/run_python_tests.sh does (maturin from tests/install_tools.sh
#    python, --release; log tests/out/bench_python/maturin.log); --no-build reuses the wheel of
#    the last run.
# 2. Makes a fresh venv in tests/out/bench_python/venv with the wheel and $FVC_PYTHON_BENCH_PINS
#    (msgpack, numpy; pinned in tests/install_tools.sh).
# 3. gdtype-python is not on PyPI: FVC_GDTYPE_SRC names a directory holding its package gdtype/
#    (a checkout's src/), and FVC_GDTYPE_REV what it is (its commit); without it the gdtype column
#    is left out.
# 4. Runs the script under nice -n 10, the load average printed before and after, and writes
#    tests/out/bench_python/bench_python.txt, .json and .md (the tables for docs/python.md). The
#    commit named is HEAD's when the wheel was built, marked "+changes" when rust/ or the Cargo
#    files differed from it (the wheel is built from the work tree).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
out=$(fvc_out_dir)
build=1
args=()
for arg in "$@"; do
    case $arg in
        --no-build) build=0 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) args+=("$arg") ;;
    esac
done
tools=$(bash tests/install_tools.sh python) || { echo "bench_python.sh: tests/install_tools.sh python failed" >&2; exit 1; }
eval "$tools"

if [ "$build" = 1 ]; then
    echo "=== the wheel (maturin build --release; log: ${out#"$fvc_root/"}/maturin.log)"
    rm -rf "$out/wheel"
    commit=$(git rev-parse --short HEAD)
    git diff --quiet HEAD -- rust Cargo.lock Cargo.toml || commit="$commit+changes"
    if ! nice -n 10 "$FVC_MATURIN" build --release -m rust/python/Cargo.toml -o "$out/wheel" -i python3 \
            >"$out/maturin.log" 2>&1; then
        tail -n 20 "$out/maturin.log"
        echo "bench_python.sh: the wheel did not build" >&2
        exit 1
    fi
    echo "$commit" >"$out/wheel/commit.txt"
fi
compgen -G "$out/wheel/*.whl" >/dev/null || { echo "bench_python.sh: no wheel in ${out#"$fvc_root/"}/wheel" >&2; exit 1; }

echo "=== a fresh venv with the wheel, $FVC_PYTHON_BENCH_PINS"
python3 -m venv --clear "$out/venv" || exit 1
# shellcheck disable=SC2086 # the pins are words
if ! "$out/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        $FVC_PYTHON_BENCH_PINS "$out"/wheel/*.whl >"$out/pip.log" 2>&1; then
    tail -n 20 "$out/pip.log"
    exit 1
fi

gdtype=()
if [ -n "${FVC_GDTYPE_SRC:-}" ]; then
    [ -f "$FVC_GDTYPE_SRC/gdtype/binaryapiv4.py" ] || { echo "bench_python.sh: no gdtype/binaryapiv4.py in FVC_GDTYPE_SRC=$FVC_GDTYPE_SRC" >&2; exit 1; }
    gdtype=(--gdtype-src "$FVC_GDTYPE_SRC")
else
    echo "(gdtype-python left out: FVC_GDTYPE_SRC is not set)"
fi

commit=$(cat "$out/wheel/commit.txt" 2>/dev/null || echo unknown)
echo "=== tests/bench_python.py (commit $commit; $(uptime))"
rm -f "$out"/bench_python.txt "$out"/bench_python.json "$out"/bench_python.md
FVC_BENCH_COMMIT=$commit PYTHONDONTWRITEBYTECODE=1 nice -n 10 "$out/venv/bin/python" tests/bench_python.py \
    "${gdtype[@]}" --out "$out/bench_python.txt" --json "$out/bench_python.json" \
    --markdown "$out/bench_python.md" "${args[@]}"
status=$?
echo "(after: $(uptime))"
[ -f "$out/bench_python.txt" ] && echo "-> ${out#"$fvc_root/"}/bench_python.txt, .json, .md"
exit "$status"
