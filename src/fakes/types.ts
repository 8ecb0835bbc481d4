/** The vocabulary of scenario fakes, shared by every module under src/fakes/. */
import type { TaskScript } from "../formats/task-step.js";
import type { ArgsMatcher } from "./args-match.js";
import type { BroadcastNotice, ClientAsk } from "../engine/steps.js";
import type { FaultSpec } from "../engine/interaction/faults.js";

/** A tools/call result as MCP sends it (`CallToolResult`). */
export interface FakeCallResult {
  content: Array<Record<string, unknown>>;
  isError?: boolean;
  /** An object, or in 2026-07-28 any JSON value (left out for a legacy client when it is not an object). */
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `"shared"`, or a test id, a context, or both. */
export type FakeScope = "shared" | { testId?: string; context?: string };

/** One block as a user writes it (the JSON form). */
export interface McpFakeBlock {
  scope: FakeScope;
  mount?: string;
  undeclaredTools?: "deny";
  /** At least one of tools, resources and prompts. */
  tools?: McpFakeTool[];
  resources?: McpFakeResource[];
  prompts?: McpFakePrompt[];
  /** What a recorder replaced with "[redacted]" before writing the block, and where (informational). */
  redacted?: McpFakeRedaction[];
}

/** One value a recorder redacted: the entry it was in (none: the server's info) and its path there. */
export interface McpFakeRedaction {
  tool?: string;
  resource?: string;
  prompt?: string;
  entry?: number;
  path: string;
  rule: string;
}

/** A JSON-RPC error a read or prompt answers with: a message (code -32603), or code, message and data. */
export type McpFakeRpcError = string | { code: number; message: string; data?: unknown };

/** A resource answered by fakes: its reads are used in order, one per `resources/read`. */
export interface McpFakeResource {
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
  /** `fault` delays, hangs, drops or cuts the read (with hang, disconnect or raw it needs no result). */
  reads: Array<{ id?: string; result?: unknown; error?: McpFakeRpcError; fault?: FaultSpec }>;
}

/** A prompt answered by fakes: each `prompts/get` takes its first unused matching entry. */
export interface McpFakePrompt {
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
  /** `fault` delays, hangs, drops or cuts the get (with hang, disconnect or raw it needs no result). */
  gets: Array<{ id?: string; args?: Record<string, unknown>; anyArgs?: true; argsMatch?: Record<string, unknown>; result?: unknown; error?: McpFakeRpcError; fault?: FaultSpec }>;
}

export interface McpFakeTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  calls: McpFakeCall[];
}

export interface McpFakeCall {
  id?: string;
  args?: Record<string, unknown>;
  anyArgs?: true;
  /** A partial match: a subset of keys, `{ "$regex", "$flags"? }` and `{ "$schema" }` leaves (see arg-patterns.ts). */
  argsMatch?: Record<string, unknown>;
  result?: McpFakeResult;
  error?: string;
  /** Instead of a result or an error: one of the mock's JSON steps (a delay, a hang, a disconnect, raw bytes, …). */
  step?: McpFakeStep;
}

/** A mock step as JSON, without `repeat` (an entry answers one call); see the mock's `StepObject`. */
export interface McpFakeStep {
  returns?: unknown;
  content?: unknown[];
  /** An object, or in 2026-07-28 any JSON value (see the mock's `StepOptions.structuredContent`). */
  structuredContent?: unknown;
  toolError?: string;
  throws?: string | { code?: number; message: string; data?: unknown };
  delayMs?: number;
  hang?: boolean;
  result?: unknown;
  disconnect?: boolean;
  raw?: string;
  stream?: { mode?: "json" | "sse"; closeAfterEvents?: number; retryMs?: number };
  /** Requests to make of the client first, in turn (`elicitation/create`, `sampling/createMessage`, `roots/list`, `ping`); then the step's answer. */
  asks?: ClientAsk[];
  broadcast?: BroadcastNotice[];
  endSubscriptions?: boolean;
  /** Answer with a task whose life this scripts, when the client can take one (see the mock's `StepOptions.task`, docs/tasks.md). */
  task?: TaskScript;
}

/** string → text; array → content; full result object; any other object → structuredContent. */
export type McpFakeResult = string | Array<Record<string, unknown>> | Record<string, unknown>;

/** Where a block came from; it decides the block id. */
export type FakeSourceKind = "file" | "code" | "control-api";

/** One entry after loading: its id, what it matches and what it answers. */
export interface FakeEntry extends ArgsMatcher {
  id: string;
  tool: string;
  /** Position in its tool's `calls`. */
  index: number;
  reply: FakeReply;
}

/** What a tool call entry answers: a CallToolResult, or a step for the mock to run. */
export type FakeReply = { result: FakeCallResult } | { step: McpFakeStep };

/** What a resource or prompt entry answers: the method's result as sent, or a JSON-RPC error (or neither, when its fault ends the request), through its fault if it has one. */
export type FakeRpcAnswer = ({ result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } } | { result?: undefined; error?: undefined }) & { fault?: FaultSpec };

/** One resources/read or prompts/get entry after loading (a resource's entries match any read). */
export interface FakeRequestEntry extends ArgsMatcher {
  id: string;
  /** The resource's URI or the prompt's name. */
  name: string;
  index: number;
  answer: FakeRpcAnswer;
}

export interface FakeResourceEntries {
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
  entries: FakeRequestEntry[];
}

export interface FakePromptEntries {
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
  entries: FakeRequestEntry[];
}

export interface FakeToolEntries {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  entries: FakeEntry[];
}

/** One block after loading. */
export interface LoadedBlock {
  blockId: string;
  /** The file name (relative to its fixtures directory) or null for code and the control API. */
  file: string | null;
  mount: string;
  scope: FakeScope;
  deny: boolean;
  tools: Map<string, FakeToolEntries>;
  /** By URI. */
  resources: Map<string, FakeResourceEntries>;
  prompts: Map<string, FakePromptEntries>;
}

/** Every entry of a block: its tools', resources' and prompts'. */
export function* blockEntries(block: LoadedBlock): Generator<{ id: string }> {
  for (const map of [block.tools, block.resources, block.prompts]) for (const item of map.values()) yield* item.entries;
}

/** The identity of one request: each field null when not supplied. */
export interface FakeIdentity {
  testId?: string | null;
  context?: string | null;
  undeclared?: "allow" | "deny" | null;
}

export const DEFAULT_MOUNT = "/mcp";
