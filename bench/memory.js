#!/usr/bin/env node
/**
 * The in-memory section of `npm run bench` (bench/run.js runs it; alone: `node bench/memory.js`):
 * mcp-testkit's in-memory mock against the official SDK's `McpServer` over its
 * `InMemoryTransport`, side by side in the same process, with the same SDK `Client` on the
 * client end of both. See bench/README.md for what each row means.
 *
 * Plain ESM JavaScript on purpose: it measures the BUILT package (`../dist/index.js`), exactly
 * what a user installs. It re-spawns itself with `--expose-gc` (needed for the memory section
 * and to start every measured slice from a collected heap), so `npm run bench` needs no flags.
 *
 * How it stays fair on a shared, noisy machine: every section runs in rounds; in each round
 * every side runs one short slice, in an order that cycles through all permutations (so no
 * side always runs first or last); the heap is collected before each slice; ratios are taken
 * per round (both sides saw the same machine load) and the median over rounds is reported.
 *
 * Options: --quick (fewer rounds, for a smoke run), --rounds=N, --only=setup,seq,par,mem,
 *          --json=PATH (default bench/results/memory.json), --no-json.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { cpuMicros, exposedGc, fmtInt, fmtRate, fmtRatio, fmtRatioSpread, fmtUs, mean, median, percentile, permutations, quartiles, renderTable, runPlan } from "./lib/common.js";

const here = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- re-spawn with --expose-gc
const gc = exposedGc(import.meta.url);

const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
const { AjvJsonSchemaValidator } = await import("@modelcontextprotocol/sdk/validation/ajv-provider.js");
const { mockMcp, DEFAULT_RECORD_LIMIT } = await import("../dist/index.js");

// ---------------------------------------------------------------- configuration
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const quick = args.has("quick");
const sections = new Set((args.get("only") ?? "setup,seq,par,mem").split(",").flatMap((s) => (s === "memory" ? ["setup", "seq", "par", "mem"] : [s])));

const CONFIG = {
  /** Rounds per section; 24 = every order of the three sides 4 times. */
  rounds: Number(args.get("rounds") ?? (quick ? 6 : 24)),
  /** Per side: `warmup` iterations before round 1; then per round a slice of `perRound`, cut at `sliceCapMs`. */
  setup: { warmup: quick ? 100 : 400, perRound: quick ? 100 : 300, sliceCapMs: 1500, sectionCapMs: 25_000 },
  sequential: { warmup: quick ? 2000 : 6000, perRound: quick ? 2000 : 8000, sliceCapMs: 1000, sectionCapMs: 20_000, inFlight: 1 },
  parallel: { warmup: quick ? 2000 : 6000, perRound: quick ? 2000 : 8000, sliceCapMs: 1000, sectionCapMs: 20_000, inFlight: 32 },
  memory: { warmup: 2000, calls: 50_000, inFlight: 32, capMs: 10_000 },
  /** Whole-section guard: sections still to run are skipped once this is spent (the whole
   * `npm run bench`, with the HTTP and driver sections, must stay under about 4 minutes). */
  totalCapMs: 60_000,
};
const TARGETS = { callsPerSecondAtLeast: 1.5, setupAtMost: 0.5 };
const TEXT = "ok";
const CALL = { name: "echo", arguments: { text: TEXT } };

const runStarted = performance.now();
const timeLeft = () => CONFIG.totalCapMs - (performance.now() - runStarted);

// ---------------------------------------------------------------- the sides
const clientInfo = { name: "bench-client", version: "1.0.0" };
/**
 * `new Client()` builds its own Ajv instance (and so does the SDK's `Server`); most of the
 * Client's setup cost is that. The "shared validator" setup rows hand every Client (on all
 * sides alike) one validator built once, to show the servers' setup without it.
 */
const SHARED_VALIDATOR_OPTIONS = { jsonSchemaValidator: new AjvJsonSchemaValidator() };

/** mcp-testkit's mock with one tool returning "ok", on its in-memory wire. */
/** The echo tool as a static step, or as a step function answering from its argument (what most users write). */
const ECHO_STATIC = { returns: TEXT };
const ECHO_FUNCTION = (call) => ({ returns: call.arguments.text ?? TEXT });

async function connectOurs(options = {}, clientOptions = undefined, echo = ECHO_STATIC) {
  const server = await mockMcp({ transport: "memory", tools: { echo }, ...options });
  const client = new Client(clientInfo, clientOptions);
  await client.connect(await server.connectInMemory());
  return {
    server,
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The SDK's McpServer with one tool returning "ok", over the SDK's InMemoryTransport. */
async function connectSdk(clientOptions = undefined) {
  const server = new McpServer({ name: "bench-sdk-server", version: "1.0.0" });
  server.registerTool("echo", { description: "returns ok" }, async () => ({ content: [{ type: "text", text: TEXT }] }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client(clientInfo, clientOptions);
  await client.connect(clientTransport);
  return {
    server,
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/**
 * Reference only (no ratio, no target): the same SDK `Client` against a transport that answers
 * at once with canned replies: no JSON, no server logic. What the client alone costs; no server
 * on any wire can be faster than this.
 */
class NoServerTransport {
  async start() {}
  async close() {
    this.onclose?.();
  }
  async send(message) {
    if (message.id === undefined || message.method === undefined) return;
    let result = {};
    if (message.method === "initialize") {
      result = { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "no-server", version: "1.0.0" } };
    } else if (message.method === "tools/call") result = { content: [{ type: "text", text: TEXT }] };
    const reply = { jsonrpc: "2.0", id: message.id, result };
    queueMicrotask(() => this.onmessage?.(reply));
  }
}

async function connectClientAlone(clientOptions = undefined) {
  const client = new Client(clientInfo, clientOptions);
  await client.connect(new NoServerTransport());
  return {
    server: {},
    client,
    async close() {
      await client.close();
    },
  };
}

const SIDES = { ours: () => connectOurs(), oursFn: () => connectOurs({}, undefined, ECHO_FUNCTION), sdk: () => connectSdk(), floor: () => connectClientAlone() };
const SIDES_SHARED_VALIDATOR = {
  ours: () => connectOurs({}, SHARED_VALIDATOR_OPTIONS),
  oursFn: () => connectOurs({}, SHARED_VALIDATOR_OPTIONS, ECHO_FUNCTION),
  sdk: () => connectSdk(SHARED_VALIDATOR_OPTIONS),
  floor: () => connectClientAlone(SHARED_VALIDATOR_OPTIONS),
};
const SIDE_NAMES = Object.keys(SIDES);

// ---------------------------------------------------------------- helpers
/** Round r runs the sides in the r-th order of all orders: each side is first, middle and last equally often. */
const ORDERS = permutations(SIDE_NAMES);
const orderFor = (round) => ORDERS[round % ORDERS.length];

function settle() {
  gc();
  gc();
}

/** Both sides answer the same call with the same content (a sanity check, not a measurement). */
async function checkEquivalence() {
  const results = {};
  for (const side of SIDE_NAMES) {
    const pair = await SIDES[side]();
    results[side] = await pair.client.callTool(CALL);
    await pair.close();
  }
  const same = JSON.stringify(results.ours.content) === JSON.stringify(results.sdk.content);
  if (!same) throw new Error(`the servers do not answer alike: ours ${JSON.stringify(results.ours)} vs sdk ${JSON.stringify(results.sdk)}`);
  return results.ours.content;
}

/**
 * Runs `rounds` rounds of `slice(side)` for every side (order cycling), stopping early (after
 * complete rounds only, at least 2) when the section's time cap is spent.
 */
async function inRounds(sectionCapMs, slice) {
  const deadline = performance.now() + Math.min(sectionCapMs, Math.max(0, timeLeft()));
  const rounds = [];
  for (let r = 0; r < CONFIG.rounds; r++) {
    if (r >= 2 && performance.now() > deadline) break;
    const round = {};
    for (const side of orderFor(r)) {
      settle();
      round[side] = await slice(side);
    }
    rounds.push(round);
  }
  return rounds;
}

/** Per-side medians over rounds of each key, plus the per-round ratio ours/sdk (median). */
function summarize(rounds, keys, ratioKeys) {
  const median_ = {};
  for (const side of SIDE_NAMES) {
    median_[side] = {};
    for (const key of keys) median_[side][key] = median(rounds.map((round) => round[side][key]));
  }
  const ratio = {};
  const ratioQuartiles = {};
  const ratioFn = {};
  const ratioFnQuartiles = {};
  for (const key of ratioKeys) {
    const perRound = rounds.map((round) => round.ours[key] / round.sdk[key]);
    ratio[key] = median(perRound);
    ratioQuartiles[key] = quartiles(perRound);
    const perRoundFn = rounds.map((round) => round.oursFn[key] / round.sdk[key]);
    ratioFn[key] = median(perRoundFn);
    ratioFnQuartiles[key] = quartiles(perRoundFn);
  }
  return { median: median_, ratio, ratioQuartiles, ratioFn, ratioFnQuartiles };
}

// ---------------------------------------------------------------- (1) per-test setup
async function setupSlice(connect, count, capMs) {
  const samples = [];
  const deadline = performance.now() + capMs;
  const cpu0 = cpuMicros();
  for (let i = 0; i < count && performance.now() < deadline; i++) {
    const t0 = performance.now();
    const pair = await connect();
    await pair.close();
    samples.push((performance.now() - t0) * 1000); // µs
  }
  const cpuUs = cpuMicros() - cpu0;
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: samples.length, meanUs: mean(samples), p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), cpuUsEach: cpuUs / samples.length };
}

async function benchSetup(sides = SIDES, sectionCapMs = CONFIG.setup.sectionCapMs) {
  const { warmup, perRound, sliceCapMs } = CONFIG.setup;
  for (const side of SIDE_NAMES) await setupSlice(sides[side], warmup, sliceCapMs);
  const rounds = await inRounds(sectionCapMs, (side) => setupSlice(sides[side], perRound, sliceCapMs));
  for (const round of rounds) {
    // What the server side adds on top of the Client alone (the client's own cost is the same for both).
    round.ours.beyondClientUs = round.ours.meanUs - round.floor.meanUs;
    round.sdk.beyondClientUs = round.sdk.meanUs - round.floor.meanUs;
    round.floor.beyondClientUs = 0;
  }
  return { rounds, ...summarize(rounds, ["n", "meanUs", "p50Us", "p99Us", "cpuUsEach", "beyondClientUs"], ["meanUs", "p50Us", "p99Us", "cpuUsEach", "beyondClientUs"]) };
}

// ---------------------------------------------------------------- (2)+(3) tool calls per second
/** Calls `count` times (or until `capMs`), `inFlight` at a time. */
async function callSlice(client, count, capMs, inFlight) {
  let issued = 0;
  let done = 0;
  const deadline = performance.now() + capMs;
  const cpu0 = cpuMicros();
  const t0 = performance.now();
  async function worker() {
    while (issued < count && (issued & 63 || performance.now() < deadline)) {
      issued++;
      const result = await client.callTool(CALL);
      if (result.isError) throw new Error(`echo failed: ${JSON.stringify(result)}`);
      done++;
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = (cpuMicros() - cpu0) / 1e6;
  return { calls: done, seconds, perSecond: done / seconds, perCpuSecond: done / cpuSeconds };
}

async function benchCalls({ warmup, perRound, sliceCapMs, sectionCapMs, inFlight }) {
  // One connection per side for the whole section (a test's steady state), warmed up first.
  const pairs = {};
  for (const side of SIDE_NAMES) {
    pairs[side] = await SIDES[side]();
    await callSlice(pairs[side].client, warmup, sliceCapMs * 2, inFlight);
  }
  try {
    const rounds = await inRounds(sectionCapMs, (side) => callSlice(pairs[side].client, perRound, sliceCapMs, inFlight));
    return { inFlight, rounds, ...summarize(rounds, ["perSecond", "perCpuSecond", "calls"], ["perSecond", "perCpuSecond"]) };
  } finally {
    for (const side of SIDE_NAMES) await pairs[side].close();
  }
}

// ---------------------------------------------------------------- (4) memory retained per call
async function heapUsed() {
  // Let pending microtasks and immediates finish so nothing in flight is counted.
  await new Promise((resolve) => setImmediate(resolve));
  settle();
  return process.memoryUsage().heapUsed;
}

async function memoryRun(label, connect, recordLimit) {
  const { warmup, calls, inFlight, capMs } = CONFIG.memory;
  const pair = await connect();
  await callSlice(pair.client, warmup, capMs, inFlight);
  pair.server.reset?.(); // ours: empty the record, so it holds only the measured calls
  const before = await heapUsed();
  const run = await callSlice(pair.client, calls, capMs, inFlight);
  const after = await heapUsed();
  const result = {
    label,
    recordLimit,
    calls: run.calls,
    heapBeforeBytes: before,
    heapAfterBytes: after,
    retainedBytes: after - before,
    bytesPerCall: (after - before) / run.calls,
  };
  if (pair.server.recordStats !== undefined) {
    result.recordedCalls = pair.server.calls.length;
    result.recordedMessages = pair.server.messages.length;
    result.droppedCalls = pair.server.recordStats.droppedCalls;
    result.droppedMessages = pair.server.recordStats.droppedMessages;
    result.bytesPerRecordedCall = result.recordedCalls ? (after - before) / result.recordedCalls : null;
  }
  await pair.close();
  return result;
}

async function benchMemory() {
  const capped = await memoryRun("mcp-testkit, default recordLimit", () => connectOurs(), `default (${DEFAULT_RECORD_LIMIT.toLocaleString("en-US")})`);
  // "No cap": `recordLimit: Infinity`; if this build rejects Infinity, the largest safe integer (same effect).
  let unbounded = Infinity;
  try {
    await (await mockMcp({ transport: "memory", recordLimit: Infinity })).close();
  } catch {
    unbounded = Number.MAX_SAFE_INTEGER;
  }
  const unboundedLabel = unbounded === Infinity ? "Infinity" : "Number.MAX_SAFE_INTEGER (this build rejects Infinity)";
  const uncapped = await memoryRun(`mcp-testkit, recordLimit: ${unboundedLabel}`, () => connectOurs({ recordLimit: unbounded }), unboundedLabel);
  const sdk = await memoryRun("SDK McpServer (reference)", connectSdk, "n/a (keeps no record)");
  return {
    runs: [capped, uncapped, sdk],
    capHolds: capped.recordedCalls === DEFAULT_RECORD_LIMIT && capped.droppedCalls === capped.calls - DEFAULT_RECORD_LIMIT,
    uncappedKeepsAll: uncapped.recordedCalls === uncapped.calls && uncapped.droppedCalls === 0,
  };
}

// ---------------------------------------------------------------- the table
/** The median ratio with the quartiles of the per-round ratios: "1.55× (1.42–1.61)". */
/** "met" / "NOT met", and "borderline" when the middle half of the rounds straddles the target. */
const verdictText = (met, [q1, q3], target, higherIsBetter) => {
  const straddles = higherIsBetter ? q1 < target && q3 >= target : q1 <= target && q3 > target;
  return `${met ? "met" : "NOT met"}${straddles ? " (borderline)" : ""}`;
};
const mib = (bytes) => `${Math.abs(bytes) < 52_429 ? "0.0" : (bytes / 1048576).toFixed(1)} MiB`;

const HEADER = ["Measure", "mcp-testkit (ours)", "SDK McpServer", "ours / SDK (IQR)", "ours / SDK, CPU time", "Target", "Status", "SDK Client alone*"];

function buildRows(results) {
  const rows = [];
  const verdicts = {};
  const status = (met) => (met ? "met" : "NOT met");
  if (results.setup) {
    const { median: m, ratio, ratioQuartiles: q } = results.setup;
    const met = ratio.meanUs <= TARGETS.setupAtMost;
    const text = verdictText(met, q.meanUs, TARGETS.setupAtMost, false);
    verdicts.setup = { measure: "per-test setup, mean", ratio: ratio.meanUs, ratioQuartiles: q.meanUs, cpuRatio: ratio.cpuUsEach, target: `<= ${TARGETS.setupAtMost}x`, met, status: text };
    rows.push([
      "Per-test setup, mean",
      fmtUs(m.ours.meanUs),
      fmtUs(m.sdk.meanUs),
      fmtRatioSpread(ratio.meanUs, q.meanUs),
      fmtRatio(ratio.cpuUsEach),
      `≤ ${TARGETS.setupAtMost}×`,
      text,
      fmtUs(m.floor.meanUs),
    ]);
    rows.push(["Per-test setup, p50", fmtUs(m.ours.p50Us), fmtUs(m.sdk.p50Us), fmtRatio(ratio.p50Us), "", "", "", fmtUs(m.floor.p50Us)]);
    rows.push(["Per-test setup, p99", fmtUs(m.ours.p99Us), fmtUs(m.sdk.p99Us), fmtRatio(ratio.p99Us), "", "", "", fmtUs(m.floor.p99Us)]);
    rows.push(["Setup beyond the Client alone (mean − *)", fmtUs(m.ours.beyondClientUs), fmtUs(m.sdk.beyondClientUs), fmtRatio(ratio.beyondClientUs), "", "", "", "0 µs"]);
  }
  if (results.setupSharedValidator) {
    const { median: m, ratio } = results.setupSharedValidator;
    rows.push(["Setup, mean, Clients share one validator**", fmtUs(m.ours.meanUs), fmtUs(m.sdk.meanUs), fmtRatio(ratio.meanUs), fmtRatio(ratio.cpuUsEach), "(info)", "", fmtUs(m.floor.meanUs)]);
  }
  for (const [key, label] of [
    ["sequential", "Tool calls/s, sequential"],
    ["parallel", "Tool calls/s, 32 in flight"],
  ]) {
    if (!results[key]) continue;
    const { median: m, ratio, ratioQuartiles: q } = results[key];
    const met = ratio.perSecond >= TARGETS.callsPerSecondAtLeast;
    const text = verdictText(met, q.perSecond, TARGETS.callsPerSecondAtLeast, true);
    verdicts[key] = { measure: label, ratio: ratio.perSecond, ratioQuartiles: q.perSecond, cpuRatio: ratio.perCpuSecond, target: `>= ${TARGETS.callsPerSecondAtLeast}x`, met, status: text };
    rows.push([
      label,
      fmtRate(m.ours.perSecond),
      fmtRate(m.sdk.perSecond),
      fmtRatioSpread(ratio.perSecond, q.perSecond),
      fmtRatio(ratio.perCpuSecond),
      `≥ ${TARGETS.callsPerSecondAtLeast}×`,
      text,
      fmtRate(m.floor.perSecond),
    ]);
    // The same with the echo as a step function (a step function must cost what a static step costs).
    const { ratioFn, ratioFnQuartiles: qFn } = results[key];
    const metFn = ratioFn.perSecond >= TARGETS.callsPerSecondAtLeast;
    const textFn = verdictText(metFn, qFn.perSecond, TARGETS.callsPerSecondAtLeast, true);
    const labelFn = `${label}, echo as a step function`;
    verdicts[`${key}Fn`] = {
      measure: labelFn,
      ratio: ratioFn.perSecond,
      ratioQuartiles: qFn.perSecond,
      cpuRatio: ratioFn.perCpuSecond,
      target: `>= ${TARGETS.callsPerSecondAtLeast}x`,
      met: metFn,
      status: textFn,
    };
    rows.push([
      labelFn,
      fmtRate(m.oursFn.perSecond),
      fmtRate(m.sdk.perSecond),
      fmtRatioSpread(ratioFn.perSecond, qFn.perSecond),
      fmtRatio(ratioFn.perCpuSecond),
      `≥ ${TARGETS.callsPerSecondAtLeast}×`,
      textFn,
      fmtRate(m.floor.perSecond),
    ]);
  }
  if (results.memory) {
    const [capped, uncapped, sdk] = results.memory.runs;
    const n = fmtInt(capped.calls);
    const cap = results.memory.capHolds && results.memory.uncappedKeepsAll;
    verdicts.memoryCap = { measure: `record capped by recordLimit (default ${DEFAULT_RECORD_LIMIT.toLocaleString("en-US")})`, met: cap };
    rows.push([
      `Heap retained after ${n} calls, default recordLimit`,
      `${mib(capped.retainedBytes)} = ${fmtInt(capped.bytesPerCall)} B/call`,
      `${mib(sdk.retainedBytes)} = ${fmtInt(sdk.bytesPerCall)} B/call`,
      "",
      "",
      "record capped",
      `${status(cap)}: ${fmtInt(capped.recordedCalls)} kept, ${fmtInt(capped.droppedCalls)} dropped`,
      "",
    ]);
    rows.push([
      `Heap retained after ${n} calls, recordLimit: ${uncapped.recordLimit === "Infinity" ? "Infinity" : "MAX_SAFE_INTEGER†"}`,
      `${mib(uncapped.retainedBytes)} = ${fmtInt(uncapped.bytesPerCall)} B/call`,
      "",
      "",
      "",
      "",
      `${fmtInt(uncapped.recordedCalls)} kept, ${fmtInt(uncapped.droppedCalls)} dropped`,
      "",
    ]);
    rows.push(["Heap per kept record (call + its request)", `${fmtInt(capped.bytesPerRecordedCall)} B (default), ${fmtInt(uncapped.bytesPerRecordedCall)} B (no cap)`, "", "", "", "", "", ""]);
  }
  return { rows, verdicts };
}

function environment() {
  let commit = null;
  let srcDirty = null;
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: here, encoding: "utf8" }).trim();
    srcDirty = execFileSync("git", ["status", "--porcelain", "--", "../src"], { cwd: here, encoding: "utf8" }).trim() !== "";
  } catch {
    /* not a git checkout */
  }
  const sdkPackage = JSON.parse(readFileSync(path.join(here, "../node_modules/@modelcontextprotocol/sdk/package.json"), "utf8"));
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    sdkVersion: sdkPackage.version,
    gitCommit: commit,
    srcHasUncommittedChanges: srcDirty,
    loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

// ---------------------------------------------------------------- main
const env = environment();
console.log(
  `mcp-testkit bench: node ${env.node}, ${env.cpus} CPUs (${env.cpuModel}), SDK ${env.sdkVersion}, commit ${env.gitCommit}${env.srcHasUncommittedChanges ? " + uncommitted src/ changes" : ""}, load ${env.loadAverageAtStart.join(" ")}`,
);
if (env.loadAverageAtStart[0] > env.cpus * 0.75) {
  console.log("note: the machine is busy (load average above the CPU count); absolute numbers will be low and noisy, per-round ratios less so.");
}
console.log(`${CONFIG.rounds} rounds per section; sides take turns in every order; ratios are per round (same load for both), then the median.\n`);
console.log(`sanity: both servers answer echo with ${JSON.stringify(await checkEquivalence())}`);

const plan = [
  ["setup", "setup", "per-test setup", () => benchSetup()],
  ["setup", "setupSharedValidator", "per-test setup, Clients sharing one validator", () => benchSetup(SIDES_SHARED_VALIDATOR, 10_000)],
  ["seq", "sequential", "sequential calls", () => benchCalls(CONFIG.sequential)],
  ["par", "parallel", "calls with 32 in flight", () => benchCalls(CONFIG.parallel)],
  ["mem", "memory", "memory per call", benchMemory],
];
const { results, skipped } = await runPlan(plan, { wanted: sections, timeLeft, capMs: CONFIG.totalCapMs, capLabel: "run" });

const { rows, verdicts } = buildRows(results);
const table = renderTable(HEADER, rows);
const footnote = [
  ...(results.setup || results.sequential || results.parallel
    ? ["* reference, no target: the same SDK Client against a no-op transport (canned replies, no JSON, no server) — the floor no server can beat."]
    : []),
  ...(results.setupSharedValidator
    ? ["** information, no target: as the setup rows above, but every Client (all sides alike) is given one prebuilt jsonSchemaValidator instead of building its own Ajv."]
    : []),
  ...(results.memory && results.memory.runs[1].recordLimit !== "Infinity"
    ? ["† this build rejects `recordLimit: Infinity`, so the uncapped run uses Number.MAX_SAFE_INTEGER (no cap in practice)."]
    : []),
].join("\n");
console.log(`\n${table}\n\n${footnote}`);
const misses = Object.values(verdicts).filter((v) => !v.met);
const borderline = Object.values(verdicts).filter((v) => v.met && v.status?.includes("borderline"));
console.log(misses.length ? `Targets NOT met: ${misses.map((v) => v.measure).join("; ")}` : "All targets met.");
if (borderline.length) console.log(`Borderline (the middle half of the rounds straddles the target): ${borderline.map((v) => v.measure).join("; ")}`);
console.log("ours / SDK: median of the per-round ratios; in brackets the quartiles of those ratios (the middle half of the rounds).");

const report = {
  section: "memory",
  generatedAt: new Date().toISOString(),
  durationSeconds: Number(((performance.now() - runStarted) / 1000).toFixed(1)),
  environment: { ...env, loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))) },
  config: CONFIG,
  targets: TARGETS,
  verdicts,
  skipped,
  results,
  table: `${table}\n\n${footnote}`,
};
if (!args.has("no-json")) {
  const jsonPath = path.resolve(args.get("json") ?? path.join(here, "results", "memory.json"));
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  const rounded = (_key, value) => (typeof value === "number" && !Number.isInteger(value) ? Number(value.toPrecision(5)) : value);
  writeFileSync(jsonPath, `${JSON.stringify(report, rounded, 1)}\n`);
  console.log(`results written to ${path.relative(process.cwd(), jsonPath)} (${report.durationSeconds}s in all)`);
}
