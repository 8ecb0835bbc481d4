/**
 * The answers of resource and prompt entries: the shapes a fixture may write for a
 * `resources/read` or `prompts/get` result (checked at load), what each becomes on the wire,
 * and the JSON-RPC error an `error` becomes.
 *
 * Resource `result`: a string (one text content), an object with `text` or `blob` (one content),
 * an array of those, `{ contents: [...], _meta? }` (the full result), or any other object (its
 * JSON text, as application/json). Each content gets the resource's `uri` and `mimeType` unless
 * it names its own. Prompt `result`: a string (one user message), an array of messages
 * (`{ role, content }`, a string content being text), or `{ messages, description?, _meta? }`.
 */
import { isObject } from "../protocol/jsonrpc.js";
import type { FakeRpcAnswer, McpFakeRpcError } from "./types.js";

export interface ResultIssue {
  path: Array<string | number>;
  message: string;
}

const CONTENT_KEYS = ["uri", "mimeType", "text", "blob", "_meta"];
const FULL_READ_KEYS = ["contents", "_meta"];
const FULL_PROMPT_KEYS = ["messages", "description", "_meta"];
/** JSON-RPC "internal error": what a fixture's `error` string answers with. */
const DEFAULT_ERROR_CODE = -32603;

const kindOf = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);

function extraKeys(value: Record<string, unknown>, known: readonly string[]): string[] {
  return Object.keys(value).filter((key) => !known.includes(key));
}

function checkContent(item: unknown, path: Array<string | number>, issues: ResultIssue[]): void {
  if (!isObject(item) || (typeof item.text !== "string") === (typeof item.blob !== "string")) {
    issues.push({ path, message: 'expected a resource content: an object with a string "text" or a base64 string "blob" (and optional "uri", "mimeType")' });
    return;
  }
  const extra = extraKeys(item, CONTENT_KEYS);
  if (extra.length > 0) issues.push({ path, message: `a resource content has ${CONTENT_KEYS.join(", ")}; found ${extra.map((k) => `"${k}"`).join(", ")}` });
  for (const key of ["uri", "mimeType"]) if (item[key] !== undefined && typeof item[key] !== "string") issues.push({ path: [...path, key], message: "expected a string" });
}

export function checkReadResult(result: unknown): ResultIssue[] {
  const issues: ResultIssue[] = [];
  if (typeof result === "string") return issues;
  if (Array.isArray(result)) {
    result.forEach((item, i) => checkContent(item, ["result", i], issues));
    return issues;
  }
  if (!isObject(result)) return [{ path: ["result"], message: `expected a string, a content object, an array of contents or { "contents": [...] }, received ${kindOf(result)}` }];
  if ("contents" in result) {
    const extra = extraKeys(result, FULL_READ_KEYS);
    if (extra.length > 0)
      issues.push({ path: ["result"], message: `a full read result (an object with "contents") may have only ${FULL_READ_KEYS.join(", ")}, found ${extra.map((k) => `"${k}"`).join(", ")}` });
    if (!Array.isArray(result.contents)) issues.push({ path: ["result", "contents"], message: "expected an array of resource contents" });
    else result.contents.forEach((item, i) => checkContent(item, ["result", "contents", i], issues));
  } else if ("text" in result || "blob" in result) checkContent(result, ["result"], issues);
  return issues;
}

function checkMessage(message: unknown, path: Array<string | number>, issues: ResultIssue[]): void {
  const ok =
    isObject(message) && (message.role === "user" || message.role === "assistant") && (typeof message.content === "string" || (isObject(message.content) && typeof message.content.type === "string"));
  if (!ok) issues.push({ path, message: 'expected a prompt message: { "role": "user" or "assistant", "content": a string or a content block such as { "type": "text", "text": "..." } }' });
}

export function checkPromptResult(result: unknown): ResultIssue[] {
  const issues: ResultIssue[] = [];
  if (typeof result === "string") return issues;
  if (Array.isArray(result)) {
    result.forEach((message, i) => checkMessage(message, ["result", i], issues));
    return issues;
  }
  if (!isObject(result) || !("messages" in result))
    return [
      { path: ["result"], message: `expected a string, an array of messages or { "messages": [...], "description"? }, received ${isObject(result) ? 'an object without "messages"' : kindOf(result)}` },
    ];
  const extra = extraKeys(result, FULL_PROMPT_KEYS);
  if (extra.length > 0) issues.push({ path: ["result"], message: `a full prompt result may have only ${FULL_PROMPT_KEYS.join(", ")}, found ${extra.map((k) => `"${k}"`).join(", ")}` });
  if (!Array.isArray(result.messages)) issues.push({ path: ["result", "messages"], message: "expected an array of messages" });
  else result.messages.forEach((message, i) => checkMessage(message, ["result", "messages", i], issues));
  if (result.description !== undefined && typeof result.description !== "string") issues.push({ path: ["result", "description"], message: "expected a string" });
  return issues;
}

/** A content with the resource's URI and MIME type unless it names its own. */
function content(item: Record<string, unknown>, uri: string, mimeType: string | undefined): Record<string, unknown> {
  const fallback = mimeType ?? (item.blob !== undefined ? "application/octet-stream" : "text/plain");
  return { ...item, uri: item.uri ?? uri, mimeType: item.mimeType ?? fallback };
}

/** The `resources/read` result of a validated `result`. */
export function toReadResult(value: unknown, uri: string, mimeType: string | undefined): Record<string, unknown> {
  if (typeof value === "string") return { contents: [content({ text: value }, uri, mimeType)] };
  if (Array.isArray(value)) return { contents: value.map((item) => content(item as Record<string, unknown>, uri, mimeType)) };
  const object = value as Record<string, unknown>;
  if ("contents" in object) return { ...object, contents: (object.contents as Array<Record<string, unknown>>).map((item) => content(item, uri, mimeType)) };
  if ("text" in object || "blob" in object) return { contents: [content(object, uri, mimeType)] };
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(object) }] };
}

function message(item: Record<string, unknown>): Record<string, unknown> {
  return typeof item.content === "string" ? { ...item, content: { type: "text", text: item.content } } : item;
}

/** The `prompts/get` result of a validated `result`. */
export function toPromptResult(value: unknown, description: string | undefined): Record<string, unknown> {
  const base = description === undefined ? {} : { description };
  if (typeof value === "string") return { ...base, messages: [{ role: "user", content: { type: "text", text: value } }] };
  if (Array.isArray(value)) return { ...base, messages: value.map((item) => message(item as Record<string, unknown>)) };
  const object = value as Record<string, unknown>;
  return { ...base, ...object, messages: (object.messages as Array<Record<string, unknown>>).map(message) };
}

/** An entry's `error` as the JSON-RPC error it answers with. */
export function toRpcError(error: McpFakeRpcError): FakeRpcAnswer {
  return typeof error === "string" ? { error: { code: DEFAULT_ERROR_CODE, message: error } } : { error: { ...error } };
}
