/**
 * How a task looks on the wire, per revision: 2025-11-25's core tasks (`ttl`, `pollInterval`, a
 * create result wrapping `task`) and 2026-07-28's extension (`ttlMs`, `pollIntervalMs`, a flat
 * create result of `resultType: "task"`, a detailed task with `result`, `error` or
 * `inputRequests`). The field names follow the conformance suite where the extension's text
 * differs (docs/decisions.md).
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import { META, TASKS_EXTENSION } from "../../protocol/meta-keys.js";
import { revisionsWith, versionHas } from "../../protocol/versions.js";
import type { Task } from "./task.js";

type Json = Record<string, unknown>;

/** The task as 2025-11-25 shows it (tasks/get, tasks/cancel, notifications/tasks/status, inside a create result). */
export function coreTask(task: Task): Json {
  const shown: Json = { taskId: task.id, status: task.status };
  if (task.statusMessage !== undefined) shown.statusMessage = task.statusMessage;
  shown.createdAt = task.createdIso;
  shown.lastUpdatedAt = task.updatedIso;
  shown.ttl = task.ttlMs;
  shown.pollInterval = task.pollIntervalMs;
  return shown;
}

/** The task as the extension shows it, without its status payload (a create result's fields). */
function extensionTask(task: Task): Json {
  const shown: Json = { taskId: task.id, status: task.status };
  if (task.statusMessage !== undefined) shown.statusMessage = task.statusMessage;
  shown.createdAt = task.createdIso;
  shown.lastUpdatedAt = task.updatedIso;
  shown.ttlMs = task.ttlMs;
  shown.pollIntervalMs = task.pollIntervalMs;
  return shown;
}

/** The extension's detailed task (tasks/get, notifications/tasks): the status's payload inlined. */
export function detailedTask(task: Task): Json {
  const shown = extensionTask(task);
  if (task.status === "completed" && task.result !== undefined) shown.result = task.result;
  else if (task.status === "failed" && task.error !== undefined) shown.error = task.error;
  else if (task.status === "input_required") shown.inputRequests = task.inputRequests();
  return shown;
}

/** What answers the `tools/call` that made the task, in the request's revision. */
export function createTaskResult(task: Task, version: string): Json {
  if (versionHas(version, "tasksExtension")) return { resultType: "task", ...extensionTask(task) };
  return { task: coreTask(task) };
}

/** What tasks/get answers, in the request's revision. */
export function taskForGet(task: Task, version: string): Json {
  return versionHas(version, "tasksExtension") ? detailedTask(task) : coreTask(task);
}

/** 2025-11-25 tasks/result: the original result, naming its task in `_meta`. */
export function relatedResult(task: Task): Json {
  const result = task.result ?? {};
  const meta = typeof result._meta === "object" && result._meta !== null ? (result._meta as Json) : {};
  return { ...result, _meta: { ...meta, [META.relatedTask]: { taskId: task.id } } };
}

/** Whether a request's client declared the tasks extension (per request, in 2026-07-28). */
export function declaresTasks(capabilities: Json | undefined): boolean {
  const extensions = capabilities?.extensions;
  return typeof extensions === "object" && extensions !== null && (extensions as Json)[TASKS_EXTENSION] !== undefined;
}

/** -32021: the client did not declare the extension `what` needs. */
export function tasksCapabilityMissing(what: string): JsonRpcErrorObject {
  return {
    code: ErrorCode.MissingRequiredClientCapability,
    message: `Missing required client capability: ${what} needs the tasks extension; declare "${TASKS_EXTENSION}": {} in the request's _meta client capabilities (extensions)`,
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  };
}

/** -32602: no task by this id for this client (never made, expired, or another's: the same words, so ids do not leak). */
export function unknownTask(method: string, taskId: unknown, expired: boolean): JsonRpcErrorObject {
  const why = expired ? "it has expired (its TTL passed) and was forgotten" : "no task by that id was created for this client (or it expired)";
  return { code: ErrorCode.InvalidParams, message: `Failed to retrieve task: ${method} for task ${JSON.stringify(taskId)}: ${why}. Use the taskId of a task this client created.`, data: { taskId } };
}

/** -32601 for a 2025-11-25 call with `params.task` to a tool that does not run as a task. */
export function taskForbidden(tool: string): JsonRpcErrorObject {
  return {
    code: ErrorCode.MethodNotFound,
    message: `Tool "${tool}" does not support tasks (its execution.taskSupport is "forbidden" or not given), so it cannot be called with params.task; call it without a task, or declare execution: { taskSupport: "optional" } (or give its step a "task")`,
    data: { tool, taskSupport: "forbidden" },
  };
}

/** -32601 for a 2025-11-25 call without `params.task` to a tool that only runs as a task. */
export function taskRequired(tool: string): JsonRpcErrorObject {
  return {
    code: ErrorCode.MethodNotFound,
    message: `Tool "${tool}" requires a task (execution.taskSupport is "required"): call it with params.task, e.g. { "task": { "ttl": 60000 } } (${revisionsWith("coreTasks")})`,
    data: { tool, taskSupport: "required" },
  };
}
