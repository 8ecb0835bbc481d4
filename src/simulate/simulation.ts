/**
 * One simulated HTTP request: the target's `Response` captured with no socket. The head and
 * the completion are read as often as wanted; SSE items are taken one at a time from a bounded
 * queue (reading frees a slot, never the bytes already counted). Capture ends, with a fixed
 * reason, when the body ends, when `close()` simulates a disconnect, when a limit is reached,
 * or when the target fails; the first reason wins.
 */
import { checkedWait } from "./options.js";
import { SseFramer, type SseFrame } from "./sse-frames.js";
import type { StreamTerminationReason } from "../observe/outcomes.js";

export type SimulationBodyType = "empty" | "json" | "sse" | "other";

export interface SimulationResponse {
  readonly status: number;
  /** Every header as the response gave it (lower-case names), in its order. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  header(name: string): string | undefined;
  readonly bodyType: SimulationBodyType;
  /** The body's bytes for `empty` (zero length), `json` and `other`; absent for `sse` (read the items) and when oversized. */
  readonly body?: Uint8Array;
  /** The parsed JSON body (`json` only; absent when oversized or not JSON). */
  readonly json?: unknown;
  /** The body passed `maximumCapturedBytes`: it is reported without a body. */
  readonly oversized: boolean;
}

interface ItemBase {
  /** The item's SSE text exactly as the server wrote it, whole (however it was chunked), as bytes. */
  readonly encoded: Uint8Array;
}

export type SimulationStreamItem =
  | (ItemBase & { readonly kind: "message"; readonly message: Record<string, unknown>; readonly eventId?: string })
  | (ItemBase & { readonly kind: "keep-alive"; readonly comment: string })
  /** An event with an id and no data (the priming event of a resumable stream, 2025-11-25). */
  | (ItemBase & { readonly kind: "priming"; readonly eventId?: string });

/** Why capture ended: a stream termination reason (`completed`, `client_disconnected`, the capture limits, `internal_error`). */
export type SimulationTerminationReason = Extract<StreamTerminationReason, "completed" | "client_disconnected" | "capture_item_limit" | "capture_byte_limit" | "internal_error">;

export interface SimulationCompletion {
  readonly reason: SimulationTerminationReason;
  /** The JSON-RPC response that answered the request (a JSON body, or the SSE message with its id), if one came. */
  readonly terminalMessage?: Record<string, unknown>;
  /** What went wrong, in order: the target's throw, a body that failed, JSON that did not parse. */
  readonly errors: readonly unknown[];
}

/** What the simulation tells its simulator: messages seen, and the end. */
export interface SimulationListener {
  incoming(message: Record<string, unknown>): void;
  ended(completion: SimulationCompletion): void;
}

type Waiter = () => void;

const encoder = new TextEncoder();

export class Simulation {
  private head?: SimulationResponse;
  private completion?: SimulationCompletion;
  private readonly items: SimulationStreamItem[] = [];
  private readonly errors: unknown[] = [];
  private capturedBytes = 0;
  private terminal?: Record<string, unknown>;
  private reader?: ReadableStreamDefaultReader<Uint8Array>;
  private waiters: Waiter[] = [];
  private readonly controller = new AbortController();

  /** @internal made by `Simulator.startRequest` */
  constructor(
    private readonly limits: { streamItemQueueCapacity: number; maximumCapturedBytes: number },
    /** The id of the JSON-RPC request sent, if it was one (to find its answer in a stream). */
    private readonly requestId: unknown,
    private readonly listener?: SimulationListener,
  ) {}

  /** @internal The signal the target's `Request` carries: aborted by `close()`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** @internal Captures the target's answer (or its failure). */
  async run(answer: Promise<Response>): Promise<void> {
    let response: Response;
    try {
      response = await answer;
    } catch (error) {
      this.errors.push(error);
      return this.end("internal_error");
    }
    if (this.completion !== undefined) {
      void response.body?.cancel().catch(() => undefined);
      return;
    }
    const type = response.headers.get("content-type")?.toLowerCase() ?? "";
    const headers: Array<[string, string]> = [];
    response.headers.forEach((value, name) => headers.push([name, value]));
    if (response.body !== null && type.startsWith("text/event-stream")) {
      this.setHead(response, headers, "sse");
      return this.captureStream(response.body);
    }
    await this.captureBody(response, headers, type);
  }

  /** The response head (and body, unless SSE) once known; undefined after `ms` without it. */
  async awaitResponse(ms: number): Promise<SimulationResponse | undefined> {
    await this.waitFor(() => this.head !== undefined || this.completion !== undefined, checkedWait(ms, "awaitResponse"));
    return this.head;
  }

  /** Takes the next SSE item (a message, a keep-alive comment, a priming event); undefined after `ms` or once none can come. */
  async awaitStreamItem(ms: number): Promise<SimulationStreamItem | undefined> {
    await this.waitFor(() => this.items.length > 0 || this.completion !== undefined, checkedWait(ms, "awaitStreamItem"));
    return this.items.shift();
  }

  /** How capture ended; undefined after `ms` while it goes on. */
  async awaitCompletion(ms: number): Promise<SimulationCompletion | undefined> {
    await this.waitFor(() => this.completion !== undefined, checkedWait(ms, "awaitCompletion"));
    return this.completion;
  }

  /** Whether capture ended (items may still wait to be read). */
  get isComplete(): boolean {
    return this.completion !== undefined;
  }

  /** SSE items captured and not read yet. */
  get pendingItems(): number {
    return this.items.length;
  }

  /** Bytes captured so far (never less after reading). */
  get bytesCaptured(): number {
    return this.capturedBytes;
  }

  /** Simulates the client disconnecting (idempotent; an earlier end keeps its reason; what was captured stays readable). */
  close(): void {
    this.end("client_disconnected");
  }

  [Symbol.dispose](): void {
    this.close();
  }

  private setHead(response: Response, headers: Array<[string, string]>, bodyType: SimulationBodyType, body?: Uint8Array, oversized = false): void {
    const json = bodyType === "json" && body !== undefined ? this.parseJson(body) : undefined;
    const head: SimulationResponse = {
      status: response.status,
      headers,
      header: (name) => response.headers.get(name) ?? undefined,
      bodyType,
      oversized,
      ...(body !== undefined && { body }),
      ...(json !== undefined && { json }),
    };
    this.head = Object.freeze(head);
    if (json !== undefined && typeof json === "object" && json !== null && !Array.isArray(json)) {
      this.terminal = json as Record<string, unknown>;
      this.listener?.incoming(this.terminal);
    } else if (Array.isArray(json)) for (const message of json) if (typeof message === "object" && message !== null) this.listener?.incoming(message as Record<string, unknown>);
    this.wake();
  }

  private parseJson(body: Uint8Array): unknown {
    try {
      return JSON.parse(new TextDecoder().decode(body));
    } catch (error) {
      this.errors.push(error);
      return undefined;
    }
  }

  /** A whole (non-SSE) body: kept unless it passes the byte limit (then reported without a body). */
  private async captureBody(response: Response, headers: Array<[string, string]>, type: string): Promise<void> {
    const bodyType: SimulationBodyType = type.startsWith("application/json") ? "json" : "other";
    if (response.body === null) {
      this.setHead(response, headers, "empty", new Uint8Array(0));
      return this.end("completed");
    }
    const reader = (this.reader = response.body.getReader());
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (this.capturedBytes + size > this.limits.maximumCapturedBytes) {
          this.capturedBytes = this.limits.maximumCapturedBytes;
          this.setHead(response, headers, bodyType, undefined, true);
          return this.end("capture_byte_limit");
        }
        chunks.push(value);
      }
    } catch (error) {
      if (this.completion !== undefined) return;
      this.errors.push(error);
      this.setHead(response, headers, bodyType);
      return this.end("internal_error");
    }
    this.capturedBytes += size;
    const body = concat(chunks, size);
    this.setHead(response, headers, size === 0 ? "empty" : bodyType, body);
    this.end("completed");
  }

  private async captureStream(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = (this.reader = body.getReader());
    const framer = new SseFramer();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.completion !== undefined) return;
        if (done) break;
        for (const frame of framer.push(value)) if (!this.take(frame)) return;
      }
    } catch (error) {
      if (this.completion !== undefined) return;
      this.errors.push(error);
      return this.end("internal_error");
    }
    if (framer.rest.trim() !== "") this.errors.push(new Error(`the SSE stream ended inside an event: ${JSON.stringify(framer.rest.slice(0, 80))}`));
    this.end("completed");
  }

  /** Queues one frame as an item; false once capture had to stop. */
  private take(frame: SseFrame): boolean {
    const encoded = encoder.encode(frame.encoded);
    if (this.capturedBytes + encoded.byteLength > this.limits.maximumCapturedBytes) {
      this.end("capture_byte_limit");
      return false;
    }
    this.capturedBytes += encoded.byteLength;
    const item = this.itemOf(frame, encoded);
    if (item === undefined) return false;
    if (this.items.length >= this.limits.streamItemQueueCapacity) {
      this.end("capture_item_limit");
      return false;
    }
    this.items.push(item);
    if (item.kind === "message") {
      this.listener?.incoming(item.message);
      if (this.requestId !== undefined && item.message.id === this.requestId && ("result" in item.message || "error" in item.message)) this.terminal = item.message;
    }
    this.wake();
    return true;
  }

  private itemOf(frame: SseFrame, encoded: Uint8Array): SimulationStreamItem | undefined {
    if (frame.kind === "comment") return Object.freeze({ kind: "keep-alive", comment: frame.comment, encoded });
    const { event } = frame;
    const eventId = event.id;
    if (event.data === "") return Object.freeze({ kind: "priming", encoded, ...(eventId !== undefined && { eventId }) });
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      this.errors.push(error);
      this.end("internal_error");
      return undefined;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.errors.push(new Error(`an SSE event whose data is not one JSON-RPC message: ${event.data.slice(0, 80)}`));
      this.end("internal_error");
      return undefined;
    }
    return Object.freeze({ kind: "message", message: message as Record<string, unknown>, encoded, ...(eventId !== undefined && { eventId }) });
  }

  /** The first end wins: later ones (a close after the body ended) change nothing. */
  private end(reason: SimulationTerminationReason): void {
    if (this.completion !== undefined) return;
    this.completion = Object.freeze({ reason, errors: Object.freeze([...this.errors]), ...(this.terminal !== undefined && { terminalMessage: this.terminal }) });
    if (reason !== "completed") {
      this.controller.abort();
      void this.reader?.cancel().catch(() => undefined);
    }
    this.listener?.ended(this.completion);
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves when `ready()` holds or after `ms`, whichever is first; leaves no timer behind. */
  private waitFor(ready: () => boolean, ms: number): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const check = (): void => {
        if (ready()) done();
        else this.waiters.push(check);
      };
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.push(check);
    });
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
