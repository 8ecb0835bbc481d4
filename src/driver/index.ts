/**
 * The driver: test a real MCP server (stdio or Streamable HTTP) or a mock, as a good client would.
 *
 * - `mcpShell(command, options)`: spawn a stdio server; `mcpConnect(url, options)`: Streamable HTTP;
 *   `mcpAttach(transport, options)`: any SDK-shaped transport (a mock's `connectInMemory()`).
 * - The era (`versionNegotiation`: `"auto"` by default — probe `server/discover`, fall back to
 *   `initialize` — or `"legacy"`, or `{ pin: "2026-07-28" }`); in 2026-07-28 `discover`, `listen`
 *   (`subscriptions/listen`), input rounds (MRTR) answered by the same handlers, and list changes
 *   followed through the driver's own subscription (`followListChanges`, `listChangeSubscription`).
 * - One API for all (`McpDriver`): `initialize`, `getTools` / `getResources` / `getResourceTemplates` /
 *   `getPrompts` (all pages), `hasTool` / `hasResource` / `hasResourceTemplate` / `hasPrompt`,
 *   `callTool`, `readResource`, `getPrompt`, `complete`, `setLoggingLevel`, `subscribeResource`,
 *   `ping`, `request`, `notify`, `setRoots`, notifications (`notifications`, `waitForNotification`,
 *   `onNotification`), the traffic `recorder`, `problems`, `protocolErrors` / `protocolErrorCount`,
 *   `close(timeoutMs | { timeoutMs, allowFailure })`, `closeError`, `exitCode` / `exitSignal`, and
 *   `await using` (which never throws: a bad exit goes to `closeError` and one stderr line).
 * - Results with helpers (`ToolCallResult`, `ReadResourceResult`, `GetPromptResult`) and errors
 *   with context (`ProtocolError`, `ToolCallError`, `ProcessFailedToStart`, ...).
 */
export { mcpShell, mcpConnect, mcpAttach, MCPStdinSubprocess } from "./connect.js";
export {
  McpDriver,
  type DriverConnection,
  type ListOptions,
  type CloseOptions,
  type WaitForNotificationOptions,
  type CompletionReference,
  type RejectedTool,
  type DiscoverResult,
  type DriverEra,
  type ListenFilter,
  type SubscriptionEnd,
  Subscription,
} from "./driver.js";
export {
  DEFAULT_REQUEST_TIMEOUT,
  DEFAULT_CLOSE_TIMEOUT,
  type DriverOptions,
  type McpShellOptions,
  type McpConnectOptions,
  type MCPStdinSubprocessOptions,
  type VersionNegotiation,
  type InitializeParams,
  type MCPTool,
  type MCPResource,
  type MCPPrompt,
  type MCPCapabilities,
  type MCPInitializeParams,
  type MCPInitializeResult,
  type MCPReadResourceResult,
  type MCPTextResourceContents,
  type MCPBlobResourceContents,
  type MCPResourceContents,
} from "./options.js";
export { ToolCallResult, ReadResourceResult, GetPromptResult, type ContentType, type ContentOfType, type ResourceContents } from "./results.js";
export {
  McpDriverError,
  ProtocolError,
  RequestFailedError,
  ToolCallError,
  ResourceCallError,
  PromptCallError,
  RequestTimeoutError,
  ConnectionClosedError,
  ProcessFailedToStart,
  ProcessExitWhileWaitingForResponse,
  ProcessDidNotExit,
  ProcessExitedWithError,
  type ProcessContext,
} from "./errors.js";
/** Throw from `onSampling` / `onElicitation` to answer with this JSON-RPC error (`JsonRpcFailure` is its former name). */
export { RpcError, RpcError as JsonRpcFailure } from "../protocol/rpc-error.js";
export { type CallOptions, type ProgressParams, type ReceivedNotification, type ServerRequestContext } from "./session.js";
export {
  DRIVER_MARKER,
  TOOL_CALL_RESULT_MARKER,
  READ_RESOURCE_RESULT_MARKER,
  PROMPT_RESULT_MARKER,
  isMcpDriver,
  isToolCallResult,
  isReadResourceResult,
  isGetPromptResult,
} from "./markers.js";
export { StdioProcessTransport, type StdioProcessOptions } from "./stdio-process.js";
