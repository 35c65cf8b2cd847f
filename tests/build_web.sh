#!/usr/bin/env bash
# Builds the static web page that opens Godot saves (web/): no server, no request leaves it.
#   1. the npm package (tests/build_npm.sh: the Rust core as WebAssembly, inlined);
#   2. installs that package's tarball and esbuild (pinned below; only the npm registry is
#      reached) into tests/out/build_web/app/;
#   3. bundles web/app.js (and the modules it imports) with the package into one classic script
#      (an IIFE: a module script would not load from file://), and copies index.html and
#      style.css next to it: dist/web/, which opens from the disk or any static host;
#   4. zips it: dist/fast-var-codec-web-VERSION.zip, its checksum line in dist/SHA256SUMS.web (the
#      release carries the zip: tests/publish_release.sh).
# Prints the bundle's size and the zip's path last. Logs: tests/out/build_web/.
#   bash tests/build_web.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=tests/lib.sh
source tests/lib.sh
out=$(fvc_out_dir)
esbuild_pin="esbuild@$fvc_esbuild_version"
version=$(bash tests/version.sh)

echo "=== the npm package (tests/build_npm.sh; log: ${out#"$root/"}/build_npm.log)"
if ! bash tests/build_npm.sh >"$out/build_npm.log" 2>&1; then
    tail -n 20 "$out/build_npm.log"
    exit 1
fi
tarball=$root/$(tail -n 1 "$out/build_npm.log")

echo "=== npm install ${tarball#"$root/"} $esbuild_pin (into ${out#"$root/"}/app)"
app=$out/app
mkdir -p "$app"
printf '{\n  "name": "fvc-web-build",\n  "private": true,\n  "type": "module"\n}\n' >"$app/package.json"
# The tarball's contents change with every build under the same version: drop the old copy.
rm -rf "$app/node_modules/fast-var-codec"
(cd "$app" && npm install --no-audit --no-fund --no-save --loglevel=error "$tarball" "$esbuild_pin") \
    >"$out/npm_install.log" 2>&1 || { tail -n 20 "$out/npm_install.log"; exit 1; }

echo "=== esbuild web/app.js -> dist/web/"
web=$root/dist/web
rm -rf "$web"
mkdir -p "$web"
NODE_PATH=$app/node_modules "$app/node_modules/.bin/esbuild" web/app.js --bundle --format=iife \
    --platform=browser --target=es2020,chrome100,firefox100 --minify --charset=utf8 \
    --outfile="$web/app.js" --log-level=warning
cp web/index.html web/style.css "$web/"
cp LICENSE "$web/LICENSE.txt"
if grep -qE 'https?://[a-z]' "$web/index.html"; then
    echo "build_web: index.html names an address: the page must load nothing from elsewhere" >&2
    exit 1
fi

zip=$root/dist/fast-var-codec-web-$version.zip
rm -f "$zip"
(cd "$root/dist" && python3 -m zipfile -c "$zip" web >/dev/null)
(cd "$root/dist" && sha256sum "${zip##*/}" >SHA256SUMS.web.tmp && mv SHA256SUMS.web.tmp SHA256SUMS.web)
echo "the page: app.js $(stat -c %s "$web/app.js") bytes ($(gzip -9 -c "$web/app.js" | wc -c) gzipped)"
echo "dist/fast-var-codec-web-$version.zip"
