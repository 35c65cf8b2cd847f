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
// ws sends before reading the message).
//
//   node ws_server.mjs --port 9080 [--dialect godot4] [--allow-objects] [--max-message BYTES]
//
// --port 0 takes any free port; the first line printed says which ("listening on
// 127.0.0.1:PORT"); then one line per connection once it has ended. --connections N stops after
// N connections, --timeout S after S seconds (exit code 3).

import { parseArgs } from "node:util";
import { WebSocketServer } from "ws";
import { Codec, DecodeError, EncodeError } from "fast-var-codec";
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
const codec = new Codec({ dialect: args.dialect, allowObjects: args["allow-objects"], keepFloats: true, fullObjects: true });
let ended = 0;

const server = new WebSocketServer({ host: args.host, port: Number(args.port), maxPayload: Number(args["max-message"]) });

server.on("connection", (socket, request) => {
  const conn = { values: 0, malformed: 0, samplesSent: 0, ended: "open" };
  const peer = `${request.socket.remoteAddress}:${request.socket.remotePort}`;

  socket.on("message", (data, isBinary) => {
    if (!isBinary) {
      conn.malformed++;
      socket.send(codec.encode("server error: a text message (put_var sends binary ones)"));
      return;
    }
    let value;
    try {
      value = codec.decode(data); // a Buffer is a Uint8Array
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      conn.malformed++;
      socket.send(codec.encode(`server error: ${e.godotError} at byte ${e.offset}: ${e.reason}`));
      return;
    }
    conn.values++;
    for (const answer of reply(value, conn)) socket.send(answer);
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
    console.log(
      `connection from ${peer}: ${conn.values} values, ${conn.malformed} malformed, ` +
        `${conn.samplesSent} samples sent; ${conn.ended}`,
    );
    if (++ended === Number(args.connections)) server.close(() => process.exit(0));
  });
});

/** The answers to one value a client sent. */
function* reply(value, conn) {
  if (value === "fvc:samples") {
    for (const sample of sampleValues(args.dialect)) {
      yield codec.encode(sample);
      conn.samplesSent++;
    }
    yield codec.encode("fvc:samples_end");
  } else if (value === "fvc:stats") {
    yield codec.encode({ values: conn.values, malformed: conn.malformed, samples_sent: conn.samplesSent });
  } else {
    // The round trip: the JavaScript objects decoded above, encoded again.
    try {
      yield codec.encode(value);
    } catch (e) {
      if (!(e instanceof EncodeError)) throw e; // a value this dialect has no type for
      yield codec.encode(`server error: ${e.godotError} at ${e.path}: ${e.reason}`);
    }
  }
}

server.on("listening", () => {
  console.log(`listening on ${args.host}:${server.address().port} (${args.dialect})`);
});
if (Number(args.timeout) > 0) {
  setTimeout(() => {
    console.error(`stopped by --timeout after ${ended} connections`);
    process.exit(3);
  }, Number(args.timeout) * 1000).unref();
}
