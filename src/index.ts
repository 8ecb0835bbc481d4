/**
 * mcp-testkit: test MCP agents, clients and servers. This module is the public API; the
 * engine's own classes (Engine, Connection, outcomes) are internals and not exported.
 *
 * Subpath modules: `mcp-testkit/protocol` (validator, vocabulary), `mcp-testkit/inspect`
 * (recorder), `mcp-testkit/driver` (real servers), `mcp-testkit/observe` (observers, metrics,
 * OpenTelemetry) and `mcp-testkit/simulate` (a request with no socket) are also re-exported here,
 * whole (`export *` at the end). `mcp-testkit/testing` (per-test kit) and
 * `mcp-testkit/vitest` | `jest` | `matchers` (matchers) are not: import them from their subpaths.
 */

// ---- The mock server
/** `mockMcp(options)` starts a scripted mock MCP server; `MockMcpServer` is what it returns. */
export { mockMcp, MockMcpServer } from "./mock/mock-mcp.js";
/** Options of `mockMcp()`, the transports it can serve on, and its record's drop counters. */
export type { MockMcpOptions, MockTransportKind, RecordStats, StdioMockOptions } from "./mock/mock-mcp.js";
/** A protected mock (`mockMcp({ auth })`): its options, `server.auth`, its faults, the record of a sign-in and what a call sees as `call.auth`. */
export { MockAuth } from "./auth/mock-auth.js";
export type { IssueTokenOptions } from "./auth/mock-auth.js";
export type { ClientMetadataDocument, ConsentAnswer, ConsentPolicy, ConsentRequest, MockAuthOptions, PreRegisteredClient } from "./auth/options.js";
export type { AuthFault, AuthFaultKind } from "./auth/faults.js";
export type { AuthEvent, AuthEventKind, AuthJournalQuery, AuthorizationEvent, ChallengeEvent, MetadataEvent, RegistrationEvent, RevocationEvent, TokenEvent } from "./auth/sign-in-record.js";
export type { SignInCounts } from "./auth/assertions.js";
export type { CallerAuth } from "./engine/request-context.js";
/** Every event `server.on()` can listen to, with the payload of each. */
export type {
  MockEvents,
  MessageEvent,
  MockEventName,
  RequestOutcome,
  RequestStartEvent,
  RequestEndEvent,
  SessionOpenEvent,
  SessionCloseEvent,
  StreamOpenEvent,
  StreamCloseEvent,
  StreamCloseReason,
} from "./engine/events.js";
/** Why a request ended with nothing sent; the payloads of the other events `server.on()` hears. */
export type {
  NoReplyCause,
  MessageRejectedEvent,
  HttpRejectedEvent,
  NotificationSentEvent,
  UnknownMirroredHeaderEvent,
  FakeFailureEvent,
  ServerLifecycleEvent,
  ServerFailedToStartEvent,
  ServerStoppedEvent,
} from "./engine/events.js";
/** The default page size of list methods (`pageSize`) and the default `serverInfo` a mock reports. */
export { DEFAULT_PAGE_SIZE, DEFAULT_SERVER_INFO } from "./engine/engine.js";
/** How many calls `server.calls` keeps by default (`recordLimit`); older ones are dropped and counted in `server.recordStats`. */
export { DEFAULT_RECORD_LIMIT } from "./engine/call-log.js";
/** The handler types `server.mount()` takes. */
export type { MountOptions, RouteHandler, WebHandler } from "./wire/http/router.js";
/** The mock's log: `mockMcp({ logger })`, where its lines for people go (stderr by default). */
export type { LogLevel, LogSink } from "./util/log.js";
/** The in-memory transport `server.connectInMemory()` returns (an SDK `Transport`). */
export { MemoryTransport } from "./wire/memory.js";

// ---- Scenario fakes (the mcpFakes fixture format)
/** What `fixtures` takes, and the options of a mock's fakes. */
export type { FixturesOption, FakesBindingOptions as FakesOptions } from "./mock/fakes-binding.js";
/** A mock's fakes (`server.fakes`): inspection, `assertConsumed`, the journal, failure counts. */
export type { Fakes, LoadResult, FakesLogger, JournalEntry, JournalQuery, FakesListing, InspectQuery, McpFakeOutcome } from "./fakes/index.js";
/** Load errors (`rule`, `file`, `blockId`, `entryId`) and the fake errors' codes. */
export { FixtureLoadError, McpFakesAddError, MCP_FAKE_ERROR_CODES, MCP_FAKE_INTERNAL_ERROR } from "./fakes/index.js";
/** The fixture format's types. */
export type { McpFakeBlock, McpFakeTool, McpFakeCall, McpFakeResult, FakeScope, McpFakeErrorCode } from "./fakes/index.js";

// ---- Scripts: steps, tool, resource and prompt specs
/** Steps: what one tool call gets (`returns`, `throws`, `hang`, a function `(call) => step`, ...). */
export type { BroadcastNotice, ClientAsk, Step, StepObject, StepAnswers, StepOptions, StepFunction, ThrownError } from "./engine/steps.js";
/** How a streaming wire carries a step's answer (`stream` on a step). */
export type { StreamHints } from "./engine/outcome.js";
/** What a step function receives: the call, and ways to talk back to the client while it runs. */
export type { ToolCallContext, AskOptions, ElicitAnswer, SampleAnswer, ClientRoot } from "./engine/call-context.js";
/** What the mock does with a call to a tool it does not have (`onUnknownTool`). */
export type { UnknownToolPolicy } from "./engine/step-sources.js";

/** Faults any handler can return (a resource's read, a prompt's messages, a use() handler, a step function), as msw's delay(). */
export { delay, hang, disconnect, rawBytes, cutStream } from "./engine/interaction/faults.js";
export type { Fault, FaultSpec } from "./engine/interaction/faults.js";
/** What a resource's read, a prompt's messages function or a use() handler sees of its request while it runs. */
export type { HandlerView } from "./engine/interaction/run-handler.js";

export { defineFeature } from "./engine/features/user-features.js";
export type { McpFeature, FeatureMethod, McpNotification, ParamsSchema } from "./engine/features/user-features.js";
export type { McpMethodHandler, McpMethodRequest, UnhandledMethodPolicy } from "./engine/features/user-handlers.js";
/** Who is calling, as a wire read it (test id, context); the protocol version per request. */
export type { RequestIdentity } from "./engine/request-context.js";
/** The shapes `tools`, `resources` and `prompts` take in `mockMcp()` options and `setTool()` & co. */
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
} from "./engine/catalog.js";
/** The shapes `skills` (SEP-2640) and `apps` (MCP Apps views) take in `mockMcp()` options. */
export type { SkillSpec, SkillDefinition } from "./engine/skills/skill-catalog.js";
export type { AppSpec, AppDefinition } from "./engine/apps/app-catalog.js";
/** A JSON-RPC error to throw from a resource reader or prompt function, answered as is. */
export { RpcError } from "./engine/outcome.js";
/** The client answered a server request (sampling, elicitation, roots) with an error. */
export { ServerRequestError } from "./engine/connection.js";

// ---- The record and assertions
/** One tool call's record, its outcome, and the requests sent to the client during it. */
export type { ToolCall, CallOutcome, ServerRequestExchange, Exchange, TaskRecord } from "./engine/call-log.js";
export type { CallTask, TaskStart } from "./engine/tasks/task-handle.js";
export type { TaskScript } from "./formats/task-step.js";
export type { TaskExpectations } from "./engine/task-assertions.js";
/** The partial matcher behind `assertCalled(..., { with })`, and where two values first differ. */
export { matches, firstDifference, type Difference } from "./engine/match.js";
/** What `assertCalled` throws, and its options. */
export { AssertionError, type CalledOptions } from "./engine/assertions.js";
/** Options of `server.waitForCalls(count, options)`: which tool, how long, whether only ended calls count. */
export type { WaitForCallsOptions } from "./engine/wait-for-calls.js";
/** The error mcp-testkit throws for a misuse (bad options, a call after close). */
export { McpTestkitError } from "./errors.js";
export type { ErrorHint } from "./errors.js";
/** aimock's config file (`{ "mcp": {...}, "llm": { "fixtures" } }`) as `mockMcp()` options: `mockMcp(fromAimockConfig(config))`. */
export { fromAimockConfig, isAimockConfig, type AimockConfigOptions } from "./mock/aimock-config.js";
/** What `mockMcp()` throws for options with several problems: `problems` lists each, with its rule. */
export { MockOptionsError, type MockOptionProblem } from "./mock/option-problems.js";
export { ListenError, type ListenErrorCode } from "./wire/http/listen-error.js";

// ---- Observe: observers, metrics, OpenTelemetry (also at mcp-testkit/observe)
export * from "./observe/index.js";

// ---- Record: a real server's answers, through a mock, written as fixtures that replay them
export * from "./record/index.js";

// ---- Trace: every message in and out, as JSON Lines; HAR and OTLP both ways (also at mcp-testkit/trace)
export * from "./trace/index.js";
// ---- Snapshots: a server's surface as a file, and the classed diff of two surfaces
export * from "./snapshot/index.js";

// ---- Simulate: a request through a server with no socket (also at mcp-testkit/simulate)
export * from "./simulate/index.js";

// ---- Protocol vocabulary and validator, recorder, driver (also at their subpaths)
export * from "./protocol/index.js";
export * from "./inspect/index.js";
export * from "./driver/index.js";
