/**
 * A web-standard handler (`Request → Response`) answering exchanges: the exchange becomes a
 * `Request`, the `Response` is written back. A method no `Request` can carry is answered here,
 * before any `Request` is made.
 */
import { logToStderr, type LogSink } from "../../util/log.js";
import { describeValue, errorText } from "../../util/text.js";
import type { BodyReader } from "./body-gate.js";
import type { HttpExchange } from "./exchange.js";
import { JSON_HEADERS } from "./post-answer.js";

/** A web-standard handler: a `Request` in, a `Response` out. */
export type WebHandler = (request: Request) => Response | Promise<Response>;

/**
 * A handler that answers an exchange itself (it never throws; errors are answered). It reads the
 * body through `body`, the router's gate for its route, so the route's limit is the router's.
 */
export interface ExchangeHandler {
  handle(exchange: HttpExchange, body: BodyReader): void;
}

/** The methods a route takes at a path, for the `Allow` header; undefined where unknown. */
export type MethodsAt = (path: string) => readonly string[] | undefined;

/** The fetch standard's forbidden methods: `new Request()` throws on them, whatever the handler. */
const NO_REQUEST_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

export function webExchangeHandler(handler: WebHandler, log: LogSink = logToStderr, methodsAt?: MethodsAt): ExchangeHandler {
  return {
    handle(exchange, body) {
      if (NO_REQUEST_METHODS.has(exchange.method.toUpperCase())) return refuseMethod(exchange, methodsAt?.(exchange.path));
      void answerWithWebHandler(exchange, body, handler, log);
    },
  };
}

/**
 * 501, not 405: 405 is for a method the server implements but not at this resource (RFC 9110
 * §9.1). No web handler can be given TRACE, CONNECT or TRACK, so no route served this way
 * implements them: that is 501 (§15.6.2). `Allow`, which any response may carry (§10.2.1),
 * still names what the route takes where that is known.
 */
function refuseMethod(exchange: HttpExchange, methods: readonly string[] | undefined): void {
  const takes = methods === undefined || methods.length === 0 ? "send it with a method the route takes, such as GET or POST" : `${exchange.path} takes ${methods.join(", ")}`;
  const error = `${exchange.method} has no handler here: ${exchange.path} is served by a web handler (Request → Response), and no Request can carry CONNECT, TRACE or TRACK (the fetch standard forbids them); ${takes}.`;
  const headers = methods === undefined || methods.length === 0 ? JSON_HEADERS : { ...JSON_HEADERS, allow: methods.join(", ") };
  exchange.respond(501, headers, JSON.stringify({ error, code: "MCP_HTTP_METHOD_NOT_IMPLEMENTED" }));
}

async function answerWithWebHandler(exchange: HttpExchange, body: BodyReader, handler: WebHandler, log: LogSink): Promise<void> {
  try {
    // Refused by the router's gate (413), answered: the handler is not called.
    const request = await body.request(exchange);
    if (request === undefined) return;
    const response = await handler(request);
    if (!isResponse(response)) throw new Error(`it returned ${describeValue(response)}, not a Response`);
    // `Response.error()` (status 0) is a network error: the client gets a dropped connection, as from a fetch server.
    if (response.status === 0 || response.type === "error") return exchange.destroy();
    const cut = await exchange.respondWith(response);
    if (cut !== undefined) log("warn", `mcp-testkit: the response body of the handler mounted at ${exchange.path} failed after its head was sent (${errorText(cut.error)}); the connection was cut.`);
  } catch (error) {
    const message = errorText(error);
    exchange.respond(500, JSON_HEADERS, JSON.stringify({ error: `the handler mounted at ${exchange.path} failed: ${message}` }));
  }
}

/** Shape, not `instanceof`: a `Response` from another copy of undici is one too. */
function isResponse(value: unknown): value is Response {
  const candidate = value as Partial<Response> | null;
  if (typeof candidate !== "object" || candidate === null || typeof candidate.status !== "number" || typeof candidate.headers?.forEach !== "function") return false;
  return candidate.body === null || typeof candidate.body?.getReader === "function";
}
