/**
 * The words for zod's own checks in a fakes file (a wrong type, a wrong literal), made from each
 * issue's fields. The schema's messages say most of it; these cover the checks it leaves to zod,
 * so no problem has to be read back out of zod's English.
 */
import type { z } from "zod";

/** A per-parse error map: our words where the issue has the fields for them, zod's own otherwise. */
export const fakesIssueWords: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === "invalid_type") return `expected ${typeName(issue.expected)}, received ${receivedName(issue.input)}`;
  if (issue.code === "invalid_value" && issue.values.length === 1) return `expected ${literal(issue.values[0])}`;
  if (issue.code === "invalid_union" && issue.inclusive === false) return "more than one option matched";
  return undefined;
};

function typeName(type: string): string {
  return type === "nan" ? "NaN" : type;
}

/** The type of a value as a JSON reader names it (`array` and `null` apart from `object`). */
function receivedName(input: unknown): string {
  if (typeof input === "number") return Number.isNaN(input) ? "NaN" : Number.isFinite(input) ? "number" : String(input);
  if (input === null) return "null";
  if (Array.isArray(input)) return "array";
  if (typeof input === "object" && Object.getPrototypeOf(input) !== Object.prototype && typeof input.constructor === "function") return input.constructor.name;
  return typeof input;
}

function literal(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  return typeof value === "string" ? `"${value}"` : String(value);
}
