#!/usr/bin/env bash
# The web page with a 10 MB save in headless Chromium: the time to open it, open its big
# Dictionary, page, change a value, search and save (tests/web/bench.mjs). Figures for
# docs/performance.md, not checks. Uses what tests/run_web_tests.sh installed (run it first).
#   bash tests/bench_web.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tests/lib.sh
source tests/lib.sh
out=$(fvc_out_dir)
app=$fvc_root/tests/out/run_web_tests/app
if [ ! -d "$app/node_modules/playwright-core" ] || [ ! -f dist/web/app.js ]; then
    echo "bench_web: run tests/run_web_tests.sh first (the page and playwright-core)" >&2
    exit 2
fi
mkdir -p "$app/bench"
cp tests/web/bench.mjs "$app/bench/"
cd "$app"
FVC_ROOT=$fvc_root FVC_WEB_OUT=$out CHROMIUM=${CHROMIUM:-/usr/bin/chromium} \
    "$DEADLINE" 600 node bench/bench.mjs
