/**
 * Tool calls that run as tasks: `callTool(name, args, { task })` and `startTask(name, args)`. The
 * call goes out the way the era asks for a task (its wire, `Era.tasks`); a server that answers at
 * once is answered at once (`callTool`) or named (`startTask`, which needs a task to hand back);
 * a task answer becomes a `TaskHandle`.
 */
import { McpTestkitError } from "../errors.js";
import { checkKeys } from "../engine/spec-checks.js";
import { typeLabel } from "../util/text.js";
import { timerMsProblem } from "../util/timer-ms.js";
import type { Era } from "./era.js";
import type { ProcessContext } from "./errors.js";
import type { CallOptions, CallServerRequestHandler, JsonObject, ServerRequestContext } from "./request-types.js";
import { ToolCallResult } from "./results.js";
import { TaskError } from "./task-errors.js";
import { TaskHandle } from "./task-handle.js";
import { DEFAULT_TASK_DEADLINE_MS, DEFAULT_TASK_POLL_INTERVAL_MS, type TaskOptions } from "./task-types.js";

/** `callTool`'s options: a call's, and `task` to ask for it to run as a task (`true`, or what to ask). */
export interface ToolCallOptions extends CallOptions {
  /**
   * Ask the server to run the call as a task, and wait for its result: polled as the server asks,
   * its input requests answered by the driver's handlers, within `deadlineMs`. A server that does
   * not run tool calls as tasks, or answers at once, is answered as a plain call is.
   */
  task?: boolean | TaskOptions;
}

/** `startTask`'s options: a call's (its signal and timeout apply to every request of the task) and the task's. */
export interface StartTaskOptions extends CallOptions, TaskOptions {}

/** What the task calls need of the driver. */
export interface TaskCallParts {
  /** The handshake's answer, once done (the era is known then). */
  ready(): Promise<{ capabilities: unknown }>;
  era(): Era;
  /** Sends `tools/call` as `callTool` does (its errors, its input rounds). */
  toolCall(name: string, params: JsonObject, options: CallOptions): Promise<JsonObject>;
  /** Sends any request the way the era sends it, once the handshake is done. */
  send(method: string, params: JsonObject, spec: import("./request-types.js").RequestSpec): Promise<JsonObject>;
  /** Answers an input request with `handler` first, then the driver's handlers. */
  answerFor(handler: CallServerRequestHandler | undefined, method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject>;
  processContext(): ProcessContext | undefined;
  closing: AbortSignal;
}

const TASK_OPTION_KINDS = { ttlMs: "number", deadlineMs: "number", pollIntervalMs: "number", onStatus: "function" } as const;

export class TaskCalls {
  constructor(private readonly parts: TaskCallParts) {}

  /** `callTool(name, args, { task })`: the final result, however the server chose to answer. */
  async call(name: string, args: JsonObject, options: CallOptions, task: true | TaskOptions): Promise<ToolCallResult> {
    const taskOptions = task === true ? {} : task;
    const started = await this.begin(name, args, options, taskOptions, false);
    if (!(started instanceof TaskHandle)) return new ToolCallResult(started, name);
    try {
      return await started.wait();
    } catch (error) {
      // callTool owns the task it started: one it stopped waiting on is cancelled, as a request that times out is.
      if (error instanceof TaskError && error.reason === "deadline") await started.cancel().catch(() => undefined);
      throw error;
    }
  }

  /** `startTask(name, args)`: the handle of the task the server started. */
  async start(name: string, args: JsonObject, options: StartTaskOptions): Promise<TaskHandle> {
    const { ttlMs, deadlineMs, pollIntervalMs, onStatus, ...call } = options;
    const taskOptions: TaskOptions = { ttlMs, deadlineMs, pollIntervalMs, onStatus };
    for (const key of Object.keys(taskOptions) as (keyof TaskOptions)[]) if (taskOptions[key] === undefined) delete taskOptions[key];
    return (await this.begin(name, args, call, taskOptions, true)) as TaskHandle;
  }

  private async begin(name: string, args: JsonObject, call: CallOptions, options: TaskOptions, needsTask: boolean): Promise<TaskHandle | JsonObject> {
    const { capabilities } = await this.parts.ready();
    const wire = this.parts.era().tasks;
    const params: JsonObject = { name, arguments: args };
    if (!wire.advertisedBy(capabilities as JsonObject | undefined)) {
      if (!needsTask) return await this.parts.toolCall(name, params, call);
      throw new TaskError(
        `startTask("${name}"): the server does not say it runs tool calls as tasks (no ${wire.advertisedAt}; the driver speaks ${wire.speaks}), so no task was asked for. ` +
          `Use callTool("${name}") for its result, or check that the server serves tasks in this revision.`,
        { reason: "notAdvertised", toolName: name, process: this.parts.processContext() },
      );
    }
    const answer = await this.parts.toolCall(name, wire.ask(params, options), call);
    const created = wire.created(answer);
    if (typeof created === "string") {
      throw new TaskError(`Tool "${name}" answered with a malformed task (${wire.speaks}): ${created}.`, {
        reason: "malformedTask",
        toolName: name,
        result: answer,
        process: this.parts.processContext(),
      });
    }
    if (created === undefined) {
      if (!needsTask) return answer;
      throw new TaskError(
        `startTask("${name}"): the server answered the call at once, with no task (it may: ${wire.speaks} leaves it to the server). ` +
          `Its answer is in error.result; use callTool("${name}", args, { task: true }) to accept either.`,
        { reason: "noTask", toolName: name, result: answer, process: this.parts.processContext() },
      );
    }
    const { send, answerFor, processContext, closing } = this.parts;
    return new TaskHandle(
      {
        wire,
        io: { toolName: name, send, answer: (method, inputParams, context) => answerFor(call.onServerRequest, method, inputParams, context), processContext },
        deadlineMs: options.deadlineMs ?? DEFAULT_TASK_DEADLINE_MS,
        pollIntervalMs: options.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS,
        onStatus: options.onStatus,
        call,
        closing,
      },
      created,
    );
  }
}

/** Throws for task options the driver would not read or could not honour, naming the closest key. */
export function checkTaskOptions(options: unknown, where: string, extraKeys: readonly string[] = []): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new McpTestkitError(`${where} must be an object { ttlMs?, deadlineMs?, pollIntervalMs?, onStatus? } or true, got ${typeLabel(options)}.`);
  }
  checkKeys(options, [...Object.keys(TASK_OPTION_KINDS), ...extraKeys], where);
  const { ttlMs, deadlineMs, pollIntervalMs, onStatus } = options as TaskOptions;
  if (ttlMs !== undefined && !(Number.isInteger(ttlMs) && ttlMs > 0)) throw new McpTestkitError(`${where}: "ttlMs" must be a whole number of ms above 0, got ${typeLabel(ttlMs)}.`);
  for (const [name, value] of [
    ["deadlineMs", deadlineMs],
    ["pollIntervalMs", pollIntervalMs],
  ] as const) {
    const problem = value === undefined ? undefined : timerMsProblem(name, value, { min: 1 });
    if (problem !== undefined) throw new McpTestkitError(`${where}: ${problem}.`);
  }
  if (onStatus !== undefined && typeof onStatus !== "function") throw new McpTestkitError(`${where}: "onStatus" must be a function (change, task) => void, got ${typeLabel(onStatus)}.`);
}
