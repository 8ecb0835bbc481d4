/**
 * The token endpoint (OAuth 2.1 §3.2): the authorization code grant (PKCE S256 checked, the
 * code used once: a second use revokes what the first gave), client credentials, and refresh
 * tokens with rotation. Clients authenticate with client_secret_basic, client_secret_post, or
 * none (public clients). Every refusal is a 4xx OAuth error; nothing but a success carries a token.
 */
import { allowedResource, grantableScopes, offlineAccessOn, OFFLINE_ACCESS, type AuthState } from "./auth-state.js";
import type { ClientRegistry, KnownClient } from "./clients.js";
import { jsonResponse, oauthError, readForm, scopeList, testIdOf } from "./oauth-http.js";
import type { TokenEvent } from "./sign-in-record.js";
import { s256, sameSecret } from "./tokens.js";

export interface TokenTarget {
  readonly state: AuthState;
  readonly clients: ClientRegistry;
  readonly issuer: string;
}

type Draft = Omit<TokenEvent, "seq" | "time" | "status" | "issued">;

/** Who the request says it is, and how it proved it; a problem when the request is malformed. */
type Presented = { clientId?: string; secret?: string; method: "client_secret_basic" | "client_secret_post" | "none" } | { problem: string };

function presentedClient(request: Request, params: Map<string, string>): Presented {
  const header = request.headers.get("authorization");
  if (header !== null && /^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon === -1) return { problem: "the Basic credentials are not client_id:client_secret" };
    let clientId: string;
    let secret: string;
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
    } catch {
      return { problem: "the Basic credentials are not form-encoded (RFC 6749 §2.3.1)" };
    }
    if (params.has("client_secret")) return { problem: "send the client secret one way only: Basic or client_secret, not both" };
    if (params.has("client_id") && params.get("client_id") !== clientId) return { problem: "client_id in the body is not the one in the Basic credentials" };
    return { clientId, secret, method: "client_secret_basic" };
  }
  const secret = params.get("client_secret");
  return { clientId: params.get("client_id"), secret, method: secret === undefined ? "none" : "client_secret_post" };
}

/** The client, authenticated; or the OAuth error answer (401 invalid_client for bad credentials). */
export async function authenticateClient(
  request: Request,
  params: Map<string, string>,
  clients: ClientRegistry,
  draft: Draft,
): Promise<KnownClient | { status: number; error: string; description: string }> {
  const presented = presentedClient(request, params);
  if ("problem" in presented) return { status: 400, error: "invalid_request", description: presented.problem };
  draft.clientAuth = presented.method;
  if (presented.clientId === undefined || presented.clientId === "") return { status: 401, error: "invalid_client", description: "no client_id: send it in the body, or Basic credentials" };
  draft.clientId = presented.clientId;
  const client = await clients.find(presented.clientId);
  if ("error" in client) return { status: 401, error: "invalid_client", description: client.description };
  if (client.clientSecret !== undefined && (presented.secret === undefined || !sameSecret(presented.secret, client.clientSecret))) {
    return { status: 401, error: "invalid_client", description: presented.secret === undefined ? "this client is confidential: authenticate with its secret" : "the client secret is wrong" };
  }
  return client;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function token(request: Request, target: TokenTarget): Promise<Response> {
  const { state, clients } = target;
  if (request.method !== "POST") return oauthError(405, "invalid_request", `The token endpoint takes POST, not ${request.method}.`, { allow: "POST" });
  const testId = testIdOf(request);
  const draft: Draft = { kind: "token", testId: testId ?? null, scopes: [] };
  const faults: string[] = [];
  const refuse = (status: number, error: string, description: string, headers: Record<string, string> = {}): Response => {
    state.record.add({ ...draft, status, error, issued: false, ...(faults.length > 0 && { faults }) });
    return oauthError(status, error, description, headers);
  };
  const form = await readForm(request);
  if ("problem" in form) return refuse(400, "invalid_request", form.problem);
  const params = form.params;
  draft.grantType = params.get("grant_type");
  draft.resource = params.get("resource");
  const failing = state.faults.take("token-error", testId);
  if (failing !== undefined) {
    faults.push("token-error");
    return refuse(failing.status ?? 503, failing.error ?? "temporarily_unavailable", "the token endpoint failed on purpose (fault token-error)");
  }
  const slow = state.faults.take("token-slow", testId);
  if (slow !== undefined) {
    faults.push("token-slow");
    await delay(slow.delayMs ?? 2_000);
  }
  const client = await authenticateClient(request, params, clients, draft);
  if ("error" in client)
    return refuse(client.status, client.error, client.description, client.status === 401 && draft.clientAuth === "client_secret_basic" ? { "www-authenticate": 'Basic realm="token"' } : {});
  if (draft.resource !== undefined && !allowedResource(state, draft.resource))
    return refuse(400, "invalid_target", `resource ${draft.resource} is not served here; the resource is ${state.resource()}`);

  /** Issues the tokens; `issuedFrom` keeps them with the code they came from, to revoke if the code comes back. */
  const issue = async (grant: { subject: string; scopes: readonly string[]; audience: string; refresh?: "new" | "keep" }, issuedFrom?: string[]): Promise<Response> => {
    const access = await state.tokens.issueAccess({ clientId: client.clientId, subject: grant.subject, scopes: grant.scopes, audience: grant.audience, issuer: target.issuer });
    const body: Record<string, unknown> = { access_token: access.token, token_type: "Bearer", expires_in: access.expiresIn, scope: grant.scopes.join(" ") };
    if (grant.refresh === "new")
      body.refresh_token = state.tokens.issueRefresh({ clientId: client.clientId, subject: grant.subject, scopes: grant.scopes, audience: grant.audience, issuer: target.issuer });
    issuedFrom?.push(access.token, ...(typeof body.refresh_token === "string" ? [body.refresh_token] : []));
    draft.scopes = [...grant.scopes];
    state.record.add({ ...draft, status: 200, issued: true, refreshTokenIssued: body.refresh_token !== undefined, ...(faults.length > 0 && { faults }) });
    return jsonResponse(body);
  };
  const grantable = grantableScopes(state, testId);
  const unknownScope = (scopes: string[]) => scopes.find((scope) => !grantable.has(scope));

  switch (draft.grantType) {
    case "authorization_code": {
      const code = params.get("code");
      const verifier = params.get("code_verifier");
      if (code === undefined) return refuse(400, "invalid_request", "code is missing");
      const grant = state.tokens.redeemCode(code);
      if (grant === "unknown") return refuse(400, "invalid_grant", "the code is not one this server issued");
      if (grant === "reused") return refuse(400, "invalid_grant", "the code was used before; the tokens it gave are revoked");
      if (grant === "expired") return refuse(400, "invalid_grant", "the code expired (a code lives one minute)");
      draft.pkce = { verifierSent: verifier !== undefined, matched: verifier !== undefined && s256(verifier) === grant.challenge };
      if (grant.clientId !== client.clientId) return refuse(400, "invalid_grant", "the code was issued to another client");
      if (params.get("redirect_uri") !== undefined && params.get("redirect_uri") !== grant.redirectUri) return refuse(400, "invalid_grant", "redirect_uri is not the one the code was issued for");
      if (!draft.pkce.matched) return refuse(400, "invalid_grant", verifier === undefined ? "code_verifier is missing (PKCE)" : "code_verifier does not match the code_challenge (PKCE S256)");
      if (grant.resource !== undefined && draft.resource !== undefined && draft.resource !== grant.resource) return refuse(400, "invalid_target", "resource is not the one the code was issued for");
      const audience = draft.resource ?? grant.resource ?? state.resource();
      const refresh = refreshIssued(state, client, grant.scopes, testId);
      return await issue({ subject: grant.subject, scopes: grant.scopes.filter((scope) => scope !== OFFLINE_ACCESS || refresh), audience, refresh: refresh ? "new" : undefined }, grant.issued);
    }
    case "refresh_token": {
      const presented = params.get("refresh_token");
      if (presented === undefined) return refuse(400, "invalid_request", "refresh_token is missing");
      const grant = state.tokens.refreshGrant(presented);
      if (grant === undefined || grant.retired)
        return refuse(400, "invalid_grant", grant === undefined ? "the refresh token is not one this server issued" : "the refresh token was rotated or revoked");
      if (grant.clientId !== client.clientId) return refuse(400, "invalid_grant", "the refresh token was issued to another client");
      if (state.faults.take("refresh-refused", testId) !== undefined) {
        faults.push("refresh-refused");
        return refuse(400, "invalid_grant", "the refresh was refused on purpose (fault refresh-refused)");
      }
      const asked = scopeList(params.get("scope"));
      const widened = asked.filter((scope) => !grant.scopes.includes(scope));
      if (widened.length > 0) return refuse(400, "invalid_scope", `a refresh may not widen the grant; ${widened.join(", ")} was not granted`);
      if (draft.resource !== undefined && draft.resource !== grant.audience) return refuse(400, "invalid_target", "resource is not the one the refresh token was issued for");
      const rotatedByFault = state.faults.take("refresh-token-rotated", testId) !== undefined;
      if (rotatedByFault) faults.push("refresh-token-rotated");
      const rotate = state.options.rotateRefreshTokens || rotatedByFault;
      if (rotate) grant.retired = true;
      return await issue({ subject: grant.subject, scopes: asked.length > 0 ? asked : grant.scopes, audience: grant.audience, refresh: rotate ? "new" : "keep" });
    }
    case "client_credentials": {
      if (client.clientSecret === undefined) return refuse(400, "unauthorized_client", "client_credentials is for confidential clients (with a secret)");
      if (!client.grantTypes.includes("client_credentials")) return refuse(400, "unauthorized_client", "this client may not use the client_credentials grant");
      const scopes = scopeList(params.get("scope"));
      const unknown = unknownScope(scopes);
      if (unknown !== undefined) return refuse(400, "invalid_scope", `unknown scope ${unknown}; this server grants ${[...grantable].join(", ")}`);
      return await issue({ subject: client.clientId, scopes, audience: draft.resource ?? state.resource() });
    }
    case undefined:
      return refuse(400, "invalid_request", "grant_type is missing");
    default:
      return refuse(400, "unsupported_grant_type", `grant_type ${JSON.stringify(draft.grantType)} is not supported; use authorization_code, refresh_token or client_credentials`);
  }
}

/** Whether a code exchange gets a refresh token: refresh tokens on, offline access not turned off, and the client may refresh or asked for offline_access. */
function refreshIssued(state: AuthState, client: KnownClient, scopes: readonly string[], testId: string | undefined): boolean {
  if (!state.options.refreshTokens || !offlineAccessOn(state, testId)) return false;
  return client.grantTypes.includes("refresh_token") || scopes.includes(OFFLINE_ACCESS);
}
