/**
 * Steps: what one tool call gets. A tool's script is a list of steps; call n takes step n and
 * the last step repeats. This module types the step vocabulary (described once in
 * src/formats/step.ts, which these types are checked against), checks steps given by the user
 * (so a typo fails at `mockMcp()` time with a clear message, not silently at call time), and
 * walks a script.
 */
import { McpTestkitError } from "../errors.js";
import type { ToolCallContext } from "./call-context.js";
import type { StreamHints } from "./outcome.js";
import type { Fault } from "./interaction/faults.js";
import { RpcError } from "../protocol/rpc-error.js";
import { typeLabel } from "../util/text.js";
import { unknownKeysMessage } from "../util/unknown-keys.js";
import { ServerRequestError } from "./connection.js";
import { versionHas } from "../protocol/versions.js";
import type { BroadcastNotificationMethods } from "../protocol/methods.js";
import { ANSWER_KEYS, givesAnswer, STEP_KEYS, type AnswerKey } from "../formats/step-keys.js";
import { findStepProblem, throwsProblem } from "../formats/step.js";
import type { TaskScript } from "../formats/task-step.js";

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
  /**
   * Answer with a task, when the client can take one (2025-11-25: it sent `params.task`;
   * 2026-07-28: it declared the `io.modelcontextprotocol/tasks` extension), and script its life:
   * `working` for some polls or some time, then `input_required` while the step's `asks` wait
   * for answers, then `completed` with the step's answer, `failed` with its `throws`, or
   * `cancelled`. Other clients get the step's answer as usual (see docs/tasks.md).
   */
  task?: TaskScript;
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

/**
 * A step worked out from the call, for answers that depend on the arguments. May be async, and
 * may return a fault (`delay(ms, step)`, `hang()`…), the step that says the same.
 */
export type StepFunction = (call: ToolCallContext) => StepObject | Fault<StepObject> | Promise<StepObject | Fault<StepObject>>;

export type Step = StepObject | StepFunction;

export { STEP_KEYS };

export type AnswerKind = AnswerKey | "empty";

/** Which answer a (checked) step gives; `empty` is a step with only `delayMs` or nothing. */
export function answerKind(step: StepObject): AnswerKind {
  for (const key of ANSWER_KEYS) if (givesAnswer(step as Record<string, unknown>, key)) return key;
  return "empty";
}

const STEP_KEY_SET: ReadonlySet<string> = new Set(STEP_KEYS);

export function isStepKey(key: string): boolean {
  return STEP_KEY_SET.has(key);
}

/** Throws a McpTestkitError naming `where` when a step object is malformed (by the one description of a step, src/formats/step.ts). */
export function checkStep(step: unknown, where: string): asserts step is Step {
  if (typeof step === "function" || isPlainAnswer(step)) return;
  if (typeof step !== "object" || step === null || Array.isArray(step)) {
    throw new McpTestkitError(`${where} must be a step object or a function (call) => step, got ${typeLabel(step)}.`);
  }
  const problem = findStepProblem(step);
  if (problem === undefined) return;
  if ("text" in problem) throw new McpTestkitError(`${where}${problem.text}`);
  throw new McpTestkitError(unknownKeysMessage(where, problem.unknownKeys, STEP_KEYS, `A step takes ${STEP_KEYS.map((k) => `"${k}"`).join(", ")}`));
}

/** Keys whose value any JSON can be: a step of one of these alone needs no further check. */
const FREE_ANSWER_KEYS: ReadonlySet<string> = new Set(["returns", "result"]);

/**
 * `{ returns: x }` (or `{ result: x }`) and nothing else: what most step functions give back on
 * every call, checked here without the cost of the full check.
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

/** Throws unless `value` is a `throws`: a message, or { code?, message, data? } (a resource's and a prompt's too). */
export function checkThrows(value: unknown, where: string): void {
  const problem = throwsProblem(value);
  if (problem !== undefined) throw new McpTestkitError(`${where}${problem}`);
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
