// The JavaScript API: the type mapping both ways, options, errors, the edges of typed containers
// and files, and the StreamDecoder.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const hex = (b) => desc.hexOf(b);
const same = (a, b) => assert.equal(desc.canon(a), desc.canon(b));

test("the README's first example", () => {
  const bytes = fvc.encode({ hp: 10, pos: new fvc.Vector3(1, 2, 3) }, { dialect: "godot3" });
  const value = fvc.decode(bytes, { dialect: "godot3" });
  same(value, new Map([["hp", 10], ["pos", new fvc.Vector3(1, 2, 3)]]));
  assert.equal(fvc.decodeWithSize(bytes, { dialect: "godot3" }).size, bytes.length);
});

test("numbers: ints, floats, Float, BigInt", () => {
  assert.equal(hex(fvc.encode(7)), "0200000007000000");
  assert.equal(hex(fvc.encode(1.5)), "030000000000c03f");
  assert.equal(hex(fvc.encode(new fvc.Float(1))), "030000000000803f");
  assert.equal(hex(fvc.encode(-0)), "0300000000000080");
  assert.equal(hex(fvc.encode(2 ** 40)), "0200010000000000" + "00010000");
  assert.equal(hex(fvc.encode(2n ** 40n)), hex(fvc.encode(2 ** 40)));
  assert.equal(fvc.decode(fvc.encode(2 ** 53 - 1)), 2 ** 53 - 1);
  assert.equal(fvc.decode(fvc.encode(2n ** 53n)), 2n ** 53n);
  assert.equal(fvc.decode(fvc.encode(-(2n ** 63n))), -(2n ** 63n));
  assert.equal(fvc.decode(fvc.encode(new fvc.Float(1))), 1);
  same(fvc.decode(fvc.encode(new fvc.Float(1)), { keepFloats: true }), new fvc.Float(1));
  assert.equal(fvc.decode(fvc.encode(1.5), { keepFloats: true }), 1.5);
  assert.throws(() => fvc.encode(2n ** 63n), (e) => e instanceof fvc.EncodeError && e.path === "");
  assert.ok(Number.isNaN(fvc.decode(fvc.encode(NaN))));
});

test("useBigInt64: every int a BigInt, small or large, wherever it stands; floats stay numbers", () => {
  const ints = [0, 7, -1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53) + 1, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n];
  const bytes = fvc.encode(ints);
  // By default a number when a safe integer, a BigInt beyond.
  assert.deepEqual(fvc.decode(bytes), [0, 7, -1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53) + 1, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n]);
  const big = ints.map((i) => BigInt(i));
  assert.deepEqual(fvc.decode(bytes, { useBigInt64: true }), big);
  assert.deepEqual(new fvc.Codec({ useBigInt64: true }).decode(bytes), big);
  assert.deepEqual(new fvc.Codec({ dialect: "godot3", useBigInt64: true }).decode(fvc.encode(5, { dialect: "godot3" })), 5n);
  // Inside Dictionaries (keys too), typed Arrays and objects; floats and packed arrays unchanged.
  const mixed = fvc.decode(
    fvc.encode(new Map([[1, new fvc.TypedArray("int", [2, 3])], ["f", 1.5], ["p", Int32Array.of(4)]])),
    { useBigInt64: true },
  );
  assert.deepEqual([...mixed.keys()], [1n, "f", "p"]);
  assert.deepEqual(mixed.get(1n).items, [2n, 3n]);
  assert.equal(mixed.get("f"), 1.5);
  assert.deepEqual(mixed.get("p"), Int32Array.of(4));
  // The stream readers and the file reader take it too; a BigInt encodes back to the same bytes.
  const stream = new fvc.StreamDecoder({ useBigInt64: true }).feed(fvc.encodeFramed(9));
  assert.deepEqual([...stream], [9n]);
  const messages = new fvc.MessageDecoder({ useBigInt64: true }).feed(fvc.encode(9));
  assert.deepEqual([...messages], [9n]);
  assert.deepEqual(fvc.readStoreVarFile(fvc.writeStoreVarFile([1, 2]), { useBigInt64: true }).values, [1n, 2n]);
  assert.equal(hex(fvc.encode(fvc.decode(bytes, { useBigInt64: true }))), hex(bytes));
});

test("Dictionaries: a Map by default, every key in its order; dictionaryAs \"object\" for 0.x's plain objects", () => {
  const d = { b: 1, a: [true, null] };
  // One shape: a Map, whatever the keys (String keys, index-like keys, others).
  for (const value of [d, { name: "b" }, new Map([["1", "a"], ["name", "b"]]), new Map([[1, "int"]]), {}]) {
    const back = fvc.decode(fvc.encode(value));
    assert.ok(back instanceof Map, desc.canon(back));
    assert.deepEqual([...back.keys()], value instanceof Map ? [...value.keys()] : Object.keys(value));
  }
  same(fvc.decode(fvc.encode(d)), new Map([["b", 1], ["a", [true, null]]]));
  same(new fvc.Codec().decode(fvc.encode({ n: { m: {} } })), new Map([["n", new Map([["m", new Map()]])]]));
  // The readers of streams, messages, files and JSON return the same shape.
  assert.ok([...new fvc.StreamDecoder().feed(fvc.encodeFramed(d))][0] instanceof Map);
  assert.ok([...new fvc.MessageDecoder().feed(fvc.encode(d))][0] instanceof Map);
  assert.ok(fvc.readStoreVarFile(fvc.writeStoreVarFile([d]), { dialect: "godot4" }).values[0] instanceof Map);
  assert.ok(fvc.fromJSON('{"a": 1}') instanceof Map);
  // dictionaryAs "object": plain objects where every key is a String an object keeps in order.
  same(fvc.decode(fvc.encode(d), { dictionaryAs: "object" }), d);
  same(new fvc.Codec({ dictionaryAs: "object" }).decode(fvc.encode({ n: { m: {} } })), { n: { m: {} } });
  same(fvc.fromJSON('{"a": {"b": 1}}', { dictionaryAs: "object" }), { a: { b: 1 } });
  // ... and a Map where one would not: index-like keys (objects list them first), other types.
  const indexLike = fvc.decode(fvc.encode(new Map([["name", "b"], ["1", "a"]])), { dictionaryAs: "object" });
  assert.ok(indexLike instanceof Map);
  assert.deepEqual([...indexLike.keys()], ["name", "1"]);
  assert.ok(fvc.decode(fvc.encode(new Map([[1, "int"]])), { dictionaryAs: "object" }) instanceof Map);
  // 0.x's useMap is refused with what to write instead; so is an unknown shape.
  assert.throws(() => fvc.decode(fvc.encode(d), { useMap: true }), (e) => e instanceof TypeError && /dictionaryAs/.test(e.message));
  assert.throws(() => new fvc.Codec({ dictionaryAs: "json" }), TypeError);
  // Keys of other types: the int 1 and the float 1.0 are two keys, the float a Float.
  const mixed = new Map([[1, "int"], [new fvc.Float(1), "float"], [new fvc.Vector2(1, 2), "v"]]);
  const mixedBack = fvc.decode(fvc.encode(mixed));
  assert.ok(mixedBack instanceof Map);
  assert.equal(mixedBack.size, 3);
  const [k0, k1] = [...mixedBack.keys()];
  assert.equal(k0, 1);
  assert.ok(k1 instanceof fvc.Float);
  // Godot 4 merges a String and a StringName of the same text (the core's rule).
  const merged = fvc.decode(fvc.encode(new Map([["hp", 1], [new fvc.StringName("hp"), 2]])));
  same(merged, new Map([["hp", 2]]));
});

test("math types, packed arrays and the other classes round-trip", () => {
  const values = [
    new fvc.Vector2(1.5, 2),
    new fvc.Vector2i(1, -2),
    new fvc.Rect2(new fvc.Vector2(1, 2), new fvc.Vector2(3, 4)),
    new fvc.Rect2i(new fvc.Vector2i(1, 2), new fvc.Vector2i(3, 4)),
    new fvc.Vector3(1, 2, 3),
    new fvc.Vector3i(1, 2, 3),
    new fvc.Transform2D(new fvc.Vector2(1, 0), new fvc.Vector2(0, 1), new fvc.Vector2(5, 6)),
    new fvc.Vector4(1, 2, 3, 4),
    new fvc.Vector4i(1, 2, 3, 4),
    new fvc.Plane(new fvc.Vector3(0, 1, 0), 2),
    new fvc.Quaternion(0, 0, 0, 1),
    new fvc.AABB(new fvc.Vector3(1, 2, 3), new fvc.Vector3(4, 5, 6)),
    new fvc.Basis(new fvc.Vector3(1, 2, 3), new fvc.Vector3(4, 5, 6), new fvc.Vector3(7, 8, 9)),
    new fvc.Transform3D(new fvc.Basis(), new fvc.Vector3(5, 6, 7)),
    new fvc.Projection(),
    new fvc.Color(1, 0.5, 0.25, 1),
    new fvc.StringName("name"),
    new fvc.NodePath("/root/Player:position:x"),
    new fvc.RID(5n),
    new fvc.Callable(),
    new fvc.Signal("hit", 12345678901234567n),
    new fvc.TypedArray("int", [1, 2, 3]),
    new fvc.TypedDictionary("String", "int", new Map([["a", 1]])),
    Uint8Array.from([1, 2, 3]),
    Int32Array.from([1, -1]),
    BigInt64Array.from([1n, -(2n ** 62n)]),
    Float32Array.from([0.5, 1.5]),
    Float64Array.from([0.1, 0.2]),
    new fvc.PackedStringArray(["a", "zoë"]),
    new fvc.PackedVector2Array([1, 2, 3, 4]),
    new fvc.PackedVector3Array([1, 2, 3]),
    new fvc.PackedVector4Array([1, 2, 3, 4]),
    new fvc.PackedColorArray([1, 0, 0, 1]),
  ];
  for (const v of values) {
    same(fvc.decode(fvc.encode(v), { keepFloats: true }), v);
  }
  assert.equal(String(new fvc.NodePath("/root/Player:position:x")), "/root/Player:position:x");
  const pv = new fvc.PackedVector2Array([1, 2, 3, 4]);
  assert.equal(pv.length, 2);
  same(pv.at(1), new fvc.Vector2(3, 4));
  // A Node Buffer is a Uint8Array: a PackedByteArray.
  assert.equal(hex(fvc.encode(Buffer.from([1]))), hex(fvc.encode(Uint8Array.from([1]))));
  // Full objects, with an allow-list.
  const obj = new fvc.GodotObject("Resource", { resource_name: "r" });
  const bytes = fvc.encode(obj, { fullObjects: true });
  assert.throws(() => fvc.decode(bytes), (e) => e instanceof fvc.DecodeError && e.godotError === "ERR_UNAUTHORIZED");
  assert.throws(() => fvc.decode(bytes, { allowObjects: true, allowedClasses: ["Node"] }), fvc.DecodeError);
  same(fvc.decode(bytes, { allowObjects: true, allowedClasses: ["Resource"] }), obj);
});

test("values with no Godot type: an EncodeError with the path", () => {
  assert.throws(
    () => fvc.encode({ items: [1, () => 0] }),
    (e) => e instanceof fvc.EncodeError && e.path === '["items"][1]' && e.godotError === "ERR_INVALID_PARAMETER",
  );
  assert.throws(() => fvc.encode(new Int16Array(2)), fvc.EncodeError);
  assert.throws(() => fvc.encode(new Date()), fvc.EncodeError);
  const cycle = [];
  cycle.push(cycle);
  assert.throws(() => fvc.encode(cycle), fvc.EncodeError);
  assert.throws(() => fvc.encode(new fvc.Vector2i(1.5, 0)), fvc.EncodeError);
  // Godot 3 has no Vector4, unless lossy.
  assert.throws(() => fvc.encode([null, new fvc.Vector4()], { dialect: "godot3" }), (e) => e.path === "[1]");
  assert.ok(fvc.encode(new fvc.Vector4(), { dialect: "godot3", allowLossy: true }).length > 0);
  assert.throws(() => fvc.encode(1, { dialect: "godot5" }), TypeError);
});

test("a typed Array's item that does not fit: an EncodeError with its path", () => {
  assert.throws(
    () => fvc.encode(new fvc.TypedArray("int", [1, "x"])),
    (e) => e instanceof fvc.EncodeError && e.path === "[1]",
  );
  assert.throws(
    () => fvc.encode({ scores: new fvc.TypedArray("int", [1, "x"]) }),
    (e) => e instanceof fvc.EncodeError && e.path === '["scores"][1]',
  );
  assert.throws(
    () => fvc.encode(new fvc.TypedDictionary("String", "int", new Map([[1, 2]]))),
    (e) => e instanceof fvc.EncodeError && e.path === "[1]" && e.message.includes("Dictionary[String, int]"),
  );
  // A type name that is no Godot type says which was meant.
  assert.throws(() => new fvc.TypedArray("str", []), (e) => e instanceof TypeError && /String/.test(e.message));
  // Dropped items: the engine's result, or an error when asked.
  const data = desc.hexBytes("1c000100020000000200000002000000010000000400000001000000" + "78000000");
  same(fvc.decode(data), new fvc.TypedArray("int", [1]));
  assert.throws(() => fvc.decode(data, { refuseDroppedElements: true }), (e) => /would be dropped/.test(e.message));
});

test("decode errors: offset and Godot error; limits", () => {
  assert.throws(
    () => fvc.decode(Uint8Array.from([0xff, 0, 0, 0, 9, 0, 0, 0])),
    (e) => e instanceof fvc.DecodeError && e instanceof fvc.FastVarCodecError && e instanceof Error &&
      e.godotError === "ERR_INVALID_DATA" && typeof e.offset === "number",
  );
  // A 12-byte Array claiming 2^31 elements fails at once.
  assert.throws(() => fvc.decode(desc.hexBytes("1c000000ffffff7f00000000")), fvc.DecodeError);
  const big = fvc.encode(new Array(100).fill(1));
  assert.throws(() => fvc.decode(big, { maxElements: 10 }), (e) => e.godotError === "ERR_OUT_OF_MEMORY");
  assert.throws(() => fvc.decode(fvc.encode([[[[1]]]]), { maxDepth: 2 }), (e) => e.godotError === "ERR_OUT_OF_MEMORY");
  // offset reads further in.
  const two = new Uint8Array([...fvc.encode(1), ...fvc.encode("x")]);
  assert.equal(fvc.decode(two, { offset: 8 }), "x");
  const codec = new fvc.Codec({ dialect: "godot3", keepFloats: true });
  same(codec.decode(codec.encode(new fvc.Float(3))), new fvc.Float(3));
  assert.equal(codec.options.dialect, "godot3");
});

test("decode takes its bytes whole: bytes after the value are a DecodeError; decodeWithSize leaves them to the caller", () => {
  const two = new Uint8Array([...fvc.encode(1), ...fvc.encode("x")]);
  const notWhole = (offset) => (e) =>
    e instanceof fvc.DecodeError && e.godotError === "ERR_INVALID_DATA" && e.offset === offset &&
    /takes 8 of its record's 20 bytes/.test(e.reason);
  assert.throws(() => fvc.decode(two), notWhole(8));
  assert.throws(() => new fvc.Codec().decode(two), notWhole(8));
  assert.throws(() => new fvc.Codec({ keepFloats: true }).decode(two.buffer), notWhole(8));
  // From an offset: whole means to the end, and the error's offset is the input's byte.
  const three = new Uint8Array([...fvc.encode(true), ...two]);
  assert.throws(() => fvc.decode(three, { offset: 8 }), notWhole(16));
  assert.equal(fvc.decode(three, { offset: 16 }), "x");
  // A value in another dialect: the error names the dialect that reads the bytes whole.
  const godot3 = fvc.encode(new fvc.Transform3D(new fvc.Basis(), new fvc.Vector3(5, 6, 7)), { dialect: "godot3" });
  assert.throws(
    () => fvc.decode(godot3),
    (e) => e instanceof fvc.DecodeError && e.offset === 20 && e.reason.includes('reads whole as Godot 3 (dialect "godot3")'),
  );
  assert.throws(
    () => fvc.decode(new Uint8Array([0xee, 0xee, ...godot3]), { offset: 2 }),
    (e) => e instanceof fvc.DecodeError && e.offset === 22 && e.reason.includes('(dialect "godot3")'),
  );
  same(fvc.decode(godot3, { dialect: "godot3" }), new fvc.Transform3D(new fvc.Basis(), new fvc.Vector3(5, 6, 7)));
  // decodeWithSize and decodeMulti are unchanged: the size, and the values one after another.
  assert.deepEqual(fvc.decodeWithSize(two), { value: 1, size: 8 });
  assert.deepEqual(new fvc.Codec().decodeWithSize(three, { offset: 8 }), { value: 1, size: 8 });
  assert.deepEqual([...fvc.decodeMulti(two)], [1, "x"]);
  // Bytes that do not decode at all keep their own error; an offset at the end is an error too.
  assert.throws(() => fvc.decode(two.subarray(0, 6)), (e) => e instanceof fvc.DecodeError && !/record/.test(e.reason));
  assert.throws(() => fvc.decode(two, { offset: two.length }), fvc.DecodeError);
});

test("the StreamDecoder, fed byte by byte", () => {
  const values = [{ a: 1 }, "two", null, new fvc.Vector2(1, 2), Float32Array.from([1, 2, 3])];
  const stream = new Uint8Array(values.flatMap((v) => [...fvc.encodeFramed(v)]));
  const decoder = new fvc.StreamDecoder();
  const got = [];
  for (const byte of stream) {
    decoder.feed(Uint8Array.of(byte));
    for (const v of decoder) got.push(v);
  }
  same(got, desc.asDecoded(values));
  assert.equal(decoder.buffered, 0);
  // Big-endian prefixes.
  const be = new fvc.StreamDecoder({ bigEndian: true });
  be.feed(fvc.encodeFramed(7, { bigEndian: true }));
  assert.deepEqual([...be], [7]);
});

test("StreamDecoder reads put_var streams, Codec.streamDecoder() makes one; the 0.x names Decoder and Codec.decoder are gone", () => {
  assert.equal(typeof fvc.StreamDecoder, "function");
  assert.equal("Decoder" in fvc, false);
  assert.equal(typeof fvc.Codec.prototype.decoder, "undefined");
  const codec = new fvc.Codec({ dialect: "godot3", keepFloats: true });
  const stream = codec.streamDecoder({ maxMessage: 4096, bigEndian: true });
  assert.ok(stream instanceof fvc.StreamDecoder);
  assert.equal(stream.maxMessage, 4096);
  assert.equal(stream.dialect, "godot3");
  stream.feed(codec.encodeFramed(new fvc.Float(2), { bigEndian: true }));
  same([...stream], [new fvc.Float(2)]);
  assert.equal(codec.streamDecoder().maxMessage, fvc.DEFAULT_MAX_MESSAGE);
});

test("the StreamDecoder: a bad message is skipped, an oversized prefix breaks it", () => {
  const d = new fvc.StreamDecoder({ maxMessage: 1024 });
  assert.equal(d.maxMessage, 1024);
  d.feed(fvc.encodeFramed(new fvc.Rect2(new fvc.Vector2(1, 2), new fvc.Vector2(3, 4)), { dialect: "godot3" }));
  d.feed(fvc.encodeFramed(null));
  assert.throws(() => d.next(), (e) => e instanceof fvc.DecodeError && /reads whole as Godot 3/.test(e.message));
  assert.deepEqual(d.next(), { done: false, value: null });
  assert.equal(d.next().done, true);
  d.feed(Uint8Array.from([0, 0, 0, 0x80, 1, 2, 3]));
  assert.throws(() => d.next(), (e) => e instanceof fvc.DecodeError && e.godotError === "ERR_OUT_OF_MEMORY");
  assert.equal(d.broken, true);
  assert.throws(() => d.feed(fvc.encodeFramed(1)), fvc.DecodeError);
  d.reset();
  assert.equal(d.broken, false);
  d.feed(fvc.encodeFramed(1));
  assert.deepEqual([...d], [1]);
  // The default limit is 8 MiB.
  assert.equal(new fvc.StreamDecoder().maxMessage, 8 << 20);
});

const SAVES = ["godot3_6_2", "godot3_2_3"];

test("a Godot 3 file read with dialect auto is Godot 3's; as godot4 a DecodeError naming Godot 3", () => {
  for (const engine of SAVES) {
    for (const kind of ["plain", "compressed_deflate"]) {
      const data = new Uint8Array(fs.readFileSync(path.join(desc.SAVES, engine, `${kind}.bin`)));
      const expected = fvc.readStoreVarFile(data, { dialect: "godot3", allowObjects: true }).values;
      assert.equal(expected.length, 59);
      const auto = fvc.readStoreVarFile(data, { allowObjects: true });
      assert.equal(auto.dialect, "godot3");
      const bytesOf = (vs) => vs.map((v) => hex(fvc.encode(v, { dialect: "godot3", fullObjects: true, allowLossy: true })));
      assert.deepEqual(bytesOf(auto.values), bytesOf(expected));
      assert.throws(
        () => fvc.readStoreVarFile(data, { dialect: "godot4", allowObjects: true }),
        (e) => e instanceof fvc.DecodeError && e.message.includes('reads whole as Godot 3 (dialect "godot3")'),
      );
    }
  }
});

/** A Godot compressed file of valid 4 KiB zlib blocks of zeros announcing `payload` bytes. */
function deflateBomb(payload) {
  const block = zlib.deflateSync(Buffer.alloc(4096));
  const last = zlib.deflateSync(Buffer.alloc(0));
  const count = Math.floor(payload / 4096) + 1;
  const u32 = (n) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const parts = [Buffer.from("GCPF"), u32(1), u32(4096), u32(payload)];
  for (let i = 0; i < count - 1; i++) parts.push(u32(block.length));
  parts.push(u32(last.length));
  for (let i = 0; i < count - 1; i++) parts.push(block);
  parts.push(last, Buffer.from("GCPF"));
  return new Uint8Array(Buffer.concat(parts));
}

test("a small compressed file announcing 1 GiB: SaveFileError ERR_OUT_OF_MEMORY before inflating", () => {
  const bomb = deflateBomb(2 ** 30);
  assert.ok(bomb.length < 8 << 20);
  for (const opts of [{}, { maxBytes: 1 << 20 }, { dialect: "godot3" }]) {
    assert.throws(
      () => fvc.readStoreVarFile(bomb, opts),
      (e) => e instanceof fvc.SaveFileError && e.godotError === "ERR_OUT_OF_MEMORY",
    );
  }
  const small = deflateBomb(8 << 20);
  assert.throws(() => fvc.readStoreVarFile(small, { maxPayload: 4 << 20 }), (e) => e.godotError === "ERR_OUT_OF_MEMORY");
  assert.throws(() => fvc.readStoreVarFile(small), fvc.DecodeError);
});

test("the package's version is the project's", () => {
  const pkg = JSON.parse(fs.readFileSync(path.resolve("node_modules/fast-var-codec/package.json"), "utf8"));
  assert.equal(fvc.version(), pkg.version);
});

test('allowedClasses: "*" admits every class and script, as in Python and GDScript; one other string is refused', () => {
  const objects = [
    new fvc.GodotObject("Resource", { resource_name: "r" }),
    new fvc.GodotObject("Node", { name: "n" }),
    new fvc.TypedArray("res://enemy.gd", []),
  ];
  for (const obj of objects) {
    const bytes = fvc.encode(obj, { fullObjects: true });
    for (const allowedClasses of ["*", ["*"], ["Resource", "*"], new Set(["*"])]) {
      same(fvc.decode(bytes, { allowObjects: true, allowedClasses }), obj);
      same(new fvc.Codec({ allowObjects: true, allowedClasses }).decode(bytes), obj);
    }
    assert.throws(
      () => fvc.decode(bytes, { allowObjects: true, allowedClasses: ["Image"] }),
      (e) => e instanceof fvc.DecodeError && e.godotError === "ERR_UNAUTHORIZED",
    );
  }
  // A bare class name is not read letter by letter: a TypeError that says how to write it.
  assert.throws(() => new fvc.Codec({ allowObjects: true, allowedClasses: "Resource" }), /\["Resource"\]/);
});

test("decodeMulti: values stored back to back, one at a time; offsets; trailing bytes that do not decode", () => {
  const values = [1, "two", { three: new fvc.Vector3(3, 3, 3) }, Uint8Array.of(4), null, [2n ** 60n]];
  const parts = values.map((v) => fvc.encode(v, { dialect: "godot3" }));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const offsets = [];
  let at = 0;
  for (const p of parts) {
    offsets.push(at);
    bytes.set(p, at);
    at += p.length;
  }
  const multi = fvc.decodeMulti(bytes, { dialect: "godot3" });
  assert.equal(typeof multi.next, "function");
  same([...multi], desc.asDecoded(values));
  same([...new fvc.Codec({ dialect: "godot3" }).decodeMulti(bytes)], desc.asDecoded(values));
  // From an offset; and decodeWithSize in a loop finds the same offsets.
  same([...fvc.decodeMulti(bytes, { dialect: "godot3", offset: offsets[2] })], desc.asDecoded(values.slice(2)));
  const codec = new fvc.Codec({ dialect: "godot3" });
  const found = [];
  for (let o = 0; o < bytes.length; ) {
    found.push(o);
    o += codec.decodeWithSize(bytes, { offset: o }).size;
  }
  assert.deepEqual(found, offsets);
  assert.deepEqual([...fvc.decodeMulti(new Uint8Array(0))], []);
  // Trailing bytes that are no value: the values before them come, then a DecodeError whose
  // offset is the input's byte.
  const withJunk = new Uint8Array(bytes.length + 4);
  withJunk.set(bytes);
  withJunk.set([0xff, 0xff, 0xff, 0x7f], bytes.length);
  const got = [];
  assert.throws(
    () => {
      for (const v of fvc.decodeMulti(withJunk, { dialect: "godot3" })) got.push(v);
    },
    (e) => e instanceof fvc.DecodeError && e.offset === bytes.length && e.godotError === "ERR_INVALID_DATA",
  );
  same(got, desc.asDecoded(values));
  // A value cut short at the end: the error the whole input gives, at the same byte.
  const cut = bytes.subarray(0, bytes.length - 2);
  const whole = (() => {
    try {
      fvc.decodeWithSize(cut.slice(offsets.at(-1)), { dialect: "godot3" });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(whole instanceof fvc.DecodeError);
  assert.throws(
    () => [...fvc.decodeMulti(cut, { dialect: "godot3" })],
    (e) => e instanceof fvc.DecodeError && e.offset === offsets.at(-1) + whole.offset && e.reason === whole.reason,
  );
});

test("decodeWithSize at an offset: large values after small ones, small after large, in one buffer", () => {
  // The copy into the WebAssembly is a window of the input, grown while a value does not fit.
  const big = new Uint8Array(300_000).map((_, i) => i % 251);
  const values = ["a", big, 7, { list: Array.from({ length: 5000 }, (_, i) => i) }, "z", big];
  const parts = values.map((v) => fvc.encode(v));
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  const codec = new fvc.Codec();
  const got = [];
  for (let o = 0; o < bytes.length; ) {
    const { value, size } = codec.decodeWithSize(bytes, { offset: o });
    got.push(value);
    o += size;
  }
  same(got, desc.asDecoded(values));
  same([...fvc.decodeMulti(bytes)], desc.asDecoded(values));
  assert.throws(() => codec.decodeWithSize(bytes, { offset: -1 }), TypeError);
  assert.throws(() => codec.decodeWithSize(bytes, { offset: bytes.length }), fvc.DecodeError);
});

test("large packed arrays of numbers are copied out whole: each type, from the size the tape refers to them at and below, nested, at an offset, from an input above the kept size", () => {
  // src/tape.rs REF_MIN: from 4096 bytes on, a decode's tape refers to a packed array's numbers
  // where they lie in the input rather than copying them into the tape.
  const REF = 4096;
  const kinds = [Uint8Array, Int32Array, BigInt64Array, Float32Array, Float64Array];
  const make = (Kind, bytes, seed) => {
    const out = new Kind(bytes / Kind.BYTES_PER_ELEMENT);
    for (let i = 0; i < out.length; i++) {
      const x = (i * 7 + seed) % 251;
      if (Kind === BigInt64Array) out[i] = BigInt(x) * 0x100000001n - 3n;
      else if (Kind === Float32Array || Kind === Float64Array) out[i] = x - 100.25;
      else out[i] = x;
    }
    return out;
  };
  const arrays = [];
  for (const Kind of kinds) {
    const e = Kind.BYTES_PER_ELEMENT;
    for (const bytes of [REF - e, REF, REF + e, 3 * REF + 8]) arrays.push(make(Kind, bytes, arrays.length));
  }
  const value = ["x", ...arrays, { nested: arrays.slice(0, 6), last: arrays.at(-1) }];
  const bytes = fvc.encode(value);
  const expected = desc.asDecoded(value);
  const codec = new fvc.Codec();
  const decoded = codec.decode(bytes);
  same(decoded, expected);
  // At an offset (the input copied in as a window), and after one another.
  const two = new Uint8Array(3 + 2 * bytes.length);
  two.set(bytes, 3);
  two.set(bytes, 3 + bytes.length);
  const first = codec.decodeWithSize(two, { offset: 3 });
  assert.equal(first.size, bytes.length);
  same(first.value, expected);
  same(codec.decodeWithSize(two, { offset: 3 + bytes.length }).value, expected);
  // Every array its own copy: what later decodes do leaves it as it was.
  codec.decode(fvc.encode(new Float32Array(REF).fill(-1)));
  same(decoded, expected);
  same(first.value, expected);
  // An input above the 16 MiB the WebAssembly keeps between calls.
  const large = make(Float32Array, 20 << 20, 5);
  const big = fvc.decode(fvc.encode([large, make(Int32Array, REF, 6)]));
  fvc.decode(fvc.encode(1));
  same(big, [large, make(Int32Array, REF, 6)]);
});

test("large typed arrays are encoded from where they lie: the bytes of the encode through the tape, each type and dialect, nested, padded, and errors as there", () => {
  // From 4096 bytes on (js/tape.js HOLE_MIN), encode copies a typed array into its output
  // itself; encodeFramed takes every number through the tape. Their bytes must agree.
  const REF = 4096;
  const through = (codec, v) => codec.encodeFramed(v).subarray(4);
  const arrays = [
    new Uint8Array(REF + 1).map((_, i) => i),
    new Uint8Array(REF + 3).map((_, i) => i * 3),
    new Uint8Array(REF - 1).fill(9),
    new Int32Array(REF / 4).map((_, i) => i * -77),
    new Float32Array(REF / 4 + 1).map((_, i) => i / 8),
    new Float64Array(REF / 8).map((_, i) => i / 3),
    new BigInt64Array(REF / 8).map((_, i) => BigInt(i) << 40n),
    new Float32Array(new ArrayBuffer(2 * REF + 8), 4, REF / 4),
  ];
  const value = { a: arrays, nested: [[arrays[0], "x", arrays[4]]], last: arrays.at(-1) };
  for (const dialect of ["godot4", "godot4_3", "godot3", "pandemonium38"]) {
    for (const allowLossy of [false, true]) {
      const codec = new fvc.Codec({ dialect, allowLossy });
      for (const v of [...arrays, value]) {
        let expected;
        try {
          expected = through(codec, v);
        } catch (e) {
          // What the tape's encode refuses (int64 or float64 numbers in Godot 3, strict), the
          // same error.
          assert.throws(() => codec.encode(v), (got) => got.message === e.message && got.path === e.path);
          continue;
        }
        assert.equal(hex(codec.encode(v)), hex(expected), `${dialect} ${v.constructor.name}`);
      }
    }
  }
  // A value refused elsewhere: the error of the encode through the tape, with its path.
  assert.throws(
    () => fvc.encode({ big: arrays[0], bad: [Symbol("s")] }),
    (e) => e instanceof fvc.EncodeError && e.path === '["bad"][0]',
  );
  // What it encodes reads back.
  same(fvc.decode(fvc.encode(value)), desc.asDecoded(value));
});

test("MessageDecoder: one value per whole message; errors at the message's byte; the dialect detected per connection", () => {
  const rect = new fvc.Rect2(new fvc.Vector2(1, 2), new fvc.Vector2(3, 4));
  const m = new fvc.MessageDecoder({ dialect: "auto" });
  assert.equal(m.dialect, "godot4");
  assert.equal(m.dialectSettled, false);
  m.feed(fvc.encode("hello", { dialect: "godot3" }));
  same([...m], ["hello"]);
  assert.equal(m.dialectSettled, false);
  // As the core's DialectDetector example: a Vector2 (Godot 4 and 3 share it), then a Rect2.
  m.feed(fvc.encode(new fvc.Vector2(1, 2), { dialect: "godot3" }));
  same(m.next().value, new fvc.Vector2(1, 2));
  m.feed(fvc.encode(rect, { dialect: "godot3" }));
  same(m.next(), { done: false, value: rect });
  assert.equal(m.dialect, "godot3");
  assert.equal(m.dialectSettled, true);
  // A malformed message: a DecodeError counted in that message, and the next one is read.
  m.feed(Uint8Array.of(2, 0, 0, 0, 9));
  m.feed(fvc.encode([1, 2], { dialect: "godot3" }));
  assert.throws(() => m.next(), (e) => e instanceof fvc.DecodeError && e.offset === 4);
  same(m.next(), { done: false, value: [1, 2] });
  assert.deepEqual(m.next(), { done: true, value: undefined });
  // A message with bytes after its value is malformed (the stream's rule).
  m.feed(Uint8Array.of(...fvc.encode(1), 0, 0, 0, 0));
  assert.throws(() => m.next(), fvc.DecodeError);
  m.reset();
  assert.equal(m.dialect, "godot4");
  assert.equal(m.dialectSettled, false);
  m.free();
  // A named dialect is kept.
  const fixed = new fvc.MessageDecoder({ dialect: "godot3", keepFloats: true });
  fixed.feed(fvc.encode(new fvc.Float(2), { dialect: "godot3" }));
  same(fixed.next().value, new fvc.Float(2));
  assert.equal(fixed.dialectSettled, true);
});
