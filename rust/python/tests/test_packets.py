"""Compressed packets (``compress`` / ``decompress`` / ``decode_compressed``) against the
engines' own: every packet Godot 4.6.3 and Godot 3.6.2 made with ``PackedByteArray.compress``
(tests/golden/packets_*.jsonl, made by tests/golden/gen/godot*/packets.gd;
rust/codec/tests/packets.rs reads the same) decompresses to the bytes the engine compressed, a
value's packet reads as the value, and the limit refuses a packet that holds more."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

import fast_var_codec as fvc

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden"

ENGINES = [
    ("packets_godot4_6_3.jsonl", "4.6.3", "godot4"),
    ("packets_godot3_6_2.jsonl", "3.6.2", "godot3"),
]
MODES = ["fastlz", "deflate", "zstd", "gzip"]  # by the engine's mode number


def cases(file: str, engine: str) -> List[Dict[str, Any]]:
    """The cases of a golden file, after its head line (which names the engine)."""
    lines = (GOLDEN / file).read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["engine"].startswith(engine), head
    out = []
    for line in lines[1:]:
        case = json.loads(line)
        if "pattern" in case:
            case["data"] = bytes((i * 7 + i // 300) % 251 for i in range(case["pattern"]))
        else:
            case["data"] = bytes.fromhex(case["data"])
        case["packet"] = bytes.fromhex(case["packet"])
        case["compression"] = MODES[case["mode"]]
        out.append(case)
    return out


def padded(case: Dict[str, Any]) -> bytes:
    """What the engine compressed, as its decompress gives it back: FastLZ pads to 16 bytes."""
    data: bytes = case["data"]
    if data and case["compression"] == "fastlz" and len(data) < 16:
        return data + bytes(16 - len(data))
    return data


@pytest.mark.parametrize("file,engine,dialect", ENGINES)
def test_engine_packets_decompress_and_values_read(file: str, engine: str, dialect: str) -> None:
    all_cases = cases(file, engine)
    assert len(all_cases) == 14 * 4
    values = 0
    for case in all_cases:
        what = f"Godot {engine} {case['name']} {case['compression']}"
        assert fvc.decompress(case["packet"], case["compression"], max_size=len(padded(case))) \
            == padded(case), what
        ours = fvc.compress(case["data"], case["compression"])
        assert fvc.decompress(ours, case["compression"], max_size=1 << 20) == padded(case), what
        if case["value"]:
            got = fvc.decode_compressed(case["packet"], case["compression"], max_size=1 << 20,
                                        dialect=dialect)
            assert fvc.encode(got, dialect=dialect) == case["data"], what
            values += 1
    assert values == 9 * 4


def test_the_limit_refuses_a_packet_that_holds_more() -> None:
    packet = fvc.compress(bytes(100_000), "zstd")
    assert len(packet) < 1000
    with pytest.raises(fvc.DecodeError, match="more than 99999 bytes"):
        fvc.decompress(packet, "zstd", max_size=99_999)
    with pytest.raises(fvc.DecodeError):
        fvc.decode_compressed(packet, "zstd", max_size=1000)


def test_a_value_fills_its_packet_but_fastlz_padding() -> None:
    for compression in MODES:
        packet = fvc.compress(fvc.encode(42), compression)
        assert fvc.decode_compressed(packet, compression, max_size=100) == 42
        extra = fvc.compress(fvc.encode(42) + b"\x01\0\0\0", compression)
        with pytest.raises(fvc.DecodeError):
            fvc.decode_compressed(extra, compression, max_size=100)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown compression 'brotli'"):
        fvc.compress(b"abc", "brotli")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fvc.compress("abc", "zstd")  # type: ignore[arg-type]
    with pytest.raises(fvc.DecodeError, match="does not decompress"):
        fvc.decompress(b"not a packet", "deflate", max_size=100)
