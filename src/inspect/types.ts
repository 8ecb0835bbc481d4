/** The public vocabulary of the recorder: records, problems and options. */
import type { JsonRpcId, JsonRpcMessage } from "../protocol/jsonrpc.js";

/**
 * `outgoing`: sent through the wrapped transport. `incoming`: received from it.
 * `error`: a failed send or a transport error (the record's content is the error message).
 */
export type TrafficDirection = "outgoing" | "incoming" | "error";

/** Which end of the conversation the wrapped transport belongs to. */
export type TrafficSide = "client" | "server";

/** The direction the MCP schema is written in, as `validateMessage` expects it. */
export type WireDirection = "client-to-server" | "server-to-client";

/** One problem the validator found in a message, located by its JSON path. */
export interface MessageProblem {
  path: string;
  message: string;
  rule: string;
}

/** A problem together with the message it was found in, as `recorder.problems` lists it. */
/** The problems of a valid message: one shared empty list, so thousands of records need not each keep one. */
export const NO_PROBLEMS: readonly MessageProblem[] = Object.freeze([]);

/** A validation problem as the recorder keeps it: with when, which direction, and the message's method and id. */
export interface TrafficProblem extends MessageProblem {
  timestamp: number;
  direction: "outgoing" | "incoming";
  method: string | undefined;
  id: JsonRpcId | null | undefined;
}

interface RecordBase {
  /** When it was recorded, in ms since the epoch. */
  readonly timestamp: number;
  /** A request's or notification's method; for a response, the method of the request it answers. */
  readonly method: string | undefined;
  /** The JSON-RPC id, if the message has one. */
  readonly id: JsonRpcId | null | undefined;
  /** For a response: ms since its own request (same id) was recorded. Undefined otherwise. */
  readonly latency: number | undefined;
}

/** One message the recorder saw, sent (`outgoing`) or received (`incoming`). */
export interface MessageRecord extends RecordBase {
  readonly direction: "outgoing" | "incoming";
  /**
   * A deep copy of the message, so later mutation by either end cannot change the record. Over a
   * JSON text wire (stdio) it is parsed from the text that crossed the wire.
   */
  readonly content: JsonRpcMessage;
  /** Present only in strict mode: what the validator found (empty when the message is valid). */
  readonly problems?: readonly MessageProblem[];
}

/** A failure the recorder saw beside the messages (a send that failed, a transport error), in order with them. */
export interface ErrorRecord extends RecordBase {
  readonly direction: "error";
  /** The error's message. */
  readonly content: string;
  readonly latency: undefined;
}

/** One entry of `recorder.records`: a message or a transport error. */
export type TrafficRecord = MessageRecord | ErrorRecord;

/** Options of `recordTraffic()` and `new TrafficRecorder()`: the side wrapped, the record cap, strict validation. */
export interface TrafficRecorderOptions {
  /** The side whose transport is wrapped; decides which direction is client-to-server. Default "client". */
  side?: TrafficSide;
  /** How many records to keep; the oldest are dropped beyond it and counted in `dropped`. Default 10 000. */
  maxRecords?: number;
  /**
   * Validate every message against the MCP schema of the negotiated protocol version.
   * `true` reports problems; `"throw"` also rejects `send` of an invalid outgoing message.
   */
  strict?: boolean | "throw";
  /** Called for each problem found in strict mode, as it is found. */
  onProblem?: (problem: TrafficProblem, record: MessageRecord) => void;
}
