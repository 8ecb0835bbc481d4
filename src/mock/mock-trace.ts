/**
 * A mock's trace: every message its `message` tap tells, and, where a fault took an answer's
 * place (a dropped connection, a stream cut for good), an entry with no message saying so. Served
 * at `GET /__mcp-testkit/trace` (`?testId=` to filter) behind the router's guard, like the control API.
 */
import type { EventHub, MockEvents, RequestEndEvent } from "../engine/events.js";
import { entryFromMockMessage } from "../trace/from-events.js";
import { TraceLog, type TraceOptions } from "../trace/trace-log.js";

export const TRACE_PATH = "/__mcp-testkit/trace";
/** Who a mock's trace header names as its source, when it is not "mock": the recorder puts it on its mock's options. */
export const TRACE_SOURCE: unique symbol = Symbol("mcp-testkit trace source");
/** How the trace route is mounted: unlisted, as the control API is, and behind the same guard. */
export const TRACE_ROUTE = { unlisted: true, methodsAt: () => ["GET", "HEAD"] };

/** Starts tracing a mock's events into a new log; `stop()` stops listening and closes the log. */
export function traceMock(events: EventHub<MockEvents>, options: TraceOptions, target: string, source: "mock" | "recorder" = "mock"): { log: TraceLog; stop: () => void } {
  const log = new TraceLog(options, source, target);
  const stopMessages = events.on("message", (event) => {
    const entry = entryFromMockMessage(event, 0);
    // A raw step's bytes are the one answer that is bytes on purpose; a client's are not.
    log.add(event.direction === "out" && event.raw !== undefined ? { ...entry, fault: "raw" } : entry);
  });
  const stopEnds = events.on("request:end", (event) => {
    const fault = faultOf(event);
    if (fault === undefined) return;
    log.add({
      seq: 0,
      at: Date.now(),
      from: "server",
      wire: event.wire,
      sessionId: event.sessionId,
      ...(event.identity.testId !== undefined && { testId: event.identity.testId }),
      ...(event.identity.context !== undefined && { context: event.identity.context }),
      protocolVersion: event.protocolVersion,
      callId: event.requestId,
      fault,
    });
  });
  return {
    log,
    stop: () => {
      stopMessages();
      stopEnds();
      log.close();
    },
  };
}

/** The fault that took the place of a request's answer, when one did. */
function faultOf(event: RequestEndEvent): "disconnect" | "cutStream" | undefined {
  if (event.outcome === "drop") return "disconnect";
  if (event.noReplyCause === "stream_cut") return "cutStream";
  return undefined;
}

/** `GET /__mcp-testkit/trace[?testId=…]`: the trace as JSON Lines (the header, then the entries kept). */
export function traceRoute(mock: { readonly trace: TraceLog | undefined }): (request: Request) => Response {
  return (request) => {
    const url = new URL(request.url);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return problem(405, "MCP_TRACE_METHOD", `${TRACE_PATH} takes GET, not ${request.method}.`, { allow: "GET, HEAD" });
    }
    for (const name of new Set(url.searchParams.keys())) {
      if (name !== "testId") return problem(400, "MCP_TRACE_BAD_QUERY", `Unknown query parameter ?${name}=; ${TRACE_PATH} takes ?testId= only.`);
    }
    if (url.searchParams.getAll("testId").length > 1) return problem(400, "MCP_TRACE_BAD_QUERY", "Duplicate ?testId= query parameter: send one.");
    const trace = mock.trace;
    if (trace === undefined) {
      return problem(404, "MCP_TRACE_OFF", "This mock keeps no trace. Start it with mockMcp({ trace: true }) (or a file name), or `mcp-testkit mock --trace file.jsonl`.");
    }
    const testId = url.searchParams.get("testId") ?? undefined;
    return new Response(trace.text(testId === undefined ? {} : { testId }), { status: 200, headers: { "content-type": "application/jsonl; charset=utf-8", "cache-control": "no-store" } });
  };
}

function problem(status: number, code: string, error: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error, code }), { status, headers: { "content-type": "application/json", ...headers } });
}
