// Godot's ConfigFile through readConfigFile and writeConfigFile, against the engines' own (the
// data rust/codec/tests/config_file.rs reads): every file Godot 4.6.3 and Godot 3.6.2 saved
// (tests/golden/config_*.jsonl, made by tests/golden/gen/godot*/config.gd) reads as the entries
// the engine read back from it, and writeConfigFile writes the same bytes from the entries the
// engine saved; their encrypted files open with the password or key, and fail without one or
// with a wrong one; each text of tests/golden/gen/config_texts.json reads as ConfigFile.parse
// read it, or is refused where the engine refused it. Then what the engine would run: refused.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const ENGINES = [
  { file: "config_godot4_6_3.jsonl", engine: "4.6.3", dialect: "godot4" },
  { file: "config_godot3_6_2.jsonl", engine: "3.6.2", dialect: "godot3" },
];

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The cases of a golden file, after its head line (which names the engine). */
// The texts that end in a key without '=': the engine reads them as if it were not there, the
// core refuses them (a path given for the text would otherwise read as nothing).
const DANGLING = ["[s]\nab\n", "[s]\na=1 2\n"];

function cases(file, engine) {
  const [head, ...lines] = fs.readFileSync(path.join(desc.GOLDEN, file), "utf8").split("\n").filter(Boolean);
  assert.ok(JSON.parse(head).engine.startsWith(engine), head);
  return lines.map((l) => JSON.parse(l));
}

/** A case's list `field` ("entries": what the engine read; "written": what it saved) as [section, key, bytes]. */
function engineEntries(c, field = "entries") {
  return c[field].map(([section, key, bytes]) => [section, key, desc.hexBytes(bytes)]);
}

/** The entries of readConfigFile's sections (a Map of Maps), in order. */
function entriesOf(sections) {
  assert.ok(sections instanceof Map, String(sections));
  const out = [];
  for (const [section, keys] of sections) {
    assert.ok(keys instanceof Map, `section ${section}`);
    for (const [key, value] of keys) out.push([section, key, value]);
  }
  return out;
}

/** The Variant type of an encoding (its header's low byte, in either engine). */
const typeOf = (bytes) => bytes[0];

/**
 * Whether `sections` hold what the engine read: the same sections and keys in the same order,
 * each value encoding to the engine's bytes, or decoding from them to the same value (Godot 3
 * leaves heap bytes in a NodePath's padding), or, where they hold floats, of the same type and
 * text: the engine does not round every decimal to its nearest binary64, the core does, so the
 * two can differ in a last bit that no text shows (the core's test compares so too). Returns
 * the first difference, or null.
 */
function difference(sections, engine, dialect) {
  const ours = entriesOf(sections);
  for (let i = 0; i < engine.length; i++) {
    const [es, ek, eb] = engine[i];
    if (i >= ours.length) return `entry ${i} [${es}] ${ek}: missing`;
    const [s, k, v] = ours[i];
    let encoded = null;
    try {
      encoded = fvc.encode(v, { dialect });
    } catch {
      // compared below through the engine's bytes
    }
    let decoded;
    try {
      decoded = fvc.decode(eb, { dialect, keepFloats: true });
    } catch (e) {
      decoded = e;
    }
    const same =
      (encoded !== null && desc.hexOf(encoded) === desc.hexOf(eb)) ||
      desc.same(decoded, v) ||
      (encoded !== null && typeOf(encoded) === typeOf(eb) && fvc.varToStr(decoded, { dialect }) === fvc.varToStr(v, { dialect }));
    if (s !== es || k !== ek || !same) {
      return `entry ${i}: ours [${s}] ${k} = ${desc.canon(v).slice(0, 200)}, the engine's [${es}] ${ek} = ${desc.canon(decoded).slice(0, 200)}`;
    }
  }
  if (ours.length > engine.length) return `an entry the engine has not: [${ours[engine.length][0]}] ${ours[engine.length][1]}`;
  return null;
}

/** The sections of a list of [section, key, the engine's bytes], as a Map of Maps of decoded values. */
function sectionsOf(entries, dialect) {
  const out = new Map();
  for (const [section, key, bytes] of entries) {
    if (!out.has(section)) out.set(section, new Map());
    out.get(section).set(key, fvc.decode(bytes, { dialect, keepFloats: true }));
  }
  return out;
}

function secretOf(c) {
  return c.password !== undefined ? { password: c.password } : { key: desc.hexBytes(c.key) };
}

const isError = (cls, godotError) => (e) => {
  assert.ok(e instanceof cls, `${e}`);
  assert.ok(e instanceof fvc.FastVarCodecError);
  assert.equal(e.godotError, godotError, e.message);
  return true;
};

for (const { file, engine, dialect } of ENGINES) {
  const all = cases(file, engine);
  const saved = all.filter((c) => c.file !== undefined && c.plain === undefined);
  const encrypted = all.filter((c) => c.plain !== undefined);
  const texts = all.filter((c) => c.text !== undefined);

  test(`${engine}: every file the engine saved reads as the engine read it, as bytes and as text`, () => {
    assert.ok(saved.length >= 5, `${saved.length} files`);
    for (const c of saved) {
      const bytes = desc.hexBytes(c.file);
      const sections = fvc.readConfigFile(bytes, { dialect, keepFloats: true });
      const diff = difference(sections, engineEntries(c), dialect);
      assert.equal(diff, null, `${engine} ${c.name}: ${diff}`);
      // The same file given as a text, and as an ArrayBuffer: the same sections.
      const asText = fvc.readConfigFile(utf8.decode(bytes), { dialect, keepFloats: true });
      assert.equal(desc.canon(asText), desc.canon(sections), c.name);
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      assert.equal(desc.canon(fvc.readConfigFile(buffer, { dialect, keepFloats: true })), desc.canon(sections), c.name);
    }
  });

  test(`${engine}: writeConfigFile of what the engine saved writes the engine's bytes`, () => {
    for (const c of saved) {
      const sections = sectionsOf(engineEntries(c, "written"), dialect);
      const ours = fvc.writeConfigFile(sections, { dialect });
      assert.ok(ours instanceof Uint8Array);
      // The texts first, for a readable difference; then every byte.
      assert.equal(Buffer.from(ours).toString("utf8"), Buffer.from(desc.hexBytes(c.file)).toString("utf8"), `${engine} ${c.name}`);
      assert.equal(desc.hexOf(ours), c.file, `${engine} ${c.name}`);
    }
  });

  test(`${engine}: encrypted files open with their password or key, and not without or with a wrong one`, () => {
    assert.deepEqual(encrypted.map((c) => c.password !== undefined ? "password" : "key").sort(), ["key", "password"]);
    for (const c of encrypted) {
      const data = desc.hexBytes(c.file);
      const secret = secretOf(c);
      const sections = fvc.readConfigFile(data, { dialect, keepFloats: true, ...secret });
      const plain = fvc.readConfigFile(desc.hexBytes(c.plain), { dialect, keepFloats: true });
      assert.ok(entriesOf(plain).length > 0, c.name);
      assert.equal(desc.canon(sections), desc.canon(plain), c.name);
      assert.throws(() => fvc.readConfigFile(data, { dialect }), isError(fvc.SaveFileError, "ERR_UNAUTHORIZED"), c.name);
      assert.throws(() => fvc.readConfigFile(data, { dialect, password: "x" }), isError(fvc.SaveFileError, "ERR_FILE_CORRUPT"), c.name);
      assert.throws(
        () => fvc.readConfigFile(data, { dialect, key: new Uint8Array(32).fill(0xee) }),
        isError(fvc.SaveFileError, "ERR_FILE_CORRUPT"),
        c.name,
      );
      // Written by the package: the engine's text, in the engine's container, opened with the
      // same secret. Godot 3's container has no IV: its bytes are the engine's, every one; Godot
      // 4's has a random one, so its header and length are.
      assert.equal(desc.hexOf(fvc.writeConfigFile(sections, { dialect })), c.plain, c.name);
      const ours = fvc.writeConfigFile(sections, { dialect, ...secret });
      if (dialect === "godot3") assert.equal(desc.hexOf(ours), c.file, c.name);
      assert.deepEqual(ours.subarray(0, 4), data.subarray(0, 4), c.name);
      assert.equal(ours.length, data.length, c.name);
      assert.equal(desc.canon(fvc.readConfigFile(ours, { dialect, keepFloats: true, ...secret })), desc.canon(plain), c.name);
      assert.throws(() => fvc.readConfigFile(ours, { dialect }), isError(fvc.SaveFileError, "ERR_UNAUTHORIZED"), c.name);
    }
  });

  test(`${engine}: each text reads as ConfigFile.parse read it, or is refused where the engine refused it`, () => {
    assert.ok(texts.length >= 40, `${texts.length} texts`);
    for (const c of texts) {
      const bytes = desc.hexBytes(c.text);
      const text = utf8.decode(bytes);
      const read = (data) => () => fvc.readConfigFile(data, { dialect, keepFloats: true });
      for (const data of [text, bytes]) {
        if (text.includes("Object(") || text.includes("Resource(")) {
          // The engine made the object (or tried to load the resource): refused here.
          assert.throws(read(data), isError(fvc.DecodeError, "ERR_UNAUTHORIZED"), `${c.name} ${JSON.stringify(text)}`);
        } else if (DANGLING.includes(text)) {
          // A key without '=' at the end, which the engine drops without a word: refused.
          assert.equal(c.error, 0, c.name);
          assert.throws(read(data), (e) => e instanceof fvc.DecodeError && e.message.includes("has no '='"), c.name);
        } else if (c.error !== 0) {
          // The engine's Error 43 is ERR_PARSE_ERROR; its message here names the line and column.
          assert.equal(c.error, 43, c.name);
          assert.throws(read(data), isError(fvc.DecodeError, "ERR_PARSE_ERROR"), `${c.name} ${JSON.stringify(text)}: the engine refused it`);
        } else {
          const diff = difference(read(data)(), engineEntries(c), dialect);
          assert.equal(diff, null, `${engine} ${c.name} ${JSON.stringify(text)}: ${diff}`);
        }
      }
    }
  });
}

test("a ConfigFile carrying a script runs nothing: refused, and data once its class and script are admitted", () => {
  const evil = '[save]\nhp=10\nplayer=Object(RefCounted,"script":Resource("res://evil.gd"))\n';
  for (const dialect of ["godot4", "godot3"]) {
    for (const data of [evil, new TextEncoder().encode(evil)]) {
      assert.throws(() => fvc.readConfigFile(data, { dialect }), isError(fvc.DecodeError, "ERR_UNAUTHORIZED"));
    }
  }
  // Objects allowed, of one class: its script is judged too, and refused.
  assert.throws(
    () => fvc.readConfigFile(evil, { allowObjects: true, allowedClasses: ["RefCounted"] }),
    isError(fvc.DecodeError, "ERR_UNAUTHORIZED"),
  );
  // With the script admitted as well, the object is data: a class, and its script a path.
  const cfg = fvc.readConfigFile(evil, { allowObjects: true, allowedClasses: ["RefCounted", "res://evil.gd"] });
  const player = cfg.get("save").get("player");
  assert.ok(player instanceof fvc.GodotObject, String(player));
  assert.equal(player.className, "RefCounted");
  assert.equal(desc.canon(player.properties), desc.canon(new Map([["script", "res://evil.gd"]])));
});

test("the sections come in decode's shapes: a Map of Maps, or with dictionaryAs objects, as strToVar gives the same Dictionary", () => {
  const text = '[player]\nname="Ada"\nhp=10\nspeed=2.0\npos=Vector2(1, 2)\n\n[world]\n"0"=[1, {"k": 2}]\n';
  const same = '{"player": {"name": "Ada", "hp": 10, "speed": 2.0, "pos": Vector2(1, 2)}, "world": {"0": [1, {"k": 2}]}}';
  for (const options of [{}, { dictionaryAs: "object" }, { keepFloats: true }, { useBigInt64: true }, { dictionaryAs: "map", maxDepth: 8 }]) {
    assert.equal(desc.canon(fvc.readConfigFile(text, options)), desc.canon(fvc.strToVar(same, options)), JSON.stringify(options));
  }
  const cfg = fvc.readConfigFile(text);
  assert.equal(cfg.get("player").get("hp"), 10);
  const objects = fvc.readConfigFile(text, { dictionaryAs: "object" });
  assert.equal(objects.player.name, "Ada");
  assert.ok(objects.world instanceof Map); // its key "0" an object would move
  assert.equal(desc.canon(fvc.readConfigFile("")), desc.canon(new Map()));
});

test("writeConfigFile takes what encode takes for a Dictionary of Dictionaries, and reads back", () => {
  const map = new Map([
    ["", new Map([["top", 1]])],
    ["player", new Map([["name", "Ada"], ["pos", new fvc.Vector2(1, 2)], ["speed", new fvc.Float(2)]])],
  ]);
  const object = { "": { top: 1 }, player: { name: "Ada", pos: new fvc.Vector2(1, 2), speed: new fvc.Float(2) } };
  const mixed = new Map([["", { top: 1 }], [new fvc.StringName("player"), new Map(Object.entries(object.player))]]);
  const text = (bytes) => new TextDecoder().decode(bytes);
  assert.equal(text(fvc.writeConfigFile(map)), 'top=1\n\n[player]\n\nname="Ada"\npos=Vector2(1, 2)\nspeed=2.0\n');
  assert.equal(text(fvc.writeConfigFile(map, { dialect: "godot3" })), '[]\n\ntop=1\n\n[player]\n\nname="Ada"\npos=Vector2( 1, 2 )\nspeed=2.0\n');
  for (const dialect of ["godot4", "godot3"]) {
    const expected = fvc.writeConfigFile(map, { dialect });
    assert.deepEqual(fvc.writeConfigFile(object, { dialect }), expected);
    assert.deepEqual(fvc.writeConfigFile(mixed, { dialect }), expected);
    for (const secret of [{}, { password: "pw" }, { key: new Uint8Array(32).fill(7) }]) {
      const file = fvc.writeConfigFile(map, { dialect, ...secret });
      assert.equal(desc.canon(fvc.readConfigFile(file, { dialect, keepFloats: true, ...secret })), desc.canon(map), `${dialect} ${Object.keys(secret)}`);
    }
  }
  // Godot 4's encrypted container takes a random IV: two files of the same sections differ.
  assert.notDeepEqual(fvc.writeConfigFile(map, { password: "pw" }), fvc.writeConfigFile(map, { password: "pw" }));
  assert.equal(fvc.writeConfigFile({}).length, 0);
});

test("bad input: a clear error of the package's classes, never a crash", () => {
  // A ConfigFile holds no null (Godot's set_value erases the key); undefined encodes as null.
  for (const sections of [{ s: { k: null } }, { s: { k: undefined } }, new Map([["s", new Map([["k", null]])]])]) {
    assert.throws(() => fvc.writeConfigFile(sections), (e) => isError(fvc.EncodeError, "ERR_INVALID_PARAMETER")(e) && /null/.test(e.message));
  }
  // Anything but sections of keys: refused as encode refuses bad input.
  for (const bad of [[1], 1, "s", null, { s: 1 }, { s: [1] }, new Map([[1, { k: 1 }]]), new Map([["s", new Map([[2, 1]])]])]) {
    assert.throws(() => fvc.writeConfigFile(bad), isError(fvc.EncodeError, "ERR_INVALID_PARAMETER"), desc.canon(bad));
  }
  assert.throws(() => fvc.writeConfigFile({ s: { k: () => 1 } }), (e) => e instanceof fvc.EncodeError && e.path.includes("k"));
  // Misuse: a TypeError, as elsewhere in the package.
  assert.throws(() => fvc.writeConfigFile({ s: { k: 1 } }, { dialect: "pandemonium5" }), TypeError);
  assert.throws(() => fvc.writeConfigFile({ s: { k: 1 } }, { dialect: "godot5" }), TypeError);
  assert.throws(() => fvc.writeConfigFile({ s: { k: 1 } }, { password: "pw", key: new Uint8Array(32) }), TypeError);
  assert.throws(() => fvc.readConfigFile("[s]\nk=1\n", { password: "pw" }), TypeError);
  assert.throws(() => fvc.readConfigFile(42), TypeError);
  assert.throws(() => fvc.readConfigFile("[s]\nk=1\n", { dictionaryAs: "json" }), TypeError);
  assert.throws(() => fvc.writeConfigFile({ s: { k: 1 } }, { key: new Uint8Array(16) }), fvc.SaveFileError);
  // Text that is not a ConfigFile: a DecodeError naming its line; bytes that are not UTF-8 too.
  assert.throws(() => fvc.readConfigFile("[s]\nk=1\nv=Vector2(1, }\n"), (e) => e instanceof fvc.DecodeError && /line 3/.test(e.message));
  assert.throws(() => fvc.readConfigFile(Uint8Array.from(Buffer.from('[s]\nk="\xff"\n', "latin1"))), isError(fvc.DecodeError, "ERR_PARSE_ERROR"));
  const cut = fvc.writeConfigFile({ s: { k: 1 } }, { password: "pw" }).subarray(0, 40);
  assert.throws(() => fvc.readConfigFile(cut, { password: "pw" }), (e) => e instanceof fvc.SaveFileError && e.cutShort);
  // Decode's limits bound the whole file.
  const many = Array.from({ length: 100 }, (_, i) => `k${i}=1\n`).join("");
  assert.throws(() => fvc.readConfigFile(many, { maxElements: 50 }), fvc.DecodeError);
  assert.equal(fvc.readConfigFile(many).get("").size, 100);
  assert.throws(() => fvc.readConfigFile(`[s]\nk=${"[".repeat(100_000)}${"]".repeat(100_000)}\n`), fvc.DecodeError);
});
