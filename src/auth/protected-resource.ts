/**
 * The MCP endpoint as a protected resource: its metadata (RFC 9728) at the path-inserted and
 * root well-known paths, and a gate in front of the endpoint that wants a bearer token the
 * mock's authorization server issued, unexpired, unrevoked, for this resource, with the scopes
 * the request needs. A missing or bad token gets 401 with `WWW-Authenticate: Bearer
 * resource_metadata="…"`; too few scopes get 403 `insufficient_scope` naming the scopes needed.
 * A token that passes becomes the request's `auth` fact, which tool calls see as `call.auth`.
 */
import type { BodyReader } from "../wire/http/body-gate.js";
import type { HttpExchange } from "../wire/http/exchange.js";
import type { ExchangeHandler } from "../wire/http/web-handler.js";
import type { AuthState } from "./auth-state.js";
import { metadataAnswer } from "./authorize-endpoint.js";
import { oauthError, testIdOf } from "./oauth-http.js";
import type { ChallengeEvent } from "./sign-in-record.js";
import type { AccessGrant } from "./tokens.js";

const PRM_PREFIX = "/.well-known/oauth-protected-resource";
const CHALLENGE_HEADERS = { "content-type": "application/json", "cache-control": "no-store" };

/** `Bearer name="value", …`, each value quoted (RFC 9110 §11.6.1). */
function bearerChallenge(params: ReadonlyArray<readonly [string, string]>): string {
  return params.length === 0 ? "Bearer" : `Bearer ${params.map(([name, value]) => `${name}="${value.replace(/["\\]/g, "\\$&")}"`).join(", ")}`;
}

/** The tools a JSON-RPC body calls (`tools/call`), read only when some tool needs its own scopes. */
function calledTools(text: string): string[] {
  if (!text.includes("tools/call")) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const names: string[] = [];
  for (const message of messages) {
    const candidate = message as { method?: unknown; params?: { name?: unknown } } | null;
    if (candidate?.method === "tools/call" && typeof candidate.params?.name === "string") names.push(candidate.params.name);
  }
  return names;
}

export class ProtectedResource {
  constructor(
    private readonly state: AuthState,
    /** The path of the MCP endpoint (`/mcp`). */
    private readonly mcpPath: string,
    private readonly origin: () => string,
    /** The issuer the metadata names, and the one a migration moves to. */
    private readonly issuers: { current: () => string; moved: () => string },
  ) {}

  /** Where the path-inserted metadata is: what the 401 challenge points to. */
  get metadataUrl(): string {
    return `${this.origin()}${this.metadataPaths[0]}`;
  }

  /** Path-inserted first (RFC 9728 §3.1), then root. */
  get metadataPaths(): string[] {
    return this.mcpPath === "/" ? [PRM_PREFIX] : [`${PRM_PREFIX}${this.mcpPath}`, PRM_PREFIX];
  }

  /** The metadata route's handler: the same document at both paths. */
  readonly metadataHandler = async (request: Request): Promise<Response> => {
    if (request.method !== "GET") return oauthError(405, "invalid_request", "Protected resource metadata is read with GET.", { allow: "GET" });
    const testId = testIdOf(request);
    const faults: string[] = [];
    const moved = this.state.faults.peekAll("authorization-server-moved", testId)[0];
    if (moved !== undefined) faults.push("authorization-server-moved");
    const document = {
      resource: this.state.resource(),
      authorization_servers: [moved === undefined ? this.issuers.current() : (moved.to ?? this.issuers.moved())],
      scopes_supported: [...this.state.options.scopes],
      bearer_methods_supported: ["header"],
      resource_name: "mcp-testkit mock MCP server",
    };
    this.state.record.add({ kind: "metadata", document: "protected-resource", path: new URL(request.url).pathname, testId: testId ?? null, status: 200, ...(faults.length > 0 && { faults }) });
    return metadataAnswer(document);
  };

  /** The scopes every request needs now: the configured ones and those the step-up faults added. */
  private requiredScopes(testId: string | undefined): string[] {
    const { options, faults } = this.state;
    const stepUps = faults.any ? faults.peekAll("step-up", testId) : [];
    if (stepUps.length === 0) return options.requiredScopes as string[];
    return [...new Set([...options.requiredScopes, ...stepUps.flatMap((fault) => [fault.scope ?? []].flat())])];
  }

  /** The MCP endpoint `inner` behind the gate. */
  gate(inner: ExchangeHandler): ExchangeHandler {
    const toolScopes = this.state.options.toolScopes;
    const guardsTools = Object.keys(toolScopes).length > 0;
    return {
      handle: (exchange, body) => {
        const grant = this.admit(exchange);
        if (grant === undefined) return;
        exchange.auth = grant.caller;
        if (!guardsTools || exchange.method !== "POST") return inner.handle(exchange, body);
        const reader: BodyReader = {
          read: (_exchange, then) =>
            body.read(exchange, (text) => {
              const needed = calledTools(text).flatMap((tool) => toolScopes[tool] ?? []);
              const missing = needed.filter((scope) => !grant.scopes.includes(scope));
              if (missing.length === 0) return then(text);
              const scopes = [...new Set([...this.requiredScopes(this.testIdOf(exchange)), ...needed])];
              this.refuse(
                exchange,
                403,
                "scope",
                [
                  ["error", "insufficient_scope"],
                  ["scope", scopes.join(" ")],
                  ["resource_metadata", this.metadataUrl],
                ],
                `the token lacks ${missing.join(", ")}`,
                grant.clientId,
              );
            }),
          request: (gated) => body.request(gated),
        };
        inner.handle(exchange, reader);
      },
    };
  }

  private testIdOf(exchange: HttpExchange): string | undefined {
    const header = exchange.header("x-test-id");
    if (header !== undefined && header !== "") return header;
    return exchange.hasQuery ? (exchange.query.get("testId") ?? undefined) : undefined;
  }

  /** The token's grant when the request may pass; undefined when it was refused (answered). */
  private admit(exchange: HttpExchange): AccessGrant | undefined {
    const { state } = this;
    const testId = state.faults.any ? this.testIdOf(exchange) : undefined;
    const header = exchange.header("authorization");
    const bearer = header !== undefined && header.length > 7 && header.slice(0, 7).toLowerCase() === "bearer " ? header.slice(7).trim() : undefined;
    if (bearer === undefined) {
      this.unauthorized(exchange, testId, "missing", header === undefined ? "no bearer token" : "the Authorization header is not Bearer");
      return undefined;
    }
    const grant = state.tokens.accessGrant(bearer);
    if (grant === undefined) return void this.unauthorized(exchange, testId, "unknown", "the token is not one this server's authorization server issued");
    if (state.faults.any) {
      if (state.faults.take("token-expired", testId) !== undefined) grant.expiresAt = Math.min(grant.expiresAt, Date.now() - 1);
      if (state.faults.take("token-revoked", testId) !== undefined) grant.revoked = true;
    }
    if (grant.revoked) return void this.unauthorized(exchange, testId, "revoked", "the token was revoked", grant.clientId);
    if (grant.expiresAt <= Date.now()) return void this.unauthorized(exchange, testId, "expired", "the token expired", grant.clientId);
    if (grant.audience !== state.resource()) return void this.unauthorized(exchange, testId, "audience", `the token was issued for ${grant.audience}, not this resource`, grant.clientId);
    const required = this.requiredScopes(testId);
    if (required.length > 0) {
      const missing = required.filter((scope) => !grant.scopes.includes(scope));
      if (missing.length > 0) {
        this.refuse(
          exchange,
          403,
          "scope",
          [
            ["error", "insufficient_scope"],
            ["scope", required.join(" ")],
            ["resource_metadata", this.metadataUrl],
          ],
          `the token lacks ${missing.join(", ")}`,
          grant.clientId,
        );
        return undefined;
      }
    }
    return grant;
  }

  private unauthorized(exchange: HttpExchange, testId: string | undefined, reason: ChallengeEvent["reason"], description: string, clientId?: string): void {
    const params: Array<[string, string]> =
      reason === "missing"
        ? []
        : [
            ["error", "invalid_token"],
            ["error_description", description],
          ];
    const hidden = this.state.faults.any && this.state.faults.take("no-resource-metadata", testId) !== undefined;
    if (!hidden) params.push(["resource_metadata", this.metadataUrl]);
    const required = this.requiredScopes(testId);
    if (required.length > 0) params.push(["scope", required.join(" ")]);
    this.refuse(exchange, 401, reason, params, description, clientId, hidden ? ["no-resource-metadata"] : undefined);
  }

  private refuse(
    exchange: HttpExchange,
    status: 401 | 403,
    reason: ChallengeEvent["reason"],
    params: ReadonlyArray<readonly [string, string]>,
    description: string,
    clientId?: string,
    faults?: string[],
  ): void {
    const wwwAuthenticate = bearerChallenge(params);
    const error = status === 403 ? "insufficient_scope" : reason === "missing" ? undefined : "invalid_token";
    this.state.record.add({
      kind: "challenge",
      testId: this.testIdOf(exchange) ?? null,
      status,
      wwwAuthenticate,
      reason,
      ...(error !== undefined && { error }),
      ...(clientId !== undefined && { clientId }),
      ...(faults !== undefined && { faults }),
    });
    const body = JSON.stringify({ error: error ?? "invalid_request", error_description: `${status === 401 ? "Unauthorized" : "Forbidden"}: ${description}` });
    exchange.respond(status, { ...CHALLENGE_HEADERS, "www-authenticate": wwwAuthenticate }, body);
  }
}
