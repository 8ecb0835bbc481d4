/**
 * `server.auth`: the protected mock's authorization side as one object. It mounts the protected
 * resource metadata, the gate in front of the MCP endpoint(s) and the authorization server(s)
 * (on the mock's port, or on a port of its own behind the same guard), and gives a test the
 * record of the sign-in, its assertions, faults, and tokens on demand.
 */
import type { LogSink } from "../util/log.js";
import { McpTestkitError } from "../errors.js";
import { listen, type Listening } from "../wire/http/listen.js";
import { Router, type ExchangeHandler, type RouterEdge } from "../wire/http/router.js";
import { assertPkceS256, assertRequestedScopes, assertResourceSent, assertSignIns, countSignIns, type SignInCounts } from "./assertions.js";
import type { AuthState } from "./auth-state.js";
import { AuthorizationServer, type AuthRoute } from "./authorization-server.js";
import { authControlHandler, AUTH_CONTROL_PREFIX } from "./control-routes.js";
import { AuthFaults, type AuthFault } from "./faults.js";
import { AUTH_MAX_BODY_BYTES, oauthBodyRefusal } from "./oauth-http.js";
import { resolveAuthOptions } from "./option-checks.js";
import type { ConsentPolicy, MockAuthOptions } from "./options.js";
import { ProtectedResource } from "./protected-resource.js";
import { SignInRecord, type AuthEvent, type AuthJournalQuery } from "./sign-in-record.js";
import { TokenStore } from "./tokens.js";

/** What `server.auth.issueToken()` takes: a token as the authorization server would issue it. */
export interface IssueTokenOptions {
  scopes?: readonly string[];
  clientId?: string;
  subject?: string;
  /** The resource it is for (default the mock's MCP URL); another one makes a token the mock refuses. */
  audience?: string;
}

/** The path of the second authorization server, the one a migration fault points to. */
const MOVED_PATH = "/moved";

export class MockAuth {
  private readonly state: AuthState;
  private readonly initialFaults: readonly AuthFault[];
  private readonly resourceSide: ProtectedResource;
  private readonly primary: AuthorizationServer;
  private readonly moved: AuthorizationServer;
  private mcpUrl?: string;
  private asOrigin?: string;
  private ownListening?: Listening;
  private readonly ownRouter?: Router;
  private readonly ownPort?: number;

  /** @internal `mockMcp({ auth })` makes it. */
  constructor(options: MockAuthOptions | true, router: Router, mcpPath: string, edge: RouterEdge, log: LogSink) {
    const resolved = resolveAuthOptions(options);
    this.initialFaults = resolved.faults;
    const faults = new AuthFaults();
    faults.add(resolved.faults);
    this.state = {
      options: resolved,
      tokens: new TokenStore(resolved.tokenFormat, resolved.accessTokenTtlSeconds),
      faults,
      record: new SignInRecord(),
      consent: resolved.consent,
      resource: () => this.resource,
    };
    const asOrigin = () => this.asOriginNow();
    this.primary = new AuthorizationServer(this.state, resolved.issuerPath, asOrigin);
    this.moved = new AuthorizationServer(this.state, `${resolved.issuerPath}${MOVED_PATH}`, asOrigin);
    this.resourceSide = new ProtectedResource(this.state, mcpPath, () => new URL(this.resource).origin, { current: () => this.primary.issuer, moved: () => this.moved.issuer });
    for (const path of this.resourceSide.metadataPaths) router.mount(path, this.resourceSide.metadataHandler, { body: { maxBytes: AUTH_MAX_BODY_BYTES }, bodyRefusal: oauthBodyRefusal });
    router.mount(AUTH_CONTROL_PREFIX, authControlHandler(this), { prefix: true, unlisted: true });
    let asRouter = router;
    if (resolved.ownPort !== undefined) {
      this.ownPort = resolved.ownPort;
      this.ownRouter = new Router(log, edge);
      asRouter = this.ownRouter;
    }
    for (const server of [this.primary, this.moved]) for (const route of server.routes()) mountRoute(asRouter, route);
  }

  /** @internal The MCP endpoint `inner` behind the bearer token gate. */
  gate(inner: ExchangeHandler): ExchangeHandler {
    return this.resourceSide.gate(inner);
  }

  /** @internal Once the mock listens: where it is, and the authorization server's own port if it has one. */
  async start(mcpUrl: string | undefined, host: string | undefined): Promise<void> {
    if (mcpUrl === undefined) throw new McpTestkitError('"auth" needs the mock served over HTTP (transport "http", the default): a bearer token travels in an HTTP header.');
    this.mcpUrl = mcpUrl;
    if (this.ownRouter !== undefined) {
      this.ownListening = await listen(this.ownRouter, { port: this.ownPort, host });
      this.asOrigin = this.ownListening.origin;
    } else this.asOrigin = new URL(mcpUrl).origin;
  }

  /** @internal */
  async close(): Promise<void> {
    await this.ownListening?.close();
  }

  private asOriginNow(): string {
    if (this.asOrigin === undefined) throw new McpTestkitError("The authorization server has no URL until the mock listens.");
    return this.asOrigin;
  }

  /** The protected resource: the MCP endpoint's URL, the audience of the tokens the mock accepts. */
  get resource(): string {
    if (this.mcpUrl === undefined) throw new McpTestkitError("The protected mock has no URL until it listens.");
    return this.mcpUrl;
  }

  /** The authorization server's issuer URL. */
  get issuer(): string {
    return this.primary.issuer;
  }

  /** The protected resource metadata's URL (path-inserted), which a 401 points to. */
  get resourceMetadataUrl(): string {
    return this.resourceSide.metadataUrl;
  }

  /** Every sign-in step so far, oldest first: metadata fetches, registrations, authorizations, token requests, revocations, 401/403 challenges. No secret is in it. */
  get record(): AuthEvent[] {
    return this.state.record.all();
  }

  /** The record, filtered (as the control API's `GET /__mcp-testkit/auth/journal` serves it). */
  journal(query: AuthJournalQuery = {}): AuthEvent[] {
    return this.state.record.query(query);
  }

  /** Listens to each sign-in step as it is recorded; returns a function that stops listening. */
  on(listener: (event: AuthEvent) => void): () => void {
    if (typeof listener !== "function") throw new McpTestkitError("server.auth.on(listener): the listener must be a function.");
    return this.state.record.on(listener);
  }

  /** How many registrations, authorizations, code exchanges, refreshes, client credentials grants and challenges the record shows. */
  counts(): Required<SignInCounts> {
    return countSignIns(this.record);
  }

  /** Adds faults now (each `{ fault, times?, testId?, … }`); throws, adding none, if one is malformed. */
  addFaults(...faults: AuthFault[]): void {
    this.state.faults.add(faults);
  }

  /** The faults in force, with how many requests each has left. */
  get faults(): Array<AuthFault & { left: number | "unlimited" }> {
    return this.state.faults.list();
  }

  /** Removes the faults of one test id, or all. Returns how many went. */
  clearFaults(testId?: string): number {
    return this.state.faults.clear(testId);
  }

  /** Changes how the authorization endpoint answers from now on: approve, deny, an OAuth error, or a function that decides (and may wait). */
  setConsent(policy: ConsentPolicy): void {
    this.state.consent = resolveAuthOptions({ consent: policy }).consent;
  }

  /** Makes every access token (or one client's) expired now: the next request with one gets 401. Returns how many. */
  expireTokens(clientId?: string): number {
    return this.state.tokens.expireAll(clientId);
  }

  /** Revokes every access and refresh token (or one client's). Returns how many. */
  revokeTokens(clientId?: string): number {
    return this.state.tokens.revokeAll(clientId);
  }

  /** A token as the authorization server would issue it, without a sign-in: for a test that is not about signing in. */
  async issueToken(options: IssueTokenOptions = {}): Promise<string> {
    const issued = await this.state.tokens.issueAccess({
      clientId: options.clientId ?? "test-client",
      subject: options.subject ?? this.state.options.subject,
      scopes: options.scopes ?? [...this.state.options.scopes, ...this.state.options.requiredScopes],
      audience: options.audience ?? this.resource,
      issuer: this.issuer,
    });
    return issued.token;
  }

  /** Throws unless the counts given match the record: "refreshed once, never re-registered" is `{ refreshes: 1, registrations: 1 }`. */
  assertSignIns(expected: SignInCounts): void {
    assertSignIns(this.record, expected);
  }

  /** Throws unless every authorization request used PKCE S256 and every code exchange's verifier matched. */
  assertPkceS256(): void {
    assertPkceS256(this.record);
  }

  /** Throws unless the last authorization request asked for exactly these scopes. */
  assertRequestedScopes(scopes: readonly string[]): void {
    assertRequestedScopes(this.record, scopes);
  }

  /** Throws unless every authorization and token request sent `resource` (default: this mock's MCP URL). */
  assertResourceSent(resource: string = this.resource): void {
    assertResourceSent(this.record, resource);
  }

  /** Clears the record and puts the faults back as the options gave them (tokens and clients stay). */
  reset(): void {
    this.state.record.clear();
    this.state.faults.clear();
    this.state.faults.add(this.initialFaults);
    this.state.consent = this.state.options.consent;
  }
}

/** What `server.auth` says of a mock that is not protected. */
export function notProtected(): never {
  throw new McpTestkitError("This mock is not protected; create it with mockMcp({ auth: {} }) to read server.auth.", { code: "MCP_AUTH_NOT_PROTECTED" });
}

function mountRoute(router: Router, route: AuthRoute): void {
  router.mount(route.path, route.handler, route.options);
}
