"""Live engines against the asyncio server of rust/python/examples/asyncio_echo_server.py, run by
itself as a user would run it: a headless Godot 4.6.3 ($GODOT4) and a Godot 3.6.2 ($GODOT3)
connect to it over TCP and exchange values through their own StreamPeerTCP put_var / get_var
(no extension). The engines check what comes back (the server decodes every value into Python
objects and encodes it again from them) and the values the server makes in Python; the server
reports what it received, which must be what the engine says it sent. Engine output goes to
live_engines/ in $FVC_PYTHON_TEST_OUT (the runner's own output folder; default
tests/out/run_python_tests/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import IO, Dict, List, Tuple

import pytest

import desc
from engines import DEADLINE, engine

EXAMPLE = desc.REPO / "rust" / "python" / "examples" / "asyncio_echo_server.py"
OUT = Path(os.environ.get("FVC_PYTHON_TEST_OUT") or desc.REPO / "tests" / "out" / "run_python_tests") / "live_engines"
PEERS3 = desc.REPO / "tests" / "peers"
PEER4 = Path(__file__).resolve().parent / "godot4_peer"
LIMIT = 120  # seconds any process here may run (tests/deadline.sh records a hang)
ENGINE_PROBLEMS = re.compile(r"ObjectDB instances leaked|SCRIPT ERROR")
CONNECTION = re.compile(
    r"^connection from \S+: (?P<values>\d+) values, (?P<malformed>\d+) malformed, "
    r"(?P<samples>\d+) samples sent; (?P<ended>.*)$",
    re.M,
)


class Server:
    """The example as a process of its own on a free port (--port 0: it says which), serving one
    connection; its stderr in a log file."""

    def __init__(self, name: str, *args: str) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        self.log_path = OUT / f"{name}.server.log"
        self.log: IO[str] = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [str(DEADLINE), "-k", "5", str(LIMIT), sys.executable, str(EXAMPLE), "--port", "0",
             "--connections", "1", "--timeout", str(LIMIT - 10), *args],
            stdout=subprocess.PIPE, stderr=self.log, text=True,
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        m = re.match(r"listening on 127\.0\.0\.1:(\d+) ", first)
        if not m:
            self.proc.kill()
            self.log.close()
            pytest.fail(f"the server did not start: {first!r} {self.log_path.read_text()[-2000:]}")
        self.port = int(m.group(1))

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        """Stops the server when a check failed before it ended by itself."""
        if self.proc.poll() is None:
            self.proc.terminate()  # tests/deadline.sh passes it on to the server
            self.proc.wait(timeout=30)
        self.log.close()

    def finish(self) -> Dict[str, str]:
        """The server's report of its one connection, once it has exited by itself (exit code 0)."""
        out, _ = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, f"server exit code {self.proc.returncode}: {out} {self.log_path.read_text()[-2000:]}"
        reports = [m.groupdict() for m in CONNECTION.finditer(out)]
        assert len(reports) == 1, out
        return reports[0]


def run_engine(name: str, command: List[str]) -> Tuple[int, str]:
    """Runs an engine client to its end, its stdout and stderr in files; its exit code and stdout."""
    stdout, log = OUT / f"{name}.stdout", OUT / f"{name}.log"
    with open(stdout, "w") as out, open(log, "w") as err:
        code = subprocess.run([str(DEADLINE), "-k", "5", str(LIMIT), *command], stdout=out, stderr=err).returncode
    text = stdout.read_text(errors="replace")
    problems = [ln for f in (stdout, log) for ln in f.read_text(errors="replace").splitlines() if ENGINE_PROBLEMS.search(ln)]
    assert not problems, f"{name}: the engine reported leaked objects or GDScript errors ({log}): {problems[:5]}"
    return code, text


def passed(name: str, code: int, text: str) -> int:
    """The engine's checks that passed; fails unless its last line says none failed and it exited 0."""
    results = re.findall(r"^(\d+) passed, (\d+) failed$", text, re.M)
    fails = "\n".join(ln for ln in text.splitlines() if ln.startswith("FAIL"))[:3000]
    assert results, f"{name}: no final 'N passed, N failed' line (exit code {code}): {text[-2000:]}"
    p, f = (int(x) for x in results[-1])
    assert (f, code) == (0, 0), f"{name}: {p} passed, {f} failed, exit code {code}:\n{fails}"
    assert p > 0
    return p


def said(text: str) -> Dict[str, str]:
    """The counts the engine says the server should have: its 'RESULT sent=N malformed=N samples=N' line."""
    m = re.search(r"^RESULT sent=(\d+) malformed=(\d+) samples=(\d+)$", text, re.M)
    assert m, text[-2000:]
    return {"values": m.group(1), "malformed": m.group(2), "samples": m.group(3)}


def godot3(script: str, port: int) -> List[str]:
    return [os.environ["GODOT3"], "--no-window", "--path", str(PEERS3), "-s", f"res://{script}",
            f"--port={port}", f"--timeout={LIMIT - 20}"]


def test_godot3_gets_every_value_back() -> None:
    """tests/peers/godot3_client.gd, the Rust echo server's client, unchanged: every Godot 3 type,
    nested containers, values of 1 MiB and more, an object sent as its id and one sent whole."""
    engine("GODOT3")
    with Server("godot3_echo", "--dialect", "godot3", "--allow-objects") as server:
        code, text = run_engine("godot3_echo", godot3("godot3_client.gd", server.port))
        n = passed("godot3_client.gd", code, text)
        report = server.finish()
    # godot3_client.gd counts a check for connecting, one per value, one for reaching its end.
    assert (int(report["values"]), report["malformed"]) == (n - 2, "0"), report
    assert n - 2 > 50 and report["ended"] == "closed by the client", report


def test_godot3_checks_the_values_python_makes() -> None:
    """tests/peers/samples_client3.gd: a malformed message answered and the connection kept, the
    server's own values compared with the engine's, the server's counts."""
    engine("GODOT3")
    with Server("godot3_samples", "--dialect", "godot3") as server:
        code, text = run_engine("godot3_samples", godot3("samples_client3.gd", server.port))
        passed("samples_client3.gd", code, text)
        report = server.finish()
    assert {k: report[k] for k in ("values", "malformed", "samples")} == said(text), report
    assert report["malformed"] == "1" and int(report["samples"]) > 30, report
    assert report["ended"] == "closed by the client", report


def test_godot4_exchanges_every_value() -> None:
    """rust/python/tests/godot4_peer/client4.gd: every value of the Godot 4 golden corpus and
    values of 1 MiB and more echoed, a malformed message answered and the connection kept, the
    server's own values compared with the engine's, the server's counts, then a length prefix
    above the server's limit, after which the server closes the connection."""
    godot4 = engine("GODOT4")
    with Server("godot4", "--dialect", "godot4", "--allow-objects") as server:
        code, text = run_engine("godot4", [godot4, "--headless", "--path", str(PEER4), "-s", "res://client4.gd",
                                           "--", f"--port={server.port}", f"--timeout={LIMIT - 20}"])
        passed("client4.gd", code, text)
        report = server.finish()
    assert {k: report[k] for k in ("values", "malformed", "samples")} == said(text), report
    assert int(report["values"]) > 500 and report["malformed"] == "2" and int(report["samples"]) > 50, report
    assert report["ended"] == "closed by the server: a length prefix above --max-message", report
