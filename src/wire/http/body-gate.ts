/**
 * The router's body middleware: what bodies a route takes (a byte limit, the media types a POST
 * may carry), checked by the router for every route, and refused in the route's own words (the
 * MCP endpoint a JSON-RPC error, the control API its problem JSON). A route reads its body only
 * through its gate, so the limit is the router's; the media type is checked before the route's
 * handler runs.
 */
import { McpTestkitError } from "../../errors.js";
import { describeValue } from "../../util/text.js";
import { BODY_TOO_LARGE, type HttpExchange } from "./exchange.js";
import { JSON_HEADERS } from "./post-answer.js";

/** What bodies a route takes. */
export interface BodyRule {
  /** The largest body read, in bytes; a larger one is refused with 413 before the handler sees it. */
  maxBytes: number;
  /**
   * The media types a POST may carry (`application/json`), matched case-insensitively with any
   * parameters (`; charset=utf-8`) ignored; another, or none, is refused with 415 before the
   * handler runs. Default: any.
   */
  contentTypes?: readonly string[];
}

/** Why the router refused a body: what a route words its refusal from. */
export type BodyRefusal = { status: 413; maxBytes: number } | { status: 415; contentType: string | undefined; accepted: readonly string[] };

/** How a route words a body refusal: as a JSON-RPC error (an MCP endpoint), or the JSON object a function makes. */
export type BodyRefusalWording = "json-rpc" | ((refusal: BodyRefusal) => Record<string, unknown>);

/** The largest body a web handler is given when its route declares no limit (the control API takes fixture files). */
export const DEFAULT_WEB_BODY_LIMIT = 16 * 1024 * 1024;

/** The message of a refusal as the MCP endpoint has always worded it (in a JSON-RPC error, -32000). */
export function jsonRpcRefusalMessage(refusal: BodyRefusal): string {
  if (refusal.status === 413) return `Payload Too Large: the body exceeds ${refusal.maxBytes} bytes`;
  return `Unsupported Media Type: Content-Type must be ${refusal.accepted.join(" or ")}`;
}

/** A web handler's refusal, unless its route words its own: `{ error }`. */
export function webRefusal(refusal: BodyRefusal): Record<string, unknown> {
  if (refusal.status === 413) return { error: `the body exceeds ${refusal.maxBytes} bytes` };
  return { error: `Unsupported Media Type: Content-Type must be ${refusal.accepted.join(" or ")}, got ${refusal.contentType === undefined ? "none" : JSON.stringify(refusal.contentType)}` };
}

/** How a route reads its body: through the router's gate, under the route's limit. */
export interface BodyReader {
  /** Calls `then` with the body's text; past the limit the route's refusal is answered instead, and `then` is never called. */
  read(exchange: HttpExchange, then: (text: string) => void): void;
  /** The request as a web `Request`, its body under the limit; undefined when it was refused (answered). */
  request(exchange: HttpExchange): Promise<Request | undefined>;
}

export class BodyGate implements BodyReader {
  readonly maxBytes: number;
  /** Media types without parameters, lower-case; undefined: any. */
  private readonly contentTypes?: readonly string[];

  constructor(
    rule: BodyRule,
    private readonly refuse: (exchange: HttpExchange, refusal: BodyRefusal) => void,
  ) {
    this.maxBytes = rule.maxBytes;
    // Read as a request's are: "Application/JSON; charset=utf-8" declares application/json.
    this.contentTypes = rule.contentTypes?.map(mediaType);
  }

  /** Whether a request's media type is one the route takes (only a POST's is checked); false: refused, answered. */
  admits(exchange: HttpExchange): boolean {
    const accepted = this.contentTypes;
    if (accepted === undefined || exchange.method !== "POST") return true;
    const contentType = exchange.header("content-type");
    if (contentType !== undefined && accepted.includes(mediaType(contentType))) return true;
    this.refuse(exchange, { status: 415, contentType, accepted });
    return false;
  }

  read(exchange: HttpExchange, then: (text: string) => void): void {
    exchange.readBody(this.maxBytes, (body) => {
      if (body === BODY_TOO_LARGE) this.refuse(exchange, { status: 413, maxBytes: this.maxBytes });
      else then(body);
    });
  }

  async request(exchange: HttpExchange): Promise<Request | undefined> {
    const request = await exchange.toRequest(this.maxBytes);
    if (request === undefined) this.refuse(exchange, { status: 413, maxBytes: this.maxBytes });
    return request;
  }
}

/** `Application/JSON; charset=utf-8` → `application/json`. */
function mediaType(contentType: string): string {
  const semicolon = contentType.indexOf(";");
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Answers a refusal worded by a function, as JSON. */
export function respondRefusal(exchange: HttpExchange, refusal: BodyRefusal, word: (refusal: BodyRefusal) => Record<string, unknown>): void {
  exchange.respond(refusal.status, JSON_HEADERS, JSON.stringify(word(refusal)));
}

/** A mount's `body` option, checked: a route that gets it wrong fails at mount, not on its first request. */
export function checkBodyRule(rule: unknown): BodyRule {
  if (typeof rule !== "object" || rule === null) throw new McpTestkitError(`"body" must be an object such as { maxBytes: 65536 }, got ${describeValue(rule)}.`);
  const { maxBytes, contentTypes } = rule as Record<string, unknown>;
  if (typeof maxBytes !== "number" || !Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new McpTestkitError(`"body.maxBytes" must be a whole number of bytes, got ${describeValue(maxBytes)}.`);
  if (contentTypes !== undefined && (!Array.isArray(contentTypes) || contentTypes.length === 0 || contentTypes.some((type) => typeof type !== "string" || type.trim() === ""))) {
    throw new McpTestkitError(`"body.contentTypes" must be a non-empty array of media types such as ["application/json"], got ${describeValue(contentTypes)}.`);
  }
  return { maxBytes, ...(contentTypes !== undefined && { contentTypes: contentTypes as string[] }) };
}
