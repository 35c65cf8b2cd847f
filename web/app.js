// The page: opens a Godot file with the package (fast-var-codec, the Rust core as WebAssembly),
// shows its values as a tree with their byte ranges, edits them, and saves the file back. Every
// rule of the format (containers, dialects, offsets, what a dialect can hold) is the package's;
// this file only shows and asks.

import * as fvc from "fast-var-codec";
import {
  COMPOSITE,
  NEW_TYPES,
  components,
  componentText,
  fromComponents,
  setSingleReals,
  floatText,
  isFloat,
  keyText,
  kids,
  leafText,
  summary,
  typeName,
} from "./values.js";

const PAGE = 100; // children shown per page of a large container
const HEX_MAX = 1024; // bytes shown in the hex view

const $ = (id) => document.getElementById(id);

/** The open document. */
const S = {
  name: "",
  file: null, // the file's bytes
  password: null,
  key: null,
  dialectChoice: "auto",
  precision: "single",
  found: null, // inspectStoreVarFile's result
  dialect: "godot4",
  records: [], // {value, bytes, spans, spanBase, start, gap, edited, marks, cache}
  roots: [],
  rootsShown: PAGE,
  codec: null,
  selected: null,
  readOnly: null, // why the document cannot be saved (a file not read whole), or null
  undo: [], // the edits made, last last: {rec, before, after, path, what}
  redo: [], // the edits undone, last undone last
  savedEdit: null, // the edit the last save (or the opening) left in place
  nextEdit: 1,
};

/** The edit now in place (the last not undone), or null for the file as opened. */
const currentEdit = () => (S.undo.length ? S.undo[S.undo.length - 1].id : null);
/** Whether there are edits that no save holds. */
const unsaved = () => S.found !== null && currentEdit() !== S.savedEdit;

// --- opening -----------------------------------------------------------------------------------

function status(text) {
  $("status").textContent = text;
}

function readOptions() {
  const o = { allowObjects: true, keepFloats: true, precision: S.precision };
  if (S.dialectChoice !== "auto") o.dialect = S.dialectChoice;
  if (S.password !== null) o.password = S.password;
  if (S.key !== null) o.key = S.key;
  return o;
}

/**
 * Whether the edits not saved yet may be dropped (opening another file, importing JSON): the
 * user is asked (the browser's confirm) when there are any.
 */
function mayDrop(what) {
  if (!unsaved()) return true;
  const n = S.undo.length;
  return window.confirm(`${what} drops the edits to ${S.name} not saved yet (${n} edit${n === 1 ? "" : "s"}). Drop them?`);
}

async function openFile(file) {
  if (!mayDrop(`Opening ${file.name}`)) {
    status(`${file.name} not opened: the edits to ${S.name} are kept.`);
    return;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  S.name = file.name;
  S.file = bytes;
  S.password = null;
  S.key = null;
  S.dialectChoice = "auto";
  $("dialect").value = "auto";
  $("unlock").hidden = true;
  $("password").value = "";
  $("key").value = "";
  inspect();
}

function hexBytes(text) {
  const t = text.replace(/[\s:]/g, "");
  if (!/^[0-9a-fA-F]*$/.test(t) || t.length % 2) throw new TypeError("a key is hex digits, two per byte");
  const out = new Uint8Array(t.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Reads S.file with the current options; shows the values, or asks for a password. */
function inspect() {
  $("failure").hidden = true;
  $("ambiguous").hidden = true;
  if (S.file.length === 0) {
    notOpened(`${S.name}: empty file (0 bytes): no value to show.`, "empty-file");
    return;
  }
  let found;
  const t0 = performance.now();
  try {
    found = fvc.inspectStoreVarFile(S.file, readOptions());
  } catch (e) {
    // The package refuses an encrypted file without a secret (ERR_UNAUTHORIZED), and one
    // whose secret does not match (ERR_FILE_CORRUPT). Godot gives an encrypted file cut short
    // that code too; the package's cutShort tells it apart, and no secret opens it.
    const secret = S.password !== null || S.key !== null;
    if (e instanceof fvc.SaveFileError && e.cutShort) {
      notOpened(`${S.name} cannot be opened: the file is cut short (it ends before its header says): ${e.message}`, "cut-short");
      return;
    }
    if (e instanceof fvc.SaveFileError && (e.godotError === "ERR_UNAUTHORIZED" || (secret && e.godotError === "ERR_FILE_CORRUPT"))) {
      askSecret(e);
      return;
    }
    notOpened(`${S.name} cannot be opened: ${e.message}`, "failed");
    return;
  }
  const ms = performance.now() - t0;
  $("unlock").hidden = true;
  const other = found.records.length === 0 && found.error && found.container === "plain" ? otherKind(S.file) : null;
  if (other) {
    notOpened(`${S.name}: not a store_var file: ${other}. (${found.error.message})`, "not-godot");
    return;
  }
  if (S.dialectChoice === "auto" && found.error instanceof fvc.DecodeError && found.error.dialects.length > 1) {
    askDialect(found.error);
    return;
  }
  load(found);
  status(`Opened ${S.name} in ${Math.round(ms)} ms${S.readOnly ? ", read-only: " + S.readOnly : ""}.`);
  document.body.dataset.state = found.error ? "damaged" : "open";
}

/**
 * Bytes that engines of different families read as different values (a Godot 3 Color is a
 * Godot 4 Plane): the core guesses nothing, so the page shows each reading and asks.
 */
function askDialect(e) {
  notOpened(`${S.name}: which engine wrote it cannot be told from its bytes: ${e.reason}`, "ambiguous");
  $("ambiguous-choices").replaceChildren(
    ...e.dialects.map((dialect) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = `Read as ${dialect}`;
      b.dataset.dialect = dialect;
      b.addEventListener("click", () => {
        S.dialectChoice = dialect;
        $("dialect").value = dialect;
        inspect();
      });
      return b;
    }),
  );
  $("ambiguous").hidden = false;
  $("ambiguous-choices").querySelector("button")?.focus();
}

/** Nothing to show: the message, no document. */
function notOpened(message, state) {
  $("doc").hidden = true;
  $("unlock").hidden = true;
  S.found = null;
  S.records = [];
  S.roots = [];
  S.undo = [];
  S.redo = [];
  S.savedEdit = null;
  showFailure(message, null, null);
  status(message);
  document.body.dataset.state = state;
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

function askSecret(e) {
  $("doc").hidden = true;
  const form = $("unlock");
  form.hidden = false;
  const wrong = e.godotError === "ERR_FILE_CORRUPT";
  $("unlock-why").textContent = wrong
    ? `Wrong password or key: ${e.reason}. Try again.`
    : `${S.name} is encrypted: enter its password (open_encrypted_with_pass) or key (open_encrypted).`;
  $("unlock-why").className = wrong ? "error" : "";
  document.body.dataset.state = wrong ? "wrong-password" : "locked";
  status(wrong ? "Wrong password or key." : "Encrypted: a password or key is needed.");
  $("password").focus();
  $("password").select();
}

$("unlock").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const pw = $("password").value;
  const key = $("key").value.trim();
  try {
    S.key = key ? hexBytes(key) : null;
  } catch (e) {
    $("unlock-why").textContent = e.message;
    return;
  }
  S.password = key ? null : pw;
  inspect();
});

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

function load(found) {
  S.found = found;
  S.dialect = found.dialect;
  setSingleReals(S.precision === "single");
  S.codec = new fvc.Codec({ dialect: S.dialect, precision: S.precision, fullObjects: true, allowObjects: true, keepFloats: true });
  S.records = found.records.map((r, i) => {
    const start = r.spans.length ? r.spans[0] : r.offset;
    const next = found.records[i + 1];
    const nextStart = next ? (next.spans.length ? next.spans[0] : next.offset) : null;
    return {
      value: r.value,
      bytes: found.payload.subarray(start, start + r.length),
      spans: r.spans, // offsets from spanBase: the payload's start as read, 0 once encoded again
      spanBase: start,
      start,
      gap: nextStart === null ? 0 : nextStart - (start + r.length),
      edited: false,
      marks: new Set(), // the paths (in the record) of the values edited, as "0/2/1"
      cache: new Map(),
    };
  });
  S.undo = [];
  S.redo = [];
  S.savedEdit = null;
  // Saving writes the values held: a file not read whole would lose what was not read.
  const read = S.records.reduce((end, r) => Math.max(end, r.start + r.bytes.length), 0);
  S.readOnly = found.error
    ? `only the first ${read} of its ${found.payload.length} payload bytes were read (${found.records.length} value${found.records.length === 1 ? "" : "s"}), and saving would drop the rest`
    : found.records.length === 0
      ? "it holds no value"
      : null;
  undoButtons();
  S.roots = S.records.map((_, i) => new Node(i, null, i));
  S.rootsShown = PAGE;
  S.selected = null;
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
  $("found").textContent = `${S.name}: ${kind}, ${what}, dialect ${found.dialect}${S.dialectChoice === "auto" ? " (found)" : " (chosen)"}, ${found.payload.length} bytes of payload.`;
  $("dialect").options[0].textContent = `auto (found: ${S.dialectChoice === "auto" ? found.dialect : "?"})`;
  if (found.error) {
    const e = found.error;
    showFailure(
      `Read ${found.records.length} value${found.records.length === 1 ? "" : "s"}, then: ${e.message}`,
      e.offset,
      found.payload,
    );
  }
  // The save form: the same container and dialect by default.
  $("save-dialect").value = found.dialect;
  $("save-container").value =
    found.container === "compressed" ? found.compression : found.container === "encrypted" ? (S.key ? "key" : "password") : "plain";
  $("save-password").value = S.password ?? "";
  $("save-key").value = S.key ? Array.from(S.key, (b) => b.toString(16).padStart(2, "0")).join("") : "";
  $("save-name").value = S.name;
  saveFields();
  $("save-status").textContent = S.readOnly ? `Read-only: not saved, as ${S.readOnly}.` : "";
  $("results").hidden = true;
  $("search-count").textContent = "";
  render();
  select(S.roots[0] ?? null, false);
}

// --- the tree model ----------------------------------------------------------------------------

/** A value shown in the tree: a record (no parent) or child `index` of its parent. */
class Node {
  constructor(rec, parent, index) {
    this.rec = rec;
    this.parent = parent;
    this.index = index;
    this.expanded = false;
    this.shown = PAGE;
    this.children = null;
    this._kids = undefined;
  }
  get value() {
    return this.parent ? this.parent.kids().get(this.index) : S.records[this.rec].value;
  }
  setValue(v) {
    if (this.parent) this.parent.kids().set(this.index, v);
    else S.records[this.rec].value = v;
    this.forget();
  }
  kids() {
    if (this._kids === undefined) this._kids = kids(this.value);
    return this._kids;
  }
  forget() {
    this._kids = undefined;
    this.children = null;
  }
  child(i) {
    if (!this.children) this.children = new Map();
    let c = this.children.get(i);
    if (!c) {
      c = new Node(this.rec, this, i);
      this.children.set(i, c);
    }
    return c;
  }
  get depth() {
    return this.parent ? this.parent.depth + 1 : 1;
  }
  get label() {
    if (!this.parent) return S.found.framing === "raw" ? "value" : `#${this.index}`;
    return this.parent.kids().label(this.index);
  }
  get path() {
    return this.parent ? [...this.parent.path, this.index] : [this.rec];
  }
  get id() {
    return "n-" + this.path.join("-");
  }
  /** This value's span (index in its record's spans), or -1 where it has none. */
  get span() {
    if (!this.parent) return S.records[this.rec].spans.length ? 0 : -1;
    const ps = this.parent.span;
    if (ps < 0) return -1;
    const k = this.parent.kids();
    if (!k.located) return -1;
    const list = childSpans(S.records[this.rec], ps);
    // The located values inside a container are its items, or its keys and values, as the
    // package's values are; where they differ (keys the engine merged) no child has a range.
    if (list.length !== k.count * k.stride) return -1;
    return list[this.index * k.stride + k.at];
  }
}

/** The spans directly inside span `s` of a record (cached until the record changes). */
function childSpans(rec, s) {
  let list = rec.cache.get(s);
  if (list) return list;
  list = [];
  const sp = rec.spans;
  const end = s + 1 + sp[3 * s + 2];
  for (let j = s + 1; j < end; j += 1 + sp[3 * j + 2]) list.push(j);
  rec.cache.set(s, list);
  return list;
}

/** Where a node's bytes are: [start, end] in its record's bytes, or null. */
function rangeOf(node) {
  const s = node.span;
  if (s < 0) return null;
  const rec = S.records[node.rec];
  return [rec.spans[3 * s] - rec.spanBase, rec.spans[3 * s + 1] - rec.spanBase];
}

// --- rendering ---------------------------------------------------------------------------------

function render() {
  const tree = $("tree");
  const focusedId = document.activeElement?.closest?.("[role=treeitem]")?.id;
  const items = [];
  const n = Math.min(S.roots.length, S.rootsShown);
  for (let i = 0; i < n; i++) items.push(renderNode(S.roots[i]));
  if (S.roots.length > n) items.push(moreItem(null, S.roots.length - n, 1));
  tree.replaceChildren(...items);
  const keep = (focusedId && document.getElementById(focusedId)) || (S.selected && document.getElementById(S.selected.id));
  const first = tree.querySelector("[role=treeitem]");
  for (const li of tree.querySelectorAll("[role=treeitem]")) li.tabIndex = -1;
  const target = keep || first;
  if (target) target.tabIndex = 0;
  if (focusedId && keep) keep.focus();
}

function renderNode(node) {
  const li = document.createElement("li");
  li.setAttribute("role", "treeitem");
  li.id = node.id;
  li.node = node;
  li.setAttribute("aria-level", String(node.depth));
  li.setAttribute("aria-selected", String(S.selected === node));
  const v = node.value;
  const k = node.kids();
  const row = document.createElement("div");
  row.className = "row";
  const twisty = document.createElement("span");
  twisty.className = "twisty";
  twisty.setAttribute("aria-hidden", "true");
  if (k && k.count > 0) {
    li.setAttribute("aria-expanded", String(node.expanded));
    twisty.textContent = node.expanded ? "▾" : "▸";
  }
  const key = document.createElement("span");
  key.className = "key";
  key.textContent = node.label;
  const type = document.createElement("span");
  type.className = "type";
  type.textContent = typeName(v);
  const val = document.createElement("span");
  val.className = "val";
  val.textContent = summary(v);
  const off = document.createElement("span");
  off.className = "off";
  const r = rangeOf(node);
  const rec = S.records[node.rec];
  off.textContent = r ? `@${rec.start + r[0]} (${r[1] - r[0]} B)` : "";
  row.append(twisty, key, type, val, off);
  li.append(row);
  if (rec.marks.has(node.path.slice(1).join("/"))) row.classList.add("edited");
  if (k && k.count > 0 && node.expanded) {
    const ul = document.createElement("ul");
    ul.setAttribute("role", "group");
    const n = Math.min(k.count, node.shown);
    for (let i = 0; i < n; i++) ul.append(renderNode(node.child(i)));
    if (k.count > n) ul.append(moreItem(node, k.count - n, node.depth + 1));
    li.append(ul);
  }
  return li;
}

function moreItem(node, left, depth) {
  const li = document.createElement("li");
  li.setAttribute("role", "treeitem");
  li.className = "more";
  li.more = node ?? "roots";
  li.id = node ? node.id + "-more" : "roots-more";
  li.setAttribute("aria-level", String(depth));
  const row = document.createElement("div");
  row.className = "row";
  row.textContent = `… show ${Math.min(PAGE, left)} more (${left} not shown)`;
  li.append(row);
  return li;
}

function showMore(li) {
  const node = li.more;
  let firstNew;
  if (node === "roots") {
    firstNew = S.roots[S.rootsShown];
    S.rootsShown += PAGE;
  } else {
    firstNew = node.child(node.shown);
    node.shown += PAGE;
  }
  render();
  focusNode(firstNew);
}

function focusNode(node) {
  const li = node && document.getElementById(node.id);
  if (!li) return;
  for (const other of $("tree").querySelectorAll("[tabindex='0']")) other.tabIndex = -1;
  li.tabIndex = 0;
  li.focus();
  li.scrollIntoView({ block: "nearest" });
}

function select(node, focus = true) {
  S.selected = node;
  for (const li of $("tree").querySelectorAll("[aria-selected=true]")) li.setAttribute("aria-selected", "false");
  if (!node) return;
  const li = document.getElementById(node.id);
  if (li) li.setAttribute("aria-selected", "true");
  if (focus) focusNode(node);
  showSelected(node);
}

function toggle(node, open) {
  const k = node.kids();
  if (!k || k.count === 0) return;
  node.expanded = open ?? !node.expanded;
  render();
  focusNode(node);
}

// --- the tree's keyboard and mouse -------------------------------------------------------------

$("tree").addEventListener("click", (ev) => {
  const li = ev.target.closest("[role=treeitem]");
  if (!li) return;
  if (li.more) return showMore(li);
  if (ev.target.classList.contains("twisty")) toggle(li.node);
  select(li.node);
});
// A row that gets the focus (Tab into the tree, a search result) is the selected one.
$("tree").addEventListener("focusin", (ev) => {
  const li = ev.target.closest("[role=treeitem]");
  if (!li?.node || S.selected === li.node) return;
  for (const other of $("tree").querySelectorAll("[tabindex='0']")) other.tabIndex = -1;
  li.tabIndex = 0;
  select(li.node, false);
});
$("tree").addEventListener("dblclick", (ev) => {
  const li = ev.target.closest("[role=treeitem]");
  if (li?.node) toggle(li.node);
});

$("tree").addEventListener("keydown", (ev) => {
  const li = ev.target.closest("[role=treeitem]");
  if (!li) return;
  const all = [...$("tree").querySelectorAll("[role=treeitem]")];
  const i = all.indexOf(li);
  const go = (el) => {
    if (!el) return;
    if (el.node) select(el.node);
    else {
      for (const other of $("tree").querySelectorAll("[tabindex='0']")) other.tabIndex = -1;
      el.tabIndex = 0;
      el.focus();
    }
  };
  const node = li.node;
  switch (ev.key) {
    case "ArrowDown":
      go(all[i + 1]);
      break;
    case "ArrowUp":
      go(all[i - 1]);
      break;
    case "Home":
      go(all[0]);
      break;
    case "End":
      go(all[all.length - 1]);
      break;
    case "ArrowRight":
      if (!node) break;
      if (node.kids()?.count && !node.expanded) toggle(node, true);
      else if (node.expanded) go(li.querySelector("[role=treeitem]"));
      break;
    case "ArrowLeft":
      if (node?.expanded) toggle(node, false);
      else if (li.parentElement.closest("[role=treeitem]")) go(li.parentElement.closest("[role=treeitem]"));
      break;
    case "Enter":
    case "F2":
      if (li.more) showMore(li);
      else editFocus();
      break;
    case " ":
      if (li.more) showMore(li);
      else if (node) toggle(node);
      break;
    case "Delete":
      if (node) removeNode(node);
      break;
    default:
      return;
  }
  ev.preventDefault();
});

function editFocus() {
  const form = $("editor");
  const first = form.querySelector("#edit-value, #edit-c0, #edit-bool") ?? form.querySelector("input, textarea, select");
  if (!form.hidden && first) {
    first.focus();
    first.select?.();
  }
  else if (!$("adder").hidden) $("adder-type").focus();
}

// --- the selected value: path, editor, bytes ---------------------------------------------------

function pathText(node) {
  const parts = [];
  for (let n = node; n; n = n.parent) parts.unshift(n.label);
  return parts.join(" › ");
}

function showSelected(node) {
  $("edit-error").hidden = true;
  const r = rangeOf(node);
  const rec = S.records[node.rec];
  $("sel-path").textContent = `${pathText(node)}: ${typeName(node.value)}` + (r ? `, bytes ${rec.start + r[0]}–${rec.start + r[1]}` : "");
  buildEditor(node);
  const hex = $("hex");
  if (r) {
    const bytes = rec.bytes.subarray(r[0], Math.min(r[1], rec.bytes.length));
    hexInto(hex, bytes.subarray(0, HEX_MAX), rec.start + r[0], null);
    if (bytes.length > HEX_MAX) hex.append(`\n… ${bytes.length - HEX_MAX} more bytes`);
  } else {
    hex.textContent = node.parent && !node.parent.kids().located
      ? "An item of a packed array: data inside its array's bytes, not a value of its own."
      : "No byte range for this value.";
  }
  const k = node.kids();
  const removable = node.parent && (node.parent.kids().remove || node.parent.kids().removed);
  $("remove").hidden = !removable;
  const canAdd = k && (k.insert || k.insertKey || k.added);
  $("adder").hidden = !canAdd;
  if (canAdd) {
    const v = node.value;
    const keyed = Boolean(k.insertKey);
    $("adder-keyed").hidden = !keyed;
    $("adder-title").textContent = v instanceof fvc.GodotObject ? "Add a property" : keyed ? "Add an entry" : "Add an item";
    // The key's type: the container's where it fixes one (a typed Dictionary's, an Object's
    // property names), the user's choice otherwise.
    const keyType = v instanceof fvc.GodotObject ? "String" : v instanceof fvc.TypedDictionary ? v.keyType : null;
    const keyTypes = keyType ? [keyType] : KEY_TYPES;
    const ks = $("adder-key-type");
    const wasKey = ks.value;
    ks.replaceChildren(...keyTypes.map((t) => new Option(t, t)));
    if (keyTypes.includes(wasKey)) ks.value = wasKey;
    $("adder-key-label").firstChild.textContent = v instanceof fvc.GodotObject ? "Name " : "Key ";
    // The item's type: a packed array's element type only; any other type otherwise.
    const types = k.element ? [k.element] : Object.keys(NEW_TYPES);
    const ts = $("adder-type");
    const was = ts.value;
    ts.replaceChildren(...types.map((t) => new Option(t, t)));
    if (types.includes(was)) ts.value = was;
    const el = v instanceof fvc.TypedArray ? v.elementType : v instanceof fvc.TypedDictionary ? v.valueType : null;
    if (el && el in NEW_TYPES) ts.value = el;
  }
  if (S.readOnly) {
    $("editor").hidden = true;
    $("adder").hidden = true;
    $("remove").hidden = true;
    $("sel-path").textContent += " (read-only)";
  }
}

function hexInto(pre, bytes, base, mark) {
  pre.replaceChildren();
  if (!bytes.length) {
    pre.textContent = "(no bytes)";
    return;
  }
  const lines = [];
  for (let o = 0; o < bytes.length; o += 16) {
    const addr = (base + o).toString(16).padStart(8, "0");
    const row = bytes.subarray(o, o + 16);
    const cells = Array.from(row, (b, j) => ({ text: b.toString(16).padStart(2, "0"), at: base + o + j }));
    const ascii = Array.from(row, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
    lines.push({ addr, cells, ascii });
  }
  for (const [n, line] of lines.entries()) {
    pre.append(line.addr + "  ");
    for (const c of line.cells) {
      if (c.at === mark) {
        const m = document.createElement("mark");
        m.textContent = c.text;
        pre.append(m, " ");
      } else pre.append(c.text + " ");
    }
    pre.append("   ".repeat(16 - line.cells.length) + " " + line.ascii + (n < lines.length - 1 ? "\n" : ""));
  }
}

function field(labelText, input) {
  const label = document.createElement("label");
  label.append(labelText + " ", input);
  return label;
}

function input(value, attrs = {}) {
  const el = document.createElement("input");
  el.type = "text";
  el.value = value;
  el.spellcheck = false;
  el.autocomplete = "off";
  Object.assign(el, attrs);
  return el;
}

/** The editor of a value: inputs fitting its type, a type to change it to, Apply. */
function buildEditor(node) {
  const form = $("editor");
  form.replaceChildren();
  const v = node.value;
  const t = typeName(v);
  form.hidden = false;
  const typeSel = document.createElement("select");
  typeSel.id = "edit-type";
  for (const name of Object.keys(NEW_TYPES)) typeSel.add(new Option(name, name));
  const parentPacked = node.parent && node.parent.kids().packed;
  // An item of a packed array of vectors, colours or strings: edited as its element type only.
  const element = !parentPacked && node.parent && node.parent.kids().element;
  if (element) {
    typeSel.replaceChildren(new Option(element, element));
    typeSel.setAttribute("aria-label", `Type (an item of a ${typeName(node.parent.value)})`);
  }
  const fields = document.createElement("div");
  fields.id = "edit-fields";
  let read = () => v;
  const fill = (type, sample) => {
    fields.replaceChildren();
    if (type === "null" || type === "Array" || type === "Dictionary") {
      read = () => (type === t ? v : NEW_TYPES[type]());
      const note = document.createElement("p");
      note.className = "note";
      note.textContent = type === "null" ? "null has no value to edit." : type === t ? `Edit the ${type}'s items in the tree; add them below.` : `Apply makes it an empty ${type}.`;
      fields.append(note);
    } else if (type === "bool") {
      const box = input("", { type: "checkbox", id: "edit-bool", checked: sample === true });
      fields.append(field("true", box));
      read = () => box.checked;
    } else if (type === "int") {
      const el = input(typeof sample === "number" || typeof sample === "bigint" ? String(sample) : "0", { id: "edit-value", inputMode: "numeric" });
      fields.append(field("int", el));
      read = () => {
        const s = el.value.trim();
        if (!/^[+-]?\d+$/.test(s)) throw new TypeError(`"${s}" is not an int (a float is a different type: choose float)`);
        const b = BigInt(s);
        return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
      };
    } else if (type === "float") {
      const x = sample instanceof fvc.Float ? sample.value : typeof sample === "number" ? sample : 0;
      const el = input(floatText(x), { id: "edit-value", inputMode: "decimal" });
      fields.append(field("float", el));
      read = () => new fvc.Float(parseFloatText(el.value));
    } else if (type === "String" || type === "StringName" || type === "NodePath") {
      const text = typeof sample === "string" ? sample : sample instanceof fvc.StringName ? sample.name : sample instanceof fvc.NodePath ? sample.toString() : "";
      const long = text.length > 120 || text.includes("\n");
      const el = long ? document.createElement("textarea") : input("", {});
      el.id = "edit-value";
      el.value = text;
      fields.append(field(type, el));
      read = () => (type === "String" ? el.value : type === "StringName" ? new fvc.StringName(el.value) : new fvc.NodePath(el.value));
    } else if (type in COMPOSITE) {
      const start = typeName(sample) === type ? sample : NEW_TYPES[type]();
      const comps = components(start);
      const integer = COMPOSITE[type][2];
      const box = document.createElement("div");
      box.className = "comps";
      const els = comps.map(([label, c], j) => {
        const el = input(integer ? String(c) : componentText(c, type === "Color"), { id: `edit-c${j}`, inputMode: integer ? "numeric" : "decimal" });
        box.append(field(label, el));
        return el;
      });
      fields.append(box);
      if (type === "Color") {
        const pick = input("", { type: "color", id: "edit-color" });
        const toHex = (x) => Math.round(Math.min(1, Math.max(0, x)) * 255).toString(16).padStart(2, "0");
        pick.value = "#" + [0, 1, 2].map((j) => toHex(parseFloatText(els[j].value) || 0)).join("");
        pick.addEventListener("input", () => {
          for (let j = 0; j < 3; j++) els[j].value = String(parseInt(pick.value.slice(1 + 2 * j, 3 + 2 * j), 16) / 255);
        });
        fields.append(field("colour", pick));
      }
      read = () =>
        fromComponents(
          type,
          els.map((el) => {
            if (!integer) return parseFloatText(el.value);
            const s = el.value.trim();
            if (!/^[+-]?\d+$/.test(s)) throw new TypeError(`"${s}" is not an integer component`);
            return Number(s);
          }),
        );
    }
  };
  if (parentPacked) {
    // An item of a packed array of numbers: its number, nothing else.
    const isReal = parentPacked === Float32Array || parentPacked === Float64Array;
    const el = input(isReal ? floatText(v.valueOf()) : String(v), { id: "edit-value" });
    fields.append(field(isReal ? "float" : "int", el));
    read = () => {
      if (isReal) return parseFloatText(el.value);
      const s = el.value.trim();
      if (!/^[+-]?\d+$/.test(s)) throw new TypeError(`"${s}" is not an integer`);
      return parentPacked === BigInt64Array ? BigInt(s) : Number(s);
    };
    form.append(fields);
  } else if (t in NEW_TYPES) {
    typeSel.value = t;
    fill(t, v);
    typeSel.addEventListener("change", () => fill(typeSel.value, v));
    form.append(field("Type", typeSel), fields);
  } else {
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = `A ${t} is shown, not edited here; it can be replaced by a value of another type.`;
    typeSel.add(new Option(`(keep the ${t})`, ""), 0);
    typeSel.value = "";
    fields.append(note);
    read = () => v;
    typeSel.addEventListener("change", () => {
      if (typeSel.value) fill(typeSel.value, null);
      else {
        fields.replaceChildren(note);
        read = () => v;
      }
    });
    form.append(field("Type", typeSel), fields);
  }
  const apply = document.createElement("button");
  apply.type = "submit";
  apply.id = "apply";
  apply.textContent = "Apply";
  form.append(apply);
  form.onsubmit = (ev) => {
    ev.preventDefault();
    let next;
    try {
      next = read();
    } catch (e) {
      editError(e.message);
      return;
    }
    if (next === v && !(t in COMPOSITE)) return;
    commit(node, () => node.setValue(next), () => node.setValue(v));
  };
}

$("editor").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
    ev.preventDefault();
    $("editor").requestSubmit();
  } else if (ev.key === "Escape" && S.selected) {
    ev.preventDefault();
    focusNode(S.selected);
  }
});

function parseFloatText(text) {
  const s = text.trim().toLowerCase();
  const special = { nan: NaN, inf: Infinity, "+inf": Infinity, "-inf": -Infinity, infinity: Infinity, "-infinity": -Infinity };
  if (s in special) return special[s];
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) throw new TypeError(`"${text}" is not a number`);
  return Number(s);
}

function editError(message) {
  const el = $("edit-error");
  el.textContent = message;
  el.hidden = false;
}

/**
 * Makes a change (`apply`), then re-encodes the value's record with the package: a value the
 * dialect cannot hold is refused with the package's own message, and `undo` puts it back.
 */
function commit(node, apply, undo, what = `Changed ${pathText(node)}`) {
  $("edit-error").hidden = true;
  if (S.readOnly) {
    editError(`Not changed: the file is read-only, as ${S.readOnly}.`);
    return false;
  }
  const before = recordState(node.rec);
  apply();
  const err = reencode(node.rec);
  if (err) {
    undo();
    node.forget();
    if (node.parent) node.parent.forget();
    render();
    select(findNode(node.path) ?? node);
    editError(`Refused: ${err.message}`);
    return false;
  }
  // Only the value changed is marked (a container whose items moved, itself): the marks inside
  // it named values that may have moved.
  const rec = S.records[node.rec];
  const mark = node.path.slice(1).join("/");
  for (const m of [...rec.marks]) if (m !== mark && (mark === "" || m.startsWith(mark + "/"))) rec.marks.delete(m);
  rec.marks.add(mark);
  S.undo.push({ id: S.nextEdit++, rec: node.rec, before, after: recordState(node.rec), path: node.path, what });
  S.redo = [];
  undoButtons();
  node.forget();
  for (let p = node.parent; p; p = p.parent) p._kids = undefined;
  render();
  select(findNode(node.path) ?? node);
  $("save-status").textContent = "";
  status(`${what}; not saved yet (Ctrl+Z undoes it).`);
  return true;
}

/** What undo and redo put back of a record: its bytes and ranges, and its marks. */
function recordState(i) {
  const r = S.records[i];
  return { bytes: r.bytes, spans: r.spans, spanBase: r.spanBase, cache: r.cache, edited: r.edited, marks: new Set(r.marks) };
}

/**
 * Puts a record back as `state` left it. Its value is its bytes decoded again (the edits change
 * the values in place; the bytes of each state are kept as they were).
 */
function restoreRecord(i, state) {
  const rec = S.records[i];
  rec.value = S.codec.decode(state.bytes);
  Object.assign(rec, { bytes: state.bytes, spans: state.spans, spanBase: state.spanBase, cache: state.cache, edited: state.edited, marks: new Set(state.marks) });
  for (let j = i + 1; j < S.records.length; j++) {
    const prev = S.records[j - 1];
    S.records[j].start = prev.start + prev.bytes.length + prev.gap;
  }
  S.roots[i].forget();
}

/** Undoes the last edit (`back`), or redoes the last undone one. */
function undoRedo(back) {
  const from = back ? S.undo : S.redo;
  const to = back ? S.redo : S.undo;
  const edit = from.pop();
  if (!edit) return;
  try {
    restoreRecord(edit.rec, back ? edit.before : edit.after);
  } catch (e) {
    from.push(edit);
    editError(`Not ${back ? "undone" : "redone"}: ${e.message}`);
    return;
  }
  to.push(edit);
  undoButtons();
  // The tree opened down to the value changed, which is selected.
  let node = S.roots[edit.rec];
  if (S.rootsShown <= edit.rec) S.rootsShown = Math.ceil((edit.rec + 1) / PAGE) * PAGE;
  for (const i of edit.path.slice(1)) {
    const k = node.kids();
    if (!k || i >= k.count) break;
    node.expanded = true;
    if (node.shown <= i) node.shown = Math.ceil((i + 1) / PAGE) * PAGE;
    node = node.child(i);
  }
  render();
  select(node);
  $("save-status").textContent = "";
  status(`${back ? "Undone" : "Redone"}: ${edit.what}.${unsaved() ? " Not saved yet." : ""}`);
}

function undoButtons() {
  const u = S.undo[S.undo.length - 1];
  const r = S.redo[S.redo.length - 1];
  $("undo").disabled = !u;
  $("redo").disabled = !r;
  $("undo").title = u ? `Undo: ${u.what} (Ctrl+Z)` : "Nothing to undo";
  $("redo").title = r ? `Redo: ${r.what} (Ctrl+Shift+Z, Ctrl+Y)` : "Nothing to redo";
}

/** The record's bytes and spans anew, from the package; the error that refused it, if any. */
function reencode(i) {
  const rec = S.records[i];
  let bytes;
  try {
    bytes = S.codec.encode(rec.value);
  } catch (e) {
    return e;
  }
  rec.bytes = bytes;
  rec.spans = fvc.valueSpans(bytes, { dialect: S.dialect, precision: S.precision, allowObjects: true });
  rec.spanBase = 0;
  rec.cache = new Map();
  rec.edited = true;
  // The records after it move by the change of its length.
  for (let j = i + 1; j < S.records.length; j++) {
    const prev = S.records[j - 1];
    S.records[j].start = prev.start + prev.bytes.length + prev.gap;
  }
  return null;
}

function findNode(path) {
  let node = S.roots[path[0]];
  for (const i of path.slice(1)) {
    if (!node) return null;
    const k = node.kids();
    if (!k || i >= k.count) return node;
    node = node.child(i);
  }
  return node;
}

function removeNode(node) {
  const parent = node.parent;
  if (!parent || !(parent.kids().remove || parent.kids().removed)) return;
  const k = parent.kids();
  const container = parent.value;
  const what = `Removed ${pathText(node)}`;
  let done;
  if (k.removed) {
    done = commit(parent, () => parent.setValue(k.removed(node.index)), () => parent.setValue(container), what);
  } else {
    const before = snapshot(container);
    done = commit(
      parent,
      () => {
        k.remove(node.index);
        parent.forget();
      },
      () => restore(container, before),
      what,
    );
  }
  if (!done) return;
  const left = parent.kids();
  if (left && left.count) select(parent.child(Math.min(node.index, left.count - 1)));
  else select(parent);
}

function snapshot(c) {
  if (Array.isArray(c)) return c.slice();
  if (c instanceof fvc.TypedArray) return c.items.slice();
  if (c instanceof Map) return [...c];
  if (c instanceof fvc.TypedDictionary) return [...c.entries];
  if (c instanceof fvc.GodotObject) return [...c.properties];
  return Object.entries(c);
}

function restore(c, before) {
  if (Array.isArray(c)) c.splice(0, c.length, ...before);
  else if (c instanceof fvc.TypedArray) c.items.splice(0, c.items.length, ...before);
  else if (c instanceof Map || c instanceof fvc.TypedDictionary || c instanceof fvc.GodotObject) {
    const m = c instanceof Map ? c : c instanceof fvc.GodotObject ? c.properties : c.entries;
    m.clear();
    for (const [k, v] of before) m.set(k, v);
  } else {
    for (const k of Object.keys(c)) delete c[k];
    for (const [k, v] of before) c[k] = v;
  }
}

/** The key types the adder offers (a typed Dictionary fixes its own). */
const KEY_TYPES = ["String", "StringName", "int", "float", "bool"];

/** A key of type `type` from the text typed. */
function keyFromText(type, text) {
  if (type === "String") return text;
  if (type === "StringName") return new fvc.StringName(text);
  if (type === "int") {
    const s = text.trim();
    if (!/^[+-]?\d+$/.test(s)) throw new TypeError(`"${s}" is not an int key`);
    const b = BigInt(s);
    return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
  }
  if (type === "float") return new fvc.Float(parseFloatText(text));
  if (type === "bool") {
    const s = text.trim().toLowerCase();
    if (s !== "true" && s !== "false") throw new TypeError(`a bool key is true or false, not "${text}"`);
    return s === "true";
  }
  if (type in NEW_TYPES && type !== "null") {
    if (text.trim() !== "") throw new TypeError(`A ${type} key is not typed here: leave the key empty to add ${type}'s default value.`);
    return NEW_TYPES[type]();
  }
  throw new TypeError(`Keys of type ${type} cannot be typed here.`);
}

/** A copy of a Dictionary or Object with one entry more (a Map: its keys may be any type). */
function withEntry(c, key, value) {
  if (c instanceof fvc.GodotObject) return new fvc.GodotObject(c.className, new Map([...c.properties, [key, value]]));
  if (c instanceof fvc.TypedDictionary) return new fvc.TypedDictionary(c.keyType, c.valueType, new Map([...c.entries, [key, value]]));
  const entries = c instanceof Map ? [...c] : Object.entries(c);
  return new Map([...entries, [key, value]]);
}

$("adder").addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && S.selected) {
    ev.preventDefault();
    focusNode(S.selected);
  }
});

$("remove").addEventListener("click", () => S.selected && removeNode(S.selected));

$("adder").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const node = S.selected;
  if (!node) return;
  const k = node.kids();
  const value = NEW_TYPES[$("adder-type").value]();
  const container = node.value;
  if (k.insertKey) {
    let key;
    try {
      key = keyFromText($("adder-key-type").value, $("adder-key").value);
    } catch (e) {
      editError(e.message);
      return;
    }
    const next = withEntry(container, key, value);
    // Whether the key is one the container holds already is the package's to say (Godot's
    // rules: "a" and &"a" are one key): the container with the entry, encoded and decoded
    // again, must have one entry more.
    let back;
    try {
      back = S.codec.decode(S.codec.encode(next));
    } catch (e) {
      editError(`Refused: ${e.message}`);
      return;
    }
    if (kids(back).count !== k.count + 1) {
      const what = container instanceof fvc.GodotObject ? "property" : "key";
      editError(`Not added: the ${typeName(container)} already has the ${what} ${keyText(key)} (${typeName(key)}), as Godot compares ${what === "key" ? "keys" : "names"}.`);
      return;
    }
    if (!commit(node, () => node.setValue(next), () => node.setValue(container), `Added ${keyText(key)} to ${pathText(node)}`)) return;
  } else if (k.added) {
    if (!commit(node, () => node.setValue(k.added(value)), () => node.setValue(container), `Added an item to ${pathText(node)}`)) return;
  } else {
    const before = snapshot(container);
    if (!commit(node, () => k.insert(value), () => restore(container, before), `Added an item to ${pathText(node)}`)) return;
  }
  node.expanded = true;
  const count = node.kids().count;
  node.shown = Math.max(node.shown, Math.ceil(count / PAGE) * PAGE);
  render();
  select(node.child(count - 1));
  editFocus();
});

// --- search ------------------------------------------------------------------------------------

function search() {
  const q = $("search").value.trim().toLowerCase();
  const list = $("results");
  list.replaceChildren();
  if (!q) {
    list.hidden = true;
    $("search-count").textContent = "";
    return;
  }
  const LIMIT = 500;
  let count = 0;
  const hits = [];
  for (let r = 0; r < S.records.length && hits.length < LIMIT; r++) {
    const stack = [[S.records[r].value, [r], null]];
    while (stack.length && hits.length < LIMIT) {
      const [v, path, label] = stack.pop();
      const k = kids(v);
      const keyHit = label !== null && label.toLowerCase().includes(q);
      if (k) {
        if (keyHit) hits.push(path);
        if (k.located || v instanceof fvc.PackedStringArray) {
          for (let i = k.count - 1; i >= 0; i--) stack.push([k.get(i), [...path, i], k.keys ? keyText(k.keys[i]) : null]);
        }
      } else {
        const text = leafText(v);
        if (keyHit || (text !== null && text.toLowerCase().includes(q))) hits.push(path);
      }
    }
  }
  count = hits.length;
  for (const path of hits) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    const node = findNodeQuiet(path);
    b.textContent = node ? `${pathText(node)} = ${summary(node.value)}` : path.join("/");
    b.addEventListener("click", () => reveal(path));
    li.append(b);
    list.append(li);
  }
  list.hidden = count === 0;
  $("search-count").textContent = count === 0 ? "No match." : `${count}${count >= LIMIT ? "+" : ""} match${count === 1 ? "" : "es"}.`;
}

function findNodeQuiet(path) {
  return findNode(path);
}

/** Expands the tree down to `path`, pages in its index, and selects it. */
function reveal(path) {
  const need = path[0] + 1;
  if (S.rootsShown < need) S.rootsShown = Math.ceil(need / PAGE) * PAGE;
  let node = S.roots[path[0]];
  for (const i of path.slice(1)) {
    node.expanded = true;
    if (node.shown <= i) node.shown = Math.ceil((i + 1) / PAGE) * PAGE;
    node = node.child(i);
  }
  render();
  select(node);
}

$("search-go").addEventListener("click", search);
$("search").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter") {
    ev.preventDefault();
    search();
    const first = $("results").querySelector("button");
    if (first) first.focus();
  }
});

// --- dialect and precision ---------------------------------------------------------------------

for (const sel of [$("dialect"), $("save-dialect")]) {
  if (sel.id === "dialect") sel.add(new Option("auto", "auto"));
  for (const d of fvc.DIALECTS) sel.add(new Option(d, d));
}
for (const name of Object.keys(NEW_TYPES)) $("adder-type").add(new Option(name, name));

/**
 * Whether the file may be read again (a dialect or precision chosen): unsaved changes would be
 * lost, so the user is asked first (a confirm: Enter or Escape answers it).
 */
function mayReread(what) {
  const edited = S.records.filter((r) => r.edited).length;
  if (!edited) return true;
  return window.confirm(
    `Reading ${S.name} again as ${what} drops the changes made here to ${edited} value${edited === 1 ? "" : "s"} (a file saved already keeps them). Read it again?`,
  );
}

$("dialect").addEventListener("change", () => {
  const choice = $("dialect").value;
  if (!mayReread(choice === "auto" ? "the dialect found" : choice)) {
    $("dialect").value = S.dialectChoice;
    status("Dialect not changed: the unsaved changes are kept.");
    return;
  }
  S.dialectChoice = choice;
  inspect();
});
$("precision").addEventListener("change", () => {
  const choice = $("precision").value;
  if (!mayReread(`${choice} precision`)) {
    $("precision").value = S.precision;
    status("Precision not changed: the unsaved changes are kept.");
    return;
  }
  S.precision = choice;
  inspect();
});

// --- saving ------------------------------------------------------------------------------------

function saveFields() {
  const c = $("save-container").value;
  $("save-password-label").hidden = c !== "password";
  $("save-key-label").hidden = c !== "key";
}
$("save-container").addEventListener("change", saveFields);

function download(bytes, name, type = "application/octet-stream") {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

$("save-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (S.readOnly) {
    $("save-status").textContent = `Not saved: ${S.name} is read-only, as ${S.readOnly}.`;
    return;
  }
  const c = $("save-container").value;
  const o = { dialect: $("save-dialect").value, precision: S.precision, fullObjects: true, raw: S.found.framing === "raw" };
  try {
    if (c === "password") o.password = $("save-password").value;
    else if (c === "key") o.key = hexBytes($("save-key").value);
    else if (c !== "plain") o.compression = c;
    const bytes = fvc.writeStoreVarFile(
      S.records.map((r) => r.value),
      o,
    );
    const name = $("save-name").value || S.name;
    download(bytes, name);
    $("save-status").textContent = `Saved ${name}: ${bytes.length} bytes, ${o.dialect}, ${c === "plain" ? "plain" : c === "password" || c === "key" ? "encrypted" : "compressed (" + c + ")"}.`;
    document.body.dataset.saved = String(Number(document.body.dataset.saved ?? 0) + 1);
    S.savedEdit = currentEdit();
  } catch (e) {
    $("save-status").textContent = `Not saved: ${e.message}`;
  }
});

$("export-json").addEventListener("click", () => {
  // The package's JSON projection (the core's, as the command line's to-json writes it) of a
  // Dictionary of the dialect and the values.
  const doc = { dialect: S.dialect, values: S.records.map((r) => r.value) };
  const text = fvc.toJSON(doc, { input: "value", pretty: true }) + "\n";
  download(new TextEncoder().encode(text), S.name.replace(/\.[^.]*$/, "") + ".json", "application/json");
  $("save-status").textContent = "Exported the values as JSON.";
});

$("import-json").addEventListener("change", async () => {
  const file = $("import-json").files[0];
  if (!file) return;
  if (!mayDrop(`Importing ${file.name}`)) {
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
    const raw = S.found.framing === "raw";
    const plain = fvc.writeStoreVarFile(values, { dialect: S.dialect, precision: S.precision, fullObjects: true, raw });
    const found = fvc.inspectStoreVarFile(plain, { dialect: S.dialect, precision: S.precision, allowObjects: true, keepFloats: true });
    const keep = { container: S.found.container, compression: S.found.compression, encryption: S.found.encryption };
    load({ ...found, ...keep });
    for (const r of S.records) {
      r.edited = true;
      r.marks.add("");
    }
    // Nothing saved holds the values imported (undo does not go back across an import).
    S.savedEdit = -1;
    render();
    $("save-status").textContent = `Imported ${values.length} values from ${file.name}; not saved yet.`;
  } catch (e) {
    $("save-status").textContent = `Not imported: ${e.message}`;
  }
  $("import-json").value = "";
});

// --- files in ----------------------------------------------------------------------------------

$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (!f) return;
  await openFile(f);
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
  if (f) openFile(f);
});

// Closing or reloading the tab with edits not saved: the browser asks first.
window.addEventListener("beforeunload", (ev) => {
  if (!unsaved()) return;
  ev.preventDefault();
  ev.returnValue = "";
});

// Undo and redo: the buttons, and Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y (Cmd on a Mac) wherever a text
// field does not take them for its own text.
$("undo").addEventListener("click", () => undoRedo(true));
$("redo").addEventListener("click", () => undoRedo(false));
document.addEventListener("keydown", (ev) => {
  if (!(ev.ctrlKey || ev.metaKey) || ev.altKey || !S.found) return;
  const key = ev.key.toLowerCase();
  if (key !== "z" && key !== "y") return;
  const t = ev.target;
  const typing = t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && /^(text|search|password|number|)$/.test(t.type));
  if (typing) return;
  ev.preventDefault();
  undoRedo(key === "z" && !ev.shiftKey);
});

$("version").textContent = fvc.version();
document.body.dataset.state = "empty";
