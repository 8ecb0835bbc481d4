#!/usr/bin/env node
/**
 * `node bench/verify.js [--quick] [--rounds=N]` (the verify section of `npm run bench`): what
 * verifying 1,000 recorded calls against an in-memory server costs next to replaying the same
 * 1,000 calls from the recording. Both sides use the driver over the mock's memory wire: the
 * replay side calls the recording's fakes (each entry found by its arguments), the verify side
 * runs `verifyRecording`, which calls a live scripted server and compares each answer path by
 * path (with the default ignores: an id that changes every call). Wall time per round; rounds
 * alternate the sides; ratios are per round, then the median (quartiles in brackets). Aim: ≤ 2×.
 */
import path from "node:path";
import { benchDir, environment, exposedGc, fmtRatioSpread, median, parseArgs, quartiles, renderTable, writeReport } from "./lib/common.js";

const gc = exposedGc(import.meta.url);
const args = parseArgs();
const quick = args.has("quick");
const ROUNDS = Number(args.get("rounds") ?? (quick ? 4 : 8));
const CALLS = 1_000;
const SECTION_CAP_MS = 60_000;
const AIM = 2;
const started = performance.now();

const { mockMcp, mcpAttach, verifyRecording } = await import("../dist/index.js");

const answer = (n, id) => ({ content: [{ type: "text", text: `entry ${n}` }], structuredContent: { n, label: `item ${n}`, tags: ["a", "b"], id } });
const block = { scope: "shared", tools: [{ name: "lookup", calls: Array.from({ length: CALLS }, (_, n) => ({ args: { n }, result: answer(n, `recorded-${n}`) })) }] };

const replay = await mockMcp({ transport: "memory", fixtures: [block], fakesOptions: { logger: () => undefined } });
let counter = 0;
const live = await mockMcp({ transport: "memory", tools: { lookup: { responses: async (call) => ({ result: answer(call.arguments.n, `live-${counter++}`) }) } } });
const replayDriver = mcpAttach(await replay.connectInMemory());
const liveDriver = mcpAttach(await live.connectInMemory());
await replayDriver.initialize();
await liveDriver.initialize();

async function replayAll() {
  replay.fakes.reset();
  for (let n = 0; n < CALLS; n++) {
    const result = await replayDriver.callTool("lookup", { n });
    if (result.isError) throw new Error(`replay failed: ${JSON.stringify(result)}`);
  }
}

async function verifyAll() {
  const report = await verifyRecording({ mcpFakes: block }, liveDriver);
  if (!report.ok || report.summary.matched !== CALLS) throw new Error(`verify did not match: ${JSON.stringify(report.summary)}`);
}

const timed = async (run) => {
  gc();
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
};

try {
  await replayAll();
  await verifyAll();
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r >= 2 && performance.now() - started > SECTION_CAP_MS) break;
    const order = r % 2 === 0 ? ["replay", "verify"] : ["verify", "replay"];
    const round = {};
    for (const side of order) round[side] = await timed(side === "replay" ? replayAll : verifyAll);
    rounds.push(round);
  }
  const ratios = rounds.map((round) => round.verify / round.replay);
  const result = { calls: CALLS, rounds: rounds.length, replayMs: median(rounds.map((r) => r.replay)), verifyMs: median(rounds.map((r) => r.verify)), ratio: median(ratios), q: quartiles(ratios) };
  const header = ["Calls", "replay, wall", "verify, wall", "verify / replay (IQR)", "Aim", "Status"];
  const rows = [[String(CALLS), `${result.replayMs.toFixed(0)} ms`, `${result.verifyMs.toFixed(0)} ms`, fmtRatioSpread(result.ratio, result.q), `≤ ${AIM}×`, result.ratio <= AIM ? "met" : "NOT met"]];
  console.log(renderTable(header, rows));
  console.log(`${result.rounds} rounds of ${CALLS} calls each side.`);
  if (!args.has("no-json")) {
    writeReport(path.join(benchDir, "results", "verify.json"), {
      generatedAt: new Date().toISOString(),
      durationSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      environment: environment(),
      results: [result],
      verdicts: {
        verify: { measure: `verifyRecording of ${CALLS} calls vs replaying them, wall time`, ratio: result.ratio, ratioQuartiles: result.q, target: `<= ${AIM}x`, met: result.ratio <= AIM },
      },
      table: { header, rows },
    });
  }
} finally {
  await replayDriver.close();
  await liveDriver.close();
  await replay.close();
  await live.close();
}
