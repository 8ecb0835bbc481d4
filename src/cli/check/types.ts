/** What a check is and what it reports. */

/** PASS: the rule holds. WARN: a SHOULD is not met, or a MUST could not be judged. FAIL: a MUST is broken. SKIP: does not apply here. */
export type CheckStatus = "PASS" | "WARN" | "FAIL" | "SKIP";

export interface CheckOutcome {
  status: CheckStatus;
  /** One line: what was seen. */
  detail: string;
}

export interface CheckResult extends CheckOutcome {
  /** Position in the list, from 1. */
  number: number;
  /** Stable id, e.g. `unknown-method`. */
  id: string;
  title: string;
  /** Where the rule is written: a URL into the spec (of the negotiated version) or JSON-RPC 2.0. */
  spec: string;
}

export interface CheckReport {
  target: string;
  transport: "stdio" | "http";
  protocolVersion: string | undefined;
  serverInfo: Record<string, unknown> | undefined;
  /**
   * The eras the server speaks, each with its version, and why one is not spoken: `legacy`
   * (an `initialize` session) and `modern` (2026-07-28, `server/discover`).
   */
  eras: { legacy: EraFinding; modern: EraFinding };
  checks: CheckResult[];
  summary: { total: number; pass: number; warn: number; fail: number; skip: number };
  /** True when no check failed. */
  ok: boolean;
}

export type EraFinding = { spoken: true; protocolVersion: string } | { spoken: false; why: string };

export const pass = (detail: string): CheckOutcome => ({ status: "PASS", detail });
export const warn = (detail: string): CheckOutcome => ({ status: "WARN", detail });
export const fail = (detail: string): CheckOutcome => ({ status: "FAIL", detail });
export const skip = (detail: string): CheckOutcome => ({ status: "SKIP", detail });
