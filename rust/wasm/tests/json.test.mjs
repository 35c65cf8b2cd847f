// toJSON and fromJSON, the core's lossless JSON projection through the WebAssembly: for every
// case of every engine's golden corpus (tests/golden/), and every malformed input that decodes,
// bytes → JSON → bytes gives what decoding then encoding gives; the JSON of the decoded JavaScript value is the JSON of the bytes; and the
// value fromJSON returns encodes to the same bytes. Then the escape rule, the options, the errors.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const outcome = (f) => {
  try {
    return desc.hexOf(f());
  } catch (e) {
    return `throws ${e.name}`;
  }
};

for (const file of desc.CORPORA) {
  test(`bytes → JSON → bytes: ${file}`, () => {
    const c = desc.load(file);
    const opts = { dialect: c.dialect, precision: c.precision ?? "single" };
    const failures = [];
    let checked = 0;
    for (const kase of c.cases) {
      const full = Boolean(kase.full_objects);
      const o = { ...opts, allowObjects: full, fullObjects: full };
      const bytes = desc.hexBytes(kase.bytes);
      let value;
      try {
        value = fvc.decode(bytes, { ...o, keepFloats: true });
      } catch {
        continue; // bytes the core refuses: nothing to project
      }
      checked++;
      const name = kase.name;
      const text = fvc.toJSON(bytes, o);
      const expected = outcome(() => fvc.encode(value, o));
      const viaJson = outcome(() => fvc.fromJSON(text, { ...o, output: "bytes" }));
      if (viaJson !== expected) failures.push(`${name}: bytes via JSON ${viaJson}, decode+encode ${expected}`);
      const back = fvc.fromJSON(text, { keepFloats: true });
      const again = outcome(() => fvc.encode(back, o));
      if (again !== expected) failures.push(`${name}: fromJSON's value encodes to ${again}, not ${expected}`);
      const ofValue = fvc.toJSON(value, { input: "value" });
      if (ofValue !== text) failures.push(`${name}: the value's JSON ${ofValue.slice(0, 200)}\n  the bytes' ${text.slice(0, 200)}`);
      if (fvc.toJSON(bytes, { ...o, pretty: true }) !== fvc.toJSON(back, { input: "value", pretty: true })) {
        failures.push(`${name}: pretty JSON differs`);
      }
    }
    // The malformed inputs that decode (values 1,024 levels deep among them): bytes → JSON →
    // bytes → JSON gives the same JSON (some are values no JavaScript value holds, such as an
    // object's property given twice, so the JSON, not a JavaScript value, is compared).
    for (const m of c.malformed) {
      const o = { ...opts, allowObjects: Boolean(m.allow_objects), fullObjects: Boolean(m.allow_objects) };
      const bytes = desc.hexBytes(m.bytes);
      let text;
      try {
        text = fvc.toJSON(bytes, o);
      } catch (e) {
        if (!(e instanceof fvc.DecodeError)) failures.push(`${m.name}: ${e}`);
        continue;
      }
      checked++;
      let again;
      try {
        again = fvc.toJSON(fvc.fromJSON(text, { ...o, output: "bytes" }), o);
      } catch (e) {
        if (!(e instanceof fvc.EncodeError)) failures.push(`${m.name}: ${e}`);
        continue;
      }
      // A String that starts with a BOM loses it when decoded again (Godot's UTF-8 reading
      // skips one), after the JSON kept it.
      if (again !== text && !m.name.includes("bom")) failures.push(`${m.name}: ${text.slice(0, 100)} came back as ${again.slice(0, 100)}`);
    }
    assert.ok(checked > 200, `${file}: ${checked} inputs`);
    assert.deepEqual(failures, []);
  });
}

test("keys that look like tags round-trip; tags read back as Godot types", () => {
  const v = { $type: "Vector2", x: 1 };
  const text = fvc.toJSON(v);
  assert.equal(text, '{"$Dictionary":[["$type","Vector2"],["x",1]]}');
  assert.deepEqual(fvc.fromJSON(text), new Map(Object.entries(v)));
  assert.deepEqual(fvc.fromJSON(text, { dictionaryAs: "object" }), v);
  const g = fvc.fromJSON('{"at":{"$Vector2":[1,0.5]},"n":{"$StringName":"jump"},"f":{"$float":2}}', {
    keepFloats: true,
    dictionaryAs: "object",
  });
  assert.ok(g.at instanceof fvc.Vector2);
  assert.equal(g.at.y, 0.5);
  assert.ok(g.n instanceof fvc.StringName);
  assert.ok(g.f instanceof fvc.Float);
  assert.equal(fvc.toJSON(g), '{"at":{"$Vector2":[1,0.5]},"n":{"$StringName":"jump"},"f":{"$float":2}}');
});

test("options: input, pretty, output, dialect", () => {
  const bytes = new Uint8Array([1, 2, 3]);
  assert.equal(fvc.toJSON(bytes, { input: "value" }), '{"$PackedByteArray":"AQID"}');
  assert.equal(fvc.toJSON(fvc.encode(bytes)), '{"$PackedByteArray":"AQID"}');
  assert.equal(fvc.toJSON({ a: [1, 2] }, { pretty: true }), '{\n  "a": [1, 2]\n}');
  assert.deepEqual(
    Array.from(fvc.fromJSON('{"$float":2}', { output: "bytes", dialect: "godot3" })),
    Array.from(fvc.encode(new fvc.Float(2), { dialect: "godot3" })),
  );
  const framed = fvc.fromJSON("7", { output: "framed", bigEndian: true });
  assert.deepEqual(Array.from(framed), [0, 0, 0, 8, 2, 0, 0, 0, 7, 0, 0, 0]);
  assert.equal(fvc.toJSON(fvc.encode(123456789012345678n)), '{"$int":"123456789012345678"}');
  assert.throws(() => fvc.toJSON(1, { input: "text" }), TypeError);
  assert.throws(() => fvc.fromJSON("1", { output: "text" }), TypeError);
});

test("errors name the place", () => {
  assert.throws(
    () => fvc.fromJSON('{"a": [1, {"$Vector2": [1]}]}'),
    (e) => e instanceof fvc.JSONError && e.path === "$.a[1].$Vector2" && e.line === undefined && e.godotError === "ERR_PARSE_ERROR",
  );
  assert.throws(
    () => fvc.fromJSON('{"a":\n [tru]}'),
    (e) => e instanceof fvc.JSONError && e.path === "$.a[0]" && e.line === 2 && e.column === 3,
  );
  assert.throws(() => fvc.fromJSON('{"$Vector4i":[1,2,3,4]}', { output: "bytes", dialect: "godot3" }), fvc.EncodeError);
  assert.throws(() => fvc.fromJSON(1), TypeError);
});

/** What a call threw: the error's class and fields, or "no error". */
const thrown = (f) => {
  try {
    f();
  } catch (e) {
    return { name: e.name, offset: e.offset, godotError: e.godotError, reason: e.reason, dialects: e.dialects, message: e.message };
  }
  return "no error";
};

test("toJSON of bytes takes them whole, as decode: a golden input and one byte more throws decode's DecodeError", () => {
  const c = desc.load("godot4_6_3.json");
  const opts = { dialect: c.dialect, precision: c.precision ?? "single" };
  const failures = [];
  let checked = 0;
  for (const kase of c.cases) {
    const full = Boolean(kase.full_objects);
    const o = { ...opts, allowObjects: full, fullObjects: full };
    const bytes = desc.hexBytes(kase.bytes);
    try {
      fvc.decode(bytes, o);
    } catch {
      continue;
    }
    checked++;
    const longer = new Uint8Array([...bytes, 0]);
    const expected = thrown(() => fvc.decode(longer, o));
    const got = thrown(() => fvc.toJSON(longer, o));
    if (expected === "no error" || expected.name !== "DecodeError" || expected.offset !== bytes.length) {
      failures.push(`${kase.name}: decode of one byte more: ${JSON.stringify(expected)}`);
    } else if (JSON.stringify(got) !== JSON.stringify(expected)) {
      failures.push(`${kase.name}: toJSON ${JSON.stringify(got)}, decode ${JSON.stringify(expected)}`);
    }
    // From an offset: the error's offset is the input's byte, as decode's.
    const placed = new Uint8Array([0xee, 0xee, ...longer]);
    const at = thrown(() => fvc.toJSON(placed, { ...o, offset: 2 }));
    if (JSON.stringify(at) !== JSON.stringify(thrown(() => fvc.decode(placed, { ...o, offset: 2 }))) || at.offset !== bytes.length + 2) {
      failures.push(`${kase.name}: toJSON at offset 2: ${JSON.stringify(at)}`);
    }
  }
  assert.ok(checked > 200, `${checked} inputs`);
  assert.deepEqual(failures, []);
  // A Godot 3 value read as Godot 4: the error names the dialect that reads the bytes whole.
  const godot3 = fvc.encode(new fvc.Transform3D(new fvc.Basis(), new fvc.Vector3(5, 6, 7)), { dialect: "godot3" });
  assert.throws(
    () => fvc.toJSON(godot3),
    (e) => e instanceof fvc.DecodeError && e.offset === 20 && e.reason.includes('reads whole as Godot 3 (dialect "godot3")'),
  );
  assert.equal(fvc.toJSON(godot3, { dialect: "godot3" }), fvc.toJSON(fvc.decode(godot3, { dialect: "godot3" }), { input: "value" }));
});
