/**
 * How long the fuzz suite runs. `npm test` runs each property a bounded number of times, and
 * fails one that reaches its time cap (many times its normal time); `npm run fuzz` raises the
 * count with FUZZ_RUNS and stops each property at its cap (FUZZ_SECONDS). A failure prints its
 * seed and path, and FUZZ_SEED replays it.
 */
const runsOverride = Number(process.env.FUZZ_RUNS ?? "") || undefined;
const secondsOverride = Number(process.env.FUZZ_SECONDS ?? "") || undefined;
const seed = Number(process.env.FUZZ_SEED ?? "") || undefined;

/** True under `npm run fuzz`: tests size their time-outs by it. */
export const LONG_RUN = runsOverride !== undefined;

export interface Budget {
  numRuns: number;
  interruptAfterTimeLimit: number;
  markInterruptAsFailure: boolean;
  seed?: number;
}

/** Parameters for one property: `runs` in the bounded run, FUZZ_RUNS in the long one, capped by time either way. */
export function budget(runs: number, seconds: number): Budget {
  const capSeconds = secondsOverride ?? (LONG_RUN ? 120 : seconds);
  return {
    numRuns: runsOverride ?? runs,
    interruptAfterTimeLimit: capSeconds * 1000,
    // In the bounded run the cap is many times a property's normal time, so reaching it means
    // something got slow (slow code must not pass by running fewer cases); in the long run the cap is how it ends.
    markInterruptAsFailure: !LONG_RUN,
    ...(seed === undefined ? {} : { seed }),
  };
}

/** The vitest time-out for a property with a time cap of `seconds`: the cap, plus room for its last run and shrinking. */
export function testTimeout(seconds: number): number {
  return ((secondsOverride ?? (LONG_RUN ? 120 : seconds)) + 30) * 1000;
}
