/**
 * Observers of a server seen from the client's side (the simulator driving an SDK-built
 * server, the driver speaking to a real one): each JSON-RPC request sent starts an observation,
 * and its answer — or how the client stopped waiting — finishes it, with the outcome the client
 * saw. The same vocabulary (outcomes.ts) as the mock's own observers.
 */
import { declaredVersion } from "../protocol/request-meta.js";
import type { ObserverDelivery } from "./delivery.js";
import type { ObservedRequest } from "./observer.js";
import { responseOutcome, type McpRequestOutcome } from "./outcomes.js";
import { traceContextOf } from "./trace-context.js";
import { optional } from "./observe-events.js";

/** What the client knows about the wire when it sends a request. */
export interface ClientFacts {
  /** `simulated`, or the driver's wire (`stdio`, `http`, `attached`). */
  wire: string;
  endpoint: string;
  sessionId: string;
  protocolVersion: string;
}

interface Open {
  request: ObservedRequest;
  origin: number;
}

const NO_ERRORS: readonly unknown[] = Object.freeze([]);

export class ClientView {
  private readonly open = new Map<unknown, Open>();

  constructor(private readonly delivery: ObserverDelivery) {}

  /** Requests open now (sent, not finished). */
  get openCount(): number {
    return this.open.size;
  }

  /** JSON-RPC messages were sent: each request among them starts (notifications and responses start nothing). */
  sent(messages: readonly Record<string, unknown>[], facts: ClientFacts): void {
    for (const message of messages) {
      if (typeof message.method !== "string" || message.id === undefined) continue;
      this.started(message.id as string | number, message.method, message.params, facts);
    }
  }

  /** One request was sent; omitted whole (start and finish) when the queue is full. */
  started(id: string | number, method: string, rawParams: unknown, facts: ClientFacts): void {
    if (!this.delivery.reservePair()) return;
    const params = typeof rawParams === "object" && rawParams !== null ? (rawParams as Record<string, unknown>) : undefined;
    const request: ObservedRequest = Object.freeze({
      method,
      requestId: id,
      sessionId: facts.sessionId,
      protocolVersion: metaVersion(params) ?? facts.protocolVersion,
      wire: facts.wire,
      endpoint: facts.endpoint,
      startedAt: Date.now(),
      ...optional("params", params),
      ...optional("traceContext", traceContextOf(params)),
    });
    this.open.set(id, { request, origin: performance.now() });
    this.delivery.requestStarted(request);
  }

  /** A message came back: the answer of an open request finishes it with what it says. */
  incoming(message: Record<string, unknown>, errors: readonly unknown[] = NO_ERRORS): void {
    if (!("result" in message) && !("error" in message)) return;
    const open = this.take(message.id);
    if (open === undefined) return;
    const answer = message as { error?: { code: number; message: string }; result?: unknown };
    this.finish(open, responseOutcome(answer), errors, answer);
  }

  /** An open request ended with no answer the client could use (it gave up, or the wire went away). */
  unanswered(id: unknown, outcome: McpRequestOutcome, errors: readonly unknown[] = NO_ERRORS): void {
    const open = this.take(id);
    if (open !== undefined) this.finish(open, outcome, errors);
  }

  /** Every request still open finishes with `outcome` (capture ended, the connection closed). */
  endAll(outcome: McpRequestOutcome, errors: readonly unknown[] = NO_ERRORS): void {
    for (const open of this.open.values()) this.finish(open, outcome, errors);
    this.open.clear();
  }

  private take(id: unknown): Open | undefined {
    const open = this.open.get(id);
    if (open !== undefined) this.open.delete(id);
    return open;
  }

  private finish(open: Open, outcome: McpRequestOutcome, errors: readonly unknown[], answer?: { error?: { code: number; message: string }; result?: unknown }): void {
    this.delivery.requestFinished(
      open.request,
      Object.freeze({ outcome, durationMs: performance.now() - open.origin, errors, ...optional("error", answer?.error), ...optional("result", answer?.result) }),
    );
  }
}

/** A 2026-07-28 request names its version in `_meta`. */
function metaVersion(params: Record<string, unknown> | undefined): string | undefined {
  const version = declaredVersion(params);
  return typeof version === "string" ? version : undefined;
}
