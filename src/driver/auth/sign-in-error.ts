/**
 * Signing in failed. Says what the server (or the authorization server) said, what was expected
 * and which setting would change it; `code` names the failure for code to branch on. Never holds
 * a token, a code or a secret: those are left out of every message.
 */
import { McpDriverError } from "../errors.js";
import type { AuthSetting, MessagePart } from "../error-rendering.js";

export type SignInFailure =
  /** The authorization server's metadata names another issuer than the one it was fetched for (RFC 8414 §3.3). */
  | "metadata_issuer_mismatch"
  /** The authorization response's `iss` is missing where required, or names another issuer (RFC 9207). */
  | "iss_mismatch"
  /** The authorization response's `state` is not the one sent. */
  | "state_mismatch"
  /** The authorization server answered the authorization request with an OAuth error (`access_denied`…). */
  | "authorization_denied"
  /** The authorization request led nowhere: no redirect to the callback with a code. */
  | "no_authorization_code"
  /** The server kept refusing after as many sign-ins as `maxAttempts` allows (401, or 403 `insufficient_scope`). */
  | "attempts_exhausted"
  /** The server refused the static bearer token (`auth.token`). */
  | "token_refused"
  /** Discovery, registration or the token request failed (the OAuth error is in `oauthError`). */
  | "oauth_error";

export class SignInError extends McpDriverError {
  override name = "SignInError";
  override readonly code: SignInFailure;
  /** The OAuth `error` value the server answered with, when there was one (`invalid_grant`, `insufficient_scope`…). */
  readonly oauthError: string | undefined;

  constructor(code: SignInFailure, message: string, options: { settings?: AuthSetting[]; oauthError?: string; cause?: unknown } = {}) {
    const parts: MessagePart[] = [`Could not sign in: ${message}`];
    if (options.settings !== undefined && options.settings.length > 0) parts.push({ kind: "authSettings", settings: options.settings });
    super(parts, options.cause === undefined ? {} : { cause: options.cause });
    this.code = code;
    this.oauthError = options.oauthError;
  }
}
