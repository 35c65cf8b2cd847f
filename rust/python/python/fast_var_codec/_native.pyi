"""Type hints of the extension module (its functions are re-exported by fast_var_codec)."""

from typing import Any, Iterable, Iterator, List, Literal, Optional, Tuple, Union

from ._options import BytesLike as _Bytes
from ._options import Compression, Dialect, Precision

__version__: str

def encode(
    value: Any,
    *,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    full_objects: bool = False,
    allow_lossy: bool = False,
) -> bytes:
    """``value`` encoded as ``var_to_bytes`` does (``var_to_bytes_with_objects`` with
    ``full_objects=True``), in ``dialect`` (see ``DIALECTS``) and ``precision`` ("single" or
    "double", a ``precision=double`` build's layout). ``allow_lossy`` writes a value the dialect
    has no type for as the engine would convert it instead of raising :class:`EncodeError`
    (a StringName needs none in Godot 3: its exact form there is a String). Raises
    :class:`EncodeError` with the path for an :class:`Object` without ``full_objects`` (the
    engine writes an object as its id: :class:`EncodedObjectAsID`), a text holding U+0000
    (every engine reads a String only up to it) or a lone surrogate (no UTF-8 form)."""

def encode_framed(
    value: Any,
    *,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    full_objects: bool = False,
    allow_lossy: bool = False,
    big_endian: bool = False,
) -> bytes:
    """``value`` as ``StreamPeer.put_var`` sends it: a u32 length (big-endian with
    ``big_endian``, as ``StreamPeer.big_endian``), then :func:`encode`'s bytes."""

def decode(
    data: _Bytes,
    *,
    offset: int = 0,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
    allow_objects: bool = False,
    allowed_classes: Optional[Iterable[str]] = None,
    refuse_dropped_elements: bool = False,
) -> Tuple[Any, int]:
    """The value at ``offset`` of ``data`` (its start by default) as ``bytes_to_var`` reads it,
    and the bytes it used; a :class:`DecodeError`'s offset counts from the start of ``data``,
    any bytes-like object (a ``str`` is a ``TypeError``).
    ``precision`` is the reading engine's: "single" narrows binary64 reals (from a double
    build) to binary32 as a standard build does, "double" keeps them.
    Limits for untrusted input: ``max_depth`` nesting (at most 1024, the default),
    ``max_elements`` container elements in all, ``max_bytes`` of strings and packed arrays;
    None is no limit, a negative number a ``ValueError``.
    Full objects only with ``allow_objects``; then ``allowed_classes``, when given, lists the class
    names and ``res://`` script paths admitted (an empty one admits none; None admits every class,
    for trusted input only). With ``refuse_dropped_elements``, an element of a typed Array or
    Dictionary that the engine would drop on decode (not of its type, not convertible) raises
    instead of being dropped as the engine does. Raises :class:`DecodeError`."""

def _parse_node_path(text: str) -> Tuple[List[str], List[str], bool]: ...
def _check_type_name(name: str) -> None: ...
def _read_records(
    data: _Bytes,
    *,
    dialect: Union[Dialect, Literal["auto"]] = "auto",
    precision: Precision = "single",
    password: Optional[str] = None,
    key: Optional[_Bytes] = None,
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
    allow_objects: bool = False,
    allowed_classes: Optional[List[str]] = None,
    max_payload: Optional[int] = None,
    refuse_dropped_elements: bool = False,
) -> Tuple[str, List[Any]]: ...
def _write_records(
    values: Iterable[Any],
    *,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    full_objects: bool = False,
    allow_lossy: bool = False,
    password: Optional[str] = None,
    key: Optional[_Bytes] = None,
    compression: Optional[Compression] = None,
    iv: Optional[_Bytes] = None,
) -> bytes: ...

class StreamDecoder:
    """Values from a byte stream fed in pieces as they arrive (split and coalesced), each a u32
    length then the encoding, as ``StreamPeer.put_var`` sends them. A message above
    ``max_message`` bytes (8 MiB by default, the engine's) raises :class:`DecodeError`
    (``ERR_OUT_OF_MEMORY``) and breaks the stream until :meth:`reset`; a message that does not
    decode raises :class:`DecodeError` with its offset in the stream, and the stream goes on.

    With ``dialect="auto"`` the dialect is taken from the peer's own messages, so one server
    port reads Godot 3 and Godot 4 clients: each message narrows the dialects to those that
    read every message so far whole; values are read in the first of them (``"godot4"`` until
    a message only another reads whole: a Godot 3 Rect2 or Transform, say). Most values (ints,
    Strings, Vector2s, Arrays of them) read the same in every dialect; a Godot 3 Color reads as a
    Godot 4 Plane until told. Answer in :attr:`dialect`."""

    def __init__(
        self,
        *,
        dialect: Union[Dialect, Literal["auto"]] = "godot4",
        precision: Precision = "single",
        max_message: int = 8388608,
        big_endian: bool = False,
        max_depth: Optional[int] = None,
        max_elements: Optional[int] = None,
        max_bytes: Optional[int] = None,
        allow_objects: bool = False,
        allowed_classes: Optional[Iterable[str]] = None,
    refuse_dropped_elements: bool = False,
    ) -> None: ...
    def feed(self, data: _Bytes) -> None:
        """Adds received bytes."""
    def next_value(self) -> Any:
        """The next complete value (None for a Godot ``null``); raises :class:`OutOfData`
        until one has arrived. A message whose value leaves bytes of it unread (another
        dialect's) raises :class:`DecodeError` naming the dialect that reads it whole."""
    def __iter__(self) -> Iterator[Any]:
        """Iterates the complete values received so far."""
    def __next__(self) -> Any: ...
    @property
    def buffered(self) -> int:
        """Bytes received but not yet taken as values."""
    @property
    def max_message(self) -> int: ...
    @property
    def broken(self) -> bool:
        """True once a message above max_message was announced."""
    @property
    def dialect(self) -> Dialect:
        """The dialect values are read in: the one given, or with ``"auto"`` the one the
        messages so far tell (``"godot4"`` until they tell otherwise)."""
    @property
    def dialect_settled(self) -> bool:
        """True when the dialect is known: always, but with ``"auto"`` only once the messages
        leave one engine family (Godot 4, Godot 3 or Pandemonium)."""
    def reset(self) -> None:
        """Forgets buffered bytes and a broken state (and with ``"auto"`` the dialect)."""
