"""A small user script, checked with mypy --strict by tests/run_python_tests.sh: the package's
type hints (py.typed, _native.pyi, the annotated classes) are enough for strict checking."""

from __future__ import annotations

import asyncio
import io
from array import array
from typing import Any, Dict, List

import fast_var_codec as fvc


def message(player: str, x: float, y: float) -> bytes:
    return fvc.encode({"player": player, "pos": fvc.Vector2(x, y), "path": fvc.NodePath("/root/A")})


def position(data: bytes) -> fvc.Vector2:
    value = fvc.decode(data, max_depth=8, max_elements=100)
    pos = value["pos"]
    assert isinstance(pos, fvc.Vector2)
    return pos


def samples() -> array[float]:
    back, _ = fvc.decode_with_size(fvc.encode(array("f", [0.5, 1.5])))
    assert isinstance(back, array)
    return back


def edit_save(path: str, password: str) -> int:
    values: List[Any] = fvc.read_file(path, dialect="godot3", password=password)
    values[0]["gold"] += 1
    fvc.write_file(path, values, dialect="godot3", password=password)
    gold: int = values[0]["gold"]
    return gold


def godot3_bytes(value: Any, dialect: fvc.Dialect = "godot3") -> bytes:
    return fvc.encode(value, dialect=dialect, precision="single")


def encrypted(values: List[Any], key: bytearray) -> bytes:
    # A bytes-like key: bytearray, memoryview, bytes; a binary file object.
    out = io.BytesIO()
    fvc.write_file(out, values, dialect="godot3", key=key)
    fvc.write_file(out, values, dialect="godot3", key=memoryview(bytes(key)))
    return out.getvalue()


def packed(values: List[Any], compression: fvc.Compression = "zstd") -> List[Any]:
    with open("save.dat", "wb") as f:
        fvc.write_file(f, values, dialect="godot3", compression=compression)
    with open("save.dat", "rb") as f:
        return fvc.read_file(f)


CODEC = fvc.Codec(dialect="godot3", max_depth=16, max_elements=10_000, max_message=None)


def with_codec(values: List[Any]) -> List[Any]:
    # Options held once; every method typed.
    data: bytes = CODEC.encode(values)
    back, used = CODEC.decode_with_size(data)
    decoder: fvc.StreamDecoder = CODEC.stream_decoder()
    decoder.feed(CODEC.encode_framed(back))
    out = io.BytesIO()
    CODEC.write_file(out, values, compression="zstd")
    return CODEC.read_file(out.getvalue()) + [used, decoder.next_value()]


def settings(data: bytes, password: str) -> bytes:
    # A ConfigFile: a dict of sections, each a dict of key to value.
    cfg: Dict[str, Dict[str, Any]] = fvc.read_config_file(data, dialect="godot3", password=password)
    cfg.setdefault("audio", {})["volume"] = 0.5
    fvc.read_config_file('[s]\nk=1\n', max_elements=100)
    return fvc.write_config_file(cfg, dialect="godot3", key=bytearray(32))


def arithmetic(a: fvc.Vector2, b: fvc.Vector2) -> float:
    c: fvc.Vector2 = a + b - (-a)
    d: fvc.Vector2 = c.lerp(b, 0.5).normalized()
    return d.dot(a) + c.length() + (a * 2.0).x


def containers(d: fvc.TypedDictionary, a: fvc.TypedArray) -> int:
    total = 0
    for key, value in d.items():
        total += len(str(key)) + int(value)
    a.append(total)
    return total + len(a) + (1 if "hp" in d else 0)


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    decoder = fvc.StreamDecoder(max_message=1 << 16)
    while chunk := await reader.read(4096):
        decoder.feed(chunk)
        try:
            for value in decoder:
                writer.write(fvc.encode_framed(value))
        except fvc.DecodeError as e:
            print(f"bad message at byte {e.offset}: {e.godot_error}")
    await writer.drain()


if __name__ == "__main__":
    print(position(message("ada", 1.0, 2.0)), list(samples()))
