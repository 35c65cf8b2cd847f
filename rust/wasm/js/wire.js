// Godot's binary format read in JavaScript, without the WebAssembly, for the values it reads
// exactly as the core does: nil, bools, ints, floats, Strings, Vector2(i), Vector3(i), Colors,
// untyped Arrays, Dictionaries keyed by distinct Strings, and packed arrays of bytes, numbers
// and Strings. What a header stands for and how far the limits reach are the core's
// (Settings.wire_table); anything else (another type, a typed container, a NaN, a String with a
// NUL or a byte order mark, a repeated key, a key an object would not keep, an input the limits
// could refuse) and every error is left to the core, which then decodes the input from its start.
// A message or a batch of records read here costs neither the copy of the input into the
// WebAssembly nor the tape it writes and JavaScript reads back (docs/performance.md).

import { Float, Vector2, Vector2i, Vector3, Vector3i, Color, PackedStringArray } from "./types.js";
import { ascii, cachedKey, int64At, plainKey } from "./tape.js";

/** What a read returns where the core must decode the input instead (never a value). */
export const MISS = Symbol("fast-var-codec: left to the core");

/** In the table: the header's numbers are 64-bit; no type the reader reads here. */
const WIDE = 0x80;
const HEADERS = 512;

// Godot 4's Variant.Type ids, by which the table names a header's type.
const NIL = 0;
const BOOL = 1;
const INT = 2;
const FLOAT = 3;
const STRING = 4;
const VECTOR2 = 5;
const VECTOR2I = 6;
const VECTOR3 = 9;
const VECTOR3I = 10;
const COLOR = 20;
const DICTIONARY = 27;
const ARRAY = 28;
const PACKED_BYTE = 29;
const PACKED_INT32 = 30;
const PACKED_INT64 = 31;
const PACKED_FLOAT32 = 32;
const PACKED_FLOAT64 = 33;
const PACKED_STRING = 34;

/** Bits of a header beyond its type id and the 64-bit flag: the core reads such a header. */
const OTHER_HEADER_BITS = 0xfffeff00;

const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Zero bytes after `n` to reach a multiple of 4. */
function pad(n) {
  return (4 - (n & 3)) & 3;
}

export class WireReader {
  /**
   * A reader of the headers `table` describes (Settings.wire_table's bytes) making values as
   * `options` (valueOptions') ask, as TapeReader makes them.
   */
  constructor(table, options) {
    this.table = table;
    this.types = table.subarray(0, HEADERS);
    const limits = new DataView(table.buffer, table.byteOffset + HEADERS, 8);
    this.maxDepth = limits.getUint32(0, true);
    this.largestInput = limits.getUint32(4, true);
    this.stringHeader = this.types.indexOf(STRING);
    this.keepFloats = options.keepFloats;
    this.useBigInt64 = options.useBigInt64;
    this.asObjects = options.dictionaryAs === "object";
    this.b = null;
    this.view = null;
    this.pos = 0;
    this.end = 0;
  }

  /**
   * The value at `offset` of `bytes`, read no further than `end` (its end at `pos` after), or
   * MISS; `view`, a DataView of the same memory where the caller has one.
   */
  read(bytes, offset, end = bytes.length, view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)) {
    if (end - offset > this.largestInput) return MISS;
    this.b = bytes;
    this.view = view;
    this.pos = offset;
    this.end = end;
    const v = this.value(0);
    // The input is the caller's: not held after the call.
    this.b = null;
    this.view = null;
    return v;
  }

  /**
   * read's value where it takes the bytes up to `end` whole, else MISS: bytes left after a value
   * are the core's to refuse (decode) or to read on (decodeWithSize).
   */
  readWhole(bytes, offset, end = bytes.length, view = undefined) {
    const v = this.read(bytes, offset, end, view);
    return this.pos === end ? v : MISS;
  }

  /** Moves past `n` bytes and returns where they start, or -1 where the input ends first. */
  take(n) {
    const at = this.pos;
    if (n > this.end - at) return -1;
    this.pos = at + n;
    return at;
  }

  /** The binary32 at `at`. */
  f32(at) {
    return this.view.getFloat32(at, true);
  }

  /** Where `n` binary32 components start, moved past, or -1: the input ends, or one is a NaN. */
  reals(n) {
    const at = this.take(4 * n);
    if (at < 0) return -1;
    for (let i = at; i < at + 4 * n; i += 4) {
      const x = this.f32(i);
      if (x !== x) return -1;
    }
    return at;
  }

  /** Where `n` int32 components start, moved past, or -1. */
  ints(n) {
    return this.take(4 * n);
  }

  i32(at) {
    return this.view.getInt32(at, true);
  }

  /** A float as TapeReader makes it; MISS for a NaN, whose bits the core keeps as the engine does. */
  float(f) {
    if (f !== f) return MISS;
    return this.keepFloats && Number.isInteger(f) ? new Float(f) : f;
  }

  value(depth) {
    if (depth > this.maxDepth) return MISS;
    const at = this.take(4);
    if (at < 0) return MISS;
    const h = this.view.getUint32(at, true);
    if ((h & OTHER_HEADER_BITS) !== 0) return MISS;
    const v = this.view;
    let p;
    switch (this.types[(h & 0xff) | ((h >>> 8) & 0x100)]) {
      case NIL:
        return null;
      case BOOL:
        p = this.take(4);
        return p < 0 ? MISS : v.getUint32(p, true) !== 0;
      case INT:
        p = this.take(4);
        if (p < 0) return MISS;
        return this.useBigInt64 ? BigInt(this.i32(p)) : this.i32(p);
      case INT | WIDE:
        p = this.take(8);
        if (p < 0) return MISS;
        return this.useBigInt64 ? v.getBigInt64(p, true) : int64At(v, p);
      case FLOAT:
        p = this.take(4);
        return p < 0 ? MISS : this.float(this.f32(p));
      case FLOAT | WIDE:
        p = this.take(8);
        return p < 0 ? MISS : this.float(v.getFloat64(p, true));
      case STRING:
        return this.str();
      case VECTOR2:
        p = this.reals(2);
        return p < 0 ? MISS : new Vector2(this.f32(p), this.f32(p + 4));
      case VECTOR3:
        p = this.reals(3);
        return p < 0 ? MISS : new Vector3(this.f32(p), this.f32(p + 4), this.f32(p + 8));
      case COLOR:
        p = this.reals(4);
        return p < 0 ? MISS : new Color(this.f32(p), this.f32(p + 4), this.f32(p + 8), this.f32(p + 12));
      case VECTOR2I:
        p = this.ints(2);
        return p < 0 ? MISS : new Vector2i(this.i32(p), this.i32(p + 4));
      case VECTOR3I:
        p = this.ints(3);
        return p < 0 ? MISS : new Vector3i(this.i32(p), this.i32(p + 4), this.i32(p + 8));
      case DICTIONARY:
        return this.dictionary(depth);
      case ARRAY:
        return this.array(depth);
      case PACKED_BYTE:
        return this.packed(Uint8Array);
      case PACKED_INT32:
        return this.packed(Int32Array);
      case PACKED_INT64:
        return this.packed(BigInt64Array);
      case PACKED_FLOAT32:
        return this.packed(Float32Array);
      case PACKED_FLOAT64:
        return this.packed(Float64Array);
      case PACKED_STRING:
        return this.strings();
      default:
        return MISS;
    }
  }

  /** A count that the bytes left could hold, `size` bytes or more per item; -1 otherwise. */
  count(size) {
    const at = this.take(4);
    if (at < 0) return -1;
    const n = this.view.getUint32(at, true);
    return n * size <= this.end - this.pos ? n : -1;
  }

  /** A String's payload (length, bytes, padding). */
  str() {
    const at = this.take(4);
    if (at < 0) return MISS;
    const n = this.view.getUint32(at, true);
    const start = this.take(n + pad(n));
    if (start < 0) return MISS;
    const b = this.b;
    if (n <= 32) {
      let bits = 0;
      for (let i = start; i < start + n; i++) {
        const c = b[i];
        if (c === 0) return MISS;
        bits |= c;
      }
      if (bits < 0x80) return ascii(b, start, n);
    }
    const raw = b.subarray(start, start + n);
    // A NUL ends the text and a leading byte order mark is dropped: the core's to do.
    if (raw.includes(0) || (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf)) return MISS;
    try {
      return text.decode(raw);
    } catch {
      return MISS;
    }
  }

  /** A Dictionary's key, a String at `depth`. */
  key(depth) {
    const at = this.pos;
    if (depth > this.maxDepth || this.end - at < 8 || this.view.getUint32(at, true) !== this.stringHeader) {
      return MISS;
    }
    const n = this.view.getUint32(at + 4, true);
    const next = at + 8 + n + pad(n);
    if (next <= this.end) {
      const k = cachedKey(this.b, at + 8, n);
      if (k !== undefined) {
        this.pos = next;
        return k;
      }
    }
    this.pos = at + 4;
    return this.str();
  }

  array(depth) {
    const n = this.count(4);
    if (n < 0) return MISS;
    const items = new Array(n);
    for (let i = 0; i < n; i++) {
      const x = this.value(depth + 1);
      if (x === MISS) return MISS;
      items[i] = x;
    }
    return items;
  }

  /** As TapeReader.dictionary makes it, where every key is a String, each once. */
  dictionary(depth) {
    const n = this.count(8);
    if (n < 0) return MISS;
    if (this.asObjects) {
      const obj = {};
      for (let i = 0; i < n; i++) {
        const k = this.key(depth + 1);
        if (k === MISS || !plainKey(k) || obj[k] !== undefined) return MISS;
        const x = this.value(depth + 1);
        if (x === MISS) return MISS;
        obj[k] = x;
      }
      return obj;
    }
    const map = new Map();
    for (let i = 0; i < n; i++) {
      const k = this.key(depth + 1);
      if (k === MISS) return MISS;
      const x = this.value(depth + 1);
      if (x === MISS) return MISS;
      map.set(k, x);
      if (map.size !== i + 1) return MISS;
    }
    return map;
  }

  /** A packed array of numbers, copied out of the input. */
  packed(Data) {
    const n = this.count(Data.BYTES_PER_ELEMENT);
    if (n < 0) return MISS;
    const len = n * Data.BYTES_PER_ELEMENT;
    const at = this.take(len + pad(len));
    if (at < 0 || len > 0x7fffffff) return MISS;
    const out = new Data(n);
    new Uint8Array(out.buffer).set(this.b.subarray(at, at + len));
    return out;
  }

  strings() {
    const n = this.count(4);
    if (n < 0) return MISS;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const s = this.str();
      if (s === MISS) return MISS;
      out[i] = s;
    }
    return new PackedStringArray(out);
  }
}
