/**
 * The authorization endpoint (OAuth 2.1 §4.1.1): checks the client and its redirect URI first
 * and, while either is unknown, answers here (400) and never redirects, so no one can use it
 * as an open redirect. Past that, every problem goes back to the redirect URI as an OAuth error.
 * PKCE S256 is required, `resource` must name the mock's resource, and consent is the policy's:
 * by default it approves at once with a 302 carrying `code`, `state` and `iss` (RFC 9207), which
 * a headless client follows with `redirect: "manual"`.
 */
import { allowedResource, grantableScopes, type AuthState } from "./auth-state.js";
import type { ClientRegistry, KnownClient } from "./clients.js";
import { jsonResponse, oauthError, readParams, scopeList, testIdOf } from "./oauth-http.js";
import type { ConsentAnswer } from "./options.js";
import type { AuthorizationEvent } from "./sign-in-record.js";

/** What the authorization server tells the endpoint about itself. */
export interface AuthorizeTarget {
  readonly state: AuthState;
  readonly clients: ClientRegistry;
  /** The issuer, and the `iss` the response carries for a request with this test id (undefined: none). */
  readonly issuer: string;
  responseIss(testId: string | undefined, faults: string[]): string | undefined;
}

const WRONG_REDIRECT = "the redirect_uri is not one registered for this client; the server does not redirect to it (no open redirect)";

export async function authorize(request: Request, target: AuthorizeTarget): Promise<Response> {
  if (request.method !== "GET") return oauthError(405, "invalid_request", `The authorization endpoint takes GET, not ${request.method}.`, { allow: "GET" });
  const { state, clients } = target;
  const testId = testIdOf(request);
  const read = readParams(new URL(request.url).searchParams);
  const event: Omit<AuthorizationEvent, "seq" | "time" | "status" | "outcome"> = { kind: "authorization", testId: testId ?? null, scopes: [], pkce: { challengeSent: false }, stateSent: false };
  const refuse = (error: string, description: string): Response => {
    state.record.add({ ...event, status: 400, outcome: "refused", error });
    return oauthError(400, error, description);
  };
  if ("problem" in read) return refuse("invalid_request", read.problem);
  const params = read.params;
  const clientId = params.get("client_id");
  event.clientId = clientId;
  event.scopes = scopeList(params.get("scope"));
  event.resource = params.get("resource");
  event.pkce = { challengeSent: params.has("code_challenge"), method: params.get("code_challenge_method") };
  event.stateSent = params.has("state");
  if (clientId === undefined || clientId === "") return refuse("invalid_request", "client_id is missing");
  const client = await clients.find(clientId);
  if ("error" in client) return refuse(client.error, client.description);
  event.clientKind = client.kind;
  const redirectUri = params.get("redirect_uri") ?? onlyRedirect(client);
  event.redirectUri = redirectUri;
  if (redirectUri === undefined) return refuse("invalid_request", "redirect_uri is missing, and this client has more than one (or none) registered");
  if (!clients.redirectAllowed(client, redirectUri)) return refuse("invalid_request", WRONG_REDIRECT);

  const faults: string[] = [];
  const back = (query: Record<string, string | undefined>, outcome: "code" | "error"): Response => {
    const location = new URL(redirectUri);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) location.searchParams.set(name, value);
    const clientState = params.get("state");
    if (clientState !== undefined) location.searchParams.set("state", clientState);
    const iss = target.responseIss(testId, faults);
    if (iss !== undefined) location.searchParams.set("iss", iss);
    state.record.add({ ...event, status: 302, outcome, ...(query.error !== undefined && { error: query.error }), ...(iss !== undefined && { iss }), ...(faults.length > 0 && { faults }) });
    return new Response(null, { status: 302, headers: { location: location.toString(), "cache-control": "no-store" } });
  };
  const error = (code: string, description: string) => back({ error: code, error_description: description }, "error");

  if (params.get("response_type") !== "code") return error("unsupported_response_type", `response_type must be "code", got ${JSON.stringify(params.get("response_type") ?? null)}`);
  if (!client.grantTypes.includes("authorization_code")) return error("unauthorized_client", "this client may not use the authorization_code grant");
  const challenge = params.get("code_challenge");
  if (challenge === undefined || !/^[A-Za-z0-9._~-]{43,128}$/.test(challenge))
    return error("invalid_request", "PKCE is required: send code_challenge (43 to 128 characters) with code_challenge_method=S256");
  if (params.get("code_challenge_method") !== "S256")
    return error("invalid_request", `code_challenge_method must be S256, got ${JSON.stringify(params.get("code_challenge_method") ?? "(none, which means plain)")}`);
  const grantable = grantableScopes(state, testId);
  const unknownScopes = event.scopes.filter((scope) => !grantable.has(scope));
  if (unknownScopes.length > 0) return error("invalid_scope", `unknown scope ${unknownScopes.join(", ")}; this server grants ${[...grantable].join(", ")}`);
  const resource = event.resource;
  if (resource !== undefined && !allowedResource(state, resource)) return error("invalid_target", `resource ${resource} is not served here; the resource is ${state.resource()}`);

  const answer = await decide(state, { clientId, redirectUri, scopes: event.scopes, ...(resource !== undefined && { resource }) });
  if (answer === "deny") return error("access_denied", "the user denied the request");
  if (typeof answer === "object" && "error" in answer) return error(answer.error, answer.description ?? "the authorization server answered an error");
  const approved = typeof answer === "object" ? answer.approve : {};
  const code = state.tokens.issueCode({
    clientId,
    redirectUri,
    challenge,
    scopes: approved.scopes ?? event.scopes,
    ...(resource !== undefined && { resource }),
    subject: approved.subject ?? state.options.subject,
    issuer: target.issuer,
  });
  return back({ code }, "code");
}

function onlyRedirect(client: KnownClient): string | undefined {
  return client.redirectUris?.length === 1 ? client.redirectUris[0] : undefined;
}

async function decide(state: AuthState, request: { clientId: string; redirectUri: string; scopes: string[]; resource?: string }): Promise<ConsentAnswer> {
  const policy = state.consent;
  if (typeof policy !== "function") return policy;
  try {
    const answer: unknown = await policy(Object.freeze({ ...request, scopes: Object.freeze([...request.scopes]) }));
    if (answer === "approve" || answer === "deny") return answer;
    if (typeof answer === "object" && answer !== null && (typeof (answer as { error?: unknown }).error === "string" || typeof (answer as { approve?: unknown }).approve === "object"))
      return answer as ConsentAnswer;
    return {
      error: "server_error",
      description: `the consent function returned ${JSON.stringify(answer) ?? String(answer)}; it returns "approve", "deny", { error } or { approve: { subject, scopes } }`,
    };
  } catch (thrown) {
    return { error: "server_error", description: `the consent function threw: ${(thrown as Error)?.message ?? String(thrown)}` };
  }
}

/** The metadata documents' JSON, as an answer (for the authorization server's routes). */
export const metadataAnswer = (document: unknown) => jsonResponse(document, 200, { "cache-control": "no-store", "access-control-allow-origin": "*" });
