/**
 * A task the server is running for a tool call: `startTask()` gives one, and `callTool(name,
 * args, { task })` waits on one. `status()` polls once (`tasks/get`); `wait()` polls as the server
 * asks (its poll interval, within a deadline), gives the server the input it asks for with the
 * driver's handlers, and resolves with the tool's result; `update()` sends input responses
 * yourself (2026-07-28); `cancel()` cancels it. `history` is every status it went through, as the
 * driver saw it. What differs between the eras is the wire's (task-wire.ts), not the handle's.
 */
import { ErrorCode } from "../protocol/errors.js";
import { onAbort } from "../util/on-abort.js";
import { errorText } from "../util/text.js";
import { McpDriverError, RequestTimeoutError } from "./errors.js";
import { TASK_HANDLE_MARKER } from "./markers.js";
import { defaultErrorFor, describeErrorObject } from "./request-errors.js";
import type { CallOptions, ErrorFor, JsonObject, RequestSpec } from "./request-types.js";
import { ToolCallResult } from "./results.js";
import { describeHistory, TaskError } from "./task-errors.js";
import { isTerminalStatus, MIN_TASK_POLL_INTERVAL_MS, type TaskOptions, type TaskSnapshot, type TaskStatus, type TaskStatusChange } from "./task-types.js";
import type { TaskOutcome, TaskRequests, TaskWire } from "./task-wire.js";

/** What a handle works with: the era's wire, the requests, and the call's options. */
export interface TaskRun {
  wire: TaskWire;
  io: TaskRequests;
  deadlineMs: number;
  pollIntervalMs: number;
  onStatus: TaskOptions["onStatus"];
  /** The call's own options: its signal and per-request timeout apply to every request of the task. */
  call: CallOptions;
  /** Aborts when the driver closes: a wait between polls stops then. */
  closing: AbortSignal;
}

export class TaskHandle {
  declare readonly [TASK_HANDLE_MARKER]: true;
  readonly taskId: string;
  readonly toolName: string;
  /** What the tool call answered: the task as it was created. */
  readonly created: TaskSnapshot;
  readonly #run: TaskRun;
  #last: TaskSnapshot;
  readonly #history: TaskStatusChange[] = [];
  #polls = 0;
  #outcome: TaskOutcome | undefined;
  /** Input requests already answered (2026-07-28), so a poll that still lists one does not answer it twice. */
  readonly #answered = new Set<string>();

  constructor(run: TaskRun, created: TaskSnapshot) {
    this.#run = run;
    this.taskId = created.taskId;
    this.toolName = run.io.toolName;
    this.created = created;
    this.#last = created;
    this.#record(created);
  }

  /** The last thing the server said of the task. */
  get last(): TaskSnapshot {
    return this.#last;
  }

  /** Every status the task went through, oldest first (a change of status or of its message). */
  get history(): readonly TaskStatusChange[] {
    return [...this.#history];
  }

  /** The statuses alone, oldest first: `["working", "input_required", "working", "completed"]`. */
  get statuses(): TaskStatus[] {
    return this.#history.map((change) => change.status).filter((status, index, all) => index === 0 || all[index - 1] !== status);
  }

  /** How many times the task was polled (`tasks/get`). */
  get polls(): number {
    return this.#polls;
  }

  get isTerminal(): boolean {
    return isTerminalStatus(this.#last.status);
  }

  /** Polls once (`tasks/get`) and returns what the server says now. */
  async status(): Promise<TaskSnapshot> {
    const { wire, io } = this.#run;
    this.#polls++;
    const answer = await io.send("tasks/get", wire.params(this.taskId), this.#spec("tasks/get"));
    const read = wire.snapshot(answer);
    if (typeof read === "string") throw this.#malformed(`tasks/get answered with something that is not a task: ${read}`);
    if (read.taskId !== this.taskId) throw this.#malformed(`tasks/get for task ${this.taskId} answered about task ${read.taskId}`);
    this.#record(read);
    return read;
  }

  /**
   * Polls until the task ends, as often as the server asks (`pollIntervalMs`; the default when it
   * names none), answering its input requests with the driver's handlers (and the call's
   * `onServerRequest`). Resolves with the tool's result (a tool error is a result with `isError`,
   * as `callTool` gives it); throws a `TaskError` when the task failed, was cancelled, or was still
   * running at the deadline (the task goes on at the server: `cancel()` it if you are done with it).
   */
  async wait(options: { deadlineMs?: number } = {}): Promise<ToolCallResult> {
    const deadlineMs = options.deadlineMs ?? this.#run.deadlineMs;
    const deadline = Date.now() + deadlineMs;
    const { wire, io } = this.#run;
    try {
      while (this.#outcome === undefined) {
        const task = this.#last;
        if (task.status === "cancelled") throw this.#ended();
        if (isTerminalStatus(task.status)) {
          this.#outcome = await wire.outcome(task, io, this.#spec("tasks/result", deadline));
          break;
        }
        if (task.status === "input_required") {
          const outcome = await wire.provideInput(task, this.#answered, io, this.#spec("input", deadline));
          if (outcome !== undefined) {
            this.#outcome = outcome;
            // The stream that brought the outcome does not say the status: one poll puts it in the history.
            await this.status().catch(() => undefined);
            break;
          }
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw this.#deadlinePassed(deadlineMs);
        await this.#pause(Math.min(this.#interval(), remaining));
        await this.status();
      }
    } catch (error) {
      if (error instanceof RequestTimeoutError && Date.now() >= deadline) throw this.#deadlinePassed(deadlineMs, error);
      throw error;
    }
    return this.#finish(this.#outcome);
  }

  /**
   * Sends input responses yourself (`tasks/update`, 2026-07-28), keyed as the task's
   * `inputRequests` are; `wait()` then does not answer those keys again. In 2025-11-25 a server
   * asks for input on the `tasks/result` stream, which `wait()` opens: this throws there.
   */
  async update(inputResponses: Record<string, JsonObject>): Promise<void> {
    const { wire, io } = this.#run;
    await wire.update(this.#last, inputResponses, io, this.#spec("tasks/update"));
    for (const key of Object.keys(inputResponses)) this.#answered.add(key);
  }

  /** Cancels the task (`tasks/cancel`) and returns what the server says of it then. */
  async cancel(): Promise<TaskSnapshot> {
    const { wire, io } = this.#run;
    const answered = await wire.cancel(this.taskId, io, this.#spec("tasks/cancel"));
    if (answered === undefined) return await this.status();
    this.#record(answered);
    return answered;
  }

  #record(task: TaskSnapshot): void {
    const before = this.#history.at(-1);
    if (before !== undefined && isTerminalStatus(before.status) && task.status !== before.status) {
      throw this.#malformed(`task ${this.taskId} was ${before.status} and is now ${task.status}; a task never leaves a terminal status (completed, failed, cancelled)`);
    }
    this.#last = task;
    if (before !== undefined && before.status === task.status && before.statusMessage === task.statusMessage) return;
    const change: TaskStatusChange = { status: task.status, at: task.receivedAt };
    if (task.statusMessage !== undefined) change.statusMessage = task.statusMessage;
    this.#history.push(change);
    this.#run.onStatus?.(change, task);
  }

  /** The server's poll interval when it names one (never below the floor), else the call's. */
  #interval(): number {
    return Math.max(MIN_TASK_POLL_INTERVAL_MS, this.#last.pollIntervalMs ?? this.#run.pollIntervalMs);
  }

  #spec(method: string, deadline?: number): RequestSpec {
    const { call } = this.#run;
    const remaining = deadline === undefined ? undefined : Math.max(1, deadline - Date.now());
    const timeoutMs = remaining === undefined ? call.timeoutMs : Math.min(call.timeoutMs ?? remaining, remaining);
    const spec: RequestSpec = { label: `${method} ${this.taskId}`, errorFor: this.#errorFor };
    if (timeoutMs !== undefined) spec.timeoutMs = timeoutMs;
    if (call.signal !== undefined) spec.signal = call.signal;
    return spec;
  }

  /** -32602 to a task request: the server does not know the task. */
  readonly #errorFor: ErrorFor = (error, request) => {
    if (error.code !== ErrorCode.InvalidParams) return defaultErrorFor(error, request);
    if (request.method === "tasks/cancel" && this.isTerminal) {
      return new TaskError(
        `The server refused to cancel task ${this.taskId} of tool "${this.toolName}", which had already ended ${this.#last.status}: tasks/cancel answered ${describeErrorObject(error)} (${this.#run.wire.speaks}).`,
        { reason: "alreadyEnded", toolName: this.toolName, task: this.#last, history: this.#history, method: request.method, process: this.#run.io.processContext() },
      );
    }
    const ttl = this.#last.ttlMs;
    const kept =
      ttl === undefined ? "" : ttl === null ? " (it said it keeps the task for ever)" : ` (it said it keeps the task ${ttl} ms${this.#last.createdAt ? ` from ${this.#last.createdAt}` : ""})`;
    return new TaskError(
      `The server does not know task ${this.taskId} of tool "${this.toolName}": ${request.method} answered ${describeErrorObject(error)}. ` +
        `It may have expired${kept}, never existed, or belong to another client (a server keeps a task to the one that made it). Statuses seen: ${describeHistory(this.#history)}.`,
      { reason: "unknownTask", toolName: this.toolName, task: this.#last, history: this.#history, method: request.method, process: this.#run.io.processContext() },
    );
  };

  #finish(outcome: TaskOutcome): ToolCallResult {
    const status = this.#last.status;
    if ("error" in outcome) {
      const { error } = outcome;
      throw new TaskError(`Task ${this.taskId} of tool "${this.toolName}" failed with JSON-RPC error ${describeErrorObject(error)}. Statuses seen: ${describeHistory(this.#history)}.`, {
        reason: "failed",
        toolName: this.toolName,
        task: this.#last,
        history: this.#history,
        error,
        process: this.#run.io.processContext(),
      });
    }
    if (status === "failed") {
      throw new TaskError(`Task ${this.taskId} of tool "${this.toolName}" failed; its result: ${JSON.stringify(outcome.result)}. Statuses seen: ${describeHistory(this.#history)}.`, {
        reason: "failed",
        toolName: this.toolName,
        task: this.#last,
        history: this.#history,
        result: outcome.result,
        process: this.#run.io.processContext(),
      });
    }
    return new ToolCallResult(outcome.result, this.toolName);
  }

  #ended(): TaskError {
    const why = this.#last.statusMessage === undefined ? "" : ` (${JSON.stringify(this.#last.statusMessage)})`;
    return new TaskError(`Task ${this.taskId} of tool "${this.toolName}" was cancelled${why}, so it has no result. Statuses seen: ${describeHistory(this.#history)}.`, {
      reason: "cancelled",
      toolName: this.toolName,
      task: this.#last,
      history: this.#history,
      process: this.#run.io.processContext(),
    });
  }

  #deadlinePassed(deadlineMs: number, cause?: unknown): TaskError {
    return new TaskError(
      `Task ${this.taskId} of tool "${this.toolName}" was still ${this.#last.status} after ${deadlineMs} ms (${this.#polls} polls; statuses seen: ${describeHistory(this.#history)}). ` +
        `The driver stopped waiting; the task may go on at the server. If it is just slow, pass a longer { deadlineMs }; cancel() it if you are done with it.`,
      { reason: "deadline", toolName: this.toolName, task: this.#last, history: this.#history, cause, process: this.#run.io.processContext() },
    );
  }

  #malformed(what: string): TaskError {
    return new TaskError(`Tool "${this.toolName}": ${what} (${this.#run.wire.speaks}).`, {
      reason: "malformedTask",
      toolName: this.toolName,
      task: this.#last,
      history: this.#history,
      process: this.#run.io.processContext(),
    });
  }

  /** Waits `ms`, unless the call's signal aborts or the driver closes first. */
  #pause(ms: number): Promise<void> {
    const { call, closing } = this.#run;
    return new Promise<void>((resolve, reject) => {
      const stop = (reason: unknown) => {
        clearTimeout(timer);
        stopCall();
        stopClosing();
        reject(
          new McpDriverError(`Waiting on task ${this.taskId} of tool "${this.toolName}" stopped: ${errorText(reason)}. The task may go on at the server.`, {
            cause: reason,
            process: this.#run.io.processContext(),
          }),
        );
      };
      const timer = setTimeout(() => {
        stopCall();
        stopClosing();
        resolve();
      }, ms);
      const stopCall = onAbort(call.signal, stop);
      const stopClosing = onAbort(closing, stop);
    });
  }
}

Object.defineProperty(TaskHandle.prototype, TASK_HANDLE_MARKER, { value: true, enumerable: false });
