// Search: keys and values (text, numbers as shown, the strings of a PackedStringArray), up to
// LIMIT matches; a match opens the tree down to it.

import * as fvc from "fast-var-codec";
import { $ } from "./dom.js";
import { findNode, pathText } from "./document.js";
import { reveal } from "./tree.js";
import { keyText, kids, leafText, summary } from "./values.js";

const LIMIT = 500; // matches listed at most

/** The matches of the search field's text, listed under it. */
function search(state) {
  const q = $("search").value.trim().toLowerCase();
  const list = $("results");
  list.replaceChildren();
  if (!q) {
    list.hidden = true;
    $("search-count").textContent = "";
    return;
  }
  let count = 0;
  const hits = [];
  for (let r = 0; r < state.records.length && hits.length < LIMIT; r++) {
    const stack = [[state.records[r].value, [r], null]];
    while (stack.length && hits.length < LIMIT) {
      const [v, path, label] = stack.pop();
      const k = kids(v);
      const keyHit = label !== null && label.toLowerCase().includes(q);
      if (k) {
        if (keyHit) hits.push(path);
        if (k.located || v instanceof fvc.PackedStringArray) {
          for (let i = k.count - 1; i >= 0; i--) stack.push([k.get(i), [...path, i], k.keys ? keyText(k.keys[i], state.singleReals) : null]);
        }
      } else {
        const text = leafText(v, state.singleReals);
        if (keyHit || (text !== null && text.toLowerCase().includes(q))) hits.push(path);
      }
    }
  }
  count = hits.length;
  for (const path of hits) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    const node = findNode(state, path);
    b.textContent = node ? `${pathText(node)} = ${summary(node.value, state.singleReals)}` : path.join("/");
    b.addEventListener("click", () => reveal(state, path));
    li.append(b);
    list.append(li);
  }
  list.hidden = count === 0;
  $("search-count").textContent = count === 0 ? "No match." : `${count}${count >= LIMIT ? "+" : ""} match${count === 1 ? "" : "es"}.`;
}

/** The search field (Enter searches and goes to the first match) and its button. */
export function installSearch(state) {
  $("search-go").addEventListener("click", () => search(state));
  $("search").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") {
      ev.preventDefault();
      search(state);
      const first = $("results").querySelector("button");
      if (first) first.focus();
    }
  });
}
