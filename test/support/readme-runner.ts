/**
 * A stand-in for vitest's describe/it/beforeEach/afterEach, for README examples that declare
 * tests: it collects them while the example module loads, then runs each test between its hooks.
 * What an example prints (its console output) is kept here, not let through to the test run's
 * output; a failing example's error carries it.
 */
export { expect } from "vitest";

type Fn = () => unknown;

let tests: Array<{ name: string; fn: Fn; timeoutMs?: number }> = [];
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

/** As vitest's: a test, with its own time-out when one is given. */
export function it(name: string, fn: Fn, timeoutMs?: number): void {
  tests.push({ name, fn, ...(timeoutMs !== undefined && { timeoutMs }) });
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
  for (const { name, fn, timeoutMs } of tests) {
    for (const hook of before) await hook();
    try {
      await (timeoutMs === undefined ? fn() : withinTimeout(name, fn, timeoutMs));
    } finally {
      for (const hook of after) await hook();
    }
  }
  return tests.length;
}

/** Runs `fn`, failing as vitest does if it takes longer than `timeoutMs`. */
async function withinTimeout(name: string, fn: Fn, timeoutMs: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Test "${name}" timed out in ${timeoutMs}ms.`)), timeoutMs);
  });
  try {
    return await Promise.race([fn(), late]);
  } finally {
    clearTimeout(timer);
  }
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
