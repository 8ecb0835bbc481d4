/**
 * `validateMessage(message, { headers })`: the Streamable HTTP header rules for a message that
 * comes with its HTTP headers, reported at `headers.<name>`. The rules themselves live in
 * protocol/http-headers.ts, shared with the mock's check, so both say the same thing.
 */
import { isObject } from "../jsonrpc.js";
import { headerReader, legacyHeaderProblems, modernHeaderProblems, sessionIdProblem, type HeaderReader, type HeaderRuleProblem } from "../http-headers.js";
import { declaredVersion } from "../request-meta.js";
import { versionHas, type ProtocolVersion } from "../versions.js";
import type { ValidateMessageOptions, ValidationProblem } from "./problem.js";

function asProblems(found: readonly HeaderRuleProblem[]): ValidationProblem[] {
  return found.map((problem) => ({ path: `headers.${problem.header}`, message: problem.message, rule: "http.header" }));
}

function isInitializeRequest(message: unknown): boolean {
  return isObject(message) && message.method === "initialize" && message.id !== undefined;
}

/** A lookup of the tools' input schemas, made only when a `tools/call` needs one. */
function schemaLookup(tools: ValidateMessageOptions["tools"]): (tool: string) => unknown {
  let byName: Map<string, unknown> | undefined;
  return (tool) => {
    if (tools === undefined) return undefined;
    byName ??= new Map([...tools].map((entry) => [entry.name, entry.inputSchema]));
    return byName.get(tool);
  };
}

/** Every header problem of `message` (already parsed) sent under `version` with `options.headers`. */
export function httpHeaderProblems(message: unknown, options: ValidateMessageOptions & { headers: NonNullable<ValidateMessageOptions["headers"]> }, version: ProtocolVersion): ValidationProblem[] {
  const header = headerReader(options.headers);
  if (options.direction === "server-to-client") return serverHeaderProblems(message, header, options.requestMethod, version);
  if (versionHas(version, "requestHeaders")) {
    // Only requests: this revision defines no header rules for a notification's POST.
    if (!isObject(message) || typeof message.method !== "string" || message.id === undefined) return [];
    const params = isObject(message.params) ? message.params : {};
    return asProblems(modernHeaderProblems(header, message.method, params, declaredVersion(params), schemaLookup(options.tools)));
  }
  // Legacy: every POST after initialize (a batch is one POST); initialize's own needs nothing.
  const messages = Array.isArray(message) ? message : [message];
  if (messages.some(isInitializeRequest)) return [];
  return asProblems(legacyHeaderProblems(header, version, options.sessionId));
}

/** A server's headers: the session id it gives in answer to `initialize` must be visible ASCII. */
function serverHeaderProblems(message: unknown, header: HeaderReader, requestMethod: string | undefined, version: ProtocolVersion): ValidationProblem[] {
  if (requestMethod !== "initialize" || !versionHas(version, "sessions") || !isObject(message)) return [];
  const sessionId = header("mcp-session-id");
  const problem = sessionId === undefined ? undefined : sessionIdProblem(sessionId);
  return problem ? asProblems([problem]) : [];
}
