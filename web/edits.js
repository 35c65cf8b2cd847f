// Removing and adding items, entries and properties: edits as any other (history.js's commit),
// and the Undo, Redo, Remove and Add controls.

import * as fvc from "fast-var-codec";
import { $, editError } from "./dom.js";
import { pathText, restore, showIndex, snapshot, withEntry } from "./document.js";
import { editFocus, keyFromText } from "./editors.js";
import { commit, undoRedo } from "./history.js";
import { render, select } from "./tree.js";
import { NEW_TYPES, keyText, kids, typeName } from "./values.js";

/** Removes an item, entry or property from its container (an edit as any other, undone the same way). */
export function removeNode(state, node) {
  const parent = node.parent;
  if (!parent || !(parent.kids().remove || parent.kids().removed)) return;
  const k = parent.kids();
  const container = parent.value;
  const what = `Removed ${pathText(node)}`;
  let done;
  if (k.removed) {
    done = commit(state, parent, () => parent.setValue(k.removed(node.index)), () => parent.setValue(container), what);
  } else {
    const before = snapshot(container);
    done = commit(
      state,
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
  if (left && left.count) select(state, parent.child(Math.min(node.index, left.count - 1)));
  else select(state, parent);
}

/** The Add form: an item, an entry or a property added to the selected container. */
function add(state) {
  const node = state.selected;
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
      back = state.codec.decode(state.codec.encode(next));
    } catch (e) {
      editError(`Refused: ${e.message}`);
      return;
    }
    if (kids(back).count !== k.count + 1) {
      const what = container instanceof fvc.GodotObject ? "property" : "key";
      editError(`Not added: the ${typeName(container)} already has the ${what} ${keyText(key, state.singleReals)} (${typeName(key)}), as Godot compares ${what === "key" ? "keys" : "names"}.`);
      return;
    }
    if (!commit(state, node, () => node.setValue(next), () => node.setValue(container), `Added ${keyText(key, state.singleReals)} to ${pathText(node)}`)) return;
  } else if (k.added) {
    if (!commit(state, node, () => node.setValue(k.added(value)), () => node.setValue(container), `Added an item to ${pathText(node)}`)) return;
  } else {
    const before = snapshot(container);
    if (!commit(state, node, () => k.insert(value), () => restore(container, before), `Added an item to ${pathText(node)}`)) return;
  }
  node.expanded = true;
  const count = node.kids().count;
  showIndex(node, count - 1);
  render(state);
  select(state, node.child(count - 1));
  editFocus();
}

/** Remove, Add, Undo and Redo: the buttons, and Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y. */
export function installEdits(state) {
  state.actions.removeNode = removeNode;
  $("remove").addEventListener("click", () => state.selected && removeNode(state, state.selected));
  $("adder").addEventListener("submit", (ev) => {
    ev.preventDefault();
    add(state);
  });
  // Undo and redo: the buttons, and Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y (Cmd on a Mac) wherever a text
  // field does not take them for its own text.
  $("undo").addEventListener("click", () => undoRedo(state, true));
  $("redo").addEventListener("click", () => undoRedo(state, false));
  document.addEventListener("keydown", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || ev.altKey || !state.found) return;
    const key = ev.key.toLowerCase();
    if (key !== "z" && key !== "y") return;
    const t = ev.target;
    const typing = t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && /^(text|search|password|number|)$/.test(t.type));
    if (typing) return;
    ev.preventDefault();
    undoRedo(state, key === "z" && !ev.shiftKey);
  });
}
