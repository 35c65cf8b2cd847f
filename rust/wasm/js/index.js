// fast-var-codec: Godot's binary Variant format (var_to_bytes, StreamPeer.put_var,
// FileAccess.store_var, Godot 3 saves) for JavaScript, from the project's Rust core compiled to
// WebAssembly. The WebAssembly is inside this package (wasm_inline.js): importing it fetches
// nothing, and it is compiled on first use, synchronously. The codec (codec_api.js) over it, and
// the files, ConfigFiles, JSON saves, text resources, compressed packets and JSON projection
// here; fast-var-codec/codec (codec.js) is the codec alone, over a smaller build.

import * as wasm from "./fvc_wasm.js";
import { wasmBytes } from "./wasm_inline.js";
import { codecApi } from "./codec_api.js";
import { translate, DecodeError, EncodeError, SaveFileError, JSONError } from "./errors.js";
import { TapeReader, TapeWriter } from "./tape.js";

export * from "./shared_exports.js";
export { DIALECTS, DEFAULT_MAX_MESSAGE, DEFAULT_MAX_PAYLOAD } from "./codec_api.js";

const api = codecApi(wasm, wasmBytes);
export const {
  version,
  Codec,
  encode,
  encodeFramed,
  decode,
  decodeWithSize,
  decodeMulti,
  StreamDecoder,
  MessageDecoder,
  strToVar,
  varToStr,
} = api;
const { NO_OPTIONS, bytesOf, call, encoded, init, input, limit, makeSettings, tapeOf, valueOptions, withCodec, keptValue } = api.internals;

function keyBytes(key) {
  return key === undefined || key === null ? undefined : bytesOf(key).slice();
}

/**
 * The values of a file written by `store_var` (one after the other, as `get_var` reads them):
 * plain, compressed (`open_compressed`, any mode) or encrypted (`open_encrypted_with_pass` with
 * `password`, `open_encrypted` with the 32-byte `key`). `dialect: "auto"` (the default) takes
 * the one every record reads whole in (a DecodeError with `dialects` where engines read them as
 * different values). Returns `{dialect, values}`.
 */
export function readStoreVarFile(bytes, options = NO_OPTIONS) {
  const data = bytesOf(bytes);
  const named = options.dialect === undefined || options.dialect === "auto" ? undefined : options.dialect;
  const o = { ...options, dialect: named ?? "godot4" };
  const settings = makeSettings(o);
  try {
    const tape = call(() =>
      wasm.read_records(
        settings,
        data,
        named,
        options.password ?? undefined,
        keyBytes(options.key),
        limit(options.maxPayload, "maxPayload"),
      ),
    );
    const r = new TapeReader(tape, valueOptions(options));
    const dialect = r.value();
    const values = [];
    while (!r.atEnd()) values.push(r.value());
    return { dialect, values };
  } finally {
    settings.free();
  }
}

/**
 * `values` as `store_var` records, one after the other: a plain file; with `compression`
 * (`"fastlz"`, `"deflate"`, `"zstd"`, `"gzip"`) what `open_compressed` writes; with `password`
 * or a 32-byte `key` what `open_encrypted_with_pass` / `open_encrypted` writes (Godot 4's
 * container, with a random IV, for the Godot 4 dialects; Godot 3's for "godot3").
 */
export function writeStoreVarFile(values, options = NO_OPTIONS) {
  const settings = makeSettings(options);
  try {
    const w = new TapeWriter();
    let i = 0;
    if (options.raw) {
      values = Array.from(values);
      if (values.length !== 1) throw new TypeError("raw: true writes exactly one value");
    }
    for (const v of values) {
      try {
        w.value(v);
      } catch (e) {
        if (e instanceof EncodeError) throw new EncodeError(`[${i}]${e.path}`, e.godotError, e.reason);
        throw e;
      }
      i++;
    }
    // Without an iv, the core draws a random one (crypto.getRandomValues) for an encrypted file.
    const iv = options.iv != null ? bytesOf(options.iv) : new Uint8Array(0);
    return call(() =>
      wasm.write_records(
        settings,
        w.bytes(),
        options.compression ?? undefined,
        options.password ?? undefined,
        keyBytes(options.key),
        iv,
        Boolean(options.raw),
      ),
    );
  } finally {
    settings.free();
  }
}

/**
 * A file of any container opened and read as far as it goes, with where each value lies: for a
 * viewer or editor. Returns `{container, compression, encryption, dialect, framing, payload,
 * records, error}`: `container` is `"plain"`, `"compressed"` (`compression` its mode) or
 * `"encrypted"` (`encryption` `"godot3"` or `"godot4"`, the container's format); `payload` the
 * bytes inside it; `framing` `"records"` (store_var) or `"raw"` (one var_to_bytes value, no
 * length); `records` one `{offset, length, value, spans}` per value read, `offset` where its
 * record starts in the payload and `spans` a Uint32Array of start, end, descendants for the
 * value and every value inside it in pre-order (payload offsets; see `valueSpans`). A payload
 * that fails part way does not throw: `error` is the DecodeError or SaveFileError (its offset
 * counted in the payload) and `records` the values before it. A container that cannot be opened
 * (encrypted without a password or with a wrong one, a damaged header) throws a SaveFileError.
 * Options as readStoreVarFile's.
 */
export function inspectStoreVarFile(bytes, options = NO_OPTIONS) {
  const data = bytesOf(bytes);
  const named = options.dialect === undefined || options.dialect === "auto" ? undefined : options.dialect;
  const o = { ...options, dialect: named ?? "godot4" };
  const settings = makeSettings(o);
  let found;
  try {
    found = call(() =>
      wasm.inspect_file(
        settings,
        data,
        named,
        options.password ?? undefined,
        keyBytes(options.key),
        limit(options.maxPayload, "maxPayload"),
      ),
    );
  } finally {
    settings.free();
  }
  try {
    const table = found.records();
    const spans = found.spans();
    const r = new TapeReader(found.tape(), valueOptions(options));
    const records = [];
    let at = 0;
    for (let i = 0; i < table.length; i += 3) {
      const n = table[i + 2];
      records.push({
        offset: table[i],
        length: table[i + 1],
        value: r.value(),
        spans: spans.subarray(3 * at, 3 * (at + n)),
      });
      at += n;
    }
    const error = found.error();
    return {
      container: found.container(),
      compression: found.compression() ?? null,
      encryption: found.encryption() ?? null,
      dialect: found.dialect(),
      framing: found.raw() ? "raw" : "records",
      payload: found.payload(),
      records,
      error: error === undefined || error === null ? null : translate(error),
    };
  } finally {
    found.free();
  }
}

/**
 * Where the value at `offset` of `bytes` and every value inside it lie: a Uint32Array of start,
 * end (the offset after it) and descendants (how many values inside it, which follow it) per
 * value, in pre-order, as the core's reader finds them. The values of a decoded tree follow the
 * same order, item for item, except where the decode merged Dictionary keys or dropped typed
 * items as the engine does. Codec options (dialect, precision, limits, objects).
 */
export function valueSpans(bytes, options = NO_OPTIONS) {
  const data = bytesOf(bytes);
  const settings = makeSettings(options);
  try {
    return call(() => wasm.value_spans(settings, data, options.offset ?? 0));
  } finally {
    settings.free();
  }
}

/** Whether toJSON reads its input as encoded bytes or as a value. */
function jsonInputIsBytes(source, how) {
  if (how === "bytes") return true;
  if (how === "value") return false;
  if (how !== undefined) throw new TypeError(`input is "bytes" or "value", not ${JSON.stringify(how)}`);
  return source instanceof Uint8Array || source instanceof ArrayBuffer;
}

/**
 * The JSON text of a value in the core's lossless projection (the one of the command line's
 * to-json; README): encoded bytes (a Uint8Array or an ArrayBuffer, decoded with the Codec
 * options, from `offset`, which the value must take whole as in `decode`: bytes left after it
 * throw decode's DecodeError) or a value (anything else; `input: "value"` for a Uint8Array that
 * is a PackedByteArray, `input: "bytes"` for another ArrayBuffer view). Compact unless `pretty`.
 */
export function toJSON(source, options = NO_OPTIONS) {
  const pretty = Boolean(options.pretty);
  if (jsonInputIsBytes(source, options.input)) {
    const data = bytesOf(source);
    return withCodec(options, (c) => {
      input(data);
      return call(() => wasm.bytes_to_json(c._live(), data.length, options.offset ?? 0, pretty));
    });
  }
  init();
  const len = tapeOf(source);
  return call(() => wasm.value_to_json(len, pretty));
}

/** `maxSize` of a packet function's options: needed, a non-negative integer (at most 4 GiB here). */
function maxSizeOf(options, fn) {
  const maxSize = options?.maxSize;
  if (maxSize === undefined || maxSize === null) {
    throw new TypeError(`${fn} needs maxSize: the most bytes the packet may hold`);
  }
  return Math.min(limit(maxSize, "maxSize"), 0xffffffff);
}

/**
 * `bytes` compressed as Godot's `PackedByteArray.compress(mode)` does, `compression` one of
 * "fastlz", "deflate", "zstd", "gzip": a packet the engine's `decompress` and
 * `decompress_dynamic` read, as games send values (`compress(encode(value), "zstd")`). Not always
 * the engine's bytes: other compressors than its own.
 */
export function compress(bytes, compression) {
  const data = bytesOf(bytes);
  init();
  return call(() => wasm.compress_packet(data, compression));
}

/**
 * The bytes of a packet compress (or the engine's `PackedByteArray.compress`) made, at most
 * `maxSize` of them, as `decompress_dynamic(maxSize, mode)` gives them but in every mode. A
 * FastLZ packet of fewer than 16 bytes gives 16, the rest zeros, as the engine's does:
 * decodeCompressed reads the value past them. A packet that does not decompress, or that holds
 * more than `maxSize` bytes (nothing past them is made), throws a DecodeError.
 */
export function decompress(bytes, compression, options) {
  const data = bytesOf(bytes);
  const maxSize = maxSizeOf(options, "decompress");
  init();
  return call(() => wasm.decompress_packet(data, compression, maxSize));
}

/**
 * The value of a packet `compress(encode(value), compression)` made (or a game's
 * `var_to_bytes(value).compress(mode)`): decompressed to at most `maxSize` bytes, then decoded
 * as decode decodes, with its options. The value must fill the packet (FastLZ's padding aside).
 * Throws a DecodeError as decompress and decode do (its offset counted in the decompressed
 * bytes).
 */
export function decodeCompressed(bytes, compression, options) {
  const data = bytesOf(bytes);
  const maxSize = maxSizeOf(options, "decodeCompressed");
  return withCodec(options, (c) => {
    const len = call(() => wasm.compressed_to_tape(c._live(), data, compression, maxSize));
    return keptValue(len, options);
  });
}

/**
 * The sections of a Godot ConfigFile, read by the core as Godot's `ConfigFile` reads them but
 * never making or loading an object (as strToVar): `data` is a file's bytes (a Uint8Array, another
 * ArrayBuffer view or an ArrayBuffer: `ConfigFile.load`'s text, or the encrypted container of
 * `save_encrypted_pass` with `password` or of `save_encrypted` with the 32-byte `key`, Godot 4's
 * or Godot 3's) or a text (a string, as `ConfigFile.parse` reads it). `dialect: "godot3"` reads as
 * Godot 3 does (a section's name ends at its first `]`). Returns a Dictionary of sections, each a
 * Dictionary of key → value, in the file's order, as decode returns a Dictionary (by default a
 * Map of Maps; `dictionaryAs`, `keepFloats`, `useBigInt64`). The options are decode's (limits,
 * objects); text that is not a ConfigFile throws a DecodeError naming its line and column, a
 * container that does not open (no password, a wrong one) a SaveFileError.
 */
export function readConfigFile(data, options = NO_OPTIONS) {
  const o = options ?? NO_OPTIONS;
  const text = typeof data === "string";
  const bytes = text ? null : configBytes(data);
  const password = o.password ?? undefined;
  const key = keyBytes(o.key);
  if (text && (password !== undefined || key !== undefined)) {
    throw new TypeError("a password or a key opens a file's bytes, not a text (a string)");
  }
  return withCodec(o, (c) => {
    const len = call(() =>
      text
        ? wasm.config_text_to_tape(c._live(), data)
        : wasm.config_file_to_tape(c._live(), bytes, password, key),
    );
    return keptValue(len, o);
  });
}

/** A ConfigFile's bytes, or a TypeError naming what readConfigFile reads. */
function configBytes(data) {
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return bytesOf(data);
  throw new TypeError("readConfigFile reads a file's bytes (a Uint8Array, another ArrayBuffer view or an ArrayBuffer) or a text (a string)");
}

/**
 * The file Godot's `ConfigFile.save` writes for `sections` (encode's Dictionary of Dictionaries:
 * a Map or a plain object of section → a Map or a plain object of key → value), in the engine of
 * `dialect` ("godot4", the default, or "godot3"), byte for byte; with `password`, what
 * `save_encrypted_pass` writes, with a 32-byte `key` what `save_encrypted` writes (Godot 4's
 * container with a random IV, or Godot 3's). A ConfigFile holds no null (Godot's `set_value`
 * erases the key): a null value, like anything but sections of keys, throws an EncodeError.
 */
export function writeConfigFile(sections, options = NO_OPTIONS) {
  const o = options ?? NO_OPTIONS;
  init();
  const key = keyBytes(o.key);
  const len = tapeOf(sections);
  return call(() => wasm.write_config_file(len, o.dialect ?? "godot4", o.password ?? undefined, key));
}

/**
 * A JSON save, as games write one with `store_string(JSON.stringify(data))`: `data` is the text
 * (a string) or the file's bytes (a Uint8Array, another ArrayBuffer view or an ArrayBuffer: the
 * text, or the encrypted container of `open_encrypted_with_pass` with `password` or of
 * `open_encrypted` with the 32-byte `key`, Godot 4's or Godot 3's), read by the core as the
 * engine's `JSON.parse` reads it (`dialect: "godot3"`: Godot 3's escapes), except that a number
 * written without a fraction or exponent stays an int. Returns `{value, style, engineText}`: the
 * value as decode returns one (`dictionaryAs`, `keepFloats`, `useBigInt64`), the style the text
 * was written in (`{dialect, indent, sortKeys, fullPrecision}`, writeJsonSave's options) and
 * whether that style writes the text read exactly (an engine wrote it). Text that is not JSON
 * throws a DecodeError naming its line and column, a container that does not open a
 * SaveFileError.
 */
export function readJsonSave(data, options = NO_OPTIONS) {
  const o = options ?? NO_OPTIONS;
  let bytes;
  if (typeof data === "string") {
    if (o.password != null || o.key != null) throw new TypeError("a password or a key opens a file's bytes, not a text (a string)");
    bytes = new TextEncoder().encode(data);
  } else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) bytes = bytesOf(data);
  else throw new TypeError("readJsonSave reads a text (a string) or a file's bytes (a Uint8Array, another ArrayBuffer view or an ArrayBuffer)");
  const key = keyBytes(o.key);
  const [value, dialect, indent, sortKeys, fullPrecision, engineText] = withCodec(o, (c) => {
    const len = call(() => wasm.json_save_to_tape(c._live(), bytes, o.password ?? undefined, key));
    return keptValue(len, { ...o, dictionaryAs: o.dictionaryAs });
  });
  return { value, style: { dialect, indent, sortKeys, fullPrecision }, engineText };
}

/**
 * The file of a JSON save of `value` (JSON's values: null, booleans, numbers, strings, Arrays,
 * Dictionaries with string keys), written as the engine writes it: `JSON.stringify(value, indent,
 * sortKeys, fullPrecision)` for `dialect` "godot4" (the default), `JSON.print(value, indent,
 * sortKeys)` for "godot3"; `sortKeys` defaults to the engine's (Godot 4 sorts, Godot 3 not). With
 * `password` or a 32-byte `key`, in that engine's encrypted container. A value the engine would
 * write as another value (a Vector2 becomes a String, NaN null) throws an EncodeError naming its
 * place (`$.player.pos`).
 */
export function writeJsonSave(value, options = NO_OPTIONS) {
  const o = options ?? NO_OPTIONS;
  init();
  const key = keyBytes(o.key);
  const len = tapeOf(value);
  return call(() =>
    wasm.write_json_save(len, o.dialect ?? "godot4", o.indent ?? "", o.sortKeys ?? undefined, !!o.fullPrecision, o.password ?? undefined, key),
  );
}

/**
 * The sections of a Godot text resource (`.tres`, what `ResourceSaver.save` writes), read by the
 * core as Godot's loader reads its tags and properties but never loading or making anything:
 * `data` is the text (a string) or its bytes (a Uint8Array, another ArrayBuffer view or an
 * ArrayBuffer; UTF-8). Returns an Array of sections in the file's order, the header
 * (`gd_resource`) first, each a Dictionary `{tag, attributes, properties}` as decode returns one
 * (by default Maps: `section.get("properties").get("level")`; `dictionaryAs: "object"` for plain
 * objects). A reference to one of the file's entries, `ExtResource("1_ab")` or
 * `SubResource("Resource_x")`, is an `GodotObject` of class `ExtResource` or `SubResource` whose
 * one property is its `id`. The options are decode's (limits; an inline `Object(...)` passes
 * `allowObjects` and `allowedClasses`); text that is not a text resource throws a DecodeError
 * naming its line and column.
 */
export function readTextResource(data, options = NO_OPTIONS) {
  const o = options ?? NO_OPTIONS;
  let bytes;
  if (typeof data === "string") bytes = new TextEncoder().encode(data);
  else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) bytes = bytesOf(data);
  else throw new TypeError("readTextResource reads a text (a string) or its bytes (a Uint8Array, another ArrayBuffer view or an ArrayBuffer)");
  return withCodec(o, (c) => {
    const len = call(() => wasm.text_resource_to_tape(c._live(), bytes));
    return keptValue(len, o);
  });
}

/**
 * The text of a Godot text resource for `sections` (an Array of `{tag, attributes, properties}`
 * as readTextResource returns them, Maps or plain objects), as Godot writes it: the text read,
 * byte for byte, when nothing changed, and an edited value as the engine writes it. Anything
 * but such sections throws an EncodeError.
 */
export function writeTextResource(sections) {
  init();
  const len = tapeOf(sections);
  return call(() => wasm.write_text_resource(len));
}

/**
 * The value of a JSON text in the core's projection (toJSON's inverse; plain JSON reads as plain
 * values), as decode returns values (`keepFloats`: an integral float as a Float, which a number
 * would not stay; `useBigInt64`, `dictionaryAs`). `output: "bytes"` encodes it instead (Codec options), `"framed"`
 * as put_var sends it (`bigEndian`). A JSON text that is not the projection of a value throws
 * a JSONError naming the place (`path`, and `line` and `column` of a syntax error).
 */
export function fromJSON(text, options = NO_OPTIONS) {
  if (typeof text !== "string") throw new TypeError("fromJSON reads a JSON text (a string)");
  const output = options.output ?? "value";
  if (output === "bytes" || output === "framed") {
    const framed = output === "framed";
    return withCodec(options, (c) =>
      encoded(call(() => wasm.json_to_bytes(c._live(), text, framed, Boolean(options.bigEndian)))),
    );
  }
  if (output !== "value") throw new TypeError(`output is "value", "bytes" or "framed", not ${JSON.stringify(output)}`);
  init();
  const len = call(() => wasm.json_to_tape(text));
  return keptValue(len, options);
}

