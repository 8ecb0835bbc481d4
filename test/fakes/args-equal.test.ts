/** The fast checks the matcher uses (no messages) agree with the differences it reports, for any JSON values. */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { argsDifference, argsEqual, entryDifference, entryMatches } from "../../src/fakes/args-match.js";
import { compilePattern, patternDifference, patternMatches } from "../../src/fakes/arg-patterns.js";

const json = fc.jsonValue({ maxDepth: 3 });
// Fakes given in code may declare a key as undefined, which no client can send.
const withUndefined = fc.dictionary(fc.constantFrom("a", "b"), fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 1 })), { maxKeys: 2 });
// Pairs that are often equal or nearly so, not only unrelated values.
const pairs = fc.oneof(
  fc.tuple(json, json),
  fc.tuple(withUndefined, withUndefined),
  json.map((value) => [value, JSON.parse(JSON.stringify(value))] as [unknown, unknown]),
  fc
    .tuple(fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 3 }), fc.string({ maxLength: 3 }), json)
    .map(([object, key, value]) => [object, { ...object, [key]: value }] as [unknown, unknown]),
);

test.prop([pairs], { numRuns: 500 })("argsEqual(a, b) is exactly argsDifference(a, b) === undefined", ([received, declared]) => {
  expect(argsEqual(received, declared)).toBe(argsDifference(received, declared) === undefined);
});

// `argsMatch` patterns: objects (a subset of keys), arrays, literals, $regex and $schema, compiled as at load.
const patternValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ maxDepth: 3 }, fc.jsonValue({ maxDepth: 0 }), tie("regex"), tie("object"), tie("array")),
  regex: fc.oneof(
    fc.constantFrom("^a", "b$", "[0-9]+", "x|y", "^$").map((source) => ({ $regex: source })),
    fc.constantFrom<unknown>({ type: "string" }, { minimum: 3 }, { type: "array", maxItems: 1 }, true, false).map((schema) => ({ $schema: schema })),
  ),
  object: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("value"), { maxKeys: 3 }),
  array: fc.array(tie("value"), { maxLength: 3 }),
})).object as fc.Arbitrary<unknown>;

test.prop([fc.tuple(patternValue as fc.Arbitrary<Record<string, unknown>>, fc.dictionary(fc.constantFrom("a", "b", "c", "d"), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }))], { numRuns: 500 })(
  "an argsMatch entry matches exactly when its pattern reports no difference",
  ([written, received]) => {
    const { pattern } = compilePattern(written);
    expect(pattern).toBeDefined();
    const entry = { args: null, argsMatch: pattern! };
    expect(entryMatches(received, entry)).toBe(entryDifference(received, entry) === undefined);
    expect(patternMatches(received, pattern!.node)).toBe(patternDifference(received, pattern!.node) === undefined);
  },
);

test.prop([pairs], { numRuns: 300 })("an args entry matches exactly when it reports no difference (anyArgs always)", ([received, declared]) => {
  const args = typeof declared === "object" && declared !== null && !Array.isArray(declared) ? (declared as Record<string, unknown>) : { value: declared };
  expect(entryMatches(received, { args, argsMatch: null })).toBe(entryDifference(received, { args, argsMatch: null }) === undefined);
  expect(entryMatches(received, { args: null, argsMatch: null })).toBe(true);
});
