// A JSON projection of the package's values, for export and import: JSON's own types where they
// say the same thing (null, bool, String, an int as an integral number, a float as a number with
// a fraction, Array, a Dictionary of String keys as an object), and tagged objects for the rest:
// {"$int": "digits"} beyond 2^53, {"$float": 2} for an integral float (the package's Float),
// {"$number": "nan" | "inf" | "-inf" | "-0"}, {"$dict": [[key, value], ...]} for other keys,
// {"$type": "Vector2", "x": ..., "y": ...} and so on for Godot's other types.
// It is lossless: importing an export gives the same values back.

import * as fvc from "fast-var-codec";

const CLASSES = {
  Vector2: [fvc.Vector2, ["x", "y"]],
  Vector2i: [fvc.Vector2i, ["x", "y"]],
  Vector3: [fvc.Vector3, ["x", "y", "z"]],
  Vector3i: [fvc.Vector3i, ["x", "y", "z"]],
  Vector4: [fvc.Vector4, ["x", "y", "z", "w"]],
  Vector4i: [fvc.Vector4i, ["x", "y", "z", "w"]],
  Quaternion: [fvc.Quaternion, ["x", "y", "z", "w"]],
  Color: [fvc.Color, ["r", "g", "b", "a"]],
  Rect2: [fvc.Rect2, ["position", "size"]],
  Rect2i: [fvc.Rect2i, ["position", "size"]],
  AABB: [fvc.AABB, ["position", "size"]],
  Plane: [fvc.Plane, ["normal", "d"]],
  Transform2D: [fvc.Transform2D, ["x", "y", "origin"]],
  Basis: [fvc.Basis, ["x", "y", "z"]],
  Transform3D: [fvc.Transform3D, ["basis", "origin"]],
  Projection: [fvc.Projection, ["x", "y", "z", "w"]],
};

const PACKED = {
  PackedByteArray: Uint8Array,
  PackedInt32Array: Int32Array,
  PackedInt64Array: BigInt64Array,
  PackedFloat32Array: Float32Array,
  PackedFloat64Array: Float64Array,
};

/** A number JSON cannot hold as one (NaN, ±Infinity, -0) as a string; others as they are. */
function num(v) {
  if (typeof v === "bigint") return String(v);
  if (Number.isNaN(v)) return "nan";
  if (v === Infinity) return "inf";
  if (v === -Infinity) return "-inf";
  if (Object.is(v, -0)) return "-0";
  return v;
}

/** A typed array's numbers; with a NaN among them, its bytes in hex (a NaN's payload kept). */
function packedData(a) {
  if ((a instanceof Float32Array || a instanceof Float64Array) && a.some(Number.isNaN)) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    return { hex: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") };
  }
  return { data: Array.from(a, num) };
}

function packedFrom(j, Data) {
  if (j.hex !== undefined) {
    const bytes = new Uint8Array(j.hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(j.hex.slice(2 * i, 2 * i + 2), 16);
    return new Data(bytes.buffer);
  }
  return Data === BigInt64Array ? BigInt64Array.from(j.data, (x) => BigInt(x)) : Data.from(j.data.map(fromNum));
}

/** The JSON projection of one value. */
export function toJson(v) {
  if (v === null || v === undefined || typeof v === "boolean" || typeof v === "string") return v ?? null;
  if (typeof v === "bigint") return { $int: String(v) };
  // A number: an int when integral, else a float; NaN, ±Infinity and -0 (floats) tagged.
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0) ? v : { $number: num(v) };
  // A Float: a float even when integral.
  if (v instanceof fvc.Float) return { $float: num(v.value) };
  if (Array.isArray(v)) return v.map(toJson);
  for (const [name, Data] of Object.entries(PACKED)) {
    if (v instanceof Data) return { $type: name, ...packedData(v) };
  }
  for (const [name, [cls, fields]] of Object.entries(CLASSES)) {
    if (v instanceof cls) {
      const out = { $type: name };
      for (const f of fields) out[f] = v[f] instanceof Object ? toJson(v[f]) : num(v[f]);
      return out;
    }
  }
  if (v instanceof fvc.StringName) return { $type: "StringName", name: v.name };
  // By its parts: a name may hold what the text form would split ("a/b", or nothing).
  if (v instanceof fvc.NodePath) {
    return { $type: "NodePath", path: v.toString(), names: v.names.slice(), subnames: v.subnames.slice(), absolute: v.absolute };
  }
  if (v instanceof fvc.RID) return { $type: "RID", id: String(v.id) };
  if (v instanceof fvc.EncodedObjectAsID) return { $type: "EncodedObjectAsID", objectId: String(v.objectId) };
  if (v instanceof fvc.Callable) return { $type: "Callable" };
  if (v instanceof fvc.Signal) return { $type: "Signal", name: v.name, objectId: String(v.objectId) };
  if (v instanceof fvc.GodotObject) {
    return { $type: "Object", className: v.className, properties: [...v.properties].map(([k, p]) => [k, toJson(p)]) };
  }
  if (v instanceof fvc.TypedArray) return { $type: "TypedArray", elementType: v.elementType, items: v.items.map(toJson) };
  if (v instanceof fvc.TypedDictionary) {
    return {
      $type: "TypedDictionary",
      keyType: v.keyType,
      valueType: v.valueType,
      entries: [...v.entries].map(([k, e]) => [toJson(k), toJson(e)]),
    };
  }
  if (v instanceof fvc.PackedStringArray) return { $type: "PackedStringArray", strings: v.strings.slice() };
  for (const name of ["PackedVector2Array", "PackedVector3Array", "PackedVector4Array", "PackedColorArray"]) {
    if (v instanceof fvc[name]) return { $type: name, ...packedData(v.data) };
  }
  if (v instanceof Map) return { $dict: [...v].map(([k, e]) => [toJson(k), toJson(e)]) };
  if (typeof v === "object") {
    const keys = Object.keys(v);
    if (keys.some((k) => k.startsWith("$"))) return { $dict: keys.map((k) => [k, toJson(v[k])]) };
    const out = {};
    for (const k of keys) out[k] = toJson(v[k]);
    return out;
  }
  throw new TypeError(`no JSON projection for ${typeof v}`);
}

function fromNum(x) {
  if (typeof x !== "string") return x;
  const special = { nan: NaN, inf: Infinity, "-inf": -Infinity, "-0": -0 };
  if (x in special) return special[x];
  throw new TypeError(`not a number: ${JSON.stringify(x)}`);
}

function entriesMap(list) {
  const m = new Map();
  for (const [k, v] of list) m.set(fromJson(k), fromJson(v));
  return m;
}

/** The value of a JSON projection (toJson's inverse). */
export function fromJson(j) {
  if (j === null || typeof j === "boolean" || typeof j === "string") return j;
  if (typeof j === "number") return j;
  if (Array.isArray(j)) return j.map(fromJson);
  if ("$int" in j) return BigInt(j.$int);
  if ("$number" in j) return fromNum(j.$number);
  if ("$float" in j) return new fvc.Float(fromNum(j.$float));
  if ("$dict" in j) {
    const m = entriesMap(j.$dict);
    // A Dictionary of String keys comes back as an object, as the package decodes it.
    if ([...m.keys()].every((k) => typeof k === "string" && !/^(0|[1-9][0-9]*)$/.test(k) && k !== "__proto__")) {
      return Object.fromEntries(m);
    }
    return m;
  }
  if (!("$type" in j)) {
    const out = {};
    for (const [k, v] of Object.entries(j)) out[k] = fromJson(v);
    return out;
  }
  const t = j.$type;
  if (t in PACKED) {
    return packedFrom(j, PACKED[t]);
  }
  if (t in CLASSES) {
    const [cls, fields] = CLASSES[t];
    const args = fields.map((f) => (j[f] !== null && typeof j[f] === "object" ? fromJson(j[f]) : fromNum(j[f])));
    return new cls(...args);
  }
  switch (t) {
    case "StringName":
      return new fvc.StringName(j.name);
    case "NodePath":
      return j.names ? new fvc.NodePath({ names: j.names, subnames: j.subnames ?? [], absolute: j.absolute }) : new fvc.NodePath(j.path);
    case "RID":
      return new fvc.RID(BigInt(j.id));
    case "EncodedObjectAsID":
      return new fvc.EncodedObjectAsID(BigInt(j.objectId));
    case "Callable":
      return new fvc.Callable();
    case "Signal":
      return new fvc.Signal(j.name, BigInt(j.objectId));
    case "Object":
      return new fvc.GodotObject(j.className, new Map(j.properties.map(([k, v]) => [k, fromJson(v)])));
    case "TypedArray":
      return new fvc.TypedArray(j.elementType, j.items.map(fromJson));
    case "TypedDictionary":
      return new fvc.TypedDictionary(j.keyType, j.valueType, entriesMap(j.entries));
    case "PackedStringArray":
      return new fvc.PackedStringArray(j.strings);
    case "PackedVector2Array":
    case "PackedVector3Array":
    case "PackedVector4Array":
    case "PackedColorArray":
      return new fvc[t](packedFrom(j, t === "PackedColorArray" ? Float32Array : Float64Array));
    default:
      throw new TypeError(`unknown $type ${JSON.stringify(t)}`);
  }
}
