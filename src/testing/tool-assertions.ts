/**
 * The kit's assertions about tools, made through the kit's SDK client, so they see what a real
 * client sees. Failures throw node's `AssertionError` with the evidence in the message.
 */
import { AssertionError } from "node:assert";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { formatValue } from "../engine/match.js";
import { describePagingFailure, itemsOf, walkPages } from "../protocol/pagination.js";
import { errorText, listFirst, plural } from "../util/text.js";
import { suggestion } from "../util/closest.js";

/** Judges a tool's result: `false` or a throw fails the assertion; anything else passes. */
export type ResultCheck = (result: CallToolResult) => unknown;

/** How a tool call failed: a result with `isError: true`, or a JSON-RPC error reply. */
export type ToolFailure = { kind: "tool-error"; message: string; result: CallToolResult } | { kind: "protocol-error"; message: string; code: number; data?: unknown };

type CallOutcome = { kind: "result"; result: CallToolResult } | ToolFailure;

function fail(message: string, details: { actual?: unknown; expected?: unknown; cause?: unknown }, from: Function): never {
  const error = new AssertionError({ message, actual: details.actual, expected: details.expected, operator: from.name });
  if (details.cause !== undefined) Object.defineProperty(error, "cause", { value: details.cause, configurable: true, writable: true });
  // Keep the stack pointing at the user's assertion, not at this module.
  Error.captureStackTrace?.(error, from);
  throw error;
}

/** A server that keeps answering with new cursors is stopped here rather than looping forever. */
const MAX_PAGES = 10_000;

/**
 * Every tool the server lists, following `nextCursor` through all pages with the package's one
 * pager, so a cursor that comes back, is not a string or never ends is a clear failure rather
 * than a loop that never returns. `from` is the assertion the failure is reported for.
 */
export async function listAllTools(client: Client, from: Function = listAllTools): Promise<Tool[]> {
  const { pages, end } = await walkPages((cursor) => client.listTools(cursor === undefined ? undefined : { cursor }), MAX_PAGES);
  const tools = itemsOf(pages, "tools") as Tool[];
  if (end.kind === "done") return tools;
  const seen = tools.length === 0 ? "no tools" : `${plural(tools.length, "tool")} (${listFirst(tools, 10, ", ", { format: (tool) => tool.name })})`;
  return fail(
    `${describePagingFailure("tools/list", end)} The tools could not all be listed (${plural(pages.length, "page")} read, ${seen}); ` + "the server's paging is broken: fix its nextCursor.",
    { actual: pages.map((page) => page.nextCursor) },
    from,
  );
}

export async function assertToolExists(client: Client, name: string): Promise<Tool> {
  const tools = await listAllTools(client, assertToolExists);
  const found = tools.find((tool) => tool.name === name);
  if (found) return found;
  const names = tools.map((tool) => tool.name);
  const present = names.length === 0 ? "the server has no tools" : `the server has: ${names.join(", ")}${suggestion(name, names)}`;
  return fail(`Expected tool "${name}" to exist, but ${present}`, { actual: names, expected: name }, assertToolExists);
}

/**
 * The server's own message, without the SDK's "MCP error <code>: " prefix. The SDK's `McpError`
 * keeps the server's words only inside that message (it has `code` and `data`, no field for them),
 * so this reads the SDK's documented format, and leaves any other message whole.
 */
function serverMessage(error: McpError): string {
  const prefix = `MCP error ${error.code}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

function toolErrorText(result: CallToolResult): string {
  const texts = (result.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : []));
  return texts.length > 0 ? texts.join("\n") : formatValue(result.content);
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  try {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError === true) return { kind: "tool-error", message: toolErrorText(result), result };
    return { kind: "result", result };
  } catch (error) {
    if (error instanceof McpError) {
      const failure: ToolFailure = { kind: "protocol-error", message: serverMessage(error), code: error.code };
      if (error.data !== undefined) failure.data = error.data;
      return failure;
    }
    throw error;
  }
}

function describeFailure(failure: ToolFailure): string {
  return failure.kind === "tool-error" ? `a tool error: ${failure.message}` : `JSON-RPC error ${failure.code}: ${failure.message}`;
}

/**
 * Calls the tool and passes its result to `check`. Fails when the call fails (a tool error or a
 * JSON-RPC error; use `assertToolFails` for those) or when `check` returns false or throws.
 */
export async function assertToolReturns(client: Client, name: string, args: Record<string, unknown>, check: ResultCheck): Promise<CallToolResult> {
  const outcome = await callTool(client, name, args);
  const expected = `Expected tool "${name}" to return a result that passes the check`;
  if (outcome.kind === "tool-error") {
    fail(`${expected}, but it returned ${describeFailure(outcome)}\nResult: ${formatValue(outcome.result)}`, { actual: outcome.result }, assertToolReturns);
  }
  if (outcome.kind === "protocol-error") {
    fail(`${expected}, but the call failed with ${describeFailure(outcome)}`, { actual: outcome }, assertToolReturns);
  }
  const { result } = outcome;
  let verdict: unknown;
  try {
    verdict = await check(result);
  } catch (thrown) {
    const reason = errorText(thrown);
    fail(`${expected}, but the check threw: ${reason}\nResult: ${formatValue(result)}`, { actual: result, cause: thrown }, assertToolReturns);
  }
  if (verdict === false) fail(`${expected}, but the check returned false\nResult: ${formatValue(result)}`, { actual: result }, assertToolReturns);
  return result;
}

/**
 * Calls the tool and expects it to fail, with a tool error (`isError: true`) or a JSON-RPC
 * error. `expected` (a string for the exact message, or a RegExp) checks the failure's message.
 */
export async function assertToolFails(client: Client, name: string, args: Record<string, unknown>, expected?: string | RegExp): Promise<ToolFailure> {
  const outcome = await callTool(client, name, args);
  const wanted = expected === undefined ? "" : ` with ${typeof expected === "string" ? JSON.stringify(expected) : String(expected)}`;
  if (outcome.kind === "result") {
    fail(`Expected tool "${name}" to fail${wanted}, but it returned a result\nResult: ${formatValue(outcome.result)}`, { actual: outcome.result, expected }, assertToolFails);
  }
  const matched = expected === undefined || (typeof expected === "string" ? outcome.message === expected : outcome.message.search(expected) !== -1);
  if (!matched) fail(`Expected tool "${name}" to fail${wanted}, but it failed with ${describeFailure(outcome)}`, { actual: outcome.message, expected }, assertToolFails);
  return outcome;
}
