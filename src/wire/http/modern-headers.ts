/**
 * The mock's check of a 2026-07-28 request's headers: the body's required `_meta` fields first
 * (missing → 400 with -32602), then the header rules of protocol/http-headers.ts (the ones the
 * validator reports too), the first one broken answered as a 400 with -32020 (HeaderMismatch)
 * naming the header, what it said and what was expected.
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import { mirroredOf, modernHeaderProblems } from "../../protocol/http-headers.js";
import { META } from "../../protocol/meta-keys.js";
import { declaredVersion, requestMeta } from "../../protocol/request-meta.js";
import { missingMeta } from "../../engine/request-context.js";

type Json = Record<string, unknown>;

/**
 * The -32020 (or -32602) problem with a modern request's headers, or undefined when they are
 * right. `inputSchemaOf` gives the schema of a tool the mock has (for `Mcp-Param-*`).
 */
export function headerProblem(headers: { header(name: string): string | undefined }, message: Json, inputSchemaOf: (tool: string) => unknown): JsonRpcErrorObject | undefined {
  const params = (message.params ?? {}) as Json;
  const declared = declaredVersion(params);
  // A modern header over a body without the modern _meta: the body is what is invalid (-32602).
  if (declared === undefined && headers.header("mcp-protocol-version") !== undefined) return missingMeta(META.protocolVersion);
  const capabilities = requestMeta(params)?.[META.clientCapabilities];
  if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) return missingMeta(META.clientCapabilities);
  const first = modernHeaderProblems((name) => headers.header(name), message.method as string, params, declared, inputSchemaOf, 1)[0];
  return first && { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${first.message}` };
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
