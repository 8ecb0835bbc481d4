/**
 * What the tasks feature keeps for one mock: its bounded store, the scripted lives polls move
 * on, and what every new task is wired to: its call's record (ended with the task's outcome)
 * and its status notifications (2025-11-25: `notifications/tasks/status` to the session that
 * made it; 2026-07-28: `notifications/tasks` on the `subscriptions/listen` streams of its owner
 * that named it in `taskIds`).
 */
import type { TaskScript } from "../../formats/task-step.js";
import { isTimerMs } from "../../util/timer-ms.js";
import { versionHas } from "../../protocol/versions.js";
import type { Connection } from "../connection.js";
import type { RequestContext } from "../request-context.js";
import type { StepKindCall } from "../step-kind-call.js";
import { tagged } from "../methods/subscriptions.js";
import type { ScriptedLife } from "./scripted-life.js";
import type { Task } from "./task.js";
import { TaskStore } from "./task-store.js";
import { coreTask, detailedTask } from "./task-wire.js";
import { DEFAULT_POLL_INTERVAL_MS, DEFAULT_TASK_TTL_MS } from "./task-kind.js";

/**
 * Who may see and drive a task: the session that made it (legacy era), else the test id and
 * context on the mount the request came to (2026-07-28 has no sessions).
 */
export function ownerOf(connection: Connection, context: RequestContext): string {
  if (connection.session && !versionHas(context.protocolVersion, "perRequestMeta")) return `session:${connection.id}`;
  const { testId = "", context: scope = "" } = context.identity;
  return `mount:${context.mount ?? ""}\u0000test:${testId}\u0000context:${scope}`;
}

export class TasksState {
  readonly store: TaskStore;
  readonly lives = new Map<string, ScriptedLife>();

  /** The call each live task answers, to end its record when the task is forgotten before it ended. */
  private readonly calls = new Map<string, StepKindCall>();

  constructor(limit?: number) {
    this.store = new TaskStore(limit, (task, reason) => {
      this.lives.get(task.id)?.stop();
      this.lives.delete(task.id);
      const call = this.calls.get(task.id);
      this.calls.delete(task.id);
      if (call !== undefined && !task.terminal) call.end("cancelled", { reason: `the task was forgotten: ${reason}` });
    });
  }

  /** A new task for `call`, its record on the call, its notifications wired; throws TaskLimitReached at the cap. */
  create(call: StepKindCall, script: TaskScript): Task {
    const requested = (call.params.task as { ttl?: unknown } | undefined)?.ttl;
    const ttlMs = script.ttlMs ?? (isTimerMs(requested, { min: 1, whole: true }) ? requested : DEFAULT_TASK_TTL_MS);
    const record = { statuses: [], polls: [], updates: [], cancels: [] };
    // The first poll's scripted message is the one the task is created with.
    const message = Array.isArray(script.working) && script.working.length > 0 ? script.working[0] : script.message;
    const task = this.store.create(ownerOf(call.connection, call.context), ttlMs, script.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, record, message);
    call.record.task = task.record;
    this.calls.set(task.id, call);
    const extension = versionHas(call.context.protocolVersion, "tasksExtension");
    const connection = call.connection;
    const state = call.state;
    task.onChange((changed) => {
      if (extension) {
        for (const subscription of state.subscriptions) {
          const ids = subscription.filter.taskIds;
          if (ids === undefined || !ids.includes(changed.id) || ownerOf(subscription.connection, subscription.context) !== changed.owner) continue;
          subscription.connection.send(tagged("notifications/tasks", detailedTask(changed), subscription.id), { relatedRequestId: subscription.id });
        }
      } else connection.send({ jsonrpc: "2.0", method: "notifications/tasks/status", params: coreTask(changed) });
      if (changed.terminal) this.ended(changed, call);
    });
    return task;
  }

  /** Forgets a task's life (it is terminal, or dropped). */
  private ended(task: Task, call: StepKindCall): void {
    this.lives.get(task.id)?.stop();
    this.lives.delete(task.id);
    this.calls.delete(task.id);
    if (task.status === "completed") call.end(task.result?.isError === true ? "tool-error" : "result", { result: task.result });
    else if (task.status === "failed") call.end("protocol-error", { error: task.error });
    else call.end("cancelled", { reason: task.statusMessage ?? "the task was cancelled" });
  }

  /** Forgets every task (server.reset(), the mock closing). */
  clear(reason: string): void {
    this.store.clear(reason);
  }
}
