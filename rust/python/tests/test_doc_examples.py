"""The examples of docs/python.md marked ``rust/python/tests/test_doc_examples.py runs it``, run
as they stand (each asserts what the text around it says)."""

from __future__ import annotations

import re

import pytest

import desc

MARK = "(rust/python/tests/test_doc_examples.py runs it) -->\n```python\n"


def examples() -> list:  # type: ignore[type-arg]
    text = (desc.REPO / "docs" / "python.md").read_text()
    found = [m.group(1) for m in re.finditer(re.escape(MARK) + r"(.*?)\n```", text, re.S)]
    assert len(found) >= 3
    return found


@pytest.mark.parametrize("code", examples())
def test_doc_example_runs(code: str) -> None:
    exec(compile(code, "docs/python.md", "exec"), {})
