"""A Godot value server on asyncio, written with fast_var_codec as a game's backend would be.

Godot clients talk to it with their own ``StreamPeerTCP.put_var`` / ``get_var`` (each value a
u32 length then its encoding). Every value a client sends is decoded into Python objects and
sent back encoded from them, so what comes back is what Python understood. Two requests get
other answers:

* the String ``"fvc:samples"``: the server's own values, made in Python (:func:`sample_values`),
  each as ``[name, value]``, then the String ``"fvc:samples_end"``;
* the String ``"fvc:stats"``: a Dictionary of what this connection has seen so far
  (``values``, ``malformed``, ``samples_sent``).

A message that does not decode is answered with a String ``"server error: ..."`` and the
connection goes on (``StreamDecoder`` raises and carries on after it); a length prefix above
``--max-message`` is answered so too, then the connection is closed, as the stream cannot be
followed any further.

    python asyncio_echo_server.py --port 47400 --dialect godot3 --allow-objects

``--port 0`` takes any free port; the first line printed says which (``listening on
127.0.0.1:PORT``); then one line per connection once it has ended. ``--connections N`` stops
after N connections, ``--timeout S`` after S seconds (exit code 3).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
from array import array
from dataclasses import dataclass
from typing import Any, Iterator, List, Optional, Tuple

import fast_var_codec as fvc

SAMPLES = "fvc:samples"
SAMPLES_END = "fvc:samples_end"
STATS = "fvc:stats"


@dataclass
class Connection:
    """What one client sent, kept so that the server can report it (and a client ask for it)."""

    peer: str
    values: int = 0
    malformed: int = 0
    samples_sent: int = 0
    ended: str = "open"

    def summary(self) -> str:
        return (
            f"connection from {self.peer}: {self.values} values, {self.malformed} malformed, "
            f"{self.samples_sent} samples sent; {self.ended}"
        )


class ValueServer:
    """Serves each connection with a StreamDecoder of its own: bytes go in as they arrive, in
    whatever pieces TCP makes of the client's messages, and complete values come out."""

    def __init__(self, dialect: fvc.Dialect, allow_objects: bool = False, max_message: int = 8 << 20) -> None:
        self.dialect = dialect
        # Objects are decoded only when asked for: a client's object can name any class.
        self.allow_objects = allow_objects
        self.max_message = max_message
        self.connections: List[Connection] = []

    def frame(self, value: Any) -> bytes:
        """A value as StreamPeer.put_var sends it; objects whole, as a client sent them."""
        return fvc.encode_framed(value, dialect=self.dialect, full_objects=True)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Connection:
        host, port = writer.get_extra_info("peername")[:2]
        conn = Connection(f"{host}:{port}")
        decoder = fvc.StreamDecoder(
            dialect=self.dialect, allow_objects=self.allow_objects, max_message=self.max_message
        )
        try:
            while not decoder.broken:
                chunk = await reader.read(1 << 16)
                if not chunk:
                    conn.ended = "closed by the client"
                    break
                decoder.feed(chunk)
                for answer in self.answers(decoder, conn):
                    writer.write(answer)
                await writer.drain()
            if decoder.broken:
                conn.ended = "closed by the server: a length prefix above --max-message"
        except ConnectionError as e:
            conn.ended = f"connection lost: {e}"
        finally:
            writer.close()
        self.connections.append(conn)
        return conn

    def answers(self, decoder: fvc.StreamDecoder, conn: Connection) -> Iterator[bytes]:
        """The answers to every complete message fed so far."""
        while True:
            try:
                value = next(decoder)
            except StopIteration:
                return
            except fvc.DecodeError as e:
                # The decoder has skipped the message, or is broken: then nothing follows.
                conn.malformed += 1
                yield self.frame(f"server error: {e.godot_error} at byte {e.offset}: {e.message}")
                if decoder.broken:
                    return
                continue
            conn.values += 1
            yield from self.reply(value, conn)

    def reply(self, value: Any, conn: Connection) -> Iterator[bytes]:
        if isinstance(value, str) and value == SAMPLES:
            for name, sample in sample_values(self.dialect):
                yield self.frame([name, sample])
                conn.samples_sent += 1
            yield self.frame(SAMPLES_END)
        elif isinstance(value, str) and value == STATS:
            yield self.frame(
                {"values": conn.values, "malformed": conn.malformed, "samples_sent": conn.samples_sent}
            )
        else:
            # The round trip: the Python objects decoded above, encoded again.
            try:
                yield self.frame(value)
            except fvc.EncodeError as e:  # a value this dialect has no type for
                yield self.frame(f"server error: {e.godot_error} at {e.path}: {e.message}")


def sample_values(dialect: str) -> List[Tuple[str, Any]]:
    """One or more values of every kind the dialect has, made in Python: what a client gets
    for ``"fvc:samples"``. Godot checks them against the same values made in GDScript
    (tests/peers/samples_client3.gd, rust/python/tests/godot4_peer/client4.gd)."""
    v2, v3 = fvc.Vector2, fvc.Vector3
    basis = fvc.Basis(v3(1, 0, 0), v3(0, 0.5, 0), v3(0, 0, 2))
    values: List[Tuple[str, Any]] = [
        ("nil", None),
        ("bool", True),
        ("int", -42),
        ("int_min64", -(2**63)),
        ("int_max64", 2**63 - 1),
        ("int_above_32", 2**40 + 7),
        ("float", 0.1),
        ("float_negative_zero", -0.0),
        ("float_inf", -math.inf),
        ("float_1e300", 1e300),
        ("string", 'héllo 日本 🎼 "q" \\ \t\n'),
        ("string_empty", ""),
        ("vector2", v2(1.5, -0.1)),
        ("vector3", v3(0.1, 0.2, 0.3)),
        ("rect2", fvc.Rect2(v2(1, 2), v2(3, 4.5))),
        ("transform2d", fvc.Transform2D(v2(1, 2), v2(3, 4), v2(5, 6))),
        ("plane", fvc.Plane(v3(0, 1, 0), 2.5)),
        ("quaternion", fvc.Quaternion(0.1, 0.2, 0.3, 0.9)),
        ("aabb", fvc.AABB(v3(1, 2, 3), v3(4, 5, 6))),
        ("basis", fvc.Basis(v3(1, 2, 3), v3(4, 5, 6), v3(7, 8, 9))),
        ("transform3d", fvc.Transform3D(basis, v3(10, 11, 12))),
        ("color", fvc.Color(0.1, 0.2, 0.3, 0.4)),
        ("node_path", fvc.NodePath("/root/Main/Player:position:x")),
        ("node_path_relative", fvc.NodePath("../Enemies/Boss")),
        ("object_as_id", fvc.EncodedObjectAsID(123456789)),
        ("object", fvc.Object("Resource", {"resource_name": "made in Python"})),
        ("bytes", bytes(range(256))),
        ("int32s", array("i", [1, -2, 2**31 - 1, -(2**31)])),
        ("float32s", array("f", [1.5, -0.1, 1e30])),
        ("strings", fvc.PackedStringArray(["a", "", "é日本"])),
        ("vector2s", fvc.PackedVector2Array([v2(1, 2), v2(-3, 4.5)])),
        ("vector3s", fvc.PackedVector3Array([v3(1, 2, 3), v3(-0.5, 0, 1e10)])),
        ("colors", fvc.PackedColorArray([fvc.Color(1, 0, 0, 1), fvc.Color(0.1, 0.2, 0.3, 0.4)])),
        ("array", [1, "two", 3.5, [4, [5, [6]]], {"x": None}]),
        ("dictionary", {"a": 1, 2: "b", v2(1, 2): [1, 2.5, "x"], "nested": {"k": [{"deep": None}]}}),
        ("game_state", {
            "players": [
                {"name": "ann", "pos": v3(1, 2, 3), "inventory": fvc.PackedStringArray(["sword"]),
                 "stats": {"hp": 10, "mp": 2.5}, "team": fvc.Color(0, 0.5, 1, 1)},
                {"name": "bob", "pos": v3(-4, 0, 8.25), "inventory": fvc.PackedStringArray(),
                 "stats": {"hp": 0, "mp": -0.0}, "path": fvc.NodePath("Players/bob")},
            ],
            "map": {"tiles": array("i", [0, 1, 1, 2, 3, 5, 8]), "spawn": [v2(0, 0), v2(10, -5)]},
            "meta": [[], {}, [[[1]]], None, True],
        }),
        # Large enough (1 MiB) that TCP hands it to the engine in many pieces.
        ("big_bytes", bytes(range(256)) * 4100),
        ("big_array", [i * 3 if i % 2 else str(i) for i in range(60000)]),
    ]
    if dialect.startswith("godot4"):
        values += [
            ("string_name", fvc.StringName("player_name")),
            ("vector2i", fvc.Vector2i(-1, 2**31 - 1)),
            ("vector3i", fvc.Vector3i(1, -2, 3)),
            ("vector4", fvc.Vector4(0.1, -0.2, 3, 4e20)),
            ("vector4i", fvc.Vector4i(-(2**31), 0, 7, 2**31 - 1)),
            ("rect2i", fvc.Rect2i(fvc.Vector2i(1, 2), fvc.Vector2i(3, 4))),
            ("projection", fvc.Projection(
                fvc.Vector4(1, 2, 3, 4), fvc.Vector4(5, 6, 7, 8), fvc.Vector4(9, 10, 11, 12),
                fvc.Vector4(13, 14, 15, 16))),
            ("rid", fvc.RID(1 << 40)),
            ("signal", fvc.Signal("ready", 1234)),
            ("callable", fvc.Callable()),
            ("int64s", array("q", [1, -(2**63), 2**63 - 1])),
            ("float64s", array("d", [0.1, -0.0, 1e300])),
            ("vector4s", fvc.PackedVector4Array([fvc.Vector4(1, 2, 3, 4), fvc.Vector4(-1, 0.5, 0, 0.1)])),
            ("typed_ints", fvc.TypedArray("int", [1, -2, 2**40])),
            ("typed_vector2s", fvc.TypedArray("Vector2", [v2(1, 2), v2(0.5, -0.25)])),
            ("typed_string_names", fvc.TypedArray("StringName", [fvc.StringName("a"), fvc.StringName("日本")])),
            ("typed_arrays", fvc.TypedArray("Array", [[1], [], ["x", None]])),
            ("typed_dictionary", fvc.TypedDictionary("String", "int", {"hp": 10, "mp": 5})),
            ("typed_dictionary_sn_vector3", fvc.TypedDictionary(
                "StringName", "Vector3", {fvc.StringName("spawn"): v3(1, 2, 3)})),
            ("typed_dictionary_variant_values", fvc.TypedDictionary("int", None, {1: "one", 2: [2]})),
            ("typed_inside_untyped", [fvc.TypedArray("int", [1]), {"t": fvc.TypedArray("String", ["s"])}]),
            # 1, 1.0 and true are three keys to Godot, one to a Python dict: pairs keep them apart.
            ("keys_python_would_merge", fvc.TypedDictionary(None, None, [(1, "int"), (1.0, "float"), (True, "bool")])),
            ("big_int_and_unicode_keys", {2**62: "big", -(2**63): "min", "日本": fvc.StringName("é")}),
        ]
    return values


async def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=47400, help="0: any free port")
    ap.add_argument("--dialect", default="godot4", choices=fvc.DIALECTS)
    ap.add_argument("--allow-objects", action="store_true", help="decode (and echo) whole objects: trusted clients only")
    ap.add_argument("--max-message", type=int, default=8 << 20, help="longest message, in bytes")
    ap.add_argument("--connections", type=int, default=0, help="stop after this many (0: never)")
    ap.add_argument("--timeout", type=float, default=0, help="stop after this many seconds (0: never)")
    args = ap.parse_args(argv)

    server = ValueServer(args.dialect, args.allow_objects, args.max_message)
    enough = asyncio.Event()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = await server.serve(reader, writer)
        print(conn.summary(), flush=True)
        if args.connections and len(server.connections) >= args.connections:
            enough.set()

    listener = await asyncio.start_server(handle, args.host, args.port)
    port = listener.sockets[0].getsockname()[1]
    print(f"listening on {args.host}:{port} ({args.dialect})", flush=True)
    async with listener:
        try:
            await asyncio.wait_for(enough.wait(), args.timeout or None)
        except asyncio.TimeoutError:
            print(f"stopped by --timeout after {len(server.connections)} connections", file=sys.stderr)
            return 3
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
