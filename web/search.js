// Search: keys and values (text, numbers as shown, the items of every packed array), up to
// LIMIT matches; a match opens the tree down to it. `name[N]` (or `[N]`) goes to item N of the
// lists whose key holds `name` (of every list): the way to an index of a long list.

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
  const index = /^(.*?)\s*\[(\d+)\]$/.exec(q);
  const go = index && { name: index[1], at: Number(index[2]) };
  let count = 0;
  const hits = [];
  // One path, grown and cut as the walk goes; a hit keeps a copy.
  const path = [];
  const visit = (v, label) => {
    const keyHit = label !== null && label.toLowerCase().includes(q);
    const k = kids(v);
    if (!k) {
      const text = leafText(v, state.singleReals);
      if (keyHit || (text !== null && text.toLowerCase().includes(q))) hits.push([...path]);
      return;
    }
    if (keyHit) hits.push([...path]);
    if (go && !k.keys && go.at < k.count && (label ?? "").toLowerCase().includes(go.name)) hits.push([...path, go.at]);
    for (let i = 0; i < k.count && hits.length < LIMIT; i++) {
      path.push(i);
      visit(k.get(i), k.keys ? keyText(k.keys[i], state.singleReals) : null);
      path.pop();
    }
  };
  for (let r = 0; r < state.records.length && hits.length < LIMIT; r++) {
    path.push(r);
    visit(state.records[r].value, null);
    path.pop();
  }
  hits.length = Math.min(hits.length, LIMIT);
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
