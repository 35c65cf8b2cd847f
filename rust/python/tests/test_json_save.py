"""JSON saves (``read_json_save`` / ``write_json_save``) against the engines' own: every text
Godot 4.6.3's ``JSON.stringify`` and Godot 3.6.2's ``JSON.print`` wrote (tests/golden/json_*.jsonl,
made by tests/golden/gen/godot*/json.gd; rust/codec/tests/json_save.rs reads the same) reads with
the style it was written in and writes back byte for byte; an encrypted save opens with its
password; what JSON cannot hold is refused with its place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import fast_var_codec as fvc

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden"

ENGINES = [
    ("json_godot4_6_3.jsonl", "4.6.3", "godot4"),
    ("json_godot3_6_2.jsonl", "3.6.2", "godot3"),
]


def lines(file: str, engine: str) -> List[Dict[str, Any]]:
    """The lines of a golden file, after its head line (which names the engine)."""
    all_lines = (GOLDEN / file).read_text(encoding="utf-8").splitlines()
    head = json.loads(all_lines[0])
    assert head["engine"].startswith(engine), head
    return [json.loads(line) for line in all_lines[1:]]


@pytest.mark.parametrize("file,engine,dialect", ENGINES)
def test_engine_texts_read_with_their_style_and_write_back(file: str, engine: str, dialect: str) -> None:
    checked = 0
    for case in lines(file, engine):
        if "read" in case:
            continue
        for t in case["texts"]:
            text = bytes.fromhex(t["text"]).decode("utf-8")
            try:
                save = fvc.read_json_save(text, dialect=dialect)
            except fvc.DecodeError:
                continue  # a vertical tab (written \v, which Godot 4 does not read), Godot 3's NUL
            if not save["engine_text"]:
                continue  # a number of more than 18 digits: another one, as in the engine
            again = fvc.write_json_save(save["value"], **save["style"])
            assert again.decode("utf-8") == text, (case["name"], save["style"])
            checked += 1
    assert checked > 250


def test_value_style_ints_and_an_encrypted_save() -> None:
    text = '{\n\t"hp": 10,\n\t"name": "Ada",\n\t"speed": 2.5\n}'
    save = fvc.read_json_save(text)
    assert save["value"] == {"hp": 10, "name": "Ada", "speed": 2.5}
    assert isinstance(save["value"]["hp"], int)
    assert save["style"] == {"dialect": "godot4", "indent": "\t", "sort_keys": True, "full_precision": False}
    assert save["engine_text"] is True
    save["value"]["hp"] = 12
    file = fvc.write_json_save(save["value"], **save["style"], password="hunter2")
    assert file[:4] == b"GDEC"
    with pytest.raises(fvc.SaveFileError):
        fvc.read_json_save(file)
    back = fvc.read_json_save(file, password="hunter2")
    assert back["value"] == {"hp": 12, "name": "Ada", "speed": 2.5}
    with pytest.raises(fvc.EncodeError, match=r"Vector2.*\$\.player\.pos"):
        fvc.write_json_save({"player": {"pos": fvc.Vector2(1, 2)}})
    with pytest.raises(fvc.DecodeError, match="line 1, column 4"):
        fvc.read_json_save("[1,,2]")
