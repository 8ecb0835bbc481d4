#!/usr/bin/env node
/**
 * The driver section of `npm run bench`: our `mcpShell` next to expect-mcp's `mcpShell`
 * and the SDK's `StdioClientTransport` + `Client`, in the same run, against the same minimal
 * stdio server (bench/servers/minimal-stdio.mjs: one tool, no SDK, exits on stdin close):
 *
 * - per-test setup: spawn + initialize + tools/list + close (close timed apart as well);
 * - tool calls per second over stdio, sequential and with 32 in flight, on open connections, with
 *   a hand-written JSON-RPC client beside them (no validation, record or timeout: about the least
 *   a client can do on this pipe and server, a reference row);
 * - where a sequential call's time goes, per side: the client's turn (answer read → next request
 *   written), the write, the client's own work after the write, and the server's turn (from then
 *   to the answer read: its work and the wake-ups), timed on the child's pipes in a pass of its own
 *   (one connection per side, so one server process's luck is in it);
 * - what each close() leaves behind: how long a script that ends right after close() takes to exit.
 *
 * The same environment for every child: the SDK passes only a few variables (its
 * `getDefaultEnvironment()`: HOME, LOGNAME, PATH, SHELL, TERM, USER) while our driver and
 * expect-mcp pass the whole environment by default, and NODE_EXTRA_CA_CERTS (set on this machine)
 * costs every Node start tens of milliseconds. So every side's child gets exactly the SDK's
 * default environment: the SDK by default, expect-mcp through its `env` spawn option (it replaces
 * the environment), ours through `env` (merged over this process's, `undefined` removes a
 * variable, so every other variable is set to `undefined`). The server reports the variable names
 * it sees (in `instructions`) and the run checks they match. Two reference rows show our driver
 * with the whole environment (its default) and without a shell (`MCPStdinSubprocess`).
 *
 * Fairness as in the other sections: rounds, sides taking turns in a balanced order, per-round
 * ratios, medians and quartiles, CPU time of this process (the client side) as a second measure.
 *
 * Calls per second are measured over two connections per side (`--processes=N`, 1–4), each with
 * a server process of its own, taking turns within each slice: a sequential call waits on its
 * server process, and two identical ones differ by a few percent in one run, so one process's
 * luck weighs half (the second ÷ the first is the side's control column).
 *
 * Options: --quick, --rounds=N, --processes=N, --only=setup,calls,exit, --json=PATH (default
 * bench/results/driver.json), --no-json.
 */
import { ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import {
  balancedOrders,
  banner,
  benchDir,
  cpuMicros,
  environment,
  fmtMs,
  fmtRate,
  fmtRatio,
  fmtRatioSpread,
  fmtUs,
  mean,
  median,
  parseArgs,
  percentile,
  quartiles,
  renderTable,
  summarizeAgainst,
  verdictText,
  within,
  readJsonLines,
  runPlan,
  writeReport,
} from "./lib/common.js";

const { mcpShell, MCPStdinSubprocess } = await import("../dist/index.js");
const expectMcp = await import("expect-mcp");
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");

const SERVER_SCRIPT = path.join(benchDir, "servers", "minimal-stdio.mjs");
/** For the two `mcpShell`s (both run it with the system shell). */
const SHELL_COMMAND = `"${process.execPath}" "${SERVER_SCRIPT}"`;
/** The environment every side's server gets: the SDK's default one. */
const CHILD_ENV = getDefaultEnvironment();
/** Ours merges `env` over process.env; `undefined` removes a variable: this leaves exactly CHILD_ENV. */
const OURS_ENV = { ...Object.fromEntries(Object.keys(process.env).map((key) => [key, undefined])), ...CHILD_ENV };
const CALL_ARGS = {};

const check = (text, side) => {
  if (text !== "ok") throw new Error(`${side}: echo answered ${JSON.stringify(text)}`);
};

/** Each side: `open()` spawns, initializes and lists tools; the handle calls and closes. */
const DRIVERS = {
  ours: {
    label: "mcp-testkit mcpShell",
    async open() {
      const driver = mcpShell(SHELL_COMMAND, { env: OURS_ENV });
      await driver.initialize();
      const tools = await driver.getTools();
      return {
        tools: tools.length,
        instructions: driver.getInitializeResult()?.instructions,
        call: async () => check((await driver.callTool("echo", CALL_ARGS)).content[0]?.text, "ours"),
        close: () => driver.close(),
      };
    },
  },
  expect: {
    label: "expect-mcp mcpShell",
    async open() {
      const driver = expectMcp.mcpShell(SHELL_COMMAND, { env: CHILD_ENV });
      await driver.initialize();
      const tools = await driver.getTools();
      return {
        tools: tools.length,
        instructions: driver.getInitializeResult()?.instructions,
        call: async () => check((await driver.callTool("echo", CALL_ARGS)).content[0]?.text, "expect-mcp"),
        close: () => driver.close(),
      };
    },
  },
  sdk: {
    label: "SDK StdioClientTransport + Client",
    async open() {
      const client = new Client({ name: "bench-client", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER_SCRIPT] }));
      const { tools } = await client.listTools();
      return {
        tools: tools.length,
        instructions: client.getInstructions(),
        call: async () => check((await client.callTool({ name: "echo", arguments: CALL_ARGS })).content[0]?.text, "sdk"),
        close: () => client.close(),
      };
    },
  },
  raw: {
    label: "hand-written JSON-RPC, no checks or records (minimal)†",
    async open() {
      return openHandWritten();
    },
  },
  "ours-noshell": {
    label: "mcp-testkit MCPStdinSubprocess (no shell)†",
    async open() {
      const driver = new MCPStdinSubprocess({ command: process.execPath, args: [SERVER_SCRIPT], env: OURS_ENV });
      await driver.initialize();
      const tools = await driver.getTools();
      return { tools: tools.length, instructions: driver.getInitializeResult()?.instructions, call: async () => {}, close: () => driver.close() };
    },
  },
  "ours-fullenv": {
    label: "mcp-testkit mcpShell, whole environment (its default)†",
    async open() {
      const driver = mcpShell(SHELL_COMMAND);
      await driver.initialize();
      const tools = await driver.getTools();
      return { tools: tools.length, instructions: driver.getInitializeResult()?.instructions, call: async () => {}, close: () => driver.close() };
    },
  },
};
const MAIN = ["ours", "expect", "sdk"];
/** The calls sections add the hand-written client: how fast a client that does nothing else can go here. */
const CALL_SIDES = [...MAIN, "raw"];
const SETUP_SIDES = [...MAIN, "ours-noshell", "ours-fullenv"];

const fmtUs1 = (us) => `${us.toFixed(1)} µs`;

/**
 * The process the last `open()` spawned (for the drivers that keep theirs to themselves): the
 * turns pass watches its pipes. Only noted here, nothing about the spawn changes.
 */
let lastSpawned;
const spawnChild = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (...args) {
  lastSpawned = this;
  return spawnChild.apply(this, args);
};

/**
 * Times each call's turns on a child's pipes while `on`: answer read → next write (the client),
 * the write, the client's own work after it (until its tick ends: a `setImmediate`, the same on
 * every side), and from then to the answer read (the server and the wake-ups).
 */
function watchTurns(child, into) {
  let readAt = 0;
  let wroteAt = 0;
  let idleAt = 0;
  const idle = () => {
    idleAt = performance.now();
    if (watch.on && wroteAt) into.after.push((idleAt - wroteAt) * 1000);
  };
  const watch = {
    on: false,
    /** Watching from the next write: a turn begun before (the last slice's answer) is not timed. */
    start() {
      readAt = 0;
      wroteAt = 0;
      idleAt = 0;
      watch.on = true;
    },
  };
  child.stdout.prependListener("data", () => {
    readAt = performance.now();
    if (watch.on && wroteAt && idleAt) into.server.push((readAt - idleAt) * 1000);
    wroteAt = 0;
    idleAt = 0;
  });
  const write = child.stdin.write;
  child.stdin.write = function (...args) {
    const start = performance.now();
    if (watch.on && readAt) into.client.push((start - readAt) * 1000);
    readAt = 0;
    const written = write.apply(this, args);
    wroteAt = performance.now();
    idleAt = 0;
    if (watch.on) into.write.push((wroteAt - start) * 1000);
    setImmediate(idle);
    return written;
  };
  return watch;
}

/**
 * A client that does only what a call needs: one line out, split the answer at the newline, parse
 * it, match its id. No validation, no record, no timeout: what the pipe and the server allow.
 */
async function openHandWritten() {
  const child = spawn(process.execPath, [SERVER_SCRIPT], { env: CHILD_ENV, stdio: ["pipe", "pipe", "inherit"] });
  const waiting = new Map();
  let gone;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // A server that goes fails what waits on it, at once.
  const fail = (error) => {
    gone = error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  child.once("exit", (code, signal) => fail(new Error(`raw: the server exited (${code ?? signal})`)));
  child.once("error", fail);
  child.stdin.on("error", fail);
  let nextId = 1;
  readJsonLines(child.stdout, (message) => {
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    pending?.resolve(message);
  });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      if (gone) return reject(gone);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin.end();
      await within(exited, 5_000, "raw: exit after stdin closed").catch(() => child.kill("SIGKILL"));
    }
  };
  let init;
  let listed;
  try {
    init = await within(request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-raw", version: "1.0.0" } }), 10_000, "raw: initialize");
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    listed = await within(request("tools/list", {}), 10_000, "raw: tools/list");
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    tools: listed.result.tools.length,
    instructions: init.result.instructions,
    child,
    call: async () => check((await request("tools/call", { name: "echo", arguments: CALL_ARGS })).result.content[0]?.text, "raw"),
    close,
  };
}

// ---------------------------------------------------------------- child mode: the exit probe
if (process.env.MCP_TESTKIT_BENCH_EXIT_PROBE) {
  const side = process.env.MCP_TESTKIT_BENCH_EXIT_PROBE;
  const handle = await DRIVERS[side].open();
  await handle.call();
  await handle.close();
  // The parent times from this line to this process's exit: what close() left running.
  console.log(JSON.stringify({ closedAt: Date.now() }));
  // No process.exit(): the process ends when nothing is left on its event loop.
} else {
  await main();
}

async function main() {
  const args = parseArgs();
  const quick = args.has("quick");
  const parts = new Set((args.get("only") ?? "setup,calls,exit").split(","));
  const CONFIG = {
    rounds: Number(args.get("rounds") ?? (quick ? 5 : 10)),
    /** Calls: connections (each with its server process) per side, taking turns within each slice. */
    processes: Math.min(4, Math.max(1, Number(args.get("processes") ?? 2))),
    /** Per side: warm-up setups, then per round a slice of `perRound` setups cut at `sliceCapMs`. */
    setup: { warmup: quick ? 2 : 4, perRound: quick ? 3 : 5, sliceCapMs: 2000, sectionCapMs: quick ? 15_000 : 30_000 },
    sequential: { warmup: 3000, perRound: 20_000, sliceCapMs: quick ? 200 : 300, sectionCapMs: quick ? 10_000 : 22_000, inFlight: 1, rounds: quick ? 8 : 16 },
    parallel: { warmup: 3000, perRound: 50_000, sliceCapMs: quick ? 200 : 300, sectionCapMs: quick ? 10_000 : 22_000, inFlight: 32, rounds: quick ? 8 : 16 },
    exitProbeCapMs: 15_000,
    totalCapMs: 100_000,
  };
  // calls/s vs the SDK: at least 1.2x, sequential and 32 in flight.
  const TARGETS = { setupVsSdkAtMost: 1, setupVsExpectBelow: 1, callsVsSdkAtLeast: 1.2, callsVsExpectAbove: 1 };
  const runStarted = performance.now();
  const timeLeft = () => CONFIG.totalCapMs - (performance.now() - runStarted);

  const env = environment();
  banner("mcp-testkit bench, driver (stdio)", env);
  console.log(`child environment for every side: ${Object.keys(CHILD_ENV).sort().join(", ")} (the SDK's default); NODE_EXTRA_CA_CERTS here: ${env.nodeExtraCaCerts}`);

  // ---- sanity: every side lists the one tool, answers echo, and its server saw the same environment
  const seen = {};
  for (const side of SETUP_SIDES) {
    const handle = await within(DRIVERS[side].open(), 10_000, `${side}: open`);
    await handle.call();
    await handle.close();
    if (handle.tools !== 1) throw new Error(`${side}: tools/list gave ${handle.tools} tools`);
    seen[side] = (handle.instructions ?? "")
      .replace(/^env: /, "")
      .split(",")
      .filter((name) => name !== "PWD" && name !== "SHLVL" && name !== "_");
  }
  {
    const handle = await DRIVERS.raw.open();
    await handle.call();
    await handle.close();
    if (handle.tools !== 1) throw new Error(`raw: tools/list gave ${handle.tools} tools`);
  }
  const same = MAIN.every((side) => seen[side].join() === seen.sdk.join()) && seen["ours-noshell"].join() === seen.sdk.join();
  if (!same) throw new Error(`the servers did not get the same environment: ${JSON.stringify(seen)}`);
  console.log(
    `sanity: every side lists 1 tool and answers echo "ok"; every server saw ${seen.sdk.join(",")} (+ PWD set by the shell); the whole-environment row passes ${seen["ours-fullenv"].length} variables${seen["ours-fullenv"].includes("NODE_EXTRA_CA_CERTS") ? " including NODE_EXTRA_CA_CERTS" : ""}\n`,
  );

  // ---- (1) per-test setup: spawn + initialize + tools/list, then close
  async function setupSlice(side, count, capMs) {
    const open = [];
    const close = [];
    const total = [];
    const deadline = performance.now() + capMs;
    const cpu0 = cpuMicros();
    for (let i = 0; i < count && performance.now() < deadline; i++) {
      const t0 = performance.now();
      const handle = await within(DRIVERS[side].open(), 10_000, `${side}: open`);
      const t1 = performance.now();
      await within(handle.close(), 10_000, `${side}: close`);
      const t2 = performance.now();
      open.push((t1 - t0) * 1000);
      close.push((t2 - t1) * 1000);
      total.push((t2 - t0) * 1000);
    }
    const cpuUs = cpuMicros() - cpu0;
    const sorted = [...total].sort((a, b) => a - b);
    return { n: total.length, meanUs: mean(total), p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), openUs: mean(open), closeUs: mean(close), cpuUsEach: cpuUs / total.length };
  }

  async function benchSetup() {
    const { warmup, perRound, sliceCapMs, sectionCapMs } = CONFIG.setup;
    for (const side of SETUP_SIDES) await setupSlice(side, warmup, sliceCapMs);
    const orders = balancedOrders(SETUP_SIDES);
    const deadline = performance.now() + Math.min(sectionCapMs, Math.max(0, timeLeft()));
    const rounds = [];
    for (let r = 0; r < CONFIG.rounds; r++) {
      if (r >= 2 && performance.now() > deadline) break;
      const round = {};
      for (const side of orders[r % orders.length]) round[side] = await setupSlice(side, perRound, sliceCapMs);
      rounds.push(round);
    }
    const keys = ["n", "meanUs", "p50Us", "p99Us", "openUs", "closeUs", "cpuUsEach"];
    return {
      rounds,
      vsSdk: summarizeAgainst(rounds, SETUP_SIDES, "sdk", keys, ["meanUs", "openUs", "closeUs", "cpuUsEach"]),
      vsExpect: summarizeAgainst(rounds, SETUP_SIDES, "expect", keys, ["meanUs", "openUs", "closeUs", "cpuUsEach"]),
    };
  }

  // ---- (2) tool calls per second
  async function callSlice(handle, count, capMs, inFlight) {
    let issued = 0;
    let done = 0;
    const deadline = performance.now() + capMs;
    const cpu0 = cpuMicros();
    const t0 = performance.now();
    async function worker() {
      while (issued < count && (issued & 63 || performance.now() < deadline)) {
        issued++;
        await handle.call();
        done++;
      }
    }
    await Promise.all(Array.from({ length: inFlight }, worker));
    const seconds = (performance.now() - t0) / 1000;
    const cpuUs = cpuMicros() - cpu0;
    return { calls: done, seconds, perSecond: done / seconds, cpuUsPerCall: cpuUs / done };
  }

  /**
   * One side's slice over its connections (each with a server process of its own), in turn, the
   * order reversed every other round: the side's calls over its time, and each connection's own
   * calls/s (the last ÷ the first is the side's control).
   */
  async function sideSlice(connections, perRound, sliceCapMs, inFlight, reverse) {
    const order = reverse ? [...connections].reverse() : connections;
    const parts = [];
    for (const handle of order) parts.push(await callSlice(handle, Math.ceil(perRound / connections.length), sliceCapMs / connections.length, inFlight));
    if (reverse) parts.reverse();
    const calls = parts.reduce((sum, part) => sum + part.calls, 0);
    const seconds = parts.reduce((sum, part) => sum + part.seconds, 0);
    const cpuUs = parts.reduce((sum, part) => sum + part.cpuUsPerCall * part.calls, 0);
    return { calls, seconds, perSecond: calls / seconds, cpuUsPerCall: cpuUs / calls, perConnectionPerSecond: parts.map((part) => part.perSecond) };
  }

  async function benchCalls({ warmup, perRound, sliceCapMs, sectionCapMs, inFlight, rounds: wanted }) {
    const handles = {};
    try {
      for (const side of CALL_SIDES) {
        handles[side] = [];
        for (let i = 0; i < CONFIG.processes; i++) {
          const handle = await DRIVERS[side].open();
          handles[side].push(handle);
          await callSlice(handle, warmup, sliceCapMs * 3, inFlight);
        }
      }
      const orders = balancedOrders(CALL_SIDES);
      const cycle = orders.length % 2 === 0 ? orders.length * 2 : orders.length;
      const deadline = performance.now() + Math.min(sectionCapMs, Math.max(0, timeLeft()));
      const rounds = [];
      for (let r = 0; r < wanted; r++) {
        // Past the cap, stop only after whole cycles of both connection orders (so every side
        // order has run each connection first equally often).
        if (r >= cycle && r % cycle === 0 && performance.now() > deadline) break;
        const round = {};
        // The connection order flips every round and, with an even number of side orders, once
        // more each cycle: each side order meets both connection orders.
        const reverse = orders.length % 2 === 0 ? (r + Math.floor(r / orders.length)) % 2 === 1 : r % 2 === 1;
        for (const side of orders[r % orders.length]) round[side] = await sideSlice(handles[side], perRound, sliceCapMs, inFlight, reverse);
        rounds.push(round);
      }
      const controls = {};
      if (CONFIG.processes > 1) {
        for (const side of CALL_SIDES) {
          const ratios = rounds.map((round) => round[side].perConnectionPerSecond.at(-1) / round[side].perConnectionPerSecond[0]);
          controls[side] = { median: median(ratios), quartiles: quartiles(ratios) };
        }
      }
      const keys = ["perSecond", "cpuUsPerCall", "calls"];
      return {
        inFlight,
        processes: CONFIG.processes,
        rounds,
        controls,
        vsSdk: summarizeAgainst(rounds, CALL_SIDES, "sdk", keys, ["perSecond", "cpuUsPerCall"]),
        vsExpect: summarizeAgainst(rounds, CALL_SIDES, "expect", keys, ["perSecond", "cpuUsPerCall"]),
      };
    } finally {
      for (const handle of Object.values(handles).flat()) await handle.close().catch(() => undefined);
    }
  }

  // ---- (2b) where a sequential call's time goes, side by side: the client's turn (its answer read,
  // to its next request written), the write, and the server's turn (written, to the answer read:
  // the server's work and both wake-ups). Watched on the child's pipes, in a pass of its own so
  // the calls/s above carry no watching.
  async function benchTurns() {
    const turns = Object.fromEntries(CALL_SIDES.map((side) => [side, { client: [], write: [], after: [], server: [], wallUs: [] }]));
    const handles = {};
    const deadline = performance.now() + Math.min(20_000, Math.max(0, timeLeft()));
    try {
      for (const side of CALL_SIDES) {
        const handle = await DRIVERS[side].open();
        const child = handle.child ?? lastSpawned;
        handles[side] = { handle, watch: watchTurns(child, turns[side]) };
        await callSlice(handle, 2000, 2000, 1);
      }
      // Two cycles of the balanced orders, the second stopping short once the time is spent.
      const orders = balancedOrders(CALL_SIDES);
      for (const [index, order] of [...orders, ...orders].entries()) {
        if (index >= orders.length && performance.now() > deadline) break;
        for (const side of order) {
          const { handle, watch } = handles[side];
          watch.start();
          const slice = await callSlice(handle, 1000, 600, 1);
          watch.on = false;
          turns[side].wallUs.push(1e6 / slice.perSecond);
        }
      }
    } finally {
      for (const { handle } of Object.values(handles)) await handle.close().catch(() => undefined);
    }
    return Object.fromEntries(
      CALL_SIDES.map((side) => {
        const t = turns[side];
        // Means, so that the turns add up to the time per call (the server's turn is bimodal:
        // quick while its core is awake, slow when it must first be woken).
        const p50 = (values) =>
          percentile(
            [...values].sort((a, b) => a - b),
            50,
          );
        return [
          side,
          { clientUs: mean(t.client), writeUs: mean(t.write), afterWriteUs: mean(t.after), serverUs: mean(t.server), serverP50Us: p50(t.server), wallUs: mean(t.wallUs), samples: t.client.length },
        ];
      }),
    );
  }

  // ---- (3) what close() leaves running: a script that ends right after close()
  function exitProbe(side) {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, MCP_TESTKIT_BENCH_EXIT_PROBE: side }, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk) => (out += chunk));
      const timer = setTimeout(() => child.kill("SIGKILL"), CONFIG.exitProbeCapMs);
      child.on("exit", (code, signal) => {
        const exitedAt = Date.now();
        clearTimeout(timer);
        let closedAt;
        try {
          closedAt = JSON.parse(out.trim().split("\n").pop()).closedAt;
        } catch {
          /* no line: it failed */
        }
        resolve({ side, code, signal, lingerMs: closedAt === undefined ? NaN : exitedAt - closedAt, killedAtCap: signal === "SIGKILL" });
      });
    });
  }

  // ---- run
  const plan = [
    ["setup", "setup", "per-test setup (spawn + initialize + tools/list + close)", benchSetup],
    ["calls", "sequential", "sequential calls", () => benchCalls(CONFIG.sequential)],
    ["calls", "parallel", "calls with 32 in flight", () => benchCalls(CONFIG.parallel)],
    ["calls", "turns", "where a sequential call's time goes", benchTurns],
    ["exit", "exit", "time to process exit after close()", async () => Promise.all(MAIN.map(exitProbe))],
  ];
  const { results, skipped } = await runPlan(plan, { wanted: parts, timeLeft, capMs: CONFIG.totalCapMs, capLabel: "section" });

  // ---- tables
  const verdicts = {};
  const tables = [];
  if (results.setup) {
    const { vsSdk, vsExpect } = results.setup;
    const header = ["Per-test setup (stdio)", "mean", "p50", "p99", "spawn + init + list", "close", "CPU (client) per setup", "mean ÷ SDK (IQR)", "mean ÷ expect-mcp (IQR)", "Aim"];
    const rows = [];
    for (const side of SETUP_SIDES) {
      const m = vsSdk.median[side];
      let aim = "";
      if (side === "ours") {
        const rs = vsSdk.ratio.ours.meanUs;
        const qs = vsSdk.ratioQuartiles.ours.meanUs;
        const re = vsExpect.ratio.ours.meanUs;
        const qe = vsExpect.ratioQuartiles.ours.meanUs;
        const metSdk = rs <= TARGETS.setupVsSdkAtMost;
        const metExpect = re < TARGETS.setupVsExpectBelow;
        verdicts.setupVsSdk = { measure: "setup: ours no slower than the SDK", ratio: rs, ratioQuartiles: qs, target: "<= 1x", met: metSdk, status: verdictText(metSdk, qs, 1, false) };
        verdicts.setupVsExpect = { measure: "setup: ours faster than expect-mcp", ratio: re, ratioQuartiles: qe, target: "< 1x", met: metExpect, status: verdictText(metExpect, qe, 1, false) };
        aim = `vs SDK ≤ 1×: ${verdicts.setupVsSdk.status}; vs expect-mcp < 1×: ${verdicts.setupVsExpect.status}`;
      }
      rows.push([
        DRIVERS[side].label,
        fmtMs(m.meanUs / 1000),
        fmtMs(m.p50Us / 1000),
        fmtMs(m.p99Us / 1000),
        fmtMs(m.openUs / 1000),
        fmtMs(m.closeUs / 1000),
        fmtMs(m.cpuUsEach / 1000, 2),
        side === "sdk" ? "1.00×" : fmtRatioSpread(vsSdk.ratio[side].meanUs, vsSdk.ratioQuartiles[side].meanUs),
        side === "expect" ? "1.00×" : fmtRatioSpread(vsExpect.ratio[side].meanUs, vsExpect.ratioQuartiles[side].meanUs),
        aim,
      ]);
    }
    tables.push(renderTable(header, rows));
  }
  if (results.sequential || results.parallel) {
    const header = ["Tool calls over stdio", "Driver", "calls/s", "client CPU per call", "calls/s ÷ SDK (IQR)", "calls/s ÷ expect-mcp (IQR)", "Control: 2nd ÷ 1st connection (IQR)", "Aim"];
    const rows = [];
    for (const [key, label] of [
      ["sequential", "sequential"],
      ["parallel", "32 in flight"],
    ]) {
      const result = results[key];
      if (!result) continue;
      const { vsSdk, vsExpect } = result;
      for (const side of CALL_SIDES) {
        const m = vsSdk.median[side];
        let aim = "";
        if (side === "ours") {
          const rs = vsSdk.ratio.ours.perSecond;
          const qs = vsSdk.ratioQuartiles.ours.perSecond;
          const re = vsExpect.ratio.ours.perSecond;
          const qe = vsExpect.ratioQuartiles.ours.perSecond;
          const metSdk = rs >= TARGETS.callsVsSdkAtLeast;
          const metExpect = re > TARGETS.callsVsExpectAbove;
          verdicts[`${key}VsSdk`] = {
            measure: `calls/s ${label}: ours at least ${TARGETS.callsVsSdkAtLeast}x the SDK`,
            ratio: rs,
            ratioQuartiles: qs,
            target: `>= ${TARGETS.callsVsSdkAtLeast}x`,
            met: metSdk,
            status: verdictText(metSdk, qs, TARGETS.callsVsSdkAtLeast, true),
          };
          verdicts[`${key}VsExpect`] = {
            measure: `calls/s ${label}: ours faster than expect-mcp`,
            ratio: re,
            ratioQuartiles: qe,
            target: "> 1x",
            met: metExpect,
            status: verdictText(metExpect, qe, 1, true),
          };
          aim = `vs SDK ≥ ${TARGETS.callsVsSdkAtLeast}×: ${verdicts[`${key}VsSdk`].status}; vs expect-mcp > 1×: ${verdicts[`${key}VsExpect`].status}`;
        }
        rows.push([
          label,
          DRIVERS[side].label,
          fmtRate(m.perSecond),
          fmtUs(m.cpuUsPerCall),
          side === "sdk" ? "1.00×" : fmtRatioSpread(vsSdk.ratio[side].perSecond, vsSdk.ratioQuartiles[side].perSecond),
          side === "expect" ? "1.00×" : fmtRatioSpread(vsExpect.ratio[side].perSecond, vsExpect.ratioQuartiles[side].perSecond),
          result.controls[side] ? fmtRatioSpread(result.controls[side].median, result.controls[side].quartiles) : "(one connection)",
          aim,
        ]);
      }
    }
    tables.push(renderTable(header, rows));
  }
  if (results.turns) {
    const header = [
      "A sequential call, side by side (means)",
      "client's turn: answer read → next request written",
      "the write",
      "the client's work after the write",
      "server's turn: then → answer read (p50)",
      "time per call",
    ];
    const rows = CALL_SIDES.map((side) => {
      const t = results.turns[side];
      return [DRIVERS[side].label, fmtUs1(t.clientUs), fmtUs1(t.writeUs), fmtUs1(t.afterWriteUs), `${fmtUs1(t.serverUs)} (${fmtUs1(t.serverP50Us)})`, fmtUs1(t.wallUs)];
    });
    tables.push(renderTable(header, rows));
  }
  if (results.exit) {
    const header = ["A script that ends right after close()", "exits after close() resolved", "exit code"];
    tables.push(
      renderTable(
        header,
        results.exit.map((probe) => [DRIVERS[probe.side].label, probe.killedAtCap ? `killed at ${CONFIG.exitProbeCapMs / 1000} s` : fmtMs(probe.lingerMs, 0), String(probe.code)]),
      ),
    );
  }
  const notes = [
    "Every side's server got the same environment (the SDK's default set; the shell adds PWD). † reference rows, no aim.",
    "÷: median of the per-round ratios (quartiles in brackets). Setup: lower is better; calls/s: higher is better.",
  ];
  console.log(`\n${tables.join("\n\n")}\n\n${notes.join("\n")}`);
  const misses = Object.values(verdicts).filter((v) => !v.met);
  console.log(misses.length ? `Aims NOT met: ${misses.map((v) => `${v.measure} (${fmtRatio(v.ratio)})`).join("; ")}` : "All driver aims met.");

  const report = {
    section: "driver",
    generatedAt: new Date().toISOString(),
    durationSeconds: Number(((performance.now() - runStarted) / 1000).toFixed(1)),
    environment: env,
    childEnvironment: Object.keys(CHILD_ENV).sort(),
    serverSaw: seen,
    config: CONFIG,
    targets: TARGETS,
    verdicts,
    skipped,
    results,
    table: `${tables.join("\n\n")}\n\n${notes.join("\n")}`,
  };
  if (!args.has("no-json")) {
    const jsonPath = path.resolve(args.get("json") ?? path.join(benchDir, "results", "driver.json"));
    writeReport(jsonPath, report);
    console.log(`results written to ${path.relative(process.cwd(), jsonPath)} (${report.durationSeconds}s in all)`);
  }
  // expect-mcp's close() leaves a 5 s timer per process (see the exit rows): do not wait for them.
  process.exit(0);
}
