/**
 * The tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`): a tool call the server
 * chose to run as a task answers `resultType: "task"` with the task's fields flat beside it,
 * `tasks/get` answers the detailed task (its `result` once completed, its `error` once failed, its
 * `inputRequests` while it waits for input), `tasks/update` carries `inputResponses`, and both
 * `tasks/update` and `tasks/cancel` are acknowledged with an empty result. Field names follow the
 * conformance suite (`ttlMs`, `pollIntervalMs`, integer milliseconds; docs/decisions.md says why).
 */
import { zod } from "../../../util/zod-on-demand.js";
import { requestParams, resultObject, sharedShapes } from "./base.js";
import type { Schema } from "./combinators.js";
import type { SchemaKit } from "./kit.js";

export interface TasksExtensionSchemas {
  /** A tool call's answer when the server made a task of it (`resultType: "task"`). */
  createTaskResult: Schema;
  /** `tasks/get`'s answer. */
  detailedTask: Schema;
  /** `tasks/update`'s params. */
  updateParams: Schema;
  /** The empty acknowledgement of `tasks/update` and `tasks/cancel`. */
  ack: Schema;
}

export function tasksExtensionSchemas(kit: SchemaKit): TasksExtensionSchemas {
  const z = zod();
  const { emptyResult, jsonObject } = sharedShapes();
  const { since } = kit;
  const task = {
    taskId: z.string(),
    status: z.enum(["working", "input_required", "completed", "failed", "cancelled"]),
    statusMessage: z.string().optional(),
    createdAt: z.string(),
    lastUpdatedAt: z.string(),
    ttlMs: z.int().positive().nullable(),
    pollIntervalMs: z.int().positive().optional(),
  };
  const inputRequest = z.looseObject({ method: z.string(), params: jsonObject.optional() });
  const error = z.looseObject({ code: z.int(), message: z.string(), data: z.unknown().optional() });
  return {
    createTaskResult: since("tasksExtension", resultObject(task)),
    detailedTask: since("tasksExtension", resultObject({ ...task, result: jsonObject.optional(), error: error.optional(), inputRequests: z.record(z.string(), inputRequest).optional() })),
    updateParams: since("tasksExtension", requestParams({ taskId: z.string(), inputResponses: z.record(z.string(), jsonObject) })),
    ack: since("tasksExtension", emptyResult),
  };
}
