/** `HttpExchange` over node's `IncomingMessage` / `ServerResponse`. */
import type { CallerAuth } from "../../engine/request-context.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { absoluteFormAuthority, BODY_TOO_LARGE, cancelBody, splitTarget, type BodyCut, type SocketConnection, type HttpExchange, type StreamSink } from "./exchange.js";
import { ResponseHead } from "./response-head.js";
import { sendWebResponse } from "./send-response.js";

export class NodeExchange extends ResponseHead implements HttpExchange {
  readonly wire = "http";
  auth?: CallerAuth;
  readonly method: string;
  private target?: { path: string; search: string };
  private parsedQuery?: URLSearchParams;
  /** Set by `destroy()`: nothing more is written, and the connection goes on the next tick (read by the stream sink). */
  dropped = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    /** A body parsed already by a framework (e.g. `express.json()`), used instead of reading. */
    private readonly parsedBody?: unknown,
  ) {
    super();
    this.method = req.method ?? "GET";
  }

  get path(): string {
    const url = this.req.url ?? "/";
    // The common target ("/mcp") is its own path: nothing to split.
    if (this.target === undefined && url.startsWith("/") && !url.includes("?") && !url.includes("#")) return url;
    return (this.target ??= splitTarget(url)).path;
  }

  get authority(): string | undefined {
    const url = this.req.url ?? "/";
    // The common target ("/mcp") names no authority: one character tells.
    return url.startsWith("/") ? this.hostHeader() : (absoluteFormAuthority(url) ?? this.hostHeader());
  }

  /** The `Host` header; two of them name no one authority, so they come back joined, which no check passes (RFC 9112 §3.2: 400). */
  private hostHeader(): string | undefined {
    // Node keeps the first of two Host headers; the raw list tells whether there was a second
    // (a scan of names, where headersDistinct would copy every header on every request).
    const raw = this.req.rawHeaders;
    let seen = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.length === 4 && name.toLowerCase() === "host" && ++seen > 1) return this.req.headersDistinct.host!.join(",");
    }
    return this.req.headers.host;
  }

  get authorityFromTarget(): boolean {
    return absoluteFormAuthority(this.req.url ?? "/") !== undefined;
  }

  get hasFragment(): boolean {
    return (this.req.url ?? "").includes("#");
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams((this.target ??= splitTarget(this.req.url ?? "/")).search));
  }

  get hasQuery(): boolean {
    return (this.req.url ?? "").includes("?");
  }

  get distinctHeaders(): Record<string, string[] | undefined> {
    return this.req.headersDistinct;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  }

  /** One pass over `rawHeaders`, comparing lengths first: cheaper than a look-up per name for headers that are mostly absent. */
  hasAnyHeader(names: readonly string[]): boolean {
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const field = raw[i]!;
      for (const name of names) if (field.length === name.length && (field === name || field.toLowerCase() === name)) return true;
    }
    return false;
  }

  readBody(limitBytes: number, then: (body: string | typeof BODY_TOO_LARGE) => void): void {
    if (this.parsedBody !== undefined) {
      const text = typeof this.parsedBody === "string" ? this.parsedBody : JSON.stringify(this.parsedBody);
      return this.deliver(then, Buffer.byteLength(text) > limitBytes ? BODY_TOO_LARGE : text);
    }
    const req = this.req;
    if (Number(req.headers["content-length"]) > limitBytes) {
      req.resume();
      return this.deliver(then, BODY_TOO_LARGE);
    }
    // Two listeners, as a bare server has. A client that goes away mid-body gets no call at all:
    // there is no one to answer, and the closures go with the request.
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        chunks.length = 0;
        req.removeAllListeners("data");
        req.resume();
        this.deliver(then, BODY_TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > limitBytes) return; // answered 413 already
      this.deliver(then, chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"));
    });
  }

  /** Runs the endpoint on the body; a throw (a bug of ours) answers 500 instead of escaping from an event listener. */
  private deliver(then: (body: string | typeof BODY_TOO_LARGE) => void, body: string | typeof BODY_TOO_LARGE): void {
    try {
      then(body);
    } catch {
      if (!this.res.headersSent && !this.res.destroyed) this.res.writeHead(500).end();
    }
  }

  respond(status: number, headers: Readonly<Record<string, string>>, body?: string): void {
    if (this.res.headersSent || this.res.destroyed || this.dropped) return;
    this.headSent(status, headers);
    if (body === undefined) this.res.writeHead(status, headers).end();
    else this.res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) }).end(body);
  }

  respondWith(response: Response): Promise<BodyCut | undefined> {
    if (this.dropped) return cancelBody(response);
    return sendWebResponse(this.res, response, this.method);
  }

  openStream(status: number, headers: Readonly<Record<string, string>>): StreamSink {
    this.res.writeHead(status, headers);
    this.headSent(status, headers);
    return new NodeStreamSink(this, this.res);
  }

  destroy(): void {
    if (this.dropped) return;
    this.dropped = true;
    // Events written in this tick (a progress event just before a disconnect step) leave with
    // their stream's flush, queued before this: let them go out, then cut the connection.
    process.nextTick(() => {
      this.res.destroy();
      this.req.socket?.destroy();
    });
  }

  onAbort(listener: () => void): void {
    this.res.on("close", () => {
      if (!this.res.writableFinished) listener();
    });
  }

  toRequest(limitBytes: number): Promise<Request | undefined> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(this.req.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
    const target = this.req.url ?? "/";
    // An absolute-form target is a URL already; its authority is the request's (RFC 9112 §3.2.2).
    const url = absoluteFormAuthority(target) === undefined ? `http://${this.req.headers.host ?? "localhost"}${target}` : target;
    // The client leaving aborts the Request, as a fetch server's would: a mounted mock's pending answer learns it is gone.
    const left = new AbortController();
    this.onAbort(() => left.abort(new Error("the client closed the connection")));
    const init = { method: this.method, headers, signal: left.signal };
    if (this.method === "GET" || this.method === "HEAD") return Promise.resolve().then(() => new Request(url, init));
    // A Request that cannot be made rejects the promise, so the caller answers; it never hangs.
    return new Promise((resolve, reject) =>
      this.readBody(limitBytes, (body) => {
        try {
          resolve(body === BODY_TOO_LARGE ? undefined : new Request(url, { ...init, body }));
        } catch (error) {
          reject(error);
        }
      }),
    );
  }
}

/**
 * An SSE response body. What is written in one tick leaves in one write at the end of the tick
 * (or with the end): the headers, the priming event and the answer of a call that answers at
 * once go out together, as one chunk. It needs no listener: a client that went away shows as
 * `res.destroyed`.
 */
class NodeStreamSink implements StreamSink {
  private ended = false;
  private pending = "";
  private flushQueued = true;
  /** Whether anything (at least the headers) went out. */
  private started = false;

  /** Held apart: node detaches the socket from a finished response. */
  private readonly socket: Socket | null;

  constructor(
    private readonly exchange: NodeExchange,
    private readonly res: ServerResponse,
  ) {
    this.socket = res.socket;
    // The headers go out at the end of this tick even if nothing is written.
    process.nextTick(flush, this);
  }

  get closed(): boolean {
    return this.ended || this.res.destroyed || this.exchange.dropped;
  }

  get connection(): SocketConnection {
    return this.socket ?? NO_CONNECTION;
  }

  write(chunk: string): void {
    if (this.closed) return;
    this.pending += chunk;
    if (!this.flushQueued) {
      this.flushQueued = true;
      process.nextTick(flush, this);
    }
  }

  watchClose(listener: () => void): void {
    this.res.once("close", () => {
      if (!this.ended) listener();
    });
  }

  end(): void {
    // A dropped exchange is cut, not ended: what was written before the drop still leaves with the flush.
    if (!this.closed) this.res.end(this.take());
    this.ended = true;
  }

  /** Sends what was written in this tick. It runs before the connection of a dropped exchange is cut (`destroy`), so events written before a disconnect step still go out. */
  flush(): void {
    this.flushQueued = false;
    const res = this.res;
    if (res.destroyed) return;
    const text = this.take();
    if (text !== "") this.writeNow(text);
    else if (!this.started && !this.ended) res.flushHeaders();
    this.started = true;
  }

  /** One write, now: node would otherwise hold it in the corked socket until a later tick. */
  private writeNow(text: string): void {
    const socket = this.socket;
    socket?.cork();
    this.res.write(text);
    socket?.uncork();
  }

  private take(): string {
    const text = this.pending;
    this.pending = "";
    return text;
  }
}

const NO_CONNECTION: SocketConnection = Object.freeze({ destroyed: true });

function flush(sink: NodeStreamSink): void {
  sink.flush();
}
