#!/usr/bin/env node
/**
 * The Streamable HTTP section of `npm run bench`: `tools/call` requests per second,
 * p50/p99 latency and server CPU time per call, at concurrency 1 and 32, with one load generator
 * (bench/lib/loadgen.js, in this process) against nine servers, each in processes of its own
 * (bench/servers/http-server.js): our mock answering JSON (a static step and a step function)
 * and answering SSE, our mock answering 2026-07-28 calls (no session, headers checked),
 * aimock's MCPMock, the SDK's McpServer + StreamableHTTPServerTransport in JSON and in SSE mode,
 * and a bare node:http server (the ceiling), also called the 2026-07-28 way (that row's
 * ceiling). The servers whose figures carry an aim (ours in JSON, step function and 2026-07-28,
 * and both bare ones) each run in two identical processes (`--processes=N`), measured in turn
 * within each slice (bench/lib/server-set.js): one process's luck weighs half, and the second
 * process ÷ the first is that server's control. Then the era pair on its own at each
 * concurrency: ours legacy and 2026-07-28 and the bare server called both ways, more rounds of
 * four slices each (CONFIG.eras), which its verdict is read from. Then per-test setup over HTTP, in this process
 * as a test would do it: start the server, SDK Client + StreamableHTTPClientTransport connect
 * (initialize), close, stop.
 *
 * Fairness, as in the in-memory section (bench/README.md): rounds; in each round every server gets
 * one short slice, in an order from a balanced Latin square (each server in each position, and
 * after each other server, equally often); each server process keeps its own garbage
 * collection (no forced collection between slices, see `gcEachSlice` in lib/common.js); ratios
 * to the bare server are taken per round, then the median and quartiles over rounds.
 * Server CPU time is read with `process.cpuUsage()` inside each server process (over IPC) at the
 * start and end of its slice, so it is that server's own work only.
 *
 * Options: --quick, --rounds=N, --processes=N (1–4, for the servers that carry aims; default 2),
 * --only=load,eras,setup (parts), --gc-each-slice, --json=PATH (default bench/results/http.json),
 * --no-json.
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
  fmtMs,
  gcEachSlice,
  fmtRate,
  fmtRatio,
  fmtRatioSpread,
  fmtUs,
  mean,
  median,
  parseArgs,
  percentile,
  permutations,
  quartiles,
  renderTable,
  summarizeAgainst,
  verdictText,
  within,
  writeReport,
} from "./lib/common.js";
import { closeSetSessions, measureSet, openSetSessions, primeSet, startServerSet } from "./lib/server-set.js";
import { HTTP_SIDES, MODERN_SIDES, startSide } from "./servers/http-sides.js";

// ---------------------------------------------------------------- re-spawn with --expose-gc
const gc = exposedGc(import.meta.url);

const args = parseArgs();
const quick = args.has("quick");
const PARTS = ["load", "eras", "setup"];
const parts = new Set((args.get("only") ?? PARTS.join(",")).split(","));
const unknownParts = [...parts].filter((part) => !PARTS.includes(part));
if (unknownParts.length > 0) {
  console.error(`unknown --only part(s): ${unknownParts.join(", ")}; parts: ${PARTS.join(", ")}`);
  process.exit(2);
}
const SETTLE = gcEachSlice(args);

const CONFIG = {
  /**
   * Rounds per concurrency: the balanced design of nine servers has 18 orders, the first nine a
   * Latin square (each server in each position once); the tenth makes the count even, so each
   * of a server's processes goes first equally often.
   */
  rounds: Number(args.get("rounds") ?? 10),
  concurrencies: (args.get("concurrencies") ?? "1,32").split(",").map(Number),
  /** Processes per server for the servers whose figures carry an aim (the others: one). */
  processes: Math.min(4, Math.max(1, Number(args.get("processes") ?? 2))),
  load: {
    /** Per server process, once after it starts: run hot at concurrency 32 until V8 has optimized its code (bench/lib/server-set.js, `primeSet`). */
    prime: { concurrency: 32, count: quick ? 4000 : 12_000, ms: quick ? 1000 : 3000 },
    /** Per server process, before round 1 of the first concurrency (JIT warm on both ends), and of each later one. */
    warmup: { first: { count: 3000, ms: quick ? 400 : 900 }, later: { count: 1500, ms: quick ? 200 : 400 } },
    /** One slice: this many calls or this long, whichever comes first. */
    slice: { count: 50_000, ms: quick ? 200 : 400 },
    /** A concurrency stops after complete rounds (at least 2) once this is spent. */
    sectionCapMs: quick ? 15_000 : 60_000,
  },
  setup: { warmup: quick ? 15 : 40, perRound: quick ? 15 : 30, sliceCapMs: 800, sectionCapMs: quick ? 8_000 : 18_000, rounds: quick ? 6 : 12 },
  /**
   * The era pair alone, at each concurrency: ours legacy and 2026-07-28, the bare server called
   * both ways, in rounds of four slices (a Latin square over four orders): each pair's two slices
   * are at most three slices apart, not eight as among nine servers, and there are more rounds.
   */
  eras: { rounds: quick ? 8 : 16, sectionCapMs: quick ? 12_000 : 45_000 },
  /** Whole-section guard: parts not yet started are skipped once this is spent. */
  totalCapMs: 270_000,
};
/**
 * Our mock's server CPU per call within 1.3× of the bare node:http server's.
 * At concurrency 32, the static step and the step function each within 1.2×.
 * 2026-07-28 vs legacy: a 2026-07-28 call (no session, headers checked) costs no more than a legacy one.
 */
const TARGETS = { cpuPerCallVsBareAtMost: 1.3, stepsVsBareAt32AtMost: 1.2, modernVsLegacyAtMost: 1.0 };
/** The servers in several processes: every ratio an aim reads is between two of them. */
const SET_SIDES = new Set(["ours-json", "ours-fn", "ours-modern", "bare", "bare-modern"]);
/** The era pair (2026-07-28 vs legacy), measured again on its own (CONFIG.eras). */
const ERA_SIDES = ["ours-json", "ours-modern", "bare", "bare-modern"];
const LABELS = {
  "ours-json": "mcp-testkit mock, JSON",
  "ours-fn": "mcp-testkit mock, JSON, echo as a step function",
  "ours-sse": "mcp-testkit mock, SSE",
  "ours-modern": "mcp-testkit mock, 2026-07-28 (no session)",
  aimock: "aimock MCPMock",
  "sdk-json": "SDK McpServer, JSON",
  "sdk-sse": "SDK McpServer, SSE",
  bare: "bare node:http (ceiling)",
  "bare-modern": "bare node:http, 2026-07-28 calls (ceiling for that row)",
};
const runStarted = performance.now();
const timeLeft = () => CONFIG.totalCapMs - (performance.now() - runStarted);

// ---------------------------------------------------------------- (1) load at concurrency 1 and 32
/** One measured slice against one server (across its processes): its CPU before and after, the calls in between. */
async function loadSlice(set, { count, ms }, reverse) {
  // The load generator keeps its own collection too (lib/common.js, gcEachSlice): forced here, it
  // inflated every server's CPU per call that followed, ours more than the bare one's.
  if (SETTLE) gc();
  // Every server's slice in the same number of parts (one-process servers take theirs back to back): the same shape for all.
  const run = await measureSet(set, { count, ms }, { reverse, settle: SETTLE, parts: CONFIG.processes });
  return {
    calls: run.calls,
    seconds: run.seconds,
    perSecond: run.calls / run.seconds,
    p50Us: percentile(run.latenciesUs, 50),
    p99Us: percentile(run.latenciesUs, 99),
    serverCpuUsPerCall: run.cpuUs / run.calls,
    serverUserUsPerCall: run.userUs / run.calls,
    serverSystemUsPerCall: run.systemUs / run.calls,
    perProcessCpuUsPerCall: run.perProcessCpuUsPerCall,
    loadgenCpuUsPerCall: run.loadgenCpuUs / run.calls,
    serverRssMiB: run.rss / 1048576,
    latenciesUs: run.latenciesUs,
  };
}

/**
 * Rounds of slices of `sides` at one concurrency (every server, or the era pair's four), each round in
 * an order of a balanced Latin square; `rounds` and `sectionCapMs` bound it.
 */
async function benchLoad(servers, sides, concurrency, warmup, { rounds: wanted, sectionCapMs }) {
  const { slice } = CONFIG.load;
  const versions = {};
  const orders = balancedOrders(sides);
  const rounds = [];
  const pooled = Object.fromEntries(sides.map((side) => [side, []]));
  try {
    for (const side of sides) versions[side] = await openSetSessions(servers[side], concurrency, MODERN_SIDES.has(side) ? "modern" : "legacy", warmup);
    const deadline = performance.now() + Math.min(sectionCapMs, Math.max(0, timeLeft()));
    for (let r = 0; r < wanted; r++) {
      // Past the cap, stop only after an even number of rounds: each process of a server first equally often.
      if (r >= 2 && r % 2 === 0 && performance.now() > deadline) break;
      const round = {};
      for (const side of orders[r % orders.length]) {
        const { latenciesUs, ...rest } = await loadSlice(servers[side], slice, r % 2 === 1);
        pooled[side].push(latenciesUs);
        round[side] = rest;
      }
      rounds.push(round);
    }
  } finally {
    for (const side of sides) closeSetSessions(servers[side]);
  }
  // Latency percentiles over every measured call of the side (all rounds pooled).
  const latency = {};
  for (const side of sides) {
    const all = Float64Array.from(pooled[side].flatMap((a) => Array.from(a))).sort();
    latency[side] = { calls: all.length, p50Us: percentile(all, 50), p90Us: percentile(all, 90), p99Us: percentile(all, 99), maxUs: all[all.length - 1] };
  }
  const summary = summarizeAgainst(
    rounds,
    sides,
    "bare",
    ["perSecond", "serverCpuUsPerCall", "serverUserUsPerCall", "serverSystemUsPerCall", "loadgenCpuUsPerCall", "p50Us", "p99Us", "calls", "serverRssMiB"],
    ["perSecond", "serverCpuUsPerCall", "serverUserUsPerCall", "serverSystemUsPerCall"],
  );
  // One side's CPU per call against another's, per round (same load), then the median and quartiles.
  const perRound = (a, b) => {
    const ratios = rounds.map((round) => round[a].serverCpuUsPerCall / round[b].serverCpuUsPerCall);
    return { median: median(ratios), quartiles: quartiles(ratios) };
  };
  // Our mock against the others (information), where they ran.
  const oursVs = {};
  for (const other of ["aimock", "sdk-json", "sdk-sse"]) if (sides.includes(other)) oursVs[other] = perRound("ours-json", other);
  if (sides.includes("ours-sse")) oursVs.sseVsSdkSse = perRound("ours-sse", "sdk-sse");
  oursVs.modernVsLegacy = perRound("ours-modern", "ours-json");
  // The revision's own cost (larger messages, for any server), and ours above each ceiling.
  oursVs.bareModernVsBare = perRound("bare-modern", "bare");
  oursVs.modernVsBareModern = perRound("ours-modern", "bare-modern");
  // Our own overhead in each era, each over its ceiling, per round: (ours 2026-07-28 ÷ bare 2026-07-28) ÷ (ours legacy ÷ bare legacy).
  const overheads = rounds.map((round) => round["ours-modern"].serverCpuUsPerCall / round["bare-modern"].serverCpuUsPerCall / (round["ours-json"].serverCpuUsPerCall / round.bare.serverCpuUsPerCall));
  oursVs.modernOverheadVsLegacy = { median: median(overheads), quartiles: quartiles(overheads) };
  // Each server in several processes: its last process ÷ its first, per round (the noise floor).
  const controls = {};
  for (const side of sides) {
    if (servers[side].processes.length < 2) continue;
    const ratios = rounds.map((round) => round[side].perProcessCpuUsPerCall.at(-1) / round[side].perProcessCpuUsPerCall[0]);
    controls[side] = { median: median(ratios), quartiles: quartiles(ratios) };
  }
  return { concurrency, negotiatedVersions: versions, rounds, latency, oursVs, controls, ...summary };
}

// ---------------------------------------------------------------- (2) per-test setup over HTTP
const SETUP_SIDES = { ours: "ours-json", aimock: "aimock", sdk: "sdk-sse" };
const SETUP_NAMES = Object.keys(SETUP_SIDES);

async function setupSlice(Client, StreamableHTTPClientTransport, side, count, capMs) {
  const samples = [];
  const deadline = performance.now() + capMs;
  const cpu0 = cpuMicros();
  for (let i = 0; i < count && performance.now() < deadline; i++) {
    const t0 = performance.now();
    const server = await startSide(SETUP_SIDES[side]);
    const client = new Client({ name: "bench-client", version: "1.0.0" });
    await within(client.connect(new StreamableHTTPClientTransport(new URL(server.url))), 10_000, `connecting to ${side}`);
    await client.close();
    await within(server.stop(), 10_000, `stopping ${side}`);
    samples.push((performance.now() - t0) * 1000);
  }
  const cpuUs = cpuMicros() - cpu0;
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: samples.length, meanUs: mean(samples), p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), cpuUsEach: cpuUs / samples.length };
}

async function benchSetup() {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const { warmup, perRound, sliceCapMs, sectionCapMs, rounds: wanted } = CONFIG.setup;
  for (const side of SETUP_NAMES) await setupSlice(Client, StreamableHTTPClientTransport, side, warmup, sliceCapMs * 2);
  const orders = permutations(SETUP_NAMES);
  const deadline = performance.now() + Math.min(sectionCapMs, Math.max(0, timeLeft()));
  const rounds = [];
  for (let r = 0; r < wanted; r++) {
    if (r >= 2 && performance.now() > deadline) break;
    const round = {};
    for (const side of orders[r % orders.length]) {
      gc();
      round[side] = await setupSlice(Client, StreamableHTTPClientTransport, side, perRound, sliceCapMs);
    }
    rounds.push(round);
  }
  return { sides: SETUP_SIDES, rounds, ...summarizeAgainst(rounds, SETUP_NAMES, "sdk", ["n", "meanUs", "p50Us", "p99Us", "cpuUsEach"], ["meanUs", "cpuUsEach"]) };
}

// ---------------------------------------------------------------- tables
function loadTable(results) {
  const header = [
    "Concurrency",
    "Server",
    "Requests/s",
    "p50",
    "p99",
    "Server CPU per call",
    "CPU per call ÷ bare (IQR)",
    "Requests/s ÷ bare",
    "Control: 2nd ÷ 1st process (IQR)",
    "Aim (≤ 1.3× bare CPU)",
  ];
  const rows = [];
  const verdicts = {};
  for (const result of results) {
    const c = result.concurrency;
    for (const side of HTTP_SIDES) {
      const m = result.median[side];
      const isBare = side === "bare";
      const ratio = isBare ? 1 : result.ratio[side].serverCpuUsPerCall;
      const q = isBare ? undefined : result.ratioQuartiles[side].serverCpuUsPerCall;
      let aim = "";
      if (side === "ours-json" || side === "ours-fn" || side === "ours-sse" || side === "ours-modern") {
        const met = ratio <= TARGETS.cpuPerCallVsBareAtMost;
        aim = verdictText(met, q, TARGETS.cpuPerCallVsBareAtMost, false);
        verdicts[`${side}@${c}`] = {
          measure: `${LABELS[side]}: server CPU per call vs bare, concurrency ${c}`,
          ratio,
          ratioQuartiles: q,
          target: `<= ${TARGETS.cpuPerCallVsBareAtMost}x`,
          met,
          status: aim,
          governing: side === "ours-json",
        };
        if (side === "ours-sse") aim = `${aim} (info)`;
      }
      rows.push([
        String(c),
        LABELS[side],
        fmtRate(m.perSecond),
        fmtUs(result.latency[side].p50Us),
        fmtUs(result.latency[side].p99Us),
        `${m.serverCpuUsPerCall.toFixed(1)} µs`,
        isBare ? "1.00×" : fmtRatioSpread(ratio, q),
        isBare ? "1.00×" : fmtRatio(result.ratio[side].perSecond),
        result.controls[side] ? fmtRatioSpread(result.controls[side].median, result.controls[side].quartiles) : "(one process)",
        aim,
      ]);
    }
  }
  return { table: renderTable(header, rows), verdicts };
}

/**
 * The aims on the steps and on 2026-07-28 calls, each against its own line: the steps at concurrency 32, a
 * 2026-07-28 call against a legacy one. The 2026-07-28 verdict is read from its own four-server rounds
 * (`eras`) when they ran, the nine-server rounds' figure shown beside it.
 */
function laterAimsTable(load, eras) {
  const header = ["Aim", "Measure", "Ratio (IQR)", "Target", "Status"];
  const rows = [];
  const verdicts = {};
  const at32 = load.find((result) => result.concurrency === 32);
  if (at32) {
    for (const side of ["ours-json", "ours-fn"]) {
      const ratio = at32.ratio[side].serverCpuUsPerCall;
      const q = at32.ratioQuartiles[side].serverCpuUsPerCall;
      const status = verdictText(ratio <= TARGETS.stepsVsBareAt32AtMost, q, TARGETS.stepsVsBareAt32AtMost, false);
      const measure = `${LABELS[side]}: server CPU per call vs bare, concurrency 32`;
      verdicts[`steps-vs-bare-${side}@32`] = {
        aim: "steps vs bare",
        measure,
        ratio,
        ratioQuartiles: q,
        target: `<= ${TARGETS.stepsVsBareAt32AtMost}x`,
        met: ratio <= TARGETS.stepsVsBareAt32AtMost,
        status,
      };
      rows.push(["steps vs bare", measure, fmtRatioSpread(ratio, q), `≤ ${TARGETS.stepsVsBareAt32AtMost}×`, status]);
    }
  }
  const governing = eras.length > 0 ? eras : load;
  for (const result of governing) {
    const c = result.concurrency;
    const { median: ratio, quartiles: q } = result.oursVs.modernVsLegacy;
    const met = ratio <= TARGETS.modernVsLegacyAtMost;
    const status = verdictText(met, q, TARGETS.modernVsLegacyAtMost, false);
    const where = eras.length > 0 ? ` (its four servers alone, ${result.rounds.length} rounds)` : "";
    const measure = `2026-07-28 call ÷ legacy call, server CPU, concurrency ${c}${where}`;
    verdicts[`modern-vs-legacy@${c}`] = { aim: "2026-07-28 vs legacy", measure, ratio, ratioQuartiles: q, target: `<= ${TARGETS.modernVsLegacyAtMost}x`, met, status, rounds: result.rounds.length };
    rows.push(["2026-07-28 vs legacy", measure, fmtRatioSpread(ratio, q), `≤ ${TARGETS.modernVsLegacyAtMost.toFixed(1)}×`, status]);
    const among = eras.length > 0 ? load.find((other) => other.concurrency === c) : undefined;
    if (among)
      rows.push([
        "(info)",
        `the same among all nine servers, concurrency ${c} (${among.rounds.length} rounds)`,
        fmtRatioSpread(among.oursVs.modernVsLegacy.median, among.oursVs.modernVsLegacy.quartiles),
        "",
        "",
      ]);
    const { bareModernVsBare: intrinsic, modernVsBareModern: above } = result.oursVs;
    rows.push(["(info)", `the same for the bare server: 2026-07-28 calls ÷ legacy calls, concurrency ${c}`, fmtRatioSpread(intrinsic.median, intrinsic.quartiles), "", ""]);
    rows.push([
      "(info)",
      `ours, 2026-07-28 ÷ the bare server's 2026-07-28 calls, concurrency ${c} (legacy: ${fmtRatio(result.ratio["ours-json"].serverCpuUsPerCall)} bare)`,
      fmtRatioSpread(above.median, above.quartiles),
      "",
      "",
    ]);
    const overhead = result.oursVs.modernOverheadVsLegacy;
    rows.push([
      "(info)",
      `our overhead over the bare server, 2026-07-28 ÷ legacy (ours ÷ bare in each era, paired per round), concurrency ${c}`,
      fmtRatioSpread(overhead.median, overhead.quartiles),
      "",
      "",
    ]);
  }
  return { table: renderTable(header, rows), verdicts };
}

function setupTable(setup) {
  const header = ["Per-test setup over HTTP", "mean", "p50", "p99", "CPU per setup", "mean ÷ SDK (IQR)", "CPU ÷ SDK", "measured"];
  const labels = { ours: "mcp-testkit mock (JSON, default)", aimock: "aimock MCPMock", sdk: "SDK McpServer (SSE, default)" };
  const before = { ours: "", aimock: "≈ 4.8 ms", sdk: "≈ 6 ms" };
  const rows = SETUP_NAMES.map((side) => {
    const m = setup.median[side];
    const isSdk = side === "sdk";
    return [
      labels[side],
      fmtMs(m.meanUs / 1000, 2),
      fmtMs(m.p50Us / 1000, 2),
      fmtMs(m.p99Us / 1000, 2),
      fmtMs(m.cpuUsEach / 1000, 2),
      isSdk ? "1.00×" : fmtRatioSpread(setup.ratio[side].meanUs, setup.ratioQuartiles[side].meanUs),
      isSdk ? "1.00×" : fmtRatio(setup.ratio[side].cpuUsEach),
      before[side],
    ];
  });
  return renderTable(header, rows);
}

// ---------------------------------------------------------------- main
const env = environment();
banner("mcp-testkit bench, Streamable HTTP", env);
console.log(
  `${CONFIG.rounds} rounds per concurrency (the era pair's four servers: ${CONFIG.eras.rounds} more); servers take turns in a balanced order; ratios are per round (same load), then the median.`,
);

const results = { load: [], eras: [] };
const skipped = [];
const servers = {};
const stopAll = async () => {
  await Promise.all(Object.values(servers).map((set) => set.stop()));
};
process.on("exit", () => {
  for (const set of Object.values(servers)) for (const server of set.processes) if (server.child.exitCode === null) server.child.kill("SIGKILL");
});

try {
  const started = parts.has("load") ? HTTP_SIDES : parts.has("eras") ? ERA_SIDES : [];
  if (started.length > 0) {
    const t0 = performance.now();
    for (const side of started) servers[side] = await startServerSet(side, SET_SIDES.has(side) ? CONFIG.processes : 1);
    console.log(
      `servers up in ${((performance.now() - t0) / 1000).toFixed(1)}s: ${started.map((side) => `${side} pid ${servers[side].processes.map((server) => server.child.pid).join("+")}`).join(", ")}`,
    );
    const t2 = performance.now();
    for (const side of started) await primeSet(servers[side], MODERN_SIDES.has(side) ? "modern" : "legacy", CONFIG.load.prime);
    console.log(
      `servers primed in ${((performance.now() - t2) / 1000).toFixed(1)}s (${CONFIG.load.prime.count} calls or ${CONFIG.load.prime.ms / 1000} s each at concurrency ${CONFIG.load.prime.concurrency})`,
    );
    // A server's first sessions get the long warm-up (JIT warm on both ends), its later ones the short one.
    let warm = false;
    const measure = async (name, sides, concurrency, bounds) => {
      if (timeLeft() <= 0) {
        skipped.push(`${name}@${concurrency}`);
        console.log(`skipped ${name} at concurrency ${concurrency}: the section's time cap (${CONFIG.totalCapMs / 1000}s) is spent`);
        return;
      }
      const t1 = performance.now();
      const result = await benchLoad(servers, sides, concurrency, warm ? CONFIG.load.warmup.later : CONFIG.load.warmup.first, bounds);
      warm = true;
      results[name].push(result);
      console.log(
        `measured ${name === "load" ? "every server" : "the era pair's four servers"} at concurrency ${concurrency} in ${((performance.now() - t1) / 1000).toFixed(1)}s, ${result.rounds.length} rounds`,
      );
    };
    for (const concurrency of CONFIG.concurrencies) {
      if (parts.has("load")) await measure("load", HTTP_SIDES, concurrency, { rounds: CONFIG.rounds, sectionCapMs: CONFIG.load.sectionCapMs });
      if (parts.has("eras")) await measure("eras", ERA_SIDES, concurrency, CONFIG.eras);
    }
    const stats = await servers["ours-json"].processes[0].ask("stats");
    results.oursRecordAfterLoad = stats.stats;
    await stopAll();
  }
  if (parts.has("setup")) {
    if (timeLeft() <= 0) {
      skipped.push("setup");
      console.log("skipped per-test setup: the section's time cap is spent");
    } else {
      const t1 = performance.now();
      results.setup = await benchSetup();
      console.log(`measured per-test setup over HTTP in ${((performance.now() - t1) / 1000).toFixed(1)}s, ${results.setup.rounds.length} rounds`);
    }
  }
} finally {
  await stopAll();
}

const tables = [];
let verdicts = {};
if (results.load.length) {
  const load = loadTable(results.load);
  verdicts = load.verdicts;
  tables.push(load.table);
}
if (results.load.length || results.eras.length) {
  const later = laterAimsTable(results.load, results.eras);
  verdicts = { ...verdicts, ...later.verdicts };
  tables.push(later.table);
}
if (results.setup) tables.push(setupTable(results.setup));
const notes = [
  "Server CPU per call: process.cpuUsage() of the server's own process over the slice ÷ calls answered (median over rounds).",
  `Servers with an aim run in ${CONFIG.processes} identical processes each, measured in turn within each slice (their CPU over their calls). Control: a server's second process ÷ its first, how far two identical processes differ in this run (1.00× on a quiet machine): read every ratio with that margin.`,
  "÷ bare: median of the per-round ratios to the bare node:http server, quartiles of those ratios in brackets.",
  "Latency: over every measured call of all rounds. Requests/s: median over rounds.",
];
for (const result of results.load) {
  const o = result.oursVs;
  notes.push(
    `Concurrency ${result.concurrency}: ours (JSON) server CPU per call is ${fmtRatio(o.aimock.median)} aimock's, ${fmtRatio(o["sdk-json"].median)} the SDK's (JSON); ours (SSE) is ${fmtRatio(o.sseVsSdkSse.median)} the SDK's (SSE).`,
  );
}
console.log(`\n${tables.join("\n\n")}\n\n${notes.join("\n")}`);
const governing = Object.values(verdicts).filter((v) => v.governing);
if (governing.length) {
  const misses = governing.filter((v) => !v.met);
  console.log(misses.length ? `Aim NOT met: ${misses.map((v) => `${v.measure} = ${fmtRatio(v.ratio)}`).join("; ")}` : "Aim met (our mock, JSON, at both concurrencies).");
}
const later = Object.values(verdicts).filter((v) => v.aim !== undefined);
const laterMisses = later.filter((v) => !v.met);
if (later.length)
  console.log(
    laterMisses.length
      ? `Steps vs bare and 2026-07-28 vs legacy, NOT met: ${laterMisses.map((v) => `${v.measure} = ${fmtRatio(v.ratio)}`).join("; ")}`
      : "Steps vs bare and 2026-07-28 vs legacy: every aim met.",
  );

const report = {
  section: "http",
  generatedAt: new Date().toISOString(),
  durationSeconds: Number(((performance.now() - runStarted) / 1000).toFixed(1)),
  environment: env,
  config: CONFIG,
  targets: TARGETS,
  labels: LABELS,
  verdicts,
  skipped,
  results,
  table: `${tables.join("\n\n")}\n\n${notes.join("\n")}`,
};
if (!args.has("no-json")) {
  const jsonPath = path.resolve(args.get("json") ?? path.join(benchDir, "results", "http.json"));
  writeReport(jsonPath, report);
  console.log(`results written to ${path.relative(process.cwd(), jsonPath)} (${report.durationSeconds}s in all)`);
}
