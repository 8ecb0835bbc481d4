/** What the validator reports, and the options that say how to read a message. */

/** Stable ids for every kind of problem, so callers can filter or count them. */
export type ValidationRule =
  /** The input string is not JSON. */
  | "json.parse"
  /** Not a JSON-RPC message at all (not an object; neither request, notification nor response). */
  | "jsonrpc.message"
  | "jsonrpc.version"
  | "jsonrpc.id"
  | "jsonrpc.method"
  | "jsonrpc.params"
  /** A response without exactly one of `result` and `error`, or with a `result` that is not an object. */
  | "jsonrpc.response"
  /** An `error` that is not `{ code: integer, message: string }`. */
  | "jsonrpc.error"
  /** An error's `data` that does not fit what its code promises (e.g. -32042). */
  | "error.data"
  /** A method the sender may not send in that direction (or at all). */
  | "method.unknown"
  /** A request method sent as a notification, or the other way round. */
  | "method.kind"
  | "params.shape"
  | "result.shape"
  /** Something the protocol version under validation does not have yet (or no longer has). */
  | "version.feature"
  /** The protocol version to validate against is not one the validator knows. */
  | "version.unknown"
  /** An HTTP header the message's POST must carry is missing, malformed or unlike the body (Streamable HTTP). */
  | "http.header";

/** One thing wrong with a message, as the validator reports it: where, what, and the rule it breaks. */
export interface ValidationProblem {
  /** JSON path of the offending value, e.g. `$.result.content[0].type`; `headers.<name>` (lower case) for an HTTP header. */
  path: string;
  /** What is wrong and what the schema expected. */
  message: string;
  rule: ValidationRule;
}

/** Who sent a message to validate: it decides which schema applies (a `tools/call` request or its result). */
export type MessageDirection = "client-to-server" | "server-to-client";

/** How `validateMessage` reads a message: its direction, protocol version and (over HTTP) headers. */
export interface ValidateMessageOptions {
  /** Who sent the message. */
  direction: MessageDirection;
  /** The negotiated protocol version; defaults to the newest legacy one (2025-11-25): a 2026-07-28 message is validated as such only when asked. */
  protocolVersion?: string;
  /** For a response: the method of the request it answers. Without it only the envelope is checked. */
  requestMethod?: string;
  /**
   * The HTTP headers the message came with over Streamable HTTP (a `Headers`, or a record with
   * names in any case): the POST's request headers for a client's message, the response headers
   * for a server's. With them the transport's header rules are checked too: in 2026-07-28
   * `MCP-Protocol-Version` equal to `_meta`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` on
   * requests; in the legacy era `MCP-Protocol-Version` (2025-06-18+) and `Mcp-Session-Id` after
   * `initialize`, and a session id of visible ASCII on the `initialize` answer.
   */
  headers?: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The tools as `tools/list` gave them: their `inputSchema` says which arguments a `tools/call` mirrors into `Mcp-Param-*` headers. Without the called tool, those are not checked. */
  tools?: Iterable<{ readonly name: string; readonly inputSchema?: unknown }>;
  /** The `Mcp-Session-Id` the server gave at `initialize` (legacy era): every later POST must send it back. Without it, the header is not required. */
  sessionId?: string;
}
