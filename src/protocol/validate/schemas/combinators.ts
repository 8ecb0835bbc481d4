/**
 * Schema building blocks zod lacks or words badly: unions picked by a tag or a predicate (so the
 * problem names the branch the value meant, not every branch), required "any" values, and the
 * string formats MCP uses (base64, URIs).
 */
import type { z } from "zod";
import { zod } from "../../../util/zod-on-demand.js";
import { isObject } from "../../jsonrpc.js";
import { hasUriScheme } from "../../uri-scheme.js";
import { describeValue } from "../../../util/text.js";
import type { ValidationRule } from "../problem.js";
import { MISSING, type CustomIssueParams } from "../zod-issues.js";
import { acceptsFast, defineAcceptor } from "./fast-accept.js";

export type Schema = z.ZodType;

type RefinementContext = z.RefinementCtx;
type Issue = z.core.$ZodIssue;

/**
 * The issues `schema` finds in `value`, each with the value it is about; none when it is valid.
 * Most values are valid, so first the fast path (fast-accept.ts), then zod's parse without
 * `reportInput` (which makes it many times slower); only a failure is parsed again, to be explained.
 */
export function issuesOf(schema: Schema, value: unknown): readonly Issue[] {
  if (acceptsFast(schema, value) || schema.safeParse(value).success) return noIssues;
  return explainedIssues(schema, value);
}

function explainedIssues(schema: Schema, value: unknown): readonly Issue[] {
  const explained = schema.safeParse(value, { reportInput: true });
  return explained.success ? noIssues : explained.error.issues;
}

const noIssues: readonly Issue[] = [];

/** A custom issue with our own message (and optionally a rule other than the default). */
export function problemIssue(message: string, rule?: ValidationRule) {
  const params: CustomIssueParams = rule === undefined ? {} : { rule };
  return { code: "custom" as const, message, params };
}

function missingIssue(expected: string) {
  const params: CustomIssueParams = { missingExpected: expected };
  return { code: "custom" as const, message: "", params };
}

const unavailableSchemas = new WeakSet<Schema>();

/**
 * A schema for something the protocol version lacks: any value there is one "version.feature"
 * problem. Tagged unions leave such branches out of the tags they list as expected.
 */
export function unavailable(message: string): Schema {
  const schema = zod()
    .unknown()
    .superRefine((_value, ctx) => ctx.addIssue(problemIssue(message, "version.feature")));
  unavailableSchemas.add(schema);
  return schema;
}

/**
 * Runs `schema` on `value` and re-raises its issues where the value sits. Inside a parse, so no
 * second try without `reportInput`: each level of nesting would double the work on a failure.
 */
function parseInto(ctx: RefinementContext, schema: Schema, value: unknown): void {
  if (acceptsFast(schema, value)) return;
  for (const issue of explainedIssues(schema, value)) {
    // Mark absent values explicitly: zod may fill a missing `input` with the parent value.
    const input = "input" in issue ? issue.input : MISSING;
    ctx.addIssue({ ...issue, input } as Parameters<RefinementContext["addIssue"]>[0]);
  }
}

/**
 * An object whose `tagKey` picks its shape (content blocks by `type`, elicitation by `mode`).
 * An unknown tag is one problem at the tag listing the tags this version has.
 */
export function tagged(tagKey: string, variants: Record<string, Schema>, options: { defaultTag?: string } = {}): Schema {
  const available = Object.keys(variants).filter((tag) => !unavailableSchemas.has(variants[tag]!));
  const tagOf = (value: Record<string, unknown>) => (tagKey in value ? value[tagKey] : options.defaultTag);
  const variantOf = (tag: unknown) => (typeof tag === "string" && Object.hasOwn(variants, tag) ? variants[tag] : undefined);
  const schema = zod()
    .unknown()
    .superRefine((value, ctx) => {
      if (!isObject(value)) {
        ctx.addIssue({ code: "invalid_type", expected: "object", input: value === undefined ? MISSING : value });
        return;
      }
      const tag = tagOf(value);
      const variant = variantOf(tag);
      if (variant === undefined) {
        ctx.addIssue({ code: "invalid_value", values: available, input: tag === undefined ? MISSING : tag, path: [tagKey] });
        return;
      }
      parseInto(ctx, variant, value);
    });
  defineAcceptor(schema, (value) => {
    const variant = isObject(value) ? variantOf(tagOf(value)) : undefined;
    return variant !== undefined && acceptsFast(variant, value);
  });
  return schema;
}

/** A union decided by looking at the value (`pick`), e.g. text vs blob resource contents. */
export function choose(expectation: string, pick: (value: unknown) => Schema | undefined): Schema {
  const schema = zod()
    .unknown()
    .superRefine((value, ctx) => {
      if (value === undefined) return ctx.addIssue(missingIssue(expectation));
      const picked = pick(value);
      if (picked === undefined) ctx.addIssue(problemIssue(`expected ${expectation}; got ${describeValue(value)}`));
      else parseInto(ctx, picked, value);
    });
  defineAcceptor(schema, (value) => {
    const picked = value === undefined ? undefined : pick(value);
    return picked !== undefined && acceptsFast(picked, value);
  });
  return schema;
}

/** Any JSON value, but present (e.g. `data` in a log message). */
export function requiredValue(expectation: string): Schema {
  const schema = zod()
    .unknown()
    .superRefine((value, ctx) => {
      if (value === undefined) ctx.addIssue(missingIssue(expectation));
    });
  defineAcceptor(schema, (value) => value !== undefined);
  return schema;
}

/** A string checked by `test`, with our own "expected …" wording. */
function checkedString(expectation: string, test: (value: string) => boolean): Schema {
  const schema = zod()
    .string()
    .superRefine((value, ctx) => {
      if (!test(value)) ctx.addIssue(problemIssue(`expected ${expectation}; got ${describeValue(value)}`));
    });
  defineAcceptor(schema, (value) => typeof value === "string" && test(value));
  return schema;
}

/** A string that must be `expected` exactly; `mismatch` says why another string is wrong. */
export function exactString(expected: string, mismatch: (got: string) => string): Schema {
  const schema = zod()
    .string()
    .superRefine((value, ctx) => {
      if (value !== expected) ctx.addIssue(problemIssue(mismatch(value)));
    });
  defineAcceptor(schema, (value) => value === expected);
  return schema;
}

const base64Alphabet = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64; padding may be left off, as decoders such as atob accept. */
export function isBase64(value: string): boolean {
  if (!base64Alphabet.test(value)) return false;
  const padded = value.endsWith("=");
  return padded ? value.length % 4 === 0 : value.length % 4 !== 1;
}

export interface StringFormats {
  base64String: Schema;
  /** A URI needs a scheme; MCP allows any scheme ("file:", "https:", custom ones). */
  uriString: Schema;
  /** Roots "must start with file:// for now", in every revision so far. */
  fileUriString: Schema;
}

let formats: StringFormats | undefined;

/** The string formats, built once, when the first schema set is. */
export function stringFormats(): StringFormats {
  formats ??= {
    base64String: checkedString("base64-encoded data", isBase64),
    uriString: checkedString('a URI with a scheme (such as "file:///notes.txt")', hasUriScheme),
    fileUriString: checkedString("a file:// URI", (value) => value.startsWith("file://")),
  };
  return formats;
}
