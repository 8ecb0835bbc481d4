/**
 * Matchers on a task (a `TaskHandle` from `startTask`, or the promise of one): that it completes
 * with a result, that it fails (with a code, a message), and the statuses it went through. The
 * first two wait for the task (`await` them); the failure says how far the task got.
 */
import { McpTestkitError } from "../errors.js";
import { firstDifference } from "../engine/match.js";
import { describeReceived } from "./received.js";
import { misuse, projectOnto, quote, report, show, type McpMatcherContext, type McpMatcherResult } from "./report.js";

const HANDLE_WANTED = "a task handle (from driver.startTask())";

/** The driver's `TaskHandle` marker: recognised by shape and symbol, so a handle from another copy of the package works too. */
const TASK_HANDLE_MARKER = Symbol.for("mcp-testkit.taskHandle");

/** What the matchers read of a task handle. */
interface TaskHandle {
  readonly taskId: string;
  readonly toolName: string;
  readonly statuses: string[];
  readonly history: readonly { status: string; statusMessage?: string }[];
  readonly polls: number;
  wait(): Promise<Record<string, unknown>>;
}

/** What the matchers read of the driver's `TaskError`. */
interface TaskError {
  readonly reason: string;
  readonly message: string;
  readonly task?: { status: string };
  readonly error?: { code: number; message: string };
  readonly result?: unknown;
}

function isTaskHandle(value: unknown): value is TaskHandle {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TASK_HANDLE_MARKER] === true;
}

function describeHistory(history: TaskHandle["history"]): string {
  if (history.length === 0) return "(no status seen)";
  return history.map((change) => (change.statusMessage === undefined ? change.status : `${change.status} (${JSON.stringify(change.statusMessage)})`)).join(" → ");
}

/** What `toFailTask` may ask of the failure: the JSON-RPC error's code, and its message (a string it contains, or a RegExp). */
export interface TaskFailureExpectation {
  code?: number;
  message?: string | RegExp;
}

async function handleOf(context: McpMatcherContext, received: unknown, matcher: string): Promise<{ task: TaskHandle } | { failure: McpMatcherResult }> {
  const value = received !== null && typeof received === "object" && typeof (received as PromiseLike<unknown>).then === "function" ? await (received as PromiseLike<unknown>) : received;
  if (isTaskHandle(value)) return { task: value };
  return { failure: misuse(context, `${matcher} expects ${HANDLE_WANTED}; received ${describeReceived(value)}`) };
}

/** How the task ended, from `wait()`: its result, or the `TaskError` it ended with. */
async function settle(task: TaskHandle): Promise<{ result: Record<string, unknown> } | { error: TaskError }> {
  try {
    return { result: { ...(await task.wait()) } };
  } catch (error) {
    if ((error as { name?: unknown }).name === "TaskError") return { error: error as TaskError };
    throw error;
  }
}

function name(task: TaskHandle): string {
  return `task ${task.taskId} of tool ${quote(task.toolName)}`;
}

function ending(error: TaskError): string {
  if (error.reason === "failed") return error.error === undefined ? `it failed with result ${show(error.result)}` : `it failed with JSON-RPC error ${error.error.code}: ${quote(error.error.message)}`;
  if (error.reason === "cancelled") return "it was cancelled";
  if (error.reason === "deadline") return `it was still ${error.task?.status ?? "running"} at the deadline`;
  return `waiting on it failed: ${error.message}`;
}

async function toCompleteTaskWith(this: McpMatcherContext, received: unknown, expected?: unknown): Promise<McpMatcherResult> {
  const checked = await handleOf(this, received, "toCompleteTaskWith");
  if ("failure" in checked) return checked.failure;
  const { task } = checked;
  const settled = await settle(task);
  const statuses = `statuses seen: ${describeHistory(task.history)}`;
  if ("error" in settled) return report(false, `expected ${name(task)} to complete${expected === undefined ? "" : ` with ${show(expected)}`}, but ${ending(settled.error)} (${statuses})`);
  if (expected === undefined) return report(true, `expected ${name(task)} not to complete, but it did with ${show(settled.result)}`);
  const difference = firstDifference(settled.result, expected);
  if (!difference) return report(true, `expected ${name(task)} not to complete with ${show(expected)}, but it did`);
  return report(false, `expected ${name(task)} to complete with ${show(expected)}; at ${difference.path}: expected ${show(difference.expected)}, got ${show(difference.actual)} (${statuses})`, {
    actual: projectOnto(settled.result, expected),
    expected,
  });
}

async function toFailTask(this: McpMatcherContext, received: unknown, expected: TaskFailureExpectation = {}): Promise<McpMatcherResult> {
  if (typeof expected !== "object" || expected === null) throw new McpTestkitError(`toFailTask() takes { code?, message? }; got ${show(expected)}.`);
  const checked = await handleOf(this, received, "toFailTask");
  if ("failure" in checked) return checked.failure;
  const { task } = checked;
  const settled = await settle(task);
  const statuses = `statuses seen: ${describeHistory(task.history)}`;
  const wanted = [
    expected.code === undefined ? "" : ` with code ${expected.code}`,
    expected.message === undefined ? "" : ` and a message ${typeof expected.message === "string" ? `containing ${quote(expected.message)}` : `matching ${String(expected.message)}`}`,
  ].join("");
  if ("result" in settled) return report(false, `expected ${name(task)} to fail${wanted}, but it completed with ${show(settled.result)} (${statuses})`);
  const { error } = settled;
  if (error.reason !== "failed") return report(false, `expected ${name(task)} to fail${wanted}, but ${ending(error)} (${statuses})`);
  const code = error.error?.code;
  const message = error.error?.message ?? "";
  const codeMatches = expected.code === undefined || code === expected.code;
  const messageMatches =
    expected.message === undefined || (typeof expected.message === "string" ? message.includes(expected.message) : ((expected.message.lastIndex = 0), expected.message.test(message)));
  if (codeMatches && messageMatches) return report(true, `expected ${name(task)} not to fail${wanted}, but ${ending(error)}`);
  return report(false, `expected ${name(task)} to fail${wanted}, but ${ending(error)}`, { actual: { code, message }, expected: { ...expected } });
}

function toHaveTaskStatuses(this: McpMatcherContext, received: unknown, expected: readonly string[]): McpMatcherResult {
  if (!Array.isArray(expected)) throw new McpTestkitError(`toHaveTaskStatuses() takes the statuses in order (an array of strings); got ${show(expected)}.`);
  if (!isTaskHandle(received)) return misuse(this, `toHaveTaskStatuses expects ${HANDLE_WANTED}; received ${describeReceived(received)}`);
  const seen = received.statuses;
  const pass = seen.length === expected.length && seen.every((status, index) => status === expected[index]);
  if (pass) return report(true, `expected ${name(received)} not to go through ${expected.join(" → ")}, but it did`);
  return report(false, `expected ${name(received)} to go through ${expected.join(" → ")}; it went through ${seen.join(" → ") || "(nothing yet)"} (${received.polls} polls)`, {
    actual: seen,
    expected,
  });
}

export const taskMatchers = { toCompleteTaskWith, toFailTask, toHaveTaskStatuses };
