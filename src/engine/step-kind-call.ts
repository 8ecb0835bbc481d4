/**
 * What a feature's step kind gets from the tool call it answers: the call's record and request,
 * the step's own answer worked out on demand, and ways to answer the request and end the call's
 * record. The tool-call runtime implements it; a step kind never reaches into that runtime.
 */
import type { JsonRpcErrorObject, JsonRpcId } from "../protocol/jsonrpc.js";
import type { CallEnding, CallOutcome, ToolCall } from "./call-log.js";
import type { Connection } from "./connection.js";
import type { Interaction } from "./interaction/interaction.js";
import type { EngineState } from "./methods/handler-input.js";
import type { Outcome } from "./outcome.js";
import type { RequestContext } from "./request-context.js";
import type { Settled } from "./interaction/handler-run.js";
import type { StepObject } from "./steps.js";

/** A step's answer as data: the result to send, or the JSON-RPC error. */
export type StepAnswer = { readonly result: unknown } | { readonly error: JsonRpcErrorObject };

export interface StepKindCall {
  readonly state: EngineState;
  readonly record: ToolCall;
  /** The request the call answers now (the first, or an MRTR retry's). */
  readonly connection: Connection;
  readonly context: RequestContext;
  readonly replyId: JsonRpcId;
  /** The `tools/call` params as the client sent them. */
  readonly params: Record<string, unknown>;
  /** What the tool declares about this kind of answer (its `execution`, e.g. `{ taskSupport }`), if anything. */
  readonly execution?: Record<string, unknown>;
  /** The step function's interaction, when a function produced the step (its signal, its asks). */
  readonly interaction?: Interaction;
  /** A step function's value still to come (it handed the call to the kind before returning), as data. */
  readonly later?: Promise<Settled<unknown>>;
  /** The answer `step` gives now, as data (no delay, nothing sent, the record left open). */
  answerOf(step: StepObject): StepAnswer;
  /** A step function's value, checked as a step (a thrown or invalid one is the error it answers). */
  stepOf(settled: Settled<unknown>): StepObject | { readonly error: JsonRpcErrorObject };
  /** Answers the request with `result`, leaving the call's record open. */
  reply(result: Record<string, unknown>): Outcome;
  /** Answers the request with `error`, ending the call's record as a protocol error. */
  failWith(error: JsonRpcErrorObject): Outcome;
  /** Ends the call's record (the kind's answer came later, or never will). */
  end(outcome: CallOutcome, ending: CallEnding): void;
}
