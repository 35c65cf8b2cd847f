"""What ``help(fast_var_codec)`` shows: the public API only, signatures without ``Ellipsis``,
docstrings that carry the limits and the exceptions; and the stub's docstrings the same as the
runtime ones (one text, checked here), and its constructors' parameters."""

from __future__ import annotations

import ast
import inspect
import pydoc
import re
import sys
from pathlib import Path
from typing import Dict

import fast_var_codec as fvc
from fast_var_codec import _native

PACKAGE = Path(fvc.__file__).parent


def help_text() -> str:
    text = pydoc.render_doc(fvc, renderer=pydoc.plaintext)
    # pydoc lists the package's files (its private modules among them) in this section only.
    return re.sub(r"\nPACKAGE CONTENTS\n(    .*\n)+", "\n", text)


def test_help_shows_no_private_name_and_no_ellipsis() -> None:
    text = help_text()
    private = sorted(set(re.findall(r"(?<![\w])_[A-Za-z]\w*", text)))
    assert private == []
    assert "Ellipsis" not in text and "=..." not in text
    # Every public name is there, and little else: each class once, no base class of them.
    for name in fvc.__all__:
        assert re.search(rf"\b{name}\b", text), name
    assert len(text.splitlines()) < 2650  # 2,611 with the packet functions (compress ...)


def test_runtime_docstrings_carry_limits_and_exceptions() -> None:
    need = {
        fvc.decode: ["max_depth", "max_elements", "max_bytes", "None is no limit", "DecodeError",
                     "ExtraData"],
        fvc.decode_with_size: ["ExtraData", "never passes the end"],
        fvc.encode: ["EncodeError", "path"],
        fvc.Codec: ["max_message", "max_payload", "EncodeError", "DecodeError", "SaveFileError"],
        fvc.StreamDecoder: ["max_message", "None is no", "DecodeError", "ERR_OUT_OF_MEMORY"],
        fvc.StreamDecoder.next_value: ["OutOfData", "DecodeError", "max_message"],
        fvc.read_file: ["max_payload", "SaveFileError", "DecodeError"],
        fvc.Codec.read_file: ["max_payload", "SaveFileError", "DecodeError"],
        fvc.write_file: ["EncodeError", "whole or not"],
        fvc.read_config_file: ["SaveFileError", "DecodeError", "allow_objects", "password"],
        fvc.write_config_file: ["ValueError", "None", "EncodeError", "password"],
        fvc.decompress: ["max_size", "DecodeError", "FastLZ"],
        fvc.decode_compressed: ["max_size", "DecodeError", "padding"],
    }
    for obj, words in need.items():
        doc = inspect.getdoc(obj) or ""
        missing = [w for w in words if w not in doc]
        assert not missing, f"{obj}: {missing}"
    assert "8388608" in str(inspect.signature(fvc.StreamDecoder))


def stub_docstrings() -> Dict[str, str]:
    tree = ast.parse((PACKAGE / "_native.pyi").read_text())
    found: Dict[str, str] = {}

    def walk(body: list, prefix: str) -> None:  # type: ignore[type-arg]
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                doc = ast.get_docstring(node)
                if doc:
                    found[prefix + node.name] = doc
                if isinstance(node, ast.ClassDef):
                    walk(node.body, prefix + node.name + ".")

    walk(tree.body, "")
    return found


def test_stub_docstrings_are_the_runtime_ones() -> None:
    stubs = stub_docstrings()
    assert len(stubs) >= 6
    for dotted, doc in stubs.items():
        obj = _native
        for part in dotted.split("."):
            obj = getattr(obj, part)
        runtime = inspect.getdoc(obj) or ""
        assert " ".join(runtime.split()) == " ".join(doc.split()), dotted


def test_the_stub_constructors_take_the_runtime_parameters() -> None:
    """The extension's constructors show their parameters on the class, not on ``__new__``
    (``(*args, **kwargs)`` there), which is all mypy's stubtest compares: here the stub's
    ``__new__`` against the class's signature, name, kind and default."""
    tree = ast.parse((PACKAGE / "_native.pyi").read_text())
    checked = 0
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        new = next(f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__new__")
        # The class's __text_signature__ read as a function's (inspect reads one from a class
        # from Python 3.10 on); under Python 3.9 the extension's classes have none.
        text = getattr(_native, node.name).__text_signature__
        if text is None:
            assert sys.version_info < (3, 10), node.name
            continue
        runtime = inspect.signature(eval(f"lambda {text[1:-1]}: None"))
        if any(p.kind is p.VAR_KEYWORD for p in runtime.parameters.values()):
            assert new.args.kwarg is not None, node.name  # it takes anything: so must the stub
            continue
        defaults = zip(new.args.kwonlyargs, new.args.kw_defaults)
        stub = [(a.arg, ast.literal_eval(d)) for a, d in defaults if d is not None]
        assert not new.args.args[1:] and not new.args.vararg and not new.args.kwarg, node.name
        assert len(stub) == len(new.args.kwonlyargs), node.name
        assert stub == [(p.name, p.default) for p in runtime.parameters.values()
                        if p.kind is p.KEYWORD_ONLY], node.name
        assert all(p.kind is p.KEYWORD_ONLY for p in runtime.parameters.values()), node.name
        checked += 1
    assert checked >= 1 or sys.version_info < (3, 10)  # StreamDecoder
