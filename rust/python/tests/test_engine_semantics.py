"""The math types' arithmetic and the typed containers' equality, against what Godot 4.6.3
computes: a headless engine evaluates each GDScript expression below and stores the results with
its own ``store_var``; the package reads that file and compares each with the same expression
evaluated in Python. Godot computes reals in binary32 (a standard build), Python in binary64:
reals are compared to 1e-6 relative, ints and bools exactly."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path
from typing import Any, Callable, List, Tuple

from engines import DEADLINE, engine

import fast_var_codec as fvc
from fast_var_codec import Color, Quaternion, TypedArray, TypedDictionary, Vector2, Vector2i
from fast_var_codec import Vector3, Vector3i, Vector4, Vector4i

CASES: List[Tuple[str, Callable[[], Any]]] = [
    ("Vector2(1.5, 2) + Vector2(3, -4)", lambda: Vector2(1.5, 2) + Vector2(3, -4)),
    ("Vector2(1.5, 2) - Vector2(3, -4)", lambda: Vector2(1.5, 2) - Vector2(3, -4)),
    ("Vector2(1, 2) * Vector2(3, 4)", lambda: Vector2(1, 2) * Vector2(3, 4)),
    ("Vector2(1, 2) * 2.5", lambda: Vector2(1, 2) * 2.5),
    ("2.5 * Vector2(1, 2)", lambda: 2.5 * Vector2(1, 2)),
    ("Vector2(1, 2) / 4", lambda: Vector2(1, 2) / 4),
    ("Vector2(1, 2) / Vector2(4, 0.5)", lambda: Vector2(1, 2) / Vector2(4, 0.5)),
    ("-Vector2(1, -2)", lambda: -Vector2(1, -2)),
    ("Vector2(3, 4).length()", lambda: Vector2(3, 4).length()),
    ("Vector2(1, 2).length()", lambda: Vector2(1, 2).length()),
    ("Vector2(1, 2).dot(Vector2(3, -4))", lambda: Vector2(1, 2).dot(Vector2(3, -4))),
    ("Vector2(1, 2).lerp(Vector2(3, 5), 0.1)", lambda: Vector2(1, 2).lerp(Vector2(3, 5), 0.1)),
    ("Vector2(3, 4).normalized()", lambda: Vector2(3, 4).normalized()),
    ("Vector3(1, 2, 3) * Vector3(-1, 0.5, 2) + Vector3(1, 1, 1)",
     lambda: Vector3(1, 2, 3) * Vector3(-1, 0.5, 2) + Vector3(1, 1, 1)),
    ("Vector3(1, 2, 3).length()", lambda: Vector3(1, 2, 3).length()),
    ("Vector3(1, 2, 3).lerp(Vector3(-1, 0, 9), 0.75)",
     lambda: Vector3(1, 2, 3).lerp(Vector3(-1, 0, 9), 0.75)),
    ("Vector4(1, 2, 3, 4) / 3", lambda: Vector4(1, 2, 3, 4) / 3),
    ("Vector4(1, 2, 3, 4).dot(Vector4(4, 3, 2, 1))",
     lambda: Vector4(1, 2, 3, 4).dot(Vector4(4, 3, 2, 1))),
    ("Vector2i(7, -7) / 2", lambda: Vector2i(7, -7) / 2),
    ("Vector2i(7, -7) * 3", lambda: Vector2i(7, -7) * 3),
    ("Vector2i(7, -7) * 1.5", lambda: Vector2i(7, -7) * 1.5),
    ("Vector2i(7, -7) / 2.0", lambda: Vector2i(7, -7) / 2.0),
    ("Vector2i(3, 4).length()", lambda: Vector2i(3, 4).length()),
    ("Vector2i(2147483647, 1) + Vector2i(1, 1)", lambda: Vector2i(2147483647, 1) + Vector2i(1, 1)),
    ("-Vector3i(1, -2, 3)", lambda: -Vector3i(1, -2, 3)),
    ("Vector3i(9, -9, 8) / Vector3i(2, 4, -3)", lambda: Vector3i(9, -9, 8) / Vector3i(2, 4, -3)),
    ("Vector4i(1, 2, 3, 4) * Vector4i(2, 2, 2, 2) - Vector4i(1, 1, 1, 1)",
     lambda: Vector4i(1, 2, 3, 4) * Vector4i(2, 2, 2, 2) - Vector4i(1, 1, 1, 1)),
    ("Color(0.1, 0.2, 0.3, 0.4) * 2", lambda: Color(0.1, 0.2, 0.3, 0.4) * 2),
    ("Color(0.1, 0.2, 0.3, 0.4) + Color(0.1, 0.1, 0.1, 0.1)",
     lambda: Color(0.1, 0.2, 0.3, 0.4) + Color(0.1, 0.1, 0.1, 0.1)),
    ("Color(0.5, 0.5, 0.5, 1) * Color(1, 0.5, 0, 1)",
     lambda: Color(0.5, 0.5, 0.5, 1) * Color(1, 0.5, 0, 1)),
    ("-Color(0.25, 0.5, 0.75, 1)", lambda: -Color(0.25, 0.5, 0.75, 1)),
    ("Color(0, 0, 0, 1).lerp(Color(1, 1, 1, 1), 0.25)",
     lambda: Color(0, 0, 0, 1).lerp(Color(1, 1, 1, 1), 0.25)),
    ("Quaternion(1, 2, 3, 4) * Quaternion(5, 6, 7, 8)",
     lambda: Quaternion(1, 2, 3, 4) * Quaternion(5, 6, 7, 8)),
    ("Quaternion(1, 2, 3, 4) * 0.5 + Quaternion(1, 0, 0, 0)",
     lambda: Quaternion(1, 2, 3, 4) * 0.5 + Quaternion(1, 0, 0, 0)),
    ("Quaternion(1, 2, 3, 4).length()", lambda: Quaternion(1, 2, 3, 4).length()),
    ("Quaternion(1, 2, 3, 4).dot(Quaternion(4, 3, 2, 1))",
     lambda: Quaternion(1, 2, 3, 4).dot(Quaternion(4, 3, 2, 1))),
    ("Quaternion(1, 2, 3, 4).normalized()", lambda: Quaternion(1, 2, 3, 4).normalized()),
    ("-Quaternion(1, -2, 3, -4)", lambda: -Quaternion(1, -2, 3, -4)),
    # Typed and untyped containers: Godot compares the items, not the types.
    ("[1, 2] == TI", lambda: [1, 2] == TypedArray("int", [1, 2])),
    ("TI == [1, 2]", lambda: TypedArray("int", [1, 2]) == [1, 2]),
    ("TI == [1, 3]", lambda: TypedArray("int", [1, 2]) == [1, 3]),
    ("{\"a\": 1} == TD", lambda: {"a": 1} == TypedDictionary("String", "int", {"a": 1})),
    ("TD == {\"a\": 2}", lambda: TypedDictionary("String", "int", {"a": 1}) == {"a": 2}),
]

SCRIPT = """extends SceneTree
func _init():
\tvar TI: Array[int] = [1, 2]
\tvar TD: Dictionary[String, int] = {"a": 1}
\tvar f = FileAccess.open(OS.get_cmdline_user_args()[0], FileAccess.WRITE)
\tvar results = []
%s
\tf.store_var(results)
\tf.close()
\tquit()
"""


def close(ours: Any, engine_value: Any) -> bool:
    if isinstance(ours, bool) or isinstance(ours, int):
        return type(ours) is type(engine_value) and ours == engine_value
    if isinstance(ours, float):
        return isinstance(engine_value, float) and math.isclose(ours, engine_value, rel_tol=1e-6)
    if type(ours) is not type(engine_value):
        return False
    return all(close(a, b) for a, b in zip(ours, engine_value))


def test_arithmetic_and_equality_match_godot_4(tmp_path: Path) -> None:
    godot4 = engine("GODOT4")
    lines = "\n".join(f"\tresults.append({expr})" for expr, _ in CASES)
    script = tmp_path / "compute.gd"
    script.write_text(SCRIPT % lines)
    out = tmp_path / "results.bin"
    with open(tmp_path / "engine.log", "w") as err:
        subprocess.run([str(DEADLINE), "-k", "5", "120", godot4, "--headless", "--script",
                        str(script), "--", str(out)], stdout=err, stderr=err, check=True)
    [results] = fvc.read_file(out)
    assert len(results) == len(CASES)
    differ = [f"{expr}: ours {f()!r}, Godot {got!r}"
              for (expr, f), got in zip(CASES, results) if not close(f(), got)]
    assert not differ, "\n".join(differ)
    # docs/python.md's example of binary32 against binary64: the engine's length is the binary32
    # rounding of the exact one, which Python keeps.
    godot_length = results[[e for e, _ in CASES].index("Vector2(1, 2).length()")]
    assert repr(godot_length) == "2.2360680103302"
    assert repr(Vector2(1, 2).length()) == "2.23606797749979"
