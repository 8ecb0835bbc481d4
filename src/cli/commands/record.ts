/**
 * `mcp-testkit record <command | url> --out <file>`: a mock in front of a real MCP server
 * (`recordMcp`). The agent connects to the mock; each answer the server gives is forwarded and
 * recorded; on Ctrl-C or SIGTERM (with --stdio also when stdin closes) the recording is written
 * as a scenario (`mcp-testkit mock <file>` replays it) or a fixture file.
 */
import { LATEST_KNOWN_VERSION } from "../../protocol/versions.js";
import { Console } from "node:console";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { McpDriver } from "../../driver/index.js";
import { McpTestkitError } from "../../errors.js";
import { ListenError } from "../../wire/http/listen-error.js";
import { recordMcp, type McpRecording, type RecordMcpOptions, type RecordMode, type RecordingFormat, type RecordingMockOptions } from "../../record/index.js";
import { Redactor, type RedactionOptions } from "../../record/redact.js";
import type { FakeScope } from "../../fakes/types.js";
import { CommandError, EXIT_FAILURE, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { printLiveLines, wantsColour } from "../live-lines.js";
import { createProgress } from "../output/progress.js";
import { checkOutputFolder, FLAG_NAMES, parseServeFlags, SERVE_HELP, SERVE_OPTIONS, stopRequests, type ServeFlags } from "../serve-flags.js";
import { describeEra, ERA_HELP, ERA_OPTIONS, parseEra } from "../target/era.js";
import { openDriver, parseTarget, TARGET_EXPLAINED, TARGET_HELP, TARGET_OPTIONS, withConnectedDriver } from "../target/target.js";
import { plural } from "../../util/text.js";

export const summary = "Record a real MCP server's answers through a mock your agent uses, for offline replay";

export const help = `Usage: mcp-testkit record [options] <command | url> --out <file>

Starts a mock MCP server in front of a real one. The mock lists what the server lists; point
your agent at it (its URL is printed, or spawn it with --stdio). Each tools/call,
resources/read and prompts/get is forwarded to the server, answered with the server's answer
and recorded, with its exact arguments, in order. On Ctrl-C or SIGTERM (with --stdio also when
stdin closes) the recording is written to --out:
  --format scenario (the default): the server's name and instructions, every tool it listed
    with its full definition, and the answers as one block of scenario fakes. Replay it with
    mcp-testkit mock <file>; a call the recording never saw fails with MCP_FAKE_MISMATCH naming
    the closest recorded one, and a listed tool never called says it was not recorded.
  --format fixture: only the block ({ "mcpFakes": ... }), for a fixtures directory
    (mcp-testkit mock --fixtures <dir>, or mockMcp({ fixtures })).
A failure that is not the server's answer (it exited, timed out) reaches the agent as an error
and is not recorded. The recording declares the elicitation and sampling capabilities to the
server; what the server asks during a tools/call (elicitation, sampling, roots; in ${LATEST_KNOWN_VERSION}
its input requests) is passed on to the agent in that call, the agent's answer goes back, and
the replay asks the agent the same before it gives the recorded answer (the step's "asks").
${TARGET_EXPLAINED}

Options:
  --out <file>         Where to write the recording (required; its folder must exist)
  --format <format>    scenario (default) or fixture
  --mode <mode>        record (default): forward and record every request; replay: answer
                       from --out only, never starting the server (a call it never saw
                       fails, naming the closest recorded one); auto: answer what --out
                       holds, forward and record the rest, and write --out with both
  --test-id <id>       Scope the recorded answers to one test id (default: shared by all)
  --context <name>     Scope them to a context (with or without --test-id)
  --closed-world       Write undeclaredTools: "deny" (needs --test-id or --context): a
                       call to a tool the recording never saw fails instead of reaching
                       the mock's own tools
  --redact <path>      Also replace the value at this path with "[redacted]" (repeatable):
                       arguments.apiKey, answer.result.structuredContent.token,
                       serverInfo.build, **.password (any depth)
  --redact-pattern <re>
                       Also replace text matching this regular expression (repeatable)
Secrets are replaced with "[redacted]" before anything is written or printed: values under
keys named as credentials (apiKey, password, access_token, ...), bearer tokens, JWTs,
well-known API key prefixes (sk-, ghp_, xoxb-, AKIA, AIza, glpat-) and private keys. The file
lists each redaction; a redacted argument matches any value on replay.
${SERVE_HELP}
${ERA_HELP}
${TARGET_HELP}

Exit codes: 0 written; 1 the server could not be started or reached, or nothing could be
written; 2 bad usage.

Examples:
  mcp-testkit record "npx -y @modelcontextprotocol/server-everything stdio" \\
    --out recordings/everything.json --port 3000
  mcp-testkit record http://127.0.0.1:8080/mcp --out fixtures/github.json \\
    --format fixture --test-id "triage > labels"
  mcp-testkit record "node build/server.js" --out server.json --stdio`;

const OPTIONS = {
  ...TARGET_OPTIONS,
  ...ERA_OPTIONS,
  ...SERVE_OPTIONS,
  out: { type: "string" },
  format: { type: "string" },
  "test-id": { type: "string" },
  context: { type: "string" },
  "closed-world": { type: "boolean" },
  redact: { type: "string", multiple: true },
  "redact-pattern": { type: "string", multiple: true },
  mode: { type: "string" },
} as const;

const MODES: readonly RecordMode[] = ["record", "replay", "auto"];

const FORMATS: readonly RecordingFormat[] = ["scenario", "fixture"];

/**
 * What the recording declares to the server so it may ask during a call: each request is passed
 * on to the agent. Not roots: a legacy server may ask for them as soon as it is initialized,
 * before any agent is connected to answer.
 */
const PASSED_ON_CAPABILITIES = { elicitation: {}, sampling: {} };

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length > 1) {
    throw new UsageError(
      `takes one target, got ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(" ")}; quote a command with arguments, e.g. mcp-testkit record "node server.js --port 1" --out rec.json`,
    );
  }
  const target = parseTarget(positionals[0], values);
  const era = parseEra(values);
  if (values.out === undefined || values.out === "") throw new UsageError("missing --out <file>: where to write the recording when it stops");
  const format = parseFormat(values.format);
  const serving = parseServeFlags(values);
  const scope = parseScope(values["test-id"], values.context);
  if (values["closed-world"] === true && scope === "shared") {
    throw new UsageError(
      '--closed-world needs --test-id or --context: a recording shared by every test cannot deny the tools it never saw to all of them (a shared block cannot be undeclaredTools: "deny")',
    );
  }
  const redact = parseRedaction(values.redact, values["redact-pattern"]);
  const mode = parseMode(values.mode);
  await checkOutputFolder(values.out, "the recording");
  if (await isDirectory(values.out)) throw new UsageError(`--out ${JSON.stringify(values.out)} is a directory; give the file to write, such as ${join(values.out, "recording.json")}`);
  const out = values.out;

  const stdio = serving.stdio;
  // With --stdio, stdout belongs to the protocol: every line for people goes to stderr.
  const say = (line: string) => (stdio ? process.stderr : process.stdout).write(`${line}\n`);
  if (stdio) globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const stopping = stopRequests();
  if (mode === "replay") {
    try {
      return await replayOut(target.value, out, serving, stopping, say);
    } finally {
      stopping.release();
    }
  }
  try {
    return await withConnectedDriver(
      "record",
      target,
      createProgress(),
      async (driver) => {
        const recording = await startRecording(driver, serving, { scope, closedWorld: values["closed-world"] === true, redact, ...(mode === "auto" && { mode, from: out }) }, stopping.stop);
        // The lines show what the file will hold: redacted by the same rules.
        const redactor = new Redactor(redact);
        printLiveLines(recording.server, say, wantsColour(stdio ? process.stderr : process.stdout), (shown) => redactor.redact(shown, []));
        const where = stdio ? "over stdio" : `at ${recording.server.url}`;
        say(`mcp-testkit record: recording ${target.value} (${describeServer(driver)}, ${describeEra(driver, era)}) ${where}`);
        say(`  ${describeSurface(recording)}. Point your agent at it; ${stdio ? "close stdin or press Ctrl-C" : "press Ctrl-C"} to stop and write ${out}.`);
        const why = await stopping.requested;
        await recording.close();
        say(`mcp-testkit record: stopped (${why})`);
        return await save(recording, out, format, say);
      },
      era,
      PASSED_ON_CAPABILITIES,
    );
  } finally {
    stopping.release();
  }
}

/** `--mode replay`: the file answers; the server is never started. Nothing is written. */
async function replayOut(server: string, out: string, serving: ServeFlags, stopping: ReturnType<typeof stopRequests>, say: (line: string) => void): Promise<number> {
  // Never initialized, so never started: the replay does not reach it.
  const unused = openDriver(parseTarget(server, {}));
  try {
    const recording = await startRecording(unused, serving, { mode: "replay", from: out }, stopping.stop);
    say(`mcp-testkit record: replaying ${out} ${serving.stdio ? "over stdio" : `at ${recording.server.url}`} (--mode replay: ${server} is not started)`);
    const why = await stopping.requested;
    await recording.close();
    say(`mcp-testkit record: stopped (${why}); nothing written in replay mode`);
    return EXIT_OK;
  } finally {
    await unused.close(500).catch(() => undefined);
  }
}

async function startRecording(
  driver: McpDriver,
  serving: ServeFlags,
  recordOptions: Pick<RecordMcpOptions, "scope" | "closedWorld" | "redact" | "mode" | "from">,
  stop: (why: string) => void,
): Promise<McpRecording> {
  const mock: RecordingMockOptions = serving.stdio
    ? ({ transport: "stdio", stdio: { onEnd: (reason: string) => stop(reason === "input-ended" ? "stdin closed" : "stdout closed") } } as RecordingMockOptions)
    : { transport: "http", ...definedOnly(serving.http) };
  try {
    return await recordMcp(driver, { ...recordOptions, mock });
  } catch (error) {
    if (error instanceof ListenError) throw new CommandError(`Cannot serve the recording mock on ${error.host}:${error.port}: ${error.problem(FLAG_NAMES)}.`);
    if (error instanceof McpTestkitError) throw new CommandError(error.detail);
    throw error;
  }
}

async function save(recording: McpRecording, out: string, format: RecordingFormat, say: (line: string) => void): Promise<number> {
  const counts = countExchanges(recording);
  try {
    await recording.save(out, { format });
  } catch (error) {
    if (error instanceof McpTestkitError) {
      say(`mcp-testkit record: ${error.detail}`);
      return EXIT_FAILURE;
    }
    throw new CommandError(`Cannot write the recording to "${out}": ${(error as Error).message}`);
  }
  const replay = format === "scenario" ? `mcp-testkit mock ${out}` : `mcp-testkit mock --fixtures ${out}`;
  say(`mcp-testkit record: wrote ${counts} to ${out} (${format}); replay it with: ${replay}`);
  return EXIT_OK;
}

function countExchanges(recording: McpRecording): string {
  const count = (kind: string) => recording.exchanges.filter((exchange) => exchange.kind === kind).length;
  return `${plural(count("tool"), "tool call")}, ${plural(count("resource"), "resource read")} and ${plural(count("prompt"), "prompt get")}`;
}

function describeSurface(recording: McpRecording): string {
  const scenario = recording.scenario();
  const tools = Object.keys((scenario.tools as object | undefined) ?? {});
  return tools.length === 0 ? "The server lists no tools" : `Tools: ${tools.join(", ")}`;
}

function describeServer(driver: McpDriver): string {
  const info = driver.serverInfo;
  return info === undefined ? "server" : `${info.name} ${info.version}`;
}

function parseFormat(text: string | undefined): RecordingFormat {
  if (text === undefined) return "scenario";
  if ((FORMATS as readonly string[]).includes(text)) return text as RecordingFormat;
  throw new UsageError(`--format must be scenario or fixture, got ${JSON.stringify(text)}`);
}

function parseMode(text: string | undefined): RecordMode {
  if (text === undefined) return "record";
  if ((MODES as readonly string[]).includes(text)) return text as RecordMode;
  throw new UsageError(`--mode must be record, replay or auto, got ${JSON.stringify(text)}`);
}

function parseScope(testId: string | undefined, context: string | undefined): FakeScope {
  if (testId === "") throw new UsageError("--test-id needs the test id to scope the recording to");
  if (context === "") throw new UsageError("--context needs the context to scope the recording to");
  if (testId === undefined && context === undefined) return "shared";
  return { ...(testId === undefined ? {} : { testId }), ...(context === undefined ? {} : { context }) };
}

/** The user's own redaction rules; a pattern that is not a regular expression is bad usage. */
function parseRedaction(paths: string[] | undefined, patterns: string[] | undefined): RedactionOptions {
  const options: RedactionOptions = { ...(paths !== undefined && { paths }), ...(patterns !== undefined && { patterns }) };
  try {
    new Redactor(options, { paths: "--redact", patterns: "--redact-pattern" });
  } catch (error) {
    if (error instanceof McpTestkitError) throw new UsageError(error.detail);
    throw error;
  }
  return options;
}

async function isDirectory(path: string): Promise<boolean> {
  return await stat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
