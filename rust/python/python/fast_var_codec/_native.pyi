"""Type hints of the extension module, the package's private layer (the public classes derive
from its own; ``encode``, ``encode_framed``, ``decode``, ``decode_with_size`` and ``DIALECTS``
are the package's). The docstrings here are the runtime ones (test_help.py checks they
agree)."""

from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, Tuple, Union

from typing_extensions import Self, disjoint_base

from ._options import BytesLike as _Bytes
from ._options import Compression, Dialect, Precision

# As the extension lists them (stubtest compares the two).
__all__ = [
    "encode", "encode_framed", "decode", "decode_with_size", "compress", "decompress",
    "decode_compressed", "str_to_var", "var_to_str",
    "read_config_file", "write_config_file", "read_text_resource", "write_text_resource",
    "read_json_save", "write_json_save",
    "_parse_node_path",
    "_check_type_name", "_read_records", "_write_records", "StreamDecoder", "Codec", "DIALECTS",
    "DEFAULT_MAX_PAYLOAD", "DEFAULT_MAX_MESSAGE", "__version__",
]

__version__: str
DIALECTS: Tuple[Dialect, ...]
"""Every dialect's name, as ``dialect=`` takes it, in the core's order: Godot 4.4-4.6 (the
default), what 4.3 and 4.0-4.2 read and write, Godot 3.1-3.6, Pandemonium v3.8-v4.9 and v5+."""
DEFAULT_MAX_PAYLOAD: int
DEFAULT_MAX_MESSAGE: int

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
    (a StringName needs none in Godot 3: its exact form there is a String).

    Raises :class:`EncodeError` with the path inside ``value`` for a value with no Godot type,
    an int outside 64 bits, a type the dialect lacks without ``allow_lossy``, an
    :class:`Object` without ``full_objects`` (the engine writes an object as its id:
    :class:`EncodedObjectAsID`), a text holding U+0000 (every engine reads a String only up to
    it) or a lone surrogate (no UTF-8 form); a bad option is a ``ValueError``.
    :meth:`Codec.encode` is the same with the options held once."""
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
    ``big_endian``, as ``StreamPeer.big_endian``), then :func:`encode`'s bytes. Raises
    :class:`EncodeError` as :func:`encode`."""
def compress(data: _Bytes, compression: Compression) -> bytes:
    """``data`` compressed as Godot's ``PackedByteArray.compress(mode)`` does, ``compression`` one
    of "fastlz", "deflate", "zstd", "gzip": a packet the engine's ``decompress`` and
    ``decompress_dynamic`` read, as games send values
    (``compress(encode(value), "zstd")``). Not always the engine's bytes: other compressors
    than its own."""
def decompress(data: _Bytes, compression: Compression, *, max_size: int) -> bytes:
    """The bytes of a packet made by ``compress`` or the engine's ``PackedByteArray.compress``, at
    most ``max_size`` of them, as ``decompress_dynamic(max_size, mode)`` gives them but in every
    mode. A FastLZ packet of fewer than 16 bytes gives 16, the rest zeros, as the engine's does:
    :func:`decode_compressed` reads the value past them. Raises :class:`DecodeError` for a
    packet that does not decompress, or that holds more than ``max_size`` bytes (nothing past
    them is made)."""
def decode_compressed(
    data: _Bytes,
    compression: Compression,
    *,
    max_size: int,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
    allow_objects: bool = False,
    allowed_classes: Optional[Iterable[str]] = None,
    refuse_dropped_elements: bool = False,
) -> Any:
    """The value of a packet ``compress(encode(value), compression)`` made (or a game's
    ``var_to_bytes(value).compress(mode)``): decompressed to at most ``max_size`` bytes, then
    decoded as :func:`decode` decodes, with its options. The value must fill the packet (FastLZ's
    padding aside). Raises :class:`DecodeError` as :func:`decompress` and :func:`decode` (its
    ``offset`` counted in the decompressed bytes)."""
def str_to_var(
    text: str,
    *,
    precision: Precision = "single",
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
    allow_objects: bool = False,
    allowed_classes: Optional[Iterable[str]] = None,
    refuse_dropped_elements: bool = False,
) -> Any:
    """The value of a text in Godot's text format, as ``str_to_var`` reads it (also ConfigFile
    values and ``.tres`` properties; Godot 3's spellings too), but never making or loading an
    object: ``Object(...)``, ``Resource(...)``, ``ExtResource(...)`` and ``SubResource(...)`` are
    refused unless ``allow_objects`` (and ``allowed_classes``, when given) admits their class,
    and even then they are data (an :class:`Object`; a ``script`` stays a ``res://`` path). The
    limits and object options are :func:`decode`'s. Raises :class:`DecodeError` for text that
    is not Godot's (``offset`` is the byte where it went wrong; the message has the line and
    column), an object not allowed or a limit passed."""
def var_to_str(value: Any, *, dialect: Dialect = "godot4") -> str:
    """``value`` as Godot's ``var_to_str`` writes it: Godot 4's text by default (``"godot4"`` and
    the other Godot 4 dialects), Godot 3's ``var2str`` with ``dialect="godot3"``.
    :func:`str_to_var` reads both back."""
def read_config_file(
    data: Union[str, _Bytes],
    *,
    dialect: Dialect = "godot4",
    password: Optional[str] = None,
    key: Optional[_Bytes] = None,
    precision: Precision = "single",
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
    allow_objects: bool = False,
    allowed_classes: Optional[Iterable[str]] = None,
    refuse_dropped_elements: bool = False,
) -> Dict[str, Dict[str, Any]]:
    """The sections of a Godot ``ConfigFile``, as ``ConfigFile.load`` (``data`` bytes-like: the
    file) or ``ConfigFile.parse`` (``data`` a ``str``: its text) reads them: a dict of section
    name to a dict of key to value, in the file's order (the keys before any ``[section]`` are
    section ``""``). An encrypted file, in Godot 4's container or Godot 3's, opens with the
    ``password`` it was saved with (``save_encrypted_pass``) or its 32-byte ``key``
    (``save_encrypted``); a plain file needs neither. ``dialect`` is the engine whose text it is:
    Godot 3's ends a section's name at its first ``]``. The values are :func:`str_to_var`'s,
    and as there no object is made or loaded: ``Object(...)`` and ``Resource(...)`` are refused
    unless ``allow_objects`` (and ``allowed_classes``, when given) admits them, and then are
    data. The limits and object options are :func:`decode`'s, for the whole file.

    Raises :class:`SaveFileError` for an encrypted file without a password or key
    (``ERR_UNAUTHORIZED``), with a wrong one or damaged (``ERR_FILE_CORRUPT``);
    :class:`DecodeError` for text that is not a ConfigFile or not UTF-8 (``offset`` is the
    byte where it went wrong; the message has the line and column), an object not allowed or a
    limit passed; ``TypeError`` for ``data`` neither ``str`` nor bytes-like."""
def write_config_file(
    sections: Dict[str, Dict[str, Any]],
    *,
    dialect: Dialect = "godot4",
    password: Optional[str] = None,
    key: Optional[_Bytes] = None,
) -> bytes:
    """The file ``ConfigFile.save`` writes for ``sections`` (a dict of section name to a dict of
    key to value, as :func:`read_config_file` gives it), in the engine of ``dialect``
    (``"godot4"`` and the other Godot 4 dialects, or ``"godot3"``); with a ``password`` or
    32-byte ``key``, the file ``save_encrypted_pass`` / ``save_encrypted`` writes (Godot 4's
    container with a random IV, or Godot 3's). Keys and sections keep their order, but for the
    section ``""`` (the keys before any ``[section]``), which Godot 4 writes first, without a
    header, and Godot 3 in its place, as ``[]``: as the engines write them.

    Raises ``ValueError`` for ``sections`` that are not a dict of dicts keyed by ``str``, or a
    None value (a ConfigFile cannot hold null: setting one erases the key), a dialect whose
    text is not written (Pandemonium's) or a bad option; :class:`EncodeError` with its path
    for a value with no Godot type (as :func:`var_to_str`)."""
def read_text_resource(
    data: Union[str, _Bytes],
    *,
    precision: Precision = "single",
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
    allow_objects: bool = False,
    allowed_classes: Optional[Iterable[str]] = None,
    refuse_dropped_elements: bool = False,
) -> List[Dict[str, Any]]:
    """The sections of a Godot text resource (``.tres``, what ``ResourceSaver.save`` writes), as
    the engine's loader reads its tags and properties, but never loading or making anything: a
    list of dicts ``{"tag": str, "attributes": {...}, "properties": {...}}`` in the file's order,
    the header (``gd_resource``) first, then the ``ext_resource`` entries (files it refers to),
    the ``sub_resource`` entries (resources inside it) and the ``resource`` itself. A reference
    to an entry, ``ExtResource("1_ab")`` or ``SubResource("Resource_x")``, is an :class:`Object`
    of class ``"ExtResource"`` or ``"SubResource"`` whose one property is its ``id``; a typed
    container of a script the file refers to keeps its type as written
    (``Array[ExtResource("1_ab")]``). ``data`` is the text (``str``) or its bytes (UTF-8). The
    values are :func:`str_to_var`'s: an inline ``Object(...)`` is refused unless
    ``allow_objects`` (and ``allowed_classes``, when given) admits it, and then is data. The
    limits are :func:`decode`'s, for the whole file.

    Raises :class:`DecodeError` for text that is not a text resource or not UTF-8 (``offset``
    is the byte where it went wrong; the message has the line and column), an object not
    allowed or a limit passed; ``TypeError`` for ``data`` neither ``str`` nor bytes-like."""
def write_text_resource(sections: List[Dict[str, Any]]) -> str:
    """The text of a Godot text resource (``.tres``) for ``sections`` (a list of section dicts, as
    :func:`read_text_resource` gives them), as Godot writes it: each tag on its line, its
    properties as ``name = value`` after it, values as ``var_to_str`` writes them (Godot 3's
    ``var2str`` for a header of ``format`` 2 or less); the file :func:`read_text_resource` read,
    byte for byte, when nothing was changed, and an edited value as the engine writes it.

    Raises ``ValueError`` for ``sections`` that are not a list of dicts with a ``str`` ``"tag"``
    (the first ``"gd_resource"`` or ``"gd_scene"``) and dicts keyed by ``str`` as
    ``"attributes"`` and ``"properties"``; :class:`EncodeError` with its path for a value with no
    Godot type (as :func:`var_to_str`)."""
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
) -> Any:
    """The value at ``offset`` of ``data`` (its start by default), as ``bytes_to_var`` reads it,
    where it takes the rest of ``data`` whole; ``data`` is any bytes-like object (a ``str`` is a
    ``TypeError``). ``precision`` is the reading engine's: "single" narrows binary64 reals (from
    a double build) to binary32 as a standard build does, "double" keeps them.

    Limits for untrusted input: ``max_depth`` nesting (at most 1024, the default),
    ``max_elements`` container elements in all, ``max_bytes`` of strings and packed arrays;
    None is no limit, a negative number a ``ValueError``.
    Full objects only with ``allow_objects``; then ``allowed_classes``, when given, lists the
    class names and ``res://`` script paths admitted (an empty one admits none; None admits
    every class, for trusted input only). With ``refuse_dropped_elements``, an element of a
    typed Array or Dictionary that the engine would drop on decode raises instead.

    Raises :class:`DecodeError` with ``offset``, counted from the start of ``data``, for bytes
    that do not decode, a limit passed or an object not allowed; :class:`ExtraData` (a
    :class:`DecodeError` holding the value) when bytes follow the value, as msgpack's
    ``unpackb`` does: :func:`decode_with_size` reads a value that bytes follow.
    :meth:`Codec.decode` is the same with the options held once."""
def decode_with_size(
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
    """The value at ``offset`` of ``data`` and the bytes it used, ``(value, size)``, as
    ``bytes_to_var`` and ``decode_var_size`` read them: bytes after the value are ignored
    (``data[offset + size:]`` is what follows it; ``size`` never passes the end of ``data``).
    The options and errors are :func:`decode`'s, but for :class:`ExtraData`.
    :meth:`Codec.decode_with_size` is the same with the options held once."""
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
    allowed_classes: Optional[Iterable[str]] = None,
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

@disjoint_base
class StreamDecoder:
    def __new__(
        cls,
        *,
        dialect: Union[Dialect, Literal["auto"]] = "godot4",
        precision: Precision = "single",
        max_message: Optional[int] = None,
        big_endian: bool = False,
        max_depth: Optional[int] = None,
        max_elements: Optional[int] = None,
        max_bytes: Optional[int] = None,
        allow_objects: bool = False,
        allowed_classes: Optional[Iterable[str]] = None,
        refuse_dropped_elements: bool = False,
    ) -> Self: ...
    def feed(self, data: _Bytes) -> None:
        """Adds received bytes (any bytes-like object)."""
    def next_value(self) -> Any:
        """The next complete value (None for a Godot null); raises OutOfData until one has arrived.
        A message that does not decode raises DecodeError with its offset in the stream, and the
        stream goes on; one whose value leaves bytes of it unread (another dialect's) raises
        DecodeError naming the dialect that reads it whole; a length above max_message raises
        DecodeError (ERR_OUT_OF_MEMORY) and breaks the stream until reset()."""
    def __iter__(self) -> Iterator[Any]: ...
    def __next__(self) -> Any: ...
    @property
    def buffered(self) -> int:
        """Bytes received but not yet taken as values."""
    @property
    def max_message(self) -> int:
        """The largest message accepted, in bytes (no limit: the machine's largest size)."""
    @property
    def broken(self) -> bool:
        """True once a message above max_message was announced: the stream cannot go on."""
    @property
    def dialect(self) -> Dialect:
        """The dialect values are read in: the one given, or with "auto" the one the messages
        so far tell ("godot4" until they tell otherwise; a message engines read differently waits
        until then)."""
    @property
    def dialect_settled(self) -> bool:
        """True when the dialect is known: always, but with "auto" only once the messages leave
        one engine family (Godot 4, Godot 3 or Pandemonium)."""
    def reset(self) -> None:
        """Forgets buffered bytes and a broken state (after reconnecting); with "auto", the
        dialect detected too."""

@disjoint_base
class Codec:
    def __new__(cls, *args: Any, **kwargs: Any) -> Self: ...
    def _configure(
        self,
        dialect: Dialect,
        precision: Precision,
        full_objects: bool,
        allow_lossy: bool,
        max_depth: Optional[int],
        max_elements: Optional[int],
        max_bytes: Optional[int],
        allow_objects: bool,
        allowed_classes: Optional[Iterable[str]],
        refuse_dropped_elements: bool,
        big_endian: bool,
    ) -> None: ...
    def encode(self, value: Any) -> bytes:
        """``value`` encoded as ``var_to_bytes`` does (``var_to_bytes_with_objects`` with
        ``full_objects``). Raises :class:`EncodeError` with the path inside ``value`` for a
        value with no Godot type, an int outside 64 bits, a type the dialect lacks without
        ``allow_lossy``, an :class:`Object` without ``full_objects``, a text holding U+0000 or
        a lone surrogate."""
    def encode_framed(self, value: Any) -> bytes:
        """``value`` as ``StreamPeer.put_var`` sends it: a u32 length (big-endian with
        ``big_endian``), then :meth:`encode`'s bytes. Raises :class:`EncodeError` as
        :meth:`encode`."""
    def decode(self, data: _Bytes, offset: int = 0) -> Any:
        """The value at ``offset`` of ``data`` (any bytes-like object) as ``bytes_to_var`` reads
        it, where it takes the rest of ``data`` whole. Raises :class:`DecodeError` with the
        offset from the start of ``data`` for bytes that do not decode, a limit passed
        (``max_depth``, ``max_elements``, ``max_bytes``) or an object not allowed;
        :class:`ExtraData` when bytes follow the value (:meth:`decode_with_size` reads it); a
        ``TypeError`` for a ``str``."""
    def decode_with_size(self, data: _Bytes, offset: int = 0) -> Tuple[Any, int]:
        """The value at ``offset`` of ``data`` and the bytes it used, ``(value, size)``: bytes
        after the value are ignored, as ``bytes_to_var`` ignores them. Raises as
        :meth:`decode`, but for :class:`ExtraData`."""
def read_json_save(
    data: Union[str, _Bytes],
    *,
    dialect: Dialect = "godot4",
    password: Optional[str] = None,
    key: Optional[_Bytes] = None,
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
) -> Dict[str, Any]:
    """A JSON save, as a game writes one with ``store_string(JSON.stringify(data))`` (Godot 3:
    ``JSON.print``), read as the engine's ``JSON.parse`` reads it, but for a number written
    without a fraction or exponent, which stays an ``int``: a dict ``{"value": ..., "style":
    {"dialect", "indent", "sort_keys", "full_precision"}, "engine_text": bool}``, the style the
    text was written in (:func:`write_json_save`'s keywords) and whether that style writes the
    text read exactly (an engine wrote it). ``data`` is the text (``str``) or the file's bytes:
    the text, or its encrypted container (``open_encrypted_with_pass`` with ``password``,
    ``open_encrypted`` with a 32-byte ``key``; Godot 4's or Godot 3's). ``dialect="godot3"``
    reads Godot 3's escapes. The limits are :func:`decode`'s.

    Raises :class:`SaveFileError` for an encrypted file without a password or key, with a wrong
    one or damaged; :class:`DecodeError` for text that is not JSON or not UTF-8 (``offset`` is
    the byte where it went wrong; the message has the line and column) or a limit passed;
    ``TypeError`` for ``data`` neither ``str`` nor bytes-like."""
def write_json_save(
    value: Any,
    *,
    dialect: Dialect = "godot4",
    indent: str = "",
    sort_keys: Optional[bool] = None,
    full_precision: bool = False,
    password: Optional[str] = None,
    key: Optional[_Bytes] = None,
) -> bytes:
    """The file of a JSON save of ``value`` (JSON's values: ``None``, ``bool``, ``int``,
    ``float``, ``str``, lists and dicts keyed by ``str``), as the engine of ``dialect`` writes
    it: ``JSON.stringify(value, indent, sort_keys, full_precision)`` in Godot 4,
    ``JSON.print(value, indent, sort_keys)`` in Godot 3 (``sort_keys`` ``None``: the engine's
    default, sorted in Godot 4, not in Godot 3); with a ``password`` or 32-byte ``key``, in
    that engine's encrypted container. :func:`read_json_save`'s ``style`` gives the keywords
    that write a save as it was written.

    Raises :class:`EncodeError` for a value the engine would write as another (a
    :class:`Vector2` becomes a str, NaN ``null``, a key that is not a ``str``), naming its place
    (``$.player.pos``); ``ValueError`` for a bad option."""
