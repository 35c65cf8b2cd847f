// The package's errors. Each carries `godotError`, the name of the Godot Error the engine reports
// for the same input ("ERR_INVALID_DATA", ...).
// A parameter that may be left out has a default (`= undefined` where nothing stands in for it),
// so that the constructor says which are optional, as index.d.ts declares them.

/** Every error of an encode, a decode or a file. */
export class FastVarCodecError extends Error {
  constructor(godotError, message) {
    super(message);
    this.name = "FastVarCodecError";
    this.godotError = godotError;
  }
}

/** Bytes that do not decode, a limit, an object not allowed: `offset` is the input's byte. */
export class DecodeError extends FastVarCodecError {
  constructor(offset, godotError, reason, dialects = []) {
    super(godotError, `decode failed at byte ${offset}: ${reason} (${godotError})`);
    this.name = "DecodeError";
    this.offset = offset;
    this.reason = reason;
    /** Bytes read without a dialect that engines of different families read as different
     * values (a Godot 3 Color is a Godot 4 Plane): those families' dialects, to pass one of;
     * empty for any other error. */
    this.dialects = dialects;
  }
}

/** A value that cannot be encoded: `path` says where inside it ("[2]", '["items"][1]'; "" for the value itself). */
export class EncodeError extends FastVarCodecError {
  constructor(path, godotError, reason) {
    super(godotError, `encode failed at ${path || "the value"}: ${reason} (${godotError})`);
    this.name = "EncodeError";
    this.path = path;
    this.reason = reason;
  }
}

/**
 * A file's container: a wrong password or key, a damaged or cut file, a payload above the limit.
 * `cutShort`: the file ends before its own header says (no password opens it), though Godot
 * gives a cut encrypted file a wrong password's ERR_FILE_CORRUPT.
 */
export class SaveFileError extends FastVarCodecError {
  constructor(godotError, message, offset = undefined, cutShort = false) {
    super(godotError, `${message} (${godotError})`);
    this.name = "SaveFileError";
    this.reason = message;
    this.cutShort = cutShort;
    if (offset !== undefined) this.offset = offset;
  }
}

/** A JSON text that is not the projection of a value: `path` says where ("$.a[1].$Vector2"); `line` and `column` a syntax error's place. */
export class JSONError extends FastVarCodecError {
  constructor(path, reason, line = undefined, column = undefined) {
    const where = line === undefined ? path : `line ${line}, column ${column} (${path})`;
    super("ERR_PARSE_ERROR", `JSON at ${where}: ${reason}`);
    this.name = "JSONError";
    this.path = path;
    this.reason = reason;
    if (line !== undefined) {
      this.line = line;
      this.column = column;
    }
  }
}

/** The error the WebAssembly threw (a text of fields separated by U+001F), as the package's. */
export function translate(e) {
  if (typeof e !== "string" || !e.includes("\u001f")) return e;
  const [kind, godot, at, message, place] = e.split("\u001f");
  switch (kind) {
    case "decode":
      return new DecodeError(Number(at), godot, message, place ? place.split(",") : []);
    case "encode":
      return new EncodeError(at, godot, message);
    case "json": {
      const [line, column] = place ? place.split(":").map(Number) : [];
      return new JSONError(at, message, line, column);
    }
    case "file":
      return new SaveFileError(godot, message, at === "" ? undefined : Number(at), place === "cut");
    default:
      return new TypeError(message);
  }
}
