/**
 * A task as the driver sees it, the same in both eras: what the server said of it at one moment
 * (`TaskSnapshot`), and what a call asks of a task (`TaskOptions`). The two wires name some
 * fields differently (2025-11-25's `ttl` and `pollInterval`, the extension's `ttlMs` and
 * `pollIntervalMs`); a snapshot says each once, and keeps the answer as it came in `raw`.
 */
import { isObject } from "../protocol/jsonrpc.js";
import type { JsonObject } from "./request-types.js";

export const TASK_STATUSES = ["working", "input_required", "completed", "failed", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set<TaskStatus>(["completed", "failed", "cancelled"]);

export function isTerminalStatus(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}

/** What the server said of a task at one moment: on creation, or in answer to a poll. */
export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** How long the server keeps the task, in ms (null: for ever; undefined: it did not say). */
  ttlMs?: number | null;
  /** How often the server would like to be polled, in ms. */
  pollIntervalMs?: number;
  /** 2026-07-28: the input the task waits for, by key (`tasks/get` while `input_required`). */
  inputRequests?: JsonObject;
  /** 2026-07-28: the tool's result, once `completed`. */
  result?: JsonObject;
  /** 2026-07-28: the JSON-RPC error, once `failed`. */
  error?: { code: number; message: string; data?: unknown };
  /** When the driver read it, in ms since the epoch. */
  receivedAt: number;
  /** The answer as the server sent it. */
  raw: JsonObject;
}

/** One status a task went through, as the driver saw it (a change of status or of its message). */
export interface TaskStatusChange {
  status: TaskStatus;
  statusMessage?: string;
  /** When the driver saw it, in ms since the epoch. */
  at: number;
}

/** What a call asks of the task it starts: `callTool(name, args, { task: { … } })`, `startTask(name, args, { … })`. */
export interface TaskOptions {
  /**
   * How long the server should keep the task, in ms (2025-11-25 `params.task.ttl`). The tasks
   * extension of 2026-07-28 lets the server alone choose, so there it is not sent.
   */
  ttlMs?: number;
  /** How long `wait()` (and `callTool` with a task) polls before it gives up, in ms (default 60,000). */
  deadlineMs?: number;
  /** The interval between polls when the server names none, in ms (default 500). The server's own is honoured. */
  pollIntervalMs?: number;
  /** Called with each status change as the driver sees it (the first is the task's status on creation). */
  onStatus?: (change: TaskStatusChange, snapshot: TaskSnapshot) => void;
}

export const DEFAULT_TASK_DEADLINE_MS = 60_000;
export const DEFAULT_TASK_POLL_INTERVAL_MS = 500;
/** No server makes the driver poll faster than this (an interval of 0 would be a busy loop). */
export const MIN_TASK_POLL_INTERVAL_MS = 10;

/** Which names one wire gives the fields a snapshot reads. */
export interface TaskFieldNames {
  ttl: string;
  pollInterval: string;
}

/** The snapshot in `task` (an object with a task's fields), or a sentence saying what is wrong with it. */
export function readSnapshot(task: unknown, names: TaskFieldNames, receivedAt = Date.now()): TaskSnapshot | string {
  if (!isObject(task)) return `expected a task object, got ${JSON.stringify(task)}`;
  if (typeof task.taskId !== "string" || task.taskId === "") return `expected a task with a taskId (a non-empty string), got ${JSON.stringify(task.taskId)}`;
  if (typeof task.status !== "string" || !(TASK_STATUSES as readonly string[]).includes(task.status)) {
    return `task ${task.taskId} has status ${JSON.stringify(task.status)}; expected one of ${TASK_STATUSES.join(", ")}`;
  }
  const snapshot: TaskSnapshot = { taskId: task.taskId, status: task.status as TaskStatus, receivedAt, raw: task };
  if (typeof task.statusMessage === "string") snapshot.statusMessage = task.statusMessage;
  if (typeof task.createdAt === "string") snapshot.createdAt = task.createdAt;
  if (typeof task.lastUpdatedAt === "string") snapshot.lastUpdatedAt = task.lastUpdatedAt;
  const ttl = task[names.ttl];
  if (ttl === null || typeof ttl === "number") snapshot.ttlMs = ttl;
  const poll = task[names.pollInterval];
  if (typeof poll === "number" && Number.isFinite(poll)) snapshot.pollIntervalMs = poll;
  if (isObject(task.inputRequests)) snapshot.inputRequests = task.inputRequests;
  if (isObject(task.result)) snapshot.result = task.result;
  if (isObject(task.error) && typeof task.error.code === "number") {
    snapshot.error = { code: task.error.code, message: typeof task.error.message === "string" ? task.error.message : "", data: task.error.data };
  }
  return snapshot;
}
