"""Nothing lost or made up without a word: typed containers whose items do not fit, files and
streams read in the wrong dialect, compressed files that announce more than they hold, and a
stream's "nothing yet" told apart from a Godot null."""

from __future__ import annotations

import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import desc
import fast_var_codec as fvc

ENGINES = ["godot3_6_2", "godot3_2_3"]
CONTAINERS = ["plain", "compressed_fastlz", "compressed_deflate", "compressed_zstd", "compressed_gzip"]


def test_a_typed_array_item_of_another_type_is_refused_with_its_path() -> None:
    with pytest.raises(fvc.EncodeError) as e:
        fvc.encode(fvc.TypedArray("int", [1, "x"]))
    assert e.value.path == "[1]"
    assert "String item does not fit Array[int]" in str(e.value)
    with pytest.raises(fvc.EncodeError) as e:
        fvc.encode({"scores": fvc.TypedArray("int", [1, 2.5])})
    assert e.value.path == '["scores"][1]'
    # An int in Array[float] is written as the float, as the engine writes it.
    assert fvc.encode(fvc.TypedArray("float", [1])) == fvc.encode(fvc.TypedArray("float", [1.0]))
    # Godot 3 has no typed Arrays: written untyped, nothing to drop.
    assert fvc.decode_with_size(fvc.encode(fvc.TypedArray("int", [1, "x"]), dialect="godot3"), dialect="godot3")[0] == [1, "x"]


@pytest.mark.parametrize(
    "name,meant",
    [("str", "String"), ("dict", "Dictionary"), ("Int", "int"), ("string", "String"), ("list", "Array")],
)
def test_a_type_name_that_is_no_godot_type_says_which_was_meant(name: str, meant: str) -> None:
    with pytest.raises(ValueError) as e:
        fvc.TypedArray(name, ["a", "b"])
    assert f'did you mean "{meant}"' in str(e.value)
    with pytest.raises(ValueError):
        fvc.TypedDictionary("String", name, {})


def test_class_and_script_names_are_still_taken() -> None:
    for name in ["Node", "Resource", "res://item.gd", "", "Object"]:
        fvc.TypedArray(name, [])
    with pytest.raises(ValueError) as e:
        fvc.TypedArray("not a class", [])
    assert "a class name" in str(e.value)


def test_a_typed_dictionary_key_of_another_type_is_refused() -> None:
    with pytest.raises(fvc.EncodeError) as e:
        fvc.encode(fvc.TypedDictionary("String", "int", {1: 2}))
    assert e.value.path == "[1]"
    assert "Dictionary[String, int]" in str(e.value)
    # A value of another type is kept, as the engine keeps it on decode.
    d = fvc.TypedDictionary("String", "int", {"a": "x"})
    assert fvc.decode_with_size(fvc.encode(d))[0] == d


def test_dropped_items_are_the_engines_result_or_an_error_when_asked() -> None:
    # An Array[int] holding 1 and "x", as no engine writes it: header, type, count, items.
    data = bytes.fromhex("1c000100 02000000 02000000" "02000000 01000000" "04000000 01000000 78000000")
    assert fvc.decode_with_size(data)[0] == fvc.TypedArray("int", [1])
    with pytest.raises(fvc.DecodeError) as e:
        fvc.decode_with_size(data, refuse_dropped_elements=True)
    assert "would be dropped" in str(e.value)


def same_bytes(v: object) -> bytes:
    return fvc.encode(v, dialect="godot3", full_objects=True, allow_lossy=True)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", CONTAINERS)
def test_a_godot3_file_read_without_its_dialect_is_read_as_godot3(engine: str, kind: str) -> None:
    path = desc.SAVES / engine / f"{kind}.bin"
    expected = fvc.read_file(path, dialect="godot3", allow_objects=True)
    assert len(expected) == 59
    got = fvc.read_file(path, allow_objects=True)
    # Compared as the bytes they encode to (NaN values are among them).
    assert [same_bytes(v) for v in got] == [same_bytes(v) for v in expected]
    with pytest.raises(fvc.DecodeError) as e:
        fvc.read_file(path, dialect="godot4", allow_objects=True)
    assert 'reads whole as Godot 3 (dialect "godot3")' in str(e.value)


def test_a_frame_whose_value_leaves_bytes_unread_is_an_error() -> None:
    stream = fvc.StreamDecoder()
    stream.feed(fvc.encode_framed(fvc.Rect2(fvc.Vector2(1, 2), fvc.Vector2(3, 4)), dialect="godot3"))
    stream.feed(fvc.encode_framed(None))
    with pytest.raises(fvc.DecodeError) as e:
        stream.next_value()
    assert "reads whole as Godot 3" in str(e.value)
    # The stream goes on: the Godot null is None, and then nothing has arrived.
    assert stream.next_value() is None
    with pytest.raises(fvc.OutOfData):
        stream.next_value()
    stream.feed(fvc.encode_framed(7)[:5])
    with pytest.raises(fvc.OutOfData):
        stream.next_value()
    # Iterating stops at "nothing yet" and yields a null as None.
    stream.feed(fvc.encode_framed(7)[5:] + fvc.encode_framed(None))
    assert list(stream) == [7, None]


def deflate_bomb(path: Path, payload: int) -> None:
    """A Godot compressed file of valid 4 KiB zlib blocks of zeros announcing `payload` bytes."""
    block = zlib.compress(bytes(4096))
    last = zlib.compress(b"")
    count = payload // 4096 + 1
    with open(path, "wb") as f:
        f.write(b"GCPF" + (1).to_bytes(4, "little") + (4096).to_bytes(4, "little") + payload.to_bytes(4, "little"))
        sizes = [len(block)] * (count - 1) + [len(last)]
        f.write(b"".join(n.to_bytes(4, "little") for n in sizes))
        f.write(block * (count - 1) + last + b"GCPF")


MEASURE = """
import resource, sys
import fast_var_codec as fvc
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    fvc.read_file(sys.argv[1], **eval(sys.argv[2]))
    outcome = "read"
except fvc.SaveFileError as e:
    outcome = e.godot_error
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(outcome, before, peak)
"""


def peak_reading(path: Path, kwargs: str) -> tuple[str, int, int]:
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path), kwargs], capture_output=True, text=True, check=True
    ).stdout.split()
    return out[0], int(out[1]) * 1024, int(out[2]) * 1024


def test_a_small_file_announcing_1_gib_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.sav"
    deflate_bomb(bomb, 1 << 30)
    size = bomb.stat().st_size
    assert size < 8 << 20
    for kwargs in ["{}", "{'max_bytes': 1 << 20}", "{'dialect': 'godot3'}"]:
        outcome, before, peak = peak_reading(bomb, kwargs)
        print(f"{size} byte file announcing 1 GiB, {kwargs}: {outcome}, peak RSS {peak >> 20} MiB "
              f"({(peak - before) >> 20} MiB more than before the call)")
        assert outcome == "ERR_OUT_OF_MEMORY"
        # The file is read into memory once (and again as bytes): nothing near 1 GiB.
        assert peak - before < 4 * size + (16 << 20)
    # Raised for a larger save, it is read (here 8 MiB of zeros: no values, a cut record).
    small = tmp_path / "small.sav"
    deflate_bomb(small, 8 << 20)
    with pytest.raises(fvc.SaveFileError) as e:
        fvc.read_file(small, max_payload=4 << 20)
    assert e.value.godot_error == "ERR_OUT_OF_MEMORY"
    with pytest.raises(fvc.DecodeError):
        fvc.read_file(small)  # within the default: inflated, then not a value
