/**
 * The driver's side of the SDK's OAuth client (`OAuthClientProvider`): the SDK's `auth()` does
 * the protocol (discovery, registration, PKCE, the token and refresh requests, client
 * authentication); this keeps what it hands back, by issuer, and runs the user's consent
 * headlessly, checking `state` and `iss` on the way back.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { randomBytes } from "node:crypto";
import { receiveAuthorizationCode } from "./authorization-response.js";
import type { ConnectAuth } from "./options.js";
import { memoryTokenStore, type StoredCredentials, type TokenStore } from "./token-store.js";

export const DEFAULT_REDIRECT_URL = "http://127.0.0.1/callback";

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export class SignInProvider implements OAuthClientProvider {
  readonly store: TokenStore;
  /** The authorization server this sign-in talks to (its URL as the resource's metadata names it). */
  private issuer: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  /** Credentials of the current issuer, as last read from or written to the store. */
  private current: StoredCredentials = {};
  private verifier: string | undefined;
  private sentState: string | undefined;
  private code: string | undefined;
  /** The scope the next token request asks for (client credentials take it there). */
  requestedScope: string | undefined;
  readonly addClientAuthentication?: OAuthClientProvider["addClientAuthentication"];

  constructor(
    private readonly auth: ConnectAuth,
    private readonly fetchFn: FetchLike,
  ) {
    this.store = auth.store ?? memoryTokenStore();
    if (auth.privateKey !== undefined) {
      const { clientId, privateKey } = auth;
      const algorithm = auth.signingAlgorithm ?? "ES256";
      this.addClientAuthentication = async (headers, params, url, metadata) => {
        const { createPrivateKeyJwtAuth } = await import("@modelcontextprotocol/sdk/client/auth-extensions.js");
        await createPrivateKeyJwtAuth({ issuer: clientId!, subject: clientId!, privateKey, alg: algorithm })(headers, params, url, metadata);
      };
    }
  }

  private get machine(): boolean {
    return this.auth.grant === "client_credentials";
  }

  get redirectUrl(): string | undefined {
    return this.machine ? undefined : (this.auth.redirectUrl ?? DEFAULT_REDIRECT_URL);
  }

  get clientMetadataUrl(): string | undefined {
    return this.auth.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.machine) return { client_name: this.auth.clientName ?? "mcp-testkit", redirect_uris: [], grant_types: ["client_credentials"] };
    // application_type (RFC 7591 as the 2026-07-28 revision requires) is not in the SDK's type; it sends the object as it is.
    const metadata = {
      client_name: this.auth.clientName ?? "mcp-testkit",
      redirect_uris: [this.redirectUrl!],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      application_type: "native",
    };
    return metadata as OAuthClientMetadata;
  }

  /** Switches to the credentials of `issuer` (after discovery), loading them from the store. */
  async useIssuer(issuer: string, discovery: OAuthDiscoveryState): Promise<void> {
    this.discovery = discovery;
    if (issuer === this.issuer) return;
    this.issuer = issuer;
    this.current = (await this.store.get(issuer)) ?? {};
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  private preRegistered(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.auth;
    if (clientId === undefined) return undefined;
    return { client_id: clientId, ...(clientSecret === undefined ? {} : { client_secret: clientSecret }) };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.preRegistered() ?? this.current.client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    // A pre-registered client is configuration, not something learnt here.
    if (this.auth.clientId !== undefined) return;
    await this.save({ ...this.current, client });
  }

  tokens(): OAuthTokens | undefined {
    return this.current.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.save({ ...this.current, tokens });
  }

  private async save(credentials: StoredCredentials): Promise<void> {
    this.current = credentials;
    if (this.issuer !== undefined) await this.store.set(this.issuer, credentials);
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier" || scope === "all") this.verifier = undefined;
    if (scope === "discovery" || scope === "all") this.discovery = undefined;
    if (scope === "all") await this.save({});
    else if (scope === "client") await this.save({ ...this.current, client: undefined });
    else if (scope === "tokens") await this.save({ ...this.current, tokens: undefined });
  }

  prepareTokenRequest(): URLSearchParams | undefined {
    if (!this.machine) return undefined;
    return new URLSearchParams({ grant_type: "client_credentials", ...(this.requestedScope === undefined ? {} : { scope: this.requestedScope }) });
  }

  state(): string {
    this.sentState = randomBytes(16).toString("base64url");
    return this.sentState;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error("no PKCE code verifier was saved before the token request");
    return this.verifier;
  }

  /** The user's consent: through `authorize`, or headlessly; the code waits in `takeCode()`. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const metadata = this.discovery?.authorizationServerMetadata;
    this.code = await receiveAuthorizationCode(authorizationUrl, {
      redirectUrl: this.redirectUrl!,
      state: this.sentState,
      issuer: metadata?.issuer,
      issRequired: (metadata as { authorization_response_iss_parameter_supported?: boolean } | undefined)?.authorization_response_iss_parameter_supported === true,
      ...(this.auth.authorize === undefined ? {} : { authorize: this.auth.authorize }),
      fetchFn: this.fetchFn,
    });
  }

  /** The code the consent gave, once. */
  takeCode(): string | undefined {
    const code = this.code;
    this.code = undefined;
    return code;
  }
}
