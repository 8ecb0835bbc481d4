/**
 * `mcp-testkit mock <scenario file>`: serves a scenario as a mock MCP server, over Streamable
 * HTTP (printing its URL, then a line per tool call) or over stdio (`--stdio`: stdout carries
 * only protocol messages, so every line for people goes to stderr). It stops on SIGINT or
 * SIGTERM, and with `--stdio` when stdin closes; `--record` then writes the call record.
 */
import { Console } from "node:console";
import { readFileSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { McpTestkitError } from "../../errors.js";
import { problemsOf } from "../../mock/option-problems.js";
import { fromAimockConfig, isAimockConfig } from "../../mock/aimock-config.js";
import { problemLines } from "../output/problems.js";
import { ListenError } from "../../wire/http/listen-error.js";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../mock/mock-mcp.js";
import { listedToolNames } from "../../mock/listed-tools.js";
import type { StdioMockOptions } from "../../mock/mock-mcp.js";
import { printLiveLines, wantsColour } from "../live-lines.js";
import { CommandError, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { loadScenario, type Scenario } from "../scenario.js";
import { checkOutputFolder, FLAG_NAMES, parseServeFlags, SERVE_HELP, SERVE_OPTIONS, stopRequests } from "../serve-flags.js";
import { plural } from "../../util/text.js";
import { METRICS_PATH } from "../../observe/metrics/exposition.js";
import { LIVE_UI_PATH } from "../../view/live-timeline.js";
import { TRACE_PATH } from "../../mock/mock-trace.js";

export const summary = "Serve a scenario file as a mock MCP server, over Streamable HTTP or stdio";

export const help = `Usage: mcp-testkit mock [options] [<scenario file>] [<fixtures file or directory>...]

Serves a scenario as a mock MCP server. Over Streamable HTTP (the default) it prints its URL
and its live timeline's (a web page of the traffic, at /__mcp-testkit/ui), then a line per
tool call, resource read and prompt get as each ends, and per session opened or closed. With
--stdio it speaks MCP on stdin/stdout (newline-delimited JSON) and prints everything else on
stderr, so an agent can spawn it. It stops on Ctrl-C or SIGTERM, and with --stdio also when
stdin closes.

A scenario file is JSON holding mockMcp() options, for example
  { "tools": { "search": [{ "returns": "found it" }, { "toolError": "rate limited" }] } }
or a .js/.mjs/.cjs/.ts/.mts/.cts module whose default export is those options (then steps
can be functions), or an aimock config file ({ "mcp": {...}, "llm": { "fixtures": ... } }):
its "mcp" part and the mcpFakes in "llm.fixtures" are served, its LLM-only parts left out.
Fixture files of scenario fakes (the mcpFakes format: a directory, or a JSON file with an
"mcpFakes" key) are served beside it, or alone; their tools answer per test id (X-Test-Id
header), and each block's "mount" is served on the same port.

Options:
${SERVE_HELP}
  --fixtures <path>  A fixtures directory or file of scenario fakes (repeatable; a positional
                   directory or a JSON file with "mcpFakes" counts as one too)
  --fake-test-ids-max <n>  Test ids whose used entries each mount remembers (default 500; 0: no cap)
  --journal-max <n>  Journal entries kept, newest first (default 1000; 0 keeps everything),
                   at GET /__mcp-testkit/journal
  --metrics        Collect metrics and serve them (Prometheus or OpenMetrics text) at
                   /__mcp-testkit/metrics on the mock's port; the banner prints the URL
  --auth           Protect the MCP endpoint with OAuth: it wants a bearer token, and an
                   authorization server of its own (same port) signs clients in, consenting
                   by itself; a scenario's "auth" options refine it. The banner prints the
                   issuer; faults and the sign-in journal are under /__mcp-testkit/auth/
  --record <file>  When the server stops, write the call record there as JSON:
                   { "calls": [...], "messages": [...] }
  --trace <file>   Write every message in and out there as it passes, as a trace (JSON Lines);
                   also served at /__mcp-testkit/trace (?testId= to filter)
  -h, --help       Show this help

Examples:
  mcp-testkit mock examples/scenarios/issue-tracker.json --port 3000
  mcp-testkit mock --stdio examples/scenarios/weather.ts --record calls.json
  mcp-testkit mock --fixtures ./fixtures --port 3000`;

const OPTIONS = {
  ...SERVE_OPTIONS,
  record: { type: "string" },
  fixtures: { type: "string", multiple: true },
  "fake-test-ids-max": { type: "string" },
  "journal-max": { type: "string" },
  metrics: { type: "boolean" },
  auth: { type: "boolean" },
  trace: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const positionalFixtures = positionals.filter(isFixturesPath);
  const scenarios = positionals.filter((path) => !positionalFixtures.includes(path));
  const fixtures = [...positionalFixtures, ...(values.fixtures ?? [])];
  if (scenarios.length === 0 && fixtures.length === 0) throw new UsageError("missing the scenario file to serve (or a fixtures directory or file for scenario fakes)");
  if (scenarios.length > 1)
    throw new UsageError(`serves one scenario file at a time, got ${scenarios.length}: ${scenarios.join(", ")} (fixture files are those with an "mcpFakes" key, or directories)`);
  const file = scenarios[0];
  const fakeTestIdsMax = values["fake-test-ids-max"] === undefined ? undefined : parseCount(values["fake-test-ids-max"], "--fake-test-ids-max");
  // aimock's spelling: 0 keeps every entry (the library's journalMax takes Infinity for that).
  const journalMax = values["journal-max"] === undefined ? undefined : parseCount(values["journal-max"], "--journal-max") || Infinity;
  const { stdio, http } = parseServeFlags(values);
  if (stdio && values.metrics === true) throw new UsageError("--metrics serves them over HTTP on the mock's port, and --stdio has none; leave out one of them");
  if (stdio && values.auth === true) throw new UsageError("--auth protects an HTTP endpoint (a bearer token travels in an HTTP header), and --stdio has none; leave out one of them");
  if (values.record !== undefined) await checkOutputFolder(values.record, "the call record");

  // With --stdio, stdout belongs to the protocol: every line for people goes to stderr, and so
  // does whatever a scenario module prints with console.log (at load or inside a step).
  const say = (line: string) => (stdio ? process.stderr : process.stdout).write(`${line}\n`);
  if (stdio) globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const what: Served = { scenario: file, fixtures };
  const loaded: Scenario = file === undefined ? {} : await loadScenario(file);
  let scenario: Scenario;
  try {
    // An aimock config file runs as it is: its "mcp" part, and the fakes in its "llm.fixtures".
    scenario = isAimockConfig(loaded) ? (fromAimockConfig(loaded, { onIgnored: (line) => say(`mcp-testkit mock: ${line}`) }) as Scenario) : loaded;
  } catch (error) {
    throw error instanceof McpTestkitError ? rejected(what, error) : error;
  }
  // Beside the scenario's own fixtures (a recording's blocks, say), not in place of them.
  if (fixtures.length > 0) scenario.fixtures = [...inlineFixtures(scenario.fixtures), ...fixtures];
  // A fake's failure is news to the person watching the command (a library is quiet unless asked).
  scenario.fakesOptions = { log: true, ...(scenario.fakesOptions as object | undefined) };
  if (fakeTestIdsMax !== undefined) scenario.fakesOptions = { ...(scenario.fakesOptions as object | undefined), testIdsMax: fakeTestIdsMax };
  // A scenario's own blocks (a saved recording's) are named by its file, as validate names them.
  if (file !== undefined && scenario.fixtures !== undefined) scenario.fakesOptions = { file, ...(scenario.fakesOptions as object | undefined) };
  if (journalMax !== undefined) scenario.fakesOptions = { ...(scenario.fakesOptions as object | undefined), journalMax };
  if (values.metrics === true) scenario.metrics = true;
  if (values.auth === true) scenario.auth ??= {};
  if (values.trace !== undefined) {
    if (values.trace.trim() === "") throw new UsageError("--trace needs a file name, such as --trace traces/mock.jsonl");
    scenario.trace = values.trace;
  }
  const served = servedLabel(what);

  // Why the server should stop: a signal, or the stdio wire ending by itself.
  const stopping = stopRequests();
  try {
    const server = await serve(what, scenario, stdio, http, stopping.stop);
    printLiveLines(server, say, wantsColour(stdio ? process.stderr : process.stdout));
    say(stdio ? `mcp-testkit mock: serving ${served} over stdio` : `mcp-testkit mock: serving ${served} at ${server.url}`);
    if (server.url !== undefined) say(`  timeline: ${new URL(LIVE_UI_PATH, server.url).href}`);
    if (scenario.metrics === true && server.url !== undefined) say(`  metrics: ${new URL(METRICS_PATH, server.url).href}`);
    if (scenario.auth !== undefined && server.url !== undefined) say(`  protected: authorization server ${server.auth.issuer}, resource metadata ${server.auth.resourceMetadataUrl}`);
    if (values.trace !== undefined) say(`  trace: ${values.trace}${server.url === undefined ? "" : ` (and ${new URL(TRACE_PATH, server.url).href})`}`);
    say(`  ${describeCatalog(scenario, server)}. ${stdio ? "Close stdin or press Ctrl-C to stop." : "Press Ctrl-C to stop."}`);

    const why = await stopping.requested;
    await server.close();
    say(`mcp-testkit mock: stopped (${why})`);
    if (values.record !== undefined) {
      await writeRecord(values.record, server);
      say(`mcp-testkit mock: wrote ${plural(server.calls.length, "call")} and ${plural(server.messages.length, "message")} to ${values.record}`);
    }
    return EXIT_OK;
  } finally {
    stopping.release();
  }
}

async function serve(what: Served, scenario: Scenario, stdio: boolean, http: { port?: number; host?: string; path?: string }, stop: (why: string) => void): Promise<MockMcpServer> {
  // The command line decides the wire; a scenario's own `transport` or `http` does not.
  const { transport: _transport, http: _http, ...options } = scenario;
  try {
    if (stdio) {
      const stdioOptions: StdioMockOptions = {
        ...(options as MockMcpOptions),
        transport: "stdio",
        stdio: { onEnd: (reason) => stop(reason === "input-ended" ? "stdin closed" : reason === "dropped" ? "a disconnect step dropped the connection" : "stdout closed") },
      };
      return await mockMcp(stdioOptions);
    }
    const httpOptions = { ...options, transport: "http" } as Record<string, unknown>;
    for (const [key, value] of Object.entries(http)) if (value !== undefined) httpOptions[key] = value;
    return await mockMcp(httpOptions as MockMcpOptions);
  } catch (error) {
    if (error instanceof ListenError) throw new CommandError(`Cannot serve "${servedLabel(what)}" on ${listenAddress(scenario, http)}: ${error.problem(FLAG_NAMES)}.`);
    if (error instanceof McpTestkitError) throw rejected(what, error);
    throw error;
  }
}

/** Every problem of what is served, one line each with its rule, as `validate` prints them. */
function rejected(what: Served, error: McpTestkitError): CommandError {
  const problems = problemsOf(error);
  const head = `${describeServed(what)} was rejected${problems.length > 1 ? ` (${problems.length} problems)` : ""}:`;
  return new CommandError([head, ...problemLines(problems), `Fix ${fixWhat(what)} and run the command again.`].join("\n"));
}

function inlineFixtures(option: unknown): unknown[] {
  if (option === undefined) return [];
  return Array.isArray(option) ? option : [option];
}

/** What the command serves: a scenario file, fixtures, or both. */
interface Served {
  scenario: string | undefined;
  fixtures: readonly string[];
}

/** `a.json + fixtures dir`, as the serving line shows it. */
function servedLabel({ scenario, fixtures }: Served): string {
  return [scenario, ...fixtures.map((path) => `fixtures ${path}`)].filter((part) => part !== undefined).join(" + ");
}

/** `Scenario "a.json"`, `Fixtures "dir"`, or `Scenario "a.json" with fixtures "dir"`. */
function describeServed({ scenario, fixtures }: Served): string {
  const quoted = fixtures.map((path) => `"${path}"`).join(", ");
  if (scenario === undefined) return `Fixtures ${quoted}`;
  return fixtures.length === 0 ? `Scenario "${scenario}"` : `Scenario "${scenario}" with fixtures ${quoted}`;
}

function fixWhat({ scenario, fixtures }: Served): string {
  if (scenario === undefined) return "the fixtures";
  return fixtures.length > 0 ? "the scenario file or the fixtures" : "the scenario file";
}

/** Where the mock was asked to listen: the flags, else the scenario's own options, else the defaults. */
function listenAddress(scenario: Scenario, http: { port?: number; host?: string }): string {
  return `${String(http.host ?? scenario.host ?? "127.0.0.1")}:${String(http.port ?? scenario.port ?? 0)}`;
}

/** A directory, or a JSON file with an `mcpFakes` key: fixtures, not a scenario. */
function isFixturesPath(path: string): boolean {
  try {
    if (statSync(path).isDirectory()) return true;
    if (!path.toLowerCase().endsWith(".json")) return false;
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && Object.hasOwn(parsed, "mcpFakes");
  } catch {
    // Not readable or not JSON: the scenario loader says what is wrong with it.
    return false;
  }
}

function parseCount(text: string, flag: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} must be a whole number, 0 or more, got "${text}"`);
  return Number(text);
}

async function writeRecord(file: string, server: MockMcpServer): Promise<void> {
  const record = { calls: server.calls, messages: server.messages };
  try {
    await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
  } catch (error) {
    throw new CommandError(`Cannot write the call record to "${file}": ${(error as Error).message}`);
  }
}

/**
 * What a client that names no test id lists: the scenario's own tools, resources and prompts and
 * those of the shared fakes on the endpoint, as tools/list, resources/list and prompts/list answer.
 */
function describeCatalog(scenario: Scenario, server: MockMcpServer): string {
  const names = (key: string) => (typeof scenario[key] === "object" && scenario[key] !== null ? Object.keys(scenario[key]) : []);
  const query = { mount: server.url === undefined ? undefined : new URL(server.url).pathname };
  const unique = (list: string[]) => [...new Set(list)];
  const tools = listedToolNames(names("tools"), server.fakes, query.mount);
  const resources = unique([...names("resources"), ...server.fakes.listResources(query).map((resource) => resource.uri)]);
  const prompts = unique([...names("prompts"), ...server.fakes.listPrompts(query).map((prompt) => prompt.name)]);
  const parts = [tools.length === 0 ? "no tools" : `tools: ${tools.join(", ")}`, plural(resources.length, "resource"), plural(prompts.length, "prompt")];
  if (scenario.fixtures !== undefined) {
    const mounts = [...server.fakes.store.mounts.entries()];
    const blocks = mounts.reduce((sum, [, mount]) => sum + mount.blocks.length, 0);
    parts.push(`${plural(blocks, "fake block")} on ${mounts.map(([path]) => path).join(", ") || "no mount"}`);
  }
  return parts.join("; ");
}
