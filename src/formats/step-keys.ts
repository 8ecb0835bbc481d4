/**
 * The names of a step's keys, without zod: what the engine needs on every call (which answer a
 * step gives) and to tell a step from a tool definition, at no import cost. The step itself is
 * described in step.ts, whose shape must have exactly these keys (the compiler holds it to them).
 */

/** Exactly one of these says what kind of answer a step gives. */
export const ANSWER_KEYS = ["returns", "content", "toolError", "throws", "hang", "result", "disconnect", "raw", "inputRequired"] as const;

/** What any step may add to its answer. */
export const OPTION_KEYS = ["structuredContent", "delayMs", "repeat", "stream", "asks", "broadcast", "endSubscriptions"] as const;

/**
 * Keys a protocol feature adds to steps (a step kind): each changes how the step's answer
 * reaches the client, and the feature that declares it answers such a step (see the engine's
 * `EngineFeature.stepKinds`). `task`: the answer comes as a task, after the life it scripts.
 */
export const KIND_KEYS = ["task"] as const;

export type AnswerKey = (typeof ANSWER_KEYS)[number];
export type KindKey = (typeof KIND_KEYS)[number];
export type StepKey = AnswerKey | (typeof OPTION_KEYS)[number] | KindKey;

/** Every key a step takes, in the order messages list them. */
export const STEP_KEYS: readonly StepKey[] = [...ANSWER_KEYS, ...OPTION_KEYS, ...KIND_KEYS];

/** Keys a fixture's step cannot use, with why: an entry answers exactly one call. */
export const REFUSED_IN_FAKES = {
  repeat: '"repeat" has no meaning in a fake: an entry answers one call; write one entry per call (or use anyArgs entries in order)',
  inputRequired: '"inputRequired" is not available in a fake: its retry is the next call of a tool\'s script; script the tool in a scenario instead',
} as const satisfies Partial<Record<StepKey, string>>;

export type FakeStepKey = Exclude<StepKey, keyof typeof REFUSED_IN_FAKES>;

/** Every key a fixture's step takes. */
export const FAKE_STEP_KEYS: readonly FakeStepKey[] = STEP_KEYS.filter((key): key is FakeStepKey => !(key in REFUSED_IN_FAKES));

/** `hang` and `disconnect` set to false give no answer; any other value of an answer key is one (`returns: false` answers "false"). */
export const FLAG_KEYS: ReadonlySet<string> = new Set<AnswerKey>(["hang", "disconnect"]);

export function givesAnswer(step: Record<string, unknown>, key: string): boolean {
  const value = step[key];
  return value !== undefined && !(value === false && FLAG_KEYS.has(key));
}
