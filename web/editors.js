// The selected value beside the tree: its path, its bytes in hex, and the editors that fit its
// type (the Type list, components, a colour picker), with the Add form's key and item types.
// Reading what is typed is here; every change goes through edits.js's commit.

import * as fvc from "fast-var-codec";
import { $, editError, field, hexInto, input } from "./dom.js";
import { pathText, rangeOf, sectioned, textKind, textual } from "./document.js";
import { commit } from "./history.js";
import { focusNode } from "./tree.js";
import { COMPOSITE, NEW_TYPES, components, componentText, floatText, fromComponents, typeName } from "./values.js";

const HEX_MAX = 1024; // bytes shown in the hex view

/** The key types the adder offers (a typed Dictionary fixes its own). */
const KEY_TYPES = ["String", "StringName", "int", "float", "bool"];

/** Focus to the selected value's editor (its first field), or to the Add form. */
export function editFocus() {
  const form = $("editor");
  const first = form.querySelector("#edit-value, #edit-c0, #edit-bool") ?? form.querySelector("input, textarea, select");
  if (!form.hidden && first) {
    first.focus();
    first.select?.();
  }
  else if (!$("adder").hidden) $("adder-type").focus();
}

/** The selected value beside the tree: its path, its editor, its bytes; the Add form. */
export function showSelected(state, node) {
  $("edit-error").hidden = true;
  const r = rangeOf(node);
  const rec = state.records[node.rec];
  // A ConfigFile's section is its keys, a text resource's its properties: edited by them,
  // added to, never another type.
  const section = sectioned(state) && !node.parent;
  $("sel-path").textContent = section
    ? `${pathText(node)}: a section of the ${state.kind === "config" ? "ConfigFile" : "text resource"}`
    : `${pathText(node)}: ${typeName(node.value)}` + (r ? `, bytes ${rec.start + r[0]}–${rec.start + r[1]}` : "");
  buildEditor(state, node);
  if (section) $("editor").hidden = true;
  const hex = $("hex");
  if (r) {
    const bytes = rec.bytes.subarray(r[0], Math.min(r[1], rec.bytes.length));
    hexInto(hex, bytes.subarray(0, HEX_MAX), rec.start + r[0], null);
    if (bytes.length > HEX_MAX) hex.append(`\n… ${bytes.length - HEX_MAX} more bytes`);
  } else {
    hex.textContent =
      textual(state)
        ? `A ${textKind(state)} holds its values as text: no bytes of their own.`
        : node.parent && !node.parent.kids().located
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
    $("adder-title").textContent =
      v instanceof fvc.GodotObject || (section && state.kind === "resource") ? "Add a property" : section ? "Add a key" : keyed ? "Add an entry" : "Add an item";
    // The key's type: the container's where it fixes one (a typed Dictionary's, an Object's
    // property names, a ConfigFile section's keys), the user's choice otherwise.
    const keyType = v instanceof fvc.GodotObject || section ? "String" : v instanceof fvc.TypedDictionary ? v.keyType : null;
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
  if (state.readOnly) {
    $("editor").hidden = true;
    $("adder").hidden = true;
    $("remove").hidden = true;
    $("sel-path").textContent += " (read-only)";
  }
}

/** The editor of a value: inputs fitting its type, a type to change it to, Apply. */
function buildEditor(state, node) {
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
        const el = input(integer ? String(c) : componentText(c, state.singleReals, type === "Color"), { id: `edit-c${j}`, inputMode: integer ? "numeric" : "decimal" });
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
    commit(state, node, () => node.setValue(next), () => node.setValue(v));
  };
}

/** A float from the text typed: a decimal, or nan, inf, -inf. */
function parseFloatText(text) {
  const s = text.trim().toLowerCase();
  const special = { nan: NaN, inf: Infinity, "+inf": Infinity, "-inf": -Infinity, infinity: Infinity, "-infinity": -Infinity };
  if (s in special) return special[s];
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) throw new TypeError(`"${text}" is not a number`);
  return Number(s);
}

/** A key of type `type` from the text typed. */
export function keyFromText(type, text) {
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

/** The editor's and the Add form's keys (Ctrl+Enter applies, Escape goes back to the tree), the types offered. */
export function installEditors(state) {
  state.actions.showSelected = showSelected;
  state.actions.editFocus = editFocus;
  for (const name of Object.keys(NEW_TYPES)) $("adder-type").add(new Option(name, name));
  $("editor").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      $("editor").requestSubmit();
    } else if (ev.key === "Escape" && state.selected) {
      ev.preventDefault();
      focusNode(state.selected);
    }
  });
  $("adder").addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && state.selected) {
      ev.preventDefault();
      focusNode(state.selected);
    }
  });
}
