/**
 * Matches responses to their requests by id. Each side numbers its own requests (both the client
 * and the server typically start at 0), so requests are kept per direction: an incoming response
 * answers an outgoing request and vice versa. This is what gives a response its method and a
 * latency measured from its own request, even with many requests in flight.
 */
import type { JsonRpcId } from "../protocol/jsonrpc.js";

export interface PendingRequest {
  method: string;
  /** `performance.now()` when the request was recorded; monotonic, unlike `Date.now()`. */
  sentAt: number;
}

type MessageDirection = "outgoing" | "incoming";

export class RequestCorrelator {
  private readonly pending: Record<MessageDirection, Map<JsonRpcId, PendingRequest>> = {
    outgoing: new Map(),
    incoming: new Map(),
  };

  /** `limit` bounds each direction, so requests that are never answered cannot pile up. */
  constructor(private readonly limit: number) {}

  requestSeen(direction: MessageDirection, id: JsonRpcId, method: string, sentAt: number): void {
    const pending = this.pending[direction];
    pending.delete(id); // a reused id counts as newest, so it is evicted last
    pending.set(id, { method, sentAt });
    if (pending.size > this.limit) {
      // Maps iterate in insertion order: the first key is the oldest request.
      pending.delete(pending.keys().next().value as JsonRpcId);
    }
  }

  /** The request a response travelling in `direction` answers, if it was seen; it is then forgotten. */
  responseSeen(direction: MessageDirection, id: JsonRpcId | null | undefined): PendingRequest | undefined {
    if (id === null || id === undefined) return undefined;
    const requests = this.pending[direction === "incoming" ? "outgoing" : "incoming"];
    const request = requests.get(id);
    requests.delete(id);
    return request;
  }

  /** Drops a request that will get no response (its send failed). */
  forget(direction: MessageDirection, id: JsonRpcId): void {
    this.pending[direction].delete(id);
  }
}
