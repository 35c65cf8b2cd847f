// The servers of the README (its `<!-- snippet: NAME -->` blocks, extracted by
// tests/run_npm_tests.sh into ../snippets/ as written, their port replaced by a free one) and
// the example servers (../examples/), each against clients that misbehave: one sends a message
// above the limit, one a malformed message, one resets its connection in the middle of a
// message. A good client connected before them, and one connecting after, must still be
// answered, and the server must still run. And the example servers' --dialect auto: a Godot 3
// client and a Godot 4 client on one port, each answered in its own dialect.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SNIPPETS = path.join(HERE, "..", "snippets");
const EXAMPLES = path.join(HERE, "..", "examples");
/** The examples as the package ships them (they import the package by its own name). */
const SHIPPED_EXAMPLES = path.join(HERE, "..", "node_modules", "fast-var-codec", "examples");
const OUT = path.join(desc.REPO, "tests", "out", "run_npm_tests", "servers");
const DEADLINE = path.join(desc.REPO, "tests", "deadline.sh");
const LIMIT = 120; // seconds a server may run (tests/deadline.sh records a hang)
const ANSWER_WAIT = 20_000; // ms to wait for an answer before calling the server dead (not a speed check)
const TOO_LARGE = 9 << 20; // above the servers' 8 MiB limit

fs.mkdirSync(OUT, { recursive: true });

const same = (a, b) => assert.equal(desc.canon(a), desc.canon(b));

/** A port free now. */
async function freePort() {
  const s = net.createServer();
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  const { port } = s.address();
  s.close();
  await once(s, "close");
  return port;
}

/** A server process; its stderr in OUT/NAME.log. Resolves once `port` accepts connections. */
async function startServer(name, file, args, port) {
  const log = path.join(OUT, `${name}.log`);
  const fd = fs.openSync(log, "w");
  const proc = spawn(DEADLINE, ["-k", "5", String(LIMIT), process.execPath, file, ...args], {
    stdio: ["ignore", fd, fd],
    cwd: path.dirname(file),
  });
  fs.closeSync(fd);
  let exit = null;
  proc.on("exit", (code, signal) => (exit = { code, signal }));
  for (let i = 0; ; i++) {
    if (exit) assert.fail(`${name} exited (${JSON.stringify(exit)}) before listening:\n${fs.readFileSync(log, "utf8")}`);
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.on("connect", () => (s.destroy(), resolve(true)));
      s.on("error", () => resolve(false));
    });
    if (ok) break;
    assert.ok(i < 600, `${name} never listened on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    alive: () => exit === null,
    log: () => fs.readFileSync(log, "utf8"),
    exit: () => exit,
    stop() {
      if (exit === null) proc.kill();
    },
  };
}

/** Waits for `promise`, failing after ANSWER_WAIT with `what` and the server's state. */
function answer(promise, server, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no ${what}; server exit ${JSON.stringify(server.exit())}:\n${server.log().slice(-3000)}`)),
      ANSWER_WAIT,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// --- TCP clients (StreamPeerTCP's framing: a u32 length, then the value) --------------------------

class TcpClient {
  constructor(port, dialect) {
    this.dialect = dialect;
    this.socket = net.connect(port, "127.0.0.1");
    this.decoder = new fvc.StreamDecoder({ dialect, keepFloats: true, allowObjects: true, dictionaryAs: "object" }); // the samples hold objects
    this.values = [];
    this.waiting = [];
    this.closed = new Promise((resolve) => this.socket.on("close", resolve));
    this.socket.on("error", () => {}); // a client reset by the test, or a server that ended
    this.socket.on("data", (chunk) => {
      this.decoder.feed(chunk);
      for (const v of this.decoder) this.values.push(v);
      while (this.waiting.length && this.values.length) this.waiting.shift()(this.values.shift());
    });
  }
  async open() {
    if (!this.socket.connecting) return this;
    await once(this.socket, "connect");
    return this;
  }
  send(value) {
    this.socket.write(fvc.encodeFramed(value, { dialect: this.dialect }));
  }
  next() {
    if (this.values.length) return Promise.resolve(this.values.shift());
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

// --- WebSocket clients (WebSocketPeer's: one value per binary message) ----------------------------

class WsClient {
  constructor(port, dialect) {
    this.dialect = dialect;
    this.ws = new WebSocket(`ws://127.0.0.1:${port}`, { maxPayload: 64 << 20 });
    this.values = [];
    this.waiting = [];
    this.closed = new Promise((resolve) => this.ws.on("close", (code) => resolve(code)));
    this.ws.on("error", () => {});
    this.ws.on("message", (data) => {
      this.values.push(fvc.decode(data, { dialect, keepFloats: true, allowObjects: true, dictionaryAs: "object" }));
      while (this.waiting.length && this.values.length) this.waiting.shift()(this.values.shift());
    });
  }
  async open() {
    if (this.ws.readyState !== WebSocket.OPEN) await once(this.ws, "open");
    return this;
  }
  send(value) {
    this.ws.send(fvc.encode(value, { dialect: this.dialect }));
  }
  next() {
    if (this.values.length) return Promise.resolve(this.values.shift());
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

const MESSAGE = () => ({ hp: 10, at: new fvc.Vector2(1, 0.5), name: "good" });

/** A good client's round trip: what it sends comes back. */
async function roundTrip(client, server, what) {
  const sent = MESSAGE();
  client.send(sent);
  same(await answer(client.next(), server, `answer to ${what}`), sent);
}

/** The misbehaving clients, one after another, between a good client's round trips. */
async function misbehave(kind, port, server, dialect) {
  const Client = kind === "tcp" ? TcpClient : WsClient;
  const good = await new Client(port, dialect).open();
  await roundTrip(good, server, "the good client before");

  // 1. A message above the limit: refused, that connection closed.
  const big = await new Client(port, dialect).open();
  if (kind === "tcp") {
    const prefix = new Uint8Array(8);
    new DataView(prefix.buffer).setUint32(0, TOO_LARGE, true);
    big.socket.write(prefix);
    const said = await answer(big.next(), server, "answer to a length above the limit");
    assert.match(String(said), /server error: ERR_OUT_OF_MEMORY/);
    await answer(big.closed, server, "the end of the connection with a length above the limit");
  } else {
    big.ws.send(new Uint8Array(TOO_LARGE));
    assert.equal(await answer(big.closed, server, "close of a message above the limit"), 1009);
  }
  assert.ok(server.alive(), `the server ended after a message above the limit:\n${server.log()}`);

  // 2. A malformed message: an error answer, and that client goes on.
  const bad = await new Client(port, dialect).open();
  const junk = Uint8Array.of(0xff, 0xff, 0xff, 0x7f);
  if (kind === "tcp") bad.socket.write(Uint8Array.of(4, 0, 0, 0, ...junk));
  else bad.ws.send(junk);
  assert.match(String(await answer(bad.next(), server, "answer to a malformed message")), /^server error: /);
  await roundTrip(bad, server, "the client after its malformed message");

  // 3. A reset in the middle of a message.
  const reset = await new Client(port, dialect).open();
  const socket = kind === "tcp" ? reset.socket : reset.ws._socket;
  if (kind === "tcp") socket.write(Uint8Array.of(100, 0, 0, 0, 1, 2, 3, 4, 5, 6));
  else socket.write(Uint8Array.of(0x82, 0xfe, 0x01, 0x00, 1, 2, 3, 4, 5, 6, 7, 8)); // a masked binary frame of 256 bytes, cut
  await new Promise((r) => setTimeout(r, 200)); // the server reads the partial message
  socket.resetAndDestroy();
  await reset.closed;
  await new Promise((r) => setTimeout(r, 200)); // the server sees the reset

  // The good client connected before, and one connecting after, are answered.
  await roundTrip(good, server, "the good client after the misbehaving ones");
  const late = await new Client(port, dialect).open();
  await roundTrip(late, server, "a client connecting after the misbehaving ones");
  assert.ok(server.alive(), server.log());
  for (const c of [good, bad, late]) {
    if (kind === "tcp") c.socket.end();
    else c.ws.close();
  }
}

/** The README's snippet NAME as written, its port `literal` replaced by `port`. */
function snippet(name, literal, port) {
  const file = path.join(SNIPPETS, `${name}.mjs`);
  assert.ok(fs.existsSync(file), `no snippet ${name} (tests/run_npm_tests.sh extracts the README's)`);
  const text = fs.readFileSync(file, "utf8");
  assert.ok(text.includes(literal), `${name} no longer listens on ${literal}`);
  const copy = path.join(SNIPPETS, `${name}.port.mjs`);
  fs.writeFileSync(copy, text.replace(literal, String(port)));
  return copy;
}

for (const [name, kind, literal, dialect] of [
  ["ws_server", "ws", "9080", "godot4"],
  ["tcp_server", "tcp", "47400", "godot3"],
]) {
  test(`the README's ${name} snippet keeps serving its other clients through misbehaving ones`, async () => {
    const port = await freePort();
    const server = await startServer(`snippet_${name}`, snippet(name, literal, port), [], port);
    try {
      await misbehave(kind, port, server, dialect);
    } finally {
      server.stop();
    }
  });
}

for (const [script, kind] of [
  ["ws_server.mjs", "ws"],
  ["tcp_server.mjs", "tcp"],
]) {
  for (const dialect of ["godot4", "auto"]) {
    test(`examples/${script} --dialect ${dialect} keeps serving its other clients through misbehaving ones`, async () => {
      const port = await freePort();
      const args = ["--port", String(port), "--dialect", dialect];
      // --dialect auto runs the copy the package ships.
      const dir = dialect === "auto" ? SHIPPED_EXAMPLES : EXAMPLES;
      const server = await startServer(`example_${kind}_${dialect}`, path.join(dir, script), args, port);
      try {
        await misbehave(kind, port, server, "godot4");
      } finally {
        server.stop();
      }
    });
  }

  test(`examples/${script} --dialect auto answers a Godot 3 and a Godot 4 client on one port, each in its dialect`, async () => {
    const port = await freePort();
    const args = ["--port", String(port), "--dialect", "auto"];
    const server = await startServer(`example_${kind}_auto_two`, path.join(EXAMPLES, script), args, port);
    const Client = kind === "tcp" ? TcpClient : WsClient;
    try {
      const g3 = await new Client(port, "godot3").open();
      const g4 = await new Client(port, "godot4").open();
      // Each connection settles on its own: only Godot 3 reads its Dictionary (id 18, 48 bytes)
      // whole (a Transform of 52 in Godot 4, a Transform2D of 28 in Pandemonium), only Godot 4
      // its Vector2i.
      for (const [client, own] of [
        [g3, { hp: 10, mp: 5 }],
        [g4, new fvc.Vector2i(5, 6)], // Godot 3 has no Vector2i
      ]) {
        client.send(own);
        same(await answer(client.next(), server, `answer in ${client.dialect}`), own);
        // The samples are made for the connection's dialect (Godot 4's include a Vector4).
        client.send("fvc:samples");
        const names = [];
        for (;;) {
          const v = await answer(client.next(), server, `samples in ${client.dialect}`);
          if (v === "fvc:samples_end") break;
          names.push(v[0]);
        }
        assert.equal(names.some((n) => /vector4/i.test(n)), client.dialect === "godot4", names.join(" "));
      }
      for (const c of [g3, g4]) {
        if (kind === "tcp") c.socket.end();
        else c.ws.close();
      }
    } finally {
      server.stop();
    }
  });
}
