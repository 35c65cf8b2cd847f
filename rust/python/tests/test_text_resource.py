"""Godot's text resources (``read_text_resource`` / ``write_text_resource``) against the engines'
own: every ``.tres`` Godot 4.6.3 and Godot 3.6.2 saved (tests/golden/tres_*.jsonl, made by
tests/golden/gen/godot*/tres.gd; rust/codec/tests/text_resource.rs reads the same) reads as the
metadata the engine read back from it, ``write_text_resource`` of what was read gives the
engine's file byte for byte, and an edited value is written as the engine writes it. Nothing a
file refers to is loaded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import fast_var_codec as fvc

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden"

ENGINES = [
    ("tres_godot4_6_3.jsonl", "4.6.3", "godot4"),
    ("tres_godot3_6_2.jsonl", "3.6.2", "godot3"),
]


def cases(file: str, engine: str) -> List[Dict[str, Any]]:
    """The files of a golden file, after its head line (which names the engine)."""
    lines = (GOLDEN / file).read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["engine"].startswith(engine), head
    return [c for c in map(json.loads, lines[1:]) if "file" in c]


def resource(sections: List[Dict[str, Any]]) -> Dict[str, Any]:
    return next(s for s in sections if s["tag"] == "resource")


def meta(sections: List[Dict[str, Any]], dialect: str) -> Dict[str, Any]:
    """The resource's metadata: Godot 4's ``metadata/NAME`` properties, Godot 3's ``__meta__``."""
    props = resource(sections)["properties"]
    if dialect == "godot3":
        return dict(props.get("__meta__", {}))
    return {k[len("metadata/"):]: v for k, v in props.items() if k.startswith("metadata/")}


def without_ids(value: Any) -> Any:
    """``value`` with every object id 0: the engine makes an object of the text's
    ``Object(EncodedObjectAsID,…)``, whose ``var_to_bytes`` is the new object's id."""
    if isinstance(value, fvc.EncodedObjectAsID):
        return fvc.EncodedObjectAsID(0)
    if isinstance(value, fvc.TypedArray):
        return fvc.TypedArray(value.element_type, [without_ids(v) for v in value])
    if isinstance(value, fvc.TypedDictionary):
        return fvc.TypedDictionary(value.key_type, value.value_type,
                                   [(without_ids(k), without_ids(v)) for k, v in value.items()])
    if isinstance(value, list):
        return [without_ids(v) for v in value]
    if isinstance(value, dict):
        return {without_ids(k): without_ids(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("file,engine,dialect", ENGINES)
def test_engine_files_read_and_write_back(file: str, engine: str, dialect: str) -> None:
    checked = 0
    for case in cases(file, engine):
        data = bytes.fromhex(case["file"])
        text = data.decode("utf-8")
        sections = fvc.read_text_resource(data)
        assert sections[0]["tag"] == "gd_resource"
        assert fvc.write_text_resource(sections) == text, case["name"]
        # Text reads as its bytes do (compared as written: the files hold NaN, never == itself).
        assert fvc.write_text_resource(fvc.read_text_resource(text)) == text, case["name"]
        ours = meta(sections, dialect)
        engine_meta = {name: bytes.fromhex(b) for name, b in case["meta"]}
        assert sorted(ours) == sorted(engine_meta), case["name"]
        for name, value in ours.items():
            try:
                same = fvc.encode(value, dialect=dialect) == engine_meta[name]
            except fvc.FastVarCodecError:
                same = False
            if not same:
                # Floats the engine reads a last bit off, NodePath padding: the same text.
                theirs = without_ids(fvc.decode(engine_meta[name], dialect=dialect))
                assert fvc.var_to_str(theirs, dialect=dialect) == fvc.var_to_str(
                    without_ids(value), dialect=dialect), (case["name"], name)
            checked += 1
    assert checked > 190


@pytest.mark.parametrize("file,engine,dialect", ENGINES)
def test_a_save_is_edited_in_place(file: str, engine: str, dialect: str) -> None:
    case = next(c for c in cases(file, engine) if c["name"] == "save")
    text = bytes.fromhex(case["file"]).decode("utf-8")
    sections = fvc.read_text_resource(text)
    main = resource(sections)["properties"]
    best = main["best"]
    assert isinstance(best, fvc.Object) and best.class_name == "SubResource"
    sword = next(s for s in sections
                 if s["tag"] == "sub_resource" and s["attributes"]["id"] == best.properties["id"])
    assert sword["properties"]["title"] == "sword"
    main["level"] = 8
    assert fvc.write_text_resource(sections) == text.replace("level = 7\n", "level = 8\n", 1)


def test_nothing_is_loaded_or_made() -> None:
    evil = ('[gd_resource type="Resource" format=3]\n\n[resource]\n'
            'x = Object(RefCounted,"script":Resource("res://evil.gd"))\n')
    with pytest.raises(fvc.DecodeError):
        fvc.read_text_resource(evil)
    with pytest.raises(fvc.DecodeError, match="not a text resource"):
        fvc.read_text_resource("[resource]\na = 1\n")
    with pytest.raises(ValueError, match="not a text resource"):
        fvc.write_text_resource([{"tag": "resource"}])
