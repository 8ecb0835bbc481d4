/**
 * Traces for the timeline's tests: a large one with planted calls (a fault, an MRTR round, a
 * task poll, a server request, an error, a search term), written as a mock writes them.
 */
import type { JsonRpcMessage } from "../../src/protocol/jsonrpc.js";
import type { TraceEntry, TraceHeader } from "../../src/trace/entry.js";

export const PLANTED = {
  /** Only the planted call's arguments hold this word. */
  searchTerm: "zebra-needle-7731",
  faultTool: "flaky_fetch",
  mrtrTool: "book_trip",
  taskTool: "long_report",
  testIds: ["checkout > pays", "search > finds", "trips > asks for dates"],
} as const;

const MODERN = "2026-07-28";
const TASK = { taskId: "task-900", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttl: 60000 };
const LEGACY = "2025-11-25";

/** A trace of about `messages` messages over three lanes, calls 2 ms apart, each 1–9 ms long. */
export function bigTrace(messages: number, startedAt = 1_760_000_000_000): { header: TraceHeader; entries: TraceEntry[] } {
  const entries: TraceEntry[] = [];
  let seq = 0;
  let clock = startedAt;
  const push = (entry: Omit<TraceEntry, "seq">) => entries.push({ seq: ++seq, ...entry });
  let n = 0;
  while (seq < messages) {
    n++;
    const lane = n % 3;
    const testId = PLANTED.testIds[lane]!;
    const sessionId = `session-${lane + 1}`;
    const protocolVersion = LEGACY;
    const base = { wire: "http" as const, sessionId, testId, protocolVersion };
    const id = n;
    const at = (clock += 2);
    const took = 1 + (n % 9);
    const client = (message: JsonRpcMessage, when: number, extra: Partial<TraceEntry> = {}) => push({ at: when, from: "client", message, ...base, callId: id, ...extra });
    const server = (message: JsonRpcMessage, when: number, extra: Partial<TraceEntry> = {}) => push({ at: when, from: "server", message, ...base, callId: id, ...extra });
    if (n === 500) {
      client({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_issues", arguments: { query: PLANTED.searchTerm } } }, at);
      server({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "found" }] } }, at + took);
    } else if (n === 600) {
      // A result the validator flags: a content block without its type.
      client({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_weather", arguments: { city: "Oslo" } } }, at);
      server({ jsonrpc: "2.0", id, result: { content: [{ text: "-3°C" }] } }, at + took);
    } else if (n === 700) {
      client({ jsonrpc: "2.0", id, method: "tools/call", params: { name: PLANTED.faultTool, arguments: { url: "https://example.test" } } }, at);
      server({ jsonrpc: "2.0", id, error: { code: -32000, message: "upstream timeout" } }, at + 40, { fault: "delay" });
    } else if (n === 800) {
      const mrtr = { ...base, protocolVersion: MODERN };
      push({ at, from: "client", message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: PLANTED.mrtrTool, arguments: { to: "Lisbon" } } }, ...mrtr, callId: id });
      const ask = { elicitation: { method: "elicitation/create", params: { message: "Which dates?", requestedSchema: { type: "object", properties: {} } } } };
      push({ at: at + 2, from: "server", message: { jsonrpc: "2.0", id, result: { resultType: "input_required", inputRequests: ask, requestState: "state-800" } }, ...mrtr, callId: id });
      const retry = 100_000 + n;
      const params = { name: PLANTED.mrtrTool, arguments: { to: "Lisbon" }, inputResponses: { elicitation: { action: "accept", content: {} } }, requestState: "state-800" };
      push({ at: at + 5, from: "client", message: { jsonrpc: "2.0", id: retry, method: "tools/call", params }, ...mrtr, callId: retry });
      push({ at: at + 7, from: "server", message: { jsonrpc: "2.0", id: retry, result: { resultType: "complete", content: [{ type: "text", text: "booked" }] } }, ...mrtr, callId: retry });
    } else if (n === 900) {
      client({ jsonrpc: "2.0", id, method: "tools/call", params: { name: PLANTED.taskTool, arguments: {}, task: { ttl: 60000 } } }, at);
      server({ jsonrpc: "2.0", id, result: { task: { ...TASK, status: "working" } } }, at + 1);
      const poll = 200_000 + n;
      push({ at: at + 4, from: "client", message: { jsonrpc: "2.0", id: poll, method: "tasks/get", params: { taskId: "task-900" } }, ...base, callId: poll });
      push({ at: at + 5, from: "server", message: { jsonrpc: "2.0", id: poll, result: { ...TASK, status: "completed" } }, ...base, callId: poll });
    } else if (n % 10 === 0) {
      client({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "confirm_order", arguments: { order: n } } }, at);
      server({ jsonrpc: "2.0", id: `ask-${n}`, method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } } }, at + 1);
      push({ at: at + 2, from: "client", message: { jsonrpc: "2.0", id: `ask-${n}`, result: { action: "accept", content: {} } }, ...base });
      server({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: n, progress: 1, total: 1 } }, at + 3);
      server({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "confirmed" }] } }, at + took);
    } else if (n % 7 === 0) {
      client({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_issues", arguments: { query: `q${n}` } } }, at);
      server({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "rate limited" }], isError: true } }, at + took);
    } else {
      client(
        { jsonrpc: "2.0", id, method: n % 5 === 0 ? "resources/read" : "tools/call", params: n % 5 === 0 ? { uri: `file:///doc-${n}.md` } : { name: "get_weather", arguments: { city: "Paris" } } },
        at,
      );
      server({ jsonrpc: "2.0", id, result: n % 5 === 0 ? { contents: [{ uri: `file:///doc-${n}.md`, text: "hello" }] } : { content: [{ type: "text", text: "21°C" }] } }, at + took);
    }
  }
  return { header: { type: "mcp-testkit-trace", version: 1, source: "mock", startedAt, target: "http://127.0.0.1:3921/mcp" }, entries };
}

/** A trace as the file holds it: JSON Lines. */
export function traceText(trace: { header: TraceHeader; entries: readonly TraceEntry[] }): string {
  return `${[trace.header, ...trace.entries].map((line) => JSON.stringify(line)).join("\n")}\n`;
}
