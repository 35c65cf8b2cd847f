"""Godot's typed containers as Python's mutable ones: ``TypedArray`` is a
``collections.abc.MutableSequence``, ``TypedDictionary`` a ``collections.abc.MutableMapping``.

As in Godot 4.6.3 (``[1, 2] == typed`` is true there), they compare equal to a plain list or
mapping with equal items, whatever their element types; they are not hashable (a list is not).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping, MutableMapping, MutableSequence
from typing import Any, Callable, Dict, List, Optional, Tuple, Union, overload

from . import _types
from ._frozen import _Frozen, public

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


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _builtin_checks() -> Dict[str, Callable[[Any], bool]]:
    t = _types
    by_class: Dict[str, Any] = {
        "bool": bool, "String": str, "Vector2": t.Vector2, "Vector2i": t.Vector2i,
        "Rect2": t.Rect2, "Rect2i": t.Rect2i, "Vector3": t.Vector3, "Vector3i": t.Vector3i,
        "Transform2D": t.Transform2D, "Vector4": t.Vector4, "Vector4i": t.Vector4i,
        "Plane": t.Plane, "Quaternion": t.Quaternion, "AABB": t.AABB, "Basis": t.Basis,
        "Transform3D": t.Transform3D, "Projection": t.Projection, "Color": t.Color,
        "StringName": t.StringName, "NodePath": t.NodePath, "RID": t.RID,
        "Callable": t.Callable, "Signal": t.Signal, "Dictionary": (dict, TypedDictionary),
        "Array": (list, tuple, TypedArray), "PackedStringArray": t.PackedStringArray,
        "PackedVector2Array": t.PackedVector2Array, "PackedVector3Array": t.PackedVector3Array,
        "PackedVector4Array": t.PackedVector4Array, "PackedColorArray": t.PackedColorArray,
        "PackedByteArray": (bytes, bytearray, memoryview),
    }
    checks: Dict[str, Callable[[Any], bool]] = {
        name: (lambda cls: lambda v: isinstance(v, cls))(cls) for name, cls in by_class.items()
    }
    checks["int"] = _is_int
    checks["float"] = lambda v: isinstance(v, float)
    for name, code in [("PackedInt32Array", "i"), ("PackedInt64Array", "q"),
                       ("PackedFloat32Array", "f"), ("PackedFloat64Array", "d")]:
        checks[name] = (lambda c: lambda v: isinstance(v, array) and v.typecode == c)(code)
    return checks


_CHECKS: Dict[str, Callable[[Any], bool]] = {}


def _checked(type_name: ElementType, value: Any, where: str) -> Any:
    """``value`` as a container typed ``type_name`` holds it: an int as a float for ``"float"``
    (Godot converts it so); a ``TypeError`` saying what was expected for another builtin type.
    Class-typed and script-typed containers are checked when encoded."""
    if type_name is None:
        return value
    if not _CHECKS:
        _CHECKS.update(_builtin_checks())
    check = _CHECKS.get(type_name)
    if check is None or check(value):
        return value
    if type_name == "float" and _is_int(value):
        return float(value)
    raise TypeError(f"{where} holds {type_name}, not {type(value).__name__} ({value!r})")


@public(MutableSequence)
class TypedArray(_Frozen, MutableSequence):  # type: ignore[type-arg]
    """TypedArray(element_type, items): ``Array[int]`` is ``TypedArray("int", [1, 2])``.
    ``element_type`` as :data:`ElementType`; ``items`` a list (a plain Array is a list).

    A mutable sequence, as a list: index, slice, ``append``, ``insert``, ``extend``, ``del``.
    An item added so is checked against a builtin element type (a ``TypeError`` naming both;
    an int becomes a float in ``Array[float]``, as in Godot); the items given to the
    constructor, and class-typed items, are checked when encoded (``EncodeError`` with the
    path). It equals a list or another TypedArray with equal items, as in Godot
    (``TypedArray("int", [1, 2]) == [1, 2]``)."""

    __slots__ = ("element_type", "items")
    element_type: ElementType
    items: List[Any]

    def __init__(self, element_type: ElementType, items: Optional[Iterable[Any]] = None) -> None:
        _check_element_type(element_type)
        self._set(element_type=element_type, items=list(items or []))

    def _check(self, value: Any) -> Any:
        return _checked(self.element_type, value, f"Array[{self.element_type}]")

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> List[Any]: ...
    def __getitem__(self, index: Union[int, slice]) -> Any:
        return self.items[index]

    @overload
    def __setitem__(self, index: int, value: Any) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[Any]) -> None: ...
    def __setitem__(self, index: Union[int, slice], value: Any) -> None:
        if isinstance(index, slice):
            self.items[index] = [self._check(v) for v in value]
        else:
            self.items[index] = self._check(value)

    def __delitem__(self, index: Union[int, slice]) -> None:
        del self.items[index]

    # The list methods take their arguments by position only, as a list's do.
    def insert(self, index: int, value: Any, /) -> None:
        """Inserts ``value`` before ``index``, checked against the element type."""
        self.items.insert(index, self._check(value))

    def append(self, value: Any, /) -> None:
        """Adds ``value`` at the end, checked against the element type."""
        self.items.append(self._check(value))

    def extend(self, values: Iterable[Any], /) -> None:
        """Adds ``values`` at the end, each checked against the element type first: one that
        does not fit adds none."""
        self.items.extend([self._check(v) for v in values])

    def pop(self, index: int = -1, /) -> Any:
        """Removes and returns the item at ``index`` (the last by default)."""
        return self.items.pop(index)

    def remove(self, value: Any, /) -> None:
        """Removes the first item equal to ``value`` (a ``ValueError`` if none is)."""
        self.items.remove(value)

    def index(self, value: Any, start: int = 0, stop: int = sys.maxsize, /) -> int:
        """The index of the first item equal to ``value`` in ``[start:stop]`` (a
        ``ValueError`` if none is)."""
        return self.items.index(value, start, stop)

    def count(self, value: Any, /) -> int:
        """How many items equal ``value``."""
        return self.items.count(value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TypedArray):
            return self.items == other.items
        if isinstance(other, list):
            return self.items == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TypedArray({self.element_type!r}, {self.items!r})"


class _NoDefault:
    """``TypedDictionary.pop``'s default when none is given: a missing key raises."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<no default>"


_NO_DEFAULT: Any = _NoDefault()


def _token(key: Any) -> Any:
    """What tells Godot's keys apart: the value and its type (``1``, ``1.0`` and ``True`` are
    three keys), containers by their items."""
    if isinstance(key, (list, tuple, TypedArray)):
        return ("Array", tuple(_token(k) for k in key))
    if isinstance(key, TypedDictionary):
        return ("Dictionary", tuple((_token(k), _token(v)) for k, v in key.pairs()))
    if isinstance(key, dict):
        return ("Dictionary", tuple((_token(k), _token(v)) for k, v in key.items()))
    if isinstance(key, array):
        return ("array", key.typecode, key.tobytes())
    try:
        hash(key)
    except TypeError:
        return ("id", id(key))
    return (type(key), key)


@public(MutableMapping)
class TypedDictionary(_Frozen, MutableMapping):  # type: ignore[type-arg]
    """TypedDictionary(key_type, value_type, items): ``Dictionary[String, int]`` is
    ``TypedDictionary("String", "int", {"a": 1})``; ``items`` a dict or (key, value) pairs.

    A mutable mapping, as a dict: ``d[key]``, ``d[key] = v``, ``del``, ``in``, ``len``,
    iteration over the keys, ``keys()``, ``values()``, ``items()``, ``get``, ``update``; in
    insertion order. Unlike a dict, it keeps keys Godot keeps apart and Python would merge
    (``1``, ``1.0`` and ``True`` are three keys) and takes keys a dict cannot (a list, a
    dict), so it is also what a Dictionary decodes to when a dict cannot hold its keys (then
    ``key_type`` and ``value_type`` may be None). A key or value added is checked against a
    builtin type as in :class:`TypedArray`. It equals a mapping with equal entries, as in
    Godot."""

    __slots__ = ("key_type", "value_type", "_given", "_index")
    key_type: ElementType
    value_type: ElementType
    _given: Optional[List[Tuple[Any, Any]]]
    _index: Optional[Dict[Any, Tuple[Any, Any]]]

    def __init__(
        self,
        key_type: ElementType,
        value_type: ElementType,
        items: Union[Mapping[Any, Any], Iterable[Tuple[Any, Any]], None] = None,
    ) -> None:
        _check_element_type(key_type)
        _check_element_type(value_type)
        if items is None:
            given = []
        elif isinstance(items, Mapping):
            given = list(items.items())
        else:
            given = [(k, v) for k, v in items]
        # The entries as given; the index of their keys is made on the first lookup (decoding
        # and encoding need none, and a deep key costs its whole depth).
        self._set(key_type=key_type, value_type=value_type, _given=given, _index=None)

    @property
    def _entries(self) -> Dict[Any, Tuple[Any, Any]]:
        if self._index is None:
            index: Dict[Any, Tuple[Any, Any]] = {}
            for k, v in self._given or ():
                token = _token(k)
                old = index.get(token)
                index[token] = (k if old is None else old[0], v)  # the first key stays
            self._set(_index=index, _given=None)
            return index
        return self._index

    def pairs(self) -> List[Tuple[Any, Any]]:
        """The entries as (key, value) pairs, in order."""
        if self._index is None:
            return list(self._given or ())
        return list(self._index.values())

    def __getitem__(self, key: Any) -> Any:
        try:
            return self._entries[_token(key)][1]
        except KeyError:
            raise KeyError(key) from None

    def __setitem__(self, key: Any, value: Any) -> None:
        key = _checked(self.key_type, key, f"Dictionary[{self.key_type}, {self.value_type}]'s key")
        value = _checked(self.value_type, value, f"Dictionary[{self.key_type}, {self.value_type}]'s value")
        token = _token(key)
        old = self._entries.get(token)
        self._entries[token] = (key if old is None else old[0], value)

    def __delitem__(self, key: Any) -> None:
        try:
            del self._entries[_token(key)]
        except KeyError:
            raise KeyError(key) from None

    def __contains__(self, key: object) -> bool:
        return _token(key) in self._entries

    # The dict methods take their arguments by position only, as a dict's do.
    def get(self, key: Any, default: Any = None, /) -> Any:
        """The value of ``key``, or ``default`` when it has none."""
        entry = self._entries.get(_token(key))
        return default if entry is None else entry[1]

    def pop(self, key: Any, default: Any = _NO_DEFAULT, /) -> Any:
        """Removes ``key`` and returns its value; ``default`` when it has none (a ``KeyError``
        without one)."""
        entry = self._entries.pop(_token(key), None)
        if entry is not None:
            return entry[1]
        if default is _NO_DEFAULT:
            raise KeyError(key)
        return default

    def popitem(self) -> Tuple[Any, Any]:
        """Removes and returns the entry added last, as ``(key, value)`` (a ``KeyError`` when
        empty)."""
        if not self._entries:
            raise KeyError("popitem(): dictionary is empty")
        return self._entries.popitem()[1]

    def setdefault(self, key: Any, default: Any = None, /) -> Any:
        """The value of ``key``; when it has none, ``default`` is added as its value and
        returned."""
        entry = self._entries.get(_token(key))
        if entry is not None:
            return entry[1]
        self[key] = default
        return default

    def __iter__(self) -> Iterator[Any]:
        return (k for k, _ in list(self._entries.values()))

    def __reversed__(self) -> Iterator[Any]:
        return (k for k, _ in reversed(list(self._entries.values())))

    def __len__(self) -> int:
        return len(self._entries)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        if len(other) != len(self):
            return False
        for k, v in self._entries.values():
            try:
                if k not in other or other[k] != v:
                    return False
            except TypeError:  # a dict asked about a key it cannot hash
                return False
        return True

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        pairs = self.pairs()
        try:
            as_dict: Any = dict(pairs)
        except TypeError:
            as_dict = None
        items = as_dict if as_dict is not None and len(as_dict) == len(pairs) else pairs
        return f"TypedDictionary({self.key_type!r}, {self.value_type!r}, {items!r})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (TypedDictionary, (self.key_type, self.value_type, self.pairs()))

    def __replace__(self, **changes: Any) -> "TypedDictionary":
        fields: Dict[str, Any] = {
            "key_type": self.key_type, "value_type": self.value_type, "items": self.pairs()
        }
        fields.update(changes)
        return TypedDictionary(**fields)

    _replace = __replace__
