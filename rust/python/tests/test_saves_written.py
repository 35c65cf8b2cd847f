"""Files the package writes, opened by the engines as games open their saves: Godot 3.6.2 and
3.2.3 read Godot 3 saves in every container (plain, each of the four compressions, encrypted
with a password and with a key) with their own File and get_var and compare every value with
what they read from their own fixture (tests/saves/check3/check3.gd, the checker of the Godot 4
extension's saves too); Godot 4.6.3 reads store_var files compressed in each mode and encrypted
with a password and with a key, with its own FileAccess (godot4_files/check_files.gd), and the
package reads the encrypted files Godot 4.6.3 writes."""

from __future__ import annotations

import json
import shutil
import subprocess
from array import array
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import desc
from desc import encode_file
from engines import DEADLINE, engine
import fast_var_codec as fvc

MODES = {"fastlz": 0, "deflate": 1, "zstd": 2, "gzip": 3}
PASSWORD = "fvc secret ✓"
KEY = bytes((i * 7 + 3) & 0xFF for i in range(32))
# The fixture's object sent as an id: there is no object to write back, only its old id.
SKIP = {"object/as_id"}


def run(cmd: List[str], log: Path) -> subprocess.CompletedProcess[str]:
    """The engine under the project's deadline, its stderr (engine noise) into ``log``."""
    with open(log, "w") as err:
        return subprocess.run(
            [str(DEADLINE), "-k", "5", "120", *cmd], stdout=subprocess.PIPE, stderr=err, text=True
        )


def summary(out: str) -> List[int]:
    last = [line for line in out.splitlines() if line.endswith(" failed")]
    assert last, out
    words = last[-1].split()
    return [int(words[0]), int(words[2])]


@pytest.mark.parametrize(
    "var,fixture", [("GODOT3", "godot3_6_2"), ("GODOT32", "godot3_2_3")]
)
def test_godot3_reads_every_save_container(var: str, fixture: str, tmp_path: Path) -> None:
    godot3 = engine(var)
    side = json.loads((desc.SAVES / fixture / "plain.json").read_text())
    values = fvc.read_file(
        desc.SAVES / fixture / "plain.bin", dialect="godot3", allow_objects=True, allowed_classes=["Curve"]
    )
    entries = [
        {
            "index": i,
            "name": item["name"],
            "allow_objects": item["allow_objects"],
            "written": item["name"] not in SKIP,
        }
        for i, item in enumerate(side["values"])
    ]
    kept = [v for v, e in zip(values, entries) if e["written"]]
    files: List[Dict[str, Any]] = []

    def write(kind: str, mode: int, **how: Any) -> None:
        fvc.write_file(tmp_path / f"{kind}.bin", kept, dialect="godot3", full_objects=True, **how)
        files.append({"file": f"{kind}.bin", "kind": kind, "mode": mode})

    write("plain", -1)
    for name, mode in MODES.items():
        write(f"compressed_{name}", mode, compression=name)
    write("encrypted_pass", -1, password=PASSWORD)
    write("encrypted_key", -1, key=KEY)
    manifest = {
        "password": PASSWORD,
        "key_hex": KEY.hex(),
        "values": entries,
        "files": files,
        "configs": [],
        "config_values": [],
        "config_section": "values",
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    # Each container holds the same payload: what the plain file is.
    plain = (tmp_path / "plain.bin").read_bytes()
    for f in files:
        back = fvc.read_file(
            tmp_path / f["file"], dialect="godot3", password=PASSWORD if "pass" in f["kind"] else None,
            key=KEY if f["kind"] == "encrypted_key" else None,
            allow_objects=True,
        )
        assert len(back) == len(kept), f["kind"]
    assert len(plain) > 3 * 4096, "the payload spans several compressed blocks"

    checked = run(
        [godot3, "--no-window", "--path", str(desc.REPO / "tests" / "saves" / "check3"),
         "-s", "res://check3.gd", f"--in={tmp_path}", f"--fixture={desc.SAVES / fixture}"],
        tmp_path / "engine.log",
    )
    print(checked.stdout)
    kinds = {
        line.split()[1] for line in checked.stdout.splitlines() if line.startswith("RESULT ")
    }
    assert {f["kind"] for f in files} <= kinds, checked.stdout
    passed, failed = summary(checked.stdout)
    assert failed == 0 and checked.returncode == 0, checked.stdout
    # Every written value of every file, and the file's end, was compared.
    assert passed >= len(files) * (len(kept) + 1)


def test_godot4_reads_and_writes_store_var_files(tmp_path: Path) -> None:
    godot4 = engine("GODOT4")
    values: List[Any] = [
        {"player": "Ada", "gold": 1 << 40, "position": fvc.Vector3(1.5, -2.0, 0.25)},
        fvc.TypedArray("StringName", [fvc.StringName("sword"), fvc.StringName("potion")]),
        array("f", (i * 0.5 for i in range(3000))),
        "Grüße, 世界 " * 200,
        [fvc.NodePath("/root/Level:position"), fvc.Color(1, 0.5, 0, 1), None, True],
        array("q", range(-500, 500)),
    ]
    files = tmp_path / "files"
    files.mkdir()
    fvc.write_file(files / "plain.bin", values)
    kinds: Dict[str, Dict[str, Any]] = {
        **{f"compressed_{name}": {"compression": name} for name in MODES},
        "encrypted_pass": {"password": PASSWORD},
        "encrypted_key": {"key": KEY},
    }
    for kind, how in kinds.items():
        fvc.write_file(files / f"{kind}.bin", values, **how)
        secret = {k: v for k, v in how.items() if k != "compression"}
        assert fvc.read_file(files / f"{kind}.bin", **secret) == values, kind
    # A random IV for each file: the same values and password never give the same bytes.
    again = tmp_path / "again.bin"
    fvc.write_file(again, values, password=PASSWORD)
    assert again.read_bytes() != (files / "encrypted_pass.bin").read_bytes()
    project = tmp_path / "project"
    shutil.copytree(Path(__file__).parent / "godot4_files", project)
    run_ = run(
        [godot4, "--headless", "--path", str(project), "-s", "res://check_files.gd",
         "--", f"--dir={files}", f"--password={PASSWORD}", f"--key-hex={KEY.hex()}"],
        tmp_path / "engine.log",
    )
    print(run_.stdout)
    passed, failed = summary(run_.stdout)
    assert failed == 0 and run_.returncode == 0, run_.stdout
    # The key, plain.bin twice, then per kind: opens, length, bytes, count, each value; then the
    # two files written.
    assert passed == 3 + len(kinds) * (4 + len(values)) + 2
    # What the engine encrypted, the package reads.
    engine_files: List[Tuple[str, Dict[str, Any]]] = [
        ("encrypted_pass", {"password": PASSWORD}),
        ("encrypted_key", {"key": KEY}),
    ]
    for kind, secret in engine_files:
        path = files / f"engine_{kind}.bin"
        assert fvc.read_file(path, **secret) == values, kind
        with pytest.raises(fvc.SaveFileError) as wrong:
            fvc.read_file(path, password="not it")
        assert wrong.value.godot_error == "ERR_FILE_CORRUPT"


def test_a_file_is_compressed_or_encrypted_not_both(tmp_path: Path) -> None:
    for dialect in ("godot3", "godot4"):
        with pytest.raises(fvc.SaveFileError, match="not both") as both:
            encode_file([1], dialect=dialect, password="pw", compression="zstd")
        assert both.value.godot_error == "ERR_INVALID_PARAMETER"
    with pytest.raises(ValueError, match="unknown compression 'brotli'"):
        encode_file([1], dialect="godot3", compression="brotli")
    # Pandemonium's encrypted container was never checked against its engine: none is written.
    with pytest.raises(fvc.SaveFileError) as unchecked:
        fvc.write_file(tmp_path / "p.bin", [1], dialect="pandemonium5", password="pw")
    assert unchecked.value.godot_error == "ERR_UNAVAILABLE"
    assert not (tmp_path / "p.bin").exists()
    # A name in any case, as the engines spell it.
    assert encode_file([1], dialect="godot3", compression="FastLZ")[:4] == b"GCPF"
