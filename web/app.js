// The page: opens a Godot file with the package (fast-var-codec, the Rust core as WebAssembly),
// shows its values as a tree with their byte ranges, edits them, and saves the file back. Every
// rule of the format (containers, dialects, offsets, what a dialect can hold) is the package's;
// the page only shows and asks.
//
// The entry module: it makes the page's one state object (document.js's createState) and hands
// it to each module's install, which attaches that module's controls. No module keeps state of
// its own, and nothing is put on `window`.

import * as fvc from "fast-var-codec";
import { $ } from "./dom.js";
import { createState, unsaved } from "./document.js";
import { installEditors } from "./editors.js";
import { installEdits } from "./edits.js";
import { installJson } from "./json.js";
import { installOpen } from "./open.js";
import { installSave } from "./save.js";
import { installSearch } from "./search.js";
import { installTree } from "./tree.js";

const state = createState();

installOpen(state);
installTree(state);
installEditors(state);
installEdits(state);
installSearch(state);
installSave(state);
installJson(state);

// Closing or reloading the tab with edits not saved: the browser asks first.
window.addEventListener("beforeunload", (ev) => {
  if (!unsaved(state)) return;
  ev.preventDefault();
  ev.returnValue = "";
});

$("version").textContent = fvc.version();
document.body.dataset.state = "empty";
