/**
 * `HttpExchange` over a web-standard `Request`, producing a `Response`: for fetch-style hosts
 * (`server.fetch`) and for driving a mock without a socket.
 */
import type { BodyResult, HttpExchange, StreamSink } from "./exchange.js";

export class FetchExchange implements HttpExchange {
  readonly method: string;
  /** Resolves with the response once the endpoint decides it (headers known). */
  readonly response: Promise<Response>;
  private resolveResponse!: (response: Response) => void;
  private abortListeners: Array<() => void> = [];
  private answered = false;

  constructor(private readonly request: Request) {
    this.method = request.method;
    this.response = new Promise((resolve) => (this.resolveResponse = resolve));
    request.signal?.addEventListener("abort", () => {
      for (const listener of this.abortListeners.splice(0)) listener();
    });
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  async readBody(limitBytes: number): Promise<BodyResult> {
    const declared = Number(this.request.headers.get("content-length"));
    if (declared > limitBytes) return { ok: false, reason: "too-large" };
    try {
      const bytes = new Uint8Array(await this.request.arrayBuffer());
      if (bytes.byteLength > limitBytes) return { ok: false, reason: "too-large" };
      return { ok: true, text: new TextDecoder().decode(bytes) };
    } catch {
      return { ok: false, reason: "aborted" };
    }
  }

  respond(status: number, headers: Record<string, string>, body?: string): void {
    if (this.answered) return;
    this.answered = true;
    // 202/204 carry no body by definition; `Response` refuses one.
    this.resolveResponse(new Response(status === 204 || status === 202 ? null : (body ?? null), { status, headers }));
  }

  openStream(status: number, headers: Record<string, string>): StreamSink {
    this.answered = true;
    const encoder = new TextEncoder();
    const listeners: Array<() => void> = [];
    let closed = false;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const close = () => {
      if (closed) return;
      closed = true;
      for (const listener of listeners.splice(0)) listener();
    };
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      cancel: () => close(),
    });
    this.destroyStream = () => {
      if (!closed) controller.error(new Error("connection dropped by the mock"));
      close();
    };
    this.resolveResponse(new Response(body, { status, headers }));
    return {
      write: (chunk) => {
        if (!closed) controller.enqueue(encoder.encode(chunk));
      },
      end: () => {
        if (!closed) controller.close();
        close();
      },
      get closed() {
        return closed;
      },
      onClose: (listener) => {
        if (closed) listener();
        else listeners.push(listener);
      },
    };
  }

  private destroyStream?: () => void;

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
