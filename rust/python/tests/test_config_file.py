"""Godot's ConfigFile (``read_config_file`` / ``write_config_file``) against the engines' own:
every file Godot 4.6.3 and Godot 3.6.2 saved (tests/golden/config_*.jsonl, made by
tests/golden/gen/godot*/config.gd; rust/codec/tests/config_file.rs reads the same) reads as the
entries the engine read back from it, and ``write_config_file`` of the entries it saved gives the
engine's file byte for byte; their encrypted files open with the password or key, and not without
one or with a wrong one; each text given to ``ConfigFile.parse`` reads as the engine read it, or is
refused where the engine refused it. Then what the engine would run: refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

import fast_var_codec as fvc

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden"

ENGINES = [
    ("config_godot4_6_3.jsonl", "4.6.3", "godot4"),
    ("config_godot3_6_2.jsonl", "3.6.2", "godot3"),
]

Entry = Tuple[str, str, bytes]


def cases(file: str, engine: str) -> List[Dict[str, Any]]:
    """The cases of a golden file, after its head line (which names the engine)."""
    lines = (GOLDEN / file).read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["engine"].startswith(engine), head
    return [json.loads(line) for line in lines[1:]]


def engine_entries(case: Dict[str, Any], field: str = "entries") -> List[Entry]:
    """A case's list ``field``, as (section, key, the engine's ``var_to_bytes`` of the value):
    "entries" (what the engine read) or "written" (the ConfigFile it saved)."""
    return [(s, k, bytes.fromhex(b)) for s, k, b in case[field]]


def text_of(value: Any, dialect: str) -> Optional[str]:
    try:
        return fvc.var_to_str(value, dialect=dialect)
    except fvc.FastVarCodecError:
        return None


def same_value(ours: Any, engine: bytes, dialect: str) -> bool:
    """Whether our value is the one the engine's bytes hold: it encodes to them, or (where
    Godot 3 leaves heap bytes in a NodePath's padding) they decode to it, or, where it holds
    floats, of the same type and text (the engine does not round every decimal to its nearest
    binary64, the core does: a last bit no text shows), as the core's test compares."""
    try:
        if fvc.encode(ours, dialect=dialect) == engine:
            return True
    except fvc.FastVarCodecError:
        pass
    try:
        theirs = fvc.decode(engine, dialect=dialect)
    except fvc.FastVarCodecError:
        return False
    if theirs == ours:
        return True
    text = text_of(ours, dialect)
    return type(theirs) is type(ours) and text is not None and text_of(theirs, dialect) == text


def differs(cfg: Dict[str, Dict[str, Any]], engine: List[Entry], dialect: str) -> Optional[str]:
    """The first difference between what we read and what the engine read (the same sections
    and keys in the same order, each value the engine's), or None."""
    assert isinstance(cfg, dict) and all(isinstance(keys, dict) for keys in cfg.values())
    ours = [(s, k, v) for s, keys in cfg.items() for k, v in keys.items()]
    for i, (es, ek, eb) in enumerate(engine):
        if i >= len(ours):
            return f"entry {i} [{es}] {ek}: missing"
        s, k, v = ours[i]
        if (s, k) != (es, ek) or not same_value(v, eb, dialect):
            return f"entry {i}: ours [{s}] {k} = {v!r}, the engine's [{es}] {ek} = {eb.hex()}"
    if len(ours) > len(engine):
        s, k, _ = ours[len(engine)]
        return f"an entry the engine has not: [{s}] {k}"
    return None


def saved_files(file: str, engine: str) -> List[Dict[str, Any]]:
    return [c for c in cases(file, engine) if "file" in c and "plain" not in c]


@pytest.mark.parametrize("file,engine,dialect", ENGINES)
def test_every_file_the_engine_saved_reads_as_the_engine_read_it(
    file: str, engine: str, dialect: str
) -> None:
    files = saved_files(file, engine)
    assert len(files) >= 5, [c["name"] for c in files]
    for case in files:
        saved = bytes.fromhex(case["file"])
        cfg = fvc.read_config_file(saved, dialect=dialect)
        problem = differs(cfg, engine_entries(case), dialect)
        assert problem is None, f"{engine} {case['name']}: {problem}"
        # Any bytes-like object, and the same file as text.
        assert fvc.read_config_file(memoryview(bytearray(saved)), dialect=dialect).keys() == cfg.keys()
        as_text = fvc.read_config_file(saved.decode("utf-8"), dialect=dialect)
        assert differs(as_text, engine_entries(case), dialect) is None, case["name"]


@pytest.mark.parametrize("file,engine,dialect", ENGINES)
def test_the_entries_the_engine_saved_write_as_its_file(file: str, engine: str, dialect: str) -> None:
    for case in saved_files(file, engine):
        sections: Dict[str, Dict[str, Any]] = {}
        for section, key, data in engine_entries(case, "written"):
            sections.setdefault(section, {})[key] = fvc.decode(data, dialect=dialect)
        saved = bytes.fromhex(case["file"])
        ours = fvc.write_config_file(sections, dialect=dialect)
        if ours != saved:
            at = next((i for i, (a, b) in enumerate(zip(ours, saved)) if a != b),
                      min(len(ours), len(saved)))
            pytest.fail(f"{engine} {case['name']}: written differently at byte {at}: ours "
                        f"{ours[max(at - 40, 0):at + 40]!r}, the engine's "
                        f"{saved[max(at - 40, 0):at + 40]!r}")


@pytest.mark.parametrize("file,engine,dialect", ENGINES)
def test_encrypted_files_open_with_their_password_or_key_only(
    file: str, engine: str, dialect: str
) -> None:
    encrypted = [c for c in cases(file, engine) if "plain" in c]
    assert sorted(c["name"] for c in encrypted) == ["encrypted/key", "encrypted/password"]
    for case in encrypted:
        saved, plain = bytes.fromhex(case["file"]), bytes.fromhex(case["plain"])
        secret: Dict[str, Any] = (
            {"password": case["password"]} if "password" in case
            else {"key": bytearray.fromhex(case["key"])}
        )
        cfg = fvc.read_config_file(saved, dialect=dialect, **secret)
        assert cfg and cfg == fvc.read_config_file(plain, dialect=dialect), case["name"]
        with pytest.raises(fvc.SaveFileError) as e:
            fvc.read_config_file(saved, dialect=dialect)
        assert e.value.godot_error == "ERR_UNAUTHORIZED", e.value
        with pytest.raises(fvc.SaveFileError) as e:
            fvc.read_config_file(saved, dialect=dialect, password="x")
        assert e.value.godot_error == "ERR_FILE_CORRUPT", e.value
        # Written again: the engine's plain text in the dialect's container. Godot 3's has no
        # IV, so the bytes are the engine's; Godot 4's draws a random IV, as the engine does.
        ours = fvc.write_config_file(cfg, dialect=dialect, **secret)
        assert fvc.write_config_file(cfg, dialect=dialect) == plain, case["name"]
        assert fvc.read_config_file(ours, dialect=dialect, **secret) == cfg, case["name"]
        assert len(ours) == len(saved) and ours[:4] == saved[:4], case["name"]
        if dialect == "godot3":
            assert ours == saved, case["name"]
        else:
            assert ours[:4] == b"GDEC" and ours[28:44] != saved[28:44], case["name"]


# The texts that end in a key without '=': the engine reads them as if it were not there, the core
# refuses them (a path given for the text would otherwise read as nothing).
DANGLING = ["[s]\nab\n", "[s]\na=1 2\n"]


@pytest.mark.parametrize("file,engine,dialect", ENGINES)
def test_each_text_reads_as_configfile_parse_read_it(file: str, engine: str, dialect: str) -> None:
    texts = [c for c in cases(file, engine) if "text" in c]
    assert len(texts) >= 40, len(texts)
    for case in texts:
        text = bytes.fromhex(case["text"]).decode("utf-8")
        where = f"{engine} {case['name']} {text!r}"
        for data in (text, text.encode("utf-8")):
            if "Object(" in text or "Resource(" in text:
                # The engine made the object (or tried to load the resource): refused here.
                with pytest.raises(fvc.DecodeError) as e:
                    fvc.read_config_file(data, dialect=dialect)
                assert e.value.godot_error == "ERR_UNAUTHORIZED", where
            elif text in DANGLING:
                # A key without '=' at the end, which the engine drops without a word: refused.
                assert case["error"] == 0, where
                with pytest.raises(fvc.DecodeError, match="has no '='"):
                    fvc.read_config_file(data, dialect=dialect)
            elif case["error"] != 0:
                with pytest.raises(fvc.DecodeError):
                    fvc.read_config_file(data, dialect=dialect)
            else:
                cfg = fvc.read_config_file(data, dialect=dialect)
                problem = differs(cfg, engine_entries(case), dialect)
                assert problem is None, f"{where}: {problem}"


EVIL = '[save]\nhp=10\nplayer=Object(RefCounted,"script":Resource("res://evil.gd"))\n'


@pytest.mark.parametrize("dialect", ["godot4", "godot3"])
def test_a_config_file_carrying_a_script_runs_nothing(dialect: str) -> None:
    """The file Godot's own ``ConfigFile.load`` runs (tests/godot/test_config_file.gd): refused
    by every gate, and an object admitted stays data."""
    for data in (EVIL, EVIL.encode()):
        with pytest.raises(fvc.DecodeError) as e:
            fvc.read_config_file(data, dialect=dialect)
        assert e.value.godot_error == "ERR_UNAUTHORIZED", e.value
        # Objects allowed, of one class: its script is judged too, and refused.
        with pytest.raises(fvc.DecodeError) as e:
            fvc.read_config_file(data, dialect=dialect, allow_objects=True,
                                 allowed_classes=["RefCounted"])
        assert e.value.godot_error == "ERR_UNAUTHORIZED", e.value
    # With the script admitted as well, the object is data: a class, and its script a path.
    cfg = fvc.read_config_file(EVIL, dialect=dialect, allow_objects=True,
                               allowed_classes=["RefCounted", "res://evil.gd"])
    player = cfg["save"]["player"]
    assert isinstance(player, fvc.Object)
    assert player.class_name == "RefCounted"
    assert player.properties == {"script": "res://evil.gd"}
    assert cfg["save"]["hp"] == 10


def test_hostile_text_is_refused_within_the_limits() -> None:
    deep = "[s]\nk=" + "[" * 100_000 + "]" * 100_000 + "\n"
    with pytest.raises(fvc.DecodeError):
        fvc.read_config_file(deep)
    many = "".join(f"k{i}=1\n" for i in range(100))
    with pytest.raises(fvc.DecodeError):
        fvc.read_config_file(many, max_elements=50)
    assert len(fvc.read_config_file(many)[""]) == 100
    with pytest.raises(fvc.DecodeError) as e:
        fvc.read_config_file(b'[s]\nk="\xff"\n')
    assert e.value.godot_error == "ERR_PARSE_ERROR", e.value
    with pytest.raises(fvc.DecodeError) as e:
        fvc.read_config_file('[s]\nk=1\n[broken\n')
    assert "line 3" in str(e.value), e.value


def test_what_is_no_config_file_is_an_error() -> None:
    # A ConfigFile holds no null (set_value erases the key): the core says so.
    with pytest.raises(ValueError, match="null") as e:
        fvc.write_config_file({"s": {"k": None}})
    assert not isinstance(e.value, fvc.FastVarCodecError)
    for bad in ([1, 2], {"s": 1}, {1: {"k": 1}}, {"s": {2: 1}}):
        with pytest.raises(ValueError, match="ConfigFile"):
            fvc.write_config_file(bad)  # type: ignore[arg-type]
    with pytest.raises(fvc.EncodeError) as enc:
        fvc.write_config_file({"s": {"k": [object()]}})
    assert enc.value.path == "[\"s\"][\"k\"][0]", enc.value.path
    with pytest.raises(ValueError):
        fvc.write_config_file({"s": {"k": 1}}, dialect="pandemonium5")
    with pytest.raises(ValueError):
        fvc.write_config_file({"s": {"k": 1}}, password="a", key=bytes(32))
    with pytest.raises(fvc.SaveFileError):
        fvc.write_config_file({"s": {"k": 1}}, key=b"short")
    with pytest.raises(TypeError, match="str"):
        fvc.read_config_file(12)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        fvc.read_config_file("k=1", dialect="godot5")  # type: ignore[arg-type]


def test_what_is_written_reads_back_in_each_engines_text() -> None:
    sections = {"": {"top": 1}, "player": {"name": "Ada", "pos": fvc.Vector2(1, 2),
                                           "a key": [1, 2.5]}}
    for dialect in ("godot4", "godot3"):
        for secret in ({}, {"password": "hunter2"}, {"key": bytes(range(32))}):
            data = fvc.write_config_file(sections, dialect=dialect, **secret)  # type: ignore[arg-type]
            assert fvc.read_config_file(data, dialect=dialect, **secret) == sections  # type: ignore[arg-type]
