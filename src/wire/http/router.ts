/**
 * Routes HTTP requests by path: the MCP endpoint(s), and beside them any other handler (the
 * control API, `/metrics`, a user's own). A handler is either exchange-level (the MCP endpoint,
 * the fast path) or a web-standard `Request → Response` function. One router serves a
 * standalone port (`listen`) as well as a mock mounted in the user's server (`server.handler`,
 * `server.fetch`): a web handler's throw is answered 500 here, whichever the way in. In front of
 * every route, mounted now or later, the edge checks run: a target with a fragment is 400, and a
 * foreign Host or Origin is 403 (DNS-rebinding protection), so no route can forget them. Each
 * route's body rule (its byte limit, the media types a POST may carry) is the router's too: the
 * media type is checked before the handler runs, and a handler reads its body only through the
 * route's gate, each refused in the route's own words (`body-gate.ts`).
 */
import { McpTestkitError } from "../../errors.js";
import { logToStderr, type LogSink } from "../../util/log.js";
import { describeValue } from "../../util/text.js";
import { BodyGate, checkBodyRule, DEFAULT_WEB_BODY_LIMIT, jsonRpcRefusalMessage, respondRefusal, webRefusal, type BodyRefusal, type BodyRefusalWording, type BodyRule } from "./body-gate.js";
import type { HttpExchange } from "./exchange.js";
import { isWellFormedAuthority, refusalMessage, type OriginGuard } from "./origin-guard.js";
import { JSON_HEADERS } from "./post-answer.js";
import { webExchangeHandler, type ExchangeHandler, type MethodsAt, type WebHandler } from "./web-handler.js";

export type { ExchangeHandler, WebHandler } from "./web-handler.js";
export type { BodyRule } from "./body-gate.js";

export type RouteHandler = ExchangeHandler | WebHandler;

export interface MountOptions {
  /** Also serve every path under `path` (`/__control` serves `/__control/journal`). Default false. */
  prefix?: boolean;
  /** Left out of the list of paths a 404 shows (the control API: not an endpoint to connect to). */
  unlisted?: boolean;
  /**
   * Serve requests with any `Host` and any `Origin` at this path: the DNS-rebinding guard that
   * stands in front of every route (`dnsRebindingProtection`, `allowedHosts`, `allowedOrigins`)
   * lets them through here, and only here. For a handler that is meant to be reached by other
   * names or from other sites (a webhook behind a tunnel); a web page can then read and call it
   * from any site the developer visits, so leave it off for anything that shows or changes the
   * mock's state. Default false.
   */
  allowForeignHosts?: boolean;
  /**
   * What bodies the route takes: `{ maxBytes, contentTypes? }`. The router refuses a larger body
   * with 413 and a POST of another media type with 415, before the handler is called. Default:
   * any media type, up to 16 MiB.
   */
  body?: BodyRule;
}

/** Mount options the mock itself uses beside the public ones. */
export interface RouteOptions extends MountOptions {
  /** The methods a web handler takes at a path, named when a method no `Request` can carry is refused. */
  methodsAt?: MethodsAt;
  /** How a body refusal (413, 415) is worded at this route; default `{ error }` JSON. */
  bodyRefusal?: BodyRefusalWording;
}

/** The edge of a router: the guard in front of its routes, and who hears of a refusal. */
export interface RouterEdge {
  /** DNS-rebinding protection; none (off) when undefined. */
  guard?: OriginGuard;
  /** Told of each request the edge refused (the mock's `http:rejected` event). */
  onRefused?: (status: number, path: string) => void;
}

interface Route {
  readonly path: string;
  readonly prefix: boolean;
  readonly unlisted: boolean;
  readonly allowForeignHosts: boolean;
  readonly handler: ExchangeHandler;
  readonly gate: BodyGate;
}

export class Router {
  private readonly exact = new Map<string, Route>();
  private prefixes: Route[] = [];
  /** The last authority found well formed: a client sends the same one every time, so it is checked once. */
  private lastWellFormed?: string;

  /** `log`: where a web handler's body that failed after its head went out is told (the client only sees a cut). */
  constructor(
    private readonly log: LogSink = logToStderr,
    private readonly edge: RouterEdge = {},
  ) {}

  /**
   * Mounts `handler` at `path` (exact, or a prefix); returns a function that unmounts it.
   * A path that is taken already is refused.
   */
  mount(path: string, handler: RouteHandler, options: RouteOptions = {}): () => void {
    if (typeof path !== "string" || !path.startsWith("/")) throw new McpTestkitError(`A mount path must start with "/", got ${JSON.stringify(path)}.`);
    const prefix = options.prefix ?? false;
    const unlisted = options.unlisted ?? false;
    const allowForeignHosts = options.allowForeignHosts ?? false;
    // Opting out of the guard is a security decision: only `true` itself does it.
    if (typeof allowForeignHosts !== "boolean") throw new McpTestkitError(`"allowForeignHosts" must be true or false, got ${describeValue(allowForeignHosts)}.`);
    const rule = options.body === undefined ? { maxBytes: DEFAULT_WEB_BODY_LIMIT } : checkBodyRule(options.body);
    const exchangeHandler = typeof handler === "function" ? webExchangeHandler(handler, this.log, options.methodsAt) : handler;
    const route: Route = { path, prefix, unlisted, allowForeignHosts, handler: exchangeHandler, gate: new BodyGate(rule, this.refusalFor(options.bodyRefusal)) };
    if (this.exact.has(path) || this.prefixes.some((taken) => taken.path === path)) {
      throw new McpTestkitError(`Something is mounted at ${path} already; mounted: ${this.paths.join(", ")}.`);
    }
    if (prefix) this.prefixes = [...this.prefixes, route].sort((a, b) => b.path.length - a.path.length);
    else this.exact.set(path, route);
    return () => {
      if (this.exact.get(path) === route) this.exact.delete(path);
      this.prefixes = this.prefixes.filter((taken) => taken !== route);
    };
  }

  /** Every mounted path but the unlisted ones (prefix mounts end with `/*`). */
  get paths(): string[] {
    const listed = (route: Route) => !route.unlisted;
    return [...[...this.exact.values()].filter(listed).map((route) => route.path), ...this.prefixes.filter(listed).map((route) => `${route.path}/*`)];
  }

  /** Every mounted path, the unlisted ones too (prefix mounts end with `/*`). */
  get allPaths(): string[] {
    return [...this.exact.keys(), ...this.prefixes.map((route) => `${route.path}/*`)];
  }

  /** The route for `path`: an exact mount, else the longest prefix mount that contains it. */
  private find(path: string): Route | undefined {
    const exact = this.exact.get(path);
    if (exact !== undefined) return exact;
    for (const route of this.prefixes) if (path === route.path || path.startsWith(route.path.endsWith("/") ? route.path : `${route.path}/`)) return route;
    return undefined;
  }

  /** Whether some handler is mounted for `path`. */
  has(path: string): boolean {
    return this.find(path) !== undefined;
  }

  /** How a route's body refusals are answered. */
  private refusalFor(wording: BodyRefusalWording = webRefusal): (exchange: HttpExchange, refusal: BodyRefusal) => void {
    if (wording === "json-rpc") return (exchange, refusal) => this.refuse(exchange, refusal.status, jsonRpcRefusalMessage(refusal));
    return (exchange, refusal) => respondRefusal(exchange, refusal, wording);
  }

  /**
   * Answers an exchange by its path, once the edge let it in; where nothing is mounted, the route
   * mounted at `fallback` answers (a mock inside a framework that strips its mount path), else 404
   * listing what is mounted.
   */
  handle(exchange: HttpExchange, fallback?: string): void {
    const found = this.find(exchange.path);
    if (!this.admits(exchange, found)) return;
    const route = found ?? (fallback === undefined ? undefined : this.find(fallback));
    if (route !== undefined) {
      if (route.gate.admits(exchange)) route.handler.handle(exchange, route.gate);
      return;
    }
    exchange.respond(404, { "content-type": "text/plain" }, `No MCP endpoint at ${exchange.path}; endpoints: ${this.paths.join(", ") || "none"}\n`);
  }

  /** The edge checks, before any route sees the request (a 404 too: it lists what is mounted). False: refused, answered. */
  private admits(exchange: HttpExchange, route: Route | undefined): boolean {
    if (exchange.hasFragment) {
      this.refuse(exchange, 400, "Bad Request: the request target has a fragment (#...); a client never sends one (RFC 9112 §3.2), so send the target without it");
      return false;
    }
    const authority = exchange.authority;
    if (authority !== undefined && authority !== this.lastWellFormed) {
      if (!isWellFormedAuthority(authority)) {
        this.refuse(
          exchange,
          400,
          `Bad Request: ${exchange.authorityFromTarget ? "the request target's authority" : "the Host header"} ${JSON.stringify(authority)} is not host[:port]; send one Host header naming the server (127.0.0.1:3000), with no user info, path or query`,
        );
        return false;
      }
      this.lastWellFormed = authority;
    }
    const guard = this.edge.guard;
    if (guard === undefined || route?.allowForeignHosts === true) return true;
    const refusal = guard.check(exchange.authority, exchange.header("origin"));
    if (refusal === undefined) return true;
    this.refuse(exchange, 403, refusalMessage(refusal, refusal.header === "Host" && exchange.authorityFromTarget));
    return false;
  }

  /** A JSON-RPC error body, as the MCP endpoint answers its own refusals: what an MCP client reads. */
  private refuse(exchange: HttpExchange, status: number, message: string): void {
    exchange.respond(status, JSON_HEADERS, JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
    this.edge.onRefused?.(status, exchange.path);
  }
}
