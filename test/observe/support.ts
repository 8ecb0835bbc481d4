/** Shared parts for the observer tests: an observer that records everything it hears, and waits. */
import type { McpObserver, ObservedRequest, ObservedStream, RequestFinish, ServerStopResult, StreamClosure } from "../../src/index.js";

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Recording extends McpObserver {
  readonly lines: string[];
  readonly starts: ObservedRequest[];
  readonly finishes: Array<{ request: ObservedRequest; finish: RequestFinish }>;
  readonly streams: Array<{ stream: ObservedStream; closure?: StreamClosure }>;
  /** What each `serverDidStop` said. */
  readonly stops: ServerStopResult[];
  /** Resolves once `count` finishes were delivered (rejects after `timeoutMs`). */
  finished(count: number, timeoutMs?: number): Promise<void>;
}

/** An observer that writes a line per callback (and keeps the objects) for assertions. */
export function recordingObserver(name = "recording"): Recording {
  const lines: string[] = [];
  const starts: ObservedRequest[] = [];
  const finishes: Array<{ request: ObservedRequest; finish: RequestFinish }> = [];
  const streams: Array<{ stream: ObservedStream; closure?: StreamClosure }> = [];
  const stops: ServerStopResult[] = [];
  return {
    name,
    lines,
    starts,
    finishes,
    streams,
    stops,
    serverWillStart: (server) => lines.push(`willStart ${server.transport}`),
    serverDidStart: (server) => lines.push(`didStart ${server.transport}`),
    serverDidFailToStart: (server) => lines.push(`didFailToStart ${server.transport}`),
    serverWillStop: () => lines.push("willStop"),
    serverDidStop: (_server, result) => {
      stops.push(result);
      lines.push(`didStop ${result.outcome}`);
    },
    requestDidStart: (request) => {
      starts.push(request);
      lines.push(`start ${request.method}`);
    },
    requestDidFinish: (request, finish) => {
      finishes.push({ request, finish });
      lines.push(`finish ${request.method} ${finish.outcome}`);
    },
    streamDidOpen: (stream) => {
      streams.push({ stream });
      lines.push(`stream open ${stream.streamId}`);
    },
    streamDidClose: (stream, closure) => {
      streams.find((entry) => entry.stream === stream)!.closure = closure;
      lines.push(`stream close ${stream.streamId} ${closure.reason}`);
    },
    subscriptionDidOpen: (stream) => {
      streams.push({ stream });
      lines.push("subscription open");
    },
    subscriptionDidClose: (stream, closure) => {
      streams.find((entry) => entry.stream === stream)!.closure = closure;
      lines.push(`subscription close ${closure.reason}`);
    },
    async finished(count, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (finishes.length < count) {
        if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${count} finishes; have ${finishes.length}: ${lines.join(" | ")}`);
        await delay(5);
      }
    },
  };
}

/** Waits until `check()` holds (polling every 5 ms, at most `timeoutMs`). */
export async function until(check: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await delay(5);
  }
}
