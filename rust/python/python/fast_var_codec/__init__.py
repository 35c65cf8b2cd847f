"""Godot's binary Variant format for Python: ``var_to_bytes`` / ``bytes_to_var``,
``StreamPeer.put_var`` framing, ``store_var`` files and Godot 3 saves (plain, compressed,
encrypted), compressed packets (``PackedByteArray.compress``), Godot's text (``str_to_var``)
and ``ConfigFile`` files, in every dialect of
FastVarCodec's Rust core (Godot 4.4-4.6, 4.3, 4.0-4.2, Godot 3, Pandemonium), with limits for
untrusted input.

>>> from fast_var_codec import encode, decode, Vector2
>>> data = encode({"pos": Vector2(1.5, 2.0), "hp": 3})
>>> decode(data)
{'pos': Vector2(1.5, 2.0), 'hp': 3}

The type mapping, the options and the file functions: docs/python.md.
"""

from __future__ import annotations

from typing import Any, Iterable, List, Literal, Optional, Union

from . import _native, _types
from ._codec import (
    DEFAULT_MAX_MESSAGE,
    DEFAULT_MAX_PAYLOAD,
    Codec,
    FileLike,
    StreamDecoder,
    _read_file,
)
from ._containers import ElementType, TypedArray, TypedDictionary
from ._native import (
    DIALECTS,
    __version__,
    compress,
    decode,
    decode_compressed,
    decode_with_size,
    decompress,
    encode,
    encode_framed,
    read_config_file,
    read_json_save,
    read_text_resource,
    str_to_var,
    var_to_str,
    write_config_file,
    write_json_save,
    write_text_resource,
)
from ._options import BytesLike, Compression, Dialect, Precision
from ._types import (
    AABB,
    RID,
    Basis,
    Callable,
    Color,
    DecodeError,
    EncodedObjectAsID,
    EncodeError,
    ExtraData,
    FastVarCodecError,
    NodePath,
    OutOfData,
    Object,
    PackedColorArray,
    PackedStringArray,
    PackedVector2Array,
    PackedVector3Array,
    PackedVector4Array,
    Plane,
    Projection,
    Quaternion,
    Rect2,
    Rect2i,
    SaveFileError,
    Signal,
    StringName,
    Transform2D,
    Transform3D,
    Vector2,
    Vector2i,
    Vector3,
    Vector3i,
    Vector4,
    Vector4i,
)

__all__ = [
    "__version__", "Codec", "encode", "decode", "decode_with_size", "encode_framed",
    "compress", "decompress", "decode_compressed",
    "str_to_var", "var_to_str", "read_config_file", "write_config_file",
    "read_text_resource", "write_text_resource", "read_json_save", "write_json_save",
    "StreamDecoder", "read_file", "write_file", "DIALECTS",
    "Vector2", "Vector2i", "Rect2", "Rect2i", "Vector3", "Vector3i", "Transform2D",
    "Vector4", "Vector4i", "Plane", "Quaternion", "AABB", "Basis", "Transform3D",
    "Projection", "Color", "StringName", "NodePath", "RID", "EncodedObjectAsID", "Object",
    "Callable", "Signal", "TypedArray", "TypedDictionary", "PackedStringArray",
    "PackedVector2Array", "PackedVector3Array", "PackedVector4Array", "PackedColorArray",
    "FastVarCodecError", "DecodeError", "ExtraData", "EncodeError", "SaveFileError", "OutOfData",
    "DEFAULT_MAX_PAYLOAD", "DEFAULT_MAX_MESSAGE", "ElementType", "Dialect", "Precision",
    "Compression", "BytesLike", "FileLike",
]

for _cls in [getattr(_types, _name) for _name in _types.__all__] + [TypedArray, TypedDictionary,
                                                                   Codec, StreamDecoder]:
    # The classes are the package's: their repr and pickles name fast_var_codec.
    _cls.__module__ = __name__
del _cls
# The extension's functions themselves (no Python frame per call), as the package's.
for _function in (encode, encode_framed, decode, decode_with_size, compress, decompress,
                  decode_compressed, str_to_var, var_to_str, read_config_file, write_config_file, read_text_resource, write_text_resource,
                  read_json_save, write_json_save):
    _function.__module__ = __name__
del _function


def read_file(
    file: FileLike,
    *,
    dialect: Union[Dialect, Literal["auto"]] = "auto",
    precision: Precision = "single",
    password: Optional[str] = None,
    key: Optional[BytesLike] = None,
    max_payload: Optional[int] = DEFAULT_MAX_PAYLOAD,
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
    allow_objects: bool = False,
    allowed_classes: Optional[Iterable[str]] = None,
    refuse_dropped_elements: bool = False,
) -> List[Any]:
    """The values of a file written by ``FileAccess.store_var`` (Godot 3's ``File.store_var``
    too), one per record, as ``get_var`` reads them: ``file`` is a path, the file's bytes or a
    binary file object. Plain, compressed (``open_compressed``, any mode) or encrypted
    (``open_encrypted_with_pass`` with ``password``, ``open_encrypted`` with the 32-byte
    ``key``), in Godot 4's container or Godot 3's.

    With ``dialect="auto"`` (the default) the values are read in the dialect the records tell,
    so a Godot 3 save is read as Godot 3; where engines read them as different values (a file
    of one Godot 3 Color, which is also a Godot 4 Plane), :class:`DecodeError` names each
    reading and its ``dialects``: pass one. A record whose value leaves bytes of it unread
    raises :class:`DecodeError` naming the dialect that reads it whole. A compressed or
    encrypted file announcing more than ``max_payload`` bytes (None: no limit) raises
    :class:`SaveFileError` (``ERR_OUT_OF_MEMORY``) before anything is inflated; a wrong
    password or key :class:`SaveFileError` (``ERR_FILE_CORRUPT``). The other options are
    :func:`decode`'s."""
    return _read_file(file, dialect, max_payload, password, key, {
        "precision": precision, "max_depth": max_depth, "max_elements": max_elements,
        "max_bytes": max_bytes, "allow_objects": allow_objects,
        "allowed_classes": allowed_classes, "refuse_dropped_elements": refuse_dropped_elements,
    })


def write_file(
    file: FileLike,
    values: Iterable[Any],
    *,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    full_objects: bool = False,
    allow_lossy: bool = False,
    compression: Optional[Compression] = None,
    password: Optional[str] = None,
    key: Optional[BytesLike] = None,
) -> None:
    """Writes ``values`` as ``store_var`` does, one record each, to ``file``: a path, or a
    binary file object (``io.BytesIO`` for the bytes). A plain file, which
    ``FileAccess.open(path, READ)`` and ``get_var`` read back; with ``compression``
    (``"fastlz"``, ``"deflate"``, ``"zstd"``, ``"gzip"``) the file
    ``FileAccess.open_compressed(path, WRITE, mode)`` writes (Godot 3's ``File`` too); with a
    ``password`` or 32-byte ``key`` the file ``open_encrypted_with_pass`` / ``open_encrypted``
    writes (Godot 4's container, with a random IV, for the Godot 4 dialects; Godot 3's for
    ``"godot3"``). Compressed or encrypted, not both (:class:`SaveFileError`,
    ``ERR_INVALID_PARAMETER``).

    Every value is encoded before anything is written, and a path is written whole or not at
    all (a file beside it, then renamed over it): a value that cannot be written raises
    :class:`EncodeError`, naming its index and path, and leaves an existing file as it was.
    The other options are :func:`encode`'s."""
    Codec(dialect=dialect, precision=precision, full_objects=full_objects,
          allow_lossy=allow_lossy).write_file(
        file, values, compression=compression, password=password, key=key)
