#!/usr/bin/env node
/**
 * `node bench/profile.js [--workload=W] [--count=N] [--top=N]`
 *
 * Runs one small mcp-testkit workload under `node --cpu-prof`, then prints where the time goes:
 * self time by function, with each function's position mapped back from `dist/` to `src/`
 * through the build's source maps, and the hottest lines inside the `src/` functions. Run
 * `npm run build` first. Workloads:
 *
 * - seq | par | setup: the in-memory mock with the SDK `Client` (as bench/memory.js), calls one
 *   at a time, 32 in flight, or setups.
 * - http-json | http-sse | http-modern: our mock served over Streamable HTTP (responseMode json /
 *   sse; http-modern: 2026-07-28 calls, no session); only
 *   the server process is profiled, the load comes from bench/lib/loadgen.js in another process
 *   (`--concurrency=N`, default 32; `--seconds=N`, default 8), as in bench/http.js. The other
 *   servers of bench/http.js can be profiled the same way for comparison: http-bare,
 *   http-aimock, http-sdk-json, http-sdk-sse.
 * - driver-seq | driver-par | driver-setup: our `mcpShell` driving bench/servers/minimal-stdio.mjs
 *   (the client process is profiled), as in bench/driver.js; `--driver=sdk` or `--driver=expect`
 *   profiles the SDK's StdioClientTransport + Client or expect-mcp's mcpShell instead.
 * - handler-ours-json | handler-ours-fn | handler-ours-modern | handler-bare | handler-bare-modern:
 *   bench/handler-cost.js's stand-in requests, one side, no sockets (`--count=N`, `--thrash=KB`).
 * - simulate: one simulated `tools/call` at a time through `simulate(mock)` (as bench/observe.js,
 *   part simulate), a `Request` built per call; `--input=init` passes a plain init object instead.
 *
 * The .cpuprofile is kept in bench/results/profiles/ (open it in Chrome DevTools > Performance).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key, value ?? "true"];
  }),
);
const workload = args.get("workload") ?? "seq";
const top = Number(args.get("top") ?? 25);

// ---------------------------------------------------------------- child: the workload itself
if (process.env.MCP_TESTKIT_PROFILE_CHILD === "1" && workload.startsWith("http-")) {
  // The server alone in this (profiled) process; the load generator in a child of its own.
  const { startSide } = await import("./servers/http-sides.js");
  const side = { "http-json": "ours-json", "http-sse": "ours-sse", "http-modern": "ours-modern" }[workload] ?? workload.slice("http-".length);
  const server = await startSide(side);
  const seconds = Math.min(Number(args.get("seconds") ?? 8), 30);
  const loadgen = spawn(
    process.execPath,
    [path.join(here, "lib", "loadgen.js"), `--url=${server.url}`, `--concurrency=${args.get("concurrency") ?? 32}`, `--seconds=${seconds}`, `--era=${side === "ours-modern" ? "modern" : "legacy"}`],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  const killer = setTimeout(() => loadgen.kill("SIGKILL"), (seconds + 20) * 1000);
  const code = await new Promise((resolve) => loadgen.on("exit", resolve));
  clearTimeout(killer);
  console.log(`workload ${workload} (${side}): load generator exit ${code}${server.stats ? `, record ${JSON.stringify(server.stats())}` : ""}`);
  await server.stop();
  process.exit(0);
}
if (process.env.MCP_TESTKIT_PROFILE_CHILD === "1" && workload.startsWith("handler-")) {
  // One side of bench/handler-cost.js in this thread: its handler called with stand-in req/res, the caches thrashed between calls.
  const { buildSide, slice } = await import("./handler-cost.js");
  const side = await buildSide(workload.slice("handler-".length));
  const count = Math.min(Number(args.get("count") ?? 100_000), 1_000_000);
  const us = slice(side, count, 1);
  console.log(`workload ${workload}: ${count} calls, ${us.toFixed(2)} µs each (thrash ${args.get("thrash") ?? 0} KiB between calls, not timed)`);
  await side.close();
  process.exit(0);
}
if (process.env.MCP_TESTKIT_PROFILE_CHILD === "1" && workload.startsWith("driver-")) {
  // The same three clients as bench/driver.js, the same environment for every child.
  const { getDefaultEnvironment, StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const script = path.join(here, "servers", "minimal-stdio.mjs");
  const childEnv = getDefaultEnvironment();
  const command = `"${process.execPath}" "${script}"`;
  const which = args.get("driver") ?? "ours";
  const openers = {
    async ours() {
      const { mcpShell } = await import("../dist/index.js");
      const driver = mcpShell(command, { env: { ...Object.fromEntries(Object.keys(process.env).map((key) => [key, undefined])), ...childEnv } });
      await driver.initialize();
      await driver.getTools();
      return { call: () => driver.callTool("echo", {}), close: () => driver.close() };
    },
    async expect() {
      const { mcpShell } = await import("expect-mcp");
      const driver = mcpShell(command, { env: childEnv });
      await driver.initialize();
      await driver.getTools();
      return { call: () => driver.callTool("echo", {}), close: () => driver.close() };
    },
    async sdk() {
      const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
      const client = new Client({ name: "bench-client", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [script] }));
      await client.listTools();
      return { call: () => client.callTool({ name: "echo", arguments: {} }), close: () => client.close() };
    },
  };
  const open = openers[which];
  if (!open) throw new Error(`--driver=${which}: expected ours, expect or sdk`);
  const deadline = performance.now() + 15_000;
  const t0 = performance.now();
  let done = 0;
  if (workload === "driver-setup") {
    const count = Number(args.get("count") ?? 200);
    for (; done < count && performance.now() < deadline; done++) await (await open()).close();
  } else {
    const count = Number(args.get("count") ?? 100_000);
    const inFlight = workload === "driver-par" ? 32 : 1;
    const handle = await open();
    let issued = 0;
    const worker = async () => {
      while (issued < count && performance.now() < deadline) {
        issued++;
        await handle.call();
        done++;
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    await handle.close();
  }
  const ms = performance.now() - t0;
  console.log(`workload ${workload} (${which}): ${done} iterations in ${ms.toFixed(0)} ms (${((done / ms) * 1000).toFixed(0)}/s, profiler on)`);
  // expect-mcp's close() leaves a 5 s timer behind: do not wait for it.
  process.exit(0);
}
if (process.env.MCP_TESTKIT_PROFILE_CHILD === "1" && workload === "simulate") {
  // One simulated tools/call at a time through simulate(mock), as bench/observe.js (part simulate):
  // a `Request` built per call, or with --input=init a plain init object.
  const { mockMcp, simulate } = await import("../dist/index.js");
  const server = await mockMcp({ tools: { echo: { returns: "ok" } } });
  const sim = simulate(server);
  const url = `${new URL(server.url).origin}/mcp`;
  const plain = args.get("input") === "init";
  const post = (body, headers = {}) => {
    const init = { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) };
    return plain ? { ...init, url } : new Request(url, init);
  };
  const opened = await sim.startRequest(
    post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "profile", version: "0" } } }),
  );
  const session = { "mcp-session-id": (await opened.awaitResponse(5000)).header("mcp-session-id"), "mcp-protocol-version": "2025-11-25" };
  await (await sim.startRequest(post({ jsonrpc: "2.0", method: "notifications/initialized" }, session))).awaitCompletion(5000);
  const count = Number(args.get("count") ?? 100_000);
  const deadline = performance.now() + 15_000;
  const t0 = performance.now();
  let done = 0;
  for (; done < count && performance.now() < deadline; done++) {
    const simulation = await sim.startRequest(post({ jsonrpc: "2.0", id: done + 1, method: "tools/call", params: { name: "echo", arguments: {} } }, session));
    const completion = await simulation.awaitCompletion(5000);
    if (completion?.terminalMessage?.result === undefined) throw new Error(`a simulated call ended ${completion?.reason}`);
    if (done % 5000 === 0) sim.recorder.clear();
  }
  const ms = performance.now() - t0;
  console.log(`workload simulate (${plain ? "init object" : "Request"}): ${done} iterations in ${ms.toFixed(0)} ms (${((done / ms) * 1000).toFixed(0)}/s, profiler on)`);
  sim.close();
  await server.close();
  process.exit(0);
}
if (process.env.MCP_TESTKIT_PROFILE_CHILD === "1") {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { mockMcp } = await import("../dist/index.js");
  const call = { name: "echo", arguments: {} };
  const connect = async () => {
    const server = await mockMcp({ transport: "memory", tools: { echo: { returns: "ok" } } });
    const client = new Client({ name: "bench-client", version: "1.0.0" });
    await client.connect(await server.connectInMemory());
    return { server, client };
  };
  const deadline = performance.now() + 15_000;
  const t0 = performance.now();
  let done = 0;
  if (workload === "setup") {
    const count = Number(args.get("count") ?? 5000);
    for (; done < count && performance.now() < deadline; done++) {
      const { server, client } = await connect();
      await client.close();
      await server.close();
    }
  } else {
    const count = Number(args.get("count") ?? 100_000);
    const inFlight = workload === "par" ? 32 : 1;
    const { server, client } = await connect();
    let issued = 0;
    const worker = async () => {
      while (issued < count && performance.now() < deadline) {
        issued++;
        await client.callTool(call);
        done++;
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    await client.close();
    await server.close();
  }
  const ms = performance.now() - t0;
  console.log(`workload ${workload}: ${done} iterations in ${ms.toFixed(0)} ms (${((done / ms) * 1000).toFixed(0)}/s, profiler on)`);
  process.exit(0);
}

// ---------------------------------------------------------------- parent: run, then report
const profileDir = path.join(here, "results", "profiles");
mkdirSync(profileDir, { recursive: true });
const name = `${workload}-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`;
const child = spawnSync(
  process.execPath,
  ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}`, "--cpu-prof-interval=100", fileURLToPath(import.meta.url), ...process.argv.slice(2)],
  { stdio: "inherit", env: { ...process.env, MCP_TESTKIT_PROFILE_CHILD: "1" } },
);
if (child.status !== 0) process.exit(child.status ?? 1);
const profilePath = path.join(profileDir, name);
const profile = JSON.parse(readFileSync(profilePath, "utf8"));

// ---- source maps (dist/**/*.js.map → src), base64 VLQ decoded here to need no dependency
const B64 = Object.fromEntries([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((c, i) => [c, i]));
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  let origLine = 0;
  let origCol = 0;
  for (const lineText of mappings.split(";")) {
    const segments = [];
    let genCol = 0;
    for (const segment of lineText.split(",")) {
      if (!segment) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const ch of segment) {
        const digit = B64[ch];
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      genCol += values[0];
      if (values.length >= 4) {
        source += values[1];
        origLine += values[2];
        origCol += values[3];
        segments.push([genCol, source, origLine, origCol]);
      }
    }
    lines.push(segments);
  }
  return lines;
}
const mapCache = new Map();
/** 0-based generated line/column in a dist file → "src/...:line" (1-based), or null. */
function toSource(file, line, column) {
  if (!mapCache.has(file)) {
    const mapFile = `${file}.map`;
    if (!existsSync(mapFile)) mapCache.set(file, null);
    else {
      const map = JSON.parse(readFileSync(mapFile, "utf8"));
      mapCache.set(file, { map, lines: decodeMappings(map.mappings) });
    }
  }
  const entry = mapCache.get(file);
  if (!entry) return null;
  const segments = entry.lines[line] ?? [];
  let best = segments[0];
  for (const segment of segments) if (segment[0] <= column) best = segment;
  if (!best) {
    // No mapping on that line: take the nearest mapped line above it.
    for (let l = line - 1; l >= 0 && !best; l--) best = entry.lines[l]?.at(-1);
    if (!best) return null;
  }
  const source = path.resolve(path.dirname(file), entry.map.sourceRoot ?? "", entry.map.sources[best[1]]);
  return `${path.relative(root, source)}:${best[2] + 1}`;
}

// ---- aggregate
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

const distPrefix = pathToFileURL(path.join(root, "dist")).href;
function describe(frame) {
  const fn = frame.functionName || "(anonymous)";
  if (!frame.url) return { key: fn, fn, where: "", area: fn.startsWith("(") ? "v8" : "native" };
  let where = frame.url.replace(pathToFileURL(root).href + "/", "");
  let area = "other";
  if (frame.url.startsWith(distPrefix)) {
    area = "mcp-testkit";
    const mapped = toSource(fileURLToPath(frame.url), frame.lineNumber, frame.columnNumber);
    where = mapped ?? `${where}:${frame.lineNumber + 1}`;
  } else {
    if (frame.url.includes("@modelcontextprotocol/sdk")) area = "sdk";
    else if (frame.url.includes("/zod/")) area = "zod";
    else if (frame.url.startsWith("node:")) area = "node";
    where = `${where.replace(/^.*node_modules\//, "")}:${frame.lineNumber + 1}`;
  }
  return { key: `${fn} ${where}`, fn, where, area };
}

const byFunction = new Map();
const byArea = new Map();
const srcLines = new Map();
for (const [id, us] of selfUs) {
  const node = nodes.get(id);
  const d = describe(node.callFrame);
  const entry = byFunction.get(d.key) ?? { ...d, selfUs: 0 };
  entry.selfUs += us;
  byFunction.set(d.key, entry);
  byArea.set(d.area, (byArea.get(d.area) ?? 0) + us);
  if (d.area === "mcp-testkit" && node.positionTicks && node.hitCount) {
    const file = fileURLToPath(node.callFrame.url);
    for (const tick of node.positionTicks) {
      const where = toSource(file, tick.line - 1, 0) ?? `${tick.line}`;
      srcLines.set(where, (srcLines.get(where) ?? 0) + (us * tick.ticks) / node.hitCount);
    }
  }
}
// Inclusive time of mcp-testkit functions: a sample counts once for every src function on its stack.
const inclusive = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const seen = new Set();
  for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
    const d = describe(nodes.get(id).callFrame);
    if (d.area !== "mcp-testkit" || seen.has(d.key)) continue;
    seen.add(d.key);
    inclusive.set(d.key, (inclusive.get(d.key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
}

const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
const ms = (us) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
console.log(`\nprofile: ${path.relative(process.cwd(), profilePath)}, ${ms(totalUs).trim()} sampled`);
console.log("\nself time by area:");
for (const [area, us] of [...byArea].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(us)} ${ms(us)}  ${area}`);
console.log(`\ntop ${top} functions by self time (all code):`);
for (const f of [...byFunction.values()].sort((a, b) => b.selfUs - a.selfUs).slice(0, top)) {
  console.log(`  ${pct(f.selfUs)} ${ms(f.selfUs)}  ${f.area.padEnd(11)} ${f.fn}  ${f.where}`);
}
console.log(`\nmcp-testkit functions (src/) by self time:`);
for (const f of [...byFunction.values()]
  .filter((f) => f.area === "mcp-testkit")
  .sort((a, b) => b.selfUs - a.selfUs)
  .slice(0, top)) {
  console.log(`  ${pct(f.selfUs)} ${ms(f.selfUs)}  ${f.fn}  ${f.where}   (inclusive ${pct(inclusive.get(f.key) ?? 0).trim()})`);
}
console.log(`\nmcp-testkit functions (src/) by inclusive time (callees in SDK/zod/node counted too):`);
for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)} ${ms(us)}  ${key}`);
if (srcLines.size) {
  console.log(`\nhottest src/ lines by self time:`);
  for (const [where, us] of [...srcLines].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(us)} ${ms(us)}  ${where}`);
}
// Keep the profile directory small: only the 6 newest profiles.
const old = readdirSync(profileDir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .map((f) => ({ f, t: statSync(path.join(profileDir, f)).mtimeMs }))
  .sort((a, b) => b.t - a.t)
  .slice(6);
for (const { f } of old) spawnSync("rm", ["-f", path.join(profileDir, f)]);
