// Saving: the values held written by the package (writeStoreVarFile; a ConfigFile's sections by
// writeConfigFile, a text resource's by writeTextResource, a JSON save's value by writeJsonSave in
// the style it was read in) in the container and dialect chosen
// (by default the file's own) and downloaded. A document not read whole is not saved, nor an
// empty file.

import * as fvc from "fast-var-codec";
import { $, download, hexBytes } from "./dom.js";
import { CONFIG_DIALECTS, configSections, currentEdit, resourceSections } from "./document.js";

/** The containers of a ConfigFile: plain, save_encrypted_pass's, save_encrypted's. */
const CONFIG_CONTAINERS = ["plain", "password", "key"];

/** The password or key field of the container chosen, the others hidden. */
function saveFields() {
  const c = $("save-container").value;
  $("save-password-label").hidden = c !== "password";
  $("save-key-label").hidden = c !== "key";
}

/**
 * The save form for a document just opened: the same container, secret and dialect by default.
 * A ConfigFile offers Godot 4's and Godot 3's text, plain or encrypted (ConfigFile has no
 * compressed save).
 */
export function resetSaveForm(state, found) {
  // A JSON save is saved as a ConfigFile is: Godot 4's or Godot 3's text, plain or encrypted.
  const config = state.kind === "config" || state.kind === "json";
  // A text resource is saved as it came: plain, in its own engine's text.
  const resource = state.kind === "resource";
  for (const o of $("save-dialect").options) o.disabled = (config && !CONFIG_DIALECTS.includes(o.value)) || (resource && o.value !== found.dialect);
  for (const o of $("save-container").options) o.disabled = (config && !CONFIG_CONTAINERS.includes(o.value)) || (resource && o.value !== "plain");
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
  const config = state.kind === "config";
  const o = { dialect: $("save-dialect").value, precision: state.precision, fullObjects: true, raw: state.found.framing === "raw" };
  try {
    if (c === "password") o.password = $("save-password").value;
    else if (c === "key") o.key = hexBytes($("save-key").value);
    else if (c !== "plain") o.compression = c;
    let bytes;
    if (state.kind === "resource") {
      if (c !== "plain") throw new TypeError(`a text resource is saved plain (${c})`);
      if (o.dialect !== state.dialect) throw new TypeError(`a text resource is saved in its own engine's text (${state.dialect})`);
      bytes = new TextEncoder().encode(fvc.writeTextResource(resourceSections(state)));
    } else if (state.kind === "json") {
      if (o.compression) throw new TypeError(`a JSON save is saved plain or encrypted, not compressed (${c})`);
      bytes = fvc.writeJsonSave(state.records[0].value, { ...state.found.style, dialect: o.dialect, password: o.password, key: o.key });
    } else if (config) {
      if (o.compression) throw new TypeError(`a ConfigFile is saved plain or encrypted, not compressed (${c})`);
      bytes = fvc.writeConfigFile(configSections(state), { dialect: o.dialect, password: o.password, key: o.key });
    } else {
      bytes = fvc.writeStoreVarFile(
        state.records.map((r) => r.value),
        o,
      );
    }
    // Never an empty file over a save: a ConfigFile whose keys were all removed writes nothing.
    if (bytes.length === 0) {
      $("save-status").textContent = `Not saved: ${state.name} holds no key now, and the file would be empty (0 bytes).`;
      return;
    }
    const name = $("save-name").value || state.name;
    download(bytes, name);
    const what = state.kind === "resource" ? "text resource, " : state.kind === "json" ? "JSON save, " : config ? "ConfigFile, " : "";
    $("save-status").textContent = `Saved ${name}: ${bytes.length} bytes, ${what}${o.dialect}, ${c === "plain" ? "plain" : c === "password" || c === "key" ? "encrypted" : "compressed (" + c + ")"}.`;
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
