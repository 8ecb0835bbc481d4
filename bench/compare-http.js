#!/usr/bin/env node
/**
 * Paired before/after of our HTTP server path: server CPU per `tools/call` of one side in two
 * builds, and a bare node:http server, interleaved slice by slice in one run (ratios per round,
 * then the median), as bench/http.js does for the peers. For "did this change make the hot path
 * cheaper?", which the whole HTTP section answers too slowly and with too many sides.
 *
 *   node bench/compare-http.js --before=/path/to/other/checkout [--sides=ours-json,ours-fn] [--rounds=10] [--concurrency=32] [--processes=2] [--pause-ms=N] [--preload-ms=N] [--gc-each-slice]
 *
 * The other checkout needs its `dist/` built (`npm run build`) and this checkout's bench/servers
 * and bench/lib copied in (`cp -r bench/servers bench/lib <dir>/bench/`), so both sides are
 * started and loaded by the same code. A side the other build cannot serve fails its start.
 * Each entry runs in `--processes` identical processes (default 2, at most 4), each part of a slice
 * ending when its server has gone quiet, as in bench/http.js (lib/server-set.js).
 * Bounds: at most 40 rounds, slices of 400 ms or 50,000 calls.
 */
import path from "node:path";
import { benchDir, gcEachSlice, median, parseArgs, quartiles } from "./lib/common.js";
import { closeSetSessions, measureSet, openSetSessions, startServerSet } from "./lib/server-set.js";
import { MODERN_SIDES } from "./servers/http-sides.js";

const args = parseArgs();
const beforeDir = args.get("before");
if (beforeDir === undefined) {
  console.error("usage: node bench/compare-http.js --before=<checkout with dist/ built and this bench/ copied> [--sides=ours-json,ours-fn] [--rounds=10] [--concurrency=32] [--processes=2]");
  process.exit(2);
}
const sides = (args.get("sides") ?? "ours-json,ours-fn").split(",");
const rounds = Math.min(Number(args.get("rounds") ?? 10), 40);
const concurrency = Number(args.get("concurrency") ?? 32);
// Each entry in several identical processes: one process's luck (about ±10% here) weighs 1/N.
const processes = Math.min(4, Math.max(1, Number(args.get("processes") ?? 2)));
const SLICE = { count: 50_000, ms: 400 };
// A pause before each slice (at most 4 s, under the servers' 5 s keep-alive): how a server's cost
// per call depends on how long it sat idle, as it does between its turns in bench/http.js.
const pauseMs = Math.min(4000, Math.max(0, Number(args.get("pause-ms") ?? 0)));
// An unmeasured burst of this many ms before each measured part (at most 500): whether a pause's cost is gone once a server is under load again.
const preloadMs = Math.min(500, Math.max(0, Number(args.get("preload-ms") ?? 0)));
const PRELOAD = preloadMs > 0 ? { count: 50_000, ms: preloadMs } : undefined;
// Short: a keep-alive connection idle longer than the server's 5 s is closed under the client.
const WARMUP = { count: 4000, ms: 600 };

const entries = [{ label: "bare", dir: path.dirname(benchDir), side: "bare" }];
for (const side of sides) {
  entries.push({ label: `before ${side}`, dir: path.resolve(beforeDir), side });
  entries.push({ label: `after ${side}`, dir: path.dirname(benchDir), side });
}

const running = [];
try {
  for (const entry of entries) {
    const set = await startServerSet(entry.side, processes, { root: path.join(entry.dir, "bench") });
    running.push(set);
    Object.assign(entry, { set, cpu: [] });
  }
  for (const entry of entries) await openSetSessions(entry.set, concurrency, MODERN_SIDES.has(entry.side) ? "modern" : "legacy", WARMUP);
  for (let round = 0; round < rounds; round++) {
    const reverse = round % 2 === 1;
    for (const entry of reverse ? [...entries].reverse() : entries) {
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const run = await measureSet(entry.set, SLICE, { reverse, settle: gcEachSlice(args), preload: PRELOAD });
      entry.cpu.push(run.cpuUs / run.calls);
    }
  }
  const bare = entries[0].cpu;
  console.log(`server CPU per tools/call at concurrency ${concurrency}, ${rounds} rounds, ${processes} processes per entry (median; ratio to bare per round, then the median, quartiles in brackets)`);
  for (const entry of entries) {
    const ratios = entry.cpu.map((us, i) => us / bare[i]);
    const [q1, q3] = quartiles(ratios);
    console.log(`${entry.label.padEnd(24)} ${median(entry.cpu).toFixed(1).padStart(7)} µs  ${median(ratios).toFixed(2)}× bare (${q1.toFixed(2)}–${q3.toFixed(2)})`);
  }
  // The question this script answers: after ÷ before, paired per round.
  for (const side of sides) {
    const before = entries.find((entry) => entry.label === `before ${side}`).cpu;
    const after = entries.find((entry) => entry.label === `after ${side}`).cpu;
    const ratios = after.map((us, i) => us / before[i]);
    const [q1, q3] = quartiles(ratios);
    console.log(`${`after ÷ before ${side}`.padEnd(24)} ${median(ratios).toFixed(3)}× (${q1.toFixed(2)}–${q3.toFixed(2)})`);
  }
} finally {
  for (const entry of entries) if (entry.set) closeSetSessions(entry.set);
  for (const set of running) await set.stop();
}
