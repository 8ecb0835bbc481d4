/**
 * Assertions on the call record. A failure throws node's `AssertionError` whose message says
 * what was expected and lists the calls that did happen, so the test output alone explains it:
 *
 *   Expected "search_issues" to be called 3 times, but it was called 2 times.
 *   Calls:
 *     #0 {"query":"bug","limit":10}
 *     #1 {"query":"crash"}
 */
import { AssertionError } from "node:assert";
import type { CallLog, ToolCall } from "./call-log.js";
import { McpTestkitError } from "../errors.js";
import { formatValue, firstDifference } from "./match.js";
import { listFirst, plural } from "../util/text.js";
import { closest, suggestion } from "../util/closest.js";

export interface CalledOptions {
  /** Exactly this many calls (counting only calls that match `with`, when given). */
  times?: number;
  /** A deep partial match on the arguments: extra keys are fine, a RegExp tests a string. */
  with?: Record<string, unknown>;
}

/** What the assertions read: the calls the record kept, how many fell off its front, and its limit (`recordLimit`). */
export type KeptCalls = Pick<CallLog, "all" | "dropped" | "limit">;

/** Calls listed in a failure message; the rest are counted (a tool called 5,000 times must not make 5,000 lines). */
const LISTED_CALLS = 20;

const times = (count: number): string => plural(count, "time");

function callLine(call: ToolCall, withTool: boolean): string {
  return `  ${withTool ? `${call.tool} ` : ""}#${call.index} ${formatValue(call.arguments)}`;
}

/** The first `LISTED_CALLS` lines, then how many more there are (the matchers list calls the same way). */
export function listed<T>(items: readonly T[], line: (item: T) => string): string {
  return listFirst(items, LISTED_CALLS, "\n", { format: line, more: (count) => `  … and ${count} more (in server.calls)` });
}

/** The "Calls:" section: the tool's own calls, or every call when the tool had none. */
function callsSection(all: readonly ToolCall[], tool: string, expectedArgs?: Record<string, unknown>): string {
  const own = all.filter((call) => call.tool === tool);
  if (own.length > 0) {
    return (
      "Calls:\n" +
      listed(own, (call) => {
        const line = callLine(call, false);
        if (!expectedArgs) return line;
        const difference = firstDifference(call.arguments, expectedArgs, "$");
        return difference ? `${line}\n      at ${difference.path}: expected ${formatValue(difference.expected)}, got ${formatValue(difference.actual)}` : line;
      })
    );
  }
  if (all.length === 0) return "No tool was called.";
  return "Calls to other tools:\n" + listed(all, (call) => callLine(call, true));
}

/** When calls fell off the record, what that means for the count and what to do. */
function droppedNote(kept: KeptCalls): string {
  if (kept.dropped === 0) return "";
  const keeps = kept.limit === 0 ? "keeps no calls" : `keeps the newest ${plural(kept.limit, "call")}`;
  return `\nNote: the record ${keeps}; ${plural(kept.dropped, "older call")} fell off it and ${kept.dropped === 1 ? "is" : "are"} not counted here. Pass mockMcp({ recordLimit: Infinity }) to keep every call, or server.reset() between tests to start each with an empty record.`;
}

function fail(message: string, actual?: unknown, expected?: unknown): never {
  const error = new AssertionError({ message, actual, expected, operator: "assertCalled" });
  // Keep the stack pointing at the user's assertion, not at this module.
  Error.captureStackTrace?.(error, fail);
  throw error;
}

/** The options `assertCalled` (and the `toHaveBeenCalledTool` matcher) take. */
export const CALLED_OPTIONS: readonly string[] = ["times", "with"];

export function assertCalled(kept: KeptCalls, tool: string, options: CalledOptions = {}): ToolCall[] {
  // TypeScript catches a misspelled option; plain JS would pass an assertion that checks less than it says.
  for (const key of Object.keys(options)) {
    if (!CALLED_OPTIONS.includes(key)) throw new McpTestkitError(`assertCalled("${tool}", options) has unknown option "${key}"${suggestion(key, CALLED_OPTIONS) || "."} It takes { times?, with? }.`);
  }
  if (options.times !== undefined && !(Number.isInteger(options.times) && options.times >= 0)) {
    throw new McpTestkitError(`assertCalled("${tool}", { times }) needs a whole number of calls, 0 or more; got ${String(options.times)}.`);
  }
  const all = kept.all();
  const own = all.filter((call) => call.tool === tool);
  const matching = options.with ? own.filter((call) => firstDifference(call.arguments, options.with) === undefined) : own;
  const withText = options.with ? ` with ${formatValue(options.with)}` : "";
  if (options.times !== undefined) {
    if (matching.length !== options.times) {
      const got = options.with ? `${times(matching.length)} with matching arguments` : times(matching.length);
      fail(
        `Expected "${tool}" to be called ${times(options.times)}${withText}, but it was called ${got}.\n${callsSection(all, tool, options.with)}${droppedNote(kept)}`,
        matching.length,
        options.times,
      );
    }
  } else if (matching.length === 0) {
    const got = own.length === 0 ? `it was never called${calledInstead(all, tool)}` : "no call matched";
    fail(`Expected "${tool}" to be called${withText}, but ${got}.\n${callsSection(all, tool, options.with)}${droppedNote(kept)}`);
  }
  return matching;
}

/** `; did you mean "search_issues"? It was called 2 times`, when a called tool's name is close to the one asked for. */
function calledInstead(all: readonly ToolCall[], tool: string): string {
  const near = closest(tool, new Set(all.map((call) => call.tool)));
  if (near === undefined) return "";
  return `; did you mean "${near}"? It was called ${times(all.filter((call) => call.tool === near).length)}`;
}

export function assertNotCalled(kept: KeptCalls, tool: string): void {
  const all = kept.all();
  const own = all.filter((call) => call.tool === tool);
  if (own.length > 0) fail(`Expected "${tool}" not to be called, but it was called ${times(own.length)}.\n${callsSection(all, tool)}${droppedNote(kept)}`, own.length, 0);
}

/** The tools were called in this order; other calls may come in between. */
export function assertCalledInOrder(kept: KeptCalls, tools: readonly string[]): void {
  const all = kept.all();
  let position = 0;
  let previous: ToolCall | undefined;
  for (const tool of tools) {
    const found = all.findIndex((call, i) => i >= position && call.tool === tool);
    if (found === -1) {
      const where = previous ? ` after "${previous.tool}" #${previous.index}` : "";
      const calledAtAll = all.some((call) => call.tool === tool);
      const why = calledAtAll ? `"${tool}" was not called${where}` : `"${tool}" was never called`;
      const listing = all.length === 0 ? "No tool was called." : "Calls, in order:\n" + listed(all, (call) => callLine(call, true));
      fail(`Expected tools to be called in order ${tools.map((t) => `"${t}"`).join(" → ")}, but ${why}.\n${listing}${droppedNote(kept)}`);
    }
    previous = all[found];
    position = found + 1;
  }
}

export { AssertionError };
