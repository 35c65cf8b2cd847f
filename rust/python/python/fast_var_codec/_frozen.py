"""The base of the immutable Godot types, and the arithmetic of the math types.

Godot computes in ``real_t`` (binary32 in a standard build) and ``int32``; these compute in
Python floats (binary64) and wrap int components to int32, as the engine does. So a real result
may differ from a standard build's in its last binary32 digits (``Vector2(1, 2).length()`` is
2.23606797749979 here, 2.2360680103302 in Godot 4.6.3); an int result is the engine's.
"""

from __future__ import annotations

import math
import re
import types
from typing import Any, Callable, Iterator, Tuple, TypeVar, Union

_T = TypeVar("_T", bound="_Frozen")
_A = TypeVar("_A", bound="_Arithmetic")


class _Frozen:
    """Fields in ``__slots__``, set once; equality, hash and repr from them."""

    __slots__: Tuple[str, ...] = ()

    def _values(self) -> Tuple[Any, ...]:
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
        return self._values() == other._values()

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + self._values())

    def __repr__(self) -> str:
        args = ", ".join(repr(v) for v in self._values())
        return f"{type(self).__name__}({args})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), self._values())

    def __replace__(self: _T, **changes: Any) -> _T:
        """A copy with some fields changed: ``copy.replace(v, x=3.0)`` (Python 3.13); the
        namedtuple spelling (an underscore, then ``replace``) works too."""
        fields = dict(zip(self.__slots__, self._values()))
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        fields.update(changes)
        return type(self)(**fields)

    _replace = __replace__


class _Components(_Frozen):
    """A math type of plain number components: iterable and indexable like a tuple."""

    __slots__ = ()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values())

    def __getitem__(self, index: int) -> Any:
        return self._values()[index]

    def __len__(self) -> int:
        return len(self.__slots__)


def _is_scalar(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _wrap32(n: int) -> int:
    """An int wrapped to int32, as Godot's int vectors wrap."""
    return (n + 2**31) % 2**32 - 2**31


def _int_div(a: int, b: int) -> int:
    """C's division, toward zero, as Godot's ``Vector2i(7, -7) / 2`` is ``(3, -3)``."""
    if b == 0:
        raise ZeroDivisionError("integer vector division by zero (Godot reports an error too)")
    q = abs(a) // abs(b)
    return _wrap32(q if (a < 0) == (b < 0) else -q)


def _real_div(a: float, b: float) -> float:
    """IEEE division, as Godot's: a real divided by zero is an infinity (or NaN), no error."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


class _Arithmetic(_Components):
    """``+``, ``-`` between two values of the class; ``*`` and ``/`` by one of them
    (componentwise) or by a number; unary ``-``. An int vector times or divided by a float gives
    the real vector, as in Godot (``Vector2i(7, -7) * 1.5 == Vector2(10.5, -10.5)``); divided
    by an int it divides toward zero."""

    __slots__ = ()
    _integer = False
    _real_type: Any = None

    def _make(self, values: Any, integer: bool) -> Any:
        if integer:
            return type(self)(*(_wrap32(v) for v in values))
        return (self._real_type or type(self))(*values)

    def __add__(self: _A, other: _A) -> _A:
        if type(other) is not type(self):
            return NotImplemented
        return self._make([a + b for a, b in zip(self, other)], self._integer)  # type: ignore[no-any-return]

    def __sub__(self: _A, other: _A) -> _A:
        if type(other) is not type(self):
            return NotImplemented
        return self._make([a - b for a, b in zip(self, other)], self._integer)  # type: ignore[no-any-return]

    def __mul__(self, other: Any) -> Any:
        if type(other) is type(self):
            return self._make([a * b for a, b in zip(self, other)], self._integer)
        if _is_scalar(other):
            integer = self._integer and isinstance(other, int)
            return self._make([a * other for a in self], integer)
        return NotImplemented

    def __rmul__(self, other: Any) -> Any:
        return self.__mul__(other) if _is_scalar(other) else NotImplemented

    def __truediv__(self, other: Any) -> Any:
        if type(other) is type(self):
            pairs = list(zip(self, other))
            integer = self._integer
        elif _is_scalar(other):
            pairs = [(a, other) for a in self]
            integer = self._integer and isinstance(other, int)
        else:
            return NotImplemented
        if integer:
            return self._make([_int_div(a, b) for a, b in pairs], True)
        return self._make([_real_div(float(a), float(b)) for a, b in pairs], False)

    def __neg__(self: _A) -> _A:
        return self._make([-a for a in self], self._integer)  # type: ignore[no-any-return]

    def __pos__(self: _A) -> _A:
        return self


class _Vector(_Arithmetic):
    """A vector: the arithmetic, ``length()`` and ``length_squared()``."""

    __slots__ = ()

    def length_squared(self) -> Any:
        """The sum of the squared components (an int for an int vector)."""
        return sum(a * a for a in self)

    def length(self) -> float:
        """The Euclidean length (a float for an int vector too)."""
        return math.sqrt(self.length_squared())


class _RealVector(_Vector):
    """A real vector: also ``dot()``, ``lerp()`` and ``normalized()``."""

    __slots__ = ()

    # A real vector times or divided by anything it takes stays of its class.
    def __mul__(self: _A, other: Union[_A, float]) -> _A:
        return _Arithmetic.__mul__(self, other)  # type: ignore[no-any-return]

    def __rmul__(self: _A, other: float) -> _A:
        return _Arithmetic.__rmul__(self, other)  # type: ignore[no-any-return]

    def __truediv__(self: _A, other: Union[_A, float]) -> _A:
        return _Arithmetic.__truediv__(self, other)  # type: ignore[no-any-return]

    def dot(self: _A, other: _A) -> float:
        """The dot product with a vector of the same class."""
        if type(other) is not type(self):
            raise TypeError(f"dot() takes a {type(self).__name__}, not {type(other).__name__}")
        return float(sum(a * b for a, b in zip(self, other)))

    def lerp(self: _A, to: _A, weight: float) -> _A:
        """The linear interpolation to ``to`` by ``weight``, as Godot's ``a + (b - a) * w``
        per component."""
        if type(to) is not type(self):
            raise TypeError(f"lerp() takes a {type(self).__name__}, not {type(to).__name__}")
        return type(self)(*(a + (b - a) * weight for a, b in zip(self, to)))

    def normalized(self: _A) -> _A:
        """The vector scaled to length 1 (the zero vector stays zero, as in Godot)."""
        length = math.sqrt(sum(a * a for a in self))
        if length == 0.0:
            return self
        return type(self)(*(a / length for a in self))


_C = TypeVar("_C", bound=type)


_NOT_COPIED = frozenset({
    "__dict__", "__weakref__", "__slots__", "__abstractmethods__", "_abc_impl",
    # The abstract bases' (``MutableSequence[int]``): the package's classes are not generic,
    # for a type checker either.
    "__class_getitem__",
})


def public(*abcs: Any) -> Callable[[_C], _C]:
    """A class decorator: the class made again with its bases' methods copied in and ``object``
    its only base (registered with the ``abcs`` it implements), so that ``help()`` shows one
    class of the package, not the private bases it is built from."""

    def flatten(cls: _C) -> _C:
        namespace: Any = {}
        for base in reversed(cls.__mro__[:-1]):
            for name, value in vars(base).items():
                if name in _NOT_COPIED or isinstance(value, types.MemberDescriptorType):
                    continue
                if isinstance(value, types.FunctionType):
                    value = _retyped(value, cls.__name__)
                namespace[name] = value
        namespace["__slots__"] = tuple(
            name for base in reversed(cls.__mro__) for name in vars(base).get("__slots__", ())
        )
        namespace["__annotations__"] = {
            name: kind
            for base in reversed(cls.__mro__)
            for name, kind in vars(base).get("__annotations__", {}).items()
            if not name.startswith("_")
        }
        namespace["__doc__"] = cls.__doc__
        namespace["__qualname__"] = cls.__qualname__
        flat: Any = type(cls.__name__, (object,), namespace)
        for abc in abcs:
            abc.register(flat)
        return flat  # type: ignore[no-any-return]

    return flatten


def _retyped(f: Any, class_name: str) -> Any:
    """A copy of a method whose annotations name the class, not the type variable of the base
    it came from (``'_A'``)."""
    copy = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                              f.__closure__)
    copy.__kwdefaults__ = f.__kwdefaults__
    copy.__doc__ = f.__doc__
    copy.__qualname__ = f"{class_name}.{f.__name__}"
    copy.__annotations__ = {
        k: re.sub(r"\b_[AT]\b", class_name, v) if isinstance(v, str) else v
        for k, v in getattr(f, "__annotations__", {}).items()
    }
    return copy
