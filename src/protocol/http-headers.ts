/**
 * The Streamable HTTP header rules, written once for every side that needs them: the mock
 * (which refuses a request with the first problem, 400 -32020), the validator (which reports
 * every problem at `headers.<name>`) and the driver (which builds the headers a request needs).
 *
 * 2026-07-28 (`requestHeaders`): `MCP-Protocol-Version` equal to the body's `_meta` version,
 * `Mcp-Method` equal to the method, `Mcp-Name` on `tools/call`, `resources/read` and
 * `prompts/get`, and `Mcp-Param-{Name}` for each tool argument whose schema says `x-mcp-header`.
 * Values that are not plain ASCII travel in the Base64 sentinel `=?base64?…?=`.
 * Legacy era: `MCP-Protocol-Version` (2025-06-18+) and `Mcp-Session-Id` on every POST after
 * `initialize`; a session id of visible ASCII only.
 */
import { valueAt } from "../util/value-at.js";
import { META } from "./meta-keys.js";
import { DEFAULT_HTTP_PROTOCOL_VERSION, versionHas, type ProtocolVersion } from "./versions.js";

type Json = Record<string, unknown>;

/** One broken rule: the header (lower-case name) and what is wrong, naming it as the spec writes it. */
export interface HeaderRuleProblem {
  readonly header: string;
  readonly message: string;
}

/** Reads a request header by lower-case name (a repeated header's values joined with ", ", as node and `Headers` give them). */
export type HeaderReader = (name: string) => string | undefined;

/** Which parameter `Mcp-Name` mirrors, per method (the tasks extension routes a task's requests by its id). */
export const MCP_NAME_SOURCE: Readonly<Record<string, "name" | "uri" | "taskId">> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  // The tasks extension: a task's requests are routed by its id.
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
/** Visible ASCII, inner spaces and tabs (RFC 9110 field values), with no edge whitespace. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/;
/** What a header value may carry at all (a parser has already trimmed its edges). */
const HEADER_CHARACTERS = /^[\x20-\x7e\t]*$/;
/** Visible ASCII only: what a legacy session id may contain. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
const NO_PROBLEMS: readonly HeaderRuleProblem[] = Object.freeze([]);
const NO_PARAMETERS: readonly MirroredParameter[] = Object.freeze([]);
const SENTINEL_HINT = "a value that is not plain ASCII, or has spaces at its ends, travels as =?base64?…?=";

function isSentinelLike(value: string): boolean {
  return value.startsWith("=?base64?") && value.endsWith("?=");
}

/** A value as a header carries it: as is when plain ASCII, else the Base64 sentinel (also for a plain value that looks like one). */
export function encodeHeaderValue(value: string): string {
  if (PLAIN_HEADER_VALUE.test(value) && !isSentinelLike(value)) return value;
  return `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** A header value with the Base64 sentinel decoded; undefined when the sentinel is malformed. */
function decodeHeaderValue(value: string): string | undefined {
  // Only the whole sentinel is one: a value lacking the prefix or the suffix is literal text.
  if (value.length < 11 || !isSentinelLike(value)) return value;
  const match = SENTINEL.exec(value);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64");
  // Round-trip check: Node decodes leniently, the spec's encoding is exact.
  return decoded.toString("base64") === match[1] ? decoded.toString("utf8") : undefined;
}

/** A tool argument mirrored into `Mcp-Param-{header}`: its path of `properties` keys. */
export interface MirroredParameter {
  readonly header: string;
  readonly path: readonly string[];
  readonly type: unknown;
}

/** The properties of `schema` marked `x-mcp-header`, by their path of `properties` keys only. */
function mirroredParameters(schema: unknown, path: string[] = [], found: MirroredParameter[] = []): MirroredParameter[] {
  if (typeof schema !== "object" || schema === null) return found;
  const properties = (schema as Json).properties;
  if (typeof properties !== "object" || properties === null) return found;
  for (const [key, property] of Object.entries(properties as Json)) {
    if (typeof property !== "object" || property === null) continue;
    const header = (property as Json)["x-mcp-header"];
    if (typeof header === "string" && header.length > 0) found.push({ header, path: [...path, key], type: (property as Json).type });
    mirroredParameters(property, [...path, key], found);
  }
  return found;
}

/** Per tool schema (schemas are kept as given, so the object identifies it): walked once, not per call. */
const mirroredCache = new WeakMap<object, readonly MirroredParameter[]>();

/** `mirroredParameters`, remembered per schema object. */
export function mirroredOf(schema: unknown): readonly MirroredParameter[] {
  if (typeof schema !== "object" || schema === null) return NO_PARAMETERS;
  let found = mirroredCache.get(schema);
  if (found === undefined) mirroredCache.set(schema, (found = mirroredParameters(schema)));
  return found;
}

export { valueAt };

/** A number as JSON writes it, in decimal: `42`, `-1.5`, `4.2e1`; not `0x2A`, `+42`, `042` or ` 42`. */
const DECIMAL_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Header text against a body value: numbers compare as decimal numbers (`42.0` is 42, `0x2A` is
 * not: an intermediary reading the header must see the body's value), booleans as `true`/`false`.
 */
function sameValue(headerValue: string, bodyValue: unknown): boolean {
  if (typeof bodyValue === "number") return DECIMAL_NUMBER.test(headerValue) && Number(headerValue) === bodyValue;
  if (typeof bodyValue === "boolean") return headerValue === String(bodyValue);
  return headerValue === bodyValue;
}

/** Collects problems up to a limit (the mock stops at the first). */
class Problems {
  list: HeaderRuleProblem[] | undefined;
  constructor(private readonly limit: number) {}
  /** Adds one; whether to go on. */
  add(header: string, message: string): boolean {
    (this.list ??= []).push({ header, message });
    return this.list.length < this.limit;
  }
  get full(): boolean {
    return this.list !== undefined && this.list.length >= this.limit;
  }
  result(): readonly HeaderRuleProblem[] {
    return this.list ?? NO_PROBLEMS;
  }
}

/**
 * A mirrored header (`Mcp-Name`, `Mcp-Param-*`) against its body value: present when the body
 * has one, only header characters, a well-formed sentinel, and equal once decoded. (An
 * `Mcp-Param-*` sent for an absent or null argument is refused before this, in `checkParams`.)
 */
function checkMirrored(found: Problems, header: HeaderReader, name: string, display: string, expected: unknown, what: string, required: () => string): void {
  const raw = header(name);
  if (raw === undefined) {
    if (expected !== undefined && expected !== null) found.add(name, required());
    return;
  }
  if (!HEADER_CHARACTERS.test(raw)) {
    found.add(name, `${display} header value ${JSON.stringify(raw)} has characters a header value may not carry (visible ASCII, spaces and tabs only): ${SENTINEL_HINT}`);
    return;
  }
  const value = decodeHeaderValue(raw);
  if (value === undefined) {
    found.add(name, `${display} header value ${JSON.stringify(raw)} is not valid Base64 in the =?base64?…?= sentinel`);
    return;
  }
  if (expected === undefined || expected === null || sameValue(value, expected)) return;
  const hint = typeof expected === "string" && encodeHeaderValue(expected) !== expected && raw === value ? ` (${SENTINEL_HINT})` : "";
  found.add(name, `${display} header value ${JSON.stringify(value)} does not match the body's ${what} ${JSON.stringify(expected)}${hint}`);
}

/**
 * The 2026-07-28 header rules for the POST of a request (`method`, `params`). `declared` is the
 * body's `_meta` version (undefined when the body names none: then the body is what is wrong,
 * and only the header's presence is checked). `inputSchemaOf` gives a tool's `inputSchema`
 * for `Mcp-Param-*` (undefined: not known, not checked). At most `limit` problems.
 */
export function modernHeaderProblems(
  header: HeaderReader,
  method: string,
  params: Json,
  declared: unknown,
  inputSchemaOf: (tool: string) => unknown,
  limit = Number.POSITIVE_INFINITY,
): readonly HeaderRuleProblem[] {
  const found = new Problems(limit);
  const version = header("mcp-protocol-version");
  if (version === undefined) {
    const equal = declared === undefined ? "" : `, and must equal params._meta["${META.protocolVersion}"] (${JSON.stringify(declared)})`;
    if (!found.add("mcp-protocol-version", `the MCP-Protocol-Version header is required on every POST${equal}`)) return found.result();
  } else if (typeof declared === "string" && version !== declared) {
    // A version that is no string is the body's own fault (-32022, or the validator's type problem), not a mismatch.
    if (!found.add("mcp-protocol-version", `MCP-Protocol-Version header value ${JSON.stringify(version)} does not match the body's _meta version ${JSON.stringify(declared)}`)) return found.result();
  }
  const methodHeader = header("mcp-method");
  if (methodHeader === undefined) {
    if (!found.add("mcp-method", `the Mcp-Method header is required on every request (expected ${JSON.stringify(method)})`)) return found.result();
  } else if (methodHeader !== method) {
    if (!found.add("mcp-method", `Mcp-Method header value ${JSON.stringify(methodHeader)} does not match the body's method ${JSON.stringify(method)}`)) return found.result();
  }
  const source = MCP_NAME_SOURCE[method];
  if (source !== undefined) {
    const expected = params[source];
    checkMirrored(found, header, "mcp-name", "Mcp-Name", expected, `params.${source}`, () => `the Mcp-Name header is required on ${method} (expected params.${source}, ${JSON.stringify(expected)})`);
    if (found.full) return found.result();
  }
  if (method === "tools/call" && typeof params.name === "string") checkParams(found, header, params.arguments, inputSchemaOf(params.name), params.name);
  return found.result();
}

function checkParams(found: Problems, header: HeaderReader, args: unknown, schema: unknown, tool: string): void {
  for (const mirrored of mirroredOf(schema)) {
    const display = `Mcp-Param-${mirrored.header}`;
    const where = `arguments.${mirrored.path.join(".")}`;
    const bodyValue = valueAt(args, mirrored.path);
    const name = display.toLowerCase();
    if (bodyValue === undefined || bodyValue === null) {
      // The header claims a value the body does not carry: an intermediary routing on it would act on what the server never gets.
      const sent = header(name);
      if (
        sent !== undefined &&
        !found.add(name, `${display} header value ${JSON.stringify(sent)} mirrors nothing: the body's ${where} is ${bodyValue === null ? "null" : "absent"} (a client omits the header then)`)
      )
        return;
      continue;
    }
    const required = () => `the ${display} header is required: tool ${JSON.stringify(tool)} mirrors ${where} (${JSON.stringify(bodyValue)}) into it (x-mcp-header)`;
    checkMirrored(found, header, name, display, bodyValue, where, required);
    if (found.full) return;
  }
}

/**
 * The legacy era's header rules for a POST after `initialize` (a batch counts once): in
 * 2025-06-18 and later `MCP-Protocol-Version` equal to the negotiated `version`; with sessions,
 * `Mcp-Session-Id` equal to the id the server gave (`sessionId`; unknown: only a present one is
 * read). The POST of `initialize` itself needs neither.
 */
export function legacyHeaderProblems(header: HeaderReader, version: ProtocolVersion, sessionId: string | undefined): readonly HeaderRuleProblem[] {
  const found = new Problems(Number.POSITIVE_INFINITY);
  if (versionHas(version, "protocolVersionHeader")) {
    const sent = header("mcp-protocol-version");
    if (sent === undefined)
      found.add(
        "mcp-protocol-version",
        `the MCP-Protocol-Version header is required on every POST after initialize in ${version} (expected ${JSON.stringify(version)}, the negotiated version); a server may assume ${DEFAULT_HTTP_PROTOCOL_VERSION} without it`,
      );
    else if (sent !== version) found.add("mcp-protocol-version", `MCP-Protocol-Version header value ${JSON.stringify(sent)} is not the negotiated version ${JSON.stringify(version)}`);
  }
  if (versionHas(version, "sessions") && sessionId !== undefined) {
    const sent = header("mcp-session-id");
    if (sent === undefined) found.add("mcp-session-id", `the Mcp-Session-Id header is required on every POST after initialize: the server gave session ${JSON.stringify(sessionId)}`);
    else if (sent !== sessionId) found.add("mcp-session-id", `Mcp-Session-Id header value ${JSON.stringify(sent)} is not the session the server gave, ${JSON.stringify(sessionId)}`);
  }
  return found.result();
}

/** What is wrong with a session id a server gives (visible ASCII only), or undefined. */
export function sessionIdProblem(value: string): HeaderRuleProblem | undefined {
  if (VISIBLE_ASCII.test(value)) return undefined;
  return { header: "mcp-session-id", message: `Mcp-Session-Id ${JSON.stringify(value)} must contain only visible ASCII characters (0x21 to 0x7E)` };
}

/**
 * A reader over a `Headers` or a plain record (names in any case). A repeated header reads as its
 * values joined with ", ", as `Headers.get` and node's `req.headers` give it, so the validator
 * sees what the mock and any server see.
 */
export function headerReader(headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>): HeaderReader {
  if (headers instanceof Headers) return (name) => headers.get(name) ?? undefined;
  const byName = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const text = typeof value === "string" ? value : value === undefined || value.length === 0 ? undefined : value.join(", ");
    if (text === undefined) continue;
    const lower = name.toLowerCase();
    const seen = byName.get(lower);
    byName.set(lower, seen === undefined ? text : `${seen}, ${text}`);
  }
  return (name) => byName.get(name);
}
