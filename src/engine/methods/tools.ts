/**
 * `tools/list` and `tools/call`. A call asks the step sources for its step (fakes, the tool's
 * script, the unknown-tool policy) and the step decides the outcome. A step that answers at once,
 * static or returned by a step function without a promise, is answered synchronously with no
 * abort signal: the common case stays as cheap as a canned reply.
 */
import { errorDetail } from "../../errors.js";
import { ErrorCode } from "../../protocol/errors.js";
import { errorResponse, type JsonRpcErrorObject, type JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { LiveCall } from "../call-context.js";
import type { CallEnding, CallLog, CallOutcome, ToolCall } from "../call-log.js";
import type { Connection } from "../connection.js";
import { CANCELLED, DROP, NO_REPLY, replyEnding, replyWith, RpcError, STREAM_CUT, STREAM_CUT_REASON, type Outcome } from "../outcome.js";
import type { StepAnswer, StepKindCall } from "../step-kind-call.js";
import { answerSubject, unserializable } from "../reply-text.js";
import { NO_IDENTITY, type RequestContext } from "../request-context.js";
import { chooseStep, type StepChoice } from "../step-sources.js";
import { byName } from "../request-sources.js";
import { actsFirst, answerKind, AskUnanswered, checkStep, type StepObject } from "../steps.js";
import { contentResult, returnsResult, toolErrorResult } from "../tool-results.js";
import { shapeForVersion, TOOL_FIELDS, TOOL_RESULT_FIELDS } from "../version-shape.js";
import type { EngineState, HandlerInput, RequestHandler } from "./handler-input.js";
import { optionalObject, requireString, toolArguments } from "./params.js";
import type { JsonRpcId } from "../../protocol/jsonrpc.js";
import { revisionsWith, versionHas } from "../../protocol/versions.js";
import type { RequestStateKeeper } from "../mrtr/request-state.js";
import { listPage } from "./list-page.js";
import { HandlerRun, inputResponsesOf, parkedRunOf, type Answering, type RunOwner, type RunSubject, type Settled } from "../interaction/handler-run.js";
import { inputRequiredNeedsMrtr } from "../interaction/era-refusals.js";
import { isFault, unwrapFault, type Fault } from "../interaction/faults.js";
import { sleep, untilAbort } from "../interaction/waits.js";
import type { Interaction } from "../interaction/interaction.js";

export const listTools: RequestHandler = (input) => listPage(input, input.state.catalog.tools.values(), { key: "tools", fields: TOOL_FIELDS, sources: input.state.toolListSources, name: byName });

const DEFAULT_THROW_CODE = ErrorCode.InternalError;

export const callTool: RequestHandler = (input: HandlerInput): Outcome | Promise<Outcome> => {
  const { state, connection, request, params, context } = input;
  const name = requireString(params, "name", "tools/call");
  const args = toolArguments(params.arguments);
  const meta = optionalObject(params, "_meta", "tools/call");
  const parked = parkedRunOf(input, { method: "tools/call", name, args }, { foreignStates: "refuse" });
  if (parked !== undefined) return parked.resume(input, inputResponsesOf(params) ?? {});
  const call: ToolCall = {
    tool: name,
    arguments: args,
    index: state.calls.nextIndex(name),
    outcome: "pending",
    startedAt: Date.now(),
    sessionId: connection.id,
    protocolVersion: context.protocolVersion,
    requestId: request.id,
    exchanges: [],
  };
  if (meta !== undefined) call.meta = meta;
  // Arguments that are not an object reach steps as {}; the record keeps what was sent.
  if (args !== params.arguments && params.arguments !== undefined) call.rawArguments = params.arguments;
  if (context.identity !== NO_IDENTITY) call.identity = context.identity;
  if (context.transport.auth !== undefined) call.auth = context.transport.auth;
  state.calls.add(call);

  const choice = chooseStep(state.toolSources, call, context);
  const running = new RunningCall(state, connection, call, choice, context, params);
  const refused = running.admitted();
  if (refused !== undefined) return refused;
  let step = choice.step;
  if (typeof step !== "function") {
    // A step kind (a task) answers its step itself, asks included; else the step as plain.
    const byKind = running.byKind(step);
    if (byKind !== undefined) return byKind;
    step = running.plain(step);
  }
  const next = typeof step === "function" ? step : actsFirst(step);
  if (typeof next !== "function") return running.answerWhenDue(next);
  const live = new LiveCall(call, connection, context.protocolVersion, context.identity, context.client, inputResponsesOf(params), state);
  live.kindHandles = (key) => running.handleOf(key, live);
  let produced: unknown;
  try {
    produced = next(live);
  } catch (thrown) {
    live.release();
    return running.stepFunctionThrew(thrown);
  }
  // A step function that hands its call to a step kind (call.task.start()) is answered then, not when it returns.
  if (isPromiseLike(produced) && state.stepKinds.size > 0) produced = raceHandOver(produced, live.handOverPoint());
  else if (live.handedOverStep !== undefined) {
    // Handed over and returned at once: the returned step is the task's outcome, as a promise's would be.
    running.later = Promise.resolve({ value: produced });
    produced = live.handedOverStep.step;
  }
  if (isPromiseLike(produced)) return new HandlerRun(live, state.requestStates, running.subject, running, produced, { connection, requestId: request.id, context, params }).run();
  return running.takeProduced(produced, live);
};

/** What a step function's promise resolves with when the function handed its call to a step kind first. */
const HANDED_OVER: unique symbol = Symbol("handed over to a step kind");
interface HandOver {
  readonly [HANDED_OVER]: { readonly key: string; readonly step: StepObject; readonly later: Promise<Settled<unknown>> };
}

/** The step function's value, or (when it hands its call to a step kind before it returns) the hand-over, whichever comes first. */
function raceHandOver(produced: unknown, handedOver: Promise<{ key: string; step: StepObject }>): Promise<unknown> {
  const later: Promise<Settled<unknown>> = Promise.resolve(produced).then(
    (value) => ({ value }),
    (thrown: unknown) => ({ thrown }),
  );
  const over = handedOver.then((hand): HandOver => ({ [HANDED_OVER]: { ...hand, later } }));
  return Promise.race([over, later.then((settled) => ("thrown" in settled ? Promise.reject(settled.thrown) : settled.value))]);
}

function isHandOver(value: unknown): value is HandOver {
  return typeof value === "object" && value !== null && HANDED_OVER in value;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** A step that answers now: no delay, no hang. */
function answersAtOnce(step: StepObject): boolean {
  return !step.hang && !(step.delayMs !== undefined && step.delayMs > 0);
}

/** One call between its step's choice and its outcome (across MRTR retries, one record). */
class RunningCall implements RunOwner<unknown>, StepKindCall {
  /** The request answering now: the call's own, then each MRTR retry. */
  replyId: JsonRpcId;
  readonly subject: RunSubject;
  private readonly calls: CallLog;
  private readonly states: RequestStateKeeper;
  /** The step function's interaction, once it handed its call to a step kind. */
  interaction?: Interaction;
  later?: Promise<Settled<unknown>>;
  private readonly handles = new Map<string, unknown>();

  constructor(
    readonly state: EngineState,
    public connection: Connection,
    private readonly call: ToolCall,
    private readonly choice: StepChoice,
    public context: RequestContext,
    readonly params: Record<string, unknown>,
  ) {
    this.calls = state.calls;
    this.states = state.requestStates;
    this.replyId = call.requestId;
    this.subject = { method: "tools/call", name: call.tool, args: call.arguments, label: `tool ${JSON.stringify(call.tool)}` };
  }

  get record(): ToolCall {
    return this.call;
  }

  get execution(): Record<string, unknown> | undefined {
    return this.choice.execution;
  }

  /** A step kind's refusal of this call before its step runs (a tool that needs a task, a client that cannot take one). */
  admitted(): Outcome | undefined {
    for (const kind of this.state.stepKinds.values()) {
      const error = kind.admit?.(this);
      if (error !== undefined) return this.fail(error);
    }
    return undefined;
  }

  /** The outcome of the step kind that answers `step` (its key is on the step, or the kind claims the call), if any. */
  byKind(step: StepObject): Outcome | Promise<Outcome> | undefined {
    const kinds = this.state.stepKinds;
    if (kinds.size === 0) return undefined;
    for (const kind of kinds.values()) {
      if ((step as Record<string, unknown>)[kind.key] === undefined && kind.claims?.(this) !== true) continue;
      return kind.answer(step, this);
    }
    return undefined;
  }

  /** `step` without the step kinds' keys, as a call none of them answers gets it. */
  plain(step: StepObject): StepObject {
    let plain = step;
    for (const kind of this.state.stepKinds.values()) {
      if ((plain as Record<string, unknown>)[kind.key] === undefined) continue;
      if (kind.plain !== undefined) plain = kind.plain(plain);
      else {
        const { [kind.key]: _dropped, ...rest } = plain as Record<string, unknown>;
        plain = rest as StepObject;
      }
    }
    return plain;
  }

  /** What a step function finds at `call[key]`: its step kind's handle, made once. */
  handleOf(key: string, live: LiveCall): unknown {
    if (this.handles.has(key)) return this.handles.get(key);
    const kind = this.state.stepKinds.get(key);
    this.interaction = live;
    const handle = kind?.handle?.(this);
    this.handles.set(key, handle);
    return handle;
  }

  answerOf(step: StepObject): StepAnswer {
    const outcome = this.answer(step);
    if (outcome.type !== "reply") return { error: { code: ErrorCode.InternalError, message: `the step of tool "${this.call.tool}" gives no result a task can hold` } };
    const message = outcome.message as { result?: unknown; error?: JsonRpcErrorObject };
    return message.error !== undefined ? { error: message.error } : { result: message.result };
  }

  stepOf(settled: Settled<unknown>): StepObject | { readonly error: JsonRpcErrorObject } {
    try {
      if ("thrown" in settled) throw new StepFunctionError(settled.thrown);
      return checkedProduct(settled.value, this.call.tool);
    } catch (thrown) {
      const error = thrown instanceof StepFunctionError ? thrown : new StepFunctionError(thrown, true);
      const outcome = this.stepFunctionThrew(error, false);
      return { error: (outcome.type === "reply" && (outcome.message as { error?: JsonRpcErrorObject }).error) || { code: ErrorCode.InternalError, message: errorDetail(thrown) } };
    }
  }

  reply(result: Record<string, unknown>): Outcome {
    return replyWith(this.replyId, result);
  }

  failWith(error: JsonRpcErrorObject): Outcome {
    return this.fail(error);
  }

  end(outcome: CallOutcome, ending: CallEnding): void {
    this.calls.end(this.call, outcome, ending);
  }

  /**
   * A step object: answered now when it can be, else after its delay or hang. `live` is the
   * step function's context when a function produced the step (it may hold an abort signal).
   */
  answerWhenDue(step: StepObject, live?: LiveCall): Outcome | Promise<Outcome> {
    // A step function that already sent the client something (progress, a log) answers a tick
    // later, as a client handles notifications a tick after they arrive.
    if (answersAtOnce(step) && !live?.spoke) {
      live?.release();
      return this.answerSafely(step);
    }
    const waiting = live ?? new LiveCall(this.call, this.connection, this.context.protocolVersion, this.context.identity, this.context.client);
    // The stream treatment is known now: say it before the wire settles on how to answer.
    if (this.hintsCutStream(step)) {
      waiting.release();
      return this.streamCut();
    }
    return this.dueStep(step, waiting, false).finally(() => waiting.release());
  }

  /** What a step function returned without a promise: checked, then answered as a step object. */
  takeProduced(produced: unknown, live: LiveCall): Outcome | Promise<Outcome> {
    let step: StepObject;
    try {
      step = checkedProduct(produced, this.call.tool);
    } catch (thrown) {
      live.release();
      return this.stepFunctionThrew(new StepFunctionError(thrown, true));
    }
    this.interaction = live;
    const byKind = this.byKind(step);
    if (byKind !== undefined) {
      live.release();
      return byKind;
    }
    return this.answerWhenDue(this.plain(step), live);
  }

  /** A step function's promise settled (the runtime raced it with the call's asks and its cancellation). */
  settle(settled: Settled<unknown>, answering: Answering, interaction: Interaction): Outcome | Promise<Outcome> {
    this.answering(answering);
    if ("thrown" in settled) return this.stepFunctionThrew(new StepFunctionError(settled.thrown));
    this.interaction = interaction;
    if (isHandOver(settled.value)) {
      // The function goes on as the kind's (a task's) work; the call is answered the kind's way now.
      const { key, step, later } = settled.value[HANDED_OVER];
      this.later = later;
      return this.state.stepKinds.get(key)!.answer(step, this) ?? this.stepFunctionThrew(new Error(`the call cannot be answered with a ${key} (the client cannot take one)`));
    }
    let step: StepObject;
    try {
      step = checkedProduct(settled.value, this.call.tool);
    } catch (thrown) {
      return this.stepFunctionThrew(new StepFunctionError(thrown, true));
    }
    const byKind = this.byKind(step);
    if (byKind !== undefined) return byKind;
    return this.dueStep(this.plain(step), interaction, true);
  }

  refuse(error: JsonRpcErrorObject, answering: Answering): Outcome {
    this.answering(answering);
    return this.fail(error);
  }

  /** Given up while waiting for a retry (expired, reset, closed). */
  expired(reason: string): void {
    if (this.call.outcome === "pending") this.calls.end(this.call, "cancelled", { reason });
  }

  stepFunctionThrew(thrown: unknown, caught = true): Outcome {
    const cause = thrown instanceof StepFunctionError ? thrown.cause : thrown;
    if (caught) this.context.caught?.push(cause);
    // Embedded in our own message: the inner error's "[mcp-testkit]" prefix would say it twice.
    const message = errorDetail(cause);
    if (cause instanceof AskUnanswered) return this.fail({ code: ErrorCode.InternalError, message: `The step of tool "${this.call.tool}" could not go on: ${message}` });
    const what = thrown instanceof StepFunctionError && thrown.returned ? "returned an invalid step" : "threw";
    return this.fail({ code: ErrorCode.InternalError, message: `Step function for tool "${this.call.tool}" ${what}: ${message}` });
  }

  private answering(answering: Answering): void {
    this.connection = answering.connection;
    this.replyId = answering.requestId;
    this.context = answering.context;
  }

  /** The step's stream treatment, delay or hang, then its answer; `live` (when given) holds the signal that ends the wait. */
  private async dueStep(step: StepObject, live: Interaction, prepare: boolean): Promise<Outcome> {
    const signal = live.signal;
    try {
      if (prepare && this.hintsCutStream(step)) return this.streamCut();
      if (step.delayMs !== undefined && step.delayMs > 0) {
        await sleep(step.delayMs, signal);
        if (signal.aborted) return CANCELLED;
      }
      if (step.hang) {
        await untilAbort(signal);
        return CANCELLED;
      }
      return this.answer(step);
    } catch (thrown) {
      if (signal.aborted) return CANCELLED;
      return this.unsendable(thrown);
    }
  }

  private answerSafely(step: StepObject): Outcome {
    try {
      if (this.hintsCutStream(step)) return this.streamCut();
      return this.answer(step);
    } catch (thrown) {
      return this.unsendable(thrown);
    }
  }

  /** Tells the wire the step's stream treatment, if it has one; true when that cut a stream that cannot be resumed. */
  private hintsCutStream(step: StepObject): boolean {
    return step.stream !== undefined && !this.connection.prepare(this.replyId, step.stream);
  }

  /** The step's `stream.closeAfterEvents` cut a stream that cannot be resumed before its answer: no answer can go. */
  private streamCut(): Outcome {
    this.calls.end(this.call, "disconnected", { reason: STREAM_CUT_REASON });
    return STREAM_CUT;
  }

  /** A step whose answer cannot be built (`returns` a BigInt, whose text JSON cannot give) still ends its call, as a reply that cannot be serialized does. */
  private unsendable(thrown: unknown): Outcome {
    return this.fail(unserializable(answerSubject({ method: "tools/call", params: { name: this.call.tool } }), thrown));
  }

  /** The outcome of a step's answer, now (delays are over by the time this runs). */
  private answer(step: StepObject): Outcome {
    const version = this.call.protocolVersion;
    const { outputSchema } = this.choice;
    switch (answerKind(step)) {
      case "returns":
        return this.succeed(shapeForVersion(returnsResult(step.returns, outputSchema), TOOL_RESULT_FIELDS, version), "result");
      case "content":
        return this.succeed(shapeForVersion(contentResult(step), TOOL_RESULT_FIELDS, version), "result");
      case "toolError":
        return this.succeed(toolErrorResult(step.toolError!), "tool-error");
      case "throws": {
        const thrown = typeof step.throws === "string" ? { message: step.throws } : step.throws!;
        const error: JsonRpcErrorObject = { code: thrown.code ?? DEFAULT_THROW_CODE, message: thrown.message };
        if (thrown.data !== undefined) error.data = thrown.data;
        return this.fail(error, this.choice.recordAs ?? "protocol-error");
      }
      case "result":
        return this.succeed(step.result, this.choice.recordAs ?? "result");
      case "hang":
        // Handled before answering (dueStep); never reached for a checked step.
        return NO_REPLY;
      case "raw":
        this.calls.end(this.call, "raw", { reason: "raw bytes written instead of a JSON-RPC response (raw step)" });
        return { type: "raw", text: step.raw! };
      case "disconnect":
        this.calls.end(this.call, "disconnected", { reason: "the mock dropped the connection (disconnect step)" });
        return DROP;
      case "inputRequired": {
        // Only a revision with MRTR can carry an input_required result; elsewhere the client would take it for a result with no content.
        if (!versionHas(version, "mrtr")) {
          const advice = `. Ask through call.elicit(), call.sample() or call.listRoots() instead (they work in both eras), or script this step for ${revisionsWith("mrtr")} clients only.`;
          return this.fail(inputRequiredNeedsMrtr(`Tool "${this.call.tool}" answered { inputRequired }`, version, advice));
        }
        const { inputRequests, requestState } = step.inputRequired!;
        if (requestState !== undefined) this.states.rememberRaw(requestState);
        return this.succeed({ resultType: "input_required", ...(inputRequests && { inputRequests }), ...(requestState !== undefined && { requestState }) }, "result");
      }
      case "empty":
        return this.succeed({ content: [] }, "result");
    }
  }

  /** The reply ends the call's record once the engine serialized it (so an answer JSON cannot carry is recorded as the error sent). */
  private succeed(result: unknown, outcome: CallOutcome): Outcome {
    // `result` is deliberately unchecked: a raw step may send anything, even something malformed.
    return replyEnding({ jsonrpc: "2.0", id: this.replyId, result } as JsonRpcResponse, this.call, outcome, { result });
  }

  private fail(error: JsonRpcErrorObject, outcome: CallOutcome = "protocol-error"): Outcome {
    return replyEnding(errorResponse(this.replyId, error), this.call, outcome, { error });
  }
}

/** Marks a throw from the user's step function (or its promise), as opposed to one of ours. */
class StepFunctionError extends Error {
  constructor(
    override readonly cause: unknown,
    /** It returned (or resolved with) something that is not a step, rather than throwing. */
    readonly returned = false,
  ) {
    super(returned ? "step function returned an invalid step" : "step function threw");
  }
}

/** What a step function produced, checked as a step object (a function is not one). */
function checkedProduct(returned: unknown, tool: string): StepObject {
  const produced = isFault(returned) ? faultAsStep(returned) : returned;
  checkStep(produced, `The step function of tool "${tool}"`);
  if (typeof produced === "function") throw new Error("a step function must return a step object, not another function");
  if (produced.asks !== undefined)
    throw new Error(
      'a step function returned "asks", which is for static steps; a step function asks the client itself (await call.elicit(...), call.sample(...), call.listRoots(), call.request(method, params)) before it returns',
    );
  if (produced.broadcast !== undefined || produced.endSubscriptions !== undefined) {
    throw new Error(
      'a step function returned "broadcast" or "endSubscriptions", which are for static steps; a step function tells the clients itself (call.broadcast(method, params), call.endSubscriptions()) before it returns',
    );
  }
  return produced;
}

/** A fault a step function returned (`delay(ms, step)`, `hang()`…), as the step that says the same. */
function faultAsStep(fault: Fault): unknown {
  const { spec, value } = unwrapFault(fault);
  const step: Record<string, unknown> = typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : value === undefined ? {} : { returns: value };
  if (spec.delayMs !== undefined) step.delayMs = spec.delayMs + ((step.delayMs as number | undefined) ?? 0);
  if (spec.stream !== undefined) step.stream = spec.stream;
  if (spec.hang) step.hang = true;
  if (spec.disconnect) step.disconnect = true;
  if (spec.raw !== undefined) step.raw = spec.raw;
  return step;
}

/** Aborts a request in flight and ends its call record with `outcome`. */
export function abortInFlight(calls: CallLog, connection: Connection, key: string, outcome: "cancelled" | "disconnected", reason: string): void {
  const inFlight = connection.releaseInFlight(key);
  if (!inFlight) return;
  if (inFlight.call) calls.end(inFlight.call, outcome, { reason });
  inFlight.controller.abort(new RpcError(ErrorCode.InternalError, reason));
}
