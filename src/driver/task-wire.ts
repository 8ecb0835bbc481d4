/**
 * How a task is asked for, read, fed and ended on the wire of each era: an era object owns one
 * (`Era.tasks`), so the task handle (task-handle.ts) never asks which era it is in.
 * - 2025-11-25 (core tasks): a tool call asks with `params.task: { ttl }` and is answered
 *   `{ task }`; `tasks/get` answers the task; `tasks/result` blocks until the task is terminal and
 *   answers the tool's result, and while the task is `input_required` the server sends its
 *   requests on that stream, answered by the driver's handlers; `tasks/cancel` answers the task.
 * - 2026-07-28 (the extension `io.modelcontextprotocol/tasks`): every request opts in through
 *   its `_meta` client capabilities; the server alone decides to answer `resultType: "task"`;
 *   `tasks/get` answers the detailed task with its `result`, `error` or `inputRequests`, which the
 *   driver answers with `tasks/update`; `tasks/cancel` is acknowledged with an empty result.
 */
import { valueAt } from "../util/value-at.js";
import { META } from "../protocol/meta-keys.js";
import { isObject } from "../protocol/jsonrpc.js";
import { RequestFailedError, type ProcessContext } from "./errors.js";
import type { JsonObject, RequestSpec, ServerRequestContext } from "./request-types.js";
import { TaskError } from "./task-errors.js";
import { readSnapshot, type TaskOptions, type TaskSnapshot } from "./task-types.js";

/** The id of the tasks extension, as `server/discover` advertises it and a request declares it. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** How a task's requests reach the server, and how its input requests are answered. */
export interface TaskRequests {
  /** The tool the task runs, for messages. */
  readonly toolName: string;
  send(method: string, params: JsonObject, spec: RequestSpec): Promise<JsonObject>;
  /** Answers one input request (the call's `onServerRequest`, then the driver's handlers). */
  answer(method: string, params: JsonObject | undefined, context: ServerRequestContext): Promise<JsonObject>;
  processContext(): ProcessContext | undefined;
}

/** What a finished task ended with: the tool's result, or the JSON-RPC error it failed with. */
export type TaskOutcome = { result: JsonObject } | { error: { code: number; message: string; data?: unknown } };

export interface TaskWire {
  /** The protocol the wire speaks, for messages ("2025-11-25 core tasks"). */
  readonly speaks: string;
  /** Where the server's capabilities say it runs tool calls as tasks ("capabilities.tasks.requests.tools.call"). */
  readonly advertisedAt: string;
  /** Whether the server's capabilities say it runs tool calls as tasks. */
  advertisedBy(capabilities: JsonObject | undefined): boolean;
  /** A tool call's params, asking for a task. */
  ask(params: JsonObject, options: TaskOptions): JsonObject;
  /** The task a tool call's answer started; undefined when it answered at once; a sentence when it is a malformed task. */
  created(result: JsonObject): TaskSnapshot | undefined | string;
  /** The params of a `tasks/*` request about `taskId`. */
  params(taskId: string, extra?: JsonObject): JsonObject;
  /** Reads `tasks/get`'s answer. */
  snapshot(result: JsonObject): TaskSnapshot | string;
  /**
   * While the task is `input_required`: gives the server its input. Resolves with the task's
   * outcome when the era's way of giving input brings it too (2025-11-25's `tasks/result`).
   */
  provideInput(task: TaskSnapshot, answered: Set<string>, io: TaskRequests, spec: RequestSpec): Promise<TaskOutcome | undefined>;
  /** Once the task is `completed` or `failed`: what it ended with. */
  outcome(task: TaskSnapshot, io: TaskRequests, spec: RequestSpec): Promise<TaskOutcome>;
  /** `tasks/update` with input responses; refused where the era has none. */
  update(task: TaskSnapshot, inputResponses: JsonObject, io: TaskRequests, spec: RequestSpec): Promise<void>;
  /** `tasks/cancel`: the task as the server answered it, when it answers with one. */
  cancel(taskId: string, io: TaskRequests, spec: RequestSpec): Promise<TaskSnapshot | undefined>;
}

/** 2025-11-25: core tasks. */
export const legacyTaskWire: TaskWire = {
  speaks: "2025-11-25 (core tasks)",
  advertisedAt: "capabilities.tasks.requests.tools.call",
  advertisedBy: (capabilities) => isObject(valueAt(capabilities, ["tasks", "requests", "tools", "call"])),
  ask(params, options) {
    return { ...params, task: options.ttlMs === undefined ? {} : { ttl: options.ttlMs } };
  },
  created(result) {
    if (!("task" in result) || "content" in result) return undefined;
    return readSnapshot(result.task, LEGACY_NAMES);
  },
  params: (taskId, extra) => ({ taskId, ...extra }),
  snapshot: (result) => readSnapshot(result, LEGACY_NAMES),
  // The server's requests arrive on the tasks/result stream, answered as the driver answers any; it ends with the outcome.
  provideInput: (task, _answered, io, spec) => legacyResult(task, io, spec),
  outcome: (task, io, spec) => legacyResult(task, io, spec),
  update(task, _inputResponses, io) {
    throw new TaskError(
      `Task ${task.taskId}: ${legacyTaskWire.speaks} has no tasks/update; a server asks for input with its own requests on the tasks/result stream, which wait() opens and the driver's handlers (onElicitation, onSampling, roots) answer.`,
      { reason: "notInThisEra", toolName: io.toolName, task, method: "tasks/update", process: io.processContext() },
    );
  },
  async cancel(taskId, io, spec) {
    const answer = await io.send("tasks/cancel", { taskId }, spec);
    const read = readSnapshot(answer, LEGACY_NAMES);
    return typeof read === "string" ? undefined : read;
  },
};

const LEGACY_NAMES = { ttl: "ttl", pollInterval: "pollInterval" };
const EXTENSION_NAMES = { ttl: "ttlMs", pollInterval: "pollIntervalMs" };

/** `tasks/result`: blocks until the task is terminal, answering the requests the server sends on its stream meanwhile. */
async function legacyResult(task: TaskSnapshot, io: TaskRequests, spec: RequestSpec): Promise<TaskOutcome> {
  try {
    const result = await io.send("tasks/result", { taskId: task.taskId }, { ...spec, label: `tasks/result ${task.taskId}` });
    return { result };
  } catch (error) {
    // A task that failed with a JSON-RPC error answers tasks/result with that error.
    if (error instanceof RequestFailedError && !(error instanceof TaskError) && error.code !== undefined) {
      return { error: { code: error.code, message: error.serverMessage ?? "", data: error.data } };
    }
    throw error;
  }
}

/** 2026-07-28: the extension `io.modelcontextprotocol/tasks`, declared in each request's `_meta`. */
export class ExtensionTaskWire implements TaskWire {
  readonly speaks = `2026-07-28 (the ${TASKS_EXTENSION} extension)`;
  readonly advertisedAt = `capabilities.extensions["${TASKS_EXTENSION}"] (server/discover)`;

  /** `requestMeta`: the `_meta` the era gives every request (its client capabilities are extended). */
  constructor(private readonly requestMeta: () => JsonObject | undefined) {}

  advertisedBy(capabilities: JsonObject | undefined): boolean {
    return isObject(valueAt(capabilities, ["extensions", TASKS_EXTENSION]));
  }

  ask(params: JsonObject): JsonObject {
    return { ...params, _meta: { ...(isObject(params._meta) ? params._meta : {}), ...this.optIn() } };
  }

  created(result: JsonObject): TaskSnapshot | undefined | string {
    return result.resultType === "task" ? readSnapshot(result, EXTENSION_NAMES) : undefined;
  }

  params(taskId: string, extra?: JsonObject): JsonObject {
    return { taskId, ...extra, _meta: this.optIn() };
  }

  snapshot(result: JsonObject): TaskSnapshot | string {
    return readSnapshot(result, EXTENSION_NAMES);
  }

  async provideInput(task: TaskSnapshot, answered: Set<string>, io: TaskRequests, spec: RequestSpec): Promise<undefined> {
    const waiting = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
    if (waiting.length === 0) return undefined;
    const signal = spec.signal ?? new AbortController().signal;
    const responses: JsonObject = {};
    for (const [key, request] of waiting) {
      if (!isObject(request) || typeof request.method !== "string") {
        throw new TaskError(`Task ${task.taskId}: input request ${JSON.stringify(key)} is not a request object ({ method, params }): ${JSON.stringify(request)}.`, {
          reason: "malformedTask",
          toolName: io.toolName,
          task,
          process: io.processContext(),
        });
      }
      responses[key] = await io.answer(request.method, isObject(request.params) ? request.params : undefined, { method: request.method, requestId: key, signal });
    }
    await this.update(task, responses, io, spec);
    for (const [key] of waiting) answered.add(key);
    return undefined;
  }

  async outcome(task: TaskSnapshot, io: TaskRequests): Promise<TaskOutcome> {
    if (task.status === "failed" && task.error !== undefined) return { error: task.error };
    if (task.status === "completed" && task.result !== undefined) return { result: task.result };
    const missing = task.status === "failed" ? "error (a JSON-RPC error object)" : "result (the tool's result)";
    throw new TaskError(`Task ${task.taskId} is ${task.status}, but tasks/get did not carry its ${missing}; a ${task.status} task's tasks/get must (${this.speaks}).`, {
      reason: "malformedTask",
      toolName: io.toolName,
      task,
      method: "tasks/get",
      process: io.processContext(),
    });
  }

  async update(task: TaskSnapshot, inputResponses: JsonObject, io: TaskRequests, spec: RequestSpec): Promise<void> {
    await io.send("tasks/update", this.params(task.taskId, { inputResponses }), { ...spec, label: `tasks/update ${task.taskId}` });
  }

  async cancel(taskId: string, io: TaskRequests, spec: RequestSpec): Promise<undefined> {
    await io.send("tasks/cancel", this.params(taskId), spec);
    return undefined;
  }

  /** The client capabilities every request declares, with the extension added. */
  private optIn(): JsonObject {
    const declared = this.requestMeta()?.[META.clientCapabilities];
    const capabilities = isObject(declared) ? declared : {};
    const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
    return { [META.clientCapabilities]: { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } } };
  }
}
