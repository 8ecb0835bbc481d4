/**
 * What the matchers accept, recognized by shape and by marker symbols, never by `instanceof`:
 * a test can end up with two copies of mcp-testkit (a hoisted and a nested one, ESM and CJS),
 * and an object made by one copy must still pass the other copy's matchers. `Symbol.for` keys
 * are shared by every copy in the process.
 */
import { clip } from "../util/text.js";

/** Marks an mcp-testkit driver (`mcpShell`, `mcpConnect`, `mcpAttach`). */
export const DRIVER_MARKER: unique symbol = Symbol.for("mcp-testkit.driver");
/** Marks a driver's `callTool()` result. */
export const TOOL_CALL_RESULT_MARKER: unique symbol = Symbol.for("mcp-testkit.toolCallResult");
/** Marks a driver's `readResource()` result. */
export const READ_RESOURCE_RESULT_MARKER: unique symbol = Symbol.for("mcp-testkit.readResourceResult");

type Json = Record<string, unknown>;

export interface ToolDefinitionLike extends Json {
  name: string;
}

export interface ResourceDefinitionLike extends Json {
  uri: string;
  name: string;
}

export interface ResourceTemplateDefinitionLike extends Json {
  uriTemplate: string;
  name: string;
}

export interface PromptDefinitionLike extends Json {
  name: string;
}

/** The part of a driver the catalog matchers use. */
export interface DriverLike {
  readonly [DRIVER_MARKER]: true;
  getTools(): Promise<readonly ToolDefinitionLike[]>;
  getResources(): Promise<readonly ResourceDefinitionLike[]>;
  getResourceTemplates(): Promise<readonly ResourceTemplateDefinitionLike[]>;
  getPrompts(): Promise<readonly PromptDefinitionLike[]>;
}

export type DriverListMethod = "getTools" | "getResources" | "getResourceTemplates" | "getPrompts";

export interface ContentBlockLike extends Json {
  type: string;
  text?: string;
}

/** A `CallToolResult`, plain or from a driver. */
export interface ToolResultLike {
  content: readonly ContentBlockLike[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface ResourceContentsLike extends Json {
  uri?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** A `ReadResourceResult`, plain or from a driver. */
export interface ResourceResultLike {
  contents: readonly ResourceContentsLike[];
}

/** A recorded tool call, as a mock from `mockMcp()` keeps it. */
export interface RecordedCallLike {
  tool: string;
  arguments: Record<string, unknown>;
  index: number;
}

/** The part of a mock from `mockMcp()` that `toHaveBeenCalledTool` uses. */
export interface MockLike {
  readonly calls: readonly RecordedCallLike[];
  assertCalled(tool: string, options?: { times?: number; with?: Record<string, unknown> }): readonly RecordedCallLike[];
}

/**
 * Any value that can carry the markers and fields read here: objects, arrays and functions, not
 * only the JSON objects of protocol's `isObject`. A received value can be any of them (a
 * function can be thenable); the readers that must refuse an array check for one themselves.
 */
function isObjectOrFunction(value: unknown): value is Record<PropertyKey, unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}

function isMarked(value: unknown, marker: symbol): boolean {
  return isObjectOrFunction(value) && value[marker] === true;
}

export function isDriver(value: unknown): boolean {
  return isMarked(value, DRIVER_MARKER);
}

/** The driver, or what it lacks: the marker (not a driver at all) or the list method the matcher needs. */
export function asDriver(value: unknown, method: DriverListMethod): { driver: DriverLike } | { missing: "marker" | DriverListMethod } {
  if (!isDriver(value)) return { missing: "marker" };
  if (typeof (value as Record<string, unknown>)[method] !== "function") return { missing: method };
  return { driver: value as unknown as DriverLike };
}

export function asToolResult(value: unknown): ToolResultLike | undefined {
  if (!isObjectOrFunction(value)) return undefined;
  const content = value.content;
  if (isMarked(value, TOOL_CALL_RESULT_MARKER)) {
    return { content: Array.isArray(content) ? content : [], structuredContent: value.structuredContent, isError: value.isError === true };
  }
  if (!Array.isArray(content) || isDriver(value) || Array.isArray(value)) return undefined;
  return { content, structuredContent: value.structuredContent, isError: value.isError === true };
}

export function asResourceResult(value: unknown): ResourceResultLike | undefined {
  if (!isObjectOrFunction(value)) return undefined;
  const contents = value.contents;
  if (isMarked(value, READ_RESOURCE_RESULT_MARKER)) return { contents: Array.isArray(contents) ? contents : [] };
  if (!Array.isArray(contents) || Array.isArray(value)) return undefined;
  return { contents };
}

export function asMock(value: unknown): MockLike | undefined {
  if (!isObjectOrFunction(value)) return undefined;
  return Array.isArray(value.calls) && typeof value.assertCalled === "function" ? (value as unknown as MockLike) : undefined;
}

function isThenable(value: unknown): boolean {
  return isObjectOrFunction(value) && typeof value.then === "function";
}

const shorten = (text: string): string => clip(text, 60);

/** A short description of a received value of the wrong kind, for "…; received <this>". */
export function describeReceived(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (isThenable(value)) return "a Promise (did you forget to await it?)";
  switch (typeof value) {
    case "string":
      return `the string ${shorten(JSON.stringify(value))}`;
    case "number":
    case "boolean":
      return `the ${typeof value} ${String(value)}`;
    case "bigint":
      return `the bigint ${String(value)}n`;
    case "symbol":
      return `the symbol ${String(value)}`;
    case "function":
      return `a function${(value as { name?: string }).name ? ` (${(value as { name: string }).name})` : ""}`;
  }
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (isDriver(value)) return "a driver";
  if (asMock(value)) return "a mock server (from mockMcp())";
  if (asToolResult(value)) return "a tool call result";
  if (asResourceResult(value)) return "a resource read result";
  const record = value as Record<string, unknown>;
  const className = (Object.getPrototypeOf(record) as { constructor?: { name?: string } } | null)?.constructor?.name;
  const keys = Object.keys(record);
  const keyText = keys.length === 0 ? "no keys" : `keys: ${shorten(keys.join(", "))}`;
  if (className && className !== "Object") return `a ${className} (${keyText})`;
  return keys.length === 0 ? "an empty object" : `an object with ${keyText}`;
}
