// JSON saves through readJsonSave and writeJsonSave, against the engines' own (the data
// rust/codec/tests/json_save.rs reads): every text Godot 4.6.3's JSON.stringify and Godot 3.6.2's
// JSON.print wrote (tests/golden/json_*.jsonl, made by tests/golden/gen/godot*/json.gd) reads
// with the style it was written in and writes back byte for byte; an encrypted save opens with
// its password and is written in the engine's container; what JSON cannot hold is refused.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const ENGINES = [
  { file: "json_godot4_6_3.jsonl", engine: "4.6.3", dialect: "godot4" },
  { file: "json_godot3_6_2.jsonl", engine: "3.6.2", dialect: "godot3" },
];

function lines(file, engine) {
  const [head, ...rest] = fs.readFileSync(path.join(desc.GOLDEN, file), "utf8").split("\n").filter(Boolean);
  assert.ok(JSON.parse(head).engine.startsWith(engine), head);
  return rest.map((l) => JSON.parse(l));
}

const utf8 = (hex) => new TextDecoder().decode(desc.hexBytes(hex));

for (const { file, engine, dialect } of ENGINES) {
  test(`${engine}'s JSON texts read with their style and write back byte for byte`, () => {
    let checked = 0;
    for (const c of lines(file, engine)) {
      if (c.read !== undefined) continue;
      for (const t of c.texts) {
        const text = utf8(t.text);
        let save;
        try {
          save = fvc.readJsonSave(text, { dialect, keepFloats: true });
        } catch (e) {
          // A vertical tab (written \v, which Godot 4 does not read) or Godot 3's NUL.
          assert.ok(e instanceof fvc.DecodeError, `${c.name}: ${e}`);
          continue;
        }
        if (!save.engineText) continue; // a number of more than 18 digits: another one, as in the engine
        const again = new TextDecoder().decode(fvc.writeJsonSave(save.value, save.style));
        assert.equal(again, text, `${c.name} in ${JSON.stringify(save.style)}`);
        checked++;
      }
    }
    assert.ok(checked > 250, `${checked} texts`);
  });
}

test("a JSON save's value, style and ints; an encrypted one; what JSON cannot hold", () => {
  const text = '{\n\t"hp": 10,\n\t"name": "Ada",\n\t"speed": 2.5\n}';
  const save = fvc.readJsonSave(text, { dictionaryAs: "object" });
  assert.deepEqual(save.value, { hp: 10, name: "Ada", speed: 2.5 });
  assert.deepEqual(save.style, { dialect: "godot4", indent: "\t", sortKeys: true, fullPrecision: false });
  assert.equal(save.engineText, true);
  const file = fvc.writeJsonSave({ hp: 12, name: "Ada", speed: 2.5 }, { ...save.style, password: "hunter2" });
  assert.equal(new TextDecoder().decode(file.subarray(0, 4)), "GDEC");
  assert.throws(() => fvc.readJsonSave(file), fvc.SaveFileError);
  const back = fvc.readJsonSave(file, { password: "hunter2", dictionaryAs: "object" });
  assert.deepEqual(back.value, { hp: 12, name: "Ada", speed: 2.5 });
  assert.throws(() => fvc.writeJsonSave({ player: { pos: new fvc.Vector2(1, 2) } }), (e) => e instanceof fvc.EncodeError && /Vector2.*\$\.player\.pos/.test(e.message));
  assert.throws(() => fvc.readJsonSave("[1,,2]"), (e) => e instanceof fvc.DecodeError && /line 1, column 4/.test(e.message));
});
