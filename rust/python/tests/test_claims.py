"""What docs/python.md and the docstrings say is written, refused or kept, each checked; and the
inputs a user hands over by habit (a str for bytes, a memoryview, numpy scalars, -1 for no limit)
with the answer each gets. What the engines do is in the comments: asked of Godot 3.6.2 and
4.6.3 with var2bytes / var_to_bytes."""

from __future__ import annotations

import mmap
from array import array
from typing import Any

import pytest

import fast_var_codec as fvc
from desc import encode_file

# ---------------------------------------------------------------------------------------------
# full_objects


def test_an_object_is_written_whole_only_with_full_objects() -> None:
    obj = fvc.Object("Resource", {"resource_name": "sword"})
    # The engine's var_to_bytes writes an object as its instance id; an Object here has none.
    for dialect in fvc.DIALECTS:
        with pytest.raises(fvc.EncodeError, match="Object of class Resource.*full objects") as e:
            fvc.encode({"item": [obj]}, dialect=dialect)  # type: ignore[arg-type]
        assert e.value.path == "[\"item\"][0]"
        assert e.value.godot_error == "ERR_INVALID_PARAMETER"
        with pytest.raises(fvc.EncodeError):
            fvc.encode_framed(obj, dialect=dialect)  # type: ignore[arg-type]
    assert fvc.decode_with_size(fvc.encode(obj, full_objects=True), allow_objects=True)[0] == obj
    # What var_to_bytes writes without full objects: the id, here as EncodedObjectAsID.
    data = fvc.encode(fvc.EncodedObjectAsID(1234))
    assert data.hex() == "18000100" + (1234).to_bytes(8, "little").hex()


def test_a_save_names_the_value_and_the_class_it_refuses() -> None:
    values = [{"gold": 1}, {"inventory": {"sword": fvc.Object("Resource", {})}}]
    with pytest.raises(fvc.EncodeError) as e:
        encode_file(values, dialect="godot3")
    assert "value 1" in str(e.value) and "Resource" in str(e.value)
    assert "['inventory']" in str(e.value) or "[\"inventory\"]" in str(e.value)
    assert e.value.path.startswith("[\"inventory\"]")
    encode_file(values, dialect="godot3", full_objects=True)
    with pytest.raises(fvc.EncodeError, match="value 2"):
        encode_file([1, 2, "a\x00b"], dialect="godot3")


def test_write_store_var_file_refuses_objects_without_full_objects(tmp_path: Any) -> None:
    with pytest.raises(fvc.EncodeError, match="value 0"):
        fvc.write_file(tmp_path / "s.dat", [fvc.Object("Node", {})])
    fvc.write_file(tmp_path / "s.dat", [fvc.Object("Node", {})], full_objects=True)
    assert fvc.read_file(tmp_path / "s.dat", allow_objects=True) == [fvc.Object("Node", {})]


# ---------------------------------------------------------------------------------------------
# allow_lossy and Godot 3


def test_a_string_name_is_a_string_in_godot3_without_allow_lossy() -> None:
    # Godot 3 has no StringName: the exact form is a String, written without allow_lossy.
    assert fvc.encode(fvc.StringName("hp"), dialect="godot3") == fvc.encode("hp", dialect="godot3")
    assert fvc.decode_with_size(fvc.encode(fvc.StringName("hp"), dialect="godot3"), dialect="godot3")[0] == "hp"


def test_allow_lossy_converts_what_godot3_has_no_exact_form_for() -> None:
    with pytest.raises(fvc.EncodeError, match="Vector2i.*allow_lossy") as e:
        fvc.encode([fvc.Vector2i(1, 2)], dialect="godot3")
    assert e.value.path == "[0]"
    back = fvc.decode_with_size(fvc.encode(fvc.Vector2i(1, 2), dialect="godot3", allow_lossy=True),
                      dialect="godot3")[0]
    assert back == fvc.Vector2(1.0, 2.0)


def test_string_and_string_name_keys_by_dialect() -> None:
    d = fvc.TypedDictionary(None, None, [("hp", 1), (fvc.StringName("hp"), 2)])
    # Godot 4: one key, the first key's place and type, the last value.
    assert fvc.decode_with_size(fvc.encode(d))[0] == {"hp": 2}
    # Godot 3 has no StringName: both keys are Strings, which Godot 3 reads as one key with
    # the last value (Godot 3.6.2 reads the bytes of {"hp": 1, "hp": 2} as {hp:2}).
    assert fvc.decode_with_size(fvc.encode(d, dialect="godot3"), dialect="godot3")[0] == {"hp": 2}
    # Pandemonium has StringName and keeps the two apart.
    for dialect in ("pandemonium38", "pandemonium5"):
        back = fvc.decode_with_size(fvc.encode(d, dialect=dialect), dialect=dialect)[0]  # type: ignore[arg-type]
        assert back == {"hp": 1, fvc.StringName("hp"): 2}


def test_typed_array_items_converted_or_refused() -> None:
    assert fvc.decode_with_size(fvc.encode(fvc.TypedArray("float", [1])))[0].items == [1.0]
    with pytest.raises(fvc.EncodeError) as e:
        fvc.encode(fvc.TypedArray("int", [1, "x"]))
    assert e.value.path == "[1]"


# ---------------------------------------------------------------------------------------------
# Text that cannot travel


@pytest.mark.parametrize("dialect", fvc.DIALECTS)
def test_a_nul_in_a_text_is_refused(dialect: Any) -> None:
    # Every engine's decoder stops at the first zero byte (Godot 4.6.3 reads "a\0b"'s bytes as
    # "a"; its var_to_bytes writes U+FFFD for the NUL; Godot 3's String cannot hold one).
    for value, path in [("a\x00b", ""), ({"k": ["\x00"]}, "[\"k\"][0]"),
                        (fvc.StringName("x\x00"), ""), (fvc.PackedStringArray(["ok", "b\x00"]), ""),
                        ({"a\x00": 1}, "")]:
        with pytest.raises(fvc.EncodeError, match="U\\+0000") as e:
            fvc.encode(value, dialect=dialect, allow_lossy=True)
        assert e.value.path == path or e.value.path.startswith(path)


def test_a_lone_surrogate_is_an_encode_error_with_its_path() -> None:
    # Python's str may hold one, UTF-8 (the format's only text) may not.
    with pytest.raises(fvc.EncodeError, match="lone surrogate \\(U\\+D800 at index 1\\)") as e:
        fvc.encode({"name": ["x\ud800"]})
    assert e.value.path == "[\"name\"][0]"
    for value in [fvc.StringName("\udfff"), fvc.NodePath("", names=("a", "\ud800")), {"\ud800": 1},
                  fvc.PackedStringArray(["\ud800"]), fvc.Object("Node", {"\ud800": 1})]:
        with pytest.raises(fvc.EncodeError, match="lone surrogate"):
            fvc.encode(value, full_objects=True)


# ---------------------------------------------------------------------------------------------
# Inputs


def test_decode_takes_bytes_like_data_and_names_it_otherwise() -> None:
    data = fvc.encode([1, "x"])
    for like in [data, bytearray(data), memoryview(data), array("B", data), memoryview(data).cast("B")]:
        assert fvc.decode_with_size(like)[0] == [1, "x"]
    with pytest.raises(TypeError, match="bytes-like object.*not str"):
        fvc.decode_with_size(data.hex())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="bytes-like object.*not int"):
        fvc.decode_with_size(8)  # type: ignore[arg-type]
    decoder = fvc.StreamDecoder()
    decoder.feed(memoryview(fvc.encode_framed(7)))
    assert list(decoder) == [7]
    with pytest.raises(TypeError, match="bytes-like"):
        decoder.feed("text")  # type: ignore[arg-type]


def test_every_bytes_like_encodes_as_a_packed_array(tmp_path: Any) -> None:
    expect = fvc.encode(b"abc")
    assert fvc.encode(memoryview(b"abc")) == expect
    assert fvc.encode(bytearray(b"abc")) == expect
    assert fvc.encode(memoryview(bytearray(b"xabc"))[1:]) == expect
    path = tmp_path / "m"
    path.write_bytes(b"abc")
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        assert fvc.encode(m) == expect
    ints = array("i", [1, -2])
    assert fvc.encode(memoryview(ints)) == fvc.encode(ints)
    assert fvc.decode_with_size(fvc.encode(memoryview(array("d", [0.5]))))[0] == array("d", [0.5])


def test_keys_and_saves_take_any_bytes_like(tmp_path: Any) -> None:
    key = bytes(range(32))
    data = encode_file([{"gold": 5}], dialect="godot3", key=bytearray(key))
    for k in [key, bytearray(key), memoryview(key)]:
        assert fvc.read_file(data, dialect="godot3", key=k) == [{"gold": 5}]
    assert fvc.read_file(memoryview(data), dialect="godot3", key=key) == [{"gold": 5}]
    assert fvc.read_file(bytearray(data), dialect="godot3", key=key) == [{"gold": 5}]
    path = tmp_path / "s.save"
    fvc.write_file(path, [1], key=memoryview(key))
    assert fvc.read_file(path, key=bytearray(key)) == [1]


def test_limits_none_is_no_limit_negative_is_a_value_error() -> None:
    data = fvc.encode([[1, 2], "abc"])
    assert fvc.decode_with_size(data, max_elements=None, max_bytes=None, max_depth=None)[0] == [[1, 2], "abc"]
    assert fvc.decode_with_size(data, max_elements=2**80, max_bytes=2**70)[0] == [[1, 2], "abc"]
    for name in ["max_elements", "max_bytes", "max_depth", "offset"]:
        with pytest.raises(ValueError, match=f"{name} must be None \\(no limit\\) or a number >= 0, not -1"):
            fvc.decode_with_size(data, **{name: -1})
    with pytest.raises(TypeError, match="max_elements must be an int or None"):
        fvc.decode_with_size(data, max_elements=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_message"):
        fvc.StreamDecoder(max_message=-1)
    with pytest.raises(ValueError, match="max_payload"):
        fvc.read_file(b"", dialect="godot3", max_payload=-1)
    with pytest.raises(fvc.DecodeError, match="ERR_OUT_OF_MEMORY|element"):
        fvc.decode_with_size(data, max_elements=1)


class _Index:
    """An int-like that is not an int: what numpy's integer scalars are to Python."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __index__(self) -> int:
        return self.n


def test_int_likes_with_index_encode_as_ints() -> None:
    assert fvc.encode(_Index(5)) == fvc.encode(5)
    assert fvc.encode({"n": [_Index(-(2**63))]}) == fvc.encode({"n": [-(2**63)]})
    with pytest.raises(fvc.EncodeError, match="64-bit") as e:
        fvc.encode([_Index(2**64)])
    assert e.value.path == "[0]"


def test_numpy_scalars_encode_as_their_python_values() -> None:
    np = pytest.importorskip("numpy")  # the test step installs it; the package never needs it
    for scalar, plain in [(np.int64(5), 5), (np.int32(-7), -7), (np.uint8(200), 200),
                          (np.uint64(2**63 - 1), 2**63 - 1), (np.bool_(True), True),
                          (np.bool_(False), False), (np.float64(0.5), 0.5), (np.float32(1.5), 1.5)]:
        assert fvc.encode(scalar) == fvc.encode(plain), scalar
        assert type(fvc.decode_with_size(fvc.encode(scalar))[0]) is type(plain)
    with pytest.raises(fvc.EncodeError, match="64-bit"):
        fvc.encode(np.uint64(2**64 - 1))
    # Arrays are unchanged: one dimension, a packed array.
    assert fvc.encode(np.array([1, 2], dtype=np.int32)) == fvc.encode(array("i", [1, 2]))


# ---------------------------------------------------------------------------------------------
# Names


def test_the_option_names_are_exported_as_types() -> None:
    import typing

    assert set(typing.get_args(fvc.Dialect)) == set(fvc.DIALECTS)
    assert typing.get_args(fvc.Precision) == ("single", "double")
    assert set(typing.get_args(fvc.Compression)) == {"fastlz", "deflate", "zstd", "gzip"}
    for c in typing.get_args(fvc.Compression):
        encode_file([1], dialect="godot3", compression=c)
    with pytest.raises(ValueError, match="unknown precision"):
        fvc.encode(1, precision="dobule")  # type: ignore[arg-type]


def test_exact_forms_need_no_allow_lossy_in_godot3() -> None:
    # docs/godot3.md's table: exact forms are written as they are, the rest needs allow_lossy.
    q = fvc.Quaternion(0.0, 0.0, 0.0, 1.0)
    assert fvc.decode_with_size(fvc.encode(q, dialect="godot3"), dialect="godot3")[0] == q
    assert fvc.decode_with_size(fvc.encode(fvc.TypedArray("int", [1]), dialect="godot3"), dialect="godot3")[0] == [1]
    with pytest.raises(fvc.EncodeError, match="Vector4"):
        fvc.encode(fvc.Vector4(1, 2, 3, 4), dialect="godot3")
    back = fvc.decode_with_size(fvc.encode(fvc.Vector4(1, 2, 3, 4), dialect="godot3", allow_lossy=True),
                      dialect="godot3")[0]
    assert back == fvc.Quaternion(1.0, 2.0, 3.0, 4.0)


def test_keys_python_would_merge_come_as_pairs() -> None:
    d = fvc.TypedDictionary(None, None, [(1, "int"), (1.0, "float"), (True, "bool")])
    back = fvc.decode_with_size(fvc.encode(d))[0]
    assert isinstance(back, fvc.TypedDictionary)
    assert back.pairs() == [(1, "int"), (1.0, "float"), (True, "bool")]
    assert fvc.encode(back) == fvc.encode(d)


# ---------------------------------------------------------------------------------------------
# the build from source


def test_a_build_from_source_is_stripped_as_the_wheels_are() -> None:
    # `pip install ./rust/python` runs maturin's build backend without --strip, so
    # [tool.maturin]'s `strip` decides; the release's wheels pass --strip (macOS --strip false,
    # which overrides it: tests/build_wheels.sh).
    import re

    import desc

    text = (desc.REPO / "rust" / "python" / "pyproject.toml").read_text()
    section = text.split("[tool.maturin]", 1)[1].split("\n[", 1)[0]
    assert re.search(r"^strip\s*=\s*true\s*$", section, re.M), section
