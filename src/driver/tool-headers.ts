/**
 * `x-mcp-header` on the client side (2026-07-28, Streamable HTTP): which tool arguments go into
 * `Mcp-Param-{Name}` headers, as strings, and which tool definitions a client must refuse
 * (a client over HTTP leaves such a tool out of `tools/list`, so one bad tool does not stop the
 * others from being used).
 */
import { mirroredOf, valueAt } from "../protocol/http-headers.js";
import { isHttpToken } from "../protocol/http-token.js";

type Json = Record<string, unknown>;

const MIRRORABLE_TYPES = new Set(["string", "integer", "boolean"]);

/** `[header name, value as text]` for each mirrored argument the call has (none missing or null). */
export function mirroredHeaderValues(schema: unknown, args: unknown): [string, string][] {
  const values: [string, string][] = [];
  for (const { header, path } of mirroredOf(schema)) {
    const value = valueAt(args, path);
    if (value === undefined || value === null || typeof value === "object") continue;
    values.push([header, String(value)]);
  }
  return values;
}

/** Why a tool's `x-mcp-header` annotations make it invalid, or undefined when they are fine. */
export function invalidHeaderAnnotation(inputSchema: unknown): string | undefined {
  const seen = new Set<string>();
  return walk(inputSchema, true, "inputSchema", seen);
}

function walk(schema: unknown, reachable: boolean, where: string, seen: Set<string>): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const problem = walk(item, false, `${where}[${index}]`, seen);
      if (problem) return problem;
    }
    return undefined;
  }
  const node = schema as Json;
  const header = node["x-mcp-header"];
  if (header !== undefined && where !== "inputSchema") {
    if (!reachable) return `${where} has x-mcp-header ${JSON.stringify(header)} but is not reachable from the root through "properties" alone`;
    if (typeof header !== "string" || !isHttpToken(header)) return `${where}: x-mcp-header ${JSON.stringify(header)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~)`;
    if (seen.has(header.toLowerCase())) return `${where}: x-mcp-header ${JSON.stringify(header)} is used twice (names are case-insensitive)`;
    seen.add(header.toLowerCase());
    if (typeof node.type !== "string" || !MIRRORABLE_TYPES.has(node.type))
      return `${where}: x-mcp-header is allowed on string, integer and boolean parameters only, not type ${JSON.stringify(node.type)}`;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [name, property] of Object.entries(value as Json)) {
        const problem = walk(property, reachable, `${where}.properties.${name}`, seen);
        if (problem) return problem;
      }
    } else if (typeof value === "object" && value !== null) {
      const problem = walk(value, false, `${where}.${key}`, seen);
      if (problem) return problem;
    }
  }
  return undefined;
}
