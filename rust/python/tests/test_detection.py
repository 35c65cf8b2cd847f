"""dialect="auto" never guesses, on bytes Godot 3.6.2 wrote (tests/golden): a file or a
stream message that Godot 4 reads whole as another value (a Color is a Plane) reads as Godot 3
read it, or raises DecodeError naming each reading, never another engine's value."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Tuple

import desc
import fast_var_codec as fvc
from test_golden import corpus

# Values Godot 3 writes that Godot 4 reads whole as something else.
AMBIGUOUS = [
    "color/red",
    "color/distinct",
    "aabb/distinct",
    "packed_int32_array/empty",
    "packed_int32_array/one",
]


def godot3_cases() -> List[Tuple[str, bytes, Any]]:
    out = []
    for case in corpus("godot3_6_2.json")["cases"]:
        data = bytes.fromhex(case["bytes"])
        if not data or case.get("full_objects"):
            continue
        try:
            value, used = fvc.decode_with_size(data, dialect="godot3")
        except fvc.DecodeError:
            continue
        if used == len(data):
            out.append((case["name"], data, value))
    return out


def record(data: bytes) -> bytes:
    return len(data).to_bytes(4, "little") + data


def test_a_one_record_file_reads_as_godot3_or_names_the_readings(tmp_path: Path) -> None:
    refused = []
    wrong = []
    for i, (name, data, value) in enumerate(godot3_cases()):
        path = tmp_path / f"{i}.dat"
        path.write_bytes(record(data))
        try:
            got = fvc.read_file(str(path))
        except fvc.DecodeError as e:
            assert "godot3" in e.dialects and len(e.dialects) >= 2, f"{name}: {e}"
            assert "as godot3" in str(e), f"{name}: {e}"
            refused.append(name)
            continue
        if not desc.same(got[0], value):
            wrong.append(name)
    assert not wrong, f"read as another engine's value: {wrong}"
    for name in AMBIGUOUS:
        assert name in refused, f"{name} is not refused"
    data, value = {n: (d, v) for n, d, v in godot3_cases()}["color/distinct"]
    color = tmp_path / "color.dat"
    color.write_bytes(record(data))
    got = fvc.read_file(str(color), dialect="godot3")
    assert isinstance(got[0], fvc.Color) and desc.same(got[0], value)


def test_a_stream_holds_what_engines_read_differently_until_told() -> None:
    cases = {name: (data, value) for name, data, value in godot3_cases()}
    sent = AMBIGUOUS + ["vector2/1_2", "rect2/distinct"]
    decoder = fvc.StreamDecoder(dialect="auto")
    for name in sent[:-1]:
        decoder.feed(record(cases[name][0]))
    assert list(decoder) == [], "a value came before the dialect was told"
    assert not decoder.dialect_settled
    decoder.feed(record(cases[sent[-1]][0]))
    got = list(decoder)
    assert decoder.dialect == "godot3" and decoder.dialect_settled
    assert len(got) == len(sent)
    for name, value in zip(sent, got):
        assert desc.same(value, cases[name][1]), name
