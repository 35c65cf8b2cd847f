"""The real engines the tests run: their paths from the environment (tests/install_engines.sh
prints them), and the project's deadline for every process they start."""

from __future__ import annotations

import os

import pytest

import desc

DEADLINE = desc.REPO / "tests" / "deadline.sh"
"""tests/deadline.sh: a timeout that records a hang (backtraces) before it kills."""


def engine(name: str) -> str:
    """The engine ``$name`` names; a test without it fails when FVC_REQUIRE_ENGINES is set (the
    test command), and is skipped otherwise."""
    path = os.environ.get(name)
    if not path:
        why = f"{name} is not set (bash tests/install_engines.sh prints it)"
        if os.environ.get("FVC_REQUIRE_ENGINES"):
            pytest.fail(why)
        pytest.skip(why)
    return path
