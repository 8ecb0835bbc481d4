/**
 * The requests someone observes, from `request:start` until their `request:end`, by connection.
 * A request whose client cancelled it or went away ends here, at once and once, even while its
 * handler still runs (a hang, a step function that never settles): observers hear what the
 * client saw, not when the handler happened to return.
 */
import type { JsonRpcErrorObject, JsonRpcRequest } from "../protocol/jsonrpc.js";
import { idKey, type Connection } from "./connection.js";
import type { EventHub, NoReplyCause, RequestEndEvent, RequestOutcome, RequestStartEvent } from "./events.js";
import type { WireOutcome } from "./outcome.js";
import type { RequestContext } from "./request-context.js";

/** One observed request between its `request:start` and its `request:end` (one object, no closures: it runs per request). */
export class RequestWatch {
  readonly key: string;
  readonly caught: unknown[] = [];
  private readonly start: RequestStartEvent;
  /** The semantic start (the wire's receipt) on the `performance.now()` clock, for sub-millisecond durations. */
  private readonly origin: number;
  private ended = false;

  constructor(
    private readonly events: EventHub,
    private readonly registry: ObservedRequests,
    private readonly connection: Connection,
    request: JsonRpcRequest,
    context: RequestContext,
  ) {
    this.key = idKey(request.id);
    this.origin = performance.now() - (Date.now() - context.receivedAt);
    this.start = {
      method: request.method,
      wire: context.transport.wire,
      params: request.params,
      requestId: request.id,
      sessionId: connection.id,
      protocolVersion: context.protocolVersion,
      identity: context.identity,
      mount: context.mount,
      receivedAt: context.receivedAt,
    };
    events.emit("request:start", this.start);
  }

  /** The request's outcome as sent: the request ends with it (unless it ended already). */
  end(outcome: WireOutcome): WireOutcome {
    if (outcome.type !== "reply") this.finish(outcome.type, undefined, undefined, outcome.type === "none" ? outcome.cause : undefined);
    else if ("error" in outcome.message) this.finish("error", outcome.message.error, undefined, undefined);
    else this.finish("result", undefined, outcome.message.result, undefined);
    return outcome;
  }

  /** The client cancelled or left, or the session closed: the request ends now, with nothing sent. */
  abandon(cause: NoReplyCause): void {
    this.finish("none", undefined, undefined, cause);
  }

  private finish(outcome: RequestOutcome, error: JsonRpcErrorObject | undefined, result: unknown, noReplyCause: NoReplyCause | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.registry.delete(this.connection, this.key, this);
    const start = this.start;
    const event: RequestEndEvent = {
      start,
      method: start.method,
      wire: start.wire,
      params: start.params,
      requestId: start.requestId,
      sessionId: start.sessionId,
      protocolVersion: start.protocolVersion,
      identity: start.identity,
      mount: start.mount,
      receivedAt: start.receivedAt,
      outcome,
      error,
      result,
      noReplyCause,
      errors: this.caught.length > 0 ? this.caught : undefined,
      durationMs: performance.now() - this.origin,
    };
    this.events.emit("request:end", event);
  }
}

export class ObservedRequests {
  private readonly open = new Map<Connection, Map<string, RequestWatch>>();

  add(connection: Connection, key: string, watch: RequestWatch): void {
    let requests = this.open.get(connection);
    if (requests === undefined) this.open.set(connection, (requests = new Map()));
    requests.set(key, watch);
  }

  delete(connection: Connection, key: string, watch: RequestWatch): void {
    const requests = this.open.get(connection);
    if (requests?.get(key) !== watch) return;
    requests.delete(key);
    if (requests.size === 0) this.open.delete(connection);
  }

  /** Ends one open request with no reply (`cause` says why). */
  abandon(connection: Connection, key: string, cause: NoReplyCause): void {
    this.open.get(connection)?.get(key)?.abandon(cause);
  }

  /** Ends every open request of a connection that closed. */
  abandonAll(connection: Connection, cause: NoReplyCause): void {
    const requests = this.open.get(connection);
    if (requests === undefined) return;
    this.open.delete(connection);
    for (const watch of [...requests.values()]) watch.abandon(cause);
  }
}
