/**
 * `tools/list` and `tools/call`. A call asks the step sources for its step (fakes, the tool's
 * script, the unknown-tool policy) and the step decides the outcome. A step that answers at once,
 * static or returned by a step function without a promise, is answered synchronously with no
 * abort signal: the common case stays as cheap as a canned reply.
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import { LiveCall } from "../call-context.js";
import type { CallLog, CallOutcome, ToolCall } from "../call-log.js";
import type { Connection } from "../connection.js";
import { DROP, NO_REPLY, replyError, replyWith, RpcError, type Outcome } from "../outcome.js";
import { paginate } from "../pagination.js";
import type { RequestContext } from "../request-context.js";
import { chooseStep, type StepChoice } from "../step-sources.js";
import { answerKind, checkStep, type StepObject } from "../steps.js";
import { contentResult, returnsResult, toolErrorResult } from "../tool-results.js";
import { shapeForVersion, TOOL_FIELDS, TOOL_RESULT_FIELDS } from "../version-shape.js";
import { ok, type HandlerInput, type RequestHandler } from "./handler-input.js";
import { optionalObject, requireString } from "./params.js";

export const listTools: RequestHandler = (input) => {
  const { page, nextCursor } = paginate([...input.state.catalog.tools.values()], input.params.cursor, input.state.pageSize);
  const version = input.context.protocolVersion;
  const tools = page.map((tool) => shapeForVersion(tool.listing, TOOL_FIELDS, version));
  return ok(input, nextCursor === undefined ? { tools } : { tools, nextCursor });
};

const DEFAULT_THROW_CODE = ErrorCode.InternalError;

export const callTool: RequestHandler = (input: HandlerInput): Outcome | Promise<Outcome> => {
  const { state, connection, request, params, context } = input;
  const name = requireString(params, "name", "tools/call");
  const args = params.arguments === undefined ? {} : (params.arguments as Record<string, unknown>);
  const meta = optionalObject(params, "_meta", "tools/call");
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
  state.calls.add(call);

  const choice = chooseStep(state.toolSources, call, context);
  const running = new RunningCall(state.calls, connection, call, choice, context);
  const next = choice.step;
  if (typeof next !== "function") return running.answerWhenDue(next);
  const live = new LiveCall(call, connection, context.protocolVersion, context.identity);
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

/** A step that answers now: no delay, no hang. */
function answersAtOnce(step: StepObject): boolean {
  return !step.hang && !(step.delayMs !== undefined && step.delayMs > 0);
}

/** One call between its step's choice and its outcome. */
class RunningCall {
  constructor(
    private readonly calls: CallLog,
    private readonly connection: Connection,
    private readonly call: ToolCall,
    private readonly choice: StepChoice,
    private readonly context: RequestContext,
  ) {}

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
    const waiting = live ?? new LiveCall(this.call, this.connection, this.context.protocolVersion, this.context.identity);
    // The stream treatment is known now: say it before the wire settles on how to answer.
    if (step.stream !== undefined) this.connection.prepare(this.call.requestId, step.stream);
    return this.runWaiting(waiting, () => Promise.resolve(step), false);
  }

  /** What a step function returned without a promise: checked, then answered as a step object. */
  takeProduced(produced: unknown, live: LiveCall): Outcome | Promise<Outcome> {
    let step: StepObject;
    try {
      step = checkedProduct(produced, this.call.tool);
    } catch (thrown) {
      live.release();
      return this.stepFunctionThrew(thrown);
    }
    return this.answerWhenDue(step, live);
  }

  /** A step function's promise: the call can be cancelled while it runs. */
  awaitStep(live: LiveCall, produced: PromiseLike<unknown>): Promise<Outcome> {
    return this.runWaiting(live, async () => {
      let value: unknown;
      try {
        value = await produced;
        if (live.aborted) return undefined;
        return checkedProduct(value, this.call.tool);
      } catch (thrown) {
        if (live.aborted) return undefined;
        throw new StepFunctionError(thrown);
      }
    });
  }

  stepFunctionThrew(thrown: unknown): Outcome {
    const cause = thrown instanceof StepFunctionError ? thrown.cause : thrown;
    this.context.caught?.push(cause);
    const message = cause instanceof Error ? cause.message : String(cause);
    return this.fail({ code: ErrorCode.InternalError, message: `Step function for tool "${this.call.tool}" threw: ${message}` });
  }

  private async runWaiting(live: LiveCall, produce: () => Promise<StepObject | undefined>, prepare = true): Promise<Outcome> {
    const signal = live.cancellable().signal;
    try {
      let step: StepObject | undefined;
      try {
        step = await produce();
      } catch (thrown) {
        if (thrown instanceof StepFunctionError) return this.stepFunctionThrew(thrown);
        throw thrown;
      }
      if (step === undefined || signal.aborted) return NO_REPLY;
      if (prepare && step.stream !== undefined) this.connection.prepare(this.call.requestId, step.stream);
      if (step.delayMs !== undefined && step.delayMs > 0) {
        await sleep(step.delayMs, signal);
        if (signal.aborted) return NO_REPLY;
      }
      if (step.hang) {
        await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
        return NO_REPLY;
      }
      return this.answer(step);
    } catch (thrown) {
      if (signal.aborted) return NO_REPLY;
      return this.unsendable(thrown);
    } finally {
      live.release();
    }
  }

  private answerSafely(step: StepObject): Outcome {
    try {
      if (step.stream !== undefined) this.connection.prepare(this.call.requestId, step.stream);
      return this.answer(step);
    } catch (thrown) {
      return this.unsendable(thrown);
    }
  }

  /** A step whose answer cannot be built (e.g. a BigInt, which JSON cannot carry) still ends its call. */
  private unsendable(thrown: unknown): Outcome {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return this.fail({ code: ErrorCode.InternalError, message: `Internal error: the answer of tool "${this.call.tool}" could not be sent: ${message}` });
  }

  /** The outcome of a step's answer, now (delays are over by the time this runs). */
  private answer(step: StepObject): Outcome {
    const version = this.call.protocolVersion;
    const { hasOutputSchema } = this.choice;
    switch (answerKind(step)) {
      case "returns":
        return this.succeed(shapeForVersion(returnsResult(step.returns, hasOutputSchema), TOOL_RESULT_FIELDS, version), "result");
      case "content":
        return this.succeed(jsonOnly(shapeForVersion(contentResult(step), TOOL_RESULT_FIELDS, version)), "result");
      case "toolError":
        return this.succeed(toolErrorResult(step.toolError!), "tool-error");
      case "throws": {
        const thrown = typeof step.throws === "string" ? { message: step.throws } : step.throws!;
        const error: JsonRpcErrorObject = { code: thrown.code ?? DEFAULT_THROW_CODE, message: thrown.message };
        if (thrown.data !== undefined) error.data = jsonOnly(thrown.data);
        return this.fail(error, this.choice.unknownTool ? "unknown-tool" : "protocol-error");
      }
      case "result":
        return this.succeed(jsonOnly(step.result), "result");
      case "hang":
        // Handled before answering (runWaiting); never reached for a checked step.
        return NO_REPLY;
      case "raw":
        this.calls.end(this.call, "result", { reason: "raw bytes written instead of a JSON-RPC response (raw step)" });
        return { type: "raw", text: step.raw! };
      case "disconnect":
        this.calls.end(this.call, "disconnected", { reason: "the mock dropped the connection (disconnect step)" });
        return DROP;
      case "empty":
        return this.succeed({ content: [] }, "result");
    }
  }

  private succeed(result: unknown, outcome: CallOutcome): Outcome {
    this.calls.end(this.call, outcome, { result });
    return replyWith(this.call.requestId, result);
  }

  private fail(error: JsonRpcErrorObject, outcome: CallOutcome = "protocol-error"): Outcome {
    this.calls.end(this.call, outcome, { error });
    return replyError(this.call.requestId, error);
  }
}

/** Marks a throw from the user's step function (or its promise), as opposed to one of ours. */
class StepFunctionError extends Error {
  constructor(override readonly cause: unknown) {
    super("step function threw");
  }
}

/** What a step function produced, checked as a step object (a function is not one). */
function checkedProduct(produced: unknown, tool: string): StepObject {
  checkStep(produced, `The step function of tool "${tool}"`);
  if (typeof produced === "function") throw new Error("a step function must return a step object, not another function");
  return produced;
}

/** `value`, after checking JSON can carry it (throws on a BigInt or a cycle, so the call fails visibly). */
function jsonOnly<T>(value: T): T {
  JSON.stringify(value);
  return value;
}

/** Waits `ms`, or less if `signal` aborts first; never leaves a timer behind. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Aborts a request in flight and ends its call record with `outcome`. */
export function abortInFlight(calls: CallLog, connection: Connection, key: string, outcome: "cancelled" | "disconnected", reason: string): void {
  const inFlight = connection.inFlight.get(key);
  if (!inFlight) return;
  connection.inFlight.delete(key);
  if (inFlight.call) calls.end(inFlight.call, outcome, { reason });
  inFlight.controller.abort(new RpcError(ErrorCode.InternalError, reason));
}
