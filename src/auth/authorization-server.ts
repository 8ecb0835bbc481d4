/**
 * The mock's own authorization server: metadata at the RFC 8414 and OpenID paths (path-inserted
 * and, for an issuer with a path, path-appended too), dynamic registration, the authorization,
 * token and revocation endpoints, and the JWKS its JWTs are signed with. Its routes are
 * web-standard `Request → Response` handlers, mounted on a router whose Host/Origin guard
 * stands in front of them all. A second one, at `/moved`, is what a migration fault points to.
 */
import { type AuthState, grantableScopes } from "./auth-state.js";
import { authorize, metadataAnswer } from "./authorize-endpoint.js";
import { ClientRegistry } from "./clients.js";
import { AUTH_MAX_BODY_BYTES, jsonResponse, oauthBodyRefusal, oauthError, readForm, testIdOf } from "./oauth-http.js";
import { authenticateClient, token } from "./token-endpoint.js";
import type { MetadataEvent } from "./sign-in-record.js";
import type { RouteOptions } from "../wire/http/router.js";

/** What the issuer says for a request when its metadata must not match (fault issuer-mismatch). */
export const WRONG_ISSUER = "https://wrong-issuer.example";

export interface AuthRoute {
  readonly path: string;
  readonly handler: (request: Request) => Promise<Response>;
  readonly options: RouteOptions;
}

const FORM_ROUTE: RouteOptions = { body: { maxBytes: AUTH_MAX_BODY_BYTES, contentTypes: ["application/x-www-form-urlencoded"] }, bodyRefusal: oauthBodyRefusal };
const JSON_ROUTE: RouteOptions = { body: { maxBytes: AUTH_MAX_BODY_BYTES, contentTypes: ["application/json"] }, bodyRefusal: oauthBodyRefusal };
const READ_ROUTE: RouteOptions = { body: { maxBytes: AUTH_MAX_BODY_BYTES }, bodyRefusal: oauthBodyRefusal };

export class AuthorizationServer {
  readonly clients: ClientRegistry;

  constructor(
    readonly state: AuthState,
    /** The issuer's path on its origin ("" for a root issuer). */
    readonly issuerPath: string,
    private readonly origin: () => string,
  ) {
    this.clients = new ClientRegistry(state.options);
  }

  get issuer(): string {
    return `${this.origin()}${this.issuerPath}`;
  }

  private endpoint(name: string): string {
    return `${this.issuerPath}/oauth/${name}`;
  }

  /** The RFC 8414 document (OpenID's adds a few fields); the issuer is wrong under fault issuer-mismatch. */
  metadata(testId: string | undefined, openid: boolean, faults: string[]): Record<string, unknown> {
    const { state } = this;
    const mismatch = state.faults.peekAll("issuer-mismatch", testId).length > 0;
    if (mismatch) faults.push("issuer-mismatch");
    const base = this.origin();
    const document: Record<string, unknown> = {
      issuer: mismatch ? WRONG_ISSUER : this.issuer,
      authorization_endpoint: `${base}${this.endpoint("authorize")}`,
      token_endpoint: `${base}${this.endpoint("token")}`,
      ...(state.options.registration && { registration_endpoint: `${base}${this.endpoint("register")}` }),
      revocation_endpoint: `${base}${this.endpoint("revoke")}`,
      jwks_uri: `${base}${this.endpoint("jwks")}`,
      scopes_supported: [...grantableScopes(state, testId)],
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: state.options.clientMetadataDocuments,
    };
    const unexpected = state.faults.peekAll("iss-unexpected", testId).length > 0;
    if (state.options.issParameter && !unexpected) document.authorization_response_iss_parameter_supported = true;
    if (openid) Object.assign(document, { subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["ES256"] });
    return document;
  }

  /** The `iss` of an authorization response for a request with this test id, with the faults that shaped it. */
  responseIss(testId: string | undefined, faults: string[]): string | undefined {
    const { faults: active, options } = this.state;
    if (active.peekAll("iss-missing", testId).length > 0) return void faults.push("iss-missing");
    if (active.peekAll("iss-wrong", testId).length > 0) {
      faults.push("iss-wrong");
      return WRONG_ISSUER;
    }
    if (active.peekAll("iss-unexpected", testId).length > 0) {
      faults.push("iss-unexpected");
      return this.issuer;
    }
    return options.issParameter ? this.issuer : undefined;
  }

  /** Every route of this authorization server, by path. */
  routes(): AuthRoute[] {
    const path = this.issuerPath;
    const metadata = (document: MetadataEvent["document"], openid: boolean) => async (request: Request) => {
      if (request.method !== "GET") return oauthError(405, "invalid_request", "Metadata is read with GET.", { allow: "GET" });
      const testId = testIdOf(request);
      const faults: string[] = [];
      const body = this.metadata(testId, openid, faults);
      this.state.record.add({ kind: "metadata", document, path: new URL(request.url).pathname, testId: testId ?? null, status: 200, ...(faults.length > 0 && { faults }) });
      return metadataAnswer(body);
    };
    const routes: AuthRoute[] = [
      { path: `/.well-known/oauth-authorization-server${path}`, handler: metadata("authorization-server", false), options: READ_ROUTE },
      { path: `/.well-known/openid-configuration${path}`, handler: metadata("openid-configuration", true), options: READ_ROUTE },
      { path: this.endpoint("authorize"), handler: (request) => authorize(request, this), options: READ_ROUTE },
      { path: this.endpoint("token"), handler: (request) => token(request, this), options: FORM_ROUTE },
      { path: this.endpoint("revoke"), handler: (request) => this.revoke(request), options: FORM_ROUTE },
      { path: this.endpoint("jwks"), handler: (request) => this.jwks(request), options: READ_ROUTE },
    ];
    if (path !== "") routes.push({ path: `${path}/.well-known/openid-configuration`, handler: metadata("openid-configuration", true), options: READ_ROUTE });
    if (this.state.options.registration) routes.push({ path: this.endpoint("register"), handler: (request) => this.register(request), options: JSON_ROUTE });
    return routes;
  }

  private async jwks(request: Request): Promise<Response> {
    if (request.method !== "GET") return oauthError(405, "invalid_request", "The JWKS is read with GET.", { allow: "GET" });
    this.state.record.add({ kind: "metadata", document: "jwks", path: new URL(request.url).pathname, testId: testIdOf(request) ?? null, status: 200 });
    return metadataAnswer(await this.state.tokens.jwks());
  }

  private async register(request: Request): Promise<Response> {
    const { state } = this;
    if (request.method !== "POST") return oauthError(405, "invalid_request", "Registration takes POST.", { allow: "POST" });
    const testId = testIdOf(request);
    let body: unknown;
    try {
      body = JSON.parse(await request.text());
    } catch {
      body = undefined;
    }
    const fields = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const listed = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);
    const event = {
      kind: "registration" as const,
      testId: testId ?? null,
      redirectUris: listed(fields.redirect_uris),
      grantTypes: listed(fields.grant_types),
      ...(typeof fields.token_endpoint_auth_method === "string" && { tokenEndpointAuthMethod: fields.token_endpoint_auth_method }),
      ...(typeof fields.application_type === "string" && { applicationType: fields.application_type }),
      ...(typeof fields.scope === "string" && { scope: fields.scope }),
    };
    const refused = state.faults.take("registration-refused", testId);
    if (refused !== undefined) {
      const status = refused.status ?? 400;
      const error = refused.error ?? "invalid_client_metadata";
      state.record.add({ ...event, status, error, faults: ["registration-refused"] });
      return oauthError(status, error, "registration was refused on purpose (fault registration-refused)");
    }
    const result = this.clients.register(body);
    if ("error" in result) {
      state.record.add({ ...event, status: 400, error: result.error });
      return oauthError(400, result.error, result.description);
    }
    state.record.add({ ...event, status: 201, clientId: result.client.clientId });
    return jsonResponse(result.document, 201);
  }

  private async revoke(request: Request): Promise<Response> {
    const { state } = this;
    if (request.method !== "POST") return oauthError(405, "invalid_request", "Revocation takes POST.", { allow: "POST" });
    const testId = testIdOf(request);
    const form = await readForm(request);
    const draft = { kind: "token" as const, testId: testId ?? null, scopes: [] as string[] };
    const event = { kind: "revocation" as const, testId: testId ?? null };
    if ("problem" in form) {
      state.record.add({ ...event, status: 400, error: "invalid_request", revoked: false });
      return oauthError(400, "invalid_request", form.problem);
    }
    const client = await authenticateClient(request, form.params, this.clients, draft);
    if ("error" in client) {
      state.record.add({ ...event, status: client.status, error: client.error, revoked: false });
      return oauthError(client.status, client.error, client.description);
    }
    const presented = form.params.get("token");
    if (presented === undefined) {
      state.record.add({ ...event, clientId: client.clientId, status: 400, error: "invalid_request", revoked: false });
      return oauthError(400, "invalid_request", "token is missing");
    }
    const grant = state.tokens.accessGrant(presented) ?? state.tokens.refreshGrant(presented);
    // RFC 7009 §2.2: an unknown token, or another client's, is answered 200 all the same.
    const revoked = grant !== undefined && grant.clientId === client.clientId && state.tokens.revoke(presented);
    const hint = form.params.get("token_type_hint");
    state.record.add({ ...event, clientId: client.clientId, status: 200, revoked, ...(hint !== undefined && { tokenTypeHint: hint }) });
    return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
  }
}
