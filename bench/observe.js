#!/usr/bin/env node
/**
 * The observability section of `npm run bench`, two parts:
 *
 * - overhead: server CPU per `tools/call` at concurrency 32 over HTTP, our mock with metrics and
 *   an observer on (`mockMcp({ metrics: true, observers: [noop] })`, side "ours-observed") next to
 *   the same mock with both off ("ours-json"), each in two identical processes measured in turn
 *   within each slice (bench/lib/server-set.js): no single process's luck (identical processes
 *   differ by several percent in one run) decides the ratio, and each setting's second process ÷
 *   its first is its control. Each server process is one of bench/servers/http-server.js, its CPU
 *   read inside it over IPC; one load generator (bench/lib/loadgen.js). Aim: at most 1.10× the
 *   CPU per call.
 * - simulate: one `tools/call` through `simulate(mock)` (no socket; recorder and validator on),
 *   its input built per call either as a `Request` or as a plain init object `{ method, url,
 *   headers, body }`, next to an HTTP round trip to the same mock on 127.0.0.1 (the load
 *   generator's client, one call in flight), all in this process, wall time and this process's
 *   CPU per call. Aim: the simulated call costs at most a third of the round trip (both forms
 *   are reported against it).
 *
 * Fairness as in the other sections (bench/README.md): rounds, the sides' order alternating from
 * round to round (simulate's three sides take every order in turn), ratios per round, then the
 * median and the quartiles over rounds. The server processes keep their own garbage collection
 * (`gcEachSlice` in lib/common.js); this process, the simulator's, collects before each slice. Bounded: slices
 * stop at a count or a time, parts after complete rounds (at least 2) once their cap is spent,
 * the section after 80 s (run.js kills it at 95 s).
 *
 * Options: --quick, --rounds=N, --processes=N (1–4, per setting; default 2), --only=overhead,simulate, --gc-each-slice, --json=PATH (default
 * bench/results/observe.json), --no-json.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  balancedOrders,
  banner,
  benchDir,
  cpuMicros,
  environment,
  exposedGc,
  fmtRatioSpread,
  gcEachSlice,
  median,
  parseArgs,
  quartiles,
  renderTable,
  runPlan,
  verdictText,
  writeReport,
} from "./lib/common.js";
import { ACCEPT, openSessions, runLoad } from "./lib/loadgen.js";
import { closeSetSessions, measureSet, openSetSessions, startServerSet } from "./lib/server-set.js";

const gc = exposedGc(import.meta.url);

const args = parseArgs();
const quick = args.has("quick");
const CONFIG = {
  /** Overhead: two sides and two processes each, four orders in turn; simulate (six orders) stops at its cap after whole passes. */
  rounds: Number(args.get("rounds") ?? (quick ? 8 : 40)),
  /** Processes per setting (on, off). */
  processes: Math.min(4, Math.max(1, Number(args.get("processes") ?? 2))),
  overhead: { concurrency: 32, warmup: { count: 4000, ms: quick ? 600 : 1200 }, slice: { count: 50_000, ms: quick ? 250 : 500 }, capMs: quick ? 12_000 : 45_000 },
  simulate: { warmup: quick ? 500 : 1500, slice: { count: quick ? 400 : 1000, ms: quick ? 250 : 500 }, capMs: quick ? 10_000 : 20_000 },
  totalCapMs: 80_000,
};
const TARGETS = { observedCpuAtMost: 1.1, simulatedVsHttpAtMost: 1 / 3 };
const started = performance.now();
const timeLeft = () => CONFIG.totalCapMs - (performance.now() - started);

// ---------------------------------------------------------------- server processes (bench/servers/http-server.js)

// ---------------------------------------------------------------- (1) observers and metrics on vs off
const OVERHEAD_SIDES = ["ours-json", "ours-observed"];

async function benchOverhead() {
  const { concurrency, warmup, slice, capMs } = CONFIG.overhead;
  const servers = {};
  try {
    for (const side of OVERHEAD_SIDES) {
      servers[side] = await startServerSet(side, CONFIG.processes);
      await openSetSessions(servers[side], concurrency, "legacy", warmup);
    }
    const deadline = performance.now() + Math.min(capMs, timeLeft());
    const rounds = [];
    for (let r = 0; r < CONFIG.rounds; r++) {
      // Past the cap, stop only after whole blocks of four: each order of sides and of processes equally often.
      if (r >= 4 && r % 4 === 0 && performance.now() > deadline) break;
      const round = {};
      // Two sides: every other round reverses the sides' order; every other pair of rounds, each side's processes'.
      for (const side of r % 2 === 0 ? OVERHEAD_SIDES : [...OVERHEAD_SIDES].reverse()) {
        // This process (the load generator) keeps its own collection here, as the servers do (lib/common.js, gcEachSlice).
        if (gcEachSlice(args)) gc();
        const run = await measureSet(servers[side], slice, { reverse: r % 4 >= 2, settle: gcEachSlice(args) });
        round[side] = { calls: run.calls, perSecond: run.calls / run.seconds, serverCpuUsPerCall: run.cpuUs / run.calls, perProcessCpuUsPerCall: run.perProcessCpuUsPerCall };
      }
      rounds.push(round);
    }
    const perRound = rounds.map((round) => round["ours-observed"].serverCpuUsPerCall / round["ours-json"].serverCpuUsPerCall);
    const controlOf = (side) => {
      const ratios = rounds.map((round) => round[side].perProcessCpuUsPerCall.at(-1) / round[side].perProcessCpuUsPerCall[0]);
      return { ratio: median(ratios), ratioQuartiles: quartiles(ratios) };
    };
    const med = (key, side) => median(rounds.map((round) => round[side][key]));
    return {
      concurrency,
      processes: CONFIG.processes,
      rounds,
      median: Object.fromEntries(OVERHEAD_SIDES.map((side) => [side, { serverCpuUsPerCall: med("serverCpuUsPerCall", side), perSecond: med("perSecond", side) }])),
      ratio: median(perRound),
      ratioQuartiles: quartiles(perRound),
      ...(CONFIG.processes > 1 && { control: controlOf("ours-json"), onControl: controlOf("ours-observed") }),
    };
  } finally {
    for (const set of Object.values(servers)) {
      closeSetSessions(set);
      await set.stop();
    }
  }
}

// ---------------------------------------------------------------- (2) a simulated call vs an HTTP round trip
// Three sides: the simulated call with a `Request` built per call ("simulated"), the same call given
// as a plain init object, no `Request` built ("simulated-init"), and the HTTP round trip ("http").
const SIMULATE_SIDES = ["simulated", "simulated-init", "http"];

async function benchSimulate() {
  const { mockMcp, simulate } = await import("../dist/index.js");
  const server = await mockMcp({ tools: { echo: { returns: "ok" } } });
  const [session] = await openSessions(server.url, 1);
  const sim = simulate(server);
  const url = `${new URL(server.url).origin}/mcp`;
  const headersOf = (extra) => ({ "content-type": "application/json", accept: ACCEPT, ...extra });
  const post = (body, headers = {}) => new Request(url, { method: "POST", headers: headersOf(headers), body: JSON.stringify(body) });
  const postInit = (body, headers = {}) => ({ method: "POST", url, headers: headersOf(headers), body: JSON.stringify(body) });
  const init = await sim.startRequest(post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } } }));
  const sessionId = (await init.awaitResponse(5000)).header("mcp-session-id");
  const sessionHeaders = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  await (await sim.startRequest(post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionHeaders))).awaitCompletion(5000);
  let nextId = 1;
  // Each side builds its own input per call, as a test would: the `Request`'s cost is the simulated call's.
  const simulatedCall = async (build) => {
    const simulation = await sim.startRequest(build({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "echo", arguments: {} } }, sessionHeaders));
    const completion = await simulation.awaitCompletion(5000);
    if (completion?.reason !== "completed" || completion.terminalMessage?.result === undefined) throw new Error(`a simulated call ended ${completion?.reason}`);
  };
  const simulatedSlice =
    (build) =>
    async ({ count, ms }) => {
      const deadline = performance.now() + ms;
      let calls = 0;
      while (calls < count && performance.now() < deadline) {
        await simulatedCall(build);
        calls++;
      }
      return calls;
    };
  const sides = {
    simulated: simulatedSlice(post),
    "simulated-init": simulatedSlice(postInit),
    http: async (slice) => (await runLoad([session], slice)).calls,
  };
  const orders = balancedOrders(SIMULATE_SIDES);
  try {
    for (const side of SIMULATE_SIDES) await sides[side]({ count: CONFIG.simulate.warmup, ms: 5000 });
    const deadline = performance.now() + Math.min(CONFIG.simulate.capMs, timeLeft());
    const rounds = [];
    for (let r = 0; r < CONFIG.rounds; r++) {
      // Past the cap, stop only after whole passes over the orders (every order equally often).
      if (r >= orders.length && r % orders.length === 0 && performance.now() > deadline) break;
      const round = {};
      for (const side of orders[r % orders.length]) {
        gc();
        const cpu0 = cpuMicros();
        const t0 = performance.now();
        const calls = await sides[side](CONFIG.simulate.slice);
        round[side] = { calls, wallUsPerCall: ((performance.now() - t0) * 1000) / calls, cpuUsPerCall: (cpuMicros() - cpu0) / calls };
      }
      // The recorder keeps what it saw (bounded by its maxRecords); a long run clears it between rounds.
      sim.recorder.clear();
      rounds.push(round);
    }
    const ratio = (side, key) => rounds.map((round) => round[side][key] / round.http[key]);
    const med = (key, side) => median(rounds.map((round) => round[side][key]));
    const against = (side) => ({ wall: median(ratio(side, "wallUsPerCall")), cpu: median(ratio(side, "cpuUsPerCall")) });
    const spread = (side) => ({ wall: quartiles(ratio(side, "wallUsPerCall")), cpu: quartiles(ratio(side, "cpuUsPerCall")) });
    return {
      rounds,
      median: Object.fromEntries(SIMULATE_SIDES.map((side) => [side, { wallUsPerCall: med("wallUsPerCall", side), cpuUsPerCall: med("cpuUsPerCall", side) }])),
      ratio: against("simulated"),
      ratioQuartiles: spread("simulated"),
      initRatio: against("simulated-init"),
      initRatioQuartiles: spread("simulated-init"),
    };
  } finally {
    session.close();
    sim.close();
    await server.close();
  }
}

// ---------------------------------------------------------------- run, print, write
const env = environment();
banner("observe bench", env);
const wanted = new Set((args.get("only") ?? "overhead,simulate").split(","));
const { results, skipped } = await runPlan(
  [
    ["overhead", "overhead", "observers + metrics on vs off (HTTP, concurrency 32)", benchOverhead],
    ["simulate", "simulate", "a simulated tools/call vs an HTTP round trip", benchSimulate],
  ],
  { wanted, timeLeft, capMs: CONFIG.totalCapMs },
);

const rows = [];
const verdicts = {};
if (results.overhead) {
  const o = results.overhead;
  const met = o.ratio <= TARGETS.observedCpuAtMost;
  verdicts.overhead = {
    measure: "server CPU per tools/call, observers + metrics on / off, concurrency 32",
    ratio: o.ratio,
    ratioQuartiles: o.ratioQuartiles,
    target: "<= 1.10x",
    met,
    status: verdictText(met, o.ratioQuartiles, TARGETS.observedCpuAtMost, false),
  };
  rows.push([
    `server CPU per tools/call, concurrency 32 (${o.processes} processes each)`,
    `${o.median["ours-observed"].serverCpuUsPerCall.toFixed(1)} µs (on)`,
    `${o.median["ours-json"].serverCpuUsPerCall.toFixed(1)} µs (off)`,
    fmtRatioSpread(o.ratio, o.ratioQuartiles),
    "≤ 1.10×",
    verdicts.overhead.status,
  ]);
  if (o.control) {
    rows.push(["control: the unobserved mock, its second process ÷ its first", "", "", fmtRatioSpread(o.control.ratio, o.control.ratioQuartiles), "(noise floor)", ""]);
    rows.push(["control: the observed mock, its second process ÷ its first", "", "", fmtRatioSpread(o.onControl.ratio, o.onControl.ratioQuartiles), "(noise floor)", ""]);
  }
}
if (results.simulate) {
  const s = results.simulate;
  const met = s.ratio.wall <= TARGETS.simulatedVsHttpAtMost;
  const initMet = s.initRatio.wall <= TARGETS.simulatedVsHttpAtMost;
  verdicts.simulate = {
    measure: "a simulated tools/call (a Request built per call) / an HTTP round trip to the same mock (wall time)",
    ratio: s.ratio.wall,
    ratioQuartiles: s.ratioQuartiles.wall,
    target: "<= 0.33x",
    met,
    status: verdictText(met, s.ratioQuartiles.wall, TARGETS.simulatedVsHttpAtMost, false),
  };
  verdicts.simulateInit = {
    measure: "a simulated tools/call (a plain init object, no Request) / an HTTP round trip to the same mock (wall time)",
    ratio: s.initRatio.wall,
    ratioQuartiles: s.initRatioQuartiles.wall,
    target: "<= 0.33x",
    met: initMet,
    status: verdictText(initMet, s.initRatioQuartiles.wall, TARGETS.simulatedVsHttpAtMost, false),
  };
  const http = s.median.http;
  rows.push([
    "tools/call, wall time per call (Request per call)",
    `${s.median.simulated.wallUsPerCall.toFixed(1)} µs (simulated)`,
    `${http.wallUsPerCall.toFixed(1)} µs (HTTP)`,
    fmtRatioSpread(s.ratio.wall, s.ratioQuartiles.wall),
    "≤ 0.33×",
    verdicts.simulate.status,
  ]);
  rows.push([
    "tools/call, wall time per call (init object)",
    `${s.median["simulated-init"].wallUsPerCall.toFixed(1)} µs (simulated)`,
    `${http.wallUsPerCall.toFixed(1)} µs (HTTP)`,
    fmtRatioSpread(s.initRatio.wall, s.initRatioQuartiles.wall),
    "≤ 0.33×",
    verdicts.simulateInit.status,
  ]);
  rows.push([
    "tools/call, CPU per call (this process, Request per call)",
    `${s.median.simulated.cpuUsPerCall.toFixed(1)} µs`,
    `${http.cpuUsPerCall.toFixed(1)} µs`,
    fmtRatioSpread(s.ratio.cpu, s.ratioQuartiles.cpu),
    "(info)",
    "",
  ]);
  rows.push([
    "tools/call, CPU per call (this process, init object)",
    `${s.median["simulated-init"].cpuUsPerCall.toFixed(1)} µs`,
    `${http.cpuUsPerCall.toFixed(1)} µs`,
    fmtRatioSpread(s.initRatio.cpu, s.initRatioQuartiles.cpu),
    "(info)",
    "",
  ]);
}
const header = ["Measure", "ours", "reference", "ratio (IQR)", "aim", "status"];
console.log(`\n${renderTable(header, rows)}`);
const durationSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
if (!args.has("no-json")) {
  writeReport(args.get("json") ?? path.join(benchDir, "results", "observe.json"), {
    generatedAt: new Date().toISOString(),
    durationSeconds,
    environment: env,
    config: CONFIG,
    skipped,
    verdicts,
    table: { header, rows },
    results,
  });
}
