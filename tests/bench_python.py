#!/usr/bin/env python3
"""Speed of the Python package fast_var_codec against gdtype-python, msgpack and json.

What: encode and decode of four payloads, the same data for every codec, in one process:
  (a) message  a game message: a Dictionary of 10 fields (ints, floats, a short String, a
               Vector2, a Vector3, a small Array)
  (b) records  an Array of 1,000 small Dictionaries (id, name, hp, position, tags)
  (c) floats   a 1 MiB PackedFloat32Array (262,144 floats; fast_var_codec takes array('f'))
  (d) save     a Godot save: nested Dictionaries of player, inventory and world state (about
               70 KB encoded), with a 64-bit int, a non-ASCII String and a PackedStringArray
Each codec gets the payload in its own natural form: fast_var_codec the package's types;
gdtype-python its own classes (its Vector2, Float32Array, StringArray ...); msgpack and json
plain lists for vectors and packed arrays (msgpack: a list of floats for (c), written as
float64, its default; the raw bytes as msgpack bin are timed in the packed-array part); json:
lists of numbers.

gdtype-python writes every int in 32 bits, String lengths in characters and a
PackedStringArray without NUL terminators, so it cannot write (d) right: its cell for (d)
times the variant (d') whose seed fits 32 bits, whose name is ASCII and whose PackedStringArray
is an Array of Strings, and its ratio is to fast_var_codec's time on (d') too. Its decode gets
fast_var_codec's Godot 4 bytes behind put_var's length prefix (its deserialize needs it).
Those differences, and what they do on small values, are printed under "gdtype-python's
bytes" (checked, not assumed: each is a comparison this script makes).

Before timing, every codec's encoding of every payload is decoded back and compared with the
input; where gdtype-python writes bytes, they are compared with fast_var_codec's (Godot 4) and
decoded by fast_var_codec. A failed check ends the run (exit 1) before any timing.

Timing: for each payload and op, the codecs take turns round by round (the order rotates), so
load on the machine hits them alike; a sample is a timeit-style loop (the garbage collector
off, as timeit does) of a count sized to about 100 ms; the figure is the median of the rounds'
samples, per op, and the ratio is other / fast_var_codec. gdtype-python on (c) takes seconds
per op: one call a sample there.

Packed arrays: decode of a 1 MiB PackedFloat32Array and PackedInt32Array against the floor,
array.frombytes and numpy.frombuffer of the same raw bytes, and encode from array.array and
from a numpy array against tobytes().

How to run: bash tests/bench_python.sh (builds the wheel, makes the venv, runs this script and
writes tests/out/bench_python/bench_python.txt, .json and .md). By hand, in a venv with the wheel,
msgpack and numpy:
  python tests/bench_python.py [--gdtype-src DIR] [--rounds N] [--json FILE] [--check]
--gdtype-src: a directory holding gdtype-python's package gdtype/ (its repository's src/); the
gdtype column is left out without it. --check: only the correctness checks.
"""

from __future__ import annotations

import argparse
import array
import gc
import importlib
import json
import math
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import fast_var_codec as fvc
import msgpack  # type: ignore[import-untyped, unused-ignore]

try:
    import numpy
except ImportError:  # the packed-array part then leaves numpy's rows out
    numpy = None  # type: ignore[assignment]

FLOATS = 262_144  # 1 MiB of binary32
TARGET_S = 0.1  # the length of one sample
FVC, GDTYPE, MSGPACK, JSON = "fast_var_codec", "gdtype-python", "msgpack", "json"


# ---------------------------------------------------------------------------- the payloads


def make_message() -> Dict[str, Any]:
    """A state update as a multiplayer game sends it many times a second."""
    return {
        "type": "state",
        "tick": 48213,
        "player": 7,
        "hp": 87,
        "speed": 5.25,
        "yaw": 1.5707963267948966,  # not a binary32: written as a 64-bit float
        "pos": fvc.Vector3(12.5, 0.0, -3.75),
        "vel": fvc.Vector2(0.5, -1.25),
        "inputs": [1, 0, 3, 2],
        "name": "Ayla",
    }


def make_records() -> List[Dict[str, Any]]:
    """1,000 small entities, as a level or a server's snapshot holds them."""
    tags: Tuple[List[str], ...] = (["enemy", "melee"], ["enemy", "ranged", "elite"], ["npc"], [])
    return [
        {
            "id": i,
            "name": f"unit_{i:04d}",
            "hp": 100 - i % 37,
            "position": fvc.Vector2(i * 0.5, -i * 0.25),
            "tags": list(tags[i % 4]),
        }
        for i in range(1000)
    ]


def make_floats() -> "array.array[float]":
    """262,144 binary32 values (a height map, audio, a point cloud's coordinates)."""
    return array.array("f", (math.sin(i * 0.001) * 100.0 for i in range(FLOATS)))


def make_save(gdtype_safe: bool = False) -> Dict[str, Any]:
    """A save game: player stats, an inventory of 300 items, 200 quest flags, 150 NPCs.

    With gdtype_safe, the variant gdtype-python can write: the 64-bit seed becomes one that fits
    32 bits, the name ASCII, and the PackedStringArray an Array of Strings.
    """
    skills = ["swordsmanship", "archery", "alchemy", "lockpicking", "sneak", "smithing"]
    player = {
        "name": "Zoe" if gdtype_safe else "Zoë",
        "level": 42,
        "xp": 123456,
        "hp": 250,
        "max_hp": 300,
        "gold": 98765,
        "position": fvc.Vector3(104.5, 2.0, -57.25),
        "facing": fvc.Vector2(0.0, 1.0),
        "stats": {"str": 12, "dex": 15, "int": 9, "luck": 0.125},
        "skills": list(skills) if gdtype_safe else fvc.PackedStringArray(skills),
    }
    inventory = [
        {
            "item": f"item_{i % 60:02d}",
            "count": 1 + i % 20,
            "slot": i,
            "durability": (i % 8) / 8.0,
            "equipped": i < 6,
            "enchant": {"kind": "fire", "level": i % 5} if i % 7 == 0 else None,
        }
        for i in range(300)
    ]
    world = {
        "day": 57,
        "time_of_day": 13.5,
        "weather": "rain",
        "flags": {f"quest_{i:03d}_done": i % 3 == 0 for i in range(200)},
        "chests_opened": array.array("i", range(0, 4000, 7)),
        "npcs": [
            {
                "id": f"npc_{i:03d}",
                "pos": fvc.Vector3(i * 1.5, 0.0, -i * 0.75),
                "mood": ("happy", "angry", "idle")[i % 3],
                "hp": 40 + i % 60,
                "alive": i % 11 != 0,
            }
            for i in range(150)
        ],
    }
    return {
        "version": 3,
        "saved_at": 1767225600,  # seconds since 1970: fits 32 bits until 2038
        "seed": 123456789 if gdtype_safe else 0x5DEECE66D1234,
        "player": player,
        "inventory": inventory,
        "world": world,
    }


# ---------------------------------------------------------------- the other codecs' forms


def to_plain(value: Any) -> Any:
    """The payload as msgpack and json take it: vectors and packed arrays as lists."""
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, (fvc.Vector2, fvc.Vector3)):
        return list(value)
    if isinstance(value, (array.array, fvc.PackedStringArray)):
        return list(value)
    return value


class Gd:
    """gdtype-python's Godot 4 codec, imported from a directory (it is not on PyPI), and the
    mapping of the payloads to its classes and back."""

    def __init__(self, src: str) -> None:
        sys.path.insert(0, src)
        # binaryapiv4 sets the Godot 4 type table into gdtype's shared module when imported.
        self.api: Any = importlib.import_module("gdtype.binaryapiv4")
        self.src = src

    def to_gd(self, value: Any) -> Any:
        g = self.api
        if isinstance(value, dict):
            return {k: self.to_gd(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.to_gd(v) for v in value]
        if isinstance(value, fvc.Vector2):
            return g.Vector2([value.x, value.y])
        if isinstance(value, fvc.Vector3):
            return g.Vector3([value.x, value.y, value.z])
        if isinstance(value, fvc.PackedStringArray):
            return g.StringArray(list(value))
        if isinstance(value, bytes):
            return g.ByteArray(value)
        if isinstance(value, fvc.StringName):
            return g.StringName(value.name)
        if isinstance(value, array.array):
            kind = {"f": g.Float32Array, "i": g.Int32Array, "q": g.Int64Array, "d": g.Float64Array}
            return kind[value.typecode](list(value))
        return value

    def from_gd(self, value: Any) -> Any:
        g = self.api
        if isinstance(value, dict):
            return {k: self.from_gd(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.from_gd(v) for v in value]
        if isinstance(value, g.Vector2):
            return fvc.Vector2(value.x, value.y)
        if isinstance(value, g.Vector3):
            return fvc.Vector3(value.x, value.y, value.z)
        if isinstance(value, g.StringArray):
            return fvc.PackedStringArray(value.values)
        if isinstance(value, g.ByteArray):
            return bytes(value.values)
        if isinstance(value, g.StringName):
            return fvc.StringName(value.value)
        for cls, code in ((g.Float32Array, "f"), (g.Int32Array, "i"), (g.Int64Array, "q"),
                          (g.Float64Array, "d")):
            if isinstance(value, cls):
                return array.array(code, value.values)
        return value


# ------------------------------------------------------------------------------ the checks


@dataclass
class Checks:
    """Every comparison made before timing; a failure stops the run."""

    lines: List[str] = field(default_factory=list)
    passed: int = 0
    failed: int = 0

    def expect(self, ok: bool, what: str) -> bool:
        self.passed += ok
        self.failed += not ok
        if not ok:
            self.lines.append(f"FAIL {what}")
        return ok


def fvc_decodes(data: bytes, offset: int = 0) -> Tuple[bool, Any]:
    """fast_var_codec's reading of bytes (as Godot 4 reads them): (True, value) or (False, error)."""
    try:
        return True, fvc.decode(data, offset=offset)
    except fvc.ExtraData as e:
        return False, f"{len(e.extra)} bytes left over after {short(e.unpacked, 40)}"
    except fvc.FastVarCodecError as e:
        return False, f"{type(e).__name__}: {e}"


def short(value: Any, width: int = 70) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def gdtype_differences(gd: Gd) -> List[str]:
    """What gdtype-python writes and reads on the values it gets wrong, next to fast_var_codec's
    Godot 4 bytes: each line is the outcome of the comparison, not a claim."""
    cases: List[Tuple[str, Any]] = [
        ("float 1.5", 1.5),
        ("int 3_000_000_000", 3_000_000_000),
        ("int 2**40", 2**40),
        ("String 'Zoë'", "Zoë"),
        ("StringName 'Zoë'", fvc.StringName("Zoë")),
        ("PackedStringArray(['ab'])", fvc.PackedStringArray(["ab"])),
        ("PackedByteArray b'abc'", b"abc"),
        ("Array [b'abc', 7]", [b"abc", 7]),
    ]
    lines = []
    for name, value in cases:
        godot = fvc.encode_framed(value)
        try:
            mine: Optional[bytes] = gd.api.serialize(gd.to_gd(value))
            wrote = ""
        except Exception as e:  # noqa: BLE001 - what gdtype raises is the finding
            mine, wrote = None, f"raises {type(e).__name__}: {e}"
        if mine == godot:
            wrote = "the same bytes"
        elif mine is not None:
            ok, back = fvc_decodes(mine, 4)
            read = (f"which read as Godot 4 does give {short(back, 40)}" if ok
                    else f"which do not read as Godot 4 bytes ({short(back, 60)})")
            if ok and len(fvc.encode(back)) > len(mine) - 4:
                read += " (without the padding the engine writes, which Godot accepts)"
            wrote = f"{mine[4:].hex()} against {godot[4:].hex()}, {read}"
        try:
            got = gd.from_gd(gd.api.deserialize(godot))
            read_back = "right" if got == value else f"as {short(got, 40)}"
        except Exception as e:  # noqa: BLE001
            read_back = f"raises {type(e).__name__}: {short(str(e), 50)}"
        lines.append(f"  {name}: writes {wrote}; reads Godot's bytes {read_back}")
    return lines


# ------------------------------------------------------------------------------ the timing


@dataclass
class Case:
    """One payload and op: each codec's call, bound to its prepared input."""

    payload: str
    op: str
    calls: Dict[str, Callable[[], object]]
    fvc_base: Dict[str, str] = field(default_factory=dict)  # codec -> the fvc call its ratio is to
    samples: Dict[str, List[float]] = field(default_factory=dict)
    numbers: Dict[str, int] = field(default_factory=dict)


def run_loop(fn: Callable[[], object], number: int) -> float:
    """Seconds per call over number calls, the garbage collector off (as timeit)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        return (time.perf_counter() - start) / number
    finally:
        gc.enable()


def calibrate(fn: Callable[[], object]) -> int:
    """The call count for a sample of about TARGET_S (at least one call)."""
    number = 1
    while True:
        per_call = run_loop(fn, number)
        if per_call * number >= TARGET_S / 4:
            return max(1, round(TARGET_S / per_call))
        number *= 4


def time_case(case: Case, rounds: int) -> None:
    """Rounds of one sample per codec, the codecs' order rotating each round."""
    names = list(case.calls)
    for name in names:
        case.numbers[name] = calibrate(case.calls[name])
        case.samples[name] = []
    for r in range(rounds):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            case.samples[name].append(run_loop(case.calls[name], case.numbers[name]))


def fmt_ratio(ratio: float) -> str:
    return f"{ratio:,.0f}" if ratio >= 100 else f"{ratio:.1f}" if ratio >= 10 else f"{ratio:.2f}"


def median_us(samples: Sequence[float]) -> float:
    return statistics.median(samples) * 1e6


def fmt_us(us: float) -> str:
    if us >= 1e5:
        return f"{us / 1e3:,.0f} ms"
    if us >= 100:
        return f"{us:,.0f}"
    if us >= 10:
        return f"{us:.1f}"
    return f"{us:.2f}"


# ------------------------------------------------------------------------------- the run


def build_cases(gd: Optional[Gd], checks: Checks) -> Tuple[List[Case], Dict[str, int]]:
    """Checks each payload's round trip in every codec, then binds the timed calls."""
    payloads = {
        "a message": make_message(),
        "b records": make_records(),
        "c floats": make_floats(),
        "d save": make_save(),
        "d' save (gdtype's variant)": make_save(gdtype_safe=True),
    }
    sizes: Dict[str, int] = {}
    cases: List[Case] = []
    fvc_by_payload: Dict[str, Tuple[bytes, Any]] = {}
    for name, value in payloads.items():
        data = fvc.encode(value)
        sizes[name] = len(data)
        checks.expect(fvc.decode_with_size(data) == (value, len(data)), f"{FVC} round trip of {name}")
        fvc_by_payload[name] = (data, value)
    for name, value in payloads.items():
        if name.startswith("d'"):
            continue
        data, _ = fvc_by_payload[name]
        plain = to_plain(value)
        packed = msgpack.packb(plain)
        checks.expect(msgpack.unpackb(packed) == plain, f"{MSGPACK} round trip of {name}")
        text = json.dumps(plain)
        checks.expect(json.loads(text) == plain, f"{JSON} round trip of {name}")
        enc: Dict[str, Callable[[], object]] = {
            FVC: partial(fvc.encode, value),
            MSGPACK: partial(msgpack.packb, plain),
            JSON: partial(json.dumps, plain),
        }
        dec: Dict[str, Callable[[], object]] = {
            FVC: partial(fvc.decode, data),
            MSGPACK: partial(msgpack.unpackb, packed),
            JSON: partial(json.loads, text),
        }
        base: Dict[str, str] = {}
        if gd is not None:
            gname = "d' save (gdtype's variant)" if name == "d save" else name
            gdata, gvalue = fvc_by_payload[gname]
            gin = gd.to_gd(gvalue)
            gbytes = gd.api.serialize(gin)
            framed = fvc.encode_framed(gvalue)
            ok, back = fvc_decodes(gbytes, 4)
            checks.expect(ok and back == gvalue,
                          f"{GDTYPE}'s bytes of {gname} read back equal by {FVC}: {short(back)}")
            checks.expect(gd.from_gd(gd.api.deserialize(framed)) == gvalue,
                          f"{GDTYPE} reads {FVC}'s bytes of {gname} back equal")
            enc[GDTYPE] = partial(gd.api.serialize, gin)
            dec[GDTYPE] = partial(gd.api.deserialize, framed)
            if gname != name:
                enc[FVC + " (d')"] = partial(fvc.encode, gvalue)
                dec[FVC + " (d')"] = partial(fvc.decode, gdata)
                base[GDTYPE] = FVC + " (d')"
        cases.append(Case(name, "encode", enc, dict(base)))
        cases.append(Case(name, "decode", dec, dict(base)))
    return cases, sizes


def frombytes(raw: bytes, code: str) -> "array.array[Any]":
    """The floor of a decode: one copy of the bytes into a new array."""
    out = array.array(code)
    out.frombytes(raw)
    return out


def numpy_copy(raw: bytes, dtype: str) -> Any:
    return numpy.frombuffer(raw, dtype).copy()


def msgpack_array(blob: bytes, code: str) -> "array.array[Any]":
    """A packed array as msgpack bin, read into an array (msgpack has no array type)."""
    return frombytes(msgpack.unpackb(blob), code)


def msgpack_bin(arr: "array.array[Any]") -> bytes:
    return msgpack.packb(arr.tobytes())  # type: ignore[no-any-return, unused-ignore]


def packed_cases(checks: Checks) -> List[Case]:
    """fast_var_codec's packed arrays against a plain copy of the same bytes (the floor)."""
    floats = make_floats()
    ints = array.array("i", range(-FLOATS // 2, FLOATS // 2))
    cases: List[Case] = []
    for label, arr, code, dtype in (("PackedFloat32Array", floats, "f", "<f4"),
                                    ("PackedInt32Array", ints, "i", "<i4")):
        data = fvc.encode(arr)
        raw = arr.tobytes()
        checks.expect(data[8:] == raw and fvc.decode(data) == arr,
                      f"{label}: the payload is the raw bytes behind an 8-byte header")

        dec: Dict[str, Callable[[], object]] = {
            f"{FVC}.decode": partial(fvc.decode, data),
            "array.frombytes (floor)": partial(frombytes, raw, code),
        }
        enc: Dict[str, Callable[[], object]] = {
            f"{FVC}.encode(array)": partial(fvc.encode, arr),
            "array.tobytes (floor)": arr.tobytes,
        }
        if numpy is not None:
            nd = numpy.frombuffer(raw, dtype=dtype).copy()
            checks.expect(fvc.encode(nd) == data, f"{label}: numpy's array encodes as array's")
            dec["numpy.frombuffer (a view)"] = partial(numpy.frombuffer, raw, dtype)
            dec["numpy.frombuffer().copy()"] = partial(numpy_copy, raw, dtype)
            enc[f"{FVC}.encode(numpy)"] = partial(fvc.encode, nd)
            enc["ndarray.tobytes (floor)"] = nd.tobytes
        if code == "f":
            blob = msgpack.packb(raw)
            dec["msgpack bin + frombytes"] = partial(msgpack_array, blob, code)
            enc["msgpack bin of tobytes"] = partial(msgpack_bin, arr)
        cases.append(Case(label, "decode", dec))
        cases.append(Case(label, "encode", enc))
    return cases


def git_head() -> str:
    return os.environ.get("FVC_BENCH_COMMIT", "unknown")


def report(cases: List[Case], packed: List[Case], sizes: Dict[str, int], gd: Optional[Gd],
           differences: List[str], load: Tuple[str, str], rounds: int) -> str:
    """The text table: median µs per op and other / fast_var_codec."""
    out = []
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")),
                       cpu)
    except OSError:
        pass
    out.append(f"fast_var_codec {fvc.__version__} (commit {git_head()}), msgpack "
               f"{'.'.join(map(str, msgpack.version))}, "
               f"gdtype-python {os.environ.get('FVC_GDTYPE_REV', 'from ' + gd.src) if gd else 'absent'}"
               f", numpy {numpy.__version__ if numpy is not None else 'absent'}")
    out.append(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} "
               f"cores ({cpu}); load average before {load[0]}, after {load[1]}")
    out.append(f"median of {rounds} interleaved rounds, samples of ~{TARGET_S * 1e3:.0f} ms "
               f"(gc off); µs per op; (×) = codec / fast_var_codec")
    out.append("")
    sizes_line = ", ".join(f"{k.split()[0]} {v:,} B" for k, v in sizes.items())
    out.append(f"fast_var_codec's encoded sizes: {sizes_line}")
    out.append("")
    others = [c for c in (GDTYPE, MSGPACK, JSON) if any(c in x.calls for x in cases)]
    head = f"{'payload':<12} {'op':<7} {FVC + ' µs':>18}" + "".join(f"{o + ' µs (×)':>26}"
                                                                     for o in others)
    out.append(head)
    for case in cases:
        fvc_us = median_us(case.samples[FVC])
        row = f"{case.payload:<12} {case.op:<7} {fmt_us(fvc_us):>18}"
        for other in others:
            if other not in case.samples:
                row += f"{'-':>26}"
                continue
            base = median_us(case.samples[case.fvc_base.get(other, FVC)])
            us = median_us(case.samples[other])
            mark = "'" if other in case.fvc_base else ""
            row += f"{fmt_us(us) + mark:>17} ({fmt_ratio(us / base):>6})"
        out.append(row)
    for case in cases:
        for other, base_name in case.fvc_base.items():
            out.append(f"' {other} on {case.payload} {case.op}: the variant d' (ratio to "
                       f"{FVC}'s {fmt_us(median_us(case.samples[base_name]))} µs on d')")
    if gd is not None:
        out.append("")
        out.append("gdtype-python's bytes (the framed put_var bytes, hex after the prefix) "
                   "against fast_var_codec's Godot 4 bytes:")
        out.extend(differences)
    out.append("")
    out.append("Packed arrays, 1 MiB (262,144 elements): µs per op, (×) = the call / the floor")
    for case in packed:
        floor_name = next(n for n in case.calls if "floor" in n)
        floor = median_us(case.samples[floor_name])
        out.append(f"  {case.payload} {case.op}")
        for name in case.calls:
            us = median_us(case.samples[name])
            out.append(f"    {name:<30} {fmt_us(us):>10} ({fmt_ratio(us / floor):>5})")
    return "\n".join(out) + "\n"


def markdown(cases: List[Case], packed: List[Case], sizes: Dict[str, int]) -> str:
    """The same tables in Markdown, for docs/python.md."""
    others = [c for c in (GDTYPE, MSGPACK, JSON) if any(c in x.calls for x in cases)]
    out = ["| payload (encoded) | op | fast_var_codec µs | " + " | ".join(f"{o} µs (×)" for o in others)
           + " |", "|---|---|---:|" + "---:|" * len(others)]
    for case in cases:
        row = f"| {case.payload} ({sizes[case.payload]:,} B) | {case.op} | "
        row += fmt_us(median_us(case.samples[FVC]))
        for other in others:
            if other not in case.samples:
                row += " | -"
                continue
            base = median_us(case.samples[case.fvc_base.get(other, FVC)])
            us = median_us(case.samples[other])
            mark = "\\*" if other in case.fvc_base else ""
            row += f" | {fmt_us(us)}{mark} ({fmt_ratio(us / base)})"
        out.append(row + " |")
    out += ["", "| 1 MiB | call | µs | (×) the floor |", "|---|---|---:|---:|"]
    for case in packed:
        floor = median_us(case.samples[next(n for n in case.calls if "floor" in n)])
        for name in case.calls:
            us = median_us(case.samples[name])
            out.append(f"| {case.payload} {case.op} | `{name}` | {fmt_us(us)} | {fmt_ratio(us / floor)} |")
    return "\n".join(out) + "\n"


def as_json(cases: List[Case], packed: List[Case], sizes: Dict[str, int],
            load: Tuple[str, str], rounds: int) -> Dict[str, Any]:
    def one(case: Case) -> Dict[str, Any]:
        return {
            "payload": case.payload, "op": case.op, "ratio_base": case.fvc_base,
            "codecs": {n: {"median_us": median_us(s), "number": case.numbers[n],
                           "samples_us": [x * 1e6 for x in s]}
                       for n, s in case.samples.items()},
        }
    return {
        "commit": git_head(), "fast_var_codec": fvc.__version__, "python": platform.python_version(),
        "cores": os.cpu_count(), "load_before": load[0], "load_after": load[1], "rounds": rounds,
        "encoded_sizes": sizes, "cases": [one(c) for c in cases], "packed": [one(c) for c in packed],
    }


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--gdtype-src", help="a directory holding gdtype-python's gdtype/")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--out", help="write the table to this file too")
    parser.add_argument("--markdown", help="write the tables in Markdown to this file")
    parser.add_argument("--check", action="store_true", help="only the correctness checks")
    args = parser.parse_args(argv)

    gd = Gd(args.gdtype_src) if args.gdtype_src else None
    checks = Checks()
    cases, sizes = build_cases(gd, checks)
    packed = packed_cases(checks)
    differences = gdtype_differences(gd) if gd is not None else []
    print("\n".join(checks.lines))
    print(f"checks: {checks.passed} passed, {checks.failed} failed")
    if checks.failed or args.check:
        if differences:
            print("\n".join(differences))
        return 1 if checks.failed else 0

    load_before = loadavg()
    for case in cases + packed:
        print(f"timing {case.payload} {case.op} ...", file=sys.stderr, flush=True)
        time_case(case, args.rounds)
    load = (load_before, loadavg())
    text = report(cases, packed, sizes, gd, differences, load, args.rounds)
    print(text, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(markdown(cases, packed, sizes))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(as_json(cases, packed, sizes, load, args.rounds), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
