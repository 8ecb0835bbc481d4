/**
 * The checks of `mcp-testkit check`, in the order they are listed. Each names the rule it
 * tests with a link into the spec of the negotiated version (or JSON-RPC 2.0), and judges by
 * the rule's strength: a broken MUST is a FAIL, a missed SHOULD a WARN.
 */
import { validateMessage } from "../../protocol/validate/index.js";
import { FEATURES, isSupportedVersion, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, versionHas } from "../../protocol/versions.js";
import { plainLine } from "../target/target.js";
import { clip, describeReply, INVALID_PARAMS, LISTS, METHOD_NOT_FOUND, plural, type CheckContext, type Json } from "./context.js";
import { describeAnswer, rawPost } from "./raw-http.js";
import { fail, pass, skip, warn, type CheckOutcome } from "./types.js";
import {
  FOREIGN_ORIGIN,
  JSON_RPC_ERRORS,
  UNKNOWN_METHOD,
  UNKNOWN_TOOL,
  UNKNOWN_VERSION,
  capabilitiesHonest,
  definitionsCheck,
  deletedSession,
  describeProblems,
  endRawSession,
  httpHeaders,
  invalidCursor,
  malformedHttp,
  malformedStdio,
  modernOriginProbe,
  originProbe,
  pagination,
  ping,
  spec,
  stdinClose,
  unknownVersionHttp,
  unknownVersionStdio,
} from "./check-probes.js";

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

export { STDIN_CLOSE_GRACE_MS, UNKNOWN_VERSION } from "./check-probes.js";

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
      if (isSupportedVersion(answered))
        return pass(`asked for ${LATEST_PROTOCOL_VERSION}, got ${answered} (the server does not speak ${LATEST_PROTOCOL_VERSION}; it may answer with another version it supports)`);
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
      if (broken.length > 0) return fail(`${plainLine(broken[0])}${broken.length > 1 ? ` (and ${broken.length - 1} more)` : ""}`);
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
      return fail(
        `${plural(lines.length, "line")} on stdout that ${lines.length === 1 ? "is" : "are"} not MCP messages${from}, first: ${JSON.stringify(clip(first.line, 100))} (${first.from}); log to stderr instead`,
      );
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
