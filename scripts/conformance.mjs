#!/usr/bin/env node
/**
 * `npm run conformance`: runs the official MCP conformance suite
 * (@modelcontextprotocol/conformance, server mode) against mcp-testkit's mock serving
 * examples/conformance/server.js.
 *
 *   npm run conformance                          active suite, then the pending scenarios
 *   npm run conformance -- --suite active        only the active suite (or: pending)
 *   npm run conformance -- --scenario ping       one scenario
 *   npm run conformance -- --verbose             the suite's JSON output for every check
 *
 * Steps: build if dist/ is missing or older than src/; start `mcp-testkit mock
 * examples/conformance/server.js --port <free>` (dist/cli/main.js) and wait for its URL; run
 * the suite under Node 22 (it imports `fs.globSync`, which Node 20 lacks: this Node if it is
 * 22 or newer, else `npx -p node@22`, or the binary named by CONFORMANCE_NODE); print a table;
 * stop the mock whatever happened. Exits non-zero on any failed check.
 *
 * CONFORMANCE_PROGRAMMATIC=1 serves the scenario with mockMcp() from dist/index.js instead of
 * the CLI (the fallback used when dist/cli/main.js has no `mock` command).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, createWriteStream } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SCENARIO_FILE = "examples/conformance/server.js";
const CLI = join(ROOT, "dist/cli/main.js");
const LIBRARY = join(ROOT, "dist/index.js");
const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const URL_TIMEOUT_MS = 30_000;

const { values: args } = parseArgs({
  options: {
    suite: { type: "string", default: "all" },
    scenario: { type: "string" },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log("Usage: npm run conformance -- [--suite all|active|pending] [--scenario <name>] [--verbose]");
  process.exit(0);
}
if (!["all", "active", "pending"].includes(args.suite)) fail(`--suite must be all, active or pending, got "${args.suite}"`);

function say(line) {
  console.log(`[conformance] ${line}`);
}

function fail(message) {
  console.error(`[conformance] ${message}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Build when needed.

function newestMtime(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function buildIfNeeded() {
  const built = [CLI, LIBRARY].every((file) => existsSync(file));
  if (built && statSync(CLI).mtimeMs >= newestMtime(join(ROOT, "src")) && statSync(LIBRARY).mtimeMs >= newestMtime(join(ROOT, "src"))) return;
  say(built ? "src/ changed since the last build: npm run build" : "no build yet: npm run build");
  const result = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) {
    // tsc still emits on type errors; go on with what it wrote if the entry points are there.
    if (![CLI, LIBRARY].every((file) => existsSync(file))) fail("the build failed and dist/ is incomplete");
    say("warning: the build reported errors (see above); running with what it emitted");
  }
}

// ---------------------------------------------------------------------------------------------
// The mock.

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether dist/cli/main.js has the `mock` command (another engineer may still be building it). */
function cliHasMockCommand() {
  if (!existsSync(CLI)) return false;
  const result = spawnSync(process.execPath, [CLI, "mock", "--help"], { cwd: ROOT, encoding: "utf8", timeout: 15_000 });
  return result.status === 0 && result.stdout.includes("mock");
}

/** Starts the mock; resolves with { child, url, how }. Its output goes to `logFile`. */
async function startMock(logFile) {
  const port = await freePort();
  let command;
  let how;
  if (process.env.CONFORMANCE_PROGRAMMATIC !== "1" && cliHasMockCommand()) {
    command = [CLI, "mock", SCENARIO_FILE, "--port", String(port)];
    how = `node dist/cli/main.js mock ${SCENARIO_FILE} --port ${port}`;
  } else {
    // Fallback while the CLI is not there: mockMcp() from dist/index.js with the same scenario.
    const code = `
      const { mockMcp } = await import(${JSON.stringify(LIBRARY)});
      const { default: scenario } = await import(${JSON.stringify(join(ROOT, SCENARIO_FILE))});
      const server = await mockMcp({ ...scenario, transport: "http", port: ${port} });
      console.log("serving at " + server.url);
      const stop = async () => { await server.close(); process.exit(0); };
      process.on("SIGTERM", stop);
      process.on("SIGINT", stop);`;
    command = ["--input-type=module", "-e", code];
    how = `mockMcp() from dist/index.js on port ${port} (programmatic: CONFORMANCE_PROGRAMMATIC=1, or the CLI has no mock command)`;
  }
  const child = spawn(process.execPath, command, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const log = createWriteStream(logFile);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.once("exit", () => log.end());

  const url = await new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the mock printed no URL within ${URL_TIMEOUT_MS / 1000} s`)), URL_TIMEOUT_MS);
    const onData = (chunk) => {
      seen += chunk.toString();
      const match = /(http:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited (${signal ?? `code ${code}`}) before printing its URL; see ${logFile}`));
    });
  });
  return { child, url, how };
}

/** Stops the mock: SIGTERM, then SIGKILL if it has not exited after 5 s. */
function stopMock(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

// ---------------------------------------------------------------------------------------------
// The suite.

/** How to run Node 22+: [command, ...args before the script]. */
function node22() {
  if (process.env.CONFORMANCE_NODE) return [process.env.CONFORMANCE_NODE];
  if (Number(process.versions.node.split(".")[0]) >= 22) return [process.execPath];
  return ["npx", "-y", "-p", "node@22", "node"];
}

function runSuite(url, selection, outputDir) {
  const [command, ...prefix] = node22();
  const suiteArgs = [...prefix, SUITE, "server", "--url", url, ...selection, "-o", outputDir];
  if (args.verbose) suiteArgs.push("--verbose");
  say(`${command} ${suiteArgs.map((arg) => (arg.startsWith(`${ROOT}/`) ? relative(ROOT, arg) : arg)).join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(command, suiteArgs, { cwd: ROOT, stdio: "inherit" });
    suiteChild = child;
    child.once("exit", (code, signal) => resolve(signal ? 1 : (code ?? 1)));
    child.once("error", (error) => {
      console.error(`[conformance] could not run the suite: ${error.message}`);
      resolve(1);
    });
  });
}

/** Per scenario: SUCCESS / FAILURE / WARNING counts, read from the suite's checks.json files. */
function readResults(outputDir) {
  const results = new Map();
  for (const entry of readdirSync(outputDir)) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    const file = join(outputDir, entry, "checks.json");
    if (!match || !existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, "utf8"));
    const count = (status) => checks.filter((check) => check.status === status).length;
    results.set(match[1], { passed: count("SUCCESS"), failed: count("FAILURE"), warnings: count("WARNING") });
  }
  return results;
}

// ---------------------------------------------------------------------------------------------

const runs = args.scenario
  ? [{ label: args.scenario, selection: ["--scenario", args.scenario] }]
  : (args.suite === "all" ? ["active", "pending"] : [args.suite]).map((suite) => ({ label: suite, selection: ["--suite", suite] }));

if (!existsSync(SUITE)) fail("@modelcontextprotocol/conformance is not installed: run npm install");
buildIfNeeded();

const workDir = mkdtempSync(join(tmpdir(), "mcp-testkit-conformance-"));
const logFile = join(workDir, "mock.log");
let mock;
let suiteChild;
const onSignal = (signal) => {
  if (suiteChild && suiteChild.exitCode === null && suiteChild.signalCode === null) suiteChild.kill("SIGTERM");
  void stopMock(mock?.child).then(() => process.exit(signal === "SIGINT" ? 130 : 143));
};
process.once("SIGINT", onSignal);
process.once("SIGTERM", onSignal);
process.once("exit", () => {
  if (mock?.child && mock.child.exitCode === null && mock.child.signalCode === null) mock.child.kill("SIGKILL");
});

let exitCode = 0;
const table = [];
try {
  mock = await startMock(logFile);
  say(`mock: ${mock.how}`);
  say(`mock URL: ${mock.url} (its output: ${logFile})`);
  for (const run of runs) {
    const outputDir = mkdtempSync(join(workDir, `${run.label}-`));
    const code = await runSuite(mock.url, run.selection, outputDir);
    if (code !== 0) exitCode = 1;
    for (const [scenario, counts] of readResults(outputDir)) table.push({ run: run.label, scenario, ...counts });
  }
} catch (error) {
  console.error(`[conformance] ${error.message}`);
  exitCode = 1;
} finally {
  await stopMock(mock?.child);
}

if (table.length > 0) {
  console.log("\n=== mcp-testkit conformance summary ===");
  const width = Math.max(...table.map((row) => row.scenario.length));
  for (const row of table) {
    const mark = row.failed > 0 ? "FAIL" : "pass";
    const warnings = row.warnings > 0 ? `, ${row.warnings} warning${row.warnings === 1 ? "" : "s"}` : "";
    console.log(`${mark}  ${row.scenario.padEnd(width)}  [${row.run}]  ${row.passed} passed, ${row.failed} failed${warnings}`);
  }
  for (const label of new Set(table.map((row) => row.run))) {
    const rows = table.filter((row) => row.run === label);
    console.log(`${label}: ${rows.filter((row) => row.failed === 0).length} of ${rows.length} scenarios passed`);
  }
  const failedScenarios = table.filter((row) => row.failed > 0).length;
  if (failedScenarios > 0) exitCode = 1;
  console.log(`Scenarios: ${table.length - failedScenarios} passed, ${failedScenarios} failed`);
}
process.exit(exitCode);
