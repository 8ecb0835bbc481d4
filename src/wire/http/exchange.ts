/**
 * One HTTP request and its response, as the Streamable HTTP endpoint sees them. Two adapters
 * provide it: node's `(req, res)` (the fast path, and what a standalone mock listens with) and
 * web-standard `Request → Response` (for fetch-style hosts and the off-network simulator).
 */

/** An open streaming response body (SSE). */
export interface StreamSink {
  write(chunk: string): void;
  end(): void;
  /** True once ended, destroyed or the client went away. */
  readonly closed: boolean;
  /** Called once when the sink closes for any reason. */
  onClose(listener: () => void): void;
}

export type BodyResult = { ok: true; text: string } | { ok: false; reason: "too-large" | "aborted" };

export interface HttpExchange {
  readonly method: string;
  /** Lower-case header name; the first value when repeated. */
  header(name: string): string | undefined;
  readBody(limitBytes: number): Promise<BodyResult>;
  respond(status: number, headers: Record<string, string>, body?: string): void;
  openStream(status: number, headers: Record<string, string>): StreamSink;
  /** Drops the connection with no (further) response, as a crashed server would. */
  destroy(): void;
  /** Called once if the client goes away before the response is complete. */
  onAbort(listener: () => void): void;
}
