// Small helpers of the page's DOM, shared by the other modules: no state of the page here.

export const $ = (id) => document.getElementById(id);

/** The page's status line (announced: role=status). */
export function status(text) {
  $("status").textContent = text;
}

/** The editor's error line (announced: role=alert). */
export function editError(message) {
  const el = $("edit-error");
  el.textContent = message;
  el.hidden = false;
}

/** A labelled input: the label's text, then the input. */
export function field(labelText, input) {
  const label = document.createElement("label");
  label.append(labelText + " ", input);
  return label;
}

/** A text input (or another type, by `attrs`) holding `value`. */
export function input(value, attrs = {}) {
  const el = document.createElement("input");
  el.type = "text";
  el.value = value;
  el.spellcheck = false;
  el.autocomplete = "off";
  Object.assign(el, attrs);
  return el;
}

/** Bytes as a hex dump into `pre`, addressed from `base`; the byte at address `mark` marked. */
export function hexInto(pre, bytes, base, mark) {
  pre.replaceChildren();
  if (!bytes.length) {
    pre.textContent = "(no bytes)";
    return;
  }
  const lines = [];
  for (let o = 0; o < bytes.length; o += 16) {
    const addr = (base + o).toString(16).padStart(8, "0");
    const row = bytes.subarray(o, o + 16);
    const cells = Array.from(row, (b, j) => ({ text: b.toString(16).padStart(2, "0"), at: base + o + j }));
    const ascii = Array.from(row, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
    lines.push({ addr, cells, ascii });
  }
  for (const [n, line] of lines.entries()) {
    pre.append(line.addr + "  ");
    for (const c of line.cells) {
      if (c.at === mark) {
        const m = document.createElement("mark");
        m.textContent = c.text;
        pre.append(m, " ");
      } else pre.append(c.text + " ");
    }
    pre.append("   ".repeat(16 - line.cells.length) + " " + line.ascii + (n < lines.length - 1 ? "\n" : ""));
  }
}

/** Starts a download of `bytes` under `name`. */
export function download(bytes, name, type = "application/octet-stream") {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Bytes from hex digits (a key of open_encrypted), two per byte; spaces and colons ignored. */
export function hexBytes(text) {
  const t = text.replace(/[\s:]/g, "");
  if (!/^[0-9a-fA-F]*$/.test(t) || t.length % 2) throw new TypeError("a key is hex digits, two per byte");
  const out = new Uint8Array(t.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.slice(2 * i, 2 * i + 2), 16);
  return out;
}
