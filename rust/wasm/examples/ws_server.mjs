// A Godot value server over WebSocket, written with fast-var-codec and ws (npm install ws).
//
// Godot clients talk to it with their own WebSocketPeer.put_var / get_var: each binary message
// is one value, with no length prefix. Every value a client sends is decoded into JavaScript
// objects and sent back encoded from them, so what comes back is what JavaScript understood.
// Two requests get other answers:
//   * the String "fvc:samples": the server's own values, made in JavaScript (samples.mjs), each
//     as [name, value], then the String "fvc:samples_end";
//   * the String "fvc:stats": a Dictionary of what this connection has seen so far
//     (values, malformed, samples_sent).
// A message that does not decode is answered with a String "server error: ..." and the
// connection goes on; a message above --max-message closes the connection (code 1009, which
// ws sends before reading the message). A client's error (a message too large, a reset) ends
// only its own connection.
//
// --dialect auto serves Godot 3 and Godot 4 clients on one port: a MessageDecoder per
// connection reads each message in the dialect the connection's messages tell, and the answers
// are written in it.
//
//   node ws_server.mjs --port 9080 [--dialect godot4|godot3|auto] [--allow-objects] [--max-message BYTES]
//
// --port 0 takes any free port; the first line printed says which ("listening on
// 127.0.0.1:PORT"); then one line per connection once it has ended. --connections N stops after
// N connections, --timeout S after S seconds (exit code 3).

import { parseArgs } from "node:util";
import { WebSocketServer } from "ws";
import { Codec, MessageDecoder, DecodeError, EncodeError } from "fast-var-codec";
import { sampleValues } from "./samples.mjs";

const { values: args } = parseArgs({
  options: {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "9080" },
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

const server = new WebSocketServer({ host: args.host, port: Number(args.port), maxPayload: Number(args["max-message"]) });

server.on("connection", (socket, request) => {
  const conn = { values: 0, malformed: 0, samplesSent: 0, ended: "open" };
  const peer = `${request.socket.remoteAddress}:${request.socket.remotePort}`;
  // Each binary message is one value; with "auto", decoder.dialect is the dialect this
  // connection's messages tell so far.
  const decoder = new MessageDecoder({ ...options, dialect: args.dialect });
  conn.encode = (value) => codecOf(decoder.dialect).encode(value);
  conn.dialect = () => decoder.dialect;

  socket.on("message", (data, isBinary) => {
    if (!isBinary) {
      conn.malformed++;
      socket.send(conn.encode("server error: a text message (put_var sends binary ones)"));
      return;
    }
    decoder.feed(data); // a Buffer is a Uint8Array
    for (;;) {
      let next;
      try {
        next = decoder.next(); // {done: true} once every message fed is read
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        conn.malformed++;
        socket.send(conn.encode(`server error: ${e.godotError} at byte ${e.offset}: ${e.reason}`));
        continue; // the malformed message is skipped
      }
      if (next.done) break;
      conn.values++;
      for (const answer of reply(next.value, conn)) socket.send(answer);
    }
  });
  socket.on("error", (e) => {
    // ws closes the connection itself after this: with the code 1009 (message too big) when a
    // message announces more than maxPayload, before any of it is read.
    if (e.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
      conn.malformed++;
      conn.ended = "closed by the server: a message above --max-message";
    } else {
      conn.ended = `connection lost: ${e.message}`;
    }
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
  const encode = conn.encode;
  if (value === "fvc:samples") {
    for (const sample of sampleValues(conn.dialect())) {
      yield encode(sample);
      conn.samplesSent++;
    }
    yield encode("fvc:samples_end");
  } else if (value === "fvc:stats") {
    yield encode({ values: conn.values, malformed: conn.malformed, samples_sent: conn.samplesSent });
  } else {
    // The round trip: the JavaScript objects decoded above, encoded again.
    try {
      yield encode(value);
    } catch (e) {
      if (!(e instanceof EncodeError)) throw e; // a value this dialect has no type for
      yield encode(`server error: ${e.godotError} at ${e.path}: ${e.reason}`);
    }
  }
}

server.on("error", (e) => {
  // The port in use, or no right to it: nothing to serve.
  console.error(`server: ${e.message}`);
  process.exit(1);
});
server.on("listening", () => {
  console.log(`listening on ${args.host}:${server.address().port} (${args.dialect})`);
});
if (Number(args.timeout) > 0) {
  setTimeout(() => {
    console.error(`stopped by --timeout after ${ended} connections`);
    process.exit(3);
  }, Number(args.timeout) * 1000).unref();
}
