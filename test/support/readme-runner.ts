/**
 * A stand-in for vitest's describe/it/beforeEach/afterEach, for README examples that declare
 * tests: it collects them while the example module loads, then runs each test between its hooks.
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
