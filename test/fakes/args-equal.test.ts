/** The fast equality the matcher uses agrees with the difference it reports, for any JSON values. */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { argsDifference, argsEqual } from "../../src/fakes/args-match.js";

const json = fc.jsonValue({ maxDepth: 3 });
// Pairs that are often equal or nearly so, not only unrelated values.
const pairs = fc.oneof(
  fc.tuple(json, json),
  json.map((value) => [value, JSON.parse(JSON.stringify(value))] as [unknown, unknown]),
  fc.tuple(fc.dictionary(fc.string({ maxLength: 3 }), json, { maxKeys: 3 }), fc.string({ maxLength: 3 }), json).map(([object, key, value]) => [object, { ...object, [key]: value }] as [unknown, unknown]),
);

test.prop([pairs], { numRuns: 500 })("argsEqual(a, b) is exactly argsDifference(a, b) === undefined", ([received, declared]) => {
  expect(argsEqual(received, declared)).toBe(argsDifference(received, declared) === undefined);
});
