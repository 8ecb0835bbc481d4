/**
 * The requests someone observes, from `request:start` until their `request:end`, by connection.
 * A request whose client cancelled it or went away ends here, at once and once, even while its
 * handler still runs (a hang, a step function that never settles): observers hear what the
 * client saw, not when the handler happened to return.
 */
import type { Connection } from "./connection.js";
import type { NoReplyCause } from "./events.js";

type Abandon = (cause: NoReplyCause) => void;

export class ObservedRequests {
  private readonly open = new Map<Connection, Map<string, Abandon>>();

  add(connection: Connection, key: string, abandon: Abandon): void {
    let requests = this.open.get(connection);
    if (requests === undefined) this.open.set(connection, (requests = new Map()));
    requests.set(key, abandon);
  }

  delete(connection: Connection, key: string, abandon: Abandon): void {
    const requests = this.open.get(connection);
    if (requests?.get(key) !== abandon) return;
    requests.delete(key);
    if (requests.size === 0) this.open.delete(connection);
  }

  /** Ends one open request with no reply (`cause` says why). */
  abandon(connection: Connection, key: string, cause: NoReplyCause): void {
    this.open.get(connection)?.get(key)?.(cause);
  }

  /** Ends every open request of a connection that closed. */
  abandonAll(connection: Connection, cause: NoReplyCause): void {
    const requests = this.open.get(connection);
    if (requests === undefined) return;
    this.open.delete(connection);
    for (const abandon of [...requests.values()]) abandon(cause);
  }
}
