/**
 * Following list changes in 2026-07-28. The legacy era hears `notifications/*\/list_changed` on
 * its session; 2026-07-28 has no session, so they come only through `subscriptions/listen`.
 * Once the driver asks for its first list, this opens one subscription for the lists the server
 * says change (`listChanged` in its capabilities); its notifications reach the list cache and the
 * notification inbox by the same path as the legacy ones. The first list is handed back once the
 * server acknowledged (or refused) it, so a change made after the caller saw a list is followed.
 * A server that ends the subscription (or whose stream for it breaks) makes the cached lists
 * stale and gets a new one with the next list fetched; one that
 * refuses it (an error, no acknowledgement in time) is not asked again (`failure` says why), and
 * the lists then go stale only by their `ttlMs`. `close()` ends it before the connection goes.
 */
import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { LIST_KINDS } from "../protocol/list-kinds.js";
import type { ListenFilter, Subscription } from "./subscription.js";
import { settlesWithin } from "../util/settle-within.js";

type State =
  | { kind: "idle" }
  | { kind: "opening"; subscription: Subscription; acknowledged: Promise<void> }
  | { kind: "open"; subscription: Subscription }
  | { kind: "failed"; error: Error }
  | { kind: "unneeded" }
  | { kind: "closed" };

/** The lists a server says change, as a `subscriptions/listen` filter; undefined when none. */
function listChangeFilter(capabilities: ServerCapabilities): ListenFilter | undefined {
  const filter: ListenFilter = {};
  for (const { capability, listenFlag } of LIST_KINDS) {
    if ((capabilities[capability] as { listChanged?: unknown } | undefined)?.listChanged === true) filter[listenFlag] = true;
  }
  return Object.keys(filter).length === 0 ? undefined : filter;
}

export class ListChangeFollower {
  private state: State = { kind: "idle" };

  constructor(
    /** Opens a subscription for `filter` (the request goes out at once, before a list request made after it). */
    private readonly open: (filter: ListenFilter) => Subscription,
    /** The subscription lapsed (the server ended it, or its stream broke): changes may have been missed, so the lists are stale. */
    private readonly lapsed: () => void = () => undefined,
  ) {}

  /** The subscription following the lists, while one is open. */
  get subscription(): Subscription | undefined {
    return this.state.kind === "opening" || this.state.kind === "open" ? this.state.subscription : undefined;
  }

  /** Why the server's lists are not followed, when it refused the subscription. */
  get failure(): Error | undefined {
    return this.state.kind === "failed" ? this.state.error : undefined;
  }

  /**
   * A list is about to be fetched in the modern era from a server with `capabilities`: makes
   * sure a subscription follows the lists. Resolves (never rejects) once the subscription is
   * acknowledged or refused; undefined when there is nothing to wait for.
   */
  follow(capabilities: ServerCapabilities): Promise<void> | undefined {
    switch (this.state.kind) {
      case "opening":
        return this.state.acknowledged;
      case "idle":
        break;
      default:
        return undefined;
    }
    const filter = listChangeFilter(capabilities);
    if (filter === undefined) {
      this.state = { kind: "unneeded" };
      return undefined;
    }
    const subscription = this.open(filter);
    const acknowledged = subscription.acknowledged.then(
      () => {
        if (this.state.kind === "opening" && this.state.subscription === subscription) this.state = { kind: "open", subscription };
      },
      (error: Error) => {
        if (this.subscription === subscription) this.state = { kind: "failed", error };
        // Not acknowledged in time: the request may still be open on the server, so end it.
        void subscription.close();
      },
    );
    this.state = { kind: "opening", subscription, acknowledged };
    void subscription.ended.then((end) => {
      // Ended by the server, or lost once it was open (its stream broke): the next list fetched
      // opens a new one, and the cached lists go stale, since changes may have come meanwhile.
      // A refusal before the acknowledgement is handled above.
      const lapsed = end.by === "server" || (end.by === "error" && this.state.kind === "open");
      if (lapsed && this.subscription === subscription) {
        this.state = { kind: "idle" };
        this.lapsed();
      }
    });
    return acknowledged;
  }

  /** Ends the subscription (the client's way: its stream closed, or notifications/cancelled), waiting at most `timeoutMs`. */
  async close(timeoutMs: number): Promise<void> {
    const subscription = this.subscription;
    this.state = { kind: "closed" };
    if (subscription === undefined) return;
    await settlesWithin(subscription.close(), timeoutMs);
  }
}
