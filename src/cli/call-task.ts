/**
 * `mcp-testkit call --task`: the tool call runs as a task. The flags (`--task-ttl`,
 * `--task-deadline`) become the driver's task options, and each status the task goes through is
 * said on stderr as the driver sees it (`task 3f2a…: working "computing"`), so stdout stays the
 * result. Whether the server ran it as a task is said too: it may answer at once.
 */
import type { McpDriver, TaskOptions, ToolCallResult } from "../driver/index.js";
import { UsageError } from "./command.js";

export const TASK_OPTIONS = {
  task: { type: "boolean" },
  "task-ttl": { type: "string" },
  "task-deadline": { type: "string" },
} as const;

export const TASK_HELP = `  --task               Ask the server to run the tool call as a task, poll it to the end
                       and print its status changes on stderr (2025-11-25 core tasks, or
                       the 2026-07-28 extension io.modelcontextprotocol/tasks)
  --task-ttl <ms>      How long the server should keep the task (2025-11-25 only)
  --task-deadline <ms> How long to poll before giving up and cancelling the task
                       (default 60000)`;

/** The task options the flags ask for, or undefined without `--task`. */
export function parseTaskFlags(values: { task?: boolean | undefined; "task-ttl"?: string | undefined; "task-deadline"?: string | undefined }): TaskOptions | undefined {
  if (values.task !== true) {
    const stray = (["task-ttl", "task-deadline"] as const).filter((flag) => values[flag] !== undefined);
    if (stray.length > 0) throw new UsageError(`${stray.map((flag) => `--${flag}`).join(" and ")} go${stray.length === 1 ? "es" : ""} with --task`);
    return undefined;
  }
  const options: TaskOptions = {};
  if (values["task-ttl"] !== undefined) options.ttlMs = wholeMs("--task-ttl", values["task-ttl"], 2_147_483_647);
  if (values["task-deadline"] !== undefined) options.deadlineMs = wholeMs("--task-deadline", values["task-deadline"], 3_600_000);
  return options;
}

function wholeMs(flag: string, text: string, max: number): number {
  const ms = Number(text);
  if (!(Number.isInteger(ms) && ms >= 1 && ms <= max)) throw new UsageError(`${flag} must be a whole number of milliseconds from 1 to ${max}, got "${text}"`);
  return ms;
}

/** Calls the tool as a task, saying each status change with `say` (a line on stderr). */
export async function callAsTask(driver: McpDriver, name: string, args: Record<string, unknown>, options: TaskOptions, say: (line: string) => void): Promise<ToolCallResult> {
  let seen = false;
  const result = await driver.callTool(name, args, {
    task: {
      ...options,
      onStatus: (change, task) => {
        seen = true;
        say(`task ${shortId(task.taskId)}: ${change.status}${change.statusMessage === undefined ? "" : ` ${JSON.stringify(change.statusMessage)}`}`);
      },
    },
  });
  if (!seen) say(`tool "${name}" was answered at once, with no task (the server decides)`);
  return result;
}

function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}
