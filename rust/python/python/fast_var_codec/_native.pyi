"""Type hints of the extension module, the package's private layer (the public functions and
classes wrap it). The docstrings here are the runtime ones (test_help.py checks they agree)."""

from typing import Any, Iterable, Iterator, List, Literal, Optional, Tuple, Union

from typing_extensions import Self

from ._options import BytesLike as _Bytes
from ._options import Compression, Dialect, Precision

__version__: str
DEFAULT_MAX_PAYLOAD: int
DEFAULT_MAX_MESSAGE: int

def encode(
    value: Any,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    full_objects: bool = False,
    allow_lossy: bool = False,
) -> bytes: ...
def encode_framed(
    value: Any,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    full_objects: bool = False,
    allow_lossy: bool = False,
    big_endian: bool = False,
) -> bytes: ...
def decode(
    data: _Bytes,
    offset: Optional[int] = None,
    dialect: Dialect = "godot4",
    precision: Precision = "single",
    max_depth: Optional[int] = None,
    max_elements: Optional[int] = None,
    max_bytes: Optional[int] = None,
    allow_objects: bool = False,
    allowed_classes: Optional[Iterable[str]] = None,
    refuse_dropped_elements: bool = False,
) -> Tuple[Any, int]: ...
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
        so far tell ("godot4" until they tell otherwise)."""
    @property
    def dialect_settled(self) -> bool:
        """True when the dialect is known: always, but with "auto" only once the messages leave
        one engine family (Godot 4, Godot 3 or Pandemonium)."""
    def reset(self) -> None:
        """Forgets buffered bytes and a broken state (after reconnecting); with "auto", the
        dialect detected too."""
