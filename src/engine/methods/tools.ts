/** `tools/list` and `tools/call`: a call takes its tool's next step and the step decides the outcome. */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import { createCallContext } from "../call-context.js";
import type { CallLog, CallOutcome, ToolCall } from "../call-log.js";
import { DROP, NO_REPLY, replyError, replyWith, RpcError, type Outcome } from "../outcome.js";
import { paginate } from "../pagination.js";
import { idKey, type Session } from "../session.js";
import { answerKind, checkStep, type Step, type StepObject } from "../steps.js";
import { contentResult, returnsResult, toolErrorResult } from "../tool-results.js";
import { shapeForVersion, TOOL_FIELDS, TOOL_RESULT_FIELDS } from "../version-shape.js";
import { ok, type HandlerContext, type RequestHandler } from "./context.js";
import { optionalObject, rawArgumentsOf, requireString, toolArguments } from "./params.js";

export const listTools: RequestHandler = (context) => {
  const { page, nextCursor } = paginate([...context.state.catalog.tools.values()], context.params.cursor, context.state.pageSize);
  const version = context.session.protocolVersion;
  const tools = page.map((tool) => shapeForVersion(tool.listing, TOOL_FIELDS, version));
  return ok(context, nextCursor === undefined ? { tools } : { tools, nextCursor });
};

const DEFAULT_THROW_CODE = ErrorCode.InternalError;

export const callTool: RequestHandler = (context: HandlerContext): Outcome | Promise<Outcome> => {
  const { state, session, request, params } = context;
  const name = requireString(params, "name", "tools/call");
  const args = toolArguments(params.arguments);
  const meta = optionalObject(params, "_meta", "tools/call");
  const call: ToolCall = {
    tool: name,
    arguments: args,
    index: state.calls.nextIndex(name),
    outcome: "pending",
    startedAt: Date.now(),
    sessionId: session.id,
    requestId: request.id,
    exchanges: [],
    ...rawArgumentsOf(params.arguments),
  };
  if (meta !== undefined) call.meta = meta;
  state.calls.add(call);

  const tool = state.catalog.tools.get(name);
  if (!tool) {
    const available = [...state.catalog.tools.keys()];
    const error = { code: ErrorCode.InvalidParams, message: `Unknown tool: ${name}`, data: { tool: name, available } };
    state.calls.end(call, "unknown-tool", { error });
    return replyError(request.id, error);
  }

  const next = tool.script.next() ?? {};
  // A step that answers at once cannot be cancelled, so it needs no abort signal: the common
  // case stays cheap (an AbortController per call was the largest cost in the benchmark).
  if (typeof next !== "function" && !next.hang && !(next.delayMs !== undefined && next.delayMs > 0)) {
    try {
      if (next.stream !== undefined) session.prepare(call.requestId, next.stream);
      return answer(context, call, next, tool.hasOutputSchema);
    } catch (thrown) {
      return unsendable(context, call, thrown);
    }
  }
  return runWaitingStep(context, call, next, tool.hasOutputSchema);
};

async function runWaitingStep(context: HandlerContext, call: ToolCall, next: Step, hasOutputSchema: boolean): Promise<Outcome> {
  const { session } = context;
  const controller = new AbortController();
  const key = idKey(call.requestId);
  session.inFlight.set(key, { controller, call });
  try {
    return await waitThenAnswer(context, call, next, hasOutputSchema, controller.signal);
  } catch (thrown) {
    if (controller.signal.aborted) return NO_REPLY;
    return unsendable(context, call, thrown);
  } finally {
    if (session.inFlight.get(key)?.controller === controller) session.inFlight.delete(key);
  }
}

/** A step whose answer cannot be built (e.g. a BigInt, which JSON cannot carry) still ends its call. */
function unsendable(context: HandlerContext, call: ToolCall, thrown: unknown): Outcome {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return fail(context, call, { code: ErrorCode.InternalError, message: `Internal error: the answer of tool "${call.tool}" could not be sent: ${message}` });
}

async function waitThenAnswer(context: HandlerContext, call: ToolCall, next: Step, hasOutputSchema: boolean, signal: AbortSignal): Promise<Outcome> {
  const { session } = context;
  let step: StepObject;
  if (typeof next === "function") {
    try {
      const produced: unknown = await next(createCallContext(call, session, signal));
      if (signal.aborted) return NO_REPLY;
      checkStep(produced, `The step function of tool "${call.tool}"`);
      if (typeof produced === "function") throw new Error("a step function must return a step object, not another function");
      step = produced;
    } catch (thrown) {
      if (signal.aborted) return NO_REPLY;
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      return fail(context, call, { code: ErrorCode.InternalError, message: `Step function for tool "${call.tool}" threw: ${message}` });
    }
  } else step = next;

  if (step.stream !== undefined) session.prepare(call.requestId, step.stream);
  if (step.delayMs !== undefined && step.delayMs > 0) {
    await sleep(step.delayMs, signal);
    if (signal.aborted) return NO_REPLY;
  }
  if (step.hang) {
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
    return NO_REPLY;
  }
  return answer(context, call, step, hasOutputSchema);
}

/** The outcome of a step's answer, now (delays are over by the time this runs). */
function answer(context: HandlerContext, call: ToolCall, step: StepObject, hasOutputSchema: boolean): Outcome {
  const version = context.session.protocolVersion;
  switch (answerKind(step)) {
    case "returns":
      return succeed(context, call, shapeForVersion(returnsResult(step.returns, hasOutputSchema), TOOL_RESULT_FIELDS, version), "result");
    case "content":
      return succeed(context, call, jsonOnly(shapeForVersion(contentResult(step), TOOL_RESULT_FIELDS, version)), "result");
    case "toolError":
      return succeed(context, call, toolErrorResult(step.toolError!), "tool-error");
    case "throws": {
      const thrown = typeof step.throws === "string" ? { message: step.throws } : step.throws!;
      const error: JsonRpcErrorObject = { code: thrown.code ?? DEFAULT_THROW_CODE, message: thrown.message };
      if (thrown.data !== undefined) error.data = jsonOnly(thrown.data);
      return fail(context, call, error);
    }
    case "result":
      return succeed(context, call, jsonOnly(step.result), "result");
    case "hang":
      // Handled before answering; a step function that returns { hang: true } lands in waitThenAnswer.
      return NO_REPLY;
    case "raw":
      context.state.calls.end(call, "result", { reason: "raw bytes written instead of a JSON-RPC response (raw step)" });
      return { type: "raw", text: step.raw! };
    case "disconnect":
      context.state.calls.end(call, "disconnected", { reason: "the mock dropped the connection (disconnect step)" });
      return DROP;
    case "empty":
      return succeed(context, call, { content: [] }, "result");
  }
}

function succeed(context: HandlerContext, call: ToolCall, result: unknown, outcome: CallOutcome): Outcome {
  context.state.calls.end(call, outcome, { result });
  return replyWith(call.requestId, result);
}

function fail(context: HandlerContext, call: ToolCall, error: JsonRpcErrorObject): Outcome {
  context.state.calls.end(call, "protocol-error", { error });
  return replyError(call.requestId, error);
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
export function abortInFlight(calls: CallLog, session: Session, key: string, outcome: "cancelled" | "disconnected", reason: string): void {
  const inFlight = session.inFlight.get(key);
  if (!inFlight) return;
  session.inFlight.delete(key);
  if (inFlight.call) calls.end(inFlight.call, outcome, { reason });
  inFlight.controller.abort(new RpcError(ErrorCode.InternalError, reason));
}
