/**
 * Checks shared by everything a user writes into a mock (options, tools, steps, resources,
 * prompts): unknown keys with a did-you-mean, values of the wrong type, JSON Schema type names
 * and resource URIs. Written for plain JS and JSON scenarios, where TypeScript checks nothing,
 * so a typo fails at `mockMcp()` time instead of being ignored.
 */
import { McpTestkitError } from "../errors.js";
import { unknownKeysMessage } from "../util/unknown-keys.js";
import { closest } from "../util/closest.js";
import { typeLabel } from "../util/text.js";
import { isObject } from "../protocol/jsonrpc.js";
import { hasUriScheme } from "../protocol/uri-scheme.js";

type Json = Record<string, unknown>;

export { unknownKeysMessage };

const quoted = (keys: Iterable<string>) => [...keys].map((key) => JSON.stringify(key)).join(", ");

/** Throws unless every own key of `record` is in `known`. */
export function checkKeys(record: object, known: ReadonlySet<string> | readonly string[], where: string, takes?: string): void {
  const knownSet = known instanceof Set ? known : new Set(known as readonly string[]);
  const unknown = Object.keys(record).filter((key) => !knownSet.has(key));
  if (unknown.length > 0) throw new McpTestkitError(unknownKeysMessage(where, unknown, knownSet, takes));
}

/** What a value must be; each check names the expectation for the message. */
export type ValueKind = "string" | "boolean" | "number" | "object" | "function" | "string list" | "object list" | "bytes or base64 string";

const VALUE_CHECKS: Record<ValueKind, { test: (value: unknown) => boolean; noun: string }> = {
  string: { test: (value) => typeof value === "string", noun: "a string" },
  boolean: { test: (value) => typeof value === "boolean", noun: "true or false" },
  number: { test: (value) => typeof value === "number" && Number.isFinite(value), noun: "a number" },
  object: { test: isObject, noun: "an object" },
  function: { test: (value) => typeof value === "function", noun: "a function" },
  "string list": { test: (value) => Array.isArray(value) && value.every((item) => typeof item === "string"), noun: "a list of strings" },
  "object list": { test: (value) => Array.isArray(value) && value.every(isObject), noun: "a list of objects" },
  "bytes or base64 string": { test: (value) => typeof value === "string" || value instanceof Uint8Array, noun: "a base64 string or a Uint8Array" },
};

/** Throws when a key that is present holds a value of the wrong kind (`undefined` means absent). */
export function checkValueKinds(record: Json, kinds: Readonly<Record<string, ValueKind | undefined>>, where: string): void {
  for (const [key, kind] of Object.entries(kinds)) {
    const value = record[key];
    if (value === undefined || kind === undefined) continue;
    const check = VALUE_CHECKS[kind];
    if (!check.test(value)) throw new McpTestkitError(`${where}: "${key}" must be ${check.noun}, got ${typeLabel(value)}.`);
  }
}

const JSON_SCHEMA_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMA_SINGLES = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"];

/**
 * Throws at the first subschema whose `type` is not a JSON Schema type (`"strin"`) or whose
 * shape cannot be a schema, naming its path (`inputSchema.properties.city.type`). It checks the
 * words clients and validators would trip over, not the whole JSON Schema vocabulary.
 */
export function checkJsonSchema(schema: unknown, path: string, where: string): void {
  if (typeof schema === "boolean") return;
  if (!isObject(schema)) throw new McpTestkitError(`${where}: ${path} must be a JSON Schema object, got ${typeLabel(schema)}.`);
  const type = schema.type;
  if (type !== undefined) {
    for (const name of Array.isArray(type) ? type : [type]) {
      if (typeof name === "string" && JSON_SCHEMA_TYPES.includes(name)) continue;
      const near = typeof name === "string" ? closest(name, JSON_SCHEMA_TYPES) : undefined;
      throw new McpTestkitError(
        `${where}: ${path}.type is ${typeLabel(name)}, which is not a JSON Schema type${near ? `; did you mean ${JSON.stringify(near)}?` : "."} ` + `Types are ${quoted(JSON_SCHEMA_TYPES)}.`,
      );
    }
  }
  if (schema.required !== undefined && !VALUE_CHECKS["string list"].test(schema.required)) {
    throw new McpTestkitError(`${where}: ${path}.required must be a list of property names, got ${typeLabel(schema.required)}.`);
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (map === undefined) continue;
    if (!isObject(map)) throw new McpTestkitError(`${where}: ${path}.${key} must be an object of schemas, got ${typeLabel(map)}.`);
    for (const [name, sub] of Object.entries(map)) checkJsonSchema(sub, `${path}.${key}.${name}`, where);
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new McpTestkitError(`${where}: ${path}.${key} must be a list of schemas, got ${typeLabel(list)}.`);
    list.forEach((sub, i) => checkJsonSchema(sub, `${path}.${key}[${i}]`, where));
  }
  for (const key of SCHEMA_SINGLES) {
    const sub = schema[key];
    if (sub === undefined) continue;
    if (key === "items" && Array.isArray(sub)) sub.forEach((item, i) => checkJsonSchema(item, `${path}.items[${i}]`, where));
    else checkJsonSchema(sub, `${path}.${key}`, where);
  }
}

/** Throws unless `uri` is an absolute URI (a template only needs its scheme: the rest has `{var}`s). */
export function checkResourceUri(uri: string, isTemplate: boolean): void {
  const what = isTemplate ? "URI template" : "URI";
  const ok = hasUriScheme(uri) && (isTemplate ? !/\s/.test(uri) : URL.canParse(uri));
  if (!ok) {
    throw new McpTestkitError(`Resource ${JSON.stringify(uri)}: the key must be an absolute ${what} with a scheme, such as "notes://today", "file:///docs/readme.md" or "notes://{day}".`);
  }
}
