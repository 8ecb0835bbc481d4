/** The vocabulary of scenario fakes, shared by every module under src/fakes/. */
import type { ArgsMatcher } from "./args-match.js";

/** A tools/call result as MCP sends it (`CallToolResult`). */
export interface FakeCallResult {
  content: Array<Record<string, unknown>>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
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
  tools: McpFakeTool[];
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
  result: FakeCallResult;
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
}

/** The identity of one request: each field null when not supplied. */
export interface FakeIdentity {
  testId?: string | null;
  context?: string | null;
  undeclared?: "allow" | "deny" | null;
}

export const DEFAULT_MOUNT = "/mcp";
