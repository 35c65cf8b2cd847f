"""The Codec object (options held once), the module functions as its shortcuts, one spelling
of "no limit" (None), and the errors with their path or offset."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import pytest

import fast_var_codec as fvc
from desc import encode_file
from test_golden import corpus


def test_a_codec_holds_dialect_precision_limits_and_objects() -> None:
    codec = fvc.Codec(dialect="godot4_3", precision="double", max_depth=2, full_objects=True,
                      allow_objects=True, allowed_classes=["Node"])
    value = {"pos": fvc.Vector2(0.1, 2.0)}
    data = codec.encode(value)
    assert data == fvc.encode(value, dialect="godot4_3", precision="double", full_objects=True)
    assert codec.decode_with_size(data) == fvc.decode_with_size(data, dialect="godot4_3", precision="double")
    assert codec.decode_with_size(data)[0] == value  # binary64 kept: precision="double" both ways
    with pytest.raises(fvc.DecodeError) as e:
        codec.decode_with_size(codec.encode([[[1]]]))
    assert e.value.offset == 24 and "nesting deeper than 2" in e.value.message
    obj = fvc.Object("Node", {"name": "x"})
    assert codec.decode_with_size(codec.encode(obj))[0] == obj
    assert codec.encode_framed(7) == fvc.encode_framed(7, dialect="godot4_3", precision="double")


def test_a_codec_checks_its_options_when_made() -> None:
    for bad in [{"dialect": "godot5"}, {"precision": "half"}, {"max_depth": -1},
                {"max_message": -1}, {"max_payload": -2}]:
        with pytest.raises(ValueError):
            fvc.Codec(**bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fvc.Codec(allowed_classes="Node")


def test_a_codec_makes_stream_decoders_with_its_options() -> None:
    codec = fvc.Codec(dialect="godot3", max_message=64, big_endian=True)
    decoder = codec.stream_decoder()
    assert isinstance(decoder, fvc.StreamDecoder) and decoder.max_message == 64
    decoder.feed(codec.encode_framed({"a": 1}) + codec.encode_framed("b"))
    assert list(decoder) == [{"a": 1}, "b"]
    decoder.feed(codec.encode_framed("x" * 100))
    with pytest.raises(fvc.DecodeError) as e:
        decoder.next_value()
    assert e.value.godot_error == "ERR_OUT_OF_MEMORY" and decoder.broken


def test_none_is_no_limit_everywhere() -> None:
    # max_message and max_payload took None as "the default" before; now as the other limits.
    assert fvc.StreamDecoder().max_message == fvc.DEFAULT_MAX_MESSAGE == 8 << 20
    assert fvc.StreamDecoder(max_message=None).max_message > 1 << 32
    big = fvc.encode_framed(b"\0" * (9 << 20))
    unlimited = fvc.Codec(max_message=None).stream_decoder()
    unlimited.feed(big)
    assert unlimited.next_value() == b"\0" * (9 << 20)
    save = encode_file([b"\0" * 300], dialect="godot3", compression="zstd")
    with pytest.raises(fvc.SaveFileError):
        fvc.Codec(dialect="godot3", max_payload=100).read_file(save)
    assert fvc.Codec(dialect="godot3", max_payload=None).read_file(save) == [b"\0" * 300]


def test_a_codec_reads_and_writes_files(tmp_path: Path) -> None:
    codec = fvc.Codec(dialect="godot3")
    path = tmp_path / "save.bin"
    key = bytearray(range(32))
    codec.write_file(path, [{"gold": 3}, "two"], key=key)
    assert codec.read_file(path, key=key) == [{"gold": 3}, "two"]
    assert fvc.read_file(path, dialect="godot3", key=key) == [{"gold": 3}, "two"]
    assert codec.read_file(path.read_bytes(), key=memoryview(bytes(key))) == [
        {"gold": 3}, "two"]
    with pytest.raises(fvc.SaveFileError) as e:
        codec.read_file(path, key=bytes(32))
    assert e.value.godot_error == "ERR_FILE_CORRUPT"


def test_a_bytearray_key_works_in_every_file_function(tmp_path: Path) -> None:
    key = bytearray(b"k" * 32)
    path = tmp_path / "g4.bin"
    fvc.write_file(path, [1], key=key)
    assert fvc.read_file(path, key=key) == [1]
    fvc.write_file(path, [2], dialect="godot3", key=key)
    assert fvc.read_file(path, dialect="godot3", key=key) == [2]
    assert fvc.read_file(encode_file([3], dialect="godot3", key=key), dialect="godot3", key=key) == [3]


def test_every_failure_names_where() -> None:
    codec = fvc.Codec()
    with pytest.raises(fvc.EncodeError) as enc:
        codec.encode({"items": [1, object()]})
    assert enc.value.path == '["items"][1]'
    with pytest.raises(fvc.EncodeError) as enc:
        codec.write_file(io.BytesIO(), [1, {"a": "x\x00"}])
    assert enc.value.path == '["a"]' and enc.value.message.startswith("value 1")
    with pytest.raises(fvc.DecodeError) as dec:
        codec.decode_with_size(b"\x00" * 8 + b"\xff\x00\x00\x00", offset=8)
    assert dec.value.offset == 8


def test_a_codec_is_immutable_and_replaced_checked() -> None:
    codec = fvc.Codec(dialect="godot3")
    with pytest.raises(AttributeError):
        codec.dialect = "godot5"  # type: ignore[assignment]
    deeper = codec.replace(max_depth=4)
    assert deeper.dialect == "godot3" and deeper.max_depth == 4 and codec.max_depth is None
    with pytest.raises(ValueError):
        codec.replace(precision="half")


def godot3_transform() -> bytes:
    """A Godot 3.6.2 Transform as the engine wrote it (the golden corpus): Godot 4 reads its
    first 20 bytes as a Vector4i (a header, then 16 bytes) and leaves 32."""
    for case in corpus("godot3_6_2.json")["cases"]:
        if case["name"] == "transform3d/distinct":
            return bytes.fromhex(case["bytes"])
    raise AssertionError("the corpus has transform/distinct")


def test_decode_refuses_bytes_after_the_value_as_msgpack_does() -> None:
    data = fvc.encode({"hp": 3})
    assert fvc.decode(data) == {"hp": 3}
    assert fvc.decode(b"xy" + data, offset=2) == {"hp": 3}
    for decode in (fvc.decode, fvc.Codec().decode):
        with pytest.raises(fvc.ExtraData) as extra:
            decode(data + b"\x01\x02")
        assert isinstance(extra.value, fvc.DecodeError)
        assert extra.value.unpacked == {"hp": 3} and extra.value.extra == b"\x01\x02"
        assert extra.value.offset == len(data) and extra.value.godot_error == "ERR_INVALID_DATA"
    back = pickle.loads(pickle.dumps(extra.value))
    assert (back.unpacked, back.extra, back.offset) == ({"hp": 3}, b"\x01\x02", len(data))
    # decode_with_size reads a value that more bytes follow.
    assert fvc.decode_with_size(data + b"\x01\x02") == ({"hp": 3}, len(data))
    assert fvc.Codec().decode_with_size(b"xy" + data + b"z", 2) == ({"hp": 3}, len(data))


def test_extra_data_names_the_dialect_that_reads_the_bytes_whole() -> None:
    transform = godot3_transform()
    value = fvc.decode(transform, dialect="godot3")
    with pytest.raises(fvc.ExtraData) as extra:
        fvc.decode(transform)  # Godot 4: a Vector4i, then 32 bytes
    assert isinstance(extra.value.unpacked, fvc.Vector4i)
    assert extra.value.extra == transform[20:] and extra.value.offset == 20
    assert 'reads whole as Godot 3 (dialect "godot3")' in str(extra.value), str(extra.value)
    assert fvc.Codec(dialect="godot3").decode(transform) == value


def test_a_size_never_passes_the_end_of_the_input() -> None:
    # Godot 4.6.3's var_to_bytes(PackedByteArray([7])), its final padding cut: the engine
    # accepts it and counts the padding (decode_var_size 12); the size here ends with the data.
    for case in corpus("godot4_6_3.json")["malformed"]:
        if case["name"] == "craft/packed_byte_array_missing_padding":
            cut = bytes.fromhex(case["bytes"])
            assert case["ok"] and case["size"] > len(cut)
            value, used = fvc.decode_with_size(cut)
            assert used == len(cut)
            assert fvc.decode(cut) == value
            break
    else:
        raise AssertionError("the corpus has craft/packed_byte_array_missing_padding")


def test_write_file_to_a_path_is_whole_or_nothing(tmp_path: Path) -> None:
    path = tmp_path / "user.save"
    fvc.write_file(path, [{"gold": 5}], dialect="godot3", password="pw")
    before = path.read_bytes()
    with pytest.raises(fvc.EncodeError):
        fvc.write_file(path, [{"gold": 6}, object()], dialect="godot3", password="pw")
    assert path.read_bytes() == before
    assert fvc.read_file(path, dialect="godot3", password="pw") == [{"gold": 5}]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["user.save"]  # no file left beside it
    # A binary file object, both ways.
    out = io.BytesIO()
    fvc.Codec(dialect="godot3").write_file(out, [1, "two"], compression="zstd")
    assert fvc.read_file(io.BytesIO(out.getvalue())) == [1, "two"]
    assert fvc.Codec(dialect="godot3").read_file(out.getvalue()) == [1, "two"]
    with pytest.raises(TypeError, match="binary file object"):
        fvc.write_file(b"not a file", [1])  # type: ignore[arg-type]


def test_the_dialect_names_are_the_cores() -> None:
    import fast_var_codec._native as native

    assert fvc.DIALECTS is native.DIALECTS
    assert fvc.DIALECTS[0] == "godot4" and "godot3" in fvc.DIALECTS
    for d in fvc.DIALECTS:
        assert fvc.decode(fvc.encode(7, dialect=d), dialect=d) == 7
