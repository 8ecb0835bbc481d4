/**
 * The checks of protocol revision 2026-07-28 (the modern era), run when the server answers
 * `server/discover` to a driver pinned to it: the discover result, an unsupported version
 * (-32022 with the supported list), an unknown method (-32601, over HTTP with 404), `resultType`
 * and caching hints on results, and over Streamable HTTP the header rules with raw requests
 * (a missing or mismatched `Mcp-Method`, `Mcp-Name`, `MCP-Protocol-Version` or mirrored
 * `Mcp-Param-*` → 400 -32020, MUSTs), GET and DELETE → 405 and no session minted (SHOULDs).
 */
import { isObject } from "../../protocol/jsonrpc.js";
import { RequestFailedError, type DiscoverResult, type McpDriver } from "../../driver/index.js";
import { MCP_NAME_SOURCE } from "../../protocol/http-headers.js";
import { META } from "../../protocol/meta-keys.js";
import { validateMessage } from "../../protocol/validate/index.js";
import { mirroredOf, type MirroredParameter } from "../../protocol/http-headers.js";
import { listFirst } from "../../util/text.js";
import { isKnownVersion, LATEST_KNOWN_VERSION, LATEST_PROTOCOL_VERSION, versionHas } from "../../protocol/versions.js";
import { plainLine } from "../target/target.js";
import { clip, LISTS, METHOD_NOT_FOUND, plural, type Json } from "./context.js";
import { BASE_HEADERS, describeAnswer, errorCode, rawPost, rawRequest, type RawHttpAnswer } from "./raw-http.js";
import { fail, pass, skip, warn, type CheckOutcome } from "./types.js";

export const MODERN = LATEST_KNOWN_VERSION;
const UNSUPPORTED = "1999-01-01";
const UNKNOWN_METHOD = "mcp-testkit/no-such-method";
const HEADER_MISMATCH = -32020;
const UNSUPPORTED_VERSION = -32022;

/** The modern era's state: the pinned driver and what `server/discover` said. */
export class ModernContext {
  constructor(
    readonly driver: McpDriver,
    readonly discover: DiscoverResult,
    readonly url: string | undefined,
    readonly extraHeaders: Record<string, string>,
    readonly timeoutMs: number,
    /** The token the check signed in with, if any (the raw requests carry it as the driver does). */
    readonly bearer: () => string | undefined = () => undefined,
  ) {}

  capability(name: string): unknown {
    return (this.discover.capabilities as Json)[name];
  }

  /** The `_meta` of a modern request, with `version` as its protocol version. */
  meta(version = MODERN): Json {
    return { [META.protocolVersion]: version, [META.clientInfo]: { name: "mcp-testkit-check", version: "0.1.0" }, [META.clientCapabilities]: {} };
  }

  /** A raw modern request over HTTP with the headers a conforming client sends, then `change`d. */
  async post(method: string, params: Json, change: (headers: Record<string, string>) => void = () => undefined, version = MODERN): Promise<RawHttpAnswer> {
    const id = `mcp-testkit-${method.replace(/\W/g, "-")}`;
    const headers: Record<string, string> = { ...BASE_HEADERS, "mcp-protocol-version": version, "mcp-method": method, ...this.extraHeaders };
    const bearer = this.bearer();
    if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
    const name = Object.hasOwn(MCP_NAME_SOURCE, method) ? params[MCP_NAME_SOURCE[method]!] : undefined;
    if (typeof name === "string") headers["mcp-name"] = name;
    change(headers);
    return await rawPost(this.url!, headers, { jsonrpc: "2.0", id, method, params: { ...params, _meta: this.meta(version) } }, { timeoutMs: this.timeoutMs, waitForId: id });
  }
}

export interface ModernCheckDefinition {
  id: string;
  /** What is checked, as the report's title says it after the revision (`help` lists it under the revision). */
  what: string;
  /** `what`, after the revision it is checked in. */
  title: string;
  spec: () => string;
  only?: "stdio" | "http";
  run: (ctx: ModernContext) => Promise<CheckOutcome>;
}

const spec = (path: string) => () => `https://modelcontextprotocol.io/specification/${MODERN}/${path}`;

/** A check's definition with its title: the revision, then what is checked. */
const modernCheck = (check: Omit<ModernCheckDefinition, "title">): ModernCheckDefinition => ({ ...check, title: `${MODERN}: ${check.what}` });

export const MODERN_CHECKS: readonly ModernCheckDefinition[] = [
  modernCheck({ id: "modern-discover", what: "server/discover answered", spec: spec("server/discover"), run: discoverAnswered }),
  modernCheck({
    id: "modern-unsupported-version",
    what: "an unsupported version gets -32022 with the supported list",
    spec: spec("basic/versioning#protocol-version-negotiation"),
    run: unsupportedVersion,
  }),
  modernCheck({ id: "modern-unknown-method", what: "an unknown method gets -32601", spec: spec("basic/transports/streamable-http#protocol-version-header"), run: unknownMethod }),
  modernCheck({ id: "modern-result-type", what: "resultType and caching hints on results", spec: spec("server/utilities/caching"), run: resultTypes }),
  modernCheck({ id: "modern-messages-valid", what: "every server message valid", spec: spec("schema"), run: messagesValid }),
  modernCheck({
    id: "modern-http-method-header",
    what: "a missing or mismatched Mcp-Method gets 400 -32020",
    spec: spec("basic/transports/streamable-http#server-validation"),
    only: "http",
    run: methodHeader,
  }),
  modernCheck({ id: "modern-http-name-header", what: "a missing Mcp-Name gets 400 -32020", spec: spec("basic/transports/streamable-http#standard-request-headers"), only: "http", run: nameHeader }),
  modernCheck({
    id: "modern-http-name-mismatch",
    what: "an Mcp-Name that differs from the body's name gets 400 -32020",
    spec: spec("basic/transports/streamable-http#server-validation"),
    only: "http",
    run: nameMismatch,
  }),
  modernCheck({
    id: "modern-http-version-header",
    what: "a missing MCP-Protocol-Version gets 400 -32020",
    spec: spec("basic/transports/streamable-http#protocol-version-header"),
    only: "http",
    run: versionHeader,
  }),
  modernCheck({
    id: "modern-http-version-mismatch",
    what: "an MCP-Protocol-Version that differs from _meta's version gets 400 -32020",
    spec: spec("basic/transports/streamable-http#protocol-version-header"),
    only: "http",
    run: versionMismatch,
  }),
  modernCheck({
    id: "modern-http-param-header",
    what: "an Mcp-Param-* header that differs from its argument gets 400 -32020",
    spec: spec("basic/transports/streamable-http#server-behavior-for-custom-headers"),
    only: "http",
    run: paramHeader,
  }),
  modernCheck({ id: "modern-http-get-delete", what: "GET and DELETE get 405", spec: spec("basic/transports/streamable-http#earlier-streamable-http-revisions"), only: "http", run: getAndDelete }),
  modernCheck({ id: "modern-http-no-session", what: "no session id minted", spec: spec("basic/transports/streamable-http#earlier-streamable-http-revisions"), only: "http", run: noSession }),
];

async function discoverAnswered(ctx: ModernContext): Promise<CheckOutcome> {
  const problems = validateMessage({ jsonrpc: "2.0", id: 1, result: ctx.discover }, { direction: "server-to-client", protocolVersion: MODERN, requestMethod: "server/discover" });
  if (problems.length > 0) return fail(`the DiscoverResult breaks the ${MODERN} schema: ${describeProblems(problems)}`);
  if (!ctx.discover.supportedVersions.includes(MODERN)) return fail(`supportedVersions ${JSON.stringify(ctx.discover.supportedVersions)} lacks ${MODERN}, which it was asked in`);
  const info = (ctx.discover._meta as Json | undefined)?.[META.serverInfo] as Json | undefined;
  const seen = `supportedVersions ${JSON.stringify(ctx.discover.supportedVersions)}, ttlMs ${String(ctx.discover.ttlMs)}, cacheScope ${String(ctx.discover.cacheScope)}`;
  if (info === undefined) return warn(`${seen}; no _meta["${META.serverInfo}"] (servers SHOULD name themselves)`);
  return pass(`${seen}; serverInfo ${String(info.name)} ${String(info.version)}`);
}

async function unsupportedVersion(ctx: ModernContext): Promise<CheckOutcome> {
  const asked = `server/discover in ${UNSUPPORTED}`;
  if (ctx.url !== undefined) {
    const answer = await ctx.post("server/discover", {}, undefined, UNSUPPORTED);
    const error = answer.messages.map((message) => message.error).find((value): value is Json => typeof value === "object" && value !== null);
    if (error?.code !== UNSUPPORTED_VERSION)
      return fail(`${asked} got ${describeAnswer(answer)}; a server MUST answer a version it does not implement with 400 and error -32022 (UnsupportedProtocolVersion)`);
    const listed = supportedList(error.data);
    if (answer.status !== 400) return fail(`${asked} got -32022 with HTTP ${answer.status}; the status MUST be 400 Bad Request`);
    return listed.outcome(asked, "400 -32022");
  }
  try {
    const result = await ctx.driver.request("server/discover", { _meta: ctx.meta(UNSUPPORTED) });
    return fail(`${asked} was answered with a result (${clip(JSON.stringify(result), 60)}); expected error -32022`);
  } catch (error) {
    if (!(error instanceof RequestFailedError) || error.code !== UNSUPPORTED_VERSION) return fail(`${asked}: ${plainLine(error)}; expected error -32022`);
    return supportedList(error.data).outcome(asked, "-32022");
  }
}

/** Judges -32022's `data.supported`: the list the client retries from. */
function supportedList(data: unknown): { outcome: (asked: string, got: string) => CheckOutcome } {
  const supported = typeof data === "object" && data !== null ? (data as Json).supported : undefined;
  const requested = typeof data === "object" && data !== null ? (data as Json).requested : undefined;
  return {
    outcome: (asked, got) => {
      if (!Array.isArray(supported)) return fail(`${asked} got ${got} without data.supported (the versions the server speaks, which the client retries with)`);
      if (typeof requested !== "string") {
        return fail(
          `${asked} got ${got} without data.requested (the version it refused, a string the ${MODERN} schema requires); a client that does not recognise the error as modern falls back to initialize`,
        );
      }
      if (!supported.includes(MODERN)) return warn(`${asked} got ${got}, but data.supported ${JSON.stringify(supported)} lacks ${MODERN}, which the server just served`);
      return pass(`${asked} got ${got}, data.supported ${JSON.stringify(supported)}`);
    },
  };
}

async function unknownMethod(ctx: ModernContext): Promise<CheckOutcome> {
  if (ctx.url !== undefined) {
    const answer = await ctx.post(UNKNOWN_METHOD, {});
    const code = errorCode(answer);
    if (code === METHOD_NOT_FOUND && answer.status === 404) return pass(`${UNKNOWN_METHOD} got ${describeAnswer(answer)}`);
    if (code === METHOD_NOT_FOUND) return fail(`${UNKNOWN_METHOD} got -32601 with HTTP ${answer.status}; an unknown method MUST be answered with 404`);
    return fail(`${UNKNOWN_METHOD} got ${describeAnswer(answer)}; expected 404 with error -32601`);
  }
  try {
    const result = await ctx.driver.request(UNKNOWN_METHOD, {});
    return fail(`${UNKNOWN_METHOD} was answered with a result (${clip(JSON.stringify(result), 60)}); expected error -32601`);
  } catch (error) {
    if (error instanceof RequestFailedError && error.code === METHOD_NOT_FOUND) return pass(`${UNKNOWN_METHOD} got -32601 ${JSON.stringify(clip(error.serverMessage ?? "", 60))}`);
    return fail(`${UNKNOWN_METHOD}: ${plainLine(error)}; expected error -32601`);
  }
}

/** The lists the server advertises (and one read), each judged by the 2026-07-28 schema. */
async function resultTypes(ctx: ModernContext): Promise<CheckOutcome> {
  const asked: string[] = [];
  const problems: string[] = [];
  const judge = async (method: string, params: Json | undefined) => {
    asked.push(method);
    try {
      const result = await ctx.driver.request(method, params);
      const found = validateMessage({ jsonrpc: "2.0", id: 1, result }, { direction: "server-to-client", protocolVersion: MODERN, requestMethod: method });
      if (found.length > 0) problems.push(`${method}: ${describeProblems(found)}`);
      return result;
    } catch (error) {
      problems.push(`${method}: ${plainLine(error)}`);
      return undefined;
    }
  };
  for (const list of LISTS) {
    if (ctx.capability(list.capability) === undefined) continue;
    // Resource templates are listed under the resources capability, like resources.
    const result = await judge(list.method, undefined);
    const first = list.kind === "resources" ? ((result?.resources as Json[] | undefined)?.[0]?.uri as string | undefined) : undefined;
    if (first !== undefined) await judge("resources/read", { uri: first });
  }
  if (asked.length === 0) return skip("the server advertises no tools, resources or prompts");
  if (problems.length > 0) return fail(`${plural(problems.length, "result")} of ${asked.length} break the ${MODERN} schema; first: ${problems[0]}`);
  return pass(`${asked.join(", ")}: each with resultType "complete", ttlMs and cacheScope`);
}

async function messagesValid(ctx: ModernContext): Promise<CheckOutcome> {
  const problems = ctx.driver.problems;
  const incoming = ctx.driver.messages.filter((record) => record.direction === "incoming").length;
  if (problems.length > 0) {
    const first = problems[0]!;
    return fail(`${plural(problems.length, "problem")} in ${MODERN} messages; first: ${first.method ?? "(no method)"} ${first.path}: ${first.message}`);
  }
  return pass(`${plural(incoming, "message")} from the server, all valid for ${MODERN}`);
}

/** A header probe: 400 with -32020 passes; another 4xx is a WARN (refused, but not as the spec says); 2xx a FAIL. */
function judgeHeaderProbe(what: string, answer: RawHttpAnswer): CheckOutcome {
  const code = errorCode(answer);
  if (answer.status === 400 && code === HEADER_MISMATCH) return pass(`${what} got ${describeAnswer(answer)}`);
  if (answer.status >= 200 && answer.status < 300) return fail(`${what} was served (${describeAnswer(answer)}); the server MUST refuse it with 400 and -32020 (HeaderMismatch)`);
  // Refused, but not in the spec's words (MUST): a client reads a 400 that is not a modern error as a legacy server, and falls back.
  if (answer.status >= 400 && answer.status < 500)
    return fail(
      `${what} got ${describeAnswer(answer)}: refused, but the server MUST answer 400 with -32020 (HeaderMismatch); a client takes any other refusal for a legacy server and falls back to initialize`,
    );
  return fail(`${what} got ${describeAnswer(answer)}; expected 400 with -32020 (HeaderMismatch)`);
}

async function methodHeader(ctx: ModernContext): Promise<CheckOutcome> {
  const missing = judgeHeaderProbe("server/discover without Mcp-Method", await ctx.post("server/discover", {}, (headers) => delete headers["mcp-method"]));
  const mismatched = judgeHeaderProbe("server/discover with Mcp-Method: tools/list", await ctx.post("server/discover", {}, (headers) => (headers["mcp-method"] = "tools/list")));
  return worst(missing, mismatched);
}

/** A tool no server has: a server that skips the header rule answers "unknown tool", and runs nothing. */
const NO_SUCH_TOOL = "mcp-testkit-no-such-tool";

async function nameHeader(ctx: ModernContext): Promise<CheckOutcome> {
  if (ctx.capability("tools") === undefined) return skip("the server advertises no tools");
  return judgeHeaderProbe("tools/call without Mcp-Name", await ctx.post("tools/call", { name: NO_SUCH_TOOL, arguments: {} }, (headers) => delete headers["mcp-name"]));
}

async function nameMismatch(ctx: ModernContext): Promise<CheckOutcome> {
  if (ctx.capability("tools") === undefined) return skip("the server advertises no tools");
  const other = "mcp-testkit-other-tool";
  const answer = await ctx.post("tools/call", { name: NO_SUCH_TOOL, arguments: {} }, (headers) => (headers["mcp-name"] = other));
  return judgeHeaderProbe(`tools/call with Mcp-Name: ${other} (params.name is ${NO_SUCH_TOOL})`, answer);
}

/** Revisions before the MCP-Protocol-Version header: a server that serves their clients MAY read a request without it as 2025-03-26. */
const BEFORE_VERSION_HEADER = (version: unknown) => typeof version === "string" && isKnownVersion(version) && !versionHas(version, "protocolVersionHeader");

async function versionHeader(ctx: ModernContext): Promise<CheckOutcome> {
  const what = `server/discover without MCP-Protocol-Version (its _meta says ${MODERN})`;
  const answer = await ctx.post("server/discover", {}, (headers) => delete headers["mcp-protocol-version"]);
  const older = ctx.discover.supportedVersions.filter(BEFORE_VERSION_HEADER);
  // The spec's MAY: a server that still serves clients from before the header may take a
  // request without it for 2025-03-26 (and answer it as such), not refuse it. An answer that
  // is a 2026-07-28 discover result was served as this revision: the MAY does not cover that.
  const servedAsModern = answer.messages.some((message) => isObject(message.result) && Array.isArray(message.result.supportedVersions));
  if (older.length > 0 && answer.status >= 200 && answer.status < 300 && !servedAsModern) {
    return warn(
      `${what} got ${describeAnswer(answer)}: answered as a request of ${older.join(", ")} (it lists them), which the spec allows (MAY) for a server that serves clients older than 2025-06-18; a server that does not MUST refuse it with 400 and -32020`,
    );
  }
  return judgeHeaderProbe(what, answer);
}

/**
 * The header names a real revision other than the body's (the newest `initialize` one), so a
 * server that routes by the header rather than checking it against `_meta` is caught too.
 */
async function versionMismatch(ctx: ModernContext): Promise<CheckOutcome> {
  const other = LATEST_PROTOCOL_VERSION;
  const answer = await ctx.post("server/discover", {}, (headers) => (headers["mcp-protocol-version"] = other));
  return judgeHeaderProbe(`server/discover with MCP-Protocol-Version: ${other} (its _meta says ${MODERN})`, answer);
}

/**
 * The first read-only tool (`readOnlyHint: true`) that mirrors a parameter (`x-mcp-header`) is
 * called with that argument alone and a header that differs from it. A server that checks refuses
 * it before running the tool; one that does not runs it with that one argument (or refuses the
 * arguments), which the detail says. Only a read-only tool: on a server that does not check, the
 * probe really runs it, with a made-up argument.
 */
async function paramHeader(ctx: ModernContext): Promise<CheckOutcome> {
  if (ctx.capability("tools") === undefined) return skip("the server advertises no tools");
  const tools = await ctx.driver.getTools();
  const mirroring: string[] = [];
  let probe: { tool: string; mirrored: MirroredParameter } | undefined;
  for (const { name, inputSchema, annotations } of tools) {
    const [mirrored] = mirroredOf(inputSchema);
    if (mirrored === undefined) continue;
    mirroring.push(name);
    if (annotations?.readOnlyHint === true) {
      probe = { tool: name, mirrored };
      break;
    }
  }
  if (probe === undefined && mirroring.length === 0)
    return skip(`no tool mirrors a parameter into an Mcp-Param-* header (none of its ${plural(tools.length, "tool")} has x-mcp-header in its inputSchema)`);
  if (probe === undefined) {
    return skip(
      `${listFirst(mirroring, 5, ", ")} ${mirroring.length === 1 ? "mirrors" : "mirror"} a parameter into an Mcp-Param-* header, but none is marked readOnlyHint: true; ` +
        "the probe would run the tool with a made-up argument on a server that does not check the header, so check probes read-only tools only",
    );
  }
  const { tool, mirrored } = probe;
  const [bodyValue, headerValue] = mismatchedValues(mirrored.type);
  const args = mirrored.path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), bodyValue) as Json;
  const header = `Mcp-Param-${mirrored.header}`;
  const answer = await ctx.post("tools/call", { name: tool, arguments: args }, (headers) => (headers[header.toLowerCase()] = headerValue));
  return judgeHeaderProbe(`tools/call ${tool} with ${header}: ${headerValue} (arguments.${mirrored.path.join(".")} is ${JSON.stringify(bodyValue)})`, answer);
}

/** A body value of the parameter's type, and header text that differs from it. */
function mismatchedValues(type: unknown): [unknown, string] {
  if (type === "integer") return [1, "2"];
  if (type === "boolean") return [true, "false"];
  return ["mcp-testkit-body-value", "mcp-testkit-header-value"];
}

/** 2026-07-28 words these two as SHOULDs, for a server that speaks only this revision: a WARN, not a FAIL. */
async function getAndDelete(ctx: ModernContext): Promise<CheckOutcome> {
  const headers = { ...BASE_HEADERS, accept: "text/event-stream", "mcp-protocol-version": MODERN, ...ctx.extraHeaders };
  const seen: string[] = [];
  let all405 = true;
  for (const method of ["GET", "DELETE"] as const) {
    const answer = await rawRequest(ctx.url!, method, headers, undefined, { timeoutMs: ctx.timeoutMs });
    all405 &&= answer.status === 405;
    seen.push(answer.status === 405 ? `${method} got 405` : `${method} got ${describeAnswer(answer)}`);
  }
  if (all405) return pass(seen.join("; "));
  return warn(`with MCP-Protocol-Version: ${MODERN}, ${seen.join(", ")}; ${MODERN} has no GET stream and no DELETE, and a server SHOULD answer both with 405 Method Not Allowed`);
}

async function noSession(ctx: ModernContext): Promise<CheckOutcome> {
  const answer = await ctx.post("server/discover", {});
  const id = answer.headers?.get("mcp-session-id");
  if (answer.status !== 200) return fail(`a conforming server/discover POST got ${describeAnswer(answer)}`);
  if (id) return warn(`the server/discover response carries Mcp-Session-Id ${JSON.stringify(clip(id, 40))}; ${MODERN} has no sessions, and a server SHOULD NOT mint or echo session ids`);
  return pass("the server/discover response carries no Mcp-Session-Id");
}

/** The worst of several outcomes (FAIL over WARN over PASS), details joined. */
function worst(...outcomes: CheckOutcome[]): CheckOutcome {
  const order = ["PASS", "SKIP", "WARN", "FAIL"] as const;
  const status = outcomes.map((outcome) => outcome.status).sort((a, b) => order.indexOf(b) - order.indexOf(a))[0]!;
  return { status, detail: outcomes.map((outcome) => outcome.detail).join("; ") };
}

function describeProblems(problems: readonly { path: string; message: string }[]): string {
  const [first] = problems;
  return `${first!.path}: ${first!.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`;
}
