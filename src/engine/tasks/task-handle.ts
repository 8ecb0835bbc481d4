/**
 * `call.task`: a step function's hold on its call as a task. `start()` answers the call with a
 * task now (when the client can take one) and the function's work goes on as the task's: its
 * asks become the task's input (2026-07-28: `inputRequests` answered by `tasks/update`;
 * 2025-11-25: `input_required`, the request sent on the `tasks/result` stream), its signal aborts
 * when the task is cancelled or expires, and what it returns is the task's outcome.
 */
import type { TaskScript } from "../../formats/task-step.js";
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import type { LiveCall } from "../call-context.js";
import type { StepKindCall } from "../step-kind-call.js";
import type { StepObject, ThrownError } from "../steps.js";
import type { Task } from "./task.js";

/** What `call.task.start()` takes: how the task is shown (its life is the function's). */
export type TaskStart = Pick<TaskScript, "message" | "pollIntervalMs" | "ttlMs">;

export interface CallTask {
  /** Whether the call can be answered with a task: the client can take one and the tool allows it. */
  readonly possible: boolean;
  /** The task's id, once started. */
  readonly id: string | undefined;
  /** The task's status now (`undefined` before it started). */
  readonly status: string | undefined;
  /** Answers the call with a task now; false (and nothing happens) when the client cannot take one. */
  start(options?: TaskStart): boolean;
  /** Sets the status (`working` or `input_required`) and its message; a terminal task keeps its own. */
  setStatus(status: "working" | "input_required", message?: string): void;
  /** Sets the status message, keeping the status. */
  setMessage(message: string): void;
  /** Ends the task now, as `step` answers (its result, or its `throws` as a failure). */
  complete(step: StepObject): void;
  /** Ends the task as failed with this JSON-RPC error (a message alone: -32603). */
  fail(error: string | ThrownError): void;
}

/** Where a handle finds its call's task, once the step kind made it. */
export interface HandleLink {
  task?: Task;
  /** What `start()` said, for the step kind. */
  started?: TaskStart;
  /** What the function did to its task before the task was made (it is made once the function hands over or returns). */
  pending?: Array<(task: Task) => void>;
}

/** Runs `act` on the call's task now, or as soon as it is made. */
function onTask(link: HandleLink, act: (task: Task) => void): void {
  if (link.task !== undefined) act(link.task);
  else if (link.started !== undefined) (link.pending ??= []).push(act);
}

export function makeCallTask(call: StepKindCall, link: HandleLink, possible: boolean): CallTask {
  const live = (): LiveCall => call.interaction as LiveCall;
  return {
    possible,
    get id() {
      return link.task?.id;
    },
    get status() {
      return link.task?.status;
    },
    start(options: TaskStart = {}) {
      if (!possible) return false;
      if (link.started !== undefined) return true;
      link.started = options;
      live().handOver("task", { task: { ...options } });
      return true;
    },
    setStatus(status, message) {
      onTask(link, (task) => task.setStatus(status, message));
    },
    setMessage(message) {
      onTask(link, (task) => task.setStatus(task.status, message));
    },
    complete(step) {
      onTask(link, (task) => {
        if (task.terminal) return;
        const given = call.answerOf(step);
        if ("error" in given) task.fail(given.error);
        else task.complete(given.result as Record<string, unknown>);
      });
    },
    fail(error) {
      onTask(link, (task) => task.fail(asRpcError(error)));
    },
  };
}

function asRpcError(error: string | ThrownError): JsonRpcErrorObject {
  const given = typeof error === "string" ? { message: error } : error;
  const rpc: JsonRpcErrorObject = { code: given.code ?? ErrorCode.InternalError, message: given.message };
  if (given.data !== undefined) rpc.data = given.data;
  return rpc;
}
