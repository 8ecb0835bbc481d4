/**
 * The checks of `mcp-testkit check`, in the order they are listed. Each names the rule it
 * tests with a link into the spec of the negotiated version (or JSON-RPC 2.0), and judges by
 * the rule's strength: a broken MUST is a FAIL, a missed SHOULD a WARN.
 */
import { validateMessage, validateToolDefinition } from "../../protocol/validate/index.js";
import { FEATURES, isSupportedVersion, LATEST_KNOWN_VERSION, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, versionHas } from "../../protocol/versions.js";
import { META } from "../../protocol/meta-keys.js";
import { plainMessage } from "../target/target.js";
import { clip, describeExit, describeReply, INVALID_PARAMS, LISTS, METHOD_NOT_FOUND, PARSE_ERROR, plural, type CheckContext, type Json, type ListKind, type Reply } from "./context.js";
import { BASE_HEADERS, describeAnswer, errorCode, rawDelete, rawPost, type RawHttpAnswer } from "./raw-http.js";
import { RawStdioServer } from "./raw-stdio.js";
import { fail, pass, skip, warn, type CheckOutcome } from "./types.js";

export interface CheckDefinition {
  id: string;
  title: string;
  /** The spec reference for a protocol version. */
  spec: (version: string) => string;
  /** Only for this kind of target. */
  only?: "stdio" | "http";
  /** Needs an initialized session (skipped when initialize failed). */
  needsSession: boolean;
  /** A rule of the transport, not of an era: run for a server that speaks either (a 2026-07-28-only one too). */
  anyEra?: true;
  run: (ctx: CheckContext) => Promise<CheckOutcome>;
}

/** A version nobody speaks, for the negotiation probe. */
export const UNKNOWN_VERSION = "1999-01-01";
/** A tool name no server has. */
const UNKNOWN_TOOL = "mcp-testkit-no-such-tool";
const UNKNOWN_METHOD = "mcp-testkit/no-such-method";
const INVALID_CURSOR = "!mcp-testkit-invalid-cursor!";
/** A request cut off in the middle: not JSON. */
const MALFORMED_LINE = '{"jsonrpc":"2.0","id":"mcp-testkit-malformed","method":"ping"';
const FOREIGN_ORIGIN = "http://mcp-testkit-foreign-origin.invalid";
/** How long a stdio server may take to exit once its stdin is closed. */
export const STDIN_CLOSE_GRACE_MS = 3000;

const spec = (path: string) => (version: string) => `https://modelcontextprotocol.io/specification/${version}/${path}`;
const JSON_RPC_ERRORS = () => "https://www.jsonrpc.org/specification#error_object";

export const CHECKS: readonly CheckDefinition[] = [
  {
    id: "initialize",
    title: "Initialize handshake",
    spec: spec("basic/lifecycle#initialization"),
    needsSession: false,
    run: async (ctx) => {
      if (ctx.init === undefined) return fail(`initialize failed: ${ctx.initFailure ?? "unknown reason"}`);
      const problems = validateMessage({ jsonrpc: "2.0", id: 1, result: ctx.init }, { direction: "server-to-client", protocolVersion: ctx.version, requestMethod: "initialize" });
      const info = ctx.init.serverInfo as Json | undefined;
      if (problems.length > 0) return fail(`the InitializeResult breaks the ${ctx.version} schema: ${describeProblems(problems)}`);
      return pass(`serverInfo ${String(info?.name)} ${String(info?.version)}; a valid InitializeResult for ${ctx.version}`);
    },
  },
  {
    id: "version-latest",
    title: "Version negotiation: latest version",
    spec: spec("basic/lifecycle#version-negotiation"),
    needsSession: false,
    run: async (ctx) => {
      const answered = ctx.initResult?.protocolVersion;
      if (answered === undefined) return ctx.init === undefined ? skip("initialize failed (check 1)") : fail("the InitializeResult has no protocolVersion");
      if (answered === LATEST_PROTOCOL_VERSION) return pass(`asked for ${LATEST_PROTOCOL_VERSION}, got ${LATEST_PROTOCOL_VERSION}`);
      if (isSupportedVersion(answered)) return pass(`asked for ${LATEST_PROTOCOL_VERSION}, got ${answered} (the server does not speak ${LATEST_PROTOCOL_VERSION}; it may answer with another version it supports)`);
      return fail(`asked for ${LATEST_PROTOCOL_VERSION}, got ${JSON.stringify(answered)}: not a protocol version (mcp-testkit knows ${SUPPORTED_PROTOCOL_VERSIONS[0]} … ${LATEST_PROTOCOL_VERSION})`);
    },
  },
  {
    id: "version-unknown",
    title: "Version negotiation: unknown version",
    spec: spec("basic/lifecycle#version-negotiation"),
    needsSession: false,
    run: async (ctx) => (ctx.target.kind === "stdio" ? unknownVersionStdio(ctx) : unknownVersionHttp(ctx)),
  },
  {
    id: "capabilities",
    title: "Capabilities match the methods that work",
    spec: spec("basic/lifecycle#capability-negotiation"),
    needsSession: true,
    run: capabilitiesHonest,
  },
  definitionsCheck("tools", "tools-valid", "Tool definitions valid", "server/tools#listing-tools"),
  definitionsCheck("resources", "resources-valid", "Resource definitions valid", "server/resources#listing-resources"),
  definitionsCheck("resourceTemplates", "resource-templates-valid", "Resource template definitions valid", "server/resources#resource-templates"),
  definitionsCheck("prompts", "prompts-valid", "Prompt definitions valid", "server/prompts#listing-prompts"),
  {
    id: "pagination",
    title: "Pagination: nextCursor followed, no duplicates",
    spec: spec("server/utilities/pagination"),
    needsSession: true,
    run: pagination,
  },
  {
    id: "invalid-cursor",
    title: "Pagination: an invalid cursor gets -32602",
    spec: spec("server/utilities/pagination#error-handling"),
    needsSession: true,
    run: invalidCursor,
  },
  {
    id: "ping",
    title: "ping answered",
    spec: spec("basic/utilities/ping"),
    needsSession: true,
    run: async (ctx) => {
      const reply = await ctx.ask("ping");
      if (reply.kind !== "result") return fail(`ping got ${describeReply(reply)}; the receiver MUST answer promptly with an empty result`);
      const keys = Object.keys(reply.result).filter((key) => key !== "_meta");
      if (keys.length > 0) return warn(`ping was answered with a non-empty result (${keys.join(", ")}); expected {}`);
      return pass("answered with an empty result");
    },
  },
  {
    id: "unknown-method",
    title: "Unknown method gets -32601",
    spec: JSON_RPC_ERRORS,
    needsSession: true,
    run: async (ctx) => {
      const reply = await ctx.ask(UNKNOWN_METHOD, {});
      if (reply.kind === "error" && reply.code === METHOD_NOT_FOUND) return pass(`${UNKNOWN_METHOD} got -32601 ${JSON.stringify(clip(reply.message, 60))}`);
      if (reply.kind === "error") return warn(`${UNKNOWN_METHOD} got error ${reply.code}; Method not found is -32601`);
      if (reply.kind === "result") return fail(`${UNKNOWN_METHOD} was answered with a result (${clip(JSON.stringify(reply.result), 60)}); expected error -32601 Method not found`);
      return fail(`${UNKNOWN_METHOD}: ${describeReply(reply)}; expected error -32601 Method not found`);
    },
  },
  {
    id: "malformed-json",
    title: "Malformed JSON gets -32700",
    spec: JSON_RPC_ERRORS,
    needsSession: false,
    run: async (ctx) => (ctx.target.kind === "stdio" ? malformedStdio(ctx) : malformedHttp(ctx)),
  },
  {
    id: "unknown-tool",
    title: "Unknown tool handled",
    spec: spec("server/tools#error-handling"),
    needsSession: true,
    run: async (ctx) => {
      const tools = await ctx.list("tools");
      if (!tools.advertised && tools.first.kind !== "result") return skip("the server has no tools");
      const reply = await ctx.ask("tools/call", { name: UNKNOWN_TOOL, arguments: {} });
      if (reply.kind === "error" && reply.code === INVALID_PARAMS) return pass(`tools/call "${UNKNOWN_TOOL}" got -32602 ${JSON.stringify(clip(reply.message, 60))}`);
      if (reply.kind === "result" && reply.result.isError === true) return pass(`tools/call "${UNKNOWN_TOOL}" got a result with isError: true`);
      if (reply.kind === "error") return warn(`tools/call "${UNKNOWN_TOOL}" got error ${reply.code}; an unknown tool is -32602 Invalid params (or a result with isError: true)`);
      if (reply.kind === "result") return fail(`tools/call "${UNKNOWN_TOOL}" succeeded (${clip(JSON.stringify(reply.result), 60)}); expected error -32602 or isError: true`);
      return fail(`tools/call "${UNKNOWN_TOOL}": ${describeReply(reply)}`);
    },
  },
  {
    id: "messages-valid",
    title: "Other server messages valid",
    spec: spec("schema"),
    needsSession: false,
    run: async (ctx) => {
      const broken = ctx.driver.protocolErrors;
      if (broken.length > 0) return fail(`${plainMessage(broken[0]).split("\n")[0]!}${broken.length > 1 ? ` (and ${broken.length - 1} more)` : ""}`);
      // Lists and initialize have checks of their own; the unknown-method probe's answer is judged by its check.
      const own = new Set(["initialize", ...LISTS.map((list) => list.method), UNKNOWN_METHOD]);
      const problems = ctx.driver.problems.filter((problem) => problem.rule !== "version.unknown" && !own.has(problem.method ?? ""));
      const incoming = ctx.driver.messages.filter((record) => record.direction === "incoming" && !own.has(record.method ?? "")).length;
      if (problems.length > 0) {
        const first = problems[0]!;
        return fail(`${plural(problems.length, "problem")} in ${ctx.version} messages; first: ${first.method ?? "(no method)"} ${first.path}: ${first.message}`);
      }
      return pass(`${plural(incoming, "other message")} from the server, all valid for ${ctx.version}`);
    },
  },
  // ── stdio ──────────────────────────────────────────────────────────────────────────────
  {
    id: "stdin-close",
    title: "Exits when stdin closes",
    spec: spec("basic/lifecycle#stdio"),
    only: "stdio",
    needsSession: false,
    anyEra: true,
    run: stdinClose,
  },
  {
    id: "stdout-clean",
    title: "stdout carries only MCP messages",
    spec: spec("basic/transports#stdio"),
    only: "stdio",
    needsSession: false,
    anyEra: true,
    run: async (ctx) => {
      const lines = ctx.strayStdout;
      if (lines.length === 0) return pass("every line on stdout was a JSON-RPC message");
      // check starts the server once per probe: say so when the lines came from several copies.
      const copies = new Set(lines.map((stray) => stray.from)).size;
      const from = copies > 1 ? ` (from ${copies} copies of the server: check starts one per probe)` : "";
      const first = lines[0]!;
      return fail(`${plural(lines.length, "line")} on stdout that ${lines.length === 1 ? "is" : "are"} not MCP messages${from}, first: ${JSON.stringify(clip(first.line, 100))} (${first.from}); log to stderr instead`);
    },
  },
  // ── Streamable HTTP ────────────────────────────────────────────────────────────────────
  {
    id: "http-session-id",
    title: "Session id issued",
    spec: spec("basic/transports#session-management"),
    only: "http",
    needsSession: true,
    run: async (ctx) => {
      const id = ctx.driver.sessionId;
      if (id === undefined) return warn("no Mcp-Session-Id on the initialize response: a stateless server (sessions are optional); the session checks are skipped");
      if (!/^[\x21-\x7e]+$/.test(id)) return fail(`the session id ${JSON.stringify(id)} has characters outside visible ASCII (0x21-0x7E)`);
      return pass(`Mcp-Session-Id issued (${id.length} characters, visible ASCII)`);
    },
  },
  {
    id: "http-missing-session",
    title: "A request without the session id gets 400",
    spec: spec("basic/transports#session-management"),
    only: "http",
    needsSession: true,
    run: async (ctx) => {
      if (ctx.driver.sessionId === undefined) return skip("the server issued no session id");
      const headers = httpHeaders(ctx, { session: false });
      const answer = await rawPost(ctx.target.value, headers, ping("mcp-testkit-no-session"), { timeoutMs: ctx.timeoutMs, waitForId: "mcp-testkit-no-session" });
      if (answer.status === 400) return pass(`a ping without Mcp-Session-Id got ${describeAnswer(answer)}`);
      return warn(`a ping without Mcp-Session-Id got ${describeAnswer(answer)}; servers that require a session SHOULD answer 400`);
    },
  },
  {
    id: "http-delete-session",
    title: "After DELETE, the session gets 404",
    spec: spec("basic/transports#session-management"),
    only: "http",
    needsSession: true,
    run: deletedSession,
  },
  {
    id: "http-origin",
    title: "A foreign Origin gets 403",
    spec: spec("basic/transports#security-warning"),
    only: "http",
    needsSession: false,
    anyEra: true,
    run: async (ctx) => {
      // Asked in an era the server speaks: initialize, or for a 2026-07-28-only server its server/discover.
      const probe = ctx.speaks("initialize") ? originProbe(ctx) : modernOriginProbe(ctx);
      const answer = await rawPost(ctx.target.value, probe.headers, probe.body, { timeoutMs: ctx.timeoutMs, waitForId: "mcp-testkit-origin" });
      await endRawSession(ctx, answer);
      if (answer.status === 403) return pass(`${probe.method} from Origin ${FOREIGN_ORIGIN} got ${describeAnswer(answer)}`);
      return fail(`${probe.method} from Origin ${FOREIGN_ORIGIN} got ${describeAnswer(answer)}; servers MUST validate Origin and answer 403 to a foreign one (DNS rebinding)`);
    },
  },
  {
    id: "http-accept",
    title: "Accept without text/event-stream gets 406",
    spec: spec("basic/transports#sending-messages-to-the-server"),
    only: "http",
    needsSession: true,
    run: async (ctx) => {
      const headers = { ...httpHeaders(ctx, {}), accept: "application/json" };
      const answer = await rawPost(ctx.target.value, headers, ping("mcp-testkit-accept"), { timeoutMs: ctx.timeoutMs, waitForId: "mcp-testkit-accept" });
      if (answer.status === 406) return pass(`a ping with Accept: application/json got ${describeAnswer(answer)}`);
      return warn(`a ping with Accept: application/json got ${describeAnswer(answer)}; the client MUST accept both application/json and text/event-stream, and 406 tells it so`);
    },
  },
  {
    id: "http-protocol-version",
    title: "An unsupported MCP-Protocol-Version gets 400",
    spec: spec("basic/transports#protocol-version-header"),
    only: "http",
    needsSession: true,
    run: async (ctx) => {
      if (!versionHas(ctx.version, "protocolVersionHeader")) return skip(`the MCP-Protocol-Version header came with ${FEATURES.protocolVersionHeader.since}; the server speaks ${ctx.version}`);
      const headers = { ...httpHeaders(ctx, {}), "mcp-protocol-version": UNKNOWN_VERSION };
      const answer = await rawPost(ctx.target.value, headers, ping("mcp-testkit-version-header"), { timeoutMs: ctx.timeoutMs, waitForId: "mcp-testkit-version-header" });
      if (answer.status === 400) return pass(`a ping with MCP-Protocol-Version: ${UNKNOWN_VERSION} got ${describeAnswer(answer)}`);
      return fail(`a ping with MCP-Protocol-Version: ${UNKNOWN_VERSION} got ${describeAnswer(answer)}; the server MUST answer 400`);
    },
  },
];

// ── Version negotiation ──────────────────────────────────────────────────────────────────

function initialize(id: string, protocolVersion: string): Json {
  return { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "mcp-testkit-check", version: "0.1.0" } } };
}

function ping(id: string): Json {
  return { jsonrpc: "2.0", id, method: "ping" };
}

/** Judges the answer to an initialize asking for a version nobody speaks. */
function judgeUnknownVersion(answer: Json | undefined, noAnswer: string): CheckOutcome {
  const asked = `asked for ${UNKNOWN_VERSION}`;
  if (answer === undefined) return fail(`${asked}: ${noAnswer}`);
  const error = answer.error as Json | undefined;
  if (error !== undefined) {
    return warn(`${asked}, got error ${String(error.code)} ${JSON.stringify(clip(String(error.message), 60))}; the server MUST answer with a version it supports, and the client decides`);
  }
  const version = (answer.result as Json | undefined)?.protocolVersion;
  if (version === UNKNOWN_VERSION) return fail(`${asked} and the server echoed it: it MUST answer with a version it supports`);
  if (isSupportedVersion(version)) return pass(`${asked}, got ${version}`);
  if (typeof version === "string") return warn(`${asked}, got ${JSON.stringify(version)}, a version mcp-testkit does not know`);
  return fail(`${asked}: the result has no protocolVersion`);
}

async function unknownVersionStdio(ctx: CheckContext): Promise<CheckOutcome> {
  const probe = new RawStdioServer(ctx.target.value);
  try {
    probe.send(initialize("mcp-testkit-version", UNKNOWN_VERSION));
    const answer = await probe.response("mcp-testkit-version", ctx.timeoutMs);
    return judgeUnknownVersion(answer, probe.exit ? `a second copy of the server exited (${describeExit(probe.exit)}) without answering` : `no answer within ${ctx.timeoutMs} ms (a second copy of the server)`);
  } finally {
    await probe.stop();
    collectStray(ctx, probe, "the copy asked for an unknown version");
  }
}

async function unknownVersionHttp(ctx: CheckContext): Promise<CheckOutcome> {
  const answer = await rawPost(ctx.target.value, httpHeaders(ctx, { session: false, version: false }), initialize("mcp-testkit-version", UNKNOWN_VERSION), {
    timeoutMs: ctx.timeoutMs,
    waitForId: "mcp-testkit-version",
  });
  await endRawSession(ctx, answer);
  const message = answer.messages.find((item) => item.id === "mcp-testkit-version");
  if (message === undefined && answer.status !== 0) {
    return warn(`asked for ${UNKNOWN_VERSION}, got HTTP ${describeAnswer(answer)} and no JSON-RPC answer; the server MUST answer with a version it supports`);
  }
  return judgeUnknownVersion(message, describeAnswer(answer));
}

// ── Capabilities ─────────────────────────────────────────────────────────────────────────

async function capabilitiesHonest(ctx: CheckContext): Promise<CheckOutcome> {
  const lists = await ctx.allLists();
  const probes: Array<{ capability: string; method: string; reply: Reply; listing: boolean }> = [
    { capability: "tools", method: "tools/list", reply: lists.get("tools")!.first, listing: true },
    { capability: "resources", method: "resources/list", reply: lists.get("resources")!.first, listing: true },
    { capability: "prompts", method: "prompts/list", reply: lists.get("prompts")!.first, listing: true },
    { capability: "logging", method: "logging/setLevel", reply: await ctx.ask("logging/setLevel", { level: "error" }), listing: false },
  ];
  if (versionHas(ctx.version, "completionsCapability")) {
    const reply = await ctx.ask("completion/complete", { ref: { type: "ref/prompt", name: "mcp-testkit-probe" }, argument: { name: "x", value: "" } });
    probes.push({ capability: "completions", method: "completion/complete", reply, listing: false });
  }
  const failures: string[] = [];
  const warnings: string[] = [];
  const working: string[] = [];
  const absent: string[] = [];
  for (const { capability, method, reply, listing } of probes) {
    const advertised = ctx.capability(capability) !== undefined;
    // A method that exists may still refuse these particular params (completion/complete of a prompt that is not there).
    const works = reply.kind === "result" || (!listing && reply.kind === "error" && reply.code !== METHOD_NOT_FOUND);
    if (advertised) {
      if (works) working.push(capability);
      else failures.push(`${capability} is advertised but ${method} got ${describeReply(reply)}`);
    } else if (reply.kind === "result") {
      warnings.push(`${capability} is not advertised but ${method} answers`);
    } else if (reply.kind === "timeout" || reply.kind === "failed") {
      warnings.push(`${capability} is not advertised and ${method} got ${describeReply(reply)} (expected -32601)`);
    } else {
      absent.push(capability);
    }
  }
  if (failures.length > 0) return fail(failures.join("; "));
  if (warnings.length > 0) return warn(warnings.join("; "));
  return pass(`advertised and working: ${working.join(", ") || "none"}; not advertised and refused: ${absent.join(", ") || "none"}`);
}

// ── Definitions and pagination ───────────────────────────────────────────────────────────

function definitionsCheck(kind: ListKind, id: string, title: string, path: string): CheckDefinition {
  return {
    id,
    title,
    spec: spec(path),
    needsSession: true,
    run: async (ctx) => {
      const list = await ctx.list(kind);
      const { spec: about } = list;
      if (list.first.kind !== "result") {
        if (!list.advertised) return skip(`not advertised (${about.method} got ${describeReply(list.first)})`);
        return fail(`${about.method} got ${describeReply(list.first)}`);
      }
      const problems: string[] = [];
      list.pages.forEach((page, pageIndex) => {
        const items = Array.isArray(page[about.key]) ? (page[about.key] as Json[]) : [];
        const found = validateMessage({ jsonrpc: "2.0", id: 1, result: page }, { direction: "server-to-client", protocolVersion: ctx.version, requestMethod: about.method });
        const flagged = new Set<number>();
        for (const problem of found) {
          const match = new RegExp(`^\\$\\.result\\.${about.key}\\[(\\d+)\\]\\.?(.*)$`).exec(problem.path);
          if (match) {
            const index = Number(match[1]);
            flagged.add(index);
            problems.push(`${describeItem(about.noun, items[index], index, pageIndex)}: ${match[2] || "(the item)"}: ${problem.message}`);
          } else {
            problems.push(`${about.method}${pageIndex > 0 ? ` page ${pageIndex + 1}` : ""} ${problem.path.replace(/^\$\.result\.?/, "") || "result"}: ${problem.message}`);
          }
        }
        if (kind === "tools") {
          items.forEach((tool, index) => {
            if (flagged.has(index)) return;
            for (const message of validateToolDefinition(tool)) problems.push(`${describeItem("tool", tool, index, pageIndex)}: ${message}`);
          });
        }
      });
      if (problems.length > 0) return fail(`${plural(problems.length, "problem")} for ${ctx.version}: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`);
      if (kind === "tools" && versionHas(ctx.version, "icons")) {
        const badNames = list.items.map((tool) => tool.name).filter((name): name is string => typeof name === "string" && !/^[A-Za-z0-9_.-]{1,128}$/.test(name));
        if (badNames.length > 0) {
          return warn(`${plural(list.items.length, "tool")} valid, but tool names SHOULD be 1-128 characters of A-Z a-z 0-9 _ - . : ${badNames.map((name) => JSON.stringify(clip(name, 40))).join(", ")}`);
        }
      }
      if (list.items.length === 0) return pass(`no ${about.noun}s listed; the ${about.method} result is valid for ${ctx.version}`);
      return pass(`${plural(list.items.length, about.noun)}${list.pages.length > 1 ? ` on ${list.pages.length} pages` : ""}, all valid for ${ctx.version}`);
    },
  };
}

function describeItem(noun: string, item: unknown, index: number, pageIndex: number): string {
  const where = `${pageIndex > 0 ? `page ${pageIndex + 1}, ` : ""}#${index + 1}`;
  const value = item as Json | undefined;
  const name = value?.name ?? value?.uri ?? value?.uriTemplate;
  return typeof name === "string" ? `${noun} "${clip(name, 40)}" (${where})` : `${noun} ${where}`;
}

async function pagination(ctx: CheckContext): Promise<CheckOutcome> {
  const lists = [...(await ctx.allLists()).values()].filter((list) => list.first.kind === "result");
  if (lists.length === 0) return skip("the server answers none of the list methods");
  const failures: string[] = [];
  const seen: string[] = [];
  for (const list of lists) {
    if (list.cursorProblem) failures.push(list.cursorProblem);
    if (list.pageFailure) failures.push(`${list.spec.method} page ${list.pageFailure.page} (following nextCursor) got ${describeReply(list.pageFailure.reply)}`);
    const counts = new Map<string, number>();
    for (const item of list.items) {
      const key = JSON.stringify(list.spec.identity(item));
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const duplicates = [...counts].filter(([, count]) => count > 1).map(([key]) => key);
    if (duplicates.length > 0) failures.push(`${list.spec.method} lists ${duplicates.slice(0, 3).join(", ")}${duplicates.length > 3 ? ` and ${duplicates.length - 3} more` : ""} more than once`);
    seen.push(`${list.spec.method} ${plural(list.pages.length, "page")} (${list.items.length})`);
  }
  if (failures.length > 0) return fail(failures.join("; "));
  return pass(`${seen.join(", ")}; no duplicates`);
}

async function invalidCursor(ctx: CheckContext): Promise<CheckOutcome> {
  const lists = [...(await ctx.allLists()).values()].filter((list) => list.first.kind === "result");
  const list = lists[0];
  if (list === undefined) return skip("the server answers none of the list methods");
  const reply = await ctx.ask(list.spec.method, { cursor: INVALID_CURSOR });
  const asked = `${list.spec.method} with cursor ${JSON.stringify(INVALID_CURSOR)}`;
  if (reply.kind === "error" && reply.code === INVALID_PARAMS) return pass(`${asked} got -32602 ${JSON.stringify(clip(reply.message, 60))}`);
  if (reply.kind === "error") return warn(`${asked} got error ${reply.code}; invalid cursors SHOULD get -32602 Invalid params`);
  if (reply.kind === "result") return warn(`${asked} was answered with a page; invalid cursors SHOULD get -32602 Invalid params`);
  return fail(`${asked}: ${describeReply(reply)}`);
}

// ── Malformed JSON ───────────────────────────────────────────────────────────────────────

async function malformedStdio(ctx: CheckContext): Promise<CheckOutcome> {
  const probe = new RawStdioServer(ctx.target.value);
  try {
    probe.send(initialize("mcp-testkit-init", ctx.version));
    const init = await probe.response("mcp-testkit-init", ctx.timeoutMs);
    if (init === undefined || init.error !== undefined) {
      return skip(`a second copy of the server did not initialize (${init === undefined ? (probe.exit ? describeExit(probe.exit) : `no answer within ${ctx.timeoutMs} ms`) : "an error"}), so the probe could not run`);
    }
    probe.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const before = probe.messages.length;
    probe.write(MALFORMED_LINE);
    probe.send(ping("mcp-testkit-after-malformed"));
    const after = await probe.response("mcp-testkit-after-malformed", ctx.timeoutMs);
    // Servers answer in order; give one that answers the bad line late a moment anyway.
    const errorTo = (message: Json) => message.error !== undefined && (message.id === null || message.id === undefined || message.id === "mcp-testkit-malformed");
    const answer = after === undefined ? undefined : await probe.waitFor((message) => probe.messages.indexOf(message) >= before && errorTo(message), 100);
    const code = (answer?.error as Json | undefined)?.code;
    if (code === PARSE_ERROR) return pass(`a line that is not JSON got -32700 (id ${JSON.stringify(answer!.id ?? null)}); the server kept working`);
    if (answer !== undefined) return warn(`a line that is not JSON got error ${String(code)}; JSON-RPC says -32700 Parse error`);
    if (probe.exit !== undefined) return fail(`the server exited (${describeExit(probe.exit)}) after a line that is not JSON`);
    if (after === undefined) return fail(`after a line that is not JSON the server stopped answering (ping: no answer within ${ctx.timeoutMs} ms)`);
    return warn("a line that is not JSON got no answer (JSON-RPC expects -32700 Parse error with id null); the server kept working");
  } finally {
    await probe.stop();
    collectStray(ctx, probe, "the copy sent a line that is not JSON");
  }
}

async function malformedHttp(ctx: CheckContext): Promise<CheckOutcome> {
  const answer = await rawPost(ctx.target.value, httpHeaders(ctx, {}), MALFORMED_LINE, { timeoutMs: ctx.timeoutMs });
  const code = errorCode(answer);
  if (code === PARSE_ERROR) return pass(`a body that is not JSON got ${describeAnswer(answer)}`);
  if (answer.status >= 400 && answer.status < 500) return warn(`a body that is not JSON got ${describeAnswer(answer)}; JSON-RPC says -32700 Parse error`);
  return fail(`a body that is not JSON got ${describeAnswer(answer)}; expected a 4xx with a -32700 Parse error`);
}

// ── stdio shutdown ───────────────────────────────────────────────────────────────────────

async function stdinClose(ctx: CheckContext): Promise<CheckOutcome> {
  const driver = ctx.driver;
  const early = driver.exitCode;
  if (early !== undefined) {
    await driver.close(STDIN_CLOSE_GRACE_MS).catch(() => undefined);
    return fail(`the server exited during the run (${early === null ? "by a signal" : `exit code ${early}`}), before its stdin was closed`);
  }
  const started = Date.now();
  try {
    await driver.close(STDIN_CLOSE_GRACE_MS);
  } catch (error) {
    const name = (error as Error).name;
    if (name === "ProcessDidNotExit") return fail(`still running ${STDIN_CLOSE_GRACE_MS} ms after its stdin was closed; mcp-testkit ended its process tree`);
    return fail(`${plainMessage(error).split("\n")[0]!}`);
  }
  return pass(`exited with code 0, ${Date.now() - started} ms after its stdin was closed`);
}

// ── Helpers ──────────────────────────────────────────────────────────────────────────────

function originProbe(ctx: CheckContext): { method: string; headers: Record<string, string>; body: unknown } {
  return { method: "initialize", headers: { ...httpHeaders(ctx, { session: false, version: false }), origin: FOREIGN_ORIGIN }, body: initialize("mcp-testkit-origin", ctx.version) };
}

/** server/discover as a 2026-07-28 client sends it (its headers and _meta), from a foreign Origin. */
function modernOriginProbe(ctx: CheckContext): { method: string; headers: Record<string, string>; body: unknown } {
  const meta = { [META.protocolVersion]: LATEST_KNOWN_VERSION, [META.clientCapabilities]: {}, [META.clientInfo]: { name: "mcp-testkit-check", version: "1" } };
  const headers = { ...httpHeaders(ctx, { session: false, version: false }), "mcp-protocol-version": LATEST_KNOWN_VERSION, "mcp-method": "server/discover", origin: FOREIGN_ORIGIN };
  return { method: "server/discover (2026-07-28)", headers, body: { jsonrpc: "2.0", id: "mcp-testkit-origin", method: "server/discover", params: { _meta: meta } } };
}

function describeProblems(problems: ReadonlyArray<{ path: string; message: string }>): string {
  const first = problems[0]!;
  return `${first.path}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`;
}


function collectStray(ctx: CheckContext, probe: RawStdioServer, where: string): void {
  for (const line of probe.nonJson) ctx.strayStdout.push({ line, from: where });
}

/** Headers for a raw request: the user's, the transport's, and by default the session's and version's. */
function httpHeaders(ctx: CheckContext, options: { session?: boolean; version?: boolean }): Record<string, string> {
  const headers: Record<string, string> = { ...BASE_HEADERS };
  for (const [name, value] of Object.entries(ctx.target.headers)) headers[name.toLowerCase()] = value;
  const session = ctx.driver.sessionId;
  if (options.session !== false && session !== undefined) headers["mcp-session-id"] = session;
  if (options.version !== false && versionHas(ctx.version, "protocolVersionHeader")) headers["mcp-protocol-version"] = ctx.version;
  return headers;
}

/** Ends a session a raw initialize may have opened, so probes leave nothing behind. */
async function endRawSession(ctx: CheckContext, answer: RawHttpAnswer): Promise<void> {
  const id = answer.headers?.get("mcp-session-id");
  if (!id) return;
  const headers = { ...httpHeaders(ctx, { session: false }), "mcp-session-id": id };
  await rawDelete(ctx.target.value, headers, ctx.timeoutMs);
}

async function deletedSession(ctx: CheckContext): Promise<CheckOutcome> {
  if (ctx.driver.sessionId === undefined) return skip("the server issued no session id");
  const url = ctx.target.value;
  const opened = await rawPost(url, httpHeaders(ctx, { session: false, version: false }), initialize("mcp-testkit-delete", ctx.version), { timeoutMs: ctx.timeoutMs, waitForId: "mcp-testkit-delete" });
  const id = opened.headers?.get("mcp-session-id");
  if (!id) return fail(`a second initialize got ${describeAnswer(opened)} without a session id, though the first one had one`);
  const headers = { ...httpHeaders(ctx, { session: false }), "mcp-session-id": id };
  await rawPost(url, headers, { jsonrpc: "2.0", method: "notifications/initialized" }, { timeoutMs: ctx.timeoutMs });
  const deleted = await rawDelete(url, headers, ctx.timeoutMs);
  if (deleted.status === 405) return skip("DELETE got 405: the server does not let clients end sessions (allowed), so 404 after DELETE cannot be checked");
  if (deleted.status < 200 || deleted.status >= 300) return fail(`DELETE with the session id got ${describeAnswer(deleted)}; expected 2xx (or 405)`);
  const after = await rawPost(url, headers, ping("mcp-testkit-after-delete"), { timeoutMs: ctx.timeoutMs, waitForId: "mcp-testkit-after-delete" });
  if (after.status === 404) return pass(`DELETE got ${deleted.status}; then a ping with that session id got ${describeAnswer(after)}`);
  return fail(`DELETE got ${deleted.status}, but then a ping with that session id got ${describeAnswer(after)}; an ended session MUST get 404`);
}
