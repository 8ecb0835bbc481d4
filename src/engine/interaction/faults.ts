/**
 * Faults as values any handler can return, as msw's `delay()` is: `delay(ms, value)`,
 * `hang()`, `disconnect()`, `rawBytes(text)` and `cutStream(events, value)`. A resource's read,
 * a prompt's messages, a `server.use()` handler or a tool's step function returns one in place of
 * its answer (or around it); the engine turns it into an outcome, which every wire enacts. The
 * same faults in JSON (`{ "fault": { "delayMs": 500 } }`) are a `FaultSpec`.
 */
import { McpTestkitError } from "../../errors.js";
import { typeLabel } from "../../util/text.js";
import { timerMsProblem } from "../../util/timer-ms.js";
import type { JsonRpcId } from "../../protocol/jsonrpc.js";
import type { Connection } from "../connection.js";
import { CANCELLED, DROP, STREAM_CUT, type Outcome, type StreamHints } from "../outcome.js";
import { faultProblem } from "../../formats/step.js";
import type { Interaction } from "./interaction.js";
import { sleep, untilAbort } from "./waits.js";

/** A fault in data form: what a JSON definition or fixture entry says under `"fault"`. */
export interface FaultSpec {
  /** Answer after this many ms (a cancelled request stops waiting). */
  delayMs?: number;
  /** Never answer: the request waits until the client cancels it or the connection closes. */
  hang?: boolean;
  /** Drop the connection instead of answering (over HTTP the session ends too). */
  disconnect?: boolean;
  /** Write these bytes where the answer would go, unchecked. */
  raw?: string;
  /** How a streaming wire (Streamable HTTP) carries the answer: JSON or SSE, the stream closed after N events. */
  stream?: StreamHints;
}

const FAULT = Symbol.for("mcp-testkit.fault");

/** A handler's answer wrapped in a fault (made by `delay`, `hang`, `disconnect`, `rawBytes`, `cutStream`). */
export interface Fault<T = unknown> {
  readonly [FAULT]: FaultSpec;
  /** The answer the fault wraps (none for `hang`, `disconnect` and `rawBytes`). */
  readonly value?: T;
}

/** Answers `value` after `ms` milliseconds; a cancelled request stops waiting and answers nothing. */
export function delay<T>(ms: number, value?: T): Fault<T> {
  const problem = timerMsProblem("delay", ms);
  if (problem !== undefined) throw new McpTestkitError(`delay(ms, value): ${problem}.`);
  return { [FAULT]: { delayMs: ms }, value };
}

/** Never answers: the request waits until the client cancels it or the connection closes. */
export function hang(): Fault<never> {
  return { [FAULT]: { hang: true } };
}

/** Drops the client's connection instead of answering (over HTTP the session ends too). */
export function disconnect(): Fault<never> {
  return { [FAULT]: { disconnect: true } };
}

/** Writes `text` where the answer would go, unchecked (to test a client's parser). */
export function rawBytes(text: string): Fault<never> {
  if (typeof text !== "string") throw new McpTestkitError(`rawBytes(text) takes the bytes to write as a string, got ${typeLabel(text)}.`);
  return { [FAULT]: { raw: text } };
}

/**
 * Over Streamable HTTP, answers `value` on an SSE stream closed after `closeAfterEvents`
 * message events (0: before any), so the client must resume; `retryMs` is the `retry:` it is
 * told. Other wires answer `value` as usual.
 */
export function cutStream<T>(closeAfterEvents: number, value?: T, options: { retryMs?: number } = {}): Fault<T> {
  return { [FAULT]: { stream: faultStream(closeAfterEvents, options.retryMs) }, value };
}

function faultStream(closeAfterEvents: number, retryMs: number | undefined): StreamHints {
  if (!Number.isInteger(closeAfterEvents) || closeAfterEvents < 0)
    throw new McpTestkitError(`cutStream(closeAfterEvents, value): closeAfterEvents must be a whole number, 0 or more, got ${typeLabel(closeAfterEvents)}.`);
  return retryMs === undefined ? { mode: "sse", closeAfterEvents } : { mode: "sse", closeAfterEvents, retryMs };
}

/** Wraps `value` in the faults of a JSON `spec` (undefined: `value` as it is). */
export function withFault(spec: FaultSpec | undefined, value: unknown): unknown {
  return spec === undefined ? value : { [FAULT]: spec, value };
}

export function isFault(value: unknown): value is Fault {
  return typeof value === "object" && value !== null && FAULT in value;
}

/** The fault's spec and the answer inside it (faults wrapped in faults are merged, the outer first). */
export function unwrapFault(fault: Fault): { spec: FaultSpec; value: unknown } {
  let spec: FaultSpec = { ...fault[FAULT] };
  let value = fault.value;
  // Bounded by the nesting a program wrote; each level is peeled once.
  while (isFault(value)) {
    spec = { ...value[FAULT], ...spec, delayMs: (spec.delayMs ?? 0) + (value[FAULT].delayMs ?? 0) || undefined };
    value = value.value;
  }
  return { spec, value };
}

/** Where the answer goes: what a stream hint needs to know. */
export interface FaultTarget {
  readonly connection: Connection;
  readonly requestId: JsonRpcId;
}

/**
 * Enacts `produced`'s fault, if it is one, for the request `interaction` answers, then answers
 * the value inside with `answer`. In the order a tool's step has them: the stream treatment, the
 * delay, then hang, raw bytes or a dropped connection in place of the answer.
 */
export async function answerThroughFault(produced: unknown, interaction: Interaction, target: FaultTarget, answer: (value: unknown) => Outcome | Promise<Outcome>): Promise<Outcome> {
  if (!isFault(produced)) return answer(produced);
  const { spec, value } = unwrapFault(produced);
  // Hints that cut a stream that cannot be resumed leave no way to answer.
  if (spec.stream !== undefined && !target.connection.prepare(target.requestId, spec.stream)) return STREAM_CUT;
  if (spec.delayMs !== undefined && spec.delayMs > 0) {
    await sleep(spec.delayMs, interaction.signal);
    if (interaction.aborted) return CANCELLED;
  }
  if (spec.hang) {
    await untilAbort(interaction.signal);
    return CANCELLED;
  }
  if (spec.raw !== undefined) return { type: "raw", text: spec.raw };
  if (spec.disconnect) return DROP;
  return answer(value);
}

/** What is wrong with a JSON fault (the one description of a step says it). */
export { faultProblem };

/** Throws a McpTestkitError naming `where` when a JSON fault is malformed. */
export function checkFault(value: unknown, where: string): asserts value is FaultSpec {
  const problem = faultProblem(value);
  if (problem !== undefined) throw new McpTestkitError(`${where}: ${problem}.`);
}

/** Whether a JSON fault ends the request itself (hang, disconnect, raw), so it needs no answer beside it. */
export function faultEndsRequest(spec: FaultSpec | undefined): boolean {
  return spec !== undefined && (spec.hang === true || spec.disconnect === true || spec.raw !== undefined);
}
