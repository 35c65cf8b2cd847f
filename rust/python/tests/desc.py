"""The golden corpora's value descriptions (tests/golden/FORMAT.md) as the Python values the
package should give for them, written from FORMAT.md, independently of the package's own
conversion code."""

from __future__ import annotations

import io
import json
import re
import struct
import sys
from array import array
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import fast_var_codec as fvc

REPO = Path(__file__).resolve().parents[3]
GOLDEN = REPO / "tests" / "golden"
SAVES = REPO / "tests" / "saves"

sys.setrecursionlimit(100_000)

# Godot's Error constants the codec reports (@GlobalScope.Error).
ERROR_NAMES = {
    2: "ERR_UNAVAILABLE",
    4: "ERR_UNAUTHORIZED",
    6: "ERR_OUT_OF_MEMORY",
    15: "ERR_FILE_UNRECOGNIZED",
    16: "ERR_FILE_CORRUPT",
    18: "ERR_FILE_EOF",
    30: "ERR_INVALID_DATA",
    31: "ERR_INVALID_PARAMETER",
}

# Godot 4's type ids, for typed containers' {"kind": "builtin", "type": id}.
TYPE_NAMES = [
    "Nil", "bool", "int", "float", "String", "Vector2", "Vector2i", "Rect2", "Rect2i",
    "Vector3", "Vector3i", "Transform2D", "Vector4", "Vector4i", "Plane", "Quaternion", "AABB",
    "Basis", "Transform3D", "Projection", "Color", "StringName", "NodePath", "RID", "Object",
    "Callable", "Signal", "Dictionary", "Array", "PackedByteArray", "PackedInt32Array",
    "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array", "PackedStringArray",
    "PackedVector2Array", "PackedVector3Array", "PackedColorArray", "PackedVector4Array",
]


def load(name: str) -> Dict[str, Any]:
    return json.loads((GOLDEN / name).read_text())


class NotText(Exception):
    """A text that is not valid UTF-8: no Python str holds it as the engine had it."""


def text(h: str) -> str:
    try:
        return bytes.fromhex(h).decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotText(h) from e


def f(h: str) -> float:
    return struct.unpack("<d", bytes.fromhex(h))[0]


def reals(j: Dict[str, Any]) -> List[float]:
    return [f(x) for x in j["v"]]


def le(h: str, code: str) -> "array[Any]":
    a = array(code, bytes.fromhex(h))
    if sys.byteorder == "big":
        a.byteswap()
    return a


def typed(j: Optional[Dict[str, Any]]) -> Optional[str]:
    if j is None:
        return None
    kind = j["kind"]
    if kind == "builtin":
        return "" if j["type"] == 24 else TYPE_NAMES[j["type"]]
    if kind == "class":
        return text(j["name"])
    return text(j["path"])


def vec(cls: Any, c: List[Any]) -> Any:
    return cls(*c)


def value_of(j: Dict[str, Any]) -> Any:
    """The Python value a Desc describes (the package's type mapping, docs/python.md)."""
    t = j["t"]
    if t == "nil":
        return None
    if t == "bool":
        return bool(j["v"])
    if t == "int":
        return int(j["v"])
    if t == "float":
        return f(j["v"])
    if t == "string":
        return text(j["v"])
    if t == "string_name":
        return fvc.StringName(text(j["v"]))
    if t in ("vector2", "vector3", "vector4", "quaternion", "color"):
        cls = {"vector2": fvc.Vector2, "vector3": fvc.Vector3, "vector4": fvc.Vector4,
               "quaternion": fvc.Quaternion, "color": fvc.Color}[t]
        return cls(*reals(j))
    if t in ("vector2i", "vector3i", "vector4i"):
        cls = {"vector2i": fvc.Vector2i, "vector3i": fvc.Vector3i, "vector4i": fvc.Vector4i}[t]
        return cls(*j["v"])
    if t == "rect2":
        c = reals(j)
        return fvc.Rect2(fvc.Vector2(*c[:2]), fvc.Vector2(*c[2:]))
    if t == "rect2i":
        c = j["v"]
        return fvc.Rect2i(fvc.Vector2i(*c[:2]), fvc.Vector2i(*c[2:]))
    if t == "transform2d":
        c = reals(j)
        return fvc.Transform2D(fvc.Vector2(*c[0:2]), fvc.Vector2(*c[2:4]), fvc.Vector2(*c[4:6]))
    if t == "plane":
        c = reals(j)
        return fvc.Plane(fvc.Vector3(*c[:3]), c[3])
    if t == "aabb":
        c = reals(j)
        return fvc.AABB(fvc.Vector3(*c[:3]), fvc.Vector3(*c[3:]))
    if t == "basis":
        return basis(reals(j))
    if t == "transform3d":
        c = reals(j)
        return fvc.Transform3D(basis(c[:9]), fvc.Vector3(*c[9:]))
    if t == "projection":
        c = reals(j)
        return fvc.Projection(*(fvc.Vector4(*c[i:i + 4]) for i in range(0, 16, 4)))
    if t == "node_path":
        return fvc.NodePath(
            names=tuple(text(n) for n in j["names"]),
            subnames=tuple(text(n) for n in j["subnames"]),
            absolute=j["absolute"],
        )
    if t == "rid":
        return fvc.RID(int(j["v"]))
    if t == "object_id":
        return fvc.EncodedObjectAsID(int(j["v"]))
    if t == "object":
        return fvc.Object(text(j["class"]), {text(k): value_of(v) for k, v in j["props"]})
    if t == "callable":
        return fvc.Callable()
    if t == "signal":
        return fvc.Signal(text(j["name"]), int(j["object"]))
    if t == "array":
        items = [value_of(i) for i in j["items"]]
        element = typed(j.get("typed"))
        return items if element is None else fvc.TypedArray(element, items)
    if t == "dictionary":
        pairs = [(value_of(k), value_of(v)) for k, v in j["entries"]]
        kt, vt = typed(j.get("key_typed")), typed(j.get("value_typed"))
        d: Dict[Any, Any] = {}
        try:
            for k, v in pairs:
                d[k] = v
            fits = len(d) == len(pairs)
        except TypeError:
            fits = False
        if fits and kt is None and vt is None:
            return d
        return fvc.TypedDictionary(kt, vt, d if fits else pairs)
    if t == "packed_byte_array":
        return bytes.fromhex(j["v"])
    if t == "packed_int32_array":
        return le(j["v"], "i")
    if t == "packed_int64_array":
        return le(j["v"], "q")
    if t == "packed_float32_array":
        return le(j["v"], "f")
    if t == "packed_float64_array":
        return le(j["v"], "d")
    if t == "packed_string_array":
        return fvc.PackedStringArray([text(s) for s in j["v"]])
    if t in ("packed_vector2_array", "packed_vector3_array", "packed_vector4_array"):
        cls = {"packed_vector2_array": fvc.PackedVector2Array,
               "packed_vector3_array": fvc.PackedVector3Array,
               "packed_vector4_array": fvc.PackedVector4Array}[t]
        return cls(array("d", real_ts(j["v"])))
    if t == "packed_color_array":
        return fvc.PackedColorArray(le(j["v"], "f"))
    if t in ("packed_vector2i_array", "packed_vector3i_array", "packed_vector4i_array"):
        n, cls, name = {"packed_vector2i_array": (2, fvc.Vector2i, "Vector2i"),
                        "packed_vector3i_array": (3, fvc.Vector3i, "Vector3i"),
                        "packed_vector4i_array": (4, fvc.Vector4i, "Vector4i")}[t]
        c = le(j["v"], "i")
        return fvc.TypedArray(name, [cls(*c[i:i + n]) for i in range(0, len(c), n)])
    raise ValueError(f"unknown desc type {t}")


DOUBLE = False
"""Whether the corpus being read is of a double-precision build (its vector arrays' components
are binary64 then)."""


def real_ts(h: str) -> List[float]:
    return list(le(h, "d" if DOUBLE else "f"))


def basis(c: List[float]) -> Any:
    # The wire's rows; the class holds the axes (columns).
    return fvc.Basis(
        fvc.Vector3(c[0], c[3], c[6]), fvc.Vector3(c[1], c[4], c[7]), fvc.Vector3(c[2], c[5], c[8])
    )


def known_divergences() -> List[Tuple[str, str, str]]:
    """rust/codec/tests/golden.rs's KNOWN_DIVERGENCES: (corpus file prefix, part, case name
    prefix) where the engine-free model knowingly differs from the engine, read from the Rust
    test so that the list lives once."""
    src = (REPO / "rust" / "codec" / "tests" / "golden.rs").read_text()
    table = src[src.index("const KNOWN_DIVERGENCES"):]
    table = table[: table.index("\n];")]
    return re.findall(r'\(\s*"([^"]+)",\s*"(cases|malformed inputs)",\s*"([^"]+)"', table)


def narrow(v: Any) -> Any:
    """``v`` as a single-precision engine holds it: real components of the math types and
    packed vector arrays rounded to binary32 (floats stay binary64)."""
    def r(x: float) -> float:
        return struct.unpack("<f", struct.pack("<f", x))[0] if x == x else x

    cls = type(v)
    if cls in (fvc.Vector2, fvc.Vector3, fvc.Vector4, fvc.Quaternion):
        return cls(*(r(c) for c in v))
    if cls in (fvc.Rect2, fvc.AABB):
        return cls(narrow(v.position), narrow(v.size))
    if cls is fvc.Plane:
        return fvc.Plane(narrow(v.normal), r(v.d))
    if cls is fvc.Transform2D:
        return fvc.Transform2D(narrow(v.x), narrow(v.y), narrow(v.origin))
    if cls is fvc.Basis:
        return fvc.Basis(narrow(v.x), narrow(v.y), narrow(v.z))
    if cls is fvc.Transform3D:
        return fvc.Transform3D(narrow(v.basis), narrow(v.origin))
    if cls is fvc.Projection:
        return fvc.Projection(narrow(v.x), narrow(v.y), narrow(v.z), narrow(v.w))
    if cls in (fvc.PackedVector2Array, fvc.PackedVector3Array, fvc.PackedVector4Array):
        return cls(array("d", (r(c) for c in v.data)))
    if cls is list:
        return [narrow(i) for i in v]
    if cls is dict:
        return {narrow(k): narrow(x) for k, x in v.items()}
    if cls is fvc.TypedArray:
        return fvc.TypedArray(v.element_type, narrow(v.items))
    if cls is fvc.TypedDictionary:
        return fvc.TypedDictionary(
            v.key_type, v.value_type, [(narrow(k), narrow(x)) for k, x in v.pairs()]
        )
    return v


def classes_only(v: Any) -> Any:
    """Full objects reduced to their class: a decoding engine lists every stored property of
    the live instance, the engine-free model the wire's."""
    if isinstance(v, fvc.Object):
        return fvc.Object(v.class_name, {})
    if isinstance(v, list):
        return [classes_only(i) for i in v]
    if isinstance(v, dict):
        return {classes_only(k): classes_only(x) for k, x in v.items()}
    if isinstance(v, fvc.TypedArray):
        return fvc.TypedArray(v.element_type, classes_only(v.items))
    if isinstance(v, fvc.TypedDictionary):
        return fvc.TypedDictionary(
            v.key_type, v.value_type, [(classes_only(k), classes_only(x)) for k, x in v.pairs()]
        )
    return v


def has_object(j: Any) -> bool:
    if isinstance(j, dict):
        return j.get("t") == "object" or any(has_object(x) for x in j.values())
    if isinstance(j, list):
        return any(has_object(x) for x in j)
    return False


def has_node_path(j: Any) -> bool:
    if isinstance(j, dict):
        return j.get("t") == "node_path" or any(has_node_path(x) for x in j.values())
    if isinstance(j, list):
        return any(has_node_path(x) for x in j)
    return False


def canon(v: Any) -> Any:
    """A form of ``v`` that compares as the codec does: floats bit for bit (a NaN equals the
    same NaN, 0.0 differs from -0.0), containers in order, objects by content."""
    if isinstance(v, float):
        return ("f", struct.pack("<d", v))
    if isinstance(v, (bool, int, str, bytes)) or v is None:
        return (type(v).__name__, v)
    if isinstance(v, list):
        return ("list", tuple(canon(i) for i in v))
    if isinstance(v, dict):
        return ("dict", tuple((canon(k), canon(x)) for k, x in v.items()))
    if isinstance(v, array):
        return ("array", v.typecode, v.tobytes())
    if isinstance(v, fvc.TypedDictionary):
        return ("TypedDictionary", v.key_type, v.value_type, canon(v.pairs()))
    if isinstance(v, tuple):
        return ("tuple", tuple(canon(i) for i in v))
    if isinstance(v, fvc.PackedStringArray):
        return ("PackedStringArray", v.strings)
    if isinstance(v, fvc.TypedArray):
        return ("TypedArray", v.element_type, canon(v.items))
    if hasattr(v, "__slots__") and hasattr(v, "_values"):
        return (type(v).__name__, canon(list(v._values())))
    raise TypeError(f"no canonical form for {type(v)}")


def same(a: Any, b: Any) -> bool:
    return canon(a) == canon(b)


def encode_file(values: Any, **options: Any) -> bytes:
    """The bytes :func:`fast_var_codec.write_file` writes for ``values``, as a user gets them
    (a binary file object)."""
    out = io.BytesIO()
    fvc.write_file(out, values, **options)
    return out.getvalue()
