#!/usr/bin/env node
/**
 * `npm run conformance`: runs the official MCP conformance suite
 * (@modelcontextprotocol/conformance) against mcp-testkit, both ways:
 * - server mode: the suite is the client, mcp-testkit's mock (serving
 *   examples/conformance/server.js) the server under test;
 * - client mode: the suite serves a scenario, mcp-testkit's driver (the program
 *   examples/conformance/client.js, run on this Node) is the client under test, for the
 *   scenarios initialize, tools_call, elicitation-sep1034-client-defaults and sse-retry.
 *
 *   npm run conformance                          server mode (active suite, then pending), then client mode
 *   npm run conformance -- --mode server         only server mode (or: client)
 *   npm run conformance -- --suite active        server mode: only the active suite (or: pending)
 *   npm run conformance -- --scenario ping       one scenario (client mode if it is one of the four)
 *   npm run conformance -- --verbose             the suite's JSON output for every check
 *
 * Steps: build if dist/ is missing or older than src/; server mode: start `mcp-testkit mock
 * examples/conformance/server.js --port <free>` (dist/cli/main.js), wait for its URL, run the
 * suite, stop the mock whatever happened; client mode: run the suite's `client --command "<node>
 * examples/conformance/client.js" --scenario <name>` for each scenario. The suite runs under
 * Node 22 (it imports `fs.globSync`, which Node 20 lacks: this Node if it is 22 or newer, else
 * `npx -p node@22`, or the binary named by CONFORMANCE_NODE). Prints a table; exits non-zero on
 * any failed check (in client mode also on a warning, a client that exits non-zero or times
 * out, as the suite itself counts them).
 *
 * The suite is not a dependency of this package (it needs Node 22, and its dependencies warned
 * EBADENGINE on every `npm install` on Node 20): the first run installs
 * @modelcontextprotocol/conformance@<SUITE_VERSION> into node_modules/.cache/mcp-testkit-conformance
 * with npm under Node 22, and later runs reuse it. CONFORMANCE_SUITE=<path to its dist/index.js>
 * uses another copy.
 *
 * CONFORMANCE_PROGRAMMATIC=1 serves the scenario with mockMcp() from dist/index.js instead of
 * the CLI (the fallback used when dist/cli/main.js has no `mock` command).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, createWriteStream, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SCENARIO_FILE = "examples/conformance/server.js";
const CLIENT_FILE = "examples/conformance/client.js";
/** The client-mode scenarios the driver must pass (issue 4). */
const CLIENT_SCENARIOS = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"];
const CLI = join(ROOT, "dist/cli/main.js");
const LIBRARY = join(ROOT, "dist/index.js");
const SUITE_VERSION = "0.1.16";
const SUITE_DIR = join(ROOT, "node_modules/.cache/mcp-testkit-conformance");
const SUITE_PACKAGE = join(SUITE_DIR, "node_modules/@modelcontextprotocol/conformance");
const SUITE = process.env.CONFORMANCE_SUITE ?? join(SUITE_PACKAGE, "dist/index.js");
const URL_TIMEOUT_MS = 30_000;

const { values: args } = parseArgs({
  options: {
    mode: { type: "string", default: "all" },
    suite: { type: "string", default: "all" },
    scenario: { type: "string" },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log("Usage: npm run conformance -- [--mode all|server|client] [--suite all|active|pending] [--scenario <name>] [--verbose]");
  console.log(`  --mode     server: the suite tests the mock; client: the suite tests the driver (${CLIENT_SCENARIOS.join(", ")}); all (default): both`);
  console.log("  --suite    server mode only: the active suite, the pending scenarios, or both (default)");
  process.exit(0);
}
if (!["all", "server", "client"].includes(args.mode)) fail(`--mode must be all, server or client, got "${args.mode}"`);
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

let node22Command;

/**
 * How to run Node 22+: [command, ...args before the script]. With npx, the binary it fetched is
 * asked for its own path once, so later runs start it directly (each `npx` costs a second or two).
 */
function node22() {
  if (node22Command) return node22Command;
  if (process.env.CONFORMANCE_NODE) node22Command = [process.env.CONFORMANCE_NODE];
  else if (Number(process.versions.node.split(".")[0]) >= 22) node22Command = [process.execPath];
  else {
    const npx = ["npx", "-y", "-p", "node@22", "node"];
    const found = spawnSync(npx[0], [...npx.slice(1), "-p", "process.execPath"], { cwd: ROOT, encoding: "utf8", timeout: 300_000 });
    const path = found.status === 0 ? found.stdout.trim().split("\n").pop() : "";
    node22Command = path && existsSync(path) ? [path] : npx;
  }
  return node22Command;
}

/** The installed suite's version, or undefined when there is none. */
function installedSuiteVersion() {
  const manifest = join(SUITE_PACKAGE, "package.json");
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

/**
 * Installs the pinned suite into its own folder, once, with npm running on Node 22 (the suite's
 * engines want it; so npm neither warns nor installs for the wrong Node). npm's own CLI script is
 * the one running this script (`npm_execpath`), or the one next to this Node.
 */
function installSuiteIfMissing() {
  if (process.env.CONFORMANCE_SUITE) {
    if (!existsSync(SUITE)) fail(`CONFORMANCE_SUITE=${SUITE} does not exist`);
    return;
  }
  const version = installedSuiteVersion();
  if (version === SUITE_VERSION && existsSync(SUITE)) return;
  say(`${version ? `found conformance ${version}, not ${SUITE_VERSION}` : "first run"}: installing @modelcontextprotocol/conformance@${SUITE_VERSION} into ${relative(ROOT, SUITE_DIR)}`);
  mkdirSync(SUITE_DIR, { recursive: true });
  // A package.json of its own, so npm installs here and not into the project above it.
  writeFileSync(join(SUITE_DIR, "package.json"), `${JSON.stringify({ name: "mcp-testkit-conformance-suite", private: true }, null, 2)}\n`);
  const npmCli = [process.env.npm_execpath, join(dirname(process.execPath), "../lib/node_modules/npm/bin/npm-cli.js")].find((path) => path && path.endsWith(".js") && existsSync(path));
  const installArgs = ["install", "--prefix", SUITE_DIR, "--no-audit", "--no-fund", "--loglevel", "error", `@modelcontextprotocol/conformance@${SUITE_VERSION}`];
  const [command, ...prefix] = npmCli ? [...node22(), npmCli] : ["npm"];
  const result = spawnSync(command, [...prefix, ...installArgs], { cwd: SUITE_DIR, stdio: "inherit", timeout: 600_000 });
  if (result.status !== 0 || !existsSync(SUITE)) {
    fail(`could not install @modelcontextprotocol/conformance@${SUITE_VERSION} (npm exited ${result.status ?? result.signal}); is the npm registry reachable? Or set CONFORMANCE_SUITE to its dist/index.js`);
  }
}

/** Quotes a word for the shell the suite runs `--command` with (it splits on spaces, then joins them again). */
function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function runSuite(url, selection, outputDir) {
  return runConformance(["server", "--url", url, ...selection, "-o", outputDir]);
}

/** Client mode, one scenario: the suite serves it and runs examples/conformance/client.js (on this Node) against it. */
function runClientScenario(scenario, outputDir) {
  const command = `${shellWord(process.execPath)} ${CLIENT_FILE}`;
  return runConformance(["client", "--command", command, "--scenario", scenario, "-o", outputDir]);
}

/** Runs the suite's CLI with `suiteArgs`; resolves with its exit code. */
function runConformance(modeArgs) {
  const [command, ...prefix] = node22();
  const suiteArgs = [...prefix, SUITE, ...modeArgs];
  if (args.verbose) suiteArgs.push("--verbose");
  const shown = (arg) => (arg.startsWith(`${ROOT}/`) ? relative(ROOT, arg) : /\s/.test(arg) ? JSON.stringify(arg) : arg);
  say(`${command} ${suiteArgs.map(shown).join(" ")}`);
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

/**
 * Client mode: the counts of the one scenario run into `outputDir` (its checks.json is in
 * `<scenario>-<time>/`, nested for names such as auth/basic-cimd); undefined if there is none.
 */
function readClientResult(outputDir) {
  const file = readdirSync(outputDir, { recursive: true }).find((entry) => entry === "checks.json" || entry.endsWith("/checks.json"));
  if (file === undefined) return undefined;
  const checks = JSON.parse(readFileSync(join(outputDir, file), "utf8"));
  const count = (status) => checks.filter((check) => check.status === status).length;
  return { passed: count("SUCCESS"), failed: count("FAILURE"), warnings: count("WARNING") };
}

// ---------------------------------------------------------------------------------------------

// What to run: server-mode runs (each one suite invocation against the mock) and client-mode scenarios.
const scenarioIsClient = args.scenario !== undefined && (args.mode === "client" || (args.mode === "all" && CLIENT_SCENARIOS.includes(args.scenario)));
const serverRuns =
  args.mode === "client" || scenarioIsClient
    ? []
    : args.scenario
      ? [{ label: args.scenario, selection: ["--scenario", args.scenario] }]
      : (args.suite === "all" ? ["active", "pending"] : [args.suite]).map((suite) => ({ label: suite, selection: ["--suite", suite] }));
const clientScenarios = args.mode === "server" ? [] : scenarioIsClient ? [args.scenario] : args.scenario ? [] : CLIENT_SCENARIOS;

installSuiteIfMissing();
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
/** Rows: { mode, run, scenario, passed, failed, warnings, failing, note? }. */
const table = [];

if (serverRuns.length > 0) {
  try {
    mock = await startMock(logFile);
    say(`mock: ${mock.how}`);
    say(`mock URL: ${mock.url} (its output: ${logFile})`);
    for (const run of serverRuns) {
      const outputDir = mkdtempSync(join(workDir, `${run.label}-`));
      const code = await runSuite(mock.url, run.selection, outputDir);
      if (code !== 0) exitCode = 1;
      for (const [scenario, counts] of readResults(outputDir)) table.push({ mode: "server", run: run.label, scenario, ...counts, failing: counts.failed > 0 });
    }
  } catch (error) {
    console.error(`[conformance] ${error.message}`);
    exitCode = 1;
  } finally {
    await stopMock(mock?.child);
  }
}

if (clientScenarios.length > 0) {
  say(`client mode: the driver (${CLIENT_FILE}, on Node ${process.versions.node}) against the suite's scenario servers`);
  for (const scenario of clientScenarios) {
    const outputDir = mkdtempSync(join(workDir, `client-${scenario.replace(/[^\w.-]/g, "_")}-`));
    const code = await runClientScenario(scenario, outputDir);
    if (code !== 0) exitCode = 1;
    const counts = readClientResult(outputDir);
    if (counts === undefined) {
      table.push({ mode: "client", run: "client", scenario, passed: 0, failed: 0, warnings: 0, failing: true, note: `no results (the suite exited ${code})` });
      continue;
    }
    // The suite fails a client scenario on a warning too, and when the client exits non-zero or times out.
    const note = code !== 0 && counts.failed === 0 && counts.warnings === 0 ? `the suite exited ${code}: the client failed or timed out (see ${outputDir})` : undefined;
    table.push({ mode: "client", run: "client", scenario, ...counts, failing: code !== 0 || counts.failed > 0 || counts.warnings > 0, ...(note ? { note } : {}) });
  }
}

if (table.length > 0) {
  console.log("\n=== mcp-testkit conformance summary ===");
  const width = Math.max(...table.map((row) => row.scenario.length));
  for (const row of table) {
    const mark = row.failing ? "FAIL" : "pass";
    const warnings = row.warnings > 0 ? `, ${row.warnings} warning${row.warnings === 1 ? "" : "s"}` : "";
    const note = row.note ? ` (${row.note})` : "";
    console.log(`${mark}  ${row.scenario.padEnd(width)}  [${row.run}]  ${row.passed} passed, ${row.failed} failed${warnings}${note}`);
  }
  for (const label of new Set(table.map((row) => row.run))) {
    const rows = table.filter((row) => row.run === label);
    const what = label === "client" ? "client (driver under test)" : `server ${label}`;
    console.log(`${what}: ${rows.filter((row) => !row.failing).length} of ${rows.length} scenarios passed`);
  }
  const failedScenarios = table.filter((row) => row.failing).length;
  if (failedScenarios > 0) exitCode = 1;
  console.log(`Scenarios: ${table.length - failedScenarios} passed, ${failedScenarios} failed`);
}
process.exit(exitCode);
