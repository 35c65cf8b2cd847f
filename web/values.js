// What the page says about a value of the package's model: its Godot type, a one-line summary,
// its children (for the tree), its components (for the editor), a default value per type. No
// rule of the binary format is here: bytes, offsets and errors all come from the package.

import * as fvc from "fast-var-codec";

/** The math types edited by their components: [class, fields, integer components]. */
export const COMPOSITE = {
  Vector2: [fvc.Vector2, ["x", "y"], false],
  Vector2i: [fvc.Vector2i, ["x", "y"], true],
  Vector3: [fvc.Vector3, ["x", "y", "z"], false],
  Vector3i: [fvc.Vector3i, ["x", "y", "z"], true],
  Vector4: [fvc.Vector4, ["x", "y", "z", "w"], false],
  Vector4i: [fvc.Vector4i, ["x", "y", "z", "w"], true],
  Quaternion: [fvc.Quaternion, ["x", "y", "z", "w"], false],
  Color: [fvc.Color, ["r", "g", "b", "a"], false],
  Rect2: [fvc.Rect2, ["position", "size"], false],
  Rect2i: [fvc.Rect2i, ["position", "size"], true],
  AABB: [fvc.AABB, ["position", "size"], false],
  Plane: [fvc.Plane, ["normal", "d"], false],
  Transform2D: [fvc.Transform2D, ["x", "y", "origin"], false],
  Basis: [fvc.Basis, ["x", "y", "z"], false],
  Transform3D: [fvc.Transform3D, ["basis", "origin"], false],
  Projection: [fvc.Projection, ["x", "y", "z", "w"], false],
};

/** COMPOSITE's entries, made once: the tree and the search ask them of every value. */
const COMPOSITE_LIST = Object.entries(COMPOSITE);
const PACKED_NUMBERS = [
  [Uint8Array, "PackedByteArray"],
  [Int32Array, "PackedInt32Array"],
  [BigInt64Array, "PackedInt64Array"],
  [Float32Array, "PackedFloat32Array"],
  [Float64Array, "PackedFloat64Array"],
];
const PACKED_VECTORS = [
  [fvc.PackedVector2Array, "PackedVector2Array", 2],
  [fvc.PackedVector3Array, "PackedVector3Array", 3],
  [fvc.PackedVector4Array, "PackedVector4Array", 4],
  [fvc.PackedColorArray, "PackedColorArray", 4],
];

export function isFloat(v) {
  return v instanceof fvc.Float || (typeof v === "number" && (!Number.isInteger(v) || Object.is(v, -0)));
}

export function isInt(v) {
  return typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v) && !Object.is(v, -0));
}

/** Whether `v` is a plain object, which the package writes as a Dictionary of String keys. */
export function isDictObject(v) {
  return v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype;
}

/** The value's Godot type, as the engine names it. */
export function typeName(v) {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return "bool";
  if (isInt(v)) return "int";
  if (isFloat(v)) return "float";
  if (typeof v === "string") return "String";
  if (Array.isArray(v)) return "Array";
  if (v instanceof Map || isDictObject(v)) return "Dictionary";
  for (const [name, [cls]] of COMPOSITE_LIST) if (v instanceof cls) return name;
  for (const [cls, name] of PACKED_NUMBERS) if (v instanceof cls) return name;
  for (const [cls, name] of PACKED_VECTORS) if (v instanceof cls) return name;
  if (v instanceof fvc.PackedStringArray) return "PackedStringArray";
  if (v instanceof fvc.StringName) return "StringName";
  if (v instanceof fvc.NodePath) return "NodePath";
  if (v instanceof fvc.RID) return "RID";
  if (v instanceof fvc.EncodedObjectAsID) return "Object (id)";
  if (v instanceof fvc.GodotObject) return `Object (${v.className})`;
  if (v instanceof fvc.Callable) return "Callable";
  if (v instanceof fvc.Signal) return "Signal";
  if (v instanceof fvc.TypedArray) return `Array[${v.elementType ?? "Variant"}]`;
  if (v instanceof fvc.TypedDictionary) return `Dictionary[${v.keyType ?? "Variant"}, ${v.valueType ?? "Variant"}]`;
  return typeof v;
}

export function floatText(x) {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (Object.is(x, -0)) return "-0.0";
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/**
 * A component of a math value as text: a binary32 one (a Color's always, the others' where
 * `singleReals`: a file read in single precision) as the shortest decimal giving the same
 * binary32 (0.2, not 0.20000000298023224).
 */
export function componentText(c, singleReals, isColor = false) {
  if (Number.isInteger(c)) return String(c);
  if (!Number.isFinite(c) || Object.is(c, -0)) return floatText(c);
  return String(singleReals || isColor ? shortest(c) : c);
}

/**
 * A number that is a binary32 value (a Color's component, a single-precision vector's) as the
 * shortest decimal that gives the same binary32: 0.2, not 0.20000000298023224. Others as they are.
 */
function shortest(x) {
  if (Math.fround(x) !== x) return x;
  for (let digits = 1; digits <= 9; digits++) {
    const y = Number(x.toPrecision(digits));
    if (Math.fround(y) === x) return y;
  }
  return x;
}

function short(s, n = 80) {
  return s.length > n ? s.slice(0, n) + "…" : s;
}

/** The components of a math value, flattened: [[label, number], ...]. */
export function components(v, prefix = "") {
  for (const [, [cls, fields]] of COMPOSITE_LIST) {
    if (v instanceof cls) {
      const out = [];
      for (const f of fields) {
        const c = v[f];
        if (typeof c === "object" && c !== null) out.push(...components(c, prefix + f + "."));
        else out.push([prefix + f, c]);
      }
      return out;
    }
  }
  return [];
}

/** A math value of type `name` from its flattened components, in components()'s order. */
export function fromComponents(name, numbers) {
  let i = 0;
  const build = (cls, fields, sample) => {
    const args = fields.map((f) => {
      const c = sample[f];
      if (typeof c === "object" && c !== null) {
        const inner = Object.values(COMPOSITE).find(([k]) => c instanceof k);
        return build(inner[0], inner[1], c);
      }
      return numbers[i++];
    });
    return new cls(...args);
  };
  const [cls, fields] = COMPOSITE[name];
  return build(cls, fields, new cls());
}

const SINGULAR = { items: "item", entries: "entry", bytes: "byte", properties: "property" };

/** One line for the value (`singleReals`: its math components are binary32, componentText). */
export function summary(v, singleReals) {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return String(v);
  if (typeof v === "bigint") return String(v);
  if (typeof v === "number") return isFloat(v) ? floatText(v) : String(v);
  if (v instanceof fvc.Float) return floatText(v.value);
  if (typeof v === "string") return short(JSON.stringify(v));
  if (v instanceof fvc.StringName) return "&" + short(JSON.stringify(v.name));
  if (v instanceof fvc.NodePath) return "^" + short(JSON.stringify(v.toString()));
  const comps = components(v);
  if (comps.length) return "(" + comps.map(([, c]) => componentText(c, singleReals, v instanceof fvc.Color)).join(", ") + ")";
  if (v instanceof fvc.RID) return `RID(${v.id})`;
  if (v instanceof fvc.EncodedObjectAsID) return `#${v.objectId}`;
  if (v instanceof fvc.Signal) return `Signal(${JSON.stringify(v.name)}, #${v.objectId})`;
  if (v instanceof fvc.Callable) return "Callable()";
  const k = kids(v);
  if (k) return `${k.count} ${k.count === 1 ? SINGULAR[k.noun] : k.noun}`;
  return "";
}

/**
 * The children of a container (and of a packed array, whose items are data): count, labels,
 * get, set and remove of child i, and which of the wire's located values is child i's
 * (`stride`, `at`: the value of entry i is the located value stride*i+at among the container's;
 * `located`: false where items are not values, which have no byte range of their own).
 */
export function kids(v) {
  const arrayLike = (items, noun = "items") => ({
    count: items.length,
    noun,
    label: (i) => `[${i}]`,
    get: (i) => items[i],
    set: (i, x) => {
      items[i] = x;
    },
    remove: (i) => items.splice(i, 1),
    insert: (x) => items.push(x),
    stride: 1,
    at: 0,
    located: true,
  });
  const mapLike = (m) => {
    const keys = [...m.keys()];
    return {
      count: keys.length,
      noun: "entries",
      keys,
      label: (i, singleReals) => keyText(keys[i], singleReals),
      key: (i) => keys[i],
      get: (i) => m.get(keys[i]),
      set: (i, x) => m.set(keys[i], x),
      remove: (i) => m.delete(keys[i]),
      insertKey: (k, x) => m.set(k, x),
      has: (k) => m.has(k),
      stride: 2,
      at: 1,
      located: true,
    };
  };
  if (Array.isArray(v)) return arrayLike(v);
  if (v instanceof fvc.TypedArray) return arrayLike(v.items);
  if (v instanceof Map) return mapLike(v);
  if (v instanceof fvc.TypedDictionary) return mapLike(v.entries);
  if (isDictObject(v)) {
    const keys = Object.keys(v);
    return {
      count: keys.length,
      noun: "entries",
      keys,
      label: (i, singleReals) => keyText(keys[i], singleReals),
      key: (i) => keys[i],
      get: (i) => v[keys[i]],
      set: (i, x) => {
        v[keys[i]] = x;
      },
      remove: (i) => delete v[keys[i]],
      insertKey: (k, x) => {
        v[k] = x;
      },
      has: (k) => Object.prototype.hasOwnProperty.call(v, k),
      stride: 2,
      at: 1,
      located: true,
    };
  }
  if (v instanceof fvc.GodotObject) {
    const m = mapLike(v.properties);
    return { ...m, noun: "properties", label: (i) => m.keys[i], stride: 1, at: 0 };
  }
  // Packed arrays: an item is replaced in place; removing or adding one makes a new array
  // (`removed(i)`, `added(x)`), of items of one type (`element`).
  if (v instanceof fvc.PackedStringArray) {
    return {
      ...arrayLike(v.strings),
      remove: null,
      insert: null,
      removed: (i) => new fvc.PackedStringArray(v.strings.filter((_, j) => j !== i)),
      added: (x) => new fvc.PackedStringArray([...v.strings, x]),
      element: "String",
      located: false,
    };
  }
  for (const [cls] of PACKED_NUMBERS) {
    if (v instanceof cls) {
      const real = v instanceof Float32Array || v instanceof Float64Array;
      return {
        removed: (i) => {
          const out = new cls(v.length - 1);
          out.set(v.subarray(0, i));
          out.set(v.subarray(i + 1), i);
          return out;
        },
        added: (x) => {
          const out = new cls(v.length + 1);
          out.set(v);
          const n = typeof x === "object" && x !== null ? x.valueOf() : x;
          out[v.length] = cls === BigInt64Array ? BigInt(n) : n;
          return out;
        },
        element: real ? "float" : "int",
        count: v.length,
        noun: v instanceof Uint8Array ? "bytes" : "items",
        label: (i) => `[${i}]`,
        get: (i) => (v instanceof Float32Array || v instanceof Float64Array ? new fvc.Float(v[i]) : v[i]),
        set: (i, x) => {
          v[i] = typeof x === "object" && x !== null ? x.valueOf() : x;
        },
        remove: null,
        stride: 1,
        at: 0,
        located: false,
        packed: cls,
      };
    }
  }
  for (const [cls, packedName, n] of PACKED_VECTORS) {
    const name = packedName === "PackedColorArray" ? "Color" : packedName.slice(6, 13);
    if (v instanceof cls) {
      return {
        count: v.data.length / n,
        noun: "items",
        label: (i) => `[${i}]`,
        get: (i) => v.at(i),
        set: (i, x) => {
          v.data.set(
            components(x).map(([, c]) => c),
            i * n,
          );
        },
        remove: null,
        removed: (i) => {
          const d = v.data;
          const out = new d.constructor(d.length - n);
          out.set(d.subarray(0, i * n));
          out.set(d.subarray((i + 1) * n), i * n);
          return new cls(out);
        },
        added: (x) => {
          const d = v.data;
          const out = new d.constructor(d.length + n);
          out.set(d);
          out.set(
            components(x).map(([, c]) => c),
            d.length,
          );
          return new cls(out);
        },
        element: name,
        stride: 1,
        at: 0,
        located: false,
      };
    }
  }
  return null;
}

export function keyText(k, singleReals) {
  return typeof k === "string" ? JSON.stringify(k) : summary(k, singleReals);
}

/** The types a value can be given in the editor, and the default value of each. */
export const NEW_TYPES = {
  null: () => null,
  bool: () => false,
  int: () => 0,
  float: () => new fvc.Float(0),
  String: () => "",
  StringName: () => new fvc.StringName(""),
  NodePath: () => new fvc.NodePath(""),
  Vector2: () => new fvc.Vector2(),
  Vector2i: () => new fvc.Vector2i(),
  Vector3: () => new fvc.Vector3(),
  Vector3i: () => new fvc.Vector3i(),
  Vector4: () => new fvc.Vector4(),
  Vector4i: () => new fvc.Vector4i(),
  Quaternion: () => new fvc.Quaternion(),
  Color: () => new fvc.Color(),
  Rect2: () => new fvc.Rect2(),
  Rect2i: () => new fvc.Rect2i(),
  AABB: () => new fvc.AABB(),
  Plane: () => new fvc.Plane(),
  Transform2D: () => new fvc.Transform2D(),
  Basis: () => new fvc.Basis(),
  Transform3D: () => new fvc.Transform3D(),
  Projection: () => new fvc.Projection(),
  Array: () => [],
  Dictionary: () => ({}),
};

/** Whether a search text matches a leaf value. */
export function leafText(v, singleReals) {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint" || v instanceof fvc.Float) return summary(v, singleReals);
  if (v instanceof fvc.StringName) return v.name;
  if (v instanceof fvc.NodePath) return v.toString();
  if (kids(v)) return null;
  return summary(v, singleReals);
}
