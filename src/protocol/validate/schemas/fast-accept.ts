/**
 * The validator's fast path for valid values. zod's parse builds a copy of every object and array
 * it checks, which is most of what validating a message costs, yet almost every message a test
 * sees is valid. So each schema is compiled, once, into a plain predicate that answers only
 * "certainly valid". It answers false whenever it is not sure (a schema kind or check it does not
 * know, a key it cannot vouch for), and zod then parses the value as before and explains what is
 * wrong. It never finds a value invalid by itself, and it mirrors zod's own rules where it says
 * yes (test/protocol/fast-accept.test.ts holds it to that on every schema).
 */
import { zod } from "../../../util/zod-on-demand.js";
import type { Schema } from "./combinators.js";

/** True: the schema accepts the value. False: not known; ask zod. */
export type Accept = (value: unknown) => boolean;

const acceptors = new WeakMap<Schema, Accept>();

/** Whether `schema` certainly accepts `value`; false means "ask zod". */
export function acceptsFast(schema: Schema, value: unknown): boolean {
  return acceptorOf(schema)(value);
}

/**
 * Gives a schema built on a refinement (see combinators.ts) the predicate that stands for it; the
 * compiler cannot see inside refinements, so without one such a schema is never fast.
 */
export function defineAcceptor(schema: Schema, accept: Accept): void {
  acceptors.set(schema, accept);
}

function acceptorOf(schema: Schema): Accept {
  let accept = acceptors.get(schema);
  if (accept === undefined) {
    accept = compile(schema);
    acceptors.set(schema, accept);
  }
  return accept;
}

const unsure: Accept = () => false;

/** The parts of zod's internals the compiler reads (zod 4's `_zod`). */
interface Internals {
  def: Definition;
  traits: Set<string>;
  optin?: "optional" | "defaulted";
  optout?: "optional";
  /** The allowed values of a literal or enum, as zod itself checks them. */
  values?: Set<unknown>;
}

interface Definition {
  type: string;
  coerce?: boolean;
  checks?: Array<{ _zod: { def: CheckDefinition } }>;
  innerType?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  options?: Schema[];
  inclusive?: boolean;
}

interface CheckDefinition {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  maximum?: number;
}

function internals(schema: Schema): Internals {
  return (schema as unknown as { _zod: Internals })._zod;
}

function compile(schema: Schema): Accept {
  const zod = internals(schema);
  // A schema that is itself a check (string formats, z.int()) or that coerces is left to zod.
  if (zod.def.coerce || zod.traits.has("$ZodCheck")) return unsure;
  const base = compileType(zod);
  const checks = (zod.def.checks ?? []).map((check) => compileCheck(check._zod.def));
  if (base === undefined || checks.includes(undefined)) return unsure;
  if (checks.length === 0) return base;
  return (value) => base(value) && checks.every((check) => check!(value));
}

function compileType({ def, values, traits }: Internals): Accept | undefined {
  switch (def.type) {
    case "string":
      return (value) => typeof value === "string";
    case "number":
      return (value) => typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return (value) => typeof value === "boolean";
    case "unknown":
    case "any":
      return () => true;
    case "literal":
    case "enum":
      return values && ((value) => values.has(value));
    case "optional":
      // z.exactOptional() refuses an explicit undefined; plain .optional() takes it.
      return traits.has("$ZodExactOptional") ? undefined : compileOptional(def.innerType!);
    case "nullable": {
      const inner = acceptorOf(def.innerType!);
      return (value) => value === null || inner(value);
    }
    case "array":
      return compileArray(acceptorOf(def.element!));
    case "object":
      return compileObject(def.shape!, def.catchall);
    case "record":
      return compileRecord(def.keyType!, def.valueType!);
    case "union": {
      if (def.inclusive === false) return undefined; // an exclusive union (z.xor) wants exactly one match
      const options = def.options!.map(acceptorOf);
      return (value) => options.some((option) => option(value));
    }
    default:
      return undefined;
  }
}

/** The checks the schemas use on numbers (priorities in [0, 1]) and arrays (at most 100 completions). */
function compileCheck(check: CheckDefinition): Accept | undefined {
  const bound = check.value;
  switch (check.check) {
    case "greater_than":
      if (typeof bound !== "number") return undefined;
      return check.inclusive ? (value) => (value as number) >= bound : (value) => (value as number) > bound;
    case "less_than":
      if (typeof bound !== "number") return undefined;
      return check.inclusive ? (value) => (value as number) <= bound : (value) => (value as number) < bound;
    case "max_length": {
      const maximum = check.maximum!;
      return (value) => Array.isArray(value) && value.length <= maximum;
    }
    default:
      return undefined;
  }
}

function compileOptional(innerType: Schema): Accept | undefined {
  // Absence stands for itself unless the inner schema supplies a default.
  if (internals(innerType).optin === "defaulted") return undefined;
  const inner = acceptorOf(innerType);
  return (value) => value === undefined || inner(value);
}

function compileArray(element: Accept): Accept {
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (let index = 0; index < value.length; index++) if (!element(value[index])) return false;
    return true;
  };
}

/**
 * zod's object: every key of the shape is read from the value (inherited ones too, as `in` and
 * `value[key]` do); an absent key is fine only for a schema that is optional both ways, which zod
 * then skips. Other keys are checked by the catchall (a loose object's `unknown`) or dropped.
 */
function compileObject(shape: Record<string, Schema>, catchall: Schema | undefined): Accept | undefined {
  if (catchall !== undefined && !acceptsAnything(catchall)) return undefined;
  if (Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const fields = Object.entries(shape).map(([key, schema]) => {
    const { optin, optout } = internals(schema);
    return { key, accept: acceptorOf(schema), mayBeAbsent: optin === "optional" && optout === "optional" };
  });
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    for (const { key, accept, mayBeAbsent } of fields) {
      if (key in value) {
        if (!accept((value as Record<string, unknown>)[key])) return false;
      } else if (!mayBeAbsent) return false;
    }
    return true;
  };
}

/**
 * zod's record of string keys: a plain object (zod's own test), each own enumerable key checked
 * but `__proto__`, which zod skips. A symbol key would fail the key schema, so it is left to zod.
 */
function compileRecord(keyType: Schema, valueType: Schema): Accept | undefined {
  const key = internals(keyType);
  if (key.def.type !== "string" || (key.def.checks ?? []).length > 0 || key.traits.has("$ZodCheck")) return undefined;
  const accept = acceptorOf(valueType);
  return (value) => {
    if (!zod().core.util.isPlainObject(value) || Object.getOwnPropertySymbols(value).length > 0) return false;
    for (const name in value) {
      if (Object.hasOwn(value, name) && name !== "__proto__" && !accept(value[name])) return false;
    }
    return true;
  };
}

function acceptsAnything(schema: Schema): boolean {
  const { def } = internals(schema);
  return (def.type === "unknown" || def.type === "any") && (def.checks ?? []).length === 0;
}
