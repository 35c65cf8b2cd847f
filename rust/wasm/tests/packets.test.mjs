// Compressed packets through compress, decompress and decodeCompressed, against the engines'
// own (the data rust/codec/tests/packets.rs reads): every packet Godot 4.6.3 and Godot 3.6.2 made
// with PackedByteArray.compress (tests/golden/packets_*.jsonl, made by
// tests/golden/gen/godot*/packets.gd) decompresses to the bytes the engine compressed, a value's
// packet reads as the value, and the limit refuses a packet that holds more.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const ENGINES = [
  { file: "packets_godot4_6_3.jsonl", engine: "4.6.3", dialect: "godot4" },
  { file: "packets_godot3_6_2.jsonl", engine: "3.6.2", dialect: "godot3" },
];
const MODES = ["fastlz", "deflate", "zstd", "gzip"]; // by the engine's mode number

function cases(file, engine) {
  const [head, ...lines] = fs.readFileSync(path.join(desc.GOLDEN, file), "utf8").split("\n").filter(Boolean);
  assert.ok(JSON.parse(head).engine.startsWith(engine), head);
  return lines.map((l) => {
    const c = JSON.parse(l);
    c.data =
      c.pattern === undefined
        ? desc.hexBytes(c.data)
        : Uint8Array.from({ length: c.pattern }, (_, i) => (i * 7 + Math.floor(i / 300)) % 251);
    c.packet = desc.hexBytes(c.packet);
    c.compression = MODES[c.mode];
    return c;
  });
}

/** What the engine compressed, as its decompress gives it back: FastLZ pads to 16 bytes. */
function padded(c) {
  if (c.data.length === 0 || c.compression !== "fastlz" || c.data.length >= 16) return c.data;
  const out = new Uint8Array(16);
  out.set(c.data);
  return out;
}

for (const { file, engine, dialect } of ENGINES) {
  test(`Godot ${engine}'s packets decompress to what it compressed, and values read back`, () => {
    const all = cases(file, engine);
    assert.equal(all.length, 14 * 4);
    let values = 0;
    for (const c of all) {
      const what = `Godot ${engine} ${c.name} ${c.compression}`;
      assert.deepEqual(fvc.decompress(c.packet, c.compression, { maxSize: padded(c).length }), padded(c), what);
      const ours = fvc.compress(c.data, c.compression);
      assert.deepEqual(fvc.decompress(ours, c.compression, { maxSize: 1 << 20 }), padded(c), what);
      if (c.value) {
        const got = fvc.decodeCompressed(c.packet, c.compression, { maxSize: 1 << 20, dialect });
        assert.deepEqual(fvc.encode(got, { dialect }), c.data, what);
        values += 1;
      }
    }
    assert.equal(values, 9 * 4);
  });
}

test("the limit refuses a packet that holds more, and maxSize is needed", () => {
  const packet = fvc.compress(new Uint8Array(100_000), "zstd");
  assert.ok(packet.length < 1000);
  assert.throws(() => fvc.decompress(packet, "zstd", { maxSize: 99_999 }), (e) =>
    e instanceof fvc.DecodeError && /more than 99999 bytes/.test(e.message));
  assert.throws(() => fvc.decodeCompressed(packet, "zstd", { maxSize: 1000 }), fvc.DecodeError);
  assert.throws(() => fvc.decompress(packet, "zstd"), TypeError);
  assert.throws(() => fvc.decodeCompressed(packet, "zstd", {}), TypeError);
});

test("a value fills its packet, but for FastLZ's padding", () => {
  for (const compression of MODES) {
    const packet = fvc.compress(fvc.encode(42), compression);
    assert.equal(fvc.decodeCompressed(packet, compression, { maxSize: 100 }), 42);
    const longer = new Uint8Array([...fvc.encode(42), 1, 0, 0, 0]);
    assert.throws(
      () => fvc.decodeCompressed(fvc.compress(longer, compression), compression, { maxSize: 100 }),
      fvc.DecodeError,
    );
  }
});

test("bad arguments", () => {
  assert.throws(() => fvc.compress(new Uint8Array(3), "brotli"), /unknown compression "brotli"/);
  assert.throws(() => fvc.compress("abc", "zstd"), TypeError);
  assert.throws(() => fvc.decompress(new TextEncoder().encode("not a packet"), "deflate", { maxSize: 100 }), (e) =>
    e instanceof fvc.DecodeError && /does not decompress/.test(e.message));
});
