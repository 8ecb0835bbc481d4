/**
 * What a message from the server is: a request (the server asks the client), a notification, a
 * response, or something that breaks JSON-RPC. A batch (2025-03-26) is split into its messages,
 * each with the validator's problems for its own part. The session acts on the kinds; this
 * module only tells them apart.
 */
import { NO_PROBLEMS, type MessageProblem } from "../inspect/types.js";
import { isObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import type { JsonObject } from "./request-types.js";

export type InboundMessage =
  | { kind: "request"; id: JsonRpcId; method: string; params: JsonObject | undefined; problems: readonly MessageProblem[] }
  | { kind: "notification"; method: string; params: JsonObject | undefined; problems: readonly MessageProblem[] }
  | { kind: "response"; message: JsonObject; problems: readonly MessageProblem[] }
  /** `what`: the message in words, e.g. "a message that is not a JSON object". */
  | { kind: "invalid"; what: string; message: unknown; problems: readonly MessageProblem[] };

/** Calls `each` for every message in `message` (one, or each of a batch), classified. */
export function classifyInbound(message: unknown, problems: readonly MessageProblem[], each: (inbound: InboundMessage) => void): void {
  if (!Array.isArray(message)) return each(classifyOne(message, problems));
  // Problems at "$" concern the batch itself (empty, or a version without batches).
  if (message.length === 0 || problems.some((problem) => problem.path === "$")) {
    return each({ kind: "invalid", what: "a JSON-RPC batch it may not send", message, problems });
  }
  message.forEach((item, index) => each(classifyOne(item, problems === NO_PROBLEMS ? problems : problemsOfItem(problems, index))));
}

function classifyOne(message: unknown, problems: readonly MessageProblem[]): InboundMessage {
  if (!isObject(message)) return { kind: "invalid", what: "a message that is not a JSON object", message, problems };
  if ("method" in message) {
    const envelope = problems.filter(isEnvelopeProblem);
    if (envelope.length > 0 || typeof message.method !== "string") return { kind: "invalid", what: "an invalid request or notification", message, problems: envelope };
    const params = isObject(message.params) ? message.params : undefined;
    if (message.id === undefined) return { kind: "notification", method: message.method, params, problems };
    return { kind: "request", id: message.id as JsonRpcId, method: message.method, params, problems };
  }
  if ("result" in message || "error" in message) return { kind: "response", message, problems };
  return { kind: "invalid", what: "a message that is neither a request, a notification nor a response", message, problems };
}

/** The problems of a batch's item `index`, their paths made relative to it. */
function problemsOfItem(problems: readonly MessageProblem[], index: number): MessageProblem[] {
  const prefix = `$[${index}]`;
  return problems
    .filter((problem) => problem.path === prefix || problem.path.startsWith(`${prefix}.`) || problem.path.startsWith(`${prefix}[`))
    .map((problem) => ({ ...problem, path: `$${problem.path.slice(prefix.length)}` }));
}

/** A problem with the JSON-RPC envelope itself (not the MCP payload): such a message cannot be acted on. */
export function isEnvelopeProblem(problem: MessageProblem): boolean {
  return problem.rule.startsWith("jsonrpc.") || problem.rule === "json.parse";
}
