/**
 * The requests a session waits on: each by its JSON-RPC id, with its countdown on one shared timer
 * (`Deadlines`), the holds that pause it while the client itself is busy for the request, and the
 * ids given up on, so that their late answers are expected rather than protocol errors.
 */
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import { Deadlines } from "./deadlines.js";
import type { ErrorFor, JsonObject, ProgressParams } from "./request-types.js";

export interface PendingRequest {
  id: JsonRpcId;
  method: string;
  label: string;
  timeoutMs: number;
  /** When it times out (see `Deadlines`). */
  deadline: number;
  /** How many of the client's own handlers are answering for it now (its countdown waits meanwhile). */
  holds: number;
  cancellable: boolean;
  onProgress: ((progress: ProgressParams) => void) | undefined;
  subject: string | undefined;
  errorFor: ErrorFor;
  timeoutNote: string | undefined;
  resolve: (result: JsonObject) => void;
  reject: (error: Error) => void;
  detach: () => void;
}

/** Ids of requests given up on that are remembered, so their late responses are expected. */
const rememberedGiveUps = 1000;

export class PendingRequests {
  private readonly byId = new Map<JsonRpcId, PendingRequest>();
  private readonly givenUp = new Set<JsonRpcId>();
  private readonly timeouts: Deadlines<PendingRequest>;

  constructor(timedOut: (request: PendingRequest) => void) {
    this.timeouts = new Deadlines<PendingRequest>(() => this.byId.values(), timedOut);
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: unknown): PendingRequest | undefined {
    return typeof id === "string" || typeof id === "number" ? this.byId.get(id) : undefined;
  }

  /** A snapshot, so that settling requests while going through them is safe. */
  all(): PendingRequest[] {
    return [...this.byId.values()];
  }

  /** Waits for `request`; a finite timeout starts its countdown (a long-lived request has none). */
  add(request: PendingRequest): void {
    this.byId.set(request.id, request);
    if (Number.isFinite(request.timeoutMs)) this.timeouts.start(request, request.timeoutMs);
  }

  /** Stops waiting for `request` (whatever ended it); the timer lets the process go once none waits. */
  remove(request: PendingRequest): void {
    request.detach();
    this.byId.delete(request.id);
    if (this.byId.size === 0) this.timeouts.idle();
  }

  /** Whether `id` is a request this session gave up on (its answer may still come). */
  wasGivenUp(id: unknown): boolean {
    return (typeof id === "string" || typeof id === "number") && this.givenUp.has(id);
  }

  rememberGiveUp(id: JsonRpcId): void {
    this.givenUp.add(id);
    if (this.givenUp.size > rememberedGiveUps) this.givenUp.delete(this.givenUp.values().next().value as JsonRpcId);
  }

  /** The request a progress notification is about (its token is the request's id), if it asked for progress. */
  progressOf(token: unknown): PendingRequest | undefined {
    const request = this.get(token);
    return request?.onProgress === undefined ? undefined : request;
  }

  /** A progress notification restarts the countdown, unless a hold pauses it. */
  progressed(request: PendingRequest): void {
    if (Number.isFinite(request.timeoutMs) && request.holds === 0) this.timeouts.start(request, request.timeoutMs);
  }

  /** The requests whose method `which` picks: their ids and labels. */
  where(which: (method: string) => boolean): { id: JsonRpcId; label: string }[] {
    const found: { id: JsonRpcId; label: string }[] = [];
    for (const request of this.byId.values()) if (which(request.method)) found.push({ id: request.id, label: request.label });
    return found;
  }

  /**
   * Stops request `id`'s countdown while the client itself is busy for it. The returned function
   * starts the countdown again from the full timeout, as a progress notification does.
   */
  hold(id: JsonRpcId): () => void {
    const request = this.byId.get(id);
    if (request === undefined || !Number.isFinite(request.timeoutMs)) return noop;
    // An armed timer that fires meanwhile skips it (its deadline never comes) and re-arms for the others.
    request.holds++;
    request.deadline = Infinity;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--request.holds === 0 && this.byId.get(id) === request) this.timeouts.start(request, request.timeoutMs);
    };
  }

  /** `12 (tools/call "echo"), 13 (prompts/get "p")`, or `none`. */
  describe(): string {
    if (this.byId.size === 0) return "none";
    return [...this.byId.values()].map((request) => `${request.id} (${request.label})`).join(", ");
  }

  stopTimer(): void {
    this.timeouts.stop();
  }
}

export function noop(): void {}
