// Opening a file: read by the package (container, dialect and values found by the core), the
// password or key asked for an encrypted one, the engine asked where the bytes do not tell it,
// what is not a save named; the dialect and precision chosen read it again. The edits not saved
// yet are not dropped without asking.

import * as fvc from "fast-var-codec";
import { $, hexBytes, hexInto, status } from "./dom.js";
import { clearDocument, loadDocument, readOptions, unsaved } from "./document.js";
import { undoButtons } from "./edits.js";
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
  const bytes = new Uint8Array(await file.arrayBuffer());
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
  const ms = performance.now() - t0;
  $("unlock").hidden = true;
  const other = found.records.length === 0 && found.error && found.container === "plain" ? otherKind(state.file) : null;
  if (other) {
    notOpened(state, `${state.name}: not a store_var file: ${other}. (${found.error.message})`, "not-godot");
    return;
  }
  if (state.dialectChoice === "auto" && found.error instanceof fvc.DecodeError && found.error.dialects.length > 1) {
    askDialect(state, found.error);
    return;
  }
  load(state, found);
  status(`Opened ${state.name} in ${Math.round(ms)} ms${state.readOnly ? ", read-only: " + state.readOnly : ""}.`);
  document.body.dataset.state = found.error ? "damaged" : "open";
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

/** Nothing to show: the message, no document. */
function notOpened(state, message, bodyState) {
  $("doc").hidden = true;
  $("unlock").hidden = true;
  clearDocument(state);
  showFailure(message, null, null);
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
  if (/^\[[^\]]+\]$/.test(lines[0]) || /^[^\s=\[][^=]*=/.test(lines[0])) return "it looks like a ConfigFile text ([section] and key=value lines)";
  return "it is a text file";
}

function askSecret(state, e) {
  $("doc").hidden = true;
  const form = $("unlock");
  form.hidden = false;
  const wrong = e.godotError === "ERR_FILE_CORRUPT";
  $("unlock-why").textContent = wrong
    ? `Wrong password or key: ${e.reason}. Try again.`
    : `${state.name} is encrypted: enter its password (open_encrypted_with_pass) or key (open_encrypted).`;
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

/** Shows the document of inspectStoreVarFile's result `found` (opened, or imported). */
export function load(state, found) {
  loadDocument(state, found);
  undoButtons(state);
  $("doc").hidden = false;
  const kind =
    found.container === "compressed"
      ? `compressed (${found.compression})`
      : found.container === "encrypted"
        ? `encrypted (${found.encryption === "godot3" ? "Godot 3" : "Godot 4"}'s container)`
        : "plain";
  const n = found.records.length;
  const what =
    found.framing === "raw"
      ? "one var_to_bytes value"
      : `${n} store_var value${n === 1 ? "" : "s"}${found.error ? " read before the failing one" : ""}`;
  $("found").textContent = `${state.name}: ${kind}, ${what}, dialect ${found.dialect}${state.dialectChoice === "auto" ? " (found)" : " (chosen)"}, ${found.payload.length} bytes of payload.`;
  $("dialect").options[0].textContent = `auto (found: ${state.dialectChoice === "auto" ? found.dialect : "?"})`;
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
