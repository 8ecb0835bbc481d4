/**
 * `mcp-testkit/testing`: a mock MCP server and a connected SDK client for each test, with tool
 * assertions, under Vitest, Jest or `node:test`.
 *
 * - `mcpTestKit(options, hooks?)`: fresh server and client before each test, both closed after.
 * - `createTestKit(options)`: the same for one test, without hooks (`await using`).
 */
export { mcpTestKit, createTestKit, type McpTestKit, type SingleTestKit } from "./test-kit.js";
export { KIT_SERVER_INFO, KIT_CLIENT_INFO, type McpTestKitOptions, type KitClientOptions, type KitTransport } from "./kit-instance.js";
export type { TestHook, TestHooks } from "./hooks.js";
export type { ResultCheck, ToolFailure } from "./tool-assertions.js";
export { onTraceWritten, TRACE_DIR_ENV, traceDirOf, writeTestTrace, type WrittenTrace } from "./failure-traces.js";
