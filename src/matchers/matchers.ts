/**
 * The MCP matchers, one implementation for Vitest and Jest: `expect.extend(mcpMatchers)`, or
 * `import "mcp-testkit/vitest"` / `import "mcp-testkit/jest"`, which do that and add the types.
 *
 * What each matcher takes as the received value:
 * - a driver (`mcpShell`, `mcpConnect`, `mcpAttach`): `toHaveTool(s)`, `toHaveResource(s)`,
 *   `toHaveResourceTemplate`, `toHavePrompt(s)`, `toMatchToolSchema`. These are async: `await` them.
 * - a tool call result: `toBeSuccessful`, `toBeToolError`, `toHaveTextContent`,
 *   `toMatchTextContent`, `toHaveStructuredContent`.
 * - a resource read result: `toHaveResourceContent`, `toHaveTextResource`.
 * - a mock from `mockMcp()`: `toHaveBeenCalledTool`.
 * - a driver, a mock or a surface: `toMatchServerSnapshot` (async), in the runner's snapshot file.
 * - a task handle (`startTask`): `toCompleteTaskWith`, `toFailTask` (async: `await` them),
 *   `toHaveTaskStatuses`.
 *
 * Values are recognized by shape and marker symbols, never `instanceof`, so objects from another
 * copy of mcp-testkit work too. A failure says what was there, and where a diff helps the result
 * carries `actual` and `expected` for the runner to show.
 */
import { catalogMatchers, type ToolExpectation } from "./catalog-matchers.js";
import { mockMatchers, type ToolCalledOptions } from "./mock-matchers.js";
import { resultMatchers } from "./result-matchers.js";
import { snapshotMatchers } from "./snapshot-matcher.js";
import { taskMatchers, type TaskFailureExpectation } from "./task-matchers.js";

export type { ToolExpectation } from "./catalog-matchers.js";
export type { ToolCalledOptions } from "./mock-matchers.js";
export type { TaskFailureExpectation } from "./task-matchers.js";
export type { McpMatcherResult, McpMatcherContext } from "./report.js";

export const mcpMatchers = {
  ...catalogMatchers,
  ...resultMatchers,
  ...mockMatchers,
  ...snapshotMatchers,
  ...taskMatchers,
};

/**
 * The matchers' types, for a runner's `Matchers` interface. `R` is what a synchronous matcher
 * returns in that runner (`void` in Vitest; `R` of Jest's `Matchers<R>`).
 */
export interface McpMatchers<R = void> {
  /** The server lists a tool with this name. `await` it. */
  toHaveTool(name: string): Promise<R>;
  /** The server lists every one of these tools. `await` it. */
  toHaveTools(names: readonly string[]): Promise<R>;
  /** The server lists a resource with this name or URI. `await` it. */
  toHaveResource(nameOrUri: string): Promise<R>;
  /** The server lists every one of these resources (each by name or URI). `await` it. */
  toHaveResources(namesOrUris: readonly string[]): Promise<R>;
  /** The server lists a resource template with this name or URI template. `await` it. */
  toHaveResourceTemplate(nameOrUriTemplate: string): Promise<R>;
  /** The server lists a prompt with this name. `await` it. */
  toHavePrompt(name: string): Promise<R>;
  /** The server lists every one of these prompts. `await` it. */
  toHavePrompts(names: readonly string[]): Promise<R>;
  /**
   * The tool exists and its definition partially matches `expected`, e.g.
   * `{ inputSchema: { required: ["path"] }, annotations: { readOnlyHint: true } }`: extra keys are
   * fine, arrays match item by item, a RegExp tests a string, asymmetric matchers work. `await` it.
   */
  toMatchToolSchema(name: string, expected: ToolExpectation): Promise<R>;
  /** The tool call result is not an error (`isError` is not true). */
  toBeSuccessful(): R;
  /** The tool call result is an error (`isError: true`); with an argument, its text contains the string or matches the RegExp. */
  toBeToolError(text?: string | RegExp): R;
  /** The result's first text block is exactly this text. */
  toHaveTextContent(text: string): R;
  /** The result's first text block matches the RegExp (or contains the string). */
  toMatchTextContent(pattern: RegExp | string): R;
  /**
   * The result's `structuredContent` partially matches `expected` (an object or an array; a
   * 2026-07-28 server may send any JSON value, and a string, number, boolean or null is matched exactly).
   */
  toHaveStructuredContent(expected: Record<string, unknown> | unknown[] | string | number | boolean | null): R;
  /** The resource read result has a content with this URI. */
  toHaveResourceContent(uri: string): R;
  /** The resource read result's first text content is exactly this text. */
  toHaveTextResource(text: string): R;
  /** The mock's tool was called (`times` times; with arguments partially matching `with`). */
  toHaveBeenCalledTool(name: string, options?: ToolCalledOptions): R;
  /**
   * The server's surface (from a driver, a mock, or `snapshotServer()`) matches the one kept in
   * the test's snapshot file (written on the first run, updated with `-u`); a failure lists the
   * changes classed breaking, compatible or informational. Vitest 4.1+ or Jest. `await` it.
   */
  toMatchServerSnapshot(hint?: string): Promise<R>;
  /**
   * The task (a handle from `startTask`) completes, with a result partially matching `expected`
   * when given (a tool error is a completed task whose result has `isError`). Waits for it: `await` it.
   */
  toCompleteTaskWith(expected?: Record<string, unknown>): Promise<R>;
  /** The task ends `failed`, with this JSON-RPC error code and message when given. Waits for it: `await` it. */
  toFailTask(expected?: TaskFailureExpectation): Promise<R>;
  /** The task went through exactly these statuses so far, in order (`["working", "input_required", "completed"]`). */
  toHaveTaskStatuses(statuses: readonly ("working" | "input_required" | "completed" | "failed" | "cancelled")[]): R;
}

// Keeps the runtime object and the declared types from drifting apart: a matcher added to one
// but not the other is a compile error here.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const sameKeys: SameKeys<typeof mcpMatchers, McpMatchers> = true;
void sameKeys;
