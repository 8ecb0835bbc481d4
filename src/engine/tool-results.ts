/**
 * Turns a step's answer into a `tools/call` result, the way the step table promises:
 * a string becomes one text block, anything else JSON text (plus `structuredContent` when the
 * tool has an `outputSchema` whose root type admits the value).
 */
import { isObject } from "../protocol/jsonrpc.js";
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

/** The JSON Schema type names `value` answers to ("integer" is a "number" too). */
function jsonTypes(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}

/**
 * Whether an output schema's root `type` admits `value`. A schema that names no root type (an
 * `anyOf`, a `$ref`) takes an object, as structured content always could: anything else is
 * structured only where the schema says its type.
 */
export function rootAdmits(schema: unknown, value: unknown): boolean {
  if (!isObject(schema)) return false;
  if (schema.type === undefined) return isObject(value);
  const named = Array.isArray(schema.type) ? schema.type : [schema.type];
  return jsonTypes(value).some((type) => named.includes(type));
}

/**
 * `outputSchema`: the tool's, if it has one. The value is also the structured content when the
 * schema admits it (an object for the usual object schema; in 2026-07-28 any JSON value the
 * schema's type names; version-shape leaves a non-object out for older revisions).
 */
export function returnsResult(value: unknown, outputSchema: unknown): Json {
  if (value === undefined) return { content: [] };
  const result: Json = { content: [textBlock(asText(value))] };
  if (outputSchema !== undefined && rootAdmits(outputSchema, value)) result.structuredContent = value;
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
