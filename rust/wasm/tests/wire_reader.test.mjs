// The package's JavaScript reader of the wire (wire.js) against the core: every input it reads
// itself must give the value the core's decode gives, and every input it leaves (another type,
// an error, a limit) must reach the core, so that a decode is the core's either way. Inputs: every
// golden corpus's engine-made bytes (each engine and dialect), the same truncated and with bytes
// changed, values of every kind it reads made at random and encoded by the core, and inputs
// written by hand for the cases it must leave to the core (a NUL, a byte order mark, a repeated
// key, a NaN, a typed container, the limits).

import { test } from "node:test";
import assert from "node:assert/strict";
import * as whole from "fast-var-codec";
import * as codecEntry from "fast-var-codec/codec";
import * as desc from "./desc.mjs";

const ENTRIES = [
  ["fast-var-codec", whole],
  ["fast-var-codec/codec", codecEntry],
];

/** How values come back, and limits low enough for the corpora to reach. */
const SHAPES = [
  {},
  { dictionaryAs: "object", keepFloats: true },
  { dictionaryAs: "object", useBigInt64: true },
  { maxDepth: 2, maxElements: 6, maxBytes: 24 },
];

/** What wire.js returns for an input it leaves to the core. */
const MISS = new whole.Codec()._wireReader().read(new Uint8Array(0), 0);
/** A reader that reads nothing itself: the Codec decodes through the core. */
const CORE_ONLY = { read: () => MISS, readWhole: () => MISS };

/** The Codec of `options`, and one that leaves every input to the core. */
function pair(fvc, options) {
  const fast = new fvc.Codec(options);
  const core = new fvc.Codec(options);
  core._reader = CORE_ONLY;
  return [fast, core];
}

/** What a call gives: its value, or its error's class and message. */
function outcome(f) {
  try {
    return { value: f() };
  } catch (e) {
    return { error: `${e.constructor.name}: ${e.message}` };
  }
}

/** Whether wire.js reads `bytes` whole itself (rather than leaving them to the core). */
function readHere(codec, bytes) {
  return codec._wireReader().readWhole(bytes, 0) !== MISS;
}

/** Compares decode and decodeWithSize of `bytes` through both; returns whether wire.js read it. */
function compare(fast, core, bytes, label) {
  const a = outcome(() => fast.decode(bytes));
  const b = outcome(() => core.decode(bytes));
  assert.deepStrictEqual(a, b, `${label}: decode`);
  const c = outcome(() => fast.decodeWithSize(bytes));
  const d = outcome(() => core.decodeWithSize(bytes));
  assert.deepStrictEqual(c, d, `${label}: decodeWithSize`);
  return readHere(fast, bytes);
}

/** A small deterministic generator (mulberry32), so that a failure repeats. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The bytes, some truncations of them, and some with a byte changed. */
function variants(bytes, rnd) {
  const out = [bytes];
  for (const n of [bytes.length - 1, bytes.length >> 1, bytes.length - 4]) {
    if (n >= 0 && n < bytes.length) out.push(bytes.subarray(0, n));
  }
  for (let i = 0; i < 4 && bytes.length > 0; i++) {
    const changed = bytes.slice();
    const at = Math.floor(rnd() * bytes.length);
    changed[at] ^= 1 + Math.floor(rnd() * 255);
    out.push(changed);
  }
  return out;
}

/** Each case of the corpus `c` that has bytes, with each of its variants: [case, bytes]. */
function* engineInputs(c, rnd) {
  for (const kase of c.cases) {
    if (!kase.bytes) continue;
    for (const bytes of variants(desc.hexBytes(kase.bytes), rnd)) yield [kase, bytes];
  }
}

for (const [entry, fvc] of ENTRIES) {
  test(`engine-made bytes, truncated and changed, decode as the core decodes them (${entry})`, () => {
    let read = 0;
    let inputs = 0;
    for (const file of desc.CORPORA) {
      const c = desc.load(file);
      const rnd = random(0x5eed + file.length);
      for (const shape of SHAPES) {
        const [fast, core] = pair(fvc, { dialect: c.dialect, precision: c.precision ?? "single", ...shape });
        for (const [kase, bytes] of engineInputs(c, rnd)) {
          inputs++;
          if (compare(fast, core, bytes, `${file} ${kase.name} ${JSON.stringify(shape)} ${desc.hexOf(bytes)}`)) read++;
        }
        fast.free();
        core.free();
      }
    }
    // The reader is used: a good share of the engines' values is of the kinds it reads.
    assert.ok(read > inputs / 8, `wire.js read ${read} of ${inputs} inputs`);
  });
}

/**
 * Every outcome of a decoder's next() until it has nothing left, or until a stream is broken
 * (whose every later call is that error).
 */
function drain(decoder) {
  const out = [];
  for (;;) {
    const o = outcome(() => decoder.next());
    if (o.value?.done) return out;
    out.push(o);
    if (o.error && decoder.broken) return out;
  }
}

for (const [entry, fvc] of ENTRIES) {
  test(`a MessageDecoder reads the engines' messages, truncated and changed, as the core alone does (${entry})`, () => {
    let read = 0;
    let messages = 0;
    for (const file of desc.CORPORA) {
      const c = desc.load(file);
      const rnd = random(0xfeed + file.length);
      for (const shape of SHAPES) {
        const options = { dialect: c.dialect, precision: c.precision ?? "single", ...shape };
        const fast = new fvc.MessageDecoder(options);
        const core = new fvc.MessageDecoder(options);
        core._reader = null;
        const probe = new fvc.Codec(options);
        for (const [kase, bytes] of engineInputs(c, rnd)) {
          fast.feed(bytes);
          core.feed(bytes);
          messages++;
          if (readHere(probe, bytes)) read++;
          // A batch at a time, so that messages wait and errors fall between values.
          if (messages % 16 === 0) assert.deepStrictEqual(drain(fast), drain(core), `${file} ${kase.name}`);
        }
        assert.deepStrictEqual(drain(fast), drain(core), file);
        for (const d of [fast, core, probe]) d.free();
      }
    }
    assert.ok(read > messages / 8, `wire.js read ${read} of ${messages} messages`);
  });
}

/** `message` after its u32 length, as put_var sends it. */
function framed(message, bigEndian = false) {
  const out = new Uint8Array(4 + message.length);
  new DataView(out.buffer).setUint32(0, message.length, !bigEndian);
  out.set(message, 4);
  return out;
}

for (const [entry, fvc] of ENTRIES) {
  test(`a StreamDecoder reads the engines' messages, truncated and changed, in pieces, as the core alone does (${entry})`, () => {
    for (const file of desc.CORPORA) {
      const c = desc.load(file);
      const rnd = random(0xbeef + file.length);
      for (const [shape, bigEndian] of [[SHAPES[0], false], [SHAPES[1], true], [SHAPES[3], false]]) {
        const options = { dialect: c.dialect, precision: c.precision ?? "single", bigEndian, ...shape };
        const fast = new fvc.StreamDecoder(options);
        const core = new fvc.StreamDecoder(options);
        core._reader = null;
        const parts = [];
        for (const [, bytes] of engineInputs(c, rnd)) parts.push(framed(bytes, bigEndian));
        const stream = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of parts) {
          stream.set(p, at);
          at += p.length;
        }
        // Fed in pieces of 1 to 256 bytes, read now and then: messages split across feeds.
        for (let i = 0; i < stream.length; ) {
          const n = 1 + Math.floor(rnd() * 256);
          const piece = stream.subarray(i, i + n);
          fast.feed(piece);
          core.feed(piece);
          i += n;
          if (rnd() < 0.2) assert.deepStrictEqual(drain(fast), drain(core), `${file} at ${i}`);
        }
        assert.deepStrictEqual(drain(fast), drain(core), file);
        assert.equal(fast.buffered, core.buffered, file);
        fast.free();
        core.free();
      }
    }
  });
}

test("a StreamDecoder's message above maxMessage breaks the stream as through the core alone, and reset starts again", () => {
  for (const [entry, fvc] of ENTRIES) {
    const [fast, core] = [new fvc.StreamDecoder({ maxMessage: 16 }), new fvc.StreamDecoder({ maxMessage: 16 })];
    core._reader = null;
    const small = framed(fvc.encode("ok"));
    const large = framed(fvc.encode("a string longer than the limit"));
    for (const d of [fast, core]) {
      d.feed(small);
      d.feed(large);
    }
    assert.deepStrictEqual(drain(fast), drain(core), entry);
    assert.deepStrictEqual(drain(fast), drain(core), `${entry}: still broken`);
    assert.equal(fast.broken, true, entry);
    for (const d of [fast, core]) {
      d.reset();
      d.feed(framed(fvc.encode("after")));
      d.feed(framed(Uint8Array.from([200, 0, 0, 0])));
    }
    const after = drain(fast);
    assert.deepStrictEqual(after, drain(core), `${entry}: after reset`);
    assert.deepStrictEqual(after[0], { value: { done: false, value: "after" } }, entry);
    // The error's offset is the stream's: the second message's payload starts at byte 24.
    assert.match(after[1].error, /byte 24/, entry);
    fast.free();
    core.free();
  }
});

/** A random value of the kinds wire.js reads, now and then one it leaves to the core. */
function randomValue(rnd, depth = 0) {
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const strings = ["", "a", "hp", "position", "Zoë", "日本語", "x".repeat(24), "y".repeat(25), "z".repeat(33), "toString", "__proto__", "0", "12", "a\u0000b", "\ufeffbom", "😀"];
  const numbers = [0, -0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 53 - 1, -(2 ** 53), 0.5, 1.1, 1e300, Infinity, -Infinity, NaN];
  const kind = Math.floor(rnd() * (depth > 3 ? 9 : 13));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rnd() < 0.5;
    case 2:
      return pick(numbers);
    case 3:
      return pick(strings);
    case 4:
      return new whole.Vector2(pick(numbers), 0.25);
    case 5:
      return new whole.Vector3i(7, -8, 2 ** 31 - 1);
    case 6:
      return new whole.Color(0.5, 0.25, 1, pick([1, NaN]));
    case 7:
      return pick([
        Uint8Array.from([1, 2, 3]),
        Int32Array.from([1, -2]),
        BigInt64Array.from([1n, -(2n ** 60n)]),
        Float32Array.from([0.5, NaN]),
        Float64Array.from([1.1, -0]),
        new whole.PackedStringArray(["a", "é", ""]),
        new Uint8Array(5000),
      ]);
    case 8:
      return pick([2n ** 62n, new whole.StringName("name"), new whole.Vector2i(1, 2), new whole.Float(3), new whole.Rect2(new whole.Vector2(1, 2), new whole.Vector2(3, 4))]);
    case 9:
    case 10: {
      const n = Math.floor(rnd() * 5);
      return Array.from({ length: n }, () => randomValue(rnd, depth + 1));
    }
    default: {
      const m = new Map();
      const n = Math.floor(rnd() * 5);
      for (let i = 0; i < n; i++) m.set(rnd() < 0.9 ? pick(strings) : Math.floor(rnd() * 3), randomValue(rnd, depth + 1));
      return m;
    }
  }
}

for (const [entry, fvc] of ENTRIES) {
  test(`random values encoded by the core decode as the core decodes them, in every dialect (${entry})`, () => {
    const rnd = random(20261205);
    let read = 0;
    let inputs = 0;
    for (const dialect of fvc.DIALECTS) {
      // Only Godot 4's engines have double-precision builds.
      for (const precision of dialect.startsWith("godot4") ? ["single", "double"] : ["single"]) {
        for (const shape of SHAPES) {
          const options = { dialect, precision, allowLossy: true, ...shape };
          const [fast, core] = pair(fvc, options);
          try {
            for (let i = 0; i < 150; i++) {
              const value = randomValue(rnd);
              let bytes;
              try {
                bytes = fast.encode(value);
              } catch (e) {
                if (e instanceof fvc.EncodeError) continue;
                throw e;
              }
              inputs++;
              if (compare(fast, core, bytes, `${dialect} ${precision} ${JSON.stringify(shape)} ${desc.hexOf(bytes)}`)) read++;
            }
          } finally {
            fast.free();
            core.free();
          }
        }
      }
    }
    assert.ok(read > inputs / 4, `wire.js read ${read} of ${inputs} inputs`);
  });
}

/** A Godot 4 String's bytes: header, length, text, padding. */
function string4(bytes) {
  const pad = (4 - (bytes.length % 4)) % 4;
  return [4, 0, 0, 0, bytes.length, 0, 0, 0, ...bytes, ...new Array(pad).fill(0)];
}

const utf8 = (s) => [...new TextEncoder().encode(s)];

test("the symbol a read returns for what it leaves to the core is found", () => {
  assert.equal(typeof MISS, "symbol");
});

test("inputs wire.js leaves to the core decode as the core decodes them, and it reads none of them", () => {
  const cases = {
    "a String with a NUL": string4([0x61, 0, 0x62]),
    "a String ending in a NUL": string4([0x61, 0x62, 0]),
    "a String with a byte order mark": string4([0xef, 0xbb, 0xbf, 0x61]),
    "a String that is not UTF-8": string4([0xc3, 0x28]),
    "a surrogate": string4([0xed, 0xa0, 0x80]),
    "a repeated key": [27, 0, 0, 0, 2, 0, 0, 0, ...string4(utf8("k")), 2, 0, 0, 0, 1, 0, 0, 0, ...string4(utf8("k")), 2, 0, 0, 0, 2, 0, 0, 0],
    "an int key": [27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
    "a float32 NaN": [3, 0, 0, 0, 0x01, 0x00, 0x80, 0x7f],
    "a Vector2 of a NaN": [5, 0, 0, 0, 0x01, 0x00, 0x80, 0x7f, 0, 0, 0, 0],
    "a typed Array of int": [28, 0, 1, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0],
    "an Array count with the shared bit": [28, 0, 0, 0, 1, 0, 0, 0x80, 0, 0, 0, 0],
    "a header with byte 1 set": [2, 1, 0, 0, 5, 0, 0, 0],
    "a Vector2 of binary64 reals": [5, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40],
    "a PackedByteArray without its padding": [29, 0, 0, 0, 1, 0, 0, 0, 9],
    "a PackedStringArray of a negative count": [34, 0, 0, 0, 0xff, 0xff, 0xff, 0xff],
    "an Array deeper than maxDepth": [28, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 0, 0, 0, 0],
    "bytes after the value": [0, 0, 0, 0, 0, 0, 0, 0],
    "a truncated int": [2, 0, 0, 0, 1, 0],
    "an unknown type": [200, 0, 0, 0],
  };
  for (const [entry, fvc] of ENTRIES) {
    const [fast, core] = pair(fvc, { maxDepth: 1 });
    for (const [name, list] of Object.entries(cases)) {
      const bytes = Uint8Array.from(list);
      assert.deepStrictEqual(outcome(() => fast.decode(bytes)), outcome(() => core.decode(bytes)), `${entry}: ${name}`);
      assert.ok(!readHere(fast, bytes), `${entry}: wire.js read ${name} itself`);
    }
    fast.free();
    core.free();
  }
});

test("wire.js reads a value at an offset, inside a larger input, and the values of decodeMulti", () => {
  for (const [entry, fvc] of ENTRIES) {
    const [fast, core] = pair(fvc, { dictionaryAs: "object" });
    const values = [{ a: 1, b: [1.5, "x"] }, "tail", new whole.Vector3(1, 2, 3), Int32Array.from([1, 2, 3])];
    const parts = values.map((v) => fast.encode(v));
    const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 3));
    let at = 3;
    for (const p of parts) {
      joined.set(p, at);
      at += p.length;
    }
    const view = joined.subarray(3);
    assert.deepStrictEqual([...fast.decodeMulti(view)], [...core.decodeMulti(view)], entry);
    assert.deepStrictEqual([...fast.decodeMulti(view)], values, entry);
    assert.deepStrictEqual(fast.decodeWithSize(joined, { offset: 3 }), core.decodeWithSize(joined, { offset: 3 }), entry);
    assert.ok(readHere(fast, parts[0]), `${entry}: wire.js did not read the Dictionary`);
    fast.free();
    core.free();
  }
});

test("a freed Codec or MessageDecoder refuses to decode before reading anything", () => {
  const c = new whole.Codec();
  const bytes = c.encode(1);
  c.free();
  assert.throws(() => c.decode(bytes), TypeError);
  const d = new whole.MessageDecoder();
  d.feed(bytes);
  d.free();
  assert.throws(() => d.next(), TypeError);
});

test("a MessageDecoder takes what it is fed when fed, and reset forgets what waits", () => {
  const d = new whole.MessageDecoder();
  const bytes = whole.encode("one");
  d.feed(bytes);
  bytes.fill(0);
  assert.deepStrictEqual([...d], ["one"]);
  d.feed(whole.encode(2));
  d.reset();
  assert.deepStrictEqual([...d], []);
  d.free();
});
