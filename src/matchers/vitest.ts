/**
 * `import "mcp-testkit/vitest"` (in a test file or a `setupFiles` entry): adds the MCP matchers
 * to Vitest's `expect` and to its types.
 *
 *   await expect(driver).toHaveTool("read_file");
 *   expect(await driver.callTool("read_file", { path: "a.txt" })).toHaveTextContent("hello");
 */
import { expect } from "vitest";
import * as vitest from "vitest";
import { mcpMatchers, type McpMatchers } from "./matchers.js";
import { useVitestSnapshots, type VitestSnapshots } from "./snapshot-matcher.js";

expect.extend(mcpMatchers);
// Vitest 4.1 and later: the snapshot store toMatchServerSnapshot keeps the surface in (undefined before).
useVitestSnapshots((vitest as { Snapshots?: VitestSnapshots }).Snapshots);

declare module "vitest" {
  // Since Vitest 3.2 this one interface types `expect(x).toX()`; the type parameter must stay as Vitest declares it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars
  interface Matchers<T = any> extends McpMatchers<void> {}
}

export { mcpMatchers };
export type { McpMatchers, ToolExpectation, ToolCalledOptions, TaskFailureExpectation, McpMatcherResult } from "./matchers.js";
