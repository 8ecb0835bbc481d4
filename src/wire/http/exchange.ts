/**
 * One HTTP request and its response, as the Streamable HTTP endpoint sees them. Two adapters
 * provide it: node's `(req, res)` (the fast path, and what a standalone mock listens with) and
 * web-standard `Request → Response` (for fetch-style hosts and the off-network simulator).
 */

import type { CallerAuth, TransportFacts } from "../../engine/request-context.js";

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
  readonly connection: SocketConnection;
  /** Calls `listener` once if the client goes away before the stream ends (for observers). */
  watchClose?(listener: () => void): void;
}

/** A client connection, as far as resumption cares: whether it is gone (`net.Socket` is one). */
export interface SocketConnection {
  readonly destroyed: boolean;
}

/** What `readBody` reports instead of the text when the body exceeds the limit. */
export const BODY_TOO_LARGE = Symbol("body too large");

/**
 * An exchange is also the transport facts of the messages its body carries (the engine reads
 * headers and query through it), so a POST costs no extra object.
 */
export interface HttpExchange extends TransportFacts {
  readonly wire: "http";
  /** Who the request's bearer token stands for; set by a protected mock's gate before the endpoint reads the body. */
  auth?: CallerAuth;
  readonly method: string;
  /** The request target's path, without the query. */
  readonly path: string;
  /** Lower-case header name; a repeated header's values joined with ", " (as node and `Headers.get` give them). */
  header(name: string): string | undefined;
  /**
   * The authority the request is addressed to, for the Host check: the `Host` header, or on a
   * socket the authority of an absolute-form target (`POST http://host/mcp`), which replaces it
   * (RFC 9112 §3.2.2). A `Request`'s URL is not one: whoever built it may have made it up.
   */
  readonly authority: string | undefined;
  /** Whether `authority` came from the request target rather than the `Host` header. */
  readonly authorityFromTarget: boolean;
  /** Whether the request target carries a fragment (`/mcp#x`): no client sends one, so it is malformed (400). */
  readonly hasFragment: boolean;
  /** Whether any of these (lower-case) headers was sent; one look for the few a request rarely carries. */
  hasAnyHeader(names: readonly string[]): boolean;
  /** The query parameters (parsed on first use). */
  readonly query: URLSearchParams;
  /** Whether the request target has a query at all (cheap, parses nothing). */
  readonly hasQuery: boolean;
  /** Every header with all its values (node's `headersDistinct`), so a repeated header shows. */
  readonly distinctHeaders: Record<string, string[] | undefined> | Headers;
  /**
   * Reads the whole body and calls `then` with its text, or with `BODY_TOO_LARGE`. A callback,
   * not a promise: the common POST is answered inside the body's last event, with no microtask
   * hop. Never called if the client goes away before the body is complete (nothing to answer).
   */
  readBody(limitBytes: number, then: (body: string | typeof BODY_TOO_LARGE) => void): void;
  /** `headers` is not modified (constants may be passed); the adapter adds `content-length`. */
  respond(status: number, headers: Readonly<Record<string, string>>, body?: string): void;
  openStream(status: number, headers: Readonly<Record<string, string>>): StreamSink;
  /**
   * Answers with a web `Response` (a mounted handler's): its status, its headers and its body
   * as it comes, chunk by chunk and byte for byte. A client that goes away cancels the body.
   * Rejects only while nothing has gone out (a head that cannot be sent, a body that fails at
   * once), so the caller can still answer 500; resolves with the cut when the body failed later.
   */
  respondWith(response: Response): Promise<BodyCut | undefined>;
  /** Drops the connection with no (further) response, as a crashed server would. */
  destroy(): void;
  /** Called once if the client goes away before the response is complete. */
  onAbort(listener: () => void): void;
  /** The request as a web-standard `Request` (body read, up to `limitBytes`; undefined past it). */
  toRequest(limitBytes: number): Promise<Request | undefined>;
}

/** The path and the query of a request target such as "/mcp?testId=a" (or a full URL). */
export function splitTarget(target: string): { path: string; search: string } {
  let start = 0;
  if (!target.startsWith("/")) {
    // An absolute URL (fetch's Request.url, an absolute-form target): skip "scheme://authority".
    const scheme = target.indexOf("://");
    if (scheme !== -1) start = authorityEnd(target, scheme + 3);
  }
  const query = target.indexOf("?", start);
  const hash = target.indexOf("#", start);
  const end = query === -1 ? (hash === -1 ? target.length : hash) : query;
  const search = query === -1 ? "" : target.slice(query, hash === -1 || hash < query ? target.length : hash);
  return { path: target.slice(start, end) || "/", search };
}

/**
 * The authority of an absolute-form request target (`http://host:port/path`), or undefined for
 * any other form (`/path`, `*`). Empty for `http:///path`: an authority no guard allows.
 */
export function absoluteFormAuthority(target: string): string | undefined {
  if (target.startsWith("/")) return undefined;
  const scheme = target.indexOf("://");
  if (scheme === -1) return undefined;
  return target.slice(scheme + 3, authorityEnd(target, scheme + 3));
}

/** Where the authority that starts at `start` ends: at the first "/", "?" or "#" (RFC 3986 §3.2), or the end. */
function authorityEnd(target: string, start: number): number {
  let end = start;
  while (end < target.length && target[end] !== "/" && target[end] !== "?" && target[end] !== "#") end++;
  return end;
}

/** A body that failed after its head went out: the client saw only a cut connection. */
export interface BodyCut {
  error: unknown;
}

/** A response that will not be sent: its body is cancelled, nothing was cut. */
export async function cancelBody(response: Response): Promise<undefined> {
  await response.body?.cancel().catch(() => undefined);
  return undefined;
}
