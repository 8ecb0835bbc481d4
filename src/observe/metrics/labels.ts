/**
 * The bounded label values metrics may carry: registered endpoint paths, methods from the
 * known set, fixed outcomes, reasons and codes. Anything a client chooses (an unknown method, a
 * tool name, a URI, an id, a header) never becomes a label: an unknown method collapses to
 * `unrecognized`, an unknown code to `other`.
 */
import { ClientRequestMethods } from "../../protocol/methods.js";
import { ErrorCode } from "../../protocol/errors.js";

/** The method label for every method outside the known set. */
export const UNRECOGNIZED_METHOD = "unrecognized";

/** Methods of the legacy era and of 2026-07-28 (so a modern request is just another request). */
const KNOWN_METHODS = new Set<string>([...ClientRequestMethods, "server/discover", "subscriptions/listen", "tasks/get", "tasks/result", "tasks/update", "tasks/cancel", "tasks/list"]);

export function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : UNRECOGNIZED_METHOD;
}

/** JSON-RPC and MCP codes that are labels as themselves; the rest are `other`. */
const KNOWN_CODES = new Set<number>([...Object.values(ErrorCode), -32000, -32001, -32020, -32021, -32022]);

export function codeLabel(code: number): string {
  return KNOWN_CODES.has(code) ? String(code) : "other";
}

/** HTTP statuses a transport refusal may carry; the rest are `other`. */
const KNOWN_STATUSES = new Set([400, 403, 404, 405, 406, 409, 413, 415, 500, 503]);

export function statusLabel(status: number): string {
  return KNOWN_STATUSES.has(status) ? String(status) : "other";
}

/** Fake failure codes: stable short words (`MCP_FAKE_MISMATCH`); at most this many distinct ones, then `other`. */
export const MAX_FAKE_FAILURE_CODES = 64;
const FAKE_CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export class FakeCodeLabels {
  private readonly seen = new Set<string>();

  label(code: string): string {
    if (this.seen.has(code)) return code;
    if (!FAKE_CODE.test(code) || this.seen.size >= MAX_FAKE_FAILURE_CODES) return "other";
    this.seen.add(code);
    return code;
  }
}
