/** `HttpExchange` over node's `IncomingMessage` / `ServerResponse`. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { BODY_TOO_LARGE, type HttpExchange, type StreamSink } from "./exchange.js";

export class NodeExchange implements HttpExchange {
  readonly method: string;
  /** Set by `destroy()`: nothing more is written, and the connection goes on the next tick. */
  dropped = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    /** A body parsed already by a framework (e.g. `express.json()`), used instead of reading. */
    private readonly parsedBody?: unknown,
  ) {
    this.method = req.method ?? "GET";
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value[0] : value;
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
    if (body === undefined) this.res.writeHead(status, headers).end();
    else this.res.writeHead(status, { ...headers, "content-length": Buffer.byteLength(body) }).end(body);
  }

  openStream(status: number, headers: Readonly<Record<string, string>>): StreamSink {
    const res = this.res;
    res.writeHead(status, headers);
    // The headers, the priming event and the events written in this tick leave in one write:
    // hold the socket until the end of the tick, as node does for its own writes.
    const socket = res.socket;
    if (socket && !socket.writableCorked) {
      socket.cork();
      process.nextTick(uncork, socket);
    }
    res.flushHeaders();
    return new NodeStreamSink(this, res);
  }

  destroy(): void {
    if (this.dropped) return;
    this.dropped = true;
    // Events written in this tick (a progress event just before a disconnect step) wait in the
    // corked socket until the next tick: let them go out, then cut the connection.
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
}

function uncork(socket: Socket): void {
  socket.uncork();
}

/** An SSE response body. It needs no listener: a client that went away shows as `res.destroyed`. */
class NodeStreamSink implements StreamSink {
  private ended = false;

  constructor(
    private readonly exchange: NodeExchange,
    private readonly res: ServerResponse,
  ) {}

  get closed(): boolean {
    return this.ended || this.res.destroyed || this.exchange.dropped;
  }

  write(chunk: string): void {
    if (!this.closed) this.res.write(chunk);
  }

  end(): void {
    if (!this.closed) this.res.end();
    this.ended = true;
  }
}
