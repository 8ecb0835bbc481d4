/**
 * Faults of a protected mock and its authorization server, on demand: each is data (`{ fault,
 * times?, testId?, … }`), added from options, a scenario file, code or the control API. A fault
 * that happens once (a failed token request) is used up by the request it hits; one that
 * describes how the server is (a wrong `iss`) lasts until cleared, unless `times` says otherwise.
 * A fault with a `testId` hits only requests that carry it (`X-Test-Id` or `?testId=`).
 */
import { McpTestkitError } from "../errors.js";
import { closest } from "../util/closest.js";
import { describeValue } from "../util/text.js";

/** What each fault does, by name. */
export const FAULT_KINDS = {
  "token-expired": "the next MCP request's token is treated as expired (401 invalid_token), and stays so",
  "token-revoked": "the next MCP request's token is revoked (401 invalid_token), and stays so",
  "token-error": "the next token request fails with an OAuth error (`error`, default temporarily_unavailable; `status`, default 503)",
  "token-slow": "the next token request is answered after `delayMs` (default 2000)",
  "registration-refused": "the next registration is refused (`error`, default invalid_client_metadata)",
  "refresh-refused": "the next refresh is refused with invalid_grant",
  "refresh-token-rotated": "the next refresh rotates the refresh token (even with rotation off): the old one stops working",
  "iss-wrong": "the authorization response carries an `iss` that is not the issuer",
  "iss-missing": "the authorization response carries no `iss`, though the metadata says it does",
  "iss-unexpected": "the metadata does not advertise `iss`, but the authorization response carries one",
  "issuer-mismatch": "the authorization server metadata names an issuer other than its own URL",
  "authorization-server-moved": "the protected resource metadata names another authorization server (`to`, default a second one of the mock's at /moved)",
  "offline-access-unsupported": "offline_access is neither advertised nor honoured, and no refresh token is issued",
  "step-up": "every MCP request's token needs `scope` too (403 insufficient_scope until it has it)",
  "no-resource-metadata": "a 401 carries no resource_metadata in WWW-Authenticate (the client must probe the well-known paths)",
} as const;

export type AuthFaultKind = keyof typeof FAULT_KINDS;

/** Faults used up by the one request they hit, unless `times` says more. */
const ONE_SHOT: ReadonlySet<AuthFaultKind> = new Set(["token-expired", "token-revoked", "token-error", "token-slow", "registration-refused", "refresh-refused", "refresh-token-rotated"]);

export interface AuthFault {
  fault: AuthFaultKind;
  /** How many requests it hits (default 1 for a fault that happens, for ever for one that describes the server). */
  times?: number;
  /** Only requests carrying this test id (`X-Test-Id` header or `?testId=`). */
  testId?: string;
  /** token-error, registration-refused: the OAuth error code. */
  error?: string;
  /** token-error, registration-refused: the HTTP status. */
  status?: number;
  /** token-slow: the delay. */
  delayMs?: number;
  /** step-up: the scope(s) now needed. */
  scope?: string | readonly string[];
  /** authorization-server-moved: the issuer URL the metadata names instead. */
  to?: string;
}

const FAULT_KEYS = ["fault", "times", "testId", "error", "status", "delayMs", "scope", "to"];

/** Throws, saying what is wrong, unless `value` is a fault. */
export function checkFault(value: unknown, where = "fault"): asserts value is AuthFault {
  const bad = (detail: string): never => {
    throw new McpTestkitError(`${where}: ${detail}`, { code: "MCP_AUTH_BAD_FAULT" });
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) bad(`expected an object such as { "fault": "token-error" }, got ${describeValue(value)}.`);
  const fault = value as Record<string, unknown>;
  const kinds = Object.keys(FAULT_KINDS);
  if (typeof fault.fault !== "string" || !kinds.includes(fault.fault)) {
    const near = typeof fault.fault === "string" ? closest(fault.fault, kinds) : undefined;
    bad(`"fault" must name a fault${near === undefined ? "" : ` (did you mean "${near}"?)`}, got ${describeValue(fault.fault)}; faults: ${kinds.join(", ")}.`);
  }
  for (const key of Object.keys(fault))
    if (!FAULT_KEYS.includes(key)) bad(`unknown key "${key}"${closest(key, FAULT_KEYS) ? `; did you mean "${closest(key, FAULT_KEYS)}"?` : ""} Keys: ${FAULT_KEYS.join(", ")}.`);
  if (fault.times !== undefined && (typeof fault.times !== "number" || !Number.isInteger(fault.times) || fault.times < 1))
    bad(`"times" must be a whole number, 1 or more, got ${describeValue(fault.times)}.`);
  if (fault.testId !== undefined && (typeof fault.testId !== "string" || fault.testId === "")) bad(`"testId" must be a non-empty string.`);
  if (fault.error !== undefined && (typeof fault.error !== "string" || !/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/.test(fault.error))) bad(`"error" must be an OAuth error code such as "invalid_grant".`);
  if (fault.status !== undefined && (typeof fault.status !== "number" || !Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599))
    bad(`"status" must be an HTTP error status (400 to 599), got ${describeValue(fault.status)}.`);
  if (fault.delayMs !== undefined && (typeof fault.delayMs !== "number" || !Number.isInteger(fault.delayMs) || fault.delayMs < 0 || fault.delayMs > 600_000))
    bad(`"delayMs" must be a whole number of milliseconds up to 600000.`);
  if (fault.fault === "step-up") {
    const scopes = typeof fault.scope === "string" ? [fault.scope] : fault.scope;
    if (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((scope) => typeof scope !== "string" || scope === "" || /\s/.test(scope)))
      bad(`a "step-up" fault needs "scope": a scope or an array of scopes, got ${describeValue(fault.scope)}.`);
  }
  if (fault.to !== undefined && (typeof fault.to !== "string" || !URL.canParse(fault.to))) bad(`"to" must be an issuer URL, got ${describeValue(fault.to)}.`);
}

interface ActiveFault {
  readonly fault: AuthFault;
  left: number;
}

/** The faults in force, in the order they were added; the first that matches a request hits it. */
export class AuthFaults {
  private active: ActiveFault[] = [];

  add(faults: readonly AuthFault[]): void {
    faults.forEach((fault, index) => checkFault(fault, `faults[${index}]`));
    for (const fault of faults) this.active.push({ fault: Object.freeze({ ...fault }), left: fault.times ?? (ONE_SHOT.has(fault.fault) ? 1 : Number.POSITIVE_INFINITY) });
  }

  /** The fault of this kind that hits a request with this test id, used up by one; undefined when none does. */
  take(kind: AuthFaultKind, testId: string | undefined): AuthFault | undefined {
    for (const entry of this.active) {
      if (entry.fault.fault !== kind || entry.left <= 0) continue;
      if (entry.fault.testId !== undefined && entry.fault.testId !== testId) continue;
      entry.left--;
      if (entry.left <= 0) this.active = this.active.filter((other) => other !== entry);
      return entry.fault;
    }
    return undefined;
  }

  /** Every fault of this kind that would hit a request with this test id, none used up (for faults that describe the server). */
  peekAll(kind: AuthFaultKind, testId: string | undefined): AuthFault[] {
    return this.active.filter((entry) => entry.fault.fault === kind && entry.left > 0 && (entry.fault.testId === undefined || entry.fault.testId === testId)).map((entry) => entry.fault);
  }

  /** Whether any fault is in force: a protected request with none skips every look-up. */
  get any(): boolean {
    return this.active.length > 0;
  }

  /** The faults in force, with how many requests each has left. */
  list(): Array<AuthFault & { left: number | "unlimited" }> {
    return this.active.map((entry) => ({ ...entry.fault, left: Number.isFinite(entry.left) ? entry.left : "unlimited" }));
  }

  /** Removes the faults of one test id, or all of them. Returns how many went. */
  clear(testId?: string): number {
    const before = this.active.length;
    this.active = testId === undefined ? [] : this.active.filter((entry) => entry.fault.testId !== testId);
    return before - this.active.length;
  }
}
