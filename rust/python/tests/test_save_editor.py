"""The save editor of docs/python.md, run verbatim: Godot 3.6.2 writes a game's encrypted save,
the example adds 1000 gold to it, and Godot 3.6.2 reads the edited save back with its own
File.open_encrypted_with_pass and get_var (godot3_game/save_game.gd)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import desc
from engines import engine

GAME = Path(__file__).resolve().parent / "godot3_game"
PASSWORD = "fvc secret ✓"


def example() -> str:
    """The docs' save-editor example: the python block after its marker."""
    text = (desc.REPO / "docs" / "python.md").read_text()
    m = re.search(r"<!-- save-editor example.*?-->\s*```python\n(.*?)```", text, re.S)
    assert m, "docs/python.md has the save-editor example"
    return m.group(1)


def godot3() -> str:
    return engine("GODOT3")


def run_godot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [godot3(), "--no-window", "--path", str(GAME), "-s", "res://save_game.gd", *args],
        capture_output=True, text=True, timeout=120,
    )


def test_the_example_is_short() -> None:
    assert len(example().strip().splitlines()) < 20


def test_godot3_reads_the_edited_save(tmp_path: Path) -> None:
    save = tmp_path / "savegame.bin"
    made = run_godot(f"--make={save}", f"--password={PASSWORD}")
    assert made.returncode == 0 and save.exists(), made.stdout + made.stderr
    script = tmp_path / "edit_save.py"
    script.write_text(example())
    edited = subprocess.run(
        [sys.executable, str(script), str(save), PASSWORD], capture_output=True, text=True
    )
    assert edited.returncode == 0, edited.stderr
    assert "Ada now has 1120 gold" in edited.stdout
    checked = run_godot(f"--check={save}", f"--password={PASSWORD}", "--gold=1120")
    print(checked.stdout)
    assert "5 passed, 0 failed" in checked.stdout, checked.stdout + checked.stderr
    assert checked.returncode == 0
    # And a wrong gold is caught: the check can fail.
    wrong = run_godot(f"--check={save}", f"--password={PASSWORD}", "--gold=120")
    assert wrong.returncode == 1 and "FAIL gold" in wrong.stdout
