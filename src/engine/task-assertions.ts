/**
 * Assertions on a tool's task, read from the call record: how often the client polled, updated
 * and cancelled it, and how it ended ("the agent polled 3 times and never cancelled"). A
 * failure lists the tool's calls with their tasks' lives, as the other assertions list calls.
 */
import { AssertionError } from "node:assert";
import { McpTestkitError } from "../errors.js";
import { closest } from "../util/closest.js";
import { plural } from "../util/text.js";
import { listed, type KeptCalls } from "./assertions.js";
import type { ToolCall } from "./call-log.js";

export interface TaskExpectations {
  /** Exactly this many polls (`tasks/get`, and 2025-11-25 `tasks/result`). */
  polls?: number;
  /** Exactly this many `tasks/update` requests. */
  updates?: number;
  /** Whether the client sent `tasks/cancel` at all. */
  cancelled?: boolean;
  /** The task's last status (`completed`, `failed`, `cancelled`, `working`, `input_required`). */
  status?: string;
}

const OPTIONS: readonly string[] = ["polls", "updates", "cancelled", "status"];

function taskLine(call: ToolCall): string {
  const task = call.task;
  if (task === undefined) return `  #${call.index} no task (${call.outcome})`;
  const statuses = task.statuses.map((entry) => entry.status).join(" → ");
  return `  #${call.index} task ${task.id}: ${statuses}; ${plural(task.polls.length, "poll")}, ${plural(task.updates.length, "update")}, ${plural(task.cancels.length, "cancel")}`;
}

/** Checks the task of `tool`'s latest call answered with one; returns that call. */
export function assertTask(kept: KeptCalls, tool: string, expected: TaskExpectations): ToolCall {
  for (const key of Object.keys(expected)) {
    if (!OPTIONS.includes(key)) {
      const guess = closest(key, OPTIONS);
      throw new McpTestkitError(`assertTask("${tool}", expected) has unknown option "${key}"${guess ? `; did you mean "${guess}"?` : "."} It takes { polls?, updates?, cancelled?, status? }.`);
    }
  }
  const calls = kept.all().filter((call) => call.tool === tool);
  const withTask = calls.filter((call) => call.task !== undefined);
  const call = withTask.at(-1);
  const listing = calls.length === 0 ? "No call to it was recorded." : `Calls:\n${listed(calls, taskLine)}`;
  if (call === undefined) fail(`Expected a call to "${tool}" answered with a task, but none was.\n${listing}`);
  const task = call.task!;
  const problems: string[] = [];
  if (expected.polls !== undefined && task.polls.length !== expected.polls) problems.push(`polled ${plural(task.polls.length, "time")}, expected ${plural(expected.polls, "time")}`);
  if (expected.updates !== undefined && task.updates.length !== expected.updates) problems.push(`updated ${plural(task.updates.length, "time")}, expected ${plural(expected.updates, "time")}`);
  if (expected.cancelled !== undefined && task.cancels.length > 0 !== expected.cancelled)
    problems.push(expected.cancelled ? "never cancelled, expected a tasks/cancel" : `cancelled ${plural(task.cancels.length, "time")}, expected never`);
  const status = task.statuses.at(-1)?.status;
  if (expected.status !== undefined && status !== expected.status) problems.push(`ended ${status}, expected ${expected.status}`);
  if (problems.length > 0) fail(`Expected the task of "${tool}" #${call.index} to match, but it ${problems.join("; ")}.\n${listing}`);
  return call;
}

function fail(message: string): never {
  const error = new AssertionError({ message, operator: "assertTask" });
  Error.captureStackTrace?.(error, fail);
  throw error;
}
