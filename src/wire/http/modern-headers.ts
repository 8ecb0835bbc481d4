/**
 * The request headers of Streamable HTTP in 2026-07-28: `MCP-Protocol-Version` equal to the
 * body's `_meta` version, `Mcp-Method` on every request, `Mcp-Name` on `tools/call`,
 * `resources/read` and `prompts/get`, and `Mcp-Param-{Name}` for each tool argument whose schema
 * says `x-mcp-header`. Values may come in the Base64 sentinel `=?base64?…?=`. Any rule broken is
 * a 400 with -32020 (HeaderMismatch) naming the header, what it said and what was expected; a
 * body lacking the required `_meta` fields is a 400 with -32602.
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import { declaredVersion, META, requestMeta } from "../../engine/request-meta.js";
import { missingMeta } from "../../engine/request-context.js";

type Json = Record<string, unknown>;

/** Which parameter `Mcp-Name` mirrors, per method. */
const NAME_SOURCE: Record<string, "name" | "uri"> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

function mismatch(message: string): JsonRpcErrorObject {
  return { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${message}` };
}

/** A header value with the Base64 sentinel decoded; undefined when the sentinel is malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  // Only the whole sentinel is one: a value lacking the prefix or the suffix is literal text.
  if (!value.startsWith("=?base64?") || !value.endsWith("?=") || value.length < 11) return value;
  const match = SENTINEL.exec(value);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64");
  // Round-trip check: Node decodes leniently, the spec's encoding is exact.
  return decoded.toString("base64") === match[1] ? decoded.toString("utf8") : undefined;
}

/** A header's value read for comparison, or the -32020 problem with it. */
function readMirrored(header: (name: string) => string | undefined, name: string, display: string): { value?: string; problem?: JsonRpcErrorObject } {
  const raw = header(name);
  if (raw === undefined) return {};
  const value = decodeHeaderValue(raw);
  if (value === undefined) return { problem: mismatch(`${display} header value ${JSON.stringify(raw)} is not valid Base64 in the =?base64?…?= sentinel`) };
  return { value };
}

type Mirrored = { header: string; path: string[]; type: unknown }[];
/** Per tool schema (schemas are kept as given, so the object identifies it): walked once, not per call. */
const mirroredCache = new WeakMap<object, Mirrored>();

function mirroredOf(schema: unknown): Mirrored {
  if (typeof schema !== "object" || schema === null) return [];
  let found = mirroredCache.get(schema);
  if (found === undefined) mirroredCache.set(schema, (found = mirroredParameters(schema)));
  return found;
}

/** The properties of `schema` marked `x-mcp-header`, by their path of `properties` keys only. */
export function mirroredParameters(schema: unknown, path: string[] = [], found: { header: string; path: string[]; type: unknown }[] = []): { header: string; path: string[]; type: unknown }[] {
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

function valueAt(args: unknown, path: string[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Json)[key];
  }
  return value;
}

function sameValue(headerValue: string, bodyValue: unknown): boolean {
  if (typeof bodyValue === "number") return headerValue.trim() !== "" && Number(headerValue) === bodyValue;
  if (typeof bodyValue === "boolean") return headerValue === String(bodyValue);
  return headerValue === bodyValue;
}

/**
 * The -32020 problem with a modern request's headers, or undefined when they are right.
 * `inputSchemaOf` gives the schema of a tool the mock has (for `Mcp-Param-*`).
 */
export function headerProblem(headers: { header(name: string): string | undefined }, message: Json, inputSchemaOf: (tool: string) => unknown): JsonRpcErrorObject | undefined {
  const header = (name: string) => headers.header(name);
  const method = message.method as string;
  const params = (message.params ?? {}) as Json;
  const declared = declaredVersion(params);
  const version = header("mcp-protocol-version");
  // A modern header over a body without the modern _meta: the body is what is invalid (-32602).
  if (version !== undefined && declared === undefined) return missingMeta(META.protocolVersion);
  const capabilities = requestMeta(params)?.[META.clientCapabilities];
  if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) return missingMeta(META.clientCapabilities);
  if (version === undefined) return mismatch(`the MCP-Protocol-Version header is required, and must equal params._meta["io.modelcontextprotocol/protocolVersion"] (${JSON.stringify(declared)})`);
  if (version !== declared) return mismatch(`MCP-Protocol-Version header value ${JSON.stringify(version)} does not match the body's _meta version ${JSON.stringify(declared)}`);
  const methodHeader = header("mcp-method");
  if (methodHeader === undefined) return mismatch(`the Mcp-Method header is required on every request (expected ${JSON.stringify(method)})`);
  if (methodHeader !== method) return mismatch(`Mcp-Method header value ${JSON.stringify(methodHeader)} does not match the body's method ${JSON.stringify(method)}`);

  const source = NAME_SOURCE[method];
  if (source !== undefined) {
    const expected = params[source];
    const name = readMirrored(header, "mcp-name", "Mcp-Name");
    if (name.problem) return name.problem;
    if (name.value === undefined) return mismatch(`the Mcp-Name header is required on ${method} (expected params.${source}, ${JSON.stringify(expected)})`);
    if (name.value !== expected) return mismatch(`Mcp-Name header value ${JSON.stringify(name.value)} does not match the body's params.${source} ${JSON.stringify(expected)}`);
  }
  if (method === "tools/call" && typeof params.name === "string") return paramProblem(header, params.arguments, inputSchemaOf(params.name), params.name);
  return undefined;
}

function paramProblem(header: (name: string) => string | undefined, args: unknown, schema: unknown, tool: string): JsonRpcErrorObject | undefined {
  for (const mirrored of mirroredOf(schema)) {
    const display = `Mcp-Param-${mirrored.header}`;
    const bodyValue = valueAt(args, mirrored.path);
    const given = readMirrored(header, display.toLowerCase(), display);
    if (given.problem) return given.problem;
    const where = `arguments.${mirrored.path.join(".")}`;
    if (bodyValue === undefined || bodyValue === null) continue;
    if (given.value === undefined) return mismatch(`the ${display} header is required: tool ${JSON.stringify(tool)} mirrors ${where} (${JSON.stringify(bodyValue)}) into it (x-mcp-header)`);
    if (!sameValue(given.value, bodyValue)) return mismatch(`${display} header value ${JSON.stringify(given.value)} does not match the body's ${where} ${JSON.stringify(bodyValue)}`);
  }
  return undefined;
}

const PARAM_PREFIX = "mcp-param-";

/**
 * The `Mcp-Param-*` headers (lower-case names) a request sent for no parameter `schema` mirrors:
 * the spec defines no such header, so the mock ignores it, and tells metrics.
 */
export function unknownMirroredHeaders(headers: Record<string, string[] | undefined> | Headers, schema: unknown): string[] {
  const names = headers instanceof Headers ? [...headers.keys()] : Object.keys(headers);
  let unknown: string[] | undefined;
  for (const name of names) {
    const lower = name.toLowerCase();
    if (!lower.startsWith(PARAM_PREFIX)) continue;
    const mirrored = mirroredOf(schema).some((parameter) => parameter.header.toLowerCase() === lower.slice(PARAM_PREFIX.length));
    if (!mirrored) (unknown ??= []).push(lower);
  }
  return unknown ?? [];
}
