/**
 * A stand-in for vitest's describe/it/beforeEach/afterEach, for README examples that declare
 * tests: it collects them while the example module loads, then runs each test between its hooks.
 * What an example prints (its console output) is kept here, not let through to the test run's
 * output; a failing example's error carries it.
 */
export { expect } from "vitest";

type Fn = () => unknown;

let tests: Array<{ name: string; fn: Fn }> = [];
let before: Fn[] = [];
let after: Fn[] = [];

export function reset(): void {
  tests = [];
  before = [];
  after = [];
}

export function describe(_name: string, body: () => void): void {
  body();
}

export function it(name: string, fn: Fn): void {
  tests.push({ name, fn });
}

export const test = it;

export function beforeEach(fn: Fn): void {
  before.push(fn);
}

export function afterEach(fn: Fn): void {
  after.push(fn);
}

/** Runs the collected tests in order, each between its hooks; resolves with how many ran. */
export async function runCollected(): Promise<number> {
  for (const { fn } of tests) {
    for (const hook of before) await hook();
    try {
      await fn();
    } finally {
      for (const hook of after) await hook();
    }
  }
  return tests.length;
}

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug"] as const;

/**
 * Runs `work` with the console's output kept in `printed` instead of written; a failure is
 * rethrown with what was printed added to its message.
 */
export async function withConsoleCaptured<T>(work: () => Promise<T>): Promise<{ value: T; printed: string[] }> {
  const printed: string[] = [];
  const saved = CONSOLE_METHODS.map((method) => [method, console[method]] as const);
  for (const method of CONSOLE_METHODS) console[method] = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  try {
    return { value: await work(), printed };
  } catch (error) {
    if (error instanceof Error && printed.length > 0) error.message += `\nThe example printed:\n${printed.map((line) => `  ${line}`).join("\n")}`;
    throw error;
  } finally {
    for (const [method, original] of saved) console[method] = original;
  }
}
