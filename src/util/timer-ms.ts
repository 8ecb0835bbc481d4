/**
 * The one rule for every option that becomes a timer (a step's `delayMs`, a timeout, a grace
 * period): a number of ms up to 2,147,483,647. Node's `setTimeout` fires a longer delay after
 * 1 ms (with a TimeoutOverflowWarning), so `{ delayMs: 3e9 }` would answer at once and a long
 * timeout would expire at once. Such a value is refused, with the same words everywhere.
 */
import { typeLabel } from "./text.js";

/** The longest delay `setTimeout` honours: 2^31 - 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface TimerMsRule {
  /** The smallest value allowed (0 where "at once" makes sense, 1 where it does not). Default 0. */
  min?: number;
  /** Only whole numbers of ms. Default false. */
  whole?: boolean;
}

/** Whether `value` is a delay a timer can hold, under `rule`. */
export function isTimerMs(value: unknown, rule: TimerMsRule = {}): value is number {
  const { min = 0, whole = false } = rule;
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= MAX_TIMER_MS && (!whole || Number.isInteger(value));
}

/**
 * `"timeoutMs" must be a number of ms from 0 to 2147483647, got number 3000000000` when `value`
 * breaks the rule, else undefined. No final full stop: callers put the message in their own
 * sentence (a zod issue, a `where: …` prefix).
 */
export function timerMsProblem(name: string, value: unknown, rule: TimerMsRule = {}): string | undefined {
  if (isTimerMs(value, rule)) return undefined;
  const { min = 0, whole = false } = rule;
  return `${JSON.stringify(name)} must be a ${whole ? "whole " : ""}number of ms from ${min} to ${MAX_TIMER_MS}, got ${typeLabel(value)}`;
}
