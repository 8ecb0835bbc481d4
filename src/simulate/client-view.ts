/**
 * Observers of a server the simulator drives but cannot see into (an SDK-built server, any
 * fetch handler): each JSON-RPC request sent starts an observation, and its answer (or the end
 * of capture without one) finishes it, with the outcome the client saw. The same vocabulary as
 * the mock's own observers, seen from the client's side.
 */
import { ObserverDelivery } from "../observe/delivery.js";
import type { ObservedRequest } from "../observe/observer.js";
import { responseOutcome, type McpRequestOutcome } from "../observe/outcomes.js";
import { traceContextOf } from "../observe/trace-context.js";
import { optional } from "../observe/observe-events.js";
import type { SimulationCompletion, SimulationTerminationReason } from "./simulation.js";

/** What a request that got no answer ended as, by why capture ended. */
const UNANSWERED: Record<SimulationTerminationReason, McpRequestOutcome> = {
  completed: "client_disconnected",
  client_disconnected: "client_disconnected",
  capture_item_limit: "client_disconnected",
  capture_byte_limit: "client_disconnected",
  internal_error: "internal_error",
};

interface Open {
  request: ObservedRequest;
  origin: number;
}

export class ClientView {
  private readonly open = new Map<unknown, Open>();

  constructor(private readonly delivery: ObserverDelivery) {}

  /** The request's JSON-RPC requests were sent (notifications and responses start nothing). */
  sent(messages: readonly Record<string, unknown>[], facts: { endpoint: string; sessionId: string; protocolVersion: string }): void {
    for (const message of messages) {
      if (typeof message.method !== "string" || message.id === undefined || !this.delivery.reservePair()) continue;
      const params = typeof message.params === "object" && message.params !== null ? (message.params as Record<string, unknown>) : undefined;
      const request: ObservedRequest = Object.freeze({
        method: message.method,
        requestId: message.id as string | number,
        sessionId: facts.sessionId,
        protocolVersion: metaVersion(params) ?? facts.protocolVersion,
        wire: "simulated",
        endpoint: facts.endpoint,
        startedAt: Date.now(),
        ...optional("params", params),
        ...optional("traceContext", traceContextOf(params)),
      });
      this.open.set(message.id, { request, origin: performance.now() });
      this.delivery.requestStarted(request);
    }
  }

  /** A message came back: the answer of an open request finishes it. */
  incoming(message: Record<string, unknown>): void {
    if (!("result" in message) && !("error" in message)) return;
    const open = this.open.get(message.id);
    if (open === undefined) return;
    this.open.delete(message.id);
    const answer = message as { error?: { code: number; message: string }; result?: unknown };
    this.delivery.requestFinished(open.request, Object.freeze({ outcome: responseOutcome(answer), durationMs: performance.now() - open.origin, errors: [], ...optional("error", answer.error), ...optional("result", answer.result) }));
  }

  /** Capture ended: requests still open finish with what the client saw (nothing). */
  ended(completion: SimulationCompletion): void {
    for (const { request, origin } of this.open.values()) {
      this.delivery.requestFinished(request, Object.freeze({ outcome: UNANSWERED[completion.reason], durationMs: performance.now() - origin, errors: completion.errors }));
    }
    this.open.clear();
  }
}

/** A 2026-07-28 request names its version in `_meta`. */
function metaVersion(params: Record<string, unknown> | undefined): string | undefined {
  const meta = params?._meta as Record<string, unknown> | undefined;
  const version = meta?.["io.modelcontextprotocol/protocolVersion"];
  return typeof version === "string" ? version : undefined;
}
