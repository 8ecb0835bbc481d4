/**
 * The full name of the test that runs now, as the runner gives it: Vitest's
 * `describe > test` (its `expect.getState().currentTestName`, set before `beforeEach` runs) and
 * Jest's `describe test`. The kit sends it as the test id, so fixtures scoped to a test's name
 * answer that test with no headers. Read from the runner's global expect, so the kit imports no
 * runner.
 */
import { McpTestkitError } from "../errors.js";

interface ExpectWithState {
  getState(): { currentTestName?: unknown };
}

function hasState(value: unknown): value is ExpectWithState {
  return (typeof value === "function" || (typeof value === "object" && value !== null)) && typeof (value as ExpectWithState).getState === "function";
}

export function currentTestName(): string {
  const globals = globalThis as Record<PropertyKey, unknown>;
  // Vitest keeps its expect here even without `globals: true`; Jest's is the global `expect`.
  for (const candidate of [globals[Symbol.for("expect-global")], globals.expect]) {
    if (!hasState(candidate)) continue;
    const name = candidate.getState().currentTestName;
    if (typeof name === "string" && name !== "") return name;
  }
  throw new McpTestkitError(
    'testId: true takes the current test\'s full name from the runner (Vitest or Jest), but no test is running or the runner does not say its name (node:test does not). Give the test id as a string instead: testId: "tickets > retry on timeout".',
  );
}
