/**
 * The `task` step key, described once (the tasks feature's step kind): a step with it answers
 * a client that can take a task with one, and scripts that task's life. Read by the step
 * schema (step.ts), so run-time checks, fixture files and both JSON Schemas say the same.
 */
import { MAX_TIMER_MS } from "../util/timer-ms.js";

/** The TypeScript shape of a step's `task` (checked against the schema in test/types). */
export interface TaskScript {
  /**
   * How many polls (`tasks/get`) see the task `working` before it goes on, or the status
   * message each of them sees, one per poll. Default: none (a delay alone, or at once).
   */
  working?: number | string[];
  /** And it stays `working` at least this long, in ms, whatever the polls. */
  workingMs?: number;
  /** The status message while working (when `working` gives none) and on the task as created. */
  message?: string;
  /** The status message while the task waits for the answers to the step's `asks` (`input_required`). */
  inputMessage?: string;
  /** The poll interval the task suggests, in ms (default 100). */
  pollIntervalMs?: number;
  /** How long the task is kept after it was created, in ms (default: what a 2025-11-25 client asked, else 300000). */
  ttlMs?: number;
  /** `"cancelled"`: the task ends cancelled instead of with the step's answer. */
  ends?: "cancelled";
}

/** The words of a malformed `task`, as the TypeScript type spells it. */
export const TASK_SHAPE = '{ working?: count | ["status message", ...], workingMs?: ms, message?: string, inputMessage?: string, pollIntervalMs?: ms, ttlMs?: ms, ends?: "cancelled" }';

export const TASK_DESCRIPTION =
  "Answer with a task (when the client can take one: a 2025-11-25 request with params.task, a 2026-07-28 request declaring the io.modelcontextprotocol/tasks extension) and script its life: working for a number of polls or a time, then input_required while the step's asks wait for tasks/update (or the tasks/result stream), then completed with the step's answer, failed with its throws, or cancelled. Other clients get the step's answer as usual.";

/** The schema of a step's `task`, built with the step's zod. */
export function taskScriptSchema(z: typeof import("zod").z) {
  const ms = (min: number) => z.int().min(min).max(MAX_TIMER_MS);
  return z
    .strictObject({
      working: z.union([z.int().min(0), z.array(z.string())]).optional(),
      workingMs: ms(0).optional(),
      message: z.string().optional(),
      inputMessage: z.string().optional(),
      pollIntervalMs: ms(1).optional(),
      ttlMs: ms(1).optional(),
      ends: z.literal("cancelled").optional(),
    })
    .meta({ description: TASK_DESCRIPTION });
}
