// The WebAssembly's memory without free(): Codecs, StreamDecoders and MessageDecoders dropped
// without it are released when garbage collected (wasm-bindgen's FinalizationRegistry over the
// Rust objects they hold), and free() is an optional early release that may be called twice.
// The rounds run in a child node with --expose-gc (this file again, FVC_GC_ROUNDS set): the
// WebAssembly memory's size after N rounds and after 2N rounds is compared, no clock.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as fvc from "fast-var-codec";

const HERE = fileURLToPath(import.meta.url);
/** Rounds of the first half; the child makes twice as many. */
const ROUNDS = 24;
/** Objects of each kind per round. */
const PER_ROUND = 8;
/** What each StreamDecoder and MessageDecoder holds: bytes buffered, a message unread. */
const HELD = 64 << 10;

/** The WebAssembly's memory, from the package's own instance (initSync returns it once made). */
async function wasmMemory() {
  fvc.version();
  const glue = await import(pathToFileURL(path.resolve("node_modules/fast-var-codec/fvc_wasm.js")).href);
  return glue.initSync().memory;
}

/** Collects, and lets the FinalizationRegistry callbacks run (they are tasks after a GC). */
async function collect() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** Makes objects that hold WebAssembly memory and drops them, without free(). */
function round() {
  const classes = Array.from({ length: 256 }, (_, i) => `res://scripts/class_${i}.gd`);
  for (let i = 0; i < PER_ROUND; i++) {
    const codec = new fvc.Codec({ allowObjects: true, allowedClasses: classes });
    codec.decode(codec.encode([i]));
    const stream = codec.streamDecoder({ maxMessage: 1 << 20 });
    // A frame announcing more than arrives: its bytes stay buffered in the WebAssembly.
    const partial = new Uint8Array(HELD);
    new DataView(partial.buffer).setUint32(0, 1 << 20, true);
    stream.feed(partial);
    assert.equal(stream.buffered, HELD);
    const messages = new fvc.MessageDecoder();
    messages.feed(codec.encode(new Uint8Array(HELD))); // fed, never read
  }
}

async function child() {
  const memory = await wasmMemory();
  // free() twice, then the object dropped and collected: nothing is freed twice.
  for (let i = 0; i < 16; i++) {
    const codec = new fvc.Codec({ dialect: "godot3" });
    const stream = codec.streamDecoder();
    const messages = new fvc.MessageDecoder();
    for (const o of [codec, stream, messages]) {
      o.free();
      o.free();
    }
  }
  await collect();
  for (let r = 0; r < ROUNDS; r++) {
    round();
    await collect();
  }
  const afterN = memory.buffer.byteLength;
  for (let r = 0; r < ROUNDS; r++) {
    round();
    await collect();
  }
  const after2N = memory.buffer.byteLength;
  // The package still works after all that.
  assert.equal(fvc.decode(fvc.encode("still")), "still");
  process.stdout.write(JSON.stringify({ afterN, after2N }) + "\n");
}

if (process.env.FVC_GC_ROUNDS) {
  await child();
} else {
  test("dropped Codecs, StreamDecoders and MessageDecoders are released by the garbage collector: memory after 2N rounds as after N", () => {
    const env = { ...process.env, FVC_GC_ROUNDS: "1" };
    delete env.NODE_TEST_CONTEXT; // the child is a plain script, not one of node --test's
    const r = spawnSync(process.execPath, ["--expose-gc", HERE], { encoding: "utf8", env });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    const { afterN, after2N } = JSON.parse(r.stdout.trim().split("\n").at(-1));
    // Were they kept, each round would hold about 2 × HELD × PER_ROUND bytes (1 MiB), N rounds
    // 24 MiB more: the memory grows by less than a quarter of that.
    const leakOfN = ROUNDS * PER_ROUND * 2 * HELD;
    assert.ok(after2N - afterN < leakOfN / 4, `memory grew from ${afterN} to ${after2N} bytes`);
  });

  test("large packed arrays' encodes and decodes grow the WebAssembly's memory by less than twice their size, call after call", async () => {
    const memory = await wasmMemory();
    const before = memory.buffer.byteLength;
    const size = 32 << 20;
    for (let round = 0; round < 6; round++) {
      const bytes = new Uint8Array(size).fill(round);
      assert.equal(fvc.decode(fvc.encode(bytes)).length, size);
      const floats = new Float32Array(size / 4).fill(round + 0.5);
      assert.equal(fvc.decode(fvc.encode(floats)).length, size / 4);
    }
    // An encode copies the typed array from JavaScript's memory into its result, past the
    // WebAssembly; a decode reads it in the input and JavaScript copies it out from there: the
    // input is all the memory holds (its size, once).
    const grown = memory.buffer.byteLength - before;
    assert.ok(grown < 2 * size, `the memory grew by ${grown} bytes for values of ${size}`);
  });

  test("free() is optional and may be called twice; a freed object says so when used", () => {
    const codec = new fvc.Codec();
    const stream = codec.streamDecoder();
    const messages = new fvc.MessageDecoder();
    for (const [o, name] of [[codec, "Codec"], [stream, "StreamDecoder"], [messages, "MessageDecoder"]]) {
      o.free();
      o.free();
      const freedError = (e) => e instanceof TypeError && e.message.includes(`this ${name} was freed`);
      if (o === codec) {
        assert.throws(() => codec.encode(1), freedError);
        assert.throws(() => codec.decode(fvc.encode(1)), freedError);
        assert.throws(() => codec.decodeWithSize(fvc.encode(1)), freedError);
      } else {
        assert.throws(() => o.feed(fvc.encode(1)), freedError);
        assert.throws(() => o.next(), freedError);
        assert.throws(() => o.dialect, freedError);
      }
    }
    // The functions' shared Codec is not the user's to free: they go on working.
    assert.equal(fvc.decode(fvc.encode(1)), 1);
  });
}
