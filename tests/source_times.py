#!/usr/bin/env python3
"""Gives a fresh clone's files the modification times the shared build cache knows them by.

Cargo decides whether a workspace crate must be compiled again by comparing its source files'
modification times with the time it last built them. A fresh clone's files are all new, so every
build of a test run compiled the workspace's own crates again, although the cache outside the
clone (tests/lib.sh: fvc_use_build_cache) had them built from the very same text.

This script keeps, in the cache folder, each tracked file's Git blob id and the time the cache
first saw that content (`sources.tsv`). At the start of a run:

* a file whose content the cache knows gets that time back: what was built from it is fresh;
* any other file (new, changed, or changed in the work tree) gets the current time, recorded:
  what was built from an older content is stale, as cargo expects.

That is the modification-time rule of one persistent checkout, which cargo is built for, kept
across clones. It holds only while every build into the cache came from a run that set the times
this way: `end` (called when such a run ends) stamps the folder, and a later `start` that finds a
build newer than the stamp (cargo run by hand through a clone's `target/` link, a run killed
midway) trusts no recorded time and records the current time for every file, as a clone without
this script would have it.

Files compiled into a binary with their absolute path (`env!("CARGO_MANIFEST_DIR")`,
`env!("CARGO_BIN_EXE_...")`: cargo does not rebuild when those change) would make a reused test
binary read another clone's files: while a Rust source holds one, no time is reused.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

MANIFEST = "sources.tsv"
ENDED = "sources.ended"
BAKED_PATHS = ('env!("CARGO_MANIFEST_DIR")', 'env!("CARGO_BIN_EXE_')


def git(root: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True).stdout


def tracked(root: Path) -> dict[str, str]:
    """Path → blob id of every file in the index (links and submodules left out)."""
    files = {}
    for entry in git(root, "ls-files", "-s", "-z").split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, blob, _stage = meta.split()
        if mode in (b"100644", b"100755"):
            files[path.decode()] = blob.decode()
    return files


def changed_in_work_tree(root: Path) -> set[str]:
    """Tracked files whose work-tree content may differ from the index."""
    out = git(root, "status", "--porcelain=v1", "-z", "--untracked-files=no", "--no-renames")
    return {entry[3:].decode() for entry in out.split(b"\0") if entry}


def load(cache: Path) -> dict[str, tuple[str, int]]:
    known = {}
    try:
        text = (cache / MANIFEST).read_text()
    except FileNotFoundError:
        return known
    for line in text.splitlines():
        blob, ns, path = line.split("\t", 2)
        known[path] = (blob, int(ns))
    return known


def newer_build(cache: Path, stamp: Path) -> str | None:
    """A cargo fingerprint in the cache written after `stamp`, if there is one."""
    limit = stamp.stat().st_mtime_ns
    for dirpath, dirnames, filenames in os.walk(cache):
        if os.path.basename(dirpath) == ".fingerprint":
            for unit in dirnames:
                unit_dir = os.path.join(dirpath, unit)
                for name in os.listdir(unit_dir):
                    path = os.path.join(unit_dir, name)
                    if os.stat(path, follow_symlinks=False).st_mtime_ns > limit:
                        return path
            dirnames[:] = []
        elif os.path.basename(dirpath) in ("incremental", "deps", "build", "examples"):
            dirnames[:] = []
    return None


def distrust_reason(root: Path, cache: Path, files: dict[str, str]) -> str | None:
    if not (cache / MANIFEST).exists():
        return "no times recorded yet"
    stamp = cache / ENDED
    if not stamp.exists() or stamp.stat().st_mtime_ns < (cache / MANIFEST).stat().st_mtime_ns:
        return "the last run that recorded times did not end"
    build = newer_build(cache, stamp)
    if build:
        return f"built since the last such run ended ({os.path.relpath(build, cache)})"
    for path in files:
        if path.endswith(".rs"):
            text = (root / path).read_text(errors="replace")
            for baked in BAKED_PATHS:
                if baked in text:
                    return f"{path} compiles in an absolute path ({baked}...)"
    return None


def start(root: Path, cache: Path) -> None:
    files = tracked(root)
    dirty = changed_in_work_tree(root)
    reason = distrust_reason(root, cache, files)
    known = {} if reason else load(cache)
    now = time.time_ns()
    kept = 0
    lines = []
    for path, blob in sorted(files.items()):
        if path in dirty:
            blob = "-"  # never matches: the work tree's content is not the blob's
        if path in known and known[path][0] == blob and blob != "-":
            ns = known[path][1]
            kept += 1
        else:
            ns = now
        os.utime(root / path, ns=(ns, ns), follow_symlinks=False)
        lines.append(f"{blob}\t{ns}\t{path}")
    temporary = cache / (MANIFEST + ".new")
    temporary.write_text("\n".join(lines) + "\n")
    temporary.replace(cache / MANIFEST)
    if reason:
        print(f"source times: none reused ({reason}); {len(files)} files recorded")
    else:
        print(f"source times: {kept} of {len(files)} files as the build cache knows them")


def end(cache: Path) -> None:
    (cache / ENDED).touch()


def self_test() -> int:
    """Real cargo on a one-file crate, cloned as the test command clones: what it compiles again."""
    import shutil
    import tempfile

    checks = []

    def check(what: str, ok: bool) -> None:
        checks.append(ok)
        print(f"{'ok' if ok else 'FAILED'}: {what}")

    with tempfile.TemporaryDirectory(prefix="fvc-source-times-") as tmp:
        base = Path(tmp)
        origin, cache = base / "origin", base / "cache"
        (origin / "src").mkdir(parents=True)
        cache.mkdir()
        (origin / "Cargo.toml").write_text('[package]\nname = "probe"\nversion = "0.1.0"\nedition = "2021"\n')
        (origin / "src/main.rs").write_text("fn main() {}\n")
        subprocess.run(["git", "init", "-q", str(origin)], check=True)

        def commit(text: str) -> None:
            (origin / "src/main.rs").write_text(text)
            subprocess.run(["git", "-C", str(origin), "add", "-A"], check=True)
            subprocess.run(["git", "-C", str(origin), "-c", "user.name=t", "-c", "user.email=t@t",
                            "commit", "-qm", "probe"], check=True)

        def run(name: str, by_hand: bool = False) -> str:
            """A fresh clone's run: times set, cargo build, end; what cargo said of the crate."""
            clone = base / name
            subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
            if not by_hand:
                start(clone, cache)
            out = subprocess.run(["cargo", "build", "-v", "--offline"], cwd=clone, check=True,
                                 capture_output=True, text=True,
                                 env={**os.environ, "CARGO_TARGET_DIR": str(cache / "target")}).stderr
            if not by_hand:
                end(cache)
            shutil.rmtree(clone)
            return "compiled" if "Compiling probe" in out else "fresh" if "Fresh probe" in out else out

        commit("fn main() {}\n")
        check("a first clone compiles", run("a") == "compiled")
        check("a second clone of the same commit reuses the build", run("b") == "fresh")
        commit("fn main() { println!(); }\n")
        check("a clone of a changed file compiles", run("c") == "compiled")
        commit("fn main() {}\n")
        check("a clone back at an older text compiles again", run("d") == "compiled")
        check("and the next clone of it reuses that build", run("e") == "fresh")
        run("f", by_hand=True)
        check("after a build outside a run, nothing is reused", run("g") == "compiled")
        check("until a run has ended again", run("h") == "fresh")
        commit('fn main() { println!("{}", env!("CARGO_MANIFEST_DIR")); }\n')
        run("i")
        check("a source compiling in its absolute path is never reused", run("j") == "compiled")
    failed = checks.count(False)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    start_parser = sub.add_parser("start", help="set the clone's file times, record them")
    start_parser.add_argument("root", type=Path, help="the clone")
    start_parser.add_argument("cache", type=Path, help="the build cache folder")
    end_parser = sub.add_parser("end", help="stamp the cache: the run's builds are done")
    end_parser.add_argument("cache", type=Path, help="the build cache folder")
    args = parser.parse_args()
    if args.command == "start":
        start(args.root, args.cache)
    else:
        end(args.cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
