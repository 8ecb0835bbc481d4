#!/usr/bin/env node
/**
 * `node bench/auth.js [--quick] [--rounds=N]` (the auth section of `npm run bench`): what a
 * `tools/call` with a valid bearer token costs on a protected mock (`mockMcp({ auth: {} })`, a
 * JWT its authorization server issued) next to the same call on an unprotected mock.
 *
 * Both sides go through the mock's real Streamable HTTP handling without a socket
 * (`server.fetch`: the router, the token gate on the protected side, the endpoint, the engine),
 * one session each. CPU time of this process per call, per round; rounds alternate the sides;
 * ratios are per round, then the median (quartiles in brackets). Aim: ≤ 1.1×.
 */
import path from "node:path";
import { benchDir, cpuMicros, environment, exposedGc, fmtRatioSpread, fmtUs, median, parseArgs, quartiles, renderTable, writeReport } from "./lib/common.js";

const gc = exposedGc(import.meta.url);
const args = parseArgs();
const quick = args.has("quick");
const ROUNDS = Number(args.get("rounds") ?? (quick ? 4 : 8));
const CALLS_PER_SLICE = quick ? 2_000 : 5_000;
const SECTION_CAP_MS = 60_000;
const AIM = 1.1;
const started = performance.now();

const { mockMcp } = await import("../dist/index.js");
const ACCEPT = "application/json, text/event-stream";

/** A session on `server` through `server.fetch` (with `token` as its bearer token, if any), and a function that sends one tools/call. */
async function session(server, token) {
  const auth = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const post = (body, headers = {}) =>
    server.fetch(new Request(server.url, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json", ...auth, ...headers }, body: JSON.stringify(body) }));
  const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } });
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}`);
  const sessionId = init.headers.get("mcp-session-id");
  await init.text();
  const common = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, common)).text();
  let id = 1;
  return async () => {
    const response = await post({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } }, common);
    const body = await response.json();
    if (body.error || body.result?.isError) throw new Error(`the call failed: ${JSON.stringify(body)}`);
  };
}

/** CPU µs per call over `count` calls. */
async function slice(call, count) {
  gc();
  const cpu0 = cpuMicros();
  for (let i = 0; i < count; i++) await call();
  return (cpuMicros() - cpu0) / count;
}

const tools = { echo: { returns: "hi" } };
const protectedMock = await mockMcp({ auth: {}, tools });
const openMock = await mockMcp({ tools });
let result;
try {
  const callProtected = await session(protectedMock, await protectedMock.auth.issueToken());
  const callOpen = await session(openMock);
  await slice(callProtected, CALLS_PER_SLICE / 4);
  await slice(callOpen, CALLS_PER_SLICE / 4);
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r >= 2 && performance.now() - started > SECTION_CAP_MS) break;
    const order = r % 2 === 0 ? ["protected", "open"] : ["open", "protected"];
    const round = {};
    for (const side of order) round[side] = await slice(side === "protected" ? callProtected : callOpen, CALLS_PER_SLICE);
    rounds.push(round);
  }
  const ratios = rounds.map((round) => round.protected / round.open);
  result = { rounds: rounds.length, protectedUs: median(rounds.map((r) => r.protected)), openUs: median(rounds.map((r) => r.open)), ratio: median(ratios), q: quartiles(ratios) };
} finally {
  await protectedMock.close();
  await openMock.close();
}

const header = ["Call", "with a valid token, CPU", "unprotected, CPU", "protected / unprotected (IQR)", "Aim", "Status"];
const rows = [
  ["tools/call over Streamable HTTP (server.fetch)", fmtUs(result.protectedUs), fmtUs(result.openUs), fmtRatioSpread(result.ratio, result.q), `≤ ${AIM}×`, result.ratio <= AIM ? "met" : "NOT met"],
];
console.log(renderTable(header, rows));
console.log(`${result.rounds} rounds of ${CALLS_PER_SLICE} calls each side.`);

if (!args.has("no-json")) {
  writeReport(path.join(benchDir, "results", "auth.json"), {
    generatedAt: new Date().toISOString(),
    durationSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    environment: environment(),
    result,
    verdicts: { "auth@token": { measure: "tools/call CPU with a valid bearer token vs unprotected", ratio: result.ratio, ratioQuartiles: result.q, target: `<= ${AIM}x`, met: result.ratio <= AIM } },
    table: { header, rows },
  });
}
