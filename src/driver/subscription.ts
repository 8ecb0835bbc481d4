/**
 * One `subscriptions/listen` (2026-07-28): a long-lived request whose id names the
 * subscription. The server acknowledges it first (`notifications/subscriptions/acknowledged`,
 * with the filter it agreed to), then sends the notifications asked for, each tagged with the id
 * in `_meta`, until the client closes it (its stream on HTTP, `notifications/cancelled` on stdio)
 * or the server ends it with a result.
 */
import { META } from "../protocol/meta-keys.js";
import { isObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import { McpDriverError, RequestTimeoutError } from "./errors.js";
import type { JsonObject, ReceivedNotification } from "./rpc-channel.js";

/** What a subscription asks for (all optional). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  [key: string]: unknown;
}

/** How a subscription ended: by the server's result, by `close()`, or by an error (the connection). */
export type SubscriptionEnd = { by: "server"; result: JsonObject } | { by: "client" } | { by: "error"; error: Error };

export const ACKNOWLEDGED = "notifications/subscriptions/acknowledged";

export class Subscription {
  /** The subscription id: the JSON-RPC id of its `subscriptions/listen` request. */
  id: JsonRpcId | undefined;
  /** The notifications of this subscription, oldest first (the acknowledgement not among them). */
  readonly notifications: ReceivedNotification[] = [];
  /** Resolves with the filter the server agreed to (its acknowledgement). */
  readonly acknowledged: Promise<ListenFilter>;
  /** Resolves when the subscription ends, saying how. */
  readonly ended: Promise<SubscriptionEnd>;
  private acknowledge!: (filter: ListenFilter) => void;
  private failAcknowledgement!: (error: Error) => void;
  private isAcknowledged = false;
  private readonly controller = new AbortController();
  private readonly stopListening: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(
    /** Subscribes to every notification (`"*"`); returns the unsubscribe function. */
    listen: (listener: (notification: ReceivedNotification) => void) => () => void,
    /** The request, sent with this subscription's signal; resolves with the server's closing result. */
    request: (signal: AbortSignal, onId: (id: JsonRpcId) => void) => Promise<JsonObject>,
    acknowledgeTimeoutMs: number,
  ) {
    this.acknowledged = new Promise((resolve, reject) => {
      this.acknowledge = resolve;
      this.failAcknowledgement = reject;
    });
    // Unhandled when the test never asks for it; the failure still shows in `ended`.
    this.acknowledged.catch(() => undefined);
    this.stopListening = listen((notification) => this.receive(notification));
    this.timer = setTimeout(() => {
      if (!this.isAcknowledged) {
        this.failAcknowledgement(
          new RequestTimeoutError(`subscriptions/listen (id ${String(this.id)}) was not acknowledged within ${acknowledgeTimeoutMs} ms: the server must send ${ACKNOWLEDGED} first.`, {
            method: "subscriptions/listen",
            timeoutMs: acknowledgeTimeoutMs,
            cancelled: false,
          }),
        );
      }
    }, acknowledgeTimeoutMs);
    this.ended = request(this.controller.signal, (id) => (this.id = id)).then(
      (result): SubscriptionEnd => ({ by: "server", result }),
      (error: Error): SubscriptionEnd => (this.controller.signal.aborted ? { by: "client" } : { by: "error", error }),
    );
    void this.ended.then((end) => {
      clearTimeout(this.timer);
      this.stopListening();
      if (!this.isAcknowledged) {
        this.failAcknowledgement(
          end.by === "error" ? end.error : new McpDriverError(`subscriptions/listen (id ${String(this.id)}) ended (${end.by}) before it was acknowledged.`, { method: "subscriptions/listen" }),
        );
      }
    });
  }

  /** Ends the subscription from the client side; resolves once it has ended. */
  async close(): Promise<SubscriptionEnd> {
    this.controller.abort(new Error("the client closed the subscription"));
    return await this.ended;
  }

  private receive(notification: ReceivedNotification): void {
    const meta = isObject(notification.params?._meta) ? notification.params._meta : undefined;
    if (this.id === undefined || meta?.[META.subscriptionId] !== this.id) return;
    if (notification.method === ACKNOWLEDGED) {
      this.isAcknowledged = true;
      clearTimeout(this.timer);
      const filter = isObject(notification.params?.notifications) ? notification.params.notifications : {};
      this.acknowledge(filter as ListenFilter);
      return;
    }
    this.notifications.push(notification);
  }
}
