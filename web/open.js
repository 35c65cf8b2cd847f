// Opening a file: read by the package (container, dialect and values found by the core), the
// password or key asked for an encrypted one, the engine asked where the bytes do not tell it,
// what is not a save named; a file that holds no store_var value but a ConfigFile's text (plain
// or encrypted) read as a ConfigFile; the dialect and precision chosen read it again. The edits
// not saved yet are not dropped without asking.

import * as fvc from "fast-var-codec";
import { $, hexBytes, hexInto, status } from "./dom.js";
import { CONFIG_DIALECTS, clearDocument, configOptions, loadConfigDocument, loadDocument, loadJsonDocument, loadResourceDocument, readOptions, unsaved } from "./document.js";
import { undoButtons } from "./history.js";
import { resetSaveForm } from "./save.js";
import { render, select } from "./tree.js";

/**
 * Whether the edits not saved yet may be dropped (opening another file, importing JSON): the
 * user is asked (the browser's confirm) when there are any.
 */
export function mayDrop(state, what) {
  if (!unsaved(state)) return true;
  const n = state.undo.length;
  return window.confirm(`${what} drops the edits to ${state.name} not saved yet (${n} edit${n === 1 ? "" : "s"}). Drop them?`);
}

async function openFile(state, file) {
  if (!mayDrop(state, `Opening ${file.name}`)) {
    status(`${file.name} not opened: the edits to ${state.name} are kept.`);
    return;
  }
  // Until the file is read, the page shows no state it had with the previous one (a test or a
  // script waiting for "open" waits for this file's).
  const before = document.body.dataset.state;
  document.body.dataset.state = "opening";
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    // Moved, deleted or not readable since it was chosen: what was open stays open.
    document.body.dataset.state = before;
    const kept = state.file ? `${state.name} stays open` : "nothing is open";
    status(`${file.name} could not be read (${e?.message ?? e}); ${kept}.`);
    return;
  }
  state.name = file.name;
  state.file = bytes;
  state.password = null;
  state.key = null;
  state.dialectChoice = "auto";
  $("dialect").value = "auto";
  $("unlock").hidden = true;
  $("password").value = "";
  $("key").value = "";
  inspect(state);
}

/** Reads the file with the current options; shows the values, or asks for a password. */
function inspect(state) {
  $("failure").hidden = true;
  $("ambiguous").hidden = true;
  if (state.file.length === 0) {
    notOpened(state, `${state.name}: empty file (0 bytes): no value to show.`, "empty-file");
    return;
  }
  let found;
  const t0 = performance.now();
  try {
    found = fvc.inspectStoreVarFile(state.file, readOptions(state));
  } catch (e) {
    // The package refuses an encrypted file without a secret (ERR_UNAUTHORIZED), and one
    // whose secret does not match (ERR_FILE_CORRUPT). Godot gives an encrypted file cut short
    // that code too; the package's cutShort tells it apart, and no secret opens it.
    const secret = state.password !== null || state.key !== null;
    if (e instanceof fvc.SaveFileError && e.cutShort) {
      notOpened(state, `${state.name} cannot be opened: the file is cut short (it ends before its header says): ${e.message}`, "cut-short");
      return;
    }
    if (e instanceof fvc.SaveFileError && (e.godotError === "ERR_UNAUTHORIZED" || (secret && e.godotError === "ERR_FILE_CORRUPT"))) {
      askSecret(state, e);
      return;
    }
    notOpened(state, `${state.name} cannot be opened: ${e.message}`, "failed");
    return;
  }
  $("unlock").hidden = true;
  // No store_var value read: a ConfigFile's text, plain or in its encrypted container? (A
  // ConfigFile is UTF-8 text, which no store_var value reads from; store_var values are almost
  // never UTF-8 text, nor a ConfigFile.) Never a compressed one: ConfigFile has none.
  // A text resource (.tres: UTF-8 text that starts with its [gd_resource] tag), plain.
  if (found.error && found.records.length === 0 && found.container === "plain" && looksLikeResource(state.file)) {
    let resource;
    try {
      resource = readResource(state, found);
    } catch (e) {
      const objects = e instanceof fvc.DecodeError && e.godotError === "ERR_UNAUTHORIZED";
      notOpened(
        state,
        objects
          ? `${state.name} is not opened: it is a text resource holding an object (Object(...) or Resource(...)), which Godot's loader would make, running its script. The page reads no such object. (${e.message})`
          : `${state.name} cannot be opened as a text resource: ${e.message}`,
        objects ? "resource-refused" : "not-resource",
        e.offset,
        found.payload,
      );
      return;
    }
    const ms = performance.now() - t0;
    load(state, resource);
    status(`Opened ${state.name} (a text resource) in ${Math.round(ms)} ms.`);
    document.body.dataset.state = "open";
    return;
  }
  // A JSON save (JSON.stringify's text, plain or encrypted): UTF-8 text that starts with { or [
  // and reads as JSON. (A ConfigFile starts with [ too: text that does not read as JSON is
  // tried as one, and named as JSON that does not read when it is no ConfigFile either.)
  let notJson = null;
  if (found.error && found.records.length === 0 && found.container !== "compressed" && looksLikeJson(found.payload)) {
    let json = null;
    try {
      json = readJson(state, found);
    } catch (e) {
      if (e instanceof fvc.SaveFileError) {
        notOpened(state, `${state.name} cannot be opened: ${e.message}`, "failed");
        return;
      }
      notJson = e;
    }
    if (json) {
      const ms = performance.now() - t0;
      load(state, json);
      status(`Opened ${state.name} (a JSON save) in ${Math.round(ms)} ms.`);
      document.body.dataset.state = "open";
      return;
    }
  }
  if (found.error && found.records.length === 0 && found.container !== "compressed") {
    let config = null;
    let why = null;
    try {
      config = readConfig(state, found);
    } catch (e) {
      why = e;
    }
    if (config && config.sections.size === 0) {
      notOpened(state, `${state.name}: a ConfigFile without a key (blank lines or comments only): nothing to show.`, "empty-file");
      return;
    }
    if (config) {
      const ms = performance.now() - t0;
      load(state, config);
      status(`Opened ${state.name} (a ConfigFile) in ${Math.round(ms)} ms${state.readOnly ? ", read-only: " + state.readOnly : ""}.`);
      document.body.dataset.state = "open";
      return;
    }
    if (notJson && (/\.json$/i.test(state.name) || looksLikeObject(found.payload))) {
      notOpened(state, `${state.name} cannot be opened as a JSON save: ${notJson.message}`, "not-json", notJson.offset, found.payload);
      return;
    }
    if (notConfig(state, found, why)) return;
  }
  const ms = performance.now() - t0;
  if (state.dialectChoice === "auto" && found.error instanceof fvc.DecodeError && found.error.dialects.length > 1) {
    askDialect(state, found.error);
    return;
  }
  load(state, found);
  status(`Opened ${state.name} in ${Math.round(ms)} ms${state.readOnly ? ", read-only: " + state.readOnly : ""}.`);
  document.body.dataset.state = found.error ? "damaged" : "open";
}

/**
 * The ConfigFile of the file (its `sections`, read by the package), and its dialect: the one
 * chosen (Godot 4's or Godot 3's); an encrypted file's, its container's (Godot 3's or Godot 4's);
 * a plain file's, the one engine whose ConfigFile.save writes its text as it is, or the one
 * engine that reads it ("found"), else godot4 ("assumed": both engines write it alike, or neither
 * as it is). Throws the package's error where it is no ConfigFile that reads.
 */
function readConfig(state, found) {
  const read = (dialect) => fvc.readConfigFile(state.file, configOptions(state, dialect));
  const of = (dialect, sections, told) => ({
    kind: "config",
    sections,
    dialect,
    told,
    container: found.container,
    encryption: found.encryption,
    compression: null,
    framing: "config",
    error: null,
    size: found.payload.length,
  });
  if (CONFIG_DIALECTS.includes(state.dialectChoice)) return of(state.dialectChoice, read(state.dialectChoice), "chosen");
  if (found.container === "encrypted") return of(found.encryption, read(found.encryption), "found");
  const readings = CONFIG_DIALECTS.map((dialect) => {
    let sections;
    try {
      sections = read(dialect);
    } catch (e) {
      return { dialect, error: e };
    }
    let same = false;
    try {
      same = equalBytes(fvc.writeConfigFile(sections, { dialect }), state.file);
    } catch {
      // not a text this engine writes
    }
    return { dialect, sections, same };
  });
  const read4 = readings[0];
  const ok = readings.filter((r) => !r.error);
  if (!ok.length) throw read4.error;
  const writers = ok.filter((r) => r.same);
  if (writers.length === 1) return of(writers[0].dialect, writers[0].sections, "found");
  if (ok.length === 1) return of(ok[0].dialect, ok[0].sections, "found");
  return of("godot4", read4.sections, "assumed");
}

/** Whether a payload is text that begins as JSON.stringify's of a Dictionary or an Array does. */
function looksLikeJson(bytes) {
  const head = new TextDecoder("utf-8").decode(bytes.subarray(0, 64)).trimStart();
  return head.startsWith("{") || head.startsWith("[");
}

/** Whether a payload is text that begins as a Dictionary's JSON does (which no ConfigFile does). */
function looksLikeObject(bytes) {
  return new TextDecoder("utf-8").decode(bytes.subarray(0, 64)).trimStart().startsWith("{");
}

/**
 * The JSON save of the file (its `value`, read by the package as the engine's JSON.parse reads it,
 * ints kept), the `style` it was written in, and its dialect: the one whose JSON.stringify (or
 * Godot 3's JSON.print) writes the text as it is ("found"), else godot4 ("assumed"). Throws the
 * package's error where it is no JSON that reads.
 */
function readJson(state, found) {
  const o = { precision: state.precision, keepFloats: true };
  if (CONFIG_DIALECTS.includes(state.dialectChoice)) o.dialect = state.dialectChoice;
  if (state.password !== null) o.password = state.password;
  if (state.key !== null) o.key = state.key;
  const read = fvc.readJsonSave(state.file, o);
  return {
    kind: "json",
    value: read.value,
    style: read.style,
    dialect: read.style.dialect,
    told: read.engineText ? "found" : "assumed",
    container: found.container,
    encryption: found.encryption,
    compression: null,
    framing: "json",
    error: null,
    size: found.payload.length,
  };
}

/** Whether a file's bytes begin as a text resource's do: its [gd_resource] (or [gd_scene]) tag. */
function looksLikeResource(bytes) {
  const head = new TextDecoder("utf-8").decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, "").trimStart();
  return head.startsWith("[gd_resource") || head.startsWith("[gd_scene");
}

/**
 * The text resource of the file (its `sections`, read by the package) and its dialect: Godot 3's
 * for a header of format 2 or less, Godot 4's otherwise. Nothing it names is loaded: a reference
 * to one of its entries is an object of class ExtResource or SubResource. Throws the package's
 * error where it is no text resource that reads.
 */
function readResource(state, found) {
  const sections = fvc.readTextResource(state.file, { precision: state.precision, keepFloats: true });
  const format = sections[0].get("attributes").get("format");
  return {
    kind: "resource",
    sections,
    dialect: format !== undefined && Number(format) <= 2 ? "godot3" : "godot4",
    told: "found",
    container: "plain",
    encryption: null,
    compression: null,
    framing: "resource",
    error: null,
    size: found.payload.length,
  };
}

function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const CONFIG_LIKE = "it looks like a ConfigFile text ([section] and key=value lines)";

/**
 * A file that holds no store_var value and is no ConfigFile that reads (`why`, the ConfigFile
 * reader's error): a ConfigFile holding an object, or a ConfigFile's text that does not read
 * (a `.cfg` file, or text that looks like one: the reader's message, with its line and column),
 * or text of another kind (named, with the kinds the page reads). Returns whether it said so; a
 * file of bytes (not text) is left to the store_var reading.
 */
function notConfig(state, found, why) {
  const other = otherKind(found.payload);
  const cfg = /\.cfg$/i.test(state.name);
  if (why instanceof fvc.DecodeError && why.godotError === "ERR_UNAUTHORIZED") {
    notOpened(
      state,
      `${state.name} is not opened: it is a ConfigFile holding an object (Object(...) or Resource(...)), which Godot's ConfigFile.load would make, running its script, or load from the game's files. The page reads no object from a ConfigFile. (${why.message})`,
      "config-refused",
      why.offset,
      found.payload,
    );
    return true;
  }
  if (why instanceof fvc.FastVarCodecError && (cfg || other === CONFIG_LIKE)) {
    notOpened(state, `${state.name} cannot be opened as a ConfigFile: ${why.message}`, "not-config", why.offset, found.payload);
    return true;
  }
  if (other) {
    notOpened(
      state,
      `${state.name}: not a file this page reads: ${other}. It reads files of store_var values (plain, compressed or encrypted), var_to_bytes bytes, ConfigFiles (plain or encrypted), text resources and JSON saves (plain or encrypted). (As store_var values: ${found.error.message}${why ? `; as a ConfigFile: ${why.message}` : ""})`,
      "not-godot",
    );
    return true;
  }
  return false;
}

/**
 * Bytes that engines of different families read as different values (a Godot 3 Color is a
 * Godot 4 Plane): the core guesses nothing, so the page shows each reading and asks.
 */
function askDialect(state, e) {
  notOpened(state, `${state.name}: which engine wrote it cannot be told from its bytes: ${e.reason}`, "ambiguous");
  $("ambiguous-choices").replaceChildren(
    ...e.dialects.map((dialect) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = `Read as ${dialect}`;
      b.dataset.dialect = dialect;
      b.addEventListener("click", () => {
        state.dialectChoice = dialect;
        $("dialect").value = dialect;
        inspect(state);
      });
      return b;
    }),
  );
  $("ambiguous").hidden = false;
  $("ambiguous-choices").querySelector("button")?.focus();
}

/** Nothing to show: the message (and the payload's bytes around `offset`, when given), no document. */
function notOpened(state, message, bodyState, offset = null, payload = null) {
  $("doc").hidden = true;
  $("unlock").hidden = true;
  clearDocument(state);
  showFailure(message, offset, payload);
  status(message);
  document.body.dataset.state = bodyState;
}

/**
 * What a file that is no store_var data at all looks like, or null: a text file (a ConfigFile's
 * `[section]` and `key=value` lines, JSON, other text). Only named, to say why it does not open.
 */
function otherKind(bytes) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, 64 * 1024), { stream: true });
  } catch {
    return null; // cut inside a character, or binary
  }
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) return null;
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith(";") && !l.startsWith("#"));
  if (!lines.length) return "it holds only blank text";
  try {
    JSON.parse(text);
    return "it looks like a JSON text";
  } catch {
    // not JSON
  }
  if (/^\[[^\]]+\]$/.test(lines[0]) || /^[^\s=\[][^=]*=/.test(lines[0])) return CONFIG_LIKE;
  return "it is a text file";
}

function askSecret(state, e) {
  $("doc").hidden = true;
  const form = $("unlock");
  form.hidden = false;
  const wrong = e.godotError === "ERR_FILE_CORRUPT";
  $("unlock-why").textContent = wrong
    ? `Wrong password or key: ${e.reason}. Try again.`
    : `${state.name} is encrypted: enter its password (open_encrypted_with_pass, a ConfigFile's save_encrypted_pass) or key (open_encrypted, save_encrypted).`;
  $("unlock-why").className = wrong ? "error" : "";
  document.body.dataset.state = wrong ? "wrong-password" : "locked";
  status(wrong ? "Wrong password or key." : "Encrypted: a password or key is needed.");
  $("password").focus();
  $("password").select();
}

/** Shows a failure: the message, and the payload's bytes around `offset`. */
function showFailure(message, offset, payload) {
  const box = $("failure");
  box.replaceChildren();
  const p = document.createElement("p");
  p.textContent = message;
  box.append(p);
  if (offset !== null && offset !== undefined) {
    const at = document.createElement("p");
    at.className = "offset";
    at.id = "failure-offset";
    at.textContent = `Failing byte: ${offset} (0x${offset.toString(16)}) of the ${payload ? payload.length : "?"}-byte payload.`;
    box.append(at);
    if (payload) {
      const pre = document.createElement("pre");
      pre.id = "failure-hex";
      const from = Math.max(0, (offset & ~15) - 32);
      hexInto(pre, payload.subarray(from, Math.min(payload.length, from + 96)), from, offset);
      box.append(pre);
    }
  }
  box.hidden = false;
}

/**
 * Shows the document of inspectStoreVarFile's result `found`, or of a ConfigFile read (readConfig's
 * result, `found.kind` "config"): opened, or imported.
 */
export function load(state, found) {
  const json = found.kind === "json";
  const config = found.kind === "config" || found.kind === "resource" || json;
  if (found.kind === "config") loadConfigDocument(state, found);
  else if (found.kind === "resource") loadResourceDocument(state, found);
  else if (json) loadJsonDocument(state, found);
  else loadDocument(state, found);
  undoButtons(state);
  $("doc").hidden = false;
  const kind =
    found.container === "compressed"
      ? `compressed (${found.compression})`
      : found.container === "encrypted"
        ? `encrypted (${found.encryption === "godot3" ? "Godot 3" : "Godot 4"}'s container)`
        : "plain";
  const n = found.records?.length ?? 0;
  const what = json
    ? `${found.style.indent ? "indented" : "one line"}, keys ${found.style.sortKeys ? "sorted" : "in order"}${found.style.fullPrecision ? ", full precision" : ""}`
    : config
    ? sectionsSummary(state)
    : found.framing === "raw"
      ? "one var_to_bytes value"
      : `${n} store_var value${n === 1 ? "" : "s"}${found.error ? " read before the failing one" : ""}`;
  const how =
    state.dialectChoice !== "auto"
      ? "chosen"
      : json && found.told === "assumed"
        ? "assumed: no engine writes its text as it is; saving writes it as Godot 4's JSON.stringify does"
        : config && found.told === "assumed"
          ? "assumed: its text does not tell Godot 4's from Godot 3's; choose one under Dialect"
          : "found";
  const size = config ? `${found.size} bytes of text` : `${found.payload.length} bytes of payload`;
  const named = found.kind === "resource" ? "text resource, " : json ? "JSON save, " : config ? "ConfigFile, " : "";
  $("found").textContent = `${state.name}: ${named}${kind}, ${what}, dialect ${found.dialect} (${how}), ${size}.`;
  $("dialect").options[0].textContent =
    state.dialectChoice !== "auto" ? "auto (found: ?)" : config && found.told === "assumed" ? `auto (${found.dialect}: assumed)` : `auto (found: ${found.dialect})`;
  // A ConfigFile's text is Godot 4's or Godot 3's: the other dialects are no choice for it.
  for (const o of $("dialect").options) o.disabled = (found.kind === "resource" && o.value !== "auto") || (config && o.value !== "auto" && !CONFIG_DIALECTS.includes(o.value));
  if (found.error) {
    const e = found.error;
    showFailure(
      `Read ${found.records.length} value${found.records.length === 1 ? "" : "s"}, then: ${e.message}`,
      e.offset,
      found.payload,
    );
  }
  resetSaveForm(state, found);
  $("results").hidden = true;
  $("search-count").textContent = "";
  render(state);
  select(state, state.roots[0] ?? null, false);
}

/** "2 sections, 5 keys" of the ConfigFile document. */
/** "2 sections, 5 keys" (a ConfigFile's), "6 sections, 14 properties" (a text resource's). */
function sectionsSummary(state) {
  const s = state.records.length;
  const k = state.records.reduce((n, r) => n + (r.value instanceof Map ? r.value.size : 0), 0);
  const what = state.kind === "resource" ? (k === 1 ? "property" : "properties") : k === 1 ? "key" : "keys";
  return `${s} section${s === 1 ? "" : "s"}, ${k} ${what}`;
}

/**
 * Whether the file may be read again (a dialect or precision chosen): unsaved changes would be
 * lost, so the user is asked first (a confirm: Enter or Escape answers it).
 */
function mayReread(state, what) {
  const edited = state.records.filter((r) => r.edited).length;
  if (!edited) return true;
  return window.confirm(
    `Reading ${state.name} again as ${what} drops the changes made here to ${edited} value${edited === 1 ? "" : "s"} (a file saved already keeps them). Read it again?`,
  );
}

/** The unlock form, the Dialect and Precision menus, the file picker and dropping a file. */
export function installOpen(state) {
  $("unlock").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const pw = $("password").value;
    const key = $("key").value.trim();
    try {
      state.key = key ? hexBytes(key) : null;
    } catch (e) {
      $("unlock-why").textContent = e.message;
      return;
    }
    state.password = key ? null : pw;
    inspect(state);
  });
  $("dialect").add(new Option("auto", "auto"));
  for (const d of fvc.DIALECTS) $("dialect").add(new Option(d, d));
  $("dialect").addEventListener("change", () => {
    const choice = $("dialect").value;
    if (!mayReread(state, choice === "auto" ? "the dialect found" : choice)) {
      $("dialect").value = state.dialectChoice;
      status("Dialect not changed: the unsaved changes are kept.");
      return;
    }
    state.dialectChoice = choice;
    inspect(state);
  });
  $("precision").addEventListener("change", () => {
    const choice = $("precision").value;
    if (!mayReread(state, `${choice} precision`)) {
      $("precision").value = state.precision;
      status("Precision not changed: the unsaved changes are kept.");
      return;
    }
    state.precision = choice;
    inspect(state);
  });
  $("file").addEventListener("change", async () => {
    const f = $("file").files[0];
    if (!f) return;
    await openFile(state, f);
    $("file").value = ""; // the same file can be opened again
  });
  document.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", (ev) => {
    if (!ev.relatedTarget) document.body.classList.remove("dragging");
  });
  document.addEventListener("drop", (ev) => {
    ev.preventDefault();
    document.body.classList.remove("dragging");
    const f = ev.dataTransfer?.files?.[0];
    if (f) openFile(state, f);
  });
}
