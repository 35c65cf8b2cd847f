"""The Codec object (options held once), the module functions as its shortcuts, one spelling
of "no limit" (None), and the errors with their path or offset."""

from __future__ import annotations

from pathlib import Path

import pytest

import fast_var_codec as fvc


def test_a_codec_holds_dialect_precision_limits_and_objects() -> None:
    codec = fvc.Codec(dialect="godot4_3", precision="double", max_depth=2, full_objects=True,
                      allow_objects=True, allowed_classes=["Node"])
    value = {"pos": fvc.Vector2(0.1, 2.0)}
    data = codec.encode(value)
    assert data == fvc.encode(value, dialect="godot4_3", precision="double", full_objects=True)
    assert codec.decode(data) == fvc.decode(data, dialect="godot4_3", precision="double")
    assert codec.decode(data)[0] == value  # binary64 kept: precision="double" both ways
    with pytest.raises(fvc.DecodeError) as e:
        codec.decode(codec.encode([[[1]]]))
    assert e.value.offset == 24 and "nesting deeper than 2" in e.value.message
    obj = fvc.Object("Node", {"name": "x"})
    assert codec.decode(codec.encode(obj))[0] == obj
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
    save = fvc.Codec(dialect="godot3").encode_store_var_file([b"\0" * 300], compression="zstd")
    with pytest.raises(fvc.SaveFileError):
        fvc.Codec(dialect="godot3", max_payload=100).read_store_var_file(save)
    assert fvc.Codec(dialect="godot3", max_payload=None).read_store_var_file(save) == [b"\0" * 300]


def test_a_codec_reads_and_writes_files(tmp_path: Path) -> None:
    codec = fvc.Codec(dialect="godot3")
    path = tmp_path / "save.bin"
    key = bytearray(range(32))
    codec.write_store_var_file(path, [{"gold": 3}, "two"], key=key)
    assert codec.read_store_var_file(path, key=key) == [{"gold": 3}, "two"]
    assert fvc.read_godot3_save(path, key=key) == [{"gold": 3}, "two"]
    assert codec.read_store_var_file(path.read_bytes(), key=memoryview(bytes(key))) == [
        {"gold": 3}, "two"]
    with pytest.raises(fvc.SaveFileError) as e:
        codec.read_store_var_file(path, key=bytes(32))
    assert e.value.godot_error == "ERR_FILE_CORRUPT"


def test_a_bytearray_key_works_in_every_file_function(tmp_path: Path) -> None:
    key = bytearray(b"k" * 32)
    path = tmp_path / "g4.bin"
    fvc.write_store_var_file(path, [1], key=key)
    assert fvc.read_store_var_file(path, key=key) == [1]
    fvc.write_godot3_save(path, [2], key=key)
    assert fvc.read_godot3_save(path, key=key) == [2]
    assert fvc.read_godot3_save(fvc.encode_godot3_save([3], key=key), key=key) == [3]


def test_every_failure_names_where() -> None:
    codec = fvc.Codec()
    with pytest.raises(fvc.EncodeError) as enc:
        codec.encode({"items": [1, object()]})
    assert enc.value.path == '["items"][1]'
    with pytest.raises(fvc.EncodeError) as enc:
        codec.encode_store_var_file([1, {"a": "x\x00"}])
    assert enc.value.path == '["a"]' and enc.value.message.startswith("value 1")
    with pytest.raises(fvc.DecodeError) as dec:
        codec.decode(b"\x00" * 8 + b"\xff\x00\x00\x00", offset=8)
    assert dec.value.offset == 8


def test_a_codec_is_immutable_and_replaced_checked() -> None:
    codec = fvc.Codec(dialect="godot3")
    with pytest.raises(AttributeError):
        codec.dialect = "godot5"  # type: ignore[assignment]
    deeper = codec.replace(max_depth=4)
    assert deeper.dialect == "godot3" and deeper.max_depth == 4 and codec.max_depth is None
    with pytest.raises(ValueError):
        codec.replace(precision="half")
