/**
 * The rules for the keywords whose values are compared as sets or numbers: `type`, `enum` and
 * `const`, and the bounds (`minimum`, `maxLength`, `minItems` …). Each says only whether the
 * schema now accepts more or less; whether that breaks anyone is the caller's to say.
 */
import type { Add } from "./schema-diff.js";
import { sortedJson } from "./surface.js";

type Json = Record<string, unknown>;

const ALL_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];

/** The types a schema allows, or undefined for "any". */
function typesOf(schema: Json): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  return undefined;
}

/** Whether a value of type `type` is allowed by `types` (every integer is a number). */
function covers(types: string[] | undefined, type: string): boolean {
  return types === undefined || types.includes(type) || (type === "integer" && types.includes("number"));
}

export function compareTypes(a: Json, b: Json, path: string[], add: Add): void {
  const was = typesOf(a);
  const now = typesOf(b);
  if (was === undefined && now === undefined) return;
  const at = [...path, "type"];
  const lost = (was ?? ALL_TYPES).filter((type) => !covers(now, type));
  // number → integer loses the numbers that are not integers.
  if (covers(was, "number") && now !== undefined && !now.includes("number") && now.includes("integer") && !lost.includes("number")) lost.push("number");
  const gained = (now ?? ALL_TYPES).filter((type) => !covers(was, type));
  if (covers(now, "number") && was !== undefined && !was.includes("number") && was.includes("integer") && !gained.includes("number")) gained.push("number");
  const said = (types: string[] | undefined) => (types === undefined ? "any type" : types.join(" | "));
  if (lost.length > 0) add({ effect: "narrower", what: `type ${said(was)} → ${said(now)} (no longer ${lost.join(", ")})`, before: a.type, after: b.type }, at);
  if (gained.length > 0) add({ effect: "wider", what: `type ${said(was)} → ${said(now)} (now also ${gained.join(", ")})`, before: a.type, after: b.type }, at);
}

/** The values `enum` or `const` allow, as canonical JSON text, or undefined for "any". */
function valuesOf(schema: Json): Map<string, unknown> | undefined {
  let values: unknown[] | undefined;
  if (Array.isArray(schema.enum)) values = schema.enum;
  if (Object.hasOwn(schema, "const")) values = values === undefined ? [schema.const] : values.filter((value) => text(value) === text(schema.const));
  if (values === undefined) return undefined;
  return new Map(values.map((value) => [text(value), value]));
}

function text(value: unknown): string {
  return JSON.stringify(sortedJson(value)) ?? "undefined";
}

export function compareSetKeyword(a: Json, b: Json, path: string[], add: Add): void {
  const was = valuesOf(a);
  const now = valuesOf(b);
  if (was === undefined && now === undefined) return;
  const key = Object.hasOwn(b, "const") || (now === undefined && Object.hasOwn(a, "const")) ? "const" : "enum";
  const at = [...path, key];
  if (was === undefined) {
    add({ effect: "narrower", what: `now limited to ${list(now!)}`, after: b[key] }, at);
    return;
  }
  if (now === undefined) {
    add({ effect: "wider", what: `no longer limited to ${list(was)}`, before: a[Object.hasOwn(a, "const") ? "const" : "enum"] }, at);
    return;
  }
  const lost = [...was.keys()].filter((value) => !now.has(value));
  const gained = [...now.keys()].filter((value) => !was.has(value));
  if (lost.length > 0) add({ effect: "narrower", what: `no longer allows ${lost.join(", ")}`, before: [...was.values()], after: [...now.values()] }, at);
  if (gained.length > 0) add({ effect: "wider", what: `now also allows ${gained.join(", ")}`, before: [...was.values()], after: [...now.values()] }, at);
}

function list(values: Map<string, unknown>): string {
  const texts = [...values.keys()];
  return texts.length > 6 ? `${texts.slice(0, 6).join(", ")} … (${texts.length} values)` : texts.join(", ");
}

/** A lower bound that rises, or an upper bound that falls, accepts less. */
const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];

/** ±(2^53 − 1), the bounds zod and others add to every integer: no JSON number a client sends is beyond them, so they say nothing. */
const meaningful = (value: unknown) => (value === Number.MAX_SAFE_INTEGER || value === Number.MIN_SAFE_INTEGER ? undefined : value);

export function compareBounds(a: Json, b: Json, path: string[], add: Add): void {
  for (const key of [...LOWER, ...UPPER]) {
    const was = meaningful(a[key]);
    const now = meaningful(b[key]);
    if (was === now) continue;
    const at = [...path, key];
    const what = `${key} ${describeValue(was)} → ${describeValue(now)}`;
    if (typeof was !== "number" && typeof now !== "number") {
      // Draft 4's boolean exclusiveMinimum/exclusiveMaximum: true moves the bound inward.
      add({ effect: now === true ? "narrower" : was === true ? "wider" : "incomparable", what, before: was, after: now }, at);
      continue;
    }
    if (was === undefined || typeof was !== "number") add({ effect: "narrower", what: `${key} ${describeValue(now)} added`, after: now }, at);
    else if (now === undefined || typeof now !== "number") add({ effect: "wider", what: `${key} ${describeValue(was)} removed`, before: was }, at);
    else {
      const tighter = LOWER.includes(key) ? now > was : now < was;
      add({ effect: tighter ? "narrower" : "wider", what: `${what} (${tighter ? "tightened" : "loosened"})`, before: was, after: now }, at);
    }
  }
}

/** A value in a message: JSON, shortened. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "none";
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}
