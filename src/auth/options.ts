/**
 * What `mockMcp({ auth })` takes: the protected resource's rules, its authorization server's
 * behaviour, its clients and its faults. Everything has a default, so `auth: {}` (or the CLI's
 * `--auth`) is a working protected mock whose authorization server consents by itself.
 */
import type { AuthFault } from "./faults.js";

/** What the authorization endpoint tells the consent policy about one authorization request. */
export interface ConsentRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  readonly resource?: string;
}

/**
 * How one authorization request is answered: approve it (optionally as another user, or with
 * fewer scopes), deny it (`access_denied`), or answer any OAuth error.
 */
export type ConsentAnswer = "approve" | "deny" | { error: string; description?: string } | { approve: { subject?: string; scopes?: readonly string[] } };

/** The consent policy: a fixed answer, or a function the test decides with (it may wait). */
export type ConsentPolicy = ConsentAnswer | ((request: ConsentRequest) => ConsentAnswer | Promise<ConsentAnswer>);

/** A client the authorization server knows before any registration. */
export interface PreRegisteredClient {
  clientId: string;
  /** A confidential client's secret (client_secret_basic or client_secret_post); none for a public client. */
  clientSecret?: string;
  /** Where the authorization endpoint may send the code; default: any loopback URI. */
  redirectUris?: readonly string[];
  /** Default: authorization_code and refresh_token, plus client_credentials for a client with a secret. */
  grantTypes?: readonly string[];
}

/** A Client ID Metadata Document given in code: the client's metadata, as its URL would serve it. */
export interface ClientMetadataDocument {
  redirect_uris?: readonly string[];
  client_name?: string;
  grant_types?: readonly string[];
  token_endpoint_auth_method?: string;
}

export interface MockAuthOptions {
  /** The scopes the resource knows (`scopes_supported`). Default `["mcp:tools"]`. */
  scopes?: readonly string[];
  /** Scopes every MCP request's token needs (too few: 403 `insufficient_scope`); sent as the 401 challenge's `scope`. Default none. */
  requiredScopes?: readonly string[];
  /** Scopes a `tools/call` of a tool needs, by tool name (too few: 403 `insufficient_scope` naming them): step-up. */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
  /** Where the authorization server listens: on the mock's own port (default), or on a port of its own (`{ port: 0 }`: a free one). */
  authorizationServer?: "same-port" | { port?: number };
  /** A path for the issuer (`/tenant-1`), so its metadata sits at the path-inserted well-known URLs. Default none (a root issuer). */
  issuerPath?: string;
  /** Access tokens as JWTs signed with a key from the JWKS endpoint (default), or as opaque strings. */
  tokenFormat?: "jwt" | "opaque";
  /** Lifetime of an access token in seconds (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Issue refresh tokens with the authorization code grant (default true). */
  refreshTokens?: boolean;
  /** A refresh answers with a new refresh token and retires the old one (default true, as OAuth 2.1 asks of public clients). */
  rotateRefreshTokens?: boolean;
  /** Advertise and honour the `offline_access` scope (default true). */
  offlineAccess?: boolean;
  /** How the authorization endpoint answers (default `"approve"`: it consents by itself, headless). */
  consent?: ConsentPolicy;
  /** The user an approved authorization speaks for (default `"user-1"`). */
  subject?: string;
  /** Clients known before any registration. */
  clients?: readonly PreRegisteredClient[];
  /** Dynamic client registration (RFC 7591) at the registration endpoint (default true). */
  registration?: boolean;
  /**
   * Client ID Metadata Documents: a `client_id` that is a URL. Default true: fetched when the URL
   * is a loopback one, refused otherwise. An object accepts those URLs as given, without a fetch
   * (`true` for any loopback redirect URI, or the document itself), and still fetches loopback ones.
   */
  clientMetadataDocuments?: boolean | Readonly<Record<string, true | ClientMetadataDocument>>;
  /** Send `iss` in the authorization response and advertise it (RFC 9207). Default true. */
  issParameter?: boolean;
  /** Resources besides the MCP endpoint that tokens may be issued for (their audience), such as another server's URL. */
  audiences?: readonly string[];
  /** Faults from the start (more with `server.auth.addFaults()` or the control API). */
  faults?: readonly AuthFault[];
}

/** The options with every default filled in. */
export interface ResolvedAuthOptions {
  readonly scopes: readonly string[];
  readonly requiredScopes: readonly string[];
  readonly toolScopes: Readonly<Record<string, readonly string[]>>;
  readonly ownPort: number | undefined;
  readonly issuerPath: string;
  readonly tokenFormat: "jwt" | "opaque";
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokens: boolean;
  readonly rotateRefreshTokens: boolean;
  readonly offlineAccess: boolean;
  readonly consent: ConsentPolicy;
  readonly subject: string;
  readonly clients: readonly PreRegisteredClient[];
  readonly registration: boolean;
  readonly fixedClientDocuments: Readonly<Record<string, true | ClientMetadataDocument>>;
  readonly clientMetadataDocuments: boolean;
  readonly issParameter: boolean;
  readonly audiences: readonly string[];
  readonly faults: readonly AuthFault[];
}

export const DEFAULT_SCOPES = ["mcp:tools"] as const;
