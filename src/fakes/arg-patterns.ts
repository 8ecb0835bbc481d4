/**
 * `argsMatch`: a partial argument match written in JSON, as `assertCalled`'s `with` matches in
 * code. Objects match a subset of keys at every depth (extra keys in the call are fine), arrays
 * match item by item, `{ "$regex": "…", "$flags"?: "…" }` tests a string, `{ "$schema": {…} }`
 * validates a value against a JSON Schema (2020-12, with Ajv), and any other value is compared
 * exactly, with no type conversion. Patterns are compiled once, at load.
 */
import { createRequire } from "node:module";
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { isObject } from "../protocol/jsonrpc.js";
import { closest } from "../util/closest.js";
import { errorText } from "../util/text.js";

export type PatternNode =
  | { kind: "regex"; regex: RegExp }
  | { kind: "schema"; validate: ValidateFunction; schema: unknown }
  | { kind: "object"; keys: Array<[string, PatternNode]> }
  | { kind: "array"; items: PatternNode[] }
  | { kind: "literal"; value: unknown };

/** An `argsMatch` as written (for messages and inspection) and compiled. */
export interface ArgsPattern {
  written: Record<string, unknown>;
  node: PatternNode;
}

export type PatternRule = "mcp-fakes/bad-regex" | "mcp-fakes/bad-schema" | "mcp-fakes/bad-pattern";

export interface PatternProblem {
  /** Path inside the `argsMatch` value. */
  path: Array<string | number>;
  rule: PatternRule;
  message: string;
}

const OPERATORS = ["$regex", "$flags", "$schema"];
/** g and y make `test` stateful, so a pattern could match a value once and then not. */
const ALLOWED_FLAGS = /^[dimsuv]*$/;

// strictSchema refuses unknown keywords (a typo such as "typ" would otherwise match anything);
// the type checks are left off so loose but valid schemas load. One instance, made when the first
// "$schema" pattern is compiled: Ajv costs about 9 MB, and most fixtures have no such pattern.
// Ajv is CommonJS, so `require` loads it synchronously while the fixture loads.
let ajvInstance: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (ajvInstance === undefined) {
    const { Ajv2020: AjvClass } = createRequire(import.meta.url)("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
    ajvInstance = new AjvClass({ strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, addUsedSchema: false, logger: false });
  }
  return ajvInstance;
}

const SHOWN = 200;
function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

function pathSegment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function compileOperator(value: Record<string, unknown>, path: Array<string | number>, problems: PatternProblem[]): PatternNode | undefined {
  const keys = Object.keys(value);
  const bad = (rule: PatternRule, message: string): undefined => void problems.push({ path, rule, message });
  if ("$schema" in value) {
    if (keys.length !== 1)
      return bad(
        "mcp-fakes/bad-pattern",
        `a { "$schema": … } pattern takes no other keys, found ${keys
          .filter((k) => k !== "$schema")
          .map((k) => `"${k}"`)
          .join(", ")}`,
      );
    const schema = value.$schema;
    if (!isObject(schema) && typeof schema !== "boolean") return bad("mcp-fakes/bad-schema", `"$schema" must be a JSON Schema (an object, or true/false), received ${show(schema)}`);
    try {
      return { kind: "schema", validate: ajv().compile(schema), schema };
    } catch (error) {
      return bad("mcp-fakes/bad-schema", `"$schema" is not a valid JSON Schema (2020-12): ${errorText(error)}`);
    }
  }
  if (!("$regex" in value)) return bad("mcp-fakes/bad-pattern", `"$flags" goes with "$regex", as { "$regex": "^Ref", "$flags": "i" }`);
  const extra = keys.filter((k) => k !== "$regex" && k !== "$flags");
  if (extra.length > 0) return bad("mcp-fakes/bad-pattern", `a { "$regex": … } pattern takes only "$flags" besides, found ${extra.map((k) => `"${k}"`).join(", ")}`);
  const { $regex: source, $flags: flags = "" } = value;
  if (typeof source !== "string") return bad("mcp-fakes/bad-regex", `"$regex" must be a string (a JavaScript regular expression without slashes), received ${show(source)}`);
  if (typeof flags !== "string" || !ALLOWED_FLAGS.test(flags))
    return bad("mcp-fakes/bad-regex", `"$flags" must be a string of the flags d, i, m, s, u, v (g and y make a match depend on the one before), received ${show(flags)}`);
  try {
    return { kind: "regex", regex: new RegExp(source, flags) };
  } catch (error) {
    return bad("mcp-fakes/bad-regex", `"$regex" ${show(source)} is not a valid regular expression: ${errorText(error)}`);
  }
}

function compileNode(value: unknown, path: Array<string | number>, problems: PatternProblem[]): PatternNode | undefined {
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileNode(item, [...path, i], problems));
    return items.every((item) => item !== undefined) ? { kind: "array", items: items as PatternNode[] } : undefined;
  }
  if (!isObject(value)) return { kind: "literal", value };
  if (Object.keys(value).some((key) => OPERATORS.includes(key))) return compileOperator(value, path, problems);
  const keys: Array<[string, PatternNode]> = [];
  let ok = true;
  for (const [key, item] of Object.entries(value)) {
    // A key close to an operator is a typo far more often than an argument named "$regx".
    const meant = key.startsWith("$") ? closest(key, OPERATORS) : undefined;
    if (meant !== undefined) {
      problems.push({ path: [...path, key], rule: "mcp-fakes/bad-pattern", message: `unknown operator "${key}"; did you mean "${meant}"? A pattern operator is one of ${OPERATORS.join(", ")}` });
      ok = false;
      continue;
    }
    const node = compileNode(item, [...path, key], problems);
    if (node === undefined) ok = false;
    else keys.push([key, node]);
  }
  return ok ? { kind: "object", keys } : undefined;
}

/** Compiles an `argsMatch` value; problems name the path inside it and the rule broken. */
export function compilePattern(written: Record<string, unknown>): { pattern?: ArgsPattern; problems: PatternProblem[] } {
  const problems: PatternProblem[] = [];
  const node = compileNode(written, [], problems);
  return node && problems.length === 0 ? { pattern: { written, node }, problems } : { problems };
}

/** The first place where `received` fails the pattern, as `$.title: expected …, received …`, or undefined when it matches. */
export function patternDifference(received: unknown, node: PatternNode, path = "$"): string | undefined {
  switch (node.kind) {
    case "regex":
      return typeof received === "string" && node.regex.test(received) ? undefined : `${path}: expected a string matching ${String(node.regex)}, received ${show(received)}`;
    case "schema": {
      if (received !== undefined && node.validate(received)) return undefined;
      const first = node.validate.errors?.[0];
      const why = first ? ` (${first.instancePath === "" ? "" : `at ${first.instancePath}: `}${first.message ?? first.keyword})` : "";
      return `${path}: expected a value matching the $schema ${show(node.schema)}${why}, received ${show(received)}`;
    }
    case "array": {
      if (!Array.isArray(received)) return `${path}: expected an array of ${node.items.length}, received ${show(received)}`;
      if (received.length !== node.items.length) return `${path}: expected an array of ${node.items.length}, received an array of ${received.length}`;
      for (let i = 0; i < node.items.length; i++) {
        const difference = patternDifference(received[i], node.items[i], `${path}[${i}]`);
        if (difference) return difference;
      }
      return undefined;
    }
    case "object": {
      if (!isObject(received)) return `${path}: expected an object, received ${show(received)}`;
      for (const [key, item] of node.keys) {
        const difference = patternDifference(Object.hasOwn(received, key) ? received[key] : undefined, item, `${path}${pathSegment(key)}`);
        if (difference) return difference;
      }
      return undefined;
    }
    case "literal":
      return received === node.value ? undefined : `${path}: expected ${show(node.value)}, received ${show(received)}`;
  }
}

/** Whether `received` matches the pattern: `patternDifference(...) === undefined`, without building its message. */
export function patternMatches(received: unknown, node: PatternNode): boolean {
  switch (node.kind) {
    case "regex":
      return typeof received === "string" && node.regex.test(received);
    case "schema":
      return received !== undefined && node.validate(received);
    case "array":
      if (!Array.isArray(received) || received.length !== node.items.length) return false;
      for (let i = 0; i < node.items.length; i++) if (!patternMatches(received[i], node.items[i]!)) return false;
      return true;
    case "object":
      if (!isObject(received)) return false;
      for (const [key, item] of node.keys) if (!patternMatches(Object.hasOwn(received, key) ? received[key] : undefined, item)) return false;
      return true;
    case "literal":
      return received === node.value;
  }
}

/** How many leaves of the pattern `received` satisfies: the closeness of an entry, for mismatch messages. */
export function patternCloseness(received: unknown, node: PatternNode): number {
  if (node.kind === "object") {
    if (!isObject(received)) return 0;
    let count = 0;
    for (const [key, item] of node.keys) if (Object.hasOwn(received, key)) count += patternCloseness(received[key], item);
    return count;
  }
  if (node.kind === "array") {
    if (!Array.isArray(received)) return 0;
    let count = 0;
    for (let i = 0; i < node.items.length; i++) count += patternCloseness(received[i], node.items[i]);
    return count;
  }
  return patternMatches(received, node) ? 1 : 0;
}
