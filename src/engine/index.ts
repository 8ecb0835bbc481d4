export { Engine, DEFAULT_PAGE_SIZE, DEFAULT_SERVER_INFO, type EngineOptions, type ReceivedMessage } from "./engine.js";
export type { Outcome, Peer, SendOptions, StreamHints } from "./outcome.js";
export { RpcError } from "./outcome.js";
export type { Step, StepObject, StepFunction, ThrownError } from "./steps.js";
export type { ToolCallContext } from "./call-context.js";
export type { ToolCall, CallOutcome, Exchange } from "./call-log.js";
export { DEFAULT_RECORD_LIMIT } from "./call-log.js";
export type {
  ToolSpec,
  ToolDefinition,
  ResourceSpec,
  ResourceDefinition,
  ResourceContent,
  ResourceReadValue,
  PromptSpec,
  PromptDefinition,
  PromptMessage,
  PromptArgument,
  CompletionSource,
} from "./catalog.js";
export { matches, firstDifference, type Difference } from "./match.js";
export { AssertionError, type CalledOptions } from "./assertions.js";
export type { WaitForCallsOptions } from "./wait-for-calls.js";
export { ServerRequestError, type Session } from "./session.js";
