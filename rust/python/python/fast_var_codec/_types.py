"""Godot's types as small immutable Python classes, and the package's exceptions.

Each class compares equal only to a value of the same class with equal fields (a Vector2 is
never equal to a Vector2i or a tuple), hashes accordingly (so it can be a dict key, as in Godot)
and has a repr that builds it again. Real components are Python floats: a single-precision
engine's binary32 components come widened, exactly.
"""

from __future__ import annotations

import math
from array import array
from typing import Any, Dict, Iterator, Optional, Tuple

from ._frozen import _Arithmetic, _Frozen, _RealVector, _Vector, public

__all__ = [
    "Vector2", "Vector2i", "Rect2", "Rect2i", "Vector3", "Vector3i", "Transform2D",
    "Vector4", "Vector4i", "Plane", "Quaternion", "AABB", "Basis", "Transform3D",
    "Projection", "Color", "StringName", "NodePath", "RID", "EncodedObjectAsID", "Object",
    "Callable", "Signal", "PackedStringArray",
    "PackedVector2Array", "PackedVector3Array", "PackedVector4Array", "PackedColorArray",
    "FastVarCodecError", "DecodeError", "ExtraData", "EncodeError", "SaveFileError", "OutOfData",
]


@public()
class Vector2(_RealVector):
    """Vector2(x, y): real components."""

    __slots__ = ("x", "y")
    x: float
    y: float

    def __init__(self, x: float = 0.0, y: float = 0.0) -> None:
        self._set(x=float(x), y=float(y))


@public()
class Vector2i(_Vector):
    """Vector2i(x, y): int32 components (Godot 4 and Pandemonium)."""

    __slots__ = ("x", "y")
    _integer = True
    x: int
    y: int

    def __init__(self, x: int = 0, y: int = 0) -> None:
        self._set(x=int(x), y=int(y))


@public()
class Vector3(_RealVector):
    """Vector3(x, y, z): real components."""

    __slots__ = ("x", "y", "z")
    x: float
    y: float
    z: float

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0) -> None:
        self._set(x=float(x), y=float(y), z=float(z))


@public()
class Vector3i(_Vector):
    """Vector3i(x, y, z): int32 components."""

    __slots__ = ("x", "y", "z")
    _integer = True
    x: int
    y: int
    z: int

    def __init__(self, x: int = 0, y: int = 0, z: int = 0) -> None:
        self._set(x=int(x), y=int(y), z=int(z))


@public()
class Vector4(_RealVector):
    """Vector4(x, y, z, w): real components."""

    __slots__ = ("x", "y", "z", "w")
    x: float
    y: float
    z: float
    w: float

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0, w: float = 0.0) -> None:
        self._set(x=float(x), y=float(y), z=float(z), w=float(w))


@public()
class Vector4i(_Vector):
    """Vector4i(x, y, z, w): int32 components."""

    __slots__ = ("x", "y", "z", "w")
    _integer = True
    x: int
    y: int
    z: int
    w: int

    def __init__(self, x: int = 0, y: int = 0, z: int = 0, w: int = 0) -> None:
        self._set(x=int(x), y=int(y), z=int(z), w=int(w))


@public()
class Quaternion(_Arithmetic):
    """Quaternion(x, y, z, w); the identity by default. ``+``, ``-``, ``*`` and ``/`` by a
    number, ``*`` by a Quaternion (their composition, as Godot's), ``length()``, ``dot()``,
    ``normalized()``."""

    __slots__ = ("x", "y", "z", "w")
    x: float
    y: float
    z: float
    w: float

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0, w: float = 1.0) -> None:
        self._set(x=float(x), y=float(y), z=float(z), w=float(w))

    def __mul__(self, other: Any) -> Any:
        if type(other) is not Quaternion:
            return _Arithmetic.__mul__(self, other)
        x1, y1, z1, w1 = self
        x2, y2, z2, w2 = other
        return Quaternion(
            w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 + y1 * w2 + z1 * x2 - x1 * z2,
            w1 * z2 + z1 * w2 + x1 * y2 - y1 * x2,
            w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        )

    def __truediv__(self, other: Any) -> Any:
        if type(other) is Quaternion:
            return NotImplemented
        return _Arithmetic.__truediv__(self, other)

    length_squared = _RealVector.length_squared
    length = _RealVector.length
    dot = _RealVector.dot
    normalized = _RealVector.normalized


@public()
class Color(_Arithmetic):
    """Color(r, g, b, a): binary32 components in every precision (opaque black by default).
    ``+``, ``-``, ``*``, ``/`` componentwise or by a number, ``lerp()``; unary ``-`` is Godot's
    inverse, ``Color(1 - r, 1 - g, 1 - b, 1 - a)``."""

    __slots__ = ("r", "g", "b", "a")
    r: float
    g: float
    b: float
    a: float

    def __init__(self, r: float = 0.0, g: float = 0.0, b: float = 0.0, a: float = 1.0) -> None:
        self._set(r=float(r), g=float(g), b=float(b), a=float(a))

    def __neg__(self) -> "Color":
        return Color(1.0 - self.r, 1.0 - self.g, 1.0 - self.b, 1.0 - self.a)

    __mul__ = _RealVector.__mul__
    __rmul__ = _RealVector.__rmul__
    __truediv__ = _RealVector.__truediv__
    lerp = _RealVector.lerp


Vector2i._real_type = Vector2
Vector3i._real_type = Vector3
Vector4i._real_type = Vector4


@public()
class Rect2(_Frozen):
    """Rect2(position, size) of Vector2s."""

    __slots__ = ("position", "size")
    position: Vector2
    size: Vector2

    def __init__(self, position: Vector2 = Vector2(), size: Vector2 = Vector2()) -> None:
        self._set(position=position, size=size)


@public()
class Rect2i(_Frozen):
    """Rect2i(position, size) of Vector2is."""

    __slots__ = ("position", "size")
    position: Vector2i
    size: Vector2i

    def __init__(self, position: Vector2i = Vector2i(), size: Vector2i = Vector2i()) -> None:
        self._set(position=position, size=size)


@public()
class AABB(_Frozen):
    """AABB(position, size) of Vector3s."""

    __slots__ = ("position", "size")
    position: Vector3
    size: Vector3

    def __init__(self, position: Vector3 = Vector3(), size: Vector3 = Vector3()) -> None:
        self._set(position=position, size=size)


@public()
class Plane(_Frozen):
    """Plane(normal, d)."""

    __slots__ = ("normal", "d")
    normal: Vector3
    d: float

    def __init__(self, normal: Vector3 = Vector3(), d: float = 0.0) -> None:
        self._set(normal=normal, d=float(d))


@public()
class Transform2D(_Frozen):
    """Transform2D(x, y, origin): the x and y axes (columns) and the origin, as in GDScript."""

    __slots__ = ("x", "y", "origin")
    x: Vector2
    y: Vector2
    origin: Vector2

    def __init__(
        self,
        x: Vector2 = Vector2(1.0, 0.0),
        y: Vector2 = Vector2(0.0, 1.0),
        origin: Vector2 = Vector2(),
    ) -> None:
        self._set(x=x, y=y, origin=origin)


@public()
class Basis(_Frozen):
    """Basis(x, y, z): the three axes (columns), as GDScript's ``Basis(x, y, z)``; the identity
    by default. (The wire holds the rows; the codec transposes.)"""

    __slots__ = ("x", "y", "z")
    x: Vector3
    y: Vector3
    z: Vector3

    def __init__(
        self,
        x: Vector3 = Vector3(1.0, 0.0, 0.0),
        y: Vector3 = Vector3(0.0, 1.0, 0.0),
        z: Vector3 = Vector3(0.0, 0.0, 1.0),
    ) -> None:
        self._set(x=x, y=y, z=z)


@public()
class Transform3D(_Frozen):
    """Transform3D(basis, origin) (Godot 3's Transform)."""

    __slots__ = ("basis", "origin")
    basis: Basis
    origin: Vector3

    def __init__(self, basis: Basis = Basis(), origin: Vector3 = Vector3()) -> None:
        self._set(basis=basis, origin=origin)


@public()
class Projection(_Frozen):
    """Projection(x, y, z, w): four Vector4 columns, as GDScript's; the identity by default."""

    __slots__ = ("x", "y", "z", "w")
    x: Vector4
    y: Vector4
    z: Vector4
    w: Vector4

    def __init__(
        self,
        x: Vector4 = Vector4(1.0, 0.0, 0.0, 0.0),
        y: Vector4 = Vector4(0.0, 1.0, 0.0, 0.0),
        z: Vector4 = Vector4(0.0, 0.0, 1.0, 0.0),
        w: Vector4 = Vector4(0.0, 0.0, 0.0, 1.0),
    ) -> None:
        self._set(x=x, y=y, z=z, w=w)


@public()
class StringName(_Frozen):
    """StringName(name): GDScript's ``&"name"``. Never equal to the str of the same text (Python
    keeps the two apart; Godot 4 merges them as Dictionary keys on decode, the codec does that
    before Python sees the keys). Godot 3 has none and writes a String."""

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        self._set(name=str(name))

    def __str__(self) -> str:
        return self.name


@public()
class NodePath(_Frozen):
    """NodePath(path): ``NodePath("/root/Player:position:x")``. ``names``, ``subnames`` and
    ``absolute`` are its parts, as the codec reads them (the text is parsed by the core)."""

    __slots__ = ("names", "subnames", "absolute")
    names: Tuple[str, ...]
    subnames: Tuple[str, ...]
    absolute: bool

    def __init__(
        self,
        path: str = "",
        *,
        names: Optional[Tuple[str, ...]] = None,
        subnames: Tuple[str, ...] = (),
        absolute: bool = False,
    ) -> None:
        if names is None:
            from ._native import _parse_node_path

            parsed_names, parsed_subnames, absolute = _parse_node_path(path)
            names, subnames = tuple(parsed_names), tuple(parsed_subnames)
        self._set(names=tuple(names), subnames=tuple(subnames), absolute=bool(absolute))

    def __str__(self) -> str:
        text = ("/" if self.absolute else "") + "/".join(self.names)
        return text + "".join(":" + s for s in self.subnames)

    def __repr__(self) -> str:
        return f"NodePath({str(self)!r})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_node_path, self._values())


def _node_path(names: Tuple[str, ...], subnames: Tuple[str, ...], absolute: bool) -> NodePath:
    return NodePath(names=names, subnames=subnames, absolute=absolute)


@public()
class RID(_Frozen):
    """RID(id): a resource id (0 for an empty RID; Godot 3 sends no id, so only 0 there)."""

    __slots__ = ("id",)
    id: int

    def __init__(self, id: int = 0) -> None:
        self._set(id=int(id))


@public()
class EncodedObjectAsID(_Frozen):
    """An object sent as its instance id (without full objects), as Godot's class of that
    name."""

    __slots__ = ("object_id",)
    object_id: int

    def __init__(self, object_id: int) -> None:
        self._set(object_id=int(object_id))


@public()
class Object(_Frozen):
    """A full object (``var_to_bytes_with_objects``): its class name and properties in wire
    order. Decoded only with ``allow_objects=True`` (and the class in ``allowed_classes`` when
    that is given); encoded only with ``full_objects=True``."""

    __slots__ = ("class_name", "properties")
    class_name: str
    properties: Dict[str, Any]

    def __init__(self, class_name: str, properties: Optional[Dict[str, Any]] = None) -> None:
        self._set(class_name=str(class_name), properties=dict(properties or {}))

    # Its properties are a dict, so it is not hashable: a Dictionary with Object keys comes
    # as a TypedDictionary of pairs (Godot never merges objects as keys either).
    __hash__ = None  # type: ignore[assignment]


@public()
class Callable(_Frozen):
    """A Callable: the engine sends none of its target, so every one decodes as this empty one."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Callable()"


@public()
class Signal(_Frozen):
    """Signal(name, object_id): a signal's name and the instance id of its object."""

    __slots__ = ("name", "object_id")
    name: str
    object_id: int

    def __init__(self, name: str, object_id: int = 0) -> None:
        self._set(name=str(name), object_id=int(object_id))


@public()
class PackedStringArray(_Frozen):
    """PackedStringArray(strings): a tuple of str (a list of str is an Array)."""

    __slots__ = ("strings",)
    strings: Tuple[str, ...]

    def __init__(self, strings: Any = ()) -> None:
        self._set(strings=tuple(str(s) for s in strings))

    def __len__(self) -> int:
        return len(self.strings)

    def __iter__(self) -> Iterator[str]:
        return iter(self.strings)

    def __getitem__(self, index: int) -> str:
        return self.strings[index]


class _PackedVectors(_Frozen):
    """Vectors as one flat ``array.array`` of their components (no Python object per element):
    ``data[i * n + k]`` is component ``k`` of element ``i``. Indexing builds one element."""

    __slots__ = ()  # each class lists ``data`` in its own, the slots it has once made public
    data: "array[float]"
    _width = 2
    _typecode = "d"
    _element: Any = None

    def __init__(self, data: Any = ()) -> None:
        if isinstance(data, array) and data.typecode == self._typecode:
            flat = array(self._typecode, data)
        else:
            items = list(data)
            if items and not isinstance(items[0], (int, float)):
                flat = array(self._typecode, [c for item in items for c in item])
            else:
                flat = array(self._typecode, items)
        if len(flat) % self._width:
            raise ValueError(
                f"{type(self).__name__} needs a multiple of {self._width} components, "
                f"got {len(flat)}"
            )
        self._set(data=flat)

    def _values(self) -> Tuple[Any, ...]:
        return (self.data.tobytes(),)

    def __len__(self) -> int:
        return len(self.data) // self._width

    def __getitem__(self, index: int) -> Any:
        n = self._width
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._element(*self.data[index * n : index * n + n])

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.data,))


@public()
class PackedVector2Array(_PackedVectors):
    """PackedVector2Array: ``data`` is an ``array('d')`` of x, y pairs; build it from Vector2s,
    pairs or a flat array."""

    __slots__ = ("data",)
    _width = 2
    _element = Vector2


@public()
class PackedVector3Array(_PackedVectors):
    """PackedVector3Array: ``data`` is an ``array('d')`` of x, y, z triples."""

    __slots__ = ("data",)
    _width = 3
    _element = Vector3


@public()
class PackedVector4Array(_PackedVectors):
    """PackedVector4Array (Godot 4.3+): ``data`` is an ``array('d')`` of x, y, z, w."""

    __slots__ = ("data",)
    _width = 4
    _element = Vector4


@public()
class PackedColorArray(_PackedVectors):
    """PackedColorArray: ``data`` is an ``array('f')`` of r, g, b, a (binary32, as on the
    wire)."""

    __slots__ = ("data",)
    _width = 4
    _typecode = "f"
    _element = Color


class FastVarCodecError(ValueError):
    """Any error of this package: ``godot_error`` is the Godot ``Error`` constant's name the
    engine reports for the same input (``"ERR_INVALID_DATA"`` ...), ``message`` says why."""

    def __init__(self, godot_error: str, message: str) -> None:
        super().__init__(f"{message} ({godot_error})")
        self.godot_error = godot_error
        self.message = message


class DecodeError(FastVarCodecError):
    """Bytes that do not decode: ``offset`` is the byte of the input where it failed (counted
    from the start of the stream for a :class:`StreamDecoder`). ``dialects`` is empty, or, for
    bytes read without a dialect that engines of different families read as different values
    (a Godot 3 Color is a Godot 4 Plane), those families' dialects (``("godot4", "godot3")``):
    pass the one that wrote them."""

    def __init__(
        self, offset: int, godot_error: str, message: str, dialects: Tuple[str, ...] = ()
    ) -> None:
        super().__init__(godot_error, message)
        self.offset = offset
        self.dialects = tuple(dialects)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.offset, self.godot_error, self.message, self.dialects))


class ExtraData(DecodeError):
    """From :func:`decode`: bytes follow the value, as from msgpack's ``unpackb``. ``unpacked``
    is the value, ``extra`` the bytes after it, and ``offset`` where they start; the message
    says whether the bytes read whole as one value of another dialect. :func:`decode_with_size`
    returns a value and its size, for input that holds more after it."""

    def __init__(
        self, offset: int, godot_error: str, message: str, unpacked: Any, extra: bytes
    ) -> None:
        super().__init__(offset, godot_error, message)
        self.unpacked = unpacked
        self.extra = extra

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self),
                (self.offset, self.godot_error, self.message, self.unpacked, self.extra))


class EncodeError(FastVarCodecError):
    """A value that cannot be encoded as asked: ``path`` says where inside it (``"[2].pos"``,
    empty for the value itself)."""

    def __init__(self, path: str, godot_error: str, message: str) -> None:
        super().__init__(godot_error, message)
        self.path = path

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.path, self.godot_error, self.message))


class OutOfData(Exception):
    """From :meth:`StreamDecoder.next_value`: no complete value has arrived yet (feed more).
    Not a failure, and not :class:`FastVarCodecError`: a Godot ``null`` message is ``None``,
    nothing yet is this (as msgpack's ``Unpacker.unpack`` raises ``OutOfData``)."""


class SaveFileError(FastVarCodecError):
    """A save file's container that cannot be read: not one, cut short, damaged, a wrong
    password or key (``ERR_FILE_CORRUPT``), or one is needed (``ERR_UNAUTHORIZED``)."""

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.godot_error, self.message))
