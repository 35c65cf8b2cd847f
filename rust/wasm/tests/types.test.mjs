// The package's TypeScript declarations (index.d.ts) under `strict`, checked by tsc (typescript,
// installed beside the package by tests/run_npm_tests.sh): types/compiles.ts must compile, and
// every call of types/refused.ts must not: each stands after a `// @ts-expect-error` line, which
// tsc itself reports when the line after it compiles.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TSC = path.join(HERE, "..", "node_modules", "typescript", "bin", "tsc");

function tsc(file) {
  assert.ok(fs.existsSync(TSC), `no tsc at ${TSC} (tests/run_npm_tests.sh installs typescript)`);
  const r = spawnSync(
    process.execPath,
    [TSC, "--strict", "--noEmit", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
      path.join(HERE, "types", file)],
    { encoding: "utf8", cwd: path.join(HERE, "..") },
  );
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

test("types: what a user writes compiles under strict", () => {
  const { code, out } = tsc("compiles.ts");
  assert.equal(code, 0, out);
});

test("types: a Date, a function, a symbol, a bare class name do not compile under strict", () => {
  const text = fs.readFileSync(path.join(HERE, "types", "refused.ts"), "utf8");
  const expected = text.split("\n").filter((l) => l.trim().startsWith("// @ts-expect-error")).length;
  assert.ok(expected >= 10, `${expected} @ts-expect-error lines`);
  const { code, out } = tsc("refused.ts");
  assert.equal(code, 0, `an error that was expected did not happen (or another one did):\n${out}`);
  // Without the directives, tsc reports an error on each of those lines.
  const bare = path.join(HERE, "types", "refused_bare.ts");
  fs.writeFileSync(bare, text.replaceAll("// @ts-expect-error", "// expected:"));
  try {
    const r = tsc("refused_bare.ts");
    assert.notEqual(r.code, 0);
    const lines = new Set([...r.out.matchAll(/refused_bare\.ts\((\d+),\d+\): error/g)].map((m) => Number(m[1])));
    assert.equal(lines.size, expected, r.out);
  } finally {
    fs.rmSync(bare, { force: true });
  }
});
