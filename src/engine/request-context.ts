/**
 * The request context: what one incoming message carries besides itself. Every wire builds one
 * per message and hands it to the engine with the message; handlers read the protocol version
 * and the caller's identity from it, never from the connection. A 2026-07-28 request names its
 * version per request (no session), and a test id may come as an HTTP header: this is where
 * such facts live.
 */
import type { Connection } from "./connection.js";

/** Who is asking, for scenario fakes: filled from headers, query or the session (empty until then). */
export interface RequestIdentity {
  readonly testId?: string;
  readonly context?: string;
  /** Closed-world override for undeclared tools. */
  readonly undeclared?: "allow" | "deny";
}

/** The wire's own facts about a message: which wire, and over HTTP its headers and query. */
export interface TransportFacts {
  readonly wire: "http" | "stdio" | "memory" | "direct";
  /** HTTP: a request header by lower-case name (the first value when repeated). */
  header?(name: string): string | undefined;
  /** HTTP: the request's query parameters. */
  readonly query?: URLSearchParams;
}

export interface RequestContext {
  /** The protocol version this request speaks. */
  readonly protocolVersion: string;
  readonly identity: RequestIdentity;
  readonly transport: TransportFacts;
  /** Aborted when the request's own channel goes away (an HTTP client that left), if the wire knows. */
  readonly signal?: AbortSignal;
  /** `Date.now()` when the wire received the message. */
  readonly receivedAt: number;
  /** While someone observes the request: where the mock puts what it caught handling it (reported on `request:end`). */
  readonly caught?: unknown[];
}

/** What a wire may say about a message; the rest comes from the connection. */
export interface RequestFacts {
  readonly protocolVersion?: string;
  readonly identity?: RequestIdentity;
  readonly signal?: AbortSignal;
}

export const NO_IDENTITY: RequestIdentity = Object.freeze({});

const WIRE_FACTS = {
  stdio: Object.freeze({ wire: "stdio" }),
  memory: Object.freeze({ wire: "memory" }),
  direct: Object.freeze({ wire: "direct" }),
} as const satisfies Record<string, TransportFacts>;

/** The facts of a wire that has nothing to add but its name. */
export function wireFacts(wire: keyof typeof WIRE_FACTS): TransportFacts {
  return WIRE_FACTS[wire];
}

/**
 * The context of a message arriving on `connection` now. Today the version is the one the
 * connection negotiated unless the wire says otherwise (an HTTP header); later `_meta` too.
 */
export function requestContext(connection: Connection, transport: TransportFacts, facts?: RequestFacts): RequestContext {
  return {
    protocolVersion: facts?.protocolVersion ?? connection.negotiated.protocolVersion,
    identity: facts?.identity ?? NO_IDENTITY,
    transport,
    signal: facts?.signal,
    receivedAt: Date.now(),
  };
}
