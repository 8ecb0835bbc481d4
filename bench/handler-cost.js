#!/usr/bin/env node
/**
 * `node bench/handler-cost.js [--calls=N] [--rounds=N] [--only=side,side] [--thrash=KB] [--before=DIR]`
 *
 * Our own code's cost per `tools/call`, without sockets: each HTTP side's request handler is
 * called with stand-in `req` / `res` objects (the headers, the body as one chunk, `writeHead` /
 * `end` recorded), one call after another, and the time per call is printed beside the bare
 * `node:http` handler's (bench/servers/http-sides.js) doing the same. The sides: ours-json (a
 * static step), ours-fn (a step function), ours-modern (2026-07-28 calls) and bare / bare-modern.
 *
 * Over a real socket node's HTTP parser, the writes and the wake-ups cost several times what our
 * code does, and they swing from run to run on this machine; this harness takes them out, so a
 * change to the hot path shows as a change here first (bench/README.md, "Profiling"). Run it
 * under `node --cpu-prof` to see where our part goes. Build first (`npm run build`).
 *
 * `--before=DIR` adds our sides from another checkout's build (its `dist/`), as `before:ours-json`
 * and so on, each in its own thread beside this build's: a paired before/after of a change.
 *
 * `--thrash=KB` reads a buffer of that size between two calls (not timed), as the parser, the
 * kernel and the writes do to the caches over a real socket; our code then costs about what it
 * costs in a real server, relative to the bare handler. `node bench/profile.js
 * --workload=handler-ours-fn` profiles one side this way.
 *
 * Bounds: at most 2,000,000 calls per slice and 40 rounds; each answer is checked (status 200 and
 * the text "ok"), and the run stops at the first wrong one.
 */
import { EventEmitter } from "node:events";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { bareHandler, modernResultTail, TEXT } from "./servers/http-sides.js";
import { median, parseArgs } from "./lib/common.js";
import { ACCEPT, MODERN_META, MODERN_VERSION } from "./lib/loadgen.js";

const args = parseArgs();
const calls = Math.min(Number(args.get("calls") ?? 50_000), 2_000_000);
const rounds = Math.min(Number(args.get("rounds") ?? 7), 40);
const CALL_PARAMS = { name: "echo", arguments: { text: TEXT } };
const beforeDir = args.get("before");
const OUR_SIDES = ["ours-json", "ours-fn", "ours-modern"];
const SIDE_NAMES = ["bare", "ours-json", "ours-fn", "bare-modern", "ours-modern", ...(beforeDir ? OUR_SIDES.map((side) => `before:${side}`) : [])];

/** A stand-in IncomingMessage: the headers node would give, the body delivered when `send()` runs. */
class FakeRequest extends EventEmitter {
  constructor(headers, body) {
    super();
    this.method = "POST";
    this.url = "/mcp";
    this.headers = headers;
    this.rawHeaders = Object.entries(headers).flat();
    this.socket = null;
    this.body = Buffer.from(body);
  }
  get headersDistinct() {
    return Object.fromEntries(Object.entries(this.headers).map(([k, v]) => [k, [v]]));
  }
  resume() {}
  send() {
    this.emit("data", this.body);
    this.emit("end");
  }
}

/** A stand-in ServerResponse that keeps the status, the headers and the body. */
class FakeResponse {
  headersSent = false;
  destroyed = false;
  writableFinished = false;
  socket = null;
  status = 0;
  body = "";
  writeHead(status, headers) {
    this.status = status;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }
  end(body) {
    this.body = body ?? "";
    this.writableFinished = true;
  }
  on() {
    return this;
  }
  once() {
    return this;
  }
}

function exchange(handler, headers, body) {
  const req = new FakeRequest(headers, body);
  const res = new FakeResponse();
  handler(req, res);
  req.send();
  return res;
}

/** A side: its handler and the headers and body of call number `id`. */
async function legacySide(handler) {
  const init = exchange(
    handler,
    { "content-type": "application/json", accept: ACCEPT },
    JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "handler-cost", version: "1" } } }),
  );
  await new Promise((resolve) => setImmediate(resolve));
  const sessionId = init.headers["mcp-session-id"];
  if (!sessionId) throw new Error(`initialize got no session: ${init.status} ${init.body}`);
  const headers = { host: "127.0.0.1", "content-type": "application/json", accept: ACCEPT, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  exchange(handler, headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return { handler, headers, body: (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: CALL_PARAMS }) };
}

function modernSide(handler) {
  const headers = { host: "127.0.0.1", "content-type": "application/json", accept: ACCEPT, "mcp-protocol-version": MODERN_VERSION, "mcp-method": "tools/call", "mcp-name": CALL_PARAMS.name };
  return { handler, headers, body: (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { ...CALL_PARAMS, _meta: MODERN_META } }) };
}

const NOTHING_TO_CLOSE = async () => undefined;

/** Builds one side in this thread: its handler with the headers and body of its calls. */
export async function buildSide(name) {
  // "before:ours-json": the same side from another checkout's build (--before=DIR), for a paired before/after.
  const before = name.startsWith("before:");
  const side = before ? name.slice("before:".length) : name;
  const { mockMcp } = await import(before ? pathToFileURL(path.join(path.resolve(beforeDir ?? "."), "dist", "index.js")).href : "../dist/index.js");
  const ours = async (echo) => {
    const mock = await mockMcp({ tools: { echo }, responseMode: "json" });
    return { handler: mock.handler, close: () => mock.close() };
  };
  const served = {
    bare: async () => ({ handler: bareHandler(), close: NOTHING_TO_CLOSE }),
    "bare-modern": async () => ({ handler: bareHandler({ tail: await modernResultTail() }), close: NOTHING_TO_CLOSE }),
    "ours-json": () => ours({ returns: TEXT }),
    "ours-fn": () => ours((call) => ({ returns: call.arguments.text ?? TEXT })),
    "ours-modern": () => ours({ returns: TEXT }),
  }[side];
  if (served === undefined) throw new Error(`unknown side ${JSON.stringify(name)}; sides: ${SIDE_NAMES.join(", ")}`);
  const { handler, close } = await served();
  // The sides named "…modern" are called the 2026-07-28 way (no session); the others open one first.
  const calls = side.endsWith("modern") ? modernSide(handler) : await legacySide(handler);
  return { ...calls, close };
}

/** Reads one byte per cache line of a buffer larger than the core's caches: what node's HTTP parser, the kernel and the socket writes do to our code's cached lines between two calls over a real socket. */
const thrashBytes = Math.min(Number(args.get("thrash") ?? 0), 64 * 1024) * 1024;
const thrashBuffer = new Uint8Array(thrashBytes);
// biome-ignore lint/correctness/noUnusedVariables: the sum keeps the reads from being optimized away
let thrashSum = 0;
function thrash() {
  for (let i = 0; i < thrashBytes; i += 64) thrashSum += thrashBuffer[i];
}

/** One slice: `count` calls, each answer checked; the time per call in µs (the calls alone, the thrash between them left out). */
export function slice(side, count, firstId) {
  let total = 0;
  for (let id = firstId; id < firstId + count; id++) {
    if (thrashBytes > 0) thrash();
    const start = performance.now();
    const res = exchange(side.handler, side.headers, side.body(id));
    total += performance.now() - start;
    if (res.status !== 200 || !res.body.includes(`"text":"${TEXT}"`)) throw new Error(`call ${id} got ${res.status} ${res.body}`);
  }
  return (total * 1000) / count;
}

const runDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;

// ---------------------------------------------------------------- a side's own thread (own heap, own JIT)
if (!isMainThread && runDirectly) {
  const side = await buildSide(workerData.name);
  let nextId = 1;
  parentPort.on("message", async (message) => {
    if (message === "close") {
      await side.close();
      parentPort.close();
      return;
    }
    const us = slice(side, message, nextId);
    nextId += message;
    parentPort.postMessage(us);
  });
  parentPort.postMessage("ready");
} else if (runDirectly) {
  const only = args.get("only")?.split(",");
  const unknown = only?.filter((name) => !SIDE_NAMES.includes(name)) ?? [];
  if (unknown.length > 0) {
    console.error(`unknown --only side(s): ${unknown.join(", ")}; sides: ${SIDE_NAMES.join(", ")} (the before: ones need --before=DIR)`);
    process.exit(2);
  }
  const names = SIDE_NAMES.filter((name) => !only || only.includes(name));
  const workers = new Map();
  const next = (worker) =>
    new Promise((resolve, reject) => {
      const fail = (error) => reject(error);
      worker.once("error", fail);
      worker.once("message", (message) => {
        worker.off("error", fail);
        resolve(message);
      });
    });
  for (const name of names) {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { name }, argv: process.argv.slice(2) });
    await next(worker);
    workers.set(name, worker);
  }
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const worker = workers.get(name);
      worker.postMessage(calls);
      times[name].push(await next(worker));
    }
  }
  const stat = (name) => (times[name]?.length ? Math.min(...times[name]) : NaN);
  console.log(`handler cost per tools/call, no sockets: best and median of ${rounds} slices of ${calls} calls, each side in its own thread`);
  for (const name of names) {
    const base = name.endsWith("modern") ? "bare-modern" : "bare";
    const paired = name.startsWith("before:")
      ? ""
      : times[`before:${name}`]
        ? `; ÷ before ${(stat(name) / stat(`before:${name}`)).toFixed(3)}× (medians ${(median(times[name]) / median(times[`before:${name}`])).toFixed(3)}×)`
        : "";
    const over = !name.startsWith("bare") && Number.isFinite(stat(base)) ? `  +${(stat(name) - stat(base)).toFixed(2)} µs over ${base} (${(stat(name) / stat(base)).toFixed(2)}×)` : "";
    console.log(`  ${name.padEnd(19)} best ${stat(name).toFixed(2).padStart(6)} µs, median ${median(times[name]).toFixed(2).padStart(6)} µs${over}${paired}`);
  }
  for (const worker of workers.values()) {
    worker.postMessage("close");
    await new Promise((resolve) => worker.once("exit", resolve));
  }
}
