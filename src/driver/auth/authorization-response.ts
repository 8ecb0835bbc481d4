/**
 * The user's consent, and the authorization response that comes back from it. Headless by
 * default, as the conformance suite drives a client: fetch the authorization URL without
 * following redirects, follow each `Location` until one reaches the redirect URI, and read the
 * code there; nothing listens on the redirect URI. A test that needs a real browser gives
 * `authorize(url)`, which resolves with the URL the browser was sent back to.
 *
 * The response is checked as RFC 9207 and the 2026-07-28 revision say: `iss` first (required
 * when the metadata says it is sent, compared as a plain string, and a response from another
 * issuer is not acted on at all, not even its `error`), then `state`, then `error`.
 */
import { SignInError } from "./sign-in-error.js";

/** Redirects followed between the authorization endpoint and the callback (a login page's own hops). */
const MAX_HOPS = 10;

export interface AuthorizationResponseChecks {
  redirectUrl: string;
  /** The `state` sent with the request. */
  state: string | undefined;
  /** The authorization server's issuer, as its metadata says. */
  issuer: string | undefined;
  /** The metadata says `iss` comes with every response (`authorization_response_iss_parameter_supported`). */
  issRequired: boolean;
  authorize?: (authorizationUrl: URL) => Promise<string | URL>;
  fetchFn: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/** Runs the consent and resolves with the authorization code, or throws a `SignInError` saying why not. */
export async function receiveAuthorizationCode(authorizationUrl: URL, checks: AuthorizationResponseChecks): Promise<string> {
  const callback = checks.authorize === undefined ? await followToCallback(authorizationUrl, checks) : await callbackFromHook(authorizationUrl, checks);
  return codeFrom(callback, checks);
}

async function callbackFromHook(authorizationUrl: URL, checks: AuthorizationResponseChecks): Promise<URL> {
  const returned = await checks.authorize!(new URL(authorizationUrl));
  try {
    return new URL(returned);
  } catch {
    throw new SignInError(
      "no_authorization_code",
      `auth.authorize resolved with ${typeof returned === "string" ? "a string that is not a URL" : typeof returned}; it must resolve with the URL the authorization server redirected to (${checks.redirectUrl}?code=…&state=…).`,
      {
        settings: ["authorize"],
      },
    );
  }
}

async function followToCallback(authorizationUrl: URL, checks: AuthorizationResponseChecks): Promise<URL> {
  let url = authorizationUrl;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const response = await checks.fetchFn(url, { redirect: "manual" });
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get("location");
    if (location === null || response.status < 300 || response.status >= 400) {
      throw new SignInError(
        "no_authorization_code",
        `the authorization endpoint ${describeEndpoint(url)} answered HTTP ${response.status} with no redirect, where a redirect to ${checks.redirectUrl} with a code was expected. An authorization server that shows a login page needs a browser: drive it from a test with auth.authorize, or use a pre-issued token.`,
        { settings: ["authorize", "token"] },
      );
    }
    const next = new URL(location, url);
    if (isCallback(next, checks.redirectUrl)) return next;
    url = next;
  }
  throw new SignInError("no_authorization_code", `the authorization endpoint redirected ${MAX_HOPS} times without reaching ${checks.redirectUrl}.`, { settings: ["redirectUrl", "authorize"] });
}

/** Whether `url` is the redirect URI (its query aside): loopback ports may differ (RFC 8252 §7.3). */
function isCallback(url: URL, redirectUrl: string): boolean {
  const expected = new URL(redirectUrl);
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(expected.hostname);
  const sameHost = loopback ? url.hostname === expected.hostname : url.host === expected.host;
  return url.protocol === expected.protocol && sameHost && url.pathname === expected.pathname;
}

function codeFrom(callback: URL, checks: AuthorizationResponseChecks): string {
  const params = callback.searchParams;
  const iss = params.get("iss");
  if (checks.issuer !== undefined) {
    if (iss === null && checks.issRequired)
      throw new SignInError(
        "iss_mismatch",
        `the authorization response has no iss, though the authorization server's metadata says it sends one (authorization_response_iss_parameter_supported); expected iss=${checks.issuer} (RFC 9207). The response was not used.`,
      );
    if (iss !== null && iss !== checks.issuer)
      throw new SignInError(
        "iss_mismatch",
        `the authorization response names the issuer ${JSON.stringify(iss)}, expected ${JSON.stringify(checks.issuer)} (compared exactly, RFC 9207): it may come from another authorization server (a mix-up attack). The response was not used.`,
      );
  }
  if (checks.state !== undefined && params.get("state") !== checks.state)
    throw new SignInError("state_mismatch", `the authorization response's state is ${params.has("state") ? "not the one sent" : "missing"}; the response was not used.`);
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description");
    throw new SignInError("authorization_denied", `the authorization server answered the authorization request with error=${error}${description === null ? "" : ` (${description})`}.`, {
      oauthError: error,
    });
  }
  const code = params.get("code");
  if (code === null || code === "") throw new SignInError("no_authorization_code", `the authorization server redirected to ${checks.redirectUrl} with no code and no error.`);
  return code;
}

/** The endpoint without its query (which carries the PKCE challenge and state). */
function describeEndpoint(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
