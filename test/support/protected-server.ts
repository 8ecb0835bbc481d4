/**
 * An OAuth-protected MCP server built from the official SDK v1's own parts, on 127.0.0.1: its
 * authorization server router (`mcpAuthRouter`: metadata, registration, authorize, token), its
 * bearer middleware (`requireBearerAuth`: 401 and 403 with their challenges, the audience
 * checked) and a stateless Streamable HTTP MCP server with one tool. The authorization endpoint
 * consents at once (a 302 to the redirect URI with a code), as a test's authorization server does.
 * Tokens, codes and clients live in memory; `expireTokens()` makes every access token stale.
 */
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** The little of express used here: the SDK's auth router and middleware are express handlers (and no types for express are installed). */
interface ExpressApp {
  use(handler: unknown): void;
  all(path: string, ...handlers: unknown[]): void;
  listen(port: number, host: string, ready: () => void): Server;
}
interface ExpressRequest {
  body: unknown;
  auth?: AuthInfo;
}
interface ExpressResponse {
  redirect(url: string): void;
  on(event: "close", listener: () => void): void;
}
const express = createRequire(import.meta.url)("express") as { (): ExpressApp; json(): unknown };

export interface ProtectedServerOptions {
  /** Scopes every MCP request needs (403 insufficient_scope without them). */
  requiredScopes?: string[];
  /** Scopes the metadata lists. */
  scopesSupported?: string[];
}

export interface ProtectedServer {
  /** The MCP endpoint. */
  url: string;
  /** What the authorization server saw, in order (grant types and scopes; never a secret). */
  readonly log: string[];
  /** Every access token issued so far expires now. */
  expireTokens(): void;
  /** A valid token issued for another resource (audience), for a test of the audience check. */
  tokenForAnotherAudience(scopes?: string[]): string;
  /** A valid token for this resource with the scopes given. */
  tokenWithScopes(scopes: string[]): string;
  close(): Promise<void>;
}

interface IssuedToken {
  clientId: string;
  scopes: string[];
  resource: URL | undefined;
  expiresAt: number;
}

class ConsentingProvider implements OAuthServerProvider {
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  readonly tokens = new Map<string, IssuedToken>();
  private readonly refreshTokens = new Map<string, { clientId: string; scopes: string[]; resource: URL | undefined }>();
  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => this.clients.get(clientId),
    registerClient: (client) => {
      const registered = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
      this.clients.set(registered.client_id, registered);
      this.log.push("register");
      return registered;
    },
  };

  constructor(readonly log: string[]) {}

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: ExpressResponse): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, params });
    this.log.push(`authorize scope=${(params.scopes ?? []).join(" ")} resource=${params.resource?.href ?? "none"}`);
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (entry === undefined) throw new InvalidGrantError("unknown authorization code");
    return entry.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (entry === undefined || entry.clientId !== client.client_id) throw new InvalidGrantError("unknown authorization code");
    this.codes.delete(code);
    this.log.push("token authorization_code");
    return this.issue(client.client_id, entry.params.scopes ?? [], entry.params.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const entry = this.refreshTokens.get(refreshToken);
    if (entry === undefined || entry.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    this.refreshTokens.delete(refreshToken);
    this.log.push("token refresh_token");
    return this.issue(client.client_id, entry.scopes, entry.resource);
  }

  issue(clientId: string, scopes: string[], resource: URL | undefined): OAuthTokens {
    const accessToken = randomUUID();
    const refreshToken = randomUUID();
    this.tokens.set(accessToken, { clientId, scopes, resource, expiresAt: Date.now() + 3_600_000 });
    this.refreshTokens.set(refreshToken, { clientId, scopes, resource });
    return { access_token: accessToken, token_type: "Bearer", expires_in: 3600, refresh_token: refreshToken, scope: scopes.join(" ") };
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.tokens.get(token);
    // An unknown token is a 401 (the SDK's demo provider throws a plain Error there, which is a 500).
    if (entry === undefined || entry.expiresAt < Date.now()) throw new InvalidTokenError("unknown or expired token");
    return { token, clientId: entry.clientId, scopes: entry.scopes, expiresAt: Math.floor(entry.expiresAt / 1000), ...(entry.resource === undefined ? {} : { resource: entry.resource }) };
  }
}

/** Starts the server; close it with `close()`. */
export async function startProtectedServer(options: ProtectedServerOptions = {}): Promise<ProtectedServer> {
  const log: string[] = [];
  const provider = new ConsentingProvider(log);
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = new URL("/mcp", base);
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(base),
      resourceServerUrl: mcpUrl,
      ...(options.scopesSupported === undefined ? {} : { scopesSupported: options.scopesSupported }),
    }),
  );
  const bearer = requireBearerAuth({
    verifier: provider,
    requiredScopes: options.requiredScopes ?? [],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    expectedResource: mcpUrl,
  });
  app.all("/mcp", express.json(), bearer, async (req: ExpressRequest, res: ExpressResponse) => {
    const mcp = new McpServer({ name: "protected", version: "1.0.0" });
    mcp.registerTool("whoami", { description: "Says which client called" }, async (extra) => ({ content: [{ type: "text", text: `client ${extra.authInfo?.clientId ?? "unknown"}` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req as never, res as never, req.body);
  });
  return {
    url: mcpUrl.href,
    log,
    expireTokens: () => {
      for (const token of provider.tokens.values()) token.expiresAt = 0;
    },
    tokenForAnotherAudience: (scopes = options.requiredScopes ?? []) => provider.issue("test", scopes, new URL("https://elsewhere.example/mcp")).access_token,
    tokenWithScopes: (scopes) => provider.issue("test", scopes, mcpUrl).access_token,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
