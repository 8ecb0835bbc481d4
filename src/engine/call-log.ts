/**
 * The record of tool calls: every `tools/call` the mock received, in order, with its outcome.
 * The record is bounded (`limit`, oldest dropped first) so a long-running mock cannot grow
 * without end; `dropped` says how many calls fell off.
 */
import type { JsonRpcErrorObject, JsonRpcId } from "../protocol/jsonrpc.js";
import type { CallerAuth, RequestIdentity } from "./request-context.js";
import { RingBuffer } from "../util/ring-buffer.js";
import type { EventHub } from "./events.js";

export type CallOutcome =
  | "result"
  | "tool-error"
  | "protocol-error"
  | "unknown-tool"
  | "cancelled"
  | "disconnected"
  /** A `raw` step wrote bytes where the reply would go: no JSON-RPC response was sent. */
  | "raw"
  | "pending";

/** A request the mock sent to the client during a call (sampling, elicitation, roots, ping), and its answer. */
export interface ServerRequestExchange {
  method: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: JsonRpcErrorObject;
  sentAt: number;
  answeredAt?: number;
}

/** @deprecated Renamed `ServerRequestExchange` (an HTTP request and its response is an `HttpExchange`); this name goes in the next major release. */
export type Exchange = ServerRequestExchange;

export interface ToolCall {
  tool: string;
  /** The arguments exactly as the client sent them (`{}` when it sent none, or sent something that is not an object). */
  arguments: Record<string, unknown>;
  /** Only when the client sent `arguments` that are not an object (`null`, a string, an array...): that value, as sent. */
  rawArguments?: unknown;
  /** 0 for the first call to this tool, 1 for the second, and so on. */
  index: number;
  outcome: CallOutcome;
  startedAt: number;
  endedAt?: number;
  sessionId: string;
  /** The protocol version the request spoke. */
  protocolVersion: string;
  /** Who called (test id, context, undeclared policy), when the request said. */
  identity?: RequestIdentity;
  /** Who signed in (client id, subject, scopes), when the mock is protected (`mockMcp({ auth })`). */
  auth?: CallerAuth;
  /** The scenario fake that answered, by entry id (or the fake failure's code), when fakes answered. */
  fake?: string;
  /** The request's `params._meta`, if any (progress token, trace ids, ...). */
  meta?: Record<string, unknown>;
  requestId: JsonRpcId;
  /**
   * The step's answer: a result or a JSON-RPC error, the same in both eras (one assertion serves
   * both); a 2026-07-28 client gets the result with `resultType` and the server's `_meta` added.
   */
  response?: { result?: unknown; error?: JsonRpcErrorObject };
  /** Why a call ended with no answer (`cancelled` or `disconnected`). */
  reason?: string;
  /** Requests sent to the client during the call, with the answers. */
  exchanges: ServerRequestExchange[];
  /** When the call was answered with a task: the task's life as the client saw it and drove it. */
  task?: TaskRecord;
}

/** A task's life on its call's record (the call ends when the task does, with the task's outcome). */
export interface TaskRecord {
  id: string;
  /** Every status the task went through, in order, with its status message and when. */
  statuses: Array<{ status: string; message?: string; at: number }>;
  /** Every `tasks/get` (and 2025-11-25 `tasks/result`) for the task, with the status it answered. */
  polls: Array<{ method: string; at: number; status: string }>;
  /** Every `tasks/update`: the keys it answered, and which of them the task was waiting for. */
  updates: Array<{ at: number; keys: string[]; accepted: string[] }>;
  /** Every `tasks/cancel`, with the status the task had when it arrived. */
  cancels: Array<{ at: number; status: string }>;
}

/**
 * Calls (and messages) a mock keeps by default: far more than a test asserts on, few enough that
 * the record stays in V8's young generation under load. Ten times this cost about 4% of the
 * server's CPU per call at concurrency 32 (records outliving scavenges are promoted and marked;
 * bench/README.md, "The record's size"), for calls a test hardly ever reads.
 */
export const DEFAULT_RECORD_LIMIT = 1_000;

export interface CallEnding {
  result?: unknown;
  error?: JsonRpcErrorObject;
  reason?: string;
}

export class CallLog {
  private readonly entries: RingBuffer<ToolCall>;
  private readonly counts = new Map<string, number>();

  /** `events` hears `call:start` and `call:end`. */
  constructor(
    limit: number = DEFAULT_RECORD_LIMIT,
    private readonly events?: EventHub,
  ) {
    this.entries = new RingBuffer(limit);
  }

  /** The per-tool index the next call to `tool` gets (counts survive the cap). */
  nextIndex(tool: string): number {
    const index = this.counts.get(tool) ?? 0;
    this.counts.set(tool, index + 1);
    return index;
  }

  add(call: ToolCall): void {
    this.entries.push(call);
    this.events?.emit("call:start", call);
  }

  /** Ends a call's record; a call that already ended (cancelled meanwhile) keeps its first ending. */
  end(call: ToolCall, outcome: CallOutcome, ending: CallEnding = {}): boolean {
    if (call.outcome !== "pending") return false;
    call.outcome = outcome;
    call.endedAt = Date.now();
    if (ending.reason !== undefined) call.reason = ending.reason;
    if (ending.result !== undefined) call.response = { result: ending.result };
    else if (ending.error !== undefined) call.response = { error: ending.error };
    this.events?.emit("call:end", call);
    return true;
  }

  all(): ToolCall[] {
    return this.entries.toArray();
  }

  forTool(tool: string): ToolCall[] {
    return this.entries.filter((call) => call.tool === tool);
  }

  get dropped(): number {
    return this.entries.dropped;
  }

  /** How many calls the record keeps (`recordLimit`). */
  get limit(): number {
    return this.entries.capacity;
  }

  clear(): void {
    this.entries.clear();
    this.counts.clear();
  }
}
