#!/usr/bin/env bash
# Builds the npm package fast-var-codec (rust/wasm) and packs it:
#   1. installs what it needs: the Rust target wasm32-unknown-unknown (rustup target add),
#      wasm-bindgen-cli of exactly the version the crate pins, compiled once per machine into the
#      tool cache (tests/lib.sh fvc_cargo_tool): wasm-bindgen-VERSION/, and esbuild of the version
#      tests/lib.sh pins, installed there from npm (fvc_npm_tool): esbuild-VERSION/;
#   2. builds the crate for wasm32 with the workspace's `wasm` profile (optimized for size) twice,
#      the whole package and the codec alone (`--no-default-features`: the `fast-var-codec/codec`
#      entry), and runs wasm-bindgen (--target web) over each;
#   3. assembles dist/npm/: the hand-written ESM layer (rust/wasm/js/, as esbuild prints it
#      without comments) and type declarations, the generated bindings, each .wasm inlined as a
#      string of one character per byte (wasm_inline.js, codec_wasm_inline.js: nothing is fetched
#      at import), the example servers (rust/wasm/examples/, as examples/: they import the
#      package by its name), package.json (rust/wasm/js/package.json with the workspace's
#      version and the repository), README.md and LICENSE;
#   4. npm pack: dist/fast-var-codec-VERSION.tgz, and its checksum line in dist/SHA256SUMS.npm
#      (`sha256sum -c` format; tests/publish_release.sh adds it to the release's SHA256SUMS).
# package.json is rust/wasm/js/package.json, which states no version, with the workspace's
# version after its name and the repository after its license. The repository:
# FVC_NPM_REPOSITORY when set (set and empty: none); else the git
# remote "origin" when it is an address others can reach (https://, ssh://, or git@host:path),
# any user or token in it left out; else no repository field at all, rather than a guessed one.
# A release built by the workflow has GitHub's checkout as origin: the repository it came from.
# Prints the .wasm's size raw and gzipped, what a page downloads for each entry (every module it
# imports, gzipped), and the tarball's path last. Log of the tools and the
# build: tests/out/build_npm/.
#   bash tests/build_npm.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=tests/lib.sh
source tests/lib.sh
out=$(fvc_out_dir)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}

version=$(bash tests/version.sh)
bindgen_version=$(sed -nE 's/^wasm-bindgen = "=([0-9.]+)"$/\1/p' rust/wasm/Cargo.toml)
[ -n "$bindgen_version" ] || { echo "build_npm: no exact wasm-bindgen pin in rust/wasm/Cargo.toml" >&2; exit 2; }

# --- tools -------------------------------------------------------------------------------------
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "=== rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi
# The package's modules are its JavaScript as esbuild prints it, without comments: installed once
# per machine into the tool cache (tests/lib.sh fvc_npm_tool).
if ! esbuild=$(fvc_npm_tool esbuild "$fvc_esbuild_version" esbuild "$out/install_esbuild.log"); then
    echo "build_npm: npm install esbuild@$fvc_esbuild_version failed (${out#"$root/"}/install_esbuild.log):" >&2
    tail -n 20 "$out/install_esbuild.log" >&2
    exit 1
fi
# Compiled once per machine into the tool cache (tests/lib.sh fvc_cargo_tool).
if ! bindgen=$(fvc_cargo_tool wasm-bindgen-cli "$bindgen_version" wasm-bindgen "$out/install.log"); then
    echo "build_npm: cargo install wasm-bindgen-cli $bindgen_version failed (${out#"$root/"}/install.log):" >&2
    tail -n 20 "$out/install.log" >&2
    exit 1
fi
if [ "$("$bindgen" --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]; then
    echo "build_npm: $bindgen is not wasm-bindgen $bindgen_version" >&2
    exit 1
fi

# --- the .wasm files -----------------------------------------------------------------------------
# Two builds of the crate: the whole package (its default `files` feature), and the codec alone
# (the `fast-var-codec/codec` entry), each through wasm-bindgen under its own name.
built=$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm/fast_var_codec_wasm.wasm
rm -rf "$out/bindgen"
wasm_build() { # NAME CARGO_FEATURE_ARGS...
    local name=$1
    shift
    echo "=== cargo build -p fast_var_codec_wasm --target wasm32-unknown-unknown --profile wasm $*"
    nice -n 10 cargo build -p fast_var_codec_wasm --target wasm32-unknown-unknown --profile wasm "$@" \
        >"$out/cargo_$name.log" 2>&1 || { tail -n 30 "$out/cargo_$name.log"; exit 1; }
    # Without the function names (a tenth of the file) and the producers section: what every
    # page that imports the package downloads. A panic's frames in a browser's console are then
    # numbers.
    "$bindgen" --target web --out-dir "$out/bindgen" --out-name "$name" --no-typescript \
        --remove-name-section --remove-producers-section "$built"
}
wasm_build fvc_wasm
wasm_build fvc_codec_wasm --no-default-features

# --- the package -------------------------------------------------------------------------------
pkg=$root/dist/npm
rm -rf "$pkg"
mkdir -p "$pkg"
# The hand-written modules (rust/wasm/js/) as esbuild prints them without their comments, which
# were a third of what a page downloads for them gzipped (the declarations, .d.ts, keep theirs);
# the same code, statement for statement (docs/performance.md).
for js in rust/wasm/js/*.js; do
    "$esbuild" "$js" --format=esm --charset=utf8 --legal-comments=none --log-level=warning \
        --outfile="$pkg/$(basename "$js")" || exit 1
done
cp rust/wasm/js/*.d.ts "$pkg/"
mkdir -p "$pkg/examples"
cp rust/wasm/examples/*.mjs "$pkg/examples/"
cp rust/wasm/README.md "$pkg/README.md"
cp LICENSE "$pkg/LICENSE"
# Each build's generated glue, without its default loader's `new URL("…_bg.wasm",
# import.meta.url)`: the package instantiates the inlined bytes with initSync, and bundlers must
# not look for a file that is not there; without its doc comments (the Rust functions' own, read
# in rust/wasm/src: nobody imports the glue but the package, and they were a third of what it
# downloads gzipped); and its .wasm inlined (INLINE.js), nothing to fetch.
package_wasm() { # NAME INLINE WHAT
    local name=$1 inline=$2 what=$3
    sed -E "s#new URL\\('${name}_bg\\.wasm', import\\.meta\\.url\\)#undefined#" "$out/bindgen/$name.js" |
        without_doc_comments >"$pkg/$name.js" || exit 1
    if grep -q "import.meta.url" "$pkg/$name.js"; then
        echo "build_npm: the generated glue $name.js still refers to import.meta.url" >&2
        exit 1
    fi
    node --check "$pkg/$name.js" || exit 1
    wasm_module "$out/bindgen/${name}_bg.wasm" "$pkg/$inline" "$what"
}
# Standard input without its `/** … */` blocks that take whole lines (wasm-bindgen's JSDoc: a line
# `/**`, lines that start with `*`, a line `*/`; or `/** … */` alone on a line). Anything else
# inside such a block fails the build rather than losing code.
without_doc_comments() {
    node -e '
const lines = require("node:fs").readFileSync(0, "utf8").split("\n");
const kept = [];
for (let i = 0; i < lines.length; i++) {
  const t = lines[i].trim();
  if (!t.startsWith("/**")) { kept.push(lines[i]); continue; }
  if (t.endsWith("*/")) continue;
  for (i++; i < lines.length && lines[i].trim() !== "*/"; i++) {
    if (!lines[i].trim().startsWith("*")) {
      console.error(`build_npm: line ${i + 1} of the glue, inside a doc comment, is not one: ${lines[i]}`);
      process.exit(1);
    }
  }
}
process.stdout.write(kept.join("\n"));
'
}
# Writes the .wasm as a module exporting `wasmBytes`: a string of one character per byte
# (U+0000–U+00FF; codec_api.js reads it back with charCodeAt), only `"`, `\`, LF and CR escaped.
# gzip finds the .wasm's repeats in it, which base64 hides: gzipped, it is a few percent larger
# than the .wasm, base64 about 1.4 times (docs/performance.md). Read back and compared.
wasm_module() { # WASM MODULE WHAT
    node - "$@" <<'NODE'
const fs = require("node:fs");
const [wasm, module, what] = process.argv.slice(2);
const bytes = fs.readFileSync(wasm);
const escapes = { 0x22: '\\"', 0x5c: "\\\\", 0x0a: "\\n", 0x0d: "\\r" };
let text = "";
for (const b of bytes) text += escapes[b] ?? String.fromCharCode(b);
fs.writeFileSync(
  module,
  `// ${what} (rust/wasm, built by tests/build_npm.sh): one character per byte, nothing to fetch.\n` +
    `export const wasmBytes = "${text}";\n`,
  "utf8",
);
import(require("node:url").pathToFileURL(module).href).then(({ wasmBytes }) => {
  const back = Buffer.from(wasmBytes, "latin1");
  if (wasmBytes.length !== bytes.length || !back.equals(bytes)) {
    console.error(`build_npm: ${module} does not read back as ${wasm}`);
    process.exit(1);
  }
});
NODE
}
package_wasm fvc_wasm wasm_inline.js "The package's WebAssembly"
package_wasm fvc_codec_wasm codec_wasm_inline.js "The WebAssembly of the codec entry (fast-var-codec/codec)"
wasm_file=$out/bindgen/fvc_wasm_bg.wasm
# The repository's address (the header): FVC_NPM_REPOSITORY, else the git remote "origin".
if [ -n "${FVC_NPM_REPOSITORY+set}" ]; then
    repository=$FVC_NPM_REPOSITORY
else
    repository=$(git remote get-url origin 2>/dev/null || true)
fi
node - rust/wasm/js/package.json "$pkg/package.json" "$version" "$repository" <<'EOF'
const fs = require("node:fs");
const [template, file, version, remote] = process.argv.slice(2);
// An address others can reach, without a user or token; "" for none (a local path, file://).
function publicAddress(text) {
  const scp = /^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):(?!\/)(.+)$/.exec(text);
  if (scp) return `git+ssh://git@${scp[1]}/${scp[2]}`;
  let url;
  try {
    url = new URL(text);
  } catch {
    return "";
  }
  if (!["https:", "ssh:", "git+https:", "git+ssh:"].includes(url.protocol)) return "";
  url.username = url.protocol.endsWith("ssh:") ? "git" : "";
  url.password = "";
  return url.protocol.startsWith("git+") ? url.href : `git+${url.href}`;
}
const repository = publicAddress(remote.trim());
// The checked-in package.json states no version: the workspace's goes after the name, the
// repository after the license.
const { name, description, keywords, license, ...rest } = JSON.parse(fs.readFileSync(template, "utf8"));
if ("version" in rest) throw new Error(`${template} states a version of its own`);
const pkg = {
  name,
  version,
  description,
  keywords,
  license,
  ...(repository ? { repository: { type: "git", url: repository, directory: "rust/wasm" } } : {}),
  ...rest,
};
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
EOF

raw=$(stat -c %s "$wasm_file")
gz=$(gzip -9 -c "$wasm_file" | wc -c)
echo "the .wasm: $raw bytes, $gz gzipped (gzip -9); the package's wasm_inline.js: $(stat -c %s "$pkg/wasm_inline.js") bytes, $(gzip -9 -c "$pkg/wasm_inline.js" | wc -c) gzipped"
# What a page downloads for each entry: every module it imports, each gzipped (gzip -9) as a
# server sends it.
entry_size() { # ENTRY.js
    node - "$pkg" "$1" <<'NODE'
const fs = require("node:fs");
const path = require("node:path");
const [dir, entry] = process.argv.slice(2);
const seen = new Set();
const visit = (file) => {
  if (seen.has(file)) return;
  seen.add(file);
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  for (const m of text.matchAll(/(?:import|export)[^"']*?from\s*["']\.\/([^"']+)["']/g)) visit(m[1]);
};
visit(entry);
console.log([...seen].sort().join(" "));
NODE
}
for entry in index.js codec.js; do
    files=$(entry_size "$entry")
    total=0
    for f in $files; do total=$((total + $(gzip -9 -c "$pkg/$f" | wc -c))); done
    echo "the entry $entry: $total bytes gzipped ($(wc -w <<<"$files") modules: $files)"
done
mkdir -p "$root/dist"
rm -f "$root/dist/fast-var-codec-$version.tgz"
(cd "$pkg" && npm pack --silent --pack-destination "$root/dist" >"$out/pack.log" 2>&1) || { cat "$out/pack.log"; exit 1; }
(cd "$root/dist" && sha256sum "fast-var-codec-$version.tgz" >SHA256SUMS.npm.tmp && mv SHA256SUMS.npm.tmp SHA256SUMS.npm)
echo "package.json's repository: $(node -p "require('$pkg/package.json').repository?.url ?? '(none)'")"
echo "dist/fast-var-codec-$version.tgz"
