#!/usr/bin/env node
/**
 * `npm run bench` (after the build): every benchmark section, one after the other, each in a
 * process of its own (no JIT, heap or GC state carried from one to the next):
 *
 * - memory  bench/memory.js  the in-memory mock vs the SDK's McpServer over InMemoryTransport
 * - http    bench/http.js    Streamable HTTP: our mock vs aimock, the SDK and a bare node:http server
 * - driver  bench/driver.js  the stdio driver vs expect-mcp and the SDK's StdioClientTransport
 * - observe bench/observe.js observers + metrics on vs off, a simulated call vs an HTTP round trip
 * - fakes   bench/fakes.js   a fake-answered tools/call vs a scripted one, at 10,000 and 100,000 entries
 * - trace   bench/trace.js   a mock writing a trace file vs the same mock without one
 * - verify  bench/verify.js  verifying 1,000 recorded calls against an in-memory server vs replaying them
 * - import  bench/import-cost.js  import("mcp-testkit") in a fresh process vs aimock's entry and a bare node start
 * - auth    bench/auth.js    a tools/call with a valid bearer token on a protected mock vs an unprotected one
 * - timeline bench/timeline.js  the timeline page's first render in Chromium (10,000 vs 100 messages), a live page's cost per call
 * - tasks   bench/tasks.js   a task-augmented call (create + 3 polls) vs a plain one; 100,000 tasks expired, heap flat
 * - snapdiff bench/surface-diff.js diffSurfaces on two 500-tool surfaces vs a plain deep comparison
 *
 * Options: --only=memory,http,driver,observe,fakes,trace,verify,import,auth,timeline,tasks,snapdiff (default all; the memory section's own parts setup, seq,
 * par, mem are accepted too and run only those), --quick, --rounds=N, --no-json (passed to every
 * section). Each section writes bench/results/<section>.json; this writes
 * bench/results/latest.json, a summary of the sections it ran (their tables and aims) that
 * points to those files. With --no-json nothing is written (a smoke run keeps the last results).
 *
 * Bounds: each section has its own time caps (see each file: memory 60 s, http 270 s, driver 100 s,
 * observe 80 s, fakes 60 s, trace 60 s, verify 60 s, import 90 s, auth 60 s, timeline 60 s, tasks 120 s, snapdiff 60 s; a full run takes about 14 minutes with the build); a section still running
 * at its hard cap here is killed, and the run goes on with the next one.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { benchDir, environment, parseArgs, writeReport } from "./lib/common.js";

const args = parseArgs();
const MEMORY_PARTS = ["setup", "seq", "par", "mem"];
const SECTIONS = {
  memory: { file: "memory.js", hardCapMs: 90_000 },
  http: { file: "http.js", hardCapMs: 330_000 },
  driver: { file: "driver.js", hardCapMs: 125_000 },
  observe: { file: "observe.js", hardCapMs: 95_000 },
  fakes: { file: "fakes.js", hardCapMs: 90_000 },
  trace: { file: "trace.js", hardCapMs: 75_000 },
  verify: { file: "verify.js", hardCapMs: 90_000 },
  import: { file: "import-cost.js", hardCapMs: 120_000 },
  auth: { file: "auth.js", hardCapMs: 90_000 },
  timeline: { file: "timeline.js", hardCapMs: 75_000 },
  tasks: { file: "tasks.js", hardCapMs: 120_000 },
  snapdiff: { file: "surface-diff.js", hardCapMs: 90_000 },
};
const only = (args.get("only") ?? "memory,http,driver,observe,fakes,trace,verify,import,auth,timeline,tasks,snapdiff").split(",").filter(Boolean);
const unknown = only.filter((name) => !(name in SECTIONS) && !MEMORY_PARTS.includes(name));
if (unknown.length) {
  console.error(`unknown --only value(s): ${unknown.join(", ")}; sections: ${Object.keys(SECTIONS).join(", ")} (memory parts: ${MEMORY_PARTS.join(", ")})`);
  process.exit(2);
}
const memoryParts = only.filter((name) => MEMORY_PARTS.includes(name));
const plan = Object.keys(SECTIONS).filter((name) => only.includes(name) || (name === "memory" && memoryParts.length));
const noJson = args.has("no-json");
const passed = [...args].filter(([key]) => key === "quick" || key === "rounds" || key === "no-json").map(([key, value]) => (value === "true" ? `--${key}` : `--${key}=${value}`));

const started = performance.now();
const env = environment();
const ran = {};
for (const name of plan) {
  const { file, hardCapMs } = SECTIONS[name];
  const sectionArgs = [...passed, ...(name === "memory" && memoryParts.length && !only.includes("memory") ? [`--only=${memoryParts.join(",")}`] : [])];
  console.log(`\n=== ${name} (bench/${file}${sectionArgs.length ? ` ${sectionArgs.join(" ")}` : ""}) ===`);
  const t0 = performance.now();
  const child = spawnSync(process.execPath, [path.join(benchDir, file), ...sectionArgs], { stdio: "inherit", timeout: hardCapMs, killSignal: "SIGKILL" });
  const seconds = Number(((performance.now() - t0) / 1000).toFixed(1));
  const status = child.error ? `failed: ${child.error.message}` : child.status === 0 ? "ok" : `exit ${child.status ?? child.signal}`;
  ran[name] = { seconds, status };
  if (status !== "ok") console.log(`section ${name}: ${status}`);
}

// ---- latest.json: what each section measured and whether its aims were met
const sections = {};
for (const name of noJson ? [] : plan) {
  const file = path.join(benchDir, "results", `${name}.json`);
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8"));
  sections[name] = {
    file: `bench/results/${name}.json`,
    generatedAt: report.generatedAt,
    durationSeconds: report.durationSeconds,
    status: ran[name].status,
    loadAverage: { start: report.environment?.loadAverageAtStart, end: report.environment?.loadAverageAtEnd },
    verdicts: report.verdicts,
    table: report.table,
  };
}
const totalSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
if (!noJson) writeReport(path.join(benchDir, "results", "latest.json"), { generatedAt: new Date().toISOString(), durationSeconds: totalSeconds, environment: env, ran, sections });

console.log(`\n=== summary (${totalSeconds}s) ===`);
for (const [name, section] of Object.entries(sections)) {
  const verdicts = Object.values(section.verdicts ?? {}).filter((v) => v.governing !== false);
  const misses = verdicts.filter((v) => !v.met).map((v) => v.measure);
  console.log(`${name}: ${ran[name].status}, ${ran[name].seconds}s; ${verdicts.length - misses.length}/${verdicts.length} aims met${misses.length ? `; NOT met: ${misses.join("; ")}` : ""}`);
}
if (noJson) for (const name of plan) console.log(`${name}: ${ran[name].status}, ${ran[name].seconds}s (--no-json: nothing written)`);
else console.log("results: bench/results/latest.json (summary), bench/results/<section>.json (every round)");
process.exit(Object.values(ran).every((r) => r.status === "ok") ? 0 : 1);
