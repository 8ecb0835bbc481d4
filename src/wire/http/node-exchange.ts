/** `HttpExchange` over node's `IncomingMessage` / `ServerResponse`. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BodyResult, HttpExchange, StreamSink } from "./exchange.js";

export class NodeExchange implements HttpExchange {
  readonly method: string;
  /** Set by `destroy()`: nothing more is written, and the connection goes on the next tick. */
  private dropped = false;

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

  readBody(limitBytes: number): Promise<BodyResult> {
    if (this.parsedBody !== undefined) {
      const text = typeof this.parsedBody === "string" ? this.parsedBody : JSON.stringify(this.parsedBody);
      return Promise.resolve(Buffer.byteLength(text) > limitBytes ? { ok: false, reason: "too-large" } : { ok: true, text });
    }
    const declared = Number(this.req.headers["content-length"]);
    if (declared > limitBytes) {
      this.req.resume();
      return Promise.resolve({ ok: false, reason: "too-large" });
    }
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const settle = (result: BodyResult) => {
        if (settled) return;
        settled = true;
        resolve(result);
      };
      this.req.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limitBytes) {
          chunks.length = 0;
          this.req.removeAllListeners("data");
          this.req.resume();
          settle({ ok: false, reason: "too-large" });
          return;
        }
        chunks.push(chunk);
      });
      this.req.on("end", () => settle({ ok: true, text: chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8") }));
      this.req.on("error", () => settle({ ok: false, reason: "aborted" }));
      this.req.on("close", () => settle({ ok: false, reason: "aborted" }));
    });
  }

  respond(status: number, headers: Record<string, string>, body?: string): void {
    if (this.res.headersSent || this.res.destroyed || this.dropped) return;
    if (body === undefined) {
      this.res.writeHead(status, headers);
      this.res.end();
      return;
    }
    headers["content-length"] = String(Buffer.byteLength(body));
    this.res.writeHead(status, headers);
    this.res.end(body);
  }

  openStream(status: number, headers: Record<string, string>): StreamSink {
    const res = this.res;
    const exchange = this;
    res.writeHead(status, headers);
    res.flushHeaders();
    const listeners: Array<() => void> = [];
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      for (const listener of listeners.splice(0)) listener();
    };
    res.on("close", close);
    return {
      write: (chunk) => {
        if (!closed && !this.dropped) res.write(chunk);
      },
      end: () => {
        if (!closed && !this.dropped) res.end();
        close();
      },
      get closed() {
        return closed || res.destroyed || exchange.dropped;
      },
      onClose: (listener) => {
        if (closed) listener();
        else listeners.push(listener);
      },
    };
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
