/**
 * The notification inbox: every notification the server sent (a bounded journal), waits for
 * some (each with its timeout), and listeners by method. A listener or `where` test that throws
 * is contained: it must not stop the others or the session.
 */
import { BoundedJournal } from "../inspect/journal.js";
import { waitWithTimeout } from "../util/wait-with-timeout.js";
import { waitArgumentsProblem } from "../engine/wait-checks.js";
import { typeLabel } from "../util/text.js";
import { McpTestkitError } from "../errors.js";
import { ConnectionClosedError, McpDriverError, type ProcessContext } from "./errors.js";
import type { JsonObject, ReceivedNotification } from "./rpc-channel.js";

export interface WaitForNotificationOptions {
  /** How long to wait, in ms (default: the driver's `requestTimeout`; at most 2147483647, a longer one is refused). */
  timeoutMs?: number;
  /** Only notifications whose params pass this test count. */
  where?: (params: JsonObject | undefined) => boolean;
}

const OPTION_KINDS = { timeoutMs: "number", where: "function" } as const;

interface Waiter {
  method: string;
  where: WaitForNotificationOptions["where"];
  count: number;
  found: ReceivedNotification[];
  /** Settle the wait (util/wait-with-timeout.ts: the first of these or the timeout wins). */
  done: (found: ReceivedNotification[]) => void;
  fail: (error: unknown) => void;
}

export class NotificationInbox {
  private readonly received: BoundedJournal<ReceivedNotification>;
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Map<string, Set<(notification: ReceivedNotification) => void>>();

  constructor(
    maxRecords: number,
    private readonly defaultTimeoutMs: number,
    private readonly processContext: () => ProcessContext | undefined,
  ) {
    this.received = new BoundedJournal(maxRecords);
  }

  get all(): ReceivedNotification[] {
    return this.received.toArray();
  }

  clear(): void {
    this.received.clear();
  }

  /** Resolves with the first `count` notifications of `method` (passing `where`), waiting for them if needed. */
  waitFor(method: string, count: number, options: WaitForNotificationOptions, api = "waitForNotifications"): Promise<ReceivedNotification[]> {
    const problem =
      typeof method === "string" && method !== ""
        ? waitArgumentsProblem(api, count, options, OPTION_KINDS)
        : new McpTestkitError(`${api}(): the method must be a notification method such as "notifications/message", got ${typeLabel(method)}.`);
    if (problem) return Promise.reject(problem);
    const where = options.where;
    const matches = (notification: ReceivedNotification) => notification.method === method && (where === undefined || where(notification.params));
    const found = this.all.filter(matches).slice(0, count);
    if (found.length >= count) return Promise.resolve(found);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return waitWithTimeout<ReceivedNotification[]>(
      (done, fail) => {
        const waiter: Waiter = { method, where, count, found, done, fail };
        this.waiters.add(waiter);
        return () => this.waiters.delete(waiter);
      },
      timeoutMs,
      () =>
        new McpDriverError(
          `Waited ${timeoutMs} ms for ${count === 1 ? "a" : `${count}`} ${method} notification${count === 1 ? "" : "s"}${where ? " matching `where`" : ""}; ` +
            `got ${found.length}. Notifications received: ${this.describe()}.`,
          { method, process: this.processContext() },
        ),
    );
  }

  /** Calls `listener` for each notification of `method` (`"*"` for all); returns an unsubscribe function. */
  listen(method: string, listener: (notification: ReceivedNotification) => void): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  receive(notification: ReceivedNotification): void {
    this.received.push(notification);
    for (const waiter of [...this.waiters]) {
      if (waiter.method !== notification.method) continue;
      let matched: boolean;
      try {
        matched = waiter.where === undefined || waiter.where(notification.params);
      } catch (error) {
        waiter.fail(error);
        continue;
      }
      if (!matched) continue;
      waiter.found.push(notification);
      if (waiter.found.length >= waiter.count) waiter.done(waiter.found);
    }
    for (const key of [notification.method, "*"]) {
      for (const listener of this.listeners.get(key) ?? []) {
        try {
          listener(notification);
        } catch {
          // A throwing listener must not stop the others or the session.
        }
      }
    }
  }

  /** The driver closed: every wait fails now rather than at its timeout. */
  close(): void {
    // Each failed wait removes itself from the set, so the loop walks a copy.
    for (const waiter of [...this.waiters]) {
      waiter.fail(new ConnectionClosedError(`close() was called while waiting for a ${waiter.method} notification.`, { method: waiter.method }));
    }
  }

  /** The server went away on its own (its process exited, its URL refuses connections): no notification can come, so every wait fails now. */
  serverGone(why: string): void {
    for (const waiter of [...this.waiters]) {
      waiter.fail(
        new ConnectionClosedError(
          `The server ended (${why}) while waiting for ${waiter.count === 1 ? "a" : `${waiter.count}`} ${waiter.method} notification${waiter.count === 1 ? "" : "s"}; got ${waiter.found.length}, and no more can come. Notifications received: ${this.describe()}.`,
          { method: waiter.method, process: this.processContext() },
        ),
      );
    }
  }

  /** `notifications/message ×3, notifications/progress ×1`, or `none`. */
  describe(): string {
    const counts = new Map<string, number>();
    for (const { method } of this.received.toArray()) counts.set(method, (counts.get(method) ?? 0) + 1);
    if (counts.size === 0) return "none";
    return [...counts].map(([method, count]) => `${method} ×${count}`).join(", ");
  }
}
