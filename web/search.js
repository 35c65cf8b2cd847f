// Search: keys and values (text, numbers as shown, the items of every packed array), up to
// LIMIT matches; a match opens the tree down to it. `name[N]` (or `[N]`) goes to item N of the
// lists whose key holds `name` (of every list): the way to an index of a long list.

import { $ } from "./dom.js";
import * as fvc from "fast-var-codec";
import { findNode, pathText } from "./document.js";
import { reveal } from "./tree.js";
import { isDictObject, keyText, kids, leafText, summary } from "./values.js";

const LIMIT = 500; // matches listed at most

// The characters the text of a number may hold (summary: "-12", "0.25", "1e+21", "-0.0", "nan",
// "-inf"), and those of the other leaves but text (a vector's "(1, 2.5, 0)", "RID(5)", "#12",
// "Callable()", "true", "false", "null"): a query with another character matches none of them.
const NUMBER_TEXT = new Set("0123456789.-+eanif");
const OTHER_LEAF_TEXT = new Set([...NUMBER_TEXT, ..."(), #rdclbtusl"]);
const onlyOf = (q, chars) => [...q].every((c) => chars.has(c));

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
  const hits = matches(state, q);
  const count = hits.length;
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

/**
 * The paths (record, then child indices) of the values whose key or text holds `q` (lower case),
 * in the tree's order, at most LIMIT; for `name[N]`, item N of the lists whose key holds `name`.
 */
export function matches(state, q) {
  const index = /^(.*?)\s*\[(\d+)\]$/.exec(q);
  const go = index && { name: index[1], at: Number(index[2]) };
  const hits = [];
  // One path, grown and cut as the walk goes; a hit keeps a copy.
  const path = [];
  const found = () => hits.push([...path]);
  // A leaf's text (leafText) is made only where it may hold the query: most searches are words,
  // which no number's or vector's text holds.
  const numbersMayMatch = onlyOf(q, NUMBER_TEXT);
  const othersMayMatch = onlyOf(q, OTHER_LEAF_TEXT);
  const leafHit = (v) => {
    const text = leafText(v, state.singleReals);
    return text !== null && text.toLowerCase().includes(q);
  };
  const listGoes = (label, count) => go && go.at < count && (label ?? "").toLowerCase().includes(go.name);
  // The children in kids()'s order, each with its label as the tree shows it.
  const children = (entries, keyed) => {
    let i = 0;
    for (const [key, child] of entries) {
      if (hits.length >= LIMIT) break;
      path.push(i++);
      visit(child, keyed ? keyText(key, state.singleReals) : null);
      path.pop();
    }
  };
  const visit = (v, label) => {
    const keyHit = label !== null && label.toLowerCase().includes(q);
    if (typeof v === "string") {
      if (keyHit || v.toLowerCase().includes(q)) found();
      return;
    }
    if (typeof v === "number" || typeof v === "bigint" || v instanceof fvc.Float) {
      if (keyHit || (numbersMayMatch && leafHit(v))) found();
      return;
    }
    if (v instanceof Map || v instanceof fvc.TypedDictionary || isDictObject(v)) {
      if (keyHit) found();
      children(v instanceof Map ? v : v instanceof fvc.TypedDictionary ? v.entries : Object.entries(v), true);
      return;
    }
    if (Array.isArray(v) || v instanceof fvc.TypedArray) {
      const items = Array.isArray(v) ? v : v.items;
      if (keyHit) found();
      if (listGoes(label, items.length)) hits.push([...path, go.at]);
      children(items.entries(), false);
      return;
    }
    if (ArrayBuffer.isView(v) && !numbersMayMatch) {
      // A packed array of numbers: no item's text holds the query; only its index may be gone to.
      if (keyHit) found();
      if (listGoes(label, v.length)) hits.push([...path, go.at]);
      return;
    }
    const k = kids(v);
    if (!k) {
      const named = v instanceof fvc.StringName || v instanceof fvc.NodePath || v instanceof fvc.Signal;
      if (keyHit || ((named || othersMayMatch || v === null || typeof v === "boolean") && leafHit(v))) found();
      return;
    }
    if (keyHit) found();
    if (!k.keys && listGoes(label, k.count)) hits.push([...path, go.at]);
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
  return hits;
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
