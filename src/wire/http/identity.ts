/**
 * The caller's identity over HTTP (test id, context, undeclared-tools override) from headers
 * and query, over what the session stored at `initialize`. Most requests carry none of it, so
 * a quick look at the few header names and the query comes first and costs next to nothing.
 */
import { NO_IDENTITY, type RequestIdentity } from "../../engine/request-context.js";
import { bindIdentity, readIdentity } from "../../fakes/identity.js";
import type { FakeIdentity } from "../../fakes/types.js";
import type { HttpExchange } from "./exchange.js";

const IDENTITY_HEADERS = ["x-test-id", "x-test-context", "x-aimock-context", "x-test-undeclared", "x-aimock-mcp-undeclared"];

export type IdentityReading =
  | { readonly kind: "identity"; readonly identity: RequestIdentity; readonly sent: FakeIdentity }
  | { readonly kind: "http-error"; readonly status: number; readonly body: string };

const NOTHING: IdentityReading = Object.freeze({ kind: "identity", identity: NO_IDENTITY, sent: Object.freeze({}) });

/** The identity of this request: what it sent, each field else the session's (`stored`). */
export function readRequestIdentity(exchange: HttpExchange, stored: RequestIdentity | undefined): IdentityReading {
  if (!exchange.hasQuery && !exchange.hasAnyHeader(IDENTITY_HEADERS)) {
    return stored === undefined || stored === NO_IDENTITY ? NOTHING : { kind: "identity", identity: stored, sent: {} };
  }
  const result = readIdentity({ headers: exchange.distinctHeaders, query: exchange.query, session: stored });
  if (result.kind === "http-error") return { kind: "http-error", status: result.status, body: JSON.stringify(result.body) };
  return { kind: "identity", identity: withoutNulls(result.identity), sent: result.sent };
}

/** What a session stores at `initialize`: the fields its request sent, over what it had. */
export function storedIdentity(stored: RequestIdentity | undefined, sent: FakeIdentity): RequestIdentity {
  return withoutNulls(bindIdentity(stored, sent));
}

function withoutNulls(identity: FakeIdentity): RequestIdentity {
  const out: { testId?: string; context?: string; undeclared?: "allow" | "deny" } = {};
  if (identity.testId != null) out.testId = identity.testId;
  if (identity.context != null) out.context = identity.context;
  if (identity.undeclared != null) out.undeclared = identity.undeclared;
  return Object.keys(out).length === 0 ? NO_IDENTITY : out;
}
