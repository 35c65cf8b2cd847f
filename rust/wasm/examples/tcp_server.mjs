// A Godot value server over TCP (node:net), written with fast-var-codec.
//
// Godot clients talk to it with their own StreamPeerTCP.put_var / get_var: each value is a u32
// length, then its encoding. A StreamDecoder per connection takes the bytes as they arrive, in
// whatever pieces TCP makes of the client's messages, and gives complete values. Every value a
// client sends is decoded into JavaScript objects and sent back encoded from them, so what comes
// back is what JavaScript understood. Two requests get other answers:
//   * the String "fvc:samples": the server's own values, made in JavaScript (samples.mjs), each
//     as [name, value], then the String "fvc:samples_end";
//   * the String "fvc:stats": a Dictionary of what this connection has seen so far
//     (values, malformed, samples_sent).
// A message that does not decode is answered with a String "server error: ..." and the
// connection goes on (the StreamDecoder skips it); a length prefix above --max-message is answered so
// too, then the connection is closed, as the stream cannot be followed any further. A client
// that resets its connection, even mid-message, ends only its own connection.
//
// --dialect auto serves Godot 3 and Godot 4 clients on one port: each connection is read in the
// dialect its messages tell (the StreamDecoder's "auto"), and answered in it.
//
//   node tcp_server.mjs --port 47400 [--dialect godot3|auto] [--allow-objects] [--max-message BYTES]
//
// --port 0 takes any free port; the first line printed says which ("listening on
// 127.0.0.1:PORT"); then one line per connection once it has ended. --connections N stops after
// N connections, --timeout S after S seconds (exit code 3).

import net from "node:net";
import { parseArgs } from "node:util";
import { Codec, StreamDecoder, DecodeError, EncodeError } from "fast-var-codec";
import { sampleValues } from "./samples.mjs";

const { values: args } = parseArgs({
  options: {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "47400" },
    dialect: { type: "string", default: "godot4" },
    "allow-objects": { type: "boolean", default: false }, // whole objects: trusted clients only
    "max-message": { type: "string", default: String(8 << 20) },
    connections: { type: "string", default: "0" },
    timeout: { type: "string", default: "0" },
  },
});

// keepFloats: an integral float (2.0) comes back a float; fullObjects: objects go back whole,
// as a client sent them (they are decoded only with --allow-objects).
const options = { allowObjects: args["allow-objects"], keepFloats: true, fullObjects: true };
/** The Codec answers are encoded with, per dialect. */
const codecs = new Map();
function codecOf(dialect) {
  if (!codecs.has(dialect)) codecs.set(dialect, new Codec({ ...options, dialect }));
  return codecs.get(dialect);
}
if (args.dialect !== "auto") codecOf(args.dialect); // an unknown dialect: refused now, not at the first client
let ended = 0;

const server = net.createServer((socket) => {
  const conn = { values: 0, malformed: 0, samplesSent: 0, ended: "open" };
  const peer = `${socket.remoteAddress}:${socket.remotePort}`;
  // With "auto", decoder.dialect is the dialect this connection's messages tell so far.
  const decoder = new StreamDecoder({ ...options, dialect: args.dialect, maxMessage: Number(args["max-message"]) });
  // What StreamPeer.put_var sends, in the connection's dialect.
  conn.frame = (value) => codecOf(decoder.dialect).encodeFramed(value);
  conn.dialect = () => decoder.dialect;
  const frame = conn.frame;
  socket.setNoDelay(true);

  socket.on("data", (chunk) => {
    if (decoder.broken) return; // closing: the rest of the stream cannot be read
    decoder.feed(chunk);
    for (;;) {
      let next;
      try {
        next = decoder.next(); // {done: true} when no complete value is left
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        conn.malformed++;
        socket.write(frame(`server error: ${e.godotError} at byte ${e.offset}: ${e.reason}`));
        if (decoder.broken) {
          // A length above --max-message: the error is sent, then the connection is closed.
          conn.ended = "closed by the server: a length prefix above --max-message";
          socket.end();
          return;
        }
        continue; // the malformed message is skipped: the stream goes on
      }
      if (next.done) break;
      conn.values++;
      for (const answer of reply(next.value, conn)) socket.write(answer);
    }
  });
  socket.on("error", (e) => {
    conn.ended = `connection lost: ${e.message}`;
  });
  socket.on("close", () => {
    if (conn.ended === "open") conn.ended = "closed by the client";
    decoder.free();
    console.log(
      `connection from ${peer}: ${conn.values} values, ${conn.malformed} malformed, ` +
        `${conn.samplesSent} samples sent; ${conn.ended}`,
    );
    if (++ended === Number(args.connections)) server.close(() => process.exit(0));
  });
});

/** The answers to one value a client sent. */
function* reply(value, conn) {
  const frame = conn.frame;
  if (value === "fvc:samples") {
    for (const sample of sampleValues(conn.dialect())) {
      yield frame(sample);
      conn.samplesSent++;
    }
    yield frame("fvc:samples_end");
  } else if (value === "fvc:stats") {
    yield frame({ values: conn.values, malformed: conn.malformed, samples_sent: conn.samplesSent });
  } else {
    // The round trip: the JavaScript objects decoded above, encoded again.
    try {
      yield frame(value);
    } catch (e) {
      if (!(e instanceof EncodeError)) throw e; // a value this dialect has no type for
      yield frame(`server error: ${e.godotError} at ${e.path}: ${e.reason}`);
    }
  }
}

server.on("error", (e) => {
  // The port in use, or no right to it: nothing to serve.
  console.error(`server: ${e.message}`);
  process.exit(1);
});
server.listen(Number(args.port), args.host, () => {
  console.log(`listening on ${args.host}:${server.address().port} (${args.dialect})`);
});
if (Number(args.timeout) > 0) {
  setTimeout(() => {
    console.error(`stopped by --timeout after ${ended} connections`);
    process.exit(3);
  }, Number(args.timeout) * 1000).unref();
}
