/**
 * The `step` answer of a tool call entry: one of the mock's JSON steps, so a fixture can script
 * faults (a delay, a hang, a dropped connection, raw bytes) and not only answers. The fakes know
 * the keys a fake step may use; the values are checked by the engine's own step checker, handed
 * in by whoever plugs the fakes into a mock (src/fakes does not import the engine).
 */
import { closest } from "../util/closest.js";

/** The JSON step keys a fake entry may use (see src/engine/steps.ts for what each does). */
export const FAKE_STEP_KEYS = ["returns", "content", "structuredContent", "toolError", "throws", "delayMs", "hang", "result", "disconnect", "raw", "stream", "asks", "broadcast", "endSubscriptions"] as const;

/** Step keys a fake cannot use, with why: an entry answers exactly one call. */
const REFUSED: Record<string, string> = {
  repeat: '"repeat" has no meaning in a fake: an entry answers one call; write one entry per call (or use anyArgs entries in order)',
  inputRequired: '"inputRequired" is not available in a fake: its retry is the next call of a tool\'s script; script the tool in a scenario instead',
};

/**
 * Checks a fake step's values and answer count; returns the problem's message, or undefined.
 * The mock passes one built on the engine's `checkStep`.
 */
export type FakeStepChecker = (step: Record<string, unknown>) => string | undefined;

/** The problems with a step's keys: refused and unknown ones (with a did-you-mean). */
export function stepKeyProblems(step: Record<string, unknown>): string[] {
  const known: readonly string[] = FAKE_STEP_KEYS;
  return Object.keys(step)
    .filter((key) => !known.includes(key))
    .map((key) => {
      if (REFUSED[key] !== undefined) return REFUSED[key];
      const guess = closest(key, known);
      return `unknown step key "${key}"${guess ? `; did you mean "${guess}"?` : "."} A fake step has: ${known.join(", ")}`;
    });
}
