/**
 * `tools/list` and `tools/call`. A call asks the step sources for its step (fakes, the tool's
 * script, the unknown-tool policy) and the step decides the outcome. A step that answers at once,
 * static or returned by a step function without a promise, is answered synchronously with no
 * abort signal: the common case stays as cheap as a canned reply.
 */
import { ErrorCode } from "../../protocol/errors.js";
import { errorResponse, isObject, type JsonRpcErrorObject, type JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { LiveCall } from "../call-context.js";
import type { CallLog, CallOutcome, ToolCall } from "../call-log.js";
import type { Connection } from "../connection.js";
import { CANCELLED, DROP, NO_REPLY, replyEnding, replyWith, RpcError, STREAM_CUT, STREAM_CUT_REASON, type Outcome } from "../outcome.js";
import { answerSubject, unserializable } from "../reply-text.js";
import { NO_IDENTITY, type RequestContext } from "../request-context.js";
import { chooseStep, type StepChoice } from "../step-sources.js";
import { byName } from "../request-sources.js";
import { actsFirst, answerKind, AskUnanswered, checkStep, type StepObject } from "../steps.js";
import { contentResult, returnsResult, toolErrorResult } from "../tool-results.js";
import { shapeForVersion, TOOL_FIELDS, TOOL_RESULT_FIELDS } from "../version-shape.js";
import { type HandlerInput, type RequestHandler } from "./handler-input.js";
import { optionalObject, requireString, toolArguments } from "./params.js";
import type { JsonRpcId } from "../../protocol/jsonrpc.js";
import { versionHas } from "../../protocol/versions.js";
import { capabilityNames, type DueRound } from "../mrtr/input-round.js";
import type { ParkedCall, RequestStateKeeper } from "../mrtr/request-state.js";
import { listPage } from "./list-page.js";
import { errorText } from "../../util/text.js";
import { onAbort, untilAbort } from "../../util/on-abort.js";

export const listTools: RequestHandler = (input) =>
  listPage(input, input.state.catalog.tools.values(), { key: "tools", fields: TOOL_FIELDS, sources: input.state.toolListSources, name: byName });

const DEFAULT_THROW_CODE = ErrorCode.InternalError;

export const callTool: RequestHandler = (input: HandlerInput): Outcome | Promise<Outcome> => {
  const { state, connection, request, params, context } = input;
  const name = requireString(params, "name", "tools/call");
  const args = toolArguments(params.arguments);
  const meta = optionalObject(params, "_meta", "tools/call");
  if (params.requestState !== undefined && versionHas(context.protocolVersion, "mrtr")) {
    const resumed = resumeCall(input, name, args);
    if (resumed !== undefined) return resumed;
  }
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
  state.calls.add(call);

  const choice = chooseStep(state.toolSources, call, context);
  const running = new RunningCall(state.calls, state.requestStates, connection, call, choice, context);
  const next = typeof choice.step === "function" ? choice.step : actsFirst(choice.step);
  if (typeof next !== "function") return running.answerWhenDue(next);
  const given = isObject(params.inputResponses) ? { ...params.inputResponses } : undefined;
  const live = new LiveCall(call, connection, context.protocolVersion, context.identity, context.client, given, state);
  let produced: unknown;
  try {
    produced = next(live);
  } catch (thrown) {
    live.release();
    return running.stepFunctionThrew(thrown);
  }
  if (isPromiseLike(produced)) return running.awaitStep(live, produced);
  return running.takeProduced(produced, live);
};

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * An MRTR retry (2026-07-28): a `requestState` of ours resumes its parked call, which answers
 * this request; a bad one is refused with -32602 saying what was wrong. A scripted step's own
 * state (raw control) is none of ours: undefined, and the call runs as a new one.
 */
function resumeCall(input: HandlerInput, name: string, args: Record<string, unknown>): Outcome | Promise<Outcome> | undefined {
  const { state, params, request } = input;
  const token = params.requestState;
  if (typeof token === "string" && state.requestStates.isRaw(token)) return undefined;
  if (typeof token !== "string") throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for tools/call: "requestState" must be the string of the input_required result, sent back unchanged');
  const responses = params.inputResponses ?? {};
  if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for tools/call: "inputResponses" must be an object mapping each inputRequests key to its result');
  }
  const verdict = state.requestStates.take(token, "tools/call", name, args);
  if (!verdict.ok) throw new RpcError(ErrorCode.InvalidParams, `Invalid params for tools/call: ${verdict.message}`, { problem: verdict.problem });
  const meta = params._meta;
  const progressToken = typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>).progressToken : undefined;
  return (verdict.parked as RunningCall).resume(input.connection, request.id, input.context, responses as Record<string, unknown>, progressToken as JsonRpcId | undefined);
}

type Produced = { step: StepObject | undefined } | { round: DueRound };

/** A step that answers now: no delay, no hang. */
function answersAtOnce(step: StepObject): boolean {
  return !step.hang && !(step.delayMs !== undefined && step.delayMs > 0);
}

/** One call between its step's choice and its outcome (across MRTR retries, one record). */
class RunningCall implements ParkedCall {
  /** The request answering now: the call's own, then each MRTR retry. */
  private replyId: JsonRpcId;
  /** A step function's promise, kept while the call waits for a retry. */
  private settled?: Promise<StepObject | undefined>;
  private live?: LiveCall;
  private rounds = 0;

  constructor(
    private readonly calls: CallLog,
    private readonly states: RequestStateKeeper,
    private connection: Connection,
    private readonly call: ToolCall,
    private readonly choice: StepChoice,
    private context: RequestContext,
  ) {
    this.replyId = call.requestId;
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
    return this.runWaiting(waiting, () => Promise.resolve({ step }), false);
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
    return this.answerWhenDue(step, live);
  }

  /** A step function's promise: the call can be cancelled while it runs, and (2026-07-28) wait for input. */
  awaitStep(live: LiveCall, produced: PromiseLike<unknown>): Promise<Outcome> {
    const settled = (async () => {
      let value: unknown;
      try {
        value = await produced;
      } catch (thrown) {
        if (live.aborted) return undefined;
        throw new StepFunctionError(thrown);
      }
      if (live.aborted) return undefined;
      try {
        return checkedProduct(value, this.call.tool);
      } catch (thrown) {
        throw new StepFunctionError(thrown, true);
      }
    })();
    // While the call waits for a retry nobody awaits it; a rejection then is handled on resume.
    settled.catch(() => undefined);
    this.settled = settled;
    this.live = live;
    return this.runWaiting(live, () => this.nextProduced(live, settled));
  }

  /** The step, or (MRTR) a round of input requests due first. */
  private nextProduced(live: LiveCall, settled: Promise<StepObject | undefined>): Promise<Produced> {
    const stepped = settled.then((step) => ({ step }));
    if (live.input === undefined) return stepped;
    return Promise.race([stepped, live.input.due().then((round) => ({ round }))]);
  }

  /** The client's retry with `inputResponses`: the waiting asks settle and the same step goes on, answering this request. */
  resume(connection: Connection, requestId: JsonRpcId, context: RequestContext, responses: Record<string, unknown>, progressToken: JsonRpcId | undefined): Promise<Outcome> {
    const live = this.live!;
    this.connection = connection;
    this.replyId = requestId;
    this.context = context;
    live.rebind(connection, requestId, context.client, progressToken);
    // Missing answers stay waiting: the next round asks for them again, as the spec advises.
    live.input!.answer(responses);
    return this.runWaiting(live, () => this.nextProduced(live, this.settled!));
  }

  /** Given up while waiting for a retry (expired, reset, closed). */
  expire(reason: string): void {
    if (this.call.outcome !== "pending") return;
    this.calls.end(this.call, "cancelled", { reason });
    this.live?.input?.abandon();
    this.live?.cancel(reason);
    this.live?.release();
  }

  /** -32021 when the client cannot answer the round's input requests (it never declared the capability); undefined when it can. */
  private refuseRound(live: LiveCall): Outcome | undefined {
    const missing = live.input!.missingCapabilities(live.clientCapabilities);
    if (missing === undefined) return undefined;
    const error = {
      code: ErrorCode.MissingRequiredClientCapability,
      message: `Missing required client capability: tool "${this.call.tool}" asks the client for ${capabilityNames(missing).join(", ")}, which its clientCapabilities in _meta do not declare`,
      data: { requiredCapabilities: missing },
    };
    live.input!.abandon(error);
    return this.fail(error);
  }

  /** Answers `input_required` and parks the call until the retry. */
  private suspend(live: LiveCall, round: DueRound): Outcome {
    const { state } = this.states.park(this, "tools/call", this.call.tool, this.call.arguments, ++this.rounds);
    live.detach();
    return replyWith(this.replyId, { resultType: "input_required", inputRequests: round.inputRequests, requestState: state });
  }

  stepFunctionThrew(thrown: unknown): Outcome {
    const cause = thrown instanceof StepFunctionError ? thrown.cause : thrown;
    this.context.caught?.push(cause);
    const message = errorText(cause);
    if (cause instanceof AskUnanswered) return this.fail({ code: ErrorCode.InternalError, message: `The step of tool "${this.call.tool}" could not go on: ${message}` });
    const what = thrown instanceof StepFunctionError && thrown.returned ? "returned an invalid step" : "threw";
    return this.fail({ code: ErrorCode.InternalError, message: `Step function for tool "${this.call.tool}" ${what}: ${message}` });
  }

  private async runWaiting(live: LiveCall, produce: () => Promise<Produced>, prepare = true): Promise<Outcome> {
    const signal = live.cancellable().signal;
    let parked = false;
    try {
      let produced: Produced | typeof ABORTED;
      try {
        // A cancelled call is answered at once (nothing), not when its step function returns:
        // the function may run on, but the client's stream ends now (its result is dropped).
        produced = await untilAborted(produce(), signal);
      } catch (thrown) {
        if (thrown instanceof StepFunctionError) return this.stepFunctionThrew(thrown);
        throw thrown;
      }
      if (produced === ABORTED || signal.aborted) return CANCELLED;
      if ("round" in produced) {
        const refused = this.refuseRound(live);
        if (refused !== undefined) return refused;
        parked = true;
        return this.suspend(live, produced.round);
      }
      const step = produced.step;
      if (step === undefined) return NO_REPLY;
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
    } finally {
      if (!parked) live.release();
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
        // Handled before answering (runWaiting); never reached for a checked step.
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
          return this.fail({
            code: ErrorCode.InternalError,
            message: `Tool "${this.call.tool}" answered { inputRequired }, which only protocol version 2026-07-28 can carry; this request speaks ${version}. Ask through call.elicit(), call.sample() or call.listRoots() instead (they work in both eras), or script this step for 2026-07-28 clients only.`,
          });
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
function checkedProduct(produced: unknown, tool: string): StepObject {
  checkStep(produced, `The step function of tool "${tool}"`);
  if (typeof produced === "function") throw new Error("a step function must return a step object, not another function");
  if (produced.asks !== undefined) throw new Error('a step function returned "asks", which is for static steps; a step function asks the client itself (await call.elicit(...), call.sample(...), call.listRoots(), call.request(method, params)) before it returns');
  if (produced.broadcast !== undefined || produced.endSubscriptions !== undefined) {
    throw new Error('a step function returned "broadcast" or "endSubscriptions", which are for static steps; a step function tells the clients itself (call.broadcast(method, params), call.endSubscriptions()) before it returns');
  }
  return produced;
}

/** Waits `ms`, or less if `signal` aborts first; never leaves a timer behind. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stopListening();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stopListening = onAbort(signal, done);
  });
}

/** Aborts a request in flight and ends its call record with `outcome`. */
export function abortInFlight(calls: CallLog, connection: Connection, key: string, outcome: "cancelled" | "disconnected", reason: string): void {
  const inFlight = connection.releaseInFlight(key);
  if (!inFlight) return;
  if (inFlight.call) calls.end(inFlight.call, outcome, { reason });
  inFlight.controller.abort(new RpcError(ErrorCode.InternalError, reason));
}

const ABORTED: unique symbol = Symbol("aborted");

/** `work`'s value, or ABORTED as soon as `signal` aborts (a rejection of `work` after that is dropped). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const stopListening = onAbort(signal, () => resolve(ABORTED));
    work.then(
      (value) => {
        stopListening();
        resolve(value);
      },
      (error: unknown) => {
        stopListening();
        reject(error);
      },
    );
  });
}
