/**
 * Bounded, contained delivery to observers. Every request or stream observation is a pair
 * (start and finish, or open and close) whose two slots are reserved when it starts: when the
 * queue is full the pair is omitted whole, never half of it, with one rate-limited diagnostic.
 * Delivery happens after the current tick (the client's answer is written first); a callback
 * that returns a promise keeps its slot until the promise settles, so a slow observer fills its
 * own queue and loses observations instead of slowing the server. A callback that throws is
 * reported once, with a fixed message and no client data.
 */
import type { McpObserver, ObservationDiagnostic, ObservedRequest, ObservedServer, ObservedStream, RequestFinish, ServerStopResult, StreamClosure } from "./observer.js";
import { McpTestkitError } from "../errors.js";

/** Slots per observer queue by default: 512 request or stream pairs in flight or waiting. */
export const DEFAULT_OBSERVATION_QUEUE_CAPACITY = 1024;
/** The omission diagnostic comes at most once per this many milliseconds. */
export const OMISSION_DIAGNOSTIC_INTERVAL_MS = 60_000;
/** Deliveries per turn of the event loop, so a burst of observations never starves I/O. */
const DELIVERIES_PER_TURN = 256;

export interface ObserveOptions {
  /** Slots in the delivery queue (default 1024); each request or stream takes two, reserved at its start. */
  queueCapacity?: number;
  /** Where diagnostics go (default: a line on stderr). Messages are fixed and carry no client data. */
  onDiagnostic?: (diagnostic: ObservationDiagnostic) => void;
}

type RequestCallback = "requestDidStart" | "requestDidFinish";
type StreamCallback = "streamDidOpen" | "streamDidClose" | "subscriptionDidOpen" | "subscriptionDidClose";
type LifecycleCallback = "serverWillStart" | "serverDidStart" | "serverDidFailToStart" | "serverWillStop" | "serverDidStop";

const reportToStderr = (diagnostic: ObservationDiagnostic): void => {
  console.warn(`mcp-testkit: ${diagnostic.message}`);
};

export class ObserverDelivery {
  readonly capacity: number;
  private reserved = 0;
  private readonly queue: Array<{ callback: RequestCallback | StreamCallback; first: unknown; second: unknown }> = [];
  private scheduled = false;
  private readonly failed = new Set<string>();
  private omitted = 0;
  private lastOmissionReport = -Infinity;
  private readonly report: (diagnostic: ObservationDiagnostic) => void;

  constructor(
    private readonly observers: readonly McpObserver[],
    options: ObserveOptions = {},
  ) {
    const capacity = options.queueCapacity ?? DEFAULT_OBSERVATION_QUEUE_CAPACITY;
    if (!Number.isInteger(capacity) || capacity < 2) throw new McpTestkitError(`"queueCapacity" must be a whole number of slots, 2 or more (a request takes two), got ${String(capacity)}.`);
    for (const [index, observer] of observers.entries()) {
      if (typeof observer !== "object" || observer === null)
        throw new McpTestkitError(`Observer #${index} must be an object with callbacks such as requestDidFinish, got ${observer === null ? "null" : typeof observer}.`);
    }
    this.capacity = capacity;
    this.report = options.onDiagnostic ?? reportToStderr;
  }

  /** Slots taken now (reserved or waiting for a slow observer). */
  get slotsInUse(): number {
    return this.reserved;
  }

  /** Pairs omitted since the start because the queue was full. */
  get omittedPairs(): number {
    return this.omitted;
  }

  /** Reserves the two slots of a pair; false when the queue is full (the pair is then omitted whole). */
  reservePair(): boolean {
    if (this.reserved + 2 > this.capacity) {
      this.omitted++;
      this.reportOmission();
      return false;
    }
    this.reserved += 2;
    return true;
  }

  requestStarted(request: ObservedRequest): void {
    this.enqueue("requestDidStart", request);
  }

  requestFinished(request: ObservedRequest, finish: RequestFinish): void {
    this.enqueue("requestDidFinish", request, finish);
  }

  streamOpened(stream: ObservedStream): void {
    this.enqueue(stream.kind === "subscription" ? "subscriptionDidOpen" : "streamDidOpen", stream);
  }

  streamClosed(stream: ObservedStream, closure: StreamClosure): void {
    this.enqueue(stream.kind === "subscription" ? "subscriptionDidClose" : "streamDidClose", stream, closure);
  }

  /** Lifecycle callbacks run now, at the transition (they are few and must keep their order with it). */
  lifecycle(callback: LifecycleCallback, server: ObservedServer, extra?: unknown): void {
    for (const [index, observer] of this.observers.entries()) {
      const fn = observer[callback] as ((server: ObservedServer, extra?: unknown) => void) | undefined;
      if (fn === undefined) continue;
      try {
        fn.call(observer, server, extra as ServerStopResult);
      } catch {
        this.reportFailure(observer, index, callback);
      }
    }
  }

  /** One reserved slot's worth: every observer's `callback`, delivered after this tick. */
  private enqueue(callback: RequestCallback | StreamCallback, first: unknown, second?: unknown): void {
    this.queue.push({ callback, first, second });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    const queue = this.queue;
    const count = Math.min(queue.length, DELIVERIES_PER_TURN);
    for (let index = 0; index < count; index++) {
      const task = queue[index]!;
      this.callAll(task.callback, task.first, task.second);
    }
    queue.splice(0, count);
    if (queue.length > 0) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  };

  /** Calls `callback` on every observer; the slot is freed when all of them (and their promises) are done. */
  private callAll(callback: RequestCallback | StreamCallback, first: unknown, second: unknown): void {
    // The common case, callbacks that return nothing, frees the slot with no closure made.
    let waiting = 1;
    let done: (() => void) | undefined;
    const observers = this.observers;
    for (let index = 0; index < observers.length; index++) {
      const observer = observers[index]!;
      const fn = observer[callback] as ((a: unknown, b: unknown) => unknown) | undefined;
      if (fn === undefined) continue;
      let returned: unknown;
      try {
        returned = fn.call(observer, first, second);
      } catch {
        this.reportFailure(observer, index, callback);
        continue;
      }
      if (isThenable(returned)) {
        waiting++;
        done ??= () => {
          if (--waiting === 0) this.reserved--;
        };
        const settled = done;
        returned.then(settled, () => {
          this.reportFailure(observer, index, callback);
          settled();
        });
      }
    }
    if (done === undefined) this.reserved--;
    else done();
  }

  private reportFailure(observer: McpObserver, index: number, callback: string): void {
    const key = `${index}:${callback}`;
    if (this.failed.has(key)) return;
    this.failed.add(key);
    const name = typeof observer.name === "string" ? `observer "${observer.name}"` : `observer #${index}`;
    this.diagnose({ type: "observer_failed", message: `${name} failed in ${callback}; the client was not affected. Later failures of this callback are not reported.` });
  }

  private reportOmission(): void {
    const now = Date.now();
    if (now - this.lastOmissionReport < OMISSION_DIAGNOSTIC_INTERVAL_MS) return;
    this.lastOmissionReport = now;
    this.diagnose({
      type: "observations_omitted",
      message: `the observer queue is full (${this.capacity} slots): observations are omitted whole, start and finish together (${this.omitted} so far). Keep observer callbacks quick, or raise queueCapacity. Reported at most once a minute.`,
    });
  }

  private diagnose(diagnostic: ObservationDiagnostic): void {
    try {
      this.report(diagnostic);
    } catch {
      // A diagnostic sink that throws must not reach the client either.
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
