/**
 * Assertions on the record of a sign-in: each throws saying what was expected, what the record
 * shows (without a secret), and what to look at.
 */
import { McpTestkitError } from "../errors.js";
import type { AuthEvent, AuthorizationEvent, TokenEvent } from "./sign-in-record.js";

export interface SignInCounts {
  /** Dynamic registrations that succeeded. */
  registrations?: number;
  /** Authorization requests that got a code. */
  authorizations?: number;
  /** Authorization code exchanges that got a token. */
  codeExchanges?: number;
  /** Refreshes that got a token. */
  refreshes?: number;
  /** Client credentials grants that got a token. */
  clientCredentials?: number;
  /** 401 and 403 answers of the MCP endpoint. */
  challenges?: number;
}

function fail(detail: string): never {
  throw new McpTestkitError(detail, { code: "MCP_AUTH_ASSERTION" });
}

const authorizations = (events: readonly AuthEvent[]) => events.filter((event): event is AuthorizationEvent => event.kind === "authorization");
const tokens = (events: readonly AuthEvent[]) => events.filter((event): event is TokenEvent => event.kind === "token");

function describeAuthorization(event: AuthorizationEvent): string {
  const pkce = event.pkce.challengeSent ? `code_challenge_method=${event.pkce.method ?? "(none: plain)"}` : "no code_challenge";
  return `#${event.seq} client ${event.clientId ?? "(none)"}, ${pkce}, scope "${event.scopes.join(" ")}", resource ${event.resource ?? "(none)"}, ${event.outcome}`;
}

/** Counts what the record shows, as `SignInCounts`. */
export function countSignIns(events: readonly AuthEvent[]): Required<SignInCounts> {
  const issued = tokens(events).filter((event) => event.issued);
  return {
    registrations: events.filter((event) => event.kind === "registration" && event.clientId !== undefined).length,
    authorizations: authorizations(events).filter((event) => event.outcome === "code").length,
    codeExchanges: issued.filter((event) => event.grantType === "authorization_code").length,
    refreshes: issued.filter((event) => event.grantType === "refresh_token").length,
    clientCredentials: issued.filter((event) => event.grantType === "client_credentials").length,
    challenges: events.filter((event) => event.kind === "challenge").length,
  };
}

/** Throws unless every count given matches the record ("refreshed once, never re-registered": `{ refreshes: 1, registrations: 1 }`). */
export function assertSignIns(events: readonly AuthEvent[], expected: SignInCounts): void {
  const counted = countSignIns(events);
  const wrong = (Object.keys(expected) as Array<keyof SignInCounts>).filter((key) => expected[key] !== counted[key]);
  const unknown = Object.keys(expected).filter((key) => !(key in counted));
  if (unknown.length > 0) fail(`assertSignIns(): unknown count ${unknown.map((key) => `"${key}"`).join(", ")}; counts are ${Object.keys(counted).join(", ")}.`);
  if (wrong.length === 0) return;
  const lines = wrong.map((key) => `${key}: expected ${expected[key]}, the record shows ${counted[key]}`);
  fail(`The sign-in did not go as expected:\n  ${lines.join("\n  ")}\nAll counts: ${JSON.stringify(counted)}. Read server.auth.record for every step.`);
}

/** Throws unless there was an authorization request and every one sent an S256 challenge, and every code exchange's verifier matched. */
export function assertPkceS256(events: readonly AuthEvent[]): void {
  const asked = authorizations(events);
  if (asked.length === 0) fail("Expected the client to use PKCE S256, but it made no authorization request (see server.auth.record).");
  const bad = asked.filter((event) => !event.pkce.challengeSent || event.pkce.method !== "S256");
  if (bad.length > 0) fail(`Expected every authorization request to send code_challenge with code_challenge_method=S256; these did not:\n  ${bad.map(describeAuthorization).join("\n  ")}`);
  const exchanges = tokens(events).filter((event) => event.grantType === "authorization_code" && event.pkce !== undefined && !event.pkce.matched);
  if (exchanges.length > 0) {
    const why = exchanges.map((event) => `#${event.seq} ${event.pkce?.verifierSent ? "code_verifier did not match the challenge" : "no code_verifier"}`);
    fail(`The client sent a PKCE S256 challenge, but its code exchange failed the check:\n  ${why.join("\n  ")}`);
  }
}

/** Throws unless the last authorization request asked for exactly these scopes (in any order). */
export function assertRequestedScopes(events: readonly AuthEvent[], scopes: readonly string[]): void {
  const asked = authorizations(events);
  const last = asked.at(-1);
  if (last === undefined) fail(`Expected an authorization request for scope "${scopes.join(" ")}", but there was none (see server.auth.record).`);
  const want = new Set(scopes);
  const got = new Set(last.scopes);
  if (want.size === got.size && [...want].every((scope) => got.has(scope))) return;
  const missing = [...want].filter((scope) => !got.has(scope));
  const extra = [...got].filter((scope) => !want.has(scope));
  fail(
    `Expected the last authorization request to ask for exactly "${scopes.join(" ")}", but it asked for "${last.scopes.join(" ")}"` +
      `${missing.length > 0 ? `; missing: ${missing.join(", ")}` : ""}${extra.length > 0 ? `; not expected: ${extra.join(", ")}` : ""}.` +
      `\nEvery authorization request:\n  ${asked.map(describeAuthorization).join("\n  ")}`,
  );
}

/** Throws unless every authorization and token request sent `resource` equal to `resource`. */
export function assertResourceSent(events: readonly AuthEvent[], resource: string): void {
  const requests = [...authorizations(events), ...tokens(events)].sort((a, b) => a.seq - b.seq);
  if (requests.length === 0) fail(`Expected authorization and token requests with resource=${resource}, but there were none.`);
  const bad = requests.filter((event) => event.resource !== resource);
  if (bad.length === 0) return;
  fail(
    `Expected every authorization and token request to send resource=${resource} (RFC 8707); these did not:\n  ${bad.map((event) => `#${event.seq} ${event.kind}: ${event.resource === undefined ? "no resource" : `resource=${event.resource}`}`).join("\n  ")}`,
  );
}
