// Calls that must compile under `strict` with the package's declarations (index.d.ts).
import {
  Codec,
  Callable,
  DecodeError,
  StreamDecoder,
  Float,
  MessageDecoder,
  NodePath,
  TypedArray,
  Vector2,
  Vector3,
  decode,
  decodeMulti,
  decodeWithSize,
  encode,
  encodeFramed,
  readStoreVarFile,
  writeStoreVarFile,
  readConfigFile,
  writeConfigFile,
  StringName,
  type ConfigFileSections,
  type Dialect,
  type GodotValue,
} from "fast-var-codec";

const bytes: Uint8Array = encode({
  hp: 10,
  pos: new Vector3(1, 2, 3),
  speed: new Float(2),
  path: new NodePath("/root/a"),
  list: [1, "two", null, undefined, 3n],
  map: new Map<GodotValue, GodotValue>([[1, "one"]]),
  typed: new TypedArray("int", [1, 2]),
  packed: new Float32Array([1, 2]),
  callable: new Callable(),
});
encodeFramed([new Vector2(1, 2)], { dialect: "godot3", bigEndian: true });
const value: GodotValue = decode(bytes, { offset: 0 });
const { size }: { size: number } = decodeWithSize(bytes, { dialect: "godot4" });
for (const v of decodeMulti(bytes, { offset: size - size })) {
  const back: GodotValue = v;
  void back;
}

// allowedClasses: "*" for every class, or a list (any iterable but a string).
new Codec({ allowObjects: true, allowedClasses: "*" });
new Codec({ allowObjects: true, allowedClasses: ["Node", "res://save.gd"] });
new Codec({ allowObjects: true, allowedClasses: new Set(["Resource"]) });
const codec = new Codec({ allowObjects: true, allowedClasses: ["*"] });
for (const v of codec.decodeMulti(bytes)) void v;

// How values come back: every int a BigInt; Dictionaries as Maps (the default) or objects.
new Codec({ useBigInt64: true, dictionaryAs: "map", keepFloats: true });
decode(bytes, { dictionaryAs: "object" });

const stream: StreamDecoder = new StreamDecoder({ dialect: "auto", maxMessage: 1 << 20 });
const fromCodec: StreamDecoder = codec.streamDecoder({ maxMessage: 1 << 20, bigEndian: true });
void fromCodec;
stream.feed(bytes);
for (const v of stream) void v;
const messages = new MessageDecoder({ dialect: "auto", keepFloats: true });
messages.feed(bytes);
const next = messages.next();
if (!next.done) void next.value;
const dialect: string = messages.dialect;
void dialect;
void value;

// A Godot 3 save: the one file reader and writer with dialect "godot3"; {dialect, values}.
const save: { dialect: Dialect; values: GodotValue[] } = readStoreVarFile(bytes, { dialect: "godot3", password: "pw" });
const saved: Uint8Array = writeStoreVarFile(save.values, { dialect: "godot3", password: "pw" });
void saved;

// A ConfigFile: a Map of section -> Map of key -> value by default; written back from it, from
// plain objects, or from a mix.
const cfg: ConfigFileSections = readConfigFile("[player]\nhp=10\n", { dialect: "godot3", maxDepth: 8 });
const hp: GodotValue | undefined = cfg.get("player")?.get("hp");
void hp;
const opened: ConfigFileSections = readConfigFile(bytes, { password: "pw", keepFloats: true });
const loose: GodotValue = readConfigFile(new ArrayBuffer(0), { dictionaryAs: "object" });
void loose;
const cfgFile: Uint8Array = writeConfigFile(opened, { dialect: "godot4", key: new Uint8Array(32) });
void cfgFile;
writeConfigFile({ player: { hp: 10, pos: new Vector2(1, 2) }, "": new Map([["top", 1]]) }, { password: "pw" });
writeConfigFile(new Map([[new StringName("s"), { k: [1, "two"] }]]));

// free() is optional; twice is allowed.
codec.free();
codec.free();
stream.free();
messages.free();

// The errors are made as the package makes them (a test double of a failed decode, say).
const failed: DecodeError = new DecodeError(4, "ERR_INVALID_DATA", "bytes left after the value");
const at: number = failed.offset;
void at;
// A Float prints with its ".0" and is its number in JSON.
const printed: string = new Float(1).toString();
const inJson: number = new Float(2).toJSON();
void printed;
void inJson;

// The codec entry: the same declarations, so its values are the whole package's.
import * as codecOnly from "fast-var-codec/codec";
const fromCodecEntry: Vector2 = codecOnly.decode(codecOnly.encode(new codecOnly.Vector2(1, 2))) as Vector2;
const codecEntryStream: StreamDecoder = new codecOnly.StreamDecoder({ dialect: "godot3" });
void fromCodecEntry;
void codecEntryStream;
