/**
 * The validator's problems are worded by mcp-testkit, never by zod: a user reads "required field
 * "x" is missing; expected a string", not zod's type names ("nonoptional") or issue codes.
 */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { KNOWN_PROTOCOL_VERSIONS } from "../../src/protocol/versions.js";
import { issuesOf, type Schema } from "../../src/protocol/validate/schemas/combinators.js";
import { schemasFor } from "../../src/protocol/validate/schemas/schema-set.js";
import { translateZodIssues } from "../../src/protocol/validate/zod-issues.js";

/** zod's own vocabulary: its type name for "present", its issue codes, its default messages. */
const ZOD_WORDS = /nonoptional|invalid_[a-z]+|too_(small|big)|unrecognized_keys|Invalid input|Expected [a-z]/;

/** Values that leave out every required key, or are the wrong thing altogether. */
const broken: unknown[] = [{}, { _meta: {} }, { _meta: { progressToken: 1 } }, null, [], "x", 0];

function everySchema(version: string): [string, Schema][] {
  const set = schemasFor(version);
  const named: [string, Schema | undefined][] = [
    ...[...set.params].map(([method, schema]): [string, Schema] => [`params of ${method}`, schema]),
    ...[...set.results].map(([method, schema]): [string, Schema] => [`result of ${method}`, schema]),
    ...[...set.errorData].map(([code, schema]): [string, Schema] => [`error data of ${code}`, schema]),
    ["the per-request envelope", set.modern.requestEnvelope],
    ["the tools/call result envelope", set.modern.resultEnvelope("tools/call")],
    ["the tools/list result envelope", set.modern.resultEnvelope("tools/list")],
    ["an input_required result", set.modern.inputRequiredResult],
  ];
  return named.filter((entry): entry is [string, Schema] => entry[1] !== undefined);
}

describe("validator wording", () => {
  it.each(KNOWN_PROTOCOL_VERSIONS)("no schema of %s words a problem in zod's terms", (version) => {
    const leaks: string[] = [];
    for (const [name, schema] of everySchema(version)) {
      for (const value of broken) {
        for (const problem of translateZodIssues(issuesOf(schema, value), ["x"], "params.shape")) {
          if (ZOD_WORDS.test(problem.message)) leaks.push(`${name} of ${JSON.stringify(value)}: ${problem.message}`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it("a required key that takes any value, when missing, reads 'expected any JSON value'", () => {
    // zod reports such a key as expected "nonoptional"; a schema of tomorrow may have one again.
    const issues = issuesOf(z.looseObject({ payload: z.unknown() }), {});
    expect(translateZodIssues(issues, ["data"], "error.data")).toEqual([{ path: "$.data.payload", rule: "error.data", message: 'required field "payload" is missing; expected any JSON value' }]);
  });

  it("a zod type it has no words for reads 'a valid value', not zod's name", () => {
    const issues = issuesOf(z.looseObject({ when: z.date() }), { when: "today" });
    expect(translateZodIssues(issues, [], "params.shape")).toEqual([{ path: "$.when", rule: "params.shape", message: 'expected a valid value; got "today"' }]);
  });
});
