/**
 * The task methods: `tasks/get` and `tasks/cancel` (both revisions), `tasks/result` and
 * `tasks/list` (2025-11-25), `tasks/update` (2026-07-28). Each finds the task among its
 * sender's own (another client's id is as unknown as one never made), records what the client
 * did on the task's call record, and answers in the request's revision.
 */
import { ErrorCode } from "../../protocol/errors.js";
import { META } from "../../protocol/meta-keys.js";
import { versionHas } from "../../protocol/versions.js";
import { askClient } from "../ask-client.js";
import { ServerRequestError, type Connection } from "../connection.js";
import type { HandlerInput, RequestHandler } from "../methods/handler-input.js";
import { replyError, replyWith, RpcError, type Outcome } from "../outcome.js";
import { paginate } from "../pagination.js";
import type { Task } from "./task.js";
import { coreTask, declaresTasks, relatedResult, taskForGet, tasksCapabilityMissing, unknownTask } from "./task-wire.js";
import { ownerOf, type TasksState } from "./tasks-state.js";

type Json = Record<string, unknown>;

/** The most `inputResponses` keys one `tasks/update` may carry. */
export const MAX_INPUT_RESPONSES = 64;
/** The most text one `tasks/update`'s `inputResponses` may hold, as JSON. */
export const MAX_INPUT_RESPONSES_CHARS = 1_000_000;

/** The sender's task named by `params.taskId` (refusing a client without the extension in 2026-07-28). */
function ownTask(tasks: TasksState, input: HandlerInput): Task {
  const { params, request, context, connection } = input;
  if (versionHas(context.protocolVersion, "tasksExtension") && !declaresTasks(context.client?.capabilities)) {
    throw new RpcError(ErrorCode.MissingRequiredClientCapability, tasksCapabilityMissing(request.method).message, tasksCapabilityMissing(request.method).data);
  }
  const taskId = params.taskId;
  if (typeof taskId !== "string" || taskId.length === 0) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params for ${request.method}: "taskId" must be the string id of a task (the taskId of the call's task answer), got ${JSON.stringify(taskId) ?? "nothing"}`,
    );
  }
  const task = tasks.store.get(taskId);
  // Another owner's task is reported as unknown: its existence is not the sender's to learn.
  if (task === undefined || task.owner !== ownerOf(connection, context)) {
    const error = unknownTask(request.method, taskId, false);
    throw new RpcError(error.code, error.message, error.data);
  }
  return task;
}

export function tasksGet(tasks: TasksState): RequestHandler {
  return (input) => {
    const task = ownTask(tasks, input);
    tasks.lives.get(task.id)?.polled();
    task.record.polls.push({ method: "tasks/get", at: Date.now(), status: task.status });
    return replyWith(input.request.id, taskForGet(task, input.context.protocolVersion));
  };
}

export function tasksCancel(tasks: TasksState): RequestHandler {
  return (input) => {
    const task = ownTask(tasks, input);
    const extension = versionHas(input.context.protocolVersion, "tasksExtension");
    task.record.cancels.push({ at: Date.now(), status: task.status });
    if (task.terminal) {
      // 2026-07-28 (as the conformance suite has it): the same empty acknowledgement; 2025-11-25: -32602.
      if (extension) return replyWith(input.request.id, {});
      return replyError(input.request.id, {
        code: ErrorCode.InvalidParams,
        message: `Invalid params for tasks/cancel: task ${task.id} is already ${task.status}, and a terminal task cannot be cancelled`,
        data: { taskId: task.id, status: task.status },
      });
    }
    task.cancel();
    return replyWith(input.request.id, extension ? {} : coreTask(task));
  };
}

export function tasksUpdate(tasks: TasksState): RequestHandler {
  return (input) => {
    const task = ownTask(tasks, input);
    const responses = input.params.inputResponses;
    if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params for tasks/update: "inputResponses" must be an object mapping each inputRequests key to the client\'s result for it');
    }
    const keys = Object.keys(responses);
    if (keys.length > MAX_INPUT_RESPONSES) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for tasks/update: "inputResponses" has ${keys.length} keys; at most ${MAX_INPUT_RESPONSES} are taken (answer the task's inputRequests, a few at a time)`,
      );
    }
    if (JSON.stringify(responses).length > MAX_INPUT_RESPONSES_CHARS) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for tasks/update: "inputResponses" is over ${MAX_INPUT_RESPONSES_CHARS} characters of JSON; send each answer as the result object its input request asked for`,
      );
    }
    const malformed = keys.find((key) => task.inputs.has(key) && !isObject((responses as Json)[key]));
    if (malformed !== undefined) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for tasks/update: inputResponses[${JSON.stringify(malformed)}] must be the result object of the ${task.inputs.get(malformed)!.method} the task asked for`,
      );
    }
    // Keys the task does not wait for (never asked, answered already, a terminal task) are ignored, as the extension says.
    const accepted = task.answer(responses as Json);
    task.record.updates.push({ at: Date.now(), keys, accepted });
    return replyWith(input.request.id, {});
  };
}

/** 2025-11-25: blocks until the task is terminal, sending its input requests on this stream meanwhile. */
export function tasksResult(tasks: TasksState): RequestHandler {
  return (input) => {
    const task = ownTask(tasks, input);
    task.record.polls.push({ method: "tasks/result", at: Date.now(), status: task.status });
    if (task.terminal) return resultOf(task, input);
    return new Promise<Outcome>((resolve) => {
      const stop = task.onChange(() => {
        sendInputs(task, input.connection, input.request.id);
        if (!task.terminal) return;
        stop();
        resolve(resultOf(task, input));
      });
      // Dropped (expired, reset): the waiting request learns why.
      task.controller.signal.addEventListener(
        "abort",
        () => {
          stop();
          if (!task.terminal) resolve(replyError(input.request.id, unknownTask("tasks/result", task.id, true)));
        },
        { once: true },
      );
      sendInputs(task, input.connection, input.request.id);
      tasks.lives.get(task.id)?.awaited();
    });
  };
}

function resultOf(task: Task, input: HandlerInput): Outcome {
  if (task.status === "completed") return replyWith(input.request.id, relatedResult(task));
  if (task.status === "failed") return replyError(input.request.id, task.error ?? { code: ErrorCode.InternalError, message: "the task failed" });
  return replyError(input.request.id, { code: ErrorCode.InternalError, message: `task ${task.id} was cancelled: it has no result`, data: { taskId: task.id, status: "cancelled" } });
}

/** 2025-11-25: the task's outstanding asks, each sent once as a request on the tasks/result stream. */
function sendInputs(task: Task, connection: Connection, relatedRequestId: string | number): void {
  for (const pending of task.inputs.values()) {
    if (pending.sent) continue;
    pending.sent = true;
    const params = { ...pending.params, _meta: { ...(pending.params?._meta as Json | undefined), [META.relatedTask]: { taskId: task.id } } };
    askClient(connection, pending.method, params, {
      relatedRequestId,
      giveUps: [[task.controller.signal, undefined]],
      asking: new Set(),
      declared: () => connection.negotiated.clientCapabilities,
    }).then(
      (result) => task.answer({ [pending.key]: result }),
      (error: unknown) => {
        // No answer (the stream went away): asked again on the next tasks/result. An error answer ends the ask.
        if (error instanceof ServerRequestError && !error.unanswered) task.refuseInput(pending.key, error.error);
        else pending.sent = false;
      },
    );
  }
}

/** 2025-11-25: the sender's tasks, a page at a time. */
export function tasksList(tasks: TasksState): RequestHandler {
  return (input) => {
    const owned = tasks.store.ownedBy(ownerOf(input.connection, input.context));
    const { page, nextCursor } = paginate(owned, input.params.cursor, input.state.pageSize);
    const result: Json = { tasks: page.map(coreTask) };
    if (nextCursor !== undefined) result.nextCursor = nextCursor;
    return replyWith(input.request.id, result);
  };
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
