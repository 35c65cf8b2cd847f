// The open document: the file and how it is read, the values read with their bytes and ranges
// (store_var values), or a ConfigFile's or a text resource's sections, the edits made (undo and redo), whether a save
// holds them and whether Save may write at all. Held by one state object (createState), made by
// the entry module and passed to every function that needs it. No DOM here; every rule of the
// format is the package's.

import * as fvc from "fast-var-codec";
import { kids } from "./values.js";

export const PAGE = 100; // children shown per page of a large container

/**
 * Pages a window of children (a Node's, or the state's `rootsWindow`: its `first` and `shown`,
 * the rows [first, shown) shown) so that index `i` is in it: the page holding `i`, where it is
 * not shown already. Going to the 10,000th item of a list shows a hundred rows, not 10,000.
 */
export function showIndex(win, i) {
  if (i >= win.first && i < win.shown) return;
  win.first = Math.floor(i / PAGE) * PAGE;
  win.shown = win.first + PAGE;
}

/** The dialects a ConfigFile is read and saved in: the engines whose text the package writes. */
export const CONFIG_DIALECTS = ["godot4", "godot3"];

/** The state of the page: the open document and what the page shows of it. */
export function createState() {
  return {
    name: "",
    file: null, // the file's bytes
    password: null,
    key: null,
    dialectChoice: "auto",
    precision: "single",
    singleReals: true, // whether the values shown were read in single precision (binary32 math components)
    kind: "values", // what the document holds: "values" (store_var, var_to_bytes), "config" (a ConfigFile), "resource" (a .tres) or "json" (a JSON save)
    found: null, // inspectStoreVarFile's result, or the ConfigFile read (open.js's readConfig)
    dialect: "godot4",
    records: [], // {value, bytes, spans, spanBase, start, gap, edited, marks, cache}; a ConfigFile's: one per section, with its name
    roots: [],
    rootsWindow: { first: 0, shown: PAGE }, // the roots shown (showIndex)
    codec: null,
    selected: null,
    readOnly: null, // why the document cannot be saved (a file not read whole), or null
    undo: [], // the edits made, last last: {rec, before, after, path, what}
    redo: [], // the edits undone, last undone last
    savedEdit: null, // the edit the last save (or the opening) left in place
    nextEdit: 1,
    // What the tree's keys and selection ask of the modules above it (set by installEditors and
    // installEdits), so that the tree imports neither.
    actions: { showSelected() {}, editFocus() {}, removeNode() {} },
  };
}

/** The edit now in place (the last not undone), or null for the file as opened. */
export const currentEdit = (state) => (state.undo.length ? state.undo[state.undo.length - 1].id : null);
/** Whether there are edits that no save holds. */
export const unsaved = (state) => state.found !== null && currentEdit(state) !== state.savedEdit;

/** The package's options to read the file with: the dialect and precision chosen, the secret. */
export function readOptions(state) {
  const o = { allowObjects: true, keepFloats: true, precision: state.precision };
  if (state.dialectChoice !== "auto") o.dialect = state.dialectChoice;
  if (state.password !== null) o.password = state.password;
  if (state.key !== null) o.key = state.key;
  return o;
}

/**
 * The package's options to read a ConfigFile with, in `dialect`: the precision chosen, the
 * secret; no object (Godot's ConfigFile.load would make it, running its script).
 */
export function configOptions(state, dialect) {
  const o = { dialect, precision: state.precision, keepFloats: true };
  if (state.password !== null) o.password = state.password;
  if (state.key !== null) o.key = state.key;
  return o;
}

/** No document: nothing read, no edit. */
export function clearDocument(state) {
  state.kind = "values";
  state.found = null;
  state.records = [];
  state.roots = [];
  state.undo = [];
  state.redo = [];
  state.savedEdit = null;
}

/**
 * The document of inspectStoreVarFile's result `found`: its records, a new history, whether it
 * may be saved, its roots in the tree (none open, none selected).
 */
export function loadDocument(state, found) {
  state.kind = "values";
  state.found = found;
  state.dialect = found.dialect;
  state.singleReals = state.precision === "single";
  state.codec = new fvc.Codec({ dialect: state.dialect, precision: state.precision, fullObjects: true, allowObjects: true, keepFloats: true });
  state.records = found.records.map((r, i) => {
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
  state.undo = [];
  state.redo = [];
  state.savedEdit = null;
  // Saving writes the values held: a file not read whole would lose what was not read.
  const read = state.records.reduce((end, r) => Math.max(end, r.start + r.bytes.length), 0);
  state.readOnly = found.error
    ? `only the first ${read} of its ${found.payload.length} payload bytes were read (${found.records.length} value${found.records.length === 1 ? "" : "s"}), and saving would drop the rest`
    : found.records.length === 0
      ? "it holds no value"
      : null;
  state.roots = state.records.map((_, i) => new Node(state, i, null, i));
  state.rootsWindow = { first: 0, shown: PAGE };
  state.selected = null;
}

const NO_SPANS = new Uint32Array(0);

/**
 * The document of a ConfigFile read (`config`, open.js's readConfig: its `sections`, a Map of
 * section → Map of key → value, and its `dialect`): one record per section, whose value is its
 * keys. Its values are text in the file, with no byte range; each record's bytes are its keys
 * encoded by the package in the file's dialect, kept for undo (and refusing what that engine
 * cannot hold).
 */
export function loadConfigDocument(state, config) {
  startTextDocument(state, "config", config);
  state.records = [...config.sections].map(([section, keys]) => ({ section, ...textRecord(state, keys) }));
  state.readOnly = state.records.length === 0 ? "it holds no key" : null;
  state.roots = state.records.map((_, i) => new Node(state, i, null, i));
}

/** The document of a text file (`kind`: "config", "resource", "json") read: no record yet. */
function startTextDocument(state, kind, found) {
  state.kind = kind;
  state.found = found;
  state.dialect = found.dialect;
  state.singleReals = state.precision === "single";
  state.codec = new fvc.Codec({ dialect: state.dialect, precision: state.precision, fullObjects: true, allowObjects: true, keepFloats: true });
  state.undo = [];
  state.redo = [];
  state.savedEdit = null;
  state.rootsWindow = { first: 0, shown: PAGE };
  state.selected = null;
}

/** A record of a text file's section holding `value` (its keys, its properties), without bytes of the file's. */
function textRecord(state, value) {
  return {
    value,
    bytes: state.codec.encode(value),
    spans: NO_SPANS,
    spanBase: 0,
    start: 0,
    gap: 0,
    edited: false,
    marks: new Set(),
    cache: new Map(),
  };
}

/**
 * The document of a text resource read (`resource`, open.js's readResource: its `sections`, an
 * Array of Maps {tag, attributes, properties}, and its `dialect`): one record per section, whose
 * value is its properties; the tag and its attributes are kept as they are. Its values are text
 * in the file, with no byte range; each record's bytes are its properties encoded by the package
 * (references to the file's entries as the objects they are read as), kept for undo.
 */
export function loadResourceDocument(state, resource) {
  startTextDocument(state, "resource", resource);
  state.records = resource.sections.map((s) => ({
    tag: s.get("tag"),
    attributes: s.get("attributes"),
    ...textRecord(state, s.get("properties")),
  }));
  state.readOnly = null;
  state.roots = state.records.map((_, i) => new Node(state, i, null, i));
}

/**
 * The document of a JSON save read (`json`, open.js's readJson: its `value`, the `style` it was
 * written in and its `dialect`): one record, the value. Its values are text in the file, with no
 * byte range; the record's bytes are the value encoded by the package, kept for undo.
 */
export function loadJsonDocument(state, json) {
  startTextDocument(state, "json", json);
  state.records = [textRecord(state, json.value)];
  state.readOnly = null;
  state.roots = [new Node(state, 0, null, 0)];
}

/** Whether the document is text (a ConfigFile, a text resource, a JSON save): values without bytes of the file's. */
export const textual = (state) => state.kind === "config" || state.kind === "resource" || state.kind === "json";

/** What the page calls a text document's kind. */
export const textKind = (state) => ({ config: "ConfigFile", resource: "text resource", json: "JSON save" })[state.kind];

/** A text resource document's sections as writeTextResource takes them. */
export const resourceSections = (state) =>
  state.records.map((r) => new Map([["tag", r.tag], ["attributes", r.attributes], ["properties", r.value]]));

/** Whether the document is a text file of sections (a ConfigFile, a text resource), not values with bytes. */
export const sectioned = (state) => state.kind === "config" || state.kind === "resource";

/** How the tree names a text resource's section: its tag, as the file writes it, with its id or type. */
function tagLabel(rec) {
  const id = rec.attributes.get("id");
  const type = rec.attributes.get("type");
  if (rec.tag === "gd_resource" || rec.tag === "gd_scene") return `[${rec.tag}${type !== undefined ? ` type=${JSON.stringify(type)}` : ""}]`;
  return `[${rec.tag}${id !== undefined ? ` id=${JSON.stringify(typeof id === "bigint" ? Number(id) : id)}` : ""}]`;
}

/** A ConfigFile document's sections as writeConfigFile takes them: section → keys, in order. */
export const configSections = (state) => new Map(state.records.map((r) => [r.section, r.value]));

/** How the tree names a ConfigFile's section: [name], as the file writes it; the keys before any section apart. */
export const sectionLabel = (name) => (name === "" ? "(no section)" : `[${name}]`);

// --- the tree model ----------------------------------------------------------------------------

/** A value shown in the tree: a record (no parent) or child `index` of its parent. */
export class Node {
  constructor(state, rec, parent, index) {
    this.state = state;
    this.rec = rec;
    this.parent = parent;
    this.index = index;
    this.expanded = false;
    this.first = 0; // the children shown: [first, shown) (showIndex)
    this.shown = PAGE;
    this.children = null;
    this._kids = undefined;
  }
  get value() {
    return this.parent ? this.parent.kids().get(this.index) : this.state.records[this.rec].value;
  }
  setValue(v) {
    if (this.parent) this.parent.kids().set(this.index, v);
    else this.state.records[this.rec].value = v;
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
      c = new Node(this.state, this.rec, this, i);
      this.children.set(i, c);
    }
    return c;
  }
  get depth() {
    return this.parent ? this.parent.depth + 1 : 1;
  }
  get label() {
    if (!this.parent) {
      if (this.state.kind === "config") return sectionLabel(this.state.records[this.rec].section);
      if (this.state.kind === "resource") return tagLabel(this.state.records[this.rec]);
      return this.state.found.framing === "raw" || this.state.kind === "json" ? "value" : `#${this.index}`;
    }
    return this.parent.kids().label(this.index, this.state.singleReals);
  }
  get path() {
    return this.parent ? [...this.parent.path, this.index] : [this.rec];
  }
  get id() {
    return "n-" + this.path.join("-");
  }
  /** This value's span (index in its record's spans), or -1 where it has none. */
  get span() {
    const records = this.state.records;
    if (!this.parent) return records[this.rec].spans.length ? 0 : -1;
    const ps = this.parent.span;
    if (ps < 0) return -1;
    const k = this.parent.kids();
    if (!k.located) return -1;
    const list = childSpans(records[this.rec], ps);
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
export function rangeOf(node) {
  const s = node.span;
  if (s < 0) return null;
  const rec = node.state.records[node.rec];
  return [rec.spans[3 * s] - rec.spanBase, rec.spans[3 * s + 1] - rec.spanBase];
}

/** The node's place as its labels, from its record down: "#0 › "player" › [2]". */
export function pathText(node) {
  const parts = [];
  for (let n = node; n; n = n.parent) parts.unshift(n.label);
  return parts.join(" › ");
}

/** The node at `path` ([record, child index, ...]); its deepest node that exists, or null. */
export function findNode(state, path) {
  let node = state.roots[path[0]];
  for (const i of path.slice(1)) {
    if (!node) return null;
    const k = node.kids();
    if (!k || i >= k.count) return node;
    node = node.child(i);
  }
  return node;
}

// --- the records' bytes: re-encoding, undo and redo --------------------------------------------

/** The record's bytes and spans anew, from the package; the error that refused it, if any. */
export function reencode(state, i) {
  const rec = state.records[i];
  let bytes;
  try {
    // A ConfigFile's: what the file holds must be one its engine saves (no null, keys that are
    // Strings: writeConfigFile says), of types that engine has (the codec says).
    if (state.kind === "config") fvc.writeConfigFile(configSections(state), { dialect: state.dialect });
    if (state.kind === "resource") fvc.writeTextResource(resourceSections(state));
    // A JSON save's: JSON's values only (writeJsonSave refuses a Vector2, a NaN, naming its place).
    if (state.kind === "json") fvc.writeJsonSave(rec.value, state.found.style);
    bytes = state.codec.encode(rec.value);
  } catch (e) {
    return e;
  }
  if (textual(state)) {
    rec.bytes = bytes;
    rec.edited = true;
    return null;
  }
  rec.bytes = bytes;
  rec.spans = fvc.valueSpans(bytes, { dialect: state.dialect, precision: state.precision, allowObjects: true });
  rec.spanBase = 0;
  rec.cache = new Map();
  rec.edited = true;
  moveRecordsAfter(state, i);
  return null;
}

/** The records after record `i` move by the change of its length. */
function moveRecordsAfter(state, i) {
  for (let j = i + 1; j < state.records.length; j++) {
    const prev = state.records[j - 1];
    state.records[j].start = prev.start + prev.bytes.length + prev.gap;
  }
}

/** What undo and redo put back of a record: its bytes and ranges, and its marks. */
export function recordState(state, i) {
  const r = state.records[i];
  return { bytes: r.bytes, spans: r.spans, spanBase: r.spanBase, cache: r.cache, edited: r.edited, marks: new Set(r.marks) };
}

/**
 * Puts a record back as `saved` (a recordState) left it. Its value is its bytes decoded again
 * (the edits change the values in place; the bytes of each state are kept as they were).
 */
export function restoreRecord(state, i, saved) {
  const rec = state.records[i];
  rec.value = state.codec.decode(saved.bytes);
  Object.assign(rec, { bytes: saved.bytes, spans: saved.spans, spanBase: saved.spanBase, cache: saved.cache, edited: saved.edited, marks: new Set(saved.marks) });
  moveRecordsAfter(state, i);
  state.roots[i].forget();
}

// --- containers' items, for changes and their undo ---------------------------------------------

/** A container's items (or entries, or properties) as they are now, for restore. */
export function snapshot(c) {
  if (Array.isArray(c)) return c.slice();
  if (c instanceof fvc.TypedArray) return c.items.slice();
  if (c instanceof Map) return [...c];
  if (c instanceof fvc.TypedDictionary) return [...c.entries];
  if (c instanceof fvc.GodotObject) return [...c.properties];
  return Object.entries(c);
}

/** Puts a container's items back as snapshot() took them. */
export function restore(c, before) {
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

/** A copy of a Dictionary or Object with one entry more (a Map: its keys may be any type). */
export function withEntry(c, key, value) {
  if (c instanceof fvc.GodotObject) return new fvc.GodotObject(c.className, new Map([...c.properties, [key, value]]));
  if (c instanceof fvc.TypedDictionary) return new fvc.TypedDictionary(c.keyType, c.valueType, new Map([...c.entries, [key, value]]));
  const entries = c instanceof Map ? [...c] : Object.entries(c);
  return new Map([...entries, [key, value]]);
}
