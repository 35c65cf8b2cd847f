// The tree of the values (an ARIA tree): rendering only what is open, a window of children at
// a time (PAGE more or earlier on request, the page of an index gone to), selection, and its
// keyboard and mouse.

import { $ } from "./dom.js";
import { PAGE, rangeOf, showIndex } from "./document.js";
import { summary, typeName } from "./values.js";

/** The tree anew from the state, the focus kept on the row that had it. */
export function render(state) {
  const tree = $("tree");
  const focusedId = document.activeElement?.closest?.("[role=treeitem]")?.id;
  const items = [];
  const win = state.rootsWindow;
  const n = Math.min(state.roots.length, win.shown);
  if (win.first > 0) items.push(earlierItem(null, win.first, 1));
  for (let i = win.first; i < n; i++) items.push(renderNode(state, state.roots[i]));
  if (state.roots.length > n) items.push(moreItem(null, state.roots.length - n, 1));
  tree.replaceChildren(...items);
  const keep = (focusedId && document.getElementById(focusedId)) || (state.selected && document.getElementById(state.selected.id));
  const first = tree.querySelector("[role=treeitem]");
  for (const li of tree.querySelectorAll("[role=treeitem]")) li.tabIndex = -1;
  const target = keep || first;
  if (target) target.tabIndex = 0;
  if (focusedId && keep) keep.focus();
}

function renderNode(state, node) {
  const li = document.createElement("li");
  li.setAttribute("role", "treeitem");
  li.id = node.id;
  li.node = node;
  li.setAttribute("aria-level", String(node.depth));
  li.setAttribute("aria-selected", String(state.selected === node));
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
  val.textContent = summary(v, state.singleReals);
  const off = document.createElement("span");
  off.className = "off";
  const r = rangeOf(node);
  const rec = state.records[node.rec];
  off.textContent = r ? `@${rec.start + r[0]} (${r[1] - r[0]} B)` : "";
  row.append(twisty, key, type, val, off);
  li.append(row);
  if (rec.marks.has(node.path.slice(1).join("/"))) row.classList.add("edited");
  if (k && k.count > 0 && node.expanded) {
    const ul = document.createElement("ul");
    ul.setAttribute("role", "group");
    // A list made shorter (an undo, a removal) below its page: its last page instead.
    if (node.first >= k.count) showIndex(node, k.count - 1);
    const n = Math.min(k.count, node.shown);
    if (node.first > 0) ul.append(earlierItem(node, node.first, node.depth + 1));
    for (let i = node.first; i < n; i++) ul.append(renderNode(state, node.child(i)));
    if (k.count > n) ul.append(moreItem(node, k.count - n, node.depth + 1));
    li.append(ul);
  }
  return li;
}

/** The row after the children shown: `left` more not shown. */
function moreItem(node, left, depth) {
  return pagingItem(node, "more", depth, `… show ${Math.min(PAGE, left)} more (${left} not shown)`);
}

/** The row before the children shown: the `before` first ones not shown. */
function earlierItem(node, before, depth) {
  return pagingItem(node, "earlier", depth, `… show ${Math.min(PAGE, before)} earlier (${before} not shown)`);
}

function pagingItem(node, way, depth, text) {
  const li = document.createElement("li");
  li.setAttribute("role", "treeitem");
  li.className = "more";
  li.more = node ?? "roots";
  li.way = way;
  li.id = `${node ? node.id : "roots"}-${way}`;
  li.setAttribute("aria-level", String(depth));
  const row = document.createElement("div");
  row.className = "row";
  row.textContent = text;
  li.append(row);
  return li;
}

/** A paging row's page shown beside the rows shown, the focus on its first row next to them. */
function showMore(state, li) {
  const win = li.more === "roots" ? state.rootsWindow : li.more;
  const at = (i) => (li.more === "roots" ? state.roots[i] : li.more.child(i));
  let next;
  if (li.way === "earlier") {
    next = at(win.first - 1);
    win.first = Math.max(0, win.first - PAGE);
  } else {
    next = at(win.shown);
    win.shown += PAGE;
  }
  render(state);
  focusNode(next);
}

export function focusNode(node) {
  const li = node && document.getElementById(node.id);
  if (!li) return;
  for (const other of $("tree").querySelectorAll("[tabindex='0']")) other.tabIndex = -1;
  li.tabIndex = 0;
  li.focus();
  li.scrollIntoView({ block: "nearest" });
}

/** Selects `node` (focused, unless `focus` is false) and shows it beside the tree. */
export function select(state, node, focus = true) {
  state.selected = node;
  for (const li of $("tree").querySelectorAll("[aria-selected=true]")) li.setAttribute("aria-selected", "false");
  if (!node) return;
  const li = document.getElementById(node.id);
  if (li) li.setAttribute("aria-selected", "true");
  if (focus) focusNode(node);
  state.actions.showSelected(state, node);
}

function toggle(state, node, open) {
  const k = node.kids();
  if (!k || k.count === 0) return;
  node.expanded = open ?? !node.expanded;
  render(state);
  focusNode(node);
}

/** Expands the tree down to `path`, pages in its index, and selects it. */
export function reveal(state, path) {
  showIndex(state.rootsWindow, path[0]);
  let node = state.roots[path[0]];
  for (const i of path.slice(1)) {
    node.expanded = true;
    showIndex(node, i);
    node = node.child(i);
  }
  render(state);
  select(state, node);
}

// --- the tree's keyboard and mouse -------------------------------------------------------------

export function installTree(state) {
  $("tree").addEventListener("click", (ev) => {
    const li = ev.target.closest("[role=treeitem]");
    if (!li) return;
    if (li.more) return showMore(state, li);
    if (ev.target.classList.contains("twisty")) toggle(state, li.node);
    select(state, li.node);
  });
  // A row that gets the focus (Tab into the tree, a search result) is the selected one.
  $("tree").addEventListener("focusin", (ev) => {
    const li = ev.target.closest("[role=treeitem]");
    if (!li?.node || state.selected === li.node) return;
    for (const other of $("tree").querySelectorAll("[tabindex='0']")) other.tabIndex = -1;
    li.tabIndex = 0;
    select(state, li.node, false);
  });
  $("tree").addEventListener("dblclick", (ev) => {
    const li = ev.target.closest("[role=treeitem]");
    if (li?.node) toggle(state, li.node);
  });

  $("tree").addEventListener("keydown", (ev) => {
    const li = ev.target.closest("[role=treeitem]");
    if (!li) return;
    const all = [...$("tree").querySelectorAll("[role=treeitem]")];
    const i = all.indexOf(li);
    const go = (el) => {
      if (!el) return;
      if (el.node) select(state, el.node);
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
        if (node.kids()?.count && !node.expanded) toggle(state, node, true);
        else if (node.expanded) go(li.querySelector("[role=treeitem]"));
        break;
      case "ArrowLeft":
        if (node?.expanded) toggle(state, node, false);
        else if (li.parentElement.closest("[role=treeitem]")) go(li.parentElement.closest("[role=treeitem]"));
        break;
      case "Enter":
      case "F2":
        if (li.more) showMore(state, li);
        else state.actions.editFocus();
        break;
      case " ":
        if (li.more) showMore(state, li);
        else if (node) toggle(state, node);
        break;
      case "Delete":
        if (node) state.actions.removeNode(state, node);
        break;
      default:
        return;
    }
    ev.preventDefault();
  });
}
