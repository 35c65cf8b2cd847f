"""The options of a codec held once: :class:`Codec`, and the functions of the package, which are
its methods with the options given per call. Every path ends in the extension module's
functions; the format's rules are the core's."""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import IO, Any, Iterable, List, Literal, Optional, Tuple, Union

from . import _native
from ._options import BytesLike, Compression, Dialect, Precision

PathLike = Union[str, "os.PathLike[str]"]
FileLike = Union[PathLike, BytesLike, IO[bytes]]
"""What the file functions take: a path, the file's bytes (to read), or a binary file object."""

DEFAULT_MAX_PAYLOAD: int = _native.DEFAULT_MAX_PAYLOAD
"""The largest payload a compressed or encrypted file may announce (256 MiB) unless
``max_payload=`` says otherwise: nothing above it is inflated or decrypted."""

DEFAULT_MAX_MESSAGE: int = _native.DEFAULT_MAX_MESSAGE
"""The largest message a :class:`StreamDecoder` takes (8 MiB, the engine's) unless
``max_message=`` says otherwise."""


class StreamDecoder(_native.StreamDecoder):
    """Values from a byte stream fed in pieces as they arrive (split and coalesced), each a u32
    length then the encoding, as ``StreamPeer.put_var`` sends them (``big_endian``: the
    prefix's byte order, as ``StreamPeer.big_endian``). The other options are :func:`decode`'s.

    Limits: a message above ``max_message`` bytes (8 MiB by default, the engine's; None is no
    limit) raises :class:`DecodeError` (``ERR_OUT_OF_MEMORY``) and breaks the stream until
    :meth:`reset`; ``max_depth``, ``max_elements``, ``max_bytes`` per value as in
    :func:`decode`. A message that does not decode raises :class:`DecodeError` with its offset
    in the stream, and the stream goes on. A bad option is a ``ValueError``.

    With ``dialect="auto"`` the dialect is taken from the peer's own messages, so one server
    port reads Godot 3 and Godot 4 clients: each message narrows the dialects to those that
    read every message so far whole; values are read in the first of them (``"godot4"`` until
    a message only another reads whole: a Godot 3 Rect2 or Transform, say). Most values (ints,
    Strings, Vector2s, Arrays of them) read the same in every dialect; a Godot 3 Color reads as a
    Godot 4 Plane until told. Answer in :attr:`dialect`."""

    __slots__ = ()

    def __new__(
        cls,
        *,
        dialect: Union[Dialect, Literal["auto"]] = "godot4",
        precision: Precision = "single",
        max_message: Optional[int] = DEFAULT_MAX_MESSAGE,
        big_endian: bool = False,
        max_depth: Optional[int] = None,
        max_elements: Optional[int] = None,
        max_bytes: Optional[int] = None,
        allow_objects: bool = False,
        allowed_classes: Optional[Iterable[str]] = None,
        refuse_dropped_elements: bool = False,
    ) -> "StreamDecoder":
        return super().__new__(
            cls,
            dialect=dialect,
            precision=precision,
            max_message=max_message,
            big_endian=big_endian,
            max_depth=max_depth,
            max_elements=max_elements,
            max_bytes=max_bytes,
            allow_objects=allow_objects,
            allowed_classes=allowed_classes,
            refuse_dropped_elements=refuse_dropped_elements,
        )


class Codec(_native.Codec):
    """A dialect, precision, limits and object policy held once (as ``msgpack.Packer`` and
    ``Unpacker`` hold theirs), used by every method: :meth:`encode`, :meth:`decode`,
    :meth:`decode_with_size`, :meth:`encode_framed`, :meth:`stream_decoder`,
    :meth:`read_file`, :meth:`write_file`. The package's functions are these methods with the
    options given per call.

    >>> import fast_var_codec as fvc
    >>> codec = fvc.Codec(dialect="godot3", max_depth=8, max_elements=10_000)
    >>> codec.decode(codec.encode({"hp": 3}))
    {'hp': 3}

    Options (each checked here: a bad name or a negative limit is a ``ValueError``):

    * ``dialect``: a :data:`Dialect`; ``precision``: ``"single"`` or ``"double"``.
    * Encoding: ``full_objects`` (write an :class:`Object` whole), ``allow_lossy`` (write a
      value the dialect has no type for as the engine converts it).
    * Limits for untrusted input, None is no limit: ``max_depth`` nesting (at most 1024, the
      default), ``max_elements`` container elements in all, ``max_bytes`` of strings and
      packed arrays, ``max_message`` bytes of a stream's message (8 MiB by default),
      ``max_payload`` bytes a compressed or encrypted file may announce (256 MiB by default).
    * Objects: decoded only with ``allow_objects``; then ``allowed_classes``, when given, the
      class names and ``res://`` script paths admitted. ``refuse_dropped_elements``: a typed
      container's element the engine would drop raises instead.
    * ``big_endian``: a stream's length prefix in big-endian (``StreamPeer.big_endian``).

    Errors: :class:`EncodeError` (with ``path``) for a value that cannot be written,
    :class:`DecodeError` (with ``offset``) for bytes that do not decode or break a limit,
    :class:`SaveFileError` for a file's container (a wrong password, a payload above
    ``max_payload``)."""

    __slots__ = (
        "dialect", "precision", "full_objects", "allow_lossy", "max_depth", "max_elements",
        "max_bytes", "allow_objects", "allowed_classes", "refuse_dropped_elements",
        "max_message", "max_payload", "big_endian",
    )

    def __init__(
        self,
        *,
        dialect: Dialect = "godot4",
        precision: Precision = "single",
        full_objects: bool = False,
        allow_lossy: bool = False,
        max_depth: Optional[int] = None,
        max_elements: Optional[int] = None,
        max_bytes: Optional[int] = None,
        allow_objects: bool = False,
        allowed_classes: Optional[Iterable[str]] = None,
        refuse_dropped_elements: bool = False,
        max_message: Optional[int] = DEFAULT_MAX_MESSAGE,
        max_payload: Optional[int] = DEFAULT_MAX_PAYLOAD,
        big_endian: bool = False,
    ) -> None:
        fields = {
            "dialect": dialect, "precision": precision, "full_objects": full_objects,
            "allow_lossy": allow_lossy, "max_depth": max_depth, "max_elements": max_elements,
            "max_bytes": max_bytes, "allow_objects": allow_objects,
            "allowed_classes": None if allowed_classes is None else _names(allowed_classes),
            "refuse_dropped_elements": refuse_dropped_elements, "max_message": max_message,
            "max_payload": max_payload, "big_endian": big_endian,
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        # Every option checked now, by the functions that take them; then held by the native
        # half, whose encode and decode use them with no further reading or checking.
        self.stream_decoder()
        _native.encode(None, **self._encoding())
        _native._read_records(b"", max_payload=max_payload, **self._decoding())
        self._configure(dialect, precision, full_objects, allow_lossy, max_depth, max_elements,
                        max_bytes, allow_objects, self.allowed_classes, refuse_dropped_elements,
                        big_endian)

    dialect: Dialect
    precision: Precision
    full_objects: bool
    allow_lossy: bool
    max_depth: Optional[int]
    max_elements: Optional[int]
    max_bytes: Optional[int]
    allow_objects: bool
    allowed_classes: Optional[Tuple[str, ...]]
    refuse_dropped_elements: bool
    max_message: Optional[int]
    max_payload: Optional[int]
    big_endian: bool

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Codec's options are checked once, when it is made: make another "
                             "(codec.replace(dialect=...))")

    def replace(self, **changes: Any) -> "Codec":
        """A new codec with some options changed (``codec.replace(max_depth=8)``), checked as
        when made."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return Codec(**fields)

    __replace__ = replace

    def _encoding(self) -> Any:
        return {"dialect": self.dialect, "precision": self.precision,
                "full_objects": self.full_objects, "allow_lossy": self.allow_lossy}

    def _decoding(self) -> Any:
        return {"dialect": self.dialect, "precision": self.precision,
                "max_depth": self.max_depth, "max_elements": self.max_elements,
                "max_bytes": self.max_bytes, "allow_objects": self.allow_objects,
                "allowed_classes": self.allowed_classes,
                "refuse_dropped_elements": self.refuse_dropped_elements}

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"Codec({fields})"

    def stream_decoder(self) -> StreamDecoder:
        """A new :class:`StreamDecoder` with these options (``max_message``, ``big_endian``
        and the decoding ones)."""
        return StreamDecoder(max_message=self.max_message, big_endian=self.big_endian,
                             **self._decoding())

    def read_file(
        self,
        file: FileLike,
        *,
        password: Optional[str] = None,
        key: Optional[BytesLike] = None,
    ) -> List[Any]:
        """The values of a file written by ``FileAccess.store_var`` (a path, the file's bytes,
        or a binary file object to read), one per record: plain, compressed
        (``open_compressed``, any mode) or encrypted (``open_encrypted_with_pass`` with
        ``password``, ``open_encrypted`` with the 32-byte ``key``, any bytes-like object).
        Raises :class:`SaveFileError` for a wrong password or key (``ERR_FILE_CORRUPT``), a
        missing one (``ERR_UNAUTHORIZED``), a record cut short (``ERR_FILE_EOF``) or a payload
        above ``max_payload`` (``ERR_OUT_OF_MEMORY``); :class:`DecodeError` for a record that
        does not decode or leaves bytes unread."""
        return _read_file(file, self.dialect, self.max_payload, password, key,
                          self._decoding())

    def write_file(
        self,
        file: FileLike,
        values: Iterable[Any],
        *,
        compression: Optional[Compression] = None,
        password: Optional[str] = None,
        key: Optional[BytesLike] = None,
    ) -> None:
        """Writes ``values`` as ``store_var`` does, one record each, to ``file``: a path, or a
        binary file object (``io.BytesIO`` for the bytes). A plain file; compressed as
        ``open_compressed`` writes with ``compression``; encrypted as
        ``open_encrypted_with_pass`` / ``open_encrypted`` write with a ``password`` or 32-byte
        ``key`` (Godot 4's container with a random IV for the Godot 4 dialects, Godot 3's
        otherwise). Compressed or encrypted, not both (:class:`SaveFileError`,
        ``ERR_INVALID_PARAMETER``).

        Every value is encoded before anything is written, and a path is written whole or not
        at all (a file beside it, then renamed over it): a value that cannot be written raises
        :class:`EncodeError`, naming its index and path, and leaves an existing file as it
        was."""
        data = _native._write_records(values, compression=compression, password=password,
                                      key=key, **self._encoding())
        _write_whole(file, data)


def _names(names: Iterable[str]) -> Tuple[str, ...]:
    if isinstance(names, str):
        raise TypeError("allowed_classes is an iterable of class names and script paths, "
                        "not one str")
    return tuple(names)


def _read_file(
    file: FileLike,
    dialect: Union[Dialect, Literal["auto"]],
    max_payload: Optional[int],
    password: Optional[str],
    key: Optional[BytesLike],
    decoding: Any,
) -> List[Any]:
    """The values of a file of records, from its path, its bytes or a binary file object."""
    if isinstance(file, (str, os.PathLike)):
        with open(file, "rb") as f:
            data: Any = f.read()
    elif hasattr(file, "read"):
        data = file.read()
    else:
        data = file
    options = dict(decoding, dialect=dialect)
    if options.get("allowed_classes") is not None:
        options["allowed_classes"] = list(options["allowed_classes"])
    return _native._read_records(data, max_payload=max_payload, password=password, key=key,
                                 **options)[1]


def _write_whole(file: FileLike, data: bytes) -> None:
    """``data`` to a binary file object, or to a path whole: written beside it, flushed to the
    disk, then renamed over it, so a failure midway leaves the path as it was."""
    if not isinstance(file, (str, os.PathLike)):
        write = getattr(file, "write", None)
        if write is None:
            raise TypeError("file is a path or a binary file object to write, not "
                            f"{type(file).__name__}")
        write(data)
        return
    path = os.fspath(file)
    fd, temp = tempfile.mkstemp(prefix=".", suffix=".tmp",
                                dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temp)
        raise
