// strToVar and varToStr, Godot's text format through the core: every Godot 4.6.3 text of the
// golden values (tests/golden/var_to_str_godot4_6_3.jsonl) reads as the engine's str_to_var read
// it and writes back as the engine wrote it (or as that value, where the engine read another), and Godot 3.6.2's var2str texts
// (var2str_godot3_6_2.jsonl) the same in the Godot 3 dialect; an object in a text is refused.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

// Each case's text, by name, as the engine wrote it (those that are UTF-8).
function engineTexts(file) {
  const lines = fs.readFileSync(path.join(desc.GOLDEN, file), "utf8").split("\n").slice(1);
  const out = new Map();
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  for (const line of lines.filter(Boolean)) {
    const c = JSON.parse(line);
    try {
      out.set(c.name, utf8.decode(desc.hexBytes(c.text)));
    } catch {
      // a string the engine took from bytes that are not UTF-8: no JavaScript string holds it
    }
  }
  return out;
}

/** The hex of what the engine's str_to_var read from each text, where the file has it. */
function engineReads(file) {
  const out = new Map();
  for (const line of fs.readFileSync(path.join(desc.GOLDEN, file), "utf8").split("\n").slice(1)) {
    if (!line) continue;
    const c = JSON.parse(line);
    if (c.read) out.set(c.name, c.read);
  }
  return out;
}

function readBack(textsFile, corpus, dialect) {
  const texts = engineTexts(textsFile);
  const cases = new Map(desc.load(corpus).cases.filter((c) => c.bytes).map((c) => [c.name, c]));
  const reads = engineReads(textsFile);
  let compared = 0;
  for (const [name, text] of texts) {
    const c = cases.get(name);
    let decoded;
    try {
      decoded = fvc.decode(desc.hexBytes(c.bytes), { dialect, allowObjects: c.full_objects, keepFloats: true });
    } catch {
      continue; // malformed or refused bytes: no value to compare
    }
    if (fvc.varToStr(decoded, { dialect }) !== text) continue; // the engine's own digits or order
    if (fvc.varToStr(decoded).includes("RID(") && dialect === "godot3") continue; // written as nothing
    const value = fvc.strToVar(text, { allowObjects: c.full_objects, keepFloats: true });
    // What the engine's str_to_var read from the text, where the golden file has it: its reader
    // keeps 18 digits of a real, so FLT_MAX's neighbour reads as FLT_MAX, and the text written
    // again is that value's.
    const read = reads.get(name);
    const expected = read ? fvc.varToStr(fvc.decode(desc.hexBytes(read), { keepFloats: true }), { dialect }) : text;
    const again = fvc.varToStr(value, { dialect });
    if (dialect === "godot3" && again !== expected) {
      // Godot 3's order of keys is no order for pool arrays and Arrays, so keys read back may
      // sort into another order, as in Godot 3.6.2 itself (random/24's two PoolStringArrays).
      const lines = (t) => t.split("\n").map((l) => l.replace(/,$/, "")).sort();
      assert.deepEqual(lines(again), lines(expected), name);
    } else {
      assert.equal(again, expected, name);
    }
    compared++;
  }
  return compared;
}

test("Godot 4.6.3's texts read back and write as the engine wrote them", () => {
  assert.ok(readBack("var_to_str_godot4_6_3.jsonl", "godot4_6_3.json", "godot4") > 400);
});

test("Godot 3.6.2's var2str texts read back and write as it wrote them", () => {
  assert.ok(readBack("var2str_godot3_6_2.jsonl", "godot3_6_2.json", "godot3") > 280);
});

test("an object in a text is refused, and is data when allowed", () => {
  const text = 'Object(Node,"script":Resource("res://evil.gd"))';
  assert.throws(() => fvc.strToVar(text), fvc.DecodeError);
  const v = fvc.strToVar(text, { allowObjects: true, allowedClasses: ["Node", "res://evil.gd"] });
  assert.ok(v instanceof fvc.GodotObject && v.className === "Node", String(v));
});

test("text that is not Godot's names its line; an unchecked dialect's text is refused", () => {
  assert.throws(() => fvc.strToVar('{"hp": 10,\n"pos": Vector2(1, }'), (e) => e instanceof fvc.DecodeError && /line 2/.test(e.message));
  assert.throws(() => fvc.varToStr(1, { dialect: "pandemonium38" }), TypeError);
});
