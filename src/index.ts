/**
 * mcp-testkit: test MCP agents, clients and servers.
 *
 * - `mockMcp(options)`: a scripted mock MCP server (tools with per-call steps and failures on
 *   demand, resources, prompts), its call record and assertions.
 * - `matches(actual, expected)`: the partial matcher that `assertCalled(..., { with })` uses.
 * - The validator and protocol vocabulary: also at `mcp-testkit/protocol`.
 * - The traffic recorder: also at `mcp-testkit/inspect`.
 * - The per-test kit: `mcp-testkit/testing`.
 * - The driver for real servers (`mcpShell`, `mcpConnect`, `mcpAttach`): also at `mcp-testkit/driver`.
 * - Vitest / Jest matchers: `mcp-testkit/vitest`, `mcp-testkit/jest`, `mcp-testkit/matchers`.
 */
export { mockMcp, MockMcpServer, type MockMcpOptions, type RecordStats, type MockTransportKind, type MockEvents } from "./mock/mock-mcp.js";
export * from "./engine/index.js";
export { McpTestkitError } from "./errors.js";
export { MemoryTransport } from "./wire/memory.js";
export * from "./protocol/index.js";
export * from "./inspect/index.js";
export * from "./driver/index.js";
