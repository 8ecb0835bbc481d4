/**
 * Flags the validator's problems on the entries that carry none yet: each message is checked
 * against the revision it was handled in, a response as the answer to its request's method,
 * so the page can mark the message a problem concerns. Entries a writer checked already keep
 * their own problems.
 */
import { isObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import { validateMessage } from "../protocol/validate/validate-message.js";
import type { TraceEntry } from "../trace/entry.js";

export function withProblems(entries: readonly TraceEntry[]): TraceEntry[] {
  // The method of each request by sender and id, so an answer is checked as that method's result.
  const methods = new Map<string, string>();
  const key = (from: string, session: string | undefined, id: JsonRpcId) => `${from}\u0000${session ?? ""}\u0000${typeof id}:${String(id)}`;
  return entries.map((entry) => {
    const message = entry.message;
    if (!isObject(message) || entry.problems !== undefined) return entry;
    const id = message.id;
    const hasId = typeof id === "string" || typeof id === "number";
    if (typeof message.method === "string" && hasId) methods.set(key(entry.from, entry.sessionId, id), message.method);
    const requestMethod = typeof message.method !== "string" && hasId ? methods.get(key(entry.from === "client" ? "server" : "client", entry.sessionId, id)) : undefined;
    const problems = validateMessage(message, {
      direction: entry.from === "client" ? "client-to-server" : "server-to-client",
      ...(entry.protocolVersion !== undefined && { protocolVersion: entry.protocolVersion }),
      ...(requestMethod !== undefined && { requestMethod }),
    });
    return problems.length === 0 ? entry : { ...entry, problems: problems.map(({ path, message: text }) => ({ path, message: text })) };
  });
}
