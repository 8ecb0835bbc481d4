/**
 * The simulator's own `HttpExchange` for a mock: the endpoint reads the synthetic request and
 * writes its answer straight into the simulation — no socket, and no `Response` or web stream in
 * between (those cost more than the mock's whole handling of a call). A mock's `fetch` takes the
 * same route through the same endpoint; only the envelope differs.
 */
import type { CallerAuth } from "../engine/request-context.js";
import { BODY_TOO_LARGE, cancelBody, type BodyCut, type SocketConnection, type HttpExchange, type StreamSink } from "../wire/http/exchange.js";
import { ResponseHead } from "../wire/http/response-head.js";
import type { SimulatedRequest } from "./request-input.js";

/** Where the exchange writes: the head, then the body as text, then the end (or a dropped connection). */
export interface CaptureSink {
  /** The head; headers as a record, or as pairs when a name repeats (each `set-cookie` apart). */
  head(status: number, headers: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>): void;
  chunk(text: string): void;
  end(): void;
  /** The mock dropped the connection (a `disconnect` step): no (further) answer. */
  dropped(): void;
}

export class CaptureExchange extends ResponseHead implements HttpExchange {
  readonly wire = "http";
  auth?: CallerAuth;
  readonly method: string;
  readonly path: string;
  private readonly search: string;
  private parsedQuery?: URLSearchParams;
  private distinct?: Record<string, string[] | undefined> | Headers;
  private answered = false;
  private readonly abortListeners: Array<() => void> = [];
  private stream?: { closed: boolean; connection: { destroyed: boolean }; onCancel?: () => void };

  constructor(
    private readonly request: SimulatedRequest,
    private readonly sink: CaptureSink,
    /** Registers a listener for the simulated client leaving. */
    onDisconnect: (listener: () => void) => void,
  ) {
    super();
    this.method = request.method;
    this.path = request.path;
    this.search = request.search;
    onDisconnect(() => this.clientLeft());
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.search));
  }

  get hasQuery(): boolean {
    return this.search !== "";
  }

  /**
   * From a `Request`, its `Headers` (which join repeated values); from a plain init, each value
   * apart. Read once: the request's getter builds a new record each time, and the endpoint asks
   * for it more than once per request (identity, each tools/call's mirrored headers).
   */
  get distinctHeaders(): Record<string, string[] | undefined> | Headers {
    return (this.distinct ??= this.request.distinctHeaders);
  }

  header(name: string): string | undefined {
    return this.request.header(name);
  }

  /** As a mock's `fetch` reads it: the `Host` the simulated request carries (its URL is not a request target). */
  get authority(): string | undefined {
    return this.request.header("host");
  }

  readonly authorityFromTarget = false;

  get hasFragment(): boolean {
    return this.request.url.includes("#");
  }

  hasAnyHeader(names: readonly string[]): boolean {
    return names.some((name) => this.request.header(name) !== undefined);
  }

  /** The text read once by the simulator (for its recorder too): no second decode. */
  readBody(limitBytes: number, then: (body: string | typeof BODY_TOO_LARGE) => void): void {
    then(this.request.byteLength > limitBytes ? BODY_TOO_LARGE : (this.request.text ?? ""));
  }

  respond(status: number, headers: Readonly<Record<string, string>>, body?: string): void {
    if (this.answered) return;
    this.answered = true;
    this.headSent(status, headers);
    this.sink.head(status, body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) });
    if (body !== undefined && status !== 202 && status !== 204) this.sink.chunk(body);
    this.sink.end();
  }

  openStream(status: number, headers: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>): StreamSink {
    this.answered = true;
    const stream: NonNullable<CaptureExchange["stream"]> = { closed: false, connection: { destroyed: false } };
    this.stream = stream;
    // Pairs come only from a mounted handler's `Response`, never with an MCP answer.
    if (!Array.isArray(headers)) this.headSent(status, headers as Readonly<Record<string, string>>);
    this.sink.head(status, headers);
    const sink = this.sink;
    return {
      write: (chunk) => {
        if (!stream.closed) sink.chunk(chunk);
      },
      end: () => {
        if (stream.closed) return;
        stream.closed = true;
        sink.end();
      },
      get closed() {
        return stream.closed;
      },
      connection: stream.connection as SocketConnection,
      watchClose: (listener) => {
        stream.onCancel = listener;
      },
    };
  }

  /** A mounted handler's `Response`: its head, then its body read chunk by chunk into the simulation (as text, as the sink takes it). */
  respondWith(response: Response): Promise<BodyCut | undefined> {
    if (this.answered) return cancelBody(response);
    // Pairs, not a record: a `Headers` gives each `set-cookie` apart, and joining them with ", " would break their dates.
    const headers: Array<[string, string]> = [];
    response.headers.forEach((value, name) => headers.push([name, value]));
    const sink = this.openStream(response.status, headers);
    const body = response.body;
    if (body === null) {
      sink.end();
      return Promise.resolve(undefined);
    }
    const reader = body.getReader();
    sink.watchClose!(() => void reader.cancel().catch(() => undefined));
    const decoder = new TextDecoder();
    // Settles when the body has gone into the simulation; with the cut, as over a socket, when it failed mid-way.
    return (async (): Promise<BodyCut | undefined> => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || sink.closed) break;
          sink.write(decoder.decode(value, { stream: true }));
        }
        const rest = decoder.decode();
        if (rest !== "") sink.write(rest);
        sink.end();
        return undefined;
      } catch (error) {
        this.destroy();
        return { error };
      }
    })();
  }

  destroy(): void {
    const stream = this.stream;
    if (stream !== undefined) {
      if (stream.closed) return;
      stream.closed = true;
      stream.connection.destroyed = true;
    } else if (this.answered) return;
    this.answered = true;
    this.sink.dropped();
  }

  onAbort(listener: () => void): void {
    this.abortListeners.push(listener);
  }

  async toRequest(limitBytes: number): Promise<Request | undefined> {
    if (this.request.byteLength > limitBytes) return undefined;
    const body = this.request.bytes();
    return new Request(this.request.url, { method: this.method, headers: this.request.headerPairs as Array<[string, string]>, ...(body !== undefined && { body }) });
  }

  /** The simulation closed (a disconnect, or a capture limit): the stream's client is gone. */
  private clientLeft(): void {
    const stream = this.stream;
    if (stream !== undefined && !stream.closed) {
      stream.closed = true;
      stream.connection.destroyed = true;
      stream.onCancel?.();
    }
    for (const listener of this.abortListeners.splice(0)) listener();
  }
}
