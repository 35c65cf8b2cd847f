"""The package against every engine's golden corpus (tests/golden/, the files the Rust tests
read): each engine-made encoding decodes to the value the engine decoded, each value encodes to
the engine's bytes, and each malformed input is refused with the engine's error or accepted
with its value. Where the engine-free model knowingly differs from an engine, the Rust test's
own list (rust/codec/tests/golden.rs, KNOWN_DIVERGENCES) is read and applied."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import pytest

import desc
import fast_var_codec as fvc

CORPORA = [
    "godot4_6_3.json",
    "godot4_6_3_double.json",
    "godot3_6_2.json",
    "godot3_2_3.json",
    "pandemonium_4_9_0.json",
    "pandemonium_5_2_0.json",
]

DIVERGENCES = desc.known_divergences()
# The list is read from the Rust source: a change of its layout must not empty it unnoticed.
assert len(DIVERGENCES) > 40, DIVERGENCES

# The Rust test decodes full objects with a builder told which classes and scripts the engine
# has (tests/golden/classes_*.json); the package decodes as the core's default does, without
# that list, so a case whose outcome depends on it is not compared here.
NEEDS_CLASS_LIST = (
    "object/full/",
    "craft/object",
    "craft/array_typed_class",
    "object/full_scripted",
    "array/typed/pathless_script/full",
)

# Values no Python value describes: a container typed by a script without a path (an element
# type "" is an object type without a class; docs/python.md).
NOT_BUILT_FROM_PYTHON = ("array/typed/pathless_script/",)


def diverges(corpus: str, part: str, name: str) -> bool:
    return any(
        corpus.startswith(c) and part == p and name.startswith(prefix)
        for c, p, prefix in DIVERGENCES
    )


_loaded: Dict[str, Dict[str, Any]] = {}


def corpus(name: str) -> Dict[str, Any]:
    if name not in _loaded:
        _loaded[name] = desc.load(name)
    desc.DOUBLE = _loaded[name].get("precision") == "double"
    return _loaded[name]


def options(c: Dict[str, Any]) -> Tuple[str, str]:
    return c["dialect"], c.get("precision") or "single"


@pytest.mark.parametrize("file", CORPORA)
def test_cases(file: str) -> None:
    c = corpus(file)
    dialect, precision = options(c)
    leaks = c.get("nodepath_padding_leaks", True)
    failures: List[str] = []
    checked = encoded = decoded = 0
    for case in c["cases"]:
        name = case["name"]
        if diverges(file, "cases", name):
            continue
        full = bool(case.get("full_objects"))
        engine = bytes.fromhex(case["bytes"])
        checked += 1
        try:
            value = desc.value_of(case["value"])
        except desc.NotText:
            value = None
            exact = False
        else:
            exact = True
        if name.startswith(NOT_BUILT_FROM_PYTHON):
            exact = False
        if exact and not engine:
            try:
                fvc.encode(value, dialect=dialect, precision=precision, full_objects=full)
                failures.append(f"{name}: the engine refused to encode it, we did not")
            except fvc.EncodeError:
                pass
            continue
        if exact:
            try:
                ours = fvc.encode(value, dialect=dialect, precision=precision, full_objects=full)
            except fvc.EncodeError as e:
                failures.append(f"{name}: encode failed: {e}")
            else:
                encoded += 1
                if leaks and desc.has_node_path(case["value"]):
                    # The engine writes uninitialised padding after NodePath names: compare
                    # what both decode to instead of the bytes.
                    same = desc.same(
                        fvc.decode_with_size(ours, dialect=dialect, precision=precision, allow_objects=full),
                        fvc.decode_with_size(engine, dialect=dialect, precision=precision, allow_objects=full),
                    )
                else:
                    same = ours == engine
                if not same:
                    failures.append(f"{name}: encode differs\n  ours   {ours.hex()}\n  engine {engine.hex()}")
        if case.get("decoded") is None:
            code = case.get("decode_error")
            if code is not None and engine:
                try:
                    got = fvc.decode_with_size(engine, dialect=dialect, precision=precision, allow_objects=full)
                    failures.append(f"{name}: we decode {got!r:.80} where the engine fails ({code})")
                except fvc.DecodeError as e:
                    if e.godot_error != desc.ERROR_NAMES.get(code):
                        failures.append(f"{name}: {e.godot_error}, engine {code}")
            continue
        if full and name.startswith(NEEDS_CLASS_LIST):
            continue
        try:
            expected = desc.value_of(case["decoded"])
        except desc.NotText:
            continue  # no Python str holds the engine's text
        try:
            got, used = fvc.decode_with_size(engine, dialect=dialect, precision=precision, allow_objects=full)
        except fvc.DecodeError as e:
            failures.append(f"{name}: decode failed: {e}")
            continue
        decoded += 1
        if used != len(engine):
            failures.append(f"{name}: used {used} of {len(engine)} bytes")
        if not desc.same(got, expected):
            failures.append(f"{name}: decoded\n  ours   {got!r:.300}\n  engine {expected!r:.300}")
    print(f"{file}: {checked} cases, {encoded} encoded, {decoded} decoded and compared")
    assert not failures, f"{len(failures)} of {checked} cases differ:\n" + "\n".join(failures[:20])
    assert decoded > 100


@pytest.mark.parametrize("file", CORPORA)
def test_malformed(file: str) -> None:
    c = corpus(file)
    dialect, precision = options(c)
    failures: List[str] = []
    checked = skipped_objects = 0
    for m in c["malformed"]:
        name = m["name"]
        allow = bool(m.get("allow_objects"))
        if diverges(file, "malformed inputs", name) or allow:
            # With objects allowed, the engine keeps or refuses an object by its class list and
            # scripts (see NEEDS_CLASS_LIST): the Rust tests compare those.
            skipped_objects += 1
            continue
        data = bytes.fromhex(m["bytes"])
        checked += 1
        try:
            got, used = fvc.decode_with_size(data, dialect=dialect, precision=precision, allow_objects=allow)
        except fvc.DecodeError as e:
            if m["ok"]:
                failures.append(f"{name}: we refuse ({e}) where the engine accepts")
            elif m.get("error") is not None and e.godot_error != desc.ERROR_NAMES.get(m["error"]):
                failures.append(f"{name}: {e.godot_error} at {e.offset}, engine {m['error']}")
            elif not 0 <= e.offset <= len(data):
                failures.append(f"{name}: offset {e.offset} outside the {len(data)} bytes")
            continue
        if not m["ok"]:
            failures.append(f"{name}: we accept {got!r:.80} where the engine refuses ({m['error']})")
            continue
        # The engine's size counts a final PackedByteArray's missing padding; ours ends with
        # the input.
        if m.get("size") is not None and min(m["size"], len(data)) != used:
            failures.append(f"{name}: size {used}, engine {m['size']}")
        try:
            expected = desc.value_of(m["decoded"])
        except desc.NotText:
            continue
        if dialect == "godot4" and precision == "single":
            got = desc.narrow(got)
        if desc.has_object(m["decoded"]):
            got, expected = desc.classes_only(got), desc.classes_only(expected)
        if not desc.same(got, expected):
            failures.append(f"{name}: decoded\n  ours   {got!r:.300}\n  engine {expected!r:.300}")
    print(f"{file}: {checked} malformed inputs ({skipped_objects} with objects allowed not compared)")
    assert not failures, f"{len(failures)} of {checked} inputs differ:\n" + "\n".join(failures[:20])
    assert checked > 100


@pytest.mark.parametrize("file", ["godot4_6_3.json", "godot3_6_2.json"])
def test_stream_dialect_auto(file: str) -> None:
    """A stream of every value the engine wrote, framed as put_var frames it: read with
    dialect="auto", the dialect is the engine's, and every value is the one its own dialect
    reads (values that read whole in another dialect too come before the first that tells)."""
    c = corpus(file)
    dialect, precision = options(c)
    stream = bytearray()
    expected = []
    for case in c["cases"]:
        engine = bytes.fromhex(case["bytes"])
        if not engine or case.get("full_objects") or case.get("decoded") is None:
            continue
        try:
            value, used = fvc.decode_with_size(engine, dialect=dialect, precision=precision)
        except fvc.DecodeError:
            continue
        if used != len(engine):
            continue
        stream += len(engine).to_bytes(4, "little") + engine
        expected.append((case["name"], value))
    decoder = fvc.StreamDecoder(dialect="auto", precision=precision, max_message=1 << 30)
    assert decoder.dialect == "godot4" and not decoder.dialect_settled
    decoder.feed(bytes(stream))
    got = list(decoder)
    assert decoder.dialect == dialect and decoder.dialect_settled
    assert len(got) == len(expected) > 100
    wrong = [name for (name, want), v in zip(expected, got) if not desc.same(v, want)]
    assert not wrong, f"{len(wrong)} values read otherwise than in {dialect}: {wrong[:10]}"
    decoder.reset()
    assert decoder.dialect == "godot4" and not decoder.dialect_settled
    fixed = fvc.StreamDecoder(dialect="godot3")
    assert fixed.dialect == "godot3" and fixed.dialect_settled
