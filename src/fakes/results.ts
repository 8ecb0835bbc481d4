/** Turns an entry's `result` or `error` into the tools/call result it answers with. */
import type { FakeCallResult } from "./types.js";

const FULL_RESULT_KEYS = ["content", "isError", "structuredContent", "_meta"] as const;

/** Whether an object result is the full result form (it has one of content, isError, structuredContent, _meta). */
export function isFullResult(value: Record<string, unknown>): boolean {
  return FULL_RESULT_KEYS.some((key) => Object.hasOwn(value, key));
}

export function fullResultKeys(): readonly string[] {
  return FULL_RESULT_KEYS;
}

/** The four result shapes; `value` has been validated by the format. */
export function toCallResult(value: unknown): FakeCallResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }], isError: false };
  if (Array.isArray(value)) return { content: value as Array<Record<string, unknown>>, isError: false };
  const object = value as Record<string, unknown>;
  if (isFullResult(object)) return object as FakeCallResult;
  return { content: [{ type: "text", text: JSON.stringify(object) }], structuredContent: object, isError: false };
}

/** A tool error the model sees: `isError: true` with the entry's text. */
export function toToolError(text: string): FakeCallResult {
  return { content: [{ type: "text", text }], isError: true };
}
