#!/usr/bin/env node
/**
 * `node bench/fakes.js [--quick] [--rounds=N]` (the fakes section of `npm run bench`):
 * what a fake-answered `tools/call` costs next to a scripted one, with 10,000 fake entries
 * loaded for 500 test ids (1×) and with 100,000 entries for 5,000 test ids (10×), so the lookup
 * can be seen not to grow with other tests' entries.
 *
 * Both sides go through the mock's real Streamable HTTP handling without a socket
 * (`server.fetch`, web Request in, Response out: header parsing, identity, session, engine), one
 * session each, every request with its own `X-Test-Id` header. The fake side's calls each find
 * their entry (20 per test id, matched on exact arguments); the scripted side answers the same
 * calls from a static step. CPU time of this process per call, per round; rounds alternate the
 * sides; ratios are per round, then the median (quartiles in brackets). Aim: ≤ 1.2× at 1× and 10×.
 */
import path from "node:path";
import { benchDir, cpuMicros, environment, exposedGc, fmtRatioSpread, fmtUs, median, parseArgs, quartiles, renderTable, writeReport } from "./lib/common.js";

const gc = exposedGc(import.meta.url);
const args = parseArgs();
const quick = args.has("quick");
const ROUNDS = Number(args.get("rounds") ?? (quick ? 4 : 8));
const CALLS_PER_SLICE = quick ? 2_000 : 5_000;
const ENTRIES_PER_TEST = 20;
const SECTION_CAP_MS = 60_000;
const AIM = 1.2;
const started = performance.now();

const { mockMcp } = await import("../dist/index.js");
const ACCEPT = "application/json, text/event-stream";

/** A session on `server` through `server.fetch`, with a function that sends one tools/call. */
async function session(server) {
  const post = (body, headers = {}) =>
    server.fetch(new Request("http://127.0.0.1/mcp", { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json", ...headers }, body: JSON.stringify(body) }));
  const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } });
  const sessionId = init.headers.get("mcp-session-id");
  await init.text();
  const common = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, common)).text();
  let id = 1;
  return async (testId, n) => {
    const response = await post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "lookup", arguments: { n } } }, { ...common, "x-test-id": encodeURIComponent(testId) });
    const body = await response.json();
    if (body.error || body.result?.isError) throw new Error(`the call failed: ${JSON.stringify(body)}`);
  };
}

function blocks(testIds) {
  return Array.from({ length: testIds }, (_, t) => ({
    scope: { testId: `suite > test ${t}` },
    tools: [{ name: "lookup", calls: Array.from({ length: ENTRIES_PER_TEST }, (_, n) => ({ args: { n }, result: `entry ${n} of test ${t}` })) }],
  }));
}

/** CPU µs per call over `count` calls that walk the test ids and their entries in order. */
async function slice(call, testIds, count, offset) {
  gc();
  const cpu0 = cpuMicros();
  for (let i = 0; i < count; i++) {
    const k = offset + i;
    await call(`suite > test ${Math.floor(k / ENTRIES_PER_TEST) % testIds}`, k % ENTRIES_PER_TEST);
  }
  return (cpuMicros() - cpu0) / count;
}

async function measure(testIds) {
  const fakes = await mockMcp({ transport: "memory", fixtures: blocks(testIds), tools: { lookup: { returns: "scripted" } }, fakesOptions: { logger: () => undefined } });
  const scripted = await mockMcp({ transport: "memory", tools: { lookup: { returns: "scripted" } } });
  const callFake = await session(fakes);
  const callScripted = await session(scripted);
  try {
    // Warm-up: each side once, then entries made fresh again.
    await slice(callFake, testIds, CALLS_PER_SLICE / 4, 0);
    await slice(callScripted, testIds, CALLS_PER_SLICE / 4, 0);
    const rounds = [];
    let offset = 0;
    for (let r = 0; r < ROUNDS; r++) {
      if (r >= 2 && performance.now() - started > SECTION_CAP_MS) break;
      fakes.fakes.reset(); // every entry unused again (not measured)
      const order = r % 2 === 0 ? ["fake", "scripted"] : ["scripted", "fake"];
      const round = {};
      for (const side of order) round[side] = await slice(side === "fake" ? callFake : callScripted, testIds, CALLS_PER_SLICE, offset);
      offset += CALLS_PER_SLICE;
      rounds.push(round);
    }
    const ratios = rounds.map((round) => round.fake / round.scripted);
    return {
      testIds,
      entries: testIds * ENTRIES_PER_TEST,
      rounds: rounds.length,
      fakeUs: median(rounds.map((r) => r.fake)),
      scriptedUs: median(rounds.map((r) => r.scripted)),
      ratio: median(ratios),
      q: quartiles(ratios),
    };
  } finally {
    await fakes.close();
    await scripted.close();
  }
}

const results = [await measure(500), await measure(5_000)];
const rows = results.map((m, i) => [
  `${i === 0 ? "1×" : "10×"}: ${m.entries.toLocaleString("en-US")} entries, ${m.testIds.toLocaleString("en-US")} test ids`,
  fmtUs(m.fakeUs),
  fmtUs(m.scriptedUs),
  fmtRatioSpread(m.ratio, m.q),
  `≤ ${AIM}×`,
  m.ratio <= AIM ? "met" : "NOT met",
]);
const header = ["Load", "fake-answered call, CPU", "scripted call, CPU", "fake / scripted (IQR)", "Aim", "Status"];
console.log(renderTable(header, rows));
console.log(
  `10× vs 1×, fake-answered CPU per call: ${(results[1].fakeUs / results[0].fakeUs).toFixed(2)}× (flat means the lookup does not grow with other tests' entries); ${results[0].rounds} and ${results[1].rounds} rounds of ${CALLS_PER_SLICE} calls.`,
);

if (!args.has("no-json")) {
  const verdicts = Object.fromEntries(
    results.map((m, i) => [
      `fakes@${i === 0 ? "1x" : "10x"}`,
      { measure: `fake-answered tools/call CPU vs scripted, ${m.entries} entries`, ratio: m.ratio, ratioQuartiles: m.q, target: `<= ${AIM}x`, met: m.ratio <= AIM },
    ]),
  );
  writeReport(path.join(benchDir, "results", "fakes.json"), {
    generatedAt: new Date().toISOString(),
    durationSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    environment: environment(),
    results,
    verdicts,
    table: { header, rows },
  });
}
