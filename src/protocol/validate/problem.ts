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
  | "version.unknown";

export interface ValidationProblem {
  /** JSON path of the offending value, e.g. `$.result.content[0].type`. */
  path: string;
  /** What is wrong and what the schema expected. */
  message: string;
  rule: ValidationRule;
}

export type MessageDirection = "client-to-server" | "server-to-client";

export interface ValidateMessageOptions {
  /** Who sent the message. */
  direction: MessageDirection;
  /** The negotiated protocol version; defaults to the latest we know. */
  protocolVersion?: string;
  /** For a response: the method of the request it answers. Without it only the envelope is checked. */
  requestMethod?: string;
}
