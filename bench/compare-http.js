#!/usr/bin/env node
/**
 * Paired before/after of our HTTP server path: server CPU per `tools/call` of one side in two
 * builds, and a bare node:http server, interleaved slice by slice in one run (ratios per round,
 * then the median), as bench/http.js does for the peers. For "did this change make the hot path
 * cheaper?", which the whole HTTP section answers too slowly and with too many sides.
 *
 *   node bench/compare-http.js --before=/path/to/other/checkout [--sides=ours-json,ours-fn] [--rounds=10] [--concurrency=32] [--gc-each-slice]
 *
 * The other checkout needs its `dist/` built (`npm run build`) and this checkout's bench/servers
 * and bench/lib copied in (`cp -r bench/servers bench/lib <dir>/bench/`), so both sides are
 * started and loaded by the same code. A side the other build cannot serve fails its start.
 * Bounds: at most 40 rounds, slices of 400 ms or 50,000 calls.
 */
import path from "node:path";
import { benchDir, gcEachSlice, median, parseArgs } from "./lib/common.js";
import { openSessions, runLoad } from "./lib/loadgen.js";
import { startServerProcess } from "./lib/server-process.js";
import { MODERN_SIDES } from "./servers/http-sides.js";

const args = parseArgs();
const beforeDir = args.get("before");
if (beforeDir === undefined) {
  console.error("usage: node bench/compare-http.js --before=<checkout with dist/ built and this bench/ copied> [--sides=ours-json,ours-fn] [--rounds=10] [--concurrency=32]");
  process.exit(2);
}
const sides = (args.get("sides") ?? "ours-json,ours-fn").split(",");
const rounds = Math.min(Number(args.get("rounds") ?? 10), 40);
const concurrency = Number(args.get("concurrency") ?? 32);
const SLICE = { count: 50_000, ms: 400 };
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
    const server = await startServerProcess(entry.side, { root: path.join(entry.dir, "bench"), label: entry.label });
    running.push(server);
    Object.assign(entry, { server, url: server.url, cpu: [] });
  }
  for (const entry of entries) {
    entry.sessions = await openSessions(entry.url, concurrency, MODERN_SIDES.has(entry.side) ? "modern" : "legacy");
    await runLoad(entry.sessions, WARMUP);
  }
  for (let round = 0; round < rounds; round++) {
    for (const entry of round % 2 === 0 ? entries : [...entries].reverse()) {
      const before = await entry.server.ask("cpu", { settle: gcEachSlice(args) });
      const run = await runLoad(entry.sessions, SLICE);
      const after = await entry.server.ask("cpu");
      entry.cpu.push((after.cpuUs - before.cpuUs) / run.calls);
    }
  }
  const bare = entries[0].cpu;
  console.log(`server CPU per tools/call at concurrency ${concurrency}, ${rounds} rounds (median; ratio to bare per round, then the median)`);
  for (const entry of entries) {
    const ratio = median(entry.cpu.map((us, i) => us / bare[i]));
    console.log(`${entry.label.padEnd(24)} ${median(entry.cpu).toFixed(1).padStart(7)} µs  ${ratio.toFixed(2)}× bare`);
  }
} finally {
  for (const entry of entries) for (const session of entry.sessions ?? []) session.close();
  for (const server of running) await server.stop();
}
