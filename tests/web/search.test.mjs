// The page's search (web/search.js `matches`) finds what a walk of every value's key and text
// finds: its shortcuts (no number's or vector's text made for a query no such text can hold, the
// items of a packed array of numbers not read then) lose no match. The values: Godot 3.6.2's save
// fixture of every type it writes, read as the page reads it, and a save of every kind of
// container and packed array; the queries: pieces of one to four characters of the texts the
// tree shows (200 of them per save, spread over all), and words, numbers, signs and `name[N]`
// forms.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as fvc from "fast-var-codec";
import { matches } from "./web/search.js";
import { keyText, kids, leafText } from "./web/values.js";

const ROOT = process.env.FVC_ROOT;

/** The search as a plain walk of every value: each key's and leaf's text tested. */
function reference(state, q) {
  const index = /^(.*?)\s*\[(\d+)\]$/.exec(q);
  const go = index && { name: index[1], at: Number(index[2]) };
  const hits = [];
  const path = [];
  const visit = (v, label) => {
    const keyHit = label !== null && label.toLowerCase().includes(q);
    const k = kids(v);
    if (!k) {
      const text = leafText(v, state.singleReals);
      if (keyHit || (text !== null && text.toLowerCase().includes(q))) hits.push([...path]);
      return;
    }
    if (keyHit) hits.push([...path]);
    if (go && !k.keys && go.at < k.count && (label ?? "").toLowerCase().includes(go.name)) hits.push([...path, go.at]);
    for (let i = 0; i < k.count && hits.length < 500; i++) {
      path.push(i);
      visit(k.get(i), k.keys ? keyText(k.keys[i], state.singleReals) : null);
      path.pop();
    }
  };
  for (let r = 0; r < state.records.length && hits.length < 500; r++) {
    path.push(r);
    visit(state.records[r].value, null);
    path.pop();
  }
  hits.length = Math.min(hits.length, 500);
  return hits;
}

/** Every text the tree shows of the values: keys and leaves. */
function texts(state) {
  const out = new Set();
  const visit = (v, label) => {
    if (label !== null) out.add(label.toLowerCase());
    const k = kids(v);
    if (!k) {
      const text = leafText(v, state.singleReals);
      if (text !== null) out.add(text.toLowerCase());
      return;
    }
    for (let i = 0; i < k.count; i++) visit(k.get(i), k.keys ? keyText(k.keys[i], state.singleReals) : null);
  };
  for (const r of state.records) visit(r.value, null);
  return out;
}

function documents() {
  const fixture = fs.readFileSync(path.join(ROOT, "tests/saves/godot3_6_2/plain.bin"));
  const read = fvc.inspectStoreVarFile(fixture, { dialect: "godot3", allowObjects: true, keepFloats: true });
  const containers = {
    ints: [1, -2, 30000000000n, 0],
    floats: [new fvc.Float(0.25), new fvc.Float(-0), new fvc.Float(NaN), new fvc.Float(Infinity), new fvc.Float(1e21)],
    flags: [true, false, null, new fvc.Callable(), new fvc.EncodedObjectAsID(12n)],
    texts: ["Entity 19999", new fvc.StringName("name"), new fvc.NodePath("a/b:c")],
    math: [new fvc.Vector3(1.5, 0, -2), new fvc.Color(0.2, 0.4, 1, 1), new fvc.Rect2i(new fvc.Vector2i(1, 2), new fvc.Vector2i(3, 4)), new fvc.RID(5n)],
    packed: {
      bytes: Uint8Array.from([1, 2, 255]),
      heightmap: Float32Array.from({ length: 300 }, (_, i) => (i % 100) / 4),
      doubles: Float64Array.from([0.1, -2.5]),
      ints: Int32Array.from([7, -8]),
      longs: BigInt64Array.from([9n]),
      strings: new fvc.PackedStringArray(["sword", "shield"]),
      points: new fvc.PackedVector2Array([1, 2, 3.5, -4]),
    },
    typed: new fvc.TypedArray("int", [3, 4]),
    map: new Map([[1, "one"], [new fvc.Vector2(1, 2), "v"]]),
    object: new fvc.GodotObject("Resource", new Map([["hp", 10], ["tag", "boss"]])),
  };
  const made = fvc.inspectStoreVarFile(fvc.writeStoreVarFile([containers], { fullObjects: true }), { allowObjects: true, keepFloats: true });
  return [
    { name: "Godot 3.6.2's save fixture", records: read.records, singleReals: true },
    { name: "every container", records: made.records, singleReals: true },
    { name: "every container, double precision", records: made.records, singleReals: false },
  ];
}

test("the search finds what a walk of every key and text finds", () => {
  let queries = 0;
  for (const doc of documents()) {
    const state = { records: doc.records.map((r) => ({ value: r.value })), singleReals: doc.singleReals };
    const pieces = new Set();
    for (const text of texts(state)) {
      for (let n = 1; n <= 4; n++) for (let i = 0; i + n <= Math.min(text.length, 12); i++) pieces.add(text.slice(i, i + n).trim());
    }
    pieces.delete("");
    // At most 200 pieces, spread over the sorted list: each query is two walks of every value.
    const sorted = [...pieces].sort();
    const step = Math.max(1, Math.ceil(sorted.length / 200));
    const asked = [
      ...["entity 19999", "heightmap[99]", "[1]", "points[1]", "nan", "inf", "-0.0", "1e+21", "(1", ", -2", "#", "rid(", "true", "null", "callable()", "&", "zz"],
      ...sorted.filter((_, i) => i % step === 0),
    ];
    for (const q of asked) {
      assert.deepEqual(matches(state, q), reference(state, q), `${doc.name}: ${JSON.stringify(q)}`);
      queries++;
    }
  }
  assert.ok(queries > 300, `${queries} queries`);
});
