// Changes to the document: each made with commit (the value's record encoded again by the
// package, refused with its message when the dialect cannot hold it), and undone and redone
// from the bytes kept before and after. Removing and adding items, entries and properties.

import * as fvc from "fast-var-codec";
import { $, editError, status } from "./dom.js";
import { findNode, pathText, recordState, reencode, restore, restoreRecord, showIndex, snapshot, unsaved, withEntry } from "./document.js";
import { editFocus, keyFromText } from "./editors.js";
import { render, select } from "./tree.js";
import { NEW_TYPES, keyText, kids, typeName } from "./values.js";

/**
 * Makes a change (`apply`), then re-encodes the value's record with the package: a value the
 * dialect cannot hold is refused with the package's own message, and `undo` puts it back.
 */
export function commit(state, node, apply, undo, what = `Changed ${pathText(node)}`) {
  $("edit-error").hidden = true;
  if (state.readOnly) {
    editError(`Not changed: the file is read-only, as ${state.readOnly}.`);
    return false;
  }
  const before = recordState(state, node.rec);
  apply();
  const err = reencode(state, node.rec);
  if (err) {
    undo();
    node.forget();
    if (node.parent) node.parent.forget();
    render(state);
    select(state, findNode(state, node.path) ?? node);
    editError(`Refused: ${err.message}`);
    return false;
  }
  // Only the value changed is marked (a container whose items moved, itself): the marks inside
  // it named values that may have moved.
  const rec = state.records[node.rec];
  const mark = node.path.slice(1).join("/");
  for (const m of [...rec.marks]) if (m !== mark && (mark === "" || m.startsWith(mark + "/"))) rec.marks.delete(m);
  rec.marks.add(mark);
  state.undo.push({ id: state.nextEdit++, rec: node.rec, before, after: recordState(state, node.rec), path: node.path, what });
  state.redo = [];
  undoButtons(state);
  node.forget();
  for (let p = node.parent; p; p = p.parent) p._kids = undefined;
  render(state);
  select(state, findNode(state, node.path) ?? node);
  $("save-status").textContent = "";
  status(`${what}; not saved yet (Ctrl+Z undoes it).`);
  return true;
}

/** Undoes the last edit (`back`), or redoes the last undone one. */
export function undoRedo(state, back) {
  const from = back ? state.undo : state.redo;
  const to = back ? state.redo : state.undo;
  const edit = from.pop();
  if (!edit) return;
  try {
    restoreRecord(state, edit.rec, back ? edit.before : edit.after);
  } catch (e) {
    from.push(edit);
    editError(`Not ${back ? "undone" : "redone"}: ${e.message}`);
    return;
  }
  to.push(edit);
  undoButtons(state);
  // The tree opened down to the value changed, which is selected.
  let node = state.roots[edit.rec];
  showIndex(state.rootsWindow, edit.rec);
  for (const i of edit.path.slice(1)) {
    const k = node.kids();
    if (!k || i >= k.count) break;
    node.expanded = true;
    showIndex(node, i);
    node = node.child(i);
  }
  render(state);
  select(state, node);
  $("save-status").textContent = "";
  status(`${back ? "Undone" : "Redone"}: ${edit.what}.${unsaved(state) ? " Not saved yet." : ""}`);
}

/** The Undo and Redo buttons: enabled when there is an edit to undo or redo, their tooltips saying which. */
export function undoButtons(state) {
  const u = state.undo[state.undo.length - 1];
  const r = state.redo[state.redo.length - 1];
  $("undo").disabled = !u;
  $("redo").disabled = !r;
  $("undo").title = u ? `Undo: ${u.what} (Ctrl+Z)` : "Nothing to undo";
  $("redo").title = r ? `Redo: ${r.what} (Ctrl+Shift+Z, Ctrl+Y)` : "Nothing to redo";
}

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
