// JSON: the dialect and the values exported in the package's lossless projection (toJSON, the
// core's), and such a file imported back into the open document, its container kept for saving.

import * as fvc from "fast-var-codec";
import { $, download } from "./dom.js";
import { render } from "./tree.js";
import { load, mayDrop } from "./open.js";

/** Downloads the dialect and the values as JSON. */
function exportJson(state) {
  // The package's JSON projection (the core's, as the command line's to-json writes it) of a
  // Dictionary of the dialect and the values.
  const doc = { dialect: state.dialect, values: state.records.map((r) => r.value) };
  const text = fvc.toJSON(doc, { input: "value", pretty: true }) + "\n";
  download(new TextEncoder().encode(text), state.name.replace(/\.[^.]*$/, "") + ".json", "application/json");
  $("save-status").textContent = "Exported the values as JSON.";
}

/** Reads a JSON file (an export, or an array of values) into the open document. */
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
    // a store_var file).
    const doc = fvc.fromJSON(await file.text(), { keepFloats: true });
    const values = Array.isArray(doc) ? doc : doc instanceof Map ? doc.get("values") : undefined;
    if (!Array.isArray(values)) throw new TypeError("expected an array of values, or an export's {\"dialect\", \"values\"}");
    // The values laid out as a plain file in the current dialect, then read back: offsets and
    // bytes as a save would have them. The container and secrets stay for saving.
    const raw = state.found.framing === "raw";
    const plain = fvc.writeStoreVarFile(values, { dialect: state.dialect, precision: state.precision, fullObjects: true, raw });
    const found = fvc.inspectStoreVarFile(plain, { dialect: state.dialect, precision: state.precision, allowObjects: true, keepFloats: true });
    const keep = { container: state.found.container, compression: state.found.compression, encryption: state.found.encryption };
    load(state, { ...found, ...keep });
    for (const r of state.records) {
      r.edited = true;
      r.marks.add("");
    }
    // Nothing saved holds the values imported (undo does not go back across an import).
    state.savedEdit = -1;
    render(state);
    $("save-status").textContent = `Imported ${values.length} values from ${file.name}; not saved yet.`;
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
