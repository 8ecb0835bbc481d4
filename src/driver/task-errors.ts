/**
 * What a task call throws, as data: `TaskError` with a `reason` (the server answered with no
 * task, does not know the task, the task failed or was cancelled, the deadline passed, an input
 * request could not be answered, the era has no such request), the task's id, its last snapshot
 * and status history, and the JSON-RPC error of a failed task. Each message says what happened,
 * what was expected and what to do.
 */
import type { JsonObject } from "./request-types.js";
import { McpDriverError, type ProcessContext } from "./errors.js";
import type { TaskSnapshot, TaskStatusChange } from "./task-types.js";

/** Why a task call failed. */
export type TaskFailure =
  /** `startTask`: the server answered the call at once, with no task (`result` is its answer). */
  | "noTask"
  /** The server's capabilities do not say it runs tool calls as tasks, so none was asked for. */
  | "notAdvertised"
  /** The server answered a task request (or a tool call) with something that is not a task. */
  | "malformedTask"
  /** The server does not know the task (-32602): it expired, or never existed, or is not the caller's. */
  | "unknownTask"
  /** The task ended `failed` (`error` is the JSON-RPC error it failed with). */
  | "failed"
  /** `cancel()` of a task that had already ended, refused by the server (-32602, as 2025-11-25 says). */
  | "alreadyEnded"
  /** The task ended `cancelled`. */
  | "cancelled"
  /** The task was still not finished when the deadline passed. */
  | "deadline"
  /** A request the era spoken has not (`update()` in 2025-11-25, where input goes on the tasks/result stream). */
  | "notInThisEra";

interface TaskErrorDetails {
  reason: TaskFailure;
  toolName: string;
  taskId?: string | undefined;
  task?: TaskSnapshot | undefined;
  history?: readonly TaskStatusChange[] | undefined;
  error?: { code: number; message: string; data?: unknown } | undefined;
  result?: JsonObject | undefined;
  method?: string | undefined;
  cause?: unknown;
  process?: ProcessContext | undefined;
}

export class TaskError extends McpDriverError {
  override name = "TaskError";
  readonly reason: TaskFailure;
  readonly toolName: string;
  readonly taskId: string | undefined;
  /** The last thing the server said of the task. */
  readonly task: TaskSnapshot | undefined;
  /** Every status the task went through, as the driver saw it. */
  readonly history: readonly TaskStatusChange[];
  /** `failed`: the JSON-RPC error the task failed with. */
  readonly error: { code: number; message: string; data?: unknown } | undefined;
  /** `noTask`: what the server answered instead. */
  readonly result: JsonObject | undefined;

  constructor(message: string, details: TaskErrorDetails) {
    super(message, { method: details.method, cause: details.cause, process: details.process });
    this.reason = details.reason;
    this.toolName = details.toolName;
    this.taskId = details.taskId ?? details.task?.taskId;
    this.task = details.task;
    this.history = details.history ?? [];
    this.error = details.error;
    this.result = details.result;
  }
}

/** The statuses as a short trail: `working ("computing") → input_required → completed`. */
export function describeHistory(history: readonly TaskStatusChange[]): string {
  if (history.length === 0) return "(no status seen)";
  return history.map((change) => (change.statusMessage === undefined ? change.status : `${change.status} (${JSON.stringify(change.statusMessage)})`)).join(" → ");
}
