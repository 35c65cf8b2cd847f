// Bundlers: esbuild (pinned by tests/run_npm_tests.sh) bundles a small entry that imports the
// package for the browser, into one file with no import left; node runs it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";

test("an esbuild bundle for the browser runs", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fvc-bundle-"));
  const entry = path.join(dir, "entry.mjs");
  fs.writeFileSync(
    entry,
    `import { encode, decode, Vector2 } from "fast-var-codec";
const bytes = encode({ hello: "bundle", pos: new Vector2(1, 2) });
const back = decode(bytes);
console.log(JSON.stringify({ n: bytes.length, hello: back.get("hello"), x: back.get("pos").x }));
`,
  );
  const outfile = path.join(dir, "bundle.mjs");
  esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    outfile,
    nodePaths: [path.resolve("node_modules")],
    logLevel: "error",
  });
  const code = fs.readFileSync(outfile, "utf8");
  assert.ok(!/\bimport\s*[({"']/.test(code.replace(/import\.meta/g, "")), "the bundle still imports something");
  const printed = execFileSync(process.execPath, [outfile], { encoding: "utf8" });
  assert.deepEqual(JSON.parse(printed), { n: 64, hello: "bundle", x: 1 });
  console.log(`bundle: ${code.length} bytes`);
  fs.rmSync(dir, { recursive: true, force: true });
});
