// The golden corpora's value descriptions (tests/golden/FORMAT.md) as the JavaScript values the
// package should give for them (decoded with keepFloats: true), written from FORMAT.md and the
// package README's type table, independently of the package's own tape code.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as fvc from "fast-var-codec";

export const REPO = process.env.FVC_ROOT ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const GOLDEN = path.join(REPO, "tests", "golden");
export const SAVES = path.join(REPO, "tests", "saves");

/** Godot's Error constants the codec reports (@GlobalScope.Error). */
export const ERROR_NAMES = {
  2: "ERR_UNAVAILABLE",
  4: "ERR_UNAUTHORIZED",
  6: "ERR_OUT_OF_MEMORY",
  15: "ERR_FILE_UNRECOGNIZED",
  16: "ERR_FILE_CORRUPT",
  18: "ERR_FILE_EOF",
  30: "ERR_INVALID_DATA",
  31: "ERR_INVALID_PARAMETER",
};

const TYPE_NAMES = [
  "Nil", "bool", "int", "float", "String", "Vector2", "Vector2i", "Rect2", "Rect2i",
  "Vector3", "Vector3i", "Transform2D", "Vector4", "Vector4i", "Plane", "Quaternion", "AABB",
  "Basis", "Transform3D", "Projection", "Color", "StringName", "NodePath", "RID", "Object",
  "Callable", "Signal", "Dictionary", "Array", "PackedByteArray", "PackedInt32Array",
  "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array", "PackedStringArray",
  "PackedVector2Array", "PackedVector3Array", "PackedColorArray", "PackedVector4Array",
];

/** Every engine's golden corpus (tests/golden/): Godot 4.6.3 (single and double), 3.6.2, 3.2.3, Pandemonium. */
export const CORPORA = [
  "godot4_6_3.json",
  "godot4_6_3_double.json",
  "godot3_6_2.json",
  "godot3_2_3.json",
  "pandemonium_4_9_0.json",
  "pandemonium_5_2_0.json",
];

export function load(name) {
  return JSON.parse(fs.readFileSync(path.join(GOLDEN, name), "utf8"));
}

export function hexBytes(h) {
  return Uint8Array.from(Buffer.from(h, "hex"));
}

export function hexOf(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** A text that is not valid UTF-8: no JavaScript string holds it as the engine had it. */
export class NotText extends Error {}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function text(h) {
  try {
    return strict.decode(hexBytes(h));
  } catch {
    throw new NotText(h);
  }
}

function f(h) {
  return Buffer.from(h, "hex").readDoubleLE(0);
}

/** A float as decode gives it with keepFloats: integral ones as Float. */
function float(x) {
  return Number.isInteger(x) ? new fvc.Float(x) : x;
}

function int(s) {
  const b = BigInt(s);
  const n = Number(b);
  return Number.isSafeInteger(n) ? n : b;
}

function reals(j) {
  return j.v.map(f);
}

function le(h, Data) {
  const b = hexBytes(h);
  return new Data(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

function typed(j) {
  if (j === null || j === undefined) return null;
  if (j.kind === "builtin") return j.type === 24 ? "" : TYPE_NAMES[j.type];
  if (j.kind === "class") return text(j.name);
  return text(j.path);
}

/** Whether the corpus being read is of a double-precision build (vector arrays in binary64). */
export const state = { double: false };

function basis(c) {
  return new fvc.Basis(
    new fvc.Vector3(c[0], c[3], c[6]),
    new fvc.Vector3(c[1], c[4], c[7]),
    new fvc.Vector3(c[2], c[5], c[8]),
  );
}

export function valueOf(j) {
  const t = j.t;
  switch (t) {
    case "nil":
      return null;
    case "bool":
      return Boolean(j.v);
    case "int":
      return int(j.v);
    case "float":
      return float(f(j.v));
    case "string":
      return text(j.v);
    case "string_name":
      return new fvc.StringName(text(j.v));
    case "vector2":
      return new fvc.Vector2(...reals(j));
    case "vector3":
      return new fvc.Vector3(...reals(j));
    case "vector4":
      return new fvc.Vector4(...reals(j));
    case "quaternion":
      return new fvc.Quaternion(...reals(j));
    case "color":
      return new fvc.Color(...reals(j));
    case "vector2i":
      return new fvc.Vector2i(...j.v);
    case "vector3i":
      return new fvc.Vector3i(...j.v);
    case "vector4i":
      return new fvc.Vector4i(...j.v);
    case "rect2": {
      const c = reals(j);
      return new fvc.Rect2(new fvc.Vector2(c[0], c[1]), new fvc.Vector2(c[2], c[3]));
    }
    case "rect2i": {
      const c = j.v;
      return new fvc.Rect2i(new fvc.Vector2i(c[0], c[1]), new fvc.Vector2i(c[2], c[3]));
    }
    case "transform2d": {
      const c = reals(j);
      return new fvc.Transform2D(
        new fvc.Vector2(c[0], c[1]),
        new fvc.Vector2(c[2], c[3]),
        new fvc.Vector2(c[4], c[5]),
      );
    }
    case "plane": {
      const c = reals(j);
      return new fvc.Plane(new fvc.Vector3(c[0], c[1], c[2]), c[3]);
    }
    case "aabb": {
      const c = reals(j);
      return new fvc.AABB(new fvc.Vector3(c[0], c[1], c[2]), new fvc.Vector3(c[3], c[4], c[5]));
    }
    case "basis":
      return basis(reals(j));
    case "transform3d": {
      const c = reals(j);
      return new fvc.Transform3D(basis(c.slice(0, 9)), new fvc.Vector3(c[9], c[10], c[11]));
    }
    case "projection": {
      const c = reals(j);
      const col = (i) => new fvc.Vector4(c[i], c[i + 1], c[i + 2], c[i + 3]);
      return new fvc.Projection(col(0), col(4), col(8), col(12));
    }
    case "node_path":
      return new fvc.NodePath({
        names: j.names.map(text),
        subnames: j.subnames.map(text),
        absolute: j.absolute,
      });
    case "rid":
      return new fvc.RID(BigInt(j.v));
    case "object_id":
      return new fvc.EncodedObjectAsID(BigInt(j.v));
    case "object":
      return new fvc.GodotObject(text(j.class), new Map(j.props.map(([k, v]) => [text(k), valueOf(v)])));
    case "callable":
      return new fvc.Callable();
    case "signal":
      return new fvc.Signal(text(j.name), BigInt(j.object));
    case "array": {
      const items = j.items.map(valueOf);
      const element = typed(j.typed);
      return element === null ? items : new fvc.TypedArray(element, items);
    }
    case "dictionary": {
      const pairs = j.entries.map(([k, v]) => [valueOf(k), valueOf(v)]);
      const kt = typed(j.key_typed);
      const vt = typed(j.value_typed);
      let map = new Map(pairs);
      if (map.size !== pairs.length) {
        // Keys a Map merges: every float key a Float of its own (the README's rule).
        map = new Map(
          j.entries.map(([k, v], i) => [k.t === "float" ? new fvc.Float(f(k.v)) : pairs[i][0], pairs[i][1]]),
        );
      }
      return kt === null && vt === null ? map : new fvc.TypedDictionary(kt, vt, map);
    }
    case "packed_byte_array":
      return hexBytes(j.v);
    case "packed_int32_array":
      return le(j.v, Int32Array);
    case "packed_int64_array":
      return le(j.v, BigInt64Array);
    case "packed_float32_array":
      return le(j.v, Float32Array);
    case "packed_float64_array":
      return le(j.v, Float64Array);
    case "packed_string_array":
      return new fvc.PackedStringArray(j.v.map(text));
    case "packed_vector2_array":
      return new fvc.PackedVector2Array(realTs(j.v));
    case "packed_vector3_array":
      return new fvc.PackedVector3Array(realTs(j.v));
    case "packed_vector4_array":
      return new fvc.PackedVector4Array(realTs(j.v));
    case "packed_color_array":
      return new fvc.PackedColorArray(le(j.v, Float32Array));
    case "packed_vector2i_array":
    case "packed_vector3i_array":
    case "packed_vector4i_array": {
      const [n, Cls, name] = {
        packed_vector2i_array: [2, fvc.Vector2i, "Vector2i"],
        packed_vector3i_array: [3, fvc.Vector3i, "Vector3i"],
        packed_vector4i_array: [4, fvc.Vector4i, "Vector4i"],
      }[t];
      const c = Array.from(le(j.v, Int32Array));
      const items = [];
      for (let i = 0; i < c.length; i += n) items.push(new Cls(...c.slice(i, i + n)));
      return new fvc.TypedArray(name, items);
    }
    default:
      throw new Error(`unknown desc type ${t}`);
  }
}

function realTs(h) {
  return Float64Array.from(le(h, state.double ? Float64Array : Float32Array));
}

/** rust/codec/tests/golden.rs's KNOWN_DIVERGENCES, read from the Rust test so that the list lives once. */
export function knownDivergences() {
  const src = fs.readFileSync(path.join(REPO, "rust", "codec", "tests", "golden.rs"), "utf8");
  let table = src.slice(src.indexOf("const KNOWN_DIVERGENCES"));
  table = table.slice(0, table.indexOf("\n];"));
  return [...table.matchAll(/\(\s*"([^"]+)",\s*"(cases|malformed inputs)",\s*"([^"]+)"/g)].map((m) => [
    m[1],
    m[2],
    m[3],
  ]);
}

function mapFields(v, fn) {
  const out = Object.create(Object.getPrototypeOf(v));
  for (const k of Object.keys(v)) out[k] = fn(v[k]);
  return out;
}

/** `v` as a single-precision engine holds it: real components of math types and packed vector arrays as binary32. */
export function narrow(v) {
  const r = (x) => (typeof x === "number" ? Math.fround(x) : x);
  if (v instanceof fvc.Vector2 || v instanceof fvc.Vector3 || v instanceof fvc.Vector4 || v instanceof fvc.Quaternion) {
    return mapFields(v, r);
  }
  if (
    v instanceof fvc.Rect2 || v instanceof fvc.AABB || v instanceof fvc.Plane || v instanceof fvc.Transform2D ||
    v instanceof fvc.Basis || v instanceof fvc.Transform3D || v instanceof fvc.Projection
  ) {
    return mapFields(v, (x) => (typeof x === "number" ? r(x) : narrow(x)));
  }
  if (v instanceof fvc.PackedVector2Array || v instanceof fvc.PackedVector3Array || v instanceof fvc.PackedVector4Array) {
    return new v.constructor(v.data.map(r));
  }
  if (Array.isArray(v)) return v.map(narrow);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [narrow(k), narrow(x)]));
  if (v instanceof fvc.TypedArray) return new fvc.TypedArray(v.elementType, narrow(v.items));
  if (v instanceof fvc.TypedDictionary) return new fvc.TypedDictionary(v.keyType, v.valueType, narrow(v.entries));
  if (isPlain(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, narrow(x)]));
  return v;
}

function isPlain(v) {
  if (v === null || typeof v !== "object") return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/** Full objects reduced to their class (a decoding engine lists every property of the live instance). */
export function classesOnly(v) {
  if (v instanceof fvc.GodotObject) return new fvc.GodotObject(v.className, new Map());
  if (Array.isArray(v)) return v.map(classesOnly);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [classesOnly(k), classesOnly(x)]));
  if (v instanceof fvc.TypedArray) return new fvc.TypedArray(v.elementType, classesOnly(v.items));
  if (v instanceof fvc.TypedDictionary) {
    return new fvc.TypedDictionary(v.keyType, v.valueType, classesOnly(v.entries));
  }
  if (isPlain(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, classesOnly(x)]));
  return v;
}

/** Whether a Desc holds a value of type `t` (without recursion: descs nest 1,024 deep). */
export function has(j, t) {
  const todo = [j];
  while (todo.length > 0) {
    const x = todo.pop();
    if (Array.isArray(x)) todo.push(...x);
    else if (x !== null && typeof x === "object") {
      if (x.t === t) return true;
      todo.push(...Object.values(x));
    }
  }
  return false;
}

function num(x) {
  if (Number.isNaN(x)) return "NaN";
  if (Object.is(x, -0)) return "-0";
  return String(x);
}

/** A text of `v` that compares as the codec does: types exact, numbers exact, containers in order. */
export function canon(v) {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return `b:${v}`;
    case "number":
      return `n:${num(v)}`;
    case "bigint":
      return `i:${v}`;
    case "string":
      return `s:${JSON.stringify(v)}`;
    case "undefined":
      return "undefined";
  }
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  if (v instanceof Map) return `Map{${[...v].map(([k, x]) => `${canon(k)}=>${canon(x)}`).join(",")}}`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${hexOf(v)})`;
  if (v instanceof fvc.Float) return `f:${num(v.value)}`;
  if (isPlain(v)) return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(",")}}`;
  const keys = Object.keys(v).sort();
  return `${v.constructor.name}(${keys.map((k) => `${k}=${canon(v[k])}`).join(",")})`;
}

/** `v` as a decode returns it by default: every plain object a Map of its entries, in order. */
export function asDecoded(v) {
  if (Array.isArray(v)) return v.map(asDecoded);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, asDecoded(x)]));
  if (isPlain(v)) return new Map(Object.entries(v).map(([k, x]) => [k, asDecoded(x)]));
  return v;
}

export function same(a, b) {
  return canon(a) === canon(b);
}
