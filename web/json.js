// JSON: the dialect and the values (a ConfigFile's or a text resource's: its sections) exported in the
// package's lossless projection (toJSON, the core's), and such a file imported back into the open
// document, its container kept for saving.

import * as fvc from "fast-var-codec";
import { $, download } from "./dom.js";
import { configOptions, configSections, resourceSections } from "./document.js";
import { render } from "./tree.js";
import { load, mayDrop } from "./open.js";

/** Downloads the dialect and the values (a ConfigFile's sections) as JSON. */
function exportJson(state) {
  // The package's JSON projection (the core's, as the command line's to-json writes it) of a
  // Dictionary of the dialect and the values, or of the dialect and the ConfigFile's sections (a
  // Dictionary of section → Dictionary of key → value, as to-json writes a .cfg file).
  const config = state.kind === "config" || state.kind === "resource";
  const sections = state.kind === "resource" ? resourceSections(state) : state.kind === "config" ? configSections(state) : null;
  const doc = config ? { dialect: state.dialect, sections } : { dialect: state.dialect, values: state.records.map((r) => r.value) };
  const text = fvc.toJSON(doc, { input: "value", pretty: true }) + "\n";
  download(new TextEncoder().encode(text), state.name.replace(/\.[^.]*$/, "") + ".json", "application/json");
  $("save-status").textContent = config ? "Exported the sections as JSON." : "Exported the values as JSON.";
}

/**
 * The ConfigFile of a JSON value (an export's {"dialect", "sections"}, or the sections alone,
 * as the command line's to-json writes a .cfg file) for the open ConfigFile document: written by
 * the package in its dialect and read back, as a save would have it.
 */
function importedConfig(state, doc) {
  const exported = doc instanceof Map && doc.size === 2 && typeof doc.get("dialect") === "string" && doc.has("sections");
  const sections = exported ? doc.get("sections") : doc;
  const text = fvc.writeConfigFile(sections, { dialect: state.dialect });
  return { ...state.found, sections: fvc.readConfigFile(text, configOptions(state, state.dialect)), size: text.length };
}

/**
 * The text resource of a JSON value (an export's {"dialect", "sections"}, or the sections alone,
 * as the command line's to-json writes a .tres file) for the open text resource document: written
 * by the package and read back, as a save would have it.
 */
function importedResource(state, doc) {
  const exported = doc instanceof Map && doc.size === 2 && typeof doc.get("dialect") === "string" && doc.has("sections");
  const text = fvc.writeTextResource(exported ? doc.get("sections") : doc);
  return { ...state.found, sections: fvc.readTextResource(text, { precision: state.precision, keepFloats: true }), size: text.length };
}

/** Reads a JSON file (an export, an array of values, a ConfigFile's sections) into the open document. */
async function importJson(state) {
  const file = $("import-json").files[0];
  if (!file) return;
  if (!mayDrop(state, `Importing ${file.name}`)) {
    $("save-status").textContent = `Not imported: the edits are kept.`;
    $("import-json").value = "";
    return;
  }
  try {
    // An export ({"dialect", "values"}), or an array of values (the command line's to-json of
    // a store_var file); for a ConfigFile, an export ({"dialect", "sections"}) or its sections.
    const doc = fvc.fromJSON(await file.text(), { keepFloats: true });
    let what;
    if (state.kind === "resource") {
      load(state, importedResource(state, doc));
      what = `${state.records.length} section${state.records.length === 1 ? "" : "s"}`;
    } else if (state.kind === "config") {
      load(state, importedConfig(state, doc));
      what = `${state.records.length} section${state.records.length === 1 ? "" : "s"}`;
    } else if (state.kind === "json") {
      // A JSON save holds one value: an export's only value, or the value itself.
      const values = doc instanceof Map && doc.has("values") ? doc.get("values") : [doc];
      if (!Array.isArray(values) || values.length !== 1) throw new TypeError("a JSON save holds one value: expected an export of one value, or the value");
      fvc.writeJsonSave(values[0], state.found.style); // JSON's values only
      load(state, { ...state.found, value: values[0] });
      what = "the value";
    } else {
      const values = Array.isArray(doc) ? doc : doc instanceof Map ? doc.get("values") : undefined;
      if (!Array.isArray(values)) throw new TypeError("expected an array of values, or an export's {\"dialect\", \"values\"}");
      // The values laid out as a plain file in the current dialect, then read back: offsets and
      // bytes as a save would have them. The container and secrets stay for saving.
      const raw = state.found.framing === "raw";
      const plain = fvc.writeStoreVarFile(values, { dialect: state.dialect, precision: state.precision, fullObjects: true, raw });
      const found = fvc.inspectStoreVarFile(plain, { dialect: state.dialect, precision: state.precision, allowObjects: true, keepFloats: true });
      const keep = { container: state.found.container, compression: state.found.compression, encryption: state.found.encryption };
      load(state, { ...found, ...keep });
      what = `${values.length} values`;
    }
    for (const r of state.records) {
      r.edited = true;
      r.marks.add("");
    }
    // Nothing saved holds the values imported (undo does not go back across an import).
    state.savedEdit = -1;
    render(state);
    $("save-status").textContent = `Imported ${what} from ${file.name}; not saved yet.`;
  } catch (e) {
    $("save-status").textContent = `Not imported: ${e.message}`;
  }
  $("import-json").value = "";
}

/** The Export and Import controls. */
export function installJson(state) {
  $("export-json").addEventListener("click", () => exportJson(state));
  $("import-json").addEventListener("change", () => importJson(state));
}
