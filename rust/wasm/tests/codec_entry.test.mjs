// The codec entry, fast-var-codec/codec: the codec alone over its own WebAssembly build (the crate
// without its `files` and `text` features). What it downloads (every module it imports, gzipped
// as a server sends it) is well under half the whole package's and within 150,000 bytes; its values and errors are the
// whole package's classes, so values pass between the entries; it has the codec's functions and
// none of the files' or the text's. Its encodes and decodes against every engine's golden corpus
// are golden.test.mjs's (both entries), its declarations declarations.test.mjs's.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import * as whole from "fast-var-codec";
import * as codec from "fast-var-codec/codec";

const PACKAGE = path.resolve("node_modules/fast-var-codec");

/** The package's modules `entry` imports, itself included (the relative imports, followed). */
function modulesOf(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(path.join(PACKAGE, file), "utf8");
    for (const m of text.matchAll(/(?:import|export)[^"']*?from\s*["']\.\/([^"']+)["']/g)) visit(m[1]);
  };
  visit(entry);
  return [...seen];
}

const gzipped = (file) => zlib.gzipSync(fs.readFileSync(path.join(PACKAGE, file)), { level: 9 }).length;

test("the codec entry downloads under half of what the whole package does, and not its WebAssembly", () => {
  const modules = modulesOf("codec.js");
  assert.ok(modules.includes("codec_wasm_inline.js") && !modules.includes("wasm_inline.js"), modules.join(" "));
  const total = modules.reduce((n, f) => n + gzipped(f), 0);
  const wholeTotal = modulesOf("index.js").reduce((n, f) => n + gzipped(f), 0);
  console.log(`codec entry: ${total} bytes gzipped (${modules.length} modules); the whole package: ${wholeTotal}`);
  assert.ok(total < wholeTotal / 2, `${total} of the whole package's ${wholeTotal}`);
  // The budget of a page that only sends and receives values.
  assert.ok(total <= 150_000, `the codec entry downloads ${total} bytes gzipped, over 150,000`);
});

test("the codec entry's ambiguous-dialect error names each reading's type, the whole package's its value", () => {
  // A Godot 3 Color, held undecided with "auto" until 64 are held: the oldest is then refused.
  const refusal = (m) => {
    const d = new m.MessageDecoder({ dialect: "auto" });
    const color = m.encode(new m.Color(1, 0.5, 0, 1), { dialect: "godot3" });
    for (let i = 0; i <= 64; i++) d.feed(color);
    try {
      d.next();
    } catch (e) {
      return e;
    }
    assert.fail("no error");
  };
  const small = refusal(codec);
  const full = refusal(whole);
  assert.ok(small instanceof whole.DecodeError && full instanceof whole.DecodeError);
  assert.deepEqual(small.dialects, full.dialects);
  assert.match(small.message, /\(Plane as godot4; Color as godot3;/);
  assert.match(full.message, /\(Plane\(1, 0\.5, 0, 1\) as godot4; Color\(1, 0\.5, 0, 1\) as godot3;/);
  assert.match(small.message, /pass the dialect/);
});

test("the codec entry has the codec's functions and classes, and none of the files' or the text's", () => {
  for (const name of ["encode", "decode", "decodeWithSize", "decodeMulti", "encodeFramed", "version"]) {
    assert.equal(typeof codec[name], "function", name);
  }
  for (const name of ["Codec", "StreamDecoder", "MessageDecoder"]) assert.equal(typeof codec[name], "function", name);
  for (const name of ["readStoreVarFile", "writeStoreVarFile", "readConfigFile", "readJsonSave", "readTextResource", "toJSON", "compress", "strToVar", "varToStr"]) {
    assert.equal(name in codec, false, name);
  }
  assert.equal(codec.version(), whole.version());
});

test("values and errors are the whole package's classes: what one entry decodes, the other encodes", () => {
  const value = new Map([
    ["pos", new whole.Vector2(1.5, -2)],
    ["names", new whole.PackedStringArray(["a", "b"])],
    ["path", new whole.NodePath("a/b:c")],
    ["hp", 10],
  ]);
  const bytes = whole.encode(value);
  const decoded = codec.decode(bytes);
  assert.ok(decoded.get("pos") instanceof whole.Vector2 && decoded.get("names") instanceof whole.PackedStringArray);
  assert.deepEqual(codec.encode(decoded), bytes);
  assert.deepEqual(whole.decode(codec.encode(value)), whole.decode(bytes));
  const cut = bytes.subarray(0, 5);
  assert.throws(() => codec.decode(cut), (e) => e instanceof whole.DecodeError && e.message === errorOf(() => whole.decode(cut)).message);
  assert.throws(() => codec.encode(new whole.Vector4(1, 2, 3, 4), { dialect: "godot3" }), whole.EncodeError);
});

/** The error `f` throws. */
function errorOf(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("no error");
}

test("the codec entry's streams", () => {
  const stream = new codec.StreamDecoder({ dialect: "godot3" });
  const framed = whole.encodeFramed(new Map([["hp", 7]]), { dialect: "godot3" });
  for (const byte of framed) stream.feed(Uint8Array.of(byte));
  assert.deepEqual([...stream], [new Map([["hp", 7]])]);
  stream.free();
  const messages = new codec.MessageDecoder({ dialect: "godot4" });
  messages.feed(whole.encode([1, "a"]));
  assert.deepEqual([...messages], [[1, "a"]]);
  messages.free();
});
