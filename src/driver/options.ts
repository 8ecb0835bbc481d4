/** Options of `mcpShell`, `mcpConnect` and `mcpAttach`, and the MCP data types the driver returns. */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  BlobResourceContents,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  InitializeRequestParams,
  InitializeResult,
  Prompt,
  ReadResourceResult as ReadResourceResultData,
  Resource,
  Root,
  ServerCapabilities,
  TextResourceContents,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ServerRequestContext } from "./session.js";

export const DEFAULT_REQUEST_TIMEOUT = 5000;
export const DEFAULT_CLOSE_TIMEOUT = 5000;
export const DEFAULT_CLIENT_INFO: Implementation = { name: "mcp-testkit", version: "0.1.0" };

/** Options every driver takes, whatever the wire. */
export interface DriverOptions {
  /** How long a request may wait for its response, in ms (default 5000). */
  requestTimeout?: number;
  /**
   * The client's roots. Given (even `[]`), the driver declares the `roots` capability and answers
   * `roots/list` with them; `setRoots()` changes them later. Default: no roots capability.
   */
  roots?: Root[];
  /** Answers `sampling/createMessage`; declares the `sampling` capability. Default: an error naming this option. */
  onSampling?: (params: CreateMessageRequestParams, context: ServerRequestContext) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Answers `elicitation/create`; declares the `elicitation` capability. Default: an error naming this option. */
  onElicitation?: (params: ElicitRequestParams, context: ServerRequestContext) => ElicitResult | Promise<ElicitResult>;
  /** The `clientInfo` sent in `initialize` (default `{ name: "mcp-testkit", version }`). */
  clientInfo?: Implementation;
  /** The protocol version asked for in `initialize` (default: the latest mcp-testkit knows, 2025-11-25). */
  protocolVersion?: string;
  /** More client capabilities to declare, merged over those the options imply. */
  capabilities?: ClientCapabilities;
  /**
   * Default true: a result that breaks the negotiated version's schema fails its call with a
   * `ProtocolError`. False: such problems are only recorded (`driver.problems`). Messages that
   * are not JSON-RPC at all always fail.
   */
  strict?: boolean;
  /** How many messages the traffic recorder keeps (default 10 000). */
  maxRecords?: number;
}

/** Options of `mcpShell` (expect-mcp's `MCPStdinSubprocessOptions`, and more). */
export interface McpShellOptions extends DriverOptions {
  /** Print lines the server writes to stdout that are not JSON (to stderr) instead of failing with a ProtocolError. */
  allowDebugLogging?: boolean;
  /** Variables added to this process's environment for the server (the whole environment is inherited). */
  env?: Record<string, string | undefined>;
  /** The server's working directory. */
  cwd?: string;
}

/** expect-mcp's name for the options of `mcpShell`. */
export type MCPStdinSubprocessOptions = McpShellOptions;

/** Options of `mcpConnect` (Streamable HTTP). */
export interface McpConnectOptions extends DriverOptions {
  /** Headers sent with every HTTP request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** A fetch to use instead of the global one. */
  fetch?: FetchLike;
  /** Resume an existing session instead of starting one. */
  sessionId?: string;
}

export type InitializeParams = InitializeRequestParams;

// expect-mcp's type names, for code moving over.
export type MCPTool = Tool;
export type MCPResource = Resource;
export type MCPPrompt = Prompt;
export type MCPCapabilities = ServerCapabilities;
export type MCPInitializeParams = InitializeRequestParams;
export type MCPInitializeResult = InitializeResult;
export type MCPReadResourceResult = ReadResourceResultData;
export type MCPTextResourceContents = TextResourceContents;
export type MCPBlobResourceContents = BlobResourceContents;
export type MCPResourceContents = TextResourceContents | BlobResourceContents;
