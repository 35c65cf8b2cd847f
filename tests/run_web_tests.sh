#!/usr/bin/env bash
# The web page (web/): builds it (tests/build_web.sh, which builds the npm package first), then
# runs tests/web/web.test.mjs with `node --test` in tests/out/run_web_tests/app/, where the
# package's tarball, playwright-core and puppeteer-core (pinned below; neither downloads a
# browser: Debian's Chromium and Firefox ESR are driven, installed with apt-get when missing;
# FIREFOX="" leaves Firefox out) are installed. The tests
# open the page from file://, as the release's zip holds it (unzipped into
# tests/out/run_web_tests/page/), in headless Chromium: Godot 3.6.2's encrypted save fixture edited
# and saved, read back by Godot 3.6.2; a compressed file Godot 4.6.3 writes, edited, read back by
# Godot 4.6.3; a Godot 3 save converted to Godot 4, read by Godot 4.6.3; a truncated and a
# damaged file; an empty file, a ConfigFile with an object and cut saves (not saved short); undo and redo, the
# marks of edited values, the confirmations before unsaved edits are dropped; JSON export and import;
# ConfigFiles (Godot 3.6.2's encrypted one edited and read back by Godot 3.6.2's
# load_encrypted_pass; Godot 4.6.3's and 3.6.2's saved unchanged to the same bytes; broken text
# named by line and column; never saved empty); no request but the page's own files, no global; the Godot 3 round
# trip again in Firefox ESR; and the package
# alone in Chromium against every golden corpus. In Node, tests/web/search.test.mjs: the page's
# search finds what a walk of every key and text finds. Screenshots of each state:
# tests/out/run_web_tests/screens/.
# Shows the failing tests, then ends with "N passed, N failed" (node's passed tests; its failed,
# cancelled, skipped and todo tests as failures; a build or install that fails as one failure);
# exits 1 on any failure.
#   bash tests/run_web_tests.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
out=$(fvc_out_dir)
tally_init
playwright_pin="playwright-core@1.65.1"
puppeteer_pin="puppeteer-core@25.16.0"

need_engines GODOT3 GODOT4 || exit 2

echo "=== the page (tests/build_web.sh; log: ${out#"$fvc_root/"}/build.log)"
if ! bash tests/build_web.sh >"$out/build.log" 2>&1; then
    tail -n 20 "$out/build.log"
    tally 1 "tests/build_web.sh"
    tally_end
    exit 1
fi
grep -E '^the page' "$out/build.log"
version=$(bash tests/version.sh)
tarball=$fvc_root/dist/fast-var-codec-$version.tgz
tally 0

# The page as the release ships it: its zip unzipped into a fresh folder, where every test opens it.
page_dir=$out/page
rm -rf "$page_dir"
if ! python3 -m zipfile -e "$fvc_root/dist/fast-var-codec-web-$version.zip" "$page_dir" \
        || [ ! -f "$page_dir/web/index.html" ]; then
    tally 1 "unzipping dist/fast-var-codec-web-$version.zip (no web/index.html in it)"
    tally_end
    exit 1
fi

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    echo "=== apt-get install chromium (log: ${out#"$fvc_root/"}/apt.log)"
    if ! fvc_setup_locked bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium' \
            >"$out/apt.log" 2>&1 || [ ! -x "$chromium" ]; then
        tail -n 10 "$out/apt.log"
        tally 1 "no Chromium at $chromium"
        tally_end
        exit 1
    fi
fi
echo "the browser: $("$chromium" --version 2>/dev/null | head -n 1)"
# Firefox ESR too, where Debian's installs (driven by puppeteer-core over WebDriver BiDi, which
# needs no browser of its own); without it its test is reported as not run.
firefox=${FIREFOX-/usr/bin/firefox-esr}
if [ -n "$firefox" ] && [ ! -x "$firefox" ]; then
    echo "=== apt-get install firefox-esr (log: ${out#"$fvc_root/"}/apt_firefox.log)"
    fvc_setup_locked bash -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr; }' \
        >"$out/apt_firefox.log" 2>&1 || true
fi
if [ -n "$firefox" ] && [ -x "$firefox" ]; then
    echo "and: $("$firefox" --version 2>/dev/null | head -n 1)"
else
    echo "NOT RUN: the Firefox test (no Firefox ESR at '${firefox}'; FIREFOX=\"\" leaves it out)"
    firefox=
fi

echo "=== npm install ${tarball#"$fvc_root/"} $playwright_pin $puppeteer_pin (into ${out#"$fvc_root/"}/app)"
app=$out/app
rm -rf "$app/test"
mkdir -p "$app/test"
printf '{\n  "name": "fvc-web-tests",\n  "private": true,\n  "type": "module"\n}\n' >"$app/package.json"
rm -rf "$app/node_modules/fast-var-codec"
if ! (cd "$app" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 npm install --no-audit \
        --no-fund --no-save --loglevel=error "$tarball" "$playwright_pin" "$puppeteer_pin") \
        >"$out/npm_install.log" 2>&1; then
    tail -n 20 "$out/npm_install.log"
    tally 1 "npm install of the package, playwright-core and puppeteer-core"
    tally_end
    exit 1
fi
cp tests/web/web.test.mjs tests/web/search.test.mjs rust/wasm/tests/desc.mjs "$app/test/"
# The page's modules, for the tests of one of them in Node (search.test.mjs).
mkdir -p "$app/test/web"
cp web/*.js "$app/test/web/"

echo "=== the package alone, bundled for the golden corpora (tests/web/golden_entry.js)"
esbuild=$fvc_root/tests/out/build_web/app/node_modules/.bin/esbuild
if ! NODE_PATH=$app/node_modules "$esbuild" tests/web/golden_entry.js --bundle --format=iife \
        --platform=browser --outfile="$out/golden_bundle.js" --log-level=warning; then
    tally 1 "esbuild of tests/web/golden_entry.js"
    tally_end
    exit 1
fi

echo "=== node --test (tests/web/web.test.mjs, tests/web/search.test.mjs; log: ${out#"$fvc_root/"}/node_test.log)"
rm -rf "$out/screens"
deadline=$DEADLINE
(cd "$app" && FVC_ROOT=$fvc_root FVC_WEB_OUT=$out FVC_WEB_PAGE=$page_dir/web/index.html CHROMIUM=$chromium FIREFOX=$firefox DEADLINE=$deadline \
    FVC_GOLDEN_BUNDLE=$out/golden_bundle.js "$deadline" 600 node --test --test-reporter=spec test/web.test.mjs test/search.test.mjs) \
    >"$out/node_test.log" 2>&1
status=$?
count_node_test "$out/node_test.log" "$status"
echo "screenshots: ${out#"$fvc_root/"}/screens/"
tally_end
