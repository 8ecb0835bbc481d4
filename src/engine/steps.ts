/**
 * Steps: what one tool call gets. A tool's script is a list of steps; call n takes step n and
 * the last step repeats. This module defines the step vocabulary, checks steps given by the
 * user (so a typo fails at `mockMcp()` time with a clear message, not silently at call time),
 * and walks a script.
 */
import { McpTestkitError } from "../errors.js";
import type { ToolCallContext } from "./call-context.js";
import type { StreamHints } from "./outcome.js";
import type { Fault } from "./interaction/faults.js";
import { RpcError } from "../protocol/rpc-error.js";
import { typeLabel } from "../util/text.js";
import { timerMsProblem } from "../util/timer-ms.js";
import { checkKeys, checkValueKinds } from "./spec-checks.js";
import { ServerRequestError } from "./connection.js";
import { closest } from "../util/closest.js";
import { versionHas } from "../protocol/versions.js";
import { BroadcastNotificationMethods, ServerRequestMethods } from "../protocol/methods.js";

/** A JSON-RPC error to answer with instead of a result. */
export interface ThrownError {
  code?: number;
  message: string;
  data?: unknown;
}

/** The ways a step can answer; a step gives at most one of them (none: an empty result). */
export interface StepAnswers {
  /** A result: a string becomes one text block; anything else is sent as JSON text (and as
   * `structuredContent` when the tool has an `outputSchema` whose root type admits the value:
   * an object for an object schema; in 2026-07-28, any JSON value the schema's type names). */
  returns?: unknown;
  /** A result with these content blocks. */
  content?: unknown[];
  /** A failed tool run: `isError: true` with this message as text. */
  toolError?: string;
  /** A JSON-RPC error instead of a result (default code -32603). */
  throws?: string | ThrownError;
  /** Never answer, until the client cancels or the connection or server closes. */
  hang?: boolean;
  /** This exact JSON-RPC `result`, unchecked, to test how a client handles a malformed reply. */
  result?: unknown;
  /** Drop the connection mid-call. */
  disconnect?: boolean;
  /** Write these bytes where the reply would go (not JSON-RPC, not even JSON, if you like). */
  raw?: string;
  /**
   * 2026-07-28 raw control of MRTR: answer `resultType: "input_required"` with these
   * `inputRequests` and/or `requestState`, sent as given. The client's retry is the tool's next
   * call (its next step), and a `requestState` given here is passed through unchecked.
   */
  inputRequired?: { inputRequests?: Record<string, unknown>; requestState?: string };
}

/** What any step may add to its answer: structured content, a delay, how it is streamed, how often it repeats. */
export interface StepOptions {
  /**
   * Sent with `content` (only in protocol versions that have it): an object, or in 2026-07-28
   * any JSON value (a legacy client's result leaves a non-object out: its revision has objects only).
   */
  structuredContent?: unknown;
  /**
   * Wait this long before answering, in ms; a cancelled call stops waiting. At most 2147483647
   * (about 24.8 days, the longest a timer holds): a longer delay is refused, not shortened. To
   * never answer, use `hang`.
   */
  delayMs?: number;
  /** How a streaming wire (Streamable HTTP) carries this answer: JSON or SSE, closing the stream early. */
  stream?: StreamHints;
  /** Use this step for this many calls in a row. */
  repeat?: number;
  /**
   * Requests to make of the client first, one after another, each waiting for its answer (in
   * 2026-07-28 each is an MRTR round); then the step answers as it says, whatever the client
   * answered (the answers are in the call record's `exchanges`). What a replayed recording uses.
   */
  asks?: ClientAsk[];
  /**
   * Notifications to send every client before answering (after the asks), as `call.broadcast()`
   * does: legacy sessions get them, and 2026-07-28 `subscriptions/listen` streams that opted in.
   * A list change (`notifications/tools/list_changed`, `…/resources/list_changed`,
   * `…/prompts/list_changed`) or `notifications/resources/updated` with its `{ uri }`.
   */
  broadcast?: BroadcastNotice[];
  /** End every open `subscriptions/listen` before answering (each gets its closing result), as `call.endSubscriptions()` does. */
  endSubscriptions?: boolean;
}

/** One notification a step sends every client (see `StepOptions.broadcast`). */
export interface BroadcastNotice {
  method: (typeof BroadcastNotificationMethods)[number];
  params?: Record<string, unknown>;
}

/** One request a step makes of the client (`elicitation/create`, `sampling/createMessage`, `roots/list` or `ping`). */
export interface ClientAsk {
  method: string;
  params?: Record<string, unknown>;
}

/** `hang` and `disconnect` are plain booleans in the type (a step built in a variable widens `false` to boolean); `hang: true` beside another answer is refused at run time. */
type FlagKey = "hang" | "disconnect";

/**
 * One answer key with the others absent, so `{ returns: 1, toolError: "x" }` fails to compile
 * as it fails at run time.
 */
type OneAnswer = {
  [K in Exclude<keyof StepAnswers, FlagKey>]: Pick<StepAnswers, K | FlagKey> & { [Other in Exclude<keyof StepAnswers, K | FlagKey>]?: undefined };
}[Exclude<keyof StepAnswers, FlagKey>];

/** A scripted answer: at most one of `StepAnswers`, with any of `StepOptions`. */
export type StepObject = OneAnswer & StepOptions;

/** A step worked out from the call, for answers that depend on the arguments. May be async. */
/** A step function may also return a fault (`delay(ms, step)`, `hang()`…), the step that says the same. */
export type StepFunction = (call: ToolCallContext) => StepObject | Fault<StepObject> | Promise<StepObject | Fault<StepObject>>;

export type Step = StepObject | StepFunction;

/** Exactly one of these says what kind of answer a step gives. */
const ANSWER_KEYS = ["returns", "content", "toolError", "throws", "hang", "result", "disconnect", "raw", "inputRequired"] as const;
export const STEP_KEYS: ReadonlySet<string> = new Set<string>([...ANSWER_KEYS, "structuredContent", "delayMs", "repeat", "stream", "asks", "broadcast", "endSubscriptions"]);

export type AnswerKind = (typeof ANSWER_KEYS)[number] | "empty";

/** The flags `hang` and `disconnect` set to false give no answer; any other value of an answer key is one (`returns: false` answers "false"). */
const FLAG_KEYS: ReadonlySet<string> = new Set<FlagKey>(["hang", "disconnect"]);

function givesAnswer(step: Record<string, unknown>, key: string): boolean {
  const value = step[key];
  return value !== undefined && !(value === false && FLAG_KEYS.has(key));
}

/** Which answer a (checked) step gives; `empty` is a step with only `delayMs` or nothing. */
export function answerKind(step: StepObject): AnswerKind {
  for (const key of ANSWER_KEYS) if (givesAnswer(step as Record<string, unknown>, key)) return key;
  return "empty";
}

export function isStepKey(key: string): boolean {
  return STEP_KEYS.has(key);
}

/** Throws a McpTestkitError naming `where` when a step object is malformed. */
export function checkStep(step: unknown, where: string): asserts step is Step {
  if (typeof step === "function" || isPlainAnswer(step)) return;
  if (typeof step !== "object" || step === null || Array.isArray(step)) {
    throw new McpTestkitError(`${where} must be a step object or a function (call) => step, got ${typeLabel(step)}.`);
  }
  checkKeys(step, STEP_KEYS, where, `A step takes ${[...STEP_KEYS].map((k) => `"${k}"`).join(", ")}`);
  const record = step as Record<string, unknown>;
  const answers = ANSWER_KEYS.filter((key) => givesAnswer(record, key));
  if (answers.length > 1) {
    throw new McpTestkitError(`${where} gives ${answers.map((k) => `"${k}"`).join(" and ")}; a step gives one answer.`);
  }
  checkValueKinds(record, { hang: "boolean", disconnect: "boolean", endSubscriptions: "boolean" }, where);
  if (record.structuredContent !== undefined && record.returns !== undefined) {
    throw new McpTestkitError(
      `${where} gives "returns" and "structuredContent"; "returns" makes the whole result (a value the tool's outputSchema admits is also its structuredContent), so give it alone, or "content" with "structuredContent".`,
    );
  }
  if (record.structuredContent !== undefined && record.content === undefined) {
    throw new McpTestkitError(`${where} has "structuredContent" without "content"; send both, or use "returns".`);
  }
  if (record.content !== undefined && !Array.isArray(record.content)) {
    throw new McpTestkitError(`${where}: "content" must be an array of content blocks, got ${typeLabel(record.content)}.`);
  }
  if (record.toolError !== undefined && typeof record.toolError !== "string") {
    throw new McpTestkitError(`${where}: "toolError" must be a string, got ${typeLabel(record.toolError)}.`);
  }
  if (record.throws !== undefined) checkThrows(record.throws, where);
  if (record.raw !== undefined && typeof record.raw !== "string") {
    throw new McpTestkitError(`${where}: "raw" must be a string (the bytes to write), got ${typeLabel(record.raw)}.`);
  }
  if (record.stream !== undefined) checkStreamHints(record.stream, where);
  if (record.inputRequired !== undefined) checkInputRequired(record.inputRequired, where);
  if (record.asks !== undefined) checkAsks(record.asks, record, where);
  if (record.broadcast !== undefined) checkBroadcast(record.broadcast, where);
  const delayProblem = record.delayMs === undefined ? undefined : timerMsProblem("delayMs", record.delayMs);
  if (delayProblem !== undefined) throw new McpTestkitError(`${where}: ${delayProblem}.`);
  if (record.repeat !== undefined && !(Number.isInteger(record.repeat) && (record.repeat as number) >= 1)) {
    throw new McpTestkitError(`${where}: "repeat" must be a whole number of calls, 1 or more, got ${typeLabel(record.repeat)}.`);
  }
}

/** Keys whose value any JSON can be: a step of one of these alone needs no further check. */
const FREE_ANSWER_KEYS: ReadonlySet<string> = new Set(["returns", "result"]);

/**
 * `{ returns: x }` (or `{ result: x }`) and nothing else: what most step functions give back on
 * every call, checked here without the allocations of the full check.
 */
function isPlainAnswer(step: unknown): boolean {
  if (typeof step !== "object" || step === null || Array.isArray(step) || Object.getPrototypeOf(step) !== Object.prototype) return false;
  let only: string | undefined;
  for (const key in step) {
    if (only !== undefined || !FREE_ANSWER_KEYS.has(key)) return false;
    only = key;
  }
  return only !== undefined;
}

export function checkStreamHints(value: unknown, where: string): void {
  const hints = value as Record<string, unknown>;
  const ok =
    typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.keys(hints).every((key) => ["mode", "closeAfterEvents", "retryMs"].includes(key)) &&
    (hints.mode === undefined || hints.mode === "json" || hints.mode === "sse") &&
    (hints.closeAfterEvents === undefined || (Number.isInteger(hints.closeAfterEvents) && (hints.closeAfterEvents as number) >= 0)) &&
    (hints.retryMs === undefined || (Number.isInteger(hints.retryMs) && (hints.retryMs as number) >= 0));
  if (!ok) {
    throw new McpTestkitError(`${where}: "stream" must be { mode?: "json" | "sse", closeAfterEvents?: whole number, retryMs?: whole number of ms }, got ${typeLabel(value)}.`);
  }
}

function checkInputRequired(value: unknown, where: string): void {
  const given = value as Record<string, unknown>;
  const ok =
    typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.keys(given).every((key) => key === "inputRequests" || key === "requestState") &&
    (given.inputRequests !== undefined || given.requestState !== undefined) &&
    (given.inputRequests === undefined || (typeof given.inputRequests === "object" && given.inputRequests !== null && !Array.isArray(given.inputRequests))) &&
    (given.requestState === undefined || typeof given.requestState === "string");
  if (!ok) {
    throw new McpTestkitError(`${where}: "inputRequired" must be { inputRequests?: { key: { method, params } }, requestState?: string } with at least one of them (the spec requires one), got ${typeLabel(value)}.`);
  }
}

function checkAsks(value: unknown, step: Record<string, unknown>, where: string): void {
  // A step may ask what a server may: MCP's client features, and ping.
  checkMessageList(value, where, { key: "asks", one: "An ask", methods: ServerRequestMethods, what: "requests to make of the client", whatMethod: "the requests a server makes of its client", params: "the request's params" });
  if (step.inputRequired !== undefined) {
    throw new McpTestkitError(`${where} gives "asks" and "inputRequired"; "asks" makes the input rounds itself (in both eras), "inputRequired" scripts one by hand: give one of them.`);
  }
}

function checkBroadcast(value: unknown, where: string): void {
  checkMessageList(value, where, { key: "broadcast", one: "A broadcast notification", methods: BroadcastNotificationMethods, what: "notifications to send every client", whatMethod: "what a server tells every client when something changed", params: "the notification's params" });
  (value as Array<Record<string, unknown>>).forEach(({ method, params }, index) => {
    if (method === "notifications/resources/updated" && typeof (params as Record<string, unknown> | undefined)?.uri !== "string") {
      throw new McpTestkitError(`${where}: broadcast[${index}]: notifications/resources/updated names the resource that changed: give params: { uri: "…" }.`);
    }
  });
}

/** A step's list of `{ method, params? }` messages (its asks, its broadcast): each a known method, with object params. */
function checkMessageList(
  value: unknown,
  where: string,
  /** `one` names one message, article and all ("An ask"); the rest fill in the messages. */
  list: { key: string; one: string; methods: readonly string[]; what: string; whatMethod: string; params: string },
): void {
  if (!Array.isArray(value)) {
    throw new McpTestkitError(`${where}: "${list.key}" must be a list of { method, params? } ${list.what}, got ${typeLabel(value)}.`);
  }
  value.forEach((message: unknown, index) => {
    const at = `${where}: ${list.key}[${index}]`;
    if (typeof message !== "object" || message === null || Array.isArray(message)) throw new McpTestkitError(`${at} must be { method, params? }, got ${typeLabel(message)}.`);
    checkKeys(message, new Set(["method", "params"]), at, `${list.one} takes "method" and "params"`);
    const { method, params } = message as Record<string, unknown>;
    if (typeof method !== "string" || !list.methods.includes(method)) {
      const guess = typeof method === "string" ? closest(method, list.methods) : undefined;
      throw new McpTestkitError(`${at}: "method" must be one of ${list.methods.map((m) => `"${m}"`).join(", ")} (${list.whatMethod}), got ${JSON.stringify(method) ?? "nothing"}${guess ? `; did you mean "${guess}"?` : "."}`);
    }
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
      throw new McpTestkitError(`${at}: "params" must be an object (${list.params}), got ${typeLabel(params)}.`);
    }
  });
}

/**
 * A step that acts before it answers (`asks`, `broadcast`, `endSubscriptions`) as the step
 * function it stands for: each request made of the client in turn, then the notifications, then
 * the subscriptions ended, then the rest of the step. An error the client answers with does not
 * stop the step (it is recorded in the call's exchanges); a call that ends meanwhile does (the
 * request rejects). A `ping` is skipped in a revision without one (2026-07-28), so one step
 * serves both eras.
 */
export function actsFirst(step: StepObject): Step {
  // Checked before any copy: most steps do none of this, and this runs on every call.
  if (!step.asks?.length && !step.broadcast?.length && step.endSubscriptions !== true) return step;
  const { asks = [], broadcast = [], endSubscriptions = false, ...rest } = step;
  return async (call) => {
    for (const [index, ask] of asks.entries()) {
      // 2026-07-28 has no ping (it only checks that the client is there): skipped where the revision lacks it.
      if (ask.method === "ping" && !versionHas(call.protocolVersion, "ping")) continue;
      try {
        await call.request(ask.method, ask.params);
      } catch (error) {
        if (!(error instanceof ServerRequestError)) throw error;
        if (error.unanswered) throw new AskUnanswered(index, ask.method, error);
      }
    }
    for (const notice of broadcast) call.broadcast(notice.method, notice.params);
    if (endSubscriptions) call.endSubscriptions();
    return rest as StepObject;
  };
}

/** A step's ask that got no answer (the client cannot be reached, the call ended): the call fails saying which ask. */
export class AskUnanswered extends Error {
  constructor(
    readonly index: number,
    readonly method: string,
    override readonly cause: ServerRequestError,
  ) {
    super(`its asks[${index}] (${method}) got no answer: ${cause.error.message}`);
    this.name = "AskUnanswered";
  }
}

export function checkThrows(value: unknown, where: string): void {
  if (typeof value === "string") return;
  if (typeof value === "object" && value !== null && typeof (value as ThrownError).message === "string") {
    const code = (value as ThrownError).code;
    if (code === undefined || Number.isInteger(code)) return;
  }
  throw new McpTestkitError(`${where}: "throws" must be a message string or { code?: integer, message: string, data? }, got ${typeLabel(value)}.`);
}

/**
 * A script in play: hands out steps in order, honouring `repeat`, and repeats the last step
 * once the list runs out. `restart()` goes back to the first step.
 */
export class Script {
  private position = 0;
  private readonly boundaries: number[] = [];

  constructor(readonly steps: readonly Step[]) {
    let total = 0;
    for (const step of steps) {
      total += typeof step === "function" ? 1 : (step.repeat ?? 1);
      this.boundaries.push(total);
    }
  }

  next(): Step | undefined {
    const position = this.position++;
    if (this.steps.length === 0) return undefined;
    // Calls are few per tool; a linear scan is cheaper than anything cleverer.
    for (let i = 0; i < this.boundaries.length; i++) if (position < this.boundaries[i]!) return this.steps[i];
    return this.steps[this.steps.length - 1];
  }

  restart(): void {
    this.position = 0;
  }
}

/** The JSON-RPC error a `throws` describes (a message alone: -32603, internal error). */
export function thrownRpcError(thrown: string | ThrownError): RpcError {
  const error = typeof thrown === "string" ? { message: thrown } : thrown;
  return new RpcError(error.code ?? -32603, error.message, error.data);
}
