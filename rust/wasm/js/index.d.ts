// Type declarations of fast-var-codec (hand-written for the JavaScript API of index.js).

/** A dialect's name: the wire layout of one engine family. */
export type Dialect =
  | "godot4"
  | "godot4_3"
  | "godot4_0_to_4_2"
  | "godot3"
  | "pandemonium38"
  | "pandemonium5";

/** The dialects, newest first within each engine family. */
export const DIALECTS: readonly Dialect[];
/** A StreamDecoder's default maxMessage: 8 MiB. */
export const DEFAULT_MAX_MESSAGE: number;
/** The default maxPayload of a compressed or encrypted file: 256 MiB. */
export const DEFAULT_MAX_PAYLOAD: number;

/** The package's version. */
export function version(): string;

/** What encoding and decoding take (a Codec holds them). */
export interface CodecOptions {
  /** The wire layout: "godot4" (the default), "godot3", ... */
  dialect?: Dialect;
  /** The engine's real_t: "single" (the default) or "double". */
  precision?: "single" | "double";
  /** Decode: deepest nesting (1024 by default, the most). */
  maxDepth?: number;
  /** Decode: Array items, Dictionary entries and object properties in all (unlimited by default). */
  maxElements?: number;
  /** Decode: string and packed-array bytes in all (unlimited by default). */
  maxBytes?: number;
  /** Decode: full objects (off by default: an error, ERR_UNAUTHORIZED). */
  allowObjects?: boolean;
  /**
   * Decode, with allowObjects: the class names and res:// script paths admitted (`[]` none;
   * `"*"`, alone or in the list, every class and script; undefined: all). One name is a list of
   * one (`["Node"]`): a string other than `"*"` is refused.
   */
  allowedClasses?: "*" | (Iterable<string> & object);
  /** Decode: refuse a typed container's element the engine would drop. */
  refuseDroppedElements?: boolean;
  /** Encode: objects whole (var_to_bytes_with_objects). */
  fullObjects?: boolean;
  /** Encode: a value the dialect lacks as the engine's nearest (a Vector4 as a Quaternion in Godot 3). */
  allowLossy?: boolean;
  /** Decode: integral floats as Float (so that encoding them again keeps them floats). */
  keepFloats?: boolean;
  /** Decode: every int as a BigInt (by default a number when a safe integer, a BigInt beyond ±2^53). */
  useBigInt64?: boolean;
  /**
   * Decode: "map" (the default), every Dictionary a Map, the one shape that holds every key
   * Godot allows in its order; "object", 0.x's plain object where every key is a String an
   * object keeps in order (not "0", "1" ..., nor "__proto__"), a Map otherwise.
   */
  dictionaryAs?: "map" | "object";
}

/** A Godot value as JavaScript holds it (the README's type table). */
export type GodotValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Float
  | Vector2
  | Vector2i
  | Vector3
  | Vector3i
  | Vector4
  | Vector4i
  | Quaternion
  | Color
  | Rect2
  | Rect2i
  | AABB
  | Plane
  | Transform2D
  | Basis
  | Transform3D
  | Projection
  | StringName
  | NodePath
  | RID
  | EncodedObjectAsID
  | GodotObject
  | Callable
  | Signal
  | GodotValue[]
  | { [key: string]: GodotValue }
  | Map<GodotValue, GodotValue>
  | TypedArray
  | TypedDictionary
  | Uint8Array
  | Int32Array
  | BigInt64Array
  | Float32Array
  | Float64Array
  | PackedStringArray
  | PackedVector2Array
  | PackedVector3Array
  | PackedVector4Array
  | PackedColorArray;

/** What encode takes: a GodotValue, with `undefined` as null. */
export type Encodable = GodotValue | undefined | readonly Encodable[] | { [key: string]: Encodable };

export function encode(value: Encodable, options?: CodecOptions): Uint8Array;
export function encodeFramed(value: Encodable, options?: CodecOptions & { bigEndian?: boolean }): Uint8Array;
/**
 * The value of `bytes` (from `offset`), which must take them whole: bytes left after it throw a
 * DecodeError at the first of them (decodeWithSize leaves them to the caller).
 */
export function decode(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, options?: CodecOptions & { offset?: number }): GodotValue;
/** The value at the start of `bytes` (or at `offset`) and the bytes it took, as bytes_to_var reads it. */
export function decodeWithSize(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: CodecOptions & { offset?: number },
): { value: GodotValue; size: number };
/**
 * The values stored back to back in `bytes` from `offset` (each as var_to_bytes writes it), one
 * at a time; bytes after the last value that do not decode throw a DecodeError when reached.
 */
export function decodeMulti(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: CodecOptions & { offset?: number },
): Generator<GodotValue, void, undefined>;

/** One set of options, made once, for many calls. */
export class Codec {
  constructor(options?: CodecOptions);
  readonly options: Readonly<CodecOptions>;
  encode(value: Encodable): Uint8Array;
  encodeFramed(value: Encodable, options?: { bigEndian?: boolean }): Uint8Array;
  decode(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, options?: { offset?: number }): GodotValue;
  decodeWithSize(
    bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
    options?: { offset?: number },
  ): { value: GodotValue; size: number };
  decodeMulti(
    bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
    options?: { offset?: number },
  ): Generator<GodotValue, void, undefined>;
  /** A StreamDecoder with these options. */
  streamDecoder(options?: { maxMessage?: number; bigEndian?: boolean }): StreamDecoder;
  /**
   * Optional: releases the WebAssembly memory now rather than when this is garbage collected.
   * A second call does nothing; any other use after it throws a TypeError.
   */
  free(): void;
}

export interface StreamDecoderOptions extends Omit<CodecOptions, "dialect"> {
  /** "auto": the dialect the peer's messages tell; a message engines read differently waits for one that tells. */
  dialect?: Dialect | "auto";
  /** The largest message accepted (8 MiB by default); a larger length prefix breaks the stream. */
  maxMessage?: number;
  /** Big-endian length prefixes (StreamPeer.big_endian). */
  bigEndian?: boolean;
}

/** Values from a byte stream of put_var frames, fed as they arrive; iterate for every complete value. */
export class StreamDecoder implements IterableIterator<GodotValue> {
  constructor(options?: StreamDecoderOptions);
  feed(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): this;
  next(): IteratorResult<GodotValue, undefined>;
  [Symbol.iterator](): this;
  readonly buffered: number;
  readonly maxMessage: number;
  readonly broken: boolean;
  /** The dialect values are read in: the one given, or with "auto" the one the messages so far tell. */
  readonly dialect: Dialect;
  /** True when the dialect is known: always, but with "auto" only once the messages leave one engine family. */
  readonly dialectSettled: boolean;
  reset(): void;
  /**
   * Optional: releases the WebAssembly memory now rather than when this is garbage collected.
   * A second call does nothing; any other use after it throws a TypeError.
   */
  free(): void;
}

export interface MessageDecoderOptions extends Omit<CodecOptions, "dialect"> {
  /** "auto": the dialect the connection's messages tell (Godot 4 until they tell otherwise). */
  dialect?: Dialect | "auto";
}

/** Values from whole messages, one value each (WebSocketPeer.put_var's binary messages): feed each, then take its value. One per connection. */
export class MessageDecoder implements IterableIterator<GodotValue> {
  constructor(options?: MessageDecoderOptions);
  feed(message: Uint8Array | ArrayBuffer | ArrayBufferView): this;
  next(): IteratorResult<GodotValue, undefined>;
  [Symbol.iterator](): this;
  /** The dialect values are read in: the one given, or with "auto" the one the messages so far tell. */
  readonly dialect: Dialect;
  /** True when the dialect is known: always, but with "auto" only once the messages leave one engine family. */
  readonly dialectSettled: boolean;
  reset(): void;
  /**
   * Optional: releases the WebAssembly memory now rather than when this is garbage collected.
   * A second call does nothing; any other use after it throws a TypeError.
   */
  free(): void;
}

export interface ReadFileOptions extends Omit<CodecOptions, "dialect" | "fullObjects" | "allowLossy"> {
  /** "auto" (the default): the dialect every record reads whole in; a DecodeError with `dialects` where engines read them as different values. */
  dialect?: Dialect | "auto";
  /** open_encrypted_with_pass's password. */
  password?: string;
  /** open_encrypted's 32-byte key. */
  key?: Uint8Array;
  /** The largest payload a compressed or encrypted file may announce (256 MiB by default). */
  maxPayload?: number;
}

export interface WriteFileOptions {
  dialect?: Dialect;
  precision?: "single" | "double";
  fullObjects?: boolean;
  allowLossy?: boolean;
  /** open_compressed's mode. */
  compression?: "fastlz" | "deflate" | "zstd" | "gzip";
  password?: string;
  key?: Uint8Array;
  /** Godot 4's encrypted container's 16-byte IV (random by default, from crypto.getRandomValues). */
  iv?: Uint8Array;
  /** Write the one value as var_to_bytes does (no length before it) instead of store_var records. */
  raw?: boolean;
}

export interface InspectedRecord {
  /** Where its record starts in the payload (its length; the value itself when raw). */
  offset: number;
  /** The bytes of the value's encoding. */
  length: number;
  value: GodotValue;
  /** start, end, descendants per value (this one, then every value inside it in pre-order), payload offsets. */
  spans: Uint32Array;
}

export interface Inspection {
  container: "plain" | "compressed" | "encrypted";
  compression: "fastlz" | "deflate" | "zstd" | "gzip" | null;
  encryption: "godot3" | "godot4" | null;
  dialect: Dialect;
  /** "records": store_var's; "raw": one var_to_bytes value. */
  framing: "records" | "raw";
  /** The bytes inside the container. */
  payload: Uint8Array;
  /** The values read: all, or those before `error`. */
  records: InspectedRecord[];
  /** Why the read stopped before the payload's end (offsets in the payload). */
  error: DecodeError | SaveFileError | null;
}

export function readStoreVarFile(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: ReadFileOptions,
): { dialect: Dialect; values: GodotValue[] };
export function writeStoreVarFile(values: Iterable<Encodable>, options?: WriteFileOptions): Uint8Array;
export function inspectStoreVarFile(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: ReadFileOptions,
): Inspection;
export function valueSpans(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: CodecOptions & { offset?: number },
): Uint32Array;

/** A mode of `PackedByteArray.compress` (`FileAccess.COMPRESSION_*`). */
export type Compression = "fastlz" | "deflate" | "zstd" | "gzip";

/**
 * `bytes` compressed as Godot's `PackedByteArray.compress(mode)` does: a packet the engine's
 * `decompress` and `decompress_dynamic` read. Not always the engine's bytes.
 */
export function compress(bytes: Uint8Array | ArrayBuffer | ArrayBufferView, compression: Compression): Uint8Array;
/**
 * The bytes of a compressed packet, at most `maxSize` of them, in every mode (the engine's
 * `decompress_dynamic` takes two). A FastLZ packet under 16 bytes gives 16, zero-padded. A packet
 * that does not decompress or holds more than `maxSize` bytes throws a DecodeError.
 */
export function decompress(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  compression: Compression,
  options: { maxSize: number },
): Uint8Array;
/**
 * The value of a compressed packet (`var_to_bytes(value).compress(mode)`), decompressed to at
 * most `maxSize` bytes and decoded as decode does; the value must fill the packet (FastLZ's
 * padding aside).
 */
export function decodeCompressed(
  bytes: Uint8Array | ArrayBuffer | ArrayBufferView,
  compression: Compression,
  options: CodecOptions & { maxSize: number },
): GodotValue;

/**
 * The value of a text in Godot's text format (`var_to_str`'s, a ConfigFile's values, a `.tres`
 * file's properties), never making or loading an object: objects and resources throw a
 * DecodeError unless `allowObjects` (and `allowedClasses`) admits them, and are then data.
 */
export function strToVar(text: string, options?: CodecOptions): GodotValue;
/** `value` as Godot's `var_to_str` writes it; Godot 3's `var2str` with `dialect: "godot3"`. */
export function varToStr(value: Encodable, options?: { dialect?: Dialect }): string;

export interface ReadConfigFileOptions extends Omit<CodecOptions, "dialect" | "fullObjects" | "allowLossy"> {
  /** "godot4" (the default) or "godot3": Godot 3 ends a section's name at its first `]`, where Godot 4 reads `\]` as one. */
  dialect?: Dialect;
  /** load_encrypted_pass's password (a file's bytes only). */
  password?: string;
  /** load_encrypted's 32-byte key (a file's bytes only). */
  key?: Uint8Array;
}

export interface WriteConfigFileOptions {
  /** "godot4" (the default) or "godot3": the text and encrypted container that engine writes. */
  dialect?: Dialect;
  /** save_encrypted_pass's password. */
  password?: string;
  /** save_encrypted's 32-byte key. */
  key?: Uint8Array;
}

/** A ConfigFile as readConfigFile returns it by default: section → key → value, in the file's order. */
export type ConfigFileSections = Map<string, Map<string, GodotValue>>;

/** What writeConfigFile takes: section → key → value, each level a Map or a plain object. */
export type ConfigFileInput =
  | Map<string | StringName, Map<string | StringName, Encodable> | { [key: string]: Encodable }>
  | { [section: string]: Map<string | StringName, Encodable> | { [key: string]: Encodable } };

/**
 * The sections of a Godot ConfigFile, never making or loading an object (as strToVar): a file's
 * bytes (ConfigFile.load's text, or the encrypted container of save_encrypted_pass with
 * `password`, save_encrypted with `key`) or a text (a string, as ConfigFile.parse reads it).
 * Text that is not a ConfigFile throws a DecodeError, a container that does not open a
 * SaveFileError.
 */
export function readConfigFile(
  data: string | Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: ReadConfigFileOptions & { dictionaryAs?: "map" },
): ConfigFileSections;
/** With `dictionaryAs: "object"`: plain objects where they hold the names (a Map otherwise), as decode gives them. */
export function readConfigFile(
  data: string | Uint8Array | ArrayBuffer | ArrayBufferView,
  options: ReadConfigFileOptions,
): GodotValue;
/**
 * The file ConfigFile.save writes for `sections` in the engine of `dialect`, byte for byte
 * (save_encrypted_pass's with `password`, save_encrypted's with `key`). A null value, which a
 * ConfigFile cannot hold, throws an EncodeError, as anything but sections of keys does.
 */
export function writeConfigFile(sections: ConfigFileInput, options?: WriteConfigFileOptions): Uint8Array;

/** How a JSON save's text is written: the arguments of the engine's JSON.stringify (Godot 4) or JSON.print (Godot 3). */
export interface JsonStyle {
  /** "godot4" (JSON.stringify: `10.0`, 14 significant digits) or "godot3" (JSON.print: `10`, six decimals). */
  dialect: Dialect;
  /** One level's indent; "" writes one line without spaces. */
  indent: string;
  /** Keys in code point order, else in the Dictionary's. */
  sortKeys: boolean;
  /** Godot 4's full_precision: var_to_str's digits. */
  fullPrecision: boolean;
}

/** What readJsonSave returns. */
export interface JsonSave<V = GodotValue> {
  value: V;
  /** The style the text was written in (its engine, indent, key order, precision). */
  style: JsonStyle;
  /** Whether `style` writes the text read exactly: an engine wrote it. */
  engineText: boolean;
}

/**
 * A JSON save (store_string(JSON.stringify(data))): its text, or its file's bytes (the text, or
 * the encrypted container of open_encrypted_with_pass with `password`, open_encrypted with `key`),
 * read as the engine's JSON.parse reads it, but a number written without a fraction or exponent
 * stays an int. Text that is not JSON throws a DecodeError, a container that does not open a
 * SaveFileError.
 */
export function readJsonSave(
  data: string | Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: Omit<CodecOptions, "fullObjects" | "allowLossy"> & { password?: string; key?: Uint8Array },
): JsonSave;
/**
 * The file of a JSON save of `value`, as JSON.stringify (JSON.print for "godot3") writes it in
 * the style given (sortKeys: the engine's default), in that engine's encrypted container with
 * `password` or `key`. A value JSON cannot hold as it is (a Vector2, NaN, a key not a string)
 * throws an EncodeError naming its place.
 */
export function writeJsonSave(value: Encodable, options?: Partial<JsonStyle> & { password?: string; key?: Uint8Array }): Uint8Array;

/** A section of a text resource as readTextResource returns it by default. */
export type TextResourceSection = Map<"tag" | "attributes" | "properties", GodotValue>;

/**
 * The sections of a Godot text resource (`.tres`), loading and making nothing: the text (a
 * string) or its bytes (UTF-8). An Array of `{tag, attributes, properties}` sections, the header
 * first; a reference to an entry is a GodotObject of class `ExtResource` or `SubResource` with its
 * `id`. Text that is not a text resource throws a DecodeError.
 */
export function readTextResource(
  data: string | Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: Omit<CodecOptions, "dialect" | "fullObjects" | "allowLossy"> & { dictionaryAs?: "map" },
): TextResourceSection[];
/** With `dictionaryAs: "object"`: plain objects, as decode gives them. */
export function readTextResource(
  data: string | Uint8Array | ArrayBuffer | ArrayBufferView,
  options: Omit<CodecOptions, "dialect" | "fullObjects" | "allowLossy">,
): GodotValue;
/**
 * The text of a text resource for `sections` (as readTextResource returns them), as Godot writes
 * it; anything but such sections throws an EncodeError.
 */
export function writeTextResource(sections: Encodable[]): string;

/**
 * The JSON text of a value in the core's lossless projection (README, "JSON"): encoded bytes (a
 * Uint8Array or an ArrayBuffer, decoded with the options, which must take them whole from
 * `offset` as in decode: bytes left after the value throw a DecodeError at the first of them) or
 * a value (anything else; `input` says which when a Uint8Array is a PackedByteArray value).
 * Compact unless `pretty`.
 */
export function toJSON(
  source: Encodable | Uint8Array | ArrayBuffer | ArrayBufferView,
  options?: CodecOptions & { input?: "bytes" | "value"; offset?: number; pretty?: boolean },
): string;
/** The value of a JSON text in the projection (toJSON's inverse), as decode returns values. */
export function fromJSON(text: string, options?: CodecOptions & { output?: "value" }): GodotValue;
/** The value of a JSON text encoded (`"bytes"`) or framed as put_var sends it (`"framed"`). */
export function fromJSON(
  text: string,
  options: CodecOptions & { output: "bytes" | "framed"; bigEndian?: boolean },
): Uint8Array;

// --- errors --------------------------------------------------------------------------------------

export class FastVarCodecError extends Error {
  constructor(godotError: string, message: string);
  /** The Godot Error the engine reports for the same input ("ERR_INVALID_DATA", ...). */
  readonly godotError: string;
}
export class DecodeError extends FastVarCodecError {
  constructor(offset: number, godotError: string, reason: string, dialects?: Dialect[]);
  /** The input's byte (the stream's, for a StreamDecoder; the payload's, for a file). */
  readonly offset: number;
  readonly reason: string;
  /** Bytes read without a dialect that engines of different families read as different values
   * (a Godot 3 Color is a Godot 4 Plane): those families' dialects, to pass one of. Empty for
   * any other error. */
  readonly dialects: Dialect[];
}
export class EncodeError extends FastVarCodecError {
  constructor(path: string, godotError: string, reason: string);
  /** Where in the value ('["items"][1]'); "" for the value itself. */
  readonly path: string;
  readonly reason: string;
}
/** A JSON text that is not the projection of a value (fromJSON). */
export class JSONError extends FastVarCodecError {
  constructor(path: string, reason: string, line?: number, column?: number);
  /** Where in the JSON: "$.a[1].$Vector2". */
  readonly path: string;
  readonly reason: string;
  /** A syntax error's line and column (from 1). */
  readonly line?: number;
  readonly column?: number;
}
export class SaveFileError extends FastVarCodecError {
  constructor(godotError: string, reason: string, offset?: number, cutShort?: boolean);
  readonly reason: string;
  /** A record cut short: where its length is in the payload. */
  readonly offset?: number;
  /**
   * The file ends before its own header says it does (an encrypted or compressed file cut
   * short, a record cut short): no password opens it, though Godot gives a cut encrypted file
   * a wrong password's `ERR_FILE_CORRUPT`.
   */
  readonly cutShort: boolean;
}

// --- Godot's types -------------------------------------------------------------------------------
// Each class has a private brand (`_godotType`, not present at run time): only its instances are
// of its type, so that a Date, a function or an object of another shape is no Godot value where
// the encoder would refuse it.

/** A float that stays a float when integral (`new Float(1)` encodes as 1.0). */
export class Float {
  private readonly _godotType: "Float";
  constructor(value?: number);
  value: number;
  valueOf(): number;
  /** The number, with ".0" when integral ("1.0"). */
  toString(): string;
  /** The number (JSON.stringify writes a Float as its number). */
  toJSON(): number;
}
export class Vector2 {
  private readonly _godotType: "Vector2";
  constructor(x?: number, y?: number);
  x: number;
  y: number;
}
export class Vector2i {
  private readonly _godotType: "Vector2i";
  constructor(x?: number, y?: number);
  x: number;
  y: number;
}
export class Vector3 {
  private readonly _godotType: "Vector3";
  constructor(x?: number, y?: number, z?: number);
  x: number;
  y: number;
  z: number;
}
export class Vector3i {
  private readonly _godotType: "Vector3i";
  constructor(x?: number, y?: number, z?: number);
  x: number;
  y: number;
  z: number;
}
export class Vector4 {
  private readonly _godotType: "Vector4";
  constructor(x?: number, y?: number, z?: number, w?: number);
  x: number;
  y: number;
  z: number;
  w: number;
}
export class Vector4i {
  private readonly _godotType: "Vector4i";
  constructor(x?: number, y?: number, z?: number, w?: number);
  x: number;
  y: number;
  z: number;
  w: number;
}
export class Quaternion {
  private readonly _godotType: "Quaternion";
  constructor(x?: number, y?: number, z?: number, w?: number);
  x: number;
  y: number;
  z: number;
  w: number;
}
export class Color {
  private readonly _godotType: "Color";
  constructor(r?: number, g?: number, b?: number, a?: number);
  r: number;
  g: number;
  b: number;
  a: number;
}
export class Rect2 {
  private readonly _godotType: "Rect2";
  constructor(position?: Vector2, size?: Vector2);
  position: Vector2;
  size: Vector2;
}
export class Rect2i {
  private readonly _godotType: "Rect2i";
  constructor(position?: Vector2i, size?: Vector2i);
  position: Vector2i;
  size: Vector2i;
}
export class AABB {
  private readonly _godotType: "AABB";
  constructor(position?: Vector3, size?: Vector3);
  position: Vector3;
  size: Vector3;
}
export class Plane {
  private readonly _godotType: "Plane";
  constructor(normal?: Vector3, d?: number);
  normal: Vector3;
  d: number;
}
/** Axes (columns) x, y and the origin. */
export class Transform2D {
  private readonly _godotType: "Transform2D";
  constructor(x?: Vector2, y?: Vector2, origin?: Vector2);
  x: Vector2;
  y: Vector2;
  origin: Vector2;
}
/** Axes (columns) x, y, z. */
export class Basis {
  private readonly _godotType: "Basis";
  constructor(x?: Vector3, y?: Vector3, z?: Vector3);
  x: Vector3;
  y: Vector3;
  z: Vector3;
}
export class Transform3D {
  private readonly _godotType: "Transform3D";
  constructor(basis?: Basis, origin?: Vector3);
  basis: Basis;
  origin: Vector3;
}
/** Four Vector4 columns. */
export class Projection {
  private readonly _godotType: "Projection";
  constructor(x?: Vector4, y?: Vector4, z?: Vector4, w?: Vector4);
  x: Vector4;
  y: Vector4;
  z: Vector4;
  w: Vector4;
}
export class StringName {
  private readonly _godotType: "StringName";
  constructor(name?: string);
  name: string;
  toString(): string;
}
export class NodePath {
  private readonly _godotType: "NodePath";
  constructor(path?: string | { names?: Iterable<string>; subnames?: Iterable<string>; absolute?: boolean });
  names: string[];
  subnames: string[];
  absolute: boolean;
  toString(): string;
}
export class RID {
  private readonly _godotType: "RID";
  constructor(id?: bigint | number);
  id: bigint;
}
export class EncodedObjectAsID {
  private readonly _godotType: "EncodedObjectAsID";
  constructor(objectId?: bigint | number);
  objectId: bigint;
}
/** A full object: its class and properties in wire order. */
export class GodotObject {
  private readonly _godotType: "GodotObject";
  constructor(className: string, properties?: Map<string, GodotValue> | { [name: string]: Encodable });
  className: string;
  properties: Map<string, GodotValue>;
}
export class Callable {
  private readonly _godotType: "Callable";
}
export class Signal {
  private readonly _godotType: "Signal";
  constructor(name?: string, objectId?: bigint | number);
  name: string;
  objectId: bigint;
}
/** Element types: a builtin's Godot name ("int", "String", "Vector2"), a class ("Node"), a script path ("res://x.gd"), "" (objects of any class), or null (untyped). */
export type ElementType = string | null;
export class TypedArray {
  private readonly _godotType: "TypedArray";
  constructor(elementType: ElementType, items?: Iterable<Encodable>);
  elementType: ElementType;
  items: GodotValue[];
}
export class TypedDictionary {
  private readonly _godotType: "TypedDictionary";
  constructor(keyType: ElementType, valueType: ElementType, entries?: Map<Encodable, Encodable> | { [key: string]: Encodable });
  keyType: ElementType;
  valueType: ElementType;
  entries: Map<GodotValue, GodotValue>;
}
export class PackedStringArray {
  private readonly _godotType: "PackedStringArray";
  constructor(strings?: Iterable<string>);
  strings: string[];
  readonly length: number;
}
export class PackedVector2Array {
  private readonly _godotType: "PackedVector2Array";
  constructor(data?: Float64Array | ArrayLike<number>);
  /** x, y of each element, flat. */
  data: Float64Array;
  readonly length: number;
  at(index: number): Vector2 | undefined;
}
export class PackedVector3Array {
  private readonly _godotType: "PackedVector3Array";
  constructor(data?: Float64Array | ArrayLike<number>);
  data: Float64Array;
  readonly length: number;
  at(index: number): Vector3 | undefined;
}
export class PackedVector4Array {
  private readonly _godotType: "PackedVector4Array";
  constructor(data?: Float64Array | ArrayLike<number>);
  data: Float64Array;
  readonly length: number;
  at(index: number): Vector4 | undefined;
}
export class PackedColorArray {
  private readonly _godotType: "PackedColorArray";
  constructor(data?: Float32Array | ArrayLike<number>);
  /** r, g, b, a of each element, flat. */
  data: Float32Array;
  readonly length: number;
  at(index: number): Color | undefined;
}
