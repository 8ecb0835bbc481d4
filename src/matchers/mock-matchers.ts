/**
 * `toHaveBeenCalledTool`: the mock's own `assertCalled` as a matcher, so the rule for what counts
 * as a matching call (and its message listing the calls) lives in one place, the engine.
 */
import { McpTestkitError } from "../errors.js";
import { suggestion } from "../util/closest.js";
import { CALLED_OPTIONS, listed, type CalledOptions } from "../engine/assertions.js";
import { formatValue } from "../engine/match.js";
import { asMock, describeReceived, type RecordedCallLike } from "./received.js";
import { misuse, plural, projectOnto, quote, report, show, type McpMatcherContext, type McpMatcherResult } from "./report.js";

/** Which calls count: exactly `times` of them, and (if given) only those whose arguments partially match `with`. */
export type ToolCalledOptions = CalledOptions;

const MOCK_WANTED = "a mock server from mockMcp() (an object with a calls array and assertCalled())";

function requireOptions(value: unknown): ToolCalledOptions {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new McpTestkitError(`toHaveBeenCalledTool() takes options { times?, with? }; got ${show(value)}.`);
  }
  const { times, with: args, ...rest } = value as Record<string, unknown>;
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length > 0) {
    const [first = ""] = unknownKeys;
    throw new McpTestkitError(`toHaveBeenCalledTool() takes options { times?, with? }; unknown option ${unknownKeys.map(quote).join(", ")}${suggestion(first, CALLED_OPTIONS) || "."}`);
  }
  if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 0)) {
    throw new McpTestkitError(`toHaveBeenCalledTool(): times must be a whole number of calls (0 or more); got ${show(times)}.`);
  }
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    throw new McpTestkitError(`toHaveBeenCalledTool(): with must be an object of expected arguments (matched partially); got ${show(args)}.`);
  }
  return value as ToolCalledOptions;
}

/**
 * By shape, not `instanceof Error`: under Jest the test runs in a vm context whose `Error` is not
 * the one node's `AssertionError` (thrown by the mock) extends.
 */
function isAssertionError(error: unknown): error is Error & { actual?: unknown; expected?: unknown } {
  if (typeof error !== "object" || error === null) return false;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  return typeof message === "string" && (name === "AssertionError" || code === "ERR_ASSERTION");
}

function callLines(calls: readonly RecordedCallLike[]): string {
  return listed(calls, (call) => `  #${call.index} ${formatValue(call.arguments)}`);
}

function toHaveBeenCalledTool(this: McpMatcherContext, received: unknown, tool: unknown, options?: unknown): McpMatcherResult {
  if (typeof tool !== "string") throw new McpTestkitError(`toHaveBeenCalledTool() takes the tool's name (a string); got ${show(tool)}.`);
  const wanted = requireOptions(options);
  const mock = asMock(received);
  if (!mock) return misuse(this, `toHaveBeenCalledTool expects ${MOCK_WANTED}; received ${describeReceived(received)}`);

  let matching: readonly RecordedCallLike[];
  try {
    matching = mock.assertCalled(tool, wanted);
  } catch (error) {
    if (!isAssertionError(error)) throw error;
    return report(false, error.message, diffFor(mock, tool, wanted, error));
  }
  const timesText = wanted.times === undefined ? "" : ` ${plural(wanted.times, "time")}`;
  const withText = wanted.with === undefined ? "" : ` with ${formatValue(wanted.with)}`;
  const got = `${plural(matching.length, "time")}${wanted.with === undefined ? "" : " with matching arguments"}`;
  return report(true, `Expected ${quote(tool)} not to be called${timesText}${withText}, but it was called ${got}.\nCalls:\n${callLines(matching)}`);
}

/** The counts for a `times` failure; the arguments for a `with` failure on a tool called once. */
function diffFor(mock: { calls: readonly RecordedCallLike[] }, tool: string, wanted: ToolCalledOptions, error: { actual?: unknown; expected?: unknown }) {
  if (typeof error.actual === "number" && typeof error.expected === "number") return { actual: error.actual, expected: error.expected };
  const own = mock.calls.filter((call) => call.tool === tool);
  if (wanted.with !== undefined && own.length === 1) return { actual: projectOnto(own[0].arguments, wanted.with), expected: wanted.with };
  return undefined;
}

export const mockMatchers = { toHaveBeenCalledTool };
