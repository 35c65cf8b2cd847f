// Godot 3 save files written by real Godot 3.6.2 and 3.2.3 (tests/saves/, the files the Rust and
// Python tests read): every container (plain, compressed in each of the four modes, encrypted with
// a password and with a key) reads in one call to the values the engine recorded; files the
// package writes read back the same; a wrong or missing password is the engine's error.

import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const ENGINES = ["godot3_6_2", "godot3_2_3"];
const KINDS = [
  "plain",
  "compressed_fastlz",
  "compressed_deflate",
  "compressed_zstd",
  "compressed_gzip",
  "encrypted_pass",
  "encrypted_key",
];

function sidecar(engine, kind) {
  return JSON.parse(fs.readFileSync(path.join(desc.SAVES, engine, `${kind}.json`), "utf8"));
}

function secrets(side) {
  if ("password" in side) return { password: side.password };
  if ("key_hex" in side) return { key: desc.hexBytes(side.key_hex) };
  return {};
}

function fileOf(engine, side) {
  return new Uint8Array(fs.readFileSync(path.join(desc.SAVES, engine, side.file)));
}

function rawBytes(got) {
  if (typeof got === "string") return Buffer.from(got, "utf8");
  if (ArrayBuffer.isView(got)) return Buffer.from(got.buffer, got.byteOffset, got.byteLength);
  if (got && ArrayBuffer.isView(got.data)) return Buffer.from(got.data.buffer, got.data.byteOffset, got.data.byteLength);
  throw new Error(`no bytes for ${desc.canon(got).slice(0, 80)}`);
}

for (const engine of ENGINES) {
  for (const kind of KINDS) {
    test(`${engine} ${kind}: every value as the engine read it`, () => {
      const side = sidecar(engine, kind);
      const { dialect, values } = fvc.readStoreVarFile(fileOf(engine, side), { dialect: "godot3", allowObjects: true, keepFloats: true, ...secrets(side) });
      assert.equal(dialect, "godot3");
      assert.equal(values.length, side.values.length);
      side.values.forEach((entry, i) => {
        let got = values[i];
        if ("sha256" in entry.value) {
          const raw = rawBytes(got);
          assert.equal(raw.length, entry.value.size, entry.name);
          assert.equal(crypto.createHash("sha256").update(raw).digest("hex"), entry.value.sha256, entry.name);
          return;
        }
        let expected = desc.valueOf(entry.value);
        if (desc.has(entry.value, "object")) {
          got = desc.classesOnly(got);
          expected = desc.classesOnly(expected);
        }
        assert.equal(desc.canon(got), desc.canon(expected), entry.name);
      });
      // With the dialect found rather than given: the same values, as Godot 3.
      const auto = fvc.readStoreVarFile(fileOf(engine, side), { allowObjects: true, keepFloats: true, ...secrets(side) });
      assert.equal(auto.dialect, "godot3");
      assert.equal(desc.canon(auto.values), desc.canon(values));
    });
  }

  for (const kind of ["plain", "encrypted_pass", "encrypted_key", "compressed_zstd"]) {
    test(`${engine} ${kind}: written by the package, read back the same`, () => {
      const side = sidecar(engine, kind);
      const engineFile = fileOf(engine, side);
      const { values } = fvc.readStoreVarFile(engineFile, { dialect: "godot3", allowObjects: true, keepFloats: true, ...secrets(side) });
      const full = side.values.some((e) => e.full_objects);
      const compression = side.compression_mode ? side.compression_mode.name.replace("COMPRESSION_", "").toLowerCase() : undefined;
      const ours = fvc.writeStoreVarFile(values, { dialect: "godot3", fullObjects: full, compression, ...secrets(side) });
      assert.deepEqual(ours.subarray(0, 4), engineFile.subarray(0, 4));
      if (!compression) assert.equal(ours.length, engineFile.length);
      const again = fvc.readStoreVarFile(ours, { allowObjects: true, keepFloats: true, ...secrets(side) });
      assert.equal(again.dialect, "godot3");
      assert.equal(desc.canon(again.values), desc.canon(values));
    });
  }

  test(`${engine}: a wrong password is ERR_FILE_CORRUPT, none ERR_UNAUTHORIZED`, () => {
    const side = sidecar(engine, "encrypted_pass");
    const data = fileOf(engine, side);
    assert.throws(() => fvc.readStoreVarFile(data, { dialect: "godot3", password: side.password + "x" }), (e) => {
      assert.ok(e instanceof fvc.SaveFileError);
      assert.ok(e instanceof fvc.FastVarCodecError);
      assert.equal(e.godotError, "ERR_FILE_CORRUPT");
      return true;
    });
    assert.throws(() => fvc.readStoreVarFile(data, { dialect: "godot3" }), (e) => e instanceof fvc.SaveFileError && e.godotError === "ERR_UNAUTHORIZED");
  });
}

test("one reader and one writer for every file: a Godot 3 save is readStoreVarFile's {dialect, values} with dialect godot3", () => {
  assert.equal("readGodot3Save" in fvc, false);
  assert.equal("writeGodot3Save" in fvc, false);
  const values = [{ hp: 10 }, new fvc.Color(1, 0, 0, 1), "x"];
  const save = fvc.writeStoreVarFile(values, { dialect: "godot3", password: "pw" });
  assert.equal(fvc.inspectStoreVarFile(save, { password: "pw" }).encryption, "godot3");
  const read = fvc.readStoreVarFile(save, { dialect: "godot3", password: "pw" });
  assert.deepEqual(Object.keys(read).sort(), ["dialect", "values"]);
  assert.equal(read.dialect, "godot3");
  assert.equal(desc.canon(read.values), desc.canon(desc.asDecoded(values)));
});

test("store_var files of every dialect and container round-trip", () => {
  const values = [1, "two", new fvc.Vector3(1, 2, 3), null, { k: [1.5] }, new fvc.Float(2)];
  for (const dialect of ["godot4", "godot3"]) {
    for (const extra of [{}, { compression: "deflate" }, { password: "pw" }, { key: new Uint8Array(32).fill(7) }]) {
      const file = fvc.writeStoreVarFile(values, { dialect, ...extra });
      const back = fvc.readStoreVarFile(file, { dialect, keepFloats: true, ...extra, compression: undefined });
      assert.equal(back.dialect, dialect);
      assert.equal(desc.canon(back.values), desc.canon(desc.asDecoded(values)), `${dialect} ${JSON.stringify(Object.keys(extra))}`);
    }
  }
  // Each record: a u32 length, then the encoding.
  const plain = fvc.writeStoreVarFile([1]);
  const first = fvc.encode(1);
  assert.deepEqual(plain, Uint8Array.from([first.length, 0, 0, 0, ...first]));
  // Godot 4's encrypted container takes a random IV: two files of the same values differ.
  const a = fvc.writeStoreVarFile(values, { password: "pw" });
  const b = fvc.writeStoreVarFile(values, { password: "pw" });
  assert.notDeepEqual(a, b);
  // A file is compressed or encrypted, not both: no engine opens such a file.
  for (const dialect of ["godot4", "godot3"]) {
    assert.throws(() => fvc.writeStoreVarFile(values, { dialect, compression: "zstd", password: "pw" }),
      (e) => e instanceof TypeError && /not both/.test(e.message));
  }
});
