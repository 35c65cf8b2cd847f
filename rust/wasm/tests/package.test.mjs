// The package's package.json: the checked-in rust/wasm/js/package.json, which states no version,
// as tests/build_npm.sh packed it: the same fields, with the workspace's version (Cargo.toml's)
// after the name and, when it has one, the repository.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as fvc from "fast-var-codec";
import { REPO as ROOT } from "./desc.mjs";

test("package.json is the checked-in rust/wasm/js/package.json stamped with the workspace's version", () => {
  const checkedIn = JSON.parse(fs.readFileSync(path.join(ROOT, "rust", "wasm", "js", "package.json"), "utf8"));
  const packed = JSON.parse(fs.readFileSync(path.resolve("node_modules/fast-var-codec/package.json"), "utf8"));
  assert.equal("version" in checkedIn, false, "the checked-in package.json states a version of its own");
  const cargo = fs.readFileSync(path.join(ROOT, "Cargo.toml"), "utf8");
  const workspaceVersion = /^\[workspace\.package\][^[]*?^version\s*=\s*"([^"]+)"/m.exec(cargo)?.[1];
  assert.ok(workspaceVersion, "no [workspace.package] version in Cargo.toml");
  assert.equal(packed.version, workspaceVersion);
  assert.equal(fvc.version(), workspaceVersion);
  assert.deepEqual(Object.keys(packed).slice(0, 2), ["name", "version"]);
  const { version, repository, ...rest } = packed;
  void version;
  assert.deepEqual(rest, checkedIn);
  if (repository !== undefined) assert.deepEqual(Object.keys(repository), ["type", "url", "directory"]);
});
