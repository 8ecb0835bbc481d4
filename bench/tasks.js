#!/usr/bin/env node
/**
 * `node bench/tasks.js [--quick] [--rounds=N]` (the tasks section of `npm run bench`):
 *
 * 1. What a task-augmented tools/call costs next to a plain one, in server CPU: the task side
 *    makes the task (2026-07-28, the extension declared), polls it three times with tasks/get
 *    (the script keeps it working for two polls, the third sees it completed with its result);
 *    the plain side answers the same step without a task. Both through `server.handle()` (the
 *    engine, no wire), one mock each. CPU of this process per call, rounds alternating the
 *    sides, the ratio per round, then the median (quartiles in brackets). Aim: ≤ 4×.
 * 2. 100,000 tasks made and left to expire (TTL 1 ms) leave the heap flat: the heap after a
 *    forced GC, after 10,000 and after 100,000 tasks, and the store's size at the end (expired
 *    tasks are forgotten as new ones are made).
 */
import path from "node:path";
import { benchDir, cpuMicros, environment, exposedGc, fmtRatioSpread, fmtUs, median, parseArgs, quartiles, renderTable, writeReport } from "./lib/common.js";

const gc = exposedGc(import.meta.url);
const args = parseArgs();
const quick = args.has("quick");
const ROUNDS = Number(args.get("rounds") ?? (quick ? 4 : 8));
const CALLS_PER_SLICE = quick ? 500 : 2_000;
const TASKS_MADE = quick ? 20_000 : 100_000;
const SECTION_CAP_MS = 60_000;
const AIM = 4;
const started = performance.now();

const { mockMcp } = await import("../dist/index.js");
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};

function sender(server) {
  let id = 0;
  return async (method, params) => {
    const body = JSON.parse(await server.handle(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: META } })));
    if (body.error) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
    return body.result;
  };
}

async function costRatio() {
  const tasked = await mockMcp({ transport: "memory", recordLimit: 100, tools: { job: { task: { working: 2, ttlMs: 1_000 }, returns: "done" } } });
  const plain = await mockMcp({ transport: "memory", recordLimit: 100, tools: { job: { returns: "done" } } });
  const sendTask = sender(tasked);
  const sendPlain = sender(plain);
  const taskCall = async () => {
    const { taskId } = await sendTask("tools/call", { name: "job", arguments: {} });
    let last;
    for (let poll = 0; poll < 3; poll++) last = await sendTask("tasks/get", { taskId });
    if (last.status !== "completed") throw new Error(`the third poll saw ${last.status}`);
  };
  const plainCall = async () => {
    const result = await sendPlain("tools/call", { name: "job", arguments: {} });
    if (result.content?.[0]?.text !== "done") throw new Error("the plain call failed");
  };
  const slice = async (call) => {
    gc();
    const cpu0 = cpuMicros();
    for (let i = 0; i < CALLS_PER_SLICE; i++) await call();
    return (cpuMicros() - cpu0) / CALLS_PER_SLICE;
  };
  try {
    await slice(taskCall);
    await slice(plainCall);
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r >= 2 && performance.now() - started > SECTION_CAP_MS / 2) break;
      const round = {};
      for (const side of r % 2 === 0 ? ["task", "plain"] : ["plain", "task"]) round[side] = await slice(side === "task" ? taskCall : plainCall);
      rounds.push(round);
    }
    const ratios = rounds.map((round) => round.task / round.plain);
    return { rounds: rounds.length, taskUs: median(rounds.map((r) => r.task)), plainUs: median(rounds.map((r) => r.plain)), ratio: median(ratios), q: quartiles(ratios) };
  } finally {
    await tasked.close();
    await plain.close();
  }
}

function heapMb() {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

async function heapFlat() {
  const server = await mockMcp({ transport: "memory", recordLimit: 100, tools: { job: { task: { ttlMs: 1, working: 1 }, returns: "done" } } });
  const send = sender(server);
  const make = async (count) => {
    for (let i = 0; i < count; i++) {
      await send("tools/call", { name: "job", arguments: {} });
      // Each task outlives its 1 ms TTL before long; the next ones forget it.
      if (i % 1000 === 999) await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  try {
    await make(1_000);
    const before = heapMb();
    await make(TASKS_MADE / 10 - 1_000);
    const atTenth = heapMb();
    await make(TASKS_MADE - TASKS_MADE / 10);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await make(100);
    const after = heapMb();
    return { made: TASKS_MADE, beforeMb: before, atTenthMb: atTenth, afterMb: after, growthMb: after - before };
  } finally {
    await server.close();
  }
}

const cost = await costRatio();
const heap = await heapFlat();
const HEAP_AIM_MB = 5;
const rows = [
  ["task call (create + 3 polls) vs plain call, server CPU", fmtUs(cost.taskUs), fmtUs(cost.plainUs), fmtRatioSpread(cost.ratio, cost.q), `≤ ${AIM}×`, cost.ratio <= AIM ? "met" : "NOT met"],
  [
    `${heap.made.toLocaleString("en-US")} tasks made and expired: heap after a GC`,
    `${heap.afterMb.toFixed(1)} MB`,
    `${heap.beforeMb.toFixed(1)} MB (at 1,000); ${heap.atTenthMb.toFixed(1)} MB at a tenth`,
    `+${heap.growthMb.toFixed(1)} MB`,
    `≤ +${HEAP_AIM_MB} MB`,
    heap.growthMb <= HEAP_AIM_MB ? "met" : "NOT met",
  ],
];
const header = ["Measure", "Task side", "Baseline", "Ratio / growth", "Aim", "Status"];
console.log(renderTable(header, rows));
console.log(`${cost.rounds} rounds of ${CALLS_PER_SLICE} calls each side.`);

if (!args.has("no-json")) {
  writeReport(path.join(benchDir, "results", "tasks.json"), {
    generatedAt: new Date().toISOString(),
    durationSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    environment: environment(),
    results: { cost, heap },
    verdicts: {
      "tasks@cpu": { measure: "task-augmented tools/call (create + 3 polls) CPU vs a plain call", ratio: cost.ratio, ratioQuartiles: cost.q, target: `<= ${AIM}x`, met: cost.ratio <= AIM },
      "tasks@heap": { measure: `heap growth over ${heap.made} tasks made and expired`, growthMb: heap.growthMb, target: `<= ${HEAP_AIM_MB} MB`, met: heap.growthMb <= HEAP_AIM_MB },
    },
    table: { header, rows },
  });
}
