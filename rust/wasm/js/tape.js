// JavaScript values to the tape and back (the layout: src/tape.rs). One tape crosses into or out
// of the WebAssembly per call, never one call per value.

import * as T from "./tags.js";
import { EncodeError } from "./errors.js";
import {
  KIND,
  PACKED,
  Float,
  Vector2,
  Vector2i,
  Vector3,
  Vector3i,
  Vector4,
  Vector4i,
  Quaternion,
  Color,
  Rect2,
  Rect2i,
  AABB,
  Plane,
  Transform2D,
  Basis,
  Transform3D,
  Projection,
  StringName,
  NodePath,
  RID,
  EncodedObjectAsID,
  GodotObject,
  Callable,
  Signal,
  PackedStringArray,
  PackedVector2Array,
  PackedVector3Array,
  PackedVector4Array,
  PackedColorArray,
  decodedTypedArray,
  decodedTypedDictionary,
} from "./types.js";

/** Deeper values are refused in JavaScript (a value that holds itself ends here too); the core
 * refuses what is deeper than its own limit. */
const MAX_DEPTH = 1025;
const TWO_63 = 2 ** 63;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Why a JavaScript value has no Godot value, with its path (innermost step first). */
class Bad extends Error {
  constructor(message) {
    super(message);
    this.rev = [];
  }
}

function keyLabel(k) {
  if (typeof k === "string") return JSON.stringify(k);
  if (typeof k === "number" || typeof k === "bigint" || typeof k === "boolean") return String(k);
  if (k === null || k === undefined) return "null";
  return k.constructor?.name ?? "key";
}

/** From this many bytes on, a typed array is a hole (PACKED_HOLE) where `holes` admits them. */
const HOLE_MIN = 4096;

export class TapeWriter {
  constructor() {
    /** The typed arrays left out (PACKED_HOLE), or null. */
    this.holes = null;
    this.buf = new Uint8Array(256);
    /** `buf.length`, kept as a number: read at every write. */
    this.cap = 256;
    this.view = new DataView(this.buf.buffer);
    this.pos = 0;
  }

  reset() {
    this.pos = 0;
    this.holes = null;
  }

  /** The tape written so far (a view: copied by the WebAssembly call that takes it). */
  bytes() {
    return this.buf.subarray(0, this.pos);
  }

  ensure(n) {
    if (this.pos + n <= this.cap) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
    this.cap = size;
    this.view = new DataView(grown.buffer);
  }

  u8(v) {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u32(v) {
    this.ensure(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  i32(v) {
    this.ensure(4);
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }

  f64(v) {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  f32(v) {
    this.ensure(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  u64(v) {
    this.ensure(8);
    this.view.setBigUint64(this.pos, v, true);
    this.pos += 8;
  }

  str(s) {
    const n = s.length;
    this.ensure(4 + n * 3);
    const at = this.pos + 4;
    let ascii = n <= 64;
    if (ascii) {
      const buf = this.buf;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          ascii = false;
          break;
        }
        buf[at + i] = c;
      }
    }
    const written = ascii ? n : encoder.encodeInto(s, this.buf.subarray(at)).written;
    this.view.setUint32(this.pos, written, true);
    this.pos = at + written;
  }

  raw(view) {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  reals(tag, ...c) {
    this.ensure(1 + 8 * c.length);
    this.buf[this.pos++] = tag;
    for (const x of c) {
      this.view.setFloat64(this.pos, Number(x), true);
      this.pos += 8;
    }
  }

  ints(tag, ...c) {
    this.ensure(1 + 4 * c.length);
    this.buf[this.pos++] = tag;
    for (const x of c) {
      this.view.setInt32(this.pos, int32(x), true);
      this.pos += 4;
    }
  }

  elementType(t) {
    if (t === null || t === undefined) {
      this.u8(0);
    } else {
      this.u8(1);
      this.str(t);
    }
  }

  /** Appends `v`. Throws an EncodeError for a value with no Godot type. */
  value(v) {
    try {
      this.write(v, 0);
    } catch (e) {
      if (e instanceof Bad) {
        throw new EncodeError(e.rev.reverse().join(""), "ERR_INVALID_PARAMETER", e.message);
      }
      throw e;
    }
  }

  write(v, depth) {
    if (depth > MAX_DEPTH) {
      throw new Bad(`nested deeper than ${MAX_DEPTH - 1} levels (or holds itself)`);
    }
    switch (typeof v) {
      case "number":
        return this.number(v);
      case "string":
        this.u8(T.STRING);
        return this.str(v);
      case "boolean":
        return this.u8(v ? T.TRUE : T.FALSE);
      case "bigint":
        if (v < I64_MIN || v > I64_MAX) {
          throw new Bad(`the int ${v} is outside Godot's 64-bit range`);
        }
        this.u8(T.INT64);
        this.ensure(8);
        this.view.setBigInt64(this.pos, v, true);
        this.pos += 8;
        return;
      case "undefined":
        return this.u8(T.NIL);
      case "object":
        if (v === null) return this.u8(T.NIL);
        return this.object(v, depth);
      default:
        throw new Bad(`a ${typeof v} has no Godot type`);
    }
  }

  number(v) {
    if (Number.isInteger(v) && !Object.is(v, -0) && v >= -TWO_63 && v < TWO_63) {
      if (v >= -0x80000000 && v <= 0x7fffffff) {
        this.u8(T.INT32);
        return this.i32(v);
      }
      this.u8(T.INT64);
      this.ensure(8);
      this.view.setBigInt64(this.pos, BigInt(v), true);
      this.pos += 8;
      return;
    }
    this.u8(T.FLOAT);
    this.f64(v);
  }

  items(items, depth) {
    const n = items.length;
    this.u32(n);
    for (let i = 0; i < n; i++) {
      try {
        this.write(items[i], depth + 1);
      } catch (e) {
        if (e instanceof Bad) e.rev.push(`[${i}]`);
        throw e;
      }
    }
  }

  entries(map, depth) {
    this.u32(map.size);
    for (const [k, x] of map) {
      try {
        this.write(k, depth + 1);
        this.write(x, depth + 1);
      } catch (e) {
        if (e instanceof Bad) e.rev.push(`[${keyLabel(k)}]`);
        throw e;
      }
    }
  }

  object(v, depth) {
    // A plain object first (the most common container; it cannot carry KIND, whose symbol is
    // the package's own).
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) return this.plain(v, depth);
    // An Array before the package's classes (none of which is one): a lookup of KIND fewer.
    if (Array.isArray(v)) {
      this.u8(T.ARRAY);
      this.u8(0);
      return this.items(v, depth);
    }
    const kind = v[KIND];
    if (kind !== undefined) return this.godot(v, kind, depth);
    if (ArrayBuffer.isView(v)) return this.packed(v);
    if (v instanceof Map) {
      this.u8(T.DICTIONARY);
      this.u8(0);
      this.u8(0);
      return this.entries(v, depth);
    }
    throw new Bad(`a value of class ${v.constructor?.name ?? "?"} has no Godot type`);
  }

  /** A plain object: an untyped Dictionary of its own enumerable String keys. */
  plain(v, depth) {
    const keys = Object.keys(v);
    this.ensure(7);
    this.buf[this.pos] = T.DICTIONARY;
    this.buf[this.pos + 1] = 0;
    this.buf[this.pos + 2] = 0;
    this.view.setUint32(this.pos + 3, keys.length, true);
    this.pos += 7;
    for (const k of keys) {
      this.u8(T.STRING);
      this.str(k);
      try {
        this.write(v[k], depth + 1);
      } catch (e) {
        if (e instanceof Bad) e.rev.push(`[${JSON.stringify(k)}]`);
        throw e;
      }
    }
  }

  packed(v) {
    let tag;
    if (v instanceof Uint8Array) tag = T.PACKED_BYTE;
    else if (v instanceof Int32Array) tag = T.PACKED_INT32;
    else if (v instanceof BigInt64Array) tag = T.PACKED_INT64;
    else if (v instanceof Float32Array) tag = T.PACKED_FLOAT32;
    else if (v instanceof Float64Array) tag = T.PACKED_FLOAT64;
    else {
      throw new Bad(
        `a ${v.constructor?.name ?? "view"} has no packed type (Uint8Array, Int32Array, BigInt64Array, Float32Array, Float64Array)`,
      );
    }
    if (this.holes !== null && v.byteLength >= HOLE_MIN) {
      this.u8(T.PACKED_HOLE);
      this.u8(tag);
      this.u32(v.length);
      this.holes.push(v);
      return;
    }
    this.u8(tag);
    this.u32(v.length);
    this.raw(v);
  }

  godot(v, kind, depth) {
    switch (kind) {
      case T.FLOAT:
        this.u8(T.FLOAT);
        return this.f64(v.value);
      case T.VECTOR2:
        return this.reals(kind, v.x, v.y);
      case T.VECTOR2I:
        return this.ints(kind, v.x, v.y);
      case T.VECTOR3:
        return this.reals(kind, v.x, v.y, v.z);
      case T.VECTOR3I:
        return this.ints(kind, v.x, v.y, v.z);
      case T.VECTOR4:
      case T.QUATERNION:
        return this.reals(kind, v.x, v.y, v.z, v.w);
      case T.VECTOR4I:
        return this.ints(kind, v.x, v.y, v.z, v.w);
      case T.COLOR:
        this.u8(kind);
        this.f32(v.r);
        this.f32(v.g);
        this.f32(v.b);
        return this.f32(v.a);
      case T.RECT2:
        return this.reals(kind, v.position.x, v.position.y, v.size.x, v.size.y);
      case T.RECT2I:
        return this.ints(kind, v.position.x, v.position.y, v.size.x, v.size.y);
      case T.AABB: {
        const p = v.position;
        const s = v.size;
        return this.reals(kind, p.x, p.y, p.z, s.x, s.y, s.z);
      }
      case T.PLANE:
        return this.reals(kind, v.normal.x, v.normal.y, v.normal.z, v.d);
      case T.TRANSFORM2D:
        return this.reals(kind, v.x.x, v.x.y, v.y.x, v.y.y, v.origin.x, v.origin.y);
      case T.BASIS:
        return this.reals(kind, ...basisRows(v));
      case T.TRANSFORM3D: {
        const o = v.origin;
        return this.reals(kind, ...basisRows(v.basis), o.x, o.y, o.z);
      }
      case T.PROJECTION: {
        const c = [];
        for (const col of [v.x, v.y, v.z, v.w]) c.push(col.x, col.y, col.z, col.w);
        return this.reals(kind, ...c);
      }
      case T.STRING_NAME:
        this.u8(kind);
        return this.str(v.name);
      case T.NODE_PATH:
        this.u8(kind);
        this.u8(v.absolute ? 1 : 0);
        this.u32(v.names.length);
        for (const s of v.names) this.str(s);
        this.u32(v.subnames.length);
        for (const s of v.subnames) this.str(s);
        return;
      case T.RID:
        this.u8(kind);
        return this.u64(v.id);
      case T.OBJECT_ID:
        this.u8(kind);
        return this.u64(v.objectId);
      case T.OBJECT: {
        this.u8(kind);
        this.str(v.className);
        const props = v.properties instanceof Map ? v.properties : new Map(Object.entries(v.properties));
        this.u32(props.size);
        for (const [name, x] of props) {
          this.str(String(name));
          try {
            this.write(x, depth + 1);
          } catch (e) {
            if (e instanceof Bad) e.rev.push(`.${name}`);
            throw e;
          }
        }
        return;
      }
      case T.CALLABLE:
        return this.u8(kind);
      case T.SIGNAL:
        this.u8(kind);
        this.str(v.name);
        return this.u64(v.objectId);
      case T.ARRAY:
        this.u8(kind);
        this.elementType(v.elementType);
        return this.items(v.items, depth);
      case T.DICTIONARY: {
        this.u8(kind);
        this.elementType(v.keyType);
        this.elementType(v.valueType);
        const entries = v.entries instanceof Map ? v.entries : new Map(Object.entries(v.entries));
        return this.entries(entries, depth);
      }
      case T.PACKED_STRING:
        this.u8(kind);
        this.u32(v.strings.length);
        for (const s of v.strings) this.str(s);
        return;
      case T.PACKED_VECTOR2:
      case T.PACKED_VECTOR3:
      case T.PACKED_VECTOR4:
      case T.PACKED_COLOR: {
        const { components: n, Data } = v[PACKED];
        const data = v.data instanceof Data ? v.data : Data.from(v.data);
        if (data.length % n !== 0) {
          throw new Bad(`a ${v.constructor.name}'s data holds ${data.length} components, not a multiple of ${n}`);
        }
        this.u8(kind);
        this.u32(data.length / n);
        return this.raw(data);
      }
      default:
        throw new Bad("unknown kind");
    }
  }
}

/** Above this (16 MiB, the WebAssembly's `KEEP`), `begin` lets the input buffer shrink back. */
const KEEP = 16 << 20;

/**
 * A TapeWriter whose buffer is the WebAssembly's input buffer (`input_buffer`): the tape is
 * written where the WebAssembly reads it, with no copy into it. It is the one user of
 * `input_buffer`, so it knows where the buffer is; a grown memory (which detaches every view of
 * it, their length then 0) is seen at `begin()` and `reserve()`.
 */
export class WasmTapeWriter extends TapeWriter {
  constructor(exports) {
    super();
    this.exports = exports;
    this.attach(exports.input_buffer(0) >>> 0);
  }

  /** Before each value; with `holes`, large typed arrays are left out (`this.holes`). */
  begin(holes = false) {
    this.pos = 0;
    this.holes = holes ? [] : null;
    if (this.buf.length === 0 || this.buf.length > KEEP) this.attach(this.exports.input_buffer(0) >>> 0);
  }

  /** The input buffer's address, with room for `n` bytes (a decode's input). */
  reserve(n) {
    if (this.buf.length === 0 || this.buf.length < n || this.buf.length > KEEP) {
      this.attach(this.exports.input_buffer(n) >>> 0);
    }
    return this.ptr;
  }

  attach(ptr) {
    const memory = this.exports.memory.buffer;
    const size = this.exports.input_size() >>> 0;
    this.buf = new Uint8Array(memory, ptr, size);
    this.cap = size;
    this.view = new DataView(memory, ptr, size);
    this.ptr = ptr;
  }

  ensure(n) {
    if (this.pos + n <= this.cap) return;
    // Doubling, or at once what is asked and an eighth more (one large packed array).
    const need = this.pos + n;
    const size = Math.max(this.buf.length * 2, 256, need + Math.floor(need / 8));
    this.attach(this.exports.input_buffer(size) >>> 0);
  }
}

function int32(x) {
  if (!Number.isInteger(x) || x < -0x80000000 || x > 0x7fffffff) {
    throw new Bad(`component ${x} is not an int32`);
  }
  return x;
}

/** The wire's rows of a Basis given by its axes (columns). */
function basisRows(b) {
  const { x, y, z } = b;
  return [x.x, y.x, z.x, x.y, y.y, z.y, x.z, y.z, z.z];
}

// ---------------------------------------------------------------------------------------------

/** The cache of short ASCII Dictionary keys (cachedKey): its size, a power of two. */
const KEYS = 512;
const keyCache = new Array(KEYS).fill(undefined);

/** The longest key cachedKey makes. */
const LONGEST_CACHED_KEY = 24;

/**
 * A Dictionary's String key of the `n` bytes of `b` from `at`, when they are at most 24 ASCII
 * bytes without a NUL (undefined otherwise): from a small cache of the keys made before
 * (records repeat theirs), so that the same string, already hashed by the engine, is set again
 * instead of a new one being built and hashed.
 */
export function cachedKey(b, at, n) {
  if (n > LONGEST_CACHED_KEY) return undefined;
  let h = n;
  for (let i = at; i < at + n; i++) {
    const c = b[i];
    if (c === 0 || c >= 0x80) return undefined;
    h = (Math.imul(h, 31) + c) | 0;
  }
  const slot = h & (KEYS - 1);
  const cached = keyCache[slot];
  if (cached !== undefined && cached.length === n) {
    let i = 0;
    while (i < n && cached.charCodeAt(i) === b[at + i]) i++;
    if (i === n) return cached;
  }
  const s = ascii(b, at, n);
  keyCache[slot] = s;
  return s;
}

/** The little-endian int64 at `at` of `view`: a number where it is a safe integer, else a BigInt. */
export function int64At(view, at) {
  const lo = view.getUint32(at, true);
  const hi = view.getInt32(at + 4, true);
  if (hi >= -0x200000 && hi < 0x200000) return hi * 4294967296 + lo;
  return view.getBigInt64(at, true);
}

/**
 * Reads values from a tape the WebAssembly wrote: the whole of `bytes`, or from `pos` to `end`
 * with `view` a DataView of the same memory (a decode's tape read where it lies, with views of
 * the WebAssembly's memory made once rather than per call).
 */
export class TapeReader {
  constructor(bytes, options, view, pos = 0, end = bytes.length) {
    this.bytes = bytes;
    this.view = view ?? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = pos;
    this.end = end;
    this.keepFloats = Boolean(options.keepFloats);
    this.useBigInt64 = Boolean(options.useBigInt64);
    this.asObjects = options.dictionaryAs === "object";
  }

  atEnd() {
    return this.pos >= this.end;
  }

  u8() {
    return this.bytes[this.pos++];
  }

  u32() {
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  i32() {
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64() {
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  f32() {
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64() {
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** A u64 that fits a safe integer (a size). */
  size() {
    const lo = this.view.getUint32(this.pos, true);
    const hi = this.view.getUint32(this.pos + 4, true);
    this.pos += 8;
    return hi * 4294967296 + lo;
  }

  int64() {
    const v = int64At(this.view, this.pos);
    this.pos += 8;
    return v;
  }

  str() {
    const n = this.u32();
    const at = this.pos;
    this.pos += n;
    if (n <= 32) {
      const b = this.bytes;
      let bits = 0;
      for (let i = at; i < at + n; i++) bits |= b[i];
      if (bits < 0x80) return ascii(b, at, n);
    }
    return decoder.decode(this.bytes.subarray(at, at + n));
  }

  /** A Dictionary's String key (short ASCII ones from cachedKey's cache). */
  key() {
    const n = this.u32();
    const k = cachedKey(this.bytes, this.pos, n);
    if (k !== undefined) {
      this.pos += n;
      return k;
    }
    this.pos -= 4;
    return this.str();
  }

  strings() {
    const n = this.u32();
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.str();
    return out;
  }

  elementType() {
    return this.u8() === 0 ? null : this.str();
  }

  /** `n` elements of `Data` (a typed array), copied out of the tape in one slice. */
  slice(Data, n) {
    const len = n * Data.BYTES_PER_ELEMENT;
    const start = this.bytes.byteOffset + this.pos;
    this.pos += len;
    return new Data(this.bytes.buffer.slice(start, start + len));
  }

  v2() {
    return new Vector2(this.f64(), this.f64());
  }

  v2i() {
    return new Vector2i(this.i32(), this.i32());
  }

  v3() {
    return new Vector3(this.f64(), this.f64(), this.f64());
  }

  v4() {
    return new Vector4(this.f64(), this.f64(), this.f64(), this.f64());
  }

  basis() {
    const r = [];
    for (let i = 0; i < 9; i++) r.push(this.f64());
    return new Basis(
      new Vector3(r[0], r[3], r[6]),
      new Vector3(r[1], r[4], r[7]),
      new Vector3(r[2], r[5], r[8]),
    );
  }

  value() {
    const tag = this.bytes[this.pos++];
    switch (tag) {
      case T.NIL:
        return null;
      case T.FALSE:
        return false;
      case T.TRUE:
        return true;
      case T.INT32:
        return this.useBigInt64 ? BigInt(this.i32()) : this.i32();
      case T.INT64:
        if (this.useBigInt64) {
          this.pos += 8;
          return this.view.getBigInt64(this.pos - 8, true);
        }
        return this.int64();
      case T.FLOAT: {
        const f = this.f64();
        return this.keepFloats && Number.isInteger(f) ? new Float(f) : f;
      }
      case T.STRING:
        return this.str();
      case T.VECTOR2:
        return this.v2();
      case T.VECTOR2I:
        return this.v2i();
      case T.RECT2:
        return new Rect2(this.v2(), this.v2());
      case T.RECT2I:
        return new Rect2i(this.v2i(), this.v2i());
      case T.VECTOR3:
        return this.v3();
      case T.VECTOR3I:
        return new Vector3i(this.i32(), this.i32(), this.i32());
      case T.TRANSFORM2D:
        return new Transform2D(this.v2(), this.v2(), this.v2());
      case T.VECTOR4:
        return this.v4();
      case T.VECTOR4I:
        return new Vector4i(this.i32(), this.i32(), this.i32(), this.i32());
      case T.PLANE:
        return new Plane(this.v3(), this.f64());
      case T.QUATERNION:
        return new Quaternion(this.f64(), this.f64(), this.f64(), this.f64());
      case T.AABB:
        return new AABB(this.v3(), this.v3());
      case T.BASIS:
        return this.basis();
      case T.TRANSFORM3D:
        return new Transform3D(this.basis(), this.v3());
      case T.PROJECTION:
        return new Projection(this.v4(), this.v4(), this.v4(), this.v4());
      case T.COLOR:
        return new Color(this.f32(), this.f32(), this.f32(), this.f32());
      case T.STRING_NAME:
        return new StringName(this.str());
      case T.NODE_PATH: {
        const absolute = this.u8() === 1;
        const names = this.strings();
        const subnames = this.strings();
        return new NodePath({ names, subnames, absolute });
      }
      case T.RID:
        return new RID(this.u64());
      case T.OBJECT_ID:
        return new EncodedObjectAsID(this.u64());
      case T.OBJECT: {
        const className = this.str();
        const n = this.u32();
        const props = new Map();
        for (let i = 0; i < n; i++) {
          const name = this.str();
          props.set(name, this.value());
        }
        return new GodotObject(className, props);
      }
      case T.CALLABLE:
        return new Callable();
      case T.SIGNAL: {
        const name = this.str();
        return new Signal(name, this.u64());
      }
      case T.DICTIONARY:
        return this.dictionary();
      case T.ARRAY: {
        const element = this.elementType();
        const n = this.u32();
        const items = new Array(n);
        for (let i = 0; i < n; i++) items[i] = this.value();
        return element === null ? items : decodedTypedArray(element, items);
      }
      case T.PACKED_BYTE: {
        const n = this.u32();
        const at = this.pos;
        this.pos += n;
        return this.bytes.slice(at, at + n);
      }
      case T.PACKED_INT32:
        return this.slice(Int32Array, this.u32());
      case T.PACKED_INT64:
        return this.slice(BigInt64Array, this.u32());
      case T.PACKED_FLOAT32:
        return this.slice(Float32Array, this.u32());
      case T.PACKED_FLOAT64:
        return this.slice(Float64Array, this.u32());
      case T.PACKED_STRING:
        return new PackedStringArray(this.strings());
      case T.PACKED_VECTOR2:
        return new PackedVector2Array(this.slice(Float64Array, this.u32() * 2));
      case T.PACKED_VECTOR3:
        return new PackedVector3Array(this.slice(Float64Array, this.u32() * 3));
      case T.PACKED_VECTOR4:
        return new PackedVector4Array(this.slice(Float64Array, this.u32() * 4));
      case T.PACKED_COLOR:
        return new PackedColorArray(this.slice(Float32Array, this.u32() * 4));
      case T.PACKED_REF:
        return this.referenced();
      default:
        throw new Error(`fast-var-codec: unknown tape tag ${tag} at ${this.pos - 1}`);
    }
  }

  /**
   * A decode's large packed array, copied once from where it lies in the WebAssembly's memory
   * (the tape is a view of that memory): the packed tag, the count as that tag's, the address
   * and the byte length.
   */
  referenced() {
    const tag = this.u8();
    this.u32();
    const at = this.u32();
    const data = this.bytes.buffer.slice(at, at + this.u32());
    switch (tag) {
      case T.PACKED_BYTE:
        return new Uint8Array(data);
      case T.PACKED_INT32:
        return new Int32Array(data);
      case T.PACKED_INT64:
        return new BigInt64Array(data);
      case T.PACKED_FLOAT32:
        return new Float32Array(data);
      case T.PACKED_FLOAT64:
        return new Float64Array(data);
      case T.PACKED_VECTOR2:
        return new PackedVector2Array(new Float64Array(data));
      case T.PACKED_VECTOR3:
        return new PackedVector3Array(new Float64Array(data));
      case T.PACKED_VECTOR4:
        return new PackedVector4Array(new Float64Array(data));
      case T.PACKED_COLOR:
        return new PackedColorArray(new Float32Array(data));
      default:
        throw new Error(`fast-var-codec: unknown packed tag ${tag} in a tape reference`);
    }
  }

  /**
   * A Map (its entries in a TypedDictionary when typed). With dictionaryAs "object", an untyped
   * one is a plain object when every key is a String and none is one that an object would not
   * keep in order ("0", "1", ...: array indices come first) or at all ("__proto__"); a Map
   * otherwise.
   */
  dictionary() {
    const keyType = this.elementType();
    const valueType = this.elementType();
    const n = this.u32();
    const start = this.pos;
    const typed = keyType !== null || valueType !== null;
    if (!typed && this.asObjects) {
      const obj = {};
      let i = 0;
      for (; i < n; i++) {
        const at = this.pos;
        if (this.bytes[at] !== T.STRING) break;
        this.pos++;
        const k = this.key();
        if (!plainKey(k)) {
          this.pos = at;
          break;
        }
        obj[k] = this.value();
      }
      if (i === n) return obj;
      // A key an object cannot hold: the whole Dictionary as a Map, read again.
      this.pos = start;
    }
    const map = this.entries(n, start);
    return typed ? decodedTypedDictionary(keyType, valueType, map) : map;
  }

  entries(n, start) {
    const map = new Map();
    for (let i = 0; i < n; i++) {
      const k = this.value();
      map.set(k, this.value());
    }
    if (map.size === n) return map;
    // Keys JavaScript's Map merges and Godot keeps apart (the int 1 and the float 1.0, 0.0 and
    // -0.0, NaNs): read again with every float key a Float, each its own key.
    this.pos = start;
    const kept = new Map();
    const keepFloats = this.keepFloats;
    for (let i = 0; i < n; i++) {
      let k;
      if (this.bytes[this.pos] === T.FLOAT) {
        this.pos++;
        k = new Float(this.f64());
      } else {
        k = this.value();
      }
      kept.set(k, this.value());
    }
    this.keepFloats = keepFloats;
    return kept;
  }
}

const ch = String.fromCharCode;

/**
 * The `n` ASCII bytes of `b` from `at` as a string, made by one call for each 16 of them: a
 * string built a character at a time is a chain of pieces that V8 joins when it is used, three
 * times slower for a name of nine characters.
 */
export function ascii(b, at, n) {
  switch (n) {
    case 0:
      return "";
    case 1:
      return ch(b[at]);
    case 2:
      return ch(b[at], b[at + 1]);
    case 3:
      return ch(b[at], b[at + 1], b[at + 2]);
    case 4:
      return ch(b[at], b[at + 1], b[at + 2], b[at + 3]);
    case 5:
      return ch(b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4]);
    case 6:
      return ch(b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5]);
    case 7:
      return ch(b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6]);
    case 8:
      return ch(b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7]);
    case 9:
      return ch(
        b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7],
        b[at + 8],
      );
    case 10:
      return ch(
        b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7],
        b[at + 8], b[at + 9],
      );
    case 11:
      return ch(
        b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7],
        b[at + 8], b[at + 9], b[at + 10],
      );
    case 12:
      return ch(
        b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7],
        b[at + 8], b[at + 9], b[at + 10], b[at + 11],
      );
    case 13:
      return ch(
        b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7],
        b[at + 8], b[at + 9], b[at + 10], b[at + 11], b[at + 12],
      );
    case 14:
      return ch(
        b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7],
        b[at + 8], b[at + 9], b[at + 10], b[at + 11], b[at + 12], b[at + 13],
      );
    case 15:
      return ch(
        b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7],
        b[at + 8], b[at + 9], b[at + 10], b[at + 11], b[at + 12], b[at + 13], b[at + 14],
      );
    case 16:
      return ch(
        b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7],
        b[at + 8], b[at + 9], b[at + 10], b[at + 11], b[at + 12], b[at + 13], b[at + 14],
        b[at + 15],
      );
    default:
      return ascii(b, at, 16) + ascii(b, at + 16, n - 16);
  }
}

/**
 * Whether a plain object keeps the String key `k` as a Dictionary does: in its place (not an
 * array index, which an object lists first) and at all (not "__proto__").
 */
export function plainKey(k) {
  if (k === "__proto__") return false;
  const c = k.charCodeAt(0);
  if (c >= 48 && c <= 57) {
    // An array index ("0" ... "4294967294", no leading zero): objects list those first.
    if (/^(0|[1-9][0-9]*)$/.test(k) && Number(k) < 4294967295) return false;
  }
  return true;
}
