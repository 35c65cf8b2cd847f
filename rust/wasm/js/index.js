// fast-var-codec: Godot's binary Variant format (var_to_bytes, StreamPeer.put_var,
// FileAccess.store_var, Godot 3 saves) for JavaScript, from the project's Rust core compiled to
// WebAssembly. The WebAssembly is inside this package (wasm_inline.js): importing it fetches
// nothing, and it is compiled on first use, synchronously.

import * as wasm from "./fvc_wasm.js";
import { wasmBase64 } from "./wasm_inline.js";
import { translate, FastVarCodecError, DecodeError, EncodeError, SaveFileError, JSONError } from "./errors.js";
import { TapeWriter, TapeReader, WasmTapeWriter } from "./tape.js";
import { setNodePathParser, setTypeNameCheck } from "./types.js";

export {
  Float,
  Vector2,
  Vector2i,
  Vector3,
  Vector3i,
  Vector4,
  Vector4i,
  Quaternion,
  Color,
  Rect2,
  Rect2i,
  AABB,
  Plane,
  Transform2D,
  Basis,
  Transform3D,
  Projection,
  StringName,
  NodePath,
  RID,
  EncodedObjectAsID,
  GodotObject,
  Callable,
  Signal,
  TypedArray,
  TypedDictionary,
  PackedStringArray,
  PackedVector2Array,
  PackedVector3Array,
  PackedVector4Array,
  PackedColorArray,
} from "./types.js";
export { FastVarCodecError, DecodeError, EncodeError, SaveFileError, JSONError };

/** The dialects' names, newest first within each engine family. */
export const DIALECTS = Object.freeze([
  "godot4",
  "godot4_3",
  "godot4_0_to_4_2",
  "godot3",
  "pandemonium38",
  "pandemonium5",
]);

/** The largest message a StreamDecoder accepts by default (8 MiB). */
export const DEFAULT_MAX_MESSAGE = 8 << 20;

/** The largest payload a compressed or encrypted file may announce by default (256 MiB). */
export const DEFAULT_MAX_PAYLOAD = 256 << 20;

/** The smallest window of the input a decode at an offset copies into the WebAssembly. */
const MIN_WINDOW = 256;
/** The size a Codec's first windowed decode expects (its window four times that). */
const FIRST_SIZE_HINT = 16 << 10;

let ready = false;
/** The WebAssembly's exports (its memory, the buffers' functions), once instantiated. */
let raw = null;
/** The tape writer of encode and encodeFramed, writing into the WebAssembly's input buffer. */
let writer = null;

function base64Bytes(text) {
  if (typeof atob === "function") {
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  return Uint8Array.from(globalThis.Buffer.from(text, "base64"));
}

/** Compiles and instantiates the WebAssembly (once; every function calls it first). */
function init() {
  if (ready) return;
  raw = wasm.initSync({ module: base64Bytes(wasmBase64) });
  writer = new WasmTapeWriter(raw);
  ready = true;
}

setNodePathParser((text) => {
  init();
  return wasm.parse_node_path(text);
});
setTypeNameCheck((name) => {
  init();
  call(() => wasm.check_type_name(name));
});

/** The error of a call on a Codec, StreamDecoder or MessageDecoder after its free(). */
function freed(what) {
  return new TypeError(`this ${what} was freed (free()): make a new one`);
}

/** Runs a call into the WebAssembly, its errors as the package's. */
function call(f) {
  try {
    return f();
  } catch (e) {
    throw translate(e);
  }
}

/** The package's version (the project's one version). */
export function version() {
  init();
  return wasm.version();
}

const NO_OPTIONS = Object.freeze({});

function bytesOf(data) {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new TypeError("expected a Uint8Array, another ArrayBuffer view or an ArrayBuffer");
}

function limit(v, name) {
  if (v === undefined || v === null || v === -1) return undefined;
  if (!Number.isInteger(v) || v < 0) throw new TypeError(`${name} must be a non-negative integer`);
  return v;
}

/** The entry of `allowedClasses` that admits every class and script (the core's rule). */
const ANY_CLASS = "*";

/** `allowedClasses` as the core takes it: undefined (no list), or the names. */
function allowedClassNames(list) {
  if (list === undefined || list === null) return undefined;
  if (typeof list === "string") {
    // One string is "*", never a name read letter by letter.
    if (list === ANY_CLASS) return [ANY_CLASS];
    throw new TypeError(
      `allowedClasses is "*" or a list of class names and res:// script paths, not the string ${JSON.stringify(list)} (write [${JSON.stringify(list)}])`,
    );
  }
  return Array.from(list, String);
}

/** The core's settings for these options (freed by the caller). */
function makeSettings(o) {
  init();
  const classes = allowedClassNames(o.allowedClasses);
  return call(
    () =>
      new wasm.Settings(
        o.dialect ?? "godot4",
        o.precision ?? "single",
        limit(o.maxDepth, "maxDepth"),
        limit(o.maxElements, "maxElements"),
        limit(o.maxBytes, "maxBytes"),
        Boolean(o.allowObjects),
        classes,
        Boolean(o.fullObjects),
        Boolean(o.allowLossy),
        Boolean(o.refuseDroppedElements),
      ),
  );
}

/** The shapes of every Dictionary a decode returns (`dictionaryAs`). */
const DICTIONARY_SHAPES = ["map", "object"];

/**
 * How decoded values come back: `keepFloats` (an integral float as a Float), `useBigInt64`
 * (every int as a BigInt, as `@msgpack/msgpack`'s option of that name), `dictionaryAs` ("map",
 * the default: every Dictionary a Map; "object": 0.x's plain objects where they hold the keys).
 */
function valueOptions(options) {
  if (options.useMap !== undefined) {
    throw new TypeError(
      'useMap is gone: every Dictionary decodes as a Map unless dictionaryAs: "object" asks for plain objects',
    );
  }
  const dictionaryAs = options.dictionaryAs ?? "map";
  if (!DICTIONARY_SHAPES.includes(dictionaryAs)) {
    throw new TypeError(`dictionaryAs is "map" or "object", not ${JSON.stringify(dictionaryAs)}`);
  }
  return { keepFloats: Boolean(options.keepFloats), useBigInt64: Boolean(options.useBigInt64), dictionaryAs };
}

const SETTING_KEYS = [
  "dialect",
  "precision",
  "maxDepth",
  "maxElements",
  "maxBytes",
  "allowObjects",
  "allowedClasses",
  "fullObjects",
  "allowLossy",
  "refuseDroppedElements",
];

/** Writes the tape of one value into the WebAssembly's input buffer; returns its length. */
function tapeOf(value) {
  writer.begin();
  writer.value(value);
  return writer.pos;
}

let memoryView = new Uint8Array(0);

/** A view of the whole WebAssembly memory (made again after the memory grew, which detaches it). */
function memory() {
  if (memoryView.length === 0) memoryView = new Uint8Array(raw.memory.buffer);
  return memoryView;
}

/** A copy of the last encode's `n` bytes, out of the WebAssembly's memory. */
function encoded(n) {
  const ptr = raw.encoded_ptr() >>> 0;
  return memory().slice(ptr, ptr + n);
}

function checkOffset(offset) {
  if (!Number.isInteger(offset) || offset < 0) throw new TypeError("offset must be a non-negative integer");
}

/** A DecodeError of a decode of the input from `by` on, its offset counted from the input's start. */
function shifted(e, by) {
  if (!(e instanceof DecodeError)) return e;
  return new DecodeError(e.offset + by, e.godotError, e.reason, e.dialects);
}

/** Copies `data` into the WebAssembly's input buffer. */
function input(data) {
  const ptr = writer.reserve(data.length);
  memory().set(data, ptr);
}

/**
 * Encoding and decoding with one set of options, made once: the dialect (`"godot4"` by default;
 * see DIALECTS), the precision of `real_t` (`"single"` or `"double"`), the limits of a decode
 * (`maxDepth`, `maxElements`, `maxBytes`), the object policy (`allowObjects`, `allowedClasses`),
 * `fullObjects` and `allowLossy` for encoding, and how values come back (`keepFloats`,
 * `useBigInt64`, `dictionaryAs`).
 */
export class Codec {
  constructor(options = NO_OPTIONS) {
    const o = {};
    for (const k of SETTING_KEYS) if (options[k] !== undefined) o[k] = options[k];
    this.options = Object.freeze({ ...o, ...valueOptions(options) });
    this._settings = makeSettings(o);
  }

  /** `value` encoded as `var_to_bytes` (or `var_to_bytes_with_objects` with fullObjects) does. */
  encode(value) {
    const len = tapeOf(value);
    return encoded(call(() => wasm.encode(this._live(), len, false, false)));
  }

  /** `value` as `StreamPeer.put_var` sends it: a u32 length (little-endian unless bigEndian), then the encoding. */
  encodeFramed(value, { bigEndian = false } = NO_OPTIONS) {
    const len = tapeOf(value);
    return encoded(call(() => wasm.encode(this._live(), len, true, Boolean(bigEndian))));
  }

  /**
   * The value of `bytes` (from `offset`), which must take them whole, as `@msgpack/msgpack`'s
   * decode: bytes left after the value throw a DecodeError at the first of them (the core's
   * rule for records, naming the dialect that reads the bytes whole where one does).
   */
  decode(bytes, { offset = 0 } = NO_OPTIONS) {
    const data = bytesOf(bytes);
    checkOffset(offset);
    // The value takes every byte from offset on, so all of them are copied in; the WebAssembly
    // counts error offsets from the input's start.
    input(data);
    return this._readTape(call(() => wasm.decode_whole(this._live(), data.length, offset))).value;
  }

  /**
   * The value at the start of `bytes` (or at `offset`) and `size`, the bytes it took, as
   * `bytes_to_var` reads it: bytes after it are the caller's. `size` is never past the end of
   * `bytes` (a final PackedByteArray may end the input without its padding).
   */
  decodeWithSize(bytes, { offset = 0 } = NO_OPTIONS) {
    const data = bytesOf(bytes);
    checkOffset(offset);
    let len;
    if (offset === 0 || offset >= data.length) {
      // From the start, the whole input: one copy, as large as the call's input.
      input(data);
      len = call(() => wasm.decode(this._live(), data.length, offset));
    } else {
      len = this._decodeFrom(data, offset);
    }
    return this._readTape(len);
  }

  /** `{value, size}` of the last decode's tape, `len` bytes at `tape_ptr`. */
  _readTape(len) {
    // The tape is read where it lies, in the WebAssembly's memory: nothing calls into the
    // WebAssembly until it is read (a call could move it), and every value is copied out of it.
    const ptr = raw.tape_ptr() >>> 0;
    const tape = memory().subarray(ptr, ptr + len);
    const r = new TapeReader(tape, this.options);
    const size = r.size();
    this._sizeHint = size;
    return { value: r.value(), size };
  }

  /**
   * Decodes the value at `offset` (inside the input) from a window of the input copied into
   * the WebAssembly, not the whole rest: a few times the last value's size, doubled while the
   * value does not fit, so that reading values one after another costs what they take. An error
   * is final only once the window holds the whole rest (it is then the error of the whole
   * input); its offset is the input's byte. Returns the tape's length.
   */
  _decodeFrom(data, offset) {
    const rest = data.length - offset;
    let window = Math.min(rest, Math.max(MIN_WINDOW, 4 * (this._sizeHint ?? FIRST_SIZE_HINT)));
    for (;;) {
      input(data.subarray(offset, offset + window));
      try {
        return call(() => wasm.decode(this._live(), window, 0));
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        if (window < rest) {
          window = Math.min(rest, 2 * window);
          continue;
        }
        throw shifted(e, offset);
      }
    }
  }

  /**
   * The values stored back to back in `bytes` from `offset` (each as `var_to_bytes` writes it,
   * no length between them), one at a time: a generator, as `@msgpack/msgpack`'s decodeMulti.
   * Bytes after the last value that do not decode throw a DecodeError (its offset the input's
   * byte) when the generator reaches them.
   */
  *decodeMulti(bytes, { offset = 0 } = NO_OPTIONS) {
    const data = bytesOf(bytes);
    let at = offset;
    while (at < data.length) {
      const { value, size } = this.decodeWithSize(data, { offset: at });
      yield value;
      at += size;
    }
  }

  /** A StreamDecoder with these options. */
  streamDecoder({ maxMessage = DEFAULT_MAX_MESSAGE, bigEndian = false } = NO_OPTIONS) {
    return new StreamDecoder({ ...this.options, maxMessage, bigEndian });
  }

  /** The WebAssembly's settings; a TypeError once freed. */
  _live() {
    if (this._settings === null) throw freed("Codec");
    return this._settings;
  }

  /**
   * Frees the WebAssembly's copy of the settings now, rather than when the Codec is garbage
   * collected (wasm-bindgen's FinalizationRegistry does it then); optional. A second call does
   * nothing; the Codec cannot be used after it.
   */
  free() {
    this._settings?.free();
    this._settings = null;
  }
}

let defaultCodec = null;

/** The Codec of `options`, and whether it was made for this call only. */
function codecFor(options) {
  let settingsGiven = false;
  if (options && options !== NO_OPTIONS) {
    for (const k of SETTING_KEYS) {
      if (options[k] !== undefined) {
        settingsGiven = true;
        break;
      }
    }
  }
  if (settingsGiven) return [new Codec(options), true];
  if (defaultCodec === null) defaultCodec = new Codec();
  const shapes = valueOptions(options ?? NO_OPTIONS);
  if (shapes.keepFloats || shapes.useBigInt64 || shapes.dictionaryAs !== "map") {
    const c = Object.create(Codec.prototype);
    c.options = Object.freeze(shapes);
    c._settings = defaultCodec._settings;
    return [c, false];
  }
  return [defaultCodec, false];
}

function withCodec(options, f) {
  const [codec, owned] = codecFor(options);
  try {
    return f(codec);
  } finally {
    if (owned) codec.free();
  }
}

/** `value` encoded as `var_to_bytes` does (Codec's options). */
export function encode(value, options = NO_OPTIONS) {
  return withCodec(options, (c) => c.encode(value));
}

/** `value` framed as `StreamPeer.put_var` sends it (Codec's options, and `bigEndian`). */
export function encodeFramed(value, options = NO_OPTIONS) {
  return withCodec(options, (c) => c.encodeFramed(value, options ?? NO_OPTIONS));
}

/** The value of `bytes` (from `offset`), which must take them whole: bytes left after it throw a DecodeError. */
export function decode(bytes, options = NO_OPTIONS) {
  return withCodec(options, (c) => c.decode(bytes, options ?? NO_OPTIONS));
}

/** `{value, size}`: the value at the start of `bytes` (or at `offset`) and the bytes it took; bytes after it are the caller's. */
export function decodeWithSize(bytes, options = NO_OPTIONS) {
  return withCodec(options, (c) => c.decodeWithSize(bytes, options ?? NO_OPTIONS));
}

/** The values stored back to back in `bytes` (from `offset`), one at a time: a generator (Codec's decodeMulti). */
export function* decodeMulti(bytes, options = NO_OPTIONS) {
  const [codec, owned] = codecFor(options);
  try {
    yield* codec.decodeMulti(bytes, options ?? NO_OPTIONS);
  } finally {
    if (owned) codec.free();
  }
}

/**
 * Values from a byte stream fed in pieces as they arrive (a TCP socket, a WebSocket carrying
 * put_var's framing): each a u32 length, then the encoding. Iterate it for every complete value.
 * A malformed message throws a DecodeError and is skipped (the stream goes on); a length above
 * `maxMessage` throws a DecodeError (ERR_OUT_OF_MEMORY) and breaks the stream until `reset()`.
 * With `dialect: "auto"` the dialect is the one the peer's messages tell (`dialect`,
 * `dialectSettled`): one server port for Godot 3 and Godot 4 peers.
 */
export class StreamDecoder {
  constructor(options = NO_OPTIONS) {
    const o = {};
    for (const k of SETTING_KEYS) if (options[k] !== undefined) o[k] = options[k];
    this._options = Object.freeze({ ...o, ...valueOptions(options) });
    const maxMessage = limit(options.maxMessage, "maxMessage") ?? DEFAULT_MAX_MESSAGE;
    const detecting = o.dialect === "auto";
    const settings = makeSettings(detecting ? { ...o, dialect: undefined } : o);
    try {
      this._inner = new wasm.StreamDecoder(settings, maxMessage, Boolean(options.bigEndian), detecting);
    } finally {
      settings.free();
    }
  }

  /** Adds received bytes; returns the StreamDecoder. Throws a DecodeError once the stream is broken. */
  feed(bytes) {
    const data = bytesOf(bytes);
    call(() => this._live().feed(data));
    return this;
  }

  /** The iterator protocol: `{done: false, value}` for each complete value, `{done: true}` when none is left. */
  next() {
    const tape = call(() => this._live().next_value());
    if (tape === undefined || tape === null) return { done: true, value: undefined };
    return { done: false, value: new TapeReader(tape, this._options).value() };
  }

  [Symbol.iterator]() {
    return this;
  }

  /** Bytes received but not yet taken as values. */
  get buffered() {
    return this._live().buffered();
  }

  /** The largest message accepted, in bytes. */
  get maxMessage() {
    return this._live().max_message();
  }

  /** True once a message above maxMessage was announced: the stream cannot go on. */
  get broken() {
    return this._live().broken();
  }

  /** The dialect values are read in: the one given, or with "auto" the one the messages so far tell ("godot4" until they tell otherwise). */
  get dialect() {
    return this._live().dialect();
  }

  /** True when the dialect is known: always, but with "auto" only once the messages leave one engine family (Godot 4, Godot 3 or Pandemonium). */
  get dialectSettled() {
    return this._live().dialect_settled();
  }

  /** Forgets buffered bytes and a broken state (after reconnecting); with "auto", the dialect detected too. */
  reset() {
    this._live().reset();
  }

  /** The WebAssembly's state; a TypeError once freed. */
  _live() {
    if (this._inner === null) throw freed("StreamDecoder");
    return this._inner;
  }

  /**
   * Frees the WebAssembly's state now (buffered bytes, unread messages), rather than when this
   * is garbage collected (wasm-bindgen's FinalizationRegistry does it then); optional. A second
   * call does nothing; it cannot be used after it.
   */
  free() {
    this._inner?.free();
    this._inner = null;
  }
}

/**
 * Values from whole messages, one value each, as `WebSocketPeer.put_var` sends them (a binary
 * message, no length prefix): `feed` each message, then take its value with `next()` (or
 * iterate). A malformed message throws a DecodeError (its offset the message's byte) and is
 * skipped. With `dialect: "auto"` the dialect is the one the connection's messages tell
 * (`dialect`, `dialectSettled`), by the same rule as a StreamDecoder's: one port for Godot 3 and
 * Godot 4 peers. One per connection.
 */
export class MessageDecoder {
  constructor(options = NO_OPTIONS) {
    const o = {};
    for (const k of SETTING_KEYS) if (options[k] !== undefined) o[k] = options[k];
    this._options = Object.freeze({ ...o, ...valueOptions(options) });
    const detecting = o.dialect === "auto";
    const settings = makeSettings(detecting ? { ...o, dialect: undefined } : o);
    try {
      this._inner = new wasm.MessageDecoder(settings, detecting);
    } finally {
      settings.free();
    }
  }

  /** Adds one whole message; returns the MessageDecoder. */
  feed(message) {
    const data = bytesOf(message);
    call(() => this._live().feed(data));
    return this;
  }

  /** The iterator protocol: `{done: false, value}` for each message's value, `{done: true}` when none is left. */
  next() {
    const tape = call(() => this._live().next_value());
    if (tape === undefined || tape === null) return { done: true, value: undefined };
    return { done: false, value: new TapeReader(tape, this._options).value() };
  }

  [Symbol.iterator]() {
    return this;
  }

  /** The dialect values are read in: the one given, or with "auto" the one the messages so far tell ("godot4" until they tell otherwise). */
  get dialect() {
    return this._live().dialect();
  }

  /** True when the dialect is known: always, but with "auto" only once the messages leave one engine family. */
  get dialectSettled() {
    return this._live().dialect_settled();
  }

  /** Forgets unread messages; with "auto", the dialect detected too. */
  reset() {
    this._live().reset();
  }

  /** The WebAssembly's state; a TypeError once freed. */
  _live() {
    if (this._inner === null) throw freed("MessageDecoder");
    return this._inner;
  }

  /**
   * Frees the WebAssembly's state now (buffered bytes, unread messages), rather than when this
   * is garbage collected (wasm-bindgen's FinalizationRegistry does it then); optional. A second
   * call does nothing; it cannot be used after it.
   */
  free() {
    this._inner?.free();
    this._inner = null;
  }
}

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
 * The value of a text in Godot's text format, as Godot's `str_to_var` reads it (also a
 * ConfigFile's values and a `.tres` file's properties; Godot 3's spellings too), but never making
 * or loading an object: `Object(...)`, `Resource(...)`, `ExtResource(...)` and
 * `SubResource(...)` throw a DecodeError unless `allowObjects` (and `allowedClasses`) admits
 * their class, and even then are data. Text that is not Godot's throws a DecodeError whose
 * message names the line and column. The options are decode's (limits, objects, and how values
 * come back).
 */
export function strToVar(text, options = NO_OPTIONS) {
  if (typeof text !== "string") throw new TypeError("strToVar reads a text (a string)");
  return withCodec(options, (c) => {
    const len = call(() => wasm.text_to_tape(c._live(), text));
    return keptValue(len, options);
  });
}

/**
 * `value` as Godot's `var_to_str` writes it (Godot 4's text), or with `dialect: "godot3"` as
 * Godot 3's `var2str`; strToVar reads both back.
 */
export function varToStr(value, options = NO_OPTIONS) {
  init();
  const len = tapeOf(value);
  return call(() => wasm.value_to_text(len, options?.dialect ?? "godot4"));
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

/**
 * The value of the tape of `len` bytes the last call left at `tape_ptr` (its size, then the value),
 * read where it lies, in the shapes `options` ask for.
 */
function keptValue(len, options) {
  const ptr = raw.tape_ptr() >>> 0;
  const r = new TapeReader(memory().subarray(ptr, ptr + len), valueOptions(options ?? NO_OPTIONS));
  r.size();
  return r.value();
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

