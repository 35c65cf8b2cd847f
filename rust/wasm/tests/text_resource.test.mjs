// Godot's text resources through readTextResource and writeTextResource, against the engines'
// own (the data rust/codec/tests/text_resource.rs reads): every .tres Godot 4.6.3 and Godot 3.6.2
// saved (tests/golden/tres_*.jsonl, made by tests/golden/gen/godot*/tres.gd) reads, writes back
// byte for byte, and an edited value is written as the engine writes it; nothing a file refers
// to is loaded.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const ENGINES = [
  { file: "tres_godot4_6_3.jsonl", engine: "4.6.3" },
  { file: "tres_godot3_6_2.jsonl", engine: "3.6.2" },
];

/** The files of a golden file, after its head line (which names the engine). */
function files(file, engine) {
  const [head, ...lines] = fs.readFileSync(path.join(desc.GOLDEN, file), "utf8").split("\n").filter(Boolean);
  assert.ok(JSON.parse(head).engine.startsWith(engine), head);
  return lines.map((l) => JSON.parse(l)).filter((c) => c.file !== undefined);
}

for (const { file, engine } of ENGINES) {
  test(`${engine}: every file reads and writes back byte for byte`, () => {
    let n = 0;
    for (const c of files(file, engine)) {
      const bytes = desc.hexBytes(c.file);
      const text = new TextDecoder().decode(bytes);
      const sections = fvc.readTextResource(bytes, { keepFloats: true });
      assert.equal(sections[0].get("tag"), "gd_resource", c.name);
      assert.equal(fvc.writeTextResource(sections), text, c.name);
      assert.equal(fvc.writeTextResource(fvc.readTextResource(text, { keepFloats: true })), text, c.name);
      n += 1;
    }
    assert.equal(n, 4);
  });

  test(`${engine}: a save's value is edited in place`, () => {
    const c = files(file, engine).find((f) => f.name === "save");
    const text = new TextDecoder().decode(desc.hexBytes(c.file));
    const sections = fvc.readTextResource(text, { keepFloats: true });
    const main = sections.find((s) => s.get("tag") === "resource").get("properties");
    const best = main.get("best");
    assert.ok(best instanceof fvc.GodotObject, String(best));
    assert.equal(best.className, "SubResource");
    main.set("level", 8);
    assert.equal(fvc.writeTextResource(sections), text.replace("level = 7\n", "level = 8\n"));
  });
}

test("nothing is loaded or made", () => {
  const evil = '[gd_resource type="Resource" format=3]\n\n[resource]\nx = Object(RefCounted,"script":Resource("res://evil.gd"))\n';
  assert.throws(() => fvc.readTextResource(evil), fvc.DecodeError);
  assert.throws(() => fvc.readTextResource("[resource]\na = 1\n"), /not a text resource/);
  assert.throws(() => fvc.writeTextResource([new Map([["tag", "resource"]])]), /not a text resource/);
  assert.throws(() => fvc.readTextResource(5), TypeError);
});
