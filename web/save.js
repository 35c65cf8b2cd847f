// Saving: the values held written by the package (writeStoreVarFile) in the container and dialect
// chosen (by default the file's own) and downloaded. A document not read whole is not saved.

import * as fvc from "fast-var-codec";
import { $, download, hexBytes } from "./dom.js";
import { currentEdit } from "./document.js";

/** The password or key field of the container chosen, the others hidden. */
function saveFields() {
  const c = $("save-container").value;
  $("save-password-label").hidden = c !== "password";
  $("save-key-label").hidden = c !== "key";
}

/** The save form for a document just opened: the same container, secret and dialect by default. */
export function resetSaveForm(state, found) {
  $("save-dialect").value = found.dialect;
  $("save-container").value =
    found.container === "compressed" ? found.compression : found.container === "encrypted" ? (state.key ? "key" : "password") : "plain";
  $("save-password").value = state.password ?? "";
  $("save-key").value = state.key ? Array.from(state.key, (b) => b.toString(16).padStart(2, "0")).join("") : "";
  $("save-name").value = state.name;
  saveFields();
  $("save-status").textContent = state.readOnly ? `Read-only: not saved, as ${state.readOnly}.` : "";
}

/** Writes the values held as the save form says, and downloads the file. */
function save(state) {
  if (state.readOnly) {
    $("save-status").textContent = `Not saved: ${state.name} is read-only, as ${state.readOnly}.`;
    return;
  }
  const c = $("save-container").value;
  const o = { dialect: $("save-dialect").value, precision: state.precision, fullObjects: true, raw: state.found.framing === "raw" };
  try {
    if (c === "password") o.password = $("save-password").value;
    else if (c === "key") o.key = hexBytes($("save-key").value);
    else if (c !== "plain") o.compression = c;
    const bytes = fvc.writeStoreVarFile(
      state.records.map((r) => r.value),
      o,
    );
    const name = $("save-name").value || state.name;
    download(bytes, name);
    $("save-status").textContent = `Saved ${name}: ${bytes.length} bytes, ${o.dialect}, ${c === "plain" ? "plain" : c === "password" || c === "key" ? "encrypted" : "compressed (" + c + ")"}.`;
    document.body.dataset.saved = String(Number(document.body.dataset.saved ?? 0) + 1);
    state.savedEdit = currentEdit(state);
  } catch (e) {
    $("save-status").textContent = `Not saved: ${e.message}`;
  }
}

/** The save form: its dialects, its container's fields, Save. */
export function installSave(state) {
  for (const d of fvc.DIALECTS) $("save-dialect").add(new Option(d, d));
  $("save-container").addEventListener("change", saveFields);
  $("save-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    save(state);
  });
}
