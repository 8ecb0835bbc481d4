/**
 * The request context: what one incoming message carries besides itself. Every wire builds one
 * per message and hands it to the engine with the message; handlers read the protocol version
 * and the caller's identity from it, never from the connection. A 2026-07-28 request names its
 * version per request (no session), and a test id may come as an HTTP header: this is where
 * such facts live.
 */
import { ErrorCode } from "../protocol/errors.js";
import type { JsonRpcErrorObject } from "../protocol/jsonrpc.js";
import { META } from "../protocol/meta-keys.js";
import { LoggingLevels } from "../protocol/methods.js";
import { clientFactsOf, declaredVersion, requestMeta, type ClientFacts } from "../protocol/request-meta.js";
import { compareVersions, revisionsWith, versionHas } from "../protocol/versions.js";
import type { Connection } from "./connection.js";

/** Who is asking, for scenario fakes: filled from headers, query or the session (empty until then). */
export interface RequestIdentity {
  readonly testId?: string;
  readonly context?: string;
  /** Closed-world override for undeclared tools. */
  readonly undeclared?: "allow" | "deny";
}

/**
 * Who signed in, when the mock is protected (`mockMcp({ auth })`): what the bearer token the
 * request carried stands for. Plain facts; the wire checked the token before the engine saw
 * the message.
 */
export interface CallerAuth {
  /** The OAuth client the token was issued to. */
  readonly clientId: string;
  /** The user (or, for client credentials, the client) the token speaks for. */
  readonly subject: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** The authorization server that issued it. */
  readonly issuer: string;
}

/** The wire's own facts about a message: which wire, and over HTTP its headers and query. */
export interface TransportFacts {
  readonly wire: "http" | "stdio" | "memory" | "direct";
  /** HTTP to a protected mock: who the request's bearer token stands for. */
  readonly auth?: CallerAuth;
  /** HTTP: a request header by lower-case name (the first value when repeated). */
  header?(name: string): string | undefined;
  /** HTTP: the request's query parameters. */
  readonly query?: URLSearchParams;
  /** HTTP: the request's method and path, and every header with all its values (for message listeners). */
  readonly method?: string;
  readonly path?: string;
  readonly distinctHeaders?: Readonly<Record<string, readonly string[] | undefined>> | Headers;
  /**
   * HTTP: calls `listener` with the status and headers of the response that carries this
   * message's answer, once the wire has chosen them (at once if it has).
   */
  afterHead?(listener: HeadListener): void;
}

/** Told the head of the response an answer goes on. */
export type HeadListener = (status: number, headers: Readonly<Record<string, string>>) => void;

export interface RequestContext {
  /** The protocol version this request speaks. */
  readonly protocolVersion: string;
  readonly identity: RequestIdentity;
  readonly transport: TransportFacts;
  /** `Date.now()` when the wire received the message. */
  readonly receivedAt: number;
  /** The path of the MCP endpoint the request came to, when the mock serves several (fakes are per mount). */
  readonly mount?: string;
  /**
   * What a request that names its version in `_meta` (2026-07-28) says about its client;
   * undefined for a request of a legacy session, whose client is what `initialize` said.
   */
  readonly client?: ClientFacts;
  /** While someone observes the request: where the mock puts what it caught handling it (reported on `request:end`). */
  readonly caught?: unknown[];
}

/** What a wire may say about a message; the rest comes from the connection. */
export interface RequestFacts {
  readonly protocolVersion?: string;
  readonly identity?: RequestIdentity;
  readonly mount?: string;
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
    protocolVersion: facts?.protocolVersion ?? connection.negotiatedVersion,
    identity: facts?.identity ?? NO_IDENTITY,
    transport,
    receivedAt: Date.now(),
    mount: facts?.mount,
  };
}

/** Whether this mock serves `version` per request (a revision with per-request `_meta` it accepts). */
export function servesPerRequest(version: unknown, accepted: readonly string[]): version is string {
  // The revision first: a legacy request's header (the common case) is refused by one comparison.
  return typeof version === "string" && versionHas(version, "perRequestMeta") && accepted.includes(version);
}

/**
 * THE place where a request's era is chosen. A request naming its version in
 * `params._meta["io.modelcontextprotocol/protocolVersion"]` is served in that revision, with no
 * session (its client facts come from the same `_meta`); any other request speaks what its
 * connection negotiated at `initialize`, as before. A named version the mock does not serve
 * per request is refused with -32022 listing what it does serve. Every wire gets this through
 * the engine, and the HTTP wire asks `servesPerRequest` / `declaredVersion` for its header rules.
 */
export function resolveRequestVersion(context: RequestContext, params: unknown, accepted: readonly string[]): RequestContext | JsonRpcErrorObject {
  const declared = declaredVersion(params);
  if (declared === undefined) return context;
  if (!servesPerRequest(declared, accepted)) return unsupportedVersion(declared, accepted);
  const meta = requestMeta(params)!;
  const capabilities = meta[META.clientCapabilities];
  if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) return missingMeta(META.clientCapabilities);
  const logLevel = meta[META.logLevel];
  // As logging/setLevel refuses one: a level nobody knows would let every log message through.
  if (logLevel !== undefined && !(LoggingLevels as readonly unknown[]).includes(logLevel)) return badLogLevel(logLevel);
  return { protocolVersion: declared, identity: context.identity, transport: context.transport, receivedAt: context.receivedAt, mount: context.mount, client: clientFactsOf(meta) };
}

function badLogLevel(level: unknown): JsonRpcErrorObject {
  return {
    code: ErrorCode.InvalidParams,
    message: `Invalid params: params._meta["${META.logLevel}"] is ${JSON.stringify(level)}, not a log level (${LoggingLevels.join(", ")}); leave it out to get no log messages`,
    data: { invalid: META.logLevel },
  };
}

/** -32602 for a 2026-07-28 request whose `_meta` lacks a required field (over HTTP: 400). */
export function missingMeta(field: string): JsonRpcErrorObject {
  return {
    code: ErrorCode.InvalidParams,
    message: `Invalid params: a ${revisionsWith("perRequestMeta")} request carries params._meta with "${META.protocolVersion}" and "${META.clientCapabilities}" (an object, {} for none); "${field}" is missing or not ${field === META.protocolVersion ? "a string" : "an object"}`,
    data: { missing: field },
  };
}

/** -32022: the versions served, newest first (per request, then through `initialize`), and the one asked for. */
export function unsupportedVersion(requested: unknown, accepted: readonly string[]): JsonRpcErrorObject {
  const supported = [...accepted].sort(compareVersions).reverse();
  const perRequest = supported.filter((version) => versionHas(version, "perRequestMeta"));
  const session = supported.filter((version) => versionHas(version, "initialize"));
  const offered = [perRequest.length > 0 ? `${perRequest.join(", ")} per request (in _meta)` : "", session.length > 0 ? `${session.join(", ")} through initialize` : ""].filter(Boolean);
  return {
    code: ErrorCode.UnsupportedProtocolVersion,
    message: `Unsupported protocol version ${JSON.stringify(requested)}: this server speaks ${offered.join("; ")}. Retry with one of data.supported.`,
    data: { supported, requested: typeof requested === "string" ? requested : JSON.stringify(requested) },
  };
}
