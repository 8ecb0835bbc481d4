/**
 * Turns a step's answer into a `tools/call` result, the way the step table promises:
 * a string becomes one text block, anything else JSON text (plus `structuredContent` for an
 * object when the tool has an `outputSchema`).
 */
import type { StepObject } from "./steps.js";

type Json = Record<string, unknown>;

export function textBlock(text: string): Json {
  return { type: "text", text };
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

export function returnsResult(value: unknown, hasOutputSchema: boolean): Json {
  if (value === undefined) return { content: [] };
  const result: Json = { content: [textBlock(asText(value))] };
  if (hasOutputSchema && typeof value === "object" && value !== null && !Array.isArray(value)) result.structuredContent = value;
  return result;
}

export function contentResult(step: StepObject): Json {
  const result: Json = { content: step.content };
  if (step.structuredContent !== undefined) result.structuredContent = step.structuredContent;
  return result;
}

export function toolErrorResult(message: string): Json {
  return { content: [textBlock(message)], isError: true };
}
