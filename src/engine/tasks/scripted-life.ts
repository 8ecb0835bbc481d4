/**
 * A task's life as a step scripts it (`task: { working, workingMs, ... }` beside the step's
 * answer and asks): `working` for a number of polls and at least a time, then `input_required`
 * while the step's asks wait for answers, then (after the step's `delayMs`) completed with the
 * step's answer, failed with its `throws`, cancelled (`ends: "cancelled"`), or working for ever
 * (`hang`). A state machine moved by polls and timers, so poll n sees exactly what the script
 * says poll n sees.
 */
import type { TaskScript } from "../../formats/task-step.js";
import type { ServerRequestExchange } from "../call-log.js";
import type { StepKindCall } from "../step-kind-call.js";
import type { StepObject } from "../steps.js";
import { versionHas } from "../../protocol/versions.js";
import type { Task } from "./task.js";

type Phase = "working" | "input" | "finishing" | "done";

export class ScriptedLife {
  private phase: Phase = "working";
  private polls = 0;
  private readonly workingUntil: number;
  private readonly workingPolls: number;
  private timer?: NodeJS.Timeout;
  /** A 2025-11-25 client blocks on tasks/result instead of polling: the poll count is not waited for. */
  private blocking = false;

  constructor(
    private readonly task: Task,
    private readonly script: TaskScript,
    private readonly step: StepObject,
    private readonly call: StepKindCall,
  ) {
    const working = script.working;
    this.workingPolls = typeof working === "number" ? working : (working?.length ?? 0);
    this.workingUntil = task.createdAt + (script.workingMs ?? 0);
  }

  /** Starts the life: the task may move on at once (nothing to wait for) or when its time is up. */
  start(): void {
    this.advance();
  }

  /** A poll (tasks/get) arrived: counted, then the task moves on if its script says so, before it is answered. */
  polled(): void {
    if (this.phase !== "working") return;
    this.polls++;
    const messages = this.script.working;
    // Poll n (from 1) sees the script's n-th working status; the one after the last moves on.
    if (this.polls <= this.workingPolls && Array.isArray(messages)) this.task.setStatus("working", messages[this.polls - 1]);
    this.advance();
  }

  /** A client waits on tasks/result (2025-11-25): it will not poll, so the task goes on by time alone. */
  awaited(): void {
    this.blocking = true;
    this.advance();
  }

  stop(): void {
    this.phase = "done";
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private advance(): void {
    if (this.phase === "working") {
      if (!this.blocking && this.workingPolls > 0 && this.polls <= this.workingPolls) return;
      const wait = this.workingUntil - Date.now();
      if (wait > 0) return this.after(wait);
      this.phase = "input";
      this.ask();
      return;
    }
    if (this.phase === "finishing") {
      const delay = this.step.delayMs ?? 0;
      this.phase = "done";
      if (delay > 0) return this.after(delay, () => this.end());
      this.end();
    }
  }

  /** The step's asks, all at once: the task waits for every answer (input_required), then finishes. */
  private ask(): void {
    // 2026-07-28 has no ping to ask for; a step that pings does so in 2025-11-25 only.
    const asks = (this.step.asks ?? []).filter((ask) => ask.method !== "ping" || versionHas(this.call.context.protocolVersion, "ping"));
    if (asks.length === 0) {
      this.phase = "finishing";
      return this.advance();
    }
    const waits = asks.map((ask) => {
      const exchange: ServerRequestExchange = { method: ask.method, params: ask.params, sentAt: Date.now() };
      this.call.record.exchanges.push(exchange);
      return this.task.ask(ask.method, ask.params, exchange, undefined, this.script.inputMessage);
    });
    Promise.all(waits).then(
      () => {
        if (this.phase !== "input") return;
        this.phase = "finishing";
        this.advance();
      },
      // The task ended (cancelled, expired) while it waited: nothing more to do.
      () => undefined,
    );
  }

  private end(): void {
    const task = this.task;
    if (task.terminal) return;
    if (this.step.hang === true) return; // works for ever, until cancelled or forgotten
    if (this.script.ends === "cancelled") {
      task.cancel(this.script.message ?? "The task was cancelled.");
      return;
    }
    const { task: _task, asks: _asks, delayMs: _delay, repeat: _repeat, ...answer } = this.step as StepObject & Record<string, unknown>;
    const given = this.call.answerOf(answer as StepObject);
    if ("error" in given) task.fail(given.error);
    else task.complete(given.result as Record<string, unknown>);
  }

  private after(ms: number, then: () => void = () => this.advance()): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.task.terminal) then();
    }, ms);
    // A task nobody polls must not keep the process alive.
    this.timer.unref?.();
  }
}
