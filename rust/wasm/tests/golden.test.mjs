// The package against every engine's golden corpus (tests/golden/, the files the Rust and Python
// tests read): each engine-made encoding decodes to the value the engine decoded, each value
// encodes to the engine's bytes, and each malformed input is refused with the engine's error or
// accepted with its value. Where the engine-free model knowingly differs from an engine, the
// Rust test's own list (rust/codec/tests/golden.rs, KNOWN_DIVERGENCES) is applied.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as whole from "fast-var-codec";
import * as codecEntry from "fast-var-codec/codec";
import * as desc from "./desc.mjs";

// Both entries: the whole package, and the codec alone over its own WebAssembly build.
const ENTRIES = [
  ["fast-var-codec", whole],
  ["fast-var-codec/codec", codecEntry],
];

const DIVERGENCES = desc.knownDivergences();

// Outcomes that depend on the engine's class list (the Rust tests compare those).
const NEEDS_CLASS_LIST = [
  "object/full/",
  "craft/object",
  "craft/array_typed_class",
  "object/full_scripted",
  "array/typed/pathless_script/full",
];
// Values no JavaScript value describes: a container typed by a script without a path.
const NOT_BUILT_FROM_JS = ["array/typed/pathless_script/"];

const startsWithAny = (name, prefixes) => prefixes.some((p) => name.startsWith(p));

function diverges(corpus, part, name) {
  return DIVERGENCES.some(([c, p, prefix]) => corpus.startsWith(c) && part === p && name.startsWith(prefix));
}

const loaded = new Map();
function corpus(name) {
  if (!loaded.has(name)) loaded.set(name, desc.load(name));
  const c = loaded.get(name);
  desc.state.double = c.precision === "double";
  return c;
}

const short = (v) => desc.canon(v).slice(0, 300);

test("the list of known divergences is read", () => {
  assert.ok(DIVERGENCES.length > 40, String(DIVERGENCES.length));
});

for (const [entry, fvc] of ENTRIES) for (const file of desc.CORPORA) {
  test(`golden cases: ${file} (${entry})`, () => {
    const c = corpus(file);
    const opts = { dialect: c.dialect, precision: c.precision ?? "single" };
    const leaks = c.nodepath_padding_leaks ?? true;
    const failures = [];
    let checked = 0;
    let decoded = 0;
    for (const kase of c.cases) {
      const name = kase.name;
      if (diverges(file, "cases", name)) continue;
      const full = Boolean(kase.full_objects);
      const engine = desc.hexBytes(kase.bytes);
      checked++;
      let value = null;
      let exact = true;
      try {
        value = desc.valueOf(kase.value);
      } catch (e) {
        if (!(e instanceof desc.NotText)) throw e;
        exact = false;
      }
      if (startsWithAny(name, NOT_BUILT_FROM_JS)) exact = false;
      const dopts = { ...opts, allowObjects: full, keepFloats: true };
      if (exact && engine.length === 0) {
        try {
          fvc.encode(value, { ...opts, fullObjects: full });
          failures.push(`${name}: the engine refused to encode it, we did not`);
        } catch (e) {
          if (!(e instanceof fvc.EncodeError)) failures.push(`${name}: ${e}`);
        }
        continue;
      }
      if (exact) {
        try {
          const ours = fvc.encode(value, { ...opts, fullObjects: full });
          let same;
          if (leaks && desc.has(kase.value, "node_path")) {
            // The engine writes uninitialised padding after NodePath names: compare decodes.
            same = desc.same(fvc.decode(ours, dopts), fvc.decode(engine, dopts));
          } else {
            same = desc.hexOf(ours) === kase.bytes;
          }
          if (!same) failures.push(`${name}: encode differs\n  ours   ${desc.hexOf(ours)}\n  engine ${kase.bytes}`);
        } catch (e) {
          failures.push(`${name}: encode failed: ${e}`);
        }
      }
      if (kase.decoded === null || kase.decoded === undefined) {
        const code = kase.decode_error;
        if (code !== null && code !== undefined && engine.length > 0) {
          try {
            const got = fvc.decode(engine, dopts);
            failures.push(`${name}: we decode ${short(got)} where the engine fails (${code})`);
          } catch (e) {
            if (!(e instanceof fvc.DecodeError)) failures.push(`${name}: ${e}`);
            else if (e.godotError !== desc.ERROR_NAMES[code]) failures.push(`${name}: ${e.godotError}, engine ${code}`);
          }
        }
        continue;
      }
      if (full && startsWithAny(name, NEEDS_CLASS_LIST)) continue;
      let expected;
      try {
        expected = desc.valueOf(kase.decoded);
      } catch (e) {
        if (e instanceof desc.NotText) continue;
        throw e;
      }
      let got;
      let size;
      try {
        ({ value: got, size } = fvc.decodeWithSize(engine, dopts));
      } catch (e) {
        failures.push(`${name}: decode failed: ${e}`);
        continue;
      }
      decoded++;
      if (size !== engine.length) failures.push(`${name}: used ${size} of ${engine.length} bytes`);
      if (!desc.same(got, expected)) {
        failures.push(`${name}: decoded\n  ours   ${short(got)}\n  engine ${short(expected)}`);
      }
    }
    console.log(`${file}: ${checked} cases, ${decoded} decoded and compared`);
    assert.equal(failures.length, 0, `${failures.length} of ${checked} cases differ:\n${failures.slice(0, 20).join("\n")}`);
    assert.ok(decoded > 100, `only ${decoded} decoded`);
  });

  test(`golden malformed inputs: ${file} (${entry})`, () => {
    const c = corpus(file);
    const opts = { dialect: c.dialect, precision: c.precision ?? "single", keepFloats: true };
    const failures = [];
    let checked = 0;
    for (const m of c.malformed) {
      const name = m.name;
      const allow = Boolean(m.allow_objects);
      if (diverges(file, "malformed inputs", name) || allow) continue;
      const data = desc.hexBytes(m.bytes);
      checked++;
      let got;
      let size;
      try {
        ({ value: got, size } = fvc.decodeWithSize(data, opts));
      } catch (e) {
        if (!(e instanceof fvc.DecodeError)) failures.push(`${name}: ${e}`);
        else if (m.ok) failures.push(`${name}: we refuse (${e.message}) where the engine accepts`);
        else if (m.error !== null && m.error !== undefined && e.godotError !== desc.ERROR_NAMES[m.error]) {
          failures.push(`${name}: ${e.godotError} at ${e.offset}, engine ${m.error}`);
        } else if (!(e.offset >= 0 && e.offset <= data.length)) {
          failures.push(`${name}: offset ${e.offset} outside the ${data.length} bytes`);
        }
        continue;
      }
      if (!m.ok) {
        failures.push(`${name}: we accept ${short(got)} where the engine refuses (${m.error})`);
        continue;
      }
      // The engine's size counts a final PackedByteArray's missing padding; ours ends with the input.
      if (m.size !== null && m.size !== undefined && Math.min(m.size, data.length) !== size) failures.push(`${name}: size ${size}, engine ${m.size}`);
      let expected;
      try {
        expected = desc.valueOf(m.decoded);
      } catch (e) {
        if (e instanceof desc.NotText) continue;
        throw e;
      }
      if (c.dialect === "godot4" && (c.precision ?? "single") === "single") got = desc.narrow(got);
      if (desc.has(m.decoded, "object")) {
        got = desc.classesOnly(got);
        expected = desc.classesOnly(expected);
      }
      if (!desc.same(got, expected)) failures.push(`${name}: decoded\n  ours   ${short(got)}\n  engine ${short(expected)}`);
    }
    console.log(`${file}: ${checked} malformed inputs`);
    assert.equal(failures.length, 0, `${failures.length} of ${checked} inputs differ:\n${failures.slice(0, 20).join("\n")}`);
    assert.ok(checked > 100, `only ${checked} checked`);
  });
}

// A stream of every value the engine wrote, framed as put_var frames it: read with
// dialect: "auto", the dialect is the engine's, and every value is the one its own dialect
// reads (values that read whole in another dialect too come before the first that tells).
// The streams with dialect detection, the whole package's (the codec entry's are the same code).
const fvc = whole;

for (const file of ["godot4_6_3.json", "godot3_6_2.json"]) {
  test(`a stream with dialect "auto": ${file}`, () => {
    const c = corpus(file);
    const opts = { dialect: c.dialect, precision: c.precision ?? "single", keepFloats: true };
    const frames = [];
    const expected = [];
    for (const kase of c.cases) {
      const engine = desc.hexBytes(kase.bytes);
      if (engine.length === 0 || kase.full_objects || kase.decoded === null || kase.decoded === undefined) continue;
      let decoded;
      try {
        decoded = fvc.decodeWithSize(engine, opts);
      } catch (e) {
        if (e instanceof fvc.DecodeError) continue;
        throw e;
      }
      if (decoded.size !== engine.length) continue;
      const prefix = new Uint8Array(4);
      new DataView(prefix.buffer).setUint32(0, engine.length, true);
      frames.push(prefix, engine);
      expected.push([kase.name, decoded.value]);
    }
    const decoder = new fvc.StreamDecoder({ dialect: "auto", precision: opts.precision, keepFloats: true, maxMessage: 1 << 30 });
    assert.equal(decoder.dialect, "godot4");
    assert.equal(decoder.dialectSettled, false);
    for (const f of frames) decoder.feed(f);
    const got = [...decoder];
    assert.equal(decoder.dialect, c.dialect);
    assert.equal(decoder.dialectSettled, true);
    assert.equal(got.length, expected.length);
    assert.ok(got.length > 100, String(got.length));
    const wrong = expected.filter(([, want], i) => !desc.same(got[i], want)).map(([name]) => name);
    assert.equal(wrong.length, 0, `${wrong.length} values read otherwise than in ${c.dialect}: ${wrong.slice(0, 10)}`);
    decoder.reset();
    assert.equal(decoder.dialect, "godot4");
    assert.equal(decoder.dialectSettled, false);
    const fixed = new fvc.StreamDecoder({ dialect: "godot3" });
    assert.equal(fixed.dialect, "godot3");
    assert.equal(fixed.dialectSettled, true);
  });
}
