// The package against live engines (GODOT4: Godot 4.6.3, GODOT3: Godot 3.6.2, as
// tests/install_engines.sh prints them):
//   * the example servers (rust/wasm/examples/, copied next to this folder), each run by itself
//     as a user runs it: a headless Godot 4.6.3 exchanges values with ws_server.mjs through its own
//     WebSocketPeer put_var / get_var (godot4/ws_client.gd), Godot 3.6.2 with tcp_server.mjs
//     through StreamPeerTCP (tests/peers/godot3_client.gd and samples_client3.gd). The engines
//     check what comes back (decoded into JavaScript objects and encoded again from them) and the
//     values made in JavaScript; the server's counts must be what the engine says it sent;
//   * files both ways: Godot 4.6.3 reads store_var files the package wrote (plain, compressed in
//     each mode, encrypted with a password and with a key) and says what it read, then writes the
//     same kinds for the package to read; Godot 3.6.2 reads Godot 3 saves the package wrote from
//     the engine's own fixture (tests/saves/check3/check3.gd compares them).
// Every process is bounded by tests/deadline.sh; engine output goes to
// tests/out/run_npm_tests/live_engines/ (engines print a lot on malformed input), and a
// "SCRIPT ERROR" or leaked objects there fail the test.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import * as fvc from "fast-var-codec";
import * as desc from "./desc.mjs";

const OUT = path.join(desc.REPO, "tests", "out", "run_npm_tests", "live_engines");
const DEADLINE = path.join(desc.REPO, "tests", "deadline.sh");
const EXAMPLES = fileURLToPath(new URL("../examples/", import.meta.url));
const PEERS3 = path.join(desc.REPO, "tests", "peers");
const LIMIT = 120; // seconds any process here may run (tests/deadline.sh records a hang)
const ENGINE_PROBLEMS = /ObjectDB instances leaked|SCRIPT ERROR/;
const CONNECTION =
  /^connection from \S+: (?<values>\d+) values, (?<malformed>\d+) malformed, (?<samples>\d+) samples sent; (?<ended>.*)$/gm;
const MAX_MESSAGE = 8 << 20;

fs.mkdirSync(OUT, { recursive: true });

/** The engine $name names; missing, the test fails (the test command always sets it). */
function engine(name) {
  const p = process.env[name];
  assert.ok(p, `${name} is not set (bash tests/install_engines.sh prints it)`);
  return p;
}

/** Godot 4's project of these tests, copied (the engine writes its .godot/ there), links followed. */
function godot4Project(name) {
  const dir = path.join(OUT, `${name}.project`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(path.join(desc.REPO, "rust", "wasm", "tests", "godot4"), dir, { recursive: true, dereference: true });
  return dir;
}

/** An example server as a process of its own on a free port (--port 0: it says which), serving one connection. */
async function startServer(name, script, ...args) {
  const log = fs.openSync(path.join(OUT, `${name}.server.log`), "w");
  const proc = spawn(
    DEADLINE,
    ["-k", "5", String(LIMIT), process.execPath, path.join(EXAMPLES, script), "--port", "0", "--connections", "1",
      "--timeout", String(LIMIT - 10), ...args],
    { stdio: ["ignore", "pipe", log] },
  );
  fs.closeSync(log);
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  const lines = readline.createInterface({ input: proc.stdout });
  const out = [];
  const closed = new Promise((resolve) => lines.on("close", resolve));
  const first = await new Promise((resolve) => {
    lines.on("line", (line) => {
      if (out.length === 0) resolve(line);
      out.push(line);
    });
    closed.then(() => resolve(null));
  });
  const m = /^listening on 127\.0\.0\.1:(\d+) /.exec(first ?? "");
  if (!m) {
    proc.kill();
    assert.fail(`${script} did not start: ${first} (see ${name}.server.log)`);
  }
  return {
    port: Number(m[1]),
    /** The server's report of its one connection, once it has exited by itself (exit code 0). */
    async finish() {
      const code = await exited;
      await closed;
      const text = out.join("\n");
      assert.equal(code, 0, `${script} exit code ${code}: ${text}`);
      const reports = [...text.matchAll(CONNECTION)].map((r) => ({ ...r.groups }));
      assert.equal(reports.length, 1, text);
      return reports[0];
    },
    /** Stops the server when a check failed before it ended by itself. */
    stop() {
      if (proc.exitCode !== null) return;
      proc.kill(); // tests/deadline.sh passes it on to the server
      proc.stdout.destroy(); // its sleeping timer keeps the pipe open until the deadline
    },
  };
}

/** Runs an engine to its end, its stdout and stderr in files; its exit code and stdout. */
function runEngine(name, command) {
  const stdoutPath = path.join(OUT, `${name}.stdout`);
  const logPath = path.join(OUT, `${name}.log`);
  const stdout = fs.openSync(stdoutPath, "w");
  const log = fs.openSync(logPath, "w");
  const r = spawnSync(DEADLINE, ["-k", "5", String(LIMIT), ...command], { stdio: ["ignore", stdout, log] });
  fs.closeSync(stdout);
  fs.closeSync(log);
  const text = fs.readFileSync(stdoutPath, "utf8");
  const problems = [text, fs.readFileSync(logPath, "utf8")]
    .flatMap((t) => t.split("\n"))
    .filter((line) => ENGINE_PROBLEMS.test(line));
  assert.deepEqual(problems.slice(0, 5), [], `${name}: the engine reported leaked objects or GDScript errors (${logPath})`);
  return { code: r.status, text };
}

/** The engine's checks that passed; fails unless its last line says none failed and it exited 0. */
function passed(name, { code, text }) {
  const results = [...text.matchAll(/^(\d+) passed, (\d+) failed$/gm)];
  const fails = text.split("\n").filter((l) => l.startsWith("FAIL")).join("\n").slice(0, 3000);
  assert.ok(results.length > 0, `${name}: no final 'N passed, N failed' line (exit code ${code}): ${text.slice(-2000)}`);
  const [p, f] = results.at(-1).slice(1).map(Number);
  assert.deepEqual([f, code], [0, 0], `${name}: ${p} passed, ${f} failed, exit code ${code}:\n${fails}`);
  assert.ok(p > 0);
  return p;
}

/** The counts the engine says the server should have: its "RESULT sent=N malformed=N samples=N" line. */
function said(text) {
  const m = /^RESULT sent=(\d+) malformed=(\d+) samples=(\d+)$/m.exec(text);
  assert.ok(m, text.slice(-2000));
  return { values: m[1], malformed: m[2], samples: m[3] };
}

/** Fails at the first item that differs, showing where (the items are long hex strings). */
function sameList(got, want, what) {
  assert.equal(got.length, want.length, `${what}: ${got.length} values, expected ${want.length}`);
  got.forEach((g, i) => {
    if (g === want[i]) return;
    let k = 0;
    while (g[k] === want[i][k]) k++;
    assert.fail(`${what}: value ${i} differs at character ${k}: ...${g.slice(k, k + 60)}, expected ...${want[i].slice(k, k + 60)}`);
  });
}

const counts = (report) => ({ values: report.values, malformed: report.malformed, samples: report.samples });

async function withServer(name, script, args, f) {
  const server = await startServer(name, script, ...args);
  try {
    return await f(server);
  } finally {
    server.stop();
  }
}

function godot3(script, port, ...more) {
  return [engine("GODOT3"), "--no-window", "--path", PEERS3, "-s", `res://${script}`, `--port=${port}`,
    `--timeout=${LIMIT - 20}`, ...more];
}

test("Godot 4.6.3 exchanges every value with ws_server.mjs over WebSocketPeer", async () => {
  const godot4 = engine("GODOT4");
  const project = godot4Project("godot4_ws");
  await withServer("godot4_ws", "ws_server.mjs", ["--allow-objects", "--max-message", String(MAX_MESSAGE)], async (server) => {
    const run = runEngine("godot4_ws", [godot4, "--headless", "--path", project, "-s", "res://ws_client.gd", "--",
      `--port=${server.port}`, `--max-message=${MAX_MESSAGE}`, `--timeout=${LIMIT - 20}`]);
    passed("ws_client.gd", run);
    const report = await server.finish();
    assert.deepEqual(counts(report), said(run.text));
    // Every golden value and the large ones; a malformed binary message, a text message and one
    // above --max-message; the samples of every Godot 4 type.
    assert.ok(Number(report.values) > 500 && Number(report.samples) > 50, JSON.stringify(report));
    assert.equal(report.malformed, "3");
    assert.equal(report.ended, "closed by the server: a message above --max-message");
  });
});

test("Godot 3.6.2 gets every value back from tcp_server.mjs over StreamPeerTCP", async () => {
  await withServer("godot3_echo", "tcp_server.mjs", ["--dialect", "godot3", "--allow-objects"], async (server) => {
    const n = passed("godot3_client.gd", runEngine("godot3_echo", godot3("godot3_client.gd", server.port)));
    const report = await server.finish();
    // godot3_client.gd counts a check for connecting, one per value, one for reaching its end.
    assert.deepEqual([Number(report.values), report.malformed], [n - 2, "0"]);
    assert.ok(n - 2 > 50, String(n));
    assert.equal(report.ended, "closed by the client");
  });
});

test("Godot 3.6.2 checks the values tcp_server.mjs makes in JavaScript", async () => {
  await withServer("godot3_samples", "tcp_server.mjs", ["--dialect", "godot3"], async (server) => {
    const run = runEngine("godot3_samples", godot3("samples_client3.gd", server.port, "--made-in=JavaScript"));
    passed("samples_client3.gd", run);
    const report = await server.finish();
    assert.deepEqual(counts(report), said(run.text));
    assert.equal(report.malformed, "1");
    assert.ok(Number(report.samples) > 30, JSON.stringify(report));
    assert.equal(report.ended, "closed by the client");
  });
});

test("tcp_server.mjs answers a length above --max-message with its error, then closes", async () => {
  await withServer("tcp_oversize", "tcp_server.mjs", ["--max-message", "1024"], async (server) => {
    const socket = net.connect(server.port, "127.0.0.1");
    const decoder = new fvc.StreamDecoder();
    const got = [];
    socket.on("data", (chunk) => got.push(...decoder.feed(chunk)));
    await new Promise((resolve) => socket.on("connect", resolve));
    socket.write(fvc.encodeFramed([1, "a"]));
    socket.write(Uint8Array.of(0, 8, 0, 0)); // 2048 bytes announced
    await new Promise((resolve) => socket.on("close", resolve));
    assert.equal(got.length, 2);
    assert.equal(desc.canon(got[0]), desc.canon([1, "a"]));
    assert.match(got[1], /^server error: ERR_OUT_OF_MEMORY /);
    const report = await server.finish();
    assert.deepEqual(counts(report), { values: "1", malformed: "1", samples: "0" });
    assert.equal(report.ended, "closed by the server: a length prefix above --max-message");
  });
});

// --- files -----------------------------------------------------------------------------------------

const MODES = ["fastlz", "deflate", "zstd", "gzip"];
const PASSWORD = "fvc secret ✓";
const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0xff);
const SECRETS = { encrypted_pass: { password: PASSWORD }, encrypted_key: { key: KEY } };
const KINDS = ["plain", ...MODES.map((m) => `compressed_${m}`), "encrypted_pass", "encrypted_key"];

function fileOptions(kind) {
  if (kind.startsWith("compressed_")) return { compression: kind.slice("compressed_".length) };
  return SECRETS[kind] ?? {};
}

test("Godot 4.6.3 reads the store_var files the package writes, and the package reads the engine's", () => {
  const godot4 = engine("GODOT4");
  const values = [
    { player: "Ada", gold: 2 ** 40, position: new fvc.Vector3(1.5, -2, 0.25), ratio: new fvc.Float(2) },
    new fvc.TypedArray("StringName", [new fvc.StringName("sword"), new fvc.StringName("potion")]),
    Float32Array.from({ length: 3000 }, (_, i) => i * 0.5),
    "Grüße, 世界 ".repeat(200),
    [new fvc.NodePath("/root/Level:position"), new fvc.Color(1, 0.5, 0, 1), null, true, -0],
    BigInt64Array.from({ length: 1000 }, (_, i) => BigInt(i - 500) * 0x1e3779b97f4a7c15n),
    new fvc.TypedDictionary("String", "Vector3i", { spawn: new fvc.Vector3i(1, -2, 3) }),
    new Map([[1, "int"], [new fvc.Float(1), "float"], [2n ** 62n, "big"]]),
  ];
  const dir = path.join(OUT, "godot4_files");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  for (const kind of KINDS) fs.writeFileSync(path.join(dir, `${kind}.bin`), fvc.writeStoreVarFile(values, fileOptions(kind)));
  assert.ok(fs.statSync(path.join(dir, "plain.bin")).size > 3 * 4096, "the payload spans several compressed blocks");

  const run = runEngine("godot4_files", [godot4, "--headless", "--path", godot4Project("godot4_files"), "-s", "res://files.gd",
    "--", `--dir=${dir}`, `--password=${PASSWORD}`, `--key-hex=${desc.hexOf(KEY)}`]);
  // The key, then per kind: opens, read without error; then each file written.
  assert.equal(passed("files.gd", run), 1 + 2 * KINDS.length + KINDS.length);
  // What the engine read, value by value: its own encoding of it is the package's.
  const expected = values.map((v) => desc.hexOf(fvc.encode(v)));
  for (const kind of KINDS) {
    const read = [...run.text.matchAll(new RegExp(`^VALUE ${kind} (\\d+) ([0-9a-f]*)$`, "gm"))].map((m) => m[2]);
    assert.match(run.text, new RegExp(`^COUNT ${kind} ${values.length}$`, "m"), kind);
    sameList(read, expected, `${kind}: the engine's var_to_bytes of what it read`);
  }
  // What the engine wrote with its own store_var, the package reads.
  for (const kind of KINDS) {
    const data = fs.readFileSync(path.join(dir, `engine_${kind}.bin`));
    const got = fvc.readStoreVarFile(data, { keepFloats: true, ...SECRETS[kind] });
    assert.equal(got.dialect, "godot4", kind);
    sameList(got.values.map((v) => desc.hexOf(fvc.encode(v))), expected, `engine_${kind}.bin: the values read`);
  }
  for (const kind of ["encrypted_pass", "encrypted_key"]) {
    const data = fs.readFileSync(path.join(dir, `engine_${kind}.bin`));
    assert.throws(() => fvc.readStoreVarFile(data, { password: "not it" }), (e) => e.godotError === "ERR_FILE_CORRUPT", kind);
  }
});

test("Godot 3.6.2 reads the Godot 3 saves the package writes, in every container", () => {
  const fixture = path.join(desc.SAVES, "godot3_6_2");
  const side = JSON.parse(fs.readFileSync(path.join(fixture, "plain.json"), "utf8"));
  const { values } = fvc.readStoreVarFile(fs.readFileSync(path.join(fixture, "plain.bin")), { dialect: "godot3", allowObjects: true, keepFloats: true });
  // The fixture's object sent as an id: there is no object to write back, only its old id.
  const entries = side.values.map((item, index) => ({
    index,
    name: item.name,
    allow_objects: item.allow_objects,
    written: item.name !== "object/as_id",
  }));
  const kept = values.filter((_, i) => entries[i].written);
  const dir = path.join(OUT, "godot3_saves");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  const files = KINDS.map((kind) => {
    fs.writeFileSync(path.join(dir, `${kind}.bin`), fvc.writeStoreVarFile(kept, { dialect: "godot3", fullObjects: true, ...fileOptions(kind) }));
    return { file: `${kind}.bin`, kind, mode: kind.startsWith("compressed_") ? MODES.indexOf(kind.slice(11)) : -1 };
  });
  const manifest = { password: PASSWORD, key_hex: desc.hexOf(KEY), values: entries, files, configs: [], config_values: [], config_section: "values" };
  fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));

  const run = runEngine("godot3_saves", [engine("GODOT3"), "--no-window", "--path", path.join(desc.SAVES, "check3"),
    "-s", "res://check3.gd", `--in=${dir}`, `--fixture=${fixture}`]);
  const p = passed("check3.gd", run);
  const kinds = new Set([...run.text.matchAll(/^RESULT (\S+) (\d+) 0$/gm)].map((m) => m[1]));
  for (const kind of KINDS) assert.ok(kinds.has(kind), `${kind}: no RESULT line\n${run.text.slice(-2000)}`);
  // Every written value of every file, and each file's end, compared by the engine.
  assert.ok(p >= KINDS.length * (kept.length + 1), String(p));
});
