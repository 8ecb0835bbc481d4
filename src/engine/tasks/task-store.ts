/**
 * The tasks a mock keeps, bounded: a task is forgotten once its TTL has passed (checked as
 * tasks are made and looked up, so no timer per task), and no more than `limit` live at once. A
 * task made at the cap is refused with an error that says so; memory never grows without end.
 */
import { randomUUID } from "node:crypto";
import type { TaskRecord } from "../call-log.js";
import { Task } from "./task.js";

/** How many tasks a mock keeps at once by default. */
export const DEFAULT_TASK_LIMIT = 10_000;

export class TaskLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`the mock keeps at most ${limit} tasks at once and has that many live; finish, cancel or let some expire (their TTL), or call server.reset()`);
  }
}

export class TaskStore {
  // Insertion order is creation order, so the oldest tasks are looked at first when sweeping.
  private readonly tasks = new Map<string, Task>();

  constructor(
    readonly limit: number = DEFAULT_TASK_LIMIT,
    /** Told each task the store forgets (expired, cleared), after its work was stopped. */
    private readonly forgotten?: (task: Task, reason: string) => void,
  ) {}

  get size(): number {
    return this.tasks.size;
  }

  /** A new task, after forgetting the expired ones; throws TaskLimitReached at the cap. */
  create(owner: string, ttlMs: number, pollIntervalMs: number, record: Omit<TaskRecord, "id">, message?: string): Task {
    const now = Date.now();
    this.sweep(now, 64);
    if (this.tasks.size >= this.limit) this.sweep(now, Number.POSITIVE_INFINITY);
    if (this.tasks.size >= this.limit) throw new TaskLimitReached(this.limit);
    const id = randomUUID();
    const task = new Task({ id, owner, ttlMs, pollIntervalMs, message, record: Object.assign(record, { id }) as TaskRecord });
    this.tasks.set(id, task);
    return task;
  }

  /** The task with this id, if it exists and has not expired (an expired one is forgotten now). */
  get(id: string, now = Date.now()): Task | undefined {
    const task = this.tasks.get(id);
    if (task === undefined) return undefined;
    if (task.expiresAt <= now) {
      this.forget(task, "its TTL passed");
      return undefined;
    }
    return task;
  }

  /** The live tasks of `owner`, oldest first. */
  ownedBy(owner: string): Task[] {
    const now = Date.now();
    const owned: Task[] = [];
    for (const task of [...this.tasks.values()]) if (task.owner === owner && this.get(task.id, now) !== undefined) owned.push(task);
    return owned;
  }

  /** Every live task (for notifications to listeners). */
  all(): IterableIterator<Task> {
    return this.tasks.values();
  }

  forget(task: Task, reason: string): void {
    if (this.tasks.get(task.id) !== task) return;
    this.tasks.delete(task.id);
    task.drop(`task ${task.id} was forgotten: ${reason}`);
    this.forgotten?.(task, reason);
  }

  clear(reason: string): void {
    for (const task of [...this.tasks.values()]) this.forget(task, reason);
  }

  /** Forgets up to `budget` expired tasks among the oldest (TTLs differ, so a young expired one may wait for a full sweep). */
  private sweep(now: number, budget: number): void {
    let looked = 0;
    for (const task of this.tasks.values()) {
      if (looked++ >= budget) return;
      if (task.expiresAt <= now) this.forget(task, "its TTL passed");
    }
  }
}
