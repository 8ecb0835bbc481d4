/**
 * How the driver signs in to an OAuth-protected server (`mcpConnect(url, { auth })`): a static
 * bearer token, client credentials (a secret or a signed JWT), or the authorization code flow
 * with PKCE, followed headlessly unless a test drives a browser through `authorize`.
 */
import { McpTestkitError } from "../../errors.js";
import { checkKeys } from "../../engine/spec-checks.js";
import { typeLabel } from "../../util/text.js";
import type { TokenStore } from "./token-store.js";

/** A client registered with the authorization server beforehand (no registration at sign-in). */
export interface RegisteredClient {
  clientId: string;
  /** For a confidential client; sent as the authorization server's metadata asks (Basic or in the form). */
  clientSecret?: string;
}

export interface ConnectAuth {
  /** A bearer token sent as it is; the driver signs in no further. */
  token?: string;
  /**
   * `"authorization_code"` (the default without `token`): PKCE S256, the user's consent fetched
   * headlessly (or through `authorize`). `"client_credentials"`: a machine client, with
   * `clientId` and `clientSecret` or `privateKey`.
   */
  grant?: "authorization_code" | "client_credentials";
  /** A pre-registered client id. Without it the driver uses `clientMetadataUrl` or registers dynamically (RFC 7591). */
  clientId?: string;
  /** The pre-registered client's secret (client credentials, or a confidential authorization-code client). */
  clientSecret?: string;
  /** Client credentials with `private_key_jwt`: the PKCS#8 PEM key that signs the client assertion. */
  privateKey?: string;
  /** The assertion's algorithm (default `"ES256"`). */
  signingAlgorithm?: string;
  /** A Client ID Metadata Document URL (https, with a path), used as the client id when the server supports it. */
  clientMetadataUrl?: string;
  /** The name given at dynamic registration (default `"mcp-testkit"`). */
  clientName?: string;
  /** The redirect URI; a loopback URL (default `http://127.0.0.1/callback`): nothing listens, the driver reads the redirect. */
  redirectUrl?: string;
  /**
   * Scopes to ask for when the server names none (its challenge's `scope`, then its metadata's
   * `scopes_supported`, come first).
   */
  scope?: string;
  /** Ask for `offline_access` (a refresh token) when the authorization server lists it (default true). */
  offlineAccess?: boolean;
  /**
   * Drives the user's consent: given the authorization URL, resolves with the URL the
   * authorization server redirected to (the callback, with `code` and `state`). Without it the
   * driver fetches the URL and follows its redirects to the callback, as a browser would.
   */
  authorize?: (authorizationUrl: URL) => Promise<string | URL>;
  /** How many times one request may be authorized (a 401, or a 403 asking for more scope) before giving up (default 3). */
  maxAttempts?: number;
  /** Where credentials are kept, by authorization server (issuer). Default: in memory, for this driver. */
  store?: TokenStore;
}

const AUTH_KEYS: Record<keyof ConnectAuth, true> = {
  token: true,
  grant: true,
  clientId: true,
  clientSecret: true,
  privateKey: true,
  signingAlgorithm: true,
  clientMetadataUrl: true,
  clientName: true,
  redirectUrl: true,
  scope: true,
  offlineAccess: true,
  authorize: true,
  maxAttempts: true,
  store: true,
};

/** How a message names a setting: `auth.clientId` in code; the CLI passes its flags' names. */
export type SettingNamer = (setting: keyof ConnectAuth) => string;
const optionName: SettingNamer = (setting) => `auth.${setting}`;

/** Throws for an `auth` option that cannot work, saying which setting and what it takes (in `name`'s words). */
export function checkAuthOptions(auth: unknown, name: SettingNamer = optionName): asserts auth is ConnectAuth {
  if (typeof auth !== "object" || auth === null || Array.isArray(auth))
    throw new McpTestkitError(`auth must be an object such as { token: "…" } or { clientId: "…", clientSecret: "…", grant: "client_credentials" }, got ${typeLabel(auth)}.`);
  checkKeys(auth, Object.keys(AUTH_KEYS), "auth");
  const options = auth as Record<string, unknown>;
  for (const key of ["token", "clientId", "clientSecret", "privateKey", "signingAlgorithm", "clientMetadataUrl", "clientName", "redirectUrl", "scope"] as const) {
    const value = options[key];
    // A secret's value is never shown, only its type.
    if (value !== undefined && (typeof value !== "string" || value === "")) throw new McpTestkitError(`${name(key)} must be a non-empty string, got ${typeLabel(value)}.`);
  }
  if (options.grant !== undefined && options.grant !== "authorization_code" && options.grant !== "client_credentials")
    throw new McpTestkitError(`${name("grant")} must be "authorization_code" or "client_credentials", got ${JSON.stringify(options.grant)}.`);
  if (options.authorize !== undefined && typeof options.authorize !== "function")
    throw new McpTestkitError(`auth.authorize must be a function (url) => the callback URL, got ${typeLabel(options.authorize)}.`);
  if (options.offlineAccess !== undefined && typeof options.offlineAccess !== "boolean")
    throw new McpTestkitError(`auth.offlineAccess must be true or false, got ${typeLabel(options.offlineAccess)}.`);
  const attempts = options.maxAttempts;
  if (attempts !== undefined && (typeof attempts !== "number" || !Number.isInteger(attempts) || attempts < 1 || attempts > 10))
    throw new McpTestkitError(`${name("maxAttempts")} must be a whole number from 1 to 10, got ${typeLabel(attempts)}.`);
  const store = options.store as Record<string, unknown> | undefined;
  if (store !== undefined && (typeof store?.get !== "function" || typeof store?.set !== "function"))
    throw new McpTestkitError("auth.store must have get(issuer) and set(issuer, credentials), as memoryTokenStore() does.");
  const given = (Object.keys(options) as (keyof ConnectAuth)[]).filter((key) => options[key] !== undefined);
  if (options.token !== undefined) {
    const extra = given.filter((key) => key !== "token");
    if (extra.length > 0)
      throw new McpTestkitError(
        `${name("token")} is a static bearer token: the driver signs in no further, so ${extra.map(name).join(", ")} would be ignored. Leave them out, or leave out the token.`,
      );
  }
  const machine = `${name("grant")} "client_credentials"`;
  if (options.grant === "client_credentials") {
    if (options.clientId === undefined)
      throw new McpTestkitError(`${machine} needs ${name("clientId")} (and ${name("clientSecret")} or ${name("privateKey")}): a machine client is registered beforehand.`);
    if ((options.clientSecret === undefined) === (options.privateKey === undefined))
      throw new McpTestkitError(`${machine} needs exactly one of ${name("clientSecret")} (client_secret_basic/post) and ${name("privateKey")} (private_key_jwt).`);
    if (options.authorize !== undefined) throw new McpTestkitError(`auth.authorize drives a user's consent, which ${machine} has none of: leave it out.`);
  } else if (options.privateKey !== undefined) {
    throw new McpTestkitError(`${name("privateKey")} signs a client assertion for ${machine}: add that grant, or leave the key out.`);
  }
  if (options.clientSecret !== undefined && options.clientId === undefined) throw new McpTestkitError(`${name("clientSecret")} belongs to a pre-registered client: give ${name("clientId")} too.`);
  if (options.clientMetadataUrl !== undefined && !isHttpsWithPath(options.clientMetadataUrl as string))
    throw new McpTestkitError(
      `${name("clientMetadataUrl")} must be an https URL with a path (it is the client id), such as "https://app.example.com/client.json", got ${JSON.stringify(options.clientMetadataUrl)}.`,
    );
  if (options.redirectUrl !== undefined && !isRedirectUrl(options.redirectUrl as string))
    throw new McpTestkitError(`${name("redirectUrl")} must be a loopback http URL or an https URL, such as "http://127.0.0.1/callback", got ${JSON.stringify(options.redirectUrl)}.`);
}

/** `URL.parse` is Node 22; this is the same on Node 20. */
function parsed(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

function isHttpsWithPath(value: string): boolean {
  const url = parsed(value);
  return url !== null && url.protocol === "https:" && url.pathname !== "/";
}

function isRedirectUrl(value: string): boolean {
  const url = parsed(value);
  if (url === null) return false;
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}
