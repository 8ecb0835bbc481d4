/**
 * Where the per-test kit gets its `beforeEach` / `afterEach`: given explicitly (node:test,
 * Vitest without globals) or taken from the runner's globals (Jest, Vitest with `globals: true`).
 */
import { McpTestkitError } from "../errors.js";

/**
 * A runner's hook registrar: `beforeEach` / `afterEach` from Vitest, Jest or `node:test`.
 * The kit passes a function with no parameters, so no runner mistakes it for a `done`-callback hook.
 */
export type TestHook = (fn: () => Promise<void>) => unknown;

export interface TestHooks {
  beforeEach: TestHook;
  afterEach: TestHook;
}

const HOW_TO =
  'Pass your runner\'s hooks: mcpTestKit(options, { beforeEach, afterEach }), importing them from "node:test" or "vitest", ' +
  "or enable your runner's globals (Jest has them; Vitest with test.globals: true). " +
  "For a single test, use `await using kit = await createTestKit(options)` instead.";

export function resolveHooks(given?: Partial<TestHooks>): TestHooks {
  if (given !== undefined) {
    const missing = (["beforeEach", "afterEach"] as const).filter((name) => typeof given[name] !== "function");
    if (missing.length > 0) {
      throw new McpTestkitError(`mcpTestKit() was given hooks without ${missing.join(" and ")}; it needs both beforeEach and afterEach functions. ${HOW_TO}`);
    }
    return given as TestHooks;
  }
  const globals = globalThis as { beforeEach?: unknown; afterEach?: unknown };
  if (typeof globals.beforeEach === "function" && typeof globals.afterEach === "function") {
    return { beforeEach: globals.beforeEach as TestHook, afterEach: globals.afterEach as TestHook };
  }
  throw new McpTestkitError(
    `mcpTestKit() needs beforeEach and afterEach hooks to give each test a fresh server and client, but none were given and there is no global beforeEach/afterEach. ${HOW_TO}`,
  );
}
