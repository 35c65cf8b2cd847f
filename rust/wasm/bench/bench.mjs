// Speed of the npm package fast-var-codec against @msgpack/msgpack, @gd-com/utils and JSON, in one
// Node process. Run by tests/bench_npm.sh, in a folder where the packed tarball, @msgpack/msgpack
// and @gd-com/utils (pinned there) are installed:
//   node bench.mjs [--rounds N] [--json FILE] [--markdown FILE] [--check]
//
// What: encode and decode of four payloads, the same data for every codec:
//   message  a game message: a Dictionary of 10 fields (ints, floats, a short String, a Vector2,
//            a Vector3, a small Array)
//   records  an Array of 1,000 small Dictionaries (id, name, hp, position, tags)
//   floats   a 1 MiB PackedFloat32Array (262,144 floats; fast-var-codec takes a Float32Array)
//   save     a save: nested Dictionaries of player, inventory and world state, with a 64-bit
//            int, a non-ASCII String, a PackedStringArray and a PackedInt32Array
// fast-var-codec encodes and decodes in the godot3 dialect (the one @gd-com/utils 5.0.0 writes:
// its type ids are Godot 3's) and in godot4. JSON: JSON.stringify and JSON.parse of the same data
// with vectors and packed arrays as arrays of numbers (strings, not bytes). @msgpack/msgpack:
// encode and decode of that same plain data (bytes, as fast-var-codec's), its ratio to
// fast-var-codec's godot4 time.
//
// @gd-com/utils 5.0.0 cannot write all of it: its putVar finds no type for a vector or a packed
// array inside a container (a vector object becomes a Dictionary of its fields), has no encoder
// for PoolRealArray, PoolIntArray or PoolStringArray, and writes every int in 32 bits and every
// float in 32 bits. So its encode cell times the variant of the payload it can write (vectors and
// packed arrays as Arrays of numbers, floats rounded to binary32, the 64-bit int as one of 32
// bits), its bytes are checked equal to fast-var-codec's godot3 bytes of that variant, and its
// ratio is to fast-var-codec's time on that variant too; the floats' encode has no cell. Its
// decode reads fast-var-codec's godot3 bytes of the real payload where it reads them to the
// payload (checked); it does not read Godot 3's PoolRealArray and PoolStringArray (it takes
// type 22 for an array of int64 and 23 for one of float32: its ids after 21 are neither Godot
// 3's nor 4's), so for the save it decodes its variant's bytes (ratio to fast-var-codec's time
// on those) and the floats' decode has no cell.
//
// Before timing every encoding is decoded back and compared; a failed check ends the run (exit
// 1). Timing: for each payload and op the codecs take turns round by round (the order rotates),
// so load on the machine hits them alike; a sample is a loop sized to about 50 ms; the figure is
// the median of the rounds' samples; ratios are other / fast-var-codec, from the same rounds.
// The floor for the packed array: a copy of its 1 MiB (Uint8Array.prototype.slice), timed in the
// same rounds, and call by call (one call of each in turn, the median of the pairs' ratios).
//
// --baseline MODULE: another build of the package installed beside this one (tests/bench_npm.sh
// --baseline TARBALL installs it as fvc-baseline) takes turns in the same rounds too, and a
// table of before → after is printed, and before ÷ after batch by batch (alternated pairs of
// batches of about 2 ms, the median of their ratios): a change's effect within one run.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import * as fvc from "fast-var-codec";
import * as msgpack from "@msgpack/msgpack";

const require = createRequire(`${process.cwd()}/`);
const gd = require("@gd-com/utils");
const gdVersion = require("@gd-com/utils/package.json").version;
const msgpackVersion = require("@msgpack/msgpack/package.json").version;
const fvcVersion = fvc.version();

const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}
const ROUNDS = Number(option("--rounds", 11));
const TARGET_MS = Number(option("--target-ms", 50));
const CHECK_ONLY = args.includes("--check");
const BASELINE = option("--baseline");
const base = BASELINE ? await import(BASELINE) : null;

const { Vector2, Vector3, PackedStringArray } = fvc;

// ------------------------------------------------------------------------------- the payloads

function makeMessage() {
  return {
    type: "state",
    tick: 48213,
    player: 7,
    hp: 87,
    speed: 5.25,
    yaw: 1.5707963267948966, // not a binary32: written as a 64-bit float
    pos: new Vector3(12.5, 0, -3.75),
    vel: new Vector2(0.5, -1.25),
    inputs: [1, 0, 3, 2],
    name: "Ayla",
  };
}

function makeRecords() {
  const tags = [["enemy", "melee"], ["enemy", "ranged", "elite"], ["npc"], []];
  const out = [];
  for (let i = 0; i < 1000; i++) {
    out.push({
      id: i,
      name: `unit_${String(i).padStart(4, "0")}`,
      hp: 100 - (i % 37),
      position: new Vector2(i * 0.5, 0 - i * 0.25),
      tags: [...tags[i % 4]],
    });
  }
  return out;
}

const FLOATS = 262_144; // 1 MiB of binary32
function makeFloats() {
  const a = new Float32Array(FLOATS);
  for (let i = 0; i < FLOATS; i++) a[i] = Math.sin(i * 0.001) * 100;
  return a;
}

function makeSave() {
  const skills = ["swordsmanship", "archery", "alchemy", "lockpicking", "sneak", "smithing"];
  const player = {
    name: "Zoë",
    level: 42,
    xp: 123456,
    hp: 250,
    max_hp: 300,
    gold: 98765,
    position: new Vector3(104.5, 2, -57.25),
    facing: new Vector2(0, 1),
    stats: { str: 12, dex: 15, int: 9, luck: 0.125 },
    skills: new PackedStringArray(skills),
  };
  const inventory = [];
  for (let i = 0; i < 300; i++) {
    inventory.push({
      item: `item_${String(i % 60).padStart(2, "0")}`,
      count: 1 + (i % 20),
      slot: i,
      durability: (i % 8) / 8,
      equipped: i < 6,
      enchant: i % 7 === 0 ? { kind: "fire", level: i % 5 } : null,
    });
  }
  const flags = {};
  for (let i = 0; i < 200; i++) flags[`quest_${String(i).padStart(3, "0")}_done`] = i % 3 === 0;
  const chests = [];
  for (let i = 0; i < 4000; i += 7) chests.push(i);
  const npcs = [];
  for (let i = 0; i < 150; i++) {
    npcs.push({
      id: `npc_${String(i).padStart(3, "0")}`,
      pos: new Vector3(i * 1.5, 0, 0 - i * 0.75),
      mood: ["happy", "angry", "idle"][i % 3],
      hp: 40 + (i % 60),
      alive: i % 11 !== 0,
    });
  }
  return {
    version: 3,
    saved_at: 1767225600,
    seed: 0x5deece66d1234, // beyond 32 bits: an int64
    player,
    inventory,
    world: {
      day: 57,
      time_of_day: 13.5,
      weather: "rain",
      flags,
      chests_opened: Int32Array.from(chests),
      npcs,
    },
  };
}

// ------------------------------------------------------------------ the other codecs' forms

function isVector(v) {
  return v instanceof Vector2 || v instanceof Vector3;
}

/** The payload as JSON takes it: vectors and packed arrays as arrays of numbers. */
function toPlain(v) {
  if (isVector(v)) return v instanceof Vector2 ? [v.x, v.y] : [v.x, v.y, v.z];
  if (v instanceof PackedStringArray) return [...v.strings];
  if (ArrayBuffer.isView(v)) return Array.from(v);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v !== null && typeof v === "object") {
    const o = {};
    for (const k of Object.keys(v)) o[k] = toPlain(v[k]);
    return o;
  }
  return v;
}

/** The variant @gd-com/utils can write: toPlain's, floats rounded to binary32, ints of 32 bits. */
function toGd(v) {
  if (typeof v === "number") {
    if (Number.isInteger(v)) return v > 0x7fffffff || v < -0x80000000 ? 123456789 : v;
    return Math.fround(v);
  }
  if (Array.isArray(v)) return v.map(toGd);
  if (v !== null && typeof v === "object") {
    const o = {};
    for (const k of Object.keys(v)) o[k] = toGd(v[k]);
    return o;
  }
  return v;
}

/** What @gd-com/utils's getVar returns, in toPlain's form (its vectors have x/y/z getters, its 64-bit ints are Longs). */
function fromGd(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(fromGd);
  const name = v.constructor?.name;
  if (name === "GodotVector2") return [v.x, v.y];
  if (name === "GodotVector3") return [v.x, v.y, v.z];
  if (name === "Long") return Number(v.toString());
  const o = {};
  for (const k of Object.keys(v)) o[k] = fromGd(v[k]);
  return o;
}

const asBuffer = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);

// -------------------------------------------------------------------------------- the cases

// Dictionaries as plain objects, as JSON.parse and @gd-com/utils make them (a build before
// dictionaryAs made them so by default, and ignores the option).
const G3 = new fvc.Codec({ dialect: "godot3", dictionaryAs: "object" });
const G4 = new fvc.Codec({ dialect: "godot4", dictionaryAs: "object" });
const B3 = base && new base.Codec({ dialect: "godot3", dictionaryAs: "object" });
const B4 = base && new base.Codec({ dialect: "godot4", dictionaryAs: "object" });

const payloads = [
  { name: "message", what: "game message, 10 fields with a Vector2 and a Vector3", value: makeMessage() },
  { name: "records", what: "1,000 records: Array of Dictionaries (id, name, hp, Vector2, tags)", value: makeRecords() },
  { name: "floats", what: "PackedFloat32Array of 262,144 (1 MiB)", value: makeFloats() },
  { name: "save", what: "save: nested Dictionaries, 300 items, 200 flags, 150 NPCs", value: makeSave() },
];

const checks = [];
for (const p of payloads) {
  const v = p.value;
  p.g3 = G3.encode(v);
  p.g4 = G4.encode(v);
  p.plain = toPlain(v);
  p.json = JSON.stringify(p.plain);
  p.msgpack = msgpack.encode(p.plain);
  assert.deepStrictEqual(toPlain(msgpack.decode(p.msgpack)), p.plain, `${p.name}: @msgpack/msgpack's decode(encode) differs`);
  assert.deepStrictEqual(G3.decode(p.g3), v, `${p.name}: godot3 decode(encode) differs`);
  assert.deepStrictEqual(G4.decode(p.g4), v, `${p.name}: godot4 decode(encode) differs`);
  assert.deepStrictEqual(JSON.parse(p.json), p.plain, `${p.name}: JSON.parse(JSON.stringify) differs`);
  if (base) {
    // The baseline's values are of its own classes: its decode of the godot4 bytes, which it
    // must write back to the same bytes in both dialects.
    p.base = p.name === "floats" ? v : base.decode(p.g4);
    assert.deepStrictEqual(B4.encode(p.base), p.g4, `${p.name}: the baseline writes other bytes`);
    assert.deepStrictEqual(B3.encode(p.base), p.g3, `${p.name}: the baseline writes other godot3 bytes`);
  }
  checks.push(`${p.name}: godot3 (${p.g3.length} bytes), godot4 (${p.g4.length}), @msgpack/msgpack (${p.msgpack.length}) and JSON decode back to the payload`);
  if (p.name !== "floats") {
    // The variant @gd-com/utils can write, and its bytes, which must be fast-var-codec's godot3 bytes of it.
    p.gdValue = toGd(p.plain);
    p.gdBytes = G3.encode(p.gdValue);
    const theirs = gd.putVar(p.gdValue);
    assert.deepStrictEqual(new Uint8Array(theirs), p.gdBytes, `${p.name}: @gd-com/utils writes other bytes than the godot3 dialect`);
    checks.push(`${p.name}: @gd-com/utils's bytes of its variant equal fast-var-codec's godot3 bytes of it (${p.gdBytes.length})`);
  }
  // What @gd-com/utils decodes: the payload's godot3 bytes when it reads them right, else its variant's.
  let read = null;
  try {
    read = gd.getVar(asBuffer(p.g3));
  } catch {
    read = null;
  }
  let readsPayload = false;
  try {
    assert.equal(read?.length, p.g3.length);
    assert.deepStrictEqual(fromGd(read.value), p.plain);
    readsPayload = true;
  } catch {
    readsPayload = false;
  }
  if (readsPayload) {
    p.gdDecodes = asBuffer(p.g3);
    checks.push(`${p.name}: @gd-com/utils reads the payload's godot3 bytes to the payload`);
  } else if (p.gdBytes !== undefined) {
    p.gdDecodes = asBuffer(p.gdBytes);
    const back = gd.getVar(p.gdDecodes);
    assert.equal(back.length, p.gdBytes.length, `${p.name}: @gd-com/utils's getVar took another length of its variant`);
    assert.deepStrictEqual(fromGd(back.value), p.gdValue, `${p.name}: @gd-com/utils decodes its variant to another value`);
    checks.push(`${p.name}: @gd-com/utils misreads the payload's godot3 bytes; it reads its variant's to the variant`);
  } else {
    checks.push(`${p.name}: @gd-com/utils misreads the payload's godot3 bytes (no variant it can write): no cell`);
  }
}
for (const c of checks) console.log(`check: ${c}`);
if (CHECK_ONLY) process.exit(0);

// ----------------------------------------------------------------------------------- timing

let sink = 0;
function loop(fn, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const r = fn();
    sink ^= r === undefined ? 0 : 1;
  }
  return Number(process.hrtime.bigint() - t0) / n;
}

function calibrate(fn) {
  let n = 1;
  for (;;) {
    const ns = loop(fn, n) * n;
    if (ns > 5e6 || n >= 1 << 22) return Math.max(1, Math.round((n * TARGET_MS * 1e6) / Math.max(ns, 1)));
    n *= 4;
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Times the functions of `cases` ({key: fn}) in rotating turns; returns {key: median ns}. */
function race(cases) {
  const keys = Object.keys(cases);
  const counts = {};
  for (const k of keys) counts[k] = calibrate(cases[k]);
  for (const k of keys) loop(cases[k], counts[k]); // a warm-up round
  const samples = Object.fromEntries(keys.map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[(r + j) % keys.length];
      samples[k].push(loop(cases[k], counts[k]));
    }
  }
  return Object.fromEntries(keys.map((k) => [k, median(samples[k])]));
}

const results = [];
const started = new Date();
const load0 = os.loadavg()[0];
for (const p of payloads) {
  const v = p.value;
  const enc = {
    fvc3: () => G3.encode(v),
    fvc4: () => G4.encode(v),
    json: () => JSON.stringify(p.plain),
    msgpack: () => msgpack.encode(p.plain),
  };
  if (p.gdValue !== undefined) {
    const gv = p.gdValue;
    enc.fvc3gd = () => G3.encode(gv);
    enc.gd = () => gd.putVar(gv);
  }
  const dec = {
    fvc3: () => G3.decode(p.g3),
    fvc4: () => G4.decode(p.g4),
    json: () => JSON.parse(p.json),
    msgpack: () => msgpack.decode(p.msgpack),
  };
  if (p.gdDecodes !== undefined) {
    const bytes = p.gdDecodes;
    dec.gd = () => gd.getVar(bytes);
    if (bytes.byteLength !== p.g3.length) {
      const mine = p.gdBytes;
      dec.fvc3gd = () => G3.decode(mine);
    }
  }
  if (base) {
    const bv = p.base;
    enc.base3 = () => B3.encode(bv);
    enc.base4 = () => B4.encode(bv);
    dec.base3 = () => B3.decode(p.g3);
    dec.base4 = () => B4.decode(p.g4);
  }
  if (p.name === "floats") {
    const raw = new Uint8Array(v.buffer);
    enc.copy = () => raw.slice();
    dec.copy = () => raw.slice();
  }
  const e = race(enc);
  const d = race(dec);
  results.push({ name: p.name, what: p.what, sizes: { godot3: p.g3.length, godot4: p.g4.length, msgpack: p.msgpack.length, json: p.json.length }, encode: e, decode: d });
  console.log(`${p.name}: encode ${JSON.stringify(e)} decode ${JSON.stringify(d)}`);
}
// The packed array against the copy, call by call: one call of each in turn (the order
// alternating), each timed, and the median of the pairs' ratios. Its calls take about a
// millisecond each, long enough to time one by one, and neighbours on the machine then hit both
// of a pair alike, which whole rounds of 50 ms do not ensure for allocations this large.
const PAIRS = 301;
function paired(fn, floor) {
  for (let i = 0; i < 10; i++) {
    fn();
    floor();
  }
  const ratios = [];
  for (let i = 0; i < PAIRS; i++) {
    const first = i % 2 === 0;
    const t0 = process.hrtime.bigint();
    const r0 = first ? fn() : floor();
    const t1 = process.hrtime.bigint();
    const r1 = first ? floor() : fn();
    const t2 = process.hrtime.bigint();
    sink ^= (r0 ? 1 : 0) ^ (r1 ? 1 : 0);
    const a = Number(t1 - t0);
    const b = Number(t2 - t1);
    ratios.push(first ? a / b : b / a);
  }
  return median(ratios);
}
// Before → after, the same way: batches of about 2 ms of each build in turn.
function pairedBatches(before, after) {
  const n = Math.max(1, Math.round(calibrate(after) / 25));
  loop(before, n);
  loop(after, n);
  const ratios = [];
  for (let i = 0; i < 101; i++) {
    const first = i % 2 === 0;
    const a = loop(first ? before : after, n);
    const b = loop(first ? after : before, n);
    ratios.push(first ? a / b : b / a);
  }
  return median(ratios);
}
const pairedBase = {};
if (base) {
  for (const p of payloads) {
    const bv = p.base;
    const v = p.value;
    pairedBase[p.name] = {
      encode3: pairedBatches(() => B3.encode(bv), () => G3.encode(v)),
      encode4: pairedBatches(() => B4.encode(bv), () => G4.encode(v)),
      decode3: pairedBatches(() => B3.decode(p.g3), () => G3.decode(p.g3)),
      decode4: pairedBatches(() => B4.decode(p.g4), () => G4.decode(p.g4)),
    };
  }
}
const floats = payloads.find((p) => p.name === "floats");
const floatRaw = new Uint8Array(floats.value.buffer);
const copy = () => floatRaw.slice();
const pairedRatios = {
  encode3: paired(() => G3.encode(floats.value), copy),
  encode4: paired(() => G4.encode(floats.value), copy),
  decode3: paired(() => G3.decode(floats.g3), copy),
  decode4: paired(() => G4.decode(floats.g4), copy),
};
const load1 = os.loadavg()[0];

// ---------------------------------------------------------------------------------- the table

const us = (ns) => (ns === undefined ? "–" : ns >= 100e3 ? `${(ns / 1e3).toFixed(0)}` : ns >= 10e3 ? `${(ns / 1e3).toFixed(1)}` : `${(ns / 1e3).toFixed(2)}`);
const ratio = (a, b) => (a === undefined || b === undefined ? "–" : (a / b >= 1 ? `**${(a / b).toFixed(2)}**` : (a / b).toFixed(2)));
const commit = process.env.FVC_BENCH_COMMIT ?? "unknown";
const lines = [];
lines.push(
  `fast-var-codec ${fvcVersion} (commit ${commit}), @msgpack/msgpack ${msgpackVersion}, @gd-com/utils ${gdVersion}, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}; ` +
    `${started.toISOString().slice(0, 16).replace("T", " ")} UTC, load average ${load0.toFixed(2)} before, ${load1.toFixed(2)} after; ` +
    `median of ${ROUNDS} rounds of about ${TARGET_MS} ms each, µs per call.`,
);
lines.push("");
for (const op of ["encode", "decode"]) {
  const jsonOp = op === "encode" ? "JSON.stringify" : "JSON.parse";
  lines.push(`| ${op} | fast-var-codec godot3 | godot4 | @msgpack/msgpack | @gd-com/utils | ${jsonOp} | @msgpack/msgpack ÷ fast-var-codec godot4 | @gd-com/utils ÷ fast-var-codec godot3 | ${jsonOp} ÷ fast-var-codec godot4 |`);
  lines.push("|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    const t = r[op];
    let gdCell = us(t.gd);
    let gdRatio = ratio(t.gd, t.fvc3);
    if (t.gd !== undefined && t.fvc3gd !== undefined) {
      gdCell = `${us(t.gd)} (variant; fast-var-codec ${us(t.fvc3gd)})`;
      gdRatio = ratio(t.gd, t.fvc3gd);
    } else if (t.gd === undefined) {
      gdCell = op === "encode" ? "– (no PoolRealArray encoder)" : "– (misreads a PoolRealArray)";
    }
    lines.push(`| ${r.name} | ${us(t.fvc3)} | ${us(t.fvc4)} | ${us(t.msgpack)} | ${gdCell} | ${us(t.json)} | ${ratio(t.msgpack, t.fvc4)} | ${gdRatio} | ${ratio(t.json, t.fvc4)} |`);
  }
  lines.push("");
}
const f = results.find((r) => r.name === "floats");
lines.push(
  `The 1 MiB PackedFloat32Array against a copy of its bytes (Uint8Array.prototype.slice, ${us(f.encode.copy)} / ${us(f.decode.copy)} µs in the same rounds): ` +
    `encode ${(f.encode.fvc4 / f.encode.copy).toFixed(2)}× the copy's time (godot4; godot3 ${(f.encode.fvc3 / f.encode.copy).toFixed(2)}×), ` +
    `decode ${(f.decode.fvc4 / f.decode.copy).toFixed(2)}× (godot3 ${(f.decode.fvc3 / f.decode.copy).toFixed(2)}×). ` +
    `Call by call (${PAIRS} alternated pairs, the median of their ratios): encode ${pairedRatios.encode4.toFixed(2)}× the copy's time ` +
    `(godot3 ${pairedRatios.encode3.toFixed(2)}×), decode ${pairedRatios.decode4.toFixed(2)}× (godot3 ${pairedRatios.decode3.toFixed(2)}×).`,
);
lines.push("");
lines.push(
  "Sizes (bytes; JSON: characters): " +
    results.map((r) => `${r.name} ${r.sizes.godot3} / ${r.sizes.godot4} / ${r.sizes.msgpack} / ${r.sizes.json}`).join(", ") +
    " (godot3 / godot4 / @msgpack/msgpack / JSON).",
);
if (base) {
  const label = process.env.FVC_BENCH_BASELINE_LABEL ?? BASELINE;
  lines.push("");
  lines.push(`Before (${label}) → after (this build), the same rounds; µs, and before ÷ after:`);
  lines.push("");
  lines.push("| | encode godot3 | encode godot4 | decode godot3 | decode godot4 |");
  lines.push("|---|---|---|---|---|");
  const cell = (t, b, a) => `${us(t[b])} → ${us(t[a])} (${(t[b] / t[a]).toFixed(2)})`;
  for (const r of results) {
    lines.push(`| ${r.name} | ${cell(r.encode, "base3", "fvc3")} | ${cell(r.encode, "base4", "fvc4")} | ${cell(r.decode, "base3", "fvc3")} | ${cell(r.decode, "base4", "fvc4")} |`);
  }
  lines.push("");
  lines.push("Before ÷ after batch by batch (101 alternated pairs of batches of about 2 ms, the median of their ratios):");
  lines.push("");
  lines.push("| | encode godot3 | encode godot4 | decode godot3 | decode godot4 |");
  lines.push("|---|---|---|---|---|");
  for (const [name, q] of Object.entries(pairedBase)) {
    lines.push(`| ${name} | ${q.encode3.toFixed(2)} | ${q.encode4.toFixed(2)} | ${q.decode3.toFixed(2)} | ${q.decode4.toFixed(2)} |`);
  }
}
const markdown = lines.join("\n");
console.log(`\n${markdown}`);
const md = option("--markdown");
if (md) writeFileSync(md, `${markdown}\n`);
const jf = option("--json");
if (jf) {
  writeFileSync(jf, JSON.stringify({ commit, fvcVersion, msgpackVersion, gdVersion, node: process.version, started, load: [load0, load1], rounds: ROUNDS, results, pairedRatios, pairedBase }, null, 2) + "\n");
}
if (sink === 42) console.log("");
