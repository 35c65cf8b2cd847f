"""Godot's types as small immutable Python classes, and the package's exceptions.

Each class compares equal only to a value of the same class with equal fields (a Vector2 is
never equal to a Vector2i or a tuple), hashes accordingly (so it can be a dict key, as in Godot)
and has a repr that builds it again. Real components are Python floats: a single-precision
engine's binary32 components come widened, exactly.
"""

from __future__ import annotations

from array import array
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

__all__ = [
    "Vector2", "Vector2i", "Rect2", "Rect2i", "Vector3", "Vector3i", "Transform2D",
    "Vector4", "Vector4i", "Plane", "Quaternion", "AABB", "Basis", "Transform3D",
    "Projection", "Color", "StringName", "NodePath", "RID", "EncodedObjectAsID", "Object",
    "Callable", "Signal", "TypedArray", "TypedDictionary", "PackedStringArray",
    "PackedVector2Array", "PackedVector3Array", "PackedVector4Array", "PackedColorArray",
    "FastVarCodecError", "DecodeError", "EncodeError", "SaveFileError", "OutOfData",
]


class _Frozen:
    """Fields in ``__slots__``, set once; equality, hash and repr from them."""

    __slots__: Tuple[str, ...] = ()

    def _fields(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _set(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + self._fields())

    def __repr__(self) -> str:
        args = ", ".join(repr(v) for v in self._fields())
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), self._fields())


class _Components(_Frozen):
    """A math type of plain number components: iterable and indexable like a tuple."""

    __slots__ = ()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._fields())

    def __getitem__(self, index: int) -> Any:
        return self._fields()[index]

    def __len__(self) -> int:
        return len(self.__slots__)


class Vector2(_Components):
    """Vector2(x, y): real components."""

    __slots__ = ("x", "y")
    x: float
    y: float

    def __init__(self, x: float = 0.0, y: float = 0.0) -> None:
        self._set(x=float(x), y=float(y))


class Vector2i(_Components):
    """Vector2i(x, y): int32 components (Godot 4 and Pandemonium)."""

    __slots__ = ("x", "y")
    x: int
    y: int

    def __init__(self, x: int = 0, y: int = 0) -> None:
        self._set(x=int(x), y=int(y))


class Vector3(_Components):
    """Vector3(x, y, z): real components."""

    __slots__ = ("x", "y", "z")
    x: float
    y: float
    z: float

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0) -> None:
        self._set(x=float(x), y=float(y), z=float(z))


class Vector3i(_Components):
    """Vector3i(x, y, z): int32 components."""

    __slots__ = ("x", "y", "z")
    x: int
    y: int
    z: int

    def __init__(self, x: int = 0, y: int = 0, z: int = 0) -> None:
        self._set(x=int(x), y=int(y), z=int(z))


class Vector4(_Components):
    """Vector4(x, y, z, w): real components."""

    __slots__ = ("x", "y", "z", "w")
    x: float
    y: float
    z: float
    w: float

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0, w: float = 0.0) -> None:
        self._set(x=float(x), y=float(y), z=float(z), w=float(w))


class Vector4i(_Components):
    """Vector4i(x, y, z, w): int32 components."""

    __slots__ = ("x", "y", "z", "w")
    x: int
    y: int
    z: int
    w: int

    def __init__(self, x: int = 0, y: int = 0, z: int = 0, w: int = 0) -> None:
        self._set(x=int(x), y=int(y), z=int(z), w=int(w))


class Quaternion(_Components):
    """Quaternion(x, y, z, w); the identity by default."""

    __slots__ = ("x", "y", "z", "w")
    x: float
    y: float
    z: float
    w: float

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0, w: float = 1.0) -> None:
        self._set(x=float(x), y=float(y), z=float(z), w=float(w))


class Color(_Components):
    """Color(r, g, b, a): binary32 components in every precision (opaque black by default)."""

    __slots__ = ("r", "g", "b", "a")
    r: float
    g: float
    b: float
    a: float

    def __init__(self, r: float = 0.0, g: float = 0.0, b: float = 0.0, a: float = 1.0) -> None:
        self._set(r=float(r), g=float(g), b=float(b), a=float(a))


class Rect2(_Frozen):
    """Rect2(position, size) of Vector2s."""

    __slots__ = ("position", "size")
    position: Vector2
    size: Vector2

    def __init__(self, position: Vector2 = Vector2(), size: Vector2 = Vector2()) -> None:
        self._set(position=position, size=size)


class Rect2i(_Frozen):
    """Rect2i(position, size) of Vector2is."""

    __slots__ = ("position", "size")
    position: Vector2i
    size: Vector2i

    def __init__(self, position: Vector2i = Vector2i(), size: Vector2i = Vector2i()) -> None:
        self._set(position=position, size=size)


class AABB(_Frozen):
    """AABB(position, size) of Vector3s."""

    __slots__ = ("position", "size")
    position: Vector3
    size: Vector3

    def __init__(self, position: Vector3 = Vector3(), size: Vector3 = Vector3()) -> None:
        self._set(position=position, size=size)


class Plane(_Frozen):
    """Plane(normal, d)."""

    __slots__ = ("normal", "d")
    normal: Vector3
    d: float

    def __init__(self, normal: Vector3 = Vector3(), d: float = 0.0) -> None:
        self._set(normal=normal, d=float(d))


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


class Transform3D(_Frozen):
    """Transform3D(basis, origin) (Godot 3's Transform)."""

    __slots__ = ("basis", "origin")
    basis: Basis
    origin: Vector3

    def __init__(self, basis: Basis = Basis(), origin: Vector3 = Vector3()) -> None:
        self._set(basis=basis, origin=origin)


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

            names, subnames, absolute = _parse_node_path(path)
        self._set(names=tuple(names), subnames=tuple(subnames), absolute=bool(absolute))

    def __str__(self) -> str:
        text = ("/" if self.absolute else "") + "/".join(self.names)
        return text + "".join(":" + s for s in self.subnames)

    def __repr__(self) -> str:
        return f"NodePath({str(self)!r})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_node_path, self._fields())


def _node_path(names: Tuple[str, ...], subnames: Tuple[str, ...], absolute: bool) -> NodePath:
    return NodePath(names=names, subnames=subnames, absolute=absolute)


class RID(_Frozen):
    """RID(id): a resource id (0 for an empty RID; Godot 3 sends no id, so only 0 there)."""

    __slots__ = ("id",)
    id: int

    def __init__(self, id: int = 0) -> None:
        self._set(id=int(id))


class EncodedObjectAsID(_Frozen):
    """An object sent as its instance id (without full objects), as Godot's class of that
    name."""

    __slots__ = ("object_id",)
    object_id: int

    def __init__(self, object_id: int) -> None:
        self._set(object_id=int(object_id))


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


class Callable(_Frozen):
    """A Callable: the engine sends none of its target, so every one decodes as this empty one."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Callable()"


class Signal(_Frozen):
    """Signal(name, object_id): a signal's name and the instance id of its object."""

    __slots__ = ("name", "object_id")
    name: str
    object_id: int

    def __init__(self, name: str, object_id: int = 0) -> None:
        self._set(name=str(name), object_id=int(object_id))


ElementType = Optional[str]
"""A typed container's element, key or value type: a builtin type's Godot name (``"int"``,
``"String"``, ``"Vector2"`` ...), a class name (``"Node"``), a script's path (``"res://x.gd"``),
or None for untyped."""


def _check_element_type(name: Any) -> None:
    """A ``ValueError`` for a name that is no Godot type (``"str"``: did you mean
    ``"String"``?), as encoding would refuse it; None (untyped) and other objects pass here
    (encoding says what is wrong with them)."""
    if isinstance(name, str):
        from ._native import _check_type_name

        _check_type_name(name)


class TypedArray(_Frozen):
    """TypedArray(element_type, items): ``Array[int]`` is ``TypedArray("int", [1, 2])``.
    ``element_type`` as :data:`ElementType`; ``items`` a list. A plain Array is a list."""

    __slots__ = ("element_type", "items")
    element_type: ElementType
    items: List[Any]

    def __init__(self, element_type: ElementType, items: Optional[List[Any]] = None) -> None:
        _check_element_type(element_type)
        self._set(element_type=element_type, items=list(items or []))

    def __hash__(self) -> int:
        return hash(("TypedArray", self.element_type, _hashable(self.items)))

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    def __getitem__(self, index: int) -> Any:
        return self.items[index]


class TypedDictionary(_Frozen):
    """TypedDictionary(key_type, value_type, items): ``Dictionary[String, int]`` is
    ``TypedDictionary("String", "int", {"a": 1})``.

    Also what a Dictionary decodes to when a Python dict cannot hold its keys, typed or not
    (then ``key_type`` and ``value_type`` may be None): a key Python cannot hash (an Array, a
    Dictionary, a packed array) or keys Godot keeps apart and Python would merge (``1``, ``1.0``
    and ``True`` are one dict key, three Godot keys). ``items`` is then a list of (key, value)
    pairs in the Dictionary's order, with list keys as they came.
    """

    __slots__ = ("key_type", "value_type", "items")
    key_type: ElementType
    value_type: ElementType
    items: Union[Dict[Any, Any], List[Tuple[Any, Any]]]

    def __init__(
        self,
        key_type: ElementType,
        value_type: ElementType,
        items: Union[Dict[Any, Any], List[Tuple[Any, Any]], None] = None,
    ) -> None:
        _check_element_type(key_type)
        _check_element_type(value_type)
        if items is None:
            items = {}
        elif not isinstance(items, dict):
            items = [(k, v) for k, v in items]
        self._set(key_type=key_type, value_type=value_type, items=items)

    def pairs(self) -> List[Tuple[Any, Any]]:
        """The entries as (key, value) pairs, in order, whichever form ``items`` has."""
        return list(self.items.items()) if isinstance(self.items, dict) else list(self.items)

    def __hash__(self) -> int:
        return hash(("TypedDictionary", self.key_type, self.value_type, _hashable(self.pairs())))

    def __len__(self) -> int:
        return len(self.items)


def _hashable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple((_hashable(k), _hashable(v)) for k, v in value.items())
    if isinstance(value, array):
        return (value.typecode, value.tobytes())
    return value


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

    __slots__ = ("data",)
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

    def _fields(self) -> Tuple[Any, ...]:
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


class PackedVector2Array(_PackedVectors):
    """PackedVector2Array: ``data`` is an ``array('d')`` of x, y pairs; build it from Vector2s,
    pairs or a flat array."""

    __slots__ = ()
    _width = 2
    _element = Vector2


class PackedVector3Array(_PackedVectors):
    """PackedVector3Array: ``data`` is an ``array('d')`` of x, y, z triples."""

    __slots__ = ()
    _width = 3
    _element = Vector3


class PackedVector4Array(_PackedVectors):
    """PackedVector4Array (Godot 4.3+): ``data`` is an ``array('d')`` of x, y, z, w."""

    __slots__ = ()
    _width = 4
    _element = Vector4


class PackedColorArray(_PackedVectors):
    """PackedColorArray: ``data`` is an ``array('f')`` of r, g, b, a (binary32, as on the
    wire)."""

    __slots__ = ()
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
    from the start of the stream for a :class:`StreamDecoder`)."""

    def __init__(self, offset: int, godot_error: str, message: str) -> None:
        super().__init__(godot_error, message)
        self.offset = offset

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (self.offset, self.godot_error, self.message))


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
