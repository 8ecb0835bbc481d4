/** Waiting for an agent that runs in the background to make its calls (or to see them answered). */
import { AssertionError } from "node:assert";
import type { CallLog, ToolCall } from "./call-log.js";
import type { EventHub } from "./events.js";
import { formatValue } from "./match.js";
import { waitWithTimeout } from "../util/wait-with-timeout.js";
import { waitArgumentsProblem } from "./wait-checks.js";
import { closest } from "../util/closest.js";

/** Options of `server.waitForCalls(count, options)`: which tool, how long, and whether to count only calls that ended. */
export interface WaitForCallsOptions {
  /** Count only calls to this tool. */
  tool?: string;
  /** Give up after this long, in ms (default 5000; at most 2147483647, a longer one is refused). */
  timeoutMs?: number;
  /**
   * Count only calls that have ended (answered, failed, cancelled or disconnected) instead of
   * calls that have started. A call starts when the request arrives, before its step runs, so
   * without this a slow or hanging step is still `pending` when the wait resolves.
   */
  ended?: boolean;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 5000;

const OPTION_KINDS = { tool: "string", timeoutMs: "number", ended: "boolean" } as const;

/**
 * Resolves with the calls (of `tool`; only the ended ones with `ended`) once there are at least
 * `count`. `toolNames` gives the tools the mock has, so a timeout can point out a misspelt `tool`.
 */
export function waitForCalls(log: CallLog, events: EventHub, count: number, options: WaitForCallsOptions = {}, toolNames: () => Iterable<string> = () => []): Promise<ToolCall[]> {
  const problem = waitArgumentsProblem("waitForCalls", count, options, OPTION_KINDS);
  if (problem) return Promise.reject(problem);
  const { tool, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS, ended = false } = options;
  const current = () => {
    const calls = tool === undefined ? log.all() : log.forTool(tool);
    return ended ? calls.filter((call) => call.outcome !== "pending") : calls;
  };
  const ready = current();
  if (ready.length >= count) return Promise.resolve(ready);
  const event = ended ? "call:end" : "call:start";
  return waitWithTimeout<ToolCall[]>(
    (done) =>
      events.on(event, (call: ToolCall) => {
        if (tool !== undefined && call.tool !== tool) return;
        const calls = current();
        if (calls.length >= count) done(calls);
      }),
    timeoutMs,
    () => {
      const calls = log.all();
      const listing = calls.length === 0 ? "No tool was called." : "Calls:\n" + calls.map((call) => `  ${call.tool} #${call.index} ${formatValue(call.arguments)} → ${call.outcome}`).join("\n");
      const what = tool === undefined ? "tool calls" : `calls to "${tool}"`;
      const got = ended ? `${current().length} ended` : `got ${current().length}`;
      return new AssertionError({ message: `Timed out after ${timeoutMs} ms waiting for ${count} ${what}${ended ? " to end" : ""}; ${got}.${unknownToolHint(tool, calls, toolNames)}\n${listing}` });
    },
  );
}

/** ` The mock has no tool "serach" and none was called; did you mean "search"?`, for a `tool` nothing knows. */
function unknownToolHint(tool: string | undefined, calls: readonly ToolCall[], toolNames: () => Iterable<string>): string {
  if (tool === undefined) return "";
  const known = new Set([...toolNames(), ...calls.map((call) => call.tool)]);
  if (known.has(tool)) return "";
  const near = closest(tool, known);
  return ` The mock has no tool ${JSON.stringify(tool)} and none was called${near === undefined ? "" : `; did you mean ${JSON.stringify(near)}?`}`;
}
