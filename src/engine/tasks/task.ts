/**
 * One task: the state a client polls (status, message, times, its outcome once terminal), the
 * input it waits for, and the record of its life on its call. Whatever drives the task (a
 * step's script, a step function) moves it only through these methods, so a terminal task never
 * changes and every change is recorded and told once.
 */
import type { JsonRpcErrorObject } from "../../protocol/jsonrpc.js";
import type { ServerRequestExchange, TaskRecord } from "../call-log.js";

type Json = Record<string, unknown>;

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** One request the task waits for the client to answer (a `tasks/update` key; 2025-11-25: a server request on the tasks/result stream). */
export interface PendingInput {
  readonly key: string;
  readonly method: string;
  readonly params?: Json;
  readonly exchange: ServerRequestExchange;
  /** Set while a 2025-11-25 server request for it is on a `tasks/result` stream. */
  sent?: boolean;
  resolve(result: Json): void;
  reject(error: JsonRpcErrorObject): void;
}

export interface TaskOptions {
  readonly id: string;
  /** Who may see and drive the task (a session, or a test id on a mount). */
  readonly owner: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly message?: string;
  readonly record: TaskRecord;
}

export class Task {
  readonly id: string;
  readonly owner: string;
  readonly createdAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly record: TaskRecord;
  status: TaskStatus = "working";
  statusMessage?: string;
  lastUpdatedAt: number;
  result?: Json;
  error?: JsonRpcErrorObject;
  /** The requests the task waits for, by key (in the order it asked). */
  readonly inputs = new Map<string, PendingInput>();
  /** Aborted when the task is cancelled, expires or the mock forgets it: its work stops (made when first asked for). */
  #controller?: AbortController;
  /** The ISO forms of the times, made once each (every poll shows them). */
  #createdIso?: string;
  #updatedIso?: string;
  /** Told every change (notifications, a waiting tasks/result). */
  private readonly listeners = new Set<(task: Task) => void>();
  private inputCount = 0;

  constructor(options: TaskOptions) {
    this.id = options.id;
    this.owner = options.owner;
    this.createdAt = Date.now();
    this.lastUpdatedAt = this.createdAt;
    this.ttlMs = options.ttlMs;
    this.pollIntervalMs = options.pollIntervalMs;
    this.record = options.record;
    this.statusMessage = options.message;
    this.record.statuses.push({ status: "working", ...(options.message !== undefined && { message: options.message }), at: this.createdAt });
  }

  get controller(): AbortController {
    this.#controller ??= new AbortController();
    if (this.terminal && this.status === "cancelled" && !this.#controller.signal.aborted) this.#controller.abort(new Error(`task ${this.id} was cancelled`));
    return this.#controller;
  }

  get createdIso(): string {
    return (this.#createdIso ??= new Date(this.createdAt).toISOString());
  }

  get updatedIso(): string {
    return (this.#updatedIso ??= new Date(this.lastUpdatedAt).toISOString());
  }

  get terminal(): boolean {
    return isTerminal(this.status);
  }

  get expiresAt(): number {
    return this.createdAt + this.ttlMs;
  }

  /** Moves the task to `status` (a terminal task stays as it is); false when nothing changed. */
  setStatus(status: TaskStatus, message?: string): boolean {
    if (this.terminal || (status === this.status && message === this.statusMessage)) return false;
    this.status = status;
    this.statusMessage = message;
    this.lastUpdatedAt = Date.now();
    this.#updatedIso = undefined;
    this.record.statuses.push({ status, ...(message !== undefined && { message }), at: this.lastUpdatedAt });
    if (isTerminal(status)) this.finish();
    this.tell();
    return true;
  }

  complete(result: Json, message?: string): boolean {
    if (this.terminal) return false;
    this.result = result;
    return this.setStatus("completed", message);
  }

  fail(error: JsonRpcErrorObject, message?: string): boolean {
    if (this.terminal) return false;
    this.error = error;
    return this.setStatus("failed", message ?? error.message);
  }

  cancel(message = "The task was cancelled by request."): boolean {
    return this.setStatus("cancelled", message);
  }

  /** Waits for the client's answer to `method` (the task shows `input_required` while any is outstanding). */
  ask(method: string, params: Json | undefined, exchange: ServerRequestExchange, key: string | undefined, message?: string): Promise<Json> {
    if (this.terminal) return Promise.reject({ code: -32603, message: `task ${this.id} is ${this.status}: it asks nothing more` });
    const name = key !== undefined && !this.inputs.has(key) ? key : `${method.split("/")[0]}-${++this.inputCount}`;
    const answer = new Promise<Json>((resolve, reject) => {
      this.inputs.set(name, { key: name, method, params, exchange, resolve, reject });
    });
    this.setStatus("input_required", message ?? this.statusMessage);
    this.tell();
    return answer;
  }

  /** Answers outstanding inputs by key (others are ignored, as the extension says); the keys it took. */
  answer(responses: Json, message?: string): string[] {
    const accepted: string[] = [];
    for (const [key, response] of Object.entries(responses)) {
      const input = this.inputs.get(key);
      if (input === undefined) continue;
      this.inputs.delete(key);
      accepted.push(key);
      input.exchange.result = response as Json;
      input.exchange.answeredAt = Date.now();
      input.resolve(response as Json);
    }
    if (accepted.length > 0 && this.inputs.size === 0 && this.status === "input_required") this.setStatus("working", message);
    return accepted;
  }

  /** A client's answer to one input was an error (2025-11-25, on the tasks/result stream). */
  refuseInput(key: string, error: JsonRpcErrorObject): void {
    const input = this.inputs.get(key);
    if (input === undefined) return;
    this.inputs.delete(key);
    input.exchange.error = error;
    input.exchange.answeredAt = Date.now();
    input.reject(error);
  }

  /** The outstanding inputs as the extension's `inputRequests` map. */
  inputRequests(): Json {
    const requests: Json = {};
    for (const input of this.inputs.values()) requests[input.key] = input.params === undefined ? { method: input.method } : { method: input.method, params: input.params };
    return requests;
  }

  onChange(listener: (task: Task) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets the task: its work stops and nobody waits on it any more. */
  drop(reason: string): void {
    if (this.#controller !== undefined && !this.#controller.signal.aborted) this.#controller.abort(new Error(reason));
    for (const input of this.inputs.values()) input.reject({ code: -32603, message: reason });
    this.inputs.clear();
    this.listeners.clear();
  }

  private finish(): void {
    for (const input of this.inputs.values()) input.reject({ code: -32603, message: `task ${this.id} ended ${this.status} before the client answered ${input.method}` });
    this.inputs.clear();
    if (this.status === "cancelled" && this.#controller !== undefined && !this.#controller.signal.aborted) this.#controller.abort(new Error(`task ${this.id} was cancelled`));
  }

  private tell(): void {
    for (const listener of [...this.listeners]) listener(this);
  }
}
