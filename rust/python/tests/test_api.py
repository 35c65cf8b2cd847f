"""The Python surface itself: the type mapping's choices, options, errors with offsets and
Godot error names, the stream decoder with values split and coalesced, and the package's
docstrings."""

from __future__ import annotations

import doctest
import math
from array import array

import pytest

import fast_var_codec as fvc


def test_package_docstrings() -> None:
    result = doctest.testmod(fvc, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0


def test_plain_types_round_trip() -> None:
    for v in [None, True, False, 0, -1, 2**31, -(2**63), 2**63 - 1, 0.5, "", "héllo ✓",
              b"\x00\xff", [1, [2.5, "x"]], {"a": {"b": None}}]:
        assert fvc.decode_with_size(fvc.encode(v))[0] == v


def test_int_and_float_are_kept_apart() -> None:
    back = fvc.decode_with_size(fvc.encode([1, 1.0, True]))[0]
    assert [type(x) for x in back] == [int, float, bool]


def test_godot_keys_python_would_merge_come_as_pairs() -> None:
    # Godot keeps 1, 1.0 and true as three keys; a Python dict cannot.
    value = fvc.TypedDictionary(None, None, [(1, "int"), (1.0, "float"), (True, "bool")])
    back = fvc.decode_with_size(fvc.encode(value))[0]
    assert isinstance(back, fvc.TypedDictionary)
    assert back.pairs() == [(1, "int"), (1.0, "float"), (True, "bool")]
    assert [type(k) for k, _ in back.pairs()] == [int, float, bool]


def test_an_array_key_comes_as_pairs() -> None:
    value = fvc.TypedDictionary(None, None, [([1, 2], "a list key")])
    back = fvc.decode_with_size(fvc.encode(value))[0]
    assert back.pairs() == [([1, 2], "a list key")]


def test_string_and_string_name_keys() -> None:
    # Godot 4 merges a String and a StringName of the same text as keys (the first stays, the
    # last value wins); Pandemonium keeps them apart (Godot 3 has no StringName: test_claims.py).
    data = fvc.encode(fvc.TypedDictionary(None, None, [("hp", 1), (fvc.StringName("hp"), 2)]))
    assert fvc.decode_with_size(data)[0] == {"hp": 2}
    data = fvc.encode(fvc.TypedDictionary(None, None, [("hp", 1), (fvc.StringName("hp"), 2)]),
                      dialect="pandemonium38")
    assert fvc.decode_with_size(data, dialect="pandemonium38")[0] == {"hp": 1, fvc.StringName("hp"): 2}


def test_godot3_equal_keys_merge_as_the_engine_does() -> None:
    # Two equal keys on the wire (Godot 3: a Dictionary {"a": 1, "a": 2} crafted by hand).
    one = fvc.encode({"a": 1}, dialect="godot3")
    two = fvc.encode({"a": 2}, dialect="godot3")
    crafted = one[:4] + (2).to_bytes(4, "little") + one[8:] + two[8:]
    assert fvc.decode_with_size(crafted, dialect="godot3") == ({"a": 2}, len(crafted))


def test_string_name_is_not_a_str() -> None:
    assert fvc.StringName("a") != "a"
    assert fvc.decode_with_size(fvc.encode(fvc.StringName("a")))[0] == fvc.StringName("a")
    # Godot 3 has no StringName: a String there.
    assert fvc.decode_with_size(fvc.encode(fvc.StringName("a"), dialect="godot3", allow_lossy=True),
                      dialect="godot3")[0] == "a"


def test_math_types_compare_by_class_and_fields() -> None:
    assert fvc.Vector2(1, 2) == fvc.Vector2(1.0, 2.0)
    assert fvc.Vector2(1, 2) != fvc.Vector2i(1, 2)
    assert fvc.Vector2(1, 2) != (1.0, 2.0)
    assert len({fvc.Vector2(1, 2), fvc.Vector2(1, 2)}) == 1
    assert repr(fvc.Vector3(1, 2, 3)) == "Vector3(1.0, 2.0, 3.0)"
    with pytest.raises(AttributeError):
        fvc.Vector2(1, 2).x = 3  # type: ignore[misc]


def test_basis_axes_are_columns_on_a_row_major_wire() -> None:
    b = fvc.Basis(fvc.Vector3(1, 2, 3), fvc.Vector3(4, 5, 6), fvc.Vector3(7, 8, 9))
    data = fvc.encode(b)
    rows = array("f", data[4:])
    assert list(rows) == [1, 4, 7, 2, 5, 8, 3, 6, 9]


def test_single_precision_rounds_reals_double_keeps_them() -> None:
    v = fvc.Vector2(0.1, 0.2)
    single = fvc.decode_with_size(fvc.encode(v))[0]
    assert single == fvc.Vector2(array("f", [0.1])[0], array("f", [0.2])[0])
    double = fvc.encode(v, precision="double")
    assert fvc.decode_with_size(double, precision="double")[0] == v
    with pytest.raises(fvc.EncodeError):
        fvc.encode(v, dialect="godot3", precision="double")


def test_packed_arrays_are_array_arrays() -> None:
    for code in "iqfd":
        a = array(code, [1, 2, 3])
        back = fvc.decode_with_size(fvc.encode(a))[0]
        assert isinstance(back, array) and back.typecode == code and back == a
    vectors = fvc.PackedVector2Array([(1, 2), (3, 4)])
    back = fvc.decode_with_size(fvc.encode(vectors))[0]
    assert back.data.typecode == "d" and list(back.data) == [1, 2, 3, 4]
    assert back[1] == fvc.Vector2(3, 4) and len(back) == 2
    with pytest.raises(fvc.EncodeError):
        fvc.encode(array("h", [1]))


def test_typed_containers() -> None:
    ints = fvc.TypedArray("int", [1, 2])
    data = fvc.encode(ints)
    assert data[:8] == bytes([28, 0, 1, 0, 2, 0, 0, 0])  # Array[int]
    assert fvc.decode_with_size(data)[0] == ints
    nodes = fvc.TypedArray("Node", [])
    full = fvc.encode(nodes, full_objects=True)
    assert fvc.decode_with_size(full, allow_objects=True)[0] == nodes
    # As the engine: objects sent as ids make a class-typed Array one of EncodedObjectAsIDs,
    # and so does a decode with objects refused.
    as_ids = fvc.TypedArray("EncodedObjectAsID", [])
    assert fvc.decode_with_size(fvc.encode(nodes), allow_objects=True)[0] == as_ids
    assert fvc.decode_with_size(full)[0] == as_ids
    scores = fvc.TypedDictionary("String", "int", {"ada": 3})
    assert fvc.decode_with_size(fvc.encode(scores))[0] == scores
    # Godot 4.3 has no typed Dictionaries: written untyped.
    assert fvc.decode_with_size(fvc.encode(scores, dialect="godot4_3"), dialect="godot4_3")[0] == {"ada": 3}


def test_decode_error_has_offset_and_godot_name() -> None:
    data = fvc.encode([1, "abc"])
    with pytest.raises(fvc.DecodeError) as e:
        fvc.decode_with_size(data[:-3])
    assert e.value.godot_error in ("ERR_INVALID_DATA", "ERR_FILE_EOF")
    assert 0 < e.value.offset <= len(data)
    assert isinstance(e.value, ValueError)


def test_limits() -> None:
    deep = fvc.encode([[[[1]]]])
    with pytest.raises(fvc.DecodeError) as e:
        fvc.decode_with_size(deep, max_depth=2)
    assert e.value.godot_error == "ERR_OUT_OF_MEMORY"
    with pytest.raises(fvc.DecodeError):
        fvc.decode_with_size(fvc.encode(list(range(10))), max_elements=5)
    with pytest.raises(fvc.DecodeError):
        fvc.decode_with_size(fvc.encode("x" * 100), max_bytes=10)
    assert fvc.decode_with_size(fvc.encode([[[[1]]]]), max_depth=5)[0] == [[[[1]]]]


def test_objects_need_allow_objects_and_the_allow_list() -> None:
    obj = fvc.Object("Resource", {"resource_name": "sword"})
    data = fvc.encode(obj, full_objects=True)
    with pytest.raises(fvc.DecodeError) as e:
        fvc.decode_with_size(data)
    assert e.value.godot_error == "ERR_UNAUTHORIZED"
    assert fvc.decode_with_size(data, allow_objects=True)[0] == obj
    assert fvc.decode_with_size(data, allow_objects=True, allowed_classes=["Resource"])[0] == obj
    with pytest.raises(fvc.DecodeError):
        fvc.decode_with_size(data, allow_objects=True, allowed_classes=["Node"])


def test_encode_error_has_the_path() -> None:
    with pytest.raises(fvc.EncodeError) as e:
        fvc.encode({"items": [1, object()]})
    assert e.value.path == '["items"][1]'  # the core's spelling, whoever finds the error
    assert e.value.godot_error == "ERR_INVALID_PARAMETER"
    with pytest.raises(fvc.EncodeError):
        fvc.encode(2**64)
    cycle: list = []
    cycle.append(cycle)
    with pytest.raises(fvc.EncodeError):
        fvc.encode(cycle)


def test_every_dialect() -> None:
    for d in fvc.DIALECTS:
        assert fvc.decode_with_size(fvc.encode({"a": [1, "b"]}, dialect=d), dialect=d)[0] == {"a": [1, "b"]}
    with pytest.raises(ValueError):
        fvc.encode(1, dialect="godot5")


def test_stream_decoder_split_and_coalesced() -> None:
    values = [1, "two", fvc.Vector3(1, 2, 3), {"k": [None]}, math.inf]
    wire = b"".join(fvc.encode_framed(v) for v in values)
    for step in (1, 3, 7, len(wire)):
        s = fvc.StreamDecoder()
        got = []
        for i in range(0, len(wire), step):
            s.feed(wire[i:i + step])
            got.extend(s)
        assert got == values and s.buffered == 0


def test_stream_decoder_bad_message_and_too_long() -> None:
    good = fvc.encode_framed(7)
    bad = (4).to_bytes(4, "little") + (99).to_bytes(4, "little")  # type id 99
    s = fvc.StreamDecoder()
    s.feed(bad + good)
    with pytest.raises(fvc.DecodeError) as e:
        s.next_value()
    assert e.value.offset == 4 and e.value.godot_error == "ERR_INVALID_DATA"
    assert s.next_value() == 7  # the stream goes on
    s = fvc.StreamDecoder(max_message=16)
    s.feed((1000).to_bytes(4, "little"))
    with pytest.raises(fvc.DecodeError) as e:
        s.next_value()
    assert e.value.godot_error == "ERR_OUT_OF_MEMORY" and s.broken
    s.reset()
    s.feed(good)
    assert list(s) == [7]


def test_big_endian_prefix() -> None:
    framed = fvc.encode_framed(5, big_endian=True)
    assert framed[:4] == (8).to_bytes(4, "big")
    s = fvc.StreamDecoder(big_endian=True)
    s.feed(framed)
    assert s.next_value() == 5


def test_readme_example() -> None:
    import re

    import desc

    text = (desc.REPO / "README.md").read_text()
    m = re.search(r"## From Python\n.*?```python\n(.*?)```", text, re.S)
    assert m, "README.md's Python example"
    test = doctest.DocTestParser().get_doctest(m.group(1), {}, "README.md", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize().attempted == 3 and runner.summarize().failed == 0


def test_asyncio_echo_over_tcp() -> None:
    import asyncio

    sent = [{"player": "ada", "pos": fvc.Vector2(1, 2)}, [1, 2, 3], "bye"]

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        decoder = fvc.StreamDecoder(max_message=1 << 16)
        while chunk := await reader.read(5):
            decoder.feed(chunk)
            for value in decoder:
                writer.write(fvc.encode_framed({"echo": value}))
                await writer.drain()
        writer.close()

    async def main() -> list:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        wire = b"".join(fvc.encode_framed(v) for v in sent)
        for i in range(0, len(wire), 3):  # split across writes
            writer.write(wire[i:i + 3])
            await writer.drain()
        decoder = fvc.StreamDecoder()
        replies: list = []
        while len(replies) < len(sent):
            decoder.feed(await reader.read(4096))
            replies.extend(decoder)
        writer.close()
        server.close()
        await server.wait_closed()
        return replies

    assert asyncio.run(main()) == [{"echo": v} for v in sent]


def test_a_star_in_allowed_classes_admits_every_class_and_script() -> None:
    # The core's one rule for a user's list, as GDScript's allowed_classes = ["*"] and npm's "*".
    values = [
        fvc.Object("Resource", {"resource_name": "r"}),
        fvc.Object("Node", {"name": "n"}),
        fvc.TypedArray("res://enemy.gd", []),
    ]
    for obj in values:
        data = fvc.encode(obj, full_objects=True)
        for names in (["*"], ["Resource", "*"], {"*"}):
            assert fvc.decode_with_size(data, allow_objects=True, allowed_classes=names)[0] == obj
            assert fvc.Codec(allow_objects=True, allowed_classes=names).decode_with_size(data)[0] == obj
        with pytest.raises(fvc.DecodeError) as e:
            fvc.decode_with_size(data, allow_objects=True, allowed_classes=["Image"])
        assert e.value.godot_error == "ERR_UNAUTHORIZED"


def test_allowed_classes_takes_any_iterable() -> None:
    data = fvc.encode(fvc.Object("Resource", {}), full_objects=True)
    assert fvc.decode_with_size(data, allow_objects=True, allowed_classes={"Resource"})[0].class_name == "Resource"
    with pytest.raises(TypeError):
        fvc.decode_with_size(data, allow_objects=True, allowed_classes="Resource")
    with pytest.raises(fvc.DecodeError) as e:
        fvc.decode_with_size(data, allow_objects=True, allowed_classes=[])
    assert e.value.godot_error == "ERR_UNAUTHORIZED"


def test_numpy_arrays_without_a_copy_per_element() -> None:
    np = pytest.importorskip("numpy")  # the test step installs it; the package never needs it
    for dtype, code in [("<i4", "i"), ("<i8", "q"), ("<f4", "f"), ("<f8", "d"), (">f4", "f")]:
        a = np.array([1, 2, 3], dtype=dtype)
        back = fvc.decode_with_size(fvc.encode(a))[0]
        assert back == array(code, [1, 2, 3]), dtype
        # And back to numpy without a copy: a view of the array's buffer.
        view = np.frombuffer(back, dtype=back.typecode)
        assert view.tolist() == [1, 2, 3]
    assert fvc.decode_with_size(fvc.encode(np.array([7, 255], dtype=np.uint8)))[0] == bytes([7, 255])
    with pytest.raises(fvc.EncodeError):
        fvc.encode(np.zeros((2, 2), dtype="<f4"))
    with pytest.raises(fvc.EncodeError):
        fvc.encode(np.zeros(2, dtype="<i2"))


def test_decode_at_an_offset_and_the_version() -> None:
    from importlib.metadata import version

    data = fvc.encode(1) + fvc.encode("two")
    first, used = fvc.decode_with_size(data)
    assert (first, fvc.decode_with_size(data, offset=used)) == (1, ("two", len(data) - used))
    with pytest.raises(fvc.DecodeError) as e:
        fvc.decode_with_size(data[:-1], offset=used)
    assert e.value.offset >= used
    assert fvc.__version__ == version("fast_var_codec")


def test_short_strs_decode_as_written() -> None:
    # A decode hands out short strs it made before (in this decode or an earlier one): each
    # must still be the text on the wire, whatever shares its slot.
    words = [f"k{i}" for i in range(300)] + ["é" * 8, "é" * 9, "x" * 16, "x" * 17, "", "a\u0301"]
    value = {w: [w[::-1], w] for w in words}
    for _ in range(2):
        assert fvc.decode_with_size(fvc.encode(value))[0] == value
    assert fvc.decode_with_size(fvc.encode(["k1", "k2"]))[0] == ["k1", "k2"]


def test_frozen_values_are_made_and_read_through_their_slots() -> None:
    # Decoding stores a math value's components straight into its slots, and encoding reads a
    # Vector2's or Vector3's from there: every frozen class comes back whole and equal.
    values = [
        fvc.Vector2(1.5, -2.0), fvc.Vector2i(3, -4), fvc.Vector3(0.5, 1.0, -1.5),
        fvc.Vector3i(1, 2, 3), fvc.Vector4(1.0, 2.0, 3.0, 4.0), fvc.Vector4i(5, 6, 7, 8),
        fvc.Rect2(fvc.Vector2(1.0, 2.0), fvc.Vector2(3.0, 4.0)),
        fvc.Rect2i(fvc.Vector2i(1, 2), fvc.Vector2i(3, 4)),
        fvc.Plane(fvc.Vector3(0.0, 1.0, 0.0), 2.5), fvc.Quaternion(0.0, 0.0, 0.0, 1.0),
        fvc.Color(0.25, 0.5, 0.75, 1.0), fvc.StringName("hp"), fvc.RID(7),
        fvc.EncodedObjectAsID(9),
    ]
    back = fvc.decode_with_size(fvc.encode(values))[0]
    assert back == values
    assert [repr(v) for v in back] == [repr(v) for v in values]
    # A component stored as another number than the class stores it (object.__setattr__
    # bypasses the class's conversion) is read as the attribute, as before.
    odd = fvc.Vector2(1.0, 2.0)
    object.__setattr__(odd, "x", 3)
    assert fvc.encode(odd) == fvc.encode(fvc.Vector2(3.0, 2.0))
    codec = fvc.Codec(precision="double")
    assert codec.decode_with_size(codec.encode([odd]))[0] == [fvc.Vector2(3.0, 2.0)]


def test_a_decoded_packed_array_owns_its_numbers() -> None:
    # The array reads the input through a view released at once: it keeps nothing of it.
    import array

    data = bytearray(fvc.encode(array.array("f", [1.0, 2.0, 3.0])))
    numbers, _ = fvc.decode_with_size(data)
    data[8:12] = bytes(4)
    assert numbers == array.array("f", [1.0, 2.0, 3.0])
    assert fvc.decode_with_size(memoryview(bytes(data)))[0] == array.array("f", [0.0, 2.0, 3.0])
