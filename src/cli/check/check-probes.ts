/**
 * The probes behind `mcp-testkit check`'s catalogue: the raw requests each check sends and how
 * it judges the answer, kept apart from the list of checks itself.
 */
import { validateMessage, validateToolDefinition } from "../../protocol/validate/index.js";
import { isSupportedVersion, LATEST_KNOWN_VERSION, versionHas } from "../../protocol/versions.js";
import { META } from "../../protocol/meta-keys.js";
import { plainLine } from "../target/target.js";
import { clip, describeExit, describeReply, INVALID_PARAMS, METHOD_NOT_FOUND, PARSE_ERROR, plural, type CheckContext, type Json, type ListKind, type Reply } from "./context.js";
import { BASE_HEADERS, describeAnswer, errorCode, rawDelete, rawPost, type RawHttpAnswer } from "./raw-http.js";
import { RawStdioServer } from "./raw-stdio.js";
import { fail, pass, skip, warn, type CheckOutcome } from "./types.js";
import type { CheckDefinition } from "./catalogue.js";
/** A version nobody speaks, for the negotiation probe. */
export const UNKNOWN_VERSION = "1999-01-01";
/** A tool name no server has. */
export const UNKNOWN_TOOL = "mcp-testkit-no-such-tool";
export const UNKNOWN_METHOD = "mcp-testkit/no-such-method";
export const INVALID_CURSOR = "!mcp-testkit-invalid-cursor!";
/** A request cut off in the middle: not JSON. */
export const MALFORMED_LINE = '{"jsonrpc":"2.0","id":"mcp-testkit-malformed","method":"ping"';
export const FOREIGN_ORIGIN = "http://mcp-testkit-foreign-origin.invalid";
/** How long a stdio server may take to exit once its stdin is closed. */
export const STDIN_CLOSE_GRACE_MS = 3000;

export const spec = (path: string) => (version: string) => `https://modelcontextprotocol.io/specification/${version}/${path}`;
export const JSON_RPC_ERRORS = () => "https://www.jsonrpc.org/specification#error_object";

export function initialize(id: string, protocolVersion: string): Json {
  return { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "mcp-testkit-check", version: "0.1.0" } } };
}

export function ping(id: string): Json {
  return { jsonrpc: "2.0", id, method: "ping" };
}

/** Judges the answer to an initialize asking for a version nobody speaks. */
export function judgeUnknownVersion(answer: Json | undefined, noAnswer: string): CheckOutcome {
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

export async function unknownVersionStdio(ctx: CheckContext): Promise<CheckOutcome> {
  const probe = new RawStdioServer(ctx.target.value);
  try {
    probe.send(initialize("mcp-testkit-version", UNKNOWN_VERSION));
    const answer = await probe.response("mcp-testkit-version", ctx.timeoutMs);
    return judgeUnknownVersion(
      answer,
      probe.exit ? `a second copy of the server exited (${describeExit(probe.exit)}) without answering` : `no answer within ${ctx.timeoutMs} ms (a second copy of the server)`,
    );
  } finally {
    await probe.stop();
    collectStray(ctx, probe, "the copy asked for an unknown version");
  }
}

export async function unknownVersionHttp(ctx: CheckContext): Promise<CheckOutcome> {
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

export async function capabilitiesHonest(ctx: CheckContext): Promise<CheckOutcome> {
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

export function definitionsCheck(kind: ListKind, id: string, title: string, path: string): CheckDefinition {
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
          return warn(
            `${plural(list.items.length, "tool")} valid, but tool names SHOULD be 1-128 characters of A-Z a-z 0-9 _ - . : ${badNames.map((name) => JSON.stringify(clip(name, 40))).join(", ")}`,
          );
        }
      }
      if (list.items.length === 0) return pass(`no ${about.noun}s listed; the ${about.method} result is valid for ${ctx.version}`);
      return pass(`${plural(list.items.length, about.noun)}${list.pages.length > 1 ? ` on ${list.pages.length} pages` : ""}, all valid for ${ctx.version}`);
    },
  };
}

export function describeItem(noun: string, item: unknown, index: number, pageIndex: number): string {
  const where = `${pageIndex > 0 ? `page ${pageIndex + 1}, ` : ""}#${index + 1}`;
  const value = item as Json | undefined;
  const name = value?.name ?? value?.uri ?? value?.uriTemplate;
  return typeof name === "string" ? `${noun} "${clip(name, 40)}" (${where})` : `${noun} ${where}`;
}

export async function pagination(ctx: CheckContext): Promise<CheckOutcome> {
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

export async function invalidCursor(ctx: CheckContext): Promise<CheckOutcome> {
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

export async function malformedStdio(ctx: CheckContext): Promise<CheckOutcome> {
  const probe = new RawStdioServer(ctx.target.value);
  try {
    probe.send(initialize("mcp-testkit-init", ctx.version));
    const init = await probe.response("mcp-testkit-init", ctx.timeoutMs);
    if (init === undefined || init.error !== undefined) {
      return skip(
        `a second copy of the server did not initialize (${init === undefined ? (probe.exit ? describeExit(probe.exit) : `no answer within ${ctx.timeoutMs} ms`) : "an error"}), so the probe could not run`,
      );
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

export async function malformedHttp(ctx: CheckContext): Promise<CheckOutcome> {
  const answer = await rawPost(ctx.target.value, httpHeaders(ctx, {}), MALFORMED_LINE, { timeoutMs: ctx.timeoutMs });
  const code = errorCode(answer);
  if (code === PARSE_ERROR) return pass(`a body that is not JSON got ${describeAnswer(answer)}`);
  if (answer.status >= 400 && answer.status < 500) return warn(`a body that is not JSON got ${describeAnswer(answer)}; JSON-RPC says -32700 Parse error`);
  return fail(`a body that is not JSON got ${describeAnswer(answer)}; expected a 4xx with a -32700 Parse error`);
}

// ── stdio shutdown ───────────────────────────────────────────────────────────────────────

export async function stdinClose(ctx: CheckContext): Promise<CheckOutcome> {
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
    return fail(`${plainLine(error)}`);
  }
  return pass(`exited with code 0, ${Date.now() - started} ms after its stdin was closed`);
}

// ── Helpers ──────────────────────────────────────────────────────────────────────────────

export function originProbe(ctx: CheckContext): { method: string; headers: Record<string, string>; body: unknown } {
  return { method: "initialize", headers: { ...httpHeaders(ctx, { session: false, version: false }), origin: FOREIGN_ORIGIN }, body: initialize("mcp-testkit-origin", ctx.version) };
}

/** server/discover as a 2026-07-28 client sends it (its headers and _meta), from a foreign Origin. */
export function modernOriginProbe(ctx: CheckContext): { method: string; headers: Record<string, string>; body: unknown } {
  const meta = { [META.protocolVersion]: LATEST_KNOWN_VERSION, [META.clientCapabilities]: {}, [META.clientInfo]: { name: "mcp-testkit-check", version: "1" } };
  const headers = { ...httpHeaders(ctx, { session: false, version: false }), "mcp-protocol-version": LATEST_KNOWN_VERSION, "mcp-method": "server/discover", origin: FOREIGN_ORIGIN };
  return { method: `server/discover (${LATEST_KNOWN_VERSION})`, headers, body: { jsonrpc: "2.0", id: "mcp-testkit-origin", method: "server/discover", params: { _meta: meta } } };
}

export function describeProblems(problems: ReadonlyArray<{ path: string; message: string }>): string {
  const first = problems[0]!;
  return `${first.path}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`;
}

export function collectStray(ctx: CheckContext, probe: RawStdioServer, where: string): void {
  for (const line of probe.nonJson) ctx.strayStdout.push({ line, from: where });
}

/** Headers for a raw request: the user's, the transport's, and by default the session's and version's. */
export function httpHeaders(ctx: CheckContext, options: { session?: boolean; version?: boolean }): Record<string, string> {
  const headers: Record<string, string> = { ...BASE_HEADERS };
  for (const [name, value] of Object.entries(ctx.target.headers)) headers[name.toLowerCase()] = value;
  const bearer = ctx.bearer();
  if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
  const session = ctx.driver.sessionId;
  if (options.session !== false && session !== undefined) headers["mcp-session-id"] = session;
  if (options.version !== false && versionHas(ctx.version, "protocolVersionHeader")) headers["mcp-protocol-version"] = ctx.version;
  return headers;
}

/** Ends a session a raw initialize may have opened, so probes leave nothing behind. */
export async function endRawSession(ctx: CheckContext, answer: RawHttpAnswer): Promise<void> {
  const id = answer.headers?.get("mcp-session-id");
  if (!id) return;
  const headers = { ...httpHeaders(ctx, { session: false }), "mcp-session-id": id };
  await rawDelete(ctx.target.value, headers, ctx.timeoutMs);
}

export async function deletedSession(ctx: CheckContext): Promise<CheckOutcome> {
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
