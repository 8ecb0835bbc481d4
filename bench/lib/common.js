/**
 * Helpers shared by the benchmark sections (bench/http.js, bench/driver.js): argument parsing,
 * medians and quartiles, the order in which sides take turns, table rendering, the machine note.
 * The in-memory section (bench/memory.js) keeps its own copies, unchanged.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const rootDir = path.resolve(benchDir, "..");

/** `--key=value` and `--flag` arguments as a Map. */
/**
 * The section's `gc`, re-running the section (`scriptUrl`, its `import.meta.url`) under
 * `--expose-gc` first when it was started without it (then this process exits with the child's code).
 */
export function exposedGc(scriptUrl) {
  if (typeof globalThis.gc !== "function") {
    const child = spawnSync(process.execPath, [...process.execArgv, "--expose-gc", fileURLToPath(scriptUrl), ...process.argv.slice(2)], { stdio: "inherit" });
    if (child.error) throw child.error;
    process.exit(child.status ?? 1);
  }
  return /** @type {() => void} */ (globalThis.gc);
}

export function parseArgs(argv = process.argv.slice(2)) {
  return new Map(
    argv.map((arg) => {
      const [key, ...value] = arg.replace(/^--/, "").split("=");
      return [key, value.length ? value.join("=") : "true"];
    }),
  );
}

/**
 * Whether a measured server process collects its heap (`gc()` twice) before each slice. Off by
 * default: a full collection forced every slice shrinks the young generation and leaves
 * sweeping to V8's helper threads, work that lands in the next slice and grows with the heap. On
 * this machine it doubled a bare node:http server's CPU per call (59 → 119 µs, 38 µs of it on
 * helper threads) and inflated every ratio to it (bench/README.md, "Why the servers' heaps are
 * not collected between slices"). Since 2026-12-01's fourth session the HTTP load generator
 * (the bench process) is not collected before each slice either: a forced collection there
 * slowed it for the slice that followed and put our mock at 1.10× / 1.16× a bare server (JSON /
 * step function) where the same run without it gave 1.01× / 1.06× (a paired harness, 30 rounds,
 * the SDK servers in the rotation). `--gc-each-slice` brings both back, for comparisons with
 * figures measured that way.
 */
export const gcEachSlice = (args) => args.has("gc-each-slice");

// ---------------------------------------------------------------- statistics
export const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** Nearest-rank percentile of an ascending array. */
export const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : NaN);
/** Lower and upper quartile (linear interpolation). */
export const quartiles = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const at = (q) => {
    const pos = (sorted.length - 1) * q;
    const lo = Math.floor(pos);
    return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (pos - lo);
  };
  return sorted.length ? [at(0.25), at(0.75)] : [NaN, NaN];
};
export const mean = (values) => (values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : NaN);
export const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

// ---------------------------------------------------------------- the order sides take turns in
export function permutations(items) {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/**
 * A Williams design (balanced Latin square): for n sides, n orders (2n when n is odd) in which
 * every side is in every position equally often and follows every other side equally often.
 * With 3 sides this is all 6 orders; with 4 or 6 sides it needs 4 or 6 rounds, not 24 or 720.
 */
export function balancedOrders(items) {
  const n = items.length;
  if (n <= 3) return permutations(items);
  const first = [];
  for (let i = 0, lo = 0, hi = n - 1; i < n; i++) first.push(i % 2 === 0 ? lo++ : hi--);
  const rows = [];
  for (let r = 0; r < n; r++) rows.push(first.map((k) => items[(k + r) % n]));
  if (n % 2 === 1) for (const row of [...rows]) rows.push([...row].reverse());
  return rows;
}

// ---------------------------------------------------------------- per-round ratios
/**
 * Median over rounds of each key for each side, and for each `ratioKeys` key the per-round
 * ratio side / `reference` (both measured in the same round, under the same load): the median
 * and the quartiles of those ratios.
 */
export function summarizeAgainst(rounds, sides, reference, keys, ratioKeys) {
  const medians = {};
  for (const side of sides) {
    medians[side] = {};
    for (const key of keys) medians[side][key] = median(rounds.map((round) => round[side]?.[key]));
  }
  const ratio = {};
  const ratioQuartiles = {};
  for (const side of sides) {
    if (side === reference) continue;
    ratio[side] = {};
    ratioQuartiles[side] = {};
    for (const key of ratioKeys) {
      const perRound = rounds.map((round) => round[side]?.[key] / round[reference]?.[key]);
      ratio[side][key] = median(perRound);
      ratioQuartiles[side][key] = quartiles(perRound);
    }
  }
  return { median: medians, ratio, ratioQuartiles };
}

// ---------------------------------------------------------------- formatting
export const fmtInt = (n) => (Number.isFinite(n) ? (Math.round(n) || 0).toLocaleString("en-US") : "n/a");
export const fmtUs = (n) => `${fmtInt(n)} µs`;
export const fmtMs = (n, digits = 1) => (Number.isFinite(n) ? `${n.toFixed(digits)} ms` : "n/a");
export const fmtRate = (n) => `${fmtInt(n)}/s`;
export const fmtRatio = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "n/a");
/** The median ratio with the quartiles of the per-round ratios: "1.55× (1.42–1.61)". */
export const fmtRatioSpread = (n, q) => (Number.isFinite(n) && q ? `${fmtRatio(n)} (${q[0].toFixed(2)}–${q[1].toFixed(2)})` : fmtRatio(n));
/** "met" / "NOT met", and "borderline" when the middle half of the rounds straddles the target. */
export const verdictText = (met, [q1, q3], target, higherIsBetter) => {
  const straddles = higherIsBetter ? q1 < target && q3 >= target : q1 <= target && q3 > target;
  return `${met ? "met" : "NOT met"}${straddles ? " (borderline)" : ""}`;
};

export function renderTable(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((row) => String(row[c] ?? "").length)));
  const line = (row) => `| ${row.map((cell, c) => String(cell ?? "").padEnd(widths[c])).join(" | ")} |`;
  return [line(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n");
}

// ---------------------------------------------------------------- the machine and the results file
export function environment() {
  let commit = null;
  let srcDirty = null;
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: benchDir, encoding: "utf8" }).trim();
    srcDirty = execFileSync("git", ["status", "--porcelain", "--", "../src"], { cwd: benchDir, encoding: "utf8" }).trim() !== "";
  } catch {
    /* not a git checkout */
  }
  const version = (pkg) => {
    try {
      return JSON.parse(readFileSync(path.join(rootDir, "node_modules", pkg, "package.json"), "utf8")).version;
    } catch {
      return null;
    }
  };
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    versions: { sdk: version("@modelcontextprotocol/sdk"), aimock: version("@copilotkit/aimock"), expectMcp: version("expect-mcp") },
    gitCommit: commit,
    srcHasUncommittedChanges: srcDirty,
    nodeExtraCaCerts: process.env.NODE_EXTRA_CA_CERTS ? "set" : "not set",
    loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

export function banner(title, env) {
  console.log(
    `${title}: node ${env.node}, ${env.cpus} CPUs (${env.cpuModel}), commit ${env.gitCommit}${env.srcHasUncommittedChanges ? " + uncommitted src/ changes" : ""}, load ${env.loadAverageAtStart.join(" ")}`,
  );
  if (env.loadAverageAtStart[0] > env.cpus * 0.75) {
    console.log("note: the machine is busy (load average above 3/4 of the CPU count); absolute numbers will be low and noisy, per-round ratios less so.");
  }
}

/** Writes the section's report (numbers rounded to 5 significant digits). */
export function writeReport(file, report) {
  mkdirSync(path.dirname(file), { recursive: true });
  const rounded = (_key, value) => (typeof value === "number" && !Number.isInteger(value) ? Number(value.toPrecision(5)) : value);
  writeFileSync(file, `${JSON.stringify({ ...report, environment: { ...report.environment, loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))) } }, rounded, 1)}\n`);
}

/** Resolves `promise`, or rejects after `ms` with `what` in the message (no loop waits forever). */
export function within(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      timer.unref?.();
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Runs the parts of a section that were asked for, in order, each `[flag, key, title, run]`;
 * a part not yet started once the time cap is spent is skipped (and listed), never cut short.
 */
export async function runPlan(plan, { wanted, timeLeft, capMs, capLabel = "section" }) {
  const results = {};
  const skipped = [];
  for (const [flag, key, title, run] of plan) {
    if (!wanted.has(flag)) continue;
    if (timeLeft() <= 0) {
      skipped.push(key);
      console.log(`skipped ${title}: the ${capLabel}'s time cap (${capMs / 1000}s) is spent`);
      continue;
    }
    const t0 = performance.now();
    results[key] = await run();
    const rounds = results[key].rounds ? `, ${results[key].rounds.length} rounds` : "";
    console.log(`measured ${title} in ${((performance.now() - t0) / 1000).toFixed(1)}s${rounds}`);
  }
  return { results, skipped };
}

/**
 * Calls `onMessage` with each JSON-RPC message a child writes to stdout, one per line: what the
 * hand-written minimal clients (bench/driver.js's reference row, bench/wake-cost.js) read with.
 */
export function readJsonLines(stdout, onMessage) {
  let buffered = "";
  stdout.setEncoding("utf8");
  stdout.on("data", (chunk) => {
    buffered += chunk;
    for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      onMessage(message);
    }
  });
}
