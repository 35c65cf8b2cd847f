"""Misuses that mypy --strict must report, one per line marked ``# mypy: error``:
tests/run_python_tests.sh runs mypy on this file and expects exactly those lines to fail (the
names of dialects, precisions and compressions are Literal types, keys are bytes-like)."""

from __future__ import annotations

import fast_var_codec as fvc

fvc.encode(1, dialect="dobule")  # mypy: error
fvc.encode(1, precision="dobule")  # mypy: error
fvc.decode_with_size(b"", dialect="Godot4")  # mypy: error
fvc.write_file("save.dat", [1], compression="lz4")  # mypy: error
fvc.read_file("save.dat", dialect="godot5")  # mypy: error
fvc.StreamDecoder(dialect="godot")  # mypy: error
fvc.decode_with_size("not bytes")  # mypy: error
fvc.write_file("save.dat", [1], key="a password is not a key")  # mypy: error

# Accepted: the names as they are, "auto" for files, bytes-like keys and data.
fvc.read_file("save.dat", dialect="auto", precision="double", key=bytearray(32))
fvc.decode_with_size(memoryview(b""), dialect="pandemonium5")
