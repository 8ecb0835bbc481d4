/**
 * The trace format: one JSON object per line (JSON Lines), written as messages pass, so a crash
 * keeps everything before it. The first line is a `TraceHeader`; every other line is a
 * `TraceEntry`, one JSON-RPC message (or raw bytes) seen by a mock, a driver or the recorder.
 * Directions are absolute (`from: "client" | "server"`), so traces from either side read alike.
 * Credentials never appear: HTTP headers are redacted before an entry is built.
 */
import type { HttpFacts } from "../protocol/http-facts.js";
import type { JsonRpcId, JsonRpcMessage } from "../protocol/jsonrpc.js";

/** The version of this format; a reader refuses a trace of a newer one with a clear error. */
export const TRACE_FORMAT_VERSION = 1;

/** The first line of a trace file. */
export interface TraceHeader {
  readonly type: "mcp-testkit-trace";
  readonly version: typeof TRACE_FORMAT_VERSION;
  /** Who wrote it. */
  readonly source: "mock" | "driver" | "recorder" | "import";
  /** `Date.now()` when the trace began. */
  readonly startedAt: number;
  /** What was traced: the mock's URL or transport, the driver's target (no credentials). */
  readonly target?: string;
}

/** Where a fault of the mock touched a message (see docs/faults.md). */
export type TraceFault = "delay" | "hang" | "disconnect" | "raw" | "cutStream" | "error";

/** One message on the wire. */
export interface TraceEntry {
  /** Position in the trace, from 1, without gaps unless entries were dropped (`dropped` says how many before this one). */
  readonly seq: number;
  /** `Date.now()` when the message was received or sent by the side that traced it. */
  readonly at: number;
  /** Which side sent the message. */
  readonly from: "client" | "server";
  /** The message; absent when bytes that are not JSON-RPC went instead (`raw`). */
  readonly message?: JsonRpcMessage;
  readonly raw?: string;
  readonly wire: "http" | "stdio" | "memory" | "direct" | "attached";
  readonly sessionId?: string;
  readonly testId?: string;
  /** The test's context label (`X-Test-Context`), where one was sent. */
  readonly context?: string;
  /** The protocol revision the message was handled in. */
  readonly protocolVersion?: string;
  /**
   * The client request this message belongs to: the request itself for a request, the request
   * it answers for a response, and for a server request, a notification or an MRTR round, the
   * call it travelled with. This is how a viewer groups a call with everything under it.
   */
  readonly callId?: JsonRpcId;
  /** Over HTTP: method, path, status and headers (credentials redacted). */
  readonly http?: HttpFacts;
  /** A fault the mock applied to this message. */
  readonly fault?: TraceFault;
  /** Problems the validator found in this message, each with its JSON path. */
  readonly problems?: readonly { readonly path: string; readonly message: string }[];
  /** Entries dropped before this one because the trace's bound was reached. */
  readonly dropped?: number;
}

export type TraceLine = TraceHeader | TraceEntry;
