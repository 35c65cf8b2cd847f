// Changes to the document: each made with commit (the value's record encoded again by the
// package, refused with its message when the dialect cannot hold it), and undone and redone
// from the bytes kept before and after.

import { $, editError, status } from "./dom.js";
import { findNode, pathText, recordState, reencode, restoreRecord, showIndex, unsaved } from "./document.js";
import { render, select } from "./tree.js";

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

