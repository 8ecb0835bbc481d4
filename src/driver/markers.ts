/**
 * Marker properties that say what an object is without `instanceof`, so the matchers recognise a
 * driver or a result made by another copy of this package (a duplicated install, CJS and ESM).
 * `Symbol.for` gives every copy the same symbols.
 */
import type { McpDriver } from "./driver.js";
import type { GetPromptResult, ReadResourceResult, ToolCallResult } from "./results.js";
import type { TaskHandle } from "./task-handle.js";

/** Set to `true` on every `McpDriver`; what `isMcpDriver` looks for (the same symbol in every copy of the package). */
export const DRIVER_MARKER: unique symbol = Symbol.for("mcp-testkit.driver");
/** Set to `true` on every `ToolCallResult`; what `isToolCallResult` looks for. */
export const TOOL_CALL_RESULT_MARKER: unique symbol = Symbol.for("mcp-testkit.toolCallResult");
/** Set to `true` on every `ReadResourceResult`; what `isReadResourceResult` looks for. */
export const READ_RESOURCE_RESULT_MARKER: unique symbol = Symbol.for("mcp-testkit.readResourceResult");
/** Set to `true` on every `GetPromptResult`; what `isGetPromptResult` looks for. */
export const PROMPT_RESULT_MARKER: unique symbol = Symbol.for("mcp-testkit.promptResult");
/** Set to `true` on every `TaskHandle`; what `isTaskHandle` looks for. */
export const TASK_HANDLE_MARKER: unique symbol = Symbol.for("mcp-testkit.taskHandle");

function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

/** Whether `value` is a driver (from `mcpShell`, `mcpConnect` or `mcpAttach`), from any copy of mcp-testkit. */
export function isMcpDriver(value: unknown): value is McpDriver {
  return hasMarker(value, DRIVER_MARKER);
}

/** Whether `value` is a driver's `callTool` result (a `ToolCallResult`, with its helpers), from any copy of mcp-testkit; for matchers and helpers that take either a result or a raw object. */
export function isToolCallResult(value: unknown): value is ToolCallResult {
  return hasMarker(value, TOOL_CALL_RESULT_MARKER);
}

/** Whether `value` is a driver's `readResource` result (a `ReadResourceResult`), from any copy of mcp-testkit. */
export function isReadResourceResult(value: unknown): value is ReadResourceResult {
  return hasMarker(value, READ_RESOURCE_RESULT_MARKER);
}

/** Whether `value` is a driver's `getPrompt` result (a `GetPromptResult`), from any copy of mcp-testkit. */
export function isGetPromptResult(value: unknown): value is GetPromptResult {
  return hasMarker(value, PROMPT_RESULT_MARKER);
}

/** Whether `value` is a task handle (from `startTask`), from any copy of mcp-testkit. */
export function isTaskHandle(value: unknown): value is TaskHandle {
  return hasMarker(value, TASK_HANDLE_MARKER);
}
