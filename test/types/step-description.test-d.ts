/**
 * The TypeScript step types and the one zod description of a step (src/formats/step.ts) agree:
 * the same keys, and for each key a value the type admits is one the description reads the
 * same way. The description is stricter in places the compiler cannot see (a delay's range,
 * an ask's method is a known one), which the run-time check reports.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { StepAnswers, StepObject, StepOptions } from "../../src/engine/steps.js";
import type { McpFakeStep } from "../../src/fakes/types.js";
import type { FakeStepInput, StepInput } from "../../src/formats/step.js";
import type { FakeStepKey, StepKey } from "../../src/formats/step-keys.js";

type Written = Required<StepAnswers & StepOptions>;
type Described = Required<StepInput>;
/** Per key, whether each side's values are the other's (modulo the method names of asks, a string in the type). */
type Agree<W, D, K extends keyof W & keyof D> = { [P in K]: [W[P]] extends [D[P]] ? true : [D[P]] extends [W[P]] ? true : false };

describe("the step types and the zod description of a step", () => {
  it("have the same keys, in the type, the description and the key list", () => {
    expectTypeOf<keyof Written>().toEqualTypeOf<keyof Described>();
    expectTypeOf<keyof Described>().toEqualTypeOf<StepKey>();
  });

  it("agree on each key's values", () => {
    expectTypeOf<Agree<Written, Described, StepKey>>().toEqualTypeOf<{ [P in StepKey]: true }>();
  });

  it("a step the description reads is a typed step: the description is as strict as the types, or stricter", () => {
    expectTypeOf<StepInput>().toExtend<StepAnswers & StepOptions>();
    // Stricter where the type says string: an ask's method must be one a server may ask.
    expectTypeOf<Described["asks"][number]["method"]>().toEqualTypeOf<"ping" | "sampling/createMessage" | "elicitation/create" | "roots/list">();
    expectTypeOf<StepObject["asks"]>().toEqualTypeOf<StepOptions["asks"]>();
  });

  it("a fixture's step has the fixture step keys, and agrees with its description", () => {
    expectTypeOf<keyof McpFakeStep>().toEqualTypeOf<FakeStepKey>();
    expectTypeOf<keyof Required<FakeStepInput>>().toEqualTypeOf<FakeStepKey>();
    expectTypeOf<Agree<Required<McpFakeStep>, Required<FakeStepInput>, FakeStepKey>>().toEqualTypeOf<{ [P in FakeStepKey]: true }>();
    expectTypeOf<FakeStepInput>().toExtend<McpFakeStep>();
    expectTypeOf<McpFakeStep>().toExtend<Omit<StepAnswers & StepOptions, "repeat" | "inputRequired">>();
  });
});
