"""Values nested as deep as the engine allows, encoded and decoded on a thread with a small
stack (as threads of some servers and platforms have): every level of the package's walks
runs on a stack with room, so a deep value is an answer or an error, never a crash."""

from __future__ import annotations

import threading
from typing import Any, Callable

import fast_var_codec as fvc

DEPTH = 1000
SMALL_STACK = 256 * 1024


def on_small_stack(work: Callable[[], Any]) -> Any:
    """What `work` returns (or raises), run on a thread of SMALL_STACK bytes."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as e:  # handed to the caller
            outcome["error"] = e

    before = threading.stack_size(SMALL_STACK)
    try:
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(before)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def nested(inner: Any) -> Any:
    value = inner
    for _ in range(DEPTH):
        value = [value]
    return value


def innermost(value: Any) -> Any:
    """The value inside DEPTH one-item lists (a loop: comparing deep lists recurses in C)."""
    for _ in range(DEPTH):
        assert isinstance(value, list) and len(value) == 1
        value = value[0]
    return value


def test_deep_lists_around_a_typed_array_on_a_small_stack() -> None:
    # The typed Array takes the package's Value path both ways.
    inner = fvc.TypedArray("int", [1, 2])
    header = fvc.encode([None])[:8]
    data = on_small_stack(lambda: fvc.encode(nested(inner)))
    assert data == header * DEPTH + fvc.encode(inner)
    back, used = on_small_stack(lambda: fvc.decode_with_size(data))
    assert used == len(data)
    assert innermost(back) == inner


def test_deep_lists_around_an_object_on_a_small_stack() -> None:
    inner = fvc.Object("Resource", {"name": "deep", "items": [1, 2]})
    data = on_small_stack(lambda: fvc.encode(nested(inner), full_objects=True))
    back, _ = on_small_stack(lambda: fvc.decode_with_size(data, allow_objects=True, allowed_classes=["Resource"]))
    assert innermost(back) == inner


def test_deep_plain_lists_on_a_small_stack() -> None:
    data = on_small_stack(lambda: fvc.encode(nested(7)))
    back, _ = on_small_stack(lambda: fvc.decode_with_size(data))
    assert innermost(back) == 7


def test_a_value_deeper_than_the_limit_is_an_error_on_a_small_stack() -> None:
    too_deep: Any = 1
    for _ in range(1100):
        too_deep = [too_deep]
    try:
        on_small_stack(lambda: fvc.encode(too_deep))
    except fvc.EncodeError as e:
        assert "deeper" in str(e)
    else:
        raise AssertionError("a value deeper than 1,024 levels was written")
