// What both entries export besides their functions (index.js, the whole package; codec.js, the
// codec alone): the value classes and the errors, one module each, so that a value or an error
// of one entry is an instance of the other's classes.

export {
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
  TypedArray,
  TypedDictionary,
  PackedStringArray,
  PackedVector2Array,
  PackedVector3Array,
  PackedVector4Array,
  PackedColorArray,
} from "./types.js";
export { FastVarCodecError, DecodeError, EncodeError, SaveFileError, JSONError } from "./errors.js";
