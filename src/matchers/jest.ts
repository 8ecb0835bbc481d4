/**
 * `import "mcp-testkit/jest"` (in a test file or a `setupFilesAfterEnv` entry): adds the MCP
 * matchers to Jest's `expect` (the global one, or `@jest/globals` when globals are off) and to
 * its types, for both `@jest/globals` (module `expect`) and `@types/jest` (namespace `jest`).
 *
 * Jest prints only a matcher's message, not its `actual`/`expected`, so here the diff Vitest
 * would draw is added to the message.
 */
import { mcpMatchers, type McpMatchers, type McpMatcherResult } from "./matchers.js";

interface JestMatcherContext {
  isNot?: boolean;
  utils?: { diff?: (expected: unknown, actual: unknown) => string | null };
}

type Matcher = (this: JestMatcherContext, received: unknown, ...args: unknown[]) => McpMatcherResult | Promise<McpMatcherResult>;

function withDiffInMessage(context: JestMatcherContext, result: McpMatcherResult): McpMatcherResult {
  if (!("actual" in result) && !("expected" in result)) return result;
  const message = result.message;
  return {
    ...result,
    message: () => {
      const diff = context.utils?.diff?.(result.expected, result.actual);
      return diff ? `${message()}\n\n${diff}` : message();
    },
  };
}

/** The matchers with each message followed by the diff of `expected` and `actual`, for Jest. */
export const mcpJestMatchers = Object.fromEntries(
  Object.entries(mcpMatchers as Record<string, Matcher>).map(([name, matcher]) => [
    name,
    function (this: JestMatcherContext, received: unknown, ...args: unknown[]) {
      const result = matcher.call(this, received, ...args);
      // A thenable check, not `instanceof Promise`: Jest runs tests in a vm context with its own Promise.
      return typeof (result as Partial<Promise<McpMatcherResult>>).then === "function"
        ? (result as Promise<McpMatcherResult>).then((settled) => withDiffInMessage(this, settled))
        : withDiffInMessage(this, result as McpMatcherResult);
    },
  ]),
) as unknown as typeof mcpMatchers;

interface Extendable {
  extend(matchers: Record<string, unknown>): void;
}

const globalExpect = (globalThis as { expect?: Partial<Extendable> }).expect;
const jestExpect: Extendable = typeof globalExpect?.extend === "function" ? (globalExpect as Extendable) : ((await import("@jest/globals")).expect as unknown as Extendable);
jestExpect.extend(mcpJestMatchers);

declare module "expect" {
  // The type parameters must stay as the `expect` package declares them.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface Matchers<R extends void | Promise<void>, T = unknown> extends McpMatchers<R> {}
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // As `@types/jest` declares it.
    // eslint-disable-next-line @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
    interface Matchers<R, T = {}> extends McpMatchers<R> {}
  }
}

export { mcpMatchers };
export type { McpMatchers, ToolExpectation, ToolCalledOptions, TaskFailureExpectation, McpMatcherResult } from "./matchers.js";
