/**
 * The HTTP vocabulary of the authorization server: OAuth error answers (RFC 6749 §5.2), JSON
 * with `Cache-Control: no-store`, form bodies read strictly (one value per parameter), and the
 * test id a request carries. Every refusal here is a 4xx with an OAuth error code: a hostile
 * request never reaches a 5xx.
 */

/** The largest form or JSON body an authorization server endpoint reads. */
export const AUTH_MAX_BODY_BYTES = 64 * 1024;

const NO_STORE = { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" };

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...NO_STORE, ...headers } });
}

/** An OAuth error answer: `{ error, error_description }`. */
export function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error, error_description: description }, status, headers);
}

/** A body the router refused at an authorization server route, worded as an OAuth error. */
export function oauthBodyRefusal(refusal: { status: 413; maxBytes: number } | { status: 415; accepted: readonly string[] }): Record<string, unknown> {
  if (refusal.status === 413) return { error: "invalid_request", error_description: `The body is over ${refusal.maxBytes} bytes; this endpoint reads at most ${refusal.maxBytes}.` };
  return { error: "invalid_request", error_description: `The body's Content-Type must be ${refusal.accepted.join(" or ")}.` };
}

export type FormReading = { params: Map<string, string> } | { problem: string };

/** Parameters of a query or a form, refusing one sent twice (RFC 6749 §3.1, §3.2). */
export function readParams(search: URLSearchParams): FormReading {
  const params = new Map<string, string>();
  for (const [name, value] of search) {
    if (params.has(name)) return { problem: `the parameter "${name}" was sent more than once; send each parameter once` };
    params.set(name, value);
  }
  return { params };
}

/** A POST body as form parameters; a body that is not `application/x-www-form-urlencoded` is a problem. */
export async function readForm(request: Request): Promise<FormReading> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return { problem: `the body must be application/x-www-form-urlencoded, got ${type === "" ? "no Content-Type" : JSON.stringify(type)}` };
  return readParams(new URLSearchParams(await request.text()));
}

/** The test id a request carries, for faults scoped to one test. */
export function testIdOf(request: Request): string | undefined {
  const header = request.headers.get("x-test-id");
  if (header !== null && header !== "") return header;
  const query = new URL(request.url).searchParams.get("testId");
  return query === null || query === "" ? undefined : query;
}

/** Space-separated scopes as a list (an absent or empty `scope` is none). */
export function scopeList(scope: string | undefined): string[] {
  return scope === undefined ? [] : scope.split(" ").filter((item) => item !== "");
}

/** Whether `uri` is a loopback URL (http or https on localhost, 127.x or [::1]). */
export function isLoopbackUrl(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const url = new URL(uri);
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
}
