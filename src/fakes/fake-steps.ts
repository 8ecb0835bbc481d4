/**
 * The `step` answer of a tool call entry: one of the mock's JSON steps, so a fixture can script
 * faults (a delay, a hang, a dropped connection, raw bytes) and not only answers. Its keys and
 * values are those of the one description of a step (src/formats/step.ts), without the keys
 * that make no sense for one call; this module words the key problems for a fixture.
 */
import type { z } from "zod";
import { closest } from "../util/closest.js";
import { FAKE_STEP_KEYS, REFUSED_IN_FAKES } from "../formats/step-keys.js";

export { FAKE_STEP_KEYS };

/** The problems with a fixture step's unknown keys: refused ones (with why) and others (with a did-you-mean). */
export function stepKeyProblems(unknownKeys: readonly string[]): string[] {
  const known: readonly string[] = FAKE_STEP_KEYS;
  const refused: Readonly<Record<string, string>> = REFUSED_IN_FAKES;
  return unknownKeys.map((key) => {
    if (refused[key] !== undefined) return refused[key];
    const guess = closest(key, known);
    return `unknown step key "${key}"${guess ? `; did you mean "${guess}"?` : "."} A fake step has: ${known.join(", ")}`;
  });
}

/**
 * An issue inside a call's step (its keys, its values, one answer), not about the call itself:
 * the loader words those, one per step (`checkSteps` in format.ts). `at` is where "step" sits in the path.
 */
export function isInsideStepAt(issue: { path?: readonly PropertyKey[]; code?: string; params?: unknown }, at: number): boolean {
  const path = issue.path ?? [];
  if (path[at] !== "step") return false;
  if (path.length > at + 1) return true;
  // At the step itself: that it is no object, or that JSON cannot carry it, is the call's problem.
  return issue.code !== "invalid_type" && (issue.params as { rule?: string } | undefined)?.rule === undefined;
}

/** A refinement runs as zod runs it by default (no issue so far that stops it), and also when the others are inside steps, so those are reported beside its own. */
export const onlyStepIssues = (at: number) => (payload: z.core.ParsePayload) => payload.issues.every((issue) => issue.continue === true || isInsideStepAt(issue, at));
