// fast-var-codec/codec: the codec alone (encode, decode, Codec, StreamDecoder, MessageDecoder)
// over a WebAssembly built without files, compression, the JSON projection or Godot's text
// format (codec_wasm_inline.js; tests/build_npm.sh prints its gzipped size), for a page
// that only sends and receives values. The value classes and errors are the whole package's: a
// value read here is written by fast-var-codec, and back.

import * as wasm from "./fvc_codec_wasm.js";
import { wasmBytes } from "./codec_wasm_inline.js";
import { codecApi } from "./codec_api.js";

export * from "./shared_exports.js";
export { DIALECTS, DEFAULT_MAX_MESSAGE } from "./codec_api.js";

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
} = codecApi(wasm, wasmBytes);
