#!/usr/bin/env node
/**
 * `node bench/import-cost.js [--quick] [--rounds=N] [--no-json]` (the import section of `npm run
 * bench`): what `import("mcp-testkit")` costs a fresh process, the time every isolated test file
 * and every CLI start pays before any work. Beside it: aimock's entry (`@copilotkit/aimock`), a
 * bare node start (nothing imported), and the subpath entries for comparison.
 *
 * Each measurement is a fresh `node` process that reads the clock, `process.cpuUsage()` and its
 * RSS, awaits `import(entry)`, and reads them again; the process's wall time from spawn to exit
 * is taken too. Rounds alternate the entries (the order reversed every other round) so a busy
 * moment of the machine is shared; the median of the rounds is shown. Aim: the main entry in at
 * most 80 ms and 15 MB of RSS added.
 *
 * `--before=<dir>` adds a row for another build's main entry (`<dir>/index.js`, e.g. a `dist/`
 * built from an earlier commit), measured in the same rounds, for a paired comparison.
 *
 * Bounds: at most 40 rounds; each process must exit within 20 s (then it is killed and the round
 * counts as failed); the section stops starting rounds after 90 s.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { banner, benchDir, environment, fmtMs, median, parseArgs, renderTable, rootDir, writeReport } from "./lib/common.js";

const args = parseArgs();
const quick = args.has("quick");
const ROUNDS = Math.min(Number(args.get("rounds") ?? (quick ? 4 : 10)), 40);
const PROCESS_CAP_MS = 20_000;
const SECTION_CAP_MS = 90_000;
const AIM_MS = 80;
const AIM_MB = 15;
const started = performance.now();
const env = environment();
banner("import cost", env);

const dist = (file) => pathToFileURL(path.join(rootDir, "dist", file)).href;
/** What each row imports; `null` imports nothing (node's own start). */
const ENTRIES = [
  { name: "bare node (nothing imported)", entry: null },
  { name: "mcp-testkit (dist/index.js)", entry: dist("index.js"), main: true },
  { name: "aimock (@copilotkit/aimock)", entry: "@copilotkit/aimock" },
  { name: "mcp-testkit/protocol", entry: dist("protocol/index.js") },
  { name: "mcp-testkit/driver", entry: dist("driver/index.js") },
];
if (args.has("before")) ENTRIES.splice(2, 0, { name: "mcp-testkit, the build in --before", entry: pathToFileURL(path.resolve(args.get("before"), "index.js")).href });
/** The CLI's start: `mcp-testkit --version`, its whole process (its commands load when run). */
const CLI = { name: "mcp-testkit --version (the CLI, whole process)", argv: [path.join(rootDir, "dist", "cli", "main.js"), "--version"] };

// The child measures around the import only; its own start is the bare row's wall time.
const CHILD = `
const rss0 = process.memoryUsage().rss, cpu0 = process.cpuUsage(), t0 = performance.now();
const entry = process.env.IMPORT_COST_ENTRY;
if (entry) await import(entry);
const t1 = performance.now(), cpu1 = process.cpuUsage(cpu0), rss1 = process.memoryUsage().rss;
process.stdout.write(JSON.stringify({ ms: t1 - t0, cpuMs: (cpu1.user + cpu1.system) / 1000, rssMb: (rss1 - rss0) / 1048576, rssTotalMb: rss1 / 1048576 }));
`;

function measureOnce(entry, argv = ["--input-type=module", "-e", CHILD]) {
  const t0 = performance.now();
  const child = spawnSync(process.execPath, argv, {
    cwd: rootDir,
    env: { ...process.env, IMPORT_COST_ENTRY: entry ?? "" },
    encoding: "utf8",
    timeout: PROCESS_CAP_MS,
    killSignal: "SIGKILL",
  });
  const wallMs = performance.now() - t0;
  if (child.status !== 0) return undefined;
  if (argv[0] !== "--input-type=module") return { wallMs };
  const line = child.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return { ...JSON.parse(line.slice(line.indexOf("{"))), wallMs };
  } catch {
    return undefined;
  }
}

const samples = new Map([...ENTRIES, CLI].map((row) => [row.name, []]));
let rounds = 0;
for (let round = 0; round < ROUNDS && performance.now() - started < SECTION_CAP_MS; round++) {
  const order = round % 2 === 0 ? ENTRIES : [...ENTRIES].reverse();
  for (const row of order) {
    const sample = measureOnce(row.entry);
    if (sample) samples.get(row.name).push(sample);
  }
  const cli = measureOnce(undefined, CLI.argv);
  if (cli) samples.get(CLI.name).push(cli);
  rounds++;
}

const results = ENTRIES.map((row) => {
  const taken = samples.get(row.name);
  const of = (key) => median(taken.map((sample) => sample[key]));
  return {
    name: row.name,
    entry: row.entry,
    main: row.main === true,
    samples: taken.length,
    importMs: of("ms"),
    importCpuMs: of("cpuMs"),
    rssAddedMb: of("rssMb"),
    rssTotalMb: of("rssTotalMb"),
    processWallMs: of("wallMs"),
  };
});
const cliWallMs = median(samples.get(CLI.name).map((sample) => sample.wallMs));
results.push({ name: CLI.name, entry: null, main: false, samples: samples.get(CLI.name).length, processWallMs: cliWallMs });
const main = results.find((result) => result.main);
const met = main.importMs <= AIM_MS && main.rssAddedMb <= AIM_MB;
const fmtMb = (n) => (Number.isFinite(n) ? `${n.toFixed(1)} MB` : "n/a");
const header = ["Entry", "import, wall", "import, CPU", "RSS added", "RSS after", "process, spawn to exit", "Aim", "Status"];
const rows = results.map((result) => [
  result.name,
  result.entry === null ? "—" : fmtMs(result.importMs),
  result.entry === null ? "—" : fmtMs(result.importCpuMs),
  result.entry === null ? "—" : fmtMb(result.rssAddedMb),
  result.rssTotalMb === undefined ? "—" : fmtMb(result.rssTotalMb),
  fmtMs(result.processWallMs),
  result.main ? `≤ ${AIM_MS} ms, ≤ ${AIM_MB} MB` : "",
  result.main ? (met ? "met" : "NOT met") : "",
]);
console.log(renderTable(header, rows));
// On a busy machine every process is slow alike: the ratio to aimock's import moves less than the times.
const aimock = results.find((result) => result.entry === "@copilotkit/aimock");
const before = results.find((result) => result.name.includes("--before"));
const ratioToAimock = main.importMs / aimock.importMs;
console.log(
  `median of ${rounds} rounds, each entry in a fresh process per round. mcp-testkit / aimock, import wall time: ${ratioToAimock.toFixed(2)}×` +
    (before ? `; mcp-testkit / the --before build: ${(main.importMs / before.importMs).toFixed(2)}× time, ${(main.rssAddedMb / before.rssAddedMb).toFixed(2)}× RSS added.` : "."),
);

if (!args.has("no-json")) {
  writeReport(path.join(benchDir, "results", "import.json"), {
    generatedAt: new Date().toISOString(),
    durationSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    environment: env,
    results,
    verdicts: {
      "import@main": {
        measure: "import('mcp-testkit') in a fresh process: wall time and RSS added",
        importMs: main.importMs,
        rssAddedMb: main.rssAddedMb,
        ratioToAimock,
        target: `<= ${AIM_MS} ms and <= ${AIM_MB} MB`,
        met,
      },
    },
    table: { header, rows },
  });
}
