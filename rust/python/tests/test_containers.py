"""TypedArray and TypedDictionary as Python's mutable containers (the engine's equality between
typed and untyped ones is checked in test_engine_semantics.py)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import MutableMapping, MutableSequence
from typing import Any, Callable, List

import pytest

import fast_var_codec as fvc


def test_a_typed_dictionary_is_a_mutable_mapping() -> None:
    d = fvc.TypedDictionary("String", "int", {"hp": 10})
    assert isinstance(d, MutableMapping)
    assert d["hp"] == 10 and "hp" in d and "mp" not in d and len(d) == 1
    d["mp"] = 5
    assert list(d) == ["hp", "mp"]
    assert list(d.items()) == [("hp", 10), ("mp", 5)]
    assert list(d.keys()) == ["hp", "mp"] and list(d.values()) == [10, 5]
    assert d.get("xp") is None and d.pop("mp") == 5
    del d["hp"]
    assert len(d) == 0
    with pytest.raises(KeyError):
        d["hp"]
    d.update({"a": 1})
    assert d == {"a": 1} and fvc.decode_with_size(fvc.encode(d))[0] == d


def test_a_typed_dictionary_keeps_godot_keys_apart() -> None:
    d = fvc.TypedDictionary(None, None, [(1, "int"), (1.0, "float"), (True, "bool"), ([1], "list")])
    assert len(d) == 4
    assert d[1] == "int" and d[1.0] == "float" and d[True] == "bool" and d[[1]] == "list"
    d[1.0] = "FLOAT"
    assert d.pairs() == [(1, "int"), (1.0, "FLOAT"), (True, "bool"), ([1], "list")]
    assert fvc.decode_with_size(fvc.encode(d))[0].pairs() == d.pairs()


def test_typed_containers_check_what_is_added() -> None:
    d = fvc.TypedDictionary("String", "int", {})
    with pytest.raises(TypeError, match=r"Dictionary\[String, int\]'s value holds int, not str"):
        d["a"] = "x"
    with pytest.raises(TypeError, match="key holds String, not int"):
        d[1] = 1
    a = fvc.TypedArray("int", [1])
    with pytest.raises(TypeError, match=r"Array\[int\] holds int, not str \('x'\)"):
        a.append("x")
    with pytest.raises(TypeError):
        a[0] = True  # a bool is not an int in Godot
    f = fvc.TypedArray("float", [])
    f.append(2)  # Godot converts an int to float in Array[float]
    assert f.items == [2.0] and type(f[0]) is float
    untyped = fvc.TypedDictionary(None, None)
    untyped[[1, 2]] = object()  # no type: anything (encoding checks it)


def test_a_typed_array_is_a_mutable_sequence_equal_to_its_list() -> None:
    a = fvc.TypedArray("int", [1, 2])
    assert isinstance(a, MutableSequence)
    a.append(3)
    a.insert(0, 0)
    a.extend([4, 5])
    del a[-1]
    a[1:3] = [10, 20]
    assert a == [0, 10, 20, 3, 4] and [0, 10, 20, 3, 4] == a and a != [0]
    assert a[1:3] == [10, 20] and 20 in a and a.index(3) == 3 and len(a) == 5
    assert a == fvc.TypedArray("float", [0, 10, 20, 3, 4])  # items compared, as in Godot
    assert pickle.loads(pickle.dumps(a)) == a and copy.deepcopy(a) == a
    with pytest.raises(TypeError):
        hash(a)  # mutable, as a list
    assert fvc.decode_with_size(fvc.encode(a))[0] == a


def outcome(call: Callable[[Any], Any], container: Any) -> Any:
    """What ``call`` returns for ``container`` and what it leaves in it, or the error's type."""
    try:
        result = call(container)
    except Exception as error:
        return type(error), list(container)
    return result, list(container)


def test_a_typed_array_takes_arguments_as_a_list_does() -> None:
    """Each method answers, raises and takes its arguments (by position only) as a list's."""
    calls: List[Callable[[Any], Any]] = [
        lambda s: s.index(3), lambda s: s.index(3, 1), lambda s: s.index(3, -2, 4),
        lambda s: s.index(3, 0, 2), lambda s: s.index(7), lambda s: s.index(3, 0, None),
        lambda s: s.count(3), lambda s: s.pop(), lambda s: s.pop(1), lambda s: s.pop(9),
        lambda s: s.remove(3), lambda s: s.remove(7), lambda s: s.append(4),
        lambda s: s.extend([5, 6]), lambda s: s.insert(1, 9), lambda s: list(reversed(s)),
        lambda s: s.append(value=4), lambda s: s.insert(index=0, value=4),
        lambda s: s.index(value=3), lambda s: s.count(value=3), lambda s: s.pop(index=0),
        lambda s: s.remove(value=3), lambda s: s.extend(values=[4]),
    ]
    for n, call in enumerate(calls):
        assert outcome(call, fvc.TypedArray("int", [3, 1, 3, 2])) == outcome(call, [3, 1, 3, 2]), n


def test_a_typed_array_extended_with_a_wrong_item_keeps_its_items() -> None:
    a = fvc.TypedArray("int", [1])
    with pytest.raises(TypeError, match="holds int, not str"):
        a.extend([2, "x"])
    assert a.items == [1]


def test_a_typed_dictionary_takes_arguments_as_a_dict_does() -> None:
    """Each method answers, raises and takes its arguments (by position only) as a dict's;
    ``reversed`` gives the keys last first."""
    calls: List[Callable[[Any], Any]] = [
        lambda d: d.get("a"), lambda d: d.get("z"), lambda d: d.get("z", 0),
        lambda d: d.pop("a"), lambda d: d.pop("z", 0), lambda d: d.pop("z"),
        lambda d: d.setdefault("a"), lambda d: d.setdefault("z", 5), lambda d: d.popitem(),
        lambda d: list(reversed(d)), lambda d: d.get(key="a"), lambda d: d.get("a", default=0),
        lambda d: d.pop(key="a"), lambda d: d.setdefault(key="z"),
    ]
    for n, call in enumerate(calls):
        plain = {"a": 1, "b": 2}
        typed = fvc.TypedDictionary("String", "int", plain)
        assert outcome(call, typed) == outcome(call, dict(plain)), n


def test_the_typed_containers_are_not_generic() -> None:
    """A type checker takes no ``TypedArray[int]`` (the element type is a Godot name, a value),
    so neither does the runtime."""
    with pytest.raises(TypeError, match="not subscriptable"):
        fvc.TypedArray["int"]
    with pytest.raises(TypeError, match="not subscriptable"):
        fvc.TypedDictionary["String", "int"]


def test_math_types_replace_fields() -> None:
    v = fvc.Vector3(1, 2, 3)
    assert v._replace(y=5) == fvc.Vector3(1, 5, 3)
    assert v.__replace__(z=0) == fvc.Vector3(1, 2, 0)
    with pytest.raises(TypeError):
        v._replace(w=1)


def test_int_vectors_wrap_and_divide_as_godot() -> None:
    assert fvc.Vector2i(-7, 7) / 2 == fvc.Vector2i(-3, 3)
    assert fvc.Vector2i(2**31 - 1, 0) * 2 == fvc.Vector2i(-2, 0)
    with pytest.raises(ZeroDivisionError):
        fvc.Vector2i(1, 1) / 0
    assert fvc.Vector2(1, -1) / 0 == fvc.Vector2(float("inf"), float("-inf"))
    with pytest.raises(TypeError):
        fvc.Vector2(1, 2) + fvc.Vector2i(1, 2)  # type: ignore[operator]
