// The codec of fast-var-codec's two entries (index.js, the whole package; codec.js, the codec
// alone): values, streams and Godot's text over one WebAssembly build, made once per build by
// codecApi, so that each entry runs on its own WebAssembly and both share the value classes
// (types.js) and the errors.

import { translate, DecodeError } from "./errors.js";
import { TapeReader, WasmTapeWriter } from "./tape.js";
import { MISS, WireReader } from "./wire.js";
import { setNodePathParser, setTypeNameCheck } from "./types.js";

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

/**
 * The codec over `wasm` (a module wasm-bindgen generated for the crate, with or without its
 * `files` and `text` features) and the WebAssembly it instantiates (`wasmBytes`: a string of
 * one character per byte, from wasm_inline.js or codec_wasm_inline.js; compiled on first use):
 * the entries' functions and classes (strToVar and varToStr need `text`: codec.js leaves them
 * out), and what index.js builds its file functions with (`internals`).
 */
export function codecApi(wasm, wasmBytes) {
  /** The smallest window of the input a decode at an offset copies into the WebAssembly. */
  const MIN_WINDOW = 256;
  /** The size a Codec's first windowed decode expects (its window four times that). */
  const FIRST_SIZE_HINT = 16 << 10;

  let ready = false;
  /** The WebAssembly's exports (its memory, the buffers' functions), once instantiated. */
  let raw = null;
  /** The tape writer of encode and encodeFramed, writing into the WebAssembly's input buffer. */
  let writer = null;

  /** The WebAssembly's bytes from its module's string of one character per byte. */
  function wasmModuleBytes(text) {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }

  /** Compiles and instantiates the WebAssembly (once; every function calls it first). */
  function init() {
    if (ready) return;
    raw = wasm.initSync({ module: wasmModuleBytes(wasmBytes) });
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
  function version() {
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

  /** The options among SETTING_KEYS that `options` sets: what the WebAssembly's Settings are made of. */
  function settingOptions(options) {
    const o = {};
    for (const k of SETTING_KEYS) if (options[k] !== undefined) o[k] = options[k];
    return o;
  }

  /**
   * A stream's or message decoder's Settings of the setting options `o`, and whether its dialect is
   * detected (`dialect: "auto"`: the Settings then name none, the peer's messages tell it).
   */
  function decoderSettings(o) {
    const detecting = o.dialect === "auto";
    return [makeSettings(detecting ? { ...o, dialect: undefined } : o), detecting];
  }

  /** Writes the tape of one value into the WebAssembly's input buffer; returns its length. */
  function tapeOf(value, holes = false) {
    writer.begin(holes);
    writer.value(value);
    return writer.pos;
  }

  /** The last encode's `n` bytes with the typed arrays `arrays` copied into their holes. */
  function placed(n, arrays) {
    const ptr = raw.encoded_ptr() >>> 0;
    const mem = memory();
    const holes = new DataView(mem.buffer, ptr + n, 8 * arrays.length);
    let total = n;
    for (let i = 0; i < arrays.length; i++) total += holes.getUint32(8 * i + 4, true);
    const out = new Uint8Array(total);
    let from = 0;
    let to = 0;
    for (let i = 0; i < arrays.length; i++) {
      const at = holes.getUint32(8 * i, true);
      out.set(mem.subarray(ptr + from, ptr + at), to);
      to += at - from;
      from = at;
      const a = arrays[i];
      out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), to);
      // The rest is zeros (padding), as made.
      to += holes.getUint32(8 * i + 4, true);
    }
    out.set(mem.subarray(ptr + from, ptr + n), to);
    return out;
  }

  let memoryView = new Uint8Array(0);
  let memoryData = new DataView(new ArrayBuffer(0));

  /** A view of the whole WebAssembly memory (made again after the memory grew, which detaches it). */
  function memory() {
    if (memoryView.length === 0) {
      memoryView = new Uint8Array(raw.memory.buffer);
      memoryData = new DataView(raw.memory.buffer);
    }
    return memoryView;
  }

  /** A reader of the tape of `len` bytes the last call left at `tape_ptr`, where it lies. */
  function tapeReader(len, options) {
    const ptr = raw.tape_ptr() >>> 0;
    return new TapeReader(memory(), options, memoryData, ptr, ptr + len);
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

  /** The reader of an input itself (wire.js) for the core's `settings` and the value `options`. */
  function wireReader(settings, options) {
    return new WireReader(call(() => settings.wire_table()), options);
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
  class Codec {
    constructor(options = NO_OPTIONS) {
      const o = settingOptions(options);
      this.options = Object.freeze({ ...o, ...valueOptions(options) });
      this._settings = makeSettings(o);
    }

    /** `value` encoded as `var_to_bytes` (or `var_to_bytes_with_objects` with fullObjects) does. */
    encode(value) {
      let len = tapeOf(value, true);
      const arrays = writer.holes;
      if (arrays.length > 0) {
        const n = call(() => wasm.encode(this._live(), len, false, false, true));
        // 2^32 - 1 (WALK_STOPPED): refused, or numbers written otherwise; they cross after all.
        if (n !== 0xffffffff) return placed(n, arrays);
        len = tapeOf(value);
      }
      return encoded(call(() => wasm.encode(this._live(), len, false, false, false)));
    }

    /** `value` as `StreamPeer.put_var` sends it: a u32 length (little-endian unless bigEndian), then the encoding. */
    encodeFramed(value, { bigEndian = false } = NO_OPTIONS) {
      const len = tapeOf(value);
      return encoded(call(() => wasm.encode(this._live(), len, true, Boolean(bigEndian), false)));
    }

    /**
     * The value of `bytes` (from `offset`), which must take them whole, as `@msgpack/msgpack`'s
     * decode: bytes left after the value throw a DecodeError at the first of them (the core's
     * rule for records, naming the dialect that reads the bytes whole where one does).
     */
    decode(bytes, { offset = 0 } = NO_OPTIONS) {
      const data = bytesOf(bytes);
      checkOffset(offset);
      const read = this._wireReader().readWhole(data, offset);
      if (read !== MISS) return read;
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
      const r = this._wireReader();
      const read = r.read(data, offset);
      if (read !== MISS) {
        this._sizeHint = r.pos - offset;
        return { value: read, size: r.pos - offset };
      }
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
      const r = tapeReader(len, this.options);
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

    /**
     * The reader of the input itself (wire.js) for these settings and options, made on the first
     * decode; a TypeError once freed.
     */
    _wireReader() {
      const settings = this._live();
      return (this._reader ??= wireReader(settings, this.options));
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
      c._reader = new WireReader(defaultCodec._wireReader().table, c.options);
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
  function encode(value, options = NO_OPTIONS) {
    return withCodec(options, (c) => c.encode(value));
  }

  /** `value` framed as `StreamPeer.put_var` sends it (Codec's options, and `bigEndian`). */
  function encodeFramed(value, options = NO_OPTIONS) {
    return withCodec(options, (c) => c.encodeFramed(value, options ?? NO_OPTIONS));
  }

  /** The value of `bytes` (from `offset`), which must take them whole: bytes left after it throw a DecodeError. */
  function decode(bytes, options = NO_OPTIONS) {
    return withCodec(options, (c) => c.decode(bytes, options ?? NO_OPTIONS));
  }

  /** `{value, size}`: the value at the start of `bytes` (or at `offset`) and the bytes it took; bytes after it are the caller's. */
  function decodeWithSize(bytes, options = NO_OPTIONS) {
    return withCodec(options, (c) => c.decodeWithSize(bytes, options ?? NO_OPTIONS));
  }

  /** The values stored back to back in `bytes` (from `offset`), one at a time: a generator (Codec's decodeMulti). */
  function* decodeMulti(bytes, options = NO_OPTIONS) {
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
  class StreamDecoder {
    constructor(options = NO_OPTIONS) {
      const o = settingOptions(options);
      this._options = Object.freeze({ ...o, ...valueOptions(options) });
      const maxMessage = limit(options.maxMessage, "maxMessage") ?? DEFAULT_MAX_MESSAGE;
      const [settings, detecting] = decoderSettings(o);
      try {
        this._inner = new wasm.StreamDecoder(settings, maxMessage, Boolean(options.bigEndian), detecting);
        // In a dialect given, wire.js reads each message the core frames where it lies, and the
        // core decodes those it leaves (and gives the framing's errors). A detecting decoder's
        // messages all go to the core.
        this._reader = detecting ? null : wireReader(settings, this._options);
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
      const inner = this._live();
      const r = this._reader;
      if (r !== null) {
        const len = inner.peek_message();
        if (len !== undefined) {
          const at = inner.message_ptr() >>> 0;
          const read = r.readWhole(memory(), at, at + len, memoryData);
          if (read !== MISS) {
            inner.skip_message();
            return { done: false, value: read };
          }
        }
      }
      const tape = call(() => inner.next_value());
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
  class MessageDecoder {
    constructor(options = NO_OPTIONS) {
      const o = settingOptions(options);
      this._options = Object.freeze({ ...o, ...valueOptions(options) });
      const [settings, detecting] = decoderSettings(o);
      try {
        this._inner = new wasm.MessageDecoder(settings, detecting);
        // In a dialect given, wire.js reads each message it can as it is fed, and the core the
        // rest; `_waiting` holds, in order, the values read and MISS for each message the core
        // holds. A detecting decoder's messages all go to the core.
        this._reader = detecting ? null : wireReader(settings, this._options);
      } finally {
        settings.free();
      }
      this._waiting = [];
    }

    /** Adds one whole message; returns the MessageDecoder. */
    feed(message) {
      const data = bytesOf(message);
      const inner = this._live();
      const r = this._reader;
      if (r === null) {
        call(() => inner.feed(data));
        return this;
      }
      const read = r.readWhole(data, 0);
      if (read !== MISS) {
        this._waiting.push(read);
      } else {
        call(() => inner.feed(data));
        this._waiting.push(MISS);
      }
      return this;
    }

    /** The iterator protocol: `{done: false, value}` for each message's value, `{done: true}` when none is left. */
    next() {
      const inner = this._live();
      if (this._waiting.length > 0) {
        const read = this._waiting.shift();
        if (read !== MISS) return { done: false, value: read };
      }
      const tape = call(() => inner.next_value());
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
      this._waiting = [];
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

  function keptValue(len, options) {
    const r = tapeReader(len, valueOptions(options ?? NO_OPTIONS));
    r.size();
    return r.value();
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
  function strToVar(text, options = NO_OPTIONS) {
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
  function varToStr(value, options = NO_OPTIONS) {
    init();
    const len = tapeOf(value);
    return call(() => wasm.value_to_text(len, options?.dialect ?? "godot4"));
  }

  return {
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
    internals: { NO_OPTIONS, bytesOf, call, encoded, init, input, limit, makeSettings, tapeOf, valueOptions, withCodec, keptValue },
  };
}
