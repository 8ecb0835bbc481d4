/**
 * A `fetch` that signs in: it sends the bearer token it holds, and when the server answers 401
 * (no token, or one that expired) or 403 `insufficient_scope` (a step-up), it signs in, or
 * refreshes, and sends the request again, at most `maxAttempts` times for one request.
 *
 * The protocol is the SDK's own client (`auth()` in `@modelcontextprotocol/sdk/client/auth.js`):
 * discovery (RFC 9728, RFC 8414 and OpenID, in the order the spec gives), registration (a
 * pre-registered client, a Client ID Metadata Document, or RFC 7591), PKCE S256, the `resource`
 * parameter (RFC 8707), client authentication and refresh. What it does not do is here: the
 * metadata's `issuer` compared with the URL it was fetched for, the scope chosen (the challenge's,
 * else the metadata's, unioned on a step-up, `offline_access` when offered), the retry limit,
 * and credentials switched by issuer when a server moves to another authorization server.
 */
import { SignInError } from "./sign-in-error.js";
import type { ConnectAuth } from "./options.js";
import { SignInProvider } from "./sign-in-provider.js";

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

const DEFAULT_MAX_ATTEMPTS = 3;

/** A fetch that sends `auth`'s credentials to `serverUrl` and signs in when asked; `base` carries every request. */
export function signedInFetch(auth: ConnectAuth, serverUrl: URL, base: FetchLike): FetchLike {
  if (auth.token !== undefined) return staticTokenFetch(auth.token, base);
  const session = new SignInSession(auth, serverUrl, base);
  return (input, init) => session.send(input, init);
}

function staticTokenFetch(token: string, base: FetchLike): FetchLike {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${token}`);
    const response = await base(input, { ...init, headers });
    if (response.status !== 401) return response;
    await response.body?.cancel().catch(() => undefined);
    throw new SignInError(
      "token_refused",
      `the server refused the bearer token given in auth.token with HTTP 401${describeChallenge(response)}. Give a token this server accepts, or sign in instead (leave token out).`,
      {
        settings: ["token"],
        ...oauthErrorOf(response),
      },
    );
  };
}

class SignInSession {
  private readonly provider: SignInProvider;
  private readonly maxAttempts: number;
  /** One sign-in at a time: requests refused meanwhile wait for it, then go again. */
  private signing: Promise<void> | undefined;
  /** The scope last asked for, unioned with a step-up's (SEP-2350: keep what was granted). */
  private grantedScope: string | undefined;

  constructor(
    private readonly auth: ConnectAuth,
    private readonly serverUrl: URL,
    private readonly base: FetchLike,
  ) {
    this.provider = new SignInProvider(auth, base);
    this.maxAttempts = auth.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  }

  async send(input: string | URL, init: RequestInit | undefined): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const pending = this.signing;
      if (pending !== undefined) await pending;
      const headers = new Headers(init?.headers);
      const token = this.provider.tokens()?.access_token;
      if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
      const response = await this.base(input, { ...init, headers });
      const stepUp = response.status === 403 && challengeError(response) === "insufficient_scope";
      if (response.status !== 401 && !stepUp) return response;
      await response.body?.cancel().catch(() => undefined);
      if (attempt >= this.maxAttempts) {
        throw new SignInError(
          "attempts_exhausted",
          `the server still answered HTTP ${response.status}${describeChallenge(response)} after ${this.maxAttempts} sign-in${this.maxAttempts === 1 ? "" : "s"} for one request${stepUp ? ": it asks for a scope the authorization server does not grant" : ""}.`,
          { settings: stepUp ? ["scope", "maxAttempts"] : ["clientId", "maxAttempts"], ...oauthErrorOf(response) },
        );
      }
      // A sign-in that another request began covers this one too, unless it was made with the token refused here.
      if (this.signing === undefined || this.provider.tokens()?.access_token === token) {
        this.signing ??= this.signIn(response, stepUp, attempt).finally(() => {
          this.signing = undefined;
        });
      }
      await this.signing;
    }
  }

  private async signIn(response: Response, stepUp: boolean, attempt: number): Promise<void> {
    const sdk = await import("@modelcontextprotocol/sdk/client/auth.js");
    const { resourceMetadataUrl, scope: challenged } = sdk.extractWWWAuthenticateParams(response);
    const info = await oauthStep("discovering the authorization server", () =>
      sdk.discoverOAuthServerInfo(this.serverUrl, { ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }), fetchFn: this.base }),
    );
    const advertised = info.resourceMetadata?.authorization_servers?.[0];
    const metadata = info.authorizationServerMetadata;
    if (advertised !== undefined && metadata !== undefined && metadata.issuer !== advertised) {
      throw new SignInError(
        "metadata_issuer_mismatch",
        `the authorization server metadata fetched for ${JSON.stringify(advertised)} names the issuer ${JSON.stringify(metadata.issuer)}; they must be identical (RFC 8414 §3.3), so the metadata was not used.`,
      );
    }
    this.checkCanRegister(metadata);
    await this.provider.useIssuer(info.authorizationServerUrl, { ...info, ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: resourceMetadataUrl.href }) });
    // A step-up needs a new authorization (a refresh keeps the old scope); so does a token refused twice.
    if (stepUp || attempt > 0) await this.provider.invalidateCredentials("tokens");
    const scope = this.chooseScope(challenged ?? info.resourceMetadata?.scopes_supported?.join(" ") ?? this.auth.scope, stepUp, metadata?.scopes_supported);
    this.provider.requestedScope = scope;
    const options = { serverUrl: this.serverUrl, ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }), ...(scope === undefined ? {} : { scope }), fetchFn: this.base };
    let result = await oauthStep("signing in", () => sdk.auth(this.provider, options));
    if (result === "REDIRECT") {
      const authorizationCode = this.provider.takeCode();
      if (authorizationCode === undefined) throw new SignInError("no_authorization_code", "the authorization request gave no code.");
      result = await oauthStep("exchanging the authorization code", () => sdk.auth(this.provider, { ...options, authorizationCode }));
    }
    this.grantedScope = scope;
  }

  /** Without a client id, the authorization server must take a metadata document URL or register clients; else say what to set. */
  private checkCanRegister(metadata: { registration_endpoint?: string; client_id_metadata_document_supported?: boolean } | undefined): void {
    if (this.auth.clientId !== undefined || metadata === undefined || metadata.registration_endpoint !== undefined) return;
    if (this.auth.clientMetadataUrl !== undefined && metadata.client_id_metadata_document_supported === true) return;
    throw new SignInError(
      "oauth_error",
      `the authorization server registers no clients (its metadata has no registration_endpoint)${metadata.client_id_metadata_document_supported === true ? " and takes a Client ID Metadata Document, which needs auth.clientMetadataUrl" : ""}: give the client id it was registered with.`,
      { settings: metadata.client_id_metadata_document_supported === true ? ["clientId", "clientMetadataUrl"] : ["clientId", "clientSecret"] },
    );
  }

  /** The challenge's scope (or the metadata's), with what was granted before on a step-up, and `offline_access` when the authorization server offers it. */
  private chooseScope(wanted: string | undefined, stepUp: boolean, offered: string[] | undefined): string | undefined {
    const scopes = new Set((stepUp ? `${this.grantedScope ?? ""} ${wanted ?? ""}` : (wanted ?? "")).split(" ").filter(Boolean));
    if (this.auth.grant !== "client_credentials" && this.auth.offlineAccess !== false && offered?.includes("offline_access")) scopes.add("offline_access");
    return scopes.size === 0 ? undefined : [...scopes].join(" ");
  }
}

/** Runs one step of the SDK's flow; its errors become a `SignInError` that says which step, and the OAuth error. */
async function oauthStep<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SignInError) throw error;
    const oauthError = (error as { errorCode?: unknown }).errorCode;
    const words = error instanceof Error ? error.message : String(error);
    throw new SignInError("oauth_error", `${step} failed: ${typeof oauthError === "string" && !words.includes(oauthError) ? `${oauthError}: ` : ""}${words}`, {
      cause: error,
      ...(typeof oauthError === "string" ? { oauthError } : {}),
      settings: settingsFor(typeof oauthError === "string" ? oauthError : undefined),
    });
  }
}

/** The settings an OAuth failure points to. */
function settingsFor(oauthError: string | undefined): ("clientId" | "clientSecret" | "scope" | "redirectUrl")[] {
  if (oauthError === "invalid_client" || oauthError === "unauthorized_client") return ["clientId", "clientSecret"];
  if (oauthError === "invalid_scope") return ["scope"];
  if (oauthError === "invalid_redirect_uri") return ["redirectUrl"];
  return [];
}

/** The `error` of a response's `WWW-Authenticate: Bearer` challenge. */
function challengeError(response: Response): string | undefined {
  return /\berror="?([^",\s]+)"?/i.exec(response.headers.get("www-authenticate") ?? "")?.[1];
}

function oauthErrorOf(response: Response): { oauthError?: string } {
  const error = challengeError(response);
  return error === undefined ? {} : { oauthError: error };
}

/** The challenge's error and description, for a message (never a token: a challenge carries none). */
function describeChallenge(response: Response): string {
  const header = response.headers.get("www-authenticate");
  if (header === null) return " and no WWW-Authenticate challenge";
  const error = challengeError(response);
  const description = /\berror_description="([^"]*)"/i.exec(header)?.[1];
  const scope = /\bscope="([^"]*)"/i.exec(header)?.[1];
  const said = [error === undefined ? undefined : `error=${error}`, description === undefined ? undefined : `"${description}"`, scope === undefined ? undefined : `scope="${scope}"`].filter(Boolean);
  return said.length === 0 ? "" : ` (${said.join(", ")})`;
}
