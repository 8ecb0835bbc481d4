#!/usr/bin/env node
/**
 * The timeline section of `npm run bench`, two parts:
 *
 * - render: the first render of a 10,000-message timeline page in Debian's Chromium (the time
 *   from navigation to the first drawn screen, which the page records), next to a 100-message
 *   page as the baseline, in one browser, the two pages' order alternating per round. Aim: the
 *   10,000-message page's median under 1 s.
 * - live: this process's CPU per `tools/call` through `server.handle()` on an HTTP mock while a
 *   live timeline page's event stream is connected and read ("watched"), next to the same mock
 *   with no page ("unwatched"), slices alternating. Aim: at most 1.15× the CPU per call.
 *
 * Ratios per round, then the median and quartiles over rounds (bench/README.md). Bounded: rounds
 * stop at a count or once the section's 60 s cap is spent (run.js kills it at 75 s).
 * Options: --quick, --rounds=N, --only=render,live, --json=PATH (default
 * bench/results/timeline.json), --no-json.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { mockMcp } from "../dist/index.js";
import { timelinePage } from "../dist/view/page.js";
import { readTimelineInput } from "../dist/view/read-input.js";
import { banner, benchDir, cpuMicros, environment, fmtMs, fmtRatioSpread, median, parseArgs, quartiles, renderTable, runPlan, verdictText, writeReport } from "./lib/common.js";

const args = parseArgs();
const quick = args.has("quick");
const CONFIG = { rounds: Number(args.get("rounds") ?? (quick ? 4 : 10)), live: { slice: { count: quick ? 500 : 2000, ms: 400 } }, capMs: 60_000 };
const TARGETS = { renderMsAtMost: 1000, watchedCpuAtMost: 1.15 };
const CHROMIUM = "/usr/bin/chromium";
const started = performance.now();
const timeLeft = () => CONFIG.capMs - (performance.now() - started);

/** A trace of `messages` messages: calls over three lanes, every tenth with a progress notification. */
function trace(messages) {
  const lines = [{ type: "mcp-testkit-trace", version: 1, source: "mock", startedAt: 1_760_000_000_000 }];
  let seq = 0;
  for (let n = 1; seq < messages; n++) {
    const base = { wire: "http", sessionId: `s${n % 3}`, testId: `test ${n % 3}`, protocolVersion: "2025-11-25", callId: n };
    const at = 1_760_000_000_000 + n * 2;
    lines.push({ seq: ++seq, at, from: "client", message: { jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "get_weather", arguments: { city: `c${n}` } } }, ...base });
    if (n % 10 === 0) lines.push({ seq: ++seq, at: at + 1, from: "server", message: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: n, progress: 1 } }, ...base });
    lines.push({ seq: ++seq, at: at + 1 + (n % 7), from: "server", message: { jsonrpc: "2.0", id: n, result: { content: [{ type: "text", text: "21°C" }] } }, ...base });
  }
  return lines.map((line) => JSON.stringify(line)).join("\n");
}

async function benchRender() {
  if (!existsSync(CHROMIUM)) return { skipped: `no Chromium at ${CHROMIUM}` };
  const { chromium } = await import("playwright-core");
  const folder = mkdtempSync(path.join(tmpdir(), "mcp-testkit-bench-timeline-"));
  const pages = {};
  for (const [side, count] of [
    ["100", 100],
    ["10000", 10_000],
  ]) {
    pages[side] = path.join(folder, `${side}.html`);
    writeFileSync(pages[side], await timelinePage(readTimelineInput(trace(count), `${count}.jsonl`)));
  }
  const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
  const context = await chromium.launchPersistentContext(path.join(folder, "profile"), { executablePath: CHROMIUM, args: flags, viewport: { width: 1400, height: 800 } });
  const rounds = [];
  try {
    for (let round = 0; round < CONFIG.rounds && (round < 2 || timeLeft() > 0); round++) {
      const order = round % 2 === 0 ? ["100", "10000"] : ["10000", "100"];
      const ms = {};
      for (const side of order) {
        const page = await context.newPage();
        await page.goto(pathToFileURL(pages[side]).href);
        await page.waitForFunction("document.documentElement.dataset.firstRenderMs", undefined, { timeout: 30_000 });
        ms[side] = Number(await page.evaluate("document.documentElement.dataset.firstRenderMs"));
        await page.close();
      }
      rounds.push({ ...ms, ratio: ms["10000"] / ms["100"] });
    }
  } finally {
    await context.close();
    rmSync(folder, { recursive: true, force: true });
  }
  const big = median(rounds.map((r) => r["10000"]));
  return { rounds, medianMs: { 100: median(rounds.map((r) => r["100"])), 10000: big }, ratio: median(rounds.map((r) => r.ratio)), ratioQuartiles: quartiles(rounds.map((r) => r.ratio)) };
}

async function benchLive() {
  const server = await mockMcp({ tools: { get_weather: { returns: { tempC: 21 } } } });
  const call = (id) => server.handle(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_weather", arguments: { city: "Paris" } } }));
  let id = 0;
  const slice = async () => {
    const { count, ms } = CONFIG.live.slice;
    const cpu0 = cpuMicros();
    const t0 = performance.now();
    let calls = 0;
    while (calls < count && performance.now() - t0 < ms) {
      await call(++id);
      calls++;
    }
    return (cpuMicros() - cpu0) / calls;
  };
  const watch = async () => {
    const abort = new AbortController();
    const response = await fetch(new URL("/__mcp-testkit/ui/events", server.url), { signal: abort.signal });
    const reader = response.body.getReader();
    const reading = (async () => {
      for (;;) if ((await reader.read()).done) return;
    })().catch(() => undefined);
    return async () => {
      abort.abort();
      await reading;
    };
  };
  const rounds = [];
  try {
    await call(0);
    for (let i = 0; i < 2000; i++) await call(++id); // warm-up
    for (let round = 0; round < CONFIG.rounds * 2 && (round < 2 || timeLeft() > 0); round++) {
      const cpu = {};
      for (const side of round % 2 === 0 ? ["unwatched", "watched"] : ["watched", "unwatched"]) {
        const stop = side === "watched" ? await watch() : undefined;
        cpu[side] = await slice();
        await stop?.();
      }
      rounds.push({ ...cpu, ratio: cpu.watched / cpu.unwatched });
    }
  } finally {
    await server.close();
  }
  return {
    rounds,
    cpuMicrosPerCall: { unwatched: median(rounds.map((r) => r.unwatched)), watched: median(rounds.map((r) => r.watched)) },
    ratio: median(rounds.map((r) => r.ratio)),
    ratioQuartiles: quartiles(rounds.map((r) => r.ratio)),
  };
}

const env = environment();
banner("timeline", env);
const wanted = new Set((args.get("only") ?? "render,live").split(","));
const { results, skipped } = await runPlan(
  [
    ["render", "render", "first render in Chromium", benchRender],
    ["live", "live", "CPU per call, live page watching vs not", benchLive],
  ],
  { wanted, timeLeft, capMs: CONFIG.capMs },
);

const verdicts = {};
const rows = [];
if (results.render?.medianMs) {
  const r = results.render;
  const met = r.medianMs[10000] <= TARGETS.renderMsAtMost;
  verdicts.render = { measure: "first render of 10,000 messages", target: `≤ ${TARGETS.renderMsAtMost} ms`, value: r.medianMs[10000], met };
  rows.push([
    "first render, 10,000 vs 100 messages",
    `${fmtMs(r.medianMs[10000], 0)} vs ${fmtMs(r.medianMs[100], 0)}`,
    fmtRatioSpread(r.ratio, r.ratioQuartiles),
    `${met ? "met" : "NOT met"} (≤ 1 s)`,
  ]);
} else if (results.render?.skipped) rows.push(["first render", results.render.skipped, "", "skipped"]);
if (results.live) {
  const r = results.live;
  const met = r.ratio <= TARGETS.watchedCpuAtMost;
  verdicts.live = { measure: "CPU per call with a live page watching", target: `≤ ${TARGETS.watchedCpuAtMost}×`, value: r.ratio, met };
  rows.push([
    "CPU per call, watched vs unwatched",
    `${r.cpuMicrosPerCall.watched.toFixed(1)} vs ${r.cpuMicrosPerCall.unwatched.toFixed(1)} µs`,
    fmtRatioSpread(r.ratio, r.ratioQuartiles),
    verdictText(met, r.ratioQuartiles, TARGETS.watchedCpuAtMost, false),
  ]);
}
const table = renderTable(["measure", "value", "ratio (quartiles)", "aim"], rows);
console.log(table);
if (!args.has("no-json")) {
  const file = args.get("json") ?? path.join(benchDir, "results", "timeline.json");
  writeReport(file, {
    generatedAt: new Date().toISOString(),
    durationSeconds: (performance.now() - started) / 1000,
    environment: env,
    config: CONFIG,
    targets: TARGETS,
    results,
    skipped,
    verdicts,
    table,
  });
}
