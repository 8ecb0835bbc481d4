/**
 * Reads the identity of one MCP request (test id, context, undeclared override) from its
 * headers and query, over what its session stored at initialize. Pure: the HTTP wire passes
 * what it has, and turns an `http-error` into the 400 it describes.
 */
import type { FakeIdentity } from "./types.js";

/** A web `Headers` (or anything with `get`), or a record such as Node's `headersDistinct`. */
export type HeaderInput = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface IdentityInput {
  headers?: HeaderInput;
  /** The request URL's query: a URLSearchParams or the search string. */
  query?: URLSearchParams | string;
  /** What the session stored at initialize. */
  session?: FakeIdentity;
}

export interface ResolvedIdentity {
  testId: string | null;
  context: string | null;
  undeclared: "allow" | "deny" | null;
}

export type IdentityErrorCode = "MCP_DUPLICATE_IDENTITY" | "MCP_INVALID_UNDECLARED";

export type IdentityResult =
  | {
      kind: "identity";
      /** What this request uses: each field from this request, else the session's. */
      identity: ResolvedIdentity;
      /** Only the fields this request sent; store these on the session at initialize (see `bindIdentity`). */
      sent: FakeIdentity;
    }
  | { kind: "http-error"; status: 400; body: { error: string; code: IdentityErrorCode } };

type Field = "testId" | "context" | "undeclared";

/** Our header names first; aimock's names (`X-AIMock-…`) are accepted so clients configured for aimock work. */
const HEADERS: Record<Field, readonly string[]> = {
  testId: ["X-Test-Id"],
  context: ["X-Test-Context", "X-AIMock-Context"],
  undeclared: ["X-Test-Undeclared", "X-AIMock-MCP-Undeclared"],
};
const QUERY: Record<Field, string> = { testId: "testId", context: "context", undeclared: "undeclared" };

class IdentityError extends Error {
  constructor(
    message: string,
    readonly code: IdentityErrorCode,
  ) {
    super(message);
  }
}

function headerValues(headers: HeaderInput, name: string): string[] {
  if (typeof headers.get === "function") {
    // A web Headers joins repeated headers with ", ", so a repeat cannot be told apart here;
    // the HTTP wire passes Node's headersDistinct (a record of arrays) to catch repeats.
    const value = (headers as { get(name: string): string | null }).get(name);
    return value === null ? [] : [value];
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const lower = name.toLowerCase();
  const values: string[] = [];
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== lower) continue;
    const value = record[key];
    if (Array.isArray(value)) values.push(...value);
    else if (value !== undefined) values.push(value);
  }
  return values;
}

/** Percent-decodes a header value; a value that does not decode is used as sent. */
function decodeHeader(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const quote = (value: string): string => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

/** The one value of a field on the header path, decoded, or undefined when not sent. */
function fromHeaders(headers: HeaderInput, field: Field): { value: string; source: string } | undefined {
  const found: Array<{ value: string; source: string }> = [];
  for (const name of HEADERS[field]) {
    const values = headerValues(headers, name).filter((value) => value !== "");
    if (values.length > 1) throw new IdentityError(`Duplicate ${name} header: ${values.length} values sent, expected one.`, "MCP_DUPLICATE_IDENTITY");
    if (values.length === 1) found.push({ value: field === "undeclared" ? values[0] : decodeHeader(values[0]), source: `${name} header` });
  }
  if (found.length > 1 && found[0].value !== found[1].value) {
    throw new IdentityError(
      `Duplicate ${field}: the ${HEADERS[field].join(" and ")} headers both sent, with different values (${quote(found[0].value)}, ${quote(found[1].value)}); send one.`,
      "MCP_DUPLICATE_IDENTITY",
    );
  }
  return found[0];
}

function fromQuery(query: URLSearchParams, field: Field): { value: string; source: string } | undefined {
  const name = QUERY[field];
  const values = query.getAll(name).filter((value) => value !== "");
  if (values.length > 1) throw new IdentityError(`Duplicate ?${name}= query parameter: ${values.length} values sent, expected one.`, "MCP_DUPLICATE_IDENTITY");
  return values.length === 1 ? { value: values[0], source: `?${name}= query parameter` } : undefined;
}

function undeclaredPolicy(sent: { value: string; source: string }): "allow" | "deny" {
  const policy = sent.value.trim().toLowerCase();
  if (policy === "allow" || policy === "deny") return policy;
  throw new IdentityError(`Invalid ${sent.source}: ${quote(sent.value)}; expected allow or deny.`, "MCP_INVALID_UNDECLARED");
}

/** The identity of one request, or the HTTP 400 its identity fields earn. */
export function readIdentity(input: IdentityInput): IdentityResult {
  const query = typeof input.query === "string" ? new URLSearchParams(input.query) : (input.query ?? new URLSearchParams());
  const headers = input.headers ?? {};
  const session = input.session ?? {};
  try {
    const sent: FakeIdentity = {};
    for (const field of ["testId", "context", "undeclared"] as const) {
      // Both paths are checked for repeats, even when the header wins.
      const header = fromHeaders(headers, field);
      const fromUrl = fromQuery(query, field);
      const chosen = header ?? fromUrl;
      if (!chosen) continue;
      if (field === "undeclared") sent.undeclared = undeclaredPolicy(chosen);
      else sent[field] = chosen.value;
    }
    return { kind: "identity", identity: { ...resolvedOf(session), ...withoutEmpty(sent) }, sent };
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    return { kind: "http-error", status: 400, body: { error: error.message, code: error.code } };
  }
}

function resolvedOf(identity: FakeIdentity): ResolvedIdentity {
  return { testId: identity.testId ?? null, context: identity.context ?? null, undeclared: identity.undeclared ?? null };
}

function withoutEmpty(identity: FakeIdentity): Partial<ResolvedIdentity> {
  return Object.fromEntries(Object.entries(identity).filter(([, value]) => value !== undefined && value !== null));
}

/** The session's identity after `initialize` sent `sent`: a field sent replaces the stored one, others stay. */
export function bindIdentity(session: FakeIdentity | undefined, sent: FakeIdentity): ResolvedIdentity {
  return { ...resolvedOf(session ?? {}), ...withoutEmpty(sent) };
}
