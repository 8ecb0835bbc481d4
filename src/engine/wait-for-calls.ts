/** Waiting for an agent that runs in the background to make its calls. */
import { AssertionError } from "node:assert";
import type { CallLog, ToolCall } from "./call-log.js";
import type { EventHub } from "./events.js";
import { describeValue } from "./match.js";

export interface WaitForCallsOptions {
  /** Count only calls to this tool. */
  tool?: string;
  /** Give up after this long (default 5000 ms). */
  timeoutMs?: number;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 5000;

export function waitForCalls(log: CallLog, events: EventHub, count: number, options: WaitForCallsOptions = {}): Promise<ToolCall[]> {
  const { tool, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS } = options;
  const current = () => (tool === undefined ? log.all() : log.forTool(tool));
  const ready = current();
  if (ready.length >= count) return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    const stop = events.on("call:start", (call) => {
      if (tool !== undefined && call.tool !== tool) return;
      const calls = current();
      if (calls.length < count) return;
      clearTimeout(timer);
      stop();
      resolve(calls);
    });
    const timer = setTimeout(() => {
      stop();
      const calls = log.all();
      const listing = calls.length === 0 ? "No tool was called." : "Calls:\n" + calls.map((call) => `  ${call.tool} #${call.index} ${describeValue(call.arguments)}`).join("\n");
      const what = tool === undefined ? "tool calls" : `calls to "${tool}"`;
      reject(new AssertionError({ message: `Timed out after ${timeoutMs} ms waiting for ${count} ${what}; got ${current().length}.\n${listing}` }));
    }, timeoutMs);
  });
}
