/** What a JSON-RPC channel is given: its limits, how it reads its transport's errors, and where it tells its traffic. */
import type { McpDriverError, ProcessContext } from "./errors.js";
import type { ErrorClassifier } from "./transport-errors.js";
import type { MessageTap } from "./message-tap.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";

/** The error a request gets when the connection ends before its answer. */
export type ClosedError = (method: string, id: JsonRpcId, label: string) => McpDriverError;

export interface ChannelOptions {
  requestTimeout: number;
  /** When false, schema problems in results are recorded but do not fail the call. */
  strict: boolean;
  maxRecords?: number;
  /** The spawned process, to give errors their context. */
  processContext: () => ProcessContext | undefined;
  /** Which transport errors are the server breaking the protocol (the transport's own knowledge). */
  classifyError: ErrorClassifier;
  /** The URL that refused the connection, when a failed send's `error` is that (HTTP); else undefined. */
  refusedAt?: (error: unknown) => string | undefined;
  /** The media type that answered request `id` instead of JSON or an event stream (HTTP), if one did. */
  foreignContentType?: (id: number) => string | undefined;
  tap?: MessageTap; // told every message sent and received (driver.traffic.on("message"))
}
