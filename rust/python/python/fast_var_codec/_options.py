"""The names the keyword arguments take, as types: a misspelled ``dialect="godot"`` is a
type checker's error, not only a ``ValueError`` at run time."""

from typing import TYPE_CHECKING, Literal, Union

__all__ = ["Dialect", "Precision", "Compression", "BytesLike"]

Dialect = Literal["godot4", "godot4_3", "godot4_0_to_4_2", "godot3", "pandemonium38", "pandemonium5"]
"""A dialect's name, as ``dialect=`` takes it (:data:`fast_var_codec.DIALECTS` lists them)."""

Precision = Literal["single", "double"]
"""``precision=``: a standard build's layout, or a ``precision=double`` build's."""

Compression = Literal["fastlz", "deflate", "zstd", "gzip"]
"""``compression=``: ``File.COMPRESSION_*`` / ``FileAccess.COMPRESSION_*`` (the functions also
take the names in capitals at run time)."""

if TYPE_CHECKING:
    # Anything with the buffer protocol (bytes, bytearray, memoryview, array.array, mmap ...);
    # typing_extensions is only read by the type checker, which ships it.
    from typing_extensions import Buffer as BytesLike
else:
    BytesLike = Union[bytes, bytearray, memoryview]
