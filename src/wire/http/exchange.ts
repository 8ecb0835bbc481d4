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
  /**
   * The connection under the stream, which may outlive it (keep-alive). Asked later whether it
   * went away: if it did, what was written on it may never have arrived.
   */
  readonly connection: Connection;
}

/** A client connection, as far as resumption cares: whether it is gone (`net.Socket` is one). */
export interface Connection {
  readonly destroyed: boolean;
}

/** What `readBody` reports instead of the text when the body exceeds the limit. */
export const BODY_TOO_LARGE = Symbol("body too large");

export interface HttpExchange {
  readonly method: string;
  /** Lower-case header name; the first value when repeated. */
  header(name: string): string | undefined;
  /**
   * Reads the whole body and calls `then` with its text, or with `BODY_TOO_LARGE`. A callback,
   * not a promise: the common POST is answered inside the body's last event, with no microtask
   * hop. Never called if the client goes away before the body is complete (nothing to answer).
   */
  readBody(limitBytes: number, then: (body: string | typeof BODY_TOO_LARGE) => void): void;
  /** `headers` is not modified (constants may be passed); the adapter adds `content-length`. */
  respond(status: number, headers: Readonly<Record<string, string>>, body?: string): void;
  openStream(status: number, headers: Readonly<Record<string, string>>): StreamSink;
  /** Drops the connection with no (further) response, as a crashed server would. */
  destroy(): void;
  /** Called once if the client goes away before the response is complete. */
  onAbort(listener: () => void): void;
}
