/**
 * Before `mcp-testkit call` calls a tool: is there such a tool, and do the arguments have what
 * its input schema requires? Servers answer these mistakes in many ways (an `isError` result, a
 * -32602 error, a bare "not found"); checking against `tools/list` first gives one message that
 * lists the tools with the closest name, or shows the schema of the arguments.
 */
import type { McpDriver } from "../driver/index.js";
import { closest } from "../util/closest.js";
import { listFirst } from "../util/text.js";
import { CommandError } from "./command.js";
import { describeProperties } from "./output/schema.js";

const LISTED = 30;

/** Throws a CommandError for an unknown tool or missing required arguments; anything it cannot tell, it lets through. */
export async function checkToolCall(driver: McpDriver, name: string, args: Record<string, unknown>, targetText: string): Promise<void> {
  let tools: Awaited<ReturnType<McpDriver["getTools"]>>;
  try {
    if (!(await driver.supportsTools())) return;
    tools = await driver.getTools();
  } catch {
    return; // a server whose tools/list fails may still answer the call: let the call show what happens
  }
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    const names = tools.map((candidate) => candidate.name);
    const near = closest(name, names);
    const listed = names.length === 0 ? "It lists no tools." : `Its tools: ${listFirst(names, LISTED, ", ")}.`;
    throw new CommandError(`the server has no tool "${name}"${near ? `; did you mean "${near}"?` : "."} ${listed} Run mcp-testkit inspect ${quoteArg(targetText)} to see each tool's arguments.`);
  }
  const schema = tool.inputSchema as { required?: unknown };
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : [];
  const missing = required.filter((key) => !Object.hasOwn(args, key));
  if (missing.length === 0) return;
  const example = Object.fromEntries(required.map((key) => [key, "…"]));
  throw new CommandError(
    [
      `tool "${name}" needs ${missing.length === 1 ? "the argument" : "the arguments"} ${missing.map((key) => `"${key}"`).join(", ")}, missing from --args. Its input schema:`,
      ...describeProperties(tool.inputSchema, "  "),
      `For example: --args '${JSON.stringify({ ...example, ...args })}'`,
    ].join("\n"),
  );
}

/** The target as the user would retype it on a shell command line. */
function quoteArg(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `"${text.replaceAll('"', '\\"')}"`;
}
