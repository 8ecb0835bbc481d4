/**
 * One simulated HTTP request: the target's `Response` captured with no socket. The head and
 * the completion are read as often as wanted; SSE items are taken one at a time from a bounded
 * queue (reading frees a slot, never the bytes already counted). Capture ends, with a fixed
 * reason, when the body ends, when `close()` simulates a disconnect, when a limit is reached,
 * or when the target fails; the first reason wins.
 */
import { checkedWait } from "./options.js";
import { SseFramer, type SseFrame } from "./sse-frames.js";
import type { CaptureSink } from "./capture-exchange.js";
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
  /** A message came back (`text`: its JSON as received; `headers`: the response's). */
  incoming(message: Record<string, unknown>, text: string, headers: Readonly<Record<string, string>>): void;
  ended(completion: SimulationCompletion): void;
}

type Waiter = () => void;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Simulation {
  private headValue?: SimulationResponse;
  private completion?: SimulationCompletion;
  private readonly items: SimulationStreamItem[] = [];
  private readonly errors: unknown[] = [];
  private capturedBytes = 0;
  private terminal?: Record<string, unknown>;
  private reader?: ReadableStreamDefaultReader<Uint8Array>;
  private waiters: Waiter[] = [];
  private controller?: AbortController;
  private disconnectListeners?: Array<() => void>;

  /** @internal made by `Simulator.startRequest` */
  constructor(
    private readonly limits: { streamItemQueueCapacity: number; maximumCapturedBytes: number },
    /** The id of the JSON-RPC request sent, if it was one (to find its answer in a stream). */
    private readonly requestId: unknown,
    private readonly listener?: SimulationListener,
  ) {}

  /** @internal The signal the target's `Request` carries: aborted by `close()` (made on first use). */
  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.completion !== undefined && this.completion.reason !== "completed") this.controller.abort();
    return this.controller.signal;
  }

  /** @internal Calls `listener` once when capture ends early (a disconnect or a limit), as an aborted signal would. */
  onDisconnect(listener: () => void): void {
    (this.disconnectListeners ??= []).push(listener);
  }

  /** @internal Captures a target's `Response` (or its failure). */
  async run(answer: Promise<Response>): Promise<void> {
    let response: Response;
    try {
      response = await answer;
    } catch (error) {
      return this.fail(error);
    }
    if (this.completion !== undefined) {
      void response.body?.cancel().catch(() => undefined);
      return;
    }
    const headers: Array<[string, string]> = [];
    response.headers.forEach((value, name) => headers.push([name, value]));
    this.head(response.status, headers);
    if (response.body === null) return this.finishBody();
    const reader = (this.reader = response.body.getReader());
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (this.completion !== undefined) return;
        if (done) break;
        this.chunk(value);
      }
    } catch (error) {
      if (this.completion === undefined) this.fail(error);
      return;
    }
    this.finishBody();
  }

  /** @internal The sink a mock's exchange writes into (no `Response` in between). */
  readonly sink: CaptureSink = {
    head: (status, headers) => this.head(status, isPairs(headers) ? headers.map(([name, value]) => [name, value]) : Object.entries(headers)),
    chunk: (text) => this.chunk(text),
    end: () => this.finishBody(),
    dropped: () => this.fail(new Error("the server dropped the connection before the answer was complete")),
  };

  /** The response head (and body, unless SSE) once known; undefined after `ms` without it (`ms` from 0 to 2147483647: a longer wait is refused). */
  async awaitResponse(ms: number): Promise<SimulationResponse | undefined> {
    await this.waitFor(() => this.headValue !== undefined || this.completion !== undefined, checkedWait(ms, "awaitResponse"));
    return this.headValue;
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

  private pendingHead?: { status: number; headers: Array<[string, string]>; bodyType: SimulationBodyType };
  private chunks: Array<Uint8Array | string> = [];
  private bodySize = 0;
  private framer?: SseFramer;

  /** The response head arrived: an SSE head is readable at once; any other waits for its body. */
  private head(status: number, headers: Array<[string, string]>): void {
    if (this.completion !== undefined || this.pendingHead !== undefined || this.headValue !== undefined) return;
    const type = headers.find(([name]) => name.toLowerCase() === "content-type")?.[1].toLowerCase() ?? "";
    const bodyType: SimulationBodyType = type.startsWith("text/event-stream") ? "sse" : type.startsWith("application/json") ? "json" : "other";
    if (bodyType === "sse") {
      this.framer = new SseFramer();
      this.publishHead(status, headers, "sse");
    } else this.pendingHead = { status, headers, bodyType };
  }

  private chunk(chunk: Uint8Array | string): void {
    if (this.completion !== undefined) return;
    if (this.framer !== undefined) {
      for (const frame of this.framer.push(chunk)) if (!this.take(frame)) return;
      return;
    }
    const size = typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (this.capturedBytes + this.bodySize + size > this.limits.maximumCapturedBytes) {
      const head = this.pendingHead!;
      this.pendingHead = undefined;
      this.chunks = [];
      this.capturedBytes = this.limits.maximumCapturedBytes;
      this.publishHead(head.status, head.headers, head.bodyType, undefined, true);
      return this.end("capture_byte_limit");
    }
    this.bodySize += size;
    this.chunks.push(chunk);
  }

  /** The body ended: a whole body is published with its head; a stream completes. */
  private finishBody(): void {
    if (this.completion !== undefined) return;
    if (this.framer !== undefined) {
      const rest = this.framer.rest;
      if (rest.trim() !== "") this.errors.push(new Error(`the SSE stream ended inside an event: ${JSON.stringify(rest.slice(0, 80))}`));
      return this.end("completed");
    }
    const head = this.pendingHead;
    if (head === undefined) return this.end("completed");
    this.pendingHead = undefined;
    // A mock writes text: it is kept, so the JSON is parsed from it with no decode of its bytes.
    const chunks = this.chunks;
    const text = chunks.every((chunk) => typeof chunk === "string") ? chunks.join("") : undefined;
    const body = text === undefined ? joinBody(chunks, this.bodySize) : encoder.encode(text);
    this.chunks = [];
    this.capturedBytes += body.byteLength;
    this.publishHead(head.status, head.headers, body.byteLength === 0 ? "empty" : head.bodyType, body, false, text);
    this.end("completed");
  }

  private fail(error: unknown): void {
    if (this.completion !== undefined) return;
    this.errors.push(error);
    const head = this.pendingHead;
    if (head !== undefined) {
      this.pendingHead = undefined;
      this.publishHead(head.status, head.headers, head.bodyType);
    }
    this.end("internal_error");
  }

  private publishHead(status: number, headers: Array<[string, string]>, bodyType: SimulationBodyType, body?: Uint8Array, oversized = false, text?: string): void {
    const json = bodyType === "json" && body !== undefined ? this.parseJson(text ?? decoder.decode(body)) : undefined;
    const byName: Record<string, string> = Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value]));
    const head: SimulationResponse = {
      status,
      headers,
      // Own names only: `header("constructor")` is no header.
      header: (name) => {
        const key = name.toLowerCase();
        return Object.hasOwn(byName, key) ? byName[key] : undefined;
      },
      bodyType,
      oversized,
      ...(body !== undefined && { body }),
      ...(json !== undefined && { json }),
    };
    this.headValue = Object.freeze(head);
    this.responseHeaders = byName;
    if (json !== undefined && typeof json === "object" && json !== null && !Array.isArray(json)) {
      this.terminal = json as Record<string, unknown>;
      this.listener?.incoming(this.terminal, this.bodyText!, this.responseHeaders);
    } else if (Array.isArray(json))
      for (const message of json) if (typeof message === "object" && message !== null) this.listener?.incoming(message as Record<string, unknown>, JSON.stringify(message), this.responseHeaders);
    this.wake();
  }

  private bodyText?: string;
  /** The response's headers by lower-case name, for the recorder's header checks. */
  private responseHeaders?: Readonly<Record<string, string>>;

  private parseJson(text: string): unknown {
    try {
      return JSON.parse((this.bodyText = text));
    } catch (error) {
      this.errors.push(error);
      return undefined;
    }
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
      // An SSE head is published (with its headers) before the first frame is read.
      this.listener?.incoming(item.message, (frame as Extract<SseFrame, { kind: "event" }>).event.data, this.responseHeaders!);
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
      this.controller?.abort();
      for (const listener of this.disconnectListeners?.splice(0) ?? []) listener();
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

function joinBody(chunks: Array<Uint8Array | string>, size: number): Uint8Array {
  if (chunks.length === 1 && typeof chunks[0] !== "string") return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    const part = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}

function isPairs(headers: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>): headers is ReadonlyArray<readonly [string, string]> {
  return Array.isArray(headers);
}
