/**
 * Two JSON Schemas compared by what they accept. Each difference is a finding with its effect on
 * the set of values the schema allows: `narrower` (it allows less), `wider` (more), `incomparable`
 * (some less, some more, or no telling), `added` (a new optional property: new, not a change to
 * what was there), `removed` (a property gone from an object that refuses unlisted ones: a caller
 * that sends it is refused, a consumer that reads it loses it) or `annotation` (words and hints only). Whether that breaks anyone depends on
 * who reads the schema, which is the caller's to say (see `classOf`): a narrower input refuses
 * calls that worked, a wider output sends what consumers were never promised.
 *
 * `$ref` is followed inside each document (schema-refs.ts); nothing is fetched.
 */
import { compareBounds, compareSetKeyword, compareTypes, describeValue } from "./schema-keywords.js";
import { isObject, resolveNode } from "./schema-refs.js";
import { sortedJson } from "./surface.js";

type Json = Record<string, unknown>;

export type SchemaEffect = "narrower" | "wider" | "incomparable" | "added" | "removed" | "annotation";

/** Who reads the schema: `input` is what the server accepts, `output` what it promises. */
export type SchemaDirection = "input" | "output";

/** One difference between two schemas. */
export interface SchemaFinding {
  /** Where, from the schema's root (`properties`, `limit`, `maximum`); references are followed, so this is where the value sits, not where its definition is. */
  path: string[];
  effect: SchemaEffect;
  /** What changed, in words ("maximum 100 → 50"). */
  what: string;
  before?: unknown;
  after?: unknown;
}

/** Keywords that describe and do not constrain. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment", "$id", "$schema", "$anchor", "$dynamicAnchor", "$vocabulary"]);
/** Keywords compared through the references that use them, or by a rule of their own below. */
const HANDLED = new Set([
  "$ref",
  "$dynamicRef",
  "$defs",
  "definitions",
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "uniqueItems",
  "pattern",
  "format",
  "contentEncoding",
  "contentMediaType",
  "multipleOf",
]);
/** Deeper than this, two schemas are taken as equal: no real tool schema nests so far, and a self-reference must stop somewhere. */
const MAX_DEPTH = 64;

/** How deep a union's branches are paired by what they accept rather than by their text. */
const MAX_PAIRING_DEPTH = 8;

interface Walk {
  beforeDocument: unknown;
  afterDocument: unknown;
  findings: SchemaFinding[];
  /** Reference pairs already being compared: a recursive schema is compared once. */
  visiting: Set<string>;
}

/** Every difference between `before` and `after` that changes what they accept (or only what they say). */
export function compareSchemas(before: unknown, after: unknown): SchemaFinding[] {
  const walk: Walk = { beforeDocument: before, afterDocument: after, findings: [], visiting: new Set() };
  compareNode(walk, before, after, [], 0);
  return walk.findings;
}

const canonicalCache = new WeakMap<object, string>();

/** Lists whose order means nothing to a schema. */
const UNORDERED = new Set(["required", "type", "enum", "anyOf", "oneOf", "allOf"]);

/** A schema's text with keys and unordered lists sorted: equal text, equal schema. */
export function canonical(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "undefined";
  const cached = canonicalCache.get(value);
  if (cached !== undefined) return cached;
  const text = JSON.stringify(sortedJson(value, undefined, UNORDERED));
  canonicalCache.set(value, text);
  return text;
}

function compareNode(walk: Walk, rawBefore: unknown, rawAfter: unknown, path: string[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  const before = resolveNode(rawBefore, walk.beforeDocument);
  const after = resolveNode(rawAfter, walk.afterDocument);
  if (before.ref !== undefined || after.ref !== undefined) {
    const pair = `${before.ref ?? ""}\u0000${after.ref ?? ""}`;
    if (walk.visiting.has(pair)) return;
    walk.visiting.add(pair);
    try {
      compareResolved(walk, before.schema, after.schema, path, depth);
    } finally {
      walk.visiting.delete(pair);
    }
    return;
  }
  compareResolved(walk, before.schema, after.schema, path, depth);
}

function compareResolved(walk: Walk, before: unknown, after: unknown, path: string[], depth: number): void {
  if (canonical(before) === canonical(after)) return;
  const add = (finding: Omit<SchemaFinding, "path">, at: string[] = path) => walk.findings.push({ path: at, ...finding });
  // `true` accepts anything (as `{}` does), `false` nothing.
  if (before === false || after === false) {
    add({ effect: before === false ? "wider" : "narrower", what: before === false ? "accepted nothing, now accepts values" : "now accepts nothing", before, after });
    return;
  }
  const a: Json = isObject(before) ? before : {};
  const b: Json = isObject(after) ? after : {};
  if (!isObject(before) && before !== true && before !== undefined) add({ effect: "incomparable", what: `was not a schema (${describeValue(before)})`, before, after });
  if (!isObject(after) && after !== true && after !== undefined) add({ effect: "incomparable", what: `is not a schema (${describeValue(after)})`, before, after });

  const unresolved = (schema: Json) => (typeof schema.$ref === "string" ? schema.$ref : undefined);
  if (unresolved(a) !== unresolved(b)) {
    add(
      {
        effect: "incomparable",
        what: `refers to ${describeValue(unresolved(b) ?? "nothing")} (was ${describeValue(unresolved(a) ?? "nothing")}), not in the schema and not fetched`,
        before: a.$ref,
        after: b.$ref,
      },
      [...path, "$ref"],
    );
  }
  compareTypes(a, b, path, add);
  compareSetKeyword(a, b, path, add);
  compareBounds(a, b, path, add);
  compareProperties(walk, a, b, path, depth, add);
  compareArrays(walk, a, b, path, depth, add);
  compareStringRules(a, b, path, add);
  compareCombinators(walk, a, b, path, depth, add);
  compareOtherKeywords(a, b, path, add);
}

export type Add = (finding: Omit<SchemaFinding, "path">, at?: string[]) => void;

function compareProperties(walk: Walk, a: Json, b: Json, path: string[], depth: number, add: Add): void {
  const beforeProps = isObject(a.properties) ? a.properties : {};
  const afterProps = isObject(b.properties) ? b.properties : {};
  const beforeRequired = new Set(stringList(a.required));
  const afterRequired = new Set(stringList(b.required));
  const afterExtra = extraProperties(b);
  const removed = new Set<string>();
  for (const name of Object.keys(beforeProps)) {
    const at = [...path, "properties", name];
    if (Object.hasOwn(afterProps, name)) {
      compareNode(walk, beforeProps[name], afterProps[name], at, depth + 1);
      continue;
    }
    removed.add(name);
    if (afterExtra === false) add({ effect: "removed", what: `property "${name}" removed, and properties not listed are refused`, before: beforeProps[name] }, at);
    else if (isObject(afterExtra)) compareNode(walk, beforeProps[name], afterExtra, at, depth + 1);
    else add({ effect: "wider", what: `property "${name}" removed${beforeRequired.has(name) ? " (it was required)" : ""}`, before: beforeProps[name] }, at);
  }
  for (const name of Object.keys(afterProps)) {
    if (Object.hasOwn(beforeProps, name)) continue;
    const at = [...path, "properties", name];
    if (afterRequired.has(name)) continue; // said once, below, as a new required property
    add({ effect: "added", what: `new optional property "${name}"`, after: afterProps[name] }, at);
  }
  for (const name of afterRequired) {
    if (beforeRequired.has(name)) continue;
    const isNew = !Object.hasOwn(beforeProps, name) && Object.hasOwn(afterProps, name);
    add({ effect: "narrower", what: isNew ? `new required property "${name}"` : `property "${name}" became required`, after: afterProps[name] }, [...path, "required", name]);
  }
  for (const name of beforeRequired) {
    if (afterRequired.has(name) || removed.has(name)) continue;
    add({ effect: "wider", what: `property "${name}" is no longer required` }, [...path, "required", name]);
  }
  compareExtra(walk, a, b, "additionalProperties", path, depth, add);
  compareExtra(walk, a, b, "unevaluatedProperties", path, depth, add);
  compareSchemaMap(walk, a.patternProperties, b.patternProperties, [...path, "patternProperties"], depth, add, "pattern property");
  compareSchemaMap(walk, a.dependentSchemas, b.dependentSchemas, [...path, "dependentSchemas"], depth, add, "dependent schema");
  compareOptionalSchema(walk, a.propertyNames, b.propertyNames, [...path, "propertyNames"], depth, add, "propertyNames");
  const beforeDeps = isObject(a.dependentRequired) ? a.dependentRequired : {};
  const afterDeps = isObject(b.dependentRequired) ? b.dependentRequired : {};
  for (const name of new Set([...Object.keys(beforeDeps), ...Object.keys(afterDeps)])) {
    const was = new Set(stringList(beforeDeps[name]));
    const now = new Set(stringList(afterDeps[name]));
    const gained = [...now].filter((item) => !was.has(item));
    const lost = [...was].filter((item) => !now.has(item));
    const at = [...path, "dependentRequired", name];
    if (gained.length > 0) add({ effect: "narrower", what: `with "${name}", now also requires ${gained.map((item) => `"${item}"`).join(", ")}` }, at);
    if (lost.length > 0) add({ effect: "wider", what: `with "${name}", no longer requires ${lost.map((item) => `"${item}"`).join(", ")}` }, at);
  }
}

/** What an object schema says of properties it does not list: true (anything), false, or a schema. */
function extraProperties(schema: Json): unknown {
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false) return false;
  if (isObject(schema.additionalProperties)) return schema.additionalProperties;
  return true;
}

function compareExtra(walk: Walk, a: Json, b: Json, key: "additionalProperties" | "unevaluatedProperties", path: string[], depth: number, add: Add): void {
  const was = a[key] === undefined ? true : a[key];
  const now = b[key] === undefined ? true : b[key];
  if (canonical(was) === canonical(now)) return;
  const at = [...path, key];
  const allows = (value: unknown) => (value === false ? "refused" : value === true || (isObject(value) && Object.keys(value).length === 0) ? "allowed" : "checked against a schema");
  if (now === false) add({ effect: "narrower", what: `properties not listed are now refused (${key}: false)`, before: a[key], after: false }, at);
  else if (was === false) add({ effect: "wider", what: `properties not listed are now ${allows(now)} (were refused)`, before: false, after: b[key] }, at);
  else compareNode(walk, was, now, at, depth + 1);
}

function compareArrays(walk: Walk, a: Json, b: Json, path: string[], depth: number, add: Add): void {
  // Draft 2019 and before: `items` as an array is what 2020-12 calls `prefixItems`.
  const prefixA = Array.isArray(a.prefixItems) ? a.prefixItems : Array.isArray(a.items) ? a.items : undefined;
  const prefixB = Array.isArray(b.prefixItems) ? b.prefixItems : Array.isArray(b.items) ? b.items : undefined;
  const itemsA = Array.isArray(a.items) ? a.additionalItems : a.items;
  const itemsB = Array.isArray(b.items) ? b.additionalItems : b.items;
  compareOptionalSchema(walk, itemsA, itemsB, [...path, "items"], depth, add, "items");
  compareOptionalSchema(walk, a.contains, b.contains, [...path, "contains"], depth, add, "contains");
  compareOptionalSchema(walk, a.unevaluatedItems, b.unevaluatedItems, [...path, "unevaluatedItems"], depth, add, "unevaluatedItems");
  if (prefixA !== undefined || prefixB !== undefined) {
    const length = Math.max(prefixA?.length ?? 0, prefixB?.length ?? 0);
    for (let index = 0; index < length; index++) compareOptionalSchema(walk, prefixA?.[index], prefixB?.[index], [...path, "prefixItems", String(index)], depth, add, `item ${index}`);
  }
  if (a.uniqueItems !== b.uniqueItems) {
    const now = b.uniqueItems === true;
    const was = a.uniqueItems === true;
    if (now !== was)
      add({ effect: now ? "narrower" : "wider", what: now ? "items must now be unique" : "items no longer need to be unique", before: a.uniqueItems, after: b.uniqueItems }, [...path, "uniqueItems"]);
  }
}

/** A keyword whose value is a schema and whose absence means "anything": added narrows, removed widens, both compared. */
function compareOptionalSchema(walk: Walk, was: unknown, now: unknown, at: string[], depth: number, add: Add, name: string): void {
  if (was === undefined && now === undefined) return;
  if (was === undefined) {
    if (now !== true) add({ effect: "narrower", what: `${name} now constrained`, after: now }, at);
    return;
  }
  if (now === undefined) {
    if (was !== true) add({ effect: "wider", what: `${name} no longer constrained`, before: was }, at);
    return;
  }
  compareNode(walk, was, now, at, depth + 1);
}

function compareSchemaMap(walk: Walk, was: unknown, now: unknown, at: string[], depth: number, add: Add, noun: string): void {
  const before = isObject(was) ? was : {};
  const after = isObject(now) ? now : {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    compareOptionalSchema(walk, before[key], after[key], [...at, key], depth, add, `${noun} "${key}"`);
  }
}

function compareStringRules(a: Json, b: Json, path: string[], add: Add): void {
  for (const key of ["pattern", "format", "contentEncoding", "contentMediaType"] as const) {
    if (a[key] === b[key]) continue;
    if (a[key] === undefined) add({ effect: "narrower", what: `${key} ${JSON.stringify(b[key])} added`, after: b[key] }, [...path, key]);
    else if (b[key] === undefined) add({ effect: "wider", what: `${key} ${JSON.stringify(a[key])} removed`, before: a[key] }, [...path, key]);
    else add({ effect: "incomparable", what: `${key} ${JSON.stringify(a[key])} → ${JSON.stringify(b[key])}`, before: a[key], after: b[key] }, [...path, key]);
  }
  if (a.multipleOf !== b.multipleOf) {
    const was = typeof a.multipleOf === "number" ? a.multipleOf : undefined;
    const now = typeof b.multipleOf === "number" ? b.multipleOf : undefined;
    const what = `multipleOf ${was ?? "none"} → ${now ?? "none"}`;
    const effect: SchemaEffect = was === undefined ? "narrower" : now === undefined ? "wider" : Number.isInteger(now / was) ? "narrower" : Number.isInteger(was / now) ? "wider" : "incomparable";
    add({ effect, what, before: a.multipleOf, after: b.multipleOf }, [...path, "multipleOf"]);
  }
}

function compareCombinators(walk: Walk, a: Json, b: Json, path: string[], depth: number, add: Add): void {
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const was = Array.isArray(a[key]) ? (a[key] as unknown[]) : undefined;
    const now = Array.isArray(b[key]) ? (b[key] as unknown[]) : undefined;
    if (was === undefined && now === undefined) continue;
    const at = [...path, key];
    if (was === undefined) {
      add({ effect: "narrower", what: `${key} added: values must now match ${key === "allOf" ? "every" : "one"} of ${now!.length} schemas`, after: now }, at);
      continue;
    }
    if (now === undefined) {
      add({ effect: "wider", what: `${key} removed`, before: was }, at);
      continue;
    }
    const { pairs, lost, gained } = pairBranches(walk, was, now, depth);
    for (const [branch, other] of pairs) compareNode(walk, branch, other, [...at, String(now.indexOf(other))], depth + 1);
    if (lost.length === 0 && gained.length === 0) continue;
    // A lost alternative accepts less; a lost conjunct more.
    const lostEffect: SchemaEffect = key === "allOf" ? "wider" : "narrower";
    const gainedEffect: SchemaEffect = key === "allOf" ? "narrower" : "wider";
    for (const branch of lost) add({ effect: lostEffect, what: `${key} lost a branch`, before: branch }, at);
    for (const branch of gained) add({ effect: gainedEffect, what: `${key} gained a branch`, after: branch }, [...at, String(now.indexOf(branch))]);
  }
  for (const key of ["not", "if", "then", "else"] as const) {
    if (canonical(a[key]) === canonical(b[key])) continue;
    const effect: SchemaEffect = a[key] === undefined && key === "not" ? "narrower" : b[key] === undefined && key === "not" ? "wider" : "incomparable";
    add({ effect, what: `${key} ${a[key] === undefined ? "added" : b[key] === undefined ? "removed" : "changed"}`, before: a[key], after: b[key] }, [...path, key]);
  }
}

/**
 * Which branch of `now` each branch of `was` became. Branches that accept the same values pair
 * first, whatever their order; when as many are left on each side, each pairs with the one it
 * differs from least and the two are compared; otherwise the rest were lost or gained.
 */
function pairBranches(walk: Walk, was: unknown[], now: unknown[], depth: number): { pairs: Array<[unknown, unknown]>; lost: unknown[]; gained: unknown[] } {
  const left = [...was];
  const right = [...now];
  const pairs: Array<[unknown, unknown]> = [];
  const differences = (a: unknown, b: unknown) => {
    // Deep inside unions, trying every pairing would cost branches^depth: there, equal text is equal.
    if (depth > MAX_PAIRING_DEPTH) return canonical(resolveNode(a, walk.beforeDocument).schema) === canonical(resolveNode(b, walk.afterDocument).schema) ? 0 : 1;
    const dry: Walk = { ...walk, findings: [], visiting: new Set(walk.visiting) };
    compareNode(dry, a, b, [], depth + 1);
    return dry.findings.filter((finding) => finding.effect !== "annotation").length;
  };
  for (let index = left.length - 1; index >= 0; index--) {
    const match = right.findIndex((branch) => differences(left[index], branch) === 0);
    if (match === -1) continue;
    pairs.push([left[index], right[match]]);
    left.splice(index, 1);
    right.splice(match, 1);
  }
  if (left.length !== right.length) return { pairs, lost: left, gained: right };
  while (left.length > 0) {
    const branch = left.shift()!;
    let best = 0;
    let fewest = Infinity;
    right.forEach((other, index) => {
      const count = differences(branch, other);
      if (count < fewest) [best, fewest] = [index, count];
    });
    pairs.push([branch, right.splice(best, 1)[0]]);
  }
  return { pairs, lost: [], gained: [] };
}

/** Annotations, and keywords this comparison does not know (listed, as they may mean something to someone). */
function compareOtherKeywords(a: Json, b: Json, path: string[], add: Add): void {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (HANDLED.has(key) || isBoundKeyword(key)) continue;
    if (canonical(a[key]) === canonical(b[key])) continue;
    const change = a[key] === undefined ? "added" : b[key] === undefined ? "removed" : "changed";
    const what = ANNOTATIONS.has(key) ? `${key} ${change}` : `${key} ${change} (a keyword not compared for meaning)`;
    add({ effect: "annotation", what, before: a[key], after: b[key] }, [...path, key]);
  }
}

function isBoundKeyword(key: string): boolean {
  return /^(min|max|exclusiveMin|exclusiveMax)/.test(key);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
