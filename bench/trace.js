#!/usr/bin/env node
/**
 * The trace section of `npm run bench`: server CPU per `tools/call` at concurrency 32 over HTTP,
 * our mock writing a trace file as calls pass (`mockMcp({ trace: file })`, side "ours-traced")
 * next to the same mock without one ("ours-json"), each in two identical processes measured in
 * turn within each slice (bench/lib/server-set.js), as bench/observe.js measures observers; each
 * setting's second process ÷ its first is its control (the noise floor). Aim: at most 1.15× the
 * CPU per call.
 *
 * Fairness as in the other sections (bench/README.md): rounds, the sides' order alternating,
 * ratios per round, then the median and the quartiles over rounds. Bounded: slices stop at a
 * count or a time, rounds after their cap (in whole blocks of four), the section after 60 s
 * (run.js kills it at 75 s).
 *
 * Options: --quick, --rounds=N, --processes=N (1–4, per setting; default 2), --gc-each-slice,
 * --json=PATH (default bench/results/trace.json), --no-json.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { banner, benchDir, environment, exposedGc, fmtRatioSpread, gcEachSlice, median, parseArgs, quartiles, renderTable, runPlan, verdictText, writeReport } from "./lib/common.js";
import { closeSetSessions, measureSet, openSetSessions, startServerSet } from "./lib/server-set.js";

const gc = exposedGc(import.meta.url);
const args = parseArgs();
const quick = args.has("quick");
const CONFIG = {
  rounds: Number(args.get("rounds") ?? (quick ? 8 : 32)),
  processes: Math.min(4, Math.max(1, Number(args.get("processes") ?? 2))),
  concurrency: 32,
  warmup: { count: 4000, ms: quick ? 600 : 1200 },
  slice: { count: 50_000, ms: quick ? 250 : 500 },
  capMs: quick ? 12_000 : 45_000,
  totalCapMs: 60_000,
};
const TARGET = 1.15;
const SIDES = ["ours-json", "ours-traced"];
const started = performance.now();
const timeLeft = () => CONFIG.totalCapMs - (performance.now() - started);

async function benchTraceFile() {
  const servers = {};
  try {
    for (const side of SIDES) {
      servers[side] = await startServerSet(side, CONFIG.processes);
      await openSetSessions(servers[side], CONFIG.concurrency, "legacy", CONFIG.warmup);
    }
    const deadline = performance.now() + Math.min(CONFIG.capMs, timeLeft());
    const rounds = [];
    for (let r = 0; r < CONFIG.rounds; r++) {
      if (r >= 4 && r % 4 === 0 && performance.now() > deadline) break;
      const round = {};
      for (const side of r % 2 === 0 ? SIDES : [...SIDES].reverse()) {
        if (gcEachSlice(args)) gc();
        const run = await measureSet(servers[side], CONFIG.slice, { reverse: r % 4 >= 2, settle: gcEachSlice(args) });
        round[side] = { calls: run.calls, perSecond: run.calls / run.seconds, serverCpuUsPerCall: run.cpuUs / run.calls, perProcessCpuUsPerCall: run.perProcessCpuUsPerCall };
      }
      rounds.push(round);
    }
    const perRound = rounds.map((round) => round["ours-traced"].serverCpuUsPerCall / round["ours-json"].serverCpuUsPerCall);
    const controlOf = (side) => {
      const ratios = rounds.map((round) => round[side].perProcessCpuUsPerCall.at(-1) / round[side].perProcessCpuUsPerCall[0]);
      return { ratio: median(ratios), ratioQuartiles: quartiles(ratios) };
    };
    const med = (key, side) => median(rounds.map((round) => round[side][key]));
    return {
      processes: CONFIG.processes,
      rounds,
      median: Object.fromEntries(SIDES.map((side) => [side, { serverCpuUsPerCall: med("serverCpuUsPerCall", side), perSecond: med("perSecond", side) }])),
      ratio: median(perRound),
      ratioQuartiles: quartiles(perRound),
      ...(CONFIG.processes > 1 && { control: controlOf("ours-json"), onControl: controlOf("ours-traced") }),
    };
  } finally {
    for (const set of Object.values(servers)) {
      closeSetSessions(set);
      await set.stop();
    }
  }
}

const env = environment();
banner("trace bench", env);
const { results, skipped } = await runPlan([["file", "file", "a trace file on vs off (HTTP, concurrency 32)", benchTraceFile]], { wanted: new Set(["file"]), timeLeft, capMs: CONFIG.totalCapMs });

const rows = [];
const verdicts = {};
if (results.file) {
  const o = results.file;
  const met = o.ratio <= TARGET;
  verdicts.file = {
    measure: "server CPU per tools/call, a trace file on / off, concurrency 32",
    ratio: o.ratio,
    ratioQuartiles: o.ratioQuartiles,
    target: "<= 1.15x",
    met,
    status: verdictText(met, o.ratioQuartiles, TARGET, false),
  };
  rows.push([
    `server CPU per tools/call, concurrency 32 (${o.processes} processes each)`,
    `${o.median["ours-traced"].serverCpuUsPerCall.toFixed(1)} µs (trace file)`,
    `${o.median["ours-json"].serverCpuUsPerCall.toFixed(1)} µs (none)`,
    fmtRatioSpread(o.ratio, o.ratioQuartiles),
    "≤ 1.15×",
    verdicts.file.status,
  ]);
  if (o.control) {
    rows.push(["control: the untraced mock, its second process ÷ its first", "", "", fmtRatioSpread(o.control.ratio, o.control.ratioQuartiles), "(noise floor)", ""]);
    rows.push(["control: the traced mock, its second process ÷ its first", "", "", fmtRatioSpread(o.onControl.ratio, o.onControl.ratioQuartiles), "(noise floor)", ""]);
  }
}
const header = ["Measure", "ours", "reference", "ratio (IQR)", "aim", "status"];
console.log(`\n${renderTable(header, rows)}`);
const durationSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
if (!args.has("no-json")) {
  writeReport(args.get("json") ?? path.join(benchDir, "results", "trace.json"), {
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
