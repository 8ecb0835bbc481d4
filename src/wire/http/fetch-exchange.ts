/**
 * `HttpExchange` over a web-standard `Request`, producing a `Response`: for fetch-style hosts
 * (`server.fetch`) and for driving a mock without a socket.
 */
import { OVER_LIMIT, readBounded } from "./bounded-body.js";
import type { CallerAuth } from "../../engine/request-context.js";
import { BODY_TOO_LARGE, cancelBody, splitTarget, type BodyCut, type HttpExchange, type StreamSink } from "./exchange.js";
import { onAbort } from "../../util/on-abort.js";
import { ResponseHead } from "./response-head.js";

export class FetchExchange extends ResponseHead implements HttpExchange {
  readonly wire = "http";
  auth?: CallerAuth;
  readonly method: string;
  private target?: { path: string; search: string };
  private parsedQuery?: URLSearchParams;
  /** Resolves with the response once the endpoint decides it (headers known). */
  readonly response: Promise<Response>;
  private resolveResponse!: (response: Response) => void;
  private abortListeners: Array<() => void> = [];
  private answered = false;

  constructor(private readonly request: Request) {
    super();
    this.method = request.method;
    this.response = new Promise((resolve) => (this.resolveResponse = resolve));
    onAbort(request.signal, () => {
      for (const listener of this.abortListeners.splice(0)) listener();
    });
  }

  get path(): string {
    return (this.target ??= splitTarget(this.request.url)).path;
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams((this.target ??= splitTarget(this.request.url)).search));
  }

  get hasQuery(): boolean {
    return this.request.url.includes("?");
  }

  /** A web `Headers` joins repeated values, so a repeat cannot be told apart on this path. */
  get distinctHeaders(): Headers {
    return this.request.headers;
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  /** The `Host` a fetch-style host passed on; none from a caller in this process (its URL may be made up, and no browser is in between). */
  get authority(): string | undefined {
    return this.header("host");
  }

  readonly authorityFromTarget = false;

  get hasFragment(): boolean {
    return this.request.url.includes("#");
  }

  hasAnyHeader(names: readonly string[]): boolean {
    return names.some((name) => this.request.headers.has(name));
  }

  readBody(limitBytes: number, then: (body: string | typeof BODY_TOO_LARGE) => void): void {
    void this.readText(limitBytes).then((body) => {
      if (body !== undefined) then(body);
    });
  }

  /** The body's text, `BODY_TOO_LARGE`, or undefined when it could not be read (the request was aborted). */
  private async readText(limitBytes: number): Promise<string | typeof BODY_TOO_LARGE | undefined> {
    const declared = Number(this.request.headers.get("content-length"));
    if (declared > limitBytes) return BODY_TOO_LARGE;
    try {
      const bytes = await readBounded(this.request.body, limitBytes);
      if (bytes === OVER_LIMIT) return BODY_TOO_LARGE;
      return new TextDecoder().decode(bytes);
    } catch {
      return undefined;
    }
  }

  respond(status: number, headers: Readonly<Record<string, string>>, body?: string): void {
    if (this.answered) return;
    this.answered = true;
    this.headSent(status, headers);
    // 202/204 carry no body by definition; `Response` refuses one.
    this.resolveResponse(new Response(status === 204 || status === 202 ? null : (body ?? null), { status, headers }));
  }

  /** A web `Response` is what this exchange produces: it is passed on as it is, its body still streaming. */
  respondWith(response: Response): Promise<BodyCut | undefined> {
    if (this.answered) return cancelBody(response);
    this.answered = true;
    // The caller of `fetch` reads the body: a failure mid-way reaches it as the stream's error.
    this.resolveResponse(response);
    return Promise.resolve(undefined);
  }

  openStream(status: number, headers: Readonly<Record<string, string>>): StreamSink {
    this.answered = true;
    this.headSent(status, headers);
    const encoder = new TextEncoder();
    let closed = false;
    // The stream is its own connection here: gone when the consumer cancels it or the mock drops it.
    const connection = { destroyed: false };
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let onCancel: (() => void) | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      cancel: () => {
        const wasOpen = !closed;
        closed = true;
        connection.destroyed = true;
        if (wasOpen) onCancel?.();
      },
    });
    this.destroyStream = () => {
      if (!closed) controller.error(new Error("connection dropped by the mock"));
      closed = true;
      connection.destroyed = true;
    };
    this.resolveResponse(new Response(body, { status, headers }));
    return {
      write: (chunk) => {
        if (!closed) controller.enqueue(encoder.encode(chunk));
      },
      end: () => {
        if (!closed) controller.close();
        closed = true;
      },
      get closed() {
        return closed;
      },
      connection,
      watchClose: (listener) => {
        onCancel = listener;
      },
    };
  }

  private destroyStream?: () => void;

  /** The request itself when it has no body, or a copy whose body was read under the limit (a declared length is not trusted). */
  async toRequest(limitBytes: number): Promise<Request | undefined> {
    const request = this.request;
    if (Number(request.headers.get("content-length")) > limitBytes) return undefined;
    if (request.body === null) return request;
    const bytes = await readBounded(request.body, limitBytes);
    if (bytes === OVER_LIMIT) return undefined;
    const headers = new Headers(request.headers);
    headers.set("content-length", String(bytes.byteLength));
    return new Request(request.url, { method: request.method, headers, body: bytes, signal: request.signal });
  }

  destroy(): void {
    if (this.destroyStream) this.destroyStream();
    else if (!this.answered) {
      this.answered = true;
      this.resolveResponse(Response.error());
    }
  }

  onAbort(listener: () => void): void {
    this.abortListeners.push(listener);
  }
}
