// dialect: "auto" never guesses, on bytes Godot 3.6.2 wrote (tests/golden): a file or a stream
// message that Godot 4 reads whole as another value (a Color is a Plane) reads as Godot 3 read
// it, or throws a DecodeError naming each reading, never another engine's value.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

// Values Godot 3 writes that Godot 4 reads whole as something else.
const AMBIGUOUS = [
  "color/red",
  "color/distinct",
  "aabb/distinct",
  "packed_int32_array/empty",
  "packed_int32_array/one",
];

function godot3Cases() {
  const out = new Map();
  for (const kase of desc.load("godot3_6_2.json").cases) {
    const bytes = desc.hexBytes(kase.bytes);
    if (bytes.length === 0 || kase.full_objects) continue;
    try {
      const { value, size } = fvc.decodeWithSize(bytes, { dialect: "godot3", keepFloats: true });
      if (size === bytes.length) out.set(kase.name, { bytes, value });
    } catch (e) {
      if (!(e instanceof fvc.DecodeError)) throw e;
    }
  }
  return out;
}

function record(bytes) {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, true);
  out.set(bytes, 4);
  return out;
}

test("a one-record file reads as Godot 3 read it, or throws naming the readings", () => {
  const cases = godot3Cases();
  const refused = [];
  const wrong = [];
  for (const [name, { bytes, value }] of cases) {
    let read;
    try {
      read = fvc.readStoreVarFile(record(bytes), { keepFloats: true });
    } catch (e) {
      assert.ok(e instanceof fvc.DecodeError, `${name}: ${e}`);
      assert.ok(e.dialects.includes("godot3") && e.dialects.length >= 2, `${name}: ${e.dialects}`);
      assert.match(e.message, /as godot3/);
      refused.push(name);
      continue;
    }
    if (!desc.same(read.values[0], value)) wrong.push(name);
  }
  assert.deepEqual(wrong, [], "read as another engine's value");
  for (const name of AMBIGUOUS) assert.ok(refused.includes(name), `${name} is not refused`);
  const color = cases.get("color/distinct");
  const read = fvc.readStoreVarFile(record(color.bytes), { dialect: "godot3", keepFloats: true });
  assert.ok(desc.same(read.values[0], color.value));
});

test("a stream with dialect auto holds what engines read differently until told", () => {
  const cases = godot3Cases();
  const sent = [...AMBIGUOUS, "vector2/1_2", "rect2/distinct"];
  const decoder = new fvc.StreamDecoder({ dialect: "auto", keepFloats: true });
  for (const name of sent.slice(0, -1)) decoder.feed(record(cases.get(name).bytes));
  assert.deepEqual([...decoder], [], "a value came before the dialect was told");
  assert.equal(decoder.dialectSettled, false);
  decoder.feed(record(cases.get(sent.at(-1)).bytes));
  const got = [...decoder];
  assert.equal(decoder.dialect, "godot3");
  assert.equal(got.length, sent.length);
  sent.forEach((name, i) => assert.ok(desc.same(got[i], cases.get(name).value), name));
});
