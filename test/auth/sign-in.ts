/**
 * A client's sign-in to a protected mock, step by step over plain fetch: register, authorize
 * (following the redirect headlessly, `redirect: "manual"`), exchange the code, refresh. The
 * tests use it to reach the state a fault or an assertion is about.
 */
import { createHash, randomBytes } from "node:crypto";

export const REDIRECT = "http://127.0.0.1:8976/callback";

export interface Metadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint: string;
  jwks_uri: string;
  authorization_response_iss_parameter_supported?: boolean;
  scopes_supported?: string[];
}

export async function metadataOf(issuer: string, headers: Record<string, string> = {}): Promise<Metadata> {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname;
  return (await (await fetch(new URL(`/.well-known/oauth-authorization-server${path}`, url.origin), { headers })).json()) as Metadata;
}

export async function register(metadata: Metadata, body: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<{ client_id: string; client_secret?: string }> {
  const response = await fetch(metadata.registration_endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], token_endpoint_auth_method: "none", application_type: "native", ...body }),
  });
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { client_id: string; client_secret?: string };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The authorization request; resolves with the redirect's `Location` (or throws with the answer when there is none). */
export async function authorize(metadata: Metadata, params: Record<string, string>, headers: Record<string, string> = {}): Promise<URL> {
  const url = new URL(metadata.authorization_endpoint);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await fetch(url, { redirect: "manual", headers });
  const location = response.headers.get("location");
  if (location === null) throw Object.assign(new Error(`no redirect: ${response.status} ${await response.text()}`), { status: response.status });
  return new URL(location);
}

export async function tokenRequest(metadata: Metadata, form: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(metadata.token_endpoint, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export interface SignedIn {
  metadata: Metadata;
  clientId: string;
  accessToken: string;
  refreshToken?: string;
  code: string;
  verifier: string;
}

/** The whole sign-in of a public client with PKCE S256 and `resource`. */
export async function signIn(issuer: string, resource: string, options: { scope?: string; headers?: Record<string, string> } = {}): Promise<SignedIn> {
  const headers = options.headers ?? {};
  const metadata = await metadataOf(issuer, headers);
  const { client_id } = await register(metadata, {}, headers);
  const { verifier, challenge } = pkce();
  const location = await authorize(
    metadata,
    {
      response_type: "code",
      client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1",
      resource,
      ...(options.scope !== undefined && { scope: options.scope }),
    },
    headers,
  );
  const code = location.searchParams.get("code");
  if (code === null) throw new Error(`the authorization answered ${location}`);
  const token = await tokenRequest(metadata, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id, resource }, headers);
  if (token.status !== 200) throw new Error(`the token request answered ${token.status}: ${JSON.stringify(token.body)}`);
  return { metadata, clientId: client_id, accessToken: token.body.access_token as string, refreshToken: token.body.refresh_token as string | undefined, code, verifier };
}

/** A POST of `initialize` to the MCP endpoint with this token: its status and WWW-Authenticate. */
export async function mcpPost(url: string, token: string | undefined, headers: Record<string, string> = {}): Promise<{ status: number; challenge: string | null }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(token !== undefined && { authorization: `Bearer ${token}` }), ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
  });
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get("www-authenticate") };
}
