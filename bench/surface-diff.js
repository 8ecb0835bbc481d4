#!/usr/bin/env node
/**
 * `node bench/surface-diff.js [--quick] [--rounds=N]` (the snapdiff section of `npm run bench`):
 * `diffSurfaces` on two surfaces of 500 tools each, every tool with an input schema of ten
 * properties (a nested object, an enum, a `$ref` into `$defs`, bounds) and an output schema; the
 * second surface removes 10 tools, adds 10, and changes 50 (a tightened bound, a new required
 * property, a widened output enum, a description).
 *
 * Wall time per diff, median of the rounds; aim: under 1 s. The baseline, in the same run, is
 * `util.isDeepStrictEqual` of the first surface with a copy of itself (a full walk of the same
 * size, unclassified: it stops at no difference), so the ratio says what the direction rules and
 * the classing cost over a plain deep comparison.
 */
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { benchDir, environment, median, parseArgs, quartiles, renderTable, writeReport } from "./lib/common.js";

const args = parseArgs();
const quick = args.has("quick");
const ROUNDS = Number(args.get("rounds") ?? (quick ? 5 : 15));
const TOOLS = 500;
const AIM_MS = 1000;
const SECTION_CAP_MS = 60_000;
const started = performance.now();

const { diffSurfaces } = await import("../dist/index.js");

function tool(index, changed) {
  const limitMax = changed && index % 5 === 0 ? 50 : 100;
  const inputSchema = {
    type: "object",
    $defs: { filter: { type: "object", properties: { field: { type: "string" }, op: { enum: ["eq", "ne", "lt", "gt"] }, value: { type: ["string", "number"] } }, required: ["field", "op"] } },
    properties: {
      query: { type: "string", minLength: 1, description: changed && index % 5 === 1 ? "What to look for, in words" : "What to look for" },
      limit: { type: "integer", minimum: 1, maximum: limitMax },
      offset: { type: "integer", minimum: 0 },
      sort: { enum: ["asc", "desc"] },
      fields: { type: "array", items: { type: "string" }, uniqueItems: true },
      filters: { type: "array", items: { $ref: "#/$defs/filter" }, maxItems: 10 },
      owner: { type: "object", properties: { id: { type: "string" }, team: { type: "string" } }, required: ["id"] },
      since: { type: "string", format: "date-time" },
      dryRun: { type: "boolean" },
      tags: { type: "array", items: { type: "string", pattern: "^[a-z-]+$" } },
      ...(changed && index % 5 === 2 ? { project: { type: "string" } } : {}),
    },
    required: changed && index % 5 === 2 ? ["query", "project"] : ["query"],
    additionalProperties: false,
  };
  const outputSchema = {
    type: "object",
    properties: {
      items: {
        type: "array",
        items: { type: "object", properties: { id: { type: "string" }, state: { enum: changed && index % 5 === 3 ? ["open", "closed", "archived"] : ["open", "closed"] } }, required: ["id", "state"] },
      },
      total: { type: "integer" },
    },
    required: ["items", "total"],
  };
  return { name: `tool_${String(index).padStart(3, "0")}`, description: `Tool number ${index}`, inputSchema, outputSchema, annotations: { readOnlyHint: index % 2 === 0 } };
}

function surface(second) {
  const tools = [];
  for (let index = 0; index < TOOLS + 10; index++) {
    if (!second && index >= TOOLS) continue; // the 10 added
    if (second && index < 10) continue; // the 10 removed
    tools.push(tool(index, second && index < 260 && index >= 10));
  }
  return { mcpSurface: 1, serverInfo: { name: "bench", version: second ? "2" : "1" }, capabilities: { tools: { listChanged: true } }, tools, resources: [], resourceTemplates: [], prompts: [] };
}

const before = surface(false);
const after = surface(true);
if (before.tools.length !== TOOLS || after.tools.length !== TOOLS) throw new Error("each surface has 500 tools");

// Warm-up, and a check that the diff finds what was changed.
const check = diffSurfaces(before, after);
if (check.counts.breaking < 10 + 50) throw new Error(`expected the removed tools and the tightened bounds as breaking, got ${JSON.stringify(check.counts)}`);

const diffMs = [];
const baselineMs = [];
for (let round = 0; round < ROUNDS && performance.now() - started < SECTION_CAP_MS; round++) {
  // Fresh copies each round: the diff caches canonical texts per object, and a CI diff starts cold.
  const [a, b] = [structuredClone(before), structuredClone(after)];
  const [c, d] = [structuredClone(before), structuredClone(before)];
  let t0 = performance.now();
  diffSurfaces(a, b);
  diffMs.push(performance.now() - t0);
  t0 = performance.now();
  if (!isDeepStrictEqual(c, d)) throw new Error("a surface equals its copy");
  baselineMs.push(performance.now() - t0);
}

const diff = median(diffMs);
const baseline = median(baselineMs);
const ratios = diffMs.map((ms, index) => ms / baselineMs[index]);
const ratio = median(ratios);
const [q1, q3] = quartiles(ratios);
const met = diff < AIM_MS;
const header = ["Measure", "diffSurfaces", "isDeepStrictEqual", "ratio (IQR)", "Aim", "Status"];
const rows = [["two 500-tool surfaces", `${diff.toFixed(1)} ms`, `${baseline.toFixed(2)} ms`, `${ratio.toFixed(1)}× (${q1.toFixed(1)}–${q3.toFixed(1)})`, `< ${AIM_MS} ms`, met ? "met" : "NOT MET"]];
console.log(renderTable(header, rows));
console.log(`${diffMs.length} rounds; ${check.changes.length} changes found (${check.counts.breaking} breaking, ${check.counts.compatible} compatible, ${check.counts.informational} informational).`);

if (!args.has("no-json")) {
  writeReport(path.join(benchDir, "results", "snapdiff.json"), {
    generatedAt: new Date().toISOString(),
    durationSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    environment: environment(),
    results: { diffMs: diff, baselineMs: baseline, ratio, ratioQuartiles: [q1, q3], rounds: diffMs.length, changes: check.counts },
    verdicts: { "snapdiff@500": { measure: "diffSurfaces on two 500-tool surfaces, wall ms", value: diff, ratio, target: `< ${AIM_MS} ms`, met } },
    table: { header, rows },
  });
}
