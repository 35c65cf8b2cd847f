#!/usr/bin/env bash
# The npm package (rust/wasm): builds and packs it (tests/build_npm.sh), installs the tarball
# into a fresh folder, tests/out/run_npm_tests/app/, with `npm install` (and esbuild and ws,
# pinned below; nothing but the npm registry is reached), and runs `node --test` there over the
# test files of rust/wasm/tests and the example servers of rust/wasm/examples (copied in, so that
# they import the package as a user does):
#   * every engine's golden corpus (tests/golden/, the files the Rust and Python tests read);
#   * the Godot 3 save fixtures (tests/saves/) in every container, and files written back;
#   * ConfigFiles Godot 4.6.3 and 3.6.2 saved, plain and encrypted, and texts they parsed
#     (tests/golden/config_*.jsonl): read as the engine read them, written byte for byte;
#   * the edges: typed containers' items with their paths, dialect detection of files, a small
#     compressed file announcing 1 GiB, the StreamDecoder fed byte by byte, its limit; objects
#     dropped without free() released by the garbage collector (node --expose-gc);
#   * an esbuild bundle (platform browser) of a small entry that imports the package, run by node;
#   * the type declarations under tsc --strict (typescript, pinned below): what must compile, and
#     what must not (rust/wasm/tests/types/); and against the module, both ways: every export,
#     class member and parameter count (rust/wasm/tests/declarations.test.mjs);
#   * the README's server snippets (a ```js block right after a line `<!-- snippet: NAME -->`,
#     extracted as written into the app's snippets/NAME.mjs) and the example servers, with
#     clients that send a message above the limit, a malformed one, or reset mid-message, while
#     good clients go on being answered; the examples' --dialect auto;
#   * live engines (GODOT4, GODOT3 from tests/install_engines.sh): Godot 4.6.3 exchanges values
#     with the WebSocket example server through WebSocketPeer put_var/get_var, Godot 3.6.2 with
#     the TCP one through StreamPeerTCP; Godot 4.6.3 reads the store_var files the package writes
#     (plain, compressed in each mode, encrypted) and writes its own for the package to read;
#     Godot 3.6.2 reads the Godot 3 saves it writes. Engine output: tests/out/run_npm_tests/live_engines/.
# Shows the failing tests, then ends with "N passed, N failed" (node's passed tests; its failed,
# cancelled, skipped and todo tests as failures; a build or install that fails as one failure);
# exits 1 on any failure.
#   bash tests/run_npm_tests.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
out=$(fvc_out_dir)
tally_init
esbuild_pin="esbuild@$fvc_esbuild_version"
ws_pin="ws@8.23.0"
typescript_pin="typescript@5.9.3"
need_engines GODOT4 GODOT3 || exit 2

echo "=== the package (tests/build_npm.sh; log: ${out#"$fvc_root/"}/build.log)"
if ! bash tests/build_npm.sh >"$out/build.log" 2>&1; then
    tail -n 20 "$out/build.log"
    tally 1 "tests/build_npm.sh"
    tally_end
    exit 1
fi
grep -E '^the \.wasm' "$out/build.log"
tarball=$fvc_root/$(tail -n 1 "$out/build.log")
tally 0

echo "=== npm install ${tarball#"$fvc_root/"} $esbuild_pin $ws_pin $typescript_pin into a fresh folder"
app=$out/app
rm -rf "$app"
mkdir -p "$app/test"
printf '{\n  "name": "fvc-npm-tests",\n  "private": true,\n  "type": "module"\n}\n' >"$app/package.json"
if ! (cd "$app" && npm install --no-audit --no-fund --loglevel=error "$tarball" "$esbuild_pin" "$ws_pin" "$typescript_pin") \
        >"$out/npm_install.log" 2>&1; then
    tail -n 20 "$out/npm_install.log"
    tally 1 "npm install of the package, esbuild, ws and typescript"
    tally_end
    exit 1
fi
cp rust/wasm/tests/*.mjs "$app/test/"
cp -r rust/wasm/tests/types "$app/test/types"
cp -r rust/wasm/examples "$app/examples"
# The README's snippets, as written: each ```js block right after `<!-- snippet: NAME -->`.
mkdir -p "$app/snippets"
perl -e '
    my ($dir, $file) = @ARGV;
    open(my $in, "<", $file) or die "$file: $!";
    my ($name, $body, $state) = ("", "", 0);
    while (my $line = <$in>) {
        if ($state == 0 && $line =~ /^<!-- snippet: ([a-z0-9_]+)/) { $name = $1; $state = 1; next; }
        if ($state == 1) { $state = ($line =~ /^```js\s*$/) ? 2 : 0; $body = ""; next; }
        if ($state == 2) {
            if ($line =~ /^```\s*$/) {
                open(my $outf, ">", "$dir/$name.mjs") or die "$dir/$name.mjs: $!";
                print $outf $body;
                close $outf;
                $state = 0;
            } else { $body .= $line; }
        }
    }
' "$app/snippets" rust/wasm/README.md

echo "=== node --test (rust/wasm/tests; log: ${out#"$fvc_root/"}/node_test.log)"
(cd "$app" && FVC_ROOT=$fvc_root "$DEADLINE" 900 node --test --test-reporter=spec) >"$out/node_test.log" 2>&1
status=$?
count_node_test "$out/node_test.log" "$status"
tally_end
