/**
 * The `task` step kind: how a tool call is answered with a task. It decides whether the call
 * can take one (2025-11-25: the client sent `params.task` to a tool that allows it; 2026-07-28:
 * the request declared the extension), refuses a call that needs one and cannot have it, makes
 * the task, answers the call with it, and lets the step's script or the step function drive it.
 */
import type { TaskScript } from "../../formats/task-step.js";
import { MAX_TIMER_MS } from "../../util/timer-ms.js";
import { versionHas } from "../../protocol/versions.js";
import type { StepKindSpec } from "../features/feature.js";
import type { StepKindCall } from "../step-kind-call.js";
import type { StepObject } from "../steps.js";
import { ScriptedLife } from "./scripted-life.js";
import type { Task } from "./task.js";
import { makeCallTask, type HandleLink } from "./task-handle.js";
import { createTaskResult, declaresTasks, taskForbidden, taskRequired, tasksCapabilityMissing } from "./task-wire.js";
import { TaskLimitReached } from "./task-store.js";
import type { TasksState } from "./tasks-state.js";
import { ErrorCode } from "../../protocol/errors.js";

/** How long a task is kept when neither its script nor its client says (ms). */
export const DEFAULT_TASK_TTL_MS = 300_000;
/** The poll interval a task suggests when its script does not say (ms). */
export const DEFAULT_POLL_INTERVAL_MS = 100;

type Json = Record<string, unknown>;

function taskSupport(call: StepKindCall): unknown {
  return call.execution?.taskSupport;
}

/** Whether the client asked for a task (2025-11-25's `params.task`). */
function askedForTask(call: StepKindCall): boolean {
  const task = call.params.task;
  return typeof task === "object" && task !== null && !Array.isArray(task);
}

/** Whether this call may be answered with a task at all. */
export function canTakeTask(call: StepKindCall): boolean {
  const version = call.context.protocolVersion;
  if (versionHas(version, "tasksExtension")) return declaresTasks(call.context.client?.capabilities ?? call.connection.negotiated.clientCapabilities);
  if (versionHas(version, "coreTasks")) return askedForTask(call) && taskSupport(call) !== "forbidden";
  return false;
}

export function taskStepKind(tasks: TasksState): StepKindSpec {
  const links = new WeakMap<StepKindCall, HandleLink>();
  return {
    key: "task",
    admit(call) {
      const version = call.context.protocolVersion;
      const support = taskSupport(call);
      if (versionHas(version, "coreTasks")) {
        if (support === "required" && !askedForTask(call)) return taskRequired(call.record.tool);
        if (support === "forbidden" && askedForTask(call)) return taskForbidden(call.record.tool);
      } else if (versionHas(version, "tasksExtension") && support === "required" && !canTakeTask(call)) {
        return tasksCapabilityMissing(`tool "${call.record.tool}" (it runs only as a task)`);
      }
      return undefined;
    },
    claims(call) {
      if (!canTakeTask(call)) return false;
      return taskSupport(call) === "required" || (versionHas(call.context.protocolVersion, "coreTasks") && askedForTask(call));
    },
    answer(step, call) {
      if (!canTakeTask(call)) return undefined;
      const script: TaskScript = step.task ?? {};
      let task: Task;
      try {
        task = tasks.create(call, script);
      } catch (error) {
        if (error instanceof TaskLimitReached) return call.failWith({ code: ErrorCode.InternalError, message: `Cannot create a task: ${error.message}`, data: { limit: error.limit } });
        throw error;
      }
      const link = links.get(call);
      const reply = call.reply(createTaskResult(task, call.context.protocolVersion));
      if (call.later !== undefined) runFunctionLife(task, call, link);
      else {
        const life = new ScriptedLife(task, script, step, call);
        tasks.lives.set(task.id, life);
        // After the reply is made: a task with nothing to wait for is seen working when created, and done at the first poll.
        queueMicrotask(() => life.start());
      }
      if (link !== undefined) link.task = task;
      return reply;
    },
    plain(step) {
      const { task, ...rest } = step as StepObject & { task?: TaskScript };
      // A client that cannot take a task still waits as long as the task would have worked.
      const workingMs = task?.workingMs ?? 0;
      return (workingMs > 0 ? { ...rest, delayMs: Math.min(MAX_TIMER_MS, (rest.delayMs ?? 0) + workingMs) } : rest) as StepObject;
    },
    handle(call) {
      const link: HandleLink = {};
      links.set(call, link);
      const support = taskSupport(call);
      return makeCallTask(call, link, canTakeTask(call) && support !== "forbidden");
    },
  };
}

/** A step function's task: its asks go to the task, its signal follows the task, its value is the outcome. */
function runFunctionLife(task: Task, call: StepKindCall, link: HandleLink | undefined): void {
  if (link !== undefined) {
    link.task = task;
    for (const act of link.pending?.splice(0) ?? []) act(task);
  }
  call.interaction?.continueAs((method, params, exchange, options) => task.ask(method, params, exchange, options?.key), task.controller.signal);
  void call.later!.then((settled) => {
    if (task.terminal) return;
    const step = call.stepOf(settled);
    if ("error" in step) return void task.fail(step.error);
    const given = call.answerOf(withoutTask(step as StepObject));
    if ("error" in given) task.fail(given.error);
    else task.complete(given.result as Json);
  });
}

function withoutTask(step: StepObject): StepObject {
  if ((step as { task?: unknown }).task === undefined) return step;
  const { task: _task, ...rest } = step as StepObject & { task?: unknown };
  return rest as StepObject;
}
