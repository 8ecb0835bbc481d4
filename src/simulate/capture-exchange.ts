/**
 * The simulator's own `HttpExchange` for a mock: the endpoint reads the synthetic request and
 * writes its answer straight into the simulation — no socket, and no `Response` or web stream in
 * between (those cost more than the mock's whole handling of a call). A mock's `fetch` takes the
 * same route through the same endpoint; only the envelope differs.
 */
import { BODY_TOO_LARGE, splitTarget, type Connection, type HttpExchange, type StreamSink } from "../wire/http/exchange.js";

/** Where the exchange writes: the head, then the body as text, then the end (or a dropped connection). */
export interface CaptureSink {
  head(status: number, headers: Readonly<Record<string, string>>): void;
  chunk(text: string): void;
  end(): void;
  /** The mock dropped the connection (a `disconnect` step): no (further) answer. */
  dropped(): void;
}

const decoder = new TextDecoder();

export class CaptureExchange implements HttpExchange {
  readonly wire = "http";
  readonly method: string;
  readonly path: string;
  private readonly search: string;
  private parsedQuery?: URLSearchParams;
  private answered = false;
  private readonly abortListeners: Array<() => void> = [];
  private stream?: { closed: boolean; connection: { destroyed: boolean }; onCancel?: () => void };

  constructor(
    private readonly request: Request,
    private readonly body: Uint8Array | undefined,
    private readonly sink: CaptureSink,
    /** Registers a listener for the simulated client leaving. */
    onDisconnect: (listener: () => void) => void,
  ) {
    this.method = request.method;
    const target = splitTarget(request.url);
    this.path = target.path;
    this.search = target.search;
    onDisconnect(() => this.clientLeft());
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.search));
  }

  get hasQuery(): boolean {
    return this.search !== "";
  }

  /** A web `Headers` joins repeated values, so a repeat cannot be told apart on this path. */
  get distinctHeaders(): Headers {
    return this.request.headers;
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  hasAnyHeader(names: readonly string[]): boolean {
    return names.some((name) => this.request.headers.has(name));
  }

  readBody(limitBytes: number, then: (body: string | typeof BODY_TOO_LARGE) => void): void {
    const body = this.body ?? new Uint8Array(0);
    then(body.byteLength > limitBytes ? BODY_TOO_LARGE : decoder.decode(body));
  }

  respond(status: number, headers: Readonly<Record<string, string>>, body?: string): void {
    if (this.answered) return;
    this.answered = true;
    this.sink.head(status, body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) });
    if (body !== undefined && status !== 202 && status !== 204) this.sink.chunk(body);
    this.sink.end();
  }

  openStream(status: number, headers: Readonly<Record<string, string>>): StreamSink {
    this.answered = true;
    const stream: NonNullable<CaptureExchange["stream"]> = { closed: false, connection: { destroyed: false } };
    this.stream = stream;
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
      connection: stream.connection as Connection,
      watchClose: (listener) => {
        stream.onCancel = listener;
      },
    };
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
    if ((this.body?.byteLength ?? 0) > limitBytes) return undefined;
    return new Request(this.request.url, { method: this.method, headers: this.request.headers, ...(this.body !== undefined && { body: this.body }) });
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
