// The web page (dist/web, built by tests/build_web.sh) in headless Chromium, driven by
// Playwright (playwright-core, no browser of its own: Debian's Chromium), and the files it saves
// read back by the real engines with their own File / FileAccess:
//   * Godot 3.6.2's password-encrypted save fixture: the password asked for (a wrong one said
//     so), one value changed with the keyboard, saved in the same container: Godot 3.6.2 reads
//     that change and every other value unchanged; a Vector4 refused with the package's message;
//     search; the bytes of the selected value;
//   * a compressed (Zstd) store_var file Godot 4.6.3 writes at test time: a Vector3 changed by
//     its components, saved compressed the same way, read back by Godot 4.6.3;
//   * Dictionary entries under int, bool and float keys, duplicates refused (the same int; a
//     StringName with a String key's text), read back by Godot 4.6.3;
//   * packed arrays edited item by item, items added and removed: a PackedVector2Array read back
//     by Godot 4.6.3; a PackedStringArray, a PackedByteArray, a PackedColorArray (its colour
//     picker) and a PackedInt32Array read back by the page;
//   * a dialect or precision chosen with unsaved changes: asked first; No keeps them (Godot 4.6.3
//     reads the change), Yes reads the file again;
//   * an Object's properties added and removed, a duplicate name refused, read back by the page;
//   * a Godot 3 save (Godot 3.6.2 writes it, encrypted) converted to Godot 4 (Godot 4's
//     encrypted container), read by Godot 4.6.3;
//   * a truncated and a damaged file: the values read before the failing byte, the error and
//     its offset (the offsets the fixture's sidecar gives);
//   * not whole saves: an empty file named, not opened, Godot 3.6.2's ConfigFile with an object
//     refused; its save cut short read-only, Save refused with the reason; its encrypted save cut
//     short said to be cut short, not a wrong password;
//   * edits, a removal and an addition undone and redone (keys and buttons) to the bytes saved
//     before; only the edited value marked; unsaved edits confirmed before another file opens,
//     and the tab's beforeunload stopped while they are not saved;
//   * JSON export then import gives the same file;
//   * text resources (tests/golden/tres_*.jsonl): each engine's save opened, its level changed with
//     the keyboard and saved as the engine writes it, the rest byte for byte; the files of every
//     golden value saved unchanged to the engine's bytes; an object refused;
//   * ConfigFiles (tests/golden/config_*.jsonl, what the engines saved): Godot 3.6.2's encrypted
//     one opened with its password (a wrong one said so), a null refused, one value changed with
//     the keyboard, saved encrypted: Godot 3.6.2's load_encrypted_pass reads that change and
//     every other key unchanged; Godot 4.6.3's and 3.6.2's saved unchanged (and through JSON
//     export and import) to the engine's bytes, their dialect found; Godot 4.6.3's encrypted one
//     saved in Godot 4's container; a text neither engine saves as it is read as godot4 and
//     offered as godot3; every key removed: not saved as an empty file, and undone saved as it
//     was; an object refused, broken text named by its line and column, a JSON text named;
//   * the package alone in Chromium decoding every golden corpus input as the Node tests expect.
//   * Firefox ESR (Debian's, driven by puppeteer-core over WebDriver BiDi): the Godot 3.6.2
//     encrypted save round trip again (its edit undone and redone with the keys), read back by
//     Godot 3.6.2 (when FIREFOX is set).
// Every Chromium page test asserts that the page requested nothing but its own file:// files,
// and put nothing on `window`.
// Environment (tests/run_web_tests.sh): FVC_ROOT, FVC_WEB_OUT, CHROMIUM, FIREFOX (may be
// empty), GODOT3, GODOT4, DEADLINE, FVC_GOLDEN_BUNDLE.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";
import * as desc from "./desc.mjs";
import * as fvc from "fast-var-codec";

/** A value's JSON projection (the package's), as the page's JSON files hold it. */
const toJson = (value) => JSON.parse(fvc.toJSON(value, { input: "value", fullObjects: true }));

const ROOT = process.env.FVC_ROOT;
const OUT = process.env.FVC_WEB_OUT;
const SCREENS = path.join(OUT, "screens");
// The page as the release's zip holds it (tests/run_web_tests.sh unzips it), else as built.
const PAGE_URL = pathToFileURL(process.env.FVC_WEB_PAGE ?? path.join(ROOT, "dist", "web", "index.html")).href;
const FIXTURES = path.join(ROOT, "tests", "saves", "godot3_6_2");
const PASSWORD = "fvc secret ✓";

let browser;

before(async () => {
  fs.mkdirSync(SCREENS, { recursive: true });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: ["--no-sandbox"] });
});

after(async () => {
  await browser?.close();
});

/** A fresh page of dist/web, recording every request and page error. */
async function openPage() {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  context.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(PAGE_URL);
  return {
    page,
    async close() {
      // The page keeps its state in one object its modules pass along: it puts nothing on
      // `window` (docs/web.md, "The page's files") that a page of the same folder without a
      // script (its style sheet; a file:// page has a secure context's globals) has not.
      const blank = await context.newPage();
      await blank.goto(new URL("style.css", PAGE_URL).href);
      const builtIn = new Set(await blank.evaluate(() => Object.keys(window)));
      const globals = (await page.evaluate(() => Object.keys(window))).filter((k) => !builtIn.has(k));
      await context.close();
      assert.deepEqual(globals, [], "the page put globals on window");
      const away = requests.filter((u) => !u.startsWith("file://") && !u.startsWith("blob:") && !u.startsWith("data:"));
      assert.deepEqual(away, [], "the page made a request that is not one of its own files");
      assert.ok(requests.length >= 3, `requests seen: ${requests.length}`);
      assert.deepEqual(errors, [], "errors in the page");
    },
  };
}

const shot = (page, name) => page.screenshot({ path: path.join(SCREENS, name + ".png") });

async function state(page, s) {
  await page.waitForFunction((want) => document.body.dataset.state === want, s, { timeout: 20_000 });
}

/** Saves with the keyboard (the Save button) and returns the downloaded file's path. */
async function save(page, name) {
  await page.focus("#save-go");
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  const file = path.join(OUT, name);
  await download.saveAs(file);
  return file;
}

/** Runs an engine's checker; returns [passed, failed] from its last line. */
function engine(godot, flags, args) {
  const r = spawnSync(process.env.DEADLINE, ["-k", "5", "120", godot, ...flags, ...args], { encoding: "utf8" });
  const out = `${r.stdout}\n${r.stderr}`;
  const m = [...r.stdout.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop();
  assert.ok(m, `no result from the engine (exit ${r.status}):\n${out.slice(-2000)}`);
  assert.doesNotMatch(out, /SCRIPT ERROR/, out.slice(-2000));
  const fails = r.stdout.split("\n").filter((l) => l.startsWith("FAIL")).slice(0, 10).join("\n");
  return [Number(m[1]), Number(m[2]), fails];
}

const godot3 = (args) => engine(process.env.GODOT3, ["--no-window", "--path", path.join(ROOT, "tests/web/godot3"), "-s", "res://check.gd"], args);
const godot4 = (args) => engine(process.env.GODOT4, ["--headless", "--path", path.join(ROOT, "tests/web/godot4"), "-s", "res://check.gd"], args);

/** Changes the value of tree row `id` with the keyboard: Enter, the text, Enter. */
async function editText(page, id, text) {
  await page.focus("#" + id);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+A");
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

test("Godot 3.6.2's encrypted save: password, one change, saved, read back by Godot 3.6.2", async () => {
  const { page, close } = await openPage();
  await shot(page, "empty");
  await page.setInputFiles("#file", path.join(FIXTURES, "encrypted_pass.bin"));
  await state(page, "locked");
  await shot(page, "locked");
  await page.keyboard.type("not the password");
  await page.keyboard.press("Enter");
  await state(page, "wrong-password");
  assert.match(await page.textContent("#unlock-why"), /Wrong password or key/);
  await shot(page, "wrong-password");
  await page.fill("#password", PASSWORD);
  await page.keyboard.press("Enter");
  await state(page, "open");
  assert.match(await page.textContent("#found"), /encrypted \(Godot 3's container\), 59 store_var values, dialect godot3/);

  // The int 42 (value 3) becomes 4242, with the keyboard alone.
  await editText(page, "n-3", "4242");
  const row = await page.textContent("#n-3");
  assert.match(row, /int4242/);
  assert.equal(await page.evaluate(() => document.activeElement.id), "n-3", "focus back on the row");
  // Its bytes: Godot's int header, then 4242 little-endian.
  assert.match(await page.textContent("#hex"), /02 00 00 00 92 10 00 00/);
  await shot(page, "edited");

  // An int stays an int: a fraction is refused before anything changes.
  await editText(page, "n-3", "1.5");
  assert.match(await page.textContent("#edit-error"), /not an int/);

  // What the dialect cannot hold is refused with the package's message: no Vector4 in Godot 3.
  await page.focus("#n-34");
  await page.selectOption("#adder-type", "Vector4");
  await page.click("#adder button[type=submit]");
  const refused = await page.textContent("#edit-error");
  assert.match(refused, /^Refused: encode failed at \[0\]: .*Vector4/);
  assert.match(await page.textContent("#n-34"), /0 items/);
  await shot(page, "refused");

  // Search by key, then the result shown in the tree.
  await page.fill("#search", "version");
  await page.focus("#search");
  await page.keyboard.press("Enter");
  assert.match(await page.textContent("#search-count"), /match/);
  await page.keyboard.press("Enter");
  assert.match(await page.textContent("#sel-path"), /#54 › "version": int/);
  await shot(page, "search");

  assert.equal(await page.inputValue("#save-container"), "password");
  const saved = await save(page, "godot3_edited.bin");
  assert.match(await page.textContent("#save-status"), /^Saved encrypted_pass\.bin: \d+ bytes, godot3, encrypted/);
  const [passed, failed, fails] = godot3([
    `--got=${saved}`, `--open=pass:${PASSWORD}`,
    `--expected=${path.join(FIXTURES, "encrypted_pass.bin")}`, `--expected-open=pass:${PASSWORD}`,
    "--changed=3", "--value=4242",
  ]);
  assert.equal(failed, 0, fails);
  assert.ok(passed >= 59 + 4, `only ${passed} checks`);
  await close();
});

test("a compressed store_var file Godot 4.6.3 wrote: a Vector3 changed, read back by Godot 4.6.3", async () => {
  const made = path.join(OUT, "godot4_zstd.bin");
  const [, wfail, wfails] = godot4([`--write=${made}`, "--open=compressed:2", "--set=roundtrip"]);
  assert.equal(wfail, 0, wfails);
  const { page, close } = await openPage();
  await page.setInputFiles("#file", made);
  await state(page, "open");
  assert.match(await page.textContent("#found"), /compressed \(zstd\), 14 store_var values, dialect godot4/);
  // Vector3(1, 2, 3): its y by its component input.
  await page.focus("#n-4");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement.id), "edit-c0");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("5");
  await page.keyboard.press("Enter");
  assert.match(await page.textContent("#n-4"), /Vector3\(1, 5, 3\)/);
  // A dictionary entry's offset and bytes are the core's: the first key of value 0.
  await page.focus("#n-0");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowDown");
  assert.match(await page.textContent("#sel-path"), /#0 › "player": String, bytes \d+–\d+/);
  await shot(page, "godot4");
  assert.equal(await page.inputValue("#save-container"), "zstd");
  const saved = await save(page, "godot4_edited.bin");
  assert.equal(fs.readFileSync(saved).subarray(0, 4).toString("latin1"), "GCPF");
  const [passed, failed, fails] = godot4([`--got=${saved}`, "--open=compressed:2", "--set=roundtrip", "--changed=4", "--value=Vector3(1, 5, 3)"]);
  assert.equal(failed, 0, fails);
  assert.ok(passed >= 14 + 2, `only ${passed} checks`);
  await close();
});

test("items and entries added and removed, typed Arrays refusing what does not fit, a raw var_to_bytes file", async () => {
  const made = path.join(OUT, "godot4_structure.bin");
  const [, wfail, wfails] = godot4([`--write=${made}`, "--open=compressed:2", "--set=roundtrip"]);
  assert.equal(wfail, 0, wfails);
  const { page, close } = await openPage();
  await page.setInputFiles("#file", made);
  await state(page, "open");
  await page.selectOption("#save-container", "plain");
  const before = fs.readFileSync(await save(page, "structure_before.bin"));
  // Array[int] (value 10): a String is refused by the package, an int is added.
  await page.focus("#n-10");
  await page.selectOption("#adder-type", "String");
  await page.click("#adder button[type=submit]");
  assert.match(await page.textContent("#edit-error"), /^Refused: encode failed at \[3\]/);
  await page.selectOption("#adder-type", "int");
  await page.click("#adder button[type=submit]");
  assert.match(await page.textContent("#n-10"), /Array\[int\]4 items/);
  // An entry added to a Dictionary (value 11), by key.
  await page.focus("#n-11");
  await page.fill("#adder-key", "added");
  await page.selectOption("#adder-type", "Vector2");
  await page.click("#adder button[type=submit]");
  assert.match(await page.textContent("#n-11"), /Dictionary2 entries/);
  assert.match(await page.textContent("#n-11-1"), /"added"Vector2\(0, 0\)/);
  // Both removed with the keyboard (Delete on the row): the file is as it was.
  await page.focus("#n-11-1");
  await page.keyboard.press("Delete");
  await page.focus("#n-10-3");
  await page.keyboard.press("Delete");
  assert.match(await page.textContent("#n-10"), /Array\[int\]3 items/);
  const after = fs.readFileSync(await save(page, "structure_after.bin"));
  assert.ok(before.equals(after), "adding then removing changed the file");

  // A raw var_to_bytes file (no length before the value): found as such, saved as such.
  const raw = Buffer.from(before.subarray(4 + before.readUInt32LE(0) + 4, 4 + before.readUInt32LE(0) + 4 + before.readUInt32LE(4 + before.readUInt32LE(0))));
  await page.setInputFiles("#file", { name: "raw.bin", mimeType: "application/octet-stream", buffer: raw });
  await state(page, "open");
  assert.match(await page.textContent("#found"), /one var_to_bytes value, dialect godot4/);
  await page.selectOption("#save-container", "plain");
  const again = fs.readFileSync(await save(page, "raw_again.bin"));
  assert.ok(raw.equals(again), "a raw file saved differs");
  await close();
});

/** Adds an entry to the selected Dictionary (or Object) with the keyboard: key type, key, type, Enter. */
async function addEntry(page, keyType, key, type) {
  await page.focus("#adder-key-type");
  await page.selectOption("#adder-key-type", keyType);
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "adder-key");
  await page.keyboard.press("Control+A");
  await page.keyboard.type(key);
  await page.selectOption("#adder-type", type);
  await page.focus("#adder-key");
  await page.keyboard.press("Enter");
}

test("Dictionary keys of other types than String, a duplicate key refused: Godot 4.6.3 reads them", async () => {
  const made = path.join(OUT, "godot4_keys.bin");
  const [, wfail, wfails] = godot4([`--write=${made}`, "--open=plain", "--set=roundtrip"]);
  assert.equal(wfail, 0, wfails);
  const { page, close } = await openPage();
  await page.setInputFiles("#file", made);
  await state(page, "open");
  // Value 11: {"nested": {...}}. The key types offered: String, StringName, int, float, bool.
  await page.focus("#n-11");
  assert.deepEqual(await page.$$eval("#adder-key-type option", (os) => os.map((o) => o.value)), ["String", "StringName", "int", "float", "bool"]);
  await addEntry(page, "int", "5", "int");
  assert.match(await page.textContent("#n-11-1"), /^5int0/);
  // The new entry's value is in the editor: 12, Enter.
  assert.equal(await page.evaluate(() => document.activeElement.id), "edit-value");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("12");
  await page.keyboard.press("Enter");
  await page.focus("#n-11");
  await addEntry(page, "bool", "true", "String");
  await page.focus("#n-11");
  await addEntry(page, "float", "2.5", "null");
  assert.match(await page.textContent("#n-11"), /Dictionary4 entries/);
  // Keys the Dictionary holds already, by Godot's rules (the package's): the same int, and a
  // StringName with a String key's text.
  await page.focus("#n-11");
  await addEntry(page, "int", "5", "int");
  assert.match(await page.textContent("#edit-error"), /^Not added: the Dictionary already has the key 5 \(int\)/);
  await addEntry(page, "StringName", "nested", "int");
  assert.match(await page.textContent("#edit-error"), /already has the key &"nested" \(StringName\)/);
  await addEntry(page, "int", "x", "int");
  assert.match(await page.textContent("#edit-error"), /"x" is not an int key/);
  assert.match(await page.textContent("#n-11"), /Dictionary4 entries/);
  // Escape in the adder goes back to the tree.
  await page.focus("#adder-key");
  await page.keyboard.press("Escape");
  assert.equal(await page.evaluate(() => document.activeElement.id), "n-11");
  await shot(page, "keys");
  const saved = await save(page, "godot4_keys_saved.bin");
  const [passed, failed, fails] = godot4([
    `--got=${saved}`, "--open=plain", "--set=roundtrip", "--changed=11",
    `--value={"nested": {"list": [1, 2.5, "x"]}, 5: 12, true: "", 2.5: null}`,
  ]);
  assert.equal(failed, 0, fails);
  assert.ok(passed >= 14 + 2, `only ${passed} checks`);
  await close();
});

/**
 * Opens a file the test saved in `dialect`, and waits for the page to show it. Where another
 * engine family reads the file whole as other values (a Godot 4 PackedColorArray alone is a
 * Pandemonium 5 PackedVector4Array, a Godot 4 Object a Godot 3 PoolVector2Array), the page
 * asks which engine wrote it: the test answers as a user would.
 */
async function reopen(page, file, dialect = "godot4") {
  await page.setInputFiles("#file", file);
  const name = path.basename(file);
  await page.waitForFunction(
    (name) => document.getElementById("found").textContent.startsWith(name + ":") || document.body.dataset.state === "ambiguous",
    name,
  );
  if ((await page.evaluate(() => document.body.dataset.state)) === "ambiguous") {
    assert.match(await page.textContent("#failure"), new RegExp(` as ${dialect}\\b`));
    await page.click(`#ambiguous-choices button[data-dialect="${dialect}"]`);
    await page.waitForFunction((name) => document.getElementById("found").textContent.startsWith(name + ":"), name);
  }
}

/** Sets component `j` of the selected row's value with the keyboard: Enter, Tab j times, the text, Enter. */
async function editComponent(page, id, j, text) {
  await page.focus("#" + id);
  await page.keyboard.press("Enter");
  for (let i = 0; i < j; i++) await page.keyboard.press("Tab");
  await page.keyboard.press("Control+A");
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/** Adds an item to the container of row `id` with the keyboard (the Add button). */
async function addItem(page, id) {
  await page.focus("#" + id);
  await page.focus("#adder button[type=submit]");
  await page.keyboard.press("Enter");
}

test("packed arrays edited item by item, items added and removed: Godot 4.6.3 reads them", async () => {
  const made = path.join(OUT, "godot4_packed.bin");
  const [, wfail, wfails] = godot4([`--write=${made}`, "--open=plain", "--set=roundtrip"]);
  assert.equal(wfail, 0, wfails);
  const { page, close } = await openPage();
  await page.setInputFiles("#file", made);
  await state(page, "open");
  // Value 9: PackedVector2Array([Vector2(1, 2), Vector2(3, 4)]), item [1] by its components.
  await page.focus("#n-9");
  await page.keyboard.press("ArrowRight");
  await editComponent(page, "n-9-1", 1, "7");
  assert.match(await page.textContent("#n-9-1"), /Vector2\(3, 7\)/);
  assert.deepEqual(await page.$$eval("#edit-type option", (os) => os.map((o) => o.value)), ["Vector2"]);
  // An item added (a Vector2 only), then set; item [0] removed with Delete.
  await page.focus("#n-9");
  assert.deepEqual(await page.$$eval("#adder-type option", (os) => os.map((o) => o.value)), ["Vector2"]);
  await addItem(page, "n-9");
  assert.equal(await page.evaluate(() => document.activeElement.id), "edit-c0");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("9");
  await page.keyboard.press("Enter");
  await page.focus("#n-9-0");
  await page.keyboard.press("Delete");
  assert.match(await page.textContent("#n-9"), /PackedVector2Array2 items/);
  await shot(page, "packed");
  const saved = await save(page, "godot4_packed_saved.bin");
  const [passed, failed, fails] = godot4([`--got=${saved}`, "--open=plain", "--set=roundtrip", "--changed=9", "--value=PackedVector2Array(3, 7, 9, 0)"]);
  assert.equal(failed, 0, fails);
  assert.ok(passed >= 14 + 2, `only ${passed} checks`);

  // Value 8: PackedStringArray(["a", "b"]): [0] changed, "c" added, "b" removed; value 13, a
  // PackedByteArray of 10000 bytes: its first removed, one added and set. Read again by the page.
  await page.focus("#n-8");
  await page.keyboard.press("ArrowRight");
  await editText(page, "n-8-0", "z");
  await addItem(page, "n-8");
  await page.keyboard.type("c");
  await page.keyboard.press("Enter");
  await page.focus("#n-8-1");
  await page.keyboard.press("Delete");
  await page.focus("#n-13");
  await page.keyboard.press("ArrowRight");
  await page.focus("#n-13-0");
  await page.keyboard.press("Delete");
  assert.deepEqual(await page.$$eval("#adder-type option", (os) => os.map((o) => o.value)), ["int"]);
  await addItem(page, "n-13");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("255");
  await page.keyboard.press("Enter");
  assert.match(await page.textContent("#n-13"), /PackedByteArray10000 bytes/);
  const again = await save(page, "godot4_packed_again.bin");
  await reopen(page, again);
  assert.match(await page.textContent("#n-8"), /PackedStringArray2 items/);
  await page.focus("#n-8");
  await page.keyboard.press("ArrowRight");
  assert.match(await page.textContent("#n-8-0"), /\[0\]String"z"/);
  assert.match(await page.textContent("#n-8-1"), /\[1\]String"c"/);
  assert.match(await page.textContent("#n-9"), /PackedVector2Array2 items/);
  assert.match(await page.textContent("#n-13"), /PackedByteArray10000 bytes/);
  await page.focus("#n-13");
  await page.keyboard.press("ArrowRight");
  assert.match(await page.textContent("#n-13-0"), /^\[0\]int10\b/); // (1 * 7 + 3) % 256
  // The byte added is the file's last (value 13 is the last value; 10000 bytes need no padding).
  assert.equal(fs.readFileSync(again).at(-1), 255);

  // A PackedColorArray (its colour picker) and a PackedInt32Array, brought in by JSON.
  const doc = { dialect: "godot4", values: [toJson(new fvc.PackedColorArray([0.2, 0.4, 0.6, 1, 0, 0, 0, 1])), toJson(new Int32Array([1, 2, 3]))] };
  const json = path.join(OUT, "packed.json");
  fs.writeFileSync(json, JSON.stringify(doc));
  await page.setInputFiles("#import-json", json);
  await page.waitForFunction(() => /^Imported 2 values/.test(document.getElementById("save-status").textContent));
  await page.focus("#n-0");
  await page.keyboard.press("ArrowRight");
  await page.focus("#n-0-1");
  await page.fill("#edit-color", "#ff8000");
  await page.focus("#apply");
  await page.keyboard.press("Enter");
  assert.match(await page.textContent("#n-0-1"), /Color\(1, 0\.5019608, 0, 1\)/);
  await addItem(page, "n-1");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("4");
  await page.keyboard.press("Enter");
  await page.focus("#n-1");
  await page.keyboard.press("ArrowRight");
  await page.focus("#n-1-0");
  await page.keyboard.press("Delete");
  const colours = await save(page, "packed_colours.bin");
  await reopen(page, colours);
  assert.match(await page.textContent("#n-0"), /PackedColorArray2 items/);
  await page.focus("#n-0");
  await page.keyboard.press("ArrowRight");
  assert.match(await page.textContent("#n-0-0"), /Color\(0\.2, 0\.4, 0\.6, 1\)/);
  assert.match(await page.textContent("#n-0-1"), /Color\(1, 0\.5019608, 0, 1\)/);
  await page.focus("#n-1");
  await page.keyboard.press("ArrowRight");
  assert.deepEqual(await page.$$eval("#n-1 [role=group] .val", (vs) => vs.map((v) => v.textContent)), ["2", "3", "4"]);
  await close();
});

test("choosing a dialect or precision with unsaved changes asks first: kept on No, read again on Yes", async () => {
  const made = path.join(OUT, "godot4_reread.bin");
  const [, wfail, wfails] = godot4([`--write=${made}`, "--open=plain", "--set=roundtrip"]);
  assert.equal(wfail, 0, wfails);
  const { page, close } = await openPage();
  const asked = [];
  let answer = false;
  page.on("dialog", (d) => {
    asked.push(d.message());
    return answer ? d.accept() : d.dismiss();
  });
  await page.setInputFiles("#file", made);
  await state(page, "open");
  await editText(page, "n-3", "8");
  assert.match(await page.textContent("#n-3"), /int8/);
  // No: the choice is undone, the change kept.
  await page.selectOption("#dialect", "godot4");
  assert.equal(asked.length, 1);
  assert.match(asked[0], /^Reading godot4_reread\.bin again as godot4 drops the changes made here to 1 value/);
  assert.equal(await page.inputValue("#dialect"), "auto");
  assert.match(await page.textContent("#n-3"), /int8/);
  assert.match(await page.textContent("#status"), /Dialect not changed/);
  await page.selectOption("#precision", "double");
  assert.equal(asked.length, 2);
  assert.equal(await page.inputValue("#precision"), "single");
  assert.match(await page.textContent("#n-3"), /int8/);
  // Saved with the change kept.
  const saved = await save(page, "godot4_reread_saved.bin");
  const [passed, failed, fails] = godot4([`--got=${saved}`, "--open=plain", "--set=roundtrip", "--changed=3", "--value=8"]);
  assert.equal(failed, 0, fails);
  assert.ok(passed >= 14 + 2, `only ${passed} checks`);
  // Yes: the file read again as chosen, the change dropped; nothing changed, nothing asked.
  answer = true;
  await page.selectOption("#dialect", "godot4");
  assert.equal(asked.length, 3);
  await page.waitForFunction(() => /dialect godot4 \(chosen\)/.test(document.getElementById("found").textContent));
  assert.match(await page.textContent("#n-3"), /int7/);
  await page.selectOption("#dialect", "auto");
  assert.equal(asked.length, 3);
  await close();
});

test("an Object's properties added and removed, a duplicate name refused: the page reads the saved file back", async () => {
  const made = path.join(OUT, "godot4_objects.bin");
  const [, wfail, wfails] = godot4([`--write=${made}`, "--open=plain", "--set=roundtrip"]);
  assert.equal(wfail, 0, wfails);
  const { page, close } = await openPage();
  await page.setInputFiles("#file", made);
  await state(page, "open");
  const object = new fvc.GodotObject("Resource", new Map([["resource_name", "sword"], ["resource_path", ""]]));
  const json = path.join(OUT, "object.json");
  fs.writeFileSync(json, JSON.stringify({ dialect: "godot4", values: [toJson(object)] }));
  await page.setInputFiles("#import-json", json);
  await page.waitForFunction(() => /^Imported 1 values/.test(document.getElementById("save-status").textContent));
  await page.focus("#n-0");
  assert.equal(await page.textContent("#adder-title"), "Add a property");
  assert.deepEqual(await page.$$eval("#adder-key-type option", (os) => os.map((o) => o.value)), ["String"]);
  await addEntry(page, "String", "hp", "int");
  assert.equal(await page.evaluate(() => document.activeElement.id), "edit-value");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("3");
  await page.keyboard.press("Enter");
  await page.focus("#n-0");
  await addEntry(page, "String", "resource_name", "int");
  assert.match(await page.textContent("#edit-error"), /^Not added: the Object \(Resource\) already has the property "resource_name"/);
  await page.keyboard.press("Escape");
  await page.keyboard.press("ArrowRight");
  await page.focus("#n-0-1");
  await page.keyboard.press("Delete");
  assert.match(await page.textContent("#n-0"), /Object \(Resource\)2 properties/);
  await shot(page, "object");
  const saved = await save(page, "object_saved.bin");
  await reopen(page, saved);
  await page.focus("#n-0");
  await page.keyboard.press("ArrowRight");
  assert.deepEqual(await page.$$eval("#n-0 [role=group] .key", (ks) => ks.map((k) => k.textContent)), ["resource_name", "hp"]);
  assert.match(await page.textContent("#n-0-1"), /hpint3/);
  await close();
});

test("a Godot 3 save converted to Godot 4 (encrypted, re-encrypted): Godot 4.6.3 reads it", async () => {
  const made = path.join(OUT, "godot3_conversion.bin");
  const [, wfail, wfails] = godot3([`--write=${made}`, "--open=pass:pw"]);
  assert.equal(wfail, 0, wfails);
  const { page, close } = await openPage();
  await page.setInputFiles("#file", made);
  await state(page, "locked");
  await page.keyboard.type("pw");
  await page.keyboard.press("Enter");
  await state(page, "open");
  assert.match(await page.textContent("#found"), /dialect godot3/);
  await page.selectOption("#save-dialect", "godot4");
  await page.fill("#save-name", "converted.bin");
  const saved = await save(page, "godot4_converted.bin");
  assert.match(await page.textContent("#save-status"), /godot4, encrypted/);
  await shot(page, "converted");
  const [passed, failed, fails] = godot4([`--got=${saved}`, "--open=pass:pw", "--set=conversion"]);
  assert.equal(failed, 0, fails);
  assert.ok(passed >= 15 + 2, `only ${passed} checks`);
  // And back as plain (no container), read as Godot 4 again.
  await page.selectOption("#save-container", "plain");
  const plain = await save(page, "godot4_converted_plain.bin");
  const [p2, f2, fails2] = godot4([`--got=${plain}`, "--open=plain", "--set=conversion"]);
  assert.equal(f2, 0, fails2);
  assert.ok(p2 >= 17);
  await close();
});

/** The fixture's plain.bin records: [offset, end] of each value's record, from its sidecar. */
function plainRecords() {
  const side = JSON.parse(fs.readFileSync(path.join(FIXTURES, "plain.json"), "utf8"));
  const offsets = side.values.map((v) => v.offset);
  return offsets.map((o, i) => [o, i + 1 < offsets.length ? offsets[i + 1] : side.payload_size]);
}

test("a truncated file and a damaged one: the values before the failing byte, the error and its offset; a file that cannot be read: said so, the open one kept", async () => {
  const plain = fs.readFileSync(path.join(FIXTURES, "plain.bin"));
  const records = plainRecords();
  const { page, close } = await openPage();

  // Cut inside a record: that record is the failure, at its length's offset.
  const cut = 5000;
  const k = records.findIndex(([o, end]) => o < cut && end > cut);
  await page.setInputFiles("#file", { name: "truncated.bin", mimeType: "application/octet-stream", buffer: plain.subarray(0, cut) });
  await state(page, "damaged");
  const failure = await page.textContent("#failure");
  assert.match(failure, new RegExp(`^Read ${k} values, then: .*cut short`));
  assert.match(await page.textContent("#failure-offset"), new RegExp(`^Failing byte: ${records[k][0]} `));
  assert.equal(await page.locator("#tree > li[role=treeitem]").count(), k);
  await shot(page, "truncated");

  // A type id no dialect has, in the header of value 10: the failure is that byte.
  const damaged = Buffer.from(plain);
  const at = records[10][0] + 4;
  damaged[at] = 0xee;
  await page.setInputFiles("#file", { name: "damaged.bin", mimeType: "application/octet-stream", buffer: damaged });
  await state(page, "damaged");
  assert.match(await page.textContent("#failure"), /^Read 10 values, then: decode failed at byte \d+: .*type id 238/);
  assert.match(await page.textContent("#failure-offset"), new RegExp(`^Failing byte: ${at} `));
  assert.match(await page.textContent("#failure-hex"), /ee/);
  await shot(page, "damaged");

  // A file the browser cannot read once chosen (moved or deleted since): said so, and the page
  // goes back to the file it had open.
  await page.evaluate(() => {
    File.prototype.arrayBuffer = () => Promise.reject(new DOMException("the file is gone", "NotReadableError"));
  });
  await page.setInputFiles("#file", { name: "gone.bin", mimeType: "application/octet-stream", buffer: plain });
  await page.waitForFunction(() => /^gone\.bin could not be read/.test(document.getElementById("status").textContent), null, { timeout: 10_000 });
  assert.match(await page.textContent("#status"), /\(the file is gone\); damaged\.bin stays open\.$/);
  assert.equal(await page.evaluate(() => document.body.dataset.state), "damaged");
  assert.equal(await page.locator("#tree > li[role=treeitem]").count(), 10);
  await close();
});

/** Presses Save and waits for the page to say it did not save; returns the message. */
async function saveRefused(page, downloads) {
  const before = downloads.length;
  await page.focus("#save-go");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /^Not saved/.test(document.getElementById("save-status").textContent), null, { timeout: 10_000 });
  assert.equal(downloads.length, before, "a file was downloaded");
  return page.textContent("#save-status");
}

test("files that are not whole saves: named as such, never saved short; a cut encrypted file is not a wrong password", async () => {
  const { page, close } = await openPage();
  const downloads = [];
  page.on("download", (d) => downloads.push(d));

  // An empty file: said so, nothing shown to save.
  await page.setInputFiles("#file", { name: "empty.sav", mimeType: "application/octet-stream", buffer: Buffer.alloc(0) });
  await state(page, "empty-file");
  assert.match(await page.textContent("#failure"), /^empty\.sav: empty file \(0 bytes\)/);
  assert.ok(await page.locator("#doc").isHidden(), "an empty file shows a document to save");

  // A store_var record of the Color Godot 3.6.2 wrote (tests/golden): Godot 4 reads the same
  // bytes whole as a Plane. Nothing is guessed: both readings shown, the user chooses.
  const color = desc.load("godot3_6_2.json").cases.find((c) => c.name === "color/distinct");
  const colorBytes = Buffer.from(color.bytes, "hex");
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32LE(colorBytes.length);
  await page.setInputFiles("#file", { name: "color.sav", mimeType: "application/octet-stream", buffer: Buffer.concat([prefix, colorBytes]) });
  await state(page, "ambiguous");
  const why = await page.textContent("#failure");
  assert.match(why, /Color\(.* as godot3/);
  assert.match(why, /Plane\(.* as godot4/);
  assert.ok(await page.locator("#doc").isHidden(), "an undecided file shows a document");
  await page.click('#ambiguous-choices button[data-dialect="godot3"]');
  await state(page, "open");
  assert.match(await page.textContent("#tree"), /Color/);
  assert.doesNotMatch(await page.textContent("#tree"), /Plane/);

  // The ConfigFile Godot 3.6.2 saved with a Curve in it (Object(Curve, ..., "script":null), which
  // its ConfigFile.load makes): read as a ConfigFile, and refused for its object.
  await page.setInputFiles("#file", path.join(FIXTURES, "config_plain.cfg"));
  await state(page, "config-refused");
  assert.match(await page.textContent("#failure"), /^config_plain\.cfg is not opened: it is a ConfigFile holding an object/);
  assert.ok(await page.locator("#doc").isHidden(), "a ConfigFile with an object shows a document to save");

  // Godot 3.6.2's save cut at 20,000 bytes: shown as far as it reads, read-only; Save refused
  // with the reason, a removal refused too.
  const plain = fs.readFileSync(path.join(FIXTURES, "plain.bin"));
  const records = plainRecords();
  const whole = records.filter(([, end]) => end <= 20_000).length;
  await page.setInputFiles("#file", { name: "cut.sav", mimeType: "application/octet-stream", buffer: plain.subarray(0, 20_000) });
  await state(page, "damaged");
  assert.equal(await page.locator("#tree > li[role=treeitem]").count(), whole);
  assert.match(await saveRefused(page, downloads), /^Not saved: cut\.sav is read-only, as only the first \d+ of its 20000 payload bytes were read/);
  await page.focus("#n-54");
  await page.keyboard.press("ArrowRight");
  const cutEntries = await page.locator("#n-54 [role=group] > li").count();
  await page.focus("#n-54-0");
  await page.keyboard.press("Delete");
  assert.match(await page.textContent("#edit-error"), /^Not changed: the file is read-only/);
  assert.equal(await page.locator("#n-54 [role=group] > li").count(), cutEntries);
  await shot(page, "cut_read_only");

  // Godot 3.6.2's encrypted save cut short: the password is asked (the header cannot say
  // which), then the file is said to be cut short, and not asked for again.
  const enc = fs.readFileSync(path.join(FIXTURES, "encrypted_pass.bin"));
  await page.setInputFiles("#file", { name: "cut_encrypted.sav", mimeType: "application/octet-stream", buffer: enc.subarray(0, 200_000) });
  await state(page, "locked");
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press("Enter");
  await state(page, "cut-short");
  assert.match(await page.textContent("#failure"), /^cut_encrypted\.sav cannot be opened: the file is cut short/);
  assert.doesNotMatch(await page.textContent("#failure"), /[Ww]rong password/);
  assert.ok(await page.locator("#unlock").isHidden(), "the password is asked again");
  await shot(page, "cut_encrypted");
  assert.equal(downloads.length, 0);
  await close();
});

/** Whether the values shown bold (edited) are exactly those of `ids`. */
async function boldRows(page) {
  return page.$$eval("#tree .val", (vs) => vs.filter((v) => Number(getComputedStyle(v).fontWeight) >= 600).map((v) => v.closest("[role=treeitem]").id));
}

test("undo and redo of edits, removals and additions; only edited values marked; unsaved edits confirmed before they are dropped", async () => {
  const { page, close } = await openPage();
  const asked = [];
  let answer = false;
  page.on("dialog", (d) => {
    asked.push(d.message());
    return answer ? d.accept() : d.dismiss();
  });
  await page.setInputFiles("#file", path.join(FIXTURES, "plain.bin"));
  await state(page, "open");
  const asOpened = fs.readFileSync(await save(page, "undo_as_opened.bin"));
  const unloadPrevented = () => page.evaluate(() => !window.dispatchEvent(new Event("beforeunload", { cancelable: true })));
  assert.equal(await unloadPrevented(), false, "nothing edited yet, and leaving is stopped");
  assert.ok(await page.isDisabled("#undo"));

  // Three edits: a value of the savegame Dictionary (#54), a removal, an item added to #34.
  await page.focus("#n-54");
  await page.keyboard.press("ArrowRight");
  const entries = await page.locator("#n-54 [role=group] > li").count();
  const secondRow = await page.textContent("#n-54-1");
  await editText(page, "n-54-0", "4");
  assert.match(await page.textContent("#n-54-0"), /"version"int4/);
  assert.deepEqual(await boldRows(page), ["n-54-0"], "only the edited value is marked");
  await page.focus("#n-54-1");
  await page.keyboard.press("Delete");
  assert.equal(await page.locator("#n-54 [role=group] > li").count(), entries - 1);
  await page.focus("#n-34");
  await page.selectOption("#adder-type", "int");
  await page.click("#adder button[type=submit]");
  assert.match(await page.textContent("#n-34"), /Array1 items?/);
  await shot(page, "undo_edited");
  const edited = fs.readFileSync(await save(page, "undo_edited.bin"));
  assert.equal(await unloadPrevented(), false, "saved, and leaving is stopped");

  // Undone with the keys and the button, back to the file as opened.
  await page.focus("#n-34");
  await page.keyboard.press("Control+Z");
  assert.match(await page.textContent("#n-34"), /Array0 items/);
  assert.equal(await unloadPrevented(), true, "an undo not saved, and leaving is not stopped");
  await page.click("#undo");
  assert.equal(await page.locator("#n-54 [role=group] > li").count(), entries);
  assert.equal(await page.textContent("#n-54-1"), secondRow);
  await page.keyboard.press("Control+Z");
  assert.match(await page.textContent("#n-54-0"), /"version"int3/);
  assert.deepEqual(await boldRows(page), []);
  assert.ok(await page.isDisabled("#undo"));
  assert.ok(asOpened.equals(fs.readFileSync(await save(page, "undo_all.bin"))), "every edit undone: not the file as opened");

  // Redone: Ctrl+Shift+Z, Ctrl+Y, the button; the same file as before the undos.
  await page.focus("#n-54");
  await page.keyboard.press("Control+Shift+Z");
  assert.match(await page.textContent("#n-54-0"), /"version"int4/);
  await page.keyboard.press("Control+Y");
  assert.equal(await page.locator("#n-54 [role=group] > li").count(), entries - 1);
  await page.click("#redo");
  assert.ok(await page.isDisabled("#redo"));
  assert.ok(edited.equals(fs.readFileSync(await save(page, "redo_all.bin"))), "every edit redone: not the file saved with them");

  // An edit not saved: opening another file asks; No keeps it, Yes opens the other.
  await editText(page, "n-3", "7");
  assert.equal(await unloadPrevented(), true, "an edit not saved, and leaving is not stopped");
  await page.setInputFiles("#file", path.join(FIXTURES, "compressed_zstd.bin"));
  await page.waitForFunction(() => /not opened/.test(document.getElementById("status").textContent));
  assert.equal(asked.length, 1);
  assert.match(asked[0], /^Opening compressed_zstd\.bin drops the edits to plain\.bin not saved yet/);
  assert.match(await page.textContent("#n-3"), /int7@/);
  answer = true;
  await page.setInputFiles("#file", path.join(FIXTURES, "compressed_zstd.bin"));
  await page.waitForFunction(() => document.getElementById("found").textContent.startsWith("compressed_zstd.bin:"));
  assert.equal(asked.length, 2);
  assert.match(await page.textContent("#n-3"), /int42@/);
  assert.equal(await unloadPrevented(), false);
  await close();
});

test("JSON export then import gives the same file", async () => {
  const { page, close } = await openPage();
  await page.setInputFiles("#file", path.join(FIXTURES, "compressed_zstd.bin"));
  await state(page, "open");
  await page.selectOption("#save-container", "plain");
  const before = fs.readFileSync(await save(page, "before_json.bin"));
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-json")]);
  const json = path.join(OUT, "values.json");
  await download.saveAs(json);
  await page.setInputFiles("#import-json", json);
  await page.waitForFunction(() => /^Imported 59 values/.test(document.getElementById("save-status").textContent));
  await page.selectOption("#save-container", "plain");
  const afterImport = fs.readFileSync(await save(page, "after_json.bin"));
  assert.ok(before.equals(afterImport), "the file after a JSON round trip differs");
  await close();
});

test("a big save: `heightmap[9999]` goes to that item showing one page of rows, the items of packed arrays are searched, an edit there saved", async () => {
  // 20,000 entities and a 10,000-float heightmap: the size of save the page must stay quick on.
  const world = {};
  for (let i = 0; i < 20_000; i++) world[`entity_${i}`] = { id: i, hp: 100, name: `Entity ${i}` };
  const heightmap = Float32Array.from({ length: 10_000 }, (_, i) => i % 100);
  heightmap[7777] = 1234.5;
  const file = path.join(OUT, "big_save.sav");
  fs.writeFileSync(file, fvc.writeStoreVarFile([{ world, heightmap }]));
  const { page, close } = await openPage();
  await page.setInputFiles("#file", file);
  await state(page, "open");
  const rows = () => page.$$eval("#tree [role=treeitem]", (li) => li.length);

  await page.fill("#search", "heightmap[9999]");
  await page.focus("#search");
  await page.keyboard.press("Enter");
  assert.equal(await page.textContent("#search-count"), "1 match.");
  await page.keyboard.press("Enter"); // the first result has the focus
  await page.waitForSelector("#n-0-1-9999[aria-selected=true]");
  assert.equal(await page.evaluate(() => document.activeElement.id), "n-0-1-9999");
  assert.match(await page.textContent("#n-0-1-earlier"), /^… show 100 earlier \(9900 not shown\)$/);
  assert.equal(await page.$("#n-0-1-more"), null, "the last page has no more");
  assert.equal(await page.$("#n-0-1-9899"), null, "the page before is not shown");
  assert.ok((await rows()) <= 2 + 100 + 2 + 100, `rows shown: ${await rows()}`);

  // The value inside the packed array, found as any value is.
  await page.fill("#search", "1234.5");
  await page.click("#search-go");
  assert.equal(await page.textContent("#search-count"), "1 match.");
  assert.match(await page.textContent("#results button"), /heightmap.*\[7777\] = 1234\.5/);
  await page.click("#results button");
  await page.waitForSelector("#n-0-1-7777[aria-selected=true]");
  assert.match(await page.textContent("#n-0-1-earlier"), /^… show 100 earlier \(7700 not shown\)$/);
  assert.match(await page.textContent("#n-0-1-more"), /^… show 100 more \(2200 not shown\)$/);
  await editText(page, "n-0-1-7777", "42.5");
  assert.match(await page.textContent("#n-0-1-7777"), /^\[7777\]float42\.5/);

  // The page before, by its row: the focus on the row next to those shown.
  await page.click("#n-0-1-earlier");
  assert.equal(await page.evaluate(() => document.activeElement.id), "n-0-1-7699");
  assert.match(await page.textContent("#n-0-1-earlier"), /\(7600 not shown\)$/);
  assert.ok(await page.$("#n-0-1-7777"), "the page gone to stays shown");

  const saved = fvc.readStoreVarFile(fs.readFileSync(await save(page, "big_save_edited.sav"))).values[0];
  assert.equal(saved.get("heightmap")[7777], 42.5);
  assert.equal(saved.get("heightmap")[9999], 99);
  assert.equal(saved.get("world").size, 20_000);
  await close();
});

// --- ConfigFiles --------------------------------------------------------------------------------

/** A case of a ConfigFile golden file (tests/golden/config_*.jsonl: what the engine saved and parsed). */
function configCase(file, name) {
  const lines = fs.readFileSync(path.join(ROOT, "tests", "golden", file), "utf8").split("\n").filter(Boolean);
  const c = lines.slice(1).map((l) => JSON.parse(l)).find((x) => x.name === name);
  assert.ok(c, `${file}: no case ${name}`);
  return c;
}

/** Writes a case's bytes (hex) to OUT/name, and returns its path. */
function caseFile(hex, name) {
  const file = path.join(OUT, name);
  fs.writeFileSync(file, Buffer.from(hex, "hex"));
  return file;
}

test("Godot 3.6.2's encrypted ConfigFile: its password, one value changed, saved encrypted again: Godot 3.6.2's load_encrypted_pass reads it", async () => {
  const c = configCase("config_godot3_6_2.jsonl", "encrypted/password");
  const file = caseFile(c.file, "settings.cfg");
  const { page, close } = await openPage();
  await page.setInputFiles("#file", file);
  await state(page, "locked");
  await page.keyboard.type("not the password");
  await page.keyboard.press("Enter");
  await state(page, "wrong-password");
  await page.fill("#password", c.password);
  await page.keyboard.press("Enter");
  await state(page, "open");
  assert.match(await page.textContent("#found"), /^settings\.cfg: ConfigFile, encrypted \(Godot 3's container\), 1 section, 3 keys, dialect godot3 \(found\)/);
  // The sections are the tree's top level, their keys under them.
  assert.equal(await page.textContent("#n-0 > .row > .key"), "[player]");
  assert.match(await page.textContent("#n-0"), /\[player\]Dictionary3 entries$/);
  await page.focus("#n-0");
  assert.ok(await page.locator("#editor").isHidden(), "a section has an editor of its own");
  assert.equal(await page.textContent("#adder-title"), "Add a key");
  assert.deepEqual(await page.$$eval("#adder-key-type option", (os) => os.map((o) => o.value)), ["String"]);
  await page.keyboard.press("ArrowRight");
  assert.deepEqual(await page.$$eval("#n-0 [role=group] .key", (ks) => ks.map((k) => k.textContent)), ['"name"', '"pos"', '"items"']);

  // A ConfigFile holds no null: the package refuses it, and nothing changes.
  await page.focus("#n-0-1");
  await page.selectOption("#edit-type", "null");
  await page.click("#apply");
  assert.match(await page.textContent("#edit-error"), /^Refused: .*cannot hold null/);
  assert.match(await page.textContent("#n-0-1"), /Vector2\(1\.5, -2\)/);

  // "name" changed with the keyboard.
  await editText(page, "n-0-0", "Grace");
  assert.match(await page.textContent("#n-0-0"), /^"name"String"Grace"/);
  await shot(page, "config_edited");
  assert.equal(await page.inputValue("#save-container"), "password");
  assert.equal(await page.inputValue("#save-dialect"), "godot3");
  assert.deepEqual(await page.$$eval("#save-dialect option:not([disabled])", (os) => os.map((o) => o.value)), ["godot4", "godot3"]);
  const saved = await save(page, "settings_edited.cfg");
  assert.match(await page.textContent("#save-status"), /^Saved settings\.cfg: \d+ bytes, ConfigFile, godot3, encrypted/);
  // The engine's own reading: load_encrypted_pass of what the page saved, against the same
  // ConfigFile Godot 3.6.2 saved plain, with the one change.
  const expected = caseFile(c.plain, "settings_expected.cfg");
  const [passed, failed, fails] = godot3([
    `--config-got=${saved}`, `--open=pass:${c.password}`,
    `--config-expected=${expected}`, "--expected-open=plain",
    "--changed=player/name", '--value="Grace"',
  ]);
  assert.equal(failed, 0, fails);
  assert.ok(passed >= 2 + 2 + 3, `only ${passed} checks`);
  await close();
});

test("ConfigFiles saved unchanged are the engines' bytes (Godot 4.6.3's and 3.6.2's, plain; Godot 4.6.3's encrypted); JSON export then import too", async () => {
  const { page, close } = await openPage();
  for (const [golden, dialect] of [["config_godot4_6_3.jsonl", "godot4"], ["config_godot3_6_2.jsonl", "godot3"]]) {
    const c = configCase(golden, "values");
    const file = caseFile(c.file, `${dialect}_values.cfg`);
    await page.setInputFiles("#file", file);
    await state(page, "open");
    assert.match(await page.textContent("#found"), new RegExp(`^${dialect}_values\\.cfg: ConfigFile, plain, \\d+ sections, \\d+ keys, dialect ${dialect} \\(found\\)`));
    assert.equal(await page.inputValue("#save-dialect"), dialect);
    assert.equal(await page.inputValue("#save-container"), "plain");
    const saved = fs.readFileSync(await save(page, `${dialect}_values_saved.cfg`));
    assert.ok(saved.equals(fs.readFileSync(file)), `${dialect}: the file saved unchanged differs from the engine's`);
    // JSON: the sections as a Dictionary, exported and imported back: the same file.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-json")]);
    const json = path.join(OUT, `${dialect}_values.json`);
    await download.saveAs(json);
    const exported = fvc.fromJSON(fs.readFileSync(json, "utf8"), { keepFloats: true });
    assert.equal(exported.get("dialect"), dialect);
    assert.ok(exported.get("sections") instanceof Map, "the sections are a Dictionary");
    await page.setInputFiles("#import-json", json);
    await page.waitForFunction(() => /^Imported \d+ sections/.test(document.getElementById("save-status").textContent));
    const again = fs.readFileSync(await save(page, `${dialect}_values_json.cfg`));
    assert.ok(again.equals(fs.readFileSync(file)), `${dialect}: the file after a JSON round trip differs`);
  }
  await shot(page, "config_values");

  // Godot 4.6.3's encrypted ConfigFile: Godot 4's container again, the same password; its IV is
  // random, so its header and length are the engine's.
  const c = configCase("config_godot4_6_3.jsonl", "encrypted/password");
  const file = caseFile(c.file, "godot4_encrypted.cfg");
  await page.setInputFiles("#file", file);
  await state(page, "locked");
  await page.keyboard.type(c.password);
  await page.keyboard.press("Enter");
  await state(page, "open");
  assert.match(await page.textContent("#found"), /ConfigFile, encrypted \(Godot 4's container\), 1 section, 3 keys, dialect godot4 \(found\)/);
  const saved = fs.readFileSync(await save(page, "godot4_encrypted_saved.cfg"));
  const engine = Buffer.from(c.file, "hex");
  assert.equal(saved.length, engine.length);
  assert.ok(saved.subarray(0, 4).equals(engine.subarray(0, 4)), "not Godot 4's container");
  // Read back by the page with the password: the same sections.
  await page.setInputFiles("#file", path.join(OUT, "godot4_encrypted_saved.cfg"));
  await state(page, "locked");
  await page.keyboard.type(c.password);
  await page.keyboard.press("Enter");
  await state(page, "open");
  assert.match(await page.textContent("#found"), /ConfigFile, encrypted \(Godot 4's container\), 1 section, 3 keys/);

  // Text that Godot 4 and Godot 3 would not both save as it is, and neither alone: nothing
  // tells, godot4 is kept and the choice offered.
  const names = configCase("config_godot4_6_3.jsonl", "names");
  await page.setInputFiles("#file", caseFile(names.file, "names.cfg"));
  await state(page, "open");
  assert.match(await page.textContent("#found"), /dialect godot4 \(assumed: .*choose one under Dialect\)/);
  assert.deepEqual(await page.$$eval("#dialect option:not([disabled])", (os) => os.map((o) => o.value)), ["auto", "godot4", "godot3"]);
  await page.selectOption("#dialect", "godot3");
  await page.waitForFunction(() => /dialect godot3 \(chosen\)/.test(document.getElementById("found").textContent));
  assert.equal(await page.inputValue("#save-dialect"), "godot3");
  await close();
});

test("a ConfigFile whose keys are all removed is not saved as an empty file; undone, it saves as it was", async () => {
  const c = configCase("config_godot4_6_3.jsonl", "no_section");
  const file = caseFile(c.file, "no_section.cfg");
  const { page, close } = await openPage();
  const downloads = [];
  page.on("download", (d) => downloads.push(d));
  await page.setInputFiles("#file", file);
  await state(page, "open");
  assert.match(await page.textContent("#found"), /2 sections, 2 keys, dialect godot4 \(found\)/);
  assert.equal(await page.textContent("#n-0 > .row > .key"), "(no section)");
  assert.equal(await page.textContent("#n-1 > .row > .key"), "[s]");
  for (const id of ["n-0", "n-1"]) {
    await page.focus("#" + id);
    await page.keyboard.press("ArrowRight");
    await page.focus(`#${id}-0`);
    await page.keyboard.press("Delete");
  }
  assert.match(await saveRefused(page, downloads), /^Not saved: no_section\.cfg holds no key now, and the file would be empty \(0 bytes\)/);
  await page.focus("#n-1");
  await page.keyboard.press("Control+Z");
  await page.keyboard.press("Control+Z");
  const saved = fs.readFileSync(await save(page, "no_section_saved.cfg"));
  assert.ok(saved.equals(fs.readFileSync(file)), "undone, the file saved differs from the engine's");
  await close();
});

test("ConfigFiles that do not open: an object refused, text that does not read named by line and column, text of neither kind", async () => {
  const { page, close } = await openPage();
  // A value Godot's ConfigFile.load makes, running its script: refused, nothing shown.
  const evil = '[save]\nhp=10\nplayer=Object(RefCounted,"script":Resource("res://evil.gd"))\n';
  await page.setInputFiles("#file", { name: "evil.cfg", mimeType: "text/plain", buffer: Buffer.from(evil) });
  await state(page, "config-refused");
  const refused = await page.textContent("#failure");
  assert.match(refused, /^evil\.cfg is not opened: it is a ConfigFile holding an object \(Object\(\.\.\.\) or Resource\(\.\.\.\)\), which Godot's ConfigFile\.load would make, running its script/);
  assert.match(refused, /ERR_UNAUTHORIZED/);
  assert.ok(await page.locator("#doc").isHidden(), "a ConfigFile with a script shows a document");
  await shot(page, "config_object");
  // A text Godot 4.6.3's ConfigFile.parse refused (ERR_PARSE_ERROR): the reader's own message,
  // its line and column.
  const broken = configCase("config_godot4_6_3.jsonl", "parse/19");
  assert.equal(broken.error, 43);
  const text = Buffer.from(broken.text, "hex");
  let message;
  try {
    fvc.readConfigFile(text);
  } catch (e) {
    message = e.message;
  }
  assert.match(message, /line \d+, column \d+/);
  await page.setInputFiles("#file", { name: "broken.cfg", mimeType: "text/plain", buffer: text });
  await state(page, "not-config");
  const failure = await page.textContent("#failure");
  assert.ok(failure.startsWith(`broken.cfg cannot be opened as a ConfigFile: ${message}`), failure);
  assert.doesNotMatch(failure, /ERR_FILE_EOF|store_var/);
  await shot(page, "config_broken");
  // Neither a save nor a ConfigFile: said so, with the kinds the page reads.
  await page.setInputFiles("#file", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Remember the milk.\n") });
  await state(page, "not-godot");
  assert.match(
    await page.textContent("#failure"),
    /^notes\.txt: not a file this page reads: it is a text file\. It reads files of store_var values \(plain, compressed or encrypted\), var_to_bytes bytes, ConfigFiles \(plain or encrypted\), text resources and JSON saves \(plain or encrypted\)\./,
  );
  await close();
});

if (process.env.FIREFOX) {
  test("Firefox ESR: Godot 3.6.2's encrypted save, one change with the keyboard, read back by Godot 3.6.2", async () => {
    const downloads = path.join(OUT, "firefox_downloads");
    fs.rmSync(downloads, { recursive: true, force: true });
    fs.mkdirSync(downloads, { recursive: true });
    const ff = await puppeteer.launch({
      browser: "firefox",
      executablePath: process.env.FIREFOX,
      headless: true,
      protocol: "webDriverBiDi",
      extraPrefsFirefox: {
        "browser.download.dir": downloads,
        "browser.download.folderList": 2,
        "browser.download.useDownloadDir": true,
        "browser.download.always_ask_before_handling_new_types": false,
        "browser.helperApps.neverAsk.saveToDisk": "application/octet-stream",
      },
    });
    try {
      const page = await ff.newPage();
      const requests = [];
      const errors = [];
      page.on("request", (r) => requests.push(r.url()));
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(PAGE_URL);
      const upload = await page.$("#file");
      await upload.uploadFile(path.join(FIXTURES, "encrypted_pass.bin"));
      await page.waitForFunction(() => document.body.dataset.state === "locked");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.body.dataset.state === "open");
      await page.focus("#n-3");
      await page.keyboard.press("Enter");
      await page.keyboard.down("Control");
      await page.keyboard.press("a");
      await page.keyboard.up("Control");
      await page.keyboard.type("4242");
      await page.keyboard.press("Enter");
      assert.match(await page.$eval("#n-3", (e) => e.textContent), /int4242/);
      // Undone and redone with the keys, on the row.
      await page.keyboard.down("Control");
      await page.keyboard.press("z");
      assert.match(await page.$eval("#n-3", (e) => e.textContent), /int42@/);
      await page.keyboard.down("Shift");
      await page.keyboard.press("z");
      await page.keyboard.up("Shift");
      await page.keyboard.up("Control");
      assert.match(await page.$eval("#n-3", (e) => e.textContent), /int4242/);
      await page.screenshot({ path: path.join(SCREENS, "firefox.png") });
      await page.focus("#save-go");
      await page.keyboard.press("Enter");
      const saved = path.join(downloads, "encrypted_pass.bin");
      await page.waitForFunction(() => /^Saved/.test(document.getElementById("save-status").textContent));
      for (let i = 0; i < 100 && !(fs.existsSync(saved) && fs.statSync(saved).size > 0); i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(errors, []);
      // Firefox's BiDi reports no event for file:// loads: only other requests would show here.
      assert.deepEqual(requests.filter((u) => !u.startsWith("file://")), []);
      // That the listener sees a request at all (the page's policy, connect-src 'none', stops
      // its own): the tab sent on by the test to an unused port, after the page's checks.
      const probe = "http://127.0.0.1:47998/fvc-probe"; // not a port Firefox refuses to ask (9 is one)
      await page.goto(probe).catch(() => null);
      for (let i = 0; i < 50 && !requests.includes(probe); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(requests.includes(probe), `the request listener saw ${JSON.stringify(requests)}`);
      const [passed, failed, fails] = godot3([
        `--got=${saved}`, `--open=pass:${PASSWORD}`,
        `--expected=${path.join(FIXTURES, "encrypted_pass.bin")}`, `--expected-open=pass:${PASSWORD}`,
        "--changed=3", "--value=4242",
      ]);
      assert.equal(failed, 0, fails);
      assert.ok(passed >= 59 + 4, `only ${passed} checks`);
    } finally {
      await ff.close();
    }
  });
}

// --- text resources (.tres) ---------------------------------------------------------------------

test("text resources: the engines' saves edited (a level changed) and saved as the engine writes them; the files of every value saved unchanged are the engines' bytes", async () => {
  const { page, close } = await openPage();
  for (const [golden, dialect, level] of [["tres_godot4_6_3.jsonl", "godot4", "n-5-1"], ["tres_godot3_6_2.jsonl", "godot3", "n-5-2"]]) {
    const c = configCase(golden, "save");
    const file = caseFile(c.file, `${dialect}_save.tres`);
    await page.setInputFiles("#file", file);
    await state(page, "open");
    assert.match(await page.textContent("#found"), new RegExp(`^${dialect}_save\\.tres: text resource, plain, 6 sections, \\d+ properties, dialect ${dialect} \\(found\\)`));
    assert.equal(await page.textContent("#n-0 > .row > .key"), '[gd_resource type="Resource"]');
    assert.equal(await page.textContent("#n-5 > .row > .key"), "[resource]");
    await page.focus("#n-5");
    assert.ok(await page.locator("#editor").isHidden(), "a section has an editor of its own");
    assert.equal(await page.textContent("#adder-title"), "Add a property");
    await page.keyboard.press("ArrowRight");
    assert.match(await page.textContent("#" + level), /^"level"int7/);
    await editText(page, level, "8");
    assert.match(await page.textContent("#" + level), /^"level"int8/);
    assert.deepEqual(await page.$$eval("#save-dialect option:not([disabled])", (os) => os.map((o) => o.value)), [dialect]);
    const saved = fs.readFileSync(await save(page, `${dialect}_save_edited.tres`), "utf8");
    assert.match(await page.textContent("#save-status"), new RegExp(`^Saved ${dialect}_save\\.tres: \\d+ bytes, text resource, ${dialect}, plain`));
    const engine = Buffer.from(c.file, "hex").toString("utf8");
    assert.equal(saved, engine.replace("level = 7\n", "level = 8\n"));

    const v = configCase(golden, "values");
    const values = caseFile(v.file, `${dialect}_values.tres`);
    await page.setInputFiles("#file", values);
    await state(page, "open");
    const again = fs.readFileSync(await save(page, `${dialect}_values_saved.tres`));
    assert.ok(again.equals(fs.readFileSync(values)), `${dialect}: the text resource saved unchanged differs from the engine's`);
  }
  await shot(page, "tres");
  // A text resource naming an object its loader would make (running its script) is refused.
  const evil = path.join(OUT, "evil.tres");
  fs.writeFileSync(evil, '[gd_resource type="Resource" format=3]\n\n[resource]\nx = Object(RefCounted,"script":Resource("res://evil.gd"))\n');
  await page.setInputFiles("#file", evil);
  await page.waitForFunction(() => document.getElementById("failure") && !document.getElementById("failure").hidden);
  assert.match(await page.textContent("#failure"), /^evil\.tres is not opened: it is a text resource holding an object/);
  await close();
});

// --- JSON saves ---------------------------------------------------------------------------------

test("JSON saves: each engine's save opened with its style, a value changed with the keyboard and saved as its JSON.stringify / JSON.print writes it; saved encrypted, Godot 4.6.3 reads it", async () => {
  const { page, close } = await openPage();
  // Godot 4 sorts keys by default ("version" is the seventh), Godot 3 keeps them in order.
  for (const [golden, dialect, sorted, version] of [["json_godot4_6_3.jsonl", "godot4", true, "n-0-6"], ["json_godot3_6_2.jsonl", "godot3", false, "n-0-0"]]) {
    const c = configCase(golden, "save");
    const t = c.texts.find((x) => x.indent === "\t" && x.sort_keys === sorted && !x.full_precision);
    const file = caseFile(t.text, `${dialect}_save.json`);
    await page.setInputFiles("#file", file);
    await state(page, "open");
    assert.match(
      await page.textContent("#found"),
      new RegExp(`^${dialect}_save\\.json: JSON save, plain, indented, keys ${sorted ? "sorted" : "in order"}, dialect ${dialect} \\(found\\)`),
    );
    const unchanged = fs.readFileSync(await save(page, `${dialect}_save_unchanged.json`));
    assert.ok(unchanged.equals(fs.readFileSync(file)), `${dialect}: the JSON save saved unchanged differs from the engine's`);
    await page.focus("#n-0");
    await page.keyboard.press("ArrowRight");
    assert.match(await page.textContent("#" + version), /^"version"int3/);
    await editText(page, version, "4");
    assert.match(await page.textContent("#" + version), /^"version"int4/);
    assert.deepEqual(await page.$$eval("#save-container option:not([disabled])", (os) => os.map((o) => o.value)), ["plain", "password", "key"]);
    const saved = fs.readFileSync(await save(page, `${dialect}_save_edited.json`), "utf8");
    assert.match(await page.textContent("#save-status"), new RegExp(`^Saved ${dialect}_save\\.json: \\d+ bytes, JSON save, ${dialect}, plain`));
    const engineText = Buffer.from(t.text, "hex").toString("utf8");
    assert.ok(engineText.includes('"version": 3'));
    assert.equal(saved, engineText.replace('"version": 3', '"version": 4'));
    if (dialect === "godot4") {
      // Encrypted as open_encrypted_with_pass writes, and read by the engine's FileAccess.
      await page.selectOption("#save-container", "password");
      await page.fill("#save-password", "hunter2");
      const encrypted = await save(page, "godot4_save_encrypted.json");
      const expect = path.join(OUT, "godot4_save_expected.json");
      fs.writeFileSync(expect, saved);
      const [passed, failed, fails] = godot4([`--json=${encrypted}`, "--open=pass:hunter2", `--expect=${expect}`]);
      assert.equal(failed, 0, fails);
      assert.equal(passed, 3);
    }
  }
  await shot(page, "json_save");
  // Hand-written JSON (spaces the engines do not write): opened, its dialect assumed.
  await page.setInputFiles("#file", { name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{ "hp": 10 }\n') });
  await state(page, "open");
  assert.match(await page.textContent("#found"), /^notes\.json: JSON save, plain, one line, keys sorted, dialect godot4 \(assumed: no engine writes its text as it is/);
  // Broken JSON: named by its line and column.
  await page.setInputFiles("#file", { name: "broken.json", mimeType: "application/json", buffer: Buffer.from('{"hp": 10,,}') });
  await state(page, "not-json");
  assert.match(await page.textContent("#failure"), /^broken\.json cannot be opened as a JSON save: .*line 1, column 11/);
  await close();
});

// --- the package alone, in Chromium, against the golden corpora --------------------------------

const CORPORA = ["godot4_6_3.json", "godot4_6_3_double.json", "godot3_6_2.json", "godot3_2_3.json", "pandemonium_4_9_0.json", "pandemonium_5_2_0.json"];
const NEEDS_CLASS_LIST = ["object/full/", "craft/object", "craft/array_typed_class", "object/full_scripted", "array/typed/pathless_script/full"];
const startsWithAny = (name, prefixes) => prefixes.some((p) => name.startsWith(p));

/** The decodes rust/wasm/tests/golden.test.mjs checks, with what it expects of each. */
function goldenJobs(file, c, divergences) {
  const diverges = (part, name) => divergences.some(([cf, p, prefix]) => file.startsWith(cf) && part === p && name.startsWith(prefix));
  const opts = { dialect: c.dialect, precision: c.precision ?? "single" };
  const jobs = [];
  for (const kase of c.cases) {
    if (diverges("cases", kase.name)) continue;
    const full = Boolean(kase.full_objects);
    const dopts = { ...opts, allowObjects: full, keepFloats: true };
    if (kase.decoded === null || kase.decoded === undefined) {
      const code = kase.decode_error;
      if (code !== null && code !== undefined && kase.bytes.length > 0) {
        jobs.push({ name: kase.name, hex: kase.bytes, opts: dopts, error: desc.ERROR_NAMES[code] });
      }
      continue;
    }
    // No bytes: the engine refused to encode it (golden.test.mjs checks that we refuse too).
    if (kase.bytes.length === 0) continue;
    if (full && startsWithAny(kase.name, NEEDS_CLASS_LIST)) continue;
    let expected;
    try {
      expected = desc.valueOf(kase.decoded);
    } catch (e) {
      if (e instanceof desc.NotText) continue;
      throw e;
    }
    jobs.push({ name: kase.name, hex: kase.bytes, opts: dopts, expected, size: kase.bytes.length / 2 });
  }
  for (const m of c.malformed) {
    if (diverges("malformed inputs", m.name) || m.allow_objects) continue;
    const mopts = { ...opts, keepFloats: true };
    if (!m.ok) {
      jobs.push({ name: m.name, hex: m.bytes, opts: mopts, error: m.error === null || m.error === undefined ? "*" : desc.ERROR_NAMES[m.error] });
      continue;
    }
    let expected;
    try {
      expected = desc.valueOf(m.decoded);
    } catch (e) {
      if (e instanceof desc.NotText) continue;
      throw e;
    }
    // The engine's size counts a final PackedByteArray's missing padding; ours ends with the input.
    const size = m.size === null || m.size === undefined ? undefined : Math.min(m.size, m.bytes.length / 2);
    jobs.push({ name: m.name, hex: m.bytes, opts: mopts, expected, size, malformed: true, objects: desc.has(m.decoded, "object") });
  }
  return jobs;
}

test("the package in Chromium decodes every golden corpus input as the Node tests expect", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests = [];
  context.on("request", (r) => requests.push(r.url()));
  await page.goto("about:blank");
  await page.addScriptTag({ content: fs.readFileSync(process.env.FVC_GOLDEN_BUNDLE, "utf8") });
  const divergences = desc.knownDivergences();
  let total = 0;
  const failures = [];
  for (const file of CORPORA) {
    const c = desc.load(file);
    desc.state.double = c.precision === "double";
    const jobs = goldenJobs(file, c, divergences);
    const results = await page.evaluate((js) => globalThis.fvcDecodeAll(js), jobs.map(({ hex, opts }) => ({ hex, opts })));
    let decoded = 0;
    jobs.forEach((job, i) => {
      const r = results[i];
      total++;
      if (job.error !== undefined) {
        if (r.error !== "DecodeError") failures.push(`${file} ${job.name}: decoded where the engine fails (${job.error})`);
        else if (job.error !== "*" && r.godotError !== job.error) failures.push(`${file} ${job.name}: ${r.godotError}, engine ${job.error}`);
        return;
      }
      if (r.error) {
        failures.push(`${file} ${job.name}: ${r.message}`);
        return;
      }
      decoded++;
      let got = fvc.fromJSON(r.json, { keepFloats: true });
      let expected = job.expected;
      if (job.size !== undefined && r.size !== job.size) failures.push(`${file} ${job.name}: size ${r.size}, expected ${job.size}`);
      if (job.malformed && c.dialect === "godot4" && (c.precision ?? "single") === "single") got = desc.narrow(got);
      if (job.objects) {
        got = desc.classesOnly(got);
        expected = desc.classesOnly(expected);
      }
      if (!desc.same(got, expected)) failures.push(`${file} ${job.name}: decoded ${desc.canon(got).slice(0, 200)}, expected ${desc.canon(expected).slice(0, 200)}`);
    });
    assert.ok(decoded > 100, `${file}: only ${decoded} decoded`);
  }
  await context.close();
  console.log(`golden corpora in Chromium: ${total} inputs`);
  assert.equal(failures.length, 0, `${failures.length} of ${total} differ:\n${failures.slice(0, 20).join("\n")}`);
  assert.deepEqual(requests.filter((u) => u !== "about:blank"), []);
});
