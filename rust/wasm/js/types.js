// Godot's types that JavaScript has no value for, as small classes with named fields (the type
// table of the package's README). Each class carries its tape tag under KIND, so that encoding
// finds it with one property read.

import * as T from "./tags.js";

/** The tape tag of a class's instances (private to the package). */
export const KIND = Symbol("fast-var-codec kind");

/** The layout of a packed vector class's instances, `{components, Data}` (private to the package). */
export const PACKED = Symbol("fast-var-codec packed layout");

function tagged(cls, tag) {
  Object.defineProperty(cls.prototype, KIND, { value: tag });
  return cls;
}

/** A Godot float: forces float for an integral number (`new Float(1)` encodes as 1.0). */
export class Float {
  constructor(value = 0) {
    this.value = Number(value);
  }
  valueOf() {
    return this.value;
  }
  toString() {
    return Number.isInteger(this.value) ? this.value.toFixed(1) : String(this.value);
  }
  toJSON() {
    return this.value;
  }
}
tagged(Float, T.FLOAT);

export class Vector2 {
  constructor(x = 0, y = 0) {
    this.x = x;
    this.y = y;
  }
}
tagged(Vector2, T.VECTOR2);

export class Vector2i {
  constructor(x = 0, y = 0) {
    this.x = x;
    this.y = y;
  }
}
tagged(Vector2i, T.VECTOR2I);

export class Vector3 {
  constructor(x = 0, y = 0, z = 0) {
    this.x = x;
    this.y = y;
    this.z = z;
  }
}
tagged(Vector3, T.VECTOR3);

export class Vector3i {
  constructor(x = 0, y = 0, z = 0) {
    this.x = x;
    this.y = y;
    this.z = z;
  }
}
tagged(Vector3i, T.VECTOR3I);

export class Vector4 {
  constructor(x = 0, y = 0, z = 0, w = 0) {
    this.x = x;
    this.y = y;
    this.z = z;
    this.w = w;
  }
}
tagged(Vector4, T.VECTOR4);

export class Vector4i {
  constructor(x = 0, y = 0, z = 0, w = 0) {
    this.x = x;
    this.y = y;
    this.z = z;
    this.w = w;
  }
}
tagged(Vector4i, T.VECTOR4I);

export class Quaternion {
  constructor(x = 0, y = 0, z = 0, w = 1) {
    this.x = x;
    this.y = y;
    this.z = z;
    this.w = w;
  }
}
tagged(Quaternion, T.QUATERNION);

/** A Color: r, g, b, a (binary32 on the wire, in either precision). */
export class Color {
  constructor(r = 0, g = 0, b = 0, a = 1) {
    this.r = r;
    this.g = g;
    this.b = b;
    this.a = a;
  }
}
tagged(Color, T.COLOR);

export class Rect2 {
  constructor(position = new Vector2(), size = new Vector2()) {
    this.position = position;
    this.size = size;
  }
}
tagged(Rect2, T.RECT2);

export class Rect2i {
  constructor(position = new Vector2i(), size = new Vector2i()) {
    this.position = position;
    this.size = size;
  }
}
tagged(Rect2i, T.RECT2I);

export class AABB {
  constructor(position = new Vector3(), size = new Vector3()) {
    this.position = position;
    this.size = size;
  }
}
tagged(AABB, T.AABB);

export class Plane {
  constructor(normal = new Vector3(), d = 0) {
    this.normal = normal;
    this.d = d;
  }
}
tagged(Plane, T.PLANE);

/** A Transform2D: its axes (columns) x, y and its origin, as GDScript's constructor. */
export class Transform2D {
  constructor(x = new Vector2(1, 0), y = new Vector2(0, 1), origin = new Vector2()) {
    this.x = x;
    this.y = y;
    this.origin = origin;
  }
}
tagged(Transform2D, T.TRANSFORM2D);

/** A Basis: its axes (columns) x, y, z, as GDScript's constructor (the wire holds rows). */
export class Basis {
  constructor(x = new Vector3(1, 0, 0), y = new Vector3(0, 1, 0), z = new Vector3(0, 0, 1)) {
    this.x = x;
    this.y = y;
    this.z = z;
  }
}
tagged(Basis, T.BASIS);

/** A Transform3D (Godot 3's Transform): basis and origin. */
export class Transform3D {
  constructor(basis = new Basis(), origin = new Vector3()) {
    this.basis = basis;
    this.origin = origin;
  }
}
tagged(Transform3D, T.TRANSFORM3D);

/** A Projection: four Vector4 columns. */
export class Projection {
  constructor(
    x = new Vector4(1, 0, 0, 0),
    y = new Vector4(0, 1, 0, 0),
    z = new Vector4(0, 0, 1, 0),
    w = new Vector4(0, 0, 0, 1),
  ) {
    this.x = x;
    this.y = y;
    this.z = z;
    this.w = w;
  }
}
tagged(Projection, T.PROJECTION);

export class StringName {
  constructor(name = "") {
    this.name = String(name);
  }
  toString() {
    return this.name;
  }
}
tagged(StringName, T.STRING_NAME);

let parseNodePath = null;

/** Set by the module once the WebAssembly is there: the core's parser of NodePath texts. */
export function setNodePathParser(parse) {
  parseNodePath = parse;
}

/**
 * A NodePath: `new NodePath("/root/Player:position")`, or its parts
 * `new NodePath({names, subnames, absolute})`. The text is read as Godot reads it.
 */
export class NodePath {
  constructor(path = "") {
    if (typeof path === "string") {
      const parts = parseNodePath(path);
      this.absolute = parts[0] === "1";
      const n = Number(parts[1]);
      this.names = parts.slice(2, 2 + n);
      this.subnames = parts.slice(2 + n);
    } else {
      this.names = Array.from(path.names ?? [], String);
      this.subnames = Array.from(path.subnames ?? [], String);
      this.absolute = Boolean(path.absolute);
    }
  }
  toString() {
    const text = (this.absolute ? "/" : "") + this.names.join("/");
    return text + this.subnames.map((s) => ":" + s).join("");
  }
}
tagged(NodePath, T.NODE_PATH);

function id64(v, what) {
  const id = BigInt(v);
  if (id < 0n || id > 0xffffffffffffffffn) {
    throw new RangeError(`${what} ${v} is not a 64-bit unsigned id`);
  }
  return id;
}

/** An RID's id (a BigInt; 0n for an empty RID). */
export class RID {
  constructor(id = 0n) {
    this.id = id64(id, "RID id");
  }
}
tagged(RID, T.RID);

/** An object sent as its instance id (without full objects). */
export class EncodedObjectAsID {
  constructor(objectId = 0n) {
    this.objectId = id64(objectId, "object id");
  }
}
tagged(EncodedObjectAsID, T.OBJECT_ID);

/** A full object (`var_to_bytes_with_objects`): its class and its properties (a Map, in wire order). */
export class GodotObject {
  constructor(className, properties = new Map()) {
    this.className = String(className);
    this.properties =
      properties instanceof Map ? properties : new Map(Object.entries(properties));
  }
}
tagged(GodotObject, T.OBJECT);

/** A Callable: the engine sends no target, so it is always empty. */
export class Callable {}
tagged(Callable, T.CALLABLE);

export class Signal {
  constructor(name = "", objectId = 0n) {
    this.name = String(name);
    this.objectId = id64(objectId, "object id");
  }
}
tagged(Signal, T.SIGNAL);

let checkTypeName = null;

/** Set by the module once the WebAssembly is there: the core's check of element type names. */
export function setTypeNameCheck(check) {
  checkTypeName = check;
}

function elementType(t) {
  if (t === null || t === undefined) return null;
  if (typeof t !== "string") {
    throw new TypeError(
      `an element type is a type's name ("int", "Node", "res://x.gd") or null, not ${typeof t}`,
    );
  }
  checkTypeName(t);
  return t;
}

/** A typed Array (`Array[int]`): its element type's name and its items. */
export class TypedArray {
  constructor(elementType_, items = []) {
    this.elementType = elementType(elementType_);
    this.items = Array.from(items);
  }
}
tagged(TypedArray, T.ARRAY);

/** A typed Dictionary (`Dictionary[String, int]`): key and value types' names, entries in a Map. */
export class TypedDictionary {
  constructor(keyType, valueType, entries = new Map()) {
    this.keyType = elementType(keyType);
    this.valueType = elementType(valueType);
    this.entries = entries instanceof Map ? entries : new Map(Object.entries(entries));
  }
}
tagged(TypedDictionary, T.DICTIONARY);

// A decode's typed containers: their type names come from the core, which has checked them, and
// the tape being read lies in the WebAssembly's memory, which a call into it (the check) could
// move. The same objects as the constructors make, without the check.

/** A decoded TypedArray (`items` taken as they are). */
export function decodedTypedArray(elementType_, items) {
  const a = Object.create(TypedArray.prototype);
  a.elementType = elementType_;
  a.items = items;
  return a;
}

/** A decoded TypedDictionary (`entries` a Map). */
export function decodedTypedDictionary(keyType, valueType, entries) {
  const d = Object.create(TypedDictionary.prototype);
  d.keyType = keyType;
  d.valueType = valueType;
  d.entries = entries;
  return d;
}

/** A PackedStringArray (an Array of strings is an Array). */
export class PackedStringArray {
  constructor(strings = []) {
    this.strings = Array.from(strings, String);
  }
  get length() {
    return this.strings.length;
  }
}
tagged(PackedStringArray, T.PACKED_STRING);

function packedVectors(cls, tag, n, Data, make) {
  cls.prototype.at = function at(i) {
    if (i < 0) i += this.length;
    if (!(i >= 0 && i < this.length)) return undefined;
    return make(this.data, i * n);
  };
  Object.defineProperty(cls.prototype, "length", {
    get() {
      return Math.floor(this.data.length / n);
    },
  });
  Object.defineProperty(cls.prototype, PACKED, { value: { components: n, Data } });
  return tagged(cls, tag);
}

function flat(data, Data) {
  return data instanceof Data ? data : Data.from(data);
}

/** A PackedVector2Array: `data`, one flat Float64Array of x, y pairs; `at(i)` makes a Vector2. */
export class PackedVector2Array {
  constructor(data = []) {
    this.data = flat(data, Float64Array);
  }
}
packedVectors(PackedVector2Array, T.PACKED_VECTOR2, 2, Float64Array, (d, o) => new Vector2(d[o], d[o + 1]));

/** A PackedVector3Array: `data`, one flat Float64Array of x, y, z triples. */
export class PackedVector3Array {
  constructor(data = []) {
    this.data = flat(data, Float64Array);
  }
}
packedVectors(
  PackedVector3Array,
  T.PACKED_VECTOR3,
  3,
  Float64Array,
  (d, o) => new Vector3(d[o], d[o + 1], d[o + 2]),
);

/** A PackedVector4Array: `data`, one flat Float64Array of x, y, z, w. */
export class PackedVector4Array {
  constructor(data = []) {
    this.data = flat(data, Float64Array);
  }
}
packedVectors(
  PackedVector4Array,
  T.PACKED_VECTOR4,
  4,
  Float64Array,
  (d, o) => new Vector4(d[o], d[o + 1], d[o + 2], d[o + 3]),
);

/** A PackedColorArray: `data`, one flat Float32Array of r, g, b, a. */
export class PackedColorArray {
  constructor(data = []) {
    this.data = flat(data, Float32Array);
  }
}
packedVectors(
  PackedColorArray,
  T.PACKED_COLOR,
  4,
  Float32Array,
  (d, o) => new Color(d[o], d[o + 1], d[o + 2], d[o + 3]),
);
