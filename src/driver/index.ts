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
/** The three ways to get a driver (stdio, Streamable HTTP, any transport); `MCPStdinSubprocess` is expect-mcp's name, for code moving over. */
export { mcpShell, mcpConnect, mcpAttach, MCPStdinSubprocess } from "./connect.js";
/** The driver, what it connects over, and the options and results of its methods (lists, close, notifications, `complete`, `discover`, `listen`). */
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
  type ToolCallOptions,
  type StartTaskOptions,
  type ListenFilter,
  type SubscriptionEnd,
  Subscription,
} from "./driver.js";
/**
 * The driver's options (`DriverOptions`, and per constructor), its default timeouts in ms, and
 * the SDK types it speaks in; the `MCP*` names are expect-mcp's, for code moving over.
 */
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
/** What `callTool`, `readResource` and `getPrompt` return (the result with helpers), and the content types they filter by. */
export { ToolCallResult, ReadResourceResult, GetPromptResult, type ContentType, type ContentOfType, type ResourceContents } from "./results.js";
/** Skills (SEP-2640) as the driver reads them: listed, then each file verified when read. */
export { SkillVerificationError, type Skill, type SkillFile, type SkillFileEntry, type SkillVerificationCheck } from "./skills.js";
/** What the driver throws, each with the context to act on (the request, the server's stderr, the exit code). */
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
  renderDriverError,
  type Audience,
  type DriverHint,
  type DeclarableCapability,
  type MessagePart,
  type NegotiationModeAsked,
  type SendFailure,
} from "./errors.js";
/** Signing in to an OAuth-protected server (`mcpConnect(url, { auth })`): its options, its error, and where credentials are kept. */
export type { ConnectAuth } from "./auth/options.js";
export { SignInError, type SignInFailure } from "./auth/sign-in-error.js";
export { memoryTokenStore, type TokenStore, type StoredCredentials } from "./auth/token-store.js";
export type { AuthSetting } from "./error-rendering.js";
/** Tool calls run as tasks: the handle `startTask` gives, what it reads of a task, and what it throws (`TaskError`, with a `reason`). */
export { TaskHandle } from "./task-handle.js";
export { TaskError, type TaskFailure } from "./task-errors.js";
export { TASKS_EXTENSION } from "./task-wire.js";
export { DEFAULT_TASK_DEADLINE_MS, DEFAULT_TASK_POLL_INTERVAL_MS, type TaskOptions, type TaskSnapshot, type TaskStatus, type TaskStatusChange } from "./task-types.js";
/** `driver.process` (the spawned server) and `driver.traffic` (what was recorded). */
export { ServerProcess } from "./server-process.js";
export { DriverTraffic } from "./traffic.js";
/** What `driver.traffic.on("message")` hears: each message sent or received, with its HTTP facts (credentials redacted). */
export type { DriverMessageEvent } from "./message-tap.js";
export type { HttpFacts } from "../protocol/http-facts.js";
/** Throw from `onSampling` / `onElicitation` to answer with this JSON-RPC error (`JsonRpcFailure` is its former name). */
export { RpcError, RpcError as JsonRpcFailure } from "../protocol/rpc-error.js";
/** Per-call options (timeout, abort signal, progress), a progress notification's params, a received notification, and what a server-request handler (`onSampling`, ...) is given. */
export type { CallOptions, CallServerRequestHandler, ProgressParams, ReceivedNotification, ServerRequestContext } from "./rpc-channel.js";
/** Type guards that recognise a driver or a driver's result from any copy of mcp-testkit (no `instanceof`), and the marker symbols behind them. */
export {
  DRIVER_MARKER,
  TOOL_CALL_RESULT_MARKER,
  READ_RESOURCE_RESULT_MARKER,
  PROMPT_RESULT_MARKER,
  TASK_HANDLE_MARKER,
  isMcpDriver,
  isTaskHandle,
  isToolCallResult,
  isReadResourceResult,
  isGetPromptResult,
} from "./markers.js";
/** The transport `mcpShell` spawns a server with, as an SDK `Transport` (for an SDK `Client` against a spawned server). */
export { StdioProcessTransport, type StdioProcessOptions } from "./stdio-process.js";
