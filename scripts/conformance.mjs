#!/usr/bin/env node
/**
 * `npm run conformance`: runs the official MCP conformance suite
 * (@modelcontextprotocol/conformance) against mcp-testkit, both ways, in two versions:
 * - 0.1.16 (protocol 2025-11-25) and the pre-release 0.2.0-alpha.12 with `--spec-version
 *   2026-07-28` (protocol 2026-07-28), one after the other;
 * - server mode: the suite is the client, mcp-testkit's mock (serving
 *   examples/conformance/server.js) the server under test. 0.1.16: `--suite active`, then
 *   `--suite pending`; the alpha: `--suite active`, `draft`, `pending` (together its 40 scenarios
 *   for 2026-07-28; two are in both draft and pending: run in each, one row), then the nine
 *   extension scenarios of the tasks extension (tasks-*), each on its own with --force, in rows
 *   labelled "extension";
 * - client mode: the suite serves a scenario, mcp-testkit's driver (the program
 *   examples/conformance/client.js, run on this Node) is the client under test. 0.1.16: initialize,
 *   tools_call, elicitation-sep1034-client-defaults, sse-retry; the alpha: the 8 scenarios without
 *   OAuth (tools_call, request-metadata, sep-2322-client-request-state, http-standard-headers,
 *   http-custom-headers, http-invalid-tool-headers, json-schema-ref-no-deref,
 *   json-schema-2020-12-preservation), and the authorization scenarios at the revision that scores
 *   each (auth/*: 25 at 2026-07-28, 14 at 2025-11-25, the 2025-03-26 pair, and the
 *   client-credentials extensions), in rows of their own (`auth`).
 * - the suite's authorization mode against the protected mock's own authorization server
 *   (scripts/conformance-authorization.mjs), after a whole run (no --scenario, --mode all);
 * - the Skills extension (SEP-2640, the alpha, run with --force, rows labelled "skills"): server
 *   mode sep-2640-skills-enumeration, -manifest, -directory; client mode sep-2640-client-no-prefetch,
 *   -verify-digest, -verify-size, -verify-frontmatter.
 *
 *   npm run conformance                          both suites: server mode, then client mode, each
 *   npm run conformance -- --spec 2025           only 0.1.16 (or: 2026, only the alpha)
 *   npm run conformance -- --mode server         only server mode (or: client)
 *   npm run conformance -- --suite active        server mode: only the active suite (or: pending, draft, skills,
 *                                                extension: the 2026 tasks extension scenarios, each with --force)
 *   npm run conformance -- --scenario ping       one scenario, in each suite that has it (client
 *                                                mode if it is one of the client scenarios above)
 *   npm run conformance -- --verbose             the suite's JSON output for every check
 *
 * Steps: build if dist/ is missing or older than src/; server mode: start `mcp-testkit mock
 * examples/conformance/server.js --port <free>` (dist/cli/main.js) once, wait for its URL, run the
 * suite(s), stop the mock whatever happened; client mode: run the suite's `client --command "<node>
 * examples/conformance/client.js" --scenario <name>` for each scenario. The suite runs under
 * Node 22 (it imports `fs.globSync`, which Node 20 lacks: this Node if it is 22 or newer, else
 * `npx -p node@22`, or the binary named by CONFORMANCE_NODE). Prints a table, one row per
 * scenario saying the suite version, spec and selection; the alpha adds a generic
 * `wire-schema-valid` check to most scenarios: a row counts the scenario's own checks and shows
 * that one apart. Exits non-zero on any failed check (own or wire-schema-valid; in client mode
 * also on a warning, a client that exits non-zero or times out, as the suite itself counts them).
 *
 * The suites are not dependencies of this package (they need Node 22, and their dependencies
 * warned EBADENGINE on every `npm install` on Node 20): the first run installs each pinned
 * version with npm under Node 22 into a folder of its own, node_modules/.cache/mcp-testkit-conformance
 * (0.1.16) and node_modules/.cache/mcp-testkit-conformance-2026 (the alpha), and later runs reuse
 * them. CONFORMANCE_SUITE / CONFORMANCE_SUITE_2026=<path to its dist/index.js> use another copy.
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
const CLI = join(ROOT, "dist/cli/main.js");
const LIBRARY = join(ROOT, "dist/index.js");
const URL_TIMEOUT_MS = 30_000;
/** The check the 0.2 alphas add to (almost) every scenario: the wire traffic matched the schema. Counted apart from the scenario's own checks. */
const WIRE_CHECK = "wire-schema-valid";

/**
 * The two suites, each pinned and installed into its own folder. `serverSuites` are the
 * `--suite` values run in server mode (in this order), `clientScenarios` the client-mode
 * scenarios the driver must pass, `specArgs` what selects the protocol revision.
 */
function suiteInfo(key, version, spec, folder, envVariable, specArgs, serverSuites, clientScenarios, extensionScenarios = []) {
  const dir = join(ROOT, "node_modules/.cache", folder);
  const packageDir = join(dir, "node_modules/@modelcontextprotocol/conformance");
  return {
    key,
    version,
    spec,
    dir,
    packageDir,
    envVariable,
    entry: process.env[envVariable] ?? join(packageDir, "dist/index.js"),
    specArgs,
    serverSuites,
    clientScenarios,
    extensionScenarios,
    authClientRuns: [],
  };
}

/**
 * The alpha's authorization scenarios in client mode (the driver signs in, `auth` of mcpConnect),
 * each run at the revision that scores it: the 25 of 2026-07-28, the 14 of 2025-11-25, the
 * 2025-03-26 back-compat pair, and the client-credentials extensions (listed with no revision).
 */
const AUTH_2025 = [
  "metadata-default",
  "metadata-var1",
  "metadata-var2",
  "metadata-var3",
  "basic-cimd",
  "scope-from-www-authenticate",
  "scope-from-scopes-supported",
  "scope-omitted-when-undefined",
  "scope-step-up",
  "scope-retry-limit",
  "token-endpoint-auth-basic",
  "token-endpoint-auth-post",
  "token-endpoint-auth-none",
  "pre-registration",
];
const AUTH_2026_ONLY = [
  "resource-mismatch",
  "offline-access-scope",
  "offline-access-not-supported",
  "authorization-server-migration",
  "iss-supported",
  "iss-not-advertised",
  "iss-supported-missing",
  "iss-wrong-issuer",
  "iss-unexpected",
  "iss-normalized",
  "metadata-issuer-mismatch",
];
const authRun = (spec) => (name) => ({ scenario: `auth/${name}`, spec, specArgs: spec === "extension" ? [] : ["--spec-version", spec] });
const AUTH_CLIENT_RUNS = [
  ...[...AUTH_2025, ...AUTH_2026_ONLY].map(authRun("2026-07-28")),
  ...AUTH_2025.map(authRun("2025-11-25")),
  ...["2025-03-26-oauth-metadata-backcompat", "2025-03-26-oauth-endpoint-fallback"].map(authRun("2025-03-26")),
  ...["client-credentials-jwt", "client-credentials-basic"].map(authRun("extension")),
];
const SUITES = {
  // The released suite, protocol 2025-11-25; client scenarios of issue 4.
  2025: suiteInfo(
    "2025",
    "0.1.16",
    "2025-11-25",
    "mcp-testkit-conformance",
    "CONFORMANCE_SUITE",
    [],
    ["active", "pending"],
    ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"],
  ),
  // The pre-release suite for protocol 2026-07-28 (issue 8): its scenarios for 2026-07-28 are
  // spread over active, draft and pending (two are both draft and pending: run once, counted
  // once); client mode: the scenarios without OAuth.
  2026: suiteInfo(
    "2026",
    "0.2.0-alpha.12",
    "2026-07-28",
    "mcp-testkit-conformance-2026",
    "CONFORMANCE_SUITE_2026",
    ["--spec-version", "2026-07-28"],
    ["active", "draft", "pending"],
    [
      "tools_call",
      "request-metadata",
      "sep-2322-client-request-state",
      "http-standard-headers",
      "http-custom-headers",
      "http-invalid-tool-headers",
      "json-schema-ref-no-deref",
      "json-schema-2020-12-preservation",
    ],
    // Extension scenarios (the tasks extension, io.modelcontextprotocol/tasks): not in any
    // --suite selection, each run on its own with --force, in rows of their own ("extension").
    // tasks-status-notifications is left out: in this version it is a placeholder that always skips.
    [
      "tasks-lifecycle",
      "tasks-capability-negotiation",
      "tasks-wire-fields",
      "tasks-request-state-removal",
      "tasks-mrtr-input",
      "tasks-request-headers",
      "tasks-dispatch-and-envelope",
      "tasks-required-task-error",
      "tasks-mrtr-composition",
    ],
  ),
};
SUITES[2026].authClientRuns = AUTH_CLIENT_RUNS;

/**
 * The Skills extension's scenarios (SEP-2640) in the alpha: extension scenarios, which the suite
 * runs only with `--force`; each is run alone and reported in a row labelled "skills".
 */
const SKILLS_SCENARIOS = {
  server: ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"],
  client: ["sep-2640-client-no-prefetch", "sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"],
};
const isSkillsScenario = (name) => SKILLS_SCENARIOS.server.includes(name) || SKILLS_SCENARIOS.client.includes(name);
const skillsServerRuns = () => SKILLS_SCENARIOS.server.map((name) => ({ label: "skills", selection: ["--scenario", name, "--force"] }));

const { values: args } = parseArgs({
  options: {
    spec: { type: "string", default: "all" },
    mode: { type: "string", default: "all" },
    suite: { type: "string", default: "all" },
    scenario: { type: "string" },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log("Usage: npm run conformance -- [--spec all|2025|2026] [--mode all|server|client] [--suite all|active|pending|draft] [--scenario <name>] [--verbose]");
  console.log(
    `  --spec     2025: conformance ${SUITES[2025].version} (${SUITES[2025].spec}); 2026: conformance ${SUITES[2026].version} with --spec-version ${SUITES[2026].spec}; all (default): both, 2025 first`,
  );
  console.log(
    `  --mode     server: the suite tests the mock; client: the suite tests the driver (2025: ${SUITES[2025].clientScenarios.join(", ")}; 2026: ${SUITES[2026].clientScenarios.join(", ")}; and ${AUTH_CLIENT_RUNS.length} auth/* runs: 2026-07-28, 2025-11-25, 2025-03-26, extensions); all (default): both`,
  );
  console.log("  --suite    server mode only: the active suite, the pending scenarios, the draft ones (2026 only),");
  console.log("             skills or extension (2026 only, each with --force: the Skills and the tasks extensions), or all (default)");
  process.exit(0);
}
if (!["all", "2025", "2026"].includes(args.spec)) fail(`--spec must be all, 2025 or 2026, got "${args.spec}"`);
if (!["all", "server", "client"].includes(args.mode)) fail(`--mode must be all, server or client, got "${args.mode}"`);
if (!["all", "active", "pending", "draft", "skills", "extension"].includes(args.suite)) fail(`--suite must be all, active, pending, draft, skills or extension, got "${args.suite}"`);
const selectedSuites = args.spec === "all" ? [SUITES[2025], SUITES[2026]] : [SUITES[args.spec]];

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
function installedSuiteVersion(suite) {
  const manifest = join(suite.packageDir, "package.json");
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

/**
 * Installs the pinned suite into its own folder, once, with npm running on Node 22 (the suite's
 * engines want it; so npm neither warns nor installs for the wrong Node). npm's own CLI script is
 * the one running this script (`npm_execpath`), or the one next to this Node.
 */
function installSuiteIfMissing(suite) {
  if (process.env[suite.envVariable]) {
    if (!existsSync(suite.entry)) fail(`${suite.envVariable}=${suite.entry} does not exist`);
    return;
  }
  const version = installedSuiteVersion(suite);
  if (version === suite.version && existsSync(suite.entry)) return;
  const name = `@modelcontextprotocol/conformance@${suite.version}`;
  say(`${version ? `found conformance ${version}, not ${suite.version}` : "first run"}: installing ${name} into ${relative(ROOT, suite.dir)}`);
  mkdirSync(suite.dir, { recursive: true });
  // A package.json of its own, so npm installs here and not into the project above it.
  writeFileSync(join(suite.dir, "package.json"), `${JSON.stringify({ name: `mcp-testkit-conformance-suite-${suite.key}`, private: true }, null, 2)}\n`);
  const npmCli = [process.env.npm_execpath, join(dirname(process.execPath), "../lib/node_modules/npm/bin/npm-cli.js")].find((path) => path?.endsWith(".js") && existsSync(path));
  // An exact version: a pre-release is only installed when named exactly.
  const installArgs = ["install", "--prefix", suite.dir, "--no-audit", "--no-fund", "--loglevel", "error", "--save-exact", name];
  const [command, ...prefix] = npmCli ? [...node22(), npmCli] : ["npm"];
  const result = spawnSync(command, [...prefix, ...installArgs], { cwd: suite.dir, stdio: "inherit", timeout: 600_000 });
  if (result.status !== 0 || !existsSync(suite.entry) || installedSuiteVersion(suite) !== suite.version) {
    fail(`could not install ${name} (npm exited ${result.status ?? result.signal}); is the npm registry reachable? Or set ${suite.envVariable} to its dist/index.js`);
  }
}

/** The scenario names the suite lists for `kind` ("server" or "client") at its spec version. */
function listScenarios(suite, kind) {
  const [command, ...prefix] = node22();
  const result = spawnSync(command, [...prefix, suite.entry, "list", `--${kind}`, ...suite.specArgs], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  if (result.status !== 0) fail(`conformance ${suite.version} list --${kind} failed: ${result.stderr}`);
  return [...result.stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

/** Quotes a word for the shell the suite runs `--command` with (it splits on spaces, then joins them again). */
function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function runSuite(suite, url, selection, outputDir) {
  return runConformance(suite, ["server", "--url", url, ...selection, ...suite.specArgs, "-o", outputDir]);
}

/** Client mode, one scenario: the suite serves it and runs examples/conformance/client.js (on this Node) against it. */
function runClientScenario(suite, scenario, outputDir, specArgs = suite.specArgs) {
  const command = `${shellWord(process.execPath)} ${CLIENT_FILE}`;
  const force = isSkillsScenario(scenario) ? ["--force"] : [];
  return runConformance(suite, ["client", "--command", command, "--scenario", scenario, ...force, ...specArgs, "-o", outputDir]);
}

/** Runs the suite's CLI with `modeArgs`; resolves with its exit code. */
function runConformance(suite, modeArgs) {
  const [command, ...prefix] = node22();
  const suiteArgs = [...prefix, suite.entry, ...modeArgs];
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

/**
 * The counts of one checks.json: the scenario's own checks (SUCCESS / FAILURE / WARNING /
 * SKIPPED: a check the suite did not apply, e.g. for a request the client never sent) and,
 * apart, the suite's generic wire-schema-valid check (`wire`: undefined when there is none).
 */
function countChecks(file) {
  const checks = JSON.parse(readFileSync(file, "utf8"));
  const own = checks.filter((check) => check.id !== WIRE_CHECK);
  const wireChecks = checks.filter((check) => check.id === WIRE_CHECK);
  const count = (list, status) => list.filter((check) => check.status === status).length;
  const wire = wireChecks.length === 0 ? undefined : { passed: count(wireChecks, "SUCCESS"), failed: wireChecks.length - count(wireChecks, "SUCCESS") };
  return { passed: count(own, "SUCCESS"), failed: count(own, "FAILURE"), warnings: count(own, "WARNING"), skipped: count(own, "SKIPPED"), wire };
}

/** Server mode: per scenario, the counts read from the suite's checks.json files. */
function readResults(outputDir) {
  const results = new Map();
  for (const entry of readdirSync(outputDir)) {
    const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    const file = join(outputDir, entry, "checks.json");
    if (!match || !existsSync(file)) continue;
    results.set(match[1], countChecks(file));
  }
  return results;
}

/**
 * Client mode: the counts of the one scenario run into `outputDir` (its checks.json is in
 * `<scenario>-<time>/`, nested for names such as auth/basic-cimd); undefined if there is none.
 */
function readClientResult(outputDir) {
  const file = readdirSync(outputDir, { recursive: true }).find((entry) => entry === "checks.json" || entry.endsWith("/checks.json"));
  return file === undefined ? undefined : countChecks(join(outputDir, file));
}

/** A row fails on a failed own check or a failed wire-schema-valid check. */
function rowFails(counts) {
  return counts.failed > 0 || (counts.wire?.failed ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------

/**
 * What to run, per suite: server-mode runs (each one suite invocation against the mock) and
 * client-mode scenarios. With --scenario, a name the driver must pass in client mode (or any
 * name with --mode client) runs in client mode, else in server mode; with --spec all, a suite
 * that does not have the scenario is left out.
 */
function plan(suite) {
  if (args.scenario === undefined) {
    const skills = suite.key === "2026";
    const suiteRuns = suite.serverSuites.filter((name) => args.suite === "all" || args.suite === name).map((name) => ({ label: name, selection: ["--suite", name] }));
    // An extension scenario runs only when asked for by name or with --force, one invocation each.
    const extensionRuns = args.suite === "all" || args.suite === "extension" ? suite.extensionScenarios.map((name) => ({ label: "extension", selection: ["--scenario", name, "--force"] })) : [];
    const skillsRuns = skills && (args.suite === "all" || args.suite === "skills") ? skillsServerRuns() : [];
    return {
      serverRuns: args.mode === "client" ? [] : [...suiteRuns, ...extensionRuns, ...skillsRuns],
      clientScenarios: args.mode === "server" ? [] : [...suite.clientScenarios, ...(skills ? SKILLS_SCENARIOS.client : [])],
      authRuns: args.mode === "server" ? [] : suite.authClientRuns,
    };
  }
  if (suite.key === "2026" && isSkillsScenario(args.scenario)) {
    const isClient = SKILLS_SCENARIOS.client.includes(args.scenario);
    return { serverRuns: isClient ? [] : [{ label: "skills", selection: ["--scenario", args.scenario, "--force"] }], clientScenarios: isClient ? [args.scenario] : [], authRuns: [] };
  }
  const authRuns = suite.authClientRuns.filter((run) => run.scenario === args.scenario);
  if (authRuns.length > 0) return { serverRuns: [], clientScenarios: [], authRuns };
  const isClient = args.mode === "client" || (args.mode === "all" && suite.clientScenarios.includes(args.scenario));
  if (args.spec === "all" && !listScenarios(suite, isClient ? "client" : "server").includes(args.scenario)) {
    say(`conformance ${suite.version} (${suite.spec}) has no ${isClient ? "client" : "server"} scenario ${args.scenario}: skipped`);
    return { serverRuns: [], clientScenarios: [], authRuns: [] };
  }
  const force = suite.extensionScenarios.includes(args.scenario) ? ["--force"] : [];
  return isClient
    ? { serverRuns: [], clientScenarios: [args.scenario], authRuns: [] }
    : { serverRuns: [{ label: args.scenario, selection: ["--scenario", args.scenario, ...force] }], clientScenarios: [], authRuns: [] };
}

for (const suite of selectedSuites) installSuiteIfMissing(suite);
const plans = selectedSuites.map((suite) => ({ suite, ...plan(suite) }));
if (plans.every((entry) => entry.serverRuns.length === 0 && entry.clientScenarios.length === 0 && entry.authRuns.length === 0)) fail("nothing to run for these options (see --help)");
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
/** Rows: { suite, mode, run, scenario, passed, failed, warnings, wire?, failing, note? }. */
const table = [];

for (const { suite, serverRuns, clientScenarios, authRuns } of plans) {
  if (serverRuns.length > 0) {
    say(`server mode, conformance ${suite.version} (spec ${suite.spec}): the suite against the mock`);
    try {
      // One mock for all server runs (both suites): each request picks its protocol era.
      if (!mock) {
        mock = await startMock(logFile);
        say(`mock: ${mock.how}`);
        say(`mock URL: ${mock.url} (its output: ${logFile})`);
      }
      for (const run of serverRuns) {
        const outputDir = mkdtempSync(join(workDir, `${suite.key}-${run.label}-`));
        const code = await runSuite(suite, mock.url, run.selection, outputDir);
        if (code !== 0) exitCode = 1;
        for (const [scenario, counts] of readResults(outputDir)) {
          // A scenario in two of the suite's --suite selections (2026: draft and pending) is one row, labelled with both.
          const earlier = table.find((row) => row.suite === suite && row.mode === "server" && row.scenario === scenario);
          if (earlier) {
            earlier.run += `+${run.label}`;
            earlier.failing ||= rowFails(counts);
            continue;
          }
          table.push({ suite, mode: "server", run: run.label, scenario, ...counts, failing: rowFails(counts) });
        }
      }
    } catch (error) {
      console.error(`[conformance] ${error.message}`);
      exitCode = 1;
    }
  }

  if (clientScenarios.length > 0) {
    say(`client mode, conformance ${suite.version} (spec ${suite.spec}): the driver (${CLIENT_FILE}, on Node ${process.versions.node}) against the suite's scenario servers`);
    for (const scenario of clientScenarios) await runClientRow(suite, { scenario, specArgs: suite.specArgs, run: isSkillsScenario(scenario) ? "client skills" : "client" });
  }
  if (authRuns.length > 0) {
    say(`client mode, conformance ${suite.version}: the driver signs in to the suite's authorization scenarios (each at the revision that scores it)`);
    for (const { scenario, spec, specArgs } of authRuns) await runClientRow(suite, { scenario, specArgs, run: "auth", spec });
  }
}

/** Runs one client-mode scenario and adds its row to the table. */
async function runClientRow(suite, { scenario, specArgs, run, spec }) {
  const outputDir = mkdtempSync(join(workDir, `${suite.key}-${run}-${scenario.replace(/[^\w.-]/g, "_")}-`));
  const code = await runClientScenario(suite, scenario, outputDir, specArgs);
  if (code !== 0) exitCode = 1;
  const counts = readClientResult(outputDir);
  const row = { suite, mode: "client", run, scenario, ...(spec === undefined ? {} : { spec }) };
  if (counts === undefined) {
    table.push({ ...row, passed: 0, failed: 0, warnings: 0, failing: true, note: `no results (the suite exited ${code})` });
    return;
  }
  // The suite fails a client scenario on a warning too, and when the client exits non-zero or times out.
  const note = code !== 0 && !rowFails(counts) && counts.warnings === 0 ? `the suite exited ${code}: the client failed or timed out (see ${outputDir})` : undefined;
  table.push({ ...row, ...counts, failing: code !== 0 || rowFails(counts) || counts.warnings > 0, ...(note ? { note } : {}) });
}
await stopMock(mock?.child);

if (table.length > 0) {
  console.log("\n=== mcp-testkit conformance summary ===");
  const label = (row) => `${row.suite.version} ${row.spec ?? row.suite.spec} ${row.run}`;
  const width = Math.max(...table.map((row) => row.scenario.length));
  const labelWidth = Math.max(...table.map((row) => label(row).length));
  for (const row of table) {
    const mark = row.failing ? "FAIL" : "pass";
    const warnings = row.warnings > 0 ? `, ${row.warnings} warning${row.warnings === 1 ? "" : "s"}` : "";
    const skipped = row.skipped > 0 ? `, ${row.skipped} skipped` : "";
    const wire = row.wire === undefined ? "" : row.wire.failed > 0 ? `; ${WIRE_CHECK} FAILED` : `; ${WIRE_CHECK} ok`;
    const note = row.note ? ` (${row.note})` : "";
    console.log(`${mark}  ${row.scenario.padEnd(width)}  [${label(row).padEnd(labelWidth)}]  ${row.passed} passed, ${row.failed} failed${warnings}${skipped}${wire}${note}`);
  }
  for (const suite of selectedSuites) {
    const rows = table.filter((row) => row.suite === suite);
    if (rows.length === 0) continue;
    const sum = (list, count) => list.reduce((total, row) => total + count(row), 0);
    const checks = (list) => {
      const wire = list.filter((row) => row.wire !== undefined);
      const wireText = wire.length === 0 ? "" : `; ${WIRE_CHECK}: ${sum(wire, (row) => row.wire.passed)} passed, ${sum(wire, (row) => row.wire.failed)} failed`;
      return `own checks: ${sum(list, (row) => row.passed)} passed, ${sum(list, (row) => row.failed)} failed, ${sum(list, (row) => row.warnings)} warnings${wireText}`;
    };
    const passed = (list) => `${list.filter((row) => !row.failing).length} of ${list.length} scenarios passed`;
    const where = `conformance ${suite.version}, spec ${suite.spec}`;
    const serverRows = rows.filter((row) => row.mode === "server");
    if (serverRows.length > 0) {
      // Per --suite selection (a row run in two selections counts in both), then the scenarios overall.
      const selections = [...new Set(serverRows.flatMap((row) => row.run.split("+")))];
      for (const selection of selections) {
        const selected = serverRows.filter((row) => row.run.split("+").includes(selection));
        console.log(`${where}, server ${selection}: ${passed(selected)} (${checks(selected)})`);
      }
      const shared = serverRows.filter((row) => row.run.includes("+")).length;
      if (selections.length > 1)
        console.log(
          `${where}, server overall: ${passed(serverRows)} (${checks(serverRows)})${shared > 0 ? `; ${shared} of them in two selections (${[...new Set(serverRows.filter((row) => row.run.includes("+")).map((row) => row.run))].join(", ")}): run in each, counted once` : ""}`,
        );
    }
    const clientRows = rows.filter((row) => row.mode === "client" && row.run === "client");
    if (clientRows.length > 0) console.log(`${where}, client (driver under test): ${passed(clientRows)} (${checks(clientRows)})`);
    const skillsRows = rows.filter((row) => row.mode === "client" && row.run === "client skills");
    if (skillsRows.length > 0) console.log(`${where}, client skills (driver under test, --force): ${passed(skillsRows)} (${checks(skillsRows)})`);
    for (const spec of [...new Set(rows.filter((row) => row.run === "auth").map((row) => row.spec))]) {
      const authRows = rows.filter((row) => row.run === "auth" && row.spec === spec);
      console.log(`conformance ${suite.version}, auth/* at ${spec}, client (the driver signs in): ${passed(authRows)} (${checks(authRows)})`);
    }
  }
  const failedScenarios = table.filter((row) => row.failing).length;
  if (failedScenarios > 0) exitCode = 1;
  console.log(`Scenarios: ${table.length - failedScenarios} passed, ${failedScenarios} failed`);
}

// The suite's authorization mode tests an authorization server: the protected mock's own (2026 suite, with the whole run).
if (args.scenario === undefined && args.mode === "all" && selectedSuites.some((suite) => suite.key === "2026")) {
  say("authorization mode, conformance 0.2.0-alpha.12: the suite checks the protected mock's authorization server");
  const authorization = spawnSync(process.execPath, [join(ROOT, "scripts", "conformance-authorization.mjs")], { cwd: ROOT, stdio: "inherit", timeout: 300_000 });
  console.log(`authorization mode (the mock's authorization server): ${authorization.status === 0 ? "pass" : `FAIL (exit ${authorization.status ?? authorization.signal})`}`);
  if (authorization.status !== 0) exitCode = 1;
}
process.exit(exitCode);
