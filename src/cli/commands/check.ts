/**
 * `mcp-testkit check <command | url>`: a linter for MCP servers. It runs a numbered list of
 * checks (lifecycle, capabilities, definitions, pagination, error codes, and the stdio or
 * Streamable HTTP transport rules), each with its spec reference and PASS / WARN / FAIL / SKIP
 * and one line of detail. Exit 1 on any FAIL. `--json` prints the structured report.
 */
import { writeFile } from "node:fs/promises";
import { McpDriverError, ProtocolError, RequestFailedError } from "../../driver/index.js";
import { renderDriverError } from "../../driver/errors.js";
import { clip, firstLineOf } from "../../util/text.js";
import { isSupportedVersion } from "../../protocol/versions.js";
import { isObject } from "../../protocol/jsonrpc.js";
import { httpStatusOf, refusalOf } from "../../driver/http-refusal.js";
import { CommandError, EXIT_FAILURE, EXIT_OK, parseCommandLine, UsageError } from "../command.js";
import { CHECKS, STDIN_CLOSE_GRACE_MS } from "../check/catalogue.js";
import { CheckContext } from "../check/context.js";
import { MODERN, MODERN_CHECKS, ModernContext } from "../check/modern-checks.js";
import { formatHeader, formatResult, formatSummary, useColor } from "../check/report.js";
import { formatJunit, formatUnreachableJunit } from "../check/junit.js";
import { checksFor, planned, runChecks } from "../check/run.js";
import { taskChecks } from "../check/task-checks.js";
import { selectChecks } from "../check/selection.js";
import { createProgress } from "../output/progress.js";
import { openDriver, parseTarget, plainLine, plainMessage, TARGET_EXPLAINED, TARGET_HELP, TARGET_OPTIONS, unreachable, type Target } from "../target/target.js";
import type { CheckReport, CheckResult } from "../check/types.js";
import { helpTable } from "../output/help-table.js";
import { AUTH_CHECKS, probeWithToken } from "../check/auth-audit.js";
import { memoryTokenStore, type TokenStore } from "../../driver/auth/token-store.js";

export const summary = "Lint an MCP server: lifecycle, capabilities, definitions, errors, transport rules";

const listed = (only: "stdio" | "http" | undefined) => helpTable(CHECKS.filter((check) => check.only === only).map((check) => [check.id, check.title]));
const listedTasks = () => helpTable(taskChecks("http").map((check) => [check.id, check.title]));
const listedModern = () => helpTable(MODERN_CHECKS.map((check) => [check.id, `${check.what}${check.only ? ` (${check.only === "http" ? "URLs" : "stdio"} only)` : ""}`]));

export const help = `Usage: mcp-testkit check [options] <command | url>

Connects to an MCP server as a client would, then probes it the ways clients do not, and
prints a numbered list of checks, each with PASS, WARN, FAIL or SKIP, one line of detail and
a link to the rule in the spec (of the negotiated version). FAIL: a MUST is broken; WARN: a
SHOULD is missed (or a reply could not be judged); SKIP: the check does not apply.
${TARGET_EXPLAINED}

For a stdio server a second, short-lived copy is started for the probes that would spoil a
session (an unknown protocol version, a line that is not JSON); at the end its stdin is
closed and it must exit (code 0) within ${STDIN_CLOSE_GRACE_MS / 1000} s.

Eras: the server is asked in both. The legacy era (initialize, a session) gets the checks below
it passes or fails; a second connection pinned to ${MODERN} asks server/discover, and a server
that answers it also gets the ${MODERN} checks. The report lists the checks of each era the
server speaks (a legacy-only server: the legacy ones; a ${MODERN}-only server: the modern ones).

Checks for every server:
${listed(undefined)}
Only stdio:
${listed("stdio")}
Only URLs (Streamable HTTP):
${listed("http")}
${MODERN} (when the server answers server/discover):
${listedModern()}
Authorization (a URL that answers a request without a token with 401; sign in with the
sign-in flags below so the other checks get through):
${helpTable(AUTH_CHECKS.map((check) => [check.id, check.title]))}

Tasks (when the server advertises them: 2025-11-25 capabilities.tasks, ${MODERN} the extension
io.modelcontextprotocol/tasks; those that run a task need --task-tool, and skip without it):
${listedTasks()}

Options:
  --only <checks>      Run only these checks: numbers (as listed for this transport) or ids,
                       comma-separated or repeated, e.g. --only 1,ping,tools-valid; a named
                       check of an era the server does not speak FAILs, saying why
  --skip <checks>      Run all but these checks (same form)
  --junit <file>       Also write the report as JUnit XML, for CI (FAIL is a failure, SKIP
                       skipped, WARN passes with its detail in system-out)
  --narrow-token-env <NAME>   A valid token with too little scope (for auth-insufficient-scope)
  --foreign-token-env <NAME>  A valid token issued for another resource (for auth-audience)
  --task-tool <name>   A tool the tasks checks run as a task, to its end (it is called)
  --task-args <json>   That tool's arguments, a JSON object (default {})
${TARGET_HELP}

Exit codes: 0 no check failed; 1 a check failed, or the server could not be started or
reached; 2 bad usage.

Examples:
  mcp-testkit check "node build/server.js"
  mcp-testkit check http://127.0.0.1:3000/mcp --json > report.json
  mcp-testkit check "node build/server.js" --skip stdin-close --junit check-results.xml`;

const OPTIONS = {
  ...TARGET_OPTIONS,
  only: { type: "string", multiple: true },
  skip: { type: "string", multiple: true },
  junit: { type: "string" },
  "narrow-token-env": { type: "string" },
  "foreign-token-env": { type: "string" },
  "task-tool": { type: "string" },
  "task-args": { type: "string" },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length > 1) {
    throw new UsageError(
      `takes one target, got ${positionals.length}: ${positionals.map((p) => JSON.stringify(p)).join(" ")}; quote a command with arguments, e.g. mcp-testkit check "node server.js --port 1"`,
    );
  }
  const target = parseTarget(positionals[0], values);
  const otherKind = target.kind === "http" ? "stdio" : "http";
  const selected = selectChecks(checksFor(target.kind), { only: values.only, skip: values.skip }, target.kind, checksFor(otherKind));
  if (values.junit === "") throw new UsageError("--junit needs a file name, such as --junit check-results.xml");
  const json = values.json === true;
  const startedAt = Date.now();
  const progress = createProgress();
  // The raw probes go where the driver went: with the token it signed in with.
  const signIn = target.auth === undefined || target.auth.token !== undefined ? undefined : latestCredentials();
  if (signIn !== undefined) target.auth = { ...target.auth, store: signIn.store };
  const auditTokens = { ...tokenFromEnv("narrow-token-env", values["narrow-token-env"]), ...tokenFromEnv("foreign-token-env", values["foreign-token-env"]) };
  const taskTool = readTaskTool(values["task-tool"], values["task-args"]);
  const ctx = new CheckContext(target, openDriver(target, { versionNegotiation: "legacy", onStdoutLine: (line) => ctx.strayStdout.push({ line, from: "the server" }) }));
  ctx.taskTool = taskTool;
  const color = !json && useColor();
  ctx.auditTokens = {
    ...(auditTokens["narrow-token-env"] === undefined ? {} : { narrow: auditTokens["narrow-token-env"] }),
    ...(auditTokens["foreign-token-env"] === undefined ? {} : { foreign: auditTokens["foreign-token-env"] }),
  };
  ctx.bearer = () => target.auth?.token ?? signIn?.token();
  try {
    progress.step(target.kind === "http" ? `connecting to ${target.value}` : `starting ${target.value}`);
    try {
      ctx.init = await ctx.driver.initialize();
      ctx.initResult = ctx.init as unknown as Record<string, unknown>;
    } catch (error) {
      ctx.initFailure = legacyNotSpokenWhy(error);
      const cannot = unreachable(error, target);
      // A server that refuses initialize may still speak 2026-07-28 (a modern-only server does).
      if (cannot) {
        await probeModern(ctx);
        // A server that answered server/discover (even with a broken DiscoverResult) was reached.
        if (ctx.modern === undefined && ctx.brokenDiscover === undefined) {
          const failure = withStrayStdout(cannot, ctx.strayStdout);
          // CI reads the report file: a server that cannot be reached is a failed run there too, not a missing file.
          if (values.junit !== undefined) await writeJunit(values.junit, formatUnreachableJunit(target.value, failure.message, (Date.now() - startedAt) / 1000));
          // And --json still prints a report, with the one check that failed.
          if (json) process.stdout.write(`${JSON.stringify(unreachableReport(target, ctx, failure.message), null, 2)}\n`);
          throw failure;
        }
      }
      // The driver refuses a version it does not speak; the answer is still in the record.
      if (error instanceof ProtocolError) ctx.initResult = initializeAnswer(ctx);
      const version = ctx.initResult?.protocolVersion;
      if (version !== undefined && !isSupportedVersion(version)) {
        ctx.initFailure = `the server answered with protocolVersion ${JSON.stringify(version)}, which mcp-testkit does not speak, so the session cannot go on (see check 2)`;
      }
    }
    if (target.kind === "http") {
      progress.step("asking without a token (is it protected?)");
      ctx.unauthenticated = await probeWithToken(ctx, undefined);
    }
    progress.step(`asking server/discover (${MODERN})`);
    if (ctx.modern === undefined && ctx.modernFailure === undefined && ctx.brokenDiscover === undefined) await probeModern(ctx);
    const info = (ctx.init?.serverInfo ?? ctx.modern?.driver.serverInfo) as Record<string, unknown> | undefined;
    if (!json)
      progress.print(
        formatHeader({ target: target.value, transport: target.kind, protocolVersion: ctx.init?.protocolVersion ?? ctx.modern?.driver.protocolVersion, serverInfo: info, eras: ctx.eras() }),
      );
    // Those the report will hold: the checks of the eras the server speaks.
    const total = checksFor(target.kind).filter((check) => planned(ctx, check)).length;
    const report = await runChecks(ctx, {
      selected,
      ...(values.only === undefined ? {} : { named: selected }),
      onStart: (check, number) => progress.step(`${number}/${total} ${check.title}`),
      onResult: (result) => {
        if (!json) progress.print(formatResult(result, total, color));
      },
    });
    progress.stop();
    if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(`${formatSummary(report)}\n`);
    if (values.junit !== undefined) await writeJunit(values.junit, formatJunit(report, (Date.now() - startedAt) / 1000));
    return report.ok ? EXIT_OK : EXIT_FAILURE;
  } finally {
    progress.stop();
    // The stdin-close check closes a stdio driver itself; this ends whatever is still open.
    await ctx.driver.close(STDIN_CLOSE_GRACE_MS).catch(() => undefined);
    await ctx.modern?.driver.close(STDIN_CLOSE_GRACE_MS).catch(() => undefined);
    await ctx.legacyTasksDriver?.close(STDIN_CLOSE_GRACE_MS).catch(() => undefined);
  }
}

/** A store that also tells the token it holds last, for the raw probes; both drivers of a check share it. */
function latestCredentials(): { store: TokenStore; token: () => string | undefined } {
  const store = memoryTokenStore();
  let latest: string | undefined;
  return {
    store: {
      get: (issuer) => store.get(issuer),
      set: (issuer, credentials) => {
        latest = credentials.tokens?.access_token;
        return store.set(issuer, credentials);
      },
    },
    token: () => latest,
  };
}

/** A token named by `--<flag> NAME`, read from the environment (never from the flag's value). */
function tokenFromEnv(flag: string, name: string | undefined): Record<string, string> {
  if (name === undefined) return {};
  const value = process.env[name];
  if (value === undefined || value.trim() === "") throw new UsageError(`--${flag} ${name}: the environment variable ${name} is not set (or empty); it holds the token, the flag only names it`);
  return { [flag]: value.trim() };
}

/**
 * The 2026-07-28 era: a second connection (a second process on stdio) pinned to it asks
 * server/discover. A server that answers gets the modern checks; one that does not is
 * legacy-only, and the reason is kept for the report.
 */
async function probeModern(ctx: CheckContext): Promise<void> {
  const driver = openDriver(ctx.target, {
    versionNegotiation: { pin: MODERN },
    onStdoutLine: (line) => ctx.strayStdout.push({ line, from: `its ${MODERN} copy` }),
    ...(ctx.target.trace !== undefined && { traceFile: modernTraceFile(ctx.target.trace) }),
  });
  try {
    await driver.initialize();
    const discover = driver.discoverResult!;
    ctx.modern = new ModernContext(driver, discover, ctx.target.kind === "http" ? ctx.target.value : undefined, ctx.target.headers, ctx.target.timeoutMs, ctx.bearer);
  } catch (error) {
    const summary = plainLine(error);
    // A DiscoverResult that breaks the schema: the server speaks 2026-07-28 and fails modern-discover (not "not spoken").
    if (error instanceof ProtocolError && error.method === "server/discover" && error.problems.length > 0) {
      ctx.brokenDiscover = { version: MODERN, problems: error.problems.map((problem) => `${problem.path}: ${problem.message}`), summary };
    } else ctx.modernFailure = notSpokenWhy(error);
    await driver.close(STDIN_CLOSE_GRACE_MS).catch(() => undefined);
  }
}

/**
 * Why a server does not speak the legacy era, in a few words: what initialize got (its JSON-RPC
 * error, read out of an HTTP refusal's body too), with no advice about flags `check` does not have.
 */
function legacyNotSpokenWhy(error: unknown): string {
  const refusal = refusalOf(error);
  if (refusal === undefined) return plainLine(error, { omit: ["speaksOnlyModern"] });
  const supported = isObject(refusal.data) && Array.isArray(refusal.data.supported) ? ` (supported: ${refusal.data.supported.join(", ")})` : "";
  return `initialize got ${refusal.status === undefined ? "" : `${refusal.status} `}${refusal.code} ${JSON.stringify(clip(refusal.message, 80))}${supported}`;
}

/** Why a server does not speak 2026-07-28, in a few words: what server/discover got, without the driver's option names. */
function notSpokenWhy(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof RequestFailedError && cause.code !== undefined) return `server/discover got ${cause.code} ${JSON.stringify(clip(cause.serverMessage ?? "", 80))}`;
  // An HTTP refusal: its status and the JSON-RPC error in its body, not the transport's whole text.
  const refusal = refusalOf(cause) ?? refusalOf(error);
  if (refusal !== undefined) return `server/discover got ${refusal.status === undefined ? "" : `${refusal.status} `}${refusal.code} ${JSON.stringify(clip(refusal.message, 80))}`;
  const status = cause instanceof Error ? httpStatusOf(cause) : undefined;
  if (status !== undefined) return `server/discover got HTTP ${status}`;
  return summaryOf(error);
}

/** An error's first line with no advice (the report reads without the driver's option names). */
function summaryOf(error: unknown): string {
  return firstLineOf(error instanceof McpDriverError ? renderDriverError(error, "summary") : plainMessage(error));
}

function initializeAnswer(ctx: CheckContext): Record<string, unknown> | undefined {
  for (const record of ctx.driver.messages) {
    if (record.direction !== "incoming" || record.method !== "initialize") continue;
    const content = record.content as unknown as Record<string, unknown>;
    if (typeof content.result === "object" && content.result !== null) return content.result as Record<string, unknown>;
  }
  return undefined;
}

async function writeJunit(file: string, xml: string): Promise<void> {
  try {
    await writeFile(file, xml);
  } catch (error) {
    throw new CommandError(`cannot write the JUnit report to "${file}": ${(error as Error).message}`);
  }
}

/**
 * A server that printed lines that are not MCP messages before failing to answer: likely why it
 * failed (its answer may be among them, or the client gave up on the stream), so the first is quoted.
 */
function withStrayStdout(failure: CommandError, stray: ReadonlyArray<{ line: string }>): CommandError {
  if (stray.length === 0) return failure;
  const lines = `${stray.length} line${stray.length === 1 ? "" : "s"}`;
  return new CommandError(
    `${failure.statement}; it wrote ${lines} to stdout that are not MCP messages, the first: ${JSON.stringify(clip(stray[0]!.line, 120))} (stdout must carry only protocol messages; logs go to stderr)`,
    failure.context,
  );
}

/** The `--json` report of a server that could not be started or reached: one failed check, 0, as in the JUnit file. */
function unreachableReport(target: Target, ctx: CheckContext, message: string): CheckReport {
  const connect: CheckResult = { number: 0, id: "connect", title: "the server can be started or reached", status: "FAIL", detail: message, spec: "" };
  return {
    target: target.value,
    transport: target.kind,
    protocolVersion: undefined,
    serverInfo: undefined,
    eras: ctx.eras(),
    checks: [connect],
    summary: { total: 1, pass: 0, warn: 0, fail: 1, skip: 0 },
    ok: false,
  };
}

/** The second connection's trace beside the first: `run.jsonl` → `run.2026-07-28.jsonl`. */
function modernTraceFile(file: string): string {
  const dot = file.lastIndexOf(".");
  return dot > file.lastIndexOf("/") ? `${file.slice(0, dot)}.${MODERN}${file.slice(dot)}` : `${file}.${MODERN}`;
}

/** `--task-tool` and `--task-args`: the tool the tasks checks run as a task. */
function readTaskTool(name: string | undefined, args: string | undefined): { name: string; args: Record<string, unknown> } | undefined {
  if (name === undefined) {
    if (args !== undefined) throw new UsageError("--task-args goes with --task-tool");
    return undefined;
  }
  if (name === "") throw new UsageError("--task-tool needs a tool name");
  if (args === undefined) return { name, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch (error) {
    throw new UsageError(`--task-args must be a JSON object such as '{"seconds":1}': ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new UsageError(`--task-args must be a JSON object such as '{"seconds":1}', got ${JSON.stringify(value)}`);
  return { name, args: value };
}
